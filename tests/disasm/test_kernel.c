// SPDX-License-Identifier: GPL-2.0
/*
 * Differential tests against the running kernel: every instruction line of a
 * log-level-2 verifier log must read exactly as hwxdp_disasm_insn prints the
 * same instruction, and must assemble back to it. Needs root.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <criterion/criterion.h>
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "insn_set.h"
#include "verifier/asm.h"
#include "verifier/disasm.h"

#define LOG_SIZE (64u << 20)

struct log_check {
	const struct bpf_insn *insns;
	size_t cnt;
	bool *seen;
	size_t lines, mismatches, covered;
	char report[2048];
};

static void skip_unless_root(void)
{
	if (geteuid() != 0)
		cr_skip_test("needs root to load programs into the kernel");
}

static void mismatch(struct log_check *c, size_t idx, const char *kernel, const char *why)
{
	size_t used = strlen(c->report);

	if (c->mismatches++ < 5)
		snprintf(c->report + used, sizeof(c->report) - used, "\n  %zu: kernel \"%s\": %s",
			 idx, kernel, why);
}

/* "N: (xx) text", "  N: .1..5..... (xx) text" (liveness), "... before N: (xx) text". */
static bool log_insn(const char *line, size_t *idx, char *text, size_t len)
{
	const char *eol = strchr(line, '\n'), *p = strstr(line, " before ");
	char *end;
	size_t n;

	if (!eol)
		eol = line + strlen(line);
	p = p && p < eol ? p + 8 : line;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return false;
	*idx = strtoul(p, &end, 10);
	if (end[0] != ':' || end[1] != ' ')
		return false;
	p = end + 2;
	if (*p != '(' && strspn(p, ".0123456789") == 10 && p[10] == ' ')
		p += 11;
	if (!(p[0] == '(' && isxdigit((unsigned char)p[1]) && isxdigit((unsigned char)p[2]) &&
	      p[3] == ')' && p[4] == ' '))
		return false;
	n = strcspn(p, ";\n");
	while (n && p[n - 1] == ' ')
		n--;
	snprintf(text, len, "%.*s", (int)n, p);
	return true;
}

static void check_line(struct log_check *c, size_t idx, const char *kernel)
{
	const struct bpf_insn *insn = &c->insns[idx];
	bool ld_ptr = insn->code == (BPF_LD | BPF_IMM | BPF_DW) && insn->src_reg;
	bool kfunc = insn->code == (BPF_JMP | BPF_CALL) && insn->src_reg == BPF_PSEUDO_KFUNC_CALL;
	struct bpf_insn *back;
	char ours[256], err[256];
	size_t back_cnt, n;

	c->lines++;
	if (idx >= c->cnt)
		return mismatch(c, idx, kernel, "index past the program");
	if (!c->seen[idx]) {
		c->seen[idx] = true;
		c->covered++;
	}
	hwxdp_disasm_insn(insn, c->cnt - idx, ours, sizeof(ours));
	if (ld_ptr) {
		/* the kernel prints the map's address: only "(18) rN = " can agree */
		n = strchr(ours, '=') - ours + 2;
		if (strncmp(ours, kernel, n))
			mismatch(c, idx, kernel, ours);
		return;
	}
	if (kfunc) {
		/* the kernel names the kfunc from its BTF: the "#id" must agree */
		if (strncmp(kernel, "(85) call ", 10) || strcmp(strrchr(kernel, '#'), strrchr(ours, '#')))
			mismatch(c, idx, kernel, ours);
		return;
	}
	if (strcmp(ours, kernel))
		return mismatch(c, idx, kernel, ours);
	if (hwxdp_asm(kernel, &back, &back_cnt, err, sizeof(err)))
		return mismatch(c, idx, kernel, err);
	if (back_cnt > c->cnt - idx || memcmp(back, insn, back_cnt * sizeof(*insn)))
		mismatch(c, idx, kernel, "assembles to other bytes");
	free(back);
}

static void check_log(struct log_check *c, const char *log)
{
	const char *line;
	char text[512];
	size_t idx;

	c->seen = calloc(c->cnt, sizeof(*c->seen));
	cr_assert_not_null(c->seen);
	for (line = log; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (log_insn(line, &idx, text, sizeof(text)))
			check_line(c, idx, text);
	free(c->seen);
}

Test(kernel_log, fwd_object_reads_as_the_kernel_prints_it)
{
	const char *path = insn_set_object_path("fwd");
	struct bpf_program *prog;
	struct bpf_object *obj;
	char *log;
	int err;

	skip_unless_root();
	log = calloc(1, LOG_SIZE);
	obj = bpf_object__open_file(path, NULL);
	cr_assert(log && obj, "cannot open %s: %s", path, strerror(errno));
	bpf_object__for_each_program(prog, obj) {
		bpf_program__set_log_level(prog, 2);
		bpf_program__set_log_buf(prog, log, LOG_SIZE);
	}
	err = bpf_object__load(obj);
	cr_assert_eq(err, 0, "kernel load of %s failed: %d\n%s", path, err,
		     log + (strlen(log) > 4000 ? strlen(log) - 4000 : 0));
	bpf_object__for_each_program(prog, obj) {
		struct log_check c = { .insns = bpf_program__insns(prog),
				       .cnt = bpf_program__insn_cnt(prog) };

		cr_assert_not_null(c.insns);
		check_log(&c, log);
		cr_log_info("%s: %zu log lines, %zu of %zu instructions, %zu differ",
			    bpf_program__name(prog), c.lines, c.covered, c.cnt, c.mismatches);
		cr_assert_eq(c.mismatches, 0, "%zu of %zu log lines differ:%s", c.mismatches,
			     c.lines, c.report);
		cr_assert_geq(c.covered * 10, c.cnt * 9, "log covered only %zu of %zu instructions",
			     c.covered, c.cnt);
	}
	bpf_object__close(obj);
	free(log);
}

/* Assembles text, loads it as a socket filter at log level 2, checks every line. */
static void check_program(const char *name, const char *text)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_level = 2, .log_size = LOG_SIZE);
	struct log_check c = { 0 };
	struct bpf_insn *insns;
	char err[256];
	size_t cnt, i, needed = 0;
	int fd;

	cr_assert_eq(hwxdp_asm(text, &insns, &cnt, err, sizeof(err)), 0, "%s: %s", name, err);
	opts.log_buf = calloc(1, LOG_SIZE);
	cr_assert_not_null(opts.log_buf);
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, name, "GPL", insns, cnt, &opts);
	cr_assert_geq(fd, 0, "%s: kernel rejected it: %s\n%s", name, strerror(errno),
		      opts.log_buf + (strlen(opts.log_buf) > 3000 ? strlen(opts.log_buf) - 3000 : 0));
	close(fd);
	c.insns = insns;
	c.cnt = cnt;
	check_log(&c, opts.log_buf);
	for (i = 0; i < cnt; i++, needed++)
		if (insns[i].code == (BPF_LD | BPF_IMM | BPF_DW))
			i++;
	cr_log_info("%s: %zu log lines, %zu of %zu instructions, %zu differ", name, c.lines,
		    c.covered, needed, c.mismatches);
	cr_assert_eq(c.mismatches, 0, "%s: %zu of %zu log lines differ:%s", name, c.mismatches,
		     c.lines, c.report);
	cr_assert_eq(c.covered, needed, "%s: the log shows %zu of %zu instructions", name,
		     c.covered, needed);
	free(opts.log_buf);
	free(insns);
}

/* Two unknown scalars in r7 and r8 keep every branch and operation live. */
#define PROLOGUE                                                                              \
	"r6 = r1\n"                                                                           \
	"call bpf_get_prandom_u32#7\n"                                                        \
	"r7 = r0\n"                                                                           \
	"call bpf_get_prandom_u32#7\n"                                                        \
	"r8 = r0\n"

Test(kernel_log, alu_in_both_widths)
{
	skip_unless_root();
	check_program("alu", PROLOGUE
		      "r0 = r7\n r0 += 1\n r0 -= r8\n r0 *= 3\n r0 /= r8\n r0 %= 7\n"
		      "r0 |= r8\n r0 &= 255\n r0 <<= 3\n r0 >>= r8\n r0 ^= -1\n r0 s>>= 2\n"
		      "r0 += r8\n r0 *= r8\n r0 %= r8\n r0 -= 2\n r0 /= 5\n r0 ^= r8\n r0 &= r8\n"
		      "r0 <<= r8\n r0 >>= 1\n r0 s>>= r8\n r0 |= 16\n"
		      "r0 s/= r8\n r0 s%= -3\n r0 s/= 7\n r0 s%= r8\n r0 = -r0\n"
		      "r0 = (s8)r7\n r0 = (s16)r7\n r0 = (s32)r7\n r0 = -2147483648\n"
		      "w0 = w7\n w0 += 5\n w0 -= w8\n w0 *= w8\n w0 /= 3\n w0 %= w8\n w0 |= 4\n"
		      "w0 &= w8\n w0 <<= 1\n w0 >>= w8\n w0 ^= 9\n w0 s>>= 1\n w0 += w8\n"
		      "w0 -= 7\n w0 *= 3\n w0 /= w8\n w0 %= 6\n w0 |= w8\n w0 &= 255\n"
		      "w0 <<= w8\n w0 >>= 2\n w0 ^= w8\n w0 s>>= w8\n"
		      "w0 s/= w8\n w0 s%= 5\n w0 s/= -2\n w0 s%= w8\n w0 = -w0\n"
		      "w0 = (s8)w7\n w0 = (s16)w7\n w0 = 42\n w0 = -1\n"
		      "r0 = be16 r0\n r0 = be32 r0\n r0 = be64 r0\n"
		      "r0 = le16 r0\n r0 = le32 r0\n r0 = le64 r0\n"
		      "r0 = bswap16 r0\n r0 = bswap32 r0\n r0 = bswap64 r0\n"
		      "r1 = 0x123456789abcdef0\n r1 = 0x0\n"
		      "exit\n");
}

Test(kernel_log, memory_and_atomics)
{
	skip_unless_root();
	check_program("mem", PROLOGUE
		      "*(u64 *)(r10 -8) = r7\n *(u32 *)(r10 -16) = r7\n"
		      "*(u16 *)(r10 -18) = r7\n *(u8 *)(r10 -19) = r7\n"
		      "*(u64 *)(r10 -32) = -1\n *(u32 *)(r10 -24) = 5\n"
		      "*(u16 *)(r10 -20) = 6\n *(u8 *)(r10 -17) = 7\n"
		      "r0 = *(u64 *)(r10 -8)\n r0 = *(u32 *)(r10 -16)\n"
		      "r0 = *(u16 *)(r10 -18)\n r0 = *(u8 *)(r10 -19)\n"
		      "r0 = *(s32 *)(r10 -16)\n r0 = *(s16 *)(r10 -18)\n r0 = *(s8 *)(r10 -19)\n"
		      "lock *(u64 *)(r10 -8) += r8\n lock *(u64 *)(r10 -8) &= r8\n"
		      "lock *(u64 *)(r10 -8) |= r8\n lock *(u64 *)(r10 -8) ^= r8\n"
		      "lock *(u32 *)(r10 -16) += r8\n lock *(u32 *)(r10 -16) &= r8\n"
		      "lock *(u32 *)(r10 -16) |= r8\n lock *(u32 *)(r10 -16) ^= r8\n"
		      "r1 = r8\n"
		      "r1 = atomic64_fetch_add((u64 *)(r10 -8), r1)\n"
		      "r1 = atomic64_fetch_and((u64 *)(r10 -8), r1)\n"
		      "r1 = atomic64_fetch_or((u64 *)(r10 -8), r1)\n"
		      "r1 = atomic64_fetch_xor((u64 *)(r10 -8), r1)\n"
		      "r1 = atomic_fetch_add((u32 *)(r10 -16), r1)\n"
		      "r1 = atomic_fetch_and((u32 *)(r10 -16), r1)\n"
		      "r1 = atomic_fetch_or((u32 *)(r10 -16), r1)\n"
		      "r1 = atomic_fetch_xor((u32 *)(r10 -16), r1)\n"
		      "r1 = atomic64_xchg((u64 *)(r10 -8), r1)\n"
		      "r1 = atomic_xchg((u32 *)(r10 -16), r1)\n"
		      "r0 = r7\n"
		      "r0 = atomic64_cmpxchg((u64 *)(r10 -8), r0, r8)\n"
		      "r0 = atomic_cmpxchg((u32 *)(r10 -16), r0, r8)\n"
		      "r0 = load_acquire((u64 *)(r10 -8))\n r0 = load_acquire((u32 *)(r10 -16))\n"
		      "r0 = load_acquire((u16 *)(r10 -18))\n r0 = load_acquire((u8 *)(r10 -19))\n"
		      "store_release((u64 *)(r10 -8), r7)\n store_release((u32 *)(r10 -16), r7)\n"
		      "store_release((u16 *)(r10 -18), r7)\n store_release((u8 *)(r10 -19), r7)\n"
		      "exit\n");
}

Test(kernel_log, jumps_and_calls)
{
	skip_unless_root();
	/* every conditional jump goes to the next line: both ways are walked */
	check_program("jmp", PROLOGUE
		      "if r7 == 0x5 goto pc+0\n if r7 != 0x5 goto pc+0\n if r7 > 0x5 goto pc+0\n"
		      "if r7 >= 0x5 goto pc+0\n if r7 < 0x5 goto pc+0\n if r7 <= 0x5 goto pc+0\n"
		      "if r7 s> 0xfffffffb goto pc+0\n if r7 s>= 0x5 goto pc+0\n"
		      "if r7 s< 0x5 goto pc+0\n if r7 s<= 0x5 goto pc+0\n if r7 & 0x5 goto pc+0\n"
		      "if r7 == r8 goto pc+0\n if r7 != r8 goto pc+0\n if r7 > r8 goto pc+0\n"
		      "if r7 >= r8 goto pc+0\n if r7 < r8 goto pc+0\n if r7 <= r8 goto pc+0\n"
		      "if r7 s> r8 goto pc+0\n if r7 s>= r8 goto pc+0\n if r7 s< r8 goto pc+0\n"
		      "if r7 s<= r8 goto pc+0\n if r7 & r8 goto pc+0\n"
		      "if w7 == 0x5 goto pc+0\n if w7 != 0x5 goto pc+0\n if w7 > 0x5 goto pc+0\n"
		      "if w7 >= 0x5 goto pc+0\n if w7 < 0x5 goto pc+0\n if w7 <= 0x5 goto pc+0\n"
		      "if w7 s> 0x5 goto pc+0\n if w7 s>= 0x5 goto pc+0\n if w7 s< 0x5 goto pc+0\n"
		      "if w7 s<= 0x5 goto pc+0\n if w7 & 0x5 goto pc+0\n"
		      "if w7 == w8 goto pc+0\n if w7 != w8 goto pc+0\n if w7 > w8 goto pc+0\n"
		      "if w7 >= w8 goto pc+0\n if w7 < w8 goto pc+0\n if w7 <= w8 goto pc+0\n"
		      "if w7 s> w8 goto pc+0\n if w7 s>= w8 goto pc+0\n if w7 s< w8 goto pc+0\n"
		      "if w7 s<= w8 goto pc+0\n if w7 & w8 goto pc+0\n"
		      "goto next\n"
		      "next: gotol pc+0\n"
		      "may_goto pc+0\n"
		      "call bpf_ktime_get_ns#5\n"
		      "call sub\n"
		      "r0 = 0\n exit\n"
		      "sub: r0 = 1\n exit\n");
}

Test(kernel_log, packet_loads)
{
	skip_unless_root();
	/* LD_ABS/LD_IND cannot share a program with BPF-to-BPF calls */
	check_program("ldabs", "r6 = r1\n"
		      "r0 = *(u8 *)skb[0]\n r0 = *(u16 *)skb[12]\n r0 = *(u32 *)skb[14]\n"
		      "call bpf_get_prandom_u32#7\n r7 = r0\n r7 &= 15\n"
		      "r0 = *(u8 *)skb[r7 + 0]\n r0 = *(u16 *)skb[r7 + 2]\n"
		      "r0 = *(u32 *)skb[r7 + 4]\n exit\n");
}

Test(kernel_log, map_references)
{
	LIBBPF_OPTS(bpf_map_create_opts, map_opts);
	char text[1024];
	int map;

	skip_unless_root();
	map = bpf_map_create(BPF_MAP_TYPE_ARRAY, "hx_disasm", 4, 8, 1, &map_opts);
	cr_assert_geq(map, 0, "map create: %s", strerror(errno));
	snprintf(text, sizeof(text),
		 "*(u32 *)(r10 -4) = 0\n r2 = r10\n r2 += -4\n"
		 "r1 = map[idx:%d]\n"
		 "call bpf_map_lookup_elem#1\n"
		 "if r0 == 0x0 goto out\n"
		 "r1 = 1\n lock *(u64 *)(r0 +0) += r1\n"
		 "r1 = map[idx:%d][0]+0\n r1 = *(u64 *)(r1 +0)\n"
		 "out: r0 = 0\n exit\n", map, map);
	check_program("maps", text);
	close(map);
}
