// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the xdp-tutorial's tracing lessons, a program written
 * to be debugged: frames it refuses are logged with libbpf's bpf_printk()
 * before the verdict, with up to five arguments (four or more: the helper
 * is bpf_trace_vprintk, the format in .rodata and the arguments in an
 * array of u64 on the stack), addresses printed by %pI4 from a copy on the
 * stack. A TTL or hop limit of 1 drops, a fragment passes unparsed; every
 * other IP frame is counted by protocol and passes.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 256);
} proto_cnt SEC(".maps");

static __always_inline int count_proto(__u8 proto)
{
	__u32 key = proto;
	__u64 *cnt = bpf_map_lookup_elem(&proto_cnt, &key);

	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	return XDP_PASS;
}

static __always_inline int parse_ipv4(struct iphdr *iph, void *data_end)
{
	__be32 saddr, daddr;

	if ((void *)(iph + 1) > data_end) {
		bpf_printk("ipv4: truncated header");
		return XDP_DROP;
	}
	if (iph->ttl <= 1) {
		saddr = iph->saddr;
		daddr = iph->daddr;
		bpf_printk("ipv4: ttl %u %pI4 -> %pI4 proto %u id %u", iph->ttl, &saddr, &daddr,
			   iph->protocol, bpf_ntohs(iph->id));
		return XDP_DROP;
	}
	if (iph->frag_off & bpf_htons(0x3fff)) {
		bpf_printk("ipv4: fragment off 0x%x id %u proto %u len %u",
			   bpf_ntohs(iph->frag_off), bpf_ntohs(iph->id), iph->protocol,
			   bpf_ntohs(iph->tot_len));
		return XDP_PASS;
	}
	return count_proto(iph->protocol);
}

static __always_inline int parse_ipv6(struct ipv6hdr *ip6h, void *data_end)
{
	if ((void *)(ip6h + 1) > data_end) {
		bpf_printk("ipv6: truncated header");
		return XDP_DROP;
	}
	if (ip6h->hop_limit <= 1) {
		bpf_printk("ipv6: hop limit %u next %u plen %u flow %x:%x", ip6h->hop_limit,
			   ip6h->nexthdr, bpf_ntohs(ip6h->payload_len), ip6h->flow_lbl[0],
			   ip6h->flow_lbl[1]);
		return XDP_DROP;
	}
	return count_proto(ip6h->nexthdr);
}

SEC("xdp")
int xdp_debug_trace(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > data_end) {
		bpf_printk("short frame: %u bytes", (__u32)(data_end - data));
		return XDP_DROP;
	}
	if (eth->h_proto == bpf_htons(ETH_P_IP))
		return parse_ipv4((void *)(eth + 1), data_end);
	if (eth->h_proto == bpf_htons(ETH_P_IPV6))
		return parse_ipv6((void *)(eth + 1), data_end);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
