// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A new entry is allocated and, on second
 * thought, given back with bpf_ct_release, which takes an inserted entry
 * (struct nf_conn), not an allocated one (struct nf_conn___init).
 */
#include "include/corpus.h"
#include "include/nf_conntrack.h"

SEC("xdp")
int ct_release_alloc(struct xdp_md *ctx)
{
	struct bpf_ct_opts___local opts = {
		.netns_id = BPF_F_CURRENT_NETNS,
		.l4proto = IPPROTO_TCP,
	};
	struct bpf_sock_tuple tup = {};
	struct nf_conn *ct;
	struct nf_conn___init *ct_new;

	if (ct_tcp4_tuple(ctx, &tup))
		return XDP_PASS;
	ct_new = bpf_xdp_ct_alloc(ctx, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	if (!ct_new)
		return XDP_PASS;
	ct = (struct nf_conn *)ct_new;
	bpf_ct_release(ct);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
