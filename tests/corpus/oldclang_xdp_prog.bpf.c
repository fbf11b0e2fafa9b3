// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of prototype-kernel's samples as their 2017 Makefile built
 * them against samples/bpf's own bpf_helpers.h, no libbpf: the program in
 * SEC("xdp_prog"), helpers declared as function pointers to their numbers,
 * maps as the seven-field struct bpf_map_def of that header in SEC("maps"),
 * every helper function __attribute__((always_inline)), byte order by
 * __builtin_bswap16, and loops under `#pragma unroll`. An IPv4 source in
 * the blacklist, or a UDP/TCP destination port marked in the port
 * blacklist, is dropped and counted; up to two VLAN tags are stepped over.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>

#define SEC(NAME) __attribute__((section(NAME), used))
#define INLINE	  inline __attribute__((always_inline))

#define htons(x) ((__u16)__builtin_bswap16(x))
#define ntohs(x) htons(x)

static void *(*bpf_map_lookup_elem)(void *map, void *key) = (void *)BPF_FUNC_map_lookup_elem;
static int (*bpf_map_update_elem)(void *map, void *key, void *value,
				  unsigned long long flags) = (void *)BPF_FUNC_map_update_elem;

struct bpf_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
	unsigned int inner_map_idx;
	unsigned int numa_node;
};

enum {
	DDOS_FILTER_TCP = 0,
	DDOS_FILTER_UDP,
	DDOS_FILTER_MAX,
};

#define VLAN_MAX_DEPTH 2

struct vlan_hdr {
	__be16 h_vlan_TCI;
	__be16 h_vlan_encapsulated_proto;
};

struct bpf_map_def SEC("maps") blacklist = {
	.type = BPF_MAP_TYPE_PERCPU_HASH,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 100000,
	.map_flags = BPF_F_NO_PREALLOC,
};

/* the same addresses, a plain hash the control plane marks */
struct bpf_map_def SEC("maps") watchlist = {
	.type = BPF_MAP_TYPE_HASH,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 1024,
};

struct bpf_map_def SEC("maps") verdict_cnt = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 4,
};

struct bpf_map_def SEC("maps") port_blacklist = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u32),
	.max_entries = 65536,
};

struct bpf_map_def SEC("maps") port_blacklist_drop_count_tcp = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 65536,
};

struct bpf_map_def SEC("maps") port_blacklist_drop_count_udp = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 65536,
};

static INLINE void stats_action_verdict(__u32 action)
{
	__u64 *value;

	if (action > XDP_TX)
		return;
	value = bpf_map_lookup_elem(&verdict_cnt, &action);
	if (value)
		*value += 1;
}

static INLINE int parse_port(struct xdp_md *ctx, __u8 proto, void *hdr)
{
	void *data_end = (void *)(long)ctx->data_end;
	struct udphdr *udph;
	struct tcphdr *tcph;
	__u32 *value;
	__u32 dport, dport_idx;
	__u64 *drops;

	switch (proto) {
	case IPPROTO_UDP:
		udph = hdr;
		if ((void *)(udph + 1) > data_end)
			return XDP_ABORTED;
		dport = ntohs(udph->dest);
		break;
	case IPPROTO_TCP:
		tcph = hdr;
		if ((void *)(tcph + 1) > data_end)
			return XDP_ABORTED;
		dport = ntohs(tcph->dest);
		break;
	default:
		return XDP_PASS;
	}
	dport_idx = dport;
	value = bpf_map_lookup_elem(&port_blacklist, &dport_idx);
	if (value && (*value & (1 << (proto == IPPROTO_UDP ? DDOS_FILTER_UDP : DDOS_FILTER_TCP)))) {
		drops = bpf_map_lookup_elem(proto == IPPROTO_UDP ? &port_blacklist_drop_count_udp
								 : &port_blacklist_drop_count_tcp,
					    &dport_idx);
		if (drops)
			*drops += 1;
		return XDP_DROP;
	}
	return XDP_PASS;
}

static INLINE int parse_ipv4(struct xdp_md *ctx, __u64 l3_offset)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct iphdr *iph = data + l3_offset;
	__u64 *value, one = 1;
	__u32 ip_src;

	if ((void *)(iph + 1) > data_end)
		return XDP_ABORTED;
	ip_src = iph->saddr;
	value = bpf_map_lookup_elem(&blacklist, &ip_src);
	if (value) {
		*value += 1;
		return XDP_DROP;
	}
	value = bpf_map_lookup_elem(&watchlist, &ip_src);
	if (value) {
		/* odd marks drop; even ones are remembered for the next source */
		if (*value & 1)
			return XDP_DROP;
		__sync_fetch_and_add(value, 2);
	} else if (iph->ttl == 1) {
		bpf_map_update_elem(&watchlist, &ip_src, &one, BPF_NOEXIST);
	}
	return parse_port(ctx, iph->protocol, (void *)iph + (iph->ihl << 2));
}

static INLINE int parse_ipv6(struct xdp_md *ctx, __u64 l3_offset)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ipv6hdr *ip6h = data + l3_offset;
	__u32 folded = 0;

	if ((void *)(ip6h + 1) > data_end)
		return XDP_ABORTED;
		/* an address of all-ones words is a scanner's, dropped */
#pragma unroll
	for (int i = 0; i < 4; i++)
		folded |= ~ip6h->saddr.s6_addr32[i];
	if (!folded)
		return XDP_DROP;
	return parse_port(ctx, ip6h->nexthdr, ip6h + 1);
}

static INLINE int handle_eth_protocol(struct xdp_md *ctx, __u16 eth_proto, __u64 l3_offset)
{
	switch (eth_proto) {
	case ETH_P_IP:
		return parse_ipv4(ctx, l3_offset);
	case ETH_P_IPV6:
		return parse_ipv6(ctx, l3_offset);
	case ETH_P_ARP:
	default:
		return XDP_PASS;
	}
}

SEC("xdp_prog")
int xdp_program(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u16 eth_proto = 0;
	__u64 l3_offset = sizeof(*eth);
	__u32 action;

	if ((void *)(eth + 1) > data_end) {
		action = XDP_DROP;
		goto out;
	}
	eth_proto = ntohs(eth->h_proto);
#pragma unroll
	for (int i = 0; i < VLAN_MAX_DEPTH; i++) {
		struct vlan_hdr *vh = data + l3_offset;

		if (eth_proto != ETH_P_8021Q && eth_proto != ETH_P_8021AD)
			break;
		if ((void *)(vh + 1) > data_end) {
			action = XDP_DROP;
			goto out;
		}
		eth_proto = ntohs(vh->h_vlan_encapsulated_proto);
		l3_offset += sizeof(*vh);
	}
	action = handle_eth_protocol(ctx, eth_proto, l3_offset);
out:
	stats_action_verdict(action);
	return action;
}

char _license[] SEC("license") = "GPL";
__u32 _version SEC("version") = 0x040e00;
