/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keys for the hash table tests: a seeded generator, pools of distinct keys
 * kept sorted so that a key found by the table maps back to its index, and
 * the structured key families the fill tests use.
 */
#ifndef HWXDP_TESTS_HWMAP_KEYS_H
#define HWXDP_TESTS_HWMAP_KEYS_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint32_t rng_below(uint64_t *state, uint32_t bound)
{
	return (uint32_t)(((rng_next(state) >> 32) * bound) >> 32);
}

/* n distinct keys of key_size bytes, sorted by memcmp. */
struct key_pool {
	uint32_t key_size;
	uint32_t n;
	uint8_t *keys;
};

enum key_family {
	KEYS_RANDOM,	  /* random bytes */
	KEYS_COUNTER,	  /* little-endian index, rest zero */
	KEYS_COUNTER_BE,  /* big-endian index in the last bytes, rest zero */
	KEYS_FLOW_V4,	  /* struct hwxdp_flow_key: IPv4 5-tuples from random traffic */
	KEYS_FLOW_GRID,	  /* struct hwxdp_flow_key: one client, sequential ports and servers */
	KEYS_SPARSE_BITS, /* one or two bits set, then three, in index order */
};

/* Fills pool with n distinct keys of a family; 0 or -1 (family cannot make
 * n distinct keys of that size). */
int key_pool_make(struct key_pool *pool, enum key_family family, uint32_t key_size, uint32_t n,
		  uint64_t seed);
void key_pool_free(struct key_pool *pool);

static inline const void *key_at(const struct key_pool *pool, uint32_t i)
{
	return pool->keys + (size_t)i * pool->key_size;
}

/* Index of key in pool, or -1. */
int64_t key_pool_find(const struct key_pool *pool, const void *key);

/* Shuffles the order in which a test walks indexes 0..n-1. */
uint32_t *key_order(uint32_t n, uint64_t seed);

#endif /* HWXDP_TESTS_HWMAP_KEYS_H */
