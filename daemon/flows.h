/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flow maker: a connection fwd punts as flow-miss and the host then
 * routes is made on the board, one microflow per direction, so that its
 * next frames stay there. The next hop is what the kernel chose: the frame
 * the host sends back out of a LIF's TAP carries the route's egress, the
 * neighbour's MAC and the TTL the host lowered, and the flow maker takes
 * them from it (the host's route and neighbour, with no second lookup to
 * disagree with it). A route change takes every made flow out, a
 * neighbour's new MAC or failure those using it, an MTU change those
 * leaving by that LIF; they are made again from the next frames. A flow
 * without frames for the idle time goes; a full table leaves connections
 * with the host. With vlan_flows 0 no flow with a VLAN on either side is
 * made, nor one whose LIFs are not enabled (docs/daemon.md, "Flows").
 *
 * All under d->lock: punts and routed frames from the board thread, ticks
 * and netlink events from the upkeep thread.
 */
#ifndef HWXDP_DAEMON_FLOWS_H
#define HWXDP_DAEMON_FLOWS_H

#include <stddef.h>
#include <stdint.h>

struct hwxdpd;
struct jbuf;
struct port;
struct prog;

struct flow_maker *flows_new(char *msg, size_t msglen);
void flows_free(struct flow_maker *fm);

/* A frame the board punted as flow-miss, as it arrived on p. */
void flows_punted(struct hwxdpd *d, struct port *p, const uint8_t *frame, uint32_t len);
/* A frame the host sent on p's LIF vlan, untagged, as it leaves. */
void flows_routed(struct hwxdpd *d, struct port *p, uint32_t vlan, const uint8_t *frame,
		  uint32_t len);

/* A restart: the flows in pr's pinned table whose next hops and ports are
 * there again are taken as made (aged, flushed, listed as before). */
void flows_adopt(struct hwxdpd *d, struct prog *pr);

/* Ages idle flows out; now in milliseconds. */
void flows_tick(struct hwxdpd *d, int64_t now);
/* The netlink socket (routes, neighbours, links) and its events. */
int flows_netlink_fd(const struct flow_maker *fm);
void flows_netlink(struct hwxdpd *d);

void flows_flush_lif(struct hwxdpd *d, struct port *p, uint32_t vlan, const char *why);
void flows_flush_port(struct hwxdpd *d, struct port *p);
void flows_flush_prog(struct hwxdpd *d, struct prog *pr);
/* The tunnel flows the flow maker made on pr's SA handle, taken off both
 * homes: how many. */
uint32_t flows_flush_sa(struct hwxdpd *d, struct prog *pr, uint32_t handle);

void flows_json(struct hwxdpd *d, struct jbuf *b);

#endif /* HWXDP_DAEMON_FLOWS_H */
