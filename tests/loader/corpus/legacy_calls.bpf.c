// SPDX-License-Identifier: GPL-2.0
/*
 * Legacy maps with globals and subprograms: three struct bpf_map_def maps
 * (flags included), .data and .bss, and calls. legacy_calls.twin.bpf.c is
 * the same program with BTF-defined maps.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#ifdef LEGACY_TWIN
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u64);
	__type(value, __u32);
} owners SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} knobs SEC(".maps");
#else
struct bpf_map_def_legacy {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

struct bpf_map_def_legacy stats SEC("maps") = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 8,
};

struct bpf_map_def_legacy owners SEC("maps") = {
	.type = BPF_MAP_TYPE_HASH,
	.key_size = sizeof(__u64),
	.value_size = sizeof(__u32),
	.max_entries = 64,
	.map_flags = BPF_F_NO_PREALLOC,
};

struct bpf_map_def_legacy knobs SEC("maps") = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u32),
	.max_entries = 1,
};
#endif

__u64 frames = 1;
__u32 last_owner;

static __noinline void count(__u32 slot)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &slot);

	if (v)
		*v += 1;
	frames++;
}

static __noinline __u32 owner_of(__u64 key)
{
	__u32 *o = bpf_map_lookup_elem(&owners, &key);

	count(1);
	return o ? *o : 0;
}

SEC("xdp")
int legacy_calls_main(struct xdp_md *ctx)
{
	__u32 zero = 0, *knob, len = ctx->data_end - ctx->data;

	count(0);
	knob = bpf_map_lookup_elem(&knobs, &zero);
	if (knob && *knob)
		return XDP_PASS;
	last_owner = owner_of(len);
	return last_owner ? XDP_TX : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
