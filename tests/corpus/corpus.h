/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The corpus of foreign-style XDP programs (tests/corpus/NAME.bpf.c) through
 * the kernel, hwxdp's host verifier and the device, and the device against
 * the kernel on the same frames.
 */
#ifndef HWXDP_TESTS_CORPUS_H
#define HWXDP_TESTS_CORPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "loader/object.h"

#define CORPUS_REASON_MAX 512

/* One XDP program of one corpus object. */
/* The kernel's refusal of an unbound program that calls XDP metadata kfuncs. */
#define CORPUS_UNBOUND "metadata kfuncs require device-bound program"

struct corpus_row {
	char object[HWXDP_NAME_MAX]; /* file name without .bpf.o */
	char prog[HWXDP_NAME_MAX];
	char section[HWXDP_NAME_MAX];
	bool legacy; /* struct bpf_map_def maps: rewritten for libbpf 1.x, loader/legacy_maps.c */
	bool expect_bad; /* bad_*: written to be refused */

	bool kernel_ok;
	/* loaded bound to a netdev (a TAP), as the XDP metadata kfuncs need:
	 * its frames run through the TAP (tests/corpus/tap.h) */
	bool kernel_bound;
	uint32_t kernel_insns; /* "processed N insns" */
	uint64_t kernel_usec;  /* "verification time N usec" */
	char kernel_reason[CORPUS_REASON_MAX];

	/* a bound one's verdict by hwxdp as unbound: refused, as the kernel
	 * refuses it unbound (CORPUS_UNBOUND); the host_ fields are as bound */
	char host_unbound_reason[CORPUS_REASON_MAX];
	bool host_ok;
	uint32_t host_insns;
	uint64_t host_ns;
	char host_reason[CORPUS_REASON_MAX];

	bool device_tried; /* the device was asked: not for an object the loader cannot open */
	bool device_ok;
	char device_reason[CORPUS_REASON_MAX];
	uint32_t bpf_insns, image_ops;

	/* the differential run */
	bool ran;
	char run_error[CORPUS_REASON_MAX];
	uint64_t frames, differ, map_entries, map_differ, redirects;
	/* hash entries filled from the keys the frames look up, for maps the
	 * harness has no key pattern for (corpus.c, fill_looked_up) */
	uint64_t looked_up_keys;
	uint64_t actions[5]; /* the kernel's verdicts: which paths the frames took */
	uint64_t punts;	     /* frames the device handed to the host copy */
	bool maps_partial;   /* after punts, maps too large to resync were not compared */
	/* value bytes no member of the value's type covers, left out of the
	 * comparison (dd_side_mask_padding), and how many of them differed */
	uint64_t padding_bytes, padding_differ;
	double bundles_per_frame;
};

struct corpus_totals {
	unsigned int rows, kernel_ok, host_ok, device_ok, unsound, bad_rows;
	unsigned int host_refuses_kernel_ok; /* the count a later assertion turns on */
	uint64_t frames, differ, map_differ, padding_bytes, padding_differ;
	double median_insn_ratio, median_time_ratio;
};

/* Frames per program: $HWXDP_CORPUS_FRAMES, or 3000 with
 * $HWXDP_CORPUS_LONG=1, else 300. */
unsigned int corpus_frame_count(void);

/* Every program of every object in $BUILD/tests/corpus: rows (malloc'd) and
 * their count. 0 or a negative errno. */
int corpus_run(unsigned int frames, struct corpus_row **rows, size_t *cnt);
/* The same for the objects in $BUILD/SUBDIR (the corpus built otherwise). */
int corpus_run_in(const char *subdir, unsigned int frames, struct corpus_row **rows, size_t *cnt);

void corpus_totals(const struct corpus_row *rows, size_t cnt, struct corpus_totals *t);
void corpus_print(FILE *f, const struct corpus_row *rows, size_t cnt,
		  const struct corpus_totals *t);
int corpus_write_json(const char *path, const struct corpus_row *rows, size_t cnt,
		      const struct corpus_totals *t);

#endif /* HWXDP_TESTS_CORPUS_H */
