/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the daemon knows of the forwarding program's layouts
 * (progs/include/hwxdp/fwd.h, docs/programs.md): a program with fwd's maps
 * gets its ports, tx_ports, LIFs and config written by the daemon, and its
 * flows made by the flow maker. Any other program is left to `hwxdp map`.
 * All with d->lock held.
 */
#ifndef HWXDP_DAEMON_FWD_H
#define HWXDP_DAEMON_FWD_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/map.h"

struct bpf_map;
struct hwxdp_table;
struct hwxdpd;
struct prog;
struct port;

struct fwd_maps {
	struct map_pair ports, tx_ports, lifs, config, flows, nexthops, sas;
	uint32_t nexthop_max; /* entries of nexthops on both sides */
};

/* Sets pr->fwd when every map of fwd's layout is there with its sizes. */
int fwd_detect(struct hwxdpd *d, struct prog *pr);
void fwd_free(struct prog *pr);
/* The config switches' defaults, where nobody has written any. */
int fwd_setup(struct hwxdpd *d, struct prog *pr, char *msg, size_t msglen);
/* p's entries in ports and tx_ports, and its LIFs, in pr's maps. */
int fwd_port_attach(struct hwxdpd *d, struct prog *pr, struct port *p, char *msg, size_t msglen);
void fwd_port_detach(struct hwxdpd *d, struct prog *pr, struct port *p);
/* The LIF's entry in its port's program, state written and counters kept;
 * remove deletes it. 0 when the port has no fwd program. */
int fwd_lif_write(struct hwxdpd *d, struct port *p, uint32_t vlan, char *msg, size_t msglen);
void fwd_lif_remove(struct hwxdpd *d, struct port *p, uint32_t vlan);

#endif /* HWXDP_DAEMON_FWD_H */
