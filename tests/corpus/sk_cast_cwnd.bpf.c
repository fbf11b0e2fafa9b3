// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the kernel's socket-cast samples: for a TCP segment of a
 * connection the host holds, the socket found is seen as what it is (a full
 * TCP socket, a time-wait one, a request) through the bpf_skc_to_*
 * helpers, and its congestion window and RTT kept in a per-CPU table that
 * a user-space monitor reads. The lookup's reference is given back through
 * the cast pointer where there is one, as the kernel allows; the MPTCP cast
 * takes only the socket the lookup gave.
 */
#include "include/corpus.h"

struct tcp_sock {
	__u32 snd_cwnd;
	__u32 srtt_us;
	__u32 rcv_nxt;
} __attribute__((preserve_access_index));

struct tcp_timewait_sock {
	__u32 tw_rcv_wnd;
} __attribute__((preserve_access_index));

struct tcp_request_sock {
	__u32 rcv_isn;
} __attribute__((preserve_access_index));

struct mptcp_sock {
	__u64 snd_nxt;
} __attribute__((preserve_access_index));

struct flow_sample {
	__u32 cwnd;
	__u32 srtt_us;
	__u64 seen;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct flow_sample);
} tcp_samples SEC(".maps");

enum { SAMPLE_FULL, SAMPLE_TIMEWAIT, SAMPLE_REQUEST, SAMPLE_MPTCP };

static __always_inline void sample(__u32 kind, __u32 cwnd, __u32 srtt)
{
	struct flow_sample *s = bpf_map_lookup_elem(&tcp_samples, &kind);

	if (!s)
		return;
	s->cwnd = cwnd;
	s->srtt_us = srtt;
	s->seen++;
}

SEC("xdp")
int sk_cast_cwnd(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct bpf_sock_tuple tup = {};
	struct tcp_timewait_sock *tw;
	struct tcp_request_sock *req;
	struct ethhdr *eth = data;
	struct bpf_sock *sk;
	struct mptcp_sock *msk;
	struct tcp_sock *tp;
	struct iphdr *iph;
	struct tcphdr *th;

	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end || iph->ihl != 5 || iph->protocol != IPPROTO_TCP)
		return XDP_PASS;
	th = (void *)(iph + 1);
	if ((void *)(th + 1) > data_end)
		return XDP_PASS;

	tup.ipv4.saddr = iph->saddr;
	tup.ipv4.daddr = iph->daddr;
	tup.ipv4.sport = th->source;
	tup.ipv4.dport = th->dest;
	sk = bpf_skc_lookup_tcp(ctx, &tup, sizeof(tup.ipv4), BPF_F_CURRENT_NETNS, 0);
	if (!sk)
		return XDP_PASS;

	tp = bpf_skc_to_tcp_sock(sk);
	if (tp) {
		sample(SAMPLE_FULL, tp->snd_cwnd, tp->srtt_us >> 3);
		msk = bpf_skc_to_mptcp_sock(sk);
		if (msk)
			sample(SAMPLE_MPTCP, (__u32)msk->snd_nxt, 0);
		bpf_sk_release(tp);
		return XDP_PASS;
	}
	tw = bpf_skc_to_tcp_timewait_sock(sk);
	if (tw) {
		sample(SAMPLE_TIMEWAIT, tw->tw_rcv_wnd, 0);
		bpf_sk_release(sk);
		/* the host answers a segment to a closed connection */
		return XDP_PASS;
	}
	req = bpf_skc_to_tcp_request_sock(sk);
	if (req)
		sample(SAMPLE_REQUEST, req->rcv_isn, 0);
	bpf_sk_release(sk);
	return XDP_PASS;
}

/* The same for IPv6 and UDP: a datagram to no socket is dropped here. */
SEC("xdp")
int sk_cast_udp6(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct bpf_sock_tuple tup = {};
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6h;
	struct bpf_sock *sk;
	struct udphdr *uh;
	int verdict;

	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IPV6))
		return XDP_PASS;
	ip6h = (void *)(eth + 1);
	if ((void *)(ip6h + 1) > data_end || ip6h->nexthdr != IPPROTO_UDP)
		return XDP_PASS;
	uh = (void *)(ip6h + 1);
	if ((void *)(uh + 1) > data_end)
		return XDP_PASS;

	__builtin_memcpy(tup.ipv6.saddr, &ip6h->saddr, sizeof(tup.ipv6.saddr));
	__builtin_memcpy(tup.ipv6.daddr, &ip6h->daddr, sizeof(tup.ipv6.daddr));
	tup.ipv6.sport = uh->source;
	tup.ipv6.dport = uh->dest;
	sk = bpf_sk_lookup_udp(ctx, &tup, sizeof(tup.ipv6), BPF_F_CURRENT_NETNS, 0);
	if (!sk)
		return XDP_DROP;
	verdict = bpf_skc_to_udp6_sock(sk) || bpf_skc_to_unix_sock(sk) ? XDP_PASS : XDP_DROP;
	bpf_sk_release(sk);
	return verdict;
}

char _license[] SEC("license") = "GPL";
