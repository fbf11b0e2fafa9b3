// SPDX-License-Identifier: GPL-2.0
/*
 * What the reference interpreter says of a hash lookup that finds nothing
 * (hx_count_target_on_miss), on tests/corpus/acl_5tuple: the map's name and
 * the key's bytes, laid out as the program lays them out (a packed 13-byte
 * 5-tuple, then a 12-byte pair); nothing for an array, nothing for a hit.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>

#include "lab/bpf_count.h"
#include "lab/pkt.h"
#include "lab/target.h"

#define MISSES 8

struct miss {
	char map[64];
	uint8_t key[64];
	uint32_t key_size;
};

struct misses {
	struct miss m[MISSES];
	unsigned int cnt;
};

static void note(void *arg, const char *map, const void *key, uint32_t key_size)
{
	struct misses *ms = arg;
	struct miss *m;

	cr_assert_lt(ms->cnt, MISSES);
	cr_assert_leq(key_size, sizeof(m->key));
	m = &ms->m[ms->cnt++];
	snprintf(m->map, sizeof(m->map), "%s", map);
	memcpy(m->key, key, key_size);
	m->key_size = key_size;
}

static const char *acl_path(void)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/tests/corpus/acl_5tuple.bpf.o", hx_build_dir());
	return path;
}

Test(lab_count, a_hash_miss_names_the_map_and_the_key)
{
	/* saddr, daddr, sport, dport (network order), then the protocol */
	static const uint8_t tuple[13] = { 10, 0, 0, 1, 10, 0, 0, 2, 0, 80, 0, 53, 6 };
	struct hx_target *t = hx_count_target_open_prog(acl_path(), "xdp_acl_5tuple");
	struct hx_frame_spec sp;
	struct misses ms = { .cnt = 0 };
	struct hx_result res;
	uint8_t buf[256], val[16] = { 0 };
	size_t len;

	cr_assert_not_null(t, "%s: build the corpus with make", acl_path());
	hx_frame_spec_init(&sp, 4);
	sp.proto = 6;
	hx_ipv4_addr(sp.src, "10.0.0.1");
	hx_ipv4_addr(sp.dst, "10.0.0.2");
	sp.sport = 80;
	sp.dport = 53;
	len = hx_frame_build(&sp, buf, sizeof(buf));
	cr_assert_gt(len, 0);

	/* nobody asks yet */
	cr_assert_eq(hx_target_run(t, 1, buf, len, &res), 0);
	hx_count_target_on_miss(t, note, &ms);
	cr_assert_eq(hx_target_run(t, 1, buf, len, &res), 0);
	cr_expect_eq(res.action, XDP_PASS);
	/* the deny list's miss, then the pair's; the verdict array's hit is no miss */
	cr_assert_eq(ms.cnt, 2, "%u misses", ms.cnt);
	cr_expect_str_eq(ms.m[0].map, "acl_deny");
	cr_expect_eq(ms.m[0].key_size, 13);
	cr_expect_arr_eq(ms.m[0].key, tuple, 13);
	cr_expect_str_eq(ms.m[1].map, "pair_seen");
	cr_expect_eq(ms.m[1].key_size, 12);
	cr_expect_arr_eq(ms.m[1].key, tuple, 12);

	/* the tuple denied: a hit, dropped, and no miss told */
	ms.cnt = 0;
	cr_assert_eq(hx_target_map_update(t, "acl_deny", tuple, val), 0);
	cr_assert_eq(hx_target_run(t, 1, buf, len, &res), 0);
	cr_expect_eq(res.action, XDP_DROP);
	cr_expect_eq(ms.cnt, 0, "%u misses after the key was filled", ms.cnt);

	/* told no more */
	hx_count_target_on_miss(t, NULL, NULL);
	cr_assert_eq(hx_target_map_delete(t, "acl_deny", tuple), 0);
	cr_assert_eq(hx_target_run(t, 1, buf, len, &res), 0);
	cr_expect_eq(ms.cnt, 0);
	hx_target_close(t);
}

Test(lab_count, a_program_the_object_lacks_is_named)
{
	struct hx_target *t = hx_count_target_open_prog(acl_path(), "no_such_prog");

	cr_assert_null(t);
	cr_expect_eq(errno, ENOENT);
}
