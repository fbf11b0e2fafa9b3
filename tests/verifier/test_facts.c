// SPDX-License-Identifier: GPL-2.0
/*
 * What the verifier hands on besides a verdict: per-instruction facts for
 * the translator, the log at each level, source lines, the error position,
 * and the API's edges.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <criterion/criterion.h>

#include "tests/verifier/insn.h"
#include "tests/verifier/kernel.h"
#include "verifier/verifier.h"

#define CNT(a) (sizeof(a) / sizeof((a)[0]))

static struct hwxdp_verify_result *run(const struct bpf_insn *insns, size_t cnt, int level,
				       bool device)
{
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts),
					  .log_level = level,
					  .device = device };
	struct hwxdp_verify_result *res = NULL;

	cr_assert_eq(hwxdp_verify_insns(insns, cnt, test_maps, MAP_CNT, &opts, &res), 0);
	cr_assert_not_null(res);
	cr_assert_eq(res->fact_cnt, cnt);
	return res;
}

Test(facts, reachable_follows_a_frozen_constant)
{
	const struct bpf_insn insns[] = {
		LD_MAP_VALUE(1, MAP_RODATA, 0),
		LDX_MEM(BPF_W, 2, 1, 0),   /* 2: rodata word 0 is 1 */
		JMP_IMM(BPF_JEQ, 2, 1, 2), /* 3: always taken */
		MOV64_IMM(0, XDP_DROP),	   /* 4: dead */
		EXIT_INSN(),		   /* 5: dead */
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
	};
	struct hwxdp_verify_result *res = run(insns, CNT(insns), 0, false);
	size_t i;

	cr_assert(res->accepted, "%s", res->log);
	for (i = 0; i < CNT(insns); i++) {
		bool dead = i == 1 || i == 4 || i == 5; /* 1: the ld_imm64's second half */

		cr_expect_eq(res->facts[i].reachable, !dead, "insn %zu", i);
	}
	cr_expect_eq(res->facts[3].regs[2].type, HWXDP_REG_SCALAR);
	cr_expect_eq(res->facts[3].regs[2].umin, 1);
	cr_expect_eq(res->facts[3].regs[2].umax, 1);
	hwxdp_verify_result__free(res);
}

Test(facts, packet_checks_decided_by_an_earlier_one)
{
	const struct bpf_insn insns[] = {
		MOV64_IMM(0, XDP_PASS),
		LDX_MEM(BPF_W, 2, 1, 0),
		LDX_MEM(BPF_W, 3, 1, 4),
		MOV64_REG(4, 2),
		ALU64_IMM(BPF_ADD, 4, 14),
		JMP_REG(BPF_JGT, 4, 3, 7), /* 5: the real check */
		MOV64_REG(4, 2),
		ALU64_IMM(BPF_ADD, 4, 8),
		JMP_REG(BPF_JGT, 4, 3, 4), /* 8: data + 8 > end: never */
		JMP_REG(BPF_JLE, 4, 3, 1), /* 9: data + 8 <= end: always */
		EXIT_INSN(),		   /* 10: never runs, explored */
		JMP_REG(BPF_JLT, 3, 2, 1), /* 11: end < data: never */
		LDX_MEM(BPF_B, 5, 2, 13),
		EXIT_INSN(),
	};
	struct hwxdp_verify_result *res = run(insns, CNT(insns), 0, false);

	cr_assert(res->accepted, "%s", res->log);
	cr_expect(!res->facts[5].pkt_check_always_true && !res->facts[5].pkt_check_always_false);
	cr_expect(res->facts[8].pkt_check_always_false);
	cr_expect(!res->facts[8].pkt_check_always_true);
	cr_expect(res->facts[9].pkt_check_always_true);
	cr_expect(res->facts[10].reachable, "explored as the kernel does");
	cr_expect(res->facts[11].pkt_check_always_false);
	cr_expect_eq(res->facts[12].regs[2].type, HWXDP_REG_PTR_TO_PACKET);
	hwxdp_verify_result__free(res);
}

Test(facts, constant_map_keys)
{
	const struct bpf_insn one_key[] = {
		ST_MEM(BPF_W, 10, -8, 7), ST_MEM(BPF_W, 10, -4, 0),
		MOV64_REG(2, 10),	  ALU64_IMM(BPF_ADD, 2, -8),
		LD_MAP_FD(1, MAP_HASH),	  CALL_HELPER(BPF_FUNC_map_lookup_elem), /* 6: key 7 */
		MOV64_IMM(0, XDP_PASS),	  EXIT_INSN(),
	};
	const struct bpf_insn two_keys[] = {
		LDX_MEM(BPF_W, 6, 1, 16), /* rx_queue_index */
		ST_MEM(BPF_DW, 10, -8, 1),
		JMP_IMM(BPF_JEQ, 6, 0, 1),
		ST_MEM(BPF_DW, 10, -8, 2),
		MOV64_REG(2, 10),
		ALU64_IMM(BPF_ADD, 2, -8), /* 4: both paths meet */
		LD_MAP_FD(1, MAP_HASH),
		CALL_HELPER(BPF_FUNC_map_lookup_elem), /* 8: key 1 or 2 */
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
	};
	const struct bpf_insn redirect[] = {
		LD_MAP_FD(1, MAP_TX), MOV64_IMM(2, 3),
		MOV64_IMM(3, 0),      CALL_HELPER(BPF_FUNC_redirect_map),
		EXIT_INSN(),
	};
	struct hwxdp_verify_result *res;

	/* the device, whose translation the fact is for, keeps the narrow
	 * spill of 7 beside the other half's store */
	res = run(one_key, CNT(one_key), 0, true);
	cr_assert(res->accepted, "%s", res->log);
	cr_expect(res->facts[6].map_key_const);
	cr_expect_eq(res->facts[6].map_key, 7);
	hwxdp_verify_result__free(res);
	/* the host, as the kernel, does not: the store ends the spill */
	res = run(one_key, CNT(one_key), 0, false);
	cr_assert(res->accepted, "%s", res->log);
	cr_expect(!res->facts[6].map_key_const);
	hwxdp_verify_result__free(res);

	res = run(two_keys, CNT(two_keys), 0, false);
	cr_assert(res->accepted, "%s", res->log);
	cr_expect(!res->facts[8].map_key_const, "two keys reach the call");
	hwxdp_verify_result__free(res);

	res = run(redirect, CNT(redirect), 0, false);
	cr_assert(res->accepted, "%s", res->log);
	cr_expect(res->facts[4].map_key_const);
	cr_expect_eq(res->facts[4].map_key, 3);
	hwxdp_verify_result__free(res);
}

Test(facts, registers_joined_over_paths)
{
	const struct bpf_insn insns[] = {
		LDX_MEM(BPF_W, 6, 1, 16),
		MOV64_IMM(0, 1),
		MOV64_REG(7, 10),
		JMP_IMM(BPF_JEQ, 6, 0, 2),
		MOV64_IMM(0, 3),
		MOV64_IMM(7, 0),
		/* 6: r0 in [1, 3], r7 fp or 0; r0 is an argument below,
		 * which the device's facts need, so the second path is
		 * walked, not cut by the first's state */
		MOV64_REG(1, 0),
		MOV64_IMM(2, 0),
		CALL_HELPER(BPF_FUNC_redirect),
		EXIT_INSN(),
	};
	struct hwxdp_verify_result *res = run(insns, CNT(insns), 0, true);
	const struct hwxdp_reg_fact *r0 = &res->facts[6].regs[0];

	cr_assert(res->accepted, "%s", res->log);
	cr_expect_eq(r0->type, HWXDP_REG_SCALAR);
	cr_expect_eq(r0->umin, 1);
	cr_expect_eq(r0->umax, 3);
	cr_expect_eq(r0->smin, 1);
	cr_expect_eq(r0->smax, 3);
	cr_expect_eq(r0->tnum_value, 1);
	cr_expect_eq(r0->tnum_mask, 2);
	cr_expect_eq(res->facts[6].regs[7].type, HWXDP_REG_MIXED);
	cr_expect_eq(res->facts[6].regs[1].type, HWXDP_REG_PTR_TO_CTX);
	cr_expect_eq(res->facts[6].regs[2].type, HWXDP_REG_NOT_INIT);
	cr_expect_eq(res->facts[4].regs[10].type, HWXDP_REG_PTR_TO_STACK);
	hwxdp_verify_result__free(res);
}

Test(facts, device_kfunc_invalidates_packet_pointers)
{
	const struct bpf_insn ok[] = {
		MOV64_REG(6, 1),	   MOV64_IMM(2, 7),
		MOV64_IMM(3, 14),	   CALL_KFUNC(1), /* bpf_hwxdp_esp_encap(ctx, 7, 14) */
		LDX_MEM(BPF_W, 2, 6, 0),   LDX_MEM(BPF_W, 3, 6, 4),
		MOV64_REG(4, 2),	   ALU64_IMM(BPF_ADD, 4, 1),
		JMP_REG(BPF_JGT, 4, 3, 1), LDX_MEM(BPF_B, 5, 2, 0),
		MOV64_IMM(0, XDP_TX),	   EXIT_INSN(),
	};
	const struct bpf_insn stale[] = {
		MOV64_REG(6, 1), LDX_MEM(BPF_W, 7, 1, 0), MOV64_IMM(2, 7), MOV64_IMM(3, 14),
		CALL_KFUNC(1),	 MOV64_REG(0, 7),	  EXIT_INSN(),
	};
	struct hwxdp_verify_result *res = run(ok, CNT(ok), 0, true);

	cr_expect(res->accepted, "%s", res->log);
	hwxdp_verify_result__free(res);
	res = run(stale, CNT(stale), 0, true);
	cr_expect(!res->accepted);
	cr_expect(strstr(res->log, "R7 !read_ok"), "%s", res->log);
	cr_expect_eq(res->error_insn, 5);
	hwxdp_verify_result__free(res);
}

Test(log, levels)
{
	const struct bpf_insn insns[] = {
		MOV64_IMM(0, XDP_PASS),	   LDX_MEM(BPF_W, 2, 1, 0),
		LDX_MEM(BPF_W, 3, 1, 4),   MOV64_REG(4, 2),
		ALU64_IMM(BPF_ADD, 4, 14), JMP_REG(BPF_JGT, 4, 3, 1),
		LDX_MEM(BPF_B, 5, 2, 14),  EXIT_INSN(),
	};
	struct hwxdp_verify_result *res;

	res = run(insns, CNT(insns), 0, false);
	cr_expect(!res->accepted);
	cr_expect_eq(res->error_insn, 6);
	cr_expect_str_eq(res->log, "invalid access to packet, off=14 size=1, R2(id=0,off=14,r=14)\n"
				   "R2 offset is outside of the packet\n");
	cr_expect_eq(res->log_len, strlen(res->log));
	hwxdp_verify_result__free(res);

	res = run(insns, CNT(insns), 1, false);
	cr_expect(strstr(res->log, "0: R1=ctx() R10=fp0\n"), "%s", res->log);
	cr_expect(strstr(res->log, "5: (2d) if r4 > r3 goto pc+1"), "%s", res->log);
	cr_expect(strstr(res->log, "R4=pkt(off=14,r=14)"), "%s", res->log);
	cr_expect(strstr(res->log, "6: (71) r5 = *(u8 *)(r2 +14)\ninvalid access to packet"), "%s",
		  res->log);
	cr_expect(strstr(res->log, "processed 7 insns (limit 1000000)"), "%s", res->log);
	cr_expect(!strstr(res->log, "\n1: R1="), "level 1 prints no state per insn:\n%s", res->log);
	hwxdp_verify_result__free(res);

	res = run(insns, CNT(insns), 2, false);
	cr_expect(strstr(res->log, "\n1: R0=2 R1=ctx() R10=fp0\n"), "%s", res->log);
	hwxdp_verify_result__free(res);
}

Test(log, source_lines_and_other_entry_points)
{
	const struct bpf_insn insns[] = {
		LDX_MEM(BPF_W, 2, 1, 0),
		LDX_MEM(BPF_B, 0, 2, 0),
		EXIT_INSN(),
	};
	struct hwxdp_line lines[] = {
		{ .insn = 0,
		  .file = "prog.c",
		  .text = "void *data = (void *)(long)ctx->data;",
		  .line = 10 },
		{ .insn = 1, .file = "prog.c", .text = "return *(__u8 *)data;", .line = 11 },
	};
	struct hwxdp_prog prog = {
		.name = "p",
		.type = BPF_PROG_TYPE_XDP,
		.insns = (struct bpf_insn *)insns,
		.insn_cnt = CNT(insns),
		.lines = lines,
		.line_cnt = CNT(lines),
	};
	struct hwxdp_object obj = { .maps = (struct hwxdp_map_desc *)test_maps,
				    .map_cnt = MAP_CNT };
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts), .log_level = 1 };
	struct hwxdp_verify_result *res = NULL;

	cr_assert_eq(hwxdp_verify(&obj, &prog, &opts, &res), 0);
	cr_expect(!res->accepted);
	cr_expect(strstr(res->log,
			 "; return *(__u8 *)data; @ prog.c:11\n1: (71) r0 = *(u8 *)(r2 +0)"),
		  "%s", res->log);
	hwxdp_verify_result__free(res);

	/* no options: errors only; an old, shorter options struct */
	cr_assert_eq(hwxdp_verify_insns(insns, CNT(insns), NULL, 0, NULL, &res), 0);
	cr_expect_str_eq(res->log, "invalid access to packet, off=0 size=1, R2(id=0,off=0,r=0)\n"
				   "R2 offset is outside of the packet\n");
	hwxdp_verify_result__free(res);
	opts.sz = offsetof(struct hwxdp_verify_opts, device);
	cr_assert_eq(hwxdp_verify_insns(insns, CNT(insns), NULL, 0, &opts, &res), 0);
	cr_expect(strstr(res->log, "processed 2 insns"), "%s", res->log);
	hwxdp_verify_result__free(res);

	prog.type = BPF_PROG_TYPE_SOCKET_FILTER;
	cr_expect_eq(hwxdp_verify(&obj, &prog, &opts, &res), -EOPNOTSUPP);
	cr_expect_eq(hwxdp_verify_insns(NULL, 3, NULL, 0, NULL, &res), -EINVAL);
	hwxdp_verify_result__free(NULL);
}

/* The GPL-restricted helpers refuse a program of another license, the others
 * do not: the kernel says which, for every helper hwxdp knows of that kind. */
Test(facts, gpl_restricted_helpers_as_the_kernel)
{
	static const int ids[] = {
		BPF_FUNC_trace_printk,	    BPF_FUNC_perf_event_output,
		BPF_FUNC_fib_lookup,	    BPF_FUNC_ktime_get_ns,
		BPF_FUNC_get_prandom_u32,   BPF_FUNC_get_smp_processor_id,
		BPF_FUNC_redirect,	    BPF_FUNC_xdp_adjust_head,
		BPF_FUNC_csum_diff,	    BPF_FUNC_ringbuf_output,
		BPF_FUNC_xdp_load_bytes,    BPF_FUNC_get_current_pid_tgid,
		BPF_FUNC_ktime_get_boot_ns, BPF_FUNC_check_mtu,
	};
	static char klog[65536];

	if (!kernel_available())
		cr_skip_test("the kernel's verdict needs root");
	for (size_t i = 0; i < CNT(ids); i++) {
		const struct bpf_insn insns[] = {
			CALL_HELPER(ids[i]),
			MOV64_IMM(0, XDP_PASS),
			EXIT_INSN(),
		};
		struct hwxdp_verify_opts opts = { .sz = sizeof(opts), .license = "Proprietary" };
		LIBBPF_OPTS(bpf_prog_load_opts, ko, .log_buf = klog, .log_size = sizeof(klog),
			    .log_level = 1);
		struct hwxdp_verify_result *res = NULL;
		bool kernel_gpl, hwxdp_gpl;
		int fd;

		klog[0] = 0;
		fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "gpl", "Proprietary", insns, CNT(insns), &ko);
		if (fd >= 0)
			close(fd);
		kernel_gpl = strstr(klog, "GPL-restricted") != NULL;
		cr_assert_eq(hwxdp_verify_insns(insns, CNT(insns), test_maps, MAP_CNT, &opts, &res),
			     0);
		hwxdp_gpl = strstr(res->log, "cannot call GPL-restricted function from non-GPL "
					     "compatible program") != NULL;
		cr_expect_eq(hwxdp_gpl, kernel_gpl, "helper %d: the kernel %s, hwxdp %s:\n%s\n%s",
			     ids[i], kernel_gpl ? "restricts it" : "does not",
			     hwxdp_gpl ? "does" : "does not", klog, res->log);
		hwxdp_verify_result__free(res);
		/* GPL-compatible: no restriction */
		opts.license = "Dual BSD/GPL";
		cr_assert_eq(hwxdp_verify_insns(insns, CNT(insns), test_maps, MAP_CNT, &opts, &res),
			     0);
		cr_expect(!strstr(res->log, "GPL-restricted"), "%s", res->log);
		hwxdp_verify_result__free(res);
	}
}

/* A devmap program (SEC("xdp/devmap")) reads egress_ifindex, as the kernel
 * lets it, though the options name no attach type. */
Test(facts, attach_type_from_the_program)
{
	const struct bpf_insn insns[] = {
		LDX_MEM(BPF_W, 0, 1, 20), /* egress_ifindex */
		EXIT_INSN(),
	};
	struct hwxdp_prog prog = {
		.name = "egress",
		.type = BPF_PROG_TYPE_XDP,
		.expected_attach_type = BPF_XDP_DEVMAP,
		.insns = (struct bpf_insn *)insns,
		.insn_cnt = CNT(insns),
	};
	struct hwxdp_object obj = { .maps = (struct hwxdp_map_desc *)test_maps,
				    .map_cnt = MAP_CNT };
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts) };
	struct hwxdp_verify_result *res = NULL;

	cr_assert_eq(hwxdp_verify(&obj, &prog, &opts, &res), 0);
	cr_expect(res->accepted, "%s", res->log);
	hwxdp_verify_result__free(res);
	/* a plain XDP program may not */
	prog.expected_attach_type = 0;
	cr_assert_eq(hwxdp_verify(&obj, &prog, &opts, &res), 0);
	cr_expect(!res->accepted);
	cr_expect(strstr(res->log, "invalid bpf_context access off=20 size=4"), "%s", res->log);
	hwxdp_verify_result__free(res);
}

Test(stats, loop_iterations_and_budget)
{
	const struct bpf_insn loop[] = {
		MOV64_IMM(0, 0),
		ALU64_IMM(BPF_ADD, 0, 1),
		JMP_IMM(BPF_JLT, 0, 50, -2),
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
	};
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts), .insn_budget = 100 };
	struct hwxdp_verify_result *res = run(loop, CNT(loop), 0, false);

	cr_expect(res->accepted, "%s", res->log);
	cr_expect_eq(res->insns_processed, 1 + 50 * 2 + 2, "%u", res->insns_processed);
	/* in a loop a state is kept every 5 jumps: iterations 1, 6, ..., 46
	 * of 50, one jump each */
	cr_expect_eq(res->max_states_per_insn, 10, "states at the loop head: %u",
		     res->max_states_per_insn);
	cr_expect_eq(res->facts[1].regs[0].umin, 0);
	cr_expect_eq(res->facts[1].regs[0].umax, 49);
	hwxdp_verify_result__free(res);

	cr_assert_eq(hwxdp_verify_insns(loop, CNT(loop), NULL, 0, &opts, &res), 0);
	cr_expect(!res->accepted);
	cr_expect(strstr(res->log, "BPF program is too large. Processed 101 insn"), "%s", res->log);
	hwxdp_verify_result__free(res);
}
