// SPDX-License-Identifier: GPL-2.0
/*
 * max_entries is the capacity: a table takes exactly max_entries keys, of
 * every shape the tests can think of, and refuses the next with E2BIG (a
 * full flow table punts, never drops), at every size from 1 to the device's
 * 2,000,000 flows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "hwmap/hash.h"
#include "hwxdp/fwd.h"
#include "tests/hwmap/keys.h"

/* The value of key i: its index, so a lookup proves it found the right slot. */
static void value_of(uint8_t *value, uint32_t value_size, uint32_t i)
{
	memset(value, 0, value_size);
	memcpy(value, &i, value_size < 4 ? value_size : 4);
}

/*
 * Inserts pool keys 0..max_entries-1 (in a shuffled order), expects every
 * one to succeed and key max_entries (the pool holds one more) to be E2BIG;
 * then every key must be found with its own value, a delete must make room
 * for exactly one new key, and updating a present key must still work.
 */
static struct hwxdp_hash_stats fill_exactly(const struct key_pool *pool, uint32_t value_size,
					    uint32_t max_entries, uint64_t seed)
{
	uint8_t value[HWXDP_HASH_VALUE_MAX], want[HWXDP_HASH_VALUE_MAX];
	uint32_t *order = key_order(max_entries, seed), i, k;
	struct hwxdp_hash_stats stats;
	struct hwxdp_hash *h;
	int err;

	cr_assert_geq(pool->n, max_entries + 1);
	h = hwxdp_hash__new(pool->key_size, value_size, max_entries, seed);
	cr_assert_not_null(h);
	for (i = 0; i < max_entries; i++) {
		k = order[i];
		value_of(value, value_size, k);
		err = hwxdp_hash__update(h, key_at(pool, k), value, BPF_NOEXIST);
		cr_assert_eq(err, 0, "max_entries %u seed %llx: insert %u of %u failed: %d",
			     max_entries, (unsigned long long)seed, i + 1, max_entries, err);
	}
	cr_assert_eq(hwxdp_hash__count(h), max_entries);
	value_of(value, value_size, max_entries);
	cr_assert_eq(hwxdp_hash__update(h, key_at(pool, max_entries), value, BPF_ANY), -E2BIG);
	cr_assert_eq(hwxdp_hash__update(h, key_at(pool, max_entries), value, BPF_NOEXIST), -E2BIG);
	cr_assert_eq(hwxdp_hash__count(h), max_entries);

	for (i = 0; i < max_entries; i++) {
		void *p = hwxdp_hash__lookup(h, key_at(pool, i));

		value_of(want, value_size, i);
		cr_assert_not_null(p, "max_entries %u: key %u lost", max_entries, i);
		cr_assert_arr_eq(p, want, value_size, "max_entries %u: key %u has another's value",
				 max_entries, i);
	}
	cr_assert_null(hwxdp_hash__lookup(h, key_at(pool, max_entries)));

	k = order[max_entries / 2];
	cr_assert_eq(hwxdp_hash__delete(h, key_at(pool, k)), 0);
	cr_assert_eq(hwxdp_hash__update(h, key_at(pool, max_entries), value, BPF_NOEXIST), 0);
	cr_assert_eq(hwxdp_hash__update(h, key_at(pool, k), value, BPF_NOEXIST), -E2BIG);
	cr_assert_eq(hwxdp_hash__update(h, key_at(pool, max_entries), want, BPF_EXIST), 0);

	hwxdp_hash__stats(h, &stats);
	cr_assert_eq(stats.search_failures, 0);
	hwxdp_hash__free(h);
	free(order);
	return stats;
}

Test(capacity, small_tables_fill_exactly_under_many_seeds)
{
	static const uint32_t sizes[] = { 1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 100, 1000 };
	struct key_pool pool;
	size_t s;
	uint64_t seed;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (seed = 1; seed <= (sizes[s] <= 100 ? 1000u : 100u); seed++) {
			cr_assert_eq(key_pool_make(&pool, KEYS_RANDOM, 12, sizes[s] + 1, seed), 0);
			fill_exactly(&pool, 8, sizes[s], seed * 7919);
			key_pool_free(&pool);
		}
	}
}

Test(capacity, small_tables_fill_exactly_with_structured_keys)
{
	static const uint32_t sizes[] = { 1, 7, 100, 1000 };
	static const enum key_family families[] = { KEYS_COUNTER, KEYS_COUNTER_BE,
						    KEYS_SPARSE_BITS };
	struct key_pool pool;
	size_t s, f;
	uint64_t seed;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (f = 0; f < sizeof(families) / sizeof(families[0]); f++)
			for (seed = 1; seed <= 100; seed++) {
				cr_assert_eq(key_pool_make(&pool, families[f], 8, sizes[s] + 1, 0),
					     0);
				fill_exactly(&pool, 4, sizes[s], seed);
				key_pool_free(&pool);
			}
}

Test(capacity, tables_of_65536_fill_exactly_with_every_key_family)
{
	static const struct {
		enum key_family family;
		uint32_t key_size;
	} cases[] = {
		{ KEYS_RANDOM, 44 },	  { KEYS_COUNTER, 4 },	    { KEYS_COUNTER, 44 },
		{ KEYS_COUNTER_BE, 16 },  { KEYS_FLOW_V4, 44 },	    { KEYS_FLOW_GRID, 44 },
		{ KEYS_SPARSE_BITS, 64 }, { KEYS_SPARSE_BITS, 17 }, { KEYS_RANDOM, 1 + 2 },
	};
	struct hwxdp_hash_stats stats;
	struct key_pool pool;
	uint64_t displacements = 0;
	size_t c;
	uint64_t seed;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		cr_assert_eq(key_pool_make(&pool, cases[c].family, cases[c].key_size, 65537, c), 0,
			     "case %zu", c);
		for (seed = 1; seed <= 3; seed++) {
			stats = fill_exactly(&pool, 32, 65536, seed);
			displacements += stats.displacements;
		}
		key_pool_free(&pool);
	}
	/* The searches ran: a fill at 0.9 of the slots must move entries. */
	cr_expect_gt(displacements, 0);
}

/* Flow key i of n distinct ones without a pool: a bijection of i spread over
 * the client address and port, the rest of the 5-tuple random. */
static void flow_key(struct hwxdp_flow_key *k, uint32_t i, bool grid)
{
	uint64_t r = i * 0x9e3779b97f4a7c15ull;
	uint32_t x = i * 0x2545f491u;

	x ^= x >> 15;
	x *= 0x846ca68bu; /* odd: a bijection on 32 bits */
	x ^= x >> 16;
	memset(k, 0, sizeof(*k));
	k->family = HWXDP_FAMILY_IPV4;
	if (grid) {
		k->lif = HWXDP_LIF(1, 0);
		k->proto = 6;
		k->sport_be = (uint16_t)__builtin_bswap16((uint16_t)(i & 0xffff));
		k->dport_be = __builtin_bswap16(443);
		k->src[0] = 10;
		k->dst[0] = 192;
		k->dst[1] = 168;
		k->dst[2] = (uint8_t)(i >> 24);
		k->dst[3] = (uint8_t)(i >> 16);
		return;
	}
	r ^= r >> 29;
	k->lif = HWXDP_LIF(1 + (r & 3), (r >> 2) & 1 ? 50 : 0);
	k->proto = (r >> 3) & 3 ? 6 : 17;
	k->sport_be = (uint16_t)__builtin_bswap16((uint16_t)(32768 + (x >> 20)));
	k->dport_be = __builtin_bswap16((r >> 8) & 1 ? 443 : 80);
	k->src[0] = 10;
	k->src[1] = (uint8_t)(x >> 16 & 0xf);
	k->src[2] = (uint8_t)(x >> 8);
	k->src[3] = (uint8_t)x;
	k->dst[0] = 198;
	k->dst[1] = 18;
	k->dst[2] = (uint8_t)(r >> 16);
	k->dst[3] = (uint8_t)(r >> 24);
}

static void fill_flow_table(bool grid)
{
	const uint32_t n = 2000000;
	struct hwxdp_flow_key k;
	struct hwxdp_flow v = { 0 };
	struct hwxdp_hash *h = hwxdp_hash__new(sizeof(k), sizeof(v), n, 2024);
	struct hwxdp_hash_stats stats;
	struct hwxdp_flow *p;
	double per_entry;
	uint32_t i;

	cr_assert_not_null(h);
	for (i = 0; i < n; i++) {
		flow_key(&k, i, grid);
		v.nexthop = i;
		cr_assert_eq(hwxdp_hash__update(h, &k, &v, BPF_NOEXIST), 0, "flow %u", i);
	}
	flow_key(&k, n, grid);
	cr_assert_eq(hwxdp_hash__update(h, &k, &v, BPF_ANY), -E2BIG);
	cr_assert_eq(hwxdp_hash__count(h), n);
	for (i = 0; i < n; i += 7) {
		flow_key(&k, i, grid);
		p = hwxdp_hash__lookup(h, &k);
		cr_assert_not_null(p, "flow %u lost", i);
		cr_assert_eq(p->nexthop, i);
	}
	per_entry = (double)hwxdp_hash__memory(h) / n;
	hwxdp_hash__stats(h, &stats);
	cr_log_info("2M flows: %.2f bytes per entry, %llu moves, longest chain %u, %llu stashed",
		    per_entry, (unsigned long long)stats.displacements, stats.longest_path,
		    (unsigned long long)stats.stashed);
	cr_expect_leq(per_entry, 96.0, "%.2f bytes per entry", per_entry);
	hwxdp_hash__free(h);
}

Test(capacity, flow_table_holds_2000000_random_flows)
{
	fill_flow_table(false);
}

Test(capacity, flow_table_holds_2000000_sequential_flows)
{
	fill_flow_table(true);
}
