// SPDX-License-Identifier: GPL-2.0
/*
 * The mutation run over the translator (make prove-mutants): each of the
 * seeded faults below, one at a time, in the translator's passes (hwmap/
 * built with HWXDP_MUTANTS, hwmap/mutant.h), on a set of programs. For
 * each mutant and program whose image the fault changes:
 *
 *  - the prover runs; a counterexample is replayed on the BPF reference
 *    interpreter and the device (the mutated translation), each must do
 *    what the model says for its side and the two must differ: caught;
 *  - independently of the prover, random frames run on both: a frame on
 *    which they differ shows that the mutant changes behaviour.
 *
 * A mutant changes behaviour when either shows it on some program. The
 * score is caught / changed; the mutants missed are listed with what the
 * prover said. A proof on a program where the frames show a difference,
 * or a counterexample that does not replay, is the checker's own fault
 * and fails the run. Exit 0 when the score is at least 95 % and the
 * checker made no fault.
 *
 * Usage: prove_mutants [--quick] [--verbose] [--mutant N]
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwmap/mutant.h"
#include "hwmap/prove.h"
#include "hwmap/translate.h"
#include "lab/bpf_count.h"
#include "lab/target.h"
#include "loader/object.h"
#include "verifier/verifier.h"

enum kind {
	K_IMM_INC,  /* imm + 1 (offset, immediate, target not) */
	K_IMM_DEC,  /* imm - 1 */
	K_EXT_INC,  /* the second word + 1 (stored value, compared value, lchk) */
	K_EXT_DEC,  /* the second word - 1 */
	K_DROP,	    /* the operation lost */
	K_BE,	    /* network byte order flipped */
	K_SMALLER,  /* half the size */
	K_SX,	    /* a load made sign-extending */
	K_W32,	    /* the 32-bit flag flipped */
	K_NEGATE,   /* the condition's sense inverted */
	K_SIGNED,   /* unsigned comparison made signed */
	K_OPCODE,   /* another opcode: param */
	K_X,	    /* another x field (cc, ctx field, atomic op): param */
	K_SWAP,	    /* rs and rt exchanged */
	K_RS_IS_RD, /* rs replaced by rd (a lost mov) */
	K_FLAGS,    /* imm ^ param (flags of a unit) */
};

struct mutant {
	enum hxu_site site;
	int opcode; /* the operations it changes; -1 any */
	enum kind kind;
	int param;
	const char *what;
};

#define OP(x) ((int)(x))
static const struct mutant mutants[] = {
	{ HXU_SITE_ALU, OP(HXU_OP_ADD), K_IMM_INC, 0, "alu: add's immediate off by one" },
	{ HXU_SITE_ALU, OP(HXU_OP_SUB), K_OPCODE, HXU_OP_ADD, "alu: sub made add" },
	{ HXU_SITE_ALU, OP(HXU_OP_AND), K_IMM_DEC, 0, "alu: and's mask off by one" },
	{ HXU_SITE_ALU, OP(HXU_OP_OR), K_OPCODE, HXU_OP_XOR, "alu: or made xor" },
	{ HXU_SITE_ALU, OP(HXU_OP_LSH), K_IMM_INC, 0, "alu: left shift one too far" },
	{ HXU_SITE_ALU, OP(HXU_OP_RSH), K_OPCODE, HXU_OP_ARSH, "alu: rsh made arsh" },
	{ HXU_SITE_ALU, OP(HXU_OP_RSH), K_IMM_DEC, 0, "alu: right shift one short" },
	{ HXU_SITE_ALU, OP(HXU_OP_ADD), K_W32, 0, "alu: add's width flipped" },
	{ HXU_SITE_ALU, OP(HXU_OP_MUL), K_OPCODE, HXU_OP_ADD, "alu: mul made add" },
	{ HXU_SITE_ALU, OP(HXU_OP_XOR), K_IMM_INC, 0, "alu: xor's immediate off by one" },
	{ HXU_SITE_ALU, OP(HXU_OP_NEG), K_DROP, 0, "alu: neg lost" },
	{ HXU_SITE_ALU, OP(HXU_OP_MOV), K_IMM_INC, 0, "alu: mov's immediate off by one" },
	{ HXU_SITE_ALU, OP(HXU_OP_MOV), K_DROP, 0, "alu: a mov lost" },
	{ HXU_SITE_ALU, OP(HXU_OP_SUB), K_SWAP, 0, "alu: sub's operands exchanged" },
	{ HXU_SITE_ALU, OP(HXU_OP_BSWAP16), K_OPCODE, HXU_OP_ZEXT16, "alu: be16 made le16" },
	{ HXU_SITE_ALU, OP(HXU_OP_AND), K_W32, 0, "alu: and's width flipped" },
	{ HXU_SITE_FUSED, -1, K_IMM_INC, 0, "fused mov+alu: immediate off by one" },
	{ HXU_SITE_FUSED, -1, K_RS_IS_RD, 0, "fused mov+alu: the mov's source lost" },
	{ HXU_SITE_ZEXT, -1, K_DROP, 0, "zero extension: lost" },
	{ HXU_SITE_ZEXT, OP(HXU_OP_ZEXT32), K_OPCODE, HXU_OP_ZEXT16, "zero extension: 16 bits" },
	{ HXU_SITE_LDX, OP(HXU_OP_LD + HXU_SPACE_PKT), K_IMM_INC, 0, "load: packet offset + 1" },
	{ HXU_SITE_LDX, OP(HXU_OP_LD + HXU_SPACE_PKT), K_IMM_DEC, 0, "load: packet offset - 1" },
	{ HXU_SITE_LDX, OP(HXU_OP_LD + HXU_SPACE_PKT), K_SMALLER, 0, "load: packet size halved" },
	{ HXU_SITE_LDX, OP(HXU_OP_LD + HXU_SPACE_PKT), K_BE, 0, "load: byte order flipped" },
	{ HXU_SITE_LDX, OP(HXU_OP_LD + HXU_SPACE_PKT), K_SX, 0, "load: sign-extending" },
	{ HXU_SITE_LDX, OP(HXU_OP_CTX), K_X, HXU_CTX_DATA_END, "load: ctx field made data_end" },
	{ HXU_SITE_LDX, OP(HXU_OP_LD + HXU_SPACE_LM), K_IMM_INC, 0, "load: stack offset + 1" },
	{ HXU_SITE_LDX, OP(HXU_OP_LD + HXU_SPACE_TM), K_IMM_INC, 0, "load: map value offset + 1" },
	{ HXU_SITE_LDX_BE, -1, K_BE, 0, "load+swap: the swap lost" },
	{ HXU_SITE_LDX_BE, -1, K_IMM_INC, 0, "load+swap: offset + 1" },
	{ HXU_SITE_COMBINED, -1, K_BE, 0, "combined load: byte order flipped" },
	{ HXU_SITE_COMBINED, -1, K_IMM_INC, 0, "combined load: offset + 1" },
	{ HXU_SITE_COMBINED, -1, K_SMALLER, 0, "combined load: size halved" },
	{ HXU_SITE_ST, OP(HXU_OP_ST + HXU_SPACE_PKT), K_DROP, 0, "store: packet store lost" },
	{ HXU_SITE_ST, OP(HXU_OP_ST + HXU_SPACE_PKT), K_IMM_INC, 0, "store: packet offset + 1" },
	{ HXU_SITE_ST, OP(HXU_OP_ST + HXU_SPACE_PKT), K_BE, 0, "store: byte order flipped" },
	{ HXU_SITE_ST, OP(HXU_OP_ST + HXU_SPACE_PKT), K_SMALLER, 0, "store: size halved" },
	{ HXU_SITE_ST, OP(HXU_OP_STI + HXU_SPACE_PKT), K_EXT_INC, 0, "store: immediate + 1" },
	{ HXU_SITE_ST, OP(HXU_OP_STI + HXU_SPACE_PKT), K_DROP, 0, "store: immediate store lost" },
	{ HXU_SITE_ST, OP(HXU_OP_ST + HXU_SPACE_LM), K_DROP, 0, "store: a spill lost" },
	{ HXU_SITE_ST, OP(HXU_OP_ST + HXU_SPACE_LM), K_IMM_INC, 0, "store: stack offset + 1" },
	{ HXU_SITE_ST, OP(HXU_OP_ST + HXU_SPACE_TM), K_DROP, 0, "store: map value store lost" },
	{ HXU_SITE_ST, OP(HXU_OP_ATOMIC + HXU_SPACE_TM), K_X, HXU_ATOMIC_OR,
	  "atomic: add made or" },
	{ HXU_SITE_ST, OP(HXU_OP_ATOMIC + HXU_SPACE_TM), K_DROP, 0, "atomic: lost" },
	{ HXU_SITE_STORE_WHOLE, -1, K_IMM_INC, 0, "combined store: offset + 1" },
	{ HXU_SITE_STORE_WHOLE, -1, K_DROP, 0, "combined store: lost" },
	{ HXU_SITE_JMP, OP(HXU_OP_BRI), K_NEGATE, 0, "branch (imm): sense inverted" },
	{ HXU_SITE_JMP, OP(HXU_OP_BR), K_NEGATE, 0, "branch (reg): sense inverted" },
	{ HXU_SITE_JMP, OP(HXU_OP_BRI), K_EXT_INC, 0, "branch: compared value + 1" },
	{ HXU_SITE_JMP, OP(HXU_OP_BRI), K_SIGNED, 0, "branch: unsigned made signed" },
	{ HXU_SITE_JMP, OP(HXU_OP_BRI), K_W32, 0, "branch: width flipped" },
	{ HXU_SITE_JMP, OP(HXU_OP_LCHK), K_EXT_DEC, 0, "bound check: one byte short" },
	{ HXU_SITE_JMP, OP(HXU_OP_LCHK), K_DROP, 0, "bound check: dropped" },
	{ HXU_SITE_JMP, OP(HXU_OP_LCHK), K_EXT_INC, 0, "bound check: one byte long" },
	{ HXU_SITE_JMP, OP(HXU_OP_JMP), K_DROP, 0, "jump: lost" },
	{ HXU_SITE_JMP, OP(HXU_OP_HADJ), K_OPCODE, HXU_OP_TADJ, "head adjustment made tail" },
	{ HXU_SITE_JMP, OP(HXU_OP_TADJ), K_OPCODE, HXU_OP_HADJ, "tail adjustment made head" },
	{ HXU_SITE_JMP, OP(HXU_OP_TUPDATE), K_FLAGS, 1, "map update: flags' low bit" },
	{ HXU_SITE_JMP, OP(HXU_OP_TINDEX), K_DROP, 0, "array lookup: lost" },
	{ HXU_SITE_JMP, OP(HXU_OP_MOV), K_IMM_INC, 0, "array lookup: index + 1" },
	{ HXU_SITE_JMP, OP(HXU_OP_TLOOKUP), K_DROP, 0, "map lookup: lost" },
	{ HXU_SITE_JMP, OP(HXU_OP_EXIT), K_OPCODE, HXU_OP_RET, "exit made ret" },
	{ HXU_SITE_CSUM, OP(HXU_OP_MOV), K_IMM_INC, 0, "checksum: constant + 1" },
	{ HXU_SITE_CSUM, OP(HXU_OP_CSUM16), K_IMM_INC, 0, "checksum: field offset + 1" },
	{ HXU_SITE_CSUM, OP(HXU_OP_CSUM16), K_DROP, 0, "checksum: update lost" },
	{ HXU_SITE_COPY, -1, K_IMM_INC, 0, "copy: offset + 1" },
	{ HXU_SITE_SLOT, -1, K_DROP, 0, "stack slot in a register: move lost" },
	{ HXU_SITE_FILL, -1, K_DROP, 0, "stack fill from a register: lost" },
	{ HXU_SITE_LD_IMM64, OP(HXU_OP_MOVI), K_IMM_INC, 0, "ld_imm64: low word + 1" },
	{ HXU_SITE_JMP, OP(HXU_OP_ESP), K_SWAP, 0, "esp: SA handle and L3 offset exchanged" },
};
#define MUTANT_CNT (sizeof(mutants) / sizeof(mutants[0]))

static int selected = -1;
static unsigned int applied;

static uint8_t negate(uint8_t cc)
{
	static const uint8_t inv[HXU_CC__MAX] = {
		[HXU_CC_EQ] = HXU_CC_NE,   [HXU_CC_NE] = HXU_CC_EQ,   [HXU_CC_GT] = HXU_CC_LE,
		[HXU_CC_GE] = HXU_CC_LT,   [HXU_CC_LT] = HXU_CC_GE,   [HXU_CC_LE] = HXU_CC_GT,
		[HXU_CC_SGT] = HXU_CC_SLE, [HXU_CC_SGE] = HXU_CC_SLT, [HXU_CC_SLT] = HXU_CC_SGE,
		[HXU_CC_SLE] = HXU_CC_SGT, [HXU_CC_SET] = HXU_CC_EQ,
	};

	return cc < HXU_CC__MAX ? inv[cc] : cc;
}

bool hxu_mutate(enum hxu_site site, struct hxu_op *op)
{
	const struct mutant *m;
	unsigned int lg;

	if (selected < 0)
		return true;
	m = &mutants[selected];
	if (m->site != site || (m->opcode >= 0 && op->opcode != m->opcode))
		return true;
	lg = (op->flags >> HXU_F_SIZE_SHIFT) & 3;
	switch (m->kind) {
	case K_IMM_INC:
		op->imm++;
		break;
	case K_IMM_DEC:
		op->imm--;
		break;
	case K_EXT_INC:
		op->ext++;
		break;
	case K_EXT_DEC:
		op->ext--;
		break;
	case K_DROP:
		applied++;
		return false;
	case K_BE:
		if (!lg)
			return true;
		op->flags ^= HXU_F_BE;
		break;
	case K_SMALLER:
		if (!lg)
			return true;
		op->flags = (uint8_t)((op->flags & ~(3u << HXU_F_SIZE_SHIFT)) |
				      (lg - 1) << HXU_F_SIZE_SHIFT);
		op->flags &= (uint8_t) ~(lg == 1 ? HXU_F_BE : 0);
		break;
	case K_SX:
		if (lg == 3)
			return true;
		op->opcode = (uint8_t)(op->opcode - HXU_OP_LD + HXU_OP_LDSX);
		op->flags &= (uint8_t)~HXU_F_BE;
		break;
	case K_W32:
		op->flags ^= HXU_F_W32;
		break;
	case K_NEGATE:
		op->x = negate(op->x);
		break;
	case K_SIGNED:
		if (op->x < HXU_CC_GT || op->x > HXU_CC_LE)
			return true;
		op->x = (uint8_t)(op->x - HXU_CC_GT + HXU_CC_SGT);
		break;
	case K_OPCODE:
		op->opcode = (uint8_t)m->param;
		break;
	case K_X:
		if (op->x == m->param)
			return true;
		op->x = (uint8_t)m->param;
		break;
	case K_SWAP:
		if (op->flags & HXU_F_K)
			return true;
		lg = op->rs;
		op->rs = op->rt;
		op->rt = (uint8_t)lg;
		break;
	case K_RS_IS_RD:
		if (op->rs == op->rd)
			return true;
		op->rs = op->rd;
		break;
	case K_FLAGS:
		op->imm ^= m->param;
		break;
	}
	applied++;
	return true;
}

/* The programs: first XDP program of each object, which the targets run. */
static const char *const programs[] = {
	"tests/prove/bpf/progs",     "tests/prove/bpf/unit_csum",  "tests/prove/bpf/unit_tail",
	"tests/prove/bpf/unit_call", "tests/prove/bpf/unit_maps",  "progs/vlan_tag",
	"progs/lpm_route",	     "tests/corpus/csum_diff_nat", "tests/corpus/fib_fwd",
	"tests/corpus/legacy_xdp2",  "tests/corpus/meta_mark",	   "tests/corpus/packed_unaligned",
	"tests/corpus/vlan_pushpop", "tests/corpus/rewrite_ports", "tests/corpus/memcpy_switch",
	"tests/corpus/global_funcs", "tests/corpus/tail_grow",	   "tests/corpus/legacy_prog_sec",
	"tests/prove/bpf/unit_esp",  "tests/prove/bpf/unit_inner", "tests/corpus/map_in_map",
};
#define PROG_CNT (sizeof(programs) / sizeof(programs[0]))
/* --quick, for make test: these mutants on these programs */
static const int quick_mutants[] = { 0, 20, 23, 30, 33, 46, 51, 52, 62 };
static const int quick_programs[] = { 0, 1, 2, 3, 4, 5 };

struct subject {
	char path[4096];
	struct hwxdp_object *obj;
	const struct hwxdp_prog *prog;
	struct hwxdp_verify_result *facts;
	struct hxu_image *base;
};

static int subject_open(struct subject *s, const char *name)
{
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	uint32_t device = HWXDP_TARGET_DEVICE;
	char msg[512];

	snprintf(s->path, sizeof(s->path), "%s/%s.bpf.o", hx_build_dir(), name);
	if (hwxdp_object__open(s->path, &s->obj))
		return -ENOENT;
	hwxdp_object__set_global(s->obj, "hwxdp_target", &device, sizeof(device));
	for (size_t i = 0; i < s->obj->prog_cnt && !s->prog; i++)
		if (s->obj->progs[i].type == BPF_PROG_TYPE_XDP)
			s->prog = &s->obj->progs[i];
	if (!s->prog)
		return -ENOENT;
	vopts.expected_attach_type = s->prog->expected_attach_type;
	if (hwxdp_verify(s->obj, s->prog, &vopts, &s->facts) || !s->facts->accepted)
		return -EINVAL;
	selected = -1;
	return hwxdp_translate(s->obj, s->prog, s->facts, &s->base, msg, sizeof(msg));
}

static bool same_image(const struct hxu_image *a, const struct hxu_image *b)
{
	return a->op_cnt == b->op_cnt && !memcmp(a->ops, b->ops, a->op_cnt * sizeof(a->ops[0]));
}

static bool runs_differ(int e0, const struct hx_result *a, int e1, const struct hx_result *b)
{
	if (e0 || e1)
		return !e0 != !e1;
	return a->action != b->action || a->len != b->len || memcmp(a->frame, b->frame, a->len);
}

static void print_hex(const char *what, const uint8_t *b, uint32_t n)
{
	printf("    %s", what);
	for (uint32_t i = 0; i < n; i++)
		printf("%02x", b[i]);
	printf("\n");
}

/* The counterexample on the reference interpreter and the device: 1 when
 * each does what the model says and the two differ, 0 when they do as the
 * model says but do not differ visibly (a difference only in the sequence
 * of map writes), -1 when one does not do as the model says. */
static int replay(const struct subject *s, const struct hwxdp_prove_result *res, char *why,
		  size_t len)
{
	static struct hx_result run[2];
	struct hx_target *t[2];
	int err[2], rc = -1;

	t[0] = hx_count_target_open(s->path);
	t[1] = hx_target_open("device", s->path);
	if (!t[0] || !t[1]) {
		snprintf(why, len, "a target cannot open the object");
		goto out;
	}
	for (uint32_t e = 0; e < res->entry_cnt; e++) {
		const char *map = s->obj->maps[res->entries[e].map].name;

		/* an entry of a map of maps that the object's definition
		 * fills and the model has absent */
		for (int i = 0; i < 2 && res->entries[e].absent &&
				hxu_map_of_maps(s->obj->maps[res->entries[e].map].type);
		     i++)
			hx_target_map_delete(t[i], map, res->entries[e].key);
		for (int i = 0; i < 2 && !res->entries[e].absent; i++)
			if (hx_target_map_update(t[i], map, res->entries[e].key,
						 res->entries[e].value)) {
				snprintf(why, len, "cannot fill the map entries");
				goto out;
			}
	}
	for (int i = 0; i < 2 && res->esp_sa >= 0; i++)
		if (hx_target_esp_sa(t[i], (uint32_t)res->esp_sa)) {
			snprintf(why, len, "cannot give the crypto unit SA %lld",
				 (long long)res->esp_sa);
			goto out;
		}
	for (int i = 0; i < 2; i++)
		err[i] = hx_target_run(t[i], res->ingress, res->frame, res->len, &run[i]);
	/* the crypto unit's output and the clock are free in the model: the
	 * two are held only to differing */
	if (res->loose & (HWXDP_PROVE_LOOSE_ESP | HWXDP_PROVE_LOOSE_CLOCK)) {
		rc = runs_differ(err[0], &run[0], err[1], &run[1]);
		goto out;
	}
	/* the reference runs no host-only helper (-ENOTSUP): where the model
	 * says BPF punts there, the device is held to the model's punt */
	if (res->bpf.end == HWXDP_PROVE_END_PUNT && err[0] == -ENOTSUP) {
		err[0] = 0;
		run[0].action = XDP_PASS;
		run[0].len = res->bpf.len;
		memcpy(run[0].frame, res->bpf.frame, res->bpf.len);
	}
	if (!hx_result_is_outcome(err[0], &run[0], &res->bpf)) {
		snprintf(why, len,
			 "the reference does not do what the model says BPF does (it ends "
			 "with %d, verdict %u, %zu bytes)",
			 err[0], err[0] ? 0 : run[0].action, err[0] ? 0 : run[0].len);
		goto out;
	}
	/* where the model is not exact for the microcode, the device is only
	 * held to differing from the reference */
	if (res->loose) {
		rc = runs_differ(err[0], &run[0], err[1], &run[1]);
		goto out;
	}
	if (!hx_result_is_outcome(err[1], &run[1], &res->hxu)) {
		snprintf(why, len,
			 "the device does not do what the model says the microcode does (it "
			 "ends with %d, verdict %u, %zu bytes)",
			 err[1], err[1] ? 0 : run[1].action, err[1] ? 0 : run[1].len);
		if (!err[1])
			print_hex("device out ", run[1].frame, (uint32_t)run[1].len);
		goto out;
	}
	rc = runs_differ(err[0], &run[0], err[1], &run[1]);
out:
	hx_target_close(t[0]);
	hx_target_close(t[1]);
	return rc;
}

/* A counterexample that does not replay, for whoever looks into it. */
static void print_counterexample(const struct subject *s, const struct hwxdp_prove_result *res)
{
	print_hex("frame ", res->frame, res->len);
	for (uint32_t e = 0; e < res->entry_cnt; e++) {
		const struct hwxdp_map_desc *m = &s->obj->maps[res->entries[e].map];

		printf("    map %s:\n", m->name);
		print_hex("  key ", res->entries[e].key, m->key_size);
		if (res->entries[e].absent)
			printf("      absent\n");
		else
			print_hex("  value ", res->entries[e].value, m->value_size);
	}
	printf("    BPF: end %u value %u at insn %u; microcode: end %u value %u at op %u\n",
	       res->bpf.end, res->bpf.value, res->bpf.last, res->hxu.end, res->hxu.value,
	       res->hxu.last);
	print_hex("BPF out ", res->bpf.frame, res->bpf.len);
	print_hex("microcode out ", res->hxu.frame, res->hxu.len);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/* Random frames, half of them IPv4 with TCP or UDP, on both: whether one
 * tells the mutant apart. */
static bool frames_differ(const struct subject *s, unsigned int cnt)
{
	static struct hx_result run[2];
	struct hx_target *t[2];
	uint8_t frame[128];
	bool differ = false;

	t[0] = hx_count_target_open(s->path);
	t[1] = hx_target_open("device", s->path);
	for (unsigned int k = 0; k < cnt && t[0] && t[1] && !differ; k++) {
		size_t len = 14 + next_random() % (sizeof(frame) - 13);
		int err[2];

		for (size_t i = 0; i < len; i++)
			frame[i] = (uint8_t)next_random();
		if (k & 1 && len >= 34) {
			frame[12] = 0x08;
			frame[13] = 0x00;
			frame[14] = 0x45;
			frame[22] = (uint8_t)(next_random() % 4);
			frame[23] = k & 2 ? 6 : 17;
		}
		for (int i = 0; i < 2; i++)
			err[i] = hx_target_run(t[i], 1, frame, len, &run[i]);
		/* a frame that reaches a host-only helper shows nothing here: the
		 * reference does not run it (-ENOTSUP) */
		differ = err[0] != -ENOTSUP && runs_differ(err[0], &run[0], err[1], &run[1]);
	}
	hx_target_close(t[0]);
	hx_target_close(t[1]);
	return differ;
}

int main(int argc, char **argv)
{
	/* path against path with HWXDP_PROVE_BY_PAIRS set, as the prover's
	 * tests take it */
	struct hwxdp_prove_opts opts = { .sz = sizeof(opts),
					 .max_len = 128,
					 .timeout_ms = 10000,
					 .ingress = 1,
					 .by_pairs = getenv("HWXDP_PROVE_BY_PAIRS") != NULL };
	static struct subject subjects[PROG_CNT];
	static struct hwxdp_prove_result res;
	bool quick = false, verbose = false;
	int only = -1;
	unsigned int changed = 0, caught = 0, faults = 0, unchanged = 0, mcnt, pcnt;
	static char missed[MUTANT_CNT][512];
	char why[256];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strcmp(argv[i], "--verbose"))
			verbose = true;
		else if (!strcmp(argv[i], "--mutant") && i + 1 < argc)
			only = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: %s [--quick] [--verbose] [--mutant N]\n", argv[0]);
			return 64;
		}
	}
	mcnt = quick ? sizeof(quick_mutants) / sizeof(quick_mutants[0]) : MUTANT_CNT;
	pcnt = quick ? sizeof(quick_programs) / sizeof(quick_programs[0]) : PROG_CNT;
	for (unsigned int k = 0; k < pcnt; k++) {
		unsigned int p = quick ? (unsigned int)quick_programs[k] : k;

		if (subject_open(&subjects[p], programs[p])) {
			fprintf(stderr, "prove_mutants: %s: cannot be translated\n", programs[p]);
			return 1;
		}
	}
	for (unsigned int k = 0; k < mcnt; k++) {
		unsigned int mi = quick ? (unsigned int)quick_mutants[k] : k;
		bool is_changed = false, is_caught = false;
		char notes[512] = "";
		size_t at = 0;

		if (only >= 0 && (int)mi != only)
			continue;

		for (unsigned int q = 0; q < pcnt; q++) {
			struct subject *s = &subjects[quick ? (unsigned int)quick_programs[q] : q];
			struct hxu_image *img = NULL;
			const char *name = strrchr(s->path, '/') + 1;
			bool shows;
			int err;

			selected = (int)mi;
			applied = 0;
			err = hwxdp_translate(s->obj, s->prog, s->facts, &img, why, sizeof(why));
			if (err || !applied || same_image(img, s->base)) {
				hxu_image__free(img);
				continue;
			}
			{
				struct hx_target *dev = hx_target_open("device", s->path);

				if (!dev) {
					/* the device's load check refuses it: no behaviour */
					if (verbose)
						printf("  %u %s: refused at load\n", mi, name);
					continue;
				}
				hx_target_close(dev);
			}
			shows = frames_differ(s, 300);
			err = hwxdp_prove(s->prog->insns, s->prog->insn_cnt, s->obj->maps,
					  s->obj->map_cnt, s->facts, img, 0, &opts, &res);
			hxu_image__free(img);
			if (err) {
				fprintf(stderr, "prove_mutants: the prover cannot run: %s\n",
					strerror(-err));
				return 1;
			}
			if (res.status == HWXDP_PROVE_COUNTEREXAMPLE) {
				int r = replay(s, &res, why, sizeof(why));

				if (r < 0) {
					printf("CHECKER FAULT: mutant %u (%s) on %s: a "
					       "counterexample "
					       "that does not replay: %s (%s)\n",
					       mi, mutants[mi].what, name, why, res.reason);
					print_counterexample(s, &res);
					faults++;
				} else if (r > 0) {
					is_caught = is_changed = true;
				}
				if (verbose)
					printf("  %u %s: %s%s\n", mi, name, res.reason,
					       r > 0 ? "" : " (no visible difference)");
			} else if (res.status == HWXDP_PROVE_PROVEN && shows) {
				printf("CHECKER FAULT: mutant %u (%s) on %s: proven, yet a frame "
				       "shows a difference\n",
				       mi, mutants[mi].what, name);
				faults++;
			} else if (res.status == HWXDP_PROVE_NOT_PROVEN && at < sizeof(notes)) {
				at += (size_t)snprintf(notes + at, sizeof(notes) - at, "%s%s: %s",
						       at ? "; " : "", name, res.reason);
			}
			is_changed |= shows;
		}
		selected = -1;
		if (is_changed) {
			changed++;
			caught += is_caught;
			if (!is_caught)
				snprintf(missed[mi], sizeof(missed[mi]), "%s",
					 notes[0] ? notes : "no counterexample on any program");
		} else {
			unchanged++;
		}
		printf("mutant %2u %-45s %s\n", mi, mutants[mi].what,
		       is_caught    ? "caught"
		       : is_changed ? "MISSED"
				    : "no behaviour change seen (not exercised or equivalent)");
	}
	for (unsigned int mi = 0; mi < MUTANT_CNT; mi++)
		if (missed[mi][0])
			printf("missed: mutant %u (%s): %s\n", mi, mutants[mi].what, missed[mi]);
	printf("prove-mutants: %u mutants, %u change behaviour, %u caught, score %.1f %%, %u "
	       "without a change seen, %u checker faults\n",
	       mcnt, changed, caught, changed ? 100.0 * caught / changed : 100.0, unchanged,
	       faults);
	for (unsigned int k = 0; k < pcnt; k++) {
		struct subject *s = &subjects[quick ? (unsigned int)quick_programs[k] : k];

		hxu_image__free(s->base);
		hwxdp_verify_result__free(s->facts);
		hwxdp_object__close(s->obj);
	}
	return faults || (changed && caught * 100 < changed * 95) ? 1 : 0;
}
