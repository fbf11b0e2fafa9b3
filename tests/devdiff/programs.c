// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier's random programs (tests/vdiff/gen.h) on both targets. A
 * program is compared when the kernel loads it and hwxdp verifies and
 * translates it for the device; each side starts from fresh maps made from
 * the same descriptors, runs the same frames, and the verdicts, bytes,
 * metadata and every map afterwards must agree.
 *
 * Left out, by design: programs that read the clock, the random generator or
 * the CPU number (each target has its own), and programs with a host-only
 * helper on some path (the device punts there and the host runs them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/engine.h"
#include "hwmap/translate.h"
#include "lab/pkt.h"
#include "tests/devdiff/devdiff.h"
#include "tests/devdiff/pair.h"
#include "tests/vdiff/gen.h"

static bool nondeterministic(const struct vdiff_prog *p)
{
	for (size_t i = 0; i < p->cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];

		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg)
			continue;
		if (in->imm == BPF_FUNC_ktime_get_ns || in->imm == BPF_FUNC_get_prandom_u32 ||
		    in->imm == BPF_FUNC_get_smp_processor_id ||
		    in->imm == BPF_FUNC_ktime_get_boot_ns || in->imm == BPF_FUNC_jiffies64)
			return true;
	}
	return false;
}

/* A frame for a program: a well-formed one of a random kind, often mutated,
 * or random bytes. */
static size_t make_frame(struct vdiff_rng *rng, uint8_t *buf, size_t cap)
{
	struct hx_frame_spec s;
	size_t len;

	if (vdiff_rng__chance(rng, 25)) {
		len = 14 + vdiff_rng__below(rng, 200);
		len = len < cap ? len : cap;
		for (size_t i = 0; i < len; i++)
			buf[i] = (uint8_t)vdiff_rng__next(rng);
		return len;
	}
	hx_frame_spec_init(&s, vdiff_rng__chance(rng, 70) ? 4 : 6);
	s.vlan = vdiff_rng__chance(rng, 30) ? (int)vdiff_rng__below(rng, 4096) : -1;
	s.proto = vdiff_rng__chance(rng, 70) ? 6 : 17;
	s.sport = (uint16_t)vdiff_rng__next(rng);
	s.ttl = (uint8_t)vdiff_rng__below(rng, 4) ? 64 : (uint8_t)vdiff_rng__below(rng, 3);
	s.payload_len = (uint16_t)vdiff_rng__below(rng, 300);
	len = hx_frame_build(&s, buf, cap);
	for (unsigned int n = vdiff_rng__below(rng, 4); n && len; n--)
		buf[vdiff_rng__below(rng, (uint32_t)(len < 64 ? len : 64))] ^=
			(uint8_t)(1u << vdiff_rng__below(rng, 8));
	return len;
}

static const char *differs(int rc0, int rc1, const struct hx_result *a, const struct hx_result *b)
{
	if (rc0 != rc1)
		return "one side refused the frame";
	if (rc0)
		return NULL;
	if (a->action != b->action)
		return "verdict";
	if (a->len != b->len || memcmp(a->frame, b->frame, a->len))
		return "output bytes";
	if (a->has_meta != b->has_meta ||
	    (a->has_meta && memcmp(&a->meta, &b->meta, sizeof(a->meta))))
		return "metadata";
	return NULL;
}

/* One program: 0 compared (the report says how), 1 left out, or a negative errno. */
static int one_program(const struct devdiff_opts *opts, struct vdiff_prog *p,
		       struct devdiff_prog_report *rep, unsigned int *shown)
{
	static struct hx_result res[2];
	struct dd_side k, d;
	struct vdiff_rng rng;
	unsigned int frames = opts->frames_per_prog ? opts->frames_per_prog : 8;
	uint64_t frame_differ = 0, map_differ, entries = 0;
	unsigned int maps = 0;
	char msg[512] = "";
	int err;

	if (nondeterministic(p))
		return 1;
	err = dd_side_open_kernel_raw(&k, p->insns, p->cnt, p->maps, p->map_cnt, msg, sizeof(msg));
	if (err) {
		rep->kernel_rejects++;
		return err == -EACCES ? 1 : err;
	}
	err = dd_side_open_device_raw(&d, p->insns, p->cnt, p->maps, p->map_cnt, msg, sizeof(msg));
	if (err == -EACCES) {
		rep->device_rejects++;
	} else if (err == -HWXDP_ERR_TRANSLATE) {
		rep->untranslated++;
	} else if (err) {
		/* the kernel and hwxdp's verifier accept it: the translator or engine fails */
		rep->no_copy++;
		if (*shown < opts->show) {
			(*shown)++;
			fprintf(stderr, "devdiff: program %llu: no device copy: %s (%d)\n  %s\n",
				(unsigned long long)p->index, msg, err, p->what);
		}
	} else if (d.punts) {
		err = 1;
	}
	if (err) {
		/* a failed open leaves the side closed: closing again is harmless */
		dd_side_close(&d);
		dd_side_close(&k);
		return err == -EACCES || err == -HWXDP_ERR_TRANSLATE || err == 1 ? 1 : 0;
	}

	rep->compared++;
	vdiff_rng__seed(&rng, opts->seed * 0x100000001b3ull + p->index);
	for (unsigned int f = 0; f < frames; f++) {
		uint8_t buf[HX_PKT_MAX];
		size_t len = make_frame(&rng, buf, sizeof(buf));
		int rc[2];
		const char *why;

		rc[0] = hx_target_run(&k.target, 1, buf, len, &res[0]);
		rc[1] = hx_target_run(&d.target, 1, buf, len, &res[1]);
		rep->frames++;
		why = d.fault ? "the device engine faulted"
			      : differs(rc[0], rc[1], &res[0], &res[1]);
		if (d.fault)
			rep->faults++;
		if (!why)
			continue;
		frame_differ++;
		if (*shown < opts->show) {
			(*shown)++;
			fprintf(stderr,
				"devdiff: program %llu (%zu insns), frame %u (%zu bytes): %s "
				"differs: "
				"kernel rc %d %u len %zu, device rc %d %u len %zu (fault op %u)\n  "
				"%s\n",
				(unsigned long long)p->index, p->cnt, f, len, why, rc[0],
				res[0].action, res[0].len, rc[1], res[1].action, res[1].len,
				d.fault_op, p->what);
		}
	}
	map_differ = dd_compare_maps(&k, &d, &entries, &maps, opts->show, shown);
	rep->frame_differ += frame_differ;
	rep->map_differ += map_differ;
	if (!frame_differ && !map_differ)
		rep->identical++;
	dd_side_close(&d);
	dd_side_close(&k);
	return 0;
}

int devdiff_programs(const struct devdiff_opts *opts, struct devdiff_prog_report *rep)
{
	struct vdiff_gen_opts gopts = { .sz = sizeof(gopts),
					.seed = opts->seed,
					.mix = VDIFF_MIX_BOTH };
	struct vdiff_gen *gen;
	unsigned int shown = 0;
	int err;

	memset(rep, 0, sizeof(*rep));
	if (geteuid() != 0)
		return -EPERM;
	err = vdiff_gen__new(&gopts, &gen);
	if (err)
		return err;
	for (uint64_t i = 0; i < opts->count && !err; i++) {
		struct vdiff_prog p;

		err = vdiff_gen__program(gen, i, &p);
		if (err)
			break;
		rep->generated++;
		err = one_program(opts, &p, rep, &shown);
		if (err > 0)
			err = 0;
		vdiff_prog__clear(&p);
	}
	vdiff_gen__free(gen);
	return err;
}
