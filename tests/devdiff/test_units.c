// SPDX-License-Identifier: GPL-2.0
/*
 * The units behind helpers the device took over from the host, against the
 * kernel: bpf_csum_diff (csumd), bpf_redirect (redirif), a plain DEVMAP
 * (redir and tlookup on a port table), bpf_redirect_map with flags known
 * only at run time (BPF_F_BROADCAST among them), and exit values outside
 * 0..4. Raw
 * programs, each run on both targets with the same frame and maps; the
 * kernel's BPF_PROG_TEST_RUN is the reference for the verdict, the bytes
 * and the map contents. Where the test run does not tell a redirect's
 * target, the device's is held to what the program asked for.
 */
#include <criterion/criterion.h>
#include <bpf/bpf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "device/compile.h"
#include "device/engine.h"
#include "device/tables.h"
#include "hwmap/hxu.h"
#include "tests/common/raw_prog.h"
#include "tests/devdiff/pair.h"

#define FRAME_LEN 1600
#define STACK_BUF 64 /* bytes below r10 the programs fill */

#define E(p, code, dst, src, off, imm) raw_emit(p, (uint8_t)(code), dst, src, off, imm)

static void ld_imm64(struct raw_prog *p, uint8_t dst, uint8_t src, uint64_t v)
{
	E(p, BPF_LD | BPF_DW | BPF_IMM, dst, src, 0, (int32_t)(uint32_t)v);
	E(p, 0, 0, 0, 0, (int32_t)(uint32_t)(v >> 32));
}

static void frame_of(uint8_t *frame, uint32_t salt)
{
	for (int i = 0; i < FRAME_LEN; i++)
		frame[i] = (uint8_t)(i * 7 + 3 + salt * 13 + (i >> 8));
}

/* r7 = data, dropped unless FRAME_LEN bytes are there; r6 = ctx. Returns
 * the index of the branch to patch with raw_finish. */
static size_t start(struct raw_prog *p)
{
	E(p, BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0);
	E(p, BPF_LDX | BPF_MEM | BPF_W, 7, 1, offsetof(struct xdp_md, data), 0);
	E(p, BPF_LDX | BPF_MEM | BPF_W, 8, 1, offsetof(struct xdp_md, data_end), 0);
	E(p, BPF_ALU64 | BPF_MOV | BPF_X, 2, 7, 0, 0);
	E(p, BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, FRAME_LEN);
	E(p, BPF_JMP | BPF_JGT | BPF_X, 2, 8, 0, 0);
	return p->cnt - 1;
}

/* exit with r0; the short frame's XDP_DROP behind it. */
static void finish(struct raw_prog *p, size_t branch)
{
	E(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	p->insns[branch].off = (int16_t)(p->cnt - branch - 1);
	E(p, BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, XDP_DROP);
	E(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

struct pair {
	struct dd_side k, d;
};

static void open_pair(struct pair *pr, const struct raw_prog *p, const struct hwxdp_map_desc *maps,
		      size_t map_cnt, const char *what)
{
	char msg[512];
	int err;

	err = dd_side_open_kernel_raw(&pr->k, p->insns, p->cnt, maps, map_cnt, msg, sizeof(msg));
	cr_assert_eq(err, 0, "%s: kernel: %s", what, msg);
	err = dd_side_open_device_raw(&pr->d, p->insns, p->cnt, maps, map_cnt, msg, sizeof(msg));
	cr_assert_eq(err, 0, "%s: device: %s", what, msg);
}

static void close_pair(struct pair *pr)
{
	dd_side_close(&pr->k);
	dd_side_close(&pr->d);
}

/* One frame on both; the results must agree. Returns the kernel's verdict. */
static uint32_t run_both(struct pair *pr, const uint8_t *frame, size_t len, const char *what)
{
	static struct hx_result rk, rd;
	int ek, ed;

	ek = hx_target_run(&pr->k.target, 1, frame, len, &rk);
	ed = hx_target_run(&pr->d.target, 1, frame, len, &rd);
	cr_assert_eq(ek, 0, "%s: the kernel's run failed: %d", what, ek);
	cr_assert_eq(ed, 0, "%s: the device's run failed: %d (op %u)", what, ed, pr->d.fault_op);
	cr_assert_eq(rd.action, rk.action, "%s: verdict %u on the device, %u in the kernel", what,
		     rd.action, rk.action);
	cr_assert_eq(rd.len, rk.len, "%s: %zu bytes on the device, %zu in the kernel", what, rd.len,
		     rk.len);
	for (size_t i = 0; i < rk.len; i++)
		cr_assert_eq(rd.frame[i], rk.frame[i],
			     "%s: frame byte %zu is 0x%02x on the device, 0x%02x in the kernel",
			     what, i, rd.frame[i], rk.frame[i]);
	return rk.action;
}

/* ---- exit values ---- */

Test(units, exit_values_outside_the_actions_as_the_kernel_returns_them)
{
	static const uint64_t values[] = {
		5, 6, 7, 255, 0x7fffffff, 0xffffffffull, 1ull << 32, 3ull << 32 | 2, ~0ull
	};
	uint8_t frame[FRAME_LEN];

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	frame_of(frame, 0);
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		struct raw_prog p = { .cnt = 0 };
		struct pair pr;
		char what[64];

		ld_imm64(&p, 0, 0, values[i]);
		E(&p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
		snprintf(what, sizeof(what), "exit 0x%llx", (unsigned long long)values[i]);
		open_pair(&pr, &p, NULL, 0, what);
		run_both(&pr, frame, sizeof(frame), what);
		close_pair(&pr);
	}
}

/* The action is a byte of the frame: every value 0..255 on both. */
Test(units, exit_value_from_the_frame)
{
	struct raw_prog p = { .cnt = 0 };
	uint8_t frame[FRAME_LEN];
	unsigned int unknown = 0;
	struct pair pr;
	size_t branch;

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	branch = start(&p);
	E(&p, BPF_LDX | BPF_MEM | BPF_B, 0, 7, 20, 0);
	finish(&p, branch);
	open_pair(&pr, &p, NULL, 0, "exit a frame byte");
	frame_of(frame, 0);
	for (unsigned int v = 0; v < 256; v++) {
		char what[48];

		frame[20] = (uint8_t)v;
		snprintf(what, sizeof(what), "exit %u", v);
		unknown += run_both(&pr, frame, sizeof(frame), what) > XDP_REDIRECT;
	}
	cr_assert_eq(unknown, 251, "the frames reached %u unknown actions", unknown);
	close_pair(&pr);
}

/* ---- bpf_csum_diff ---- */

enum buf { B_NULL, B_PKT, B_STACK, B_MAP };

static const char *const buf_names[] = { "null", "pkt", "stack", "map" };

#define MAP_VALUE 96

static const struct hwxdp_map_desc csum_maps[] = {
	{ .name = "bytes",
	  .type = BPF_MAP_TYPE_ARRAY,
	  .key_size = 4,
	  .value_size = MAP_VALUE,
	  .max_entries = 1 },
};

/* rN = the buffer of kind b at offset off (pkt), below r10 (stack) or in
 * r9, the map value. */
static void buffer(struct raw_prog *p, uint8_t reg, enum buf b, int32_t off)
{
	switch (b) {
	case B_NULL:
		E(p, BPF_ALU64 | BPF_MOV | BPF_K, reg, 0, 0, 0);
		break;
	case B_PKT:
		E(p, BPF_ALU64 | BPF_MOV | BPF_X, reg, 7, 0, 0);
		E(p, BPF_ALU64 | BPF_ADD | BPF_K, reg, 0, 0, off);
		break;
	case B_STACK:
		E(p, BPF_ALU64 | BPF_MOV | BPF_X, reg, 10, 0, 0);
		E(p, BPF_ALU64 | BPF_ADD | BPF_K, reg, 0, 0, -STACK_BUF);
		break;
	case B_MAP:
		E(p, BPF_ALU64 | BPF_MOV | BPF_X, reg, 9, 0, 0);
		break;
	}
}

static uint32_t buf_max(enum buf b)
{
	return b == B_PKT ? FRAME_LEN - 100 : b == B_STACK ? STACK_BUF : b == B_MAP ? MAP_VALUE : 0;
}

/*
 * csum_diff(from, fsize, to, tsize, seed), the result stored in the frame
 * at 0 (8 bytes) and XDP_PASS. With var, tsize is the frame's byte 1599
 * (masked to what the buffer has).
 */
static void csum_prog(struct raw_prog *p, enum buf from, uint32_t fsize, enum buf to,
		      uint32_t tsize, uint64_t seed, bool var)
{
	size_t branch = start(p), miss = 0;

	for (int i = 0; i < STACK_BUF; i += 8)
		E(p, BPF_ST | BPF_MEM | BPF_DW, 10, 0, (int16_t)(i - STACK_BUF),
		  0x01020304 * (i + 5) ^ 0x5a5a0000);
	if (from == B_MAP || to == B_MAP) {
		E(p, BPF_ST | BPF_MEM | BPF_W, 10, 0, -STACK_BUF - 4, 0);
		ld_imm64(p, 1, BPF_PSEUDO_MAP_FD, 0);
		E(p, BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0);
		E(p, BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -STACK_BUF - 4);
		E(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
		E(p, BPF_ALU64 | BPF_MOV | BPF_X, 9, 0, 0, 0);
		E(p, BPF_JMP | BPF_JEQ | BPF_K, 9, 0, 0, 0);
		miss = p->cnt - 1;
	}
	buffer(p, 1, from, 100);
	E(p, BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, (int32_t)fsize);
	buffer(p, 3, to, 37);
	if (var) {
		/* a size the verifier knows as a range: 0 .. the buffer's */
		E(p, BPF_LDX | BPF_MEM | BPF_B, 4, 7, FRAME_LEN - 1, 0);
		E(p, BPF_ALU64 | BPF_AND | BPF_K, 4, 0, 0, (int32_t)(buf_max(to) - 1));
	} else {
		E(p, BPF_ALU64 | BPF_MOV | BPF_K, 4, 0, 0, (int32_t)tsize);
	}
	ld_imm64(p, 5, 0, seed);
	E(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_csum_diff);
	E(p, BPF_STX | BPF_MEM | BPF_DW, 7, 0, 0, 0);
	E(p, BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, XDP_PASS);
	if (miss)
		p->insns[miss].off = (int16_t)(p->cnt - miss - 1);
	finish(p, branch);
}

static void fill_value(struct pair *pr)
{
	uint8_t value[MAP_VALUE];
	uint32_t zero = 0;

	for (int i = 0; i < MAP_VALUE; i++)
		value[i] = (uint8_t)(0xc3 ^ (i * 29));
	cr_assert_eq(hx_target_map_update(&pr->k.target, "bytes", &zero, value), 0);
	cr_assert_eq(hx_target_map_update(&pr->d.target, "bytes", &zero, value), 0);
}

static void csum_case(enum buf from, uint32_t fsize, enum buf to, uint32_t tsize, uint64_t seed,
		      bool var)
{
	struct raw_prog p = { .cnt = 0 };
	uint8_t frame[FRAME_LEN];
	struct pair pr;
	char what[128];

	snprintf(what, sizeof(what), "csum_diff(%s, %u, %s, %s%u, 0x%llx)", buf_names[from], fsize,
		 buf_names[to], var ? "up to " : "", var ? buf_max(to) - 1 : tsize,
		 (unsigned long long)seed);
	csum_prog(&p, from, fsize, to, tsize, seed, var);
	open_pair(&pr, &p, csum_maps, 1, what);
	fill_value(&pr);
	for (uint32_t salt = 0; salt < (var ? 24u : 2u); salt++) {
		frame_of(frame, salt);
		cr_assert_eq(run_both(&pr, frame, sizeof(frame), what), XDP_PASS,
			     "%s: the program did not reach its store", what);
	}
	close_pair(&pr);
}

/* Sizes that are and are not multiples of 4, up to a whole frame, with
 * seeds whose high half the helper ignores; both buffers in every space. */
Test(units, csum_diff_sizes_seeds_and_spaces, .timeout = 300)
{
	static const uint32_t sizes[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 20, 40, 63, 64 };
	static const uint64_t seeds[] = { 0, 0xffffffffull, 0x12345678, 0xdeadbeef0000ffffull,
					  0xffff };
	static const enum buf kinds[] = { B_NULL, B_PKT, B_STACK, B_MAP };
	unsigned int n = 0;

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	for (size_t f = 0; f < 4; f++)
		for (size_t t = 0; t < 4; t++)
			for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s += 3) {
				uint32_t fs = kinds[f] == B_NULL ? 0 : sizes[s];
				uint32_t ts = kinds[t] == B_NULL ? 0 : sizes[(s * 5 + 3) % 14];

				csum_case(kinds[f], fs, kinds[t], ts, seeds[n++ % 5], false);
			}
	/* long buffers: beyond the 512 bytes older kernels took */
	csum_case(B_NULL, 0, B_PKT, 1500, 0xfeedface, false);
	csum_case(B_PKT, 1499, B_NULL, 0, 0xffffffff, false);
	csum_case(B_PKT, 600, B_PKT, 1001, 0, false);
	csum_case(B_STACK, 64, B_PKT, 513, 0x80000000, false);
}

Test(units, csum_diff_size_known_as_a_range)
{
	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	csum_case(B_STACK, 16, B_PKT, 0, 0x1234, true);
	csum_case(B_NULL, 0, B_STACK, 0, 0xffffffff, true);
	csum_case(B_PKT, 7, B_MAP, 0, 0, true);
}

/* ---- bpf_redirect ---- */

/* r0 = bpf_redirect(ifindex, flags); with twice, a second call with
 * flags 1 first, whose XDP_ABORTED is thrown away. */
static void redirect_prog(struct raw_prog *p, bool from_frame, uint32_t ifindex, uint64_t flags,
			  bool twice)
{
	size_t branch = start(p);

	if (from_frame)
		E(p, BPF_LDX | BPF_MEM | BPF_W, 1, 7, 24, 0);
	else
		E(p, BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, (int32_t)ifindex);
	ld_imm64(p, 2, 0, flags);
	E(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_redirect);
	if (twice) {
		E(p, BPF_ALU64 | BPF_MOV | BPF_X, 6, 0, 0, 0);
		E(p, BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 99);
		E(p, BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, 1);
		E(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_redirect);
		E(p, BPF_STX | BPF_MEM | BPF_W, 7, 0, 0, 0);
		E(p, BPF_ALU64 | BPF_MOV | BPF_X, 0, 6, 0, 0);
	}
	finish(p, branch);
}

Test(units, redirect_verdicts_and_ports)
{
	static const uint32_t ports[] = { 1, 7, 0xffff, 0xfffffffe };
	static const uint64_t flags[] = { 0, 1, 2, 4, 1ull << 32 };
	uint8_t frame[FRAME_LEN];

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	frame_of(frame, 1);
	for (size_t i = 0; i < sizeof(ports) / sizeof(ports[0]); i++)
		for (size_t j = 0; j < sizeof(flags) / sizeof(flags[0]); j++)
			for (int twice = 0; twice < 2; twice++) {
				struct raw_prog p = { .cnt = 0 };
				struct pair pr;
				char what[96];
				uint32_t v;

				snprintf(what, sizeof(what), "redirect(%u, 0x%llx)%s", ports[i],
					 (unsigned long long)flags[j], twice ? " twice" : "");
				redirect_prog(&p, false, ports[i], flags[j], twice);
				open_pair(&pr, &p, NULL, 0, what);
				v = run_both(&pr, frame, sizeof(frame), what);
				/* the test run does not say where: the device goes where asked */
				if (v == XDP_REDIRECT)
					cr_assert_eq(pr.d.egress, ports[i],
						     "%s: the device's egress is %u", what,
						     pr.d.egress);
				else
					cr_assert_eq(pr.d.egress, HWXDP_EGRESS_NONE,
						     "%s: an egress (%u) without a redirect", what,
						     pr.d.egress);
				close_pair(&pr);
			}
}

Test(units, redirect_to_a_port_from_the_frame)
{
	struct raw_prog p = { .cnt = 0 };
	uint8_t frame[FRAME_LEN];
	struct pair pr;

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	redirect_prog(&p, true, 0, 0, false);
	open_pair(&pr, &p, NULL, 0, "redirect to the frame's u32 at 24");
	for (uint32_t salt = 0; salt < 16; salt++) {
		uint32_t want;

		frame_of(frame, salt);
		memcpy(&want, frame + 24, 4);
		cr_assert_eq(run_both(&pr, frame, sizeof(frame), "redirect from the frame"),
			     XDP_REDIRECT);
		cr_assert_eq(pr.d.egress, want, "egress %u, the frame asked for %u", pr.d.egress,
			     want);
	}
	close_pair(&pr);
}

/* ---- a plain DEVMAP ---- */

#define DEVMAP_SLOTS 4

static const struct hwxdp_map_desc devmap_maps[] = {
	{ .name = "ports",
	  .type = BPF_MAP_TYPE_DEVMAP,
	  .key_size = 4,
	  .value_size = 4,
	  .max_entries = DEVMAP_SLOTS },
};

/* Slots 0 and 2 hold lo (ifindex 1, a device the kernel has). */
static void fill_ports(struct pair *pr)
{
	uint32_t lo = 1;

	for (uint32_t k = 0; k < DEVMAP_SLOTS; k += 2) {
		cr_assert_eq(hx_target_map_update(&pr->k.target, "ports", &k, &lo), 0);
		cr_assert_eq(hx_target_map_update(&pr->d.target, "ports", &k, &lo), 0);
	}
}

/* r0 = bpf_redirect_map(&ports, frame byte 30 & 7, flags). */
static void devmap_redirect_prog(struct raw_prog *p, uint32_t flags)
{
	size_t branch = start(p);

	E(p, BPF_LDX | BPF_MEM | BPF_B, 2, 7, 30, 0);
	E(p, BPF_ALU64 | BPF_AND | BPF_K, 2, 0, 0, 7);
	ld_imm64(p, 1, BPF_PSEUDO_MAP_FD, 0);
	E(p, BPF_ALU64 | BPF_MOV | BPF_K, 3, 0, 0, (int32_t)flags);
	E(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_redirect_map);
	finish(p, branch);
}

/* The value the lookup finds (its ifindex) stored at 0, or 0xeeeeeeee. */
static void devmap_lookup_prog(struct raw_prog *p)
{
	size_t branch = start(p), miss;

	E(p, BPF_LDX | BPF_MEM | BPF_B, 1, 7, 30, 0);
	E(p, BPF_ALU64 | BPF_AND | BPF_K, 1, 0, 0, 7);
	E(p, BPF_STX | BPF_MEM | BPF_W, 10, 1, -4, 0);
	ld_imm64(p, 1, BPF_PSEUDO_MAP_FD, 0);
	E(p, BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0);
	E(p, BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4);
	E(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	E(p, BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, (int32_t)0xeeeeeeee);
	E(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 0, 0);
	miss = p->cnt - 1;
	E(p, BPF_LDX | BPF_MEM | BPF_W, 1, 0, 0, 0);
	p->insns[miss].off = (int16_t)(p->cnt - miss - 1);
	E(p, BPF_STX | BPF_MEM | BPF_W, 7, 1, 0, 0);
	E(p, BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, XDP_PASS);
	finish(p, branch);
}

Test(units, devmap_redirects_and_lookups)
{
	static const uint32_t flags[] = {
		0, XDP_DROP, XDP_PASS, XDP_TX, 32, BPF_F_EXCLUDE_INGRESS
	};
	uint8_t frame[FRAME_LEN];

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	for (size_t j = 0; j <= sizeof(flags) / sizeof(flags[0]); j++) {
		bool lookup = j == sizeof(flags) / sizeof(flags[0]);
		struct raw_prog p = { .cnt = 0 };
		unsigned int redirected = 0;
		struct pair pr;
		char what[64];

		if (lookup) {
			snprintf(what, sizeof(what), "devmap lookup");
			devmap_lookup_prog(&p);
		} else {
			snprintf(what, sizeof(what), "redirect_map(devmap, key, %u)", flags[j]);
			devmap_redirect_prog(&p, flags[j]);
		}
		open_pair(&pr, &p, devmap_maps, 1, what);
		fill_ports(&pr);
		frame_of(frame, 2);
		for (uint32_t key = 0; key < 8; key++) {
			uint32_t v;

			frame[30] = (uint8_t)key;
			v = run_both(&pr, frame, sizeof(frame), what);
			if (v == XDP_REDIRECT) {
				redirected++;
				cr_assert_eq(pr.d.egress, 1, "%s, key %u: egress %u", what, key,
					     pr.d.egress);
			}
		}
		if (!lookup && flags[j] <= XDP_TX)
			cr_assert_eq(redirected, 2, "%s: %u frames redirected", what, redirected);
		close_pair(&pr);
	}
}

/* The control plane's rules for a plain devmap, call by call: the errno of
 * each and the contents after it. */
Test(units, devmap_control_plane)
{
	struct {
		char op; /* u(pdate), d(elete) */
		uint32_t key, ifindex;
		uint64_t flags;
	} steps[] = {
		{ 'u', 0, 1, BPF_ANY },	   { 'u', 3, 1, BPF_EXIST },   { 'u', 1, 1, BPF_NOEXIST },
		{ 'u', 4, 1, BPF_ANY },	   { 'u', 9, 1, 7 },	       { 'd', 2, 0, 0 },
		{ 'd', 3, 0, 0 },	   { 'd', 3, 0, 0 },	       { 'd', 4, 0, 0 },
		{ 'u', 0, 0, BPF_ANY },	   { 'u', 0, 0, BPF_NOEXIST }, { 'u', 2, 1, BPF_ANY },
		{ 'u', 2, 1, BPF_F_LOCK }, { 'd', 0, 0, 0 },
	};
	struct raw_prog p = { .cnt = 0 };
	uint64_t entries = 0;
	unsigned int maps = 0, shown = 0;
	struct dd_map *km, *dm;
	struct pair pr;

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	devmap_redirect_prog(&p, 0);
	open_pair(&pr, &p, devmap_maps, 1, "devmap control plane");
	km = dd_side_map(&pr.k, "ports");
	dm = dd_side_map(&pr.d, "ports");
	cr_assert(km && dm && dm->tab);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		int ek, ed;

		if (steps[i].op == 'u') {
			ek = bpf_map_update_elem(km->fd, &steps[i].key, &steps[i].ifindex,
						 steps[i].flags)
				     ? -errno
				     : 0;
			ed = hwxdp_table__update(dm->tab, &steps[i].key, &steps[i].ifindex,
						 steps[i].flags);
		} else {
			ek = bpf_map_delete_elem(km->fd, &steps[i].key) ? -errno : 0;
			ed = hwxdp_table__delete(dm->tab, &steps[i].key);
		}
		cr_assert_eq(ed, ek,
			     "step %zu (%c key %u ifindex %u flags 0x%llx): %d on the "
			     "device, %d in the kernel",
			     i, steps[i].op, steps[i].key, steps[i].ifindex,
			     (unsigned long long)steps[i].flags, ed, ek);
		cr_assert_eq(dd_compare_maps(&pr.k, &pr.d, &entries, &maps, 4, &shown), 0,
			     "after step %zu the contents differ", i);
	}
	close_pair(&pr);
}

/* ---- redirect_map's flags at run time: BPF_F_BROADCAST ---- */

#define BCAST_SLOTS 8

/* A devmap with ports in slots 0, 2 and 5 (lo twice, and ifindex 1 again
 * in 5), a devmap hash with keys 1, 4 and 9, and an empty devmap. */
static const struct hwxdp_map_desc bcast_maps[] = {
	{ .name = "ports",
	  .type = BPF_MAP_TYPE_DEVMAP,
	  .key_size = 4,
	  .value_size = 4,
	  .max_entries = BCAST_SLOTS },
	{ .name = "hports",
	  .type = BPF_MAP_TYPE_DEVMAP_HASH,
	  .key_size = 4,
	  .value_size = 4,
	  .max_entries = BCAST_SLOTS },
	{ .name = "none",
	  .type = BPF_MAP_TYPE_DEVMAP,
	  .key_size = 4,
	  .value_size = 4,
	  .max_entries = BCAST_SLOTS },
};

/* r0 = bpf_redirect_map(&maps[map], frame byte 30 & 7, the frame's u64 at
 * 32): flags no translation can know. */
static void bcast_prog(struct raw_prog *p, uint32_t map)
{
	size_t branch = start(p);

	E(p, BPF_LDX | BPF_MEM | BPF_B, 2, 7, 30, 0);
	E(p, BPF_ALU64 | BPF_AND | BPF_K, 2, 0, 0, 7);
	E(p, BPF_LDX | BPF_MEM | BPF_DW, 3, 7, 32, 0);
	ld_imm64(p, 1, BPF_PSEUDO_MAP_FD, map);
	E(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_redirect_map);
	finish(p, branch);
}

static void bcast_fill(struct pair *pr)
{
	static const uint32_t slots[] = { 0, 2, 5 }, keys[] = { 1, 4, 9 };
	uint32_t lo = 1;

	for (size_t i = 0; i < 3; i++) {
		cr_assert_eq(hx_target_map_update(&pr->k.target, "ports", &slots[i], &lo), 0);
		cr_assert_eq(hx_target_map_update(&pr->d.target, "ports", &slots[i], &lo), 0);
		cr_assert_eq(hx_target_map_update(&pr->k.target, "hports", &keys[i], &lo), 0);
		cr_assert_eq(hx_target_map_update(&pr->d.target, "hports", &keys[i], &lo), 0);
	}
}

/* The redir of the device's image reads its flags from a register. */
static bool redir_reads_flags(const struct hxu_image *img)
{
	struct hxu_op op;

	for (uint32_t i = 0; i < img->op_cnt; i += hxu_op_words(op.opcode)) {
		hxu_decode(img->ops[i], &op);
		if (op.opcode == HXU_OP_REDIR && op.imm == HXU_REDIR_FLAGS_RT)
			return true;
	}
	return false;
}

Test(units, redirect_map_flags_at_run_time_as_the_kernel)
{
	static const uint64_t flags[] = {
		0,
		XDP_DROP,
		XDP_PASS,
		XDP_TX,
		BPF_F_EXCLUDE_INGRESS,
		BPF_F_EXCLUDE_INGRESS | XDP_PASS,
		BPF_F_BROADCAST,
		BPF_F_BROADCAST | XDP_PASS,
		BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS,
		BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS | XDP_TX,
		4,
		32,
		BPF_F_BROADCAST | 32,
		1ull << 40,
		0x80000000u, /* the device's "flags in a register" imm, as a value */
		~0ull,
	};
	static const enum hwxdp_engine_mode modes[] = { HWXDP_ENGINE_INTERP,
							HWXDP_ENGINE_COMPILED };
	uint8_t frame[FRAME_LEN];

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	for (uint32_t map = 0; map < 3; map++) {
		struct raw_prog p = { .cnt = 0 };
		unsigned int seen[XDP_REDIRECT + 1] = { 0 };
		struct pair pr;
		char what[768];

		bcast_prog(&p, map);
		open_pair(&pr, &p, bcast_maps, 3, bcast_maps[map].name);
		cr_assert(redir_reads_flags(pr.d.img), "%s: redir with constant flags",
			  bcast_maps[map].name);
		bcast_fill(&pr);
		frame_of(frame, 5);
		for (size_t m = 0; m < 2; m++) {
			cr_assert_eq(hwxdp_engine__set_mode(pr.d.engine, modes[m]), 0);
			for (size_t j = 0; j < sizeof(flags) / sizeof(flags[0]); j++) {
				for (uint32_t key = 0; key < 8; key++) {
					uint64_t fl = flags[j];
					uint32_t v, want;

					snprintf(what, sizeof(what),
						 "%s, %s: redirect_map(key %u, flags 0x%llx)",
						 bcast_maps[map].name,
						 m ? "compiled" : "interpreted", key,
						 (unsigned long long)fl);
					frame[30] = (uint8_t)key;
					memcpy(frame + 32, &fl, sizeof(fl));
					v = run_both(&pr, frame, sizeof(frame), what);
					seen[v <= XDP_REDIRECT ? v : 0]++;
					if (v != XDP_REDIRECT)
						continue;
					want = fl & BPF_F_BROADCAST
						       ? HWXDP_EGRESS_BCAST | map |
								 (fl & BPF_F_EXCLUDE_INGRESS
									  ? HWXDP_EGRESS_BCAST_EXCL
									  : 0)
						       : 1;
					cr_assert_eq(pr.d.egress, want, "%s: egress 0x%x, not 0x%x",
						     what, pr.d.egress, want);
				}
			}
		}
		/* every verdict the flags can give was met */
		cr_assert(seen[XDP_ABORTED] && seen[XDP_DROP] && seen[XDP_PASS] && seen[XDP_TX] &&
				  seen[XDP_REDIRECT],
			  "%s: %u aborted, %u drop, %u pass, %u tx, %u redirect",
			  bcast_maps[map].name, seen[0], seen[1], seen[2], seen[3], seen[4]);
		close_pair(&pr);
	}
}
