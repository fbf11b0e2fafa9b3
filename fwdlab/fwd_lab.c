// SPDX-License-Identifier: GPL-2.0
/* The measurement lab (fwdlab/fwd_lab.h). */
#include <netinet/in.h>
#include <stdio.h>

#include "fwdlab/fwd.h"
#include "fwdlab/fwd_lab.h"

enum { NH_WIRE1 = 1, NH_WIRE2, NH_WIRE1_V50, NH_WIRE1_V60 };

const struct hx_lab_frame hx_lab_frames[HX_LAB__COUNT] = {
	[HX_LAB_PLAIN] = { "plain", "tcp wire2 -> wire1", 2, 4, IPPROTO_TCP, -1, "10.2.0.1",
			   "10.1.0.1", 64, NH_WIRE1 },
	[HX_LAB_VLAN_POP] = { "vlan-pop", "tcp vlan 50 -> wire2 (tag removed)", 1, 4,
			      IPPROTO_TCP, 50, "10.50.0.2", "10.2.0.1", 64, NH_WIRE2 },
	[HX_LAB_VLAN_PUSH] = { "vlan-push", "tcp wire2 -> vlan 50 (tag added)", 2, 4,
			       IPPROTO_TCP, -1, "10.2.0.2", "10.50.0.2", 64, NH_WIRE1_V50 },
	[HX_LAB_VLAN_SWAP] = { "vlan-swap", "udp vlan 50 -> vlan 60 (tag rewritten)", 1, 4,
			       IPPROTO_UDP, 50, "10.50.0.3", "10.60.0.3", 64, NH_WIRE1_V60 },
	[HX_LAB_IPV6] = { "ipv6", "tcp6 wire2 -> wire1", 2, 6, IPPROTO_TCP, -1, "fd00:2::1",
			  "fd00:1::1", 64, NH_WIRE1 },
	[HX_LAB_NO_FLOW] = { "no-flow", "tcp without a microflow (punt)", 2, 4, IPPROTO_TCP,
			     -1, "10.2.0.99", "10.1.0.99", 64, 0 },
};

static void lab_spec(const struct hx_lab_frame *lf, struct hx_frame_spec *spec)
{
	hx_frame_spec_init(spec, lf->family);
	spec->proto = lf->proto;
	spec->vlan = lf->vlan;
	spec->payload_len = lf->payload;
	if (lf->family == 4) {
		hx_ipv4_addr(spec->src, lf->src);
		hx_ipv4_addr(spec->dst, lf->dst);
	} else {
		hx_ipv6_addr(spec->src, lf->src);
		hx_ipv6_addr(spec->dst, lf->dst);
	}
}

size_t hx_lab_build(enum hx_lab_kind kind, uint8_t *buf, size_t cap)
{
	struct hx_frame_spec spec;

	if (kind >= HX_LAB__COUNT)
		return 0;
	lab_spec(&hx_lab_frames[kind], &spec);
	return hx_frame_build(&spec, buf, cap);
}

int hx_lab_setup(struct hx_target *t, const uint32_t ifindex[HX_LAB_PORTS])
{
	static const struct {
		uint32_t index, port;
		uint16_t vlan;
	} hops[] = { { NH_WIRE1, 1, 0 }, { NH_WIRE2, 2, 0 }, { NH_WIRE1_V50, 1, 50 },
		     { NH_WIRE1_V60, 1, 60 } };
	static const uint32_t lifs[] = { HWXDP_LIF(1, 0), HWXDP_LIF(1, 50), HWXDP_LIF(1, 60),
					 HWXDP_LIF(2, 0), HWXDP_LIF(3, 0) };
	char dmac[18], smac[18];
	struct hx_frame_spec spec;
	unsigned int i;
	int err;

	err = hx_fwd_config(t, 1, 1, 1);
	for (i = 0; !err && i < HX_LAB_PORTS; i++)
		err = hx_fwd_port(t, ifindex[i], i + 1);
	for (i = 0; !err && i < sizeof(lifs) / sizeof(lifs[0]); i++)
		err = hx_fwd_lif(t, lifs[i], HWXDP_LIF_ENABLED);
	for (i = 0; !err && i < sizeof(hops) / sizeof(hops[0]); i++) {
		snprintf(dmac, sizeof(dmac), "02:00:00:00:%02x:01", hops[i].port);
		snprintf(smac, sizeof(smac), "02:00:00:00:%02x:fe", hops[i].port);
		err = hx_fwd_nexthop(t, hops[i].index, hops[i].port, hops[i].vlan, 1500, dmac,
				     smac);
	}
	for (i = 0; !err && i < HX_LAB__COUNT; i++) {
		const struct hx_lab_frame *lf = &hx_lab_frames[i];

		if (!lf->nexthop)
			continue;
		lab_spec(lf, &spec);
		err = hx_fwd_flow(t, HWXDP_LIF(lf->port, lf->vlan < 0 ? 0 : lf->vlan), &spec,
				  lf->nexthop);
	}
	return err;
}
