/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The conntrack kfuncs an XDP program may call (net/netfilter/
 * nf_conntrack_bpf.c), declared as programs without vmlinux.h declare them:
 * the few fields of struct nf_conn they read, relocated by CO-RE, and the
 * options struct of the lookup under a local name.
 */
#ifndef CORPUS_NF_CONNTRACK_H
#define CORPUS_NF_CONNTRACK_H

#include <bpf/bpf_helpers.h>

#define IPS_SEEN_REPLY (1 << 1)
#define IPS_ASSURED    (1 << 2)
#define IPS_CONFIRMED  (1 << 3)

enum nf_nat_manip_type___local {
	NF_NAT_MANIP_SRC___local,
	NF_NAT_MANIP_DST___local,
};

struct nf_conn {
	unsigned long status;
	__u32 mark;
	__u32 timeout;
} __attribute__((preserve_access_index));

/* what bpf_xdp_ct_alloc gives: an entry not yet inserted */
struct nf_conn___init {
	struct nf_conn ct;
};

union nf_inet_addr___local {
	__be32 ip;
	__be32 ip6[4];
};

struct bpf_ct_opts___local {
	__s32 netns_id;
	__s32 error;
	__u8 l4proto;
	__u8 dir;
	__u16 ct_zone_id;
	__u8 ct_zone_dir;
	__u8 reserved[3];
};

extern struct nf_conn *bpf_xdp_ct_lookup(struct xdp_md *xdp_ctx, struct bpf_sock_tuple *tuple,
					 __u32 tuple__sz, struct bpf_ct_opts___local *opts,
					 __u32 opts__sz) __ksym;
extern struct nf_conn___init *bpf_xdp_ct_alloc(struct xdp_md *xdp_ctx, struct bpf_sock_tuple *tuple,
					       __u32 tuple__sz, struct bpf_ct_opts___local *opts,
					       __u32 opts__sz) __ksym;
extern struct nf_conn *bpf_ct_insert_entry(struct nf_conn___init *nfct_i) __ksym;
extern void bpf_ct_release(struct nf_conn *nfct) __ksym;
extern void bpf_ct_set_timeout(struct nf_conn___init *nfct, __u32 timeout) __ksym;
extern int bpf_ct_change_timeout(struct nf_conn *nfct, __u32 timeout) __ksym;
extern int bpf_ct_set_status(const struct nf_conn___init *nfct, __u32 status) __ksym;
extern int bpf_ct_change_status(struct nf_conn *nfct, __u32 status) __ksym;
extern int bpf_ct_set_nat_info(struct nf_conn___init *nfct, union nf_inet_addr___local *addr,
			       int port, enum nf_nat_manip_type___local manip) __ksym;

/* The TCP/IPv4 tuple of the frame, for the bad_ct_ programs: 0, or -1 for
 * another frame. */
static __always_inline int ct_tcp4_tuple(struct xdp_md *ctx, struct bpf_sock_tuple *tup)
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

#endif
