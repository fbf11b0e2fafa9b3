// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier against a table of programs, each also judged by the
 * running kernel: hwxdp must accept what the table accepts (and so must the
 * kernel), and reject the rest with the expected words (and the kernel must
 * reject it too, in the same words where they exist).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "tests/verifier/cases.h"
#include "verifier/verifier.h"

static char kernel_log[1 << 20];

static uint32_t case_len(const struct verifier_case *c)
{
	uint32_t n = MAX_TEST_INSNS;
	static const struct bpf_insn zero;

	if (c->insn_cnt)
		return c->insn_cnt;
	while (n > 1 && !memcmp(&c->insns[n - 1], &zero, sizeof(zero)))
		n--;
	return n;
}

static struct hwxdp_verify_result *run_hwxdp_on(const struct verifier_case *c, bool device)
{
	struct hwxdp_verify_opts opts = {
		.sz = sizeof(opts),
		.log_level = 1,
		.device = device,
		/* the kernel's copy is bound: a host one is too */
		.dev_bound = c->kmode == KERNEL_BOUND,
		.insn_budget = c->budget,
		.expected_attach_type = c->attach,
		/* the rules the kernel is asked under */
		.unprivileged = c->kmode == KERNEL_STRICT,
		.btf = test_btf(),
	};
	struct hwxdp_verify_result *res = NULL;
	int err;

	err = hwxdp_verify_insns(c->insns, case_len(c), test_maps, MAP_CNT, &opts, &res);
	cr_assert_eq(err, 0, "%s: hwxdp_verify_insns failed: %d", c->name, err);
	cr_assert_not_null(res);
	return res;
}

static struct hwxdp_verify_result *run_hwxdp(const struct verifier_case *c)
{
	return run_hwxdp_on(c, c->device);
}

/* A case the kernel is asked bound: the host target, bound, agrees with it. */
static void expect_host_bound(const struct verifier_case *c, bool accepted)
{
	struct hwxdp_verify_result *res;

	if (c->kmode != KERNEL_BOUND)
		return;
	res = run_hwxdp_on(c, false);
	cr_expect_eq(res->accepted, accepted, "%s: the host target, bound, %s:\n%s", c->name,
		     res->accepted ? "accepts" : "rejects", res->log);
	hwxdp_verify_result__free(res);
}

static int run_kernel(const struct verifier_case *c)
{
	int fd = kernel_load(c->insns, case_len(c), c->kmode, c->attach, c->raw_maps, kernel_log,
			     sizeof(kernel_log));

	if (fd >= 0)
		close(fd);
	return fd;
}

/*
 * Criterion runs each parameter in a fresh process where the table's
 * pointers mean nothing, so the parameter is an index into the table.
 */
static unsigned int case_index[512];

static struct criterion_test_params indexes(unsigned int cnt)
{
	unsigned int i;

	cr_assert_leq(cnt, sizeof(case_index) / sizeof(case_index[0]));
	for (i = 0; i < cnt; i++)
		case_index[i] = i;
	return cr_make_param_array(unsigned int, case_index, cnt);
}

ParameterizedTestParameters(verifier, accepts)
{
	return indexes(accept_case_cnt);
}

ParameterizedTest(unsigned int *index, verifier, accepts)
{
	const struct verifier_case *c = &accept_cases[*index];
	struct hwxdp_verify_result *res = run_hwxdp(c);

	cr_expect(res->accepted, "%s: hwxdp rejects:\n%s", c->name, res->log);
	cr_expect(res->facts && res->fact_cnt == case_len(c), "%s: no facts", c->name);
	hwxdp_verify_result__free(res);
	expect_host_bound(c, true);
	if (!kernel_available()) {
		cr_log_info("%s: the kernel's verdict needs root, not checked\n", c->name);
		return;
	}
	cr_expect_geq(run_kernel(c), 0, "%s: the kernel rejects:\n%s", c->name, kernel_log);
}

ParameterizedTestParameters(verifier, rejects)
{
	return indexes(reject_case_cnt);
}

ParameterizedTest(unsigned int *index, verifier, rejects)
{
	const struct verifier_case *c = &reject_cases[*index];
	struct hwxdp_verify_result *res = run_hwxdp(c);
	const char *kmsg = c->kmsg ? c->kmsg : c->msg;
	int fd;

	cr_expect(!res->accepted, "%s: hwxdp accepts:\n%s", c->name, res->log);
	cr_expect(strstr(res->log, c->msg), "%s: hwxdp's log lacks \"%s\":\n%s", c->name, c->msg,
		  res->log);
	hwxdp_verify_result__free(res);
	/* hwxdp's own rules are the device's: the host has the kernel's */
	expect_host_bound(c, c->stricter);
	if (!kernel_available()) {
		cr_log_info("%s: the kernel's verdict needs root, not checked\n", c->name);
		return;
	}
	fd = run_kernel(c);
	if (c->stricter) {
		/* a rule of hwxdp's own: the kernel must still accept, or the
		 * rule is not hwxdp's alone and belongs with the others */
		cr_expect_geq(fd, 0, "%s: the kernel rejects too (drop .stricter):\n%s", c->name,
			      kernel_log);
		return;
	}
	cr_expect_lt(fd, 0, "%s: the kernel (%s) accepts", c->name,
		     c->kmode == KERNEL_STRICT ? "without CAP_PERFMON" : "root");
	if (*kmsg)
		cr_expect(strstr(kernel_log, kmsg), "%s: the kernel's log lacks \"%s\":\n%s",
			  c->name, kmsg, kernel_log);
}

/*
 * Precision past the record's end: straight-line code longer than the
 * instructions a path keeps since its last stored state, then the scalar
 * that makes the second path unsafe moves a packet pointer. With no record
 * to walk back, every scalar above must be marked, or the second path is
 * cut at the join.
 */
Test(verifier, precision_past_a_long_segment)
{
	enum { FILLER = 5000 };
	static const struct bpf_insn head[] = {
		LDX_MEM(BPF_W, 6, 1, 16), MOV64_IMM(7, 20), JMP_IMM(BPF_JEQ, 6, 0, 1),
		MOV64_IMM(7, 0),	  MOV64_IMM(8, 0), /* 4: join */
	};
	static const struct bpf_insn tail[] = {
		LOAD_PKT,
		PKT_PLUS(8),
		JMP_REG(BPF_JGT, 4, 3, 2),
		ALU64_REG(BPF_ADD, 2, 7),
		LDX_MEM(BPF_B, 0, 2, 0),
		RET(XDP_PASS),
	};
	size_t h = sizeof(head) / sizeof(head[0]), t = sizeof(tail) / sizeof(tail[0]);
	size_t cnt = h + FILLER + t, i;
	struct bpf_insn *insns = calloc(cnt, sizeof(*insns));
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts), .log_level = 1 };
	struct hwxdp_verify_result *res = NULL;
	const char *msg = "invalid access to packet, off=20 size=1";
	int fd;

	cr_assert_not_null(insns);
	memcpy(insns, head, sizeof(head));
	for (i = 0; i < FILLER; i++)
		insns[h + i] = (struct bpf_insn)ALU64_IMM(BPF_ADD, 8, 1);
	memcpy(insns + h + FILLER, tail, sizeof(tail));
	cr_assert_eq(hwxdp_verify_insns(insns, cnt, test_maps, MAP_CNT, &opts, &res), 0);
	cr_expect(!res->accepted, "hwxdp accepts");
	cr_expect(strstr(res->log, msg), "hwxdp's log lacks \"%s\":\n%s", msg, res->log);
	hwxdp_verify_result__free(res);
	if (kernel_available()) {
		fd = kernel_load(insns, cnt, KERNEL_PRIV, 0, false, kernel_log, sizeof(kernel_log));
		cr_expect_lt(fd, 0, "the kernel accepts");
		if (fd >= 0)
			close(fd);
		cr_expect(strstr(kernel_log, msg), "the kernel's log lacks \"%s\":\n%s", msg,
			  kernel_log);
	} else {
		cr_log_info("precision_past_a_long_segment: the kernel's verdict needs root\n");
	}
	free(insns);
}

/*
 * Programs where hwxdp once walked more than the kernel: its walk must take
 * no more instructions than the kernel's "processed N insns" for the same
 * program, measured here, as root.
 */
#define FILL2 ALU64_IMM(BPF_ADD, 1, 1), ALU64_IMM(BPF_ADD, 1, 1)
#define FILL8 FILL2, FILL2, FILL2, FILL2

static const struct {
	const char *name;
	struct bpf_insn insns[MAX_TEST_INSNS];
	uint32_t insn_cnt;
} no_more_than_kernel[] = {
	/* a 4-byte spill of 0 ended by the byte stored beside it, as the
	 * kernel ends it: the callback's counter is unknown from the first
	 * call, and the calls converge at once instead of one by one */
	{ "a bpf_loop counter in a slot a byte store ended the spill of",
	  { ST_MEM(BPF_W, 10, -8, 0), ST_MEM(BPF_B, 10, -4, 1), MOV64_REG(3, 10),
	    ALU64_IMM(BPF_ADD, 3, -8), BPF_LOOP(8, 5, 0), RET(XDP_PASS),
	    /* 11: the callback */
	    LDX_MEM(BPF_W, 3, 2, 0), JMP_IMM(BPF_JGT, 3, 100, 4), ALU64_IMM(BPF_ADD, 3, 1),
	    STX_MEM(BPF_W, 2, 3, 0), RET(0), RET(1) },
	  19 },
	/* the second path into the join wrote a map value: on the host
	 * that takes nothing from the first path's state covering it */
	{ "paths that meet after one of them wrote a map value",
	  { LDX_MEM(BPF_W, 6, 1, 16), LDX_MEM(BPF_W, 7, 1, 12), LOOKUP(MAP_ARRAY),
	    JMP_IMM(BPF_JEQ, 0, 0, 19), JMP_IMM(BPF_JNE, 7, 0, 1), JA(1), ST_MEM(BPF_DW, 0, 0, 1),
	    /* 12: the join */
	    MOV64_IMM(1, 0), ALU64_IMM(BPF_ADD, 1, 1), ALU64_IMM(BPF_ADD, 1, 1),
	    ALU64_IMM(BPF_ADD, 1, 1), ALU64_IMM(BPF_ADD, 1, 1), ALU64_IMM(BPF_ADD, 1, 1),
	    ALU64_IMM(BPF_ADD, 1, 1), JMP_IMM(BPF_JGT, 6, 5, 10), FILL8, RET(XDP_PASS), FILL8,
	    RET(XDP_DROP) },
	  40 },
	/* bpf_xdp_load_bytes and then _store_bytes at an offset of 6 or 16,
	 * as Cilium's ctx_load_bytes and ctx_store_bytes of a UDP or TCP
	 * checksum: the offset is ARG_ANYTHING, which the kernel does not make
	 * precise, so the second path is cut at the first call, not walked to
	 * past the second (5: the join, 11 and 42: the calls) */
	{ "paths that meet at load_bytes and store_bytes whose offsets differ",
	  { MOV64_REG(6, 1),
	    LDX_MEM(BPF_W, 7, 1, 16),
	    MOV64_IMM(8, 6),
	    JMP_IMM(BPF_JEQ, 7, 0, 1),
	    MOV64_IMM(8, 16),
	    ST_MEM(BPF_DW, 10, -8, 0),
	    MOV64_REG(1, 6),
	    MOV64_REG(2, 8),
	    MOV64_REG(3, 10),
	    ALU64_IMM(BPF_ADD, 3, -8),
	    MOV64_IMM(4, 2),
	    CALL_HELPER(BPF_FUNC_xdp_load_bytes),
	    LDX_MEM(BPF_H, 1, 10, -8),
	    FILL8,
	    FILL8,
	    FILL8,
	    MOV64_REG(1, 6),
	    MOV64_REG(2, 8),
	    MOV64_REG(3, 10),
	    ALU64_IMM(BPF_ADD, 3, -8),
	    MOV64_IMM(4, 2),
	    CALL_HELPER(BPF_FUNC_xdp_store_bytes),
	    RET(XDP_PASS) },
	  45 },
};

static unsigned long kernel_processed(const char *log)
{
	const char *p = strstr(log, "processed ");

	return p ? strtoul(p + strlen("processed "), NULL, 10) : 0;
}

Test(verifier, processed_no_more_than_the_kernel)
{
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts), .log_level = 1 };
	size_t n = sizeof(no_more_than_kernel) / sizeof(no_more_than_kernel[0]);

	if (!kernel_available())
		cr_skip_test("the kernel's count needs root");
	for (size_t i = 0; i < n; i++) {
		const struct bpf_insn *insns = no_more_than_kernel[i].insns;
		uint32_t cnt = no_more_than_kernel[i].insn_cnt;
		const char *name = no_more_than_kernel[i].name;
		struct hwxdp_verify_result *res = NULL;
		unsigned long kernel;
		int fd;

		fd = kernel_load(insns, cnt, KERNEL_PRIV, 0, false, kernel_log, sizeof(kernel_log));
		cr_expect_geq(fd, 0, "%s: the kernel rejects:\n%s", name, kernel_log);
		if (fd < 0)
			continue;
		close(fd);
		kernel = kernel_processed(kernel_log);
		cr_expect_gt(kernel, 0, "%s: no count in the kernel's log:\n%s", name, kernel_log);
		cr_assert_eq(hwxdp_verify_insns(insns, cnt, test_maps, MAP_CNT, &opts, &res), 0);
		cr_expect(res->accepted, "%s: hwxdp rejects:\n%s", name, res->log);
		cr_expect_leq(res->insns_processed, kernel,
			      "%s: hwxdp processed %u, the kernel %lu", name, res->insns_processed,
			      kernel);
		cr_log_info("%s: hwxdp %u, kernel %lu\n", name, res->insns_processed, kernel);
		hwxdp_verify_result__free(res);
	}
}
