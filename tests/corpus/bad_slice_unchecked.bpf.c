// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A dynptr parser that counts the frames whose
 * Ethernet header slice fails (a runt) and then reads the EtherType from
 * that slice all the same: after the NULL check failed.
 */
#include "include/corpus.h"

extern int bpf_dynptr_from_xdp(struct xdp_md *xdp, __u64 flags, struct bpf_dynptr *ptr) __ksym;
extern void *bpf_dynptr_slice(const struct bpf_dynptr *ptr, __u32 offset, void *buffer,
			      __u32 buffer__szk) __ksym;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} runts SEC(".maps");

SEC("xdp")
int xdp_runt_count(struct xdp_md *ctx)
{
	struct ethhdr buf, *eth;
	struct bpf_dynptr frame;
	__u32 zero = 0;
	__u64 *c;

	bpf_dynptr_from_xdp(ctx, 0, &frame);
	eth = bpf_dynptr_slice(&frame, 0, &buf, sizeof(buf));
	if (!eth) {
		c = bpf_map_lookup_elem(&runts, &zero);
		if (c)
			*c += 1;
	}
	return eth->h_proto == bpf_htons(ETH_P_ARP) ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
