// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of samples/bpf xdp_router_ipv4: the IPv4 destination is
 * looked up in an LPM trie whose value names the next hop's MAC and port;
 * an ARP-like exact table (hash by address) overrides it for hosts. The
 * frame gets new MACs, its TTL decremented with the checksum adjusted, and
 * is redirected with bpf_redirect to the port. Per-protocol counters sit in
 * a per-CPU array; misses pass to the stack.
 */
#include "include/corpus.h"

struct trie_value {
	__u8 prefix[4];
	__be64 value;
	int ifindex;
	int metric;
	__be32 gw;
};

struct direct_map {
	__be32 arp_ip;
	int ifindex;
	__u64 mac;
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(key_size, 8);
	__type(value, struct trie_value);
	__uint(max_entries, 50);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} lpm_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 256);
} rxcnt SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __be32);
	__type(value, struct direct_map);
	__uint(max_entries, 50);
} exact_match SEC(".maps");

static __always_inline void set_src_dst_mac(void *data, void *src, void *dst)
{
	unsigned short *source = src;
	unsigned short *dest = dst;
	unsigned short *p = data;

	__builtin_memcpy(p, dest, 6);
	__builtin_memcpy(p + 3, source, 6);
}

SEC("xdp_router_ipv4")
int xdp_router_ipv4_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	__be64 *dest_mac = NULL, *src_mac = NULL;
	void *data = (void *)(long)ctx->data;
	struct trie_value *prefix_value;
	int rc = XDP_DROP, forward_to;
	struct ethhdr *eth = data;
	union key_4 {
		__u32 b32[2];
		__u8 b8[8];
	} key4;
	long *value;
	__u16 h_proto;
	__u32 ipproto;
	__u64 nh_off;

	nh_off = sizeof(*eth);
	if (data + nh_off > data_end)
		return rc;

	h_proto = eth->h_proto;

	if (h_proto == bpf_htons(ETH_P_8021Q) || h_proto == bpf_htons(ETH_P_8021AD)) {
		struct vlan_hdr *vhdr = data + nh_off;

		nh_off += sizeof(struct vlan_hdr);
		if (data + nh_off > data_end)
			return rc;
		h_proto = vhdr->h_vlan_encapsulated_proto;
	}
	if (h_proto == bpf_htons(ETH_P_ARP)) {
		return XDP_PASS;
	} else if (h_proto == bpf_htons(ETH_P_IP)) {
		struct direct_map *direct_entry;
		__be32 src_ip = 0, dest_ip = 0;
		struct iphdr *iph = data + nh_off;

		if ((void *)(iph + 1) > data_end)
			return XDP_DROP;
		ipproto = iph->protocol;
		src_ip = iph->saddr;
		dest_ip = iph->daddr;
		(void)src_ip;

		value = bpf_map_lookup_elem(&rxcnt, &ipproto);
		if (value)
			*value += 1;
		direct_entry = bpf_map_lookup_elem(&exact_match, &dest_ip);
		if (direct_entry && direct_entry->mac && direct_entry->arp_ip == dest_ip) {
			dest_mac = (__be64 *)&direct_entry->mac;
			forward_to = direct_entry->ifindex;
		} else {
			key4.b32[0] = 32;
			key4.b8[4] = dest_ip & 0xff;
			key4.b8[5] = (dest_ip >> 8) & 0xff;
			key4.b8[6] = (dest_ip >> 16) & 0xff;
			key4.b8[7] = (dest_ip >> 24) & 0xff;
			prefix_value = bpf_map_lookup_elem(&lpm_map, &key4);
			if (!prefix_value)
				return XDP_PASS;
			if (!prefix_value->value)
				return XDP_PASS;
			dest_mac = (__be64 *)&prefix_value->value;
			forward_to = prefix_value->ifindex;
		}
		if (iph->ttl <= 1)
			return XDP_PASS;
		{
			__u32 check = iph->check;

			check += bpf_htons(0x0100);
			iph->check = (__u16)(check + (check >= 0xFFFF));
			iph->ttl--;
		}
		src_mac = (__be64 *)eth->h_dest;
		{
			__u8 smac[6];

			__builtin_memcpy(smac, src_mac, 6);
			set_src_dst_mac(data, smac, dest_mac);
		}
		return bpf_redirect(forward_to, 0);
	} else {
		ipproto = 0;
	}
	value = bpf_map_lookup_elem(&rxcnt, &ipproto);
	if (value)
		*value += 1;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
