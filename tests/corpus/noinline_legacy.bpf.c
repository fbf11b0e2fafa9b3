// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of Katran's older balancer and other code of the bpf_load.c
 * era: maps as struct bpf_map_def in SEC("maps") (with the inner-map and
 * NUMA fields some headers carried), and the work split into static
 * __noinline subprograms taking five arguments each: packet pointers, an
 * offset, a protocol and a pointer into the caller's stack; a ring size,
 * seeds and an out-parameter; a map value pointer. A TCP or UDP flow to a
 * port the control array serves picks a real by a hash of its five-tuple,
 * gets the real's MAC as destination and goes back out (XDP_TX); the
 * reals' per-CPU statistics count packets and bytes.
 */
#include "include/corpus.h"

struct bpf_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
	unsigned int inner_map_idx;
	unsigned int numa_node;
};

#define RING_SIZE 16
#define CTL_PORT  0
#define CTL_MAC	  1

struct flow_key {
	__u32 src;
	__u32 dst;
	__u16 sport;
	__u16 dport;
	__u8 proto;
	__u8 pad[3];
};

struct real_definition {
	__u8 mac[6];
	__u16 flags;
};

struct lb_stats {
	__u64 v1; /* packets */
	__u64 v2; /* bytes */
};

struct bpf_map_def SEC("maps") ctl_array = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 4,
};

struct bpf_map_def SEC("maps") reals = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct real_definition),
	.max_entries = RING_SIZE,
};

struct bpf_map_def SEC("maps") reals_stats = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct lb_stats),
	.max_entries = RING_SIZE,
	.numa_node = 0,
};

static __noinline int parse_l4(void *data, void *data_end, __u64 off, __u8 proto,
			       struct flow_key *flow)
{
	if (proto == IPPROTO_TCP) {
		struct tcphdr *th = data + off;

		if ((void *)(th + 1) > data_end)
			return -1;
		flow->sport = th->source;
		flow->dport = th->dest;
	} else if (proto == IPPROTO_UDP) {
		struct udphdr *uh = data + off;

		if ((void *)(uh + 1) > data_end)
			return -1;
		flow->sport = uh->source;
		flow->dport = uh->dest;
	} else {
		return -1;
	}
	flow->proto = proto;
	return 0;
}

static __noinline __u32 pick_real(const struct flow_key *flow, __u32 ring_size, __u32 seed_a,
				  __u32 seed_b, __u32 *pos)
{
	__u32 h = seed_a;

	h ^= flow->src;
	h *= 0x9e3779b1;
	h ^= flow->dst + seed_b;
	h *= 0x85ebca6b;
	h ^= ((__u32)flow->sport << 16) | flow->dport;
	h ^= h >> 15;
	h += flow->proto;
	*pos = h;
	return ring_size ? h % ring_size : 0;
}

static __noinline int account(struct lb_stats *st, __u64 bytes, __u32 real, __u32 ring_size,
			      __u64 limit)
{
	if (!st || real >= ring_size)
		return -1;
	st->v1 += 1;
	st->v2 += bytes;
	return st->v1 > limit;
}

SEC("xdp")
int balancer_ingress(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct flow_key flow = {};
	struct real_definition *dst;
	__u32 key = CTL_PORT, real, pos;
	__u64 *served_port, *mac_mode;
	struct iphdr *iph;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = data + sizeof(*eth);
	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;
	if (iph->ihl != 5 || (iph->frag_off & bpf_htons(0x3fff)))
		return XDP_PASS;
	flow.src = iph->saddr;
	flow.dst = iph->daddr;
	if (parse_l4(data, data_end, sizeof(*eth) + sizeof(*iph), iph->protocol, &flow))
		return XDP_PASS;

	served_port = bpf_map_lookup_elem(&ctl_array, &key);
	if (!served_port)
		return XDP_PASS;
	/* bit 0: every port; else the one in bits 16..31, in network order */
	if (!(*served_port & 1) && (__u16)(*served_port >> 16) != flow.dport)
		return XDP_PASS;

	real = pick_real(&flow, RING_SIZE, 0xdeadbeef, iph->id, &pos);
	dst = bpf_map_lookup_elem(&reals, &real);
	if (!dst)
		return XDP_DROP;
	if (account(bpf_map_lookup_elem(&reals_stats, &real), bpf_ntohs(iph->tot_len), real,
		    RING_SIZE, ~0ull) < 0)
		return XDP_ABORTED;

	key = CTL_MAC;
	mac_mode = bpf_map_lookup_elem(&ctl_array, &key);
	if (mac_mode && (*mac_mode & 1))
		__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, dst->mac, ETH_ALEN);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
