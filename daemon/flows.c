// SPDX-License-Identifier: GPL-2.0
/* The flow maker (daemon/flows.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <net/if.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <libmnl/libmnl.h>

#include "daemon/flows.h"
#include "daemon/fwd.h"
#include "daemon/internal.h"
#include "daemon/mirror.h"
#include "daemon/policy.h"
#include "device/tables.h"
#include "hwxdp/fwd.h"

#define PENDING_SLOTS 4096
#define PENDING_MS    2000 /* a punt waits this long for the host's frame */
#define FULL_MS	      1000 /* after a full table, the next try */
#define NEIGH_MAX     4096

struct tuple {
	uint8_t family, proto;
	uint16_t sport_be, dport_be;
	uint8_t src[16], dst[16];
	uint8_t ttl;
	uint16_t vlan; /* 0 for untagged and priority-tagged */
};

struct pending {
	bool used;
	struct tuple t;
	uint32_t port; /* ingress port index */
	int prog;
	int64_t at;
};

struct nexthop {
	uint32_t refs;
	struct hwxdp_nexthop v;
	uint32_t tap_ifindex; /* the egress LIF's TAP */
};

struct made {
	struct hwxdp_flow_key key;
	int prog;
	uint32_t nexthop;
	uint32_t in_port, out_port;
	uint16_t in_vlan, out_vlan;
	uint32_t out_tap;
	int64_t made_at, active_at;
	uint64_t packets;
	bool tunnel; /* a policy's: encrypted with SA sa_handle */
	uint32_t sa_handle;
};

struct neigh {
	uint32_t ifindex;
	uint8_t family;
	uint8_t addr[16];
	uint8_t lladdr[6];
};

struct flow_maker {
	struct pending pending[PENDING_SLOTS];
	struct nexthop *nh[HWXDPD_PROGS_MAX]; /* per program, index 0 unused */
	uint32_t nh_cap[HWXDPD_PROGS_MAX];
	struct made *made;
	size_t made_cnt, made_cap;
	struct neigh *neigh;
	size_t neigh_cnt;
	int64_t full_until;
	struct mnl_socket *nl;
	char nl_why[128];
	struct {
		uint64_t made, adopted, vlan_kept, state_kept, full, aged, flushed, gone,
			mirror_missed, ipsec_kept, no_sa;
	} c;
};

struct flow_maker *flows_new(char *msg, size_t msglen)
{
	struct flow_maker *fm = calloc(1, sizeof(*fm));

	if (!fm) {
		snprintf(msg, msglen, "flow maker: %s", strerror(ENOMEM));
		return NULL;
	}
	fm->neigh = calloc(NEIGH_MAX, sizeof(*fm->neigh));
	if (!fm->neigh) {
		free(fm);
		snprintf(msg, msglen, "flow maker: %s", strerror(ENOMEM));
		return NULL;
	}
	/* Without route events, made flows would outlive a route change: the
	 * daemon runs without flows then, and says why. */
	fm->nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (!fm->nl ||
	    mnl_socket_bind(fm->nl,
			    RTMGRP_LINK | RTMGRP_NEIGH | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE,
			    MNL_SOCKET_AUTOPID)) {
		snprintf(fm->nl_why, sizeof(fm->nl_why), "netlink: %s", strerror(errno));
		if (fm->nl)
			mnl_socket_close(fm->nl);
		fm->nl = NULL;
	}
	return fm;
}

void flows_free(struct flow_maker *fm)
{
	if (!fm)
		return;
	for (int i = 0; i < HWXDPD_PROGS_MAX; i++)
		free(fm->nh[i]);
	free(fm->made);
	free(fm->neigh);
	if (fm->nl)
		mnl_socket_close(fm->nl);
	free(fm);
}

int flows_netlink_fd(const struct flow_maker *fm)
{
	return fm && fm->nl ? mnl_socket_get_fd(fm->nl) : -1;
}

/* The tuple of an IPv4 or IPv6 TCP or UDP frame without options or
 * fragments, as fwd would key it. */
static bool parse(const uint8_t *f, uint32_t len, struct tuple *t)
{
	uint32_t off = 14, l4;
	uint16_t type;

	memset(t, 0, sizeof(*t));
	if (len < 14)
		return false;
	type = (uint16_t)(f[12] << 8 | f[13]);
	if (type == ETH_P_8021Q) {
		if (len < 18)
			return false;
		t->vlan = (uint16_t)((f[14] << 8 | f[15]) & 0xfff);
		type = (uint16_t)(f[16] << 8 | f[17]);
		off = 18;
	}
	if (type == ETH_P_IP) {
		if (len < off + 20 || f[off] != 0x45 || ((f[off + 6] << 8 | f[off + 7]) & 0x3fff))
			return false;
		t->family = HWXDP_FAMILY_IPV4;
		t->proto = f[off + 9];
		t->ttl = f[off + 8];
		memcpy(t->src, f + off + 12, 4);
		memcpy(t->dst, f + off + 16, 4);
		l4 = off + 20;
	} else if (type == ETH_P_IPV6) {
		if (len < off + 40 || (f[off] >> 4) != 6)
			return false;
		t->family = HWXDP_FAMILY_IPV6;
		t->proto = f[off + 6];
		t->ttl = f[off + 7];
		memcpy(t->src, f + off + 8, 16);
		memcpy(t->dst, f + off + 24, 16);
		l4 = off + 40;
	} else {
		return false;
	}
	if ((t->proto != IPPROTO_TCP && t->proto != IPPROTO_UDP) || len < l4 + 4)
		return false;
	memcpy(&t->sport_be, f + l4, 2);
	memcpy(&t->dport_be, f + l4 + 2, 2);
	return true;
}

static bool same_tuple(const struct tuple *a, const struct tuple *b)
{
	return a->family == b->family && a->proto == b->proto && a->sport_be == b->sport_be &&
	       a->dport_be == b->dport_be && !memcmp(a->src, b->src, 16) &&
	       !memcmp(a->dst, b->dst, 16);
}

static uint32_t tuple_hash(const struct tuple *t)
{
	uint32_t h = 2166136261u;
	const uint8_t *parts[] = { t->src, t->dst };

	for (int p = 0; p < 2; p++)
		for (int i = 0; i < 16; i++)
			h = (h ^ parts[p][i]) * 16777619u;
	h = (h ^ t->sport_be) * 16777619u;
	h = (h ^ t->dport_be) * 16777619u;
	h = (h ^ t->proto) * 16777619u;
	return h % PENDING_SLOTS;
}

void flows_punted(struct hwxdpd *d, struct port *p, const uint8_t *frame, uint32_t len)
{
	struct flow_maker *fm = d->flows;
	struct pending *slot;
	struct tuple t;

	if (!fm || !fm->nl || p->prog < 0 || !d->progs[p->prog].fwd || !parse(frame, len, &t))
		return;
	slot = &fm->pending[tuple_hash(&t)];
	*slot = (struct pending){
		.used = true, .t = t, .port = p->index, .prog = p->prog, .at = hwxdpd_now_ms()
	};
}

/* prog's next hops, made at its first use: false without memory. */
static bool nexthops_of(struct flow_maker *fm, int prog, const struct fwd_maps *fwd)
{
	if (!fm->nh[prog]) {
		fm->nh[prog] = calloc(fwd->nexthop_max, sizeof(*fm->nh[prog]));
		if (!fm->nh[prog])
			return false;
		fm->nh_cap[prog] = fwd->nexthop_max;
	}
	return true;
}

/* Room for one more made flow: false without memory. */
static bool made_room(struct flow_maker *fm)
{
	size_t cap = fm->made_cap ? 2 * fm->made_cap : 256;
	struct made *grown;

	if (fm->made_cnt < fm->made_cap)
		return true;
	grown = realloc(fm->made, cap * sizeof(*grown));
	if (!grown)
		return false;
	fm->made = grown;
	fm->made_cap = cap;
	return true;
}

/* A next hop of pr equal to v, or a new one: its index, 0 when full. */
static uint32_t nexthop_get(struct hwxdpd *d, int prog, const struct hwxdp_nexthop *v,
			    uint32_t tap_ifindex)
{
	struct flow_maker *fm = d->flows;
	struct fwd_maps *fwd = d->progs[prog].fwd;
	uint32_t free_idx = 0;
	bool board;

	if (!nexthops_of(fm, prog, fwd))
		return 0;
	for (uint32_t i = 1; i < fm->nh_cap[prog]; i++) {
		struct nexthop *n = &fm->nh[prog][i];

		if (!n->refs) {
			if (!free_idx)
				free_idx = i;
			continue;
		}
		if (!memcmp(&n->v, v, sizeof(*v))) {
			n->refs++;
			return i;
		}
	}
	if (!free_idx || pair_update(d, &fwd->nexthops, &free_idx, v, BPF_ANY, &board))
		return 0;
	fm->nh[prog][free_idx] = (struct nexthop){ .refs = 1, .v = *v, .tap_ifindex = tap_ifindex };
	return free_idx;
}

static void nexthop_put(struct hwxdpd *d, int prog, uint32_t idx)
{
	struct flow_maker *fm = d->flows;
	struct hwxdp_nexthop none = { 0 };
	bool board;

	if (!fm->nh[prog] || !idx || idx >= fm->nh_cap[prog] || !fm->nh[prog][idx].refs)
		return;
	if (--fm->nh[prog][idx].refs)
		return;
	if (d->progs[prog].used && d->progs[prog].fwd)
		pair_update(d, &d->progs[prog].fwd->nexthops, &idx, &none, BPF_ANY, &board);
}

static bool vlan_flows_on(struct fwd_maps *fwd)
{
	struct hwxdp_config cfg;
	uint32_t key = 0;

	return !hwxdp_table__lookup(fwd->config.table, &key, &cfg) && cfg.vlan_flows;
}

static bool ipsec_flows_on(struct fwd_maps *fwd)
{
	struct hwxdp_config cfg;
	uint32_t key = 0;

	return !hwxdp_table__lookup(fwd->config.table, &key, &cfg) && cfg.ipsec_flows;
}

void flows_routed(struct hwxdpd *d, struct port *q, uint32_t vlan, const uint8_t *frame,
		  uint32_t len)
{
	struct flow_maker *fm = d->flows;
	struct hwxdp_flow flow = { 0 };
	struct hwxdp_nexthop nh = { 0 };
	struct hwxdp_flow_key key = { 0 };
	struct pending *pend;
	struct fwd_maps *fwd;
	struct policy *pol;
	struct port *p;
	struct made *m;
	struct lif *l;
	struct tuple t;
	int64_t now;
	int err;

	/* Every frame the host sends comes here: the cheap tests first. */
	if (!fm || !fm->nl || q->prog < 0 || !d->progs[q->prog].fwd || !parse(frame, len, &t))
		return;
	pend = &fm->pending[tuple_hash(&t)];
	if (!pend->used || !same_tuple(&pend->t, &t))
		return;
	now = hwxdpd_now_ms();
	pend->used = false;
	/* Routed, not sent by the host itself: the TTL is one less. */
	if (now - pend->at > PENDING_MS || t.ttl + 1 != pend->t.ttl || pend->prog != q->prog)
		return;
	p = &d->ports[pend->port];
	fwd = d->progs[q->prog].fwd;
	if (!p->used || p->prog != q->prog || !fwd)
		return;
	if ((pend->t.vlan || vlan) && !vlan_flows_on(fwd)) {
		fm->c.vlan_kept++;
		return;
	}
	if (lif_state_of(p, pend->t.vlan) != HWXDP_LIF_ENABLED ||
	    lif_state_of(q, vlan) != HWXDP_LIF_ENABLED) {
		fm->c.state_kept++;
		return;
	}
	/* A tunnel policy's connection is a tunnel flow on the policy's SA,
	 * made only while tunnel flows are on the board. */
	pol = policy_match(&d->progs[q->prog], t.family, t.src, t.dst);
	if (pol && !ipsec_flows_on(fwd)) {
		fm->c.ipsec_kept++;
		return;
	}
	if (pol && policy_sa(&d->progs[q->prog], pol, &flow.sa_handle, &flow.sa_revision)) {
		fm->c.no_sa++;
		return;
	}
	if (pol)
		flow.flags = HWXDP_FLOW_TUNNEL;
	if (now < fm->full_until) {
		fm->c.full++;
		return;
	}
	l = lif_by_vlan(q, vlan);
	nh.flags = HWXDP_NEXTHOP_VALID;
	nh.port = q->index;
	nh.vlan = (uint16_t)vlan;
	nh.mtu = (uint16_t)(l ? l->mtu : q->mtu);
	memcpy(nh.dmac, frame, 6);
	memcpy(nh.smac, frame + 6, 6);
	key.lif = HWXDP_LIF(p->index, pend->t.vlan);
	key.family = t.family;
	key.proto = t.proto;
	key.sport_be = t.sport_be;
	key.dport_be = t.dport_be;
	memcpy(key.src, t.src, 16);
	memcpy(key.dst, t.dst, 16);
	if (!made_room(fm))
		return;
	flow.nexthop = nexthop_get(d, q->prog, &nh, l ? l->tap_ifindex : q->tap_ifindex);
	if (!flow.nexthop) {
		fm->c.full++;
		fm->full_until = now + FULL_MS;
		return;
	}
	/* The board first: its table is the one that must not be full; the
	 * kernel's map mirrors what fits in it. */
	err = hwxdp_table__update(fwd->flows.table, &key, &flow, BPF_NOEXIST);
	if (err) {
		nexthop_put(d, q->prog, flow.nexthop);
		if (err != -EEXIST) {
			fm->c.full++;
			fm->full_until = now + FULL_MS;
		}
		return;
	}
	if (bpf_map_update_elem(bpf_map__fd(fwd->flows.map), &key, &flow, BPF_ANY))
		fm->c.mirror_missed++;
	else
		mirror_written(d, fwd->flows.map, &key, &flow);
	m = &fm->made[fm->made_cnt++];
	*m = (struct made){
		.key = key,
		.prog = q->prog,
		.nexthop = flow.nexthop,
		.in_port = p->index,
		.out_port = q->index,
		.in_vlan = pend->t.vlan,
		.out_vlan = (uint16_t)vlan,
		.out_tap = l ? l->tap_ifindex : q->tap_ifindex,
		.made_at = now,
		.active_at = now,
		.tunnel = pol != NULL,
		.sa_handle = flow.sa_handle,
	};
	fm->c.made++;
}

/* A flow of pr's table taken as made: its next hop read back, refcounted
 * again, its ports and LIFs the ones the key and the next hop name. */
static bool adopt_one(struct hwxdpd *d, int prog, const struct hwxdp_flow_key *key,
		      const struct hwxdp_flow *v, int64_t now)
{
	struct flow_maker *fm = d->flows;
	struct fwd_maps *fwd = d->progs[prog].fwd;
	uint32_t in = HWXDP_LIF_IFACE(key->lif), idx = v->nexthop;
	struct hwxdp_nexthop nh;
	struct port *p, *q;
	struct lif *l;

	/* The flow maker's own have no flags (no tunnel): others are the user's. */
	if (v->flags || in >= HWXDPD_PORTS_MAX || !idx || idx >= fwd->nexthop_max ||
	    hwxdp_table__lookup(fwd->nexthops.table, &idx, &nh) ||
	    !(nh.flags & HWXDP_NEXTHOP_VALID) || nh.port >= HWXDPD_PORTS_MAX)
		return false;
	p = &d->ports[in];
	q = &d->ports[nh.port];
	if (!p->used || !q->used || p->prog != prog || q->prog != prog)
		return false;
	l = lif_by_vlan(q, nh.vlan);
	if (nh.vlan && !l)
		return false;
	if (!nexthops_of(fm, prog, fwd) || !made_room(fm))
		return false;
	if (!fm->nh[prog][idx].refs)
		fm->nh[prog][idx] = (struct nexthop){
			.v = nh,
			.tap_ifindex = l ? l->tap_ifindex : q->tap_ifindex,
		};
	fm->nh[prog][idx].refs++;
	fm->made[fm->made_cnt++] = (struct made){
		.key = *key,
		.prog = prog,
		.nexthop = idx,
		.in_port = in,
		.out_port = nh.port,
		.in_vlan = (uint16_t)HWXDP_LIF_VLAN(key->lif),
		.out_vlan = nh.vlan,
		.out_tap = l ? l->tap_ifindex : q->tap_ifindex,
		.made_at = now,
		.active_at = now,
		.packets = v->packets,
	};
	return true;
}

void flows_adopt(struct hwxdpd *d, struct prog *pr)
{
	struct flow_maker *fm = d->flows;
	struct hwxdp_flow_key key, next;
	int prog = (int)(pr - d->progs);
	size_t taken = 0, left = 0;
	int64_t now = hwxdpd_now_ms();
	struct hwxdp_flow v;

	if (!fm || !pr->fwd)
		return;
	for (int err = hwxdp_table__get_next_key(pr->fwd->flows.table, NULL, &next); !err;
	     err = hwxdp_table__get_next_key(pr->fwd->flows.table, &key, &next)) {
		key = next;
		if (hwxdp_table__lookup(pr->fwd->flows.table, &key, &v))
			continue;
		if (adopt_one(d, prog, &key, &v, now))
			taken++;
		else
			left++;
	}
	fm->c.adopted += taken;
	if (taken || left)
		fprintf(stderr, "hwxdpd: %s: %zu flows of the pinned table taken back%s\n",
			pr->name, taken,
			left ? ", some not the flow maker's (left as they are)" : "");
}

/* Takes made flow i out of both homes; the last one moves into its place. */
static void unmake(struct hwxdpd *d, size_t i)
{
	struct flow_maker *fm = d->flows;
	struct made *m = &fm->made[i];
	struct prog *pr = &d->progs[m->prog];

	if (pr->used && pr->fwd)
		pair_delete(&pr->fwd->flows, &m->key);
	nexthop_put(d, m->prog, m->nexthop);
	fm->made[i] = fm->made[--fm->made_cnt];
}

void flows_tick(struct hwxdpd *d, int64_t now)
{
	struct flow_maker *fm = d->flows;

	if (!fm)
		return;
	for (size_t i = 0; i < fm->made_cnt;) {
		struct made *m = &fm->made[i];
		struct prog *pr = &d->progs[m->prog];
		struct hwxdp_flow v;

		if (!pr->used || !pr->fwd ||
		    hwxdp_table__lookup(pr->fwd->flows.table, &m->key, &v)) {
			/* Deleted by hand (or with its program). */
			fm->c.gone++;
			nexthop_put(d, m->prog, m->nexthop);
			fm->made[i] = fm->made[--fm->made_cnt];
			continue;
		}
		if (v.packets != m->packets) {
			m->packets = v.packets;
			m->active_at = now;
		} else if (now - m->active_at >= (int64_t)d->flow_idle_ms) {
			fm->c.aged++;
			unmake(d, i);
			continue;
		}
		i++;
	}
}

typedef bool (*made_pred)(const struct made *m, const void *ctx);

static void flush_if(struct hwxdpd *d, made_pred pred, const void *ctx)
{
	struct flow_maker *fm = d->flows;

	if (!fm)
		return;
	for (size_t i = 0; i < fm->made_cnt;) {
		if (pred(&fm->made[i], ctx)) {
			fm->c.flushed++;
			unmake(d, i);
			continue;
		}
		i++;
	}
	/* A half-made flow must not be made from a stale punt either. */
	memset(fm->pending, 0, sizeof(fm->pending));
}

struct lif_ref {
	uint32_t port, vlan;
};

static bool on_lif(const struct made *m, const void *ctx)
{
	const struct lif_ref *r = ctx;

	return (m->in_port == r->port && m->in_vlan == r->vlan) ||
	       (m->out_port == r->port && m->out_vlan == r->vlan);
}

void flows_flush_lif(struct hwxdpd *d, struct port *p, uint32_t vlan, const char *why)
{
	struct lif_ref r = { p->index, vlan };

	(void)why;
	flush_if(d, on_lif, &r);
}

static bool on_port(const struct made *m, const void *ctx)
{
	const struct port *p = ctx;

	return m->in_port == p->index || m->out_port == p->index;
}

void flows_flush_port(struct hwxdpd *d, struct port *p)
{
	flush_if(d, on_port, p);
}

struct prog_ref {
	int prog;
};

static bool of_prog(const struct made *m, const void *ctx)
{
	return m->prog == ((const struct prog_ref *)ctx)->prog;
}

void flows_flush_prog(struct hwxdpd *d, struct prog *pr)
{
	struct prog_ref r = { (int)(pr - d->progs) };
	struct flow_maker *fm = d->flows;

	flush_if(d, of_prog, &r);
	if (fm) {
		free(fm->nh[r.prog]);
		fm->nh[r.prog] = NULL;
		fm->nh_cap[r.prog] = 0;
	}
}

struct sa_ref {
	int prog;
	uint32_t handle;
};

static bool on_sa(const struct made *m, const void *ctx)
{
	const struct sa_ref *r = ctx;

	return m->tunnel && m->prog == r->prog && m->sa_handle == r->handle;
}

uint32_t flows_flush_sa(struct hwxdpd *d, struct prog *pr, uint32_t handle)
{
	struct sa_ref r = { (int)(pr - d->progs), handle };
	uint32_t n = 0;

	for (size_t i = 0; d->flows && i < d->flows->made_cnt; i++)
		n += on_sa(&d->flows->made[i], &r);
	if (n)
		flush_if(d, on_sa, &r);
	return n;
}

static bool any(const struct made *m, const void *ctx)
{
	(void)m;
	(void)ctx;
	return true;
}

struct neigh_ref {
	struct flow_maker *fm;
	uint32_t ifindex;
	const uint8_t *lladdr;
};

static bool via_neigh(const struct made *m, const void *ctx)
{
	const struct neigh_ref *r = ctx;
	const struct nexthop *n = &r->fm->nh[m->prog][m->nexthop];

	return m->out_tap == r->ifindex && !memcmp(n->v.dmac, r->lladdr, 6);
}

static bool our_tap(struct hwxdpd *d, uint32_t ifindex)
{
	for (int i = 0; i < HWXDPD_PORTS_MAX; i++) {
		struct port *p = &d->ports[i];

		if (!p->used)
			continue;
		if (p->tap_ifindex == ifindex)
			return true;
		for (int j = 0; j < HWXDPD_VLANS_MAX; j++)
			if (p->vlans[j].used && p->vlans[j].tap_ifindex == ifindex)
				return true;
	}
	return false;
}

static int attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(a);

	if (type <= NDA_MAX && type <= IFLA_MAX)
		tb[type] = a;
	return MNL_CB_OK;
}

static void neigh_event(struct hwxdpd *d, const struct nlmsghdr *nlh)
{
	struct flow_maker *fm = d->flows;
	const struct ndmsg *nd = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[NDA_MAX + IFLA_MAX + 2] = { 0 };
	const uint8_t *lladdr = NULL;
	uint8_t addr[16] = { 0 };
	struct neigh *n = NULL;
	bool gone;

	if (!our_tap(d, (uint32_t)nd->ndm_ifindex))
		return;
	mnl_attr_parse(nlh, sizeof(*nd), attr_cb, tb);
	if (!tb[NDA_DST] || mnl_attr_get_payload_len(tb[NDA_DST]) > 16)
		return;
	memcpy(addr, mnl_attr_get_payload(tb[NDA_DST]), mnl_attr_get_payload_len(tb[NDA_DST]));
	if (tb[NDA_LLADDR] && mnl_attr_get_payload_len(tb[NDA_LLADDR]) == 6)
		lladdr = mnl_attr_get_payload(tb[NDA_LLADDR]);
	for (size_t i = 0; i < fm->neigh_cnt && !n; i++)
		if (fm->neigh[i].ifindex == (uint32_t)nd->ndm_ifindex &&
		    fm->neigh[i].family == nd->ndm_family && !memcmp(fm->neigh[i].addr, addr, 16))
			n = &fm->neigh[i];
	gone = nlh->nlmsg_type == RTM_DELNEIGH || (nd->ndm_state & (NUD_FAILED | NUD_INCOMPLETE));
	if (n && (gone || (lladdr && memcmp(n->lladdr, lladdr, 6)))) {
		struct neigh_ref r = { fm, n->ifindex, n->lladdr };

		flush_if(d, via_neigh, &r);
	}
	if (gone && lladdr) {
		struct neigh_ref r = { fm, (uint32_t)nd->ndm_ifindex, lladdr };

		flush_if(d, via_neigh, &r);
	}
	if (gone) {
		if (n)
			*n = fm->neigh[--fm->neigh_cnt];
		return;
	}
	if (!lladdr)
		return;
	if (!n && fm->neigh_cnt < NEIGH_MAX)
		n = &fm->neigh[fm->neigh_cnt++];
	if (n) {
		n->ifindex = (uint32_t)nd->ndm_ifindex;
		n->family = nd->ndm_family;
		memcpy(n->addr, addr, 16);
		memcpy(n->lladdr, lladdr, 6);
	}
}

struct tap_ref {
	struct flow_maker *fm;
	uint32_t ifindex, mtu; /* mtu 0: every flow through the TAP */
};

static bool via_tap(const struct made *m, const void *ctx)
{
	const struct tap_ref *r = ctx;

	return m->out_tap == r->ifindex &&
	       (!r->mtu || r->fm->nh[m->prog][m->nexthop].v.mtu != r->mtu);
}

/* A TAP taken down, removed or given another MTU by hand: the flows
 * leaving by it are made again with what the host then does. Other
 * changes (promiscuous mode for a capture) leave them. */
static void link_event(struct hwxdpd *d, const struct nlmsghdr *nlh)
{
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[IFLA_MAX + 1] = { 0 };
	struct tap_ref r = { d->flows, (uint32_t)ifi->ifi_index, 0 };

	if (!our_tap(d, r.ifindex))
		return;
	mnl_attr_parse(nlh, sizeof(*ifi), attr_cb, tb);
	if (nlh->nlmsg_type == RTM_NEWLINK && (ifi->ifi_flags & IFF_UP)) {
		if (!tb[IFLA_MTU])
			return;
		r.mtu = mnl_attr_get_u32(tb[IFLA_MTU]);
	}
	flush_if(d, via_tap, &r);
}

static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	struct hwxdpd *d = data;

	switch (nlh->nlmsg_type) {
	case RTM_NEWROUTE:
	case RTM_DELROUTE: {
		const struct rtmsg *rt = mnl_nlmsg_get_payload(nlh);

		/* Local and broadcast routes come and go with addresses; any
		 * other changes where a connection may go. */
		if (rt->rtm_type == RTN_UNICAST || rt->rtm_type == RTN_BLACKHOLE ||
		    rt->rtm_type == RTN_UNREACHABLE || rt->rtm_type == RTN_PROHIBIT)
			flush_if(d, any, NULL);
		break;
	}
	case RTM_NEWNEIGH:
	case RTM_DELNEIGH:
		neigh_event(d, nlh);
		break;
	case RTM_NEWLINK:
	case RTM_DELLINK:
		link_event(d, nlh);
		break;
	}
	return MNL_CB_OK;
}

void flows_netlink(struct hwxdpd *d)
{
	struct flow_maker *fm = d->flows;
	char buf[16384];

	if (!fm || !fm->nl)
		return;
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(fm->nl, buf, sizeof(buf));

		if (n <= 0) {
			/* Events lost (ENOBUFS): what they said is unknown, so
			 * every flow is made again. */
			if (n < 0 && errno == ENOBUFS)
				flush_if(d, any, NULL);
			return;
		}
		mnl_cb_run(buf, (size_t)n, 0, 0, event_cb, d);
	}
}

static void addr_text(uint8_t family, const uint8_t *a, char *buf, size_t len)
{
	inet_ntop(family == HWXDP_FAMILY_IPV4 ? AF_INET : AF_INET6, a, buf, (socklen_t)len);
}

void flows_json(struct hwxdpd *d, struct jbuf *b)
{
	struct flow_maker *fm = d->flows;
	int64_t now = hwxdpd_now_ms();

	jbuf_start_object(b);
	jbuf_bool_field(b, "enabled", fm && fm->nl);
	if (fm && !fm->nl)
		jbuf_string_field(b, "disabled_because", fm->nl_why);
	jbuf_uint_field(b, "idle_s", d->flow_idle_ms / 1000);
	jbuf_name(b, "counters");
	jbuf_start_object(b);
	if (fm) {
		jbuf_uint_field(b, "made", fm->c.made);
		jbuf_uint_field(b, "taken_back", fm->c.adopted);
		jbuf_uint_field(b, "active", fm->made_cnt);
		jbuf_uint_field(b, "aged", fm->c.aged);
		jbuf_uint_field(b, "flushed", fm->c.flushed);
		jbuf_uint_field(b, "deleted", fm->c.gone);
		jbuf_uint_field(b, "kept_vlan_flows_off", fm->c.vlan_kept);
		jbuf_uint_field(b, "kept_lif_state", fm->c.state_kept);
		jbuf_uint_field(b, "kept_table_full", fm->c.full);
		jbuf_uint_field(b, "kept_ipsec_flows_off", fm->c.ipsec_kept);
		jbuf_uint_field(b, "kept_no_sa", fm->c.no_sa);
		jbuf_uint_field(b, "not_in_kernel_map", fm->c.mirror_missed);
	}
	jbuf_end_object(b);
	jbuf_name(b, "flows");
	jbuf_start_array(b);
	for (size_t i = 0; fm && i < fm->made_cnt; i++) {
		const struct made *m = &fm->made[i];
		const struct nexthop *n = &fm->nh[m->prog][m->nexthop];
		char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], mac[18];
		struct hwxdp_flow v = { 0 };

		/* The board's counts as they are now, not at the last tick. */
		if (d->progs[m->prog].fwd)
			hwxdp_table__lookup(d->progs[m->prog].fwd->flows.table, &m->key, &v);

		addr_text(m->key.family, m->key.src, src, sizeof(src));
		addr_text(m->key.family, m->key.dst, dst, sizeof(dst));
		jbuf_start_object(b);
		jbuf_string_field(b, "program", d->progs[m->prog].name);
		jbuf_uint_field(b, "lif", m->key.lif);
		jbuf_string_field(b, "in_port", d->ports[m->in_port].name);
		jbuf_uint_field(b, "in_vlan", m->in_vlan);
		jbuf_string_field(b, "family",
				  m->key.family == HWXDP_FAMILY_IPV4 ? "ipv4" : "ipv6");
		jbuf_string_field(b, "proto", m->key.proto == IPPROTO_TCP ? "tcp" : "udp");
		jbuf_string_field(b, "src", src);
		jbuf_uint_field(b, "sport", ntohs(m->key.sport_be));
		jbuf_string_field(b, "dst", dst);
		jbuf_uint_field(b, "dport", ntohs(m->key.dport_be));
		jbuf_uint_field(b, "nexthop", m->nexthop);
		jbuf_string_field(b, "out_port", d->ports[m->out_port].name);
		jbuf_uint_field(b, "out_vlan", m->out_vlan);
		snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", n->v.dmac[0],
			 n->v.dmac[1], n->v.dmac[2], n->v.dmac[3], n->v.dmac[4], n->v.dmac[5]);
		jbuf_string_field(b, "dmac", mac);
		jbuf_uint_field(b, "mtu", n->v.mtu);
		if (m->tunnel)
			jbuf_uint_field(b, "sa", m->sa_handle);
		else
			jbuf_string_field(b, "sa", NULL);
		jbuf_uint_field(b, "packets", v.packets);
		jbuf_uint_field(b, "bytes", v.bytes);
		jbuf_uint_field(b, "age_s", (uint64_t)(now - m->made_at) / 1000);
		jbuf_uint_field(b, "idle_s", (uint64_t)(now - m->active_at) / 1000);
		jbuf_end_object(b);
	}
	jbuf_end_array(b);
	jbuf_end_object(b);
}
