// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A conntrack entry read past its end: the program
 * takes a word 256 bytes into struct nf_conn (248 bytes on this kernel), as
 * a program built against another kernel's layout without CO-RE would.
 */
#include "include/corpus.h"
#include "include/nf_conntrack.h"

SEC("xdp")
int ct_oob(struct xdp_md *ctx)
{
	struct bpf_ct_opts___local opts = {
		.netns_id = BPF_F_CURRENT_NETNS,
		.l4proto = IPPROTO_TCP,
	};
	struct bpf_sock_tuple tup = {};
	struct nf_conn *ct;
	__u32 word;

	if (ct_tcp4_tuple(ctx, &tup))
		return XDP_PASS;
	ct = bpf_xdp_ct_lookup(ctx, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	if (!ct)
		return XDP_PASS;
	word = *(volatile __u32 *)((void *)ct + 256);
	bpf_ct_release(ct);
	return word ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
