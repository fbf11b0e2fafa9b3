// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A table that reserves room for a timer as raw
 * words rather than a struct bpf_timer: the value's BTF declares no timer,
 * so the kernel has none to initialise there.
 */
#include "include/corpus.h"

struct aging {
	__u64 count;
	__u64 timer_room[2];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct aging);
	__uint(max_entries, 64);
} aging SEC(".maps");

SEC("xdp")
int xdp_aging(struct xdp_md *ctx)
{
	struct aging fresh = {}, *a;
	__u32 key = ctx->ingress_ifindex;

	bpf_map_update_elem(&aging, &key, &fresh, BPF_NOEXIST);
	a = bpf_map_lookup_elem(&aging, &key);
	if (!a)
		return XDP_PASS;
	a->count++;
	bpf_timer_init((struct bpf_timer *)a->timer_room, &aging, 1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
