// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's BPF_MAP_TYPE_HASH as the oracle: the same random operations
 * on a kernel map and on the table must give the same return codes, the same
 * values and the same set of keys. Needs root.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "hwmap/hash.h"
#include "tests/hwmap/keys.h"

/* Marks in present[] the pool keys a dump returns; the count of them. */
static uint32_t kernel_keys(int fd, const struct key_pool *pool, uint8_t *present)
{
	uint8_t prev[HWXDP_HASH_KEY_MAX], next[HWXDP_HASH_KEY_MAX];
	uint32_t n = 0;
	int64_t at;

	memset(present, 0, pool->n);
	for (int err = bpf_map_get_next_key(fd, NULL, next); !err;
	     err = bpf_map_get_next_key(fd, prev, next)) {
		at = key_pool_find(pool, next);
		cr_assert(at >= 0);
		present[at] = 1;
		n++;
		memcpy(prev, next, pool->key_size);
	}
	return n;
}

static uint32_t table_keys(const struct hwxdp_hash *h, const struct key_pool *pool,
			   uint8_t *present)
{
	uint8_t prev[HWXDP_HASH_KEY_MAX], next[HWXDP_HASH_KEY_MAX];
	uint32_t n = 0;
	int64_t at;

	memset(present, 0, pool->n);
	for (int err = hwxdp_hash__get_next_key(h, NULL, next); !err;
	     err = hwxdp_hash__get_next_key(h, prev, next)) {
		at = key_pool_find(pool, next);
		cr_assert(at >= 0);
		present[at] = 1;
		n++;
		memcpy(prev, next, pool->key_size);
	}
	return n;
}

static void differential(uint32_t key_size, uint32_t value_size, uint32_t max_entries,
			 uint32_t pool_n, uint32_t ops, uint64_t seed)
{
	static const uint64_t flag_choice[] = { BPF_ANY,     BPF_NOEXIST, BPF_EXIST, BPF_ANY,
						BPF_NOEXIST, BPF_EXIST,	  3,	     BPF_F_LOCK };
	uint8_t value[HWXDP_HASH_VALUE_MAX], kv[HWXDP_HASH_VALUE_MAX], tv[HWXDP_HASH_VALUE_MAX];
	uint8_t *in_kernel, *in_table;
	struct key_pool pool;
	struct hwxdp_hash *h;
	uint64_t rng = seed, flags;
	uint32_t op, i, j, roll;
	int fd, kerr, terr;

	if (geteuid() != 0)
		cr_skip_test("needs root to create a kernel BPF map");
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "hx_diff", key_size, value_size, max_entries, NULL);
	cr_assert_geq(fd, 0, "bpf_map_create: %d", fd);
	h = hwxdp_hash__new(key_size, value_size, max_entries, seed);
	cr_assert_eq(key_pool_make(&pool, KEYS_RANDOM, key_size, pool_n, seed), 0);
	in_kernel = malloc(pool_n);
	in_table = malloc(pool_n);

	for (op = 0; op < ops; op++) {
		i = rng_below(&rng, pool_n);
		roll = rng_below(&rng, 100);
		/* Alternate phases that overfill and that drain the table. */
		if (roll < ((op / 5000) % 2 ? 25u : 60u)) {
			flags = flag_choice[rng_below(&rng, 8)];
			for (j = 0; j < value_size; j++)
				value[j] = (uint8_t)rng_next(&rng);
			kerr = bpf_map_update_elem(fd, key_at(&pool, i), value, flags);
			terr = hwxdp_hash__update(h, key_at(&pool, i), value, flags);
			cr_assert_eq(terr, kerr, "op %u: update flags %llu: table %d, kernel %d",
				     op, (unsigned long long)flags, terr, kerr);
		} else if (roll < 75) {
			kerr = bpf_map_delete_elem(fd, key_at(&pool, i));
			terr = hwxdp_hash__delete(h, key_at(&pool, i));
			cr_assert_eq(terr, kerr, "op %u: delete: table %d, kernel %d", op, terr,
				     kerr);
		} else {
			kerr = bpf_map_lookup_elem(fd, key_at(&pool, i), kv);
			terr = hwxdp_hash__lookup_copy(h, key_at(&pool, i), tv);
			cr_assert_eq(terr, kerr, "op %u: lookup: table %d, kernel %d", op, terr,
				     kerr);
			if (!kerr)
				cr_assert_arr_eq(tv, kv, value_size, "op %u: values differ", op);
		}
		if (op % 10000 == 9999 || op == ops - 1) {
			uint32_t kn = kernel_keys(fd, &pool, in_kernel);

			cr_assert_eq(table_keys(h, &pool, in_table), kn);
			cr_assert_eq(hwxdp_hash__count(h), kn);
			cr_assert_arr_eq(in_table, in_kernel, pool_n, "op %u: key sets differ", op);
		}
	}
	free(in_kernel);
	free(in_table);
	key_pool_free(&pool);
	hwxdp_hash__free(h);
	close(fd);
}

Test(kernel, same_results_as_a_kernel_hash_map_for_flow_entries)
{
	differential(44, 32, 300, 450, 100000, 0xbeef01);
}

Test(kernel, same_results_as_a_kernel_hash_map_for_odd_sizes)
{
	differential(3, 5, 64, 100, 50000, 0xbeef02);
	differential(64, 256, 1000, 1500, 50000, 0xbeef03);
}
