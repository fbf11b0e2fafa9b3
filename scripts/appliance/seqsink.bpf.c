// SPDX-License-Identifier: GPL-2.0
/*
 * The far end of a numbered UDP stream (udpgen with COUNT and RATE): XDP on
 * the receiver's netdev notes each sequence number in a bitmap, counts the
 * frames by the DSCP a marking build of fwd gave them and by TTL, and drops
 * them. The test reads `stats` with bpftool: frames lost are COUNT minus the
 * distinct numbers seen.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define SEQ_WORDS 16384 /* 2^20 sequence numbers */

enum {
	SEEN,	   /* distinct numbers */
	DOUBLED,   /* a number seen again */
	OUT_RANGE, /* a number past the bitmap */
	TTL_63,	   /* routed once: by the board or by the host */
	DSCP_0,	   /* DSCP 0, 1, 2, 3 and more follow */
	DSCP_1,
	DSCP_2,
	DSCP_OTHER,
	STATS,
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SEQ_WORDS);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, STATS);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

static __always_inline void add(__u32 key)
{
	__u64 *c = bpf_map_lookup_elem(&stats, &key);

	if (c)
		*c += 1;
}

SEC("xdp")
int seqsink(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u32 seq, word, dscp;
	__u64 bit, *w;

	/* IPv4 UDP to port 9 without options; the rest goes on to the stack. */
	if (data + 46 > end || data[12] != 0x08 || data[13] != 0x00 || data[14] != 0x45 ||
	    data[23] != 17 || data[36] != 0 || data[37] != 9)
		return XDP_PASS;
	/* One receive queue: frames come one at a time, no atomics needed. */
	seq = (__u32)data[42] << 24 | (__u32)data[43] << 16 | (__u32)data[44] << 8 | data[45];
	dscp = data[15] >> 2;
	add(dscp < 3 ? DSCP_0 + dscp : DSCP_OTHER);
	if (data[22] == 63)
		add(TTL_63);
	word = seq / 64;
	if (word >= SEQ_WORDS) {
		add(OUT_RANGE);
		return XDP_DROP;
	}
	w = bpf_map_lookup_elem(&seen, &word);
	if (!w)
		return XDP_DROP;
	bit = 1ull << (seq % 64);
	if (*w & bit) {
		add(DOUBLED);
	} else {
		*w |= bit;
		add(SEEN);
	}
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
