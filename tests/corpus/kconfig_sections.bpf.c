// SPDX-License-Identifier: GPL-2.0
/*
 * Globals the way libbpf 0.6 and later lay them out: named data sections
 * (SEC(".data.limits"), SEC(".rodata.ports"), each its own map beside
 * .data and .rodata), an array in .bss, and externs libbpf fills at load
 * time from the running kernel, LINUX_KERNEL_VERSION and a CONFIG_ option
 * in the .kconfig map (a weak one that may be missing reads as zero). A
 * frame to a listed port passes while its port's budget lasts; the kernel
 * version only picks a counter.
 */
#include "include/corpus.h"

extern __u32 LINUX_KERNEL_VERSION __attribute__((section(".kconfig")));
extern int CONFIG_HZ __attribute__((section(".kconfig"), weak));

__u32 budget[4] SEC(".data.limits") = { 100, 50, 20, 0 };
const volatile __u16 ports[4] SEC(".rodata.ports") = { 53, 80, 443, 9 };
__u64 by_version[2];

SEC("xdp")
int xdp_kconfig(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	struct udphdr *udp = (void *)(iph + 1);
	__u16 dport;
	int i;

	if (LINUX_KERNEL_VERSION >= ((5 << 16) | (10 << 8)) && CONFIG_HZ >= 0)
		__sync_fetch_and_add(&by_version[1], 1);
	else
		__sync_fetch_and_add(&by_version[0], 1);

	if ((void *)(udp + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP) || iph->ihl != 5)
		return XDP_PASS;
	if (iph->protocol != IPPROTO_UDP && iph->protocol != IPPROTO_TCP)
		return XDP_PASS;
	dport = bpf_ntohs(udp->dest);
	for (i = 0; i < 4; i++) {
		if (ports[i] != dport)
			continue;
		if (!budget[i])
			return XDP_DROP;
		budget[i]--;
		return XDP_PASS;
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
