// SPDX-License-Identifier: GPL-2.0
/*
 * CO-RE relocations that fail against the running kernel, each behind the
 * check a portable program makes: a field no struct xdp_md has, read only
 * where bpf_core_field_exists says it is; an enumerator no kernel has, read
 * only where bpf_core_enum_value_exists says so; and a missing type's size.
 * The loader poisons the failed instructions; they are dead, so the program
 * loads, and a subprogram shows the same in a second function.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct xdp_md___future {
	__u32 data;
	__u32 data_end;
	__u32 data_meta;
	__u32 ingress_ifindex;
	__u32 rx_queue_index;
	__u32 egress_ifindex;
	__u32 rx_hash_future;
} __attribute__((preserve_access_index));

enum xdp_action___future {
	XDP_ABORTED___future = 0,
	XDP_CONSUME___future = 9,
};

struct xdp_meta___future {
	__u64 stamp;
};

__u64 seen[4] = {};

static __noinline int hash_of(struct xdp_md *ctx)
{
	struct xdp_md___future *f = (void *)ctx;

	if (!bpf_core_field_exists(f->rx_hash_future))
		return -1;
	return f->rx_hash_future;
}

SEC("xdp")
int core_poison(struct xdp_md *ctx)
{
	struct xdp_md___future *f = (void *)ctx;

	if (bpf_core_field_exists(f->rx_hash_future))
		seen[0] += f->rx_hash_future;
	if (bpf_core_enum_value_exists(enum xdp_action___future, XDP_CONSUME___future))
		return bpf_core_enum_value(enum xdp_action___future, XDP_CONSUME___future);
	if (bpf_core_type_exists(struct xdp_meta___future))
		seen[1] += bpf_core_type_size(struct xdp_meta___future);
	seen[2] += f->rx_queue_index;
	seen[3] += hash_of(ctx) + bpf_core_enum_value(enum xdp_action___future,
						      XDP_ABORTED___future);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
