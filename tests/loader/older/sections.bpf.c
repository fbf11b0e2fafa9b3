// SPDX-License-Identifier: GPL-2.0
/*
 * Programs as the loaders before libbpf 1.0 took them: sections named in
 * the samples/bpf and iproute2 manner, a static program, and programs of
 * other types beside them.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp1")
int xdp_one(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("xdp_icmp")
int xdp_icmp_drop(struct xdp_md *ctx)
{
	return XDP_DROP;
}

SEC("prog")
int iproute2_default(struct xdp_md *ctx)
{
	return XDP_TX;
}

SEC("xdp_prog")
int xdp_prog_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

/* libbpf 1.x refuses the whole object for this one */
SEC("xdp") __attribute__((used)) static int local_xdp(struct xdp_md *ctx)
{
	return XDP_ABORTED;
}

SEC("kprobe/do_sys_open")
int probe(void *ctx)
{
	return 0;
}

SEC("tc")
int classifier(struct __sk_buff *skb)
{
	return 0;
}

SEC("my_own_section")
int unnamed_type(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
