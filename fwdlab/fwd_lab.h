/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The forwarding lab: one topology of fwd's tables for every user of it —
 * `hwxdp lab`, `prog stats`, the fwd tests (tests/common/fwd_env.h), the
 * differential run (tests/devdiff) and the tests of `hwxdp run` — and, for
 * measurements, one frame per kind of forwarding with its microflow.
 *
 *   ports     1, 2, 3 (wire1..wire3); ifindex[i] is port i + 1
 *   config    vlan_flows 1, ipsec_flows 1, lif_apply 1
 *   LIFs      1.0, 1.50, 1.60, 2.0, 2.60, 3.0 enabled, 1.70 admin-disabled,
 *             1.80 offload-disabled (hx_lab_lifs)
 *   next hops enum hx_lab_nexthop (hx_lab_nexthops), MTU 1500 unless it
 *             says otherwise; dmac 02:00:00:00:0<port>:01, smac
 *             02:00:00:00:0<port>:fe
 *   SA        HX_LAB_SA at revision HX_LAB_SA_REVISION, SPI 0x1001,
 *             192.0.2.1 -> 198.51.100.1
 *
 * hx_lab_topology writes no microflow: each user adds those of its frames.
 */
#ifndef HWXDP_FWDLAB_FWD_LAB_H
#define HWXDP_FWDLAB_FWD_LAB_H

#include <stddef.h>
#include <stdint.h>

#include "lab/pkt.h"
#include "lab/target.h"

#define HX_LAB_PORTS 3

/* The next hops, by index in the nexthops map. */
enum hx_lab_nexthop {
	NH_P1 = 1,   /* port 1, untagged */
	NH_P2,	     /* port 2, untagged */
	NH_P1_V50,   /* port 1, VLAN 50 */
	NH_P1_V60,   /* port 1, VLAN 60, MTU 9000 */
	NH_P2_V60,   /* port 2, VLAN 60 */
	NH_P3,	     /* port 3, untagged */
	NH_P2_SMALL, /* port 2, untagged, MTU 1280 */
	NH_NO_PORT,  /* port 7, which no wire port is: egress-miss */
	NH_P1_V80,   /* port 1, VLAN 80, an offload-disabled LIF: egress-lif-disabled */
	NH__END,     /* the first index the lab leaves unwritten */
};

struct hx_lab_nexthop_desc {
	uint32_t index, port;
	uint16_t vlan, mtu;
};

struct hx_lab_lif {
	uint32_t port, vlan, state;
};

#define HX_LAB_NEXTHOP_CNT (NH__END - 1)
#define HX_LAB_LIF_CNT	   8
#define HX_LAB_SA	   1
#define HX_LAB_SA_REVISION 2

/* HX_LAB_NEXTHOP_CNT and HX_LAB_LIF_CNT entries. */
extern const struct hx_lab_nexthop_desc hx_lab_nexthops[];
extern const struct hx_lab_lif hx_lab_lifs[];

/* The lab's next hop at index, NULL for an index it leaves unwritten. */
const struct hx_lab_nexthop_desc *hx_lab_nexthop(uint32_t index);

/* Fills target's config, ports, LIFs, next hops and SA as above.
 * 0 or a negative errno from the target. */
int hx_lab_topology(struct hx_target *target, const uint32_t ifindex[HX_LAB_PORTS]);

enum hx_lab_kind {
	HX_LAB_PLAIN,	  /* IPv4 TCP wire2 -> wire1, untagged both ways */
	HX_LAB_VLAN_POP,  /* IPv4 TCP VLAN 50 on wire1 -> wire2 */
	HX_LAB_VLAN_PUSH, /* IPv4 TCP wire2 -> VLAN 50 on wire1 */
	HX_LAB_VLAN_SWAP, /* IPv4 UDP VLAN 50 -> VLAN 60 */
	HX_LAB_IPV6,	  /* IPv6 TCP wire2 -> wire1 */
	HX_LAB_NO_FLOW,	  /* IPv4 TCP without a microflow: punted */
	HX_LAB__COUNT,
};

struct hx_lab_frame {
	const char *name; /* short, no spaces: "plain", "vlan-pop" */
	const char *what;
	unsigned int port; /* 1-based ingress port */
	int family;
	uint8_t proto;
	int vlan;
	const char *src, *dst;
	size_t payload;
	uint32_t nexthop; /* 0: no flow */
};

extern const struct hx_lab_frame hx_lab_frames[HX_LAB__COUNT];

/* The topology and the measurement frames' flows. 0 or a negative errno. */
int hx_lab_setup(struct hx_target *target, const uint32_t ifindex[HX_LAB_PORTS]);

/* Builds frame kind into buf (HX_PKT_MAX bytes); its length, 0 on error. */
size_t hx_lab_build(enum hx_lab_kind kind, uint8_t *buf, size_t cap);

#endif /* HWXDP_FWDLAB_FWD_LAB_H */
