// SPDX-License-Identifier: GPL-2.0
/*
 * Per-engine tables. The control plane's view is the kernel's per-CPU ABI
 * (a value buffer of round_up(value_size, 8) per engine), checked against
 * the kernel's own per-CPU maps with as many engines as the machine has
 * possible CPUs; an engine's lookups and updates reach its own copy.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "device/tables.h"
#include "tests/tables/util.h"

#define KEYS 40

struct pc_run {
	uint32_t type, key_size, value_size, max_entries, ops;
	uint64_t seed;
};

static void make_key(const struct pc_run *r, uint32_t k, uint8_t *key)
{
	memset(key, 0, r->key_size);
	memcpy(key, &k, 4);
	if (r->key_size > 4)
		key[r->key_size - 1] = (uint8_t)(k * 7 + 1);
}

/* Marks the keys a dump returns; their count. */
static uint32_t dump_kernel(int fd, const struct pc_run *r, uint8_t *seen)
{
	uint8_t prev[8], next[8];
	uint32_t n = 0, k;

	memset(seen, 0, KEYS);
	for (int err = bpf_map_get_next_key(fd, NULL, next); !err;
	     err = bpf_map_get_next_key(fd, prev, next)) {
		memcpy(&k, next, 4);
		if (k < KEYS)
			seen[k] = 1;
		n++;
		memcpy(prev, next, r->key_size);
	}
	return n;
}

static uint32_t dump_table(struct hwxdp_table *tab, const struct pc_run *r, uint8_t *seen)
{
	uint8_t prev[8], next[8];
	uint32_t n = 0, k;

	memset(seen, 0, KEYS);
	for (int err = hwxdp_table__get_next_key(tab, NULL, next); !err;
	     err = hwxdp_table__get_next_key(tab, prev, next)) {
		memcpy(&k, next, 4);
		if (k < KEYS)
			seen[k] = 1;
		n++;
		memcpy(prev, next, r->key_size);
	}
	return n;
}

static void percpu_differential(const struct pc_run *r)
{
	static const uint64_t flag_choice[] = { BPF_ANY, BPF_ANY,   BPF_NOEXIST, BPF_EXIST,
						3,	 BPF_F_LOCK, BPF_EXIST,	  BPF_ANY };
	struct hxu_table_desc d =
		tt_desc(1, r->type, r->key_size, r->value_size, r->max_entries, 0);
	struct hwxdp_tables *t = hwxdp_tables__new();
	uint8_t key[8], kseen[KEYS], tseen[KEYS], *value, *kv, *tv;
	uint32_t ncpus, buf, op, roll, kn, tn, hits = 0;
	uint64_t rng = r->seed;
	struct hwxdp_table *tab;
	int fd, kerr, terr, n;

	tt_need_root();
	n = libbpf_num_possible_cpus();
	cr_assert_gt(n, 0);
	ncpus = (uint32_t)n;
	cr_assert_eq(hwxdp_tables__set_engines(t, ncpus), 0);
	cr_assert_eq(hwxdp_tables__create(t, &d), 0);
	tab = hwxdp_tables__get(t, 1);
	buf = hwxdp_table__value_buf_size(tab);
	cr_assert_eq(buf, ncpus * ((r->value_size + 7) / 8 * 8), "value buffer of %u bytes", buf);
	fd = bpf_map_create(r->type, "hx_percpu", r->key_size, r->value_size, r->max_entries,
			    NULL);
	cr_assert_geq(fd, 0, "bpf_map_create: %d", fd);
	value = malloc(buf);
	kv = malloc(buf);
	tv = malloc(buf);

	for (op = 0; op < r->ops; op++) {
		uint32_t k = rng_below(&rng, r->type == BPF_MAP_TYPE_PERCPU_ARRAY ? r->max_entries + 3
										 : KEYS);

		make_key(r, k, key);
		roll = rng_below(&rng, 10);
		if (roll < 4) {
			uint64_t flags = flag_choice[rng_below(&rng, 8)];

			/* Padding bytes too: the kernel copies whole 8-byte words. */
			for (uint32_t b = 0; b < buf; b++)
				value[b] = (uint8_t)rng_next(&rng);
			kerr = bpf_map_update_elem(fd, key, value, flags) ? -errno : 0;
			terr = hwxdp_table__update(tab, key, value, flags);
			cr_assert_eq(terr, kerr, "op %u: update flags %llu: device %d, kernel %d", op,
				     (unsigned long long)flags, terr, kerr);
		} else if (roll < 6) {
			kerr = bpf_map_delete_elem(fd, key) ? -errno : 0;
			terr = hwxdp_table__delete(tab, key);
			cr_assert_eq(terr, kerr, "op %u: delete: device %d, kernel %d", op, terr,
				     kerr);
		} else {
			memset(kv, 0xee, buf);
			memset(tv, 0xee, buf);
			kerr = bpf_map_lookup_elem(fd, key, kv) ? -errno : 0;
			terr = hwxdp_table__lookup(tab, key, tv);
			cr_assert_eq(terr, kerr, "op %u: lookup: device %d, kernel %d", op, terr,
				     kerr);
			cr_assert_arr_eq(tv, kv, buf, "op %u: the per-CPU buffers differ", op);
			hits += !kerr;
		}
		if (op % 500 == 0 || op == r->ops - 1) {
			kn = dump_kernel(fd, r, kseen);
			tn = dump_table(tab, r, tseen);
			cr_assert_eq(tn, kn, "op %u: %u keys, the kernel %u", op, tn, kn);
			cr_assert_arr_eq(tseen, kseen, KEYS, "op %u: the key sets differ", op);
		}
	}
	cr_assert_gt(hits, r->ops / 20);
	cr_log_info("type %u: %u ops on %u copies, %u lookup hits", r->type, r->ops, ncpus, hits);
	free(value);
	free(kv);
	free(tv);
	close(fd);
	hwxdp_tables__free(t);
}

Test(percpu, array_abi_against_the_kernel)
{
	struct pc_run r = { BPF_MAP_TYPE_PERCPU_ARRAY, 4, 12, 16, 20000, 11 };

	percpu_differential(&r);
}

Test(percpu, hash_abi_against_the_kernel)
{
	struct pc_run r = { BPF_MAP_TYPE_PERCPU_HASH, 8, 12, 24, 20000, 12 };

	percpu_differential(&r);
}

Test(percpu, lru_hash_abi_against_the_kernel)
{
	/* Room for every key: an LRU that never has to evict is comparable. */
	struct pc_run r = { BPF_MAP_TYPE_LRU_PERCPU_HASH, 8, 4, 1024, 20000, 13 };

	percpu_differential(&r);
}

/* Engine n's lookup reaches copy n: each engine adds n + 1 to key 0's
 * counter; the control plane sees one copy per engine, in engine order. */
static void engines_own_copies(uint32_t type, uint32_t key_size)
{
	static const char *text = "st32.lm [r10 - 8], 0 ;;\n"
				  "st32.lm [r10 - 4], 0 ;;\n"
				  "add r1, r10, -8 ;;\n"
				  "tlookup.lm r2, 1, r1 ;;\n"
				  "beq r2, 0, miss ;;\n"
				  "cpu r3 ;;\n"
				  "add r3, r3, 1 ;;\n"
				  "atomicadd64.tm [r2], r3 ;;\n"
				  "ld64.tm r0, [r2] ;;\n"
				  "exit ;;\n"
				  "miss: mov r0, 99 ;;\n"
				  "exit";
	struct hxu_table_desc d = tt_desc(1, type, key_size, 8, 4, 0);
	struct hwxdp_tables *t = hwxdp_tables__new();
	uint64_t values[6] = { 0 }, want;
	uint8_t key[8] = { 0 };
	struct tt_engine te;

	cr_assert_eq(hwxdp_tables__set_engines(t, 6), 0);
	cr_assert_eq(hwxdp_tables__create(t, &d), 0);
	cr_assert_eq(hwxdp_tables__set_engines(t, 4), -EBUSY);
	cr_assert_eq(hwxdp_table__update(hwxdp_tables__get(t, 1), key, values, BPF_ANY), 0);
	tt_engine_load(&te, t, text, &d, 1);
	for (uint32_t cpu = 0; cpu < 6; cpu++) {
		hwxdp_engine__set_cpu(te.engine, cpu);
		for (uint32_t run = 1; run <= cpu + 2; run++) {
			want = (uint64_t)run * (cpu + 1);
			cr_assert_eq(tt_engine_run(&te), (uint32_t)want, "engine %u, run %u", cpu,
				     run);
		}
	}
	cr_assert_eq(hwxdp_table__lookup(hwxdp_tables__get(t, 1), key, values), 0);
	for (uint32_t cpu = 0; cpu < 6; cpu++)
		cr_assert_eq(values[cpu], (uint64_t)(cpu + 2) * (cpu + 1), "copy %u: %llu", cpu,
			     (unsigned long long)values[cpu]);
	tt_engine_free(&te);
	hwxdp_tables__free(t);
}

Test(percpu, array_engine_sees_its_own_copy)
{
	engines_own_copies(BPF_MAP_TYPE_PERCPU_ARRAY, 4);
}

Test(percpu, hash_engine_sees_its_own_copy)
{
	engines_own_copies(BPF_MAP_TYPE_PERCPU_HASH, 8);
}

Test(percpu, lru_hash_engine_sees_its_own_copy)
{
	engines_own_copies(BPF_MAP_TYPE_LRU_PERCPU_HASH, 8);
}

/* A program's update writes its engine's copy; a new key's other copies
 * are zero, as the kernel's helper leaves them. */
Test(percpu, engine_update_writes_its_copy)
{
	static const char *text = "st64.lm [r10 - 8], 7 ;;\n"
				  "cpu r3 ;;\n"
				  "add r3, r3, 0x50 ;;\n"
				  "st64.lm [r10 - 16], r3 ;;\n"
				  "add r1, r10, -8 ;;\n"
				  "add r2, r10, -16 ;;\n"
				  "tupdate.lm.lm r0, 1, r1, r2, 0 ;;\n"
				  "exit";
	struct hxu_table_desc d = tt_desc(1, BPF_MAP_TYPE_PERCPU_HASH, 8, 8, 4, 0);
	struct hwxdp_tables *t = hwxdp_tables__new();
	uint64_t key = 7, values[4];
	struct tt_engine te;

	cr_assert_eq(hwxdp_tables__create(t, &d), 0);
	tt_engine_load(&te, t, text, &d, 1);
	hwxdp_engine__set_cpu(te.engine, 2);
	cr_assert_eq(tt_engine_run(&te), 0);
	cr_assert_eq(hwxdp_table__lookup(hwxdp_tables__get(t, 1), &key, values), 0);
	cr_assert(values[0] == 0 && values[1] == 0 && values[2] == 0x52 && values[3] == 0);
	hwxdp_engine__set_cpu(te.engine, 1);
	cr_assert_eq(tt_engine_run(&te), 0);
	cr_assert_eq(hwxdp_table__lookup(hwxdp_tables__get(t, 1), &key, values), 0);
	cr_assert(values[0] == 0 && values[1] == 0x51 && values[2] == 0x52 && values[3] == 0);
	tt_engine_free(&te);
	hwxdp_tables__free(t);
}

Test(percpu, engines_setting)
{
	struct hwxdp_tables *t = hwxdp_tables__new();

	cr_assert_eq(hwxdp_tables__engines(t), 4);
	cr_assert_eq(hwxdp_tables__set_engines(t, 0), -EINVAL);
	cr_assert_eq(hwxdp_tables__set_engines(t, 257), -EINVAL);
	cr_assert_eq(hwxdp_tables__set_engines(t, 2), 0);
	cr_assert_eq(hwxdp_tables__engines(t), 2);
	hwxdp_tables__free(t);
}
