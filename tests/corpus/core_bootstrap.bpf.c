// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of libbpf-bootstrap's examples: types from a vmlinux.h
 * (include/vmlinux_xdp.h, cut down) instead of the uapi headers, so that
 * every access to the context and the headers carries a CO-RE relocation;
 * configuration in `const volatile` globals (.rodata) a loader may set
 * before the load; counts in a .bss array; bpf_printk on a rare path, before
 * any count (where the device can still hand the frame to the host);
 * BPF_CORE_READ_BITFIELD for the IPv4 header length and
 * bpf_core_field_exists for a context field newer kernels have. UDP to the
 * configured port is dropped, IPv4 with options is logged and passed, and
 * frames from a configured queue are counted apart.
 */
#include "include/vmlinux_xdp.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>

#define ETH_P_IP    0x0800
#define IPPROTO_UDP 17

const volatile __u16 drop_port = 9;
const volatile __u32 watch_queue = 0;
const volatile bool verbose = false;

__u64 counts[4] = {};

SEC("xdp")
int xdp_core_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct udphdr *udp;
	struct iphdr *iph;
	__u32 ihl;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;
	ihl = BPF_CORE_READ_BITFIELD(iph, ihl);
	if (ihl != 5) {
		bpf_printk("ipv4 header of %u words from %x", ihl, bpf_ntohl(iph->saddr));
		return XDP_PASS;
	}
	if (verbose)
		bpf_printk("ipv4 proto %d", iph->protocol);
	if (iph->protocol != IPPROTO_UDP)
		return XDP_PASS;
	udp = (void *)(iph + 1);
	if ((void *)(udp + 1) > data_end)
		return XDP_DROP;
	__sync_fetch_and_add(&counts[1], 1);
	if (bpf_core_field_exists(ctx->rx_queue_index) && ctx->rx_queue_index == watch_queue)
		__sync_fetch_and_add(&counts[0], 1);
	if (udp->dest == bpf_htons(drop_port)) {
		__sync_fetch_and_add(&counts[2], 1);
		return XDP_DROP;
	}
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
