// SPDX-License-Identifier: GPL-2.0
/*
 * BPF-to-BPF calls: static and global subprograms, calls nested three deep,
 * a bpf_loop callback, a bounded loop, and two programs that reach the same
 * subprograms in a different order, so each gets its own appended layout.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

static __noinline __u64 leaf(__u64 x)
{
	return x * 3 + 1;
}

static __noinline __u64 bump(__u32 idx)
{
	__u64 *v = bpf_map_lookup_elem(&counts, &idx);

	if (!v)
		return 0;
	*v += leaf(idx);
	return *v;
}

__noinline int mid(int a)
{
	return bump(a & 3) + leaf(a);
}

static __noinline int deep(int a)
{
	if (a > 10)
		return mid(a - 1);
	return leaf(a);
}

static int add_index(__u32 i, void *ctx)
{
	__u64 *sum = ctx;

	*sum += i;
	return 0;
}

SEC("xdp")
int calls_main(struct xdp_md *ctx)
{
	int i, n = ctx->data_end - ctx->data;
	__u64 sum = 0;

	for (i = 0; i < 16 && i < n; i++)
		sum += leaf(i);
	bpf_loop(8, add_index, &sum, 0);
	return (deep(n) + bump(1) + sum) & 1 ? XDP_PASS : XDP_DROP;
}

SEC("xdp")
int calls_other(struct xdp_md *ctx)
{
	int n = ctx->data_end - ctx->data;

	return bump(2) + mid(n) + deep(n) ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
