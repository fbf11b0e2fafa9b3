// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A conntrack filter that returns early for an
 * entry not yet assured and forgets to give that entry back: the lookup's
 * reference leaks on that path.
 */
#include "include/corpus.h"
#include "include/nf_conntrack.h"

SEC("xdp")
int ct_leak(struct xdp_md *ctx)
{
	struct bpf_ct_opts___local opts = {
		.netns_id = BPF_F_CURRENT_NETNS,
		.l4proto = IPPROTO_TCP,
	};
	struct bpf_sock_tuple tup = {};
	struct nf_conn *ct;
	unsigned long status;

	if (ct_tcp4_tuple(ctx, &tup))
		return XDP_PASS;
	ct = bpf_xdp_ct_lookup(ctx, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	if (!ct)
		return XDP_DROP;
	status = ct->status;
	if (!(status & IPS_ASSURED))
		return XDP_DROP;
	bpf_ct_release(ct);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
