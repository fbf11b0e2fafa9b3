// SPDX-License-Identifier: GPL-2.0
/*
 * Maps of maps, for tests/devdiff/test_maps_of_maps.c: byte 14 of the frame
 * picks a slot of `by_slot`, an ARRAY_OF_MAPS whose definition fills slots
 * 0 and 1 with the counter arrays `count_a` and `count_b` (2 and 3 stay
 * empty); byte 15 picks an entry of `by_tag`, a HASH_OF_MAPS that the test
 * fills with the tables `tag_x` and `tag_y`. The frame's 32-bit key at
 * byte 16 is counted in the slot's array (and every frame in its slot 0),
 * then looked up, updated or
 * deleted (byte 20) in the tag's table; what was found goes back into the
 * frame, so that each way leaves its own bytes.
 */
#include "../../corpus/include/corpus.h"

#define HDR 32

struct counts {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
};

struct counts count_a SEC(".maps");
struct counts count_b SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 4);
	__type(key, __u32);
	__array(values, struct counts);
} by_slot SEC(".maps") = {
	.values = { [0] = &count_a, [1] = &count_b },
};

struct tagged {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 16);
};

struct tagged tag_x SEC(".maps");
struct tagged tag_y SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH_OF_MAPS);
	__uint(max_entries, 8);
	__type(key, __u32);
	__array(values, struct tagged);
} by_tag SEC(".maps");

SEC("xdp")
int mom_entry(struct xdp_md *ctx)
{
	__u8 *p = (__u8 *)(long)ctx->data, *end = (__u8 *)(long)ctx->data_end;
	__u32 slot, tag, key, idx;
	__u64 *v, nv;
	void *inner;
	long rc;

	if (p + HDR > end)
		return XDP_ABORTED;
	slot = p[14];
	tag = p[15];
	__builtin_memcpy(&key, p + 16, 4);
	idx = key & 7;
	inner = bpf_map_lookup_elem(&by_slot, &slot);
	if (!inner) {
		p[24] = 0xee;
	} else {
		__u32 zero = 0;

		v = bpf_map_lookup_elem(inner, &idx);
		if (v)
			__sync_fetch_and_add(v, 1);
		/* a key the verifier knows: still the handle's table */
		v = bpf_map_lookup_elem(inner, &zero);
		if (v)
			__sync_fetch_and_add(v, 0x10000);
	}
	inner = bpf_map_lookup_elem(&by_tag, &tag);
	if (!inner)
		return XDP_DROP;
	v = bpf_map_lookup_elem(inner, &key);
	if (v)
		__builtin_memcpy(p + 24, v, 8);
	if (p[20] == 1) {
		rc = bpf_map_delete_elem(inner, &key);
		p[21] = (__u8)rc;
		return v ? XDP_TX : XDP_PASS;
	}
	nv = p[20] == 2 ? ((__u64)key << 8) | tag : (v ? *v : 0) + 0x100;
	/* BPF_NOEXIST when the key was not found: it must not be there */
	rc = bpf_map_update_elem(inner, &key, &nv, BPF_ANY);
	p[21] = (__u8)rc;
	if (!v) {
		rc = bpf_map_update_elem(inner, &key, &nv, BPF_NOEXIST);
		p[22] = (__u8)rc;
	}
	return v ? XDP_TX : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
