// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. The socket found is taken for a full TCP socket:
 * bpf_skc_to_tcp_sock's result is read without its NULL check, which the
 * cast returns for a time-wait or request socket.
 */
#include "include/corpus.h"

struct tcp_sock {
	__u32 snd_cwnd;
} __attribute__((preserve_access_index));

SEC("xdp")
int skc_cast_unchecked(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct bpf_sock_tuple tup = {};
	struct ethhdr *eth = data;
	struct bpf_sock *sk;
	struct tcp_sock *tp;
	struct iphdr *iph;
	struct tcphdr *th;
	__u32 cwnd;

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
	cwnd = tp->snd_cwnd;
	bpf_sk_release(sk);
	return cwnd > 10 ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
