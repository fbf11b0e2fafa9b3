// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the kernel's conntrack selftests for XDP: a TCP segment
 * of a connection netfilter tracks is passed on once the connection is
 * assured, its mark kept in step with the flow; a SYN of an untracked one
 * gets an entry made at once (alloc, timeout, status, insert), so that the
 * stack behind sees it tracked. Everything else is dropped, as a
 * SYN-flood filter in front of the host's TCP would.
 */
#include "include/corpus.h"
#include "include/nf_conntrack.h"

#define CT_MARK_SEEN   0x5a
#define NEW_CT_TIMEOUT 10000 /* ms */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} ct_stats SEC(".maps");

enum { STAT_HIT, STAT_MISS, STAT_NEW, STAT_INSERT_FAIL };

static __always_inline void count(__u32 what)
{
	__u64 *v = bpf_map_lookup_elem(&ct_stats, &what);

	if (v)
		__sync_fetch_and_add(v, 1);
}

static __always_inline int tcp_tuple(struct xdp_md *ctx, struct bpf_sock_tuple *tup,
				     struct tcphdr **thp)
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
	*thp = th;
	return 0;
}

SEC("xdp")
int ct_synproxy(struct xdp_md *ctx)
{
	struct bpf_ct_opts___local opts = {
		.netns_id = BPF_F_CURRENT_NETNS,
		.l4proto = IPPROTO_TCP,
	};
	struct bpf_sock_tuple tup = {};
	struct nf_conn___init *ct_new;
	struct nf_conn *ct;
	struct tcphdr *th;
	unsigned long status;

	if (tcp_tuple(ctx, &tup, &th))
		return XDP_PASS;

	ct = bpf_xdp_ct_lookup(ctx, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	if (ct) {
		status = ct->status;
		if (ct->mark != CT_MARK_SEEN)
			ct->mark = CT_MARK_SEEN;
		bpf_ct_release(ct);
		count(STAT_HIT);
		return status & IPS_ASSURED ? XDP_PASS : XDP_DROP;
	}
	count(STAT_MISS);
	if (!th->syn || th->ack)
		return XDP_DROP;

	ct_new = bpf_xdp_ct_alloc(ctx, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	if (!ct_new)
		return XDP_DROP;
	bpf_ct_set_timeout(ct_new, NEW_CT_TIMEOUT);
	bpf_ct_set_status(ct_new, IPS_CONFIRMED);
	ct = bpf_ct_insert_entry(ct_new);
	if (!ct) {
		count(STAT_INSERT_FAIL);
		return XDP_DROP;
	}
	bpf_ct_change_timeout(ct, NEW_CT_TIMEOUT);
	count(STAT_NEW);
	bpf_ct_release(ct);
	return XDP_PASS;
}

/* A new UDP flow to a virtual address gets its destination rewritten by
 * netfilter's NAT before the stack sees it. */
SEC("xdp")
int ct_dnat(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct bpf_ct_opts___local opts = {
		.netns_id = BPF_F_CURRENT_NETNS,
		.l4proto = IPPROTO_UDP,
	};
	union nf_inet_addr___local backend = { .ip = bpf_htonl(0x0a000002) };
	struct bpf_sock_tuple tup = {};
	struct ethhdr *eth = data;
	struct nf_conn___init *ct_new;
	struct nf_conn *ct;
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

	ct = bpf_xdp_ct_lookup(ctx, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	if (ct) {
		bpf_ct_change_status(ct, IPS_SEEN_REPLY);
		bpf_ct_release(ct);
		return XDP_PASS;
	}
	ct_new = bpf_xdp_ct_alloc(ctx, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	if (!ct_new)
		return XDP_PASS;
	bpf_ct_set_nat_info(ct_new, &backend, bpf_htons(53), NF_NAT_MANIP_DST___local);
	ct = bpf_ct_insert_entry(ct_new);
	if (ct)
		bpf_ct_release(ct);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
