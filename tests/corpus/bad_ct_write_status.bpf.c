// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. The program marks the entry assured by writing its
 * status word: the kernel lets XDP write nf_conn->mark and nothing else
 * (status changes go through bpf_ct_change_status).
 */
#include "include/corpus.h"
#include "include/nf_conntrack.h"

SEC("xdp")
int ct_write_status(struct xdp_md *ctx)
{
	struct bpf_ct_opts___local opts = {
		.netns_id = BPF_F_CURRENT_NETNS,
		.l4proto = IPPROTO_TCP,
	};
	struct bpf_sock_tuple tup = {};
	struct nf_conn *ct;
	if (ct_tcp4_tuple(ctx, &tup))
		return XDP_PASS;
	ct = bpf_xdp_ct_lookup(ctx, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	if (!ct)
		return XDP_PASS;
	ct->status |= IPS_ASSURED;
	bpf_ct_release(ct);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
