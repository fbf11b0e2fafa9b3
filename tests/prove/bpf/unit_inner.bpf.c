// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit lookups in maps of maps and in the maps they
 * hold (tlookup on the outer map, tlookupr through the handle): an array
 * of counter arrays picked by byte 14, a counter in it picked by byte 15,
 * read into the frame and counted; then a hash of hash maps keyed by bytes
 * 12..13, whose inner map's value for bytes 16..19 goes into the frame.
 * Indices past either array's end make misses. The kernel's copy is the
 * device's.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct counters {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
};

struct counters counts_a SEC(".maps");
struct counters counts_b SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 4);
	__type(key, __u32);
	__array(values, struct counters);
} by_slot SEC(".maps");

struct marks {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u32);
};

struct marks marks_a SEC(".maps");
struct marks marks_b SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH_OF_MAPS);
	__uint(max_entries, 8);
	__type(key, __u16);
	__array(values, struct marks);
} by_tag SEC(".maps");

SEC("xdp")
int unit_inner(struct xdp_md *ctx)
{
	unsigned char *p = (unsigned char *)(long)ctx->data;
	unsigned char *end = (unsigned char *)(long)ctx->data_end;
	__u32 slot, idx, mk;
	__u16 tag;
	__u32 *mark;
	__u64 *cnt;
	void *inner;

	if (p + 24 > end)
		return XDP_DROP;
	slot = p[14] & 7;
	idx = p[15] & 31;
	tag = *(__u16 *)(p + 12);
	mk = *(__u32 *)(p + 16);
	inner = bpf_map_lookup_elem(&by_slot, &slot);
	if (!inner)
		return XDP_PASS;
	cnt = bpf_map_lookup_elem(inner, &idx);
	if (!cnt) {
		p[20] = 1;
		return XDP_TX;
	}
	p[20] = 2;
	p[21] = (unsigned char)*cnt;
	__sync_fetch_and_add(cnt, 1);
	inner = bpf_map_lookup_elem(&by_tag, &tag);
	if (!inner) {
		p[22] = 0xdd;
		return XDP_TX;
	}
	mark = bpf_map_lookup_elem(inner, &mk);
	p[22] = mark ? (unsigned char)*mark : 0xee;
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
