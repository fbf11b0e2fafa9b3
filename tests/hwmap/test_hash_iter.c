// SPDX-License-Identifier: GPL-2.0
/*
 * get_next_key as bpftool map dump uses it: every entry exactly once, after
 * deletes too, from the start when the key it is given is gone, and through
 * the stash.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "hwmap/hash.h"
#include "base/log.h"
#include "tests/hwmap/keys.h"

/* Walks the table from the start; counts how often each pool key came up. */
static uint32_t dump(const struct hwxdp_hash *h, const struct key_pool *pool, uint32_t *seen)
{
	uint8_t prev[HWXDP_HASH_KEY_MAX], next[HWXDP_HASH_KEY_MAX];
	uint32_t visited = 0;
	int64_t at;
	int err;

	memset(seen, 0, pool->n * sizeof(*seen));
	for (err = hwxdp_hash__get_next_key(h, NULL, next); !err;
	     err = hwxdp_hash__get_next_key(h, prev, next)) {
		at = key_pool_find(pool, next);
		cr_assert(at >= 0, "dump returned a key that was never inserted");
		seen[at]++;
		cr_assert(++visited <= pool->n, "dump does not end");
		memcpy(prev, next, pool->key_size);
	}
	cr_assert_eq(err, -ENOENT);
	return visited;
}

static struct hwxdp_hash *filled(const struct key_pool *pool, uint32_t max_entries, uint64_t seed)
{
	struct hwxdp_hash *h = hwxdp_hash__new(pool->key_size, 8, max_entries, seed);
	uint64_t v;
	uint32_t i;

	cr_assert_not_null(h);
	for (i = 0; i < pool->n; i++) {
		v = i;
		cr_assert_eq(hwxdp_hash__update(h, key_at(pool, i), &v, BPF_NOEXIST), 0);
	}
	return h;
}

Test(iter, dump_visits_each_key_once_also_after_deletes)
{
	struct key_pool pool;
	struct hwxdp_hash *h;
	uint32_t *seen, *order, i, left;
	uint64_t seed;

	for (seed = 1; seed <= 4; seed++) {
		cr_assert_eq(key_pool_make(&pool, KEYS_RANDOM, 20, 10000, seed), 0);
		seen = calloc(pool.n, sizeof(*seen));
		/* Full to max_entries, then roomy. */
		h = filled(&pool, seed % 2 ? pool.n : 3 * pool.n, seed);
		cr_assert_eq(dump(h, &pool, seen), pool.n);
		for (i = 0; i < pool.n; i++)
			cr_assert_eq(seen[i], 1, "key %u seen %u times", i, seen[i]);

		order = key_order(pool.n, seed);
		for (left = pool.n; left > 0; left = left * 2 / 3) {
			for (i = left * 2 / 3; i < left; i++)
				cr_assert_eq(hwxdp_hash__delete(h, key_at(&pool, order[i])), 0);
			cr_assert_eq(dump(h, &pool, seen), left * 2 / 3);
			for (i = 0; i < pool.n; i++)
				cr_assert_eq(seen[i],
					     hwxdp_hash__lookup(h, key_at(&pool, i)) ? 1u : 0u,
					     "after deletes to %u: key %u seen %u times",
					     left * 2 / 3, i, seen[i]);
		}
		cr_assert_eq(hwxdp_hash__count(h), 0);
		hwxdp_hash__free(h);
		free(order);
		free(seen);
		key_pool_free(&pool);
	}
}

Test(iter, missing_key_restarts_from_the_first)
{
	struct key_pool pool;
	struct hwxdp_hash *h;
	uint8_t first[16], next[16];
	uint32_t i;

	cr_assert_eq(key_pool_make(&pool, KEYS_RANDOM, 16, 101, 9), 0);
	pool.n = 100; /* key 100 is never inserted */
	h = filled(&pool, 100, 9);
	cr_assert_eq(hwxdp_hash__get_next_key(h, NULL, first), 0);
	cr_assert_eq(hwxdp_hash__get_next_key(h, key_at(&pool, 100), next), 0);
	cr_assert_arr_eq(next, first, 16);
	/* Deleting the key a dump stands on restarts it, as in the kernel. */
	cr_assert_eq(hwxdp_hash__get_next_key(h, first, next), 0);
	cr_assert_eq(hwxdp_hash__delete(h, first), 0);
	cr_assert_eq(hwxdp_hash__get_next_key(h, first, first), 0);
	cr_assert_arr_eq(first, next, 16, "after deleting the first key, the second is first");
	for (i = 0; i < 100; i++)
		hwxdp_hash__delete(h, key_at(&pool, i));
	cr_assert_eq(hwxdp_hash__get_next_key(h, NULL, next), -ENOENT);
	cr_assert_eq(hwxdp_hash__get_next_key(h, key_at(&pool, 3), next), -ENOENT);
	pool.n = 101;
	hwxdp_hash__free(h);
	key_pool_free(&pool);
}

Test(iter, delete_while_dumping_empties_the_table)
{
	uint8_t key[24], next[24];
	struct key_pool pool;
	struct hwxdp_hash *h;
	uint32_t *seen, steps = 0;
	int64_t at;
	int err;

	cr_assert_eq(key_pool_make(&pool, KEYS_RANDOM, 24, 5000, 11), 0);
	seen = calloc(pool.n, sizeof(*seen));
	h = filled(&pool, pool.n, 11);
	/* Fetch the next key, then delete the current one: each key once. */
	cr_assert_eq(hwxdp_hash__get_next_key(h, NULL, key), 0);
	do {
		err = hwxdp_hash__get_next_key(h, key, next);
		at = key_pool_find(&pool, key);
		cr_assert(at >= 0);
		cr_assert_eq(seen[at]++, 0, "key %ld twice", (long)at);
		cr_assert_eq(hwxdp_hash__delete(h, key), 0);
		memcpy(key, next, sizeof(key));
		steps++;
	} while (!err);
	cr_assert_eq(steps, pool.n);
	cr_assert_eq(hwxdp_hash__count(h), 0);
	hwxdp_hash__free(h);
	free(seen);
	key_pool_free(&pool);
}

/*
 * Without displacement a nearly full table sends keys to the stash; the
 * stash must behave as buckets do: found, updated, dumped once, deleted,
 * and drained back into buckets when they get room.
 */
Test(iter, stash_entries_behave_as_bucket_entries)
{
	hwxdp_print_fn_t old_print = hwxdp_set_print(NULL);
	struct hwxdp_hash_stats stats;
	struct key_pool pool;
	struct hwxdp_hash *h;
	uint32_t *seen, inserted = 0, i, used = 0, stashed_key = 0;
	uint8_t *stashed, *kept;
	uint64_t v;
	int err;

	cr_assert_eq(key_pool_make(&pool, KEYS_RANDOM, 12, 12000, 5), 0);
	seen = calloc(pool.n, sizeof(*seen));
	stashed = calloc(pool.n, 1);
	kept = calloc(pool.n, 1);
	h = hwxdp_hash__new(12, 8, 10000, 5);
	hwxdp_hash__set_search_budget(h, 0);
	for (i = 0; i < pool.n; i++) {
		v = i;
		err = hwxdp_hash__update(h, key_at(&pool, i), &v, BPF_NOEXIST);
		cr_assert(err == 0 || err == -E2BIG);
		if (err) {
			pool.n = i; /* the keys a dump may return */
			break;
		}
		/* With displacement off, a new key goes to the stash or a bucket
		 * and stays there: the stash's fill level says which. */
		hwxdp_hash__stats(h, &stats);
		stashed[i] = stats.stash_used > used;
		used = stats.stash_used;
		if (stashed[i] && !stashed_key)
			stashed_key = i;
		kept[i] = 1;
		inserted++;
	}
	hwxdp_set_print(old_print);
	hwxdp_hash__stats(h, &stats);
	cr_assert_lt(inserted, 10000, "without displacement the table should refuse early");
	cr_assert_eq(stats.stash_used, stats.stash_slots, "a refused insert means a full stash");
	cr_assert_gt(stashed_key, 0);
	cr_assert_eq(hwxdp_hash__count(h), inserted);

	cr_assert_eq(dump(h, &pool, seen), inserted);
	for (i = 0; i < inserted; i++) {
		cr_assert_eq(seen[i], 1, "key %u seen %u times", i, seen[i]);
		cr_assert_eq(*(uint64_t *)hwxdp_hash__lookup(h, key_at(&pool, i)), i);
	}
	v = 777;
	cr_assert_eq(hwxdp_hash__update(h, key_at(&pool, stashed_key), &v, BPF_EXIST), 0);
	cr_assert_eq(hwxdp_hash__lookup_copy(h, key_at(&pool, stashed_key), &v), 0);
	cr_assert_eq(v, 777);
	cr_assert_eq(hwxdp_hash__delete(h, key_at(&pool, stashed_key)), 0);
	cr_assert_null(hwxdp_hash__lookup(h, key_at(&pool, stashed_key)));
	kept[stashed_key] = 0;
	hwxdp_hash__stats(h, &stats);
	cr_assert_eq(stats.stash_used, stats.stash_slots - 1);

	/* Deleting bucket entries makes room: the stash empties into buckets. */
	for (i = 0; i < inserted; i++) {
		if (!stashed[i] && i % 2) {
			cr_assert_eq(hwxdp_hash__delete(h, key_at(&pool, i)), 0);
			kept[i] = 0;
		}
	}
	hwxdp_hash__stats(h, &stats);
	cr_assert_eq(stats.stash_used, 0, "%u entries left in the stash", stats.stash_used);
	cr_assert_eq(dump(h, &pool, seen), hwxdp_hash__count(h));
	for (i = 0; i < inserted; i++) {
		cr_assert_eq(seen[i], kept[i], "key %u seen %u times", i, seen[i]);
		if (kept[i])
			cr_assert_eq(*(uint64_t *)hwxdp_hash__lookup(h, key_at(&pool, i)), i);
	}
	pool.n = 12000;
	hwxdp_hash__free(h);
	free(seen);
	free(stashed);
	free(kept);
	key_pool_free(&pool);
}
