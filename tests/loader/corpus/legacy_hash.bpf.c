// SPDX-License-Identifier: GPL-2.0
/*
 * Maps the old way: struct bpf_map_def in SEC("maps"), as objects built for
 * libbpf 0.x and the kernel samples have them. legacy_hash.twin.bpf.c is the
 * same program with BTF-defined maps.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#ifdef LEGACY_TWIN
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 128);
	__type(key, __u32);
	__type(value, __u64);
} conns SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} verdicts SEC(".maps");
#else
struct bpf_map_def_legacy {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

struct bpf_map_def_legacy conns SEC("maps") = {
	.type = BPF_MAP_TYPE_HASH,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 128,
};

struct bpf_map_def_legacy verdicts SEC("maps") = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 2,
};
#endif

SEC("xdp")
int legacy_hash_main(struct xdp_md *ctx)
{
	__u32 len = ctx->data_end - ctx->data, idx;
	__u64 one = 1, *v;

	v = bpf_map_lookup_elem(&conns, &len);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&conns, &len, &one, BPF_ANY);
	idx = len > 100;
	v = bpf_map_lookup_elem(&verdicts, &idx);
	if (v)
		__sync_fetch_and_add(v, 1);
	return idx ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
