// SPDX-License-Identifier: GPL-2.0
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include <linux/bpf.h>

#include "fwdlab/fwd.h"

static const char *const punt_names[HWXDP_PUNT__MAX] = {
	[HWXDP_PUNT_NONE] = "none",
	[HWXDP_PUNT_MALFORMED] = "malformed",
	[HWXDP_PUNT_UNKNOWN_PORT] = "unknown-port",
	[HWXDP_PUNT_QINQ] = "qinq",
	[HWXDP_PUNT_ETHERTYPE] = "ethertype",
	[HWXDP_PUNT_VLAN_RESERVED] = "vlan-reserved",
	[HWXDP_PUNT_UNKNOWN_VLAN] = "unknown-vlan",
	[HWXDP_PUNT_LIF_OFFLOAD_OFF] = "lif-offload-disabled",
	[HWXDP_PUNT_VLAN_FLOWS_OFF] = "vlan-flows-off",
	[HWXDP_PUNT_IP_OPTIONS] = "ip-options",
	[HWXDP_PUNT_FRAGMENT] = "fragment",
	[HWXDP_PUNT_IPV6_EXT] = "ipv6-ext-header",
	[HWXDP_PUNT_L4_PROTO] = "l4-proto",
	[HWXDP_PUNT_FLOW_MISS] = "flow-miss",
	[HWXDP_PUNT_NEXTHOP_MISS] = "nexthop-miss",
	[HWXDP_PUNT_EGRESS_MISS] = "egress-miss",
	[HWXDP_PUNT_EGRESS_LIF_OFF] = "egress-lif-disabled",
	[HWXDP_PUNT_TTL_EXCEEDED] = "ttl-exceeded",
	[HWXDP_PUNT_MTU_EXCEEDED] = "mtu-exceeded",
	[HWXDP_PUNT_IPSEC_OFF] = "ipsec-flows-off",
	[HWXDP_PUNT_SA_STALE] = "sa-stale",
	[HWXDP_PUNT_NO_CRYPTO] = "no-crypto",
	[HWXDP_PUNT_ESP_FAILED] = "esp-failed",
	[HWXDP_PUNT_HOST_ONLY] = "host-only",
};

const char *hwxdp_punt_reason_name(unsigned int reason)
{
	return reason < HWXDP_PUNT__MAX && punt_names[reason] ? punt_names[reason] : "?";
}

const char *hwxdp_xdp_action_name(unsigned int action)
{
	static const char *const names[] = {
		[XDP_ABORTED] = "aborted", [XDP_DROP] = "drop", [XDP_PASS] = "pass",
		[XDP_TX] = "tx",           [XDP_REDIRECT] = "redirect",
	};

	return action < sizeof(names) / sizeof(names[0]) ? names[action] : "?";
}

int hx_fwd_config(struct hx_target *target, uint32_t vlan_flows, uint32_t ipsec_flows,
		  uint32_t lif_apply)
{
	struct hwxdp_config cfg = {
		.vlan_flows = vlan_flows,
		.ipsec_flows = ipsec_flows,
		.lif_apply = lif_apply,
	};
	uint32_t zero = 0;

	return hx_target_map_update(target, "config", &zero, &cfg);
}

int hx_fwd_port(struct hx_target *target, uint32_t ifindex, uint32_t iface_id)
{
	struct hwxdp_port port = { .iface_id = iface_id };
	struct bpf_devmap_val tx = { .ifindex = ifindex };
	int err;

	err = hx_target_map_update(target, "ports", &ifindex, &port);
	if (err)
		return err;
	return hx_target_map_update(target, "tx_ports", &iface_id, &tx);
}

int hx_fwd_lif(struct hx_target *target, uint32_t lif, uint32_t state)
{
	struct hwxdp_lif value = { .state = state };

	return hx_target_map_update(target, "lifs", &lif, &value);
}

int hx_fwd_nexthop(struct hx_target *target, uint32_t index, uint32_t port, uint16_t vlan,
		   uint16_t mtu, const char *dmac, const char *smac)
{
	struct hwxdp_nexthop nh = {
		.flags = HWXDP_NEXTHOP_VALID,
		.port = port,
		.vlan = vlan,
		.mtu = mtu,
	};

	hx_mac(nh.dmac, dmac);
	hx_mac(nh.smac, smac);
	return hx_target_map_update(target, "nexthops", &index, &nh);
}

int hx_fwd_sa(struct hx_target *target, uint32_t handle, uint32_t revision, uint32_t spi,
	      const char *tunnel_src, const char *tunnel_dst)
{
	struct hwxdp_sa sa = {
		.flags = HWXDP_SA_VALID,
		.revision = revision,
		.spi_be = htonl(spi),
	};

	if (inet_pton(AF_INET, tunnel_src, &sa.tunnel_src_be) != 1 ||
	    inet_pton(AF_INET, tunnel_dst, &sa.tunnel_dst_be) != 1)
		return -EINVAL;
	return hx_target_map_update(target, "sas", &handle, &sa);
}

void hx_fwd_flow_key(struct hwxdp_flow_key *key, uint32_t lif, const struct hx_frame_spec *spec)
{
	size_t addr_len = spec->family == 6 ? 16 : 4;

	memset(key, 0, sizeof(*key));
	key->lif = lif;
	key->family = spec->family == 6 ? HWXDP_FAMILY_IPV6 : HWXDP_FAMILY_IPV4;
	key->proto = spec->proto;
	key->sport_be = htons(spec->sport);
	key->dport_be = htons(spec->dport);
	memcpy(key->src, spec->src, addr_len);
	memcpy(key->dst, spec->dst, addr_len);
}

int hx_fwd_tunnel_flow(struct hx_target *target, uint32_t lif, const struct hx_frame_spec *spec,
		       uint32_t nexthop, uint32_t sa_handle, uint32_t sa_revision)
{
	struct hwxdp_flow_key key;
	struct hwxdp_flow flow = {
		.nexthop = nexthop,
		.flags = HWXDP_FLOW_TUNNEL,
		.sa_handle = sa_handle,
		.sa_revision = sa_revision,
	};

	hx_fwd_flow_key(&key, lif, spec);
	return hx_target_map_update(target, "flows", &key, &flow);
}

int hx_fwd_flow(struct hx_target *target, uint32_t lif, const struct hx_frame_spec *spec,
		uint32_t nexthop)
{
	struct hwxdp_flow_key key;
	struct hwxdp_flow flow = { .nexthop = nexthop };

	hx_fwd_flow_key(&key, lif, spec);
	return hx_target_map_update(target, "flows", &key, &flow);
}

int hx_fwd_lif_stats(struct hx_target *target, uint32_t lif, struct hwxdp_lif *out)
{
	return hx_target_map_lookup(target, "lifs", &lif, out);
}

int hx_fwd_flow_stats(struct hx_target *target, uint32_t lif, const struct hx_frame_spec *spec,
		      struct hwxdp_flow *out)
{
	struct hwxdp_flow_key key;

	hx_fwd_flow_key(&key, lif, spec);
	return hx_target_map_lookup(target, "flows", &key, out);
}

uint64_t hx_fwd_punts(struct hx_target *target, unsigned int reason)
{
	struct hwxdp_counter c;
	uint32_t key = reason;

	if (hx_target_map_lookup(target, "punt_stats", &key, &c))
		return 0;
	return c.packets;
}
