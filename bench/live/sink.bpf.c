// SPDX-License-Identifier: GPL-2.0
/* The appliance bench's receiver: counts the UDP frames that arrive and
 * drops them, so that the count is exact and the receiver costs little. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} received SEC(".maps");

SEC("xdp")
int sink(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u32 key = 0;
	__u64 *n;

	/* IPv4 UDP only: ARP and the rest go on to the stack. */
	if (data + 34 > end || data[12] != 0x08 || data[13] != 0x00 || data[23] != 17)
		return XDP_PASS;
	n = bpf_map_lookup_elem(&received, &key);
	if (n)
		__sync_fetch_and_add(n, 1);
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
