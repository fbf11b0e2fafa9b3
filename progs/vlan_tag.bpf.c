// SPDX-License-Identifier: GPL-2.0
/*
 * Tag pop and push that keep the Ethernet header, the way XDP programs
 * usually write them: the header is copied out, the head moves by the
 * tag's four bytes (bpf_xdp_adjust_head), and the header is copied back at
 * the new start. A tagged frame leaves untagged; an untagged one gets the
 * VLAN in push_vid (none: it goes to the stack as it came). Both leave by
 * the port they came in (XDP_TX).
 *
 * On the device the adjustment is the header unit's and each copy a few
 * wide loads and stores (docs/translator.md).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct vlan_tag_hdr {
	__be16 tci;
	__be16 proto;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} push_vid SEC(".maps");

SEC("xdp")
int vlan_tag(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data, saved;
	struct vlan_tag_hdr *vh = (void *)(eth + 1);
	__u32 zero = 0, *vid;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	__builtin_memcpy(&saved, eth, sizeof(saved));
	if (eth->h_proto == bpf_htons(ETH_P_8021Q)) {
		if ((void *)(vh + 1) > data_end)
			return XDP_PASS;
		saved.h_proto = vh->proto;
		if (bpf_xdp_adjust_head(ctx, (int)sizeof(*vh)))
			return XDP_ABORTED;
		data = (void *)(long)ctx->data;
		data_end = (void *)(long)ctx->data_end;
		eth = data;
		if ((void *)(eth + 1) > data_end)
			return XDP_ABORTED;
		__builtin_memcpy(eth, &saved, sizeof(*eth));
		return XDP_TX;
	}
	vid = bpf_map_lookup_elem(&push_vid, &zero);
	if (!vid || !*vid)
		return XDP_PASS;
	if (bpf_xdp_adjust_head(ctx, -(int)sizeof(*vh)))
		return XDP_ABORTED;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	eth = data;
	vh = (void *)(eth + 1);
	if ((void *)(vh + 1) > data_end)
		return XDP_ABORTED;
	__builtin_memcpy(eth, &saved, sizeof(*eth));
	eth->h_proto = bpf_htons(ETH_P_8021Q);
	vh->tci = bpf_htons(*vid & 0xfff);
	vh->proto = saved.h_proto;
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
