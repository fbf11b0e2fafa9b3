// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. In the manner of a program that lets a TCP segment
 * through only to an established connection of the host's: the socket
 * bpf_skc_lookup_tcp returns is read (its state) before the check for NULL,
 * which the lookup returns when the host has no such socket.
 */
#include "include/corpus.h"

#define TCP_ESTABLISHED 1 /* BPF_TCP_ESTABLISHED */

SEC("xdp")
int tcp_established_only(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct bpf_sock_tuple tup = {};
	struct ethhdr *eth = data;
	struct bpf_sock *sk;
	struct iphdr *iph;
	struct tcphdr *th;
	__u32 state;

	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end || iph->ihl != 5 || iph->protocol != IPPROTO_TCP)
		return XDP_PASS;
	th = (void *)(iph + 1);
	if ((void *)(th + 1) > data_end || th->syn)
		return XDP_PASS;

	tup.ipv4.saddr = iph->saddr;
	tup.ipv4.daddr = iph->daddr;
	tup.ipv4.sport = th->source;
	tup.ipv4.dport = th->dest;
	sk = bpf_skc_lookup_tcp(ctx, &tup, sizeof(tup.ipv4), BPF_F_CURRENT_NETNS, 0);
	state = sk->state;
	if (sk)
		bpf_sk_release(sk);
	return state == TCP_ESTABLISHED ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
