// SPDX-License-Identifier: GPL-2.0
/*
 * fwd's control plane in the daemon: a port with a program of fwd's layout
 * is written into its ports and tx_ports (iface_id = the port's index N of
 * hx<N>), each of its LIFs into lifs, and the config switches get the
 * defaults docs/programs.md gives a setup (vlan_flows 1, ipsec_flows 0,
 * lif_apply 1) unless something wrote them already. The kernel's and the
 * board's homes of a map get the same entry (daemon/map.c, pair_update).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "daemon/fwd.h"
#include "daemon/internal.h"
#include "device/device.h"
#include "device/tables.h"
#include "hwxdp/fwd.h"

static int pair_of(struct hwxdpd *d, struct prog *pr, const char *name, uint32_t type,
		   uint32_t key_size, uint32_t value_size, struct map_pair *m)
{
	struct bpf_map *map = bpf_object__find_map_by_name(pr->host, name);

	if (!map || bpf_map__type(map) != type || bpf_map__key_size(map) != key_size ||
	    bpf_map__value_size(map) != value_size)
		return -ENOENT;
	m->map = map;
	m->table = hwxdp_device__table(d->board, pr->device_id, name);
	return m->table ? 0 : -ENOENT;
}

int fwd_detect(struct hwxdpd *d, struct prog *pr)
{
	struct fwd_maps f = { 0 };
	int err;

	err = pair_of(d, pr, "ports", BPF_MAP_TYPE_HASH, 4, sizeof(struct hwxdp_port), &f.ports);
	if (!err)
		err = pair_of(d, pr, "tx_ports", BPF_MAP_TYPE_DEVMAP_HASH, 4,
			      sizeof(struct bpf_devmap_val), &f.tx_ports);
	if (!err)
		err = pair_of(d, pr, "lifs", BPF_MAP_TYPE_HASH, 4, sizeof(struct hwxdp_lif),
			      &f.lifs);
	if (!err)
		err = pair_of(d, pr, "config", BPF_MAP_TYPE_ARRAY, 4, sizeof(struct hwxdp_config),
			      &f.config);
	if (!err)
		err = pair_of(d, pr, "flows", BPF_MAP_TYPE_HASH, sizeof(struct hwxdp_flow_key),
			      sizeof(struct hwxdp_flow), &f.flows);
	if (!err)
		err = pair_of(d, pr, "nexthops", BPF_MAP_TYPE_ARRAY, 4,
			      sizeof(struct hwxdp_nexthop), &f.nexthops);
	if (!err)
		err = pair_of(d, pr, "sas", BPF_MAP_TYPE_ARRAY, 4, sizeof(struct hwxdp_sa), &f.sas);
	if (err)
		return 0; /* another program: nothing to do */
	f.nexthop_max = bpf_map__max_entries(f.nexthops.map);
	if (f.nexthops.table->desc.max_entries < f.nexthop_max)
		f.nexthop_max = f.nexthops.table->desc.max_entries;
	pr->fwd = malloc(sizeof(*pr->fwd));
	if (!pr->fwd)
		return -ENOMEM;
	*pr->fwd = f;
	return 0;
}

void fwd_free(struct prog *pr)
{
	free(pr->fwd);
	pr->fwd = NULL;
}

int fwd_setup(struct hwxdpd *d, struct prog *pr, char *msg, size_t msglen)
{
	struct hwxdp_config cfg = { 0 }, zero = { 0 };
	uint32_t key = 0;
	bool board;
	int err;

	if (!pr->fwd)
		return 0;
	if (hwxdp_table__lookup(pr->fwd->config.table, &key, &cfg) ||
	    memcmp(&cfg, &zero, sizeof(cfg)))
		return 0;
	cfg = (struct hwxdp_config){ .vlan_flows = 1, .ipsec_flows = 0, .lif_apply = 1 };
	err = pair_update(d, &pr->fwd->config, &key, &cfg, BPF_ANY, &board);
	if (err)
		snprintf(msg, msglen, "%s: cannot write config: %s", pr->name, strerror(-err));
	return err;
}

static int lif_entry(struct hwxdpd *d, struct prog *pr, struct port *p, uint32_t vlan)
{
	uint32_t key = HWXDP_LIF(p->index, vlan);
	struct hwxdp_lif lif = { 0 };
	bool board;

	/* The counters as they are: only the state is the daemon's. */
	hwxdp_table__lookup(pr->fwd->lifs.table, &key, &lif);
	lif.state = lif_state_of(p, vlan);
	return pair_update(d, &pr->fwd->lifs, &key, &lif, BPF_ANY, &board);
}

int fwd_port_attach(struct hwxdpd *d, struct prog *pr, struct port *p, char *msg, size_t msglen)
{
	struct hwxdp_port port = { .iface_id = p->index };
	struct bpf_devmap_val tx = { .ifindex = p->ifindex };
	bool board;
	int err;

	if (!pr->fwd)
		return 0;
	err = pair_update(d, &pr->fwd->ports, &p->ifindex, &port, BPF_ANY, &board);
	if (!err)
		err = pair_update(d, &pr->fwd->tx_ports, &p->index, &tx, BPF_ANY, &board);
	if (!err)
		err = lif_entry(d, pr, p, 0);
	for (int i = 0; !err && i < HWXDPD_VLANS_MAX; i++)
		if (p->vlans[i].used)
			err = lif_entry(d, pr, p, p->vlans[i].vlan);
	if (err) {
		snprintf(msg, msglen, "%s: cannot write port %s into its maps (%s): %s", pr->name,
			 p->name, board ? "the board refuses" : "the kernel refuses",
			 strerror(-err));
		fwd_port_detach(d, pr, p);
	}
	return err;
}

void fwd_port_detach(struct hwxdpd *d, struct prog *pr, struct port *p)
{
	uint32_t key;

	(void)d;
	if (!pr->fwd)
		return;
	pair_delete(&pr->fwd->ports, &p->ifindex);
	pair_delete(&pr->fwd->tx_ports, &p->index);
	key = HWXDP_LIF(p->index, 0);
	pair_delete(&pr->fwd->lifs, &key);
	for (int i = 0; i < HWXDPD_VLANS_MAX; i++)
		if (p->vlans[i].used) {
			key = HWXDP_LIF(p->index, p->vlans[i].vlan);
			pair_delete(&pr->fwd->lifs, &key);
		}
}

int fwd_lif_write(struct hwxdpd *d, struct port *p, uint32_t vlan, char *msg, size_t msglen)
{
	struct prog *pr = p->prog >= 0 ? &d->progs[p->prog] : NULL;
	int err;

	if (!pr || !pr->fwd)
		return 0;
	err = lif_entry(d, pr, p, vlan);
	if (err)
		snprintf(msg, msglen, "%s: cannot write LIF %u of port %s: %s", pr->name, vlan,
			 p->name, strerror(-err));
	return err;
}

void fwd_lif_remove(struct hwxdpd *d, struct port *p, uint32_t vlan)
{
	struct prog *pr = p->prog >= 0 ? &d->progs[p->prog] : NULL;
	uint32_t key = HWXDP_LIF(p->index, vlan);

	if (pr && pr->fwd)
		pair_delete(&pr->fwd->lifs, &key);
}
