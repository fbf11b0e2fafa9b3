// SPDX-License-Identifier: GPL-2.0
/*
 * Tables kept on the stack, as small classifiers build them per frame: a
 * 64-byte DSCP-to-class table filled at the start and indexed by a value
 * read from the frame and masked into range (a stack access at a variable
 * offset, which the kernel allows a privileged loader), a 16-word histogram
 * of nibbles of the addresses updated at variable offsets, and a 128-byte
 * scratch buffer cleared with __builtin_memset and copied from the frame.
 * The class picks the verdict; the histogram's largest bucket is counted.
 *
 * The kernel processes 4,627 instructions at -O2 (5,439 for -mcpu=v3,
 * 4,842 at -O1). In the loop that finds the largest bucket, hist[best] is
 * a stack read at the offset the previous rounds chose, which makes best
 * precise: each round has as many states as best has values, and the
 * paths that repeat them are pruned only while the states stored inside
 * the loop are kept.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 16);
} top_bucket SEC(".maps");

SEC("xdp")
int xdp_stack_tables(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	__u8 dscp_class[64];
	__u16 hist[16];
	__u8 scratch[128];
	__u32 i, best = 0, key;
	__u8 cls;
	__u64 *v;

	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;

	for (i = 0; i < 64; i++)
		dscp_class[i] = i < 8 ? 0 : i < 32 ? 1 : i == 46 ? 3 : 2;
	__builtin_memset(hist, 0, sizeof(hist));
	__builtin_memset(scratch, 0, sizeof(scratch));
	__builtin_memcpy(scratch, iph, sizeof(*iph));

	for (i = 0; i < 8; i++) {
		__u8 b = scratch[12 + (i >> 1)];

		hist[(i & 1 ? b >> 4 : b) & 15]++;
	}
	for (i = 1; i < 16; i++)
		if (hist[i] > hist[best])
			best = i;
	key = best;
	v = bpf_map_lookup_elem(&top_bucket, &key);
	if (v)
		__sync_fetch_and_add(v, 1);

	cls = dscp_class[(iph->tos >> 2) & 63];
	if (cls == 3)
		return XDP_TX;
	return cls == 0 && scratch[8] < 2 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
