// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. The program marks the entry assured by writing its
 * status word: the kernel lets XDP write nf_conn->mark and nothing else
 * (status changes go through bpf_ct_change_status).
 */
#include "include/corpus.h"
#include "include/nf_conntrack.h"

static __always_inline int tcp4_tuple(struct xdp_md *ctx, struct bpf_sock_tuple *tup)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph;
	struct tcphdr *th;

	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return -1;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end || iph->ihl != 5 || iph->protocol != IPPROTO_TCP)
		return -1;
	th = (void *)(iph + 1);
	if ((void *)(th + 1) > data_end)
		return -1;
	tup->ipv4.saddr = iph->saddr;
	tup->ipv4.daddr = iph->daddr;
	tup->ipv4.sport = th->source;
	tup->ipv4.dport = th->dest;
	return 0;
}

SEC("xdp")
int ct_write_status(struct xdp_md *ctx)
{
	struct bpf_ct_opts___local opts = {
		.netns_id = BPF_F_CURRENT_NETNS,
		.l4proto = IPPROTO_TCP,
	};
	struct bpf_sock_tuple tup = {};
	struct nf_conn *ct;
	if (tcp4_tuple(ctx, &tup))
		return XDP_PASS;
	ct = bpf_xdp_ct_lookup(ctx, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	if (!ct)
		return XDP_PASS;
	ct->status |= IPS_ASSURED;
	bpf_ct_release(ct);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
