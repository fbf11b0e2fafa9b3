/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two engines that must not be told apart: the same image on two copies of
 * the same tables, one interpreting and one compiled. A frame runs on both
 * from the same window; the verdict, the error and fault_op, the egress, the
 * punt reason, the frame's bounds and every byte of the window must agree,
 * and so must every entry of every table afterwards.
 */
#ifndef HWXDP_TESTS_COMPILE_TWIN_H
#define HWXDP_TESTS_COMPILE_TWIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/engine.h"
#include "device/tables.h"

enum { TWIN_INTERP, TWIN_COMPILED };

struct twin {
	struct hwxdp_engine *engine[2]; /* by TWIN_* */
	struct hwxdp_tables *tables[2];
	uint8_t *window[2];
	struct hwxdp_frame frame[2]; /* the last run's */
	int rc[2];
	struct hwxdp_run_stats stats[2];
	bool with_stats; /* runs ask for stats, which must agree too */
	bool owned;	 /* twin_open_text made them; else the caller's */
};

/* What the runs and table walks found. */
struct twin_report {
	uint64_t frames, differ;
	uint64_t counted; /* frames run with stats */
	uint64_t faults;  /* frames the engines aborted (alike) */
	uint64_t entries; /* table entries compared */
	uint64_t map_differ;
	uint32_t fault_kinds; /* bit n: an abort with error HWXDP_ERR_IMAGE + n */
	uint32_t verdicts;    /* bit n: a frame ended with verdict n (n < 32) */
	char first[512];      /* the first difference, described */
};

/* Runs pkt (len bytes at the window's headroom, the rest of the window
 * zero) as program prog from ingress on both engines. Returns true when
 * the two outcomes agree; the report counts the frame either way. */
bool twin_run(struct twin *t, uint32_t prog, const uint8_t *pkt, size_t len, uint32_t ingress,
	      struct twin_report *rep);

/* Every table of both sides, entry by entry, both ways: the entries that
 * differ or exist on one side only (also counted in rep). */
uint64_t twin_compare_tables(struct twin *t, struct twin_report *rep);

/* The same value in both tables of id (key, value: the control plane's
 * layout); asserts it. */
void twin_update(struct twin *t, uint32_t id, const void *key, const void *value);

/*
 * An HXU image as text (hwmap/hxu_text.h), with "main" at op 0 and one
 * program per label named in progs (NULL-terminated, may be NULL), on two
 * sets of tables made from descs. Returns false, with the reason in err,
 * when the device refuses the image; asserts anything else. Both sides are
 * seeded alike; side TWIN_COMPILED is asserted to run compiled.
 */
bool twin_open_text(struct twin *t, const char *text, const struct hxu_table_desc *descs, size_t n,
		    const char *const *progs, char *err, size_t errlen);
/* The same, leaving both engines in the mode they were made in. */
bool twin_open_text_mode(struct twin *t, const char *text, const struct hxu_table_desc *descs,
			 size_t n, const char *const *progs, char *err, size_t errlen);
/* Frees what twin_open_text made. */
void twin_close(struct twin *t);

/* Test fixtures: a private, empty compile cache (XDG_CACHE_HOME) and no
 * HWXDP_ENGINE or HWXDP_CC from the caller's environment; and its removal. */
void twin_setup(void);
void twin_teardown(void);
/* The private cache's hwxdp directory. */
const char *twin_cache_dir(void);

#endif /* HWXDP_TESTS_COMPILE_TWIN_H */
