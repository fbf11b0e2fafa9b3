// SPDX-License-Identifier: GPL-2.0
/*
 * fwd.bpf.o on both targets (tests/devdiff/devdiff.h). The random frames are
 * made one at a time from the seed, so a run of a million needs no more
 * memory than a run of a thousand, and frame N of a seed is always the same.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/engine.h"
#include "hwxdp/fwd.h"
#include "fwdlab/fwd.h"
#include "fwdlab/fwd_lab.h"
#include "fwdlab/netlab.h"
#include "lab/pkt.h"
#include "tests/devdiff/devdiff.h"
#include "tests/devdiff/pair.h"

#define PORTS	  HX_LAB_PORTS
#define MAX_FIXED 256

struct frame_case {
	uint8_t bytes[HX_PKT_MAX];
	size_t len;
	unsigned int port; /* 0: lo, a device the kernel knows that is no lab port */
	const char *what;
};

struct fwd_run {
	struct dd_side k, d;
	uint32_t ifindex[PORTS + 1];
	struct frame_case *fixed;
	unsigned int fixed_cnt;
	uint64_t rng;
	const struct devdiff_opts *opts;
	unsigned int shown;
	struct devdiff_fwd_report *rep;
	bool punt_seen[HWXDP_PUNT__MAX];
	uint64_t ops, device_runs;
};

static uint64_t rng(struct fwd_run *r)
{
	r->rng ^= r->rng << 13;
	r->rng ^= r->rng >> 7;
	r->rng ^= r->rng << 17;
	return r->rng;
}

static int both(struct fwd_run *r, int (*fn)(struct hx_target *, void *), void *arg)
{
	int err = fn(&r->k.target, arg);

	return err ? err : fn(&r->d.target, arg);
}

static int add_bytes(struct fwd_run *r, unsigned int port, const uint8_t *b, size_t len,
		     const char *what)
{
	struct frame_case *c;

	if (r->fixed_cnt >= MAX_FIXED || len > sizeof(c->bytes))
		return -E2BIG;
	c = &r->fixed[r->fixed_cnt++];
	memcpy(c->bytes, b, len);
	c->len = len;
	c->port = port;
	c->what = what;
	return 0;
}

static int add_spec(struct fwd_run *r, unsigned int port, const struct hx_frame_spec *s,
		    const char *what)
{
	uint8_t buf[HX_PKT_MAX];
	size_t len = hx_frame_build(s, buf, sizeof(buf));

	return len ? add_bytes(r, port, buf, len, what) : -EINVAL;
}

static struct hx_frame_spec spec_of(int family, int vlan, uint16_t sport)
{
	struct hx_frame_spec s;

	hx_frame_spec_init(&s, family);
	s.vlan = vlan;
	s.sport = sport;
	return s;
}

/* A microflow on both sides, and its frame as a case. */
static int flow_case(struct fwd_run *r, unsigned int port, uint32_t lif,
		     const struct hx_frame_spec *s, uint32_t nexthop, uint32_t sa_rev,
		     const char *what)
{
	int err = 0;

	for (int t = 0; t < 2 && !err; t++) {
		struct hx_target *tg = t ? &r->d.target : &r->k.target;

		/* The lab's SA is at HX_LAB_SA_REVISION: a flow naming an older
		 * one is stale, and punts on both (a valid tunnel flow would
		 * encrypt on the device) */
		err = sa_rev ? hx_fwd_tunnel_flow(tg, lif, s, nexthop, HX_LAB_SA, sa_rev)
			     : hx_fwd_flow(tg, lif, s, nexthop);
	}
	return err ? err : add_spec(r, port, s, what);
}

static int build_cases(struct fwd_run *r)
{
	static const struct {
		int family, vlan;
		uint16_t sport;
		uint8_t proto, ttl;
		uint16_t payload;
		unsigned int port;
		uint32_t lif, nexthop, sa_rev;
		const char *what;
	} flows[] = {
		{ 4, -1, 1001, 6, 64, 0, 1, HWXDP_LIF(1, 0), NH_P2, 0, "v4 untagged -> port 2" },
		{ 6, -1, 1002, 17, 64, 0, 1, HWXDP_LIF(1, 0), NH_P2_V60, 0, "v6 udp push tag 60" },
		{ 4, 50, 1003, 6, 64, 0, 1, HWXDP_LIF(1, 50), NH_P2, 0, "v4 pop tag 50" },
		{ 4, 50, 1004, 6, 64, 0, 1, HWXDP_LIF(1, 50), NH_P2_V60, 0, "v4 rewrite 50 -> 60" },
		{ 6, 50, 1005, 6, 64, 0, 1, HWXDP_LIF(1, 50), NH_P1_V50, 0, "v6 hairpin tx" },
		{ 4, -1, 1006, 6, 64, 0, 2, HWXDP_LIF(2, 0), NH_P1, 0, "v4 port 2 -> 1" },
		{ 6, 60, 1007, 6, 64, 0, 2, HWXDP_LIF(2, 60), NH_P1, 0, "v6 pop tag 60" },
		{ 4, -1, 1008, 6, 1, 0, 1, HWXDP_LIF(1, 0), NH_P2, 0, "ttl exceeded" },
		{ 6, -1, 1009, 6, 1, 0, 1, HWXDP_LIF(1, 0), NH_P2, 0, "hop limit exceeded" },
		{ 4, -1, 1010, 6, 64, 0, 1, HWXDP_LIF(1, 0), NH__END, 0, "nexthop miss" },
		{ 4, -1, 1011, 6, 64, 0, 1, HWXDP_LIF(1, 0), NH_NO_PORT, 0, "egress miss" },
		{ 4, -1, 1012, 6, 64, 1300, 1, HWXDP_LIF(1, 0), NH_P2_SMALL, 0, "mtu exceeded" },
		{ 4, -1, 1013, 6, 64, 0, 1, HWXDP_LIF(1, 0), NH_P1_V80, 0, "egress lif off" },
		{ 4, -1, 1014, 6, 64, 0, 1, HWXDP_LIF(1, 0), NH_P2, HX_LAB_SA_REVISION - 1,
		  "sa stale" },
	};
	struct hx_frame_spec s;
	uint8_t buf[HX_PKT_MAX];
	size_t len;
	int err = 0;

	for (size_t i = 0; !err && i < sizeof(flows) / sizeof(flows[0]); i++) {
		s = spec_of(flows[i].family, flows[i].vlan, flows[i].sport);
		s.proto = flows[i].proto;
		s.ttl = flows[i].ttl;
		if (flows[i].payload)
			s.payload_len = flows[i].payload;
		if (i == 3)
			s.pcp = 5;
		err = flow_case(r, flows[i].port, flows[i].lif, &s, flows[i].nexthop,
				flows[i].sa_rev, flows[i].what);
	}
#define ADD(port, what, ...)                                                                       \
	do {                                                                                       \
		if (!err) {                                                                        \
			__VA_ARGS__;                                                               \
			err = add_spec(r, port, &s, what);                                         \
		}                                                                                  \
	} while (0)
	ADD(1, "flow miss", s = spec_of(4, -1, 2000));
	ADD(1, "v6 flow miss", s = spec_of(6, -1, 2001));
	ADD(0, "unknown port", s = spec_of(4, -1, 1001));
	ADD(1, "unknown vlan", s = spec_of(4, 99, 1001));
	ADD(1, "reserved vlan", s = spec_of(4, 4095, 1001));
	ADD(1, "qinq", s = spec_of(4, 50, 1001); s.outer_tpid = 0x88a8; s.outer_vid = 7);
	ADD(1, "802.1ad alone", s = spec_of(4, -1, 1001); s.outer_tpid = 0x88a8);
	ADD(1, "admin-disabled lif", s = spec_of(4, 70, 1001));
	ADD(1, "offload-disabled lif", s = spec_of(4, 80, 1001));
	ADD(1, "arp", s = spec_of(0, -1, 0); s.ethertype = 0x0806);
	ADD(1, "ip options", s = spec_of(4, -1, 1001); s.ip_options_len = 8);
	ADD(1, "fragment", s = spec_of(4, -1, 1001); s.frag = 0x2000);
	ADD(1, "later fragment", s = spec_of(4, -1, 1001); s.frag = 0x0010);
	ADD(1, "icmp", s = spec_of(4, -1, 0); s.proto = 1);
	ADD(1, "ipv6 hop-by-hop", s = spec_of(6, -1, 1001); s.has_ipv6_ext = true; s.ipv6_ext = 0);
	ADD(1, "icmpv6", s = spec_of(6, -1, 0); s.proto = 58);
#undef ADD
	if (err)
		return err;

	/* malformed: prefixes of forwarded frames, tagged and not */
	s = spec_of(4, 50, 1003);
	len = hx_frame_build(&s, buf, sizeof(buf));
	for (size_t cut = 0; !err && cut < len && cut < 70; cut += 3)
		err = add_bytes(r, 1, buf, cut, "v4 tagged prefix");
	s = spec_of(6, -1, 1002);
	s.proto = 17;
	len = hx_frame_build(&s, buf, sizeof(buf));
	for (size_t cut = 10; !err && cut < len && cut < 70; cut += 5)
		err = add_bytes(r, 1, buf, cut, "v6 prefix");
	return err;
}

/* Frame n of the seed: random bytes, or a fixed case with bits flipped,
 * bytes replaced, or cut short. */
static void random_frame(struct fwd_run *r, struct frame_case *c)
{
	uint64_t x = rng(r);

	c->what = "random";
	c->port = (unsigned int)(x % (PORTS + 1));
	if (x % 10 == 0) {
		c->len = (size_t)(rng(r) % 200);
		for (size_t i = 0; i < c->len; i++)
			c->bytes[i] = (uint8_t)rng(r);
		return;
	}
	const struct frame_case *base = &r->fixed[rng(r) % r->fixed_cnt];
	unsigned int changes = 1 + (unsigned int)(rng(r) % 4);

	c->what = base->what;
	c->len = base->len;
	c->port = base->port;
	memcpy(c->bytes, base->bytes, c->len);
	for (unsigned int i = 0; i < changes && c->len; i++) {
		/* headers more often than payload */
		size_t at = rng(r) % (c->len < 64 || rng(r) % 2 ? c->len : 64);

		if (rng(r) % 4)
			c->bytes[at] ^= (uint8_t)(1u << (rng(r) % 8));
		else
			c->bytes[at] = (uint8_t)rng(r);
	}
	if (rng(r) % 8 == 0 && c->len)
		c->len = rng(r) % c->len;
	if (rng(r) % 16 == 0)
		c->port = (unsigned int)(rng(r) % (PORTS + 1));
}

static void show_result(const char *who, int rc, const struct hx_result *res)
{
	if (rc) {
		fprintf(stderr, "    %s: rc %d\n", who, rc);
		return;
	}
	fprintf(stderr, "    %s: %s, %zu bytes, meta %d (lif 0x%x egress %u reason %s)\n", who,
		hwxdp_xdp_action_name(res->action), res->len, res->has_meta, res->meta.lif,
		res->meta.egress_port, hwxdp_punt_reason_name(res->meta.reason));
}

/* The redirect target: the kernel's tx_ports entry for the metadata's
 * egress port (bpf_redirect_map's key), against the ifindex the device's
 * port table gave its redirect. */
static bool redirect_differs(struct fwd_run *r, const struct hx_result *res, uint32_t *k_if)
{
	struct dd_map *tx = dd_side_map(&r->k, "tx_ports");
	uint32_t val[2] = {};

	*k_if = HWXDP_EGRESS_NONE;
	if (tx && res->has_meta && !dd_map_lookup(tx, &res->meta.egress_port, val))
		*k_if = val[0];
	return *k_if != r->d.egress;
}

static bool compare_one(struct fwd_run *r, const struct frame_case *c, uint64_t index)
{
	static struct hx_result res[2];
	uint32_t ifindex = c->port ? r->ifindex[c->port] : 1;
	struct devdiff_fwd_report *rep = r->rep;
	const char *why = NULL;
	uint32_t k_if = 0;
	int rc[2];

	rc[0] = hx_target_run(&r->k.target, ifindex, c->bytes, c->len, &res[0]);
	rc[1] = hx_target_run(&r->d.target, ifindex, c->bytes, c->len, &res[1]);
	rep->frames++;
	if (rc[1] == 0) {
		r->ops += r->d.last.ops;
		r->device_runs++;
	}
	if (r->d.fault)
		why = "the device engine faulted";
	else if (rc[0] != rc[1])
		why = "one side refused the frame";
	else if (rc[0]) {
		rep->refused++;
		return false;
	} else if (res[0].action != res[1].action)
		why = "verdict";
	else if (res[0].len != res[1].len || memcmp(res[0].frame, res[1].frame, res[0].len))
		why = "output bytes";
	else if (res[0].has_meta != res[1].has_meta ||
		 (res[0].has_meta && memcmp(&res[0].meta, &res[1].meta, sizeof(res[0].meta))))
		why = "metadata";
	else if (res[0].action == XDP_REDIRECT && redirect_differs(r, &res[0], &k_if))
		why = "redirect target";
	if (!why) {
		switch (res[0].action) {
		case XDP_REDIRECT:
			rep->redirects++;
			/* fall through */
		case XDP_TX:
			rep->forwarded++;
			break;
		case XDP_PASS:
			rep->punted++;
			if (res[0].has_meta && res[0].meta.reason < HWXDP_PUNT__MAX)
				r->punt_seen[res[0].meta.reason] = true;
			break;
		default:
			rep->dropped++;
		}
		return false;
	}
	rep->differ++;
	if (r->shown < r->opts->show) {
		r->shown++;
		fprintf(stderr, "devdiff: frame %llu (%s, port %u, %zu bytes): %s differs\n",
			(unsigned long long)index, c->what, c->port, c->len, why);
		show_result("kernel", rc[0], &res[0]);
		show_result("device", rc[1], &res[1]);
		if (r->d.fault)
			fprintf(stderr, "    device fault %d at op %u\n", r->d.fault,
				r->d.fault_op);
		if (!strcmp(why, "redirect target"))
			fprintf(stderr, "    kernel tx_ports ifindex %u, device redirect %u\n",
				k_if, r->d.egress);
		fprintf(stderr, "    frame");
		for (size_t i = 0; i < c->len && i < 64; i++)
			fprintf(stderr, " %02x", c->bytes[i]);
		fprintf(stderr, "%s\n", c->len > 64 ? " ..." : "");
	}
	return true;
}

static int set_off_vlan_flows(struct hx_target *t, void *arg)
{
	(void)arg;
	return hx_fwd_config(t, 0, 1, 0);
}

int devdiff_fwd(const struct devdiff_opts *opts, struct devdiff_fwd_report *rep)
{
	struct fwd_run *r;
	struct frame_case *c;
	int err;

	memset(rep, 0, sizeof(*rep));
	if (geteuid() != 0)
		return -EPERM;
	r = calloc(1, sizeof(*r));
	c = malloc(sizeof(*c));
	if (!r || !c) {
		free(r);
		free(c);
		return -ENOMEM;
	}
	r->fixed = calloc(MAX_FIXED, sizeof(*r->fixed));
	r->opts = opts;
	r->rep = rep;
	/* xorshift never leaves 0; any seed, 0 included, gives a non-zero state */
	r->rng = (opts->seed ^ 0x9e3779b97f4a7c15ull) | 1;
	err = r->fixed ? hx_netlab_enter(PORTS, r->ifindex + 1) : -ENOMEM;
	if (err) {
		fprintf(stderr, "devdiff: no lab: %s\n", strerror(-err));
		goto out_free;
	}
	err = dd_side_open_kernel(&r->k, hx_object_path("fwd"));
	if (err)
		goto out_free;
	err = dd_side_open_device(&r->d, hx_object_path("fwd"));
	if (err)
		goto out_kernel;
	err = hx_lab_topology(&r->k.target, r->ifindex + 1);
	if (!err)
		err = hx_lab_topology(&r->d.target, r->ifindex + 1);
	if (!err)
		err = build_cases(r);
	if (err) {
		fprintf(stderr, "devdiff: cannot set the lab up: %s\n", strerror(-err));
		goto out;
	}

	for (unsigned int i = 0; i < r->fixed_cnt; i++)
		compare_one(r, &r->fixed[i], i);
	for (uint64_t n = 0; n < opts->count; n++) {
		random_frame(r, c);
		compare_one(r, c, r->fixed_cnt + n);
	}
	/* the live switch: VLAN flows off, and the fixed cases again */
	err = both(r, set_off_vlan_flows, NULL);
	if (err)
		goto out;
	for (unsigned int i = 0; i < r->fixed_cnt; i++)
		compare_one(r, &r->fixed[i], i);

	rep->map_differ =
		dd_compare_maps(&r->k, &r->d, &rep->map_entries, &rep->maps, opts->show, &r->shown);
	for (unsigned int i = 0; i < HWXDP_PUNT__MAX; i++)
		rep->punt_kinds += r->punt_seen[i];
	rep->ops_per_frame = r->device_runs ? (double)r->ops / (double)r->device_runs : 0;
	rep->image_ops = r->d.last.image_ops;
	rep->bpf_insns = r->d.last.bpf_insns;
out:
	dd_side_close(&r->d);
out_kernel:
	dd_side_close(&r->k);
out_free:
	free(r->fixed);
	free(r);
	free(c);
	return err;
}
