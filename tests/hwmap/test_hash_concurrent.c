// SPDX-License-Identifier: GPL-2.0
/*
 * One writer and two reader threads, as the control plane and the device's
 * engines: readers must never see a torn value, a value under the wrong key,
 * a value older than one they saw before, or miss a key that is present the
 * whole time, while the writer rewrites values in place and inserts and
 * deletes around a full table so that entries keep moving between buckets.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "hwmap/hash.h"
#include "tests/hwmap/keys.h"

#define IDS	    1200u /* key space */
#define STABLE	    256u  /* ids 0..STABLE-1 are present throughout */
#define HOT	    64u	  /* stable ids the writer and readers favour */
#define MAX_ENTRIES 512u
#define WRITER_OPS  3000000u
#define READERS	    2

struct flow_key {
	uint64_t id;
	uint64_t salt;
};

/* Every word after gen is a function of (id, gen, word): a value torn
 * between two writes, or another key's value, does not check. */
struct flow_value {
	uint64_t id;
	uint64_t gen;
	uint64_t check[6];
};

struct shared {
	struct hwxdp_hash *h;
	int done;
};

struct reader_result {
	uint64_t reads, found, torn, wrong_key, stale, stable_missed;
};

static struct flow_key key_of(uint64_t id)
{
	return (struct flow_key){ .id = id, .salt = id * 0xd6e8feb86659fd93ull };
}

static uint64_t check_word(uint64_t id, uint64_t gen, uint32_t word)
{
	uint64_t state = id * 0x9e3779b97f4a7c15ull ^ gen ^ ((uint64_t)word << 56);

	return rng_next(&state);
}

static struct flow_value value_of(uint64_t id, uint64_t gen)
{
	struct flow_value v = { .id = id, .gen = gen };
	uint32_t w;

	for (w = 0; w < 6; w++)
		v.check[w] = check_word(id, gen, w);
	return v;
}

static void *reader(void *arg)
{
	struct shared *sh = arg;
	struct reader_result *res = calloc(1, sizeof(*res));
	uint64_t rng = (uintptr_t)res, last_gen[STABLE] = { 0 }, id;
	struct flow_value v;
	struct flow_key k;
	uint32_t w;
	int err;

	while (!__atomic_load_n(&sh->done, __ATOMIC_ACQUIRE)) {
		id = rng_below(&rng, 4) ? rng_below(&rng, HOT) : rng_below(&rng, IDS);
		k = key_of(id);
		err = hwxdp_hash__lookup_copy(sh->h, &k, &v);
		res->reads++;
		if (err) {
			res->stable_missed += id < STABLE;
			continue;
		}
		res->found++;
		if (v.id != id) {
			res->wrong_key++;
			continue;
		}
		for (w = 0; w < 6; w++)
			if (v.check[w] != check_word(id, v.gen, w))
				break;
		if (w < 6) {
			res->torn++;
			continue;
		}
		if (id < STABLE) {
			if (v.gen < last_gen[id])
				res->stale++;
			last_gen[id] = v.gen;
			/* The pointer path must find present keys too. */
			if (!hwxdp_hash__lookup(sh->h, &k))
				res->stable_missed++;
		}
	}
	return res;
}

Test(concurrent, readers_never_see_torn_wrong_stale_or_missing_values)
{
	struct shared sh = { 0 };
	struct reader_result total = { 0 }, *res;
	struct hwxdp_hash_stats stats;
	pthread_t threads[READERS];
	static uint8_t present[IDS];
	uint64_t rng = 42, gen = 1, id;
	struct flow_value v;
	struct flow_key k;
	uint32_t op, i;
	int err;

	sh.h = hwxdp_hash__new(sizeof(k), sizeof(v), MAX_ENTRIES, 7);
	cr_assert_not_null(sh.h);
	memset(present, 0, sizeof(present));
	for (id = 0; id < MAX_ENTRIES; id++) {
		k = key_of(id);
		v = value_of(id, gen++);
		cr_assert_eq(hwxdp_hash__update(sh.h, &k, &v, BPF_NOEXIST), 0);
		present[id] = 1;
	}
	for (i = 0; i < READERS; i++)
		cr_assert_eq(pthread_create(&threads[i], NULL, reader, &sh), 0);

	for (op = 0; op < WRITER_OPS; op++) {
		/* A quarter rewrites hot values; the rest churns a full table. */
		id = rng_below(&rng, 4) ? STABLE + rng_below(&rng, IDS - STABLE)
					: rng_below(&rng, HOT);
		k = key_of(id);
		v = value_of(id, gen++);
		if (id < STABLE || (present[id] && rng_below(&rng, 2))) {
			err = hwxdp_hash__update(sh.h, &k, &v,
						 present[id] ? BPF_EXIST : BPF_NOEXIST);
			cr_assert_eq(err, 0, "op %u: update %llu: %d", op, (unsigned long long)id,
				     err);
		} else if (present[id]) {
			cr_assert_eq(hwxdp_hash__delete(sh.h, &k), 0);
			present[id] = 0;
		} else {
			/* A full table refuses; that is how it stays full. */
			err = hwxdp_hash__update(sh.h, &k, &v, BPF_NOEXIST);
			cr_assert(err == 0 ||
					  (err == -E2BIG && hwxdp_hash__count(sh.h) == MAX_ENTRIES),
				  "op %u: insert: %d at %u entries", op, err,
				  hwxdp_hash__count(sh.h));
			present[id] = !err;
		}
	}
	__atomic_store_n(&sh.done, 1, __ATOMIC_RELEASE);

	for (i = 0; i < READERS; i++) {
		cr_assert_eq(pthread_join(threads[i], (void **)&res), 0);
		total.reads += res->reads;
		total.found += res->found;
		total.torn += res->torn;
		total.wrong_key += res->wrong_key;
		total.stale += res->stale;
		total.stable_missed += res->stable_missed;
		free(res);
	}
	hwxdp_hash__stats(sh.h, &stats);
	cr_log_info("%llu reads (%llu found) during %u writes, %llu moves",
		    (unsigned long long)total.reads, (unsigned long long)total.found, WRITER_OPS,
		    (unsigned long long)stats.displacements);
	cr_expect_eq(total.torn, 0, "%llu torn values", (unsigned long long)total.torn);
	cr_expect_eq(total.wrong_key, 0, "%llu values of another key",
		     (unsigned long long)total.wrong_key);
	cr_expect_eq(total.stale, 0, "%llu values older than one seen before",
		     (unsigned long long)total.stale);
	cr_expect_eq(total.stable_missed, 0, "%llu misses of present keys",
		     (unsigned long long)total.stable_missed);
	/* The test only means something if the readers overlapped with moves. */
	cr_expect_gt(stats.displacements, 1000, "%llu moves",
		     (unsigned long long)stats.displacements);
	cr_expect_gt(total.reads, 100000, "%llu reads", (unsigned long long)total.reads);
	hwxdp_hash__free(sh.h);
}
