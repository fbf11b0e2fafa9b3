// SPDX-License-Identifier: GPL-2.0
/*
 * CO-RE code that adapts to the kernel it meets, as tools built once for
 * many kernels are written: a "flavour" of struct xdp_md (the ___suffix is
 * dropped when libbpf matches it by name) that declares a field no kernel
 * has between fields of the real one, so that its local offsets are not
 * the kernel's; bpf_core_field_exists decides whether it is read, and the
 * ingress interface is read through the flavour at the kernel's offset, as
 * libbpf relocates it. bpf_core_type_exists and bpf_core_enum_value_exists
 * pick a path too. Frames are counted by which of them held.
 *
 * The loader relocates it as libbpf does, against the running kernel's
 * BTF: both copies read ingress_ifindex at the kernel's offset 12, and the
 * read of rx_timestamp_lo, which no kernel has, is poisoned and dead.
 */
#include "include/vmlinux_xdp.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>

/* ingress_ifindex at 8, where the kernel's struct xdp_md has it at 12 */
struct xdp_md___future {
	__u32 data;
	__u32 data_end;
	__u32 ingress_ifindex;
	__u32 rx_timestamp_lo;
} __attribute__((preserve_access_index));

struct xdp_rx_meta_future {
	__u64 stamp;
} __attribute__((preserve_access_index));

enum xdp_action___future {
	XDP_REDIRECT___future = 4,
	XDP_CONSUME___future = 7,
};

__u64 paths[4] = {};

SEC("xdp")
int xdp_core_flavors(struct xdp_md *ctx)
{
	struct xdp_md___future *f = (void *)ctx;
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u32 ifindex = 0;

	if (bpf_core_field_exists(f->rx_timestamp_lo) && f->rx_timestamp_lo == 1)
		__sync_fetch_and_add(&paths[0], 1);
	if (bpf_core_field_exists(f->ingress_ifindex))
		ifindex = f->ingress_ifindex;
	if (bpf_core_type_exists(struct xdp_rx_meta_future))
		__sync_fetch_and_add(&paths[1], 1);
	if (bpf_core_enum_value_exists(enum xdp_action___future, XDP_CONSUME___future))
		__sync_fetch_and_add(&paths[2], 1);
	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (ifindex == 1)
		__sync_fetch_and_add(&paths[3], 1);
	return eth->h_proto == bpf_htons(0x0800) ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
