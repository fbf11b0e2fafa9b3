// SPDX-License-Identifier: GPL-2.0
/*
 * Compiled mode against the interpreter, bit for bit (tests/compile/twin.h):
 * progs/fwd.bpf.o in the lab of fwdlab/fwd_lab.h over the lab's frames and
 * thousands of random and mutated ones; the verifier's random BPF programs
 * (tests/vdiff/gen.h) verified and translated for the device; random
 * microcode (tests/compile/hxu_gen.h) that faults, calls, recurses, tail
 * calls, loops and uses every unit. Then the same random microcode with one
 * operation compiled wrongly on purpose: the comparison must notice.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "device/compile.h"
#include "fwdlab/fwd_lab.h"
#include "lab/target.h"
#include "loader/device.h"
#include "tests/compile/hxu_gen.h"
#include "tests/compile/twin.h"
#include "tests/devdiff/pair.h"
#include "tests/vdiff/gen.h"

TestSuite(compile_diff, .init = twin_setup, .fini = twin_teardown, .timeout = 600);

static void show(const struct twin_report *rep, const char *what)
{
	fprintf(stderr,
		"compile: %s: %llu frames, %llu differ, %llu faults (kinds 0x%x), verdicts 0x%x; "
		"%llu table entries, %llu differ\n",
		what, (unsigned long long)rep->frames, (unsigned long long)rep->differ,
		(unsigned long long)rep->faults, rep->fault_kinds, rep->verdicts,
		(unsigned long long)rep->entries, (unsigned long long)rep->map_differ);
	if (rep->first[0])
		fprintf(stderr, "  first difference: %s\n", rep->first);
}

static uint32_t fault_bit(int err)
{
	return 1u << (err - HWXDP_ERR_IMAGE);
}

/* ---- progs/fwd.bpf.o ---- */

static const uint32_t lab_ifindex[HX_LAB_PORTS] = { 100, 101, 102 };

/* A lab frame, mutated: a few bits flipped in the headers, maybe cut. */
static size_t mutated_lab_frame(struct vdiff_rng *rng, uint8_t *buf, uint32_t *port)
{
	enum hx_lab_kind kind = vdiff_rng__below(rng, HX_LAB__COUNT);
	size_t len = hx_lab_build(kind, buf, HX_PKT_MAX);

	*port = hx_lab_frames[kind].port;
	if (vdiff_rng__chance(rng, 20))
		*port = 1 + vdiff_rng__below(rng, HX_LAB_PORTS);
	for (unsigned int n = vdiff_rng__below(rng, 4); n; n--)
		buf[vdiff_rng__below(rng, (uint32_t)(len < 80 ? len : 80))] ^=
			(uint8_t)(1u << vdiff_rng__below(rng, 8));
	if (vdiff_rng__chance(rng, 10))
		len = 14 + vdiff_rng__below(rng, (uint32_t)len - 13);
	return len;
}

Test(compile_diff, fwd_lab_and_random_frames)
{
	struct dd_side side[2];
	struct twin t = {};
	struct twin_report rep = {};
	struct vdiff_rng rng;
	uint8_t buf[HX_PKT_MAX];
	const char *path = hx_object_path("fwd");

	for (int i = 0; i < 2; i++) {
		cr_assert_eq(dd_side_open_device(&side[i], path), 0, "opening %s", path);
		cr_assert_eq(hx_lab_setup(&side[i].target, lab_ifindex), 0);
		t.engine[i] = side[i].engine;
		t.tables[i] = side[i].tables;
		t.window[i] = side[i].window;
	}
	cr_assert_eq(hwxdp_engine__set_mode(t.engine[TWIN_INTERP], HWXDP_ENGINE_INTERP), 0);
	cr_assert_eq(hwxdp_engine__set_mode(t.engine[TWIN_COMPILED], HWXDP_ENGINE_COMPILED), 0);
	cr_assert_eq(hwxdp_engine__mode(t.engine[TWIN_COMPILED]), HWXDP_ENGINE_COMPILED);

	/* Every lab frame on every port, twice (the second time the flows'
	 * counters have moved). */
	for (int round = 0; round < 2; round++)
		for (unsigned int kind = 0; kind < HX_LAB__COUNT; kind++)
			for (unsigned int port = 1; port <= HX_LAB_PORTS; port++) {
				size_t len = hx_lab_build(kind, buf, sizeof(buf));

				cr_assert_gt(len, 0);
				twin_run(&t, 0, buf, len, lab_ifindex[port - 1], &rep);
			}
	vdiff_rng__seed(&rng, 0xf00d);
	for (unsigned int i = 0; i < 4000; i++) {
		uint32_t port = 1;
		size_t len;

		if (vdiff_rng__chance(&rng, 60)) {
			len = mutated_lab_frame(&rng, buf, &port);
		} else {
			len = hxu_gen_frame(vdiff_rng__next(&rng), buf, sizeof(buf));
			port = 1 + vdiff_rng__below(&rng, HX_LAB_PORTS);
		}
		t.with_stats = i % 3 == 0;
		twin_run(&t, 0, buf, len, lab_ifindex[port - 1], &rep);
		if (i % 1000 == 999)
			twin_compare_tables(&t, &rep);
	}
	twin_compare_tables(&t, &rep);
	show(&rep, "fwd");
	cr_assert_eq(rep.differ, 0, "%s", rep.first);
	cr_assert_eq(rep.map_differ, 0, "%s", rep.first);
	cr_assert_eq(rep.faults, 0, "the verified program faulted");
	cr_assert(rep.verdicts & (1u << XDP_REDIRECT), "no frame was forwarded");
	cr_assert(rep.verdicts & (1u << XDP_PASS), "no frame was punted");
	cr_assert_gt(rep.entries, 1000, "the tables hold little: %llu entries",
		     (unsigned long long)rep.entries);
	for (int i = 0; i < 2; i++)
		dd_side_close(&side[i]);
}

/* ---- random microcode ---- */

/* Runs the random images of seeds first .. first + count - 1 on twins;
 * returns how many the device refused. */
static unsigned int random_microcode(uint64_t first, unsigned int count, struct twin_report *rep,
				     bool verbose)
{
	unsigned int refused = 0;
	uint8_t buf[HX_PKT_MAX];

	for (uint64_t seed = first; seed < first + count; seed++) {
		char *text = hxu_gen_text(seed), err[256];
		struct twin t;

		if (!twin_open_text(&t, text, hxu_gen_tables, hxu_gen_table_cnt, hxu_gen_progs, err,
				    sizeof(err))) {
			if (!refused)
				fprintf(stderr, "compile: image %llu refused: %s\n",
					(unsigned long long)seed, err);
			refused++;
			free(text);
			continue;
		}
		hxu_gen_fill(&t, seed);
		for (unsigned int f = 0; f < 14; f++) {
			size_t len = hxu_gen_frame(seed * 1000 + f, buf, sizeof(buf));
			uint32_t prog = f < 8 ? 0 : 1 + f % 2;

			t.with_stats = f % 2;

			if (!twin_run(&t, prog, buf, len, 1 + f % 4, rep) && rep->differ == 1 &&
			    verbose)
				fprintf(stderr, "compile: image %llu differs\n%s\n",
					(unsigned long long)seed, text);
		}
		if (twin_compare_tables(&t, rep) && rep->map_differ && !rep->differ && verbose)
			fprintf(stderr, "compile: image %llu leaves other tables\n%s\n",
				(unsigned long long)seed, text);
		twin_close(&t);
		free(text);
	}
	return refused;
}

Test(compile_diff, random_microcode)
{
	struct twin_report rep = {};
	unsigned int refused = random_microcode(1, 120, &rep, true);

	show(&rep, "random microcode");
	cr_assert_lt(refused, 6, "the device refused %u of 120 generated images", refused);
	cr_assert_eq(rep.differ, 0, "%s", rep.first);
	cr_assert_eq(rep.map_differ, 0, "%s", rep.first);
	/* what the generator is for: every kind of fault, and several verdicts */
	cr_assert(rep.fault_kinds & fault_bit(HWXDP_ERR_PKT_ACCESS), "no packet fault");
	cr_assert(rep.fault_kinds & fault_bit(HWXDP_ERR_LM_ACCESS), "no local-memory fault");
	cr_assert(rep.fault_kinds & fault_bit(HWXDP_ERR_CALL_DEPTH), "no return stack overflow");
	cr_assert(rep.fault_kinds & fault_bit(HWXDP_ERR_RET_EMPTY), "no ret at depth 0");
	cr_assert_geq(__builtin_popcount(rep.verdicts), 4, "verdicts 0x%x", rep.verdicts);
	cr_assert_gt(rep.frames - rep.faults, rep.frames / 3, "most frames faulted");
}

/* The comparison finds a wrong operation: 64-bit `sub` with a register
 * source, compiled one too high. */
Test(compile_diff, notices_a_wrongly_compiled_operation)
{
	struct twin_report rep = {};

	hwxdp_compile__test_break = 1;
	random_microcode(1, 30, &rep, false);
	hwxdp_compile__test_break = 0;
	show(&rep, "random microcode, sub compiled wrongly");
	cr_assert_gt(rep.differ + rep.map_differ, 0, "a wrongly compiled sub went unnoticed");
}

/* ---- the verifier's random BPF programs ---- */

/* A program that reads a clock sees two times on the two engines. */
static bool reads_clock(const struct vdiff_prog *p)
{
	for (size_t i = 0; i < p->cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];

		if (in->code == (BPF_JMP | BPF_CALL) && !in->src_reg &&
		    (in->imm == BPF_FUNC_ktime_get_ns || in->imm == BPF_FUNC_ktime_get_boot_ns ||
		     in->imm == BPF_FUNC_jiffies64))
			return true;
	}
	return false;
}

Test(compile_diff, random_bpf_programs)
{
	struct vdiff_gen_opts gopts = { .sz = sizeof(gopts), .seed = 77, .mix = VDIFF_MIX_BOTH };
	struct twin_report rep = {};
	struct vdiff_gen *gen;
	unsigned int compared = 0;
	uint8_t buf[HX_PKT_MAX];

	cr_assert_eq(vdiff_gen__new(&gopts, &gen), 0);
	for (uint64_t i = 0; i < 400; i++) {
		struct dd_side side[2];
		struct twin t = {};
		struct vdiff_prog p;
		char msg[512];
		int err = 0;

		cr_assert_eq(vdiff_gen__program(gen, i, &p), 0);
		if (reads_clock(&p)) {
			vdiff_prog__clear(&p);
			continue;
		}
		/* a failed open leaves its side closed */
		err = dd_side_open_device_raw(&side[0], p.insns, p.cnt, p.maps, p.map_cnt, msg,
					      sizeof(msg));
		if (!err) {
			err = dd_side_open_device_raw(&side[1], p.insns, p.cnt, p.maps, p.map_cnt,
						      msg, sizeof(msg));
			cr_assert_eq(err, 0, "the second copy failed where the first opened: %s",
				     msg);
		}
		if (err) {
			vdiff_prog__clear(&p);
			continue;
		}
		for (int s = 0; s < 2; s++) {
			t.engine[s] = side[s].engine;
			t.tables[s] = side[s].tables;
			t.window[s] = side[s].window;
			hwxdp_engine__set_rand_seed(t.engine[s], 5);
		}
		hwxdp_engine__set_mode(t.engine[TWIN_COMPILED], HWXDP_ENGINE_COMPILED);
		cr_assert_eq(hwxdp_engine__mode(t.engine[TWIN_COMPILED]), HWXDP_ENGINE_COMPILED);
		compared++;
		for (unsigned int f = 0; f < 8; f++) {
			size_t len = hxu_gen_frame(i * 100 + f, buf, sizeof(buf));

			t.with_stats = f % 2;

			if (!twin_run(&t, 0, buf, len, 1 + f % 3, &rep) && rep.differ == 1)
				fprintf(stderr, "compile: BPF program %llu differs: %s\n",
					(unsigned long long)i, p.what);
		}
		twin_compare_tables(&t, &rep);
		dd_side_close(&side[0]);
		dd_side_close(&side[1]);
		vdiff_prog__clear(&p);
	}
	vdiff_gen__free(gen);
	show(&rep, "random BPF programs");
	cr_assert_gt(compared, 50, "only %u programs were accepted for the device", compared);
	cr_assert_eq(rep.differ, 0, "%s", rep.first);
	cr_assert_eq(rep.map_differ, 0, "%s", rep.first);
}
