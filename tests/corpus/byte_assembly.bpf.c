// SPDX-License-Identifier: GPL-2.0
/*
 * Fields read and written a byte at a time, as code ported from DPDK or
 * from a driver's parser does it where it cannot trust alignment: a MAC as
 * a 48-bit number from six byte loads, the IPv4 addresses in network and
 * in host order, a word assembled with two bytes swapped (not a load of
 * either order), a 64-bit value from two 32-bit halves; and the results
 * written back byte by byte in both orders, one with a byte left out and
 * one to the stack, reread as words. The key of a hash of MACs is the
 * 48-bit number; the verdict depends on every assembled value.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u64);
	__type(value, __u64);
	__uint(max_entries, 64);
} mac_table SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
} seen SEC(".maps");

static __always_inline __u64 mac48(const __u8 *m)
{
	return (__u64)m[0] << 40 | (__u64)m[1] << 32 | (__u64)m[2] << 24 | (__u64)m[3] << 16 |
	       (__u64)m[4] << 8 | m[5];
}

static __always_inline void put_be32(__u8 *p, __u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static __always_inline void put_le32(__u8 *p, __u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

SEC("xdp")
int xdp_byte_fields(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	__u8 *p = (void *)(long)ctx->data;
	__u32 src_be, dst_le, swapped, k;
	__u64 smac, wide, *v;
	__u8 scratch[8];

	if ((void *)(p + 42) > data_end)
		return XDP_PASS;
	smac = mac48(p + 6);
	src_be = (__u32)p[26] << 24 | (__u32)p[27] << 16 | (__u32)p[28] << 8 | p[29];
	dst_le = (__u32)p[33] << 24 | (__u32)p[32] << 16 | (__u32)p[31] << 8 | p[30];
	swapped = (__u32)p[34] << 24 | (__u32)p[35] << 16 | (__u32)p[37] << 8 | p[36];
	wide = (__u64)(*(__u32 *)(p + 14) & 0xffffffff) << 32 | *(__u32 *)(p + 18);

	v = bpf_map_lookup_elem(&mac_table, &smac);
	if (v) {
		__sync_fetch_and_add(v, 1);
		k = 1;
	} else {
		k = 0;
	}
	v = bpf_map_lookup_elem(&seen, &k);
	if (v)
		*v += src_be ^ dst_le;

	/* written back: big-endian where the source was, little-endian where
	 * the destination was, the swapped word with its third byte kept */
	put_be32(p + 30, src_be + 1);
	put_le32(p + 26, dst_le ^ swapped);
	p[34] = swapped >> 24;
	p[35] = swapped >> 16;
	p[37] = swapped;

	put_be32(scratch, (__u32)(wide >> 32) ^ (__u32)smac);
	put_le32(scratch + 4, (__u32)wide);
	if (*(__u64 *)scratch == wide)
		return XDP_DROP;
	if ((*(__u32 *)scratch & 0xff) == (src_be >> 24))
		return XDP_TX;
	return (smac >> 40) & 1 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
