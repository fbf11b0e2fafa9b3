// SPDX-License-Identifier: GPL-2.0
/*
 * Weak kfuncs: the device's ESP engine, checked for before use, called from
 * the program and from a subprogram; and one that no target has.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int bpf_hwxdp_esp_encap(struct xdp_md *ctx, __u32 sa_handle,
			       __u32 l3_offset) __ksym __weak;
extern int bpf_hwxdp_nowhere(struct xdp_md *ctx) __ksym __weak;

static __noinline int encap(struct xdp_md *ctx, __u32 sa)
{
	if (!bpf_hwxdp_esp_encap)
		return -1;
	return bpf_hwxdp_esp_encap(ctx, sa, 14);
}

SEC("xdp")
int kfunc_main(struct xdp_md *ctx)
{
	if (bpf_hwxdp_nowhere && bpf_hwxdp_nowhere(ctx))
		return XDP_ABORTED;
	if (!bpf_hwxdp_esp_encap)
		return XDP_PASS;
	if (bpf_hwxdp_esp_encap(ctx, 1, 14))
		return XDP_DROP;
	return encap(ctx, 2) ? XDP_DROP : XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
