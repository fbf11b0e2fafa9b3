// SPDX-License-Identifier: GPL-2.0
/*
 * LRU hash tables evict instead of failing when full, as the kernel's do,
 * and evict what was not used: entries a program keeps looking up survive
 * a flood of new keys. A plain hash table still says E2BIG when full (a
 * full flow table punts, never drops).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "device/tables.h"
#include "hwmap/hash.h"
#include "tests/tables/util.h"

static uint64_t flow_key(uint64_t i)
{
	return i * 0x9e3779b97f4a7c15ull + 1;
}

/* The same inserts of new keys into a kernel map of the same type: the
 * return codes must agree. */
static void inserts(uint32_t type, uint32_t max, uint32_t keys, bool kernel)
{
	struct hxu_table_desc d = tt_desc(1, type, 8, 8, max, 0);
	struct hwxdp_tables *t = hwxdp_tables__new();
	uint32_t ok = 0;
	int fd = -1, kerr = 0, terr;

	cr_assert_eq(hwxdp_tables__create(t, &d), 0);
	if (kernel) {
		fd = bpf_map_create(type, "hx_lru", 8, 8, max, NULL);
		cr_assert_geq(fd, 0);
	}
	for (uint64_t i = 0; i < keys; i++) {
		uint64_t k = flow_key(i);

		terr = hwxdp_table__update(hwxdp_tables__get(t, 1), &k, &i, BPF_NOEXIST);
		if (kernel) {
			kerr = bpf_map_update_elem(fd, &k, &i, BPF_NOEXIST) ? -errno : 0;
			cr_assert_eq(terr, kerr, "insert %llu: device %d, kernel %d",
				     (unsigned long long)i, terr, kerr);
		}
		ok += !terr;
		if (type == BPF_MAP_TYPE_HASH)
			cr_assert_eq(terr, i < max ? 0 : -E2BIG, "insert %llu: %d",
				     (unsigned long long)i, terr);
		else
			cr_assert_eq(terr, 0, "insert %llu into a full LRU: %d",
				     (unsigned long long)i, terr);
	}
	cr_assert_eq(hwxdp_hash__count(hwxdp_tables__get(t, 1)->hash), max);
	cr_assert_eq(ok, type == BPF_MAP_TYPE_HASH ? max : keys, "%u inserts took", ok);
	if (type == BPF_MAP_TYPE_LRU_HASH) {
		struct hwxdp_hash_stats st;

		hwxdp_hash__stats(hwxdp_tables__get(t, 1)->hash, &st);
		cr_assert_eq(st.evictions, keys - max);
	}
	if (fd >= 0)
		close(fd);
	hwxdp_tables__free(t);
}

Test(lru, evicts_instead_of_failing)
{
	inserts(BPF_MAP_TYPE_LRU_HASH, 1000, 5000, false);
	inserts(BPF_MAP_TYPE_HASH, 1000, 5000, false);
}

Test(lru, inserts_against_the_kernel)
{
	tt_need_root();
	inserts(BPF_MAP_TYPE_LRU_HASH, 1000, 5000, true);
	inserts(BPF_MAP_TYPE_HASH, 1000, 5000, true);
}

/* Returns how many of keys [from, to) are still present. */
static uint32_t present(struct hwxdp_table *tab, uint64_t from, uint64_t to)
{
	uint32_t n = 0;

	for (uint64_t i = from; i < to; i++) {
		uint64_t k = flow_key(i), v;

		n += hwxdp_table__lookup(tab, &k, &v) == 0;
	}
	return n;
}

static void flood(bool touch, uint32_t *hot_left, uint32_t *cold_left)
{
	const uint32_t max = 8192, hot = 1024, fresh = 16384;
	struct hxu_table_desc d = tt_desc(1, BPF_MAP_TYPE_LRU_HASH, 8, 8, max, 0);
	struct hwxdp_tables *t = hwxdp_tables__new();
	struct hwxdp_table *tab;

	hwxdp_tables__set_seed(t, 5);
	cr_assert_eq(hwxdp_tables__create(t, &d), 0);
	tab = hwxdp_tables__get(t, 1);
	for (uint64_t i = 0; i < max; i++) {
		uint64_t k = flow_key(i);

		cr_assert_eq(hwxdp_table__update(tab, &k, &i, BPF_ANY), 0);
	}
	/* Keys 0..hot-1 are looked up (as by the engine) between new flows. */
	for (uint64_t i = max; i < max + fresh; i++) {
		uint64_t k = flow_key(i);

		cr_assert_eq(hwxdp_table__update(tab, &k, &i, BPF_ANY), 0);
		if (touch && i % 32 == 0) {
			for (uint64_t h = 0; h < hot; h++) {
				uint64_t hk = flow_key(h);

				hwxdp_table__value_addr_cpu(tab, &hk, 0);
			}
		}
	}
	*hot_left = present(tab, 0, hot);
	*cold_left = present(tab, hot, max);
	hwxdp_tables__free(t);
}

Test(lru, used_entries_survive_a_flood)
{
	uint32_t hot, cold, hot_idle, cold_idle;

	flood(true, &hot, &cold);
	flood(false, &hot_idle, &cold_idle);
	cr_log_info("LRU flood: %u of 1024 used entries and %u of 7168 idle ones left; "
		    "%u of 1024 when nothing is used",
		    hot, cold, hot_idle);
	cr_assert_geq(hot, 1024 * 95 / 100, "only %u of the used entries survived", hot);
	cr_assert_leq(cold, 7168 / 10, "%u idle entries survived", cold);
	cr_assert_leq(hot_idle, 1024 / 4, "without lookups they are not special: %u", hot_idle);
}
