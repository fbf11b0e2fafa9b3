// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c): an
 * array of maps whose template no map of the object fits, so that every
 * inner map it can hold is one the control plane makes at run time. Byte
 * 14 picks the outer slot, byte 15 the inner element, whose value goes
 * into the frame. The kernel's copy is the device's.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct tags {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u16);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, struct tags);
} made SEC(".maps");

SEC("xdp")
int unit_made(struct xdp_md *ctx)
{
	unsigned char *p = (unsigned char *)(long)ctx->data;
	unsigned char *end = (unsigned char *)(long)ctx->data_end;
	__u32 slot, idx;
	__u16 *tag;
	void *inner;

	if (p + 24 > end)
		return XDP_DROP;
	slot = p[14] & 3;
	idx = p[15] & 15;
	inner = bpf_map_lookup_elem(&made, &slot);
	if (!inner)
		return XDP_PASS;
	tag = bpf_map_lookup_elem(inner, &idx);
	if (!tag)
		return XDP_DROP;
	*(__u16 *)(p + 20) = *tag;
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
