// SPDX-License-Identifier: GPL-2.0
/*
 * A map of maps' map or, where its slot is empty, a map the object names,
 * met at one call, for tests/devdiff/test_maps_of_maps.c (Katran's per-CPU
 * LRU and its fallback LRU): byte 14 of the frame picks a slot of
 * `per_slot` (0 and 1 filled with `lru_a` and `lru_b`, 2 and 3 empty), and
 * the chosen map is looked up, updated or deleted (byte 20) with the 32-bit
 * key at byte 16, each call given either. What was found and each call's
 * answer go back into the frame.
 */
#include "../../corpus/include/corpus.h"

#define HDR 32

struct lru {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 16);
};

struct lru lru_a SEC(".maps");
struct lru lru_b SEC(".maps");
struct lru fallback SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 4);
	__type(key, __u32);
	__array(values, struct lru);
} per_slot SEC(".maps") = {
	.values = { [0] = &lru_a, [1] = &lru_b },
};

SEC("xdp")
int map_or_fallback(struct xdp_md *ctx)
{
	__u8 *p = (__u8 *)(long)ctx->data, *end = (__u8 *)(long)ctx->data_end;
	__u32 slot, key;
	__u64 *v, nv;
	void *map;
	long rc;

	if (p + HDR > end)
		return XDP_ABORTED;
	slot = p[14];
	__builtin_memcpy(&key, p + 16, 4);
	map = bpf_map_lookup_elem(&per_slot, &slot);
	if (!map) {
		p[23] = 0xee;
		map = &fallback;
	}
	v = bpf_map_lookup_elem(map, &key);
	if (v)
		__builtin_memcpy(p + 24, v, 8);
	if (p[20] == 1) {
		rc = bpf_map_delete_elem(map, &key);
		p[21] = (__u8)rc;
		return v ? XDP_TX : XDP_PASS;
	}
	nv = (v ? *v : ((__u64)key << 8)) + slot + 1;
	rc = bpf_map_update_elem(map, &key, &nv, BPF_ANY);
	p[21] = (__u8)rc;
	return v ? XDP_TX : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
