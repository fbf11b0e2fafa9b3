// SPDX-License-Identifier: GPL-2.0
/* Two lookups in one map, whose keys the frame chooses: the two values are
 * one when the keys are. A store through the first is seen by a load
 * through the second only then. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u32);
} vals SEC(".maps");

SEC("xdp")
int unit_alias(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u32 *p = data, k1, k2, *a, *b;

	if ((void *)(p + 2) > end)
		return XDP_PASS;
	k1 = p[0];
	k2 = p[1];
	a = bpf_map_lookup_elem(&vals, &k1);
	if (!a)
		return XDP_PASS;
	b = bpf_map_lookup_elem(&vals, &k2);
	if (!b)
		return XDP_PASS;
	*a = 7;
	return *b == 7 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
