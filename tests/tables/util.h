/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the table tests: a seeded generator, a table set with one
 * table, and microcode loaded on an engine over given tables.
 */
#ifndef HWXDP_TESTS_TABLES_UTIL_H
#define HWXDP_TESTS_TABLES_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "device/engine.h"
#include "device/tables.h"
#include "hwmap/hxu.h"

static inline uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint32_t rng_below(uint64_t *s, uint32_t n)
{
	return (uint32_t)(rng_next(s) % n);
}

struct hxu_table_desc tt_desc(uint32_t id, uint32_t type, uint32_t key_size, uint32_t value_size,
			      uint32_t max_entries, uint32_t flags);

/* Skips the test unless root (kernel maps and programs need it). */
void tt_need_root(void);

/* Silences the library's warnings for tests that provoke them. */
void tt_quiet(void);

/* An engine running text (HXU assembly, program "main" at op 0) over the
 * tables of t named by descs; asserts it loads. */
struct tt_engine {
	struct hwxdp_engine *engine;
	uint8_t *window;
	struct hwxdp_frame frame;
	void *as; /* the assembled words */
};

void tt_engine_load(struct tt_engine *te, struct hwxdp_tables *t, const char *text,
		    const struct hxu_table_desc *descs, uint32_t n);
/* Runs a 64-byte zero frame; returns the verdict. */
uint32_t tt_engine_run(struct tt_engine *te);
void tt_engine_free(struct tt_engine *te);

#endif /* HWXDP_TESTS_TABLES_UTIL_H */
