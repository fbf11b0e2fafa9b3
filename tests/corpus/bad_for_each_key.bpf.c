// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A bpf_for_each_map_elem callback that clears the
 * key it is given, as if that removed the entry: a callback may read its
 * element's key, never write it.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 16);
} seen SEC(".maps");

static __u64 forget(void *map, __u32 *key, __u64 *value, void *ctx)
{
	if (*value > 100)
		*key = 0;
	return 0;
}

SEC("xdp")
int xdp_bad_for_each_key(struct xdp_md *ctx)
{
	bpf_for_each_map_elem(&seen, forget, NULL, 0);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
