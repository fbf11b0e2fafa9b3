// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "hwxdp/fwd.h"
#include "tests/hwmap/keys.h"

static int compare_keys(const void *a, const void *b, void *size)
{
	return memcmp(a, b, *(const uint32_t *)size);
}

static void sort_keys(struct key_pool *pool)
{
	qsort_r(pool->keys, pool->n, pool->key_size, compare_keys, &pool->key_size);
}

/* Sorts, then moves duplicates to the end; returns how many are distinct. */
static uint32_t sort_unique(struct key_pool *pool)
{
	uint32_t i, kept = 0, ks = pool->key_size;
	uint8_t *dup, *k = pool->keys;
	uint32_t dups = 0;

	sort_keys(pool);
	dup = malloc((size_t)pool->n * ks);
	for (i = 0; i < pool->n; i++) {
		if (kept && !memcmp(k + (size_t)(kept - 1) * ks, k + (size_t)i * ks, ks))
			memcpy(dup + (size_t)dups++ * ks, k + (size_t)i * ks, ks);
		else
			memmove(k + (size_t)kept++ * ks, k + (size_t)i * ks, ks);
	}
	memcpy(k + (size_t)kept * ks, dup, (size_t)dups * ks);
	free(dup);
	return kept;
}

static void put_be(uint8_t *p, uint32_t bytes, uint64_t v)
{
	while (bytes--) {
		p[bytes] = (uint8_t)v;
		v >>= 8;
	}
}

static void random_flow(struct hwxdp_flow_key *k, uint64_t *rng)
{
	static const uint16_t server_ports[] = { 443, 80, 53, 8080, 22, 123, 3478, 5060 };
	uint64_t r = rng_next(rng), s = rng_next(rng);

	memset(k, 0, sizeof(*k));
	k->lif = HWXDP_LIF(1 + (r & 3), (r >> 2) & 1 ? 50 + ((r >> 3) & 7) : 0);
	k->family = HWXDP_FAMILY_IPV4;
	k->proto = (r >> 6) & 7 ? 6 : 17;
	put_be((uint8_t *)&k->sport_be, 2, 32768 + ((r >> 9) & 0x7fff));
	put_be((uint8_t *)&k->dport_be, 2, server_ports[(r >> 24) % 8]);
	/* Clients in 10.0.0.0/12, servers in a few thousand public addresses. */
	put_be(k->src, 4, 0x0a000000u | (uint32_t)(s & 0xfffff));
	put_be(k->dst, 4, 0xc6120000u + (uint32_t)((s >> 20) % 4096));
}

static void fill_one(struct key_pool *pool, enum key_family family, uint32_t i, uint64_t *rng)
{
	uint8_t *k = pool->keys + (size_t)i * pool->key_size;
	uint32_t ks = pool->key_size, j;
	struct hwxdp_flow_key *f = (struct hwxdp_flow_key *)k;
	uint64_t r;

	memset(k, 0, ks);
	switch (family) {
	case KEYS_RANDOM:
		for (j = 0; j < ks; j += 8) {
			r = rng_next(rng);
			memcpy(k + j, &r, ks - j < 8 ? ks - j : 8);
		}
		break;
	case KEYS_COUNTER:
		r = i;
		memcpy(k, &r, ks < 8 ? ks : 8);
		break;
	case KEYS_COUNTER_BE:
		put_be(k + (ks > 8 ? ks - 8 : 0), ks < 8 ? ks : 8, i);
		break;
	case KEYS_FLOW_V4:
		random_flow(f, rng);
		break;
	case KEYS_FLOW_GRID:
		f->lif = HWXDP_LIF(1, 0);
		f->family = HWXDP_FAMILY_IPV4;
		f->proto = 6;
		put_be((uint8_t *)&f->sport_be, 2, 1024 + i % 60000);
		put_be((uint8_t *)&f->dport_be, 2, 80);
		put_be(f->src, 4, 0x0a000001u);
		put_be(f->dst, 4, 0xc0a80000u + i / 60000);
		break;
	case KEYS_SPARSE_BITS: {
		/* i-th key with one, then two, then three bits of ks*8 set. */
		uint64_t bits = (uint64_t)ks * 8, idx = i, a, b, c;

		if (idx < bits) {
			k[idx / 8] |= 1u << (idx % 8);
			break;
		}
		idx -= bits;
		for (a = 1; a < bits && idx >= a; a++)
			idx -= a;
		if (a < bits) {
			b = idx;
			k[a / 8] |= 1u << (a % 8);
			k[b / 8] |= 1u << (b % 8);
			break;
		}
		for (a = 2; idx >= a * (a - 1) / 2; a++)
			idx -= a * (a - 1) / 2;
		for (b = 1; idx >= b; b++)
			idx -= b;
		c = idx;
		k[a / 8] |= 1u << (a % 8);
		k[b / 8] |= 1u << (b % 8);
		k[c / 8] |= 1u << (c % 8);
		break;
	}
	}
}

int key_pool_make(struct key_pool *pool, enum key_family family, uint32_t key_size, uint32_t n,
		  uint64_t seed)
{
	uint32_t distinct, i, rounds;

	if ((family == KEYS_FLOW_V4 || family == KEYS_FLOW_GRID) &&
	    key_size != sizeof(struct hwxdp_flow_key))
		return -1;
	if ((family == KEYS_COUNTER || family == KEYS_COUNTER_BE) && key_size < 8 &&
	    (uint64_t)n > 1ull << (8 * key_size))
		return -1;
	if (family == KEYS_SPARSE_BITS) {
		uint64_t bits = (uint64_t)key_size * 8;

		if (n > bits + bits * (bits - 1) / 2 + bits * (bits - 1) * (bits - 2) / 6)
			return -1;
	}
	pool->key_size = key_size;
	pool->n = n;
	pool->keys = calloc(n ? n : 1, key_size);
	if (!pool->keys)
		return -1;
	for (i = 0; i < n; i++)
		fill_one(pool, family, i, &seed);
	/* Random families draw again for the duplicates they produced. */
	for (rounds = 0; rounds < 64; rounds++) {
		distinct = sort_unique(pool);
		if (distinct == n)
			return 0;
		if (family != KEYS_RANDOM && family != KEYS_FLOW_V4)
			break;
		for (i = distinct; i < n; i++)
			fill_one(pool, family, i, &seed);
	}
	key_pool_free(pool);
	return -1;
}

void key_pool_free(struct key_pool *pool)
{
	free(pool->keys);
	pool->keys = NULL;
	pool->n = 0;
}

int64_t key_pool_find(const struct key_pool *pool, const void *key)
{
	uint32_t lo = 0, hi = pool->n;
	int c;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		c = memcmp(key, key_at(pool, mid), pool->key_size);
		if (!c)
			return mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

uint32_t *key_order(uint32_t n, uint64_t seed)
{
	uint32_t *order = malloc((size_t)(n ? n : 1) * sizeof(*order)), i, j, t;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n; i > 1; i--) {
		j = rng_below(&seed, i);
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	return order;
}
