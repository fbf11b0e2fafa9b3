// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers newer XDP code uses where frames may be non-linear: the IPv4
 * header copied out with bpf_xdp_load_bytes, its TTL lowered and its
 * checksum patched incrementally on the copy, and the two changed words
 * written back with bpf_xdp_store_bytes; then the frame goes back out
 * (XDP_TX). The time the rewrite took (bpf_ktime_get_ns twice) is held
 * against a generous budget, and a share of the frames, set by a read-only
 * global as xdp-tools configure their programs (1: all of them), is sampled
 * by bpf_get_prandom_u32 into a counter. The clock and the generator thus
 * never decide a verdict or a counter on their own. Frames that are not
 * IPv4 pass, short ones drop.
 */
#include "include/corpus.h"

const volatile __u32 sample_one_in = 1;
const volatile __u64 budget_ns = 1000000000ull;

enum {
	CNT_REWRITTEN,
	CNT_SAMPLED,
	CNT_SLOW,
	CNT_SHORT,
	CNT_MAX,
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, CNT_MAX);
} byte_counts SEC(".maps");

static __always_inline void count(__u32 what)
{
	__u64 *c = bpf_map_lookup_elem(&byte_counts, &what);

	if (c)
		__sync_fetch_and_add(c, 1);
}

static __always_inline __u16 csum_replace2(__u16 check, __u16 old, __u16 new)
{
	__u32 sum = (__u16)~check + (__u16)~old + new;

	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

SEC("xdp")
int xdp_bytes_rewrite(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr iph;
	__u16 old_word, new_word;
	__u64 t0;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;

	t0 = bpf_ktime_get_ns();
	if (bpf_xdp_load_bytes(ctx, sizeof(*eth), &iph, sizeof(iph))) {
		count(CNT_SHORT);
		return XDP_DROP;
	}
	if (iph.version != 4 || iph.ttl <= 1)
		return XDP_PASS;

	/* the TTL shares its 16-bit word with the protocol */
	old_word = *(__u16 *)&iph.ttl;
	iph.ttl--;
	new_word = *(__u16 *)&iph.ttl;
	iph.check = csum_replace2(iph.check, old_word, new_word);
	if (bpf_xdp_store_bytes(ctx, sizeof(*eth) + offsetof(struct iphdr, ttl), &iph.ttl, 4))
		return XDP_ABORTED;
	count(CNT_REWRITTEN);

	if (sample_one_in && bpf_get_prandom_u32() % sample_one_in == 0)
		count(CNT_SAMPLED);
	if (bpf_ktime_get_ns() - t0 > budget_ns)
		count(CNT_SLOW);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
