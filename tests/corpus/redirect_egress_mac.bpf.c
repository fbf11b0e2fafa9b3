// SPDX-License-Identifier: GPL-2.0
/*
 * samples/bpf xdp_redirect_map's shape with its second stage: the port's
 * program swaps the MACs and redirects into a devmap of struct
 * bpf_devmap_val, an entry chosen by the destination's last byte, whose
 * entries user space fills with a port and, for some, a program. That
 * program (SEC("xdp/devmap")) runs on each frame bound for its port: the
 * port's own MAC, looked up by ctx->egress_ifindex, becomes the source;
 * a frame for a port with no MAC, or going back out the port it came in by,
 * is dropped; one of the local experimental ethertype aborts, ARP is
 * answered with XDP_TX and IPv6 multicast sent on to entry 1 with
 * bpf_redirect_map, neither of which a devmap program has any use of (the
 * kernel drops both). Counters by outcome and by the frame's rx queue.
 */
#include "include/corpus.h"

#define EXPERIMENTAL 0x88b5

struct port_mac {
	__u8 addr[6];
	__u16 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct bpf_devmap_val));
	__uint(max_entries, 4);
} tx_port SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32); /* ifindex */
	__type(value, struct port_mac);
	__uint(max_entries, 8);
} port_macs SEC(".maps");

/* [0] sent, [1] no MAC, [2] back out its port, [3] aborted, [4] ARP,
 * [5] rx queue 0, [6] another rx queue, [7] multicast */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
} egress_stats SEC(".maps");

static __always_inline void count(__u32 what)
{
	__u64 *n = bpf_map_lookup_elem(&egress_stats, &what);

	if (n)
		__sync_fetch_and_add(n, 1);
}

static __always_inline void swap_src_dst_mac(struct ethhdr *eth)
{
	__u8 tmp[ETH_ALEN];

	__builtin_memcpy(tmp, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, tmp, ETH_ALEN);
}

SEC("xdp")
int xdp_redirect_map_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	swap_src_dst_mac(eth);
	/* after the swap, the old destination's last byte */
	return bpf_redirect_map(&tx_port, eth->h_source[5] & 3, XDP_DROP);
}

SEC("xdp/devmap")
int xdp_redirect_map_egress(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u32 port = ctx->egress_ifindex;
	struct ethhdr *eth = data;
	struct port_mac *mac;

	count(ctx->rx_queue_index ? 6 : 5);
	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (ctx->ingress_ifindex == port) {
		count(2);
		return XDP_DROP;
	}
	mac = bpf_map_lookup_elem(&port_macs, &port);
	if (!mac) {
		count(1);
		return XDP_DROP;
	}
	__builtin_memcpy(eth->h_source, mac->addr, ETH_ALEN);
	if (eth->h_proto == bpf_htons(EXPERIMENTAL)) {
		count(3);
		return XDP_ABORTED;
	}
	if (eth->h_proto == bpf_htons(ETH_P_ARP)) {
		count(4);
		return XDP_TX;
	}
	if (eth->h_dest[0] == 0x33 && eth->h_dest[1] == 0x33) {
		count(7);
		return bpf_redirect_map(&tx_port, 1, 0);
	}
	count(0);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
