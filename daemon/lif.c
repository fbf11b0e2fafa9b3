// SPDX-License-Identifier: GPL-2.0
/*
 * Logical interfaces: VLAN 0 is the port itself with its TAP hx<N>; each
 * VLAN LIF of a port has a TAP of its own, hx<N>.<vlan>, the host's VLAN
 * interface (this kernel need not have 802.1Q). The dataplane hands a
 * LIF's punted frames to its TAP untagged and tags what the host sends on
 * it. A LIF's MTU and state follow to its TAP (admin-disabled: down) and,
 * when the port runs fwd, to the lifs map.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "daemon/flows.h"
#include "daemon/fwd.h"
#include "daemon/internal.h"
#include "daemon/tap.h"
#include "device/tables.h"
#include "hwxdp/fwd.h"

static const char *const state_names[] = {
	[HWXDP_LIF_ENABLED] = "enabled",
	[HWXDP_LIF_OFFLOAD_DISABLED] = "offload-disabled",
	[HWXDP_LIF_ADMIN_DISABLED] = "admin-disabled",
};

const char *lif_state_name(uint32_t state)
{
	return state < 3 ? state_names[state] : "offload-disabled";
}

int lif_state_parse(const char *word)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(word, state_names[i]))
			return i;
	return -EINVAL;
}

struct lif *lif_by_vlan(struct port *p, uint32_t vlan)
{
	if (!vlan || vlan >= 4095 || !p->vlan_slot[vlan])
		return NULL;
	return &p->vlans[p->vlan_slot[vlan] - 1];
}

uint32_t lif_state_of(const struct port *p, uint32_t vlan)
{
	if (!vlan)
		return p->lif_state;
	if (vlan < 4095 && p->vlan_slot[vlan])
		return p->vlans[p->vlan_slot[vlan] - 1].state;
	return HWXDP_LIF_OFFLOAD_DISABLED;
}

static int check_mtu(const struct port *p, int64_t mtu, char *msg, size_t msglen)
{
	if (mtu < 0)
		return 0;
	if (mtu < 68 || mtu > p->mtu) {
		snprintf(msg, msglen, "mtu %lld: 68 to %u (port %s's) expected", (long long)mtu,
			 p->mtu, p->name);
		return -EINVAL;
	}
	return 0;
}

int lif_add(struct hwxdpd *d, struct port *p, uint32_t vlan, int64_t mtu, int64_t state, char *msg,
	    size_t msglen)
{
	struct lif *l = NULL;
	int err, slot = -1;

	if (vlan < 1 || vlan > 4094) {
		snprintf(msg, msglen, "vlan %u: 1 to 4094 expected (VLAN 0 is the port itself)",
			 vlan);
		return -EINVAL;
	}
	if (lif_by_vlan(p, vlan)) {
		snprintf(msg, msglen, "port %s has VLAN %u already (lif set to change it)", p->name,
			 vlan);
		return -EEXIST;
	}
	err = check_mtu(p, mtu, msg, msglen);
	if (err)
		return err;
	for (int i = 0; i < HWXDPD_VLANS_MAX && slot < 0; i++)
		if (!p->vlans[i].used)
			slot = i;
	if (slot < 0) {
		snprintf(msg, msglen, "port %s has %d VLANs, the most it holds", p->name,
			 HWXDPD_VLANS_MAX);
		return -ENOSPC;
	}
	l = &p->vlans[slot];
	memset(l, 0, sizeof(*l));
	l->vlan = (uint16_t)vlan;
	l->state = state < 0 ? HWXDP_LIF_ENABLED : (uint32_t)state;
	l->mtu = mtu < 0 ? p->mtu : (uint32_t)mtu;
	l->tap_fd = -1;
	{
		char name[2 * IF_NAMESIZE];

		snprintf(name, sizeof(name), "%s.%u", p->tap, vlan);
		if (strlen(name) >= sizeof(l->tap)) {
			snprintf(msg, msglen, "netdev name %s is too long", name);
			return -ENAMETOOLONG;
		}
		memcpy(l->tap, name, strlen(name) + 1);
	}
	err = tap_open(l->tap, p->mac, l->mtu, d->restoring, &l->tap_fd, &l->tap_ifindex, msg,
		       msglen);
	if (!err && l->state == HWXDP_LIF_ADMIN_DISABLED)
		err = netdev_set(l->tap, l->mtu, false);
	if (!err && p->prog >= 0)
		err = host_attach(d, &d->progs[p->prog], &l->link, l->tap_ifindex, l->tap, msg,
				  msglen);
	if (!err) {
		l->used = true;
		p->vlan_slot[vlan] = (uint8_t)(slot + 1);
		err = fwd_lif_write(d, p, vlan, msg, msglen);
		if (err) {
			p->vlan_slot[vlan] = 0;
			l->used = false;
		}
	}
	if (err) {
		bpf_link__destroy(l->link);
		tap_close(l->tap_fd);
		memset(l, 0, sizeof(*l));
		return err;
	}
	dataplane_changed(d);
	snprintf(msg, msglen, "VLAN %u on port %s (LIF %u, %s, mtu %u), host netdev %s", vlan,
		 p->name, HWXDP_LIF(p->index, vlan), lif_state_name(l->state), l->mtu, l->tap);
	return 0;
}

int lif_set(struct hwxdpd *d, struct port *p, uint32_t vlan, int64_t mtu, int64_t state, char *msg,
	    size_t msglen)
{
	struct lif *l = lif_by_vlan(p, vlan);
	uint32_t *st = l ? &l->state : &p->lif_state, old_state = *st;
	const char *tap = l ? l->tap : p->tap;
	uint32_t cur_mtu = l ? l->mtu : 0, new_mtu;
	int err;

	if (vlan && !l) {
		snprintf(msg, msglen, "port %s has no VLAN %u (lif add)", p->name, vlan);
		return -ENOENT;
	}
	err = check_mtu(p, mtu, msg, msglen);
	if (err)
		return err;
	if (!l) {
		uint32_t ifindex;
		uint8_t mac[6];

		if (netdev_info(p->tap, &ifindex, mac, &cur_mtu))
			cur_mtu = p->mtu;
	}
	new_mtu = mtu < 0 ? cur_mtu : (uint32_t)mtu;
	if (state >= 0)
		*st = (uint32_t)state;
	err = netdev_set(tap, new_mtu, *st != HWXDP_LIF_ADMIN_DISABLED);
	if (err) {
		*st = old_state;
		snprintf(msg, msglen, "cannot set %s (mtu %u): %s", tap, new_mtu, strerror(-err));
		return err;
	}
	if (l)
		l->mtu = new_mtu;
	err = fwd_lif_write(d, p, vlan, msg, msglen);
	if (err)
		return err;
	/* Next hops carry the MTU they were made with. */
	if (new_mtu != cur_mtu)
		flows_flush_lif(d, p, vlan, "mtu changed");
	snprintf(msg, msglen, "LIF %u (port %s VLAN %u): %s, mtu %u", HWXDP_LIF(p->index, vlan),
		 p->name, vlan, lif_state_name(*st), new_mtu);
	return 0;
}

static void lif_release(struct hwxdpd *d, struct port *p, struct lif *l)
{
	flows_flush_lif(d, p, l->vlan, "VLAN removed");
	fwd_lif_remove(d, p, l->vlan);
	p->vlan_slot[l->vlan] = 0;
	l->used = false;
	dataplane_changed(d);
	bpf_link__destroy(l->link);
	tap_close(l->tap_fd);
	memset(l, 0, sizeof(*l));
	l->tap_fd = -1;
}

int lif_del(struct hwxdpd *d, struct port *p, uint32_t vlan, char *msg, size_t msglen)
{
	struct lif *l = lif_by_vlan(p, vlan);

	if (!l) {
		snprintf(msg, msglen,
			 vlan ? "port %s has no VLAN %u" : "VLAN 0 is port %s itself (port del)",
			 p->name, vlan);
		return vlan ? -ENOENT : -EINVAL;
	}
	snprintf(msg, msglen, "VLAN %u removed from port %s, with %s", vlan, p->name, l->tap);
	lif_release(d, p, l);
	return 0;
}

void lifs_free(struct hwxdpd *d, struct port *p)
{
	for (int i = 0; i < HWXDPD_VLANS_MAX; i++)
		if (p->vlans[i].used)
			lif_release(d, p, &p->vlans[i]);
}

void lif_json(struct hwxdpd *d, const struct port *p, uint32_t vlan, struct jbuf *b)
{
	const struct lif *l = vlan ? &p->vlans[p->vlan_slot[vlan] - 1] : NULL;
	const struct prog *pr = p->prog >= 0 ? &d->progs[p->prog] : NULL;
	uint32_t key = HWXDP_LIF(p->index, vlan), ifindex, mtu = l ? l->mtu : p->mtu;
	struct hwxdp_lif v;
	uint8_t mac[6];

	if (!l)
		netdev_info(p->tap, &ifindex, mac, &mtu);
	jbuf_start_object(b);
	jbuf_string_field(b, "port", p->name);
	jbuf_uint_field(b, "vlan", vlan);
	jbuf_uint_field(b, "lif", key);
	jbuf_string_field(b, "state", lif_state_name(lif_state_of(p, vlan)));
	jbuf_uint_field(b, "mtu", mtu);
	jbuf_string_field(b, "tap", l ? l->tap : p->tap);
	jbuf_uint_field(b, "tap_ifindex", l ? l->tap_ifindex : p->tap_ifindex);
	jbuf_name(b, "counters");
	jbuf_start_object(b);
	if (pr && pr->fwd && !hwxdp_table__lookup(pr->fwd->lifs.table, &key, &v)) {
		jbuf_uint_field(b, "rx_packets", v.rx_packets);
		jbuf_uint_field(b, "rx_bytes", v.rx_bytes);
		jbuf_uint_field(b, "tx_packets", v.tx_packets);
		jbuf_uint_field(b, "tx_bytes", v.tx_bytes);
		jbuf_uint_field(b, "rx_dropped", v.rx_dropped);
	}
	if (l) {
		jbuf_uint_field(b, "punted", l->punted);
		jbuf_uint_field(b, "host_tx", l->host_tx);
		jbuf_uint_field(b, "errors", l->errors);
	} else {
		jbuf_uint_field(b, "punted", p->c.punted);
		jbuf_uint_field(b, "host_tx", p->c.host_tx);
		jbuf_uint_field(b, "errors", p->c.errors);
	}
	jbuf_end_object(b);
	jbuf_end_object(b);
}
