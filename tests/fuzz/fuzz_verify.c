// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer entry for the verifier: any bytes are a few map descriptions,
 * options and an instruction stream (tests/fuzz/verify_input.h), verified
 * once; beyond the sanitizers, the result is held to what the API promises
 * (a NUL-terminated log of log_len bytes, one fact per instruction, sane
 * ranges in the facts) and logging must never change a verdict.
 *
 * Random bytes rarely get past the first few instructions, so the mutator
 * knows the format: most mutations change one field of one instruction to a
 * value that means something (a valid opcode, a register, a stack offset, a
 * helper id, a jump target inside the program), insert, drop or swap
 * instructions, or flip an option, starting from the valid programs of the
 * seed corpus (scripts/run-fuzz.sh makes it with verify_seeds.c). The rest
 * are libFuzzer's own byte mutations. Build (scripts/run-fuzz.sh does):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined \
 *     -fno-sanitize-recover=undefined -I. -Iinclude -Iprogs/include \
 *     tests/fuzz/fuzz_verify.c verifier/\*.c loader/\*.c \
 *     -lbpf -lelf -lz -o fuzz_verify
 * (run-fuzz.sh leaves comparison tracing out of the library: the pruning
 * compares states, not input bytes, and tracing it made the fuzzer 7x
 * slower.)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/verify_input.h"
#include "verifier/verifier.h"

#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80
#endif

/*
 * Single inputs stay fast. fwd.bpf.c needs about 3000 instructions; a loop
 * that runs into the budget costs far more per instruction, as every visit
 * of its head is compared with up to 256 stored states: 20000 keep such an
 * input near 3 seconds under the sanitizers, well inside -timeout.
 */
#define FUZZ_BUDGET 20000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
				 size_t size2, uint8_t *out, size_t max_out_size,
				 unsigned int seed);

#define fail(...)                                                                                  \
	do {                                                                                       \
		fprintf(stderr, "fuzz_verify: " __VA_ARGS__);                                      \
		fputc('\n', stderr);                                                               \
		abort();                                                                           \
	} while (0)

static int log_level_of(uint8_t options)
{
	int level = options & VI_OPT_LOG_LEVEL;

	return level == 3 ? 1 : level;
}

static void check_reg_fact(const struct hwxdp_reg_fact *f, size_t insn, int regno)
{
	/* Every type enum hwxdp_reg_type names (the last one, then MIXED). */
	if (f->type > HWXDP_REG_PTR_TO_BTF_ID_OR_NULL && f->type != HWXDP_REG_MIXED)
		fail("insn %zu R%d: fact of unknown type %u", insn, regno, f->type);
	if (f->type != HWXDP_REG_SCALAR)
		return;
	if (f->umin > f->umax || f->smin > f->smax)
		fail("insn %zu R%d: empty range u[%llu, %llu] s[%lld, %lld]", insn, regno,
		     (unsigned long long)f->umin, (unsigned long long)f->umax, (long long)f->smin,
		     (long long)f->smax);
	if (f->tnum_value & f->tnum_mask)
		fail("insn %zu R%d: malformed tnum (%#llx; %#llx)", insn, regno,
		     (unsigned long long)f->tnum_value, (unsigned long long)f->tnum_mask);
	/* the tnum and the unsigned range describe the same values */
	if (f->tnum_value > f->umax || (f->tnum_value | f->tnum_mask) < f->umin)
		fail("insn %zu R%d: tnum (%#llx; %#llx) outside u[%llu, %llu]", insn, regno,
		     (unsigned long long)f->tnum_value, (unsigned long long)f->tnum_mask,
		     (unsigned long long)f->umin, (unsigned long long)f->umax);
}

static void check_result(const struct hwxdp_verify_result *res, size_t cnt)
{
	size_t i;
	int r;

	if (!res->log || strlen(res->log) != res->log_len)
		fail("log of %zu bytes, log_len %zu", res->log ? strlen(res->log) : 0,
		     res->log_len);
	if (res->fact_cnt != cnt || (cnt && !res->facts))
		fail("%zu facts for %zu insns", res->fact_cnt, cnt);
	if (res->insns_processed > FUZZ_BUDGET + 1)
		fail("%u insns processed over a budget of %u", res->insns_processed, FUZZ_BUDGET);
	if (res->accepted && (res->error_insn || !cnt || !res->facts[0].reachable))
		fail("accepted with error_insn %u, %zu insns", res->error_insn, cnt);
	if (!res->accepted && cnt && res->error_insn >= cnt)
		fail("rejected at insn %u of %zu", res->error_insn, cnt);
	for (i = 0; i < cnt; i++) {
		const struct hwxdp_insn_fact *f = &res->facts[i];

		if (!f->reachable)
			continue;
		if (f->pkt_check_always_true && f->pkt_check_always_false)
			fail("insn %zu: packet check both always and never taken", i);
		for (r = 0; r < 11; r++)
			check_reg_fact(&f->regs[r], i, r);
	}
}

/* Source lines every third instruction, some of them line 0, as BTF gives. */
static struct hwxdp_line *fake_lines(size_t cnt, size_t *line_cnt)
{
	struct hwxdp_line *lines = calloc(cnt / 3 + 1, sizeof(*lines));
	size_t i, n = 0;

	if (!lines)
		return NULL;
	for (i = 0; i < cnt; i += 3, n++) {
		lines[n].insn = i;
		lines[n].file = "fuzz.bpf.c";
		lines[n].text = n % 5 == 4 ? NULL : "int r = fuzz(ctx);";
		lines[n].line = n % 7 == 6 ? 0 : n + 1;
		lines[n].column = 1;
	}
	*line_cnt = n;
	return lines;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Function starts as the loader lists them: 0, then each call target. */
static uint32_t *fake_funcs(const struct bpf_insn *insns, size_t cnt, size_t *func_cnt)
{
	uint32_t *start = malloc((cnt + 1) * sizeof(*start));
	size_t i, n = 1, k;

	if (!start)
		return NULL;
	start[0] = 0;
	for (i = 0; i < cnt; i++) {
		int64_t target = (int64_t)i + 1 + insns[i].imm;

		if (insns[i].code == (BPF_JMP | BPF_CALL) && insns[i].src_reg == BPF_PSEUDO_CALL &&
		    target > 0 && target < (int64_t)cnt)
			start[n++] = target;
	}
	qsort(start, n, sizeof(*start), cmp_u32);
	for (i = 1, k = 1; i < n; i++)
		if (start[i] != start[k - 1])
			start[k++] = start[i];
	*func_cnt = k;
	return start;
}

static int run(const struct verify_input *in, const struct bpf_insn *insns, int log_level,
	       bool lines, struct hwxdp_verify_result **res)
{
	struct hwxdp_verify_opts opts = {
		.sz = sizeof(opts),
		.log_level = log_level,
		.device = in->options & VI_OPT_DEVICE,
		.expected_attach_type = in->options & VI_OPT_DEVMAP ? BPF_XDP_DEVMAP : BPF_XDP,
	};
	struct hwxdp_object obj = { 0 };
	struct hwxdp_prog prog = { 0 };
	int err;

	opts.insn_budget = FUZZ_BUDGET;
	/* The same license on both ways in: an object here has none. */
	opts.license = "GPL";
	if (!lines)
		return hwxdp_verify_insns(insns, in->insn_cnt, in->map_cnt ? in->maps : NULL,
					  in->map_cnt, &opts, res);
	obj.maps = (struct hwxdp_map_desc *)in->maps;
	obj.map_cnt = in->map_cnt;
	snprintf(prog.name, sizeof(prog.name), "fuzz");
	snprintf(prog.section, sizeof(prog.section), "xdp");
	prog.type = BPF_PROG_TYPE_XDP;
	prog.expected_attach_type = opts.expected_attach_type;
	prog.insns = (struct bpf_insn *)insns;
	prog.insn_cnt = in->insn_cnt;
	prog.lines = fake_lines(in->insn_cnt, &prog.line_cnt);
	if (!(in->options & VI_OPT_NO_FUNCS))
		prog.subprog_start = fake_funcs(insns, in->insn_cnt, &prog.subprog_cnt);
	if (!prog.lines || (!(in->options & VI_OPT_NO_FUNCS) && !prog.subprog_start)) {
		free(prog.lines);
		free(prog.subprog_start);
		return -ENOMEM;
	}
	err = hwxdp_verify(&obj, &prog, &opts, res);
	free(prog.lines);
	free(prog.subprog_start);
	return err;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hwxdp_verify_result *res = NULL, *quiet = NULL;
	struct verify_input in;
	struct bpf_insn *insns = NULL;
	int log_level, err;

	verify_input__parse(data, size, &in);
	/* a copy of exactly the program, so that reading past it is caught */
	if (in.insn_cnt) {
		insns = malloc(in.insn_cnt * sizeof(*insns));
		if (!insns)
			return 0;
		memcpy(insns, data + in.insn_off, in.insn_cnt * sizeof(*insns));
	}
	log_level = log_level_of(in.options);
	err = run(&in, insns, log_level, in.options & VI_OPT_LINES, &res);
	if (err)
		fail("verification did not run: %d", err);
	check_result(res, in.insn_cnt);

	/* the log only reports: without it, the same verdict at the same insn */
	if (log_level) {
		err = run(&in, insns, 0, false, &quiet);
		if (err)
			fail("verification did not run: %d", err);
		check_result(quiet, in.insn_cnt);
		if (quiet->accepted != res->accepted || quiet->error_insn != res->error_insn ||
		    quiet->insns_processed != res->insns_processed)
			fail("log level %d changes the verdict: %s at %u after %u insns, "
			     "without log %s at %u after %u",
			     log_level, res->accepted ? "accepted" : "rejected", res->error_insn,
			     res->insns_processed, quiet->accepted ? "accepted" : "rejected",
			     quiet->error_insn, quiet->insns_processed);
		hwxdp_verify_result__free(quiet);
	}
	hwxdp_verify_result__free(res);
	free(insns);
	return 0;
}

/* ---- the mutator ----------------------------------------------------- */

struct rng {
	uint64_t state;
};

static uint32_t below(struct rng *rng, uint32_t n)
{
	uint64_t z;

	rng->state += 0x9e3779b97f4a7c15ull;
	z = rng->state;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return n ? (uint32_t)(z % n) : 0;
}

static uint8_t opcodes[256];
static size_t opcode_cnt;

/* Every opcode a current kernel knows, and a few it does not. */
static void opcodes_init(void)
{
	static const uint8_t alu_ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_OR,	BPF_AND,
					   BPF_LSH, BPF_RSH, BPF_MOD, BPF_XOR, BPF_MOV, BPF_ARSH };
	static const uint8_t jmp_ops[] = { BPF_JEQ,  BPF_JGT, BPF_JGE, BPF_JSET, BPF_JNE, BPF_JSGT,
					   BPF_JSGE, BPF_JLT, BPF_JLE, BPF_JSLT, BPF_JSLE };
	static const uint8_t sizes[] = { BPF_B, BPF_H, BPF_W, BPF_DW };
	size_t i, s;

	if (opcode_cnt)
		return;
	for (i = 0; i < sizeof(alu_ops); i++)
		for (s = 0; s < 2; s++) {
			opcodes[opcode_cnt++] = BPF_ALU64 | alu_ops[i] | (s ? BPF_X : BPF_K);
			opcodes[opcode_cnt++] = BPF_ALU | alu_ops[i] | (s ? BPF_X : BPF_K);
		}
	opcodes[opcode_cnt++] = BPF_ALU64 | BPF_NEG;
	opcodes[opcode_cnt++] = BPF_ALU | BPF_NEG;
	opcodes[opcode_cnt++] = BPF_ALU | BPF_END | BPF_TO_LE;
	opcodes[opcode_cnt++] = BPF_ALU | BPF_END | BPF_TO_BE;
	opcodes[opcode_cnt++] = BPF_ALU64 | BPF_END | BPF_TO_LE;
	for (i = 0; i < sizeof(jmp_ops); i++)
		for (s = 0; s < 2; s++) {
			opcodes[opcode_cnt++] = BPF_JMP | jmp_ops[i] | (s ? BPF_X : BPF_K);
			opcodes[opcode_cnt++] = BPF_JMP32 | jmp_ops[i] | (s ? BPF_X : BPF_K);
		}
	opcodes[opcode_cnt++] = BPF_JMP | BPF_JA;
	opcodes[opcode_cnt++] = BPF_JMP32 | BPF_JA;
	opcodes[opcode_cnt++] = BPF_JMP | BPF_CALL;
	opcodes[opcode_cnt++] = BPF_JMP | BPF_EXIT;
	opcodes[opcode_cnt++] = BPF_LD | BPF_IMM | BPF_DW;
	for (s = 0; s < sizeof(sizes); s++) {
		opcodes[opcode_cnt++] = BPF_LDX | BPF_MEM | sizes[s];
		opcodes[opcode_cnt++] = BPF_STX | BPF_MEM | sizes[s];
		opcodes[opcode_cnt++] = BPF_ST | BPF_MEM | sizes[s];
		opcodes[opcode_cnt++] = BPF_LD | BPF_ABS | sizes[s];
		opcodes[opcode_cnt++] = BPF_LDX | BPF_MEMSX | sizes[s];
		opcodes[opcode_cnt++] = BPF_STX | BPF_ATOMIC | sizes[s];
	}
}

static int16_t interesting_off(struct rng *rng, int16_t old)
{
	static const int16_t offs[] = { 0,   1,	  -1,  2,    4,	   8,	   12,	   14,
					16,  20,  23,  32,   34,   54,	   -8,	   -16,
					-24, -32, -64, -512, -513, 0x7fff, -0x8000 };

	switch (below(rng, 4)) {
	case 0:
		return old + (int16_t)below(rng, 9) - 4;
	case 1:
		return (int16_t)below(rng, 65536);
	default:
		return offs[below(rng, sizeof(offs) / sizeof(offs[0]))];
	}
}

static int32_t interesting_imm(struct rng *rng, int32_t old, size_t map_cnt)
{
	static const int32_t imms[] = {
		0,	     1,
		-1,	     2,
		4,	     8,
		14,	     16,
		31,	     32,
		63,	     64,
		0xff,	     0xffff,
		0x7fffffff,  -0x7fffffff - 1,
		1500,	     0x86dd,
		0x0800,	     0x8100,
		BPF_ADD,     BPF_ADD | BPF_FETCH,
		BPF_AND,     BPF_OR,
		BPF_XOR,     BPF_XCHG,
		BPF_CMPXCHG,
	};

	switch (below(rng, 6)) {
	case 0:
		return (int32_t)((uint32_t)old + (uint32_t)below(rng, 9) - 4u);
	case 1:
		return (int32_t)(below(rng, 65536) | below(rng, 65536) << 16);
	case 2: /* a helper id */
		return below(rng, 220);
	case 3: /* a map index */
		return map_cnt ? below(rng, map_cnt + 1) : 0;
	default:
		return imms[below(rng, sizeof(imms) / sizeof(imms[0]))];
	}
}

static uint8_t random_reg(struct rng *rng)
{
	return below(rng, 16) ? below(rng, 11) : below(rng, 16);
}

static void random_insn(struct rng *rng, struct bpf_insn *insn, size_t map_cnt)
{
	opcodes_init();
	memset(insn, 0, sizeof(*insn));
	insn->code = opcodes[below(rng, opcode_cnt)];
	insn->dst_reg = random_reg(rng);
	if (BPF_SRC(insn->code) == BPF_X || BPF_CLASS(insn->code) == BPF_LDX ||
	    BPF_CLASS(insn->code) == BPF_STX)
		insn->src_reg = random_reg(rng);
	if (BPF_CLASS(insn->code) >= BPF_LDX || BPF_CLASS(insn->code) == BPF_JMP ||
	    BPF_CLASS(insn->code) == BPF_JMP32)
		insn->off = interesting_off(rng, 0);
	insn->imm = interesting_imm(rng, 0, map_cnt);
	if (insn->code == (BPF_LD | BPF_IMM | BPF_DW) && below(rng, 2))
		insn->src_reg = below(rng, 2) ? BPF_PSEUDO_MAP_FD : BPF_PSEUDO_MAP_VALUE;
	if (insn->code == (BPF_JMP | BPF_CALL) && !below(rng, 4))
		insn->src_reg = BPF_PSEUDO_CALL;
}

static void mutate_field(struct rng *rng, struct bpf_insn *insn, size_t map_cnt)
{
	switch (below(rng, 6)) {
	case 0:
		opcodes_init();
		insn->code = opcodes[below(rng, opcode_cnt)];
		break;
	case 1:
		insn->dst_reg = random_reg(rng);
		break;
	case 2:
		insn->src_reg = random_reg(rng);
		break;
	case 3:
		insn->off = interesting_off(rng, insn->off);
		break;
	default:
		insn->imm = interesting_imm(rng, insn->imm, map_cnt);
		break;
	}
}

static bool is_jump(const struct bpf_insn *insn)
{
	uint8_t class = BPF_CLASS(insn->code), op = BPF_OP(insn->code);

	return (class == BPF_JMP || class == BPF_JMP32) && op != BPF_CALL && op != BPF_EXIT;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	struct rng rng = { seed };
	struct verify_input in;
	struct bpf_insn *insns, insn;
	size_t cnt, i, j, tail;

	verify_input__parse(data, size, &in);
	cnt = in.insn_cnt;
	insns = (struct bpf_insn *)(data + in.insn_off); /* unaligned: memcpy only */
	tail = size - in.insn_off - cnt * sizeof(insn);
	if (!cnt || below(&rng, 10) < 3)
		return LLVMFuzzerMutate(data, size, max_size);

	i = below(&rng, cnt);
	switch (below(&rng, 20)) {
	case 0: /* an option */
		data[0] ^= 1 << below(&rng, 5);
		return size;
	case 1: /* a map's description */
		if (in.insn_off <= 2)
			return LLVMFuzzerMutate(data, size, max_size);
		data[1 + below(&rng, in.insn_off - 1)] = below(&rng, 256);
		return size;
	case 2:
	case 3:
	case 4: /* insert a new or a copied instruction */
		if (size + sizeof(insn) > max_size)
			break;
		if (below(&rng, 2))
			random_insn(&rng, &insn, in.map_cnt);
		else
			memcpy(&insn, &insns[below(&rng, cnt)], sizeof(insn));
		memmove(&insns[i + 1], &insns[i], (cnt - i) * sizeof(insn) + tail);
		memcpy(&insns[i], &insn, sizeof(insn));
		return size + sizeof(insn);
	case 5:
	case 6: /* drop one */
		memmove(&insns[i], &insns[i + 1], (cnt - i - 1) * sizeof(insn) + tail);
		return size - sizeof(insn);
	case 7: /* swap two */
		j = below(&rng, cnt);
		memcpy(&insn, &insns[i], sizeof(insn));
		memmove(&insns[i], &insns[j], sizeof(insn));
		memcpy(&insns[j], &insn, sizeof(insn));
		return size;
	case 8:
	case 9: /* retarget a jump inside the program */
		for (j = 0; j < cnt; j++) {
			memcpy(&insn, &insns[(i + j) % cnt], sizeof(insn));
			if (!is_jump(&insn))
				continue;
			insn.off = (int16_t)below(&rng, cnt) - (int16_t)((i + j) % cnt) - 1;
			if (insn.code == (BPF_JMP32 | BPF_JA))
				insn.imm = insn.off;
			memcpy(&insns[(i + j) % cnt], &insn, sizeof(insn));
			return size;
		}
		break;
	default:
		break;
	}
	/* one field of one instruction */
	memcpy(&insn, &insns[i], sizeof(insn));
	mutate_field(&rng, &insn, in.map_cnt);
	memcpy(&insns[i], &insn, sizeof(insn));
	return size;
}

/* The maps and options of the first, its head spliced to the second's tail. */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
				 size_t size2, uint8_t *out, size_t max_out_size, unsigned int seed)
{
	struct verify_input a, b;
	struct rng rng = { seed };
	size_t head, from, n;

	verify_input__parse(data1, size1, &a);
	verify_input__parse(data2, size2, &b);
	if (a.insn_off > max_out_size)
		return 0;
	memcpy(out, data1, a.insn_off);
	n = a.insn_off;
	head = below(&rng, a.insn_cnt + 1) * sizeof(struct bpf_insn);
	if (head > max_out_size - n)
		head = (max_out_size - n) / sizeof(struct bpf_insn) * sizeof(struct bpf_insn);
	memcpy(out + n, data1 + a.insn_off, head);
	n += head;
	from = below(&rng, b.insn_cnt + 1) * sizeof(struct bpf_insn);
	if (b.insn_cnt * sizeof(struct bpf_insn) - from > max_out_size - n)
		from = b.insn_cnt * sizeof(struct bpf_insn) -
		       (max_out_size - n) / sizeof(struct bpf_insn) * sizeof(struct bpf_insn);
	memcpy(out + n, data2 + b.insn_off + from, b.insn_cnt * sizeof(struct bpf_insn) - from);
	n += b.insn_cnt * sizeof(struct bpf_insn) - from;
	return n;
}
