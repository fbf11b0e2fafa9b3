// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. In the manner of a filter that drops UDP to ports
 * no socket is bound to: the socket bpf_sk_lookup_udp finds is given back
 * on the path that passes the frame, and forgotten on the one that drops a
 * frame for a socket bound to another device, a reference never released.
 */
#include "include/corpus.h"

SEC("xdp")
int udp_bound_only(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct bpf_sock_tuple tup = {};
	struct ethhdr *eth = data;
	struct bpf_sock *sk;
	struct iphdr *iph;
	struct udphdr *uh;

	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end || iph->ihl != 5 || iph->protocol != IPPROTO_UDP)
		return XDP_PASS;
	uh = (void *)(iph + 1);
	if ((void *)(uh + 1) > data_end)
		return XDP_PASS;

	tup.ipv4.saddr = iph->saddr;
	tup.ipv4.daddr = iph->daddr;
	tup.ipv4.sport = uh->source;
	tup.ipv4.dport = uh->dest;
	sk = bpf_sk_lookup_udp(ctx, &tup, sizeof(tup.ipv4), BPF_F_CURRENT_NETNS, 0);
	if (!sk)
		return XDP_DROP;
	if (sk->bound_dev_if && sk->bound_dev_if != ctx->ingress_ifindex)
		return XDP_DROP;
	bpf_sk_release(sk);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
