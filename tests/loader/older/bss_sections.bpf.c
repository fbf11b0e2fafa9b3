// SPDX-License-Identifier: GPL-2.0
/*
 * Zeroed globals in a section of their own: libbpf (1.1.2 here) makes a
 * map of a .bss.* section as of .data.* and .rodata.*; bpftool 7.1's own
 * copy of libbpf does not.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u64 rx_seen SEC(".bss.counters");
__u32 last_queue SEC(".bss.counters");

SEC("xdp")
int count_queues(struct xdp_md *ctx)
{
	__sync_fetch_and_add(&rx_seen, 1);
	last_queue = ctx->rx_queue_index;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
