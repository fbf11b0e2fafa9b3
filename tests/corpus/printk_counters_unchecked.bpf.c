// SPDX-License-Identifier: GPL-2.0
/*
 * Quick debugging code of the kind left in a program: a queue's counters
 * printed with bpf_trace_vprintk straight from their lookup, the NULL check
 * forgotten. The kernel takes it: the arguments may be NULL, and the helper
 * refuses NULL with a size when it runs (-EINVAL); a map value that may be
 * NULL is memory enough. On the device the call is host-only: it punts.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64[4]);
	__uint(max_entries, 16);
} counters SEC(".maps");

SEC("xdp")
int xdp_print_counters(struct xdp_md *ctx)
{
	static const char fmt[] = "rx %llu drop %llu pass %llu tx %llu";
	__u32 key = ctx->rx_queue_index;
	__u64 *cnt = bpf_map_lookup_elem(&counters, &key);

	bpf_trace_vprintk(fmt, sizeof(fmt), cnt, 4 * sizeof(__u64));
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
