// SPDX-License-Identifier: GPL-2.0
/*
 * The device's LPM trie against the kernel's BPF_MAP_TYPE_LPM_TRIE: the
 * same seeded random updates, lookups, deletes and get_next_key calls on
 * IPv4- and IPv6-sized keys, with many overlapping prefixes, must give the
 * same return codes, values, next keys and dump order. Kernel parts need
 * root; the semantics tests below run without.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "device/tables.h"
#include "hwmap/lpm.h"
#include "tests/tables/util.h"

#define KEY_MAX	  (4 + 16)
#define VALUE_MAX 16
#define BASES	  24

struct lpm_run {
	uint32_t data_size, value_size, max_entries, ops;
	uint64_t seed;
};

struct prefix_gen {
	uint32_t data_size;
	uint8_t base[BASES][16];
};

/* Bases that share long runs of leading bits, so prefixes nest and part at
 * every depth. */
static void gen_init(struct prefix_gen *g, uint32_t data_size, uint64_t *rng)
{
	uint8_t root[16];

	g->data_size = data_size;
	for (uint32_t b = 0; b < 16; b++)
		root[b] = (uint8_t)rng_next(rng);
	for (uint32_t i = 0; i < BASES; i++) {
		uint32_t keep = rng_below(rng, data_size * 8 + 1);

		for (uint32_t b = 0; b < data_size; b++) {
			uint8_t r = (uint8_t)rng_next(rng), mask;

			if (keep >= (b + 1) * 8)
				mask = 0xff;
			else if (keep <= b * 8)
				mask = 0;
			else
				mask = (uint8_t)(0xff00 >> (keep - b * 8));
			g->base[i][b] = (root[b] & mask) | (r & ~mask);
		}
	}
}

/* A key: prefix length, then a base's data, its bits after the prefix
 * sometimes cleared and sometimes random (the kernel keeps them). */
static void gen_key(struct prefix_gen *g, uint64_t *rng, uint32_t plen, uint8_t *key)
{
	const uint8_t *base = g->base[rng_below(rng, BASES)];
	uint32_t style = rng_below(rng, 4);

	memcpy(key, &plen, 4);
	memcpy(key + 4, base, g->data_size);
	for (uint32_t bit = plen; bit < g->data_size * 8; bit++) {
		uint8_t m = (uint8_t)(0x80 >> (bit % 8));

		if (style == 0)
			key[4 + bit / 8] &= (uint8_t)~m;
		else if (style == 1 && (rng_next(rng) & 1))
			key[4 + bit / 8] ^= m;
	}
}

static uint32_t gen_plen(uint64_t *rng, uint32_t max)
{
	switch (rng_below(rng, 8)) {
	case 0:
		return max;
	case 1:
		return max + 1 + rng_below(rng, 3); /* invalid */
	case 2:
		return rng_below(rng, 4);
	default:
		return rng_below(rng, max + 1);
	}
}

/* Both dumps, in order, must be the same sequence of keys. */
static void compare_dumps(int fd, struct hwxdp_table *tab, uint32_t key_size)
{
	uint8_t kprev[KEY_MAX], knext[KEY_MAX], tprev[KEY_MAX], tnext[KEY_MAX];
	int kerr, terr, n = 0;

	kerr = bpf_map_get_next_key(fd, NULL, knext) ? -errno : 0;
	terr = hwxdp_table__get_next_key(tab, NULL, tnext);
	for (;;) {
		cr_assert_eq(terr, kerr, "dump entry %d: device %d, kernel %d", n, terr, kerr);
		if (kerr)
			break;
		cr_assert_arr_eq(tnext, knext, key_size, "dump entry %d differs", n);
		memcpy(kprev, knext, key_size);
		memcpy(tprev, tnext, key_size);
		kerr = bpf_map_get_next_key(fd, kprev, knext) ? -errno : 0;
		terr = hwxdp_table__get_next_key(tab, tprev, tnext);
		n++;
	}
}

static uint64_t lpm_differential(const struct lpm_run *r)
{
	static const uint64_t flag_choice[] = { BPF_ANY,   BPF_ANY, BPF_NOEXIST, BPF_EXIST,
						BPF_EXIST, 3,	    BPF_F_LOCK,	 BPF_NOEXIST };
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_NO_PREALLOC);
	uint32_t key_size = 4 + r->data_size, max = r->data_size * 8, op, roll;
	uint8_t key[KEY_MAX], kv[VALUE_MAX], tv[VALUE_MAX], value[VALUE_MAX];
	uint8_t knext[KEY_MAX], tnext[KEY_MAX];
	struct hxu_table_desc d = tt_desc(1, BPF_MAP_TYPE_LPM_TRIE, key_size, r->value_size,
					  r->max_entries, BPF_F_NO_PREALLOC);
	uint64_t rng = r->seed, hits = 0, full = 0;
	struct hwxdp_tables *t = hwxdp_tables__new();
	struct hwxdp_table *tab;
	struct prefix_gen g;
	int fd, kerr, terr;

	tt_need_root();
	fd = bpf_map_create(BPF_MAP_TYPE_LPM_TRIE, "hx_lpm", key_size, r->value_size,
			    r->max_entries, &opts);
	cr_assert_geq(fd, 0, "bpf_map_create: %d", fd);
	cr_assert_eq(hwxdp_tables__create(t, &d), 0);
	tab = hwxdp_tables__get(t, 1);
	gen_init(&g, r->data_size, &rng);

	for (op = 0; op < r->ops; op++) {
		roll = rng_below(&rng, 100);
		if (roll < 35) {
			uint64_t flags = flag_choice[rng_below(&rng, 8)];

			gen_key(&g, &rng, gen_plen(&rng, max), key);
			for (uint32_t b = 0; b < r->value_size; b++)
				value[b] = (uint8_t)rng_next(&rng);
			kerr = bpf_map_update_elem(fd, key, value, flags) ? -errno : 0;
			terr = hwxdp_table__update(tab, key, value, flags);
			full += kerr == -ENOSPC;
			cr_assert_eq(terr, kerr, "op %u: update flags %llu: device %d, kernel %d", op,
				     (unsigned long long)flags, terr, kerr);
		} else if (roll < 55) {
			gen_key(&g, &rng, gen_plen(&rng, max), key);
			kerr = bpf_map_delete_elem(fd, key) ? -errno : 0;
			terr = hwxdp_table__delete(tab, key);
			cr_assert_eq(terr, kerr, "op %u: delete: device %d, kernel %d", op, terr,
				     kerr);
		} else if (roll < 90) {
			/* Mostly full-length addresses, as a router looks up. */
			gen_key(&g, &rng, rng_below(&rng, 3) ? max : gen_plen(&rng, max), key);
			memset(kv, 0, sizeof(kv));
			memset(tv, 0, sizeof(tv));
			kerr = bpf_map_lookup_elem(fd, key, kv) ? -errno : 0;
			terr = hwxdp_table__lookup(tab, key, tv);
			cr_assert_eq(terr, kerr, "op %u: lookup: device %d, kernel %d", op, terr,
				     kerr);
			cr_assert_arr_eq(tv, kv, r->value_size, "op %u: lookup value differs", op);
			hits += !kerr;
			/* The engine's path finds the same value. */
			uint64_t addr = hwxdp_table__value_addr(tab, key);

			cr_assert_eq(addr != 0, !kerr, "op %u: value_addr disagrees", op);
			if (addr)
				cr_assert_arr_eq((void *)(uintptr_t)addr, kv, r->value_size);
		} else if (roll < 99) {
			bool null = !rng_below(&rng, 8);

			gen_key(&g, &rng, gen_plen(&rng, max), key);
			/* Often start from a present key, to walk the order. */
			if (!null && rng_below(&rng, 2)) {
				uint32_t steps = rng_below(&rng, 16);

				hwxdp_table__get_next_key(tab, NULL, key);
				while (steps-- && !hwxdp_table__get_next_key(tab, key, key))
					;
			}
			kerr = bpf_map_get_next_key(fd, null ? NULL : key, knext) ? -errno : 0;
			terr = hwxdp_table__get_next_key(tab, null ? NULL : key, tnext);
			cr_assert_eq(terr, kerr, "op %u: get_next_key: device %d, kernel %d", op,
				     terr, kerr);
			if (!kerr)
				cr_assert_arr_eq(tnext, knext, key_size,
						 "op %u: get_next_key's key differs", op);
		} else {
			compare_dumps(fd, tab, key_size);
		}
	}
	compare_dumps(fd, tab, key_size);
	cr_log_info("LPM %u-byte data: %u ops, %llu lookup hits, %llu updates on a full trie, "
		    "%u prefixes at the end",
		    r->data_size, r->ops, (unsigned long long)hits, (unsigned long long)full,
		    hwxdp_lpm__count(tab->lpm));
	cr_assert_gt(hits, r->ops / 20, "too few hits to say anything");
	cr_assert_gt(full, 0, "the trie never filled up");
	close(fd);
	hwxdp_tables__free(t);
	return hits;
}

Test(lpm, ipv4_against_the_kernel)
{
	struct lpm_run r = { .data_size = 4, .value_size = 8, .max_entries = 96, .ops = 60000,
			     .seed = 1 };

	lpm_differential(&r);
}

Test(lpm, ipv6_against_the_kernel)
{
	struct lpm_run r = { .data_size = 16, .value_size = 5, .max_entries = 128, .ops = 60000,
			     .seed = 2 };

	lpm_differential(&r);
}

Test(lpm, odd_sizes_against_the_kernel)
{
	struct lpm_run r = { .data_size = 1, .value_size = 3, .max_entries = 12, .ops = 8000,
			     .seed = 3 };
	struct lpm_run r7 = { .data_size = 7, .value_size = 16, .max_entries = 200, .ops = 8000,
			      .seed = 4 };

	lpm_differential(&r);
	lpm_differential(&r7);
}

Test(lpm, create_as_the_kernel, .init = tt_quiet)
{
	static const struct {
		uint32_t key, value, max, flags;
		int device; /* what the device says; the kernel's too unless noted */
		bool device_limit;
	} cases[] = {
		{ 8, 8, 16, BPF_F_NO_PREALLOC, 0, false },
		{ 8, 8, 16, 0, -EINVAL, false },
		{ 4, 8, 16, BPF_F_NO_PREALLOC, -EINVAL, false },
		{ 5, 1, 1, BPF_F_NO_PREALLOC, 0, false },
		{ 8, 0, 16, BPF_F_NO_PREALLOC, -EINVAL, false },
		{ 8, 8, 0, BPF_F_NO_PREALLOC, -EINVAL, false },
		{ 261, 8, 16, BPF_F_NO_PREALLOC, -EINVAL, false },
		{ 8, 8, 16, BPF_F_NO_PREALLOC | BPF_F_MMAPABLE, -EINVAL, false },
		{ 8, 8, 16, BPF_F_NO_PREALLOC | BPF_F_RDONLY_PROG, 0, false },
		{ 64, 256, 16, BPF_F_NO_PREALLOC, 0, false },
		{ 68, 8, 16, BPF_F_NO_PREALLOC, -E2BIG, true },
		{ 20, 257, 16, BPF_F_NO_PREALLOC, -E2BIG, true },
	};
	struct hwxdp_tables *t = hwxdp_tables__new();
	bool kernel = geteuid() == 0;

	for (uint32_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hxu_table_desc d = tt_desc(i, BPF_MAP_TYPE_LPM_TRIE, cases[i].key,
						  cases[i].value, cases[i].max, cases[i].flags);
		LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = cases[i].flags);
		int ours = hwxdp_tables__create(t, &d), theirs;

		cr_assert_eq(ours, cases[i].device, "case %u: %d", i, ours);
		if (!kernel || cases[i].device_limit)
			continue;
		theirs = bpf_map_create(BPF_MAP_TYPE_LPM_TRIE, "hx_lpm", cases[i].key,
					cases[i].value, cases[i].max, &opts);
		if (theirs >= 0) {
			close(theirs);
			theirs = 0;
		}
		cr_assert_eq(ours, theirs, "case %u: device %d, kernel %d", i, ours, theirs);
	}
	hwxdp_tables__free(t);
}

static void ipv4_key(uint8_t *key, uint32_t plen, uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	memcpy(key, &plen, 4);
	key[4] = a;
	key[5] = b;
	key[6] = c;
	key[7] = d;
}

/* The kernel's own example (kernel/bpf/lpm_trie.c) and its dump order. */
Test(lpm, longest_match_and_postorder)
{
	struct hwxdp_lpm *l = hwxdp_lpm__new(8, 4, 8);
	uint8_t key[8], next[8];
	uint32_t v;

	cr_assert(l);
	ipv4_key(key, 16, 192, 168, 0, 0);
	v = 16;
	cr_assert_eq(hwxdp_lpm__update(l, key, &v, BPF_ANY), 0);
	ipv4_key(key, 24, 192, 168, 0, 0);
	v = 240;
	cr_assert_eq(hwxdp_lpm__update(l, key, &v, BPF_ANY), 0);
	ipv4_key(key, 24, 192, 168, 1, 0);
	v = 241;
	cr_assert_eq(hwxdp_lpm__update(l, key, &v, BPF_ANY), 0);
	ipv4_key(key, 24, 192, 168, 128, 0);
	v = 2428;
	cr_assert_eq(hwxdp_lpm__update(l, key, &v, BPF_ANY), 0);

	ipv4_key(key, 32, 192, 168, 1, 77);
	cr_assert_eq(*(uint32_t *)hwxdp_lpm__lookup(l, key), 241);
	ipv4_key(key, 32, 192, 168, 200, 1);
	cr_assert_eq(*(uint32_t *)hwxdp_lpm__lookup(l, key), 16);
	/* A key's own prefix length bounds the match. */
	ipv4_key(key, 20, 192, 168, 1, 77);
	cr_assert_eq(*(uint32_t *)hwxdp_lpm__lookup(l, key), 16);
	ipv4_key(key, 32, 10, 0, 0, 1);
	cr_assert_null(hwxdp_lpm__lookup(l, key));
	ipv4_key(key, 33, 192, 168, 1, 77);
	cr_assert_null(hwxdp_lpm__lookup(l, key));

	static const uint8_t order[4][3] = {
		{ 24, 0, 0 }, { 24, 1, 0 }, { 24, 128, 0 }, { 16, 0, 0 }
	};
	cr_assert_eq(hwxdp_lpm__get_next_key(l, NULL, next), 0);
	for (int i = 0; i < 4; i++) {
		uint32_t plen;

		memcpy(&plen, next, 4);
		cr_assert_eq(plen, order[i][0], "entry %d: /%u", i, plen);
		cr_assert_eq(next[6], order[i][1], "entry %d", i);
		memcpy(key, next, 8);
		cr_assert_eq(hwxdp_lpm__get_next_key(l, key, next), i == 3 ? -ENOENT : 0);
	}
	/* Deleting a node that still parts two subtrees keeps them. */
	ipv4_key(key, 16, 192, 168, 0, 0);
	cr_assert_eq(hwxdp_lpm__delete(l, key), 0);
	cr_assert_eq(hwxdp_lpm__delete(l, key), -ENOENT);
	ipv4_key(key, 32, 192, 168, 128, 9);
	cr_assert_eq(*(uint32_t *)hwxdp_lpm__lookup(l, key), 2428);
	ipv4_key(key, 32, 192, 168, 200, 1);
	cr_assert_null(hwxdp_lpm__lookup(l, key));
	cr_assert_eq(hwxdp_lpm__count(l), 3);
	hwxdp_lpm__free(l);
}

/* Filling to max_entries and beyond: ENOSPC, and every prefix and every
 * intermediate node a full trie needs fits the pools. */
Test(lpm, fills_to_max_entries)
{
	const uint32_t max = 5000;
	struct hwxdp_lpm *l = hwxdp_lpm__new(8, 8, max);
	uint64_t rng = 7, v;
	uint8_t key[8];
	uint32_t n = 0, plen;

	cr_assert(l);
	while (n < max) {
		plen = 8 + rng_below(&rng, 25);
		v = rng_next(&rng);
		memcpy(key, &plen, 4);
		memcpy(key + 4, &v, 4);
		if (hwxdp_lpm__update(l, key, &v, BPF_NOEXIST) == 0)
			n++;
	}
	cr_assert_eq(hwxdp_lpm__count(l), max);
	plen = 32;
	memcpy(key, &plen, 4);
	memset(key + 4, 0xab, 4);
	if (!hwxdp_lpm__lookup(l, key))
		cr_assert_eq(hwxdp_lpm__update(l, key, &v, BPF_ANY), -ENOSPC);
	/* Every stored prefix finds its own value. */
	for (int err = hwxdp_lpm__get_next_key(l, NULL, key); !err;
	     err = hwxdp_lpm__get_next_key(l, key, key)) {
		uint64_t got;

		cr_assert_eq(hwxdp_lpm__lookup_copy(l, key, &got), 0);
		n--;
	}
	cr_assert_eq(n, 0, "the dump missed %u prefixes", n);
	hwxdp_lpm__free(l);
}
