// SPDX-License-Identifier: GPL-2.0
/*
 * Translation time against program length, for four shapes of program the
 * bench writes itself:
 *
 *   straight  straight-line arithmetic whose results nothing reads: every
 *             instruction but the exit is dead code to the translator, and
 *             each becomes dead only once the one after it is
 *   branch    forward branches over arithmetic whose results the exit
 *             returns, so that all of it is translated and scheduled
 *   dead      code behind a branch the verifier decides: no path reaches
 *             it, and it is not translated
 *   block     straight-line arithmetic whose results the exit returns: one
 *             block of live code for the scheduler to pack
 *
 *   bench_translate [-r runs] [-m max-length] [-s shape]
 *
 * For each shape and length: the median of the runs' translation times in
 * ms (hwxdp_translate alone, the verification is done once beforehand),
 * that time per BPF instruction in us, and the median time of the device's
 * check of the image it gives (hwxdp_engine__check, the table memory proof
 * included) in ms. A translator linear in the length keeps the us/insn
 * column flat; the last line of each shape is the ratio of the time per
 * instruction at the longest length to that at the shortest.
 */
#include <errno.h>
#include <stddef.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/bpf.h>

#include "device/engine.h"
#include "hwmap/translate.h"
#include "verifier/verifier.h"

#define MAX_RUNS 15

enum shape { STRAIGHT, BRANCH, DEAD, BLOCK, SHAPES };

static const char *const shape_name[SHAPES] = { "straight", "branch", "dead", "block" };

static struct bpf_insn insn(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	return (struct bpf_insn){
		.code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm
	};
}

/*
 * r1 and r2 start as values the verifier does not know (the ingress
 * interface and queue), r3..r5 as constants; r0 is what the program returns.
 */
static size_t prologue(struct bpf_insn *p)
{
	size_t n = 0;

	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0);
	p[n++] = insn(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_1, BPF_REG_6,
		      offsetof(struct xdp_md, ingress_ifindex), 0);
	p[n++] = insn(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_2, BPF_REG_6,
		      offsetof(struct xdp_md, rx_queue_index), 0);
	for (uint8_t r = 3; r <= 5; r++)
		p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, r, 0, 0, r);
	return n;
}

/* A program of about len instructions (at least len - 4) of this shape. */
static size_t generate(enum shape shape, size_t len, struct bpf_insn *p)
{
	size_t n = prologue(p);
	uint8_t r = 1;

	switch (shape) {
	case STRAIGHT:
		/* each register's chain of additions is read by nothing at the end */
		while (n + 2 < len) {
			uint8_t next = r % 5 + 1;

			p[n++] = insn(BPF_ALU64 | BPF_ADD | BPF_X, next, r, 0, 0);
			r = next;
		}
		p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, XDP_PASS);
		break;
	case BRANCH:
		/*
		 * if r1 > r2 goto +4; r2 ^= r1; r1 += r2; r3 ^= r2; r4 += r3: one
		 * branch in five instructions, as the verifier (as the kernel's)
		 * holds at most 8192 branches it has yet to follow.
		 */
		while (n + 8 < len) {
			p[n++] = insn(BPF_JMP | BPF_JGT | BPF_X, BPF_REG_1, BPF_REG_2, 4, 0);
			p[n++] = insn(BPF_ALU64 | BPF_XOR | BPF_X, BPF_REG_2, BPF_REG_1, 0, 0);
			p[n++] = insn(BPF_ALU64 | BPF_ADD | BPF_X, BPF_REG_1, BPF_REG_2, 0, 0);
			p[n++] = insn(BPF_ALU64 | BPF_XOR | BPF_X, BPF_REG_3, BPF_REG_2, 0, 0);
			p[n++] = insn(BPF_ALU64 | BPF_ADD | BPF_X, BPF_REG_4, BPF_REG_3, 0, 0);
		}
		p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_0, BPF_REG_2, 0, 0);
		p[n++] = insn(BPF_ALU64 | BPF_ADD | BPF_X, BPF_REG_0, BPF_REG_4, 0, 0);
		p[n++] = insn(BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_0, 0, 0, 3);
		break;
	case DEAD:
		/* r5 is 5, so every "if r5 == 5" skips the block after it */
		while (n + 10 < len) {
			p[n++] = insn(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_5, 0, 8, 5);
			for (int k = 0; k < 8; k++)
				p[n++] = insn(BPF_ALU64 | BPF_ADD | BPF_X, (uint8_t)(k % 4 + 1), 5,
					      0, 0);
		}
		p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_0, BPF_REG_1, 0, 0);
		p[n++] = insn(BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_0, 0, 0, 3);
		break;
	case BLOCK:
		/* r1..r4 each fold in r5 in turn, independent of one another */
		p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_5, BPF_REG_1, 0, 0);
		while (n + 6 < len) {
			int32_t k = (int32_t)n;

			p[n++] = insn(BPF_ALU64 | BPF_XOR | BPF_X, r, BPF_REG_5, 0, 0);
			p[n++] = insn(BPF_ALU64 | BPF_ADD | BPF_K, r, 0, 0, k);
			r = r % 4 + 1;
		}
		p[n++] = insn(BPF_ALU64 | BPF_XOR | BPF_X, BPF_REG_1, BPF_REG_2, 0, 0);
		p[n++] = insn(BPF_ALU64 | BPF_XOR | BPF_X, BPF_REG_1, BPF_REG_3, 0, 0);
		p[n++] = insn(BPF_ALU64 | BPF_XOR | BPF_X, BPF_REG_1, BPF_REG_4, 0, 0);
		p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_0, BPF_REG_1, 0, 0);
		p[n++] = insn(BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_0, 0, 0, 3);
		break;
	case SHAPES:
		break;
	}
	p[n++] = insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return n;
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The median translation time of runs translations, and of the device's
 * check of the image, in ns; 0 with *ops set. */
static int measure(enum shape shape, size_t len, int runs, double *ns, double *check_ns,
		   uint32_t *ops)
{
	struct bpf_insn *insns = calloc(len + 8, sizeof(*insns));
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	struct hwxdp_verify_result *res = NULL;
	uint32_t subprog_start = 0;
	struct hwxdp_prog prog = {
		.name = "bench",
		.type = BPF_PROG_TYPE_XDP,
		.insns = insns,
		.subprog_start = &subprog_start,
		.subprog_cnt = 1,
	};
	struct hwxdp_object obj = { .progs = &prog, .prog_cnt = 1 };
	double t[MAX_RUNS], tc[MAX_RUNS];
	char why[512];
	int err;

	if (!insns)
		return -ENOMEM;
	prog.insn_cnt = generate(shape, len, insns);
	err = hwxdp_verify_insns(insns, prog.insn_cnt, NULL, 0, &vopts, &res);
	if (!err && !res->accepted) {
		fprintf(stderr, "bench_translate: %s of %zu insns refused by the verifier:\n%s\n",
			shape_name[shape], prog.insn_cnt, res->log ? res->log : "");
		err = -EINVAL;
	}
	for (int r = 0; r < runs && !err; r++) {
		struct hxu_image *img = NULL;
		double start = now_ns();

		err = hwxdp_translate(&obj, &prog, res, &img, why, sizeof(why));
		t[r] = now_ns() - start;
		if (err)
			fprintf(stderr, "bench_translate: %s of %zu insns: %s\n", shape_name[shape],
				prog.insn_cnt, err == -HWXDP_ERR_TRANSLATE ? why : strerror(-err));
		if (!err) {
			*ops = img->line_cnt;
			start = now_ns();
			err = hwxdp_engine__check(img, NULL, why, sizeof(why));
			tc[r] = now_ns() - start;
			if (err)
				fprintf(stderr,
					"bench_translate: %s of %zu insns: the device: %s\n",
					shape_name[shape], prog.insn_cnt, why);
		}
		hxu_image__free(img);
	}
	if (!err) {
		*ns = median(t, runs);
		*check_ns = median(tc, runs);
	}
	hwxdp_verify_result__free(res);
	free(insns);
	return err;
}

int main(int argc, char **argv)
{
	size_t max = 32000;
	int runs = 5, only = -1, c;

	while ((c = getopt(argc, argv, "r:m:s:")) != -1) {
		switch (c) {
		case 's':
			for (int s = 0; s < SHAPES; s++)
				if (!strcmp(optarg, shape_name[s]))
					only = s;
			if (only < 0) {
				fprintf(stderr,
					"bench_translate: shape %s: not straight, branch, dead or "
					"block\n",
					optarg);
				return 2;
			}
			break;
		case 'r':
			runs = atoi(optarg);
			break;
		case 'm':
			max = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr,
				"usage: bench_translate [-r runs] [-m max-length] [-s shape]\n");
			return 2;
		}
	}
	if (runs < 1 || runs > MAX_RUNS || max < 1000) {
		fprintf(stderr, "bench_translate: runs 1..%d, max-length at least 1000\n",
			MAX_RUNS);
		return 2;
	}
	printf("%-9s %7s %7s %10s %10s %10s\n", "shape", "insns", "ops", "ms", "us/insn",
	       "check ms");
	for (int s = 0; s < SHAPES; s++) {
		double first = 0, last = 0;

		if (only >= 0 && s != only)
			continue;
		for (size_t len = 1000; len <= max; len *= 2) {
			double ns, check_ns;
			uint32_t ops = 0;
			int err = measure((enum shape)s, len, runs, &ns, &check_ns, &ops);

			if (err)
				return 1;
			last = ns / 1e3 / (double)len;
			if (!first)
				first = last;
			printf("%-9s %7zu %7u %10.2f %10.3f %10.2f\n", shape_name[s], len, ops,
			       ns / 1e6, last, check_ns / 1e6);
		}
		printf("%-9s per-insn time, longest / shortest: %.2f\n", shape_name[s],
		       last / first);
	}
	return 0;
}
