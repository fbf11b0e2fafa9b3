// SPDX-License-Identifier: GPL-2.0
/*
 * The coprocessor's restrictions (verifier/device.c): each one rejects a
 * program for the device with its message while the host accepts it;
 * host-only helpers become punt points before any side effect and a
 * rejection after one; tail calls, the stack rule, the microcode store;
 * and the real forwarding program still passes for the device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "hwxdp/fwd.h"
#include "loader/kfuncs.h"
#include "loader/object.h"
#include "tests/verifier/insn.h"
#include "tests/verifier/kernel.h"
#include "verifier/verifier.h"

#define CNT(a) (sizeof(a) / sizeof((a)[0]))

enum {
	M_HASH,	      /* hash, key 4, value 8 */
	M_XSK,	      /* xskmap: no device table */
	M_CPU,	      /* cpumap: no device table */
	M_RINGBUF,    /* ring buffer: host-only helpers' map */
	M_PERF,	      /* perf event array: the same */
	M_WIDE_KEY,   /* hash, key 80 */
	M_WIDE_VALUE, /* hash, value 300 */
	M_LPM,	      /* LPM trie, key 8 */
	M_WIDE_LPM,   /* LPM trie, key 4 + 68 */
	M_PROGS,      /* prog array */
	M_TX,	      /* devmap hash */
	M_ARRAY,      /* array, value 16 */
	M_RODATA,     /* frozen .rodata: u32 hwxdp_target = DEVICE */
	M_BIG_BSS,    /* .bss of 2 MiB */
	M_OUTER,      /* array of maps of M_INNER's */
	M_OUTER_WIDE, /* hash of maps of M_INNER_WIDE's */
	M_INNER,      /* template: hash, key 4, value 8 */
	M_INNER_WIDE, /* template: hash, value 300 */
	M_CNT,
};

static const uint8_t rodata_device[4] = { HWXDP_TARGET_DEVICE, 0, 0, 0 };

static const struct hwxdp_map_desc maps[M_CNT] = {
	[M_HASH] = { .name = "flows",
		     .type = BPF_MAP_TYPE_HASH,
		     .key_size = 4,
		     .value_size = 8,
		     .max_entries = 16 },
	[M_XSK] = { .name = "xsks",
		    .type = BPF_MAP_TYPE_XSKMAP,
		    .key_size = 4,
		    .value_size = 4,
		    .max_entries = 4 },
	[M_CPU] = { .name = "cpus",
		    .type = BPF_MAP_TYPE_CPUMAP,
		    .key_size = 4,
		    .value_size = 4,
		    .max_entries = 4 },
	[M_RINGBUF] = { .name = "events", .type = BPF_MAP_TYPE_RINGBUF, .max_entries = 4096 },
	[M_PERF] = { .name = "perf",
		     .type = BPF_MAP_TYPE_PERF_EVENT_ARRAY,
		     .key_size = 4,
		     .value_size = 4,
		     .max_entries = 2 },
	[M_WIDE_KEY] = { .name = "wide_key",
			 .type = BPF_MAP_TYPE_HASH,
			 .key_size = 80,
			 .value_size = 8,
			 .max_entries = 16 },
	[M_WIDE_VALUE] = { .name = "wide_value",
			   .type = BPF_MAP_TYPE_HASH,
			   .key_size = 4,
			   .value_size = 300,
			   .max_entries = 16 },
	[M_LPM] = { .name = "prefixes",
		    .type = BPF_MAP_TYPE_LPM_TRIE,
		    .key_size = 8,
		    .value_size = 8,
		    .max_entries = 16,
		    .map_flags = BPF_F_NO_PREALLOC },
	[M_WIDE_LPM] = { .name = "wide_prefixes",
			 .type = BPF_MAP_TYPE_LPM_TRIE,
			 .key_size = 72,
			 .value_size = 8,
			 .max_entries = 16,
			 .map_flags = BPF_F_NO_PREALLOC },
	[M_PROGS] = { .name = "progs",
		      .type = BPF_MAP_TYPE_PROG_ARRAY,
		      .key_size = 4,
		      .value_size = 4,
		      .max_entries = 4 },
	[M_TX] = { .name = "tx",
		   .type = BPF_MAP_TYPE_DEVMAP_HASH,
		   .key_size = 4,
		   .value_size = 8,
		   .max_entries = 4 },
	[M_ARRAY] = { .name = "array",
		      .type = BPF_MAP_TYPE_ARRAY,
		      .key_size = 4,
		      .value_size = 16,
		      .max_entries = 4 },
	[M_RODATA] = { .name = "t.rodata",
		       .origin = HWXDP_MAP_GLOBAL,
		       .type = BPF_MAP_TYPE_ARRAY,
		       .key_size = 4,
		       .value_size = 4,
		       .max_entries = 1,
		       .map_flags = BPF_F_RDONLY_PROG,
		       .initial = rodata_device,
		       .initial_size = 4,
		       .read_only = true },
	[M_BIG_BSS] = { .name = "t.bss",
			.origin = HWXDP_MAP_GLOBAL,
			.type = BPF_MAP_TYPE_ARRAY,
			.key_size = 4,
			.value_size = 2 << 20,
			.max_entries = 1 },
	[M_OUTER] = { .name = "outer",
		      .type = BPF_MAP_TYPE_ARRAY_OF_MAPS,
		      .key_size = 4,
		      .value_size = 4,
		      .max_entries = 4,
		      .inner_map = M_INNER },
	[M_OUTER_WIDE] = { .name = "outer_wide",
			   .type = BPF_MAP_TYPE_HASH_OF_MAPS,
			   .key_size = 4,
			   .value_size = 4,
			   .max_entries = 4,
			   .inner_map = M_INNER_WIDE },
	[M_INNER] = { .name = "outer.inner",
		      .origin = HWXDP_MAP_INNER,
		      .type = BPF_MAP_TYPE_HASH,
		      .key_size = 4,
		      .value_size = 8,
		      .max_entries = 16 },
	[M_INNER_WIDE] = { .name = "outer_wide.inner",
			   .origin = HWXDP_MAP_INNER,
			   .type = BPF_MAP_TYPE_HASH,
			   .key_size = 4,
			   .value_size = 300,
			   .max_entries = 16 },
};

/* A program built in pieces. */
struct prog {
	struct bpf_insn insns[256];
	size_t n;
};

static void emit_n(struct prog *p, const struct bpf_insn *insns, size_t n)
{
	cr_assert_leq(p->n + n, CNT(p->insns));
	memcpy(&p->insns[p->n], insns, n * sizeof(*insns));
	p->n += n;
}

#define EMIT(p, ...)                                                                               \
	emit_n(p, (const struct bpf_insn[]){ __VA_ARGS__ },                                        \
	       sizeof((const struct bpf_insn[]){ __VA_ARGS__ }) / sizeof(struct bpf_insn))

/* the slots holding fp-bytes .. fp-1 written with zeros */
static void zero_stack(struct prog *p, int bytes)
{
	int off;

	for (off = -8; off > -bytes - 8; off -= 8)
		EMIT(p, ST_MEM(BPF_DW, 10, off, 0));
}

static struct hwxdp_verify_result *verify(const struct bpf_insn *insns, size_t cnt, bool device)
{
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts), .log_level = 1, .device = device };
	struct hwxdp_verify_result *res = NULL;

	cr_assert_eq(hwxdp_verify_insns(insns, cnt, maps, M_CNT, &opts, &res), 0);
	cr_assert_not_null(res);
	cr_assert_eq(res->fact_cnt, cnt);
	return res;
}

/* The device rejects with msg at error_insn; the host accepts. */
static void device_rejects(const struct bpf_insn *insns, size_t cnt, const char *msg,
			   uint32_t error_insn)
{
	struct hwxdp_verify_result *res = verify(insns, cnt, true);

	cr_expect(!res->accepted, "the device accepts:\n%s", res->log);
	cr_expect(strstr(res->log, msg), "the device's log lacks \"%s\":\n%s", msg, res->log);
	cr_expect_eq(res->error_insn, error_insn, "rejected at insn %u, not %u", res->error_insn,
		     error_insn);
	hwxdp_verify_result__free(res);
	res = verify(insns, cnt, false);
	cr_expect(res->accepted, "the host rejects:\n%s", res->log);
	hwxdp_verify_result__free(res);
}

static void both_accept(const struct bpf_insn *insns, size_t cnt)
{
	struct hwxdp_verify_result *res = verify(insns, cnt, true);

	cr_expect(res->accepted, "the device rejects:\n%s", res->log);
	hwxdp_verify_result__free(res);
	res = verify(insns, cnt, false);
	cr_expect(res->accepted, "the host rejects:\n%s", res->log);
	hwxdp_verify_result__free(res);
}

/* lookup(map, key of key_size zero bytes at fp-key_size); the call is the
 * returned index */
static size_t lookup(struct prog *p, int map, int key_size)
{
	size_t call;

	zero_stack(p, key_size);
	EMIT(p, MOV64_REG(2, 10), ALU64_IMM(BPF_ADD, 2, -key_size), LD_MAP_FD(1, map));
	call = p->n;
	EMIT(p, CALL_HELPER(BPF_FUNC_map_lookup_elem));
	return call;
}

/* ---- tables ---------------------------------------------------------- */

/* A redirect into a cpumap or an xskmap goes to the host's CPUs or sockets:
 * the device punts there, and the host copy makes the redirect. */
Test(device_maps, redirect_to_the_host_is_a_punt)
{
	const struct bpf_insn xsk[] = {
		LD_MAP_FD(1, M_XSK),
		MOV64_IMM(2, 0),
		MOV64_IMM(3, XDP_PASS),
		CALL_HELPER(BPF_FUNC_redirect_map), /* 4 */
		EXIT_INSN(),
	};
	const struct bpf_insn cpu[] = {
		LD_MAP_FD(1, M_CPU),
		MOV64_IMM(2, 0),
		MOV64_IMM(3, XDP_PASS),
		CALL_HELPER(BPF_FUNC_redirect_map), /* 4 */
		EXIT_INSN(),
	};
	const struct bpf_insn tx[] = {
		LD_MAP_FD(1, M_TX),
		MOV64_IMM(2, 0),
		MOV64_IMM(3, XDP_PASS),
		CALL_HELPER(BPF_FUNC_redirect_map),
		EXIT_INSN(),
	};
	const struct bpf_insn *progs[] = { xsk, cpu };
	const char *logs[] = {
		"4: punt to the host: bpf_redirect_map#51 into xskmap 'xsks' goes to "
		"an AF_XDP socket",
		"4: punt to the host: bpf_redirect_map#51 into cpumap 'cpus' goes to "
		"a host CPU's queue"
	};

	for (size_t k = 0; k < 2; k++) {
		struct hwxdp_verify_result *res = verify(progs[k], 6, true);

		cr_expect(res->accepted, "%s", res->log);
		cr_expect(res->facts[4].punt_point, "prog %zu: no punt at the redirect", k);
		cr_expect(!res->facts[5].reachable, "prog %zu: the device goes on after the punt",
			  k);
		cr_expect(strstr(res->log, logs[k]), "the log lacks \"%s\":\n%s", logs[k],
			  res->log);
		hwxdp_verify_result__free(res);
		both_accept(progs[k], 6);
	}
	both_accept(tx, CNT(tx));
	{
		struct hwxdp_verify_result *res = verify(tx, CNT(tx), true);

		cr_expect(!res->facts[4].punt_point, "a devmap redirect is the device's");
		hwxdp_verify_result__free(res);
	}
}

/* After a map write the host would repeat it: no punt, so no redirect to it. */
Test(device_maps, redirect_to_the_host_after_a_side_effect)
{
	struct prog p = { .n = 0 };

	lookup(&p, M_HASH, 4);
	EMIT(&p, JMP_IMM(BPF_JEQ, 0, 0, 1), ST_MEM(BPF_DW, 0, 0, 1), /* the side effect */
	     LD_MAP_FD(1, M_CPU), MOV64_IMM(2, 0), MOV64_IMM(3, XDP_PASS));
	EMIT(&p, CALL_HELPER(BPF_FUNC_redirect_map), EXIT_INSN());
	device_rejects(p.insns, p.n,
		       "bpf_redirect_map#51 into cpumap 'cpus' (a host CPU's queue, which only the "
		       "host reaches) after the side effect of insn",
		       (uint32_t)p.n - 2);
}

/* One call given a devmap on one path and a cpumap on another, in either
 * order: the device punts on the cpumap's path and redirects on the other
 * (facts: punt_host_maps, not punt_point), and a side effect before it on
 * the devmap's path only is fine; one on the cpumap's path is not. */
Test(device_maps, redirect_to_the_host_on_some_paths_only)
{
	for (int first = 0; first < 2; first++) {
		const struct bpf_insn insns[] = {
			LDX_MEM(BPF_W, 7, 1, 12),  /* ingress_ifindex */
			JMP_IMM(BPF_JEQ, 7, 1, 3), /* 1 */
			LD_MAP_FD(1, first ? M_TX : M_CPU),
			JA(2),
			LD_MAP_FD(1, first ? M_CPU : M_TX), /* 5 */
			MOV64_IMM(2, 0),		    /* 7 */
			MOV64_IMM(3, XDP_PASS),
			CALL_HELPER(BPF_FUNC_redirect_map), /* 9 */
			EXIT_INSN(),
		};
		struct hwxdp_verify_result *res = verify(insns, CNT(insns), true);

		cr_expect(res->accepted, "the device rejects:\n%s", res->log);
		cr_expect(res->facts[9].punt_host_maps, "no punt for the cpumap's paths");
		cr_expect(!res->facts[9].punt_point, "a punt on every path");
		hwxdp_verify_result__free(res);
		both_accept(insns, CNT(insns));
	}
	for (int cpu_writes = 0; cpu_writes < 2; cpu_writes++) {
		struct prog p = { .n = 0 };
		size_t call;

		lookup(&p, M_HASH, 4);
		/* the write on one path: the cpumap's, or the devmap's */
		EMIT(&p, JMP_IMM(BPF_JEQ, 0, 0, 4), ST_MEM(BPF_DW, 0, 0, 1),
		     LD_MAP_FD(1, cpu_writes ? M_CPU : M_TX), JA(2),
		     LD_MAP_FD(1, cpu_writes ? M_TX : M_CPU), MOV64_IMM(2, 0),
		     MOV64_IMM(3, XDP_PASS));
		call = p.n;
		EMIT(&p, CALL_HELPER(BPF_FUNC_redirect_map), EXIT_INSN());
		if (cpu_writes)
			device_rejects(
				p.insns, p.n,
				"into cpumap 'cpus' (a host CPU's queue, which only the host "
				"reaches) after the side effect of insn",
				(uint32_t)call);
		else
			both_accept(p.insns, p.n);
	}
}

Test(device_maps, lookup_in_a_map_without_device_table)
{
	struct prog p = { .n = 0 };
	size_t call = lookup(&p, M_XSK, 4);

	EMIT(&p, MOV64_IMM(0, XDP_PASS), EXIT_INSN());
	device_rejects(p.insns, p.n, "map 'xsks' (xskmap, type 17) at insn", call);
}

Test(device_maps, key_wider_than_the_table_engine)
{
	struct prog p = { .n = 0 }, lpm = { .n = 0 }, ok = { .n = 0 };
	size_t call = lookup(&p, M_WIDE_KEY, 80), lpm_call = lookup(&lpm, M_WIDE_LPM, 72);

	EMIT(&p, MOV64_IMM(0, XDP_PASS), EXIT_INSN());
	device_rejects(p.insns, p.n,
		       "map 'wide_key' (hash) at insn 14: key_size 80, the device's hash table "
		       "takes keys up to 64 bytes",
		       call);
	EMIT(&lpm, MOV64_IMM(0, XDP_PASS), EXIT_INSN());
	device_rejects(lpm.insns, lpm.n,
		       "key_size 72, the device's LPM trie takes keys up to 64 bytes", lpm_call);
	lookup(&ok, M_LPM, 8);
	EMIT(&ok, MOV64_IMM(0, XDP_PASS), EXIT_INSN());
	both_accept(ok.insns, ok.n);
}

/* A lookup in a map of maps gives a map like its template, which the
 * device takes where it takes the template: a table of table ids. */
Test(device_maps, maps_of_maps_by_their_template)
{
	struct prog p = { .n = 0 }, wide = { .n = 0 };
	size_t call;

	lookup(&p, M_OUTER, 4);
	EMIT(&p, JMP_IMM(BPF_JEQ, 0, 0, 5), MOV64_REG(1, 0), MOV64_REG(2, 10),
	     ALU64_IMM(BPF_ADD, 2, -4), CALL_HELPER(BPF_FUNC_map_lookup_elem),
	     MOV64_IMM(0, XDP_PASS), EXIT_INSN());
	both_accept(p.insns, p.n);
	call = lookup(&wide, M_OUTER_WIDE, 4);
	EMIT(&wide, MOV64_IMM(0, XDP_PASS), EXIT_INSN());
	device_rejects(wide.insns, wide.n,
		       "map 'outer_wide.inner' (hash) at insn 5: value_size 300, the device's hash "
		       "table takes values up to 256 bytes",
		       call);
}

Test(device_maps, value_wider_than_the_table_engine)
{
	struct prog p = { .n = 0 };
	size_t call = lookup(&p, M_WIDE_VALUE, 4);

	EMIT(&p, MOV64_IMM(0, XDP_PASS), EXIT_INSN());
	device_rejects(p.insns, p.n,
		       "map 'wide_value' (hash) at insn 5: value_size 300, the device's hash "
		       "table takes values up to 256 bytes",
		       call);
}

/* A global-data value the device addresses must fit table memory; one only
 * the host copy's branch addresses need not. */
Test(device_maps, global_data_addressed_on_a_device_path)
{
	const struct bpf_insn direct[] = {
		LD_MAP_VALUE(1, M_BIG_BSS, 0),
		ST_MEM(BPF_W, 1, 0, 1),
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
	};
	const struct bpf_insn host_branch[] = {
		LD_MAP_VALUE(1, M_RODATA, 0),
		LDX_MEM(BPF_W, 2, 1, 0),
		JMP_IMM(BPF_JEQ, 2, HWXDP_TARGET_DEVICE, 3), /* 3: always taken here */
		LD_MAP_VALUE(1, M_BIG_BSS, 0),		     /* 4: the host's */
		ST_MEM(BPF_W, 1, 0, 1),
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
	};

	device_rejects(direct, CNT(direct),
		       "map 't.bss' (array) at insn 0: value_size 2097152, the device's array "
		       "takes values up to 1048576 bytes",
		       0);
	both_accept(host_branch, CNT(host_branch));
}

/* The map of a host-only helper stays with the host: the device punts at the
 * call, though it executed the ld_imm64 that loaded the map. */
Test(device_maps, host_only_helper_map_needs_no_device_table)
{
	const struct bpf_insn insns[] = {
		ST_MEM(BPF_DW, 10, -8, 0),
		LD_MAP_FD(1, M_RINGBUF), /* 1 */
		MOV64_REG(2, 10),
		ALU64_IMM(BPF_ADD, 2, -8),
		MOV64_IMM(3, 8),
		MOV64_IMM(4, 0),
		CALL_HELPER(BPF_FUNC_ringbuf_output), /* 7 */
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
	};
	struct hwxdp_verify_result *res = verify(insns, CNT(insns), true);

	cr_expect(res->accepted, "%s", res->log);
	cr_expect(res->facts[1].reachable);
	cr_expect(res->facts[7].punt_point);
	hwxdp_verify_result__free(res);
}

/* ---- helpers: punt points -------------------------------------------- */

struct helper_case {
	const char *name;
	int id;
	bool punt; /* host-only */
};

/* Arguments the kernel takes for each helper, then the call and a verdict. */
static size_t call_helper(struct prog *p, int id)
{
	size_t call;

	zero_stack(p, 64);
	EMIT(p, MOV64_REG(6, 1));
	switch (id) {
	case BPF_FUNC_trace_printk:
		EMIT(p, MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -8), MOV64_IMM(2, 8));
		break;
	case BPF_FUNC_redirect:
		EMIT(p, MOV64_IMM(1, 1), MOV64_IMM(2, 0));
		break;
	case BPF_FUNC_csum_diff:
		EMIT(p, MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -8), MOV64_IMM(2, 4),
		     MOV64_REG(3, 10), ALU64_IMM(BPF_ADD, 3, -16), MOV64_IMM(4, 4),
		     MOV64_IMM(5, 0));
		break;
	case BPF_FUNC_fib_lookup:
		EMIT(p, MOV64_REG(2, 10), ALU64_IMM(BPF_ADD, 2, -64), MOV64_IMM(3, 64),
		     MOV64_IMM(4, 0));
		break;
	case BPF_FUNC_perf_event_output:
		EMIT(p, LD_MAP_FD(2, M_PERF), MOV64_IMM(3, 0), MOV64_REG(4, 10),
		     ALU64_IMM(BPF_ADD, 4, -8), MOV64_IMM(5, 8));
		break;
	case BPF_FUNC_ringbuf_output:
		EMIT(p, LD_MAP_FD(1, M_RINGBUF), MOV64_REG(2, 10), ALU64_IMM(BPF_ADD, 2, -8),
		     MOV64_IMM(3, 8), MOV64_IMM(4, 0));
		break;
	case BPF_FUNC_ringbuf_query:
		EMIT(p, LD_MAP_FD(1, M_RINGBUF), MOV64_IMM(2, 0));
		break;
	case BPF_FUNC_xdp_load_bytes:
	case BPF_FUNC_xdp_store_bytes:
		EMIT(p, MOV64_IMM(2, 0), MOV64_REG(3, 10), ALU64_IMM(BPF_ADD, 3, -8),
		     MOV64_IMM(4, 8));
		break;
	case BPF_FUNC_xdp_adjust_head:
	case BPF_FUNC_xdp_adjust_meta:
	case BPF_FUNC_xdp_adjust_tail:
		EMIT(p, MOV64_IMM(2, 0));
		break;
	case BPF_FUNC_map_lookup_elem:
	case BPF_FUNC_map_delete_elem:
		EMIT(p, LD_MAP_FD(1, M_HASH), MOV64_REG(2, 10), ALU64_IMM(BPF_ADD, 2, -8));
		break;
	case BPF_FUNC_map_update_elem:
		EMIT(p, LD_MAP_FD(1, M_HASH), MOV64_REG(2, 10), ALU64_IMM(BPF_ADD, 2, -8),
		     MOV64_REG(3, 10), ALU64_IMM(BPF_ADD, 3, -16), MOV64_IMM(4, 0));
		break;
	case BPF_FUNC_tail_call:
		EMIT(p, LD_MAP_FD(2, M_PROGS), MOV64_IMM(3, 0));
		break;
	case BPF_FUNC_redirect_map:
		EMIT(p, LD_MAP_FD(1, M_TX), MOV64_IMM(2, 0), MOV64_IMM(3, 0));
		break;
	case BPF_FUNC_strncmp:
		EMIT(p, MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -8), MOV64_IMM(2, 8),
		     LD_MAP_VALUE(3, M_RODATA, 0));
		break;
	case BPF_FUNC_tcp_raw_gen_syncookie_ipv4:
		EMIT(p, MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -64), MOV64_REG(2, 10),
		     ALU64_IMM(BPF_ADD, 2, -40), MOV64_IMM(3, 20));
		break;
	case BPF_FUNC_tcp_raw_check_syncookie_ipv6:
		EMIT(p, MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -64), MOV64_REG(2, 10),
		     ALU64_IMM(BPF_ADD, 2, -24));
		break;
	case BPF_FUNC_probe_read_kernel:
		EMIT(p, MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -8), MOV64_IMM(2, 8),
		     MOV64_IMM(3, 0));
		break;
	case BPF_FUNC_probe_read_user:
		EMIT(p, MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -8), MOV64_IMM(2, 8),
		     MOV64_IMM(3, 0));
		break;
	case BPF_FUNC_trace_vprintk: /* the empty format at offset 1, one argument */
		EMIT(p, LD_MAP_VALUE(1, M_RODATA, 1), MOV64_IMM(2, 1), MOV64_REG(3, 10),
		     ALU64_IMM(BPF_ADD, 3, -8), MOV64_IMM(4, 8));
		break;
	case BPF_FUNC_get_ns_current_pid_tgid:
		EMIT(p, MOV64_IMM(1, 4), MOV64_IMM(2, 0), MOV64_REG(3, 10),
		     ALU64_IMM(BPF_ADD, 3, -8), MOV64_IMM(4, 8));
		break;
	case BPF_FUNC_snprintf: /* the empty format at offset 1, no arguments */
		EMIT(p, MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -16), MOV64_IMM(2, 16),
		     LD_MAP_VALUE(3, M_RODATA, 1), MOV64_IMM(4, 0), MOV64_IMM(5, 0));
		break;
	}
	call = p->n;
	EMIT(p, CALL_HELPER(id), MOV64_IMM(0, XDP_PASS), EXIT_INSN());
	return call;
}

Test(device_helpers, exactly_those_with_a_unit)
{
	static const struct helper_case cases[] = {
		{ "map_lookup_elem", BPF_FUNC_map_lookup_elem, false },
		{ "map_update_elem", BPF_FUNC_map_update_elem, false },
		{ "map_delete_elem", BPF_FUNC_map_delete_elem, false },
		{ "redirect_map", BPF_FUNC_redirect_map, false },
		{ "xdp_adjust_head", BPF_FUNC_xdp_adjust_head, false },
		{ "xdp_adjust_meta", BPF_FUNC_xdp_adjust_meta, false },
		{ "xdp_adjust_tail", BPF_FUNC_xdp_adjust_tail, false },
		{ "ktime_get_ns", BPF_FUNC_ktime_get_ns, false },
		{ "get_prandom_u32", BPF_FUNC_get_prandom_u32, false },
		{ "get_smp_processor_id", BPF_FUNC_get_smp_processor_id, false },
		{ "tail_call", BPF_FUNC_tail_call, false },
		{ "trace_printk", BPF_FUNC_trace_printk, true },
		{ "get_current_pid_tgid", BPF_FUNC_get_current_pid_tgid, true },
		{ "redirect", BPF_FUNC_redirect, false },
		{ "perf_event_output", BPF_FUNC_perf_event_output, true },
		{ "csum_diff", BPF_FUNC_csum_diff, false },
		{ "fib_lookup", BPF_FUNC_fib_lookup, true },
		{ "jiffies64", BPF_FUNC_jiffies64, true },
		{ "ktime_get_boot_ns", BPF_FUNC_ktime_get_boot_ns, false },
		{ "ktime_get_tai_ns", BPF_FUNC_ktime_get_tai_ns, false },
		{ "ringbuf_output", BPF_FUNC_ringbuf_output, true },
		{ "ringbuf_query", BPF_FUNC_ringbuf_query, true },
		{ "ktime_get_coarse_ns", BPF_FUNC_ktime_get_coarse_ns, false },
		{ "xdp_get_buff_len", BPF_FUNC_xdp_get_buff_len, false },
		{ "xdp_load_bytes", BPF_FUNC_xdp_load_bytes, true },
		{ "xdp_store_bytes", BPF_FUNC_xdp_store_bytes, true },
		{ "strncmp", BPF_FUNC_strncmp, true },
		{ "tcp_raw_gen_syncookie_ipv4", BPF_FUNC_tcp_raw_gen_syncookie_ipv4, true },
		{ "tcp_raw_check_syncookie_ipv6", BPF_FUNC_tcp_raw_check_syncookie_ipv6, true },
		{ "probe_read_kernel", BPF_FUNC_probe_read_kernel, true },
		{ "snprintf", BPF_FUNC_snprintf, true },
		{ "trace_vprintk", BPF_FUNC_trace_vprintk, true },
		{ "get_current_task", BPF_FUNC_get_current_task, true },
		{ "probe_read_user", BPF_FUNC_probe_read_user, true },
		{ "get_ns_current_pid_tgid", BPF_FUNC_get_ns_current_pid_tgid, true },
	};
	size_t i;

	for (i = 0; i < CNT(cases); i++) {
		struct prog p = { .n = 0 };
		size_t call = call_helper(&p, cases[i].id);
		struct hwxdp_verify_result *dev = verify(p.insns, p.n, true);
		struct hwxdp_verify_result *host = verify(p.insns, p.n, false);

		cr_expect(dev->accepted, "%s: the device rejects:\n%s", cases[i].name, dev->log);
		cr_expect(host->accepted, "%s: the host rejects:\n%s", cases[i].name, host->log);
		cr_expect_eq(dev->facts[call].punt_point, cases[i].punt, "%s: punt point %d",
			     cases[i].name, dev->facts[call].punt_point);
		/* the frame has left: the device runs nothing after a punt */
		cr_expect_eq(dev->facts[call + 1].reachable, !cases[i].punt, "%s", cases[i].name);
		cr_expect(!host->facts[call].punt_point, "%s: a punt point on the host",
			  cases[i].name);
		cr_expect(host->facts[call + 1].reachable, "%s", cases[i].name);
		hwxdp_verify_result__free(dev);
		hwxdp_verify_result__free(host);
	}
}

/* A reservation is the host's: the device punts at it, and what it would
 * have held (the reference, its submit) is the host copy's to verify. */
Test(device_helpers, ringbuf_reserve_punts)
{
	const struct bpf_insn insns[] = {
		LD_MAP_FD(1, M_RINGBUF),   MOV64_IMM(2, 8),
		MOV64_IMM(3, 0),	   CALL_HELPER(BPF_FUNC_ringbuf_reserve), /* 4 */
		JMP_IMM(BPF_JEQ, 0, 0, 3), MOV64_REG(1, 0),
		MOV64_IMM(2, 0),	   CALL_HELPER(BPF_FUNC_ringbuf_submit), /* 8 */
		MOV64_IMM(0, XDP_PASS),	   EXIT_INSN(),
	};
	struct hwxdp_verify_result *res = verify(insns, CNT(insns), true);

	cr_expect(res->accepted, "%s", res->log);
	cr_expect(res->facts[4].punt_point);
	cr_expect(!res->facts[5].reachable && !res->facts[8].reachable);
	hwxdp_verify_result__free(res);
	both_accept(insns, CNT(insns));
}

/* A timer is the host's: its callback runs later, apart from any frame.
 * The device punts at bpf_timer_init, naming it and why; after a map
 * write it cannot, and the program is not the device's. */
Test(device_helpers, timers_punt)
{
	const struct bpf_insn insns[] = {
		ST_MEM(BPF_DW, 10, -8, 0),
		MOV64_REG(2, 10),
		ALU64_IMM(BPF_ADD, 2, -8),
		LD_MAP_FD(1, MAP_TIMED),
		CALL_HELPER(BPF_FUNC_map_lookup_elem),
		JMP_IMM(BPF_JEQ, 0, 0, 8),
		MOV64_REG(6, 0),
		ST_MEM(BPF_W, 6, 0, 1), /* 8: the write of the second program */
		MOV64_REG(1, 6),
		ALU64_IMM(BPF_ADD, 1, TIMED_TIMER_OFF),
		LD_MAP_FD(2, MAP_TIMED),
		MOV64_IMM(3, 1),
		CALL_HELPER(BPF_FUNC_timer_init), /* 14 */
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
	};
	struct bpf_insn no_write[CNT(insns)];
	struct hwxdp_verify_opts opts = {
		.sz = sizeof(opts), .log_level = 2, .device = true, .btf = test_btf()
	};
	struct hwxdp_verify_result *res = NULL;

	memcpy(no_write, insns, sizeof(insns));
	no_write[8] = MOV64_IMM(1, 0);
	cr_assert_eq(hwxdp_verify_insns(no_write, CNT(insns), test_maps, MAP_CNT, &opts, &res), 0);
	cr_expect(res->accepted, "%s", res->log);
	cr_expect(res->facts[14].punt_point);
	cr_expect(strstr(res->log, "14: punt to the host: bpf_timer_init#169 is host-only: the "
				   "coprocessor has no timers"),
		  "%s", res->log);
	hwxdp_verify_result__free(res);

	cr_assert_eq(hwxdp_verify_insns(insns, CNT(insns), test_maps, MAP_CNT, &opts, &res), 0);
	cr_expect(!res->accepted, "%s", res->log);
	cr_expect(strstr(res->log, "host-only helper bpf_timer_init#169 (the coprocessor has no "
				   "timers: it cannot run a callback later, outside a frame) after "
				   "the side effect of insn 8"),
		  "%s", res->log);
	hwxdp_verify_result__free(res);

	opts.device = false;
	cr_assert_eq(hwxdp_verify_insns(insns, CNT(insns), test_maps, MAP_CNT, &opts, &res), 0);
	cr_expect(res->accepted, "the host: %s", res->log);
	hwxdp_verify_result__free(res);
}

/* The device's dynptrs are the frame's: a helper that makes another kind
 * punts, naming it and why; the frame's dynptr and a slice of it are the
 * device's, and the device's facts give the slice as the packet pointer it
 * is. Moving the frame while the dynptr lives is refused for the device,
 * in words (the kernel's slices would then be the buffer), not for the
 * host. */
Test(device_helpers, dynptrs_of_the_frame_are_the_devices)
{
	const struct bpf_insn from_mem[] = {
		ST_MEM(BPF_DW, 10, -8, 0),
		MOV64_REG(2, 10),
		ALU64_IMM(BPF_ADD, 2, -8),
		LD_MAP_FD(1, MAP_ARRAY),
		CALL_HELPER(BPF_FUNC_map_lookup_elem),
		JMP_IMM(BPF_JEQ, 0, 0, 6),
		MOV64_REG(1, 0),
		MOV64_IMM(2, 8),
		MOV64_IMM(3, 0),
		MOV64_REG(4, 10),
		ALU64_IMM(BPF_ADD, 4, -32),
		CALL_HELPER(BPF_FUNC_dynptr_from_mem), /* 12 */
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
	};
	const struct bpf_insn from_xdp[] = {
		MOV64_IMM(2, 0),
		MOV64_REG(3, 10),
		ALU64_IMM(BPF_ADD, 3, -16),
		CALL_KFUNC(HWXDP_KFUNC_DYNPTR_FROM_XDP), /* 3 */
		MOV64_REG(1, 10),
		ALU64_IMM(BPF_ADD, 1, -16),
		MOV64_IMM(2, 0),
		MOV64_IMM(3, 0),
		MOV64_IMM(4, 14),
		CALL_KFUNC(HWXDP_KFUNC_DYNPTR_SLICE), /* 9 */
		JMP_IMM(BPF_JEQ, 0, 0, 1),
		LDX_MEM(BPF_B, 0, 0, 13), /* 11 */
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
	};
	const struct bpf_insn moved[] = {
		MOV64_REG(6, 1),
		MOV64_IMM(2, 0),
		MOV64_REG(3, 10),
		ALU64_IMM(BPF_ADD, 3, -16),
		CALL_KFUNC(HWXDP_KFUNC_DYNPTR_FROM_XDP),
		MOV64_REG(1, 6),
		MOV64_IMM(2, 4),
		CALL_HELPER(BPF_FUNC_xdp_adjust_head), /* 7 */
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
	};
	struct hwxdp_verify_opts opts = {
		.sz = sizeof(opts), .log_level = 2, .device = true, .btf = test_btf()
	};
	struct hwxdp_verify_result *res = NULL;

	cr_assert_eq(hwxdp_verify_insns(from_mem, CNT(from_mem), test_maps, MAP_CNT, &opts, &res),
		     0);
	cr_expect(res->accepted, "%s", res->log);
	cr_expect(res->facts[12].punt_point);
	cr_expect(strstr(res->log, "12: punt to the host: bpf_dynptr_from_mem#197 is host-only: "
				   "the coprocessor's dynptrs are the frame's only "
				   "(bpf_dynptr_from_xdp)"),
		  "%s", res->log);
	hwxdp_verify_result__free(res);

	cr_assert_eq(hwxdp_verify_insns(from_xdp, CNT(from_xdp), test_maps, MAP_CNT, &opts, &res),
		     0);
	cr_expect(res->accepted, "%s", res->log);
	cr_expect(!res->facts[9].punt_point);
	cr_expect_eq(res->facts[11].regs[0].type, HWXDP_REG_PTR_TO_PACKET);
	cr_expect_eq(res->facts[11].regs[0].off, 0);
	hwxdp_verify_result__free(res);

	cr_assert_eq(hwxdp_verify_insns(moved, CNT(moved), test_maps, MAP_CNT, &opts, &res), 0);
	cr_expect(!res->accepted, "%s", res->log);
	cr_expect_eq(res->error_insn, 7);
	cr_expect(strstr(res->log, "7: bpf_xdp_adjust_head while the xdp dynptr at fp-16 lives: "
				   "the coprocessor's dynptr keeps the frame's length"),
		  "%s", res->log);
	hwxdp_verify_result__free(res);

	opts.device = false;
	cr_assert_eq(hwxdp_verify_insns(from_xdp, CNT(from_xdp), test_maps, MAP_CNT, &opts, &res),
		     0);
	cr_expect(res->accepted, "the host: %s", res->log);
	cr_expect_eq(res->facts[11].regs[0].type, HWXDP_REG_PTR_TO_MEM, "the host's own type");
	hwxdp_verify_result__free(res);
	cr_assert_eq(hwxdp_verify_insns(moved, CNT(moved), test_maps, MAP_CNT, &opts, &res), 0);
	cr_expect(res->accepted, "the host: %s", res->log);
	hwxdp_verify_result__free(res);
}

/* An open-coded iterator is the device's: accepted, and the value
 * bpf_iter_num_next gives is, in the device's facts, a stack pointer at
 * the iterator's slot (the host's facts keep the kernel's type). */
Test(device_helpers, iterators_are_the_devices)
{
	const struct bpf_insn insns[] = {
		MOV64_REG(1, 10),
		ALU64_IMM(BPF_ADD, 1, -8),
		MOV64_IMM(2, 0),
		MOV64_IMM(3, 4),
		CALL_KFUNC(HWXDP_KFUNC_ITER_NUM_NEW),
		MOV64_REG(1, 10), /* 5 */
		ALU64_IMM(BPF_ADD, 1, -8),
		CALL_KFUNC(HWXDP_KFUNC_ITER_NUM_NEXT),
		JMP_IMM(BPF_JEQ, 0, 0, 2),
		LDX_MEM(BPF_W, 2, 0, 0), /* 9 */
		JMP_IMM(BPF_JA, 0, 0, -6),
		MOV64_REG(1, 10),
		ALU64_IMM(BPF_ADD, 1, -8),
		CALL_KFUNC(HWXDP_KFUNC_ITER_NUM_DESTROY),
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
	};
	struct hwxdp_verify_opts opts = {
		.sz = sizeof(opts), .log_level = 2, .device = true, .btf = test_btf()
	};
	struct hwxdp_verify_result *res = NULL;

	cr_assert_eq(hwxdp_verify_insns(insns, CNT(insns), test_maps, MAP_CNT, &opts, &res), 0);
	cr_expect(res->accepted, "%s", res->log);
	cr_expect_eq(res->facts[9].regs[0].type, HWXDP_REG_PTR_TO_STACK);
	cr_expect_eq(res->facts[9].regs[0].off, -8);
	hwxdp_verify_result__free(res);

	opts.device = false;
	cr_assert_eq(hwxdp_verify_insns(insns, CNT(insns), test_maps, MAP_CNT, &opts, &res), 0);
	cr_expect(res->accepted, "the host: %s", res->log);
	cr_expect_eq(res->facts[9].regs[0].type, HWXDP_REG_PTR_TO_MEM);
	hwxdp_verify_result__free(res);
}

/* A socket lookup is the host's: the device punts at it, saying why, and
 * the reference it would take (its release) is the host copy's to verify. */
Test(device_helpers, socket_lookups_punt_for_want_of_a_socket_table)
{
	static const int lookups[] = { BPF_FUNC_sk_lookup_tcp, BPF_FUNC_sk_lookup_udp,
				       BPF_FUNC_skc_lookup_tcp };

	for (size_t i = 0; i < CNT(lookups); i++) {
		const struct bpf_insn insns[] = {
			ST_MEM(BPF_DW, 10, -16, 0),
			ST_MEM(BPF_W, 10, -8, 0),
			MOV64_REG(2, 10),
			ALU64_IMM(BPF_ADD, 2, -16),
			MOV64_IMM(3, 12),
			MOV64_IMM(4, -1),
			MOV64_IMM(5, 0),
			CALL_HELPER(lookups[i]), /* 7 */
			JMP_IMM(BPF_JEQ, 0, 0, 2),
			MOV64_REG(1, 0),
			CALL_HELPER(BPF_FUNC_sk_release), /* 10 */
			MOV64_IMM(0, XDP_PASS),
			EXIT_INSN(),
		};
		struct hwxdp_verify_result *res = verify(insns, CNT(insns), true);
		char want[128];

		snprintf(want, sizeof(want),
			 "7: punt to the host: bpf_%s#%d is host-only: the "
			 "coprocessor has no socket table",
			 lookups[i] == BPF_FUNC_sk_lookup_tcp	? "sk_lookup_tcp"
			 : lookups[i] == BPF_FUNC_sk_lookup_udp ? "sk_lookup_udp"
								: "skc_lookup_tcp",
			 lookups[i]);
		cr_expect(res->accepted, "%s", res->log);
		cr_expect(res->facts[7].punt_point);
		cr_expect(!res->facts[8].reachable && !res->facts[10].reachable);
		cr_expect(strstr(res->log, want), "the log lacks \"%s\":\n%s", want, res->log);
		hwxdp_verify_result__free(res);
		both_accept(insns, CNT(insns));
	}
}

/* After a map write the device cannot punt at a lookup: refused, saying
 * what the coprocessor lacks. */
Test(device_helpers, socket_lookup_after_a_side_effect)
{
	const struct bpf_insn insns[] = {
		ST_MEM(BPF_DW, 10, -8, 0),
		ST_MEM(BPF_DW, 10, -16, 0),
		MOV64_REG(2, 10),
		ALU64_IMM(BPF_ADD, 2, -8),
		MOV64_REG(3, 10),
		ALU64_IMM(BPF_ADD, 3, -16),
		MOV64_IMM(4, 0),
		MOV64_REG(6, 1),
		LD_MAP_FD(1, M_HASH),
		CALL_HELPER(BPF_FUNC_map_update_elem), /* 10 */
		MOV64_REG(1, 6),
		MOV64_REG(2, 10),
		ALU64_IMM(BPF_ADD, 2, -16),
		MOV64_IMM(3, 12),
		MOV64_IMM(4, -1),
		MOV64_IMM(5, 0),
		CALL_HELPER(BPF_FUNC_sk_lookup_tcp), /* 17 */
		JMP_IMM(BPF_JEQ, 0, 0, 2),
		MOV64_REG(1, 0),
		CALL_HELPER(BPF_FUNC_sk_release),
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
	};

	device_rejects(insns, CNT(insns),
		       "host-only helper bpf_sk_lookup_tcp#84 (the coprocessor has no socket "
		       "table) after the side effect of insn 10: the device cannot punt at insn 17",
		       17);
}

/* One path punts, the other forwards; what follows the punt is not the
 * device's, not even a verdict it would refuse. */
Test(device_helpers, punt_point_before_any_side_effect)
{
	const struct bpf_insn insns[] = {
		LDX_MEM(BPF_W, 7, 1, 12),  /* ingress_ifindex */
		JMP_IMM(BPF_JEQ, 7, 1, 2), /* 1 */
		MOV64_IMM(0, XDP_DROP),
		EXIT_INSN(),
		ST_MEM(BPF_DW, 10, -8, 0x0a6968), /* 4 */
		MOV64_REG(1, 10),
		ALU64_IMM(BPF_ADD, 1, -8),
		MOV64_IMM(2, 8),
		CALL_HELPER(BPF_FUNC_trace_printk), /* 8 */
		MOV64_IMM(0, 7),		    /* 9: no verdict: the host's */
		EXIT_INSN(),
	};
	struct hwxdp_verify_result *res = verify(insns, CNT(insns), true);
	size_t i;

	cr_expect(res->accepted, "%s", res->log);
	for (i = 0; i < CNT(insns); i++)
		cr_expect_eq(res->facts[i].punt_point, i == 8, "insn %zu", i);
	cr_expect(res->facts[2].reachable && res->facts[8].reachable);
	cr_expect(!res->facts[9].reachable && !res->facts[10].reachable);
	cr_expect(strstr(res->log, "8: punt to the host: bpf_trace_printk#6 is host-only"), "%s",
		  res->log);
	hwxdp_verify_result__free(res);
}

/*
 * bpf_printk("%pI4", &addr) of four or more arguments: a pointer to the
 * stack in the u64 array bpf_trace_vprintk reads. The host copy makes the
 * call after the punt, and reads the array by the kernel's rules; a helper
 * the device runs (csum_diff) must not read the pointer's bytes.
 */
Test(device_helpers, host_only_call_reads_a_pointer_as_the_host)
{
	const struct bpf_insn insns[] = {
		ST_MEM(BPF_W, 10, -4, 0x0100000a), /* the address */
		ST_MEM(BPF_DW, 10, -16, 0x0a6425), /* "%d\n": a format is not checked at load */
		MOV64_REG(6, 10),
		ALU64_IMM(BPF_ADD, 6, -4),
		STX_MEM(BPF_DW, 10, 6, -24), /* args[0] = &addr */
		MOV64_REG(1, 10),
		ALU64_IMM(BPF_ADD, 1, -16),
		MOV64_IMM(2, 4),
		MOV64_REG(3, 10),
		ALU64_IMM(BPF_ADD, 3, -24),
		MOV64_IMM(4, 8),
		CALL_HELPER(BPF_FUNC_trace_vprintk), /* 11 */
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
	};
	struct bpf_insn csum[CNT(insns)];
	struct hwxdp_verify_result *res = verify(insns, CNT(insns), true);

	cr_expect(res->accepted, "%s", res->log);
	cr_expect(res->facts[11].punt_point);
	hwxdp_verify_result__free(res);
	/* the same array into csum_diff(args, 8, NULL, 0, 0) */
	memcpy(csum, insns, sizeof(insns));
	csum[5] = (struct bpf_insn)MOV64_REG(1, 10);
	csum[6] = (struct bpf_insn)ALU64_IMM(BPF_ADD, 1, -24);
	csum[7] = (struct bpf_insn)MOV64_IMM(2, 8);
	csum[8] = (struct bpf_insn)MOV64_IMM(3, 0);
	csum[9] = (struct bpf_insn)MOV64_IMM(4, 0);
	csum[10] = (struct bpf_insn)MOV64_IMM(5, 0);
	csum[11] = (struct bpf_insn)CALL_HELPER(BPF_FUNC_csum_diff);
	device_rejects(csum, CNT(csum), "invalid read from stack R1 off -24+0 size 8", 11);
}

/* A value that may be NULL goes to a host-only helper where NULL is
 * allowed, as the host copy hands it to the kernel's; never to the device's
 * checksum unit, which would be given address 0. */
Test(device_helpers, maybe_null_memory_to_the_host_only)
{
	const struct bpf_insn insns[] = {
		ST_MEM(BPF_DW, 10, -8, 0),
		MOV64_REG(2, 10),
		ALU64_IMM(BPF_ADD, 2, -8),
		LD_MAP_FD(1, M_HASH),
		CALL_HELPER(BPF_FUNC_map_lookup_elem), /* 5 */
		LD_MAP_VALUE(1, M_RODATA, 1),
		MOV64_IMM(2, 1),
		MOV64_REG(3, 0),
		MOV64_IMM(4, 8),
		CALL_HELPER(BPF_FUNC_trace_vprintk), /* 11 */
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
	};
	struct bpf_insn csum[CNT(insns)];
	struct hwxdp_verify_result *res = verify(insns, CNT(insns), true);

	cr_expect(res->accepted, "%s", res->log);
	cr_expect(res->facts[11].punt_point);
	hwxdp_verify_result__free(res);
	/* csum_diff(value, 8, NULL, 0, 0) */
	memcpy(csum, insns, sizeof(insns));
	csum[6] = (struct bpf_insn)MOV64_REG(1, 0);
	csum[7] = (struct bpf_insn)MOV64_IMM(2, 8);
	csum[8] = (struct bpf_insn)MOV64_IMM(3, 0);
	csum[9] = (struct bpf_insn)MOV64_IMM(4, 0);
	csum[10] = (struct bpf_insn)MOV64_IMM(5, 0);
	csum[11] = (struct bpf_insn)CALL_HELPER(BPF_FUNC_csum_diff);
	device_rejects(csum, CNT(csum), "R1 type=map_value_or_null expected=", 11);
}

/* A punt in a subprogram ends the frame, not the call: the caller's code
 * after it is the host's. */
Test(device_helpers, punt_in_a_subprogram)
{
	const struct bpf_insn insns[] = {
		CALL_SUBPROG(2),  MOV64_IMM(0, 7),		    /* 1: no verdict: the host's */
		EXIT_INSN(),	  ST_MEM(BPF_DW, 10, -8, 0x0a6968), /* 3: the subprogram */
		MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -8),
		MOV64_IMM(2, 8),  CALL_HELPER(BPF_FUNC_trace_printk), /* 7 */
		MOV64_IMM(0, 0),  EXIT_INSN(),
	};
	struct hwxdp_verify_result *res = verify(insns, CNT(insns), true);

	cr_expect(res->accepted, "%s", res->log);
	cr_expect(res->facts[7].punt_point);
	cr_expect(!res->facts[1].reachable && !res->facts[8].reachable);
	hwxdp_verify_result__free(res);
	res = verify(insns, CNT(insns), false);
	cr_expect(res->accepted, "%s", res->log);
	cr_expect(res->facts[1].reachable && !res->facts[7].punt_point);
	hwxdp_verify_result__free(res);
}

/* Map update at 9, then a host-only helper at 13: its source lines too. */
static const struct bpf_insn after_update[] = {
	ST_MEM(BPF_DW, 10, -8, 0),
	ST_MEM(BPF_DW, 10, -16, 0),
	MOV64_REG(2, 10),
	ALU64_IMM(BPF_ADD, 2, -8),
	MOV64_REG(3, 10),
	ALU64_IMM(BPF_ADD, 3, -16),
	MOV64_IMM(4, 0),
	LD_MAP_FD(1, M_HASH),
	CALL_HELPER(BPF_FUNC_map_update_elem), /* 9 */
	MOV64_REG(1, 10),
	ALU64_IMM(BPF_ADD, 1, -8),
	MOV64_IMM(2, 8),
	CALL_HELPER(BPF_FUNC_trace_printk), /* 13 */
	MOV64_IMM(0, XDP_PASS),
	EXIT_INSN(),
};

Test(device_helpers, host_only_after_a_side_effect)
{
	device_rejects(after_update, CNT(after_update),
		       "host-only helper bpf_trace_printk#6 after the side effect of insn 9: the "
		       "device cannot punt at insn 13",
		       13);
}

/* A helper that calls back is host-only: the device punts at the call,
 * never runs the callback, and the host copy's verification walks it. */
Test(device_helpers, callbacks_punt)
{
	const struct bpf_insn loop[] = {
		ST_MEM(BPF_DW, 10, -8, 0),
		MOV64_REG(3, 10),
		ALU64_IMM(BPF_ADD, 3, -8),
		MOV64_IMM(1, 4),
		LD_IMM64_RAW(2, BPF_PSEUDO_FUNC, 5), /* 4: the callback at 10 */
		MOV64_IMM(4, 0),
		CALL_HELPER(BPF_FUNC_loop), /* 7 */
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
		ST_MEM(BPF_DW, 2, 0, 1), /* 10 */
		MOV64_IMM(0, 0),
		EXIT_INSN(),
	};
	const struct bpf_insn after_write[] = {
		ST_MEM(BPF_DW, 10, -8, 0),
		ST_MEM(BPF_W, 10, -16, 0),
		MOV64_REG(2, 10),
		ALU64_IMM(BPF_ADD, 2, -16),
		MOV64_REG(3, 10),
		ALU64_IMM(BPF_ADD, 3, -8),
		LD_MAP_FD(1, M_HASH),
		MOV64_IMM(4, 0),
		CALL_HELPER(BPF_FUNC_map_update_elem), /* 9 */
		MOV64_REG(3, 10),
		ALU64_IMM(BPF_ADD, 3, -8),
		MOV64_IMM(1, 4),
		LD_IMM64_RAW(2, BPF_PSEUDO_FUNC, 5), /* 13: the callback at 19 */
		MOV64_IMM(4, 0),
		CALL_HELPER(BPF_FUNC_loop), /* 16 */
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
		MOV64_IMM(0, 0), /* 19 */
		EXIT_INSN(),
	};
	struct hwxdp_verify_result *dev = verify(loop, CNT(loop), true);
	struct hwxdp_verify_result *host = verify(loop, CNT(loop), false);

	cr_expect(dev->accepted, "%s", dev->log);
	cr_expect(dev->facts[7].punt_point);
	cr_expect(!dev->facts[8].reachable && !dev->facts[10].reachable);
	cr_expect(host->accepted, "%s", host->log);
	cr_expect(!host->facts[7].punt_point);
	cr_expect(host->facts[8].reachable && host->facts[10].reachable);
	hwxdp_verify_result__free(dev);
	hwxdp_verify_result__free(host);
	device_rejects(after_write, CNT(after_write),
		       "host-only helper bpf_loop#181 after the side effect of insn 9: the device "
		       "cannot punt at insn 16",
		       16);
}

Test(device_helpers, host_only_after_a_side_effect_names_source_lines)
{
	struct hwxdp_line lines[] = {
		{ .insn = 0, .file = "t.bpf.c", .text = "__u32 key = 0; __u64 v = 0;", .line = 7 },
		{ .insn = 2,
		  .file = "t.bpf.c",
		  .text = "bpf_map_update_elem(&flows, ...);",
		  .line = 8 },
		{ .insn = 10, .file = "t.bpf.c", .text = "bpf_printk(...);", .line = 9 },
		{ .insn = 14, .file = "t.bpf.c", .text = "return XDP_PASS;", .line = 10 },
	};
	uint32_t subprog_start[] = { 0 };
	struct hwxdp_prog prog = {
		.name = "t",
		.type = BPF_PROG_TYPE_XDP,
		.insns = (struct bpf_insn *)after_update,
		.insn_cnt = CNT(after_update),
		.subprog_start = subprog_start,
		.subprog_cnt = 1,
		.lines = lines,
		.line_cnt = CNT(lines),
	};
	/* bpf_trace_printk is GPL-restricted */
	struct hwxdp_object obj = { .maps = (struct hwxdp_map_desc *)maps,
				    .map_cnt = M_CNT,
				    .license = "GPL" };
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts), .device = true };
	struct hwxdp_verify_result *res = NULL;

	cr_assert_eq(hwxdp_verify(&obj, &prog, &opts, &res), 0);
	cr_expect(!res->accepted);
	cr_expect(strstr(res->log, "host-only helper bpf_trace_printk#6 after the side effect of "
				   "insn 9 (t.bpf.c:8): the device cannot punt at insn 13 "
				   "(t.bpf.c:9)"),
		  "%s", res->log);
	cr_expect_eq(res->error_insn, 13);
	hwxdp_verify_result__free(res);
}

/* A side effect on another path does not stop the punt on this one. */
Test(device_helpers, side_effect_on_another_path)
{
	const struct bpf_insn insns[] = {
		MOV64_REG(6, 1),
		LDX_MEM(BPF_W, 7, 1, 12),
		LDX_MEM(BPF_W, 2, 6, 0),
		LDX_MEM(BPF_W, 3, 6, 4),
		MOV64_REG(4, 2),
		ALU64_IMM(BPF_ADD, 4, 1),
		JMP_REG(BPF_JGT, 4, 3, 9), /* 6 */
		JMP_IMM(BPF_JEQ, 7, 1, 3), /* 7 */
		ST_MEM(BPF_B, 2, 0, 1),	   /* 8: a packet write */
		MOV64_IMM(0, XDP_TX),
		EXIT_INSN(),
		ST_MEM(BPF_DW, 10, -8, 0), /* 11 */
		MOV64_REG(1, 10),
		ALU64_IMM(BPF_ADD, 1, -8),
		MOV64_IMM(2, 8),
		CALL_HELPER(BPF_FUNC_trace_printk), /* 15 */
		MOV64_IMM(0, XDP_PASS),		    /* 16 */
		EXIT_INSN(),
	};
	struct hwxdp_verify_result *res = verify(insns, CNT(insns), true);

	cr_expect(res->accepted, "%s", res->log);
	cr_expect(res->facts[15].punt_point);
	cr_expect(res->facts[16].reachable, "the short frame's path reaches 16");
	hwxdp_verify_result__free(res);
}

/* ---- tail calls ------------------------------------------------------ */

Test(device_tail_calls, allowed_and_recorded)
{
	const struct bpf_insn plain[] = {
		MOV64_REG(6, 1),	LD_MAP_FD(2, M_PROGS),
		MOV64_IMM(3, 0),	CALL_HELPER(BPF_FUNC_tail_call), /* 4 */
		MOV64_IMM(0, XDP_PASS), EXIT_INSN(),
	};
	const struct bpf_insn after_write[] = {
		MOV64_REG(6, 1),	  LDX_MEM(BPF_W, 2, 1, 0),
		LDX_MEM(BPF_W, 3, 1, 4),  MOV64_REG(4, 2),
		ALU64_IMM(BPF_ADD, 4, 1), JMP_REG(BPF_JGT, 4, 3, 6),
		ST_MEM(BPF_B, 2, 0, 1), /* 6 */
		MOV64_REG(1, 6),	  LD_MAP_FD(2, M_PROGS),
		MOV64_IMM(3, 0),	  CALL_HELPER(BPF_FUNC_tail_call), /* 11 */
		MOV64_IMM(0, XDP_PASS),	  EXIT_INSN(),
	};
	struct hwxdp_verify_result *res = verify(plain, CNT(plain), true);

	cr_expect(res->accepted, "%s", res->log);
	cr_expect(res->facts[4].map_known && res->facts[4].map_index == M_PROGS);
	cr_expect(!res->facts[4].tail_call_after_side_effect);
	cr_expect(!res->facts[4].punt_point);
	cr_expect(res->facts[5].reachable, "a tail call that fails goes on");
	hwxdp_verify_result__free(res);

	res = verify(after_write, CNT(after_write), true);
	cr_expect(res->accepted, "%s", res->log);
	cr_expect(res->facts[11].tail_call_after_side_effect);
	hwxdp_verify_result__free(res);
}

Test(device_tail_calls, not_from_a_subprogram)
{
	const struct bpf_insn insns[] = {
		CALL_SUBPROG(1),	EXIT_INSN(),
		LD_MAP_FD(2, M_PROGS), /* 2: the subprogram, r1 = ctx */
		MOV64_IMM(3, 0),	CALL_HELPER(BPF_FUNC_tail_call), /* 5 */
		MOV64_IMM(0, XDP_PASS), EXIT_INSN(),
	};

	device_rejects(insns, CNT(insns),
		       "tail call from a subprogram (frame 1) at insn 5: on the device the called "
		       "program's exit ends the frame",
		       5);
}

Test(device_facts, map_of_each_call)
{
	const struct bpf_insn insns[] = {
		ST_MEM(BPF_DW, 10, -8, 0),
		LDX_MEM(BPF_W, 7, 1, 12),
		LD_MAP_FD(1, M_HASH),
		JMP_IMM(BPF_JEQ, 7, 1, 2),
		LD_MAP_FD(1, M_ARRAY), /* 5 */
		MOV64_REG(2, 10),      /* 7 */
		ALU64_IMM(BPF_ADD, 2, -8),
		CALL_HELPER(BPF_FUNC_map_lookup_elem), /* 9: either map */
		LD_MAP_FD(1, M_LPM),
		MOV64_REG(2, 10),
		ALU64_IMM(BPF_ADD, 2, -8),
		CALL_HELPER(BPF_FUNC_map_lookup_elem), /* 14: the trie */
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
	};
	struct hwxdp_verify_result *res = verify(insns, CNT(insns), true);

	cr_expect(res->accepted, "%s", res->log);
	cr_expect(!res->facts[9].map_known, "visits with two maps: map %u",
		  res->facts[9].map_index);
	cr_expect(res->facts[14].map_known);
	cr_expect_eq(res->facts[14].map_index, M_LPM);
	hwxdp_verify_result__free(res);
}

/* ---- stack ----------------------------------------------------------- */

/* The kernel's 512 bytes for a whole call chain, not the device's 512 per
 * frame: the stricter rule holds on both targets. */
Test(device_stack, combined_limit_is_the_kernels)
{
	struct prog p = { .n = 0 }, one = { .n = 0 };
	struct hwxdp_verify_result *res;
	int device;

	EMIT(&p, CALL_SUBPROG(3));
	zero_stack(&p, 320); /* 1..40: frame 0 */
	EMIT(&p, MOV64_IMM(0, XDP_PASS), EXIT_INSN());
	p.insns[0].imm = p.n - 1;
	zero_stack(&p, 320); /* the subprogram's frame */
	EMIT(&p, MOV64_IMM(0, 0), EXIT_INSN());
	for (device = false; device <= true; device++) {
		res = verify(p.insns, p.n, device);
		cr_expect(!res->accepted, "device %d: two frames of 320 bytes accepted", device);
		cr_expect(strstr(res->log, "combined stack size of 2 calls is 640. Too large"),
			  "%s", res->log);
		hwxdp_verify_result__free(res);
	}
	zero_stack(&one, 512);
	EMIT(&one, MOV64_IMM(0, XDP_PASS), EXIT_INSN());
	both_accept(one.insns, one.n);
}

/* main and frames - 1 subprograms, each calling the next */
static void call_chain(struct prog *p, int frames)
{
	int i;

	for (i = 1; i < frames; i++)
		EMIT(p, CALL_SUBPROG(2), MOV64_IMM(0, XDP_PASS), EXIT_INSN());
	EMIT(p, MOV64_IMM(0, XDP_PASS), EXIT_INSN());
}

Test(device_stack, eight_frames)
{
	struct prog nine = { .n = 0 }, eight = { .n = 0 };
	struct hwxdp_verify_result *res;

	call_chain(&nine, 9);
	res = verify(nine.insns, nine.n, true);
	cr_expect(!res->accepted);
	cr_expect(strstr(res->log, "the call stack of 9 frames is too deep"), "%s", res->log);
	hwxdp_verify_result__free(res);
	/* the device's local memory and return stack hold 8 */
	call_chain(&eight, 8);
	both_accept(eight.insns, eight.n);
}

/*
 * Stack bytes never written, read into a register, are unknown bytes to
 * root and to the device alike: clang at -O1 sets a bit field of a key it
 * did not clear (Suricata's flowv4_keys) by loading the 16 bits around it,
 * half of them never written, and masking them off. The unprivileged host
 * copy is refused, as the kernel refuses it without CAP_PERFMON.
 */
Test(device_stack, bytes_never_written_read_as_unknown)
{
	const struct bpf_insn insns[] = {
		ST_MEM(BPF_B, 10, -8, 1),      /* the low byte only */
		LDX_MEM(BPF_H, 0, 10, -8),     /* and the one above it, never written */
		ALU64_IMM(BPF_AND, 0, 0xfffe), /* the bit field's bits cleared */
		ALU64_IMM(BPF_OR, 0, 1),       /* and set */
		STX_MEM(BPF_H, 10, 0, -8),     /* stored back */
		LDX_MEM(BPF_B, 0, 10, -8),     /* 1 */
		ALU64_IMM(BPF_ADD, 0, XDP_DROP - 1),
		EXIT_INSN(),
	};
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts),
					  .log_level = 1,
					  .unprivileged = true };
	struct hwxdp_verify_result *res = NULL;

	both_accept(insns, CNT(insns));
	cr_assert_eq(hwxdp_verify_insns(insns, CNT(insns), maps, M_CNT, &opts, &res), 0);
	cr_expect(!res->accepted, "accepted without CAP_PERFMON:\n%s", res->log);
	cr_expect(strstr(res->log, "invalid read from stack off -8+1 size 2"), "%s", res->log);
	hwxdp_verify_result__free(res);
}

/*
 * So are they to a helper: a map value assigned member by member, its
 * padding never written, is what root's kernel passes from its stack and
 * the device from its local memory. Without CAP_PERFMON neither target
 * takes it, as the kernel refuses it then; a spilled pointer's bytes the
 * device refuses even for root (its pointers are offsets).
 */
Test(device_stack, bytes_never_written_passed_to_a_helper)
{
	/* the key at fp-4; struct { u8 proto; u16 len; u32 ifindex; } v at
	 * fp-16, flows' 8 bytes, its byte 1 never written */
	const struct bpf_insn insns[] = {
		ST_MEM(BPF_W, 10, -4, 0),   ST_MEM(BPF_B, 10, -16, 6),
		ST_MEM(BPF_H, 10, -14, 60), LDX_MEM(BPF_W, 1, 1, 12),
		STX_MEM(BPF_W, 10, 1, -12), MOV64_REG(2, 10),
		ALU64_IMM(BPF_ADD, 2, -4),  MOV64_REG(3, 10),
		ALU64_IMM(BPF_ADD, 3, -16), MOV64_IMM(4, 0),
		LD_MAP_FD(1, M_HASH),	    CALL_HELPER(BPF_FUNC_map_update_elem),
		MOV64_IMM(0, XDP_PASS),	    EXIT_INSN(),
	};
	/* the value a spilled context pointer instead */
	const struct bpf_insn spilled[] = {
		ST_MEM(BPF_W, 10, -4, 0),
		STX_MEM(BPF_DW, 10, 1, -16),
		MOV64_REG(2, 10),
		ALU64_IMM(BPF_ADD, 2, -4),
		MOV64_REG(3, 10),
		ALU64_IMM(BPF_ADD, 3, -16),
		MOV64_IMM(4, 0),
		LD_MAP_FD(1, M_HASH),
		CALL_HELPER(BPF_FUNC_map_update_elem),
		MOV64_IMM(0, XDP_PASS),
		EXIT_INSN(),
	};
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts),
					  .log_level = 1,
					  .unprivileged = true };
	struct hwxdp_verify_result *res = NULL;
	const char *msg = "invalid read from stack R3 off -16+1 size 8";
	int device;

	both_accept(insns, CNT(insns));
	for (device = 0; device <= 1; device++) {
		opts.device = device;
		cr_assert_eq(hwxdp_verify_insns(insns, CNT(insns), maps, M_CNT, &opts, &res), 0);
		cr_expect(!res->accepted, "device %d: accepted without CAP_PERFMON:\n%s", device,
			  res->log);
		cr_expect(strstr(res->log, msg), "device %d: no \"%s\":\n%s", device, msg,
			  res->log);
		hwxdp_verify_result__free(res);
	}
	device_rejects(spilled, CNT(spilled), "invalid read from stack R3 off -16+0 size 8", 9);
}

/* ---- microcode store ------------------------------------------------- */

#define STORE_WORDS 32768

/* movs movs and an exit; or ld_imm64s, a mov and an exit */
static struct bpf_insn *straight(size_t movs, size_t ld_imm64s, size_t *cnt)
{
	struct bpf_insn *insns = calloc(movs + 2 * ld_imm64s + 2, sizeof(*insns));
	size_t i, n = 0;

	cr_assert_not_null(insns);
	for (i = 0; i < ld_imm64s; i++) {
		struct bpf_insn pair[] = { LD_IMM64(3, 0x100000000ull + i) };

		insns[n++] = pair[0];
		insns[n++] = pair[1];
	}
	for (i = 0; i < movs; i++)
		insns[n++] = MOV64_IMM(0, XDP_PASS);
	if (!movs)
		insns[n++] = MOV64_IMM(0, XDP_PASS);
	insns[n++] = EXIT_INSN();
	*cnt = n;
	return insns;
}

Test(device_store, reachable_words_fit_the_store)
{
	struct bpf_insn *insns;
	size_t cnt;

	insns = straight(STORE_WORDS - 1, 0, &cnt); /* 32,768 words */
	both_accept(insns, cnt);
	free(insns);
	insns = straight(STORE_WORDS, 0, &cnt); /* one more */
	device_rejects(insns, cnt,
		       "program too large for the device: 32769 microcode words for the "
		       "instructions it reaches (one per instruction, two per ld_imm64), the "
		       "store holds 32768; it is full before insn 32768",
		       STORE_WORDS);
	free(insns);
}

Test(device_store, ld_imm64_counts_twice)
{
	struct bpf_insn *insns;
	size_t cnt;

	insns = straight(0, STORE_WORDS / 2 - 1, &cnt); /* 32,766 + 2 words */
	both_accept(insns, cnt);
	free(insns);
	insns = straight(0, STORE_WORDS / 2, &cnt); /* 32,768 + 2 */
	device_rejects(insns, cnt, "program too large for the device: 32770 microcode words",
		       STORE_WORDS);
	free(insns);
}

/* Code the device never runs (the host copy's branch) takes no words. */
Test(device_store, only_what_the_device_reaches)
{
	size_t host_part = STORE_WORDS + 100, cnt = 6 + host_part, i;
	struct bpf_insn *insns = calloc(cnt, sizeof(*insns));
	struct bpf_insn head[] = {
		LD_MAP_VALUE(1, M_RODATA, 0),
		LDX_MEM(BPF_W, 2, 1, 0),
		JMP_IMM(BPF_JNE, 2, HWXDP_TARGET_DEVICE, 2), /* 3: never taken here */
		MOV64_IMM(0, XDP_TX),			     /* 4: the device's */
		EXIT_INSN(),
	};
	struct hwxdp_verify_result *res;

	cr_assert_not_null(insns);
	memcpy(insns, head, sizeof(head));
	for (i = CNT(head); i < cnt - 1; i++)
		insns[i] = MOV64_IMM(0, XDP_PASS);
	insns[i] = EXIT_INSN();
	res = verify(insns, cnt, true);
	cr_expect(res->accepted, "%s", res->log);
	cr_expect(res->facts[4].reachable && !res->facts[6].reachable);
	hwxdp_verify_result__free(res);
	free(insns);
}

/* ---- the forwarding program ------------------------------------------ */

static const char *fwd_path(void)
{
	static char path[4096];
	const char *build = getenv("HWXDP_BUILD");

	if (!build || !*build)
		build = getenv("BUILD");
	if (!build || !*build)
		build = "build";
	snprintf(path, sizeof(path), "%s/progs/fwd.bpf.o", build);
	return path;
}

Test(device_fwd, accepted_for_the_device)
{
	const uint32_t device = HWXDP_TARGET_DEVICE;
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts), .device = true };
	struct hwxdp_verify_result *res = NULL;
	const struct hwxdp_prog *prog;
	struct hwxdp_object *obj = NULL;
	size_t i, words = 0, punts = 0;
	bool kfunc_reached = false;
	int err;

	if (access(fwd_path(), R_OK))
		cr_skip_test("%s not built", fwd_path());
	err = hwxdp_object__open(fwd_path(), &obj);
	cr_assert_eq(err, 0, "hwxdp_object__open: %d", err);
	cr_assert_eq(hwxdp_object__set_global(obj, "hwxdp_target", &device, sizeof(device)), 0);
	prog = hwxdp_object__find_prog(obj, "hwxdp_fwd");
	cr_assert_not_null(prog);
	cr_assert_eq(hwxdp_verify(obj, prog, &opts, &res), 0);
	cr_expect(res->accepted, "fwd rejected for the device:\n%s", res->log);
	for (i = 0; i < res->fact_cnt; i++) {
		if (!res->facts[i].reachable)
			continue;
		words += prog->insns[i].code == (BPF_LD | BPF_IMM | BPF_DW) ? 2 : 1;
		punts += res->facts[i].punt_point;
	}
	cr_expect_eq(punts, 0, "fwd calls no host-only helper on the device");
	/* the target global took: the device's crypto kfunc is on a path */
	for (i = 0; i < prog->insn_cnt; i++)
		if (prog->insns[i].code == (BPF_JMP | BPF_CALL) &&
		    prog->insns[i].src_reg == BPF_PSEUDO_KFUNC_CALL)
			kfunc_reached |= res->facts[i].reachable;
	cr_expect(kfunc_reached, "bpf_hwxdp_esp_encap unreachable: hwxdp_target is not DEVICE");
	cr_expect_leq(words, STORE_WORDS);
	cr_log_info("fwd on the device: %zu insns, at most %zu microcode words of %u\n",
		    prog->insn_cnt, words, STORE_WORDS);
	hwxdp_verify_result__free(res);
	hwxdp_object__close(obj);
}
