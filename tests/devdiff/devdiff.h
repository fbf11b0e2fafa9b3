/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device against the kernel, differentially: the same program, the same
 * map contents and the same frames on both targets, and every verdict, output
 * byte, metadata, redirect target and map entry afterwards must agree.
 *
 * Two subjects:
 *   fwd       progs/fwd.bpf.o in the forwarding lab (fwdlab/fwd_lab.h) with
 *             flows of its own: fixed cases (every forwarding kind, every
 *             reachable punt reason, prefixes) and seeded random and mutated
 *             frames. Valid tunnel flows are left out: there the
 *             kernel punts (no crypto) and the device encrypts, by design.
 *   programs  the verifier's random programs (tests/vdiff/gen.h) that the
 *             kernel loads and hwxdp verifies and translates for the device,
 *             each over a few random frames.
 *
 * Both need root (BPF_PROG_TEST_RUN, a network namespace): -EPERM otherwise.
 * Differences are printed to stderr, up to opts.show of them.
 */
#ifndef HWXDP_TESTS_DEVDIFF_DEVDIFF_H
#define HWXDP_TESTS_DEVDIFF_DEVDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct devdiff_opts {
	uint64_t seed;		      /* the same seed, the same frames (and programs) */
	uint64_t count;		      /* random frames (fwd) or programs (programs) */
	unsigned int show;	      /* differences printed at most */
	unsigned int frames_per_prog; /* programs: frames each; 0 means 8 */
};

struct devdiff_fwd_report {
	uint64_t frames;    /* compared, fixed cases included */
	uint64_t differ;    /* frames whose outcome differs */
	uint64_t refused;   /* refused alike by both (shorter than Ethernet) */
	uint64_t forwarded; /* XDP_TX or XDP_REDIRECT on both */
	uint64_t redirects; /* XDP_REDIRECT whose target was compared */
	uint64_t punted, dropped;
	unsigned int punt_kinds; /* distinct punt reasons seen */
	unsigned int maps;	 /* maps compared entry by entry */
	uint64_t map_entries;	 /* entries compared */
	uint64_t map_differ;	 /* entries that differ or exist on one side */
	double ops_per_frame;	 /* device, over frames it ran */
	size_t image_ops, bpf_insns;
};

struct devdiff_prog_report {
	uint64_t generated; /* programs made */
	uint64_t kernel_rejects, device_rejects, untranslated;
	uint64_t no_copy;   /* verified and translated, but the engine refuses
			       the image: a translator bug, not compared */
	uint64_t compared;  /* programs run on both */
	uint64_t identical; /* programs whose every frame and map agreed */
	uint64_t frames, frame_differ, map_differ;
	uint64_t faults; /* device runs the engine aborted */
};

/* 0 when the run took place (the report says what differed), or a negative
 * errno when it could not (-EPERM: not root). */
int devdiff_fwd(const struct devdiff_opts *opts, struct devdiff_fwd_report *rep);
int devdiff_programs(const struct devdiff_opts *opts, struct devdiff_prog_report *rep);

#endif /* HWXDP_TESTS_DEVDIFF_DEVDIFF_H */
