// SPDX-License-Identifier: GPL-2.0
/* The forwarding lab (fwdlab/fwd_lab.h). */
#include <netinet/in.h>
#include <stdio.h>

#include "fwdlab/fwd.h"
#include "fwdlab/fwd_lab.h"

const struct hx_lab_nexthop_desc hx_lab_nexthops[] = {
	{ NH_P1, 1, 0, 1500 },	     { NH_P2, 2, 0, 1500 },	 { NH_P1_V50, 1, 50, 1500 },
	{ NH_P1_V60, 1, 60, 9000 },  { NH_P2_V60, 2, 60, 1500 }, { NH_P3, 3, 0, 1500 },
	{ NH_P2_SMALL, 2, 0, 1280 }, { NH_NO_PORT, 7, 0, 1500 }, { NH_P1_V80, 1, 80, 1500 },
};

const struct hx_lab_lif hx_lab_lifs[] = {
	{ 1, 0, HWXDP_LIF_ENABLED },	       { 1, 50, HWXDP_LIF_ENABLED },
	{ 1, 60, HWXDP_LIF_ENABLED },	       { 1, 70, HWXDP_LIF_ADMIN_DISABLED },
	{ 1, 80, HWXDP_LIF_OFFLOAD_DISABLED }, { 2, 0, HWXDP_LIF_ENABLED },
	{ 2, 60, HWXDP_LIF_ENABLED },	       { 3, 0, HWXDP_LIF_ENABLED },
};

_Static_assert(sizeof(hx_lab_nexthops) / sizeof(hx_lab_nexthops[0]) == HX_LAB_NEXTHOP_CNT,
	       "a next hop per index below NH__END");
_Static_assert(sizeof(hx_lab_lifs) / sizeof(hx_lab_lifs[0]) == HX_LAB_LIF_CNT,
	       "HX_LAB_LIF_CNT counts hx_lab_lifs");

const struct hx_lab_nexthop_desc *hx_lab_nexthop(uint32_t index)
{
	for (unsigned int i = 0; i < HX_LAB_NEXTHOP_CNT; i++)
		if (hx_lab_nexthops[i].index == index)
			return &hx_lab_nexthops[i];
	return NULL;
}

int hx_lab_topology(struct hx_target *t, const uint32_t ifindex[HX_LAB_PORTS])
{
	char dmac[18], smac[18];
	unsigned int i;
	int err;

	err = hx_fwd_config(t, 1, 1, 1);
	for (i = 0; !err && i < HX_LAB_PORTS; i++)
		err = hx_fwd_port(t, ifindex[i], i + 1);
	for (i = 0; !err && i < HX_LAB_LIF_CNT; i++)
		err = hx_fwd_lif(t, HWXDP_LIF(hx_lab_lifs[i].port, hx_lab_lifs[i].vlan),
				 hx_lab_lifs[i].state);
	for (i = 0; !err && i < HX_LAB_NEXTHOP_CNT; i++) {
		const struct hx_lab_nexthop_desc *nh = &hx_lab_nexthops[i];

		snprintf(dmac, sizeof(dmac), "02:00:00:00:%02x:01", nh->port);
		snprintf(smac, sizeof(smac), "02:00:00:00:%02x:fe", nh->port);
		err = hx_fwd_nexthop(t, nh->index, nh->port, nh->vlan, nh->mtu, dmac, smac);
	}
	if (!err)
		err = hx_fwd_sa(t, HX_LAB_SA, HX_LAB_SA_REVISION, 0x1001, "192.0.2.1",
				"198.51.100.1");
	return err;
}

const struct hx_lab_frame hx_lab_frames[HX_LAB__COUNT] = {
	[HX_LAB_PLAIN] = { "plain", "tcp wire2 -> wire1", 2, 4, IPPROTO_TCP, -1, "10.2.0.1",
			   "10.1.0.1", 64, NH_P1 },
	[HX_LAB_VLAN_POP] = { "vlan-pop", "tcp vlan 50 -> wire2 (tag removed)", 1, 4, IPPROTO_TCP,
			      50, "10.50.0.2", "10.2.0.1", 64, NH_P2 },
	[HX_LAB_VLAN_PUSH] = { "vlan-push", "tcp wire2 -> vlan 50 (tag added)", 2, 4, IPPROTO_TCP,
			       -1, "10.2.0.2", "10.50.0.2", 64, NH_P1_V50 },
	[HX_LAB_VLAN_SWAP] = { "vlan-swap", "udp vlan 50 -> vlan 60 (tag rewritten)", 1, 4,
			       IPPROTO_UDP, 50, "10.50.0.3", "10.60.0.3", 64, NH_P1_V60 },
	[HX_LAB_IPV6] = { "ipv6", "tcp6 wire2 -> wire1", 2, 6, IPPROTO_TCP, -1, "fd00:2::1",
			  "fd00:1::1", 64, NH_P1 },
	[HX_LAB_NO_FLOW] = { "no-flow", "tcp without a microflow (punt)", 2, 4, IPPROTO_TCP, -1,
			     "10.2.0.99", "10.1.0.99", 64, 0 },
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
	struct hx_frame_spec spec;
	unsigned int i;
	int err;

	err = hx_lab_topology(t, ifindex);
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
