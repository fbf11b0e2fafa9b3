// SPDX-License-Identifier: GPL-2.0
/*
 * VLAN logical interfaces: tag pop, push and rewrite on the way out, the
 * frames that must reach the host instead (unknown or reserved VLAN, QinQ,
 * a LIF taken off the device, vlan_flows off), and the per-LIF and
 * per-microflow counters an operator reads back.
 *
 * The lab (fwdlab/fwd_lab.h) has LIFs 1.0, 1.50, 1.60, 2.0, 2.60 and 3.0
 * enabled, 1.70 admin-disabled and 1.80 offload-disabled, and next hops
 * NH_P2 (port 2 untagged), NH_P2_V60, NH_P1, NH_P1_V50 among others.
 */
#include <netinet/in.h>
#include <string.h>

#include "tests/common/fwd_env.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Every LIF of the lab (hx_lab_lifs), for "nothing else moved" checks. */
static uint32_t lab_lif(size_t i)
{
	return HWXDP_LIF(hx_lab_lifs[i].port, hx_lab_lifs[i].vlan);
}

/* A frame arriving on in_port (VLAN in_vlan, -1 untagged) whose microflow
 * sends it to nexthop, and the tag it must leave with. */
struct tag_case {
	const char *what;
	int family;
	uint8_t proto;
	unsigned int in_port;
	int in_vlan;
	uint8_t pcp, dei;
	uint32_t nexthop;
	unsigned int out_port;
	int len_change; /* bytes the frame grows by on the way */
	int out_tci;	/* the tag it leaves with, -1 for none */
};

static uint32_t arrival_lif(unsigned int port, int vlan)
{
	/* No tag and a priority tag (VID 0) both mean the port's own LIF. */
	return HWXDP_LIF(port, vlan > 0 ? vlan : 0);
}

static void spec_for(struct hx_frame_spec *spec, int family, int vlan, uint8_t pcp, uint8_t dei)
{
	hx_frame_spec_init(spec, family);
	spec->vlan = vlan;
	spec->pcp = pcp;
	spec->dei = dei;
}

static size_t build(const struct hx_frame_spec *spec, uint8_t *buf)
{
	size_t len = hx_frame_build(spec, buf, HX_PKT_MAX);

	cr_assert_gt(len, 0, "frame does not build");
	return len;
}

/*
 * The Ethernet header a lab next hop on out_port puts on the wire: its MACs
 * (02:00:00:00:0<port>:01 from 02:00:00:00:0<port>:fe), then TPID 0x8100 and
 * the TCI when tagged, then the IP ethertype. Returns its length.
 */
static size_t expected_l2(uint8_t *l2, unsigned int out_port, int out_tci, int family)
{
	size_t off = 12;

	memcpy(l2, (uint8_t[]){ 0x02, 0x00, 0x00, 0x00, out_port, 0x01 }, 6);
	memcpy(l2 + 6, (uint8_t[]){ 0x02, 0x00, 0x00, 0x00, out_port, 0xfe }, 6);
	if (out_tci >= 0) {
		l2[off++] = 0x81;
		l2[off++] = 0x00;
		l2[off++] = out_tci >> 8;
		l2[off++] = out_tci & 0xff;
	}
	l2[off++] = family == 4 ? 0x08 : 0x86;
	l2[off++] = family == 4 ? 0x00 : 0xdd;
	return off;
}

/*
 * The frame left with exactly the expected L2 header, followed by the IP
 * packet that arrived with only TTL / hop limit (and the IPv4 header
 * checksum) changed.
 */
static void expect_l2_edit(const uint8_t *in, size_t in_len, const struct hx_result *r,
			   const struct tag_case *c)
{
	const char *what = c->what;
	struct hx_frame_layout lo;
	const uint8_t *ip_in, *ip_out;
	size_t ip_len, l2_len;
	uint8_t l2[18];

	l2_len = expected_l2(l2, c->out_port, c->out_tci, c->family);
	cr_assert_eq(hx_frame_parse(in, in_len, &lo), 0);
	cr_assert_neq(lo.l3_off, 0, "%s: test frame has no IP header", what);
	ip_in = in + lo.l3_off;
	ip_len = in_len - lo.l3_off;
	ip_out = r->frame + l2_len;

	cr_assert_eq(r->len, (size_t)((long)in_len + c->len_change),
		     "%s: frame is %zu bytes, arrived as %zu, expected a change of %d", what,
		     r->len, in_len, c->len_change);
	cr_assert_eq(r->len, l2_len + ip_len, "%s: L2 header is not %zu bytes", what, l2_len);
	cr_assert_arr_eq(r->frame, l2, l2_len, "%s: Ethernet header on the wire is wrong", what);

	if (lo.family == 4) {
		cr_assert_eq(ip_out[8], 63, "%s: TTL %u, expected 64 - 1", what, ip_out[8]);
		cr_assert_arr_eq(ip_out, ip_in, 8, "%s: IPv4 header changed before TTL", what);
		cr_assert_eq(ip_out[9], ip_in[9], "%s: IPv4 protocol changed", what);
		cr_assert_arr_eq(ip_out + 12, ip_in + 12, ip_len - 12,
				 "%s: IPv4 addresses or payload changed", what);
		cr_assert(hx_ipv4_header_csum_ok(ip_out, ip_len), "%s: IPv4 header checksum wrong",
			  what);
	} else {
		cr_assert_eq(ip_out[7], 63, "%s: hop limit %u, expected 64 - 1", what, ip_out[7]);
		cr_assert_arr_eq(ip_out, ip_in, 7, "%s: IPv6 header changed before hop limit",
				 what);
		cr_assert_arr_eq(ip_out + 8, ip_in + 8, ip_len - 8,
				 "%s: IPv6 addresses or payload changed", what);
	}
	cr_assert(hx_l4_csum_ok(r->frame, r->len), "%s: L4 checksum wrong", what);
}

static void run_tag_case(struct hx_env *env, const struct tag_case *c)
{
	uint32_t lif = arrival_lif(c->in_port, c->in_vlan);
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	spec_for(&spec, c->family, c->in_vlan, c->pcp, c->dei);
	if (c->proto)
		spec.proto = c->proto;
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, lif, &spec, c->nexthop), 0, "%s: flow", c->what);

	hx_run_bytes(env, c->in_port, in, len, &r);
	hx_assert_forward(&r, c->in_port, c->out_port);
	cr_assert_eq(r.meta.lif, lif, "%s: arrived on LIF %#x, expected %#x", c->what, r.meta.lif,
		     lif);
	expect_l2_edit(in, len, &r, c);
}

static void run_tag_cases(struct hx_env *env, const struct tag_case *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		run_tag_case(env, &cases[i]);
}

/* Punt counters of every reason, to see that exactly one moved. */
struct punt_snapshot {
	uint64_t packets[HWXDP_PUNT__MAX];
};

static void punt_snapshot(struct hx_env *env, struct punt_snapshot *s)
{
	unsigned int reason;

	for (reason = 0; reason < HWXDP_PUNT__MAX; reason++)
		s->packets[reason] = hx_fwd_punts(env->target, reason);
}

static void expect_punt_delta(struct hx_env *env, const struct punt_snapshot *before,
			      unsigned int reason, uint64_t frames, const char *what)
{
	struct punt_snapshot after;
	unsigned int i;

	punt_snapshot(env, &after);
	for (i = 0; i < HWXDP_PUNT__MAX; i++) {
		uint64_t expected = before->packets[i] + (i == reason ? frames : 0);

		cr_assert_eq(after.packets[i], expected,
			     "%s: %s punts went %llu -> %llu, expected %llu", what,
			     hwxdp_punt_reason_name(i), (unsigned long long)before->packets[i],
			     (unsigned long long)after.packets[i], (unsigned long long)expected);
	}
}

/* Runs spec on port and asserts it reached the host unchanged for reason,
 * counted once under that reason and under no other. */
static void expect_punt(struct hx_env *env, unsigned int port, const struct hx_frame_spec *spec,
			unsigned int reason, const char *what)
{
	struct punt_snapshot before;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len = build(spec, in);

	punt_snapshot(env, &before);
	hx_run_bytes(env, port, in, len, &r);
	cr_assert_neq(r.action, XDP_DROP, "%s: dropped instead of punted", what);
	hx_assert_punt(&r, reason, in, len);
	expect_punt_delta(env, &before, reason, 1, what);
}

/* What a LIF's counters must read; LIFs not listed must read all zero. */
struct lif_counts {
	uint32_t lif;
	uint64_t rx_packets, rx_bytes, tx_packets, tx_bytes;
};

static void expect_lif_counts(struct hx_env *env, const struct lif_counts *want, size_t n,
			      const char *what)
{
	size_t i, j;

	for (i = 0; i < HX_LAB_LIF_CNT; i++) {
		struct lif_counts zero = { .lif = lab_lif(i) };
		const struct lif_counts *w = &zero;
		struct hwxdp_lif got;
		uint32_t lif = lab_lif(i);

		for (j = 0; j < n; j++)
			if (want[j].lif == lif)
				w = &want[j];
		cr_assert_eq(hx_fwd_lif_stats(env->target, lif, &got), 0, "LIF %u.%u missing",
			     HWXDP_LIF_IFACE(lif), HWXDP_LIF_VLAN(lif));
		cr_assert_eq(got.rx_packets, w->rx_packets,
			     "%s: LIF %u.%u rx_packets %llu, expected %llu", what,
			     HWXDP_LIF_IFACE(lif), HWXDP_LIF_VLAN(lif),
			     (unsigned long long)got.rx_packets, (unsigned long long)w->rx_packets);
		cr_assert_eq(got.rx_bytes, w->rx_bytes,
			     "%s: LIF %u.%u rx_bytes %llu, expected %llu", what,
			     HWXDP_LIF_IFACE(lif), HWXDP_LIF_VLAN(lif),
			     (unsigned long long)got.rx_bytes, (unsigned long long)w->rx_bytes);
		cr_assert_eq(got.tx_packets, w->tx_packets,
			     "%s: LIF %u.%u tx_packets %llu, expected %llu", what,
			     HWXDP_LIF_IFACE(lif), HWXDP_LIF_VLAN(lif),
			     (unsigned long long)got.tx_packets, (unsigned long long)w->tx_packets);
		cr_assert_eq(got.tx_bytes, w->tx_bytes,
			     "%s: LIF %u.%u tx_bytes %llu, expected %llu", what,
			     HWXDP_LIF_IFACE(lif), HWXDP_LIF_VLAN(lif),
			     (unsigned long long)got.tx_bytes, (unsigned long long)w->tx_bytes);
	}
}

/* An operator changes a LIF's state in place: its counters carry on. */
static void set_lif_state(struct hx_env *env, uint32_t lif, uint32_t state)
{
	struct hwxdp_lif value;

	cr_assert_eq(hx_fwd_lif_stats(env->target, lif, &value), 0);
	value.state = state;
	cr_assert_eq(hx_target_map_update(env->target, "lifs", &lif, &value), 0);
}

/* Every lab LIF in its lab state with zero counters, so cases of one test
 * start alike. */
static void reset_lif_counters(struct hx_env *env)
{
	size_t i;

	for (i = 0; i < HX_LAB_LIF_CNT; i++)
		cr_assert_eq(hx_fwd_lif(env->target, lab_lif(i), hx_lab_lifs[i].state), 0);
}

/* ---- Tag pop, push and rewrite ---- */

HX_TEST(vlan, ipv4_tag_popped)
{
	static const struct tag_case cases[] = {
		{ "VLAN 50 PCP 5 -> port 2 untagged", 4, 0, 1, 50, 5, 0, NH_P2, 2, -4, -1 },
		/* Routing between a VLAN and the untagged side of the same port. */
		{ "VLAN 50 -> back out port 1 untagged", 4, 0, 1, 50, 5, 0, NH_P1, 1, -4, -1 },
		{ "VLAN 60 UDP -> port 1 untagged", 4, IPPROTO_UDP, 2, 60, 0, 0, NH_P1, 1, -4, -1 },
	};

	run_tag_cases(env, cases, ARRAY_LEN(cases));
}

HX_TEST(vlan, ipv4_tag_pushed)
{
	/* A pushed tag has nothing to inherit: PCP 0, DEI 0, VID 50, so bytes
	 * 12..15 on the wire are 81 00 00 32. */
	static const struct tag_case cases[] = {
		{ "port 2 untagged -> VLAN 50", 4, 0, 2, -1, 0, 0, NH_P1_V50, 1, +4, 0x0032 },
		{ "port 2 untagged UDP -> VLAN 50", 4, IPPROTO_UDP, 2, -1, 0, 0, NH_P1_V50, 1, +4,
		  0x0032 },
		/* Into a VLAN of the port the frame came in on. */
		{ "port 1 untagged -> VLAN 50 of port 1", 4, 0, 1, -1, 0, 0, NH_P1_V50, 1, +4,
		  0x0032 },
	};

	run_tag_cases(env, cases, ARRAY_LEN(cases));
}

HX_TEST(vlan, ipv4_tag_rewritten_keeps_pcp_dei)
{
	/* TCI = PCP(3) DEI(1) VID(12); VID 60 = 0x03c, VID 50 = 0x032. */
	static const struct tag_case cases[] = {
		{ "50 -> 60, PCP 5 DEI 1", 4, 0, 1, 50, 5, 1, NH_P2_V60, 2, 0, 0xb03c },
		{ "50 -> 60, PCP 0 DEI 0", 4, 0, 1, 50, 0, 0, NH_P2_V60, 2, 0, 0x003c },
		{ "50 -> 60, PCP 7 DEI 0", 4, 0, 1, 50, 7, 0, NH_P2_V60, 2, 0, 0xe03c },
		{ "50 -> 60, PCP 2 DEI 1", 4, 0, 1, 50, 2, 1, NH_P2_V60, 2, 0, 0x503c },
		{ "60 -> 50, PCP 3 DEI 0, UDP", 4, IPPROTO_UDP, 2, 60, 3, 0, NH_P1_V50, 1, 0,
		  0x6032 },
	};

	run_tag_cases(env, cases, ARRAY_LEN(cases));
}

HX_TEST(vlan, ipv6_tag_rewritten)
{
	static const struct tag_case cases[] = {
		{ "IPv6 50 -> 60, PCP 3 DEI 0", 6, 0, 1, 50, 3, 0, NH_P2_V60, 2, 0, 0x603c },
		{ "IPv6 50 -> 60, PCP 5 DEI 1, UDP", 6, IPPROTO_UDP, 1, 50, 5, 1, NH_P2_V60, 2, 0,
		  0xb03c },
	};

	run_tag_cases(env, cases, ARRAY_LEN(cases));
}

HX_TEST(vlan, ipv6_tag_pushed_and_popped)
{
	static const struct tag_case cases[] = {
		{ "IPv6 port 2 untagged -> VLAN 50", 6, 0, 2, -1, 0, 0, NH_P1_V50, 1, +4, 0x0032 },
		{ "IPv6 VLAN 50 PCP 5 -> port 2 untagged", 6, 0, 1, 50, 5, 0, NH_P2, 2, -4, -1 },
		{ "IPv6 VLAN 60 UDP -> port 1 untagged", 6, IPPROTO_UDP, 2, 60, 1, 0, NH_P1, 1, -4,
		  -1 },
	};

	run_tag_cases(env, cases, ARRAY_LEN(cases));
}

HX_TEST(vlan, priority_tagged_uses_port_lif)
{
	/* VID 0 carries only a priority: the frame belongs to the port's LIF
	 * (run_tag_case installs the flow on 1.0 and checks meta.lif). Leaving
	 * untagged it loses the tag; leaving on a VLAN it keeps its PCP. */
	static const struct tag_case cases[] = {
		{ "VID 0 PCP 5 -> port 2 untagged", 4, 0, 1, 0, 5, 0, NH_P2, 2, -4, -1 },
		{ "VID 0 PCP 5 -> VLAN 60", 4, 0, 1, 0, 5, 0, NH_P2_V60, 2, 0, 0xa03c },
		{ "IPv6 VID 0 PCP 6 -> port 2 untagged", 6, 0, 1, 0, 6, 0, NH_P2, 2, -4, -1 },
	};

	run_tag_cases(env, cases, ARRAY_LEN(cases));
}

HX_TEST(vlan, microflow_belongs_to_its_vlan)
{
	/* One connection, a flow only on LIF 1.50: the same packet untagged on
	 * port 1, or on VLAN 50 of another port, is a different LIF and misses. */
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	spec_for(&spec, 4, 50, 0, 0);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 50), &spec, NH_P2), 0);
	cr_assert_eq(hx_fwd_lif(env->target, HWXDP_LIF(3, 50), HWXDP_LIF_ENABLED), 0);

	len = build(&spec, in);
	hx_run_bytes(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
	expect_punt(env, 3, &spec, HWXDP_PUNT_FLOW_MISS, "VLAN 50 on port 3");
	spec.vlan = -1;
	expect_punt(env, 1, &spec, HWXDP_PUNT_FLOW_MISS, "untagged on port 1");
}

/* ---- Frames the device must leave to the host ---- */

/* A punt case: the frame, where it arrives, why it must be punted. Flows
 * for its connection exist on the port LIF and on VLAN 50, so a program
 * that misread the tags would find one and forward instead. */
struct punt_case {
	const char *what;
	unsigned int port;
	uint16_t outer_tpid, outer_vid;
	int vlan;
	uint8_t pcp;
	unsigned int reason;
};

static void run_punt_cases(struct hx_env *env, const struct punt_case *cases, size_t n)
{
	struct hx_frame_spec spec;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct punt_case *c = &cases[i];

		spec_for(&spec, 4, c->vlan, c->pcp, 0);
		spec.outer_tpid = c->outer_tpid;
		spec.outer_vid = c->outer_vid;
		cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(c->port, 0), &spec, NH_P2), 0);
		cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(c->port, 50), &spec, NH_P2), 0);
		expect_punt(env, c->port, &spec, c->reason, c->what);
	}
}

HX_TEST(vlan, unknown_vlan_punted)
{
	static const struct punt_case cases[] = {
		{ "VID 99 on port 1", 1, 0, 0, 99, 0, HWXDP_PUNT_UNKNOWN_VLAN },
		{ "VID 99 PCP 5 on port 1", 1, 0, 0, 99, 5, HWXDP_PUNT_UNKNOWN_VLAN },
		/* VLAN 60 exists, but on ports 1 and 2 only. */
		{ "VID 60 on port 3", 3, 0, 0, 60, 0, HWXDP_PUNT_UNKNOWN_VLAN },
		/* VLAN 50 exists, but on port 1 only. */
		{ "VID 50 on port 3", 3, 0, 0, 50, 0, HWXDP_PUNT_UNKNOWN_VLAN },
	};

	run_punt_cases(env, cases, ARRAY_LEN(cases));
}

HX_TEST(vlan, reserved_vlan_punted)
{
	static const struct punt_case cases[] = {
		{ "VID 4095 on port 1", 1, 0, 0, 4095, 0, HWXDP_PUNT_VLAN_RESERVED },
		{ "VID 4095 PCP 7 on port 2", 2, 0, 0, 4095, 7, HWXDP_PUNT_VLAN_RESERVED },
	};

	run_punt_cases(env, cases, ARRAY_LEN(cases));
}

HX_TEST(vlan, qinq_punted)
{
	static const struct punt_case cases[] = {
		{ "802.1ad 0x88a8 outer + 802.1Q 50", 1, 0x88a8, 50, 50, 0, HWXDP_PUNT_QINQ },
		{ "0x9100 outer + 802.1Q 50", 1, 0x9100, 50, 50, 0, HWXDP_PUNT_QINQ },
		{ "0x8100 outer + 0x8100 inner 50", 1, 0x8100, 50, 50, 0, HWXDP_PUNT_QINQ },
		{ "0x88a8 alone, S-VID 50", 1, 0x88a8, 50, -1, 0, HWXDP_PUNT_QINQ },
		{ "0x9100 alone, VID 0", 1, 0x9100, 0, -1, 0, HWXDP_PUNT_QINQ },
	};

	run_punt_cases(env, cases, ARRAY_LEN(cases));
}

/* ---- The vlan_flows switch, read per frame ---- */

/* Runs c with vlan_flows 0 (punted when punted_when_off, else forwarded),
 * then with vlan_flows 1 (forwarded as c says), then 0 again. */
static void run_vlan_flows_case(struct hx_env *env, const struct tag_case *c, bool punted_when_off)
{
	uint32_t lif = arrival_lif(c->in_port, c->in_vlan);
	struct hx_frame_spec spec;
	struct punt_snapshot before;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;
	int round;

	spec_for(&spec, c->family, c->in_vlan, c->pcp, c->dei);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, lif, &spec, c->nexthop), 0);

	for (round = 0; round < 3; round++) {
		bool off = round != 1;

		cr_assert_eq(hx_fwd_config(env->target, !off, 1, 1), 0);
		punt_snapshot(env, &before);
		hx_run_bytes(env, c->in_port, in, len, &r);
		if (off && punted_when_off) {
			hx_assert_punt(&r, HWXDP_PUNT_VLAN_FLOWS_OFF, in, len);
			expect_punt_delta(env, &before, HWXDP_PUNT_VLAN_FLOWS_OFF, 1, c->what);
		} else {
			hx_assert_forward(&r, c->in_port, c->out_port);
			expect_l2_edit(in, len, &r, c);
			expect_punt_delta(env, &before, HWXDP_PUNT_NONE, 0, c->what);
		}
	}
}

HX_TEST(vlan, vlan_flows_off_punts_tagged_arrival)
{
	/* Leaves untagged: only the arrival involves a VLAN. */
	static const struct tag_case c = {
		"VLAN 50 -> port 2 untagged", 4, 0, 1, 50, 5, 0, NH_P2, 2, -4, -1
	};

	run_vlan_flows_case(env, &c, true);
}

HX_TEST(vlan, vlan_flows_off_punts_untagged_to_vlan_nexthop)
{
	/* Arrives untagged: only the next hop involves a VLAN. */
	static const struct tag_case c = {
		"port 2 untagged -> VLAN 50", 4, 0, 2, -1, 0, 0, NH_P1_V50, 1, +4, 0x0032
	};

	run_vlan_flows_case(env, &c, true);
}

HX_TEST(vlan, vlan_flows_off_keeps_untagged_flows)
{
	static const struct tag_case c = {
		"port 1 untagged -> port 2 untagged", 4, 0, 1, -1, 0, 0, NH_P2, 2, 0, -1
	};

	run_vlan_flows_case(env, &c, false);
}

/* ---- LIF states ---- */

HX_TEST(lif, offload_disabled_punts_to_host)
{
	static const struct {
		const char *what;
		unsigned int port;
		int vlan;
	} cases[] = {
		{ "LIF 1.50", 1, 50 },
		{ "LIF 2.0", 2, -1 },
	};
	struct hx_frame_spec spec;
	struct punt_snapshot before;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t i, len;
	int n;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		uint32_t lif = arrival_lif(cases[i].port, cases[i].vlan);

		spec_for(&spec, 4, cases[i].vlan, 0, 0);
		len = build(&spec, in);
		cr_assert_eq(hx_fwd_flow(env->target, lif, &spec, NH_P2_V60), 0);
		set_lif_state(env, lif, HWXDP_LIF_OFFLOAD_DISABLED);

		/* The host carries the LIF's traffic: every frame goes on to it. */
		punt_snapshot(env, &before);
		for (n = 0; n < 3; n++) {
			hx_run_bytes(env, cases[i].port, in, len, &r);
			hx_assert_punt(&r, HWXDP_PUNT_LIF_OFFLOAD_OFF, in, len);
		}
		expect_punt_delta(env, &before, HWXDP_PUNT_LIF_OFFLOAD_OFF, 3, cases[i].what);
		expect_lif_counts(env, NULL, 0, cases[i].what);

		set_lif_state(env, lif, HWXDP_LIF_ENABLED);
		hx_run_bytes(env, cases[i].port, in, len, &r);
		hx_assert_forward(&r, cases[i].port, 2);
		reset_lif_counters(env);
	}
}

HX_TEST(lif, admin_disabled_drops_and_counts)
{
	const uint32_t lif = HWXDP_LIF(1, 50);
	struct hx_frame_spec spec;
	struct punt_snapshot before;
	struct hwxdp_flow flow;
	struct hwxdp_lif stats;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;
	int n;

	spec_for(&spec, 4, 50, 0, 0);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, lif, &spec, NH_P2), 0);
	set_lif_state(env, lif, HWXDP_LIF_ADMIN_DISABLED);

	punt_snapshot(env, &before);
	for (n = 0; n < 2; n++) {
		hx_run_bytes(env, 1, in, len, &r);
		cr_assert_eq(r.action, XDP_DROP, "verdict %s, expected drop",
			     hwxdp_xdp_action_name(r.action));
	}
	/* Dropped, not punted: the host never sees these frames. */
	expect_punt_delta(env, &before, HWXDP_PUNT_NONE, 0, "admin-disabled");
	cr_assert_eq(hx_fwd_lif_stats(env->target, lif, &stats), 0);
	cr_assert_eq(stats.rx_dropped, 2, "rx_dropped %llu, expected 2",
		     (unsigned long long)stats.rx_dropped);
	expect_lif_counts(env, NULL, 0, "admin-disabled");
	cr_assert_eq(hx_fwd_flow_stats(env->target, lif, &spec, &flow), 0);
	cr_assert_eq(flow.packets, 0, "a dropped frame counted on its microflow");

	/* Enabled again in place, no reload: forwarded, drops kept. */
	set_lif_state(env, lif, HWXDP_LIF_ENABLED);
	hx_run_bytes(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
	cr_assert_eq(hx_fwd_lif_stats(env->target, lif, &stats), 0);
	cr_assert_eq(stats.rx_dropped, 2, "rx_dropped %llu after re-enabling, expected 2",
		     (unsigned long long)stats.rx_dropped);
	cr_assert_eq(stats.rx_packets, 1);
}

/* ---- Per-LIF counters ---- */

/* A frame of a connection: arrives on port/vlan with payload bytes, leaves
 * by nexthop. All frames of one test share the 5-tuple, one flow per LIF. */
struct counted_frame {
	unsigned int port;
	int vlan;
	size_t payload;
	uint32_t nexthop;
	size_t expected_len; /* as built, from the test's own arithmetic */
};

static void send_counted_frames(struct hx_env *env, const struct counted_frame *frames, size_t n)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t i, len;

	for (i = 0; i < n; i++) {
		spec_for(&spec, 4, frames[i].vlan, 0, 0);
		spec.payload_len = frames[i].payload;
		len = build(&spec, in);
		cr_assert_eq(len, frames[i].expected_len, "frame %zu is %zu bytes, expected %zu", i,
			     len, frames[i].expected_len);
		cr_assert_eq(hx_fwd_flow(env->target, arrival_lif(frames[i].port, frames[i].vlan),
					 &spec, frames[i].nexthop),
			     0);
		hx_run_bytes(env, frames[i].port, in, len, &r);
		cr_assert_eq(r.meta.reason, HWXDP_PUNT_NONE, "frame %zu punted: %s", i,
			     hwxdp_punt_reason_name(r.meta.reason));
		cr_assert(r.action == XDP_REDIRECT || r.action == XDP_TX, "frame %zu: verdict %s",
			  i, hwxdp_xdp_action_name(r.action));
	}
}

/* Frame sizes: 14 Ethernet + 20 IPv4 + 20 TCP + payload, + 4 when tagged. */

HX_TEST(lif, vlan_counts_on_port_lif_with_lif_apply)
{
	/* 50 -> 60 keeps the length: tx bytes equal rx bytes. */
	static const struct counted_frame frames[] = {
		{ 1, 50, 32, NH_P2_V60, 90 },
		{ 1, 50, 200, NH_P2_V60, 258 },
	};
	static const struct lif_counts want[] = {
		{ HWXDP_LIF(1, 50), 2, 90 + 258, 0, 0 },
		{ HWXDP_LIF(1, 0), 2, 90 + 258, 0, 0 },
		{ HWXDP_LIF(2, 60), 0, 0, 2, 90 + 258 },
		{ HWXDP_LIF(2, 0), 0, 0, 2, 90 + 258 },
	};

	send_counted_frames(env, frames, ARRAY_LEN(frames));
	expect_lif_counts(env, want, ARRAY_LEN(want), "lif_apply 1");
}

HX_TEST(lif, vlan_counts_own_lif_only_without_lif_apply)
{
	static const struct counted_frame frames[] = {
		{ 1, 50, 32, NH_P2_V60, 90 },
		/* untagged 86 in, tagged 90 out */
		{ 2, -1, 32, NH_P1_V50, 86 },
	};
	static const struct lif_counts want[] = {
		{ HWXDP_LIF(1, 50), 1, 90, 1, 90 },
		{ HWXDP_LIF(2, 60), 0, 0, 1, 90 },
		{ HWXDP_LIF(2, 0), 1, 86, 0, 0 },
	};

	cr_assert_eq(hx_fwd_config(env->target, 1, 1, 0), 0);
	send_counted_frames(env, frames, ARRAY_LEN(frames));
	expect_lif_counts(env, want, ARRAY_LEN(want), "lif_apply 0");
}

HX_TEST(lif, tx_bytes_count_frame_as_it_leaves)
{
	static const struct {
		const char *what;
		struct counted_frame frame;
		struct lif_counts want[3];
		size_t n_want;
	} cases[] = {
		/* Pushed: 86 arrive, 90 leave on 1.50 and, by lif_apply, on 1.0. */
		{ "push",
		  { 2, -1, 32, NH_P1_V50, 86 },
		  { { HWXDP_LIF(2, 0), 1, 86, 0, 0 },
		    { HWXDP_LIF(1, 50), 0, 0, 1, 90 },
		    { HWXDP_LIF(1, 0), 0, 0, 1, 90 } },
		  3 },
		/* Popped: 90 arrive on 1.50 (and 1.0), 86 leave on 2.0. */
		{ "pop",
		  { 1, 50, 32, NH_P2, 90 },
		  { { HWXDP_LIF(1, 50), 1, 90, 0, 0 },
		    { HWXDP_LIF(1, 0), 1, 90, 0, 0 },
		    { HWXDP_LIF(2, 0), 0, 0, 1, 86 } },
		  3 },
	};
	size_t i;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		reset_lif_counters(env);
		send_counted_frames(env, &cases[i].frame, 1);
		expect_lif_counts(env, cases[i].want, cases[i].n_want, cases[i].what);
	}
}

HX_TEST(lif, punted_frames_count_no_lif_rx)
{
	static const struct {
		const char *what;
		unsigned int port;
		int vlan;
		uint8_t ttl;
		bool with_flow;
		unsigned int reason;
	} cases[] = {
		{ "flow miss on 1.50", 1, 50, 64, false, HWXDP_PUNT_FLOW_MISS },
		{ "flow miss on 2.0", 2, -1, 64, false, HWXDP_PUNT_FLOW_MISS },
		{ "TTL 1 on 1.50", 1, 50, 1, true, HWXDP_PUNT_TTL_EXCEEDED },
		{ "unknown VLAN 99", 1, 99, 64, false, HWXDP_PUNT_UNKNOWN_VLAN },
		{ "reserved VLAN", 1, 4095, 64, false, HWXDP_PUNT_VLAN_RESERVED },
	};
	struct hx_frame_spec spec;
	size_t i;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		spec_for(&spec, 4, cases[i].vlan, 0, 0);
		spec.ttl = cases[i].ttl;
		if (cases[i].with_flow)
			cr_assert_eq(hx_fwd_flow(env->target,
						 arrival_lif(cases[i].port, cases[i].vlan), &spec,
						 NH_P2_V60),
				     0);
		expect_punt(env, cases[i].port, &spec, cases[i].reason, cases[i].what);
		expect_lif_counts(env, NULL, 0, cases[i].what);
	}
}

/* ---- Per-microflow counters ---- */

HX_TEST(lif, microflow_counts_packets_and_arriving_bytes)
{
	/* Tagged frames of 58 + payload bytes; popped, each leaves 4 shorter,
	 * but a microflow counts bytes as they arrived. */
	static const struct {
		size_t payload, len;
	} sizes[] = { { 10, 68 }, { 100, 158 }, { 1000, 1058 } };
	const uint32_t lif = HWXDP_LIF(1, 50);
	struct hx_frame_spec spec;
	struct hwxdp_flow flow;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t i, len;

	spec_for(&spec, 4, 50, 0, 0);
	cr_assert_eq(hx_fwd_flow(env->target, lif, &spec, NH_P2), 0);
	/* Same connection on the port LIF: a different microflow. */
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);

	for (i = 0; i < ARRAY_LEN(sizes); i++) {
		spec.payload_len = sizes[i].payload;
		len = build(&spec, in);
		cr_assert_eq(len, sizes[i].len);
		hx_run_bytes(env, 1, in, len, &r);
		hx_assert_forward(&r, 1, 2);
		cr_assert_eq(r.len, len - 4);
	}
	/* A punted frame of the connection is not the microflow's. */
	spec.payload_len = 10;
	spec.ttl = 1;
	expect_punt(env, 1, &spec, HWXDP_PUNT_TTL_EXCEEDED, "TTL 1");

	cr_assert_eq(hx_fwd_flow_stats(env->target, lif, &spec, &flow), 0);
	cr_assert_eq(flow.packets, 3, "microflow packets %llu, expected 3",
		     (unsigned long long)flow.packets);
	cr_assert_eq(flow.bytes, 68 + 158 + 1058, "microflow bytes %llu, expected %u",
		     (unsigned long long)flow.bytes, 68 + 158 + 1058);
	cr_assert_eq(flow.nexthop, NH_P2);

	cr_assert_eq(hx_fwd_flow_stats(env->target, HWXDP_LIF(1, 0), &spec, &flow), 0);
	cr_assert_eq(flow.packets, 0, "the port LIF's microflow counted VLAN 50 frames");
	cr_assert_eq(flow.bytes, 0);
}
