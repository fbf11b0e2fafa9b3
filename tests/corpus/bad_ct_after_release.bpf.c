// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. The entry is given back before its mark is read:
 * the pointer is the conntrack table's again, no longer the program's.
 */
#include "include/corpus.h"
#include "include/nf_conntrack.h"

SEC("xdp")
int ct_after_release(struct xdp_md *ctx)
{
	struct bpf_ct_opts___local opts = {
		.netns_id = BPF_F_CURRENT_NETNS,
		.l4proto = IPPROTO_TCP,
	};
	struct bpf_sock_tuple tup = {};
	struct nf_conn *ct;
	__u32 mark;

	if (ct_tcp4_tuple(ctx, &tup))
		return XDP_PASS;
	ct = bpf_xdp_ct_lookup(ctx, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	if (!ct)
		return XDP_PASS;
	bpf_ct_release(ct);
	mark = ct->mark;
	return mark ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
