// SPDX-License-Identifier: GPL-2.0
/* A counter per ingress port in a table chosen through a map of maps, the
 * way load balancers keep one table per service. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct counters {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} counters0 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, struct counters);
} tables SEC(".maps") = { .values = { &counters0 } };

SEC("xdp")
int count_by_table(struct xdp_md *ctx)
{
	__u32 which = ctx->rx_queue_index & 1, slot = ctx->ingress_ifindex & 3;
	void *table = bpf_map_lookup_elem(&tables, &which);
	__u64 *count;

	if (!table)
		return XDP_PASS;
	count = bpf_map_lookup_elem(table, &slot);
	if (!count)
		return XDP_DROP;
	__sync_fetch_and_add(count, 1);
	return XDP_PASS;
}

/* the map the lookup gives may be NULL: used unchecked, it is refused */
SEC("xdp")
int unchecked_table(struct xdp_md *ctx)
{
	__u32 which = 0, slot = 0;
	void *table = bpf_map_lookup_elem(&tables, &which);
	__u64 *count = bpf_map_lookup_elem(table, &slot);

	return count ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
