// SPDX-License-Identifier: GPL-2.0
/*
 * Where the board sends a broadcast (bpf_redirect_map with BPF_F_BROADCAST):
 * a copy out of every port of the devmap, as the kernel's
 * dev_map_enqueue_multi does, one less with BPF_F_EXCLUDE_INGRESS, none for
 * an empty map, whose verdict is XDP_REDIRECT all the same. The kernel's
 * copies need devices that transmit XDP frames, which this test does not
 * make; the verdicts are held to the kernel's in tests/devdiff's units.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/bpf.h>
#include <string.h>

#include "device/device.h"
#include "device/engine.h"
#include "device/tables.h"
#include "hwmap/hxu.h"
#include "lab/target.h"
#include "tests/common/asm_board.h"

/* redirect_map(table byte 22, key byte 20, flags byte 21): the flags from
 * the frame, so the program's redir reads them from a register. */
static const char program[] = "ctx r6, data ;;\n"
			      "ld8.pkt r2, [r6 + 20]\n"
			      "ld8.pkt r3, [r6 + 21]\n"
			      "ld8.pkt r1, [r6 + 22] ;;\n"
			      "bne r1, 0, hash ;;\n"
			      "redir r0, 0, r2, r3 ;;\n"
			      "exit ;;\n"
			      "hash: bne r1, 1, none ;;\n"
			      "redir r0, 1, r2, r3 ;;\n"
			      "exit ;;\n"
			      "none: redir r0, 2, r2, r3 ;;\n"
			      "exit ;;\n";

static const struct hxu_table_desc tables[] = {
	{ .id = 0,
	  .type = BPF_MAP_TYPE_DEVMAP,
	  .key_size = 4,
	  .value_size = 4,
	  .max_entries = 8,
	  .name = "ports" },
	{ .id = 1,
	  .type = BPF_MAP_TYPE_DEVMAP_HASH,
	  .key_size = 4,
	  .value_size = 4,
	  .max_entries = 8,
	  .name = "hports" },
	{ .id = 2,
	  .type = BPF_MAP_TYPE_DEVMAP,
	  .key_size = 4,
	  .value_size = 4,
	  .max_entries = 8,
	  .name = "none" },
};

static void put(struct hwxdp_device *d, uint32_t prog, const char *map, uint32_t key,
		uint32_t ifindex)
{
	struct hwxdp_table *tab = hwxdp_device__table(d, prog, map);

	cr_assert(tab, "no table %s", map);
	cr_assert_eq(hwxdp_table__update(tab, &key, &ifindex, BPF_ANY), 0, "%s[%u] = %u", map, key,
		     ifindex);
}

struct bcast_case {
	const char *name;
	uint32_t port;	  /* ingress */
	uint8_t table, key, flags;
	uint32_t verdict; /* the kernel's __bpf_xdp_redirect_map */
	uint32_t ports[8];
	int port_cnt; /* -EINVAL: no broadcast */
};

Test(board_broadcast, a_copy_per_port_of_the_map)
{
	/* ports: slots 0, 2, 3, 5 and 6 hold 2, 1, 3, 9 (no port of the
	 * board) and 4; hports: keys 1, 3, 5 and 7 hold 2, 3, 1 and 2 */
	static const struct bcast_case cases[] = {
		{ "broadcast", 1, 0, 0, BPF_F_BROADCAST, XDP_REDIRECT, { 2, 1, 3, 4 }, 4 },
		{ "broadcast, any key", 1, 0, 7, BPF_F_BROADCAST | XDP_PASS, XDP_REDIRECT,
		  { 2, 1, 3, 4 }, 4 },
		{ "broadcast but the ingress", 1, 0, 0, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS,
		  XDP_REDIRECT, { 2, 3, 4 }, 3 },
		{ "broadcast but ingress 3", 3, 0, 0, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS,
		  XDP_REDIRECT, { 2, 1, 4 }, 3 },
		{ "hash broadcast, in key order", 1, 1, 0, BPF_F_BROADCAST, XDP_REDIRECT,
		  { 2, 3, 1, 2 }, 4 },
		{ "hash broadcast but ingress 2", 2, 1, 0, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS,
		  XDP_REDIRECT, { 3, 1 }, 2 },
		{ "empty map", 1, 2, 0, BPF_F_BROADCAST, XDP_REDIRECT, { 0 }, 0 },
		{ "empty map but the ingress", 1, 2, 0, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS,
		  XDP_REDIRECT, { 0 }, 0 },
		{ "one port", 1, 0, 3, 0, XDP_REDIRECT, { 0 }, -EINVAL },
		{ "exclude alone is no broadcast", 1, 0, 3, BPF_F_EXCLUDE_INGRESS, XDP_REDIRECT,
		  { 0 }, -EINVAL },
		{ "a miss", 1, 0, 1, XDP_PASS, XDP_PASS, { 0 }, -EINVAL },
		{ "bad flags", 1, 0, 0, BPF_F_BROADCAST | 32, XDP_ABORTED, { 0 }, -EINVAL },
	};
	const size_t n = sizeof(cases) / sizeof(cases[0]);
	struct hwxdp_device_frame fr[sizeof(cases) / sizeof(cases[0])];
	uint8_t frames[sizeof(cases) / sizeof(cases[0])][64];
	struct hwxdp_device *d;
	uint32_t id, got[8];

	d = asm_board_tables(program, "bcast", false, tables, 3, &id);
	for (uint32_t port = 1; port <= 4; port++)
		cr_assert_eq(hwxdp_device__attach(d, port, id), 0);
	/* written out of order: the copies go by index (by key) */
	put(d, id, "ports", 0, 2);
	put(d, id, "ports", 3, 3);
	put(d, id, "ports", 2, 1);
	put(d, id, "ports", 6, 4);
	put(d, id, "ports", 5, 9);
	put(d, id, "hports", 7, 2);
	put(d, id, "hports", 3, 3);
	put(d, id, "hports", 5, 1);
	put(d, id, "hports", 1, 2);
	memset(frames, 0, sizeof(frames));
	for (size_t i = 0; i < n; i++) {
		frames[i][20] = cases[i].key;
		frames[i][21] = cases[i].flags;
		frames[i][22] = cases[i].table;
		fr[i] = (struct hwxdp_device_frame){
			.data = frames[i], .len = 64, .port = cases[i].port
		};
	}
	cr_assert_eq(hwxdp_device__run_batch(d, fr, n), 0);
	for (size_t i = 0; i < n; i++) {
		const struct bcast_case *c = &cases[i];
		int cnt;

		cr_assert_eq(fr[i].verdict, c->verdict, "%s: verdict %u", c->name, fr[i].verdict);
		memset(got, 0, sizeof(got));
		cnt = hwxdp_device__broadcast_ports(d, &fr[i], got, 8);
		cr_assert_eq(cnt, c->port_cnt, "%s: %d ports", c->name, cnt);
		for (int k = 0; k < cnt; k++)
			cr_assert_eq(got[k], c->ports[k], "%s: port %d is %u, not %u", c->name, k,
				     got[k], c->ports[k]);
		if (c->port_cnt >= 0)
			cr_assert_eq(hwxdp_device__broadcast_ports(d, &fr[i], got, 1), c->port_cnt,
				     "%s: the count with less room", c->name);
	}
	hwxdp_device__free(d);
}

/* A port the board lacks is a wire when every ifindex is one (hwxdp run). */
Test(board_broadcast, any_egress_keeps_every_entry)
{
	struct hwxdp_device_frame fr;
	struct hwxdp_device *d;
	uint8_t frame[64] = { 0 };
	uint32_t id, got[4];

	d = asm_board_tables(program, "bcast", true, tables, 3, &id);
	cr_assert_eq(hwxdp_device__attach(d, 1, id), 0);
	put(d, id, "ports", 1, 9);
	put(d, id, "ports", 4, 1);
	frame[21] = BPF_F_BROADCAST;
	fr = (struct hwxdp_device_frame){ .data = frame, .len = 64, .port = 1 };
	cr_assert_eq(hwxdp_device__run_batch(d, &fr, 1), 0);
	cr_assert_eq(fr.verdict, XDP_REDIRECT);
	cr_assert_eq(hwxdp_device__broadcast_ports(d, &fr, got, 4), 2);
	cr_assert_eq(got[0], 9);
	cr_assert_eq(got[1], 1);
	hwxdp_device__free(d);
}

/* A bridge from the corpus (tests/corpus/redirect_broadcast.bpf.c), as
 * clang built it, through the verifier and the translator: multicast and
 * unknown destinations flood every other port, a learnt one goes to its. */
Test(board_broadcast, the_corpus_bridge_floods_and_learns)
{
	static const uint8_t host_a[6] = { 0x02, 0, 0, 0, 0, 0xaa };
	static const uint8_t host_b[6] = { 0x02, 0, 0, 0, 0, 0xbb };
	static const uint8_t group[6] = { 0x01, 0, 0x5e, 0, 0, 1 };
	struct hwxdp_device_opts opts = { .sz = sizeof(opts), .engines = 1 };
	struct hwxdp_device_frame fr;
	struct hwxdp_device *d;
	uint8_t frame[64];
	char path[4096], msg[512];
	uint32_t got[8];
	int id;

	snprintf(path, sizeof(path), "%s/tests/corpus/redirect_broadcast.bpf.o", hx_build_dir());
	d = hwxdp_device__new(&opts);
	cr_assert(d);
	id = hwxdp_device__load(d, path, NULL, msg, sizeof(msg));
	cr_assert_geq(id, 0, "%s", msg);
	for (uint32_t port = 1; port <= 3; port++) {
		cr_assert_eq(hwxdp_device__attach(d, port, (uint32_t)id), 0);
		put(d, (uint32_t)id, "bridge_ports", port, port);
	}

	/* a group from host A on port 1: to 2 and 3; A is learnt on 1 */
	memset(frame, 0, sizeof(frame));
	memcpy(frame, group, 6);
	memcpy(frame + 6, host_a, 6);
	fr = (struct hwxdp_device_frame){ .data = frame, .len = 64, .port = 1 };
	cr_assert_eq(hwxdp_device__run_batch(d, &fr, 1), 0);
	cr_assert_eq(fr.verdict, XDP_REDIRECT);
	cr_assert_eq(hwxdp_device__broadcast_ports(d, &fr, got, 8), 2);
	cr_assert(got[0] == 2 && got[1] == 3, "to %u and %u", got[0], got[1]);

	/* host B on port 3 to A: A's port alone */
	memcpy(frame, host_a, 6);
	memcpy(frame + 6, host_b, 6);
	fr = (struct hwxdp_device_frame){ .data = frame, .len = 64, .port = 3 };
	cr_assert_eq(hwxdp_device__run_batch(d, &fr, 1), 0);
	cr_assert_eq(fr.verdict, XDP_REDIRECT);
	cr_assert_eq(fr.egress, 1, "egress 0x%x", fr.egress);

	/* A to an unknown host: flooded to 2 and 3 */
	memcpy(frame, (const uint8_t[6]){ 0x02, 0, 0, 0, 0, 0xcc }, 6);
	memcpy(frame + 6, host_a, 6);
	fr = (struct hwxdp_device_frame){ .data = frame, .len = 64, .port = 1 };
	cr_assert_eq(hwxdp_device__run_batch(d, &fr, 1), 0);
	cr_assert_eq(fr.verdict, XDP_REDIRECT);
	cr_assert_eq(hwxdp_device__broadcast_ports(d, &fr, got, 8), 2);
	cr_assert(got[0] == 2 && got[1] == 3, "to %u and %u", got[0], got[1]);
	hwxdp_device__free(d);
}
