// SPDX-License-Identifier: GPL-2.0
/*
 * The table against a reference: a million random operations with a seed,
 * every return code, value and count compared, and the kernel's error codes
 * for each flag.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "hwmap/hash.h"
#include "base/log.h"
#include "tests/hwmap/keys.h"

/* What the table must hold: per pool key, present or not and its value. */
struct reference {
	const struct key_pool *pool;
	uint32_t value_size;
	uint32_t count;
	uint8_t *present;
	uint8_t *values;
};

static uint8_t *ref_value(struct reference *ref, uint32_t i)
{
	return ref->values + (size_t)i * ref->value_size;
}

/* Every present key exactly once, nothing else. */
static void check_iteration(const struct hwxdp_hash *h, struct reference *ref)
{
	uint8_t *seen = calloc(ref->pool->n, 1);
	uint8_t key[HWXDP_HASH_KEY_MAX], next[HWXDP_HASH_KEY_MAX];
	uint32_t visited = 0, i;
	const void *prev = NULL;
	int64_t at;

	while (hwxdp_hash__get_next_key(h, prev, next) == 0) {
		at = key_pool_find(ref->pool, next);
		cr_assert(at >= 0, "iteration returned a key never inserted");
		cr_assert(ref->present[at], "iteration returned deleted key %ld", (long)at);
		cr_assert(!seen[at], "iteration returned key %ld twice", (long)at);
		seen[at] = 1;
		visited++;
		memcpy(key, next, ref->pool->key_size);
		prev = key;
		cr_assert(visited <= ref->count, "iteration does not end");
	}
	cr_assert_eq(visited, ref->count, "iteration visited %u of %u keys", visited, ref->count);
	for (i = 0; i < ref->pool->n; i++)
		cr_assert_eq(seen[i], ref->present[i]);
	free(seen);
}

static const uint64_t bad_flags[] = { 3, BPF_F_LOCK, 8, 1ull << 32, ~0ull };

/*
 * ops operations on keys from a pool of pool_n, in phases that alternately
 * fill the table past max_entries and empty it, so that every outcome of
 * every call comes up. With a search budget below the default an insert may
 * legitimately find no room below max_entries; the table must then say so in
 * its statistics.
 */
static struct hwxdp_hash_stats run_random(uint32_t key_size, uint32_t value_size,
					  uint32_t max_entries, uint32_t pool_n, uint32_t prefill,
					  uint32_t ops, uint64_t seed, int budget)
{
	uint8_t value[HWXDP_HASH_VALUE_MAX], got[HWXDP_HASH_VALUE_MAX], next[HWXDP_HASH_KEY_MAX];
	struct key_pool pool;
	struct reference ref;
	struct hwxdp_hash_stats stats;
	struct hwxdp_hash *h;
	uint64_t rng = seed, failures = 0, flags;
	uint32_t op, i, j, roll;
	bool grow;
	void *p;
	int err, want;

	cr_assert_eq(key_pool_make(&pool, KEYS_RANDOM, key_size, pool_n, seed), 0);
	ref = (struct reference){ .pool = &pool, .value_size = value_size };
	ref.present = calloc(pool_n, 1);
	ref.values = calloc(pool_n, value_size);
	h = hwxdp_hash__new(key_size, value_size, max_entries, seed);
	cr_assert_not_null(h);
	if (budget >= 0)
		hwxdp_hash__set_search_budget(h, (uint32_t)budget);
	for (i = 0; i < prefill; i++) {
		memset(value, (int)i, value_size);
		err = hwxdp_hash__update(h, key_at(&pool, i), value, BPF_NOEXIST);
		if (err == -E2BIG && budget >= 0)
			continue;
		cr_assert_eq(err, 0, "prefill key %u: %d", i, err);
		ref.present[i] = 1;
		ref.count++;
		memcpy(ref_value(&ref, i), value, value_size);
	}

	for (op = 0; op < ops; op++) {
		grow = (op / 20000) % 2 == 0;
		i = rng_below(&rng, pool_n);
		roll = rng_below(&rng, 100);
		if (roll < (grow ? 50u : 20u)) {
			roll = rng_below(&rng, 100);
			flags = roll < 40   ? BPF_ANY
				: roll < 70 ? BPF_NOEXIST
				: roll < 97 ? BPF_EXIST
					    : bad_flags[rng_below(&rng, 5)];
			for (j = 0; j < value_size; j++)
				value[j] = (uint8_t)rng_next(&rng);
			if (flags > BPF_EXIST)
				want = -EINVAL;
			else if (ref.present[i])
				want = flags == BPF_NOEXIST ? -EEXIST : 0;
			else if (flags == BPF_EXIST)
				want = -ENOENT;
			else
				want = ref.count >= max_entries ? -E2BIG : 0;
			err = hwxdp_hash__update(h, key_at(&pool, i), value, flags);
			if (want == 0 && err == -E2BIG && !ref.present[i] && budget >= 0) {
				hwxdp_hash__stats(h, &stats);
				cr_assert_eq(stats.search_failures, failures + 1);
				want = -E2BIG;
			}
			cr_assert_eq(err, want, "op %u: update flags %llu of key %u: %d, want %d",
				     op, (unsigned long long)flags, i, err, want);
			if (!err) {
				ref.count += !ref.present[i];
				ref.present[i] = 1;
				memcpy(ref_value(&ref, i), value, value_size);
			}
		} else if (roll < (grow ? 60u : 70u)) {
			err = hwxdp_hash__delete(h, key_at(&pool, i));
			cr_assert_eq(err, ref.present[i] ? 0 : -ENOENT, "op %u: delete key %u", op,
				     i);
			ref.count -= ref.present[i];
			ref.present[i] = 0;
		} else if (roll < 85) {
			p = hwxdp_hash__lookup(h, key_at(&pool, i));
			cr_assert_eq(p != NULL, ref.present[i], "op %u: lookup key %u", op, i);
			if (p) {
				cr_assert_eq((uintptr_t)p % 8, 0);
				cr_assert_arr_eq(p, ref_value(&ref, i), value_size, "op %u", op);
			}
		} else if (roll < 95) {
			memset(got, 0xa5, sizeof(got));
			err = hwxdp_hash__lookup_copy(h, key_at(&pool, i), got);
			cr_assert_eq(err, ref.present[i] ? 0 : -ENOENT, "op %u: lookup_copy", op);
			if (!err)
				cr_assert_arr_eq(got, ref_value(&ref, i), value_size, "op %u", op);
			if (value_size < sizeof(got))
				cr_assert_eq(got[value_size], 0xa5,
					     "lookup_copy wrote past the value");
		} else {
			/* From a present key: a present key or the end; from an absent
			 * key: the first key, so never the end of a non-empty table. */
			err = hwxdp_hash__get_next_key(h, key_at(&pool, i), next);
			if (!ref.count || (!ref.present[i] && err))
				cr_assert_eq(err, ref.count ? 0 : -ENOENT, "op %u: get_next_key",
					     op);
			if (!err) {
				int64_t at = key_pool_find(&pool, next);

				cr_assert(at >= 0 && ref.present[at], "op %u: next key not present",
					  op);
				cr_assert_neq(at, i, "op %u: next key is the key itself", op);
			}
		}
		cr_assert_eq(hwxdp_hash__count(h), ref.count, "op %u: count", op);
		if (budget >= 0) {
			hwxdp_hash__stats(h, &stats);
			failures = stats.search_failures;
		}
		if (op % 50000 == 49999)
			check_iteration(h, &ref);
	}
	check_iteration(h, &ref);
	hwxdp_hash__stats(h, &stats);
	if (budget < 0)
		cr_assert_eq(stats.search_failures, 0);
	for (i = 0; i < pool_n; i++)
		cr_assert_eq(hwxdp_hash__delete(h, key_at(&pool, i)), ref.present[i] ? 0 : -ENOENT);
	cr_assert_eq(hwxdp_hash__count(h), 0);
	cr_assert_eq(hwxdp_hash__get_next_key(h, NULL, next), -ENOENT);

	hwxdp_hash__free(h);
	free(ref.present);
	free(ref.values);
	key_pool_free(&pool);
	return stats;
}

Test(semantics, million_random_operations_on_flow_sized_entries)
{
	run_random(44, 32, 4000, 6000, 4000, 1000000, 0x5eed0001, -1);
}

Test(semantics, random_operations_on_odd_sizes)
{
	run_random(3, 5, 1000, 1500, 0, 250000, 0x5eed0002, -1);
	run_random(13, 1, 100, 160, 100, 100000, 0x5eed0003, -1);
	run_random(64, 256, 2000, 3000, 1000, 250000, 0x5eed0004, -1);
}

Test(semantics, random_operations_without_displacement_use_the_stash)
{
	hwxdp_print_fn_t old = hwxdp_set_print(NULL); /* failures are this test's point */
	struct hwxdp_hash_stats stats = run_random(16, 24, 300, 450, 300, 250000, 0x5eed0005, 0);

	hwxdp_set_print(old);

	cr_expect_gt(stats.stashed, 100, "stash used %llu times",
		     (unsigned long long)stats.stashed);
	cr_expect_gt(stats.search_failures, 0);
	cr_expect_eq(stats.displacements, 0);
}

Test(semantics, random_operations_displace_entries)
{
	struct hwxdp_hash_stats stats =
		run_random(8, 8, 20000, 30000, 20000, 300000, 0x5eed0006, -1);

	cr_expect_gt(stats.displacements, 0);
}

Test(semantics, new_checks_sizes)
{
	static const uint32_t bad[][3] = {
		{ 0, 8, 10 },	{ 65, 8, 10 }, { 8, 0, 10 },
		{ 8, 257, 10 }, { 8, 8, 0 },   { 8, 8, (1u << 30) + 1 },
	};
	struct hwxdp_hash *h;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		cr_expect_null(hwxdp_hash__new(bad[i][0], bad[i][1], bad[i][2], 1), "case %zu", i);
		cr_expect_eq(errno, EINVAL, "case %zu", i);
	}
	h = hwxdp_hash__new(64, 256, 1, 1);
	cr_assert_not_null(h);
	cr_expect_eq(hwxdp_hash__key_size(h), 64);
	cr_expect_eq(hwxdp_hash__value_size(h), 256);
	cr_expect_eq(hwxdp_hash__max_entries(h), 1);
	cr_expect_eq(hwxdp_hash__count(h), 0);
	cr_expect_geq(hwxdp_hash__memory(h), 64 + 256);
	hwxdp_hash__free(h);
	hwxdp_hash__free(NULL);
}

Test(semantics, flags_and_errors_as_the_kernel)
{
	uint64_t k1 = 1, k2 = 2, k3 = 3, v = 10, got;
	struct hwxdp_hash *h = hwxdp_hash__new(8, 8, 2, 7);
	size_t i;

	cr_assert_not_null(h);
	cr_expect_null(hwxdp_hash__lookup(h, &k1));
	cr_expect_eq(hwxdp_hash__lookup_copy(h, &k1, &got), -ENOENT);
	cr_expect_eq(hwxdp_hash__delete(h, &k1), -ENOENT);
	cr_expect_eq(hwxdp_hash__get_next_key(h, NULL, &got), -ENOENT);
	cr_expect_eq(hwxdp_hash__get_next_key(h, &k1, &got), -ENOENT);

	cr_expect_eq(hwxdp_hash__update(h, &k1, &v, BPF_EXIST), -ENOENT);
	cr_expect_eq(hwxdp_hash__count(h), 0);
	cr_expect_eq(hwxdp_hash__update(h, &k1, &v, BPF_NOEXIST), 0);
	v = 11;
	cr_expect_eq(hwxdp_hash__update(h, &k1, &v, BPF_NOEXIST), -EEXIST);
	cr_expect_eq(*(uint64_t *)hwxdp_hash__lookup(h, &k1), 10, "NOEXIST changed the value");
	cr_expect_eq(hwxdp_hash__update(h, &k1, &v, BPF_EXIST), 0);
	cr_expect_eq(*(uint64_t *)hwxdp_hash__lookup(h, &k1), 11);
	v = 12;
	cr_expect_eq(hwxdp_hash__update(h, &k1, &v, BPF_ANY), 0);
	cr_expect_eq(*(uint64_t *)hwxdp_hash__lookup(h, &k1), 12);
	for (i = 0; i < sizeof(bad_flags) / sizeof(bad_flags[0]); i++) {
		cr_expect_eq(hwxdp_hash__update(h, &k1, &v, bad_flags[i]), -EINVAL);
		cr_expect_eq(hwxdp_hash__update(h, &k2, &v, bad_flags[i]), -EINVAL);
	}
	cr_expect_eq(hwxdp_hash__count(h), 1);
	cr_expect_null(hwxdp_hash__lookup(h, &k2), "a rejected flag inserted the key");

	/* Full: a new key is E2BIG, a present one still updates, and EXIST on
	 * a missing key is ENOENT before fullness is looked at. */
	cr_expect_eq(hwxdp_hash__update(h, &k2, &v, BPF_ANY), 0);
	cr_expect_eq(hwxdp_hash__update(h, &k3, &v, BPF_ANY), -E2BIG);
	cr_expect_eq(hwxdp_hash__update(h, &k3, &v, BPF_NOEXIST), -E2BIG);
	cr_expect_eq(hwxdp_hash__update(h, &k3, &v, BPF_EXIST), -ENOENT);
	cr_expect_eq(hwxdp_hash__update(h, &k2, &v, BPF_EXIST), 0);
	cr_expect_eq(hwxdp_hash__update(h, &k2, &v, BPF_ANY), 0);
	cr_expect_eq(hwxdp_hash__count(h), 2);
	cr_expect_null(hwxdp_hash__lookup(h, &k3));

	cr_expect_eq(hwxdp_hash__delete(h, &k1), 0);
	cr_expect_eq(hwxdp_hash__delete(h, &k1), -ENOENT);
	cr_expect_eq(hwxdp_hash__update(h, &k3, &v, BPF_NOEXIST), 0);
	cr_expect_eq(hwxdp_hash__lookup_copy(h, &k3, &got), 0);
	cr_expect_eq(got, 12);
	cr_expect_eq(hwxdp_hash__count(h), 2);
	hwxdp_hash__free(h);
}

Test(semantics, batch_update_stops_at_the_first_error)
{
	uint32_t keys[10], values[10], count, i;
	void *found[10];
	struct hwxdp_hash *h = hwxdp_hash__new(4, 4, 8, 3);

	for (i = 0; i < 10; i++) {
		keys[i] = 100 + i;
		values[i] = 1000 + i;
	}
	keys[5] = keys[2]; /* a duplicate: NOEXIST fails there */
	count = 10;
	cr_expect_eq(hwxdp_hash__update_batch(h, keys, values, &count, BPF_NOEXIST), -EEXIST);
	cr_expect_eq(count, 5);
	cr_expect_eq(hwxdp_hash__count(h), 5);
	count = 10;
	cr_expect_eq(hwxdp_hash__update_batch(h, keys, values, &count, 3), -EINVAL);
	cr_expect_eq(count, 0);
	/* ANY: 5..9 go in except that the table holds 8, so key 9 is E2BIG. */
	count = 10;
	cr_expect_eq(hwxdp_hash__update_batch(h, keys, values, &count, BPF_ANY), -E2BIG);
	cr_expect_eq(count, 9);
	cr_expect_eq(hwxdp_hash__count(h), 8);

	cr_expect_eq(hwxdp_hash__lookup_batch(h, keys, 10, found), 9);
	for (i = 0; i < 10; i++) {
		cr_expect_eq(found[i], hwxdp_hash__lookup(h, &keys[i]), "key %u", i);
		if (found[i])
			cr_expect_eq(*(uint32_t *)found[i], i == 2 || i == 5 ? 1005 : 1000 + i);
	}
	hwxdp_hash__free(h);
}
