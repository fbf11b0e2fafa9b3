// SPDX-License-Identifier: GPL-2.0
/*
 * Routing by longest-prefix match: the destination address of an IPv4 or
 * IPv6 frame is looked up in a prefix table; the route found names the
 * verdict and a tag written over bytes of the destination MAC (0..3 for
 * IPv4, 2..5 for IPv6).
 * A frame no route covers goes to the stack. Small on purpose: it is how
 * the device's LPM tables are checked against the kernel's, frame by frame.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct route4_key {
	__u32 prefixlen;
	__u8 addr[4];
};

struct route6_key {
	__u32 prefixlen;
	__u8 addr[16];
};

struct route {
	__u32 action; /* an XDP verdict, low 2 bits */
	__u32 tag;
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct route4_key);
	__type(value, struct route);
	__uint(max_entries, 4096);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} routes4 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct route6_key);
	__type(value, struct route);
	__uint(max_entries, 4096);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} routes6 SEC(".maps");

SEC("xdp")
int lpm_route(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct route *r;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	/* Each family ends on its own, so that each lookup names one table. */
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = (void *)(eth + 1);
		struct route4_key k = { .prefixlen = 32 };

		if ((void *)(ip + 1) > data_end)
			return XDP_DROP;
		__builtin_memcpy(k.addr, &ip->daddr, sizeof(k.addr));
		r = bpf_map_lookup_elem(&routes4, &k);
		if (!r)
			return XDP_PASS;
		__builtin_memcpy(eth->h_dest, &r->tag, sizeof(r->tag));
		return r->action & 3;
	}
	if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = (void *)(eth + 1);
		struct route6_key k = { .prefixlen = 128 };

		if ((void *)(ip6 + 1) > data_end)
			return XDP_DROP;
		__builtin_memcpy(k.addr, &ip6->daddr, sizeof(k.addr));
		r = bpf_map_lookup_elem(&routes6, &k);
		if (!r)
			return XDP_PASS;
		__builtin_memcpy(eth->h_dest + 2, &r->tag, sizeof(r->tag));
		return r->action & 3;
	}
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
