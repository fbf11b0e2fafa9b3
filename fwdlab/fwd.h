/* SPDX-License-Identifier: GPL-2.0 */
/* Filling and reading the forwarding program's tables on any target. */
#ifndef HWXDP_FWDLAB_FWD_H
#define HWXDP_FWDLAB_FWD_H

#include <stdint.h>

#include "hwxdp/fwd.h"
#include "lab/pkt.h"
#include "lab/target.h"

/* The name of a punt reason ("flow-miss"), or "?" when out of range. */
const char *hwxdp_punt_reason_name(unsigned int reason);
/* The name of an XDP verdict ("redirect"). */
const char *hwxdp_xdp_action_name(unsigned int action);

/* Every function returns 0 or a negative errno from the target. */
int hx_fwd_config(struct hx_target *target, uint32_t vlan_flows, uint32_t ipsec_flows,
		  uint32_t lif_apply);
/* A wire port: ports[ifindex] = iface_id, tx_ports[iface_id] = ifindex. */
int hx_fwd_port(struct hx_target *target, uint32_t ifindex, uint32_t iface_id);
int hx_fwd_lif(struct hx_target *target, uint32_t lif, uint32_t state);
int hx_fwd_nexthop(struct hx_target *target, uint32_t index, uint32_t port, uint16_t vlan,
		   uint16_t mtu, const char *dmac, const char *smac);
int hx_fwd_sa(struct hx_target *target, uint32_t handle, uint32_t revision, uint32_t spi,
	      const char *tunnel_src, const char *tunnel_dst);

/* The flow key a frame built from spec has when it arrives on lif. */
void hx_fwd_flow_key(struct hwxdp_flow_key *key, uint32_t lif, const struct hx_frame_spec *spec);
/* A microflow for spec's connection on lif; a tunnel one when sa_revision != 0
 * is given through hx_fwd_tunnel_flow. */
int hx_fwd_flow(struct hx_target *target, uint32_t lif, const struct hx_frame_spec *spec,
		uint32_t nexthop);
int hx_fwd_tunnel_flow(struct hx_target *target, uint32_t lif, const struct hx_frame_spec *spec,
		       uint32_t nexthop, uint32_t sa_handle, uint32_t sa_revision);

int hx_fwd_lif_stats(struct hx_target *target, uint32_t lif, struct hwxdp_lif *out);
int hx_fwd_flow_stats(struct hx_target *target, uint32_t lif, const struct hx_frame_spec *spec,
		      struct hwxdp_flow *out);
/* Packets punted for reason so far (0 when the map cannot be read). */
uint64_t hx_fwd_punts(struct hx_target *target, unsigned int reason);

#endif /* HWXDP_FWDLAB_FWD_H */
