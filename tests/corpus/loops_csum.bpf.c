// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded loops as kernels since 5.3 take them: the IPv4 header checksum is
 * recomputed over ihl * 2 words by a `for` loop with a constant bound and
 * an early break, not unrolled (clang's loop unrolling disabled by pragma),
 * and IPv4 options are walked one by one by a second `for` loop (ten at most, left to the compiler
 * to unroll or not); a frame with a bad checksum or a record-route option is dropped, counts in an
 * array.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} csum_stats SEC(".maps");

static __always_inline void bump(__u32 idx)
{
	__u64 *v = bpf_map_lookup_elem(&csum_stats, &idx);

	if (v)
		__sync_fetch_and_add(v, 1);
}

SEC("xdp")
int xdp_loop_csum(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph;
	__u32 sum = 0, words, optlen, off;
	__u8 *opt;
	int i;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	words = iph->ihl * 2;

#pragma clang loop unroll(disable)
	for (i = 0; i < 30; i++) {
		__u16 *w = (__u16 *)iph + i;

		if (i >= (int)words)
			break;
		if ((void *)(w + 1) > data_end)
			return XDP_DROP;
		sum += *w;
	}
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	if ((__u16)~sum != 0) {
		bump(0);
		return XDP_DROP;
	}

	optlen = iph->ihl > 5 ? (iph->ihl - 5) * 4 : 0;
	opt = (__u8 *)(iph + 1);
	off = 0;
	for (i = 0; i < 10; i++) {
		__u8 type, len, *p;

		if (off >= optlen || off > 38)
			break;
		p = opt + off;
		if ((void *)(p + 2) > data_end)
			break;
		type = p[0];
		if (type == 0)
			break;
		if (type == 7) {
			bump(1);
			return XDP_DROP;
		}
		if (type == 1) {
			off++;
			continue;
		}
		len = p[1];
		if (len < 2)
			break;
		off += len;
	}
	bump(2);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
