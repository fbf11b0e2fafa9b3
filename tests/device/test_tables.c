// SPDX-License-Identifier: GPL-2.0
/*
 * Table memory against the kernel's maps: creation, the control plane's
 * lookup / update / delete / get_next_key on each table type, and the
 * engine's table operations against the same calls from a BPF program;
 * return codes, values and contents must agree. Kernel parts need root.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <criterion/criterion.h>

#include "base/log.h"
#include "tests/device/engine_util.h"

static void quiet(void)
{
	hwxdp_set_print(NULL);
}

Test(tables, create_as_the_kernel, .init = quiet)
{
	static const struct {
		uint32_t type, key, value, max;
	} cases[] = {
		{ BPF_MAP_TYPE_ARRAY, 4, 8, 16 },	{ BPF_MAP_TYPE_ARRAY, 8, 8, 16 },
		{ BPF_MAP_TYPE_ARRAY, 4, 0, 16 },	{ BPF_MAP_TYPE_ARRAY, 4, 8, 0 },
		{ BPF_MAP_TYPE_ARRAY, 4, 13, 3 },	{ BPF_MAP_TYPE_HASH, 12, 24, 100 },
		{ BPF_MAP_TYPE_HASH, 0, 8, 1 },		{ BPF_MAP_TYPE_HASH, 4, 0, 1 },
		{ BPF_MAP_TYPE_HASH, 64, 256, 1 },	{ BPF_MAP_TYPE_DEVMAP_HASH, 4, 4, 8 },
		{ BPF_MAP_TYPE_DEVMAP_HASH, 4, 8, 8 },	{ BPF_MAP_TYPE_DEVMAP_HASH, 8, 4, 8 },
		{ BPF_MAP_TYPE_DEVMAP_HASH, 4, 12, 8 }, { BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 8 },
		{ BPF_MAP_TYPE_PROG_ARRAY, 4, 8, 8 },	{ BPF_MAP_TYPE_PROG_ARRAY, 2, 4, 8 },
	};
	struct hwxdp_tables *t = hwxdp_tables__new();
	struct hxu_table_desc d;
	bool kernel = geteuid() == 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ours, theirs;

		d = hxe_table((uint32_t)i, cases[i].type, cases[i].key, cases[i].value,
			      cases[i].max);
		ours = hwxdp_tables__create(t, &d);
		if (!kernel)
			continue;
		theirs = bpf_map_create(cases[i].type, "hx_create", cases[i].key, cases[i].value,
					cases[i].max, NULL);
		if (theirs >= 0) {
			close(theirs);
			theirs = 0;
		}
		cr_assert_eq(ours, theirs, "type %u key %u value %u max %u: device %d, kernel %d",
			     cases[i].type, cases[i].key, cases[i].value, cases[i].max, ours,
			     theirs);
	}
	/* The device's own limits and rules. */
	d = hxe_table(100, BPF_MAP_TYPE_HASH, 65, 8, 4);
	cr_assert_eq(hwxdp_tables__create(t, &d), -E2BIG);
	d = hxe_table(100, BPF_MAP_TYPE_HASH, 8, 257, 4);
	cr_assert_eq(hwxdp_tables__create(t, &d), -E2BIG);
	d = hxe_table(100, BPF_MAP_TYPE_RINGBUF, 8, 8, 4);
	cr_assert_eq(hwxdp_tables__create(t, &d), -EOPNOTSUPP);
	d = hxe_table(0, BPF_MAP_TYPE_ARRAY, 4, 8, 4);
	cr_assert_eq(hwxdp_tables__create(t, &d), -EEXIST);
	d = hxe_table(256, BPF_MAP_TYPE_ARRAY, 4, 8, 4);
	cr_assert_eq(hwxdp_tables__create(t, &d), -EINVAL);
	hwxdp_tables__free(t);
}

/* Random control-plane operations on a kernel map and a table. */
struct cp_run {
	uint32_t type, key_size, value_size, max_entries, keys;
	bool ordered_next; /* get_next_key results comparable one by one */
};

static void fill_value(struct cp_run *c, uint64_t r, uint8_t *value)
{
	for (uint32_t b = 0; b < c->value_size; b++)
		value[b] = (uint8_t)(r >> (b % 8 * 8)) + (uint8_t)b;
	if (c->type == BPF_MAP_TYPE_DEVMAP_HASH) {
		/* lo (1) exists in every namespace; 0 is refused. */
		uint32_t ifindex = r % 5 ? 1 : 0;
		int32_t fd = r % 7 ? 0 : -1;

		memcpy(value, &ifindex, 4);
		if (c->value_size == 8)
			memcpy(value + 4, &fd, 4);
	}
}

static void make_key(struct cp_run *c, uint64_t r, uint8_t *key)
{
	uint32_t k = (uint32_t)(r % c->keys);

	memset(key, 0, c->key_size);
	memcpy(key, &k, 4);
	if (c->key_size > 4)
		key[c->key_size - 1] = (uint8_t)(k * 3);
}

static void control_plane(struct cp_run *c, int kernel_prog_fd)
{
	static const uint64_t flag_choice[] = { BPF_ANY, BPF_ANY,    BPF_NOEXIST, BPF_EXIST,
						3,	 BPF_F_LOCK, BPF_ANY,	  BPF_F_LOCK | 1 };
	struct hxu_table_desc d = hxe_table(1, c->type, c->key_size, c->value_size, c->max_entries);
	struct hwxdp_tables *t = hwxdp_tables__new();
	struct hwxdp_table *tab;
	uint8_t key[16], next_k[16], next_t[16], kv[16], tv[16], value[16];
	uint64_t rng = c->type * 1000 + c->value_size;
	int fd, kerr, terr;

	hxe_have_kernel();
	cr_assert_eq(hwxdp_tables__create(t, &d), 0);
	tab = hwxdp_tables__get(t, 1);
	fd = bpf_map_create(c->type, "hx_cp", c->key_size, c->value_size, c->max_entries, NULL);
	cr_assert_geq(fd, 0);

	for (int op = 0; op < 3000; op++) {
		uint64_t r = hxe_rng(&rng), flags = flag_choice[(r >> 32) % 8];

		make_key(c, r >> 8, key);
		switch (r % 4) {
		case 0:
			fill_value(c, hxe_rng(&rng), value);
			if (c->type == BPF_MAP_TYPE_PROG_ARRAY) {
				uint32_t prog = 0;

				kerr = bpf_map_update_elem(fd, key, &kernel_prog_fd, flags);
				terr = hwxdp_table__update(tab, key, &prog, flags);
			} else {
				kerr = bpf_map_update_elem(fd, key, value, flags);
				terr = hwxdp_table__update(tab, key, value, flags);
			}
			kerr = kerr ? -errno : 0;
			cr_assert_eq(terr, kerr, "op %d: update flags %llu: device %d, kernel %d",
				     op, (unsigned long long)flags, terr, kerr);
			break;
		case 1:
			kerr = bpf_map_delete_elem(fd, key) ? -errno : 0;
			terr = hwxdp_table__delete(tab, key);
			cr_assert_eq(terr, kerr, "op %d: delete: device %d, kernel %d", op, terr,
				     kerr);
			break;
		case 2:
			memset(kv, 0, sizeof(kv));
			memset(tv, 0, sizeof(tv));
			kerr = bpf_map_lookup_elem(fd, key, kv) ? -errno : 0;
			terr = hwxdp_table__lookup(tab, key, tv);
			cr_assert_eq(terr, kerr, "op %d: lookup: device %d, kernel %d", op, terr,
				     kerr);
			if (!terr && c->type != BPF_MAP_TYPE_PROG_ARRAY)
				cr_assert(!memcmp(kv, tv, c->value_size), "op %d: values differ",
					  op);
			break;
		default:
			kerr = bpf_map_get_next_key(fd, r & 1 ? NULL : key, next_k) ? -errno : 0;
			terr = hwxdp_table__get_next_key(tab, r & 1 ? NULL : key, next_t);
			cr_assert_eq(terr, kerr, "op %d: get_next_key: device %d, kernel %d", op,
				     terr, kerr);
			if (!terr && c->ordered_next)
				cr_assert(!memcmp(next_k, next_t, c->key_size));
		}
	}
	/* The same keys, by iteration. */
	for (uint32_t k = 0; k < c->keys; k++) {
		make_key(c, k, key);
		kerr = bpf_map_lookup_elem(fd, key, kv) ? -errno : 0;
		terr = hwxdp_table__lookup(tab, key, tv);
		cr_assert_eq(terr, kerr, "key %u at the end", k);
	}
	close(fd);
	hwxdp_tables__free(t);
}

Test(tables, array_control_plane)
{
	struct cp_run c = { BPF_MAP_TYPE_ARRAY, 4, 12, 8, 10, true };

	control_plane(&c, -1);
}

Test(tables, hash_control_plane)
{
	struct cp_run c = { BPF_MAP_TYPE_HASH, 8, 16, 6, 12, false };

	control_plane(&c, -1);
}

Test(tables, port_table_control_plane)
{
	struct cp_run c4 = { BPF_MAP_TYPE_DEVMAP_HASH, 4, 4, 6, 12, false };
	struct cp_run c8 = { BPF_MAP_TYPE_DEVMAP_HASH, 4, 8, 6, 12, false };

	control_plane(&c4, -1);
	control_plane(&c8, -1);
}

Test(tables, prog_array_control_plane)
{
	struct cp_run c = { BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 6, 9, true };
	int fd;

	hxe_have_kernel();
	fd = hxe_kernel_load("r0 = 2\nexit\n");
	control_plane(&c, fd);
	close(fd);
}

/* Port table internals: tombstones, rebuilds, every key once. */
Test(tables, port_table_churn)
{
	struct hxu_table_desc d = hxe_table(1, BPF_MAP_TYPE_DEVMAP_HASH, 4, 4, 64);
	struct hwxdp_tables *t = hwxdp_tables__new();
	struct hwxdp_table *tab;
	uint8_t present[1000] = { 0 };
	uint64_t rng = 99;
	uint32_t count = 0, k, next, seen;

	cr_assert_eq(hwxdp_tables__create(t, &d), 0);
	tab = hwxdp_tables__get(t, 1);
	for (int op = 0; op < 100000; op++) {
		uint64_t r = hxe_rng(&rng);
		uint32_t key = (uint32_t)(r % 1000), ifindex = key + 1;
		int err;

		if (r & (1ull << 40)) {
			err = hwxdp_table__update(tab, &key, &ifindex, BPF_ANY);
			if (present[key]) {
				cr_assert_eq(err, 0);
			} else if (count == 64) {
				cr_assert_eq(err, -E2BIG);
			} else {
				cr_assert_eq(err, 0);
				present[key] = 1;
				count++;
			}
		} else {
			err = hwxdp_table__delete(tab, &key);
			cr_assert_eq(err, present[key] ? 0 : -ENOENT);
			count -= present[key];
			present[key] = 0;
		}
		cr_assert_eq(hwxdp_table__port(tab, key), present[key] ? key + 1 : 0);
	}
	seen = 0;
	for (int err = hwxdp_table__get_next_key(tab, NULL, &next); !err;
	     err = hwxdp_table__get_next_key(tab, &k, &next)) {
		cr_assert(present[next], "key %u listed but absent", next);
		present[next] = 2;
		k = next;
		seen++;
	}
	cr_assert_eq(seen, count);
	hwxdp_tables__free(t);
}

/*
 * The engine's tlookup / tupdate / tdelete against bpf_map_lookup_elem &
 * co. in a BPF program: the same sequence of calls, each result stored in
 * the packet.
 */
static void program_ops(uint32_t type, uint32_t key_size, uint32_t max_entries, uint64_t seed)
{
	static const uint32_t flag_choice[] = { BPF_ANY,
						BPF_NOEXIST,
						BPF_EXIST,
						BPF_ANY,
						3,
						BPF_F_LOCK,
						BPF_EXIST,
						BPF_F_LOCK | BPF_NOEXIST,
						BPF_F_LOCK | BPF_EXIST };
	enum { STEPS = 120 };
	struct hxu_table_desc d = hxe_table(1, type, key_size, 8, max_entries);
	struct strbuf bpf = { 0 }, hxu = { 0 };
	static uint8_t pkt[STEPS * 8], out[STEPS * 8];
	size_t out_len = sizeof(out);
	const char *kst = key_size == 4 ? "u32" : "u64";
	uint64_t rng = seed;
	struct hxe *x;
	int map_fd, prog_fd;

	hxe_have_kernel();
	map_fd = bpf_map_create(type, "hx_prog", key_size, 8, max_entries, NULL);
	cr_assert_geq(map_fd, 0);
	sb_printf(&bpf,
		  "r6 = *(u32 *)(r1 +0)\nr7 = *(u32 *)(r1 +4)\nr8 = r6\nr8 += %d\n"
		  "if r8 > r7 goto out\n",
		  STEPS * 8);
	sb_printf(&hxu, "ctx r6, data ;;\n");
	for (int i = 0; i < STEPS; i++) {
		uint64_t r = hxe_rng(&rng);
		uint32_t key = (uint32_t)(r % (max_entries + 3)), flags = flag_choice[(r >> 8) % 9];
		int32_t value = (int32_t)(r >> 20) & 0xffff;

		sb_printf(&bpf, "*(%s *)(r10 -8) = %u\nr2 = r10\nr2 += -8\n", kst, key);
		sb_printf(&hxu, "st%d.lm [r10 - 8], %u\nadd r2, r10, -8 ;;\n", key_size * 8, key);
		switch ((r >> 16) % 3) {
		case 0:
			sb_printf(&bpf,
				  "*(u64 *)(r10 -16) = %d\nr3 = r10\nr3 += -16\nr4 = %u\n"
				  "r1 = map[idx:%d]\ncall bpf_map_update_elem\n",
				  value, flags, map_fd);
			sb_printf(&hxu,
				  "st64.lm [r10 - 16], %d\nadd r3, r10, -16 ;;\n"
				  "tupdate.lm.lm r0, 1, r2, r3, %u ;;\n",
				  value, flags);
			break;
		case 1:
			sb_printf(&bpf, "r1 = map[idx:%d]\ncall bpf_map_delete_elem\n", map_fd);
			sb_printf(&hxu, "tdelete.lm r0, 1, r2 ;;\n");
			break;
		default:
			sb_printf(&bpf,
				  "r1 = map[idx:%d]\ncall bpf_map_lookup_elem\n"
				  "if r0 == 0x0 goto miss%d\nr0 = *(u64 *)(r0 +0)\n"
				  "goto store%d\nmiss%d:\nr0 = -1\nstore%d:\n",
				  map_fd, i, i, i, i);
			sb_printf(&hxu,
				  "tlookup.lm r0, 1, r2 ;;\nbeq r0, 0, miss%d ;;\n"
				  "ld64.tm r0, [r0] ;;\njmp store%d ;;\nmiss%d: mov r0, -1 ;;\n"
				  "store%d:\n",
				  i, i, i, i);
		}
		sb_printf(&bpf, "*(u64 *)(r6 +%d) = r0\n", i * 8);
		sb_printf(&hxu, "st64.pkt [r6 + %d], r0 ;;\n", i * 8);
	}
	sb_printf(&bpf, "out:\nr0 = 2\nexit\n");
	sb_printf(&hxu, "mov r0, 2 ;;\nexit ;;\n");
	prog_fd = hxe_kernel_load(bpf.s);
	x = hxe_new(hxu.s, &d, 1, NULL);

	memset(pkt, 0xa5, sizeof(pkt));
	cr_assert_eq(hxe_kernel_run(prog_fd, pkt, sizeof(pkt), out, &out_len), XDP_PASS);
	cr_assert_eq(hxe_run(x, 0, pkt, sizeof(pkt)), 0);
	for (int i = 0; i < STEPS; i++) {
		int64_t k, h;

		memcpy(&k, out + i * 8, 8);
		memcpy(&h, hxe_data(x) + i * 8, 8);
		cr_assert_eq(h, k, "step %d: kernel %lld, device %lld", i, (long long)k,
			     (long long)h);
	}
	/* And the tables hold the same entries. */
	for (uint32_t key = 0; key < max_entries + 3; key++) {
		uint64_t k8 = key, kv = 0, tv = 0;
		int kerr = bpf_map_lookup_elem(map_fd, &k8, &kv) ? -errno : 0;
		int terr = hwxdp_table__lookup(hwxdp_tables__get(x->t, 1), &k8, &tv);

		cr_assert_eq(terr, kerr, "key %u", key);
		cr_assert_eq(tv, kv, "key %u", key);
	}
	close(prog_fd);
	close(map_fd);
	hxe_free(x);
	sb_free(&bpf);
	sb_free(&hxu);
}

Test(tables, hash_ops_as_the_kernel_helpers)
{
	program_ops(BPF_MAP_TYPE_HASH, 8, 6, 1);
	program_ops(BPF_MAP_TYPE_HASH, 4, 3, 2);
}

Test(tables, array_ops_as_the_kernel_helpers)
{
	program_ops(BPF_MAP_TYPE_ARRAY, 4, 6, 3);
}

/* One array, three users: a kernel XDP program, the engine, bpf(). */
Test(tables, mmapable_array_shared_with_the_kernel)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_MMAPABLE);
	struct hxu_table_desc d = hxe_table(1, BPF_MAP_TYPE_ARRAY, 4, 12, 4);
	struct hwxdp_tables *t;
	struct hxu_prog_desc prog = { .name = "count", .entry = 0, .frames = 1 };
	struct hxu_asm_out as;
	struct hxu_image img;
	struct hwxdp_engine *e;
	uint8_t window[HXU_WINDOW_SIZE] = { 0 }, pkt[64] = { 0 };
	struct strbuf bpf = { 0 };
	char err[128];
	uint64_t got[2];
	void *mem;
	int map_fd, prog_fd;

	hxe_have_kernel();
	map_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "hx_shared", 4, 12, 4, &opts);
	cr_assert_geq(map_fd, 0);
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	cr_assert_neq(mem, MAP_FAILED);
	t = hwxdp_tables__new();
	d.flags = BPF_F_MMAPABLE;
	cr_assert_eq(hwxdp_tables__create_at(t, &d, mem, 4096), 0);
	/* 12-byte values, 16 apart, as the kernel lays them out. */
	cr_assert_eq(hxu_asm("mov r1, 2 ;;\ntindex r2, 1, r1 ;;\nmov r3, 1 ;;\n"
			     "atomicadd64.tm [r2], r3 ;;\nmov r0, 2 ;;\nexit",
			     &as, err, sizeof(err)),
		     0, "%s", err);
	img = (struct hxu_image){ .version = HXU_VERSION,
				  .ops = as.words,
				  .op_cnt = as.word_cnt,
				  .tables = &d,
				  .table_cnt = 1,
				  .progs = &prog,
				  .prog_cnt = 1 };
	e = hwxdp_engine__new(&img, t);
	cr_assert(e);
	sb_printf(&bpf,
		  "*(u32 *)(r10 -4) = 2\nr2 = r10\nr2 += -4\nr1 = map[idx:%d]\n"
		  "call bpf_map_lookup_elem\nif r0 == 0x0 goto out\nr1 = 1\n"
		  "lock *(u64 *)(r0 +0) += r1\nout:\nr0 = 2\nexit\n",
		  map_fd);
	prog_fd = hxe_kernel_load(bpf.s);
	for (int i = 0; i < 1000; i++) {
		struct hwxdp_frame f = { .window = window,
					 .data = 256,
					 .data_meta = 256,
					 .data_end = 256 + sizeof(pkt) };

		cr_assert_eq(hwxdp_engine__run(e, 0, &f, NULL), 0);
		if (i % 2)
			hxe_kernel_run(prog_fd, pkt, sizeof(pkt), NULL, NULL);
	}
	cr_assert_eq(bpf_map_lookup_elem(map_fd, &(uint32_t){ 2 }, got), 0);
	cr_assert_eq(got[0], 1500, "bpf() reads %llu", (unsigned long long)got[0]);
	cr_assert_eq(hwxdp_table__lookup(hwxdp_tables__get(t, 1), &(uint32_t){ 2 }, got), 0);
	cr_assert_eq(got[0], 1500);
	/* A value written through bpf() is what the engine reads. */
	got[0] = 7;
	cr_assert_eq(bpf_map_update_elem(map_fd, &(uint32_t){ 2 }, got, BPF_ANY), 0);
	cr_assert_eq(*(uint64_t *)((uint8_t *)mem + 32), 7);
	close(prog_fd);
	hwxdp_engine__free(e);
	hwxdp_tables__free(t);
	munmap(mem, 4096);
	close(map_fd);
	hxu_asm_out__free(&as);
	sb_free(&bpf);
}
