// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit writes through a handle (tupdater, tdeleter):
 * a hash of hash maps whose entry byte 14 picks; bit 0 of byte 15 says
 * whether the key at bytes 16..19 is deleted there or updated with the
 * value at 20..27. The write's result and what the key holds afterwards
 * go into the frame. The kernel's copy is the device's.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct tagged {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
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
int unit_inner_write(struct xdp_md *ctx)
{
	unsigned char *p = (unsigned char *)(long)ctx->data;
	unsigned char *end = (unsigned char *)(long)ctx->data_end;
	__u32 tag, key;
	__u64 value, *v;
	void *inner;
	long rc;

	if (p + 32 > end)
		return XDP_DROP;
	tag = p[14];
	key = *(__u32 *)(p + 16);
	value = *(__u64 *)(p + 20);
	inner = bpf_map_lookup_elem(&by_tag, &tag);
	if (!inner)
		return XDP_PASS;
	if (p[15] & 1)
		rc = bpf_map_delete_elem(inner, &key);
	else
		rc = bpf_map_update_elem(inner, &key, &value, BPF_ANY);
	p[28] = (unsigned char)rc;
	v = bpf_map_lookup_elem(inner, &key);
	p[29] = v ? (unsigned char)*v : 0xee;
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
