// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A flavour of struct xdp_md with a field no kernel
 * has, read without asking bpf_core_field_exists first: the relocation of
 * that read fails against the running kernel, the loader poisons the
 * instruction (a call of 0xbad2310), and the poison is on the path every
 * frame takes.
 */
#include "include/vmlinux_xdp.h"
#include <bpf/bpf_helpers.h>

struct xdp_md___unguarded {
	__u32 data;
	__u32 data_end;
	__u32 rx_vlan_tci_future;
} __attribute__((preserve_access_index));

SEC("xdp")
int xdp_core_unguarded(struct xdp_md *ctx)
{
	struct xdp_md___unguarded *f = (void *)ctx;

	return f->rx_vlan_tci_future == 1 ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
