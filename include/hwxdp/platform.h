/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The BPF side of the platform: what any program that runs on both hwxdp
 * targets (the coprocessor and the kernel) may use, and what user space
 * reads back of it. It compiles under clang -target bpf and on the host, in
 * C and in C++; the kfunc declarations exist only for BPF.
 *
 * The contract of the two copies: a program that wants code for one target
 * only defines, once,
 *
 *	const volatile __u32 hwxdp_target = HWXDP_TARGET_HOST;
 *
 * and branches on it. The loader writes the global in .rodata before each
 * load (DEVICE for the translation, HOST for the kernel), so the other
 * target's branches are dead code that both verifiers drop. A program with
 * no such global is the same on both.
 *
 * Device kfuncs are declared __ksym __weak: the kernel resolves them to
 * NULL, the translator to a coprocessor unit. Test the address before the
 * call (`if (bpf_hwxdp_esp_encap) ...`), or call only under
 * `hwxdp_target == HWXDP_TARGET_DEVICE`.
 *
 * docs/programs.md describes fwd's use of each reason; docs/device.md what
 * the board counts.
 */
#ifndef HWXDP_PLATFORM_H
#define HWXDP_PLATFORM_H

#include <linux/types.h>

/* Which copy of the program this is: the value of hwxdp_target. */
enum hwxdp_target {
	HWXDP_TARGET_HOST = 0,
	HWXDP_TARGET_DEVICE = 1,
};

/*
 * Why a frame went to the host. The board counts frames per reason, and a
 * program says the reason in its XDP metadata (struct hwxdp_meta) when it
 * returns XDP_PASS. The names are the forwarding domain's; a program is free
 * to use the ones that fit it. Keep hwxdp_punt_reason_name() (fwdlab/fwd.c) in
 * step when adding one.
 */
enum hwxdp_punt_reason {
	HWXDP_PUNT_NONE = 0,	    /* not punted */
	HWXDP_PUNT_MALFORMED,	    /* truncated header, IHL < 5, bad IP version,
				       total length beyond the frame */
	HWXDP_PUNT_UNKNOWN_PORT,    /* ingress interface not in ports */
	HWXDP_PUNT_QINQ,	    /* 802.1ad outer tag or a second tag */
	HWXDP_PUNT_ETHERTYPE,	    /* neither IPv4 nor IPv6 (ARP, LLDP, ...) */
	HWXDP_PUNT_VLAN_RESERVED,   /* tag with VID 4095 */
	HWXDP_PUNT_UNKNOWN_VLAN,    /* no LIF entry for (iface_id << 12) | vlan */
	HWXDP_PUNT_LIF_OFFLOAD_OFF, /* LIF is offload-disabled: host carries it */
	HWXDP_PUNT_VLAN_FLOWS_OFF,  /* config vlan_flows is 0 and a VLAN is involved */
	HWXDP_PUNT_IP_OPTIONS,	    /* IPv4 header with options (IHL > 5) */
	HWXDP_PUNT_FRAGMENT,	    /* IPv4 fragment (MF set or offset != 0) */
	HWXDP_PUNT_IPV6_EXT,	    /* IPv6 extension header */
	HWXDP_PUNT_L4_PROTO,	    /* neither TCP nor UDP (ICMP, ESP, ...) */
	HWXDP_PUNT_FLOW_MISS,	    /* no microflow for the flow key */
	HWXDP_PUNT_NEXTHOP_MISS,    /* microflow names an invalid next hop */
	HWXDP_PUNT_EGRESS_MISS,	    /* next hop's port has no tx_ports entry */
	HWXDP_PUNT_EGRESS_LIF_OFF,  /* the LIF it would leave by is not enabled */
	HWXDP_PUNT_TTL_EXCEEDED,    /* TTL / hop limit <= 1 */
	HWXDP_PUNT_MTU_EXCEEDED,    /* IP packet longer than the next hop's MTU */
	HWXDP_PUNT_IPSEC_OFF,	    /* tunnel flow while config ipsec_flows is 0 */
	HWXDP_PUNT_SA_STALE,	    /* SA gone or its revision changed (rekey) */
	HWXDP_PUNT_NO_CRYPTO,	    /* no crypto engine on this target (the host) */
	HWXDP_PUNT_ESP_FAILED,	    /* the crypto engine refused the frame */
	HWXDP_PUNT_HOST_ONLY,	    /* path needs a host-only helper */
	HWXDP_PUNT__MAX,
};

/*
 * XDP metadata in front of a frame the program returns (where the driver
 * supports metadata): what the program decided, for the host stack, AF_XDP
 * and tests. The board takes the punt reason of an XDP_PASS from it when the
 * metadata is exactly this size. 12 bytes, a multiple of 4 as XDP requires.
 */
struct hwxdp_meta {
	__u32 lif;	   /* ingress LIF (0 when not parsed that far) */
	__u32 egress_port; /* egress interface id when forwarded */
	__u16 reason;	   /* enum hwxdp_punt_reason */
	__u16 pad;
};

#ifdef __bpf__
#ifndef __ksym
#define __ksym __attribute__((section(".ksyms")))
#endif
#ifndef __weak
#define __weak __attribute__((weak))
#endif

struct xdp_md;

/*
 * The device's crypto engine: wraps the IP packet at l3_offset in ESP tunnel
 * mode for SA sa_handle (outer IPv4, RFC 4303 / RFC 4106), keeping the L2
 * header in front. 0 on success, a negative errno with the frame untouched
 * otherwise. The kernel has no such function: it resolves to NULL there.
 */
extern int bpf_hwxdp_esp_encap(struct xdp_md *ctx, __u32 sa_handle, __u32 l3_offset) __ksym __weak;
#endif /* __bpf__ */

#endif /* HWXDP_PLATFORM_H */
