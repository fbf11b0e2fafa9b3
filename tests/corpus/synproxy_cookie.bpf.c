// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of a SYN proxy in XDP (the kernel selftests' xdp_synproxy,
 * xdp-tools' synproxy mode): a SYN to a proxied port on which a listener
 * exists is answered at once, in place (XDP_TX), with a SYN-ACK whose
 * sequence number is a SYN cookie, so that a flood makes no request sockets;
 * the ACK that comes back goes on to the stack only with a valid cookie.
 * The listener is found with bpf_sk_lookup_tcp, an ACK's socket of any kind
 * (established, time-wait) with bpf_skc_lookup_tcp, and each is given back
 * on every path. The SYN's options are not kept: the SYN-ACK has none, and
 * its cookie encodes the smallest MSS.
 */
#include "include/corpus.h"

#define TCP_LISTEN 10 /* BPF_TCP_LISTEN */
#define IP_DF	   0x4000

const volatile __u16 proxied_ports[2] = { 80, 443 };

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} synproxy_stats SEC(".maps");

enum { STAT_SYNACK, STAT_COOKIE_OK, STAT_COOKIE_BAD, STAT_NO_LISTENER };

static __always_inline void count(__u32 what)
{
	__u64 *c = bpf_map_lookup_elem(&synproxy_stats, &what);

	if (c)
		*c += 1;
}

static __always_inline int proxied(__be16 port)
{
	return port == bpf_htons(proxied_ports[0]) || port == bpf_htons(proxied_ports[1]);
}

static __always_inline __u16 csum_fold(__u64 sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

static __always_inline __u16 ip_csum(struct iphdr *iph)
{
	__u16 *w = (__u16 *)iph;
	__u64 sum = 0;
	int i;

#pragma unroll
	for (i = 0; i < (int)sizeof(*iph) / 2; i++)
		sum += w[i];
	return csum_fold(sum);
}

/* The listener of the tuple's destination, or none: its state read, the
 * reference given back at once. */
static __always_inline int listening(struct xdp_md *ctx, struct bpf_sock_tuple *tup)
{
	struct bpf_sock *sk;
	__u32 state;

	sk = bpf_sk_lookup_tcp(ctx, tup, sizeof(tup->ipv4), BPF_F_CURRENT_NETNS, 0);
	if (!sk)
		return 0;
	state = sk->state;
	bpf_sk_release(sk);
	return state == TCP_LISTEN;
}

static __always_inline int answer_syn(struct ethhdr *eth, struct iphdr *iph, struct tcphdr *th)
{
	__u8 mac[ETH_ALEN];
	__be32 addr;
	__be16 port;
	__s64 cookie;
	__u64 sum;

	cookie = bpf_tcp_raw_gen_syncookie_ipv4(iph, th, sizeof(*th));
	if (cookie < 0)
		return XDP_DROP;

	__builtin_memcpy(mac, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, mac, ETH_ALEN);

	addr = iph->saddr;
	iph->saddr = iph->daddr;
	iph->daddr = addr;
	iph->tot_len = bpf_htons(sizeof(*iph) + sizeof(*th));
	iph->id = 0;
	iph->frag_off = bpf_htons(IP_DF);
	iph->ttl = 64;
	iph->check = 0;
	iph->check = ip_csum(iph);

	port = th->source;
	th->source = th->dest;
	th->dest = port;
	th->ack_seq = bpf_htonl(bpf_ntohl(th->seq) + 1);
	th->seq = bpf_htonl((__u32)cookie);
	((__u8 *)th)[12] = (sizeof(*th) / 4) << 4;
	((__u8 *)th)[13] = 0x12; /* SYN, ACK */
	th->urg_ptr = 0;
	th->check = 0;
	sum = (__u64)(iph->saddr >> 16) + (iph->saddr & 0xffff) + (iph->daddr >> 16) +
	      (iph->daddr & 0xffff) + bpf_htons(IPPROTO_TCP) + bpf_htons(sizeof(*th));
	sum += (__u32)bpf_csum_diff(0, 0, (__be32 *)th, sizeof(*th), 0);
	th->check = csum_fold(sum);
	count(STAT_SYNACK);
	return XDP_TX;
}

SEC("xdp")
int syncookie_xdp(struct xdp_md *ctx)
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
	if ((void *)(iph + 1) > data_end || iph->ihl != 5 || iph->protocol != IPPROTO_TCP ||
	    (iph->frag_off & bpf_htons(0x3fff)))
		return XDP_PASS;
	th = (void *)(iph + 1);
	if ((void *)(th + 1) > data_end || !proxied(th->dest) || th->rst || th->fin)
		return XDP_PASS;

	tup.ipv4.saddr = iph->saddr;
	tup.ipv4.daddr = iph->daddr;
	tup.ipv4.sport = th->source;
	tup.ipv4.dport = th->dest;

	if (th->syn && !th->ack) {
		if (!listening(ctx, &tup)) {
			count(STAT_NO_LISTENER);
			return XDP_PASS;
		}
		return answer_syn(eth, iph, th);
	}
	if (!th->ack || th->syn)
		return XDP_PASS;

	/* an ACK of a connection the stack has goes on unchecked */
	sk = bpf_skc_lookup_tcp(ctx, &tup, sizeof(tup.ipv4), BPF_F_CURRENT_NETNS, 0);
	if (!sk)
		return XDP_PASS;
	state = sk->state;
	bpf_sk_release(sk);
	if (state != TCP_LISTEN)
		return XDP_PASS;
	if (bpf_tcp_raw_check_syncookie_ipv4(iph, th)) {
		count(STAT_COOKIE_BAD);
		return XDP_DROP;
	}
	count(STAT_COOKIE_OK);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
