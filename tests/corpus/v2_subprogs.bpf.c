// SPDX-License-Identifier: GPL-2.0
/*
 * A program split into many small functions, static and global, none of
 * them inlined, built for the second BPF instruction set (-mcpu=v2) with
 * clang's loop unrolling off (-fno-unroll-loops), as some projects build
 * to keep objects small: a global function reads the ethertype from the
 * context (the kernel checks it once, against its prototype), static ones
 * parse, hash the addresses in a loop over their words, pick a bucket,
 * fill a key on the caller's stack through a pointer and count into a map.
 * Helpers return through out-parameters as well as r0.
 */
#include "include/corpus.h"

struct flow_key {
	__u32 addr_hash;
	__u16 port;
	__u8 proto;
	__u8 family;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct flow_key);
	__type(value, __u64);
	__uint(max_entries, 1024);
} flow_hits SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 16);
} buckets SEC(".maps");

__noinline int frame_proto(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > data_end)
		return -1;
	return bpf_ntohs(eth->h_proto);
}

static __noinline __u32 mix(__u32 h, __u32 w)
{
	h ^= w;
	h *= 0x01000193;
	return h ^ (h >> 15);
}

static __noinline __u32 hash_words(const __u32 *w, int n)
{
	__u32 h = 0x811c9dc5;
	int i;

	for (i = 0; i < 8; i++) {
		if (i >= n)
			break;
		h = mix(h, w[i]);
	}
	return h;
}

static __noinline int l4_port(void *l4, void *data_end, __u8 proto, __u16 *port)
{
	struct udphdr *udp = l4;

	if (proto != IPPROTO_UDP && proto != IPPROTO_TCP)
		return 0;
	/* source and destination sit at the same place in both headers */
	if ((void *)(udp + 1) > data_end)
		return -1;
	*port = bpf_ntohs(udp->dest);
	return 1;
}

static __noinline void count_bucket(__u32 h)
{
	__u32 b = h & 15;
	__u64 *v = bpf_map_lookup_elem(&buckets, &b);

	if (v)
		__sync_fetch_and_add(v, 1);
}

static __noinline int record(struct flow_key *key)
{
	__u64 one = 1, *v;

	v = bpf_map_lookup_elem(&flow_hits, key);
	if (v) {
		__sync_fetch_and_add(v, 1);
		return 0;
	}
	return bpf_map_update_elem(&flow_hits, key, &one, BPF_NOEXIST);
}

static __noinline int fill_v4(struct iphdr *iph, void *data_end, struct flow_key *key)
{
	__u32 words[2];
	int r;

	if ((void *)(iph + 1) > data_end)
		return -1;
	if (iph->ihl != 5)
		return -1;
	words[0] = iph->saddr;
	words[1] = iph->daddr;
	key->addr_hash = hash_words(words, 2);
	key->proto = iph->protocol;
	key->family = 4;
	r = l4_port(iph + 1, data_end, iph->protocol, &key->port);
	return r < 0 ? -1 : 0;
}

static __noinline int fill_v6(struct ipv6hdr *ip6h, void *data_end, struct flow_key *key)
{
	__u32 words[8];
	int r;

	if ((void *)(ip6h + 1) > data_end)
		return -1;
	__builtin_memcpy(words, &ip6h->saddr, 32);
	key->addr_hash = hash_words(words, 8);
	key->proto = ip6h->nexthdr;
	key->family = 6;
	r = l4_port(ip6h + 1, data_end, ip6h->nexthdr, &key->port);
	return r < 0 ? -1 : 0;
}

SEC("xdp")
int xdp_subprogs(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct flow_key key = {};
	int proto, err;

	proto = frame_proto(ctx);
	if (proto < 0)
		return XDP_DROP;
	if (proto == ETH_P_IP)
		err = fill_v4(data + sizeof(struct ethhdr), data_end, &key);
	else if (proto == ETH_P_IPV6)
		err = fill_v6(data + sizeof(struct ethhdr), data_end, &key);
	else
		return XDP_PASS;
	if (err)
		return XDP_DROP;
	count_bucket(key.addr_hash);
	if (record(&key))
		return XDP_ABORTED;
	return key.port == 9 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
