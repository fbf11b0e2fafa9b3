/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small forwarding lab for measurements: three wire ports, VLANs 50 and
 * 60 on the first, a next hop per way out, and one frame per kind of
 * forwarding (plain routed, tag removed, tag added, tag rewritten, IPv6)
 * with its microflow installed, plus a frame with none (a punt).
 */
#ifndef HWXDP_FWDLAB_FWD_LAB_H
#define HWXDP_FWDLAB_FWD_LAB_H

#include <stddef.h>
#include <stdint.h>

#include "lab/pkt.h"
#include "lab/target.h"

#define HX_LAB_PORTS 3

enum hx_lab_kind {
	HX_LAB_PLAIN,	    /* IPv4 TCP wire2 -> wire1, untagged both ways */
	HX_LAB_VLAN_POP,    /* IPv4 TCP VLAN 50 on wire1 -> wire2 */
	HX_LAB_VLAN_PUSH,   /* IPv4 TCP wire2 -> VLAN 50 on wire1 */
	HX_LAB_VLAN_SWAP,   /* IPv4 UDP VLAN 50 -> VLAN 60 */
	HX_LAB_IPV6,	    /* IPv6 TCP wire2 -> wire1 */
	HX_LAB_NO_FLOW,	    /* IPv4 TCP without a microflow: punted */
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

/* Fills target's maps: config, ports (ifindex[i] is port i + 1), LIFs,
 * next hops and the frames' flows. 0 or a negative errno. */
int hx_lab_setup(struct hx_target *target, const uint32_t ifindex[HX_LAB_PORTS]);

/* Builds frame kind into buf (HX_PKT_MAX bytes); its length, 0 on error. */
size_t hx_lab_build(enum hx_lab_kind kind, uint8_t *buf, size_t cap);

#endif /* HWXDP_FWDLAB_FWD_LAB_H */
