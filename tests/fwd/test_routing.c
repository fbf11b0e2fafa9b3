// SPDX-License-Identifier: GPL-2.0
/*
 * Routed forwarding: microflow, next hop, MACs, TTL and checksum, MTU,
 * egress, tunnel selection, punt counters and metadata.
 */
#include <netinet/in.h>
#include <string.h>

#include "tests/common/fwd_env.h"

/* Where the fields sit in an untagged frame. */
#define L3_OFF	      14
#define IPV4_TTL_OFF  (L3_OFF + 8)
#define IPV4_CSUM_OFF (L3_OFF + 10)
#define IPV6_HOPS_OFF (L3_OFF + 7)

#define NH_SMALL_MTU NH__END /* next hop on port 2 with the IPv4 minimum MTU */
#define SA_HANDLE    7

static size_t build(const struct hx_frame_spec *spec, uint8_t *buf)
{
	size_t len = hx_frame_build(spec, buf, HX_PKT_MAX);

	cr_assert_gt(len, 0, "frame does not build");
	return len;
}

/* A target only ever sets has_meta, so clear it to know this run wrote it. */
static void run(struct hx_env *env, unsigned int port, const uint8_t *frame, size_t len,
		struct hx_result *r)
{
	r->has_meta = false;
	memset(&r->meta, 0, sizeof(r->meta));
	hx_run_bytes(env, port, frame, len, r);
}

static struct hwxdp_counter punt_counter(struct hx_env *env, unsigned int reason)
{
	struct hwxdp_counter c;
	uint32_t key = reason;

	cr_assert_eq(hx_target_map_lookup(env->target, "punt_stats", &key, &c), 0,
		     "punt_stats[%s] unreadable", hwxdp_punt_reason_name(reason));
	return c;
}

/* Sizes the payload so that the IP packet (header, L4 header, payload) is ip_len bytes. */
static void set_ip_len(struct hx_frame_spec *spec, size_t ip_len)
{
	size_t fixed = (spec->family == 6 ? 40 : 20) + (spec->proto == IPPROTO_TCP ? 20 : 8);

	cr_assert_geq(ip_len, fixed);
	spec->payload_len = ip_len - fixed;
}

static void expect_macs(const struct hx_result *r, const char *dmac, const char *smac)
{
	uint8_t d[6], s[6];

	hx_mac(d, dmac);
	hx_mac(s, smac);
	cr_assert_arr_eq(r->frame, d, 6, "destination MAC not rewritten");
	cr_assert_arr_eq(r->frame + 6, s, 6, "source MAC not rewritten");
}

HX_TEST(routing, ipv4_tcp_forwarded_with_ttl_and_checksum)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, 4);
	len = hx_frame_build(&spec, in, sizeof(in));
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);

	hx_run_bytes(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
	cr_assert_eq(r.len, len, "length changed: %zu -> %zu", len, r.len);
	expect_macs(&r, "02:00:00:00:02:01", "02:00:00:00:02:fe");
	cr_assert_eq(r.frame[14 + 8], 63, "TTL %u, expected 63", r.frame[14 + 8]);
	cr_assert(hx_ipv4_header_csum_ok(r.frame + 14, 20), "IPv4 header checksum wrong");
	cr_assert(hx_l4_csum_ok(r.frame, r.len), "TCP checksum wrong");
	/* Everything past the MACs but TTL and checksum is untouched. */
	cr_assert_arr_eq(r.frame + 12, in + 12, 14 + 8 - 12);
	cr_assert_arr_eq(r.frame + 14 + 12, in + 14 + 12, len - 14 - 12);
}

/*
 * What the next hop must receive: the arriving frame with the next hop's MACs
 * and one hop less, and nothing else changed. Built from scratch, so its IPv4
 * header checksum is a full recomputation; the L4 checksum stays as it was
 * because neither pseudo-header covers the TTL / hop limit.
 */
static void expect_routed(const struct hx_result *r, const struct hx_frame_spec *arrived,
			  const char *dmac, const char *smac)
{
	struct hx_frame_spec next = *arrived;
	uint8_t want[HX_PKT_MAX];
	size_t len, i;

	hx_mac(next.dmac, dmac);
	hx_mac(next.smac, smac);
	next.ttl--;
	len = build(&next, want);
	cr_assert_eq(r->len, len, "frame is %zu bytes, expected %zu", r->len, len);
	for (i = 0; i < len; i++)
		if (r->frame[i] != want[i])
			cr_assert_fail("byte %zu is %02x, expected %02x", i, r->frame[i], want[i]);
}

HX_TEST(routing, ipv4_udp_forwarded_byte_exact)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, 4);
	spec.proto = IPPROTO_UDP;
	spec.sport = 5353;
	spec.dport = 53;
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);

	run(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
	cr_assert_eq(r.len, len, "length changed: %zu -> %zu", len, r.len);
	expect_macs(&r, "02:00:00:00:02:01", "02:00:00:00:02:fe");
	cr_assert_eq(r.frame[IPV4_TTL_OFF], 63, "TTL %u, expected 63", r.frame[IPV4_TTL_OFF]);
	cr_assert(hx_ipv4_header_csum_ok(r.frame + L3_OFF, 20), "IPv4 header checksum wrong");
	cr_assert(hx_l4_csum_ok(r.frame, r.len), "UDP checksum wrong");
	expect_routed(&r, &spec, "02:00:00:00:02:01", "02:00:00:00:02:fe");
}

HX_TEST(routing, ipv6_tcp_forwarded_byte_exact)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, 6);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);

	run(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
	cr_assert_eq(r.len, len, "length changed: %zu -> %zu", len, r.len);
	expect_macs(&r, "02:00:00:00:02:01", "02:00:00:00:02:fe");
	cr_assert_eq(r.frame[IPV6_HOPS_OFF], 63, "hop limit %u, expected 63",
		     r.frame[IPV6_HOPS_OFF]);
	cr_assert(hx_l4_csum_ok(r.frame, r.len), "TCP checksum wrong");
	/* Everything past the MACs but the hop limit is untouched. */
	cr_assert_arr_eq(r.frame + 12, in + 12, IPV6_HOPS_OFF - 12);
	cr_assert_arr_eq(r.frame + IPV6_HOPS_OFF + 1, in + IPV6_HOPS_OFF + 1,
			 len - IPV6_HOPS_OFF - 1);
	expect_routed(&r, &spec, "02:00:00:00:02:01", "02:00:00:00:02:fe");
}

HX_TEST(routing, ipv6_udp_forwarded_byte_exact)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, 6);
	spec.proto = IPPROTO_UDP;
	spec.sport = 546;
	spec.dport = 547;
	spec.payload_len = 301; /* odd: the checksum pads the last byte */
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);

	run(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
	cr_assert_eq(r.len, len, "length changed: %zu -> %zu", len, r.len);
	expect_macs(&r, "02:00:00:00:02:01", "02:00:00:00:02:fe");
	cr_assert_eq(r.frame[IPV6_HOPS_OFF], 63, "hop limit %u, expected 63",
		     r.frame[IPV6_HOPS_OFF]);
	cr_assert(hx_l4_csum_ok(r.frame, r.len), "UDP checksum wrong");
	cr_assert_arr_eq(r.frame + 12, in + 12, IPV6_HOPS_OFF - 12);
	cr_assert_arr_eq(r.frame + IPV6_HOPS_OFF + 1, in + IPV6_HOPS_OFF + 1,
			 len - IPV6_HOPS_OFF - 1);
	expect_routed(&r, &spec, "02:00:00:00:02:01", "02:00:00:00:02:fe");
}

/* A microflow matches its whole key; any one field off is another connection. */
HX_TEST(routing, flow_miss_on_other_source_port)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, 4);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);
	spec.sport = 40001;
	len = build(&spec, in);

	run(env, 1, in, len, &r);
	hx_assert_punt(&r, HWXDP_PUNT_FLOW_MISS, in, len);
}

HX_TEST(routing, flow_miss_on_other_protocol)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, 4);
	spec.proto = IPPROTO_UDP;
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);
	spec.proto = IPPROTO_TCP; /* same addresses and ports */
	len = build(&spec, in);

	run(env, 1, in, len, &r);
	hx_assert_punt(&r, HWXDP_PUNT_FLOW_MISS, in, len);

	/* And the other way round, for IPv6. */
	hx_frame_spec_init(&spec, 6);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);
	spec.proto = IPPROTO_UDP;
	len = build(&spec, in);
	run(env, 1, in, len, &r);
	hx_assert_punt(&r, HWXDP_PUNT_FLOW_MISS, in, len);
}

HX_TEST(routing, flow_miss_on_other_lif)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, 4);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);

	/* The same 5-tuple on port 3 is LIF 3.0: the key differs in its LIF. */
	run(env, 3, in, len, &r);
	hx_assert_punt(&r, HWXDP_PUNT_FLOW_MISS, in, len);
	cr_assert_eq(r.meta.lif, HWXDP_LIF(3, 0), "meta lif %#x, expected 3.0", r.meta.lif);

	/* On the LIF it was installed for, it is forwarded. */
	run(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
}

HX_TEST(routing, nexthop_miss_on_unwritten_index)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	/* Array entries exist from creation, all zero: no VALID flag. */
	hx_frame_spec_init(&spec, 4);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, 77), 0);

	run(env, 1, in, len, &r);
	hx_assert_punt(&r, HWXDP_PUNT_NEXTHOP_MISS, in, len);
}

HX_TEST(routing, nexthop_miss_past_table_end)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, 6);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, HWXDP_MAX_NEXTHOPS + 5), 0);

	run(env, 1, in, len, &r);
	hx_assert_punt(&r, HWXDP_PUNT_NEXTHOP_MISS, in, len);
}

HX_TEST(routing, nexthop_miss_on_reserved_vlan)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	/* VID 4095 cannot be put on the wire, so such a next hop is not usable. */
	cr_assert_eq(hx_fwd_nexthop(env->target, NH__END + 1, 2, 4095, 1500, "02:00:00:00:02:01",
				    "02:00:00:00:02:fe"),
		     0);
	hx_frame_spec_init(&spec, 4);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH__END + 1), 0);

	run(env, 1, in, len, &r);
	hx_assert_punt(&r, HWXDP_PUNT_NEXTHOP_MISS, in, len);
}

HX_TEST(routing, punt_counters_count_packets_and_bytes)
{
	static const size_t payloads[] = { 0, 1, 33, 700, 1400 };
	const unsigned int n = sizeof(payloads) / sizeof(payloads[0]);
	struct hwxdp_counter miss, ttl;
	uint64_t miss_bytes = 0, ttl_bytes = 0;
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	unsigned int i;
	size_t len;

	hx_frame_spec_init(&spec, 4);
	spec.ttl = 1;
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);

	/* Interleave two reasons so that each frame is counted under its own. */
	for (i = 0; i < n; i++) {
		spec.payload_len = payloads[i];
		spec.sport = 40000;
		len = build(&spec, in);
		run(env, 1, in, len, &r);
		hx_assert_punt(&r, HWXDP_PUNT_TTL_EXCEEDED, in, len);
		ttl_bytes += len;

		spec.sport = 41000;
		len = build(&spec, in);
		run(env, 1, in, len, &r);
		hx_assert_punt(&r, HWXDP_PUNT_FLOW_MISS, in, len);
		miss_bytes += len;
	}
	/* 14 + 20 + 20 bytes of headers on each of the n frames. */
	cr_assert_eq(ttl_bytes, 5 * 54 + 0 + 1 + 33 + 700 + 1400);

	ttl = punt_counter(env, HWXDP_PUNT_TTL_EXCEEDED);
	miss = punt_counter(env, HWXDP_PUNT_FLOW_MISS);
	cr_assert_eq(ttl.packets, n, "ttl-exceeded packets %llu, expected %u",
		     (unsigned long long)ttl.packets, n);
	cr_assert_eq(ttl.bytes, ttl_bytes, "ttl-exceeded bytes %llu, expected %llu",
		     (unsigned long long)ttl.bytes, (unsigned long long)ttl_bytes);
	cr_assert_eq(miss.packets, n, "flow-miss packets %llu, expected %u",
		     (unsigned long long)miss.packets, n);
	cr_assert_eq(miss.bytes, miss_bytes, "flow-miss bytes %llu, expected %llu",
		     (unsigned long long)miss.bytes, (unsigned long long)miss_bytes);
	cr_assert_eq(hx_fwd_punts(env->target, HWXDP_PUNT_NONE), 0, "none counted as a punt");
	cr_assert_eq(hx_fwd_punts(env->target, HWXDP_PUNT_NEXTHOP_MISS), 0);
}

HX_TEST(routing, forward_changes_no_punt_counter)
{
	struct hwxdp_counter before[HWXDP_PUNT__MAX], after;
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	unsigned int reason;
	size_t len;

	hx_frame_spec_init(&spec, 4);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);
	/* One punt first, so a counter that is already non-zero is watched too. */
	run(env, 3, in, len, &r);
	hx_assert_punt(&r, HWXDP_PUNT_FLOW_MISS, in, len);
	for (reason = 0; reason < HWXDP_PUNT__MAX; reason++)
		before[reason] = punt_counter(env, reason);
	cr_assert_eq(before[HWXDP_PUNT_FLOW_MISS].packets, 1);

	run(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
	run(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
	for (reason = 0; reason < HWXDP_PUNT__MAX; reason++) {
		after = punt_counter(env, reason);
		cr_assert_eq(after.packets, before[reason].packets, "%s packets moved",
			     hwxdp_punt_reason_name(reason));
		cr_assert_eq(after.bytes, before[reason].bytes, "%s bytes moved",
			     hwxdp_punt_reason_name(reason));
	}
}

HX_TEST(routing, meta_lif_on_forward_is_ingress_lif)
{
	struct hx_frame_spec spec;
	struct hx_result r;

	hx_frame_spec_init(&spec, 4);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(3, 0), &spec, NH_P2), 0);
	hx_run_spec(env, 3, &spec, &r);
	hx_assert_forward(&r, 3, 2);
	cr_assert_eq(r.meta.lif, HWXDP_LIF(3, 0), "meta lif %#x, expected 3.0 = 0x3000",
		     r.meta.lif);

	/* Tagged ingress: the LIF carries the VLAN, (1 << 12) | 50 = 0x1032. */
	spec.vlan = 50;
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 50), &spec, NH_P2_V60), 0);
	hx_run_spec(env, 1, &spec, &r);
	hx_assert_forward(&r, 1, 2);
	cr_assert_eq(r.meta.lif, 0x1032, "meta lif %#x, expected 1.50 = 0x1032", r.meta.lif);
}

HX_TEST(routing, meta_lif_on_punt)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	uint32_t ifindex3 = env->ifindex[3];
	size_t len;

	hx_frame_spec_init(&spec, 6);
	len = build(&spec, in);
	run(env, 2, in, len, &r);
	hx_assert_punt(&r, HWXDP_PUNT_FLOW_MISS, in, len);
	cr_assert_eq(r.meta.lif, 0x2000, "meta lif %#x, expected 2.0 = 0x2000", r.meta.lif);
	cr_assert_eq(r.meta.egress_port, 0, "a punted frame has no egress port");

	spec.vlan = 50;
	len = build(&spec, in);
	run(env, 1, in, len, &r);
	hx_assert_punt(&r, HWXDP_PUNT_FLOW_MISS, in, len);
	cr_assert_eq(r.meta.lif, 0x1032, "meta lif %#x, expected 1.50 = 0x1032", r.meta.lif);

	/* A port the program does not know has no LIF yet. */
	cr_assert_eq(hx_target_map_delete(env->target, "ports", &ifindex3), 0);
	spec.vlan = -1;
	len = build(&spec, in);
	run(env, 3, in, len, &r);
	hx_assert_punt(&r, HWXDP_PUNT_UNKNOWN_PORT, in, len);
	cr_assert_eq(r.meta.lif, 0, "meta lif %#x on an unknown port, expected 0", r.meta.lif);
}

HX_TEST(ttl, ipv4_ttl_2_forwarded_with_1)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, 4);
	spec.ttl = 2;
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);

	run(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
	cr_assert_eq(r.frame[IPV4_TTL_OFF], 1, "TTL %u, expected 1", r.frame[IPV4_TTL_OFF]);
	cr_assert(hx_ipv4_header_csum_ok(r.frame + L3_OFF, 20), "IPv4 header checksum wrong");
	cr_assert(hx_l4_csum_ok(r.frame, r.len), "TCP checksum wrong");
	expect_routed(&r, &spec, "02:00:00:00:02:01", "02:00:00:00:02:fe");

	/* The top of the range loses one as well. */
	spec.ttl = 255;
	len = build(&spec, in);
	run(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
	cr_assert_eq(r.frame[IPV4_TTL_OFF], 254, "TTL %u, expected 254", r.frame[IPV4_TTL_OFF]);
	expect_routed(&r, &spec, "02:00:00:00:02:01", "02:00:00:00:02:fe");
}

/* RFC 1812 5.3.1: a router must not forward a packet it would send with TTL 0. */
HX_TEST(ttl, ipv4_ttl_1_and_0_punted_unchanged)
{
	static const uint8_t ttls[] = { 1, 0 };
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	unsigned int i;
	size_t len;

	hx_frame_spec_init(&spec, 4);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);
	for (i = 0; i < sizeof(ttls); i++) {
		spec.ttl = ttls[i];
		len = build(&spec, in);
		run(env, 1, in, len, &r);
		hx_assert_punt(&r, HWXDP_PUNT_TTL_EXCEEDED, in, len);
		cr_assert_eq(r.frame[IPV4_TTL_OFF], ttls[i]);
	}
	cr_assert_eq(hx_fwd_punts(env->target, HWXDP_PUNT_TTL_EXCEEDED), 2);
}

HX_TEST(ttl, ipv6_hop_limit_2_forwarded_with_1)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, 6);
	spec.proto = IPPROTO_UDP;
	spec.ttl = 2;
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);

	run(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
	cr_assert_eq(r.frame[IPV6_HOPS_OFF], 1, "hop limit %u, expected 1", r.frame[IPV6_HOPS_OFF]);
	cr_assert(hx_l4_csum_ok(r.frame, r.len), "UDP checksum wrong");
	expect_routed(&r, &spec, "02:00:00:00:02:01", "02:00:00:00:02:fe");
}

HX_TEST(ttl, ipv6_hop_limit_1_and_0_punted_unchanged)
{
	static const uint8_t hop_limits[] = { 1, 0 };
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	unsigned int i;
	size_t len;

	hx_frame_spec_init(&spec, 6);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);
	for (i = 0; i < sizeof(hop_limits); i++) {
		spec.ttl = hop_limits[i];
		len = build(&spec, in);
		run(env, 1, in, len, &r);
		hx_assert_punt(&r, HWXDP_PUNT_TTL_EXCEEDED, in, len);
		cr_assert_eq(r.frame[IPV6_HOPS_OFF], hop_limits[i]);
	}
	cr_assert_eq(hx_fwd_punts(env->target, HWXDP_PUNT_TTL_EXCEEDED), 2);
}

/*
 * The header checksum after TTL - 1 must be exactly what a full
 * recomputation gives. Sweeping the identification field moves the header's
 * sum through every value, so the ones' complement edges are all reached:
 * in particular the output whose full recomputation is 0x0000, where an
 * incremental update can wrongly leave its twin 0xffff (RFC 1624 section 3).
 */
HX_TEST(ttl, ipv4_checksum_equals_full_recomputation_for_every_ip_id)
{
	static const uint8_t ttls[] = { 2, 64, 255 };
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX], hdr[20];
	unsigned int t, id, zero_csums;
	uint16_t got, want;
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, 4);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);
	for (t = 0; t < sizeof(ttls); t++) {
		zero_csums = 0;
		for (id = 0; id <= 0xffff; id++) {
			spec.ttl = ttls[t];
			spec.ip_id = id;
			len = build(&spec, in);
			run(env, 1, in, len, &r);
			if (r.action != XDP_REDIRECT || r.len != len ||
			    r.frame[IPV4_TTL_OFF] != ttls[t] - 1)
				cr_assert_fail("TTL %u id 0x%04x: %s, %zu bytes, TTL %u", ttls[t],
					       id, hwxdp_xdp_action_name(r.action), r.len,
					       r.frame[IPV4_TTL_OFF]);

			memcpy(hdr, r.frame + L3_OFF, sizeof(hdr));
			hdr[10] = 0;
			hdr[11] = 0;
			want = hx_inet_csum(hdr, sizeof(hdr));
			got = (uint16_t)(r.frame[IPV4_CSUM_OFF] << 8 | r.frame[IPV4_CSUM_OFF + 1]);
			if (got != want)
				cr_assert_fail(
					"TTL %u id 0x%04x: checksum 0x%04x, recomputed 0x%04x",
					ttls[t], id, got, want);
			/* Nothing else in the header moved. */
			if (memcmp(r.frame + L3_OFF, in + L3_OFF, 8) ||
			    r.frame[L3_OFF + 9] != in[L3_OFF + 9] ||
			    memcmp(r.frame + L3_OFF + 12, in + L3_OFF + 12, 8))
				cr_assert_fail("TTL %u id 0x%04x: IPv4 header changed beyond TTL",
					       ttls[t], id);
			zero_csums += got == 0;
		}
		cr_assert_geq(zero_csums, 1, "TTL %u: the sweep never reached checksum 0x0000",
			      ttls[t]);
	}
}

/*
 * The MTU is the largest IP packet the next hop takes (RFC 791 / RFC 8200
 * "link MTU"), so the program compares the IP length: IPv4 total length, or
 * 40 + payload length for IPv6. The Ethernet header and any tag are not part
 * of it: a 1500-byte packet is a 1514-byte frame untagged, 1518 tagged.
 */
static void expect_mtu_boundary(struct hx_env *env, int family, uint8_t proto, uint32_t nexthop,
				size_t mtu, const char *dmac, const char *smac)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, family);
	spec.proto = proto;
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, nexthop), 0);

	set_ip_len(&spec, mtu);
	len = build(&spec, in);
	cr_assert_eq(len, 14 + mtu);
	run(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
	expect_routed(&r, &spec, dmac, smac);

	set_ip_len(&spec, mtu + 1);
	len = build(&spec, in);
	run(env, 1, in, len, &r);
	hx_assert_punt(&r, HWXDP_PUNT_MTU_EXCEEDED, in, len);
}

HX_TEST(mtu, ipv4_at_mtu_forwarded_one_over_punted)
{
	expect_mtu_boundary(env, 4, IPPROTO_TCP, NH_P2, 1500, "02:00:00:00:02:01",
			    "02:00:00:00:02:fe");
}

HX_TEST(mtu, ipv4_udp_at_mtu_forwarded_one_over_punted)
{
	expect_mtu_boundary(env, 4, IPPROTO_UDP, NH_P2, 1500, "02:00:00:00:02:01",
			    "02:00:00:00:02:fe");
}

HX_TEST(mtu, ipv6_at_mtu_forwarded_one_over_punted)
{
	expect_mtu_boundary(env, 6, IPPROTO_TCP, NH_P2, 1500, "02:00:00:00:02:01",
			    "02:00:00:00:02:fe");
	cr_assert_eq(hx_fwd_punts(env->target, HWXDP_PUNT_MTU_EXCEEDED), 1);
}

HX_TEST(mtu, small_mtu_next_hop_boundary)
{
	/* 576: the datagram size every IPv4 host must accept (RFC 791). */
	cr_assert_eq(hx_fwd_nexthop(env->target, NH_SMALL_MTU, 2, 0, 576, "02:00:00:00:0a:01",
				    "02:00:00:00:0a:fe"),
		     0);
	expect_mtu_boundary(env, 4, IPPROTO_TCP, NH_SMALL_MTU, 576, "02:00:00:00:0a:01",
			    "02:00:00:00:0a:fe");
	expect_mtu_boundary(env, 6, IPPROTO_UDP, NH_SMALL_MTU, 576, "02:00:00:00:0a:01",
			    "02:00:00:00:0a:fe");
	cr_assert_eq(hx_fwd_punts(env->target, HWXDP_PUNT_MTU_EXCEEDED), 2);
}

HX_TEST(mtu, tagged_frame_counts_ip_length_only)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, 4);
	spec.vlan = 50;
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 50), &spec, NH_P2_V60), 0);

	/* 1518 bytes on the wire in and out, but a 1500-byte IP packet. */
	set_ip_len(&spec, 1500);
	len = build(&spec, in);
	cr_assert_eq(len, 1518);
	run(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
	cr_assert_eq(r.len, 1518, "frame is %zu bytes, expected 1518", r.len);

	set_ip_len(&spec, 1501);
	len = build(&spec, in);
	run(env, 1, in, len, &r);
	hx_assert_punt(&r, HWXDP_PUNT_MTU_EXCEEDED, in, len);
}

HX_TEST(egress, egress_miss_without_tx_port)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	uint32_t port = 2;
	size_t len;

	hx_frame_spec_init(&spec, 4);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);
	cr_assert_eq(hx_target_map_delete(env->target, "tx_ports", &port), 0);

	run(env, 1, in, len, &r);
	hx_assert_punt(&r, HWXDP_PUNT_EGRESS_MISS, in, len);
	cr_assert_eq(r.meta.lif, HWXDP_LIF(1, 0));
}

HX_TEST(egress, redirect_to_next_hop_port_device)
{
	struct bpf_devmap_val tx;
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	uint32_t port = 2;
	size_t len;

	hx_frame_spec_init(&spec, 6);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(3, 0), &spec, NH_P2), 0);

	run(env, 3, in, len, &r);
	cr_assert_eq(r.action, XDP_REDIRECT, "verdict %s, expected redirect",
		     hwxdp_xdp_action_name(r.action));
	cr_assert(r.has_meta, "no metadata on a forwarded frame");
	cr_assert_eq(r.meta.reason, HWXDP_PUNT_NONE, "punted: %s",
		     hwxdp_punt_reason_name(r.meta.reason));
	cr_assert_eq(r.meta.egress_port, 2, "egress port %u, expected 2", r.meta.egress_port);

	/* The redirect goes through tx_ports[2]: it must name port 2's device. */
	memset(&tx, 0xff, sizeof(tx));
	cr_assert_eq(hx_target_map_lookup(env->target, "tx_ports", &port, &tx), 0);
	cr_assert_neq(env->ifindex[2], env->ifindex[3]);
	cr_assert_eq(tx.ifindex, env->ifindex[2], "tx_ports[2] is ifindex %u, expected %u",
		     tx.ifindex, env->ifindex[2]);
}

HX_TEST(egress, hairpin_is_xdp_tx)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, 4);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P1), 0);

	run(env, 1, in, len, &r);
	cr_assert_eq(r.action, XDP_TX, "verdict %s, expected tx", hwxdp_xdp_action_name(r.action));
	hx_assert_forward(&r, 1, 1);
	expect_routed(&r, &spec, "02:00:00:00:01:01", "02:00:00:00:01:fe");
}

/* A LIF switched off on the way out: the host decides, whichever way it is off. */
static void expect_egress_lif_off(struct hx_env *env, uint32_t state)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hwxdp_lif lif;
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, 4);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2_V60), 0);
	cr_assert_eq(hx_fwd_lif(env->target, HWXDP_LIF(2, 60), state), 0);

	run(env, 1, in, len, &r);
	hx_assert_punt(&r, HWXDP_PUNT_EGRESS_LIF_OFF, in, len);
	cr_assert_eq(hx_fwd_lif_stats(env->target, HWXDP_LIF(2, 60), &lif), 0);
	cr_assert_eq(lif.tx_packets, 0, "a punted frame was counted on the egress LIF");

	/* Switched back on, the same frame leaves tagged, without a reload. */
	cr_assert_eq(hx_fwd_lif(env->target, HWXDP_LIF(2, 60), HWXDP_LIF_ENABLED), 0);
	run(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
	cr_assert_eq(r.len, len + 4);
}

HX_TEST(egress, offload_disabled_egress_lif_punted)
{
	expect_egress_lif_off(env, HWXDP_LIF_OFFLOAD_DISABLED);
}

HX_TEST(egress, admin_disabled_egress_lif_punted)
{
	expect_egress_lif_off(env, HWXDP_LIF_ADMIN_DISABLED);
}

/*
 * Tunnel microflows. The kernel has no crypto engine, so a tunnel frame must
 * reach the host as it arrived, whatever else is wrong with it: it never
 * leaves in clear through XDP_REDIRECT or XDP_TX.
 */
static void expect_tunnel_punt(const struct hx_result *r, unsigned int reason, const uint8_t *in,
			       size_t len)
{
	cr_assert_eq(r->action, XDP_PASS, "tunnel frame got verdict %s on the kernel",
		     hwxdp_xdp_action_name(r->action));
	hx_assert_punt(r, reason, in, len);
	cr_assert_eq(r->meta.egress_port, 0);
}

static void write_sa(struct hx_env *env, uint32_t handle, uint32_t flags, uint32_t revision)
{
	struct hwxdp_sa sa = {
		.flags = flags,
		.revision = revision,
		.spi_be = htonl(0x1000),
	};

	cr_assert_eq(hx_target_map_update(env->target, "sas", &handle, &sa), 0);
}

HX_TEST_KERNEL(tunnel, valid_sa_punted_no_crypto)
{
	struct hx_frame_spec spec;
	struct hwxdp_flow flow;
	struct hwxdp_lif lif;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	cr_assert_eq(hx_fwd_sa(env->target, SA_HANDLE, 1, 0x1000, "192.0.2.1", "198.51.100.1"), 0);
	hx_frame_spec_init(&spec, 4);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_tunnel_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2, SA_HANDLE, 1),
		     0);

	run(env, 1, in, len, &r);
	expect_tunnel_punt(&r, HWXDP_PUNT_NO_CRYPTO, in, len);
	cr_assert_eq(r.meta.lif, HWXDP_LIF(1, 0));

	/* Nothing counted as forwarded. */
	cr_assert_eq(hx_fwd_flow_stats(env->target, HWXDP_LIF(1, 0), &spec, &flow), 0);
	cr_assert_eq(flow.packets, 0, "flow counted %llu packets",
		     (unsigned long long)flow.packets);
	cr_assert_eq(hx_fwd_lif_stats(env->target, HWXDP_LIF(2, 0), &lif), 0);
	cr_assert_eq(lif.tx_packets, 0, "port 2 counted %llu packets out",
		     (unsigned long long)lif.tx_packets);
}

HX_TEST_KERNEL(tunnel, never_leaves_in_clear)
{
	static const uint32_t hops[] = { NH_P2, NH_P2_V60, NH_P1, NH_P1_V50 };
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	unsigned int i;
	int family;
	size_t len;

	cr_assert_eq(hx_fwd_sa(env->target, SA_HANDLE, 1, 0x1000, "192.0.2.1", "198.51.100.1"), 0);
	/* Every kind of next hop, redirect and hairpin alike, for both families. */
	for (family = 4; family <= 6; family += 2) {
		for (i = 0; i < sizeof(hops) / sizeof(hops[0]); i++) {
			hx_frame_spec_init(&spec, family);
			len = build(&spec, in);
			cr_assert_eq(hx_fwd_tunnel_flow(env->target, HWXDP_LIF(1, 0), &spec,
							hops[i], SA_HANDLE, 1),
				     0);
			run(env, 1, in, len, &r);
			expect_tunnel_punt(&r, HWXDP_PUNT_NO_CRYPTO, in, len);
		}
	}
}

HX_TEST(tunnel, ipsec_flows_off_punted)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	cr_assert_eq(hx_fwd_config(env->target, 1, 0, 1), 0);
	cr_assert_eq(hx_fwd_sa(env->target, SA_HANDLE, 1, 0x1000, "192.0.2.1", "198.51.100.1"), 0);
	hx_frame_spec_init(&spec, 4);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_tunnel_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2, SA_HANDLE, 1),
		     0);
	run(env, 1, in, len, &r);
	expect_tunnel_punt(&r, HWXDP_PUNT_IPSEC_OFF, in, len);

	/* With tunnels off the SA is not even looked at. */
	hx_frame_spec_init(&spec, 6);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_tunnel_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2, 99, 5), 0);
	run(env, 1, in, len, &r);
	expect_tunnel_punt(&r, HWXDP_PUNT_IPSEC_OFF, in, len);
}

HX_TEST_KERNEL(tunnel, rekeyed_sa_punted_stale)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	cr_assert_eq(hx_fwd_sa(env->target, SA_HANDLE, 1, 0x1000, "192.0.2.1", "198.51.100.1"), 0);
	hx_frame_spec_init(&spec, 4);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_tunnel_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2, SA_HANDLE, 1),
		     0);
	run(env, 1, in, len, &r);
	expect_tunnel_punt(&r, HWXDP_PUNT_NO_CRYPTO, in, len);

	/* Rekey: the SA moves to revision 2, the microflow still names 1. */
	cr_assert_eq(hx_fwd_sa(env->target, SA_HANDLE, 2, 0x1001, "192.0.2.1", "198.51.100.1"), 0);
	run(env, 1, in, len, &r);
	expect_tunnel_punt(&r, HWXDP_PUNT_SA_STALE, in, len);

	/* The microflow catches up. */
	cr_assert_eq(hx_fwd_tunnel_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2, SA_HANDLE, 2),
		     0);
	run(env, 1, in, len, &r);
	expect_tunnel_punt(&r, HWXDP_PUNT_NO_CRYPTO, in, len);
}

HX_TEST_KERNEL(tunnel, removed_sa_punted_stale)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	write_sa(env, SA_HANDLE, HWXDP_SA_VALID, 3);
	hx_frame_spec_init(&spec, 6);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_tunnel_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2, SA_HANDLE, 3),
		     0);
	run(env, 1, in, len, &r);
	expect_tunnel_punt(&r, HWXDP_PUNT_NO_CRYPTO, in, len);

	/* An array entry cannot be deleted: removal clears VALID, revision unchanged. */
	write_sa(env, SA_HANDLE, 0, 3);
	run(env, 1, in, len, &r);
	expect_tunnel_punt(&r, HWXDP_PUNT_SA_STALE, in, len);
}

HX_TEST(tunnel, unwritten_sa_punted_stale)
{
	static const uint32_t revisions[] = { 0, 1 };
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	unsigned int i;
	size_t len;

	hx_frame_spec_init(&spec, 4);
	len = build(&spec, in);
	/* Revision 0 equals the all-zero entry's: only the VALID flag tells. */
	for (i = 0; i < sizeof(revisions) / sizeof(revisions[0]); i++) {
		cr_assert_eq(hx_fwd_tunnel_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2, 42,
						revisions[i]),
			     0);
		run(env, 1, in, len, &r);
		expect_tunnel_punt(&r, HWXDP_PUNT_SA_STALE, in, len);
	}
	/* A handle past the table has no entry at all. */
	cr_assert_eq(hx_fwd_tunnel_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2,
					HWXDP_MAX_SAS + 1, 0),
		     0);
	run(env, 1, in, len, &r);
	expect_tunnel_punt(&r, HWXDP_PUNT_SA_STALE, in, len);
	cr_assert_eq(hx_fwd_punts(env->target, HWXDP_PUNT_SA_STALE), 3);
}

/*
 * ESP tunnel mode adds an outer IPv4 header (20), SPI and sequence (8), the
 * GCM IV (8), the trailer (pad length and next header, 2) padded with the
 * payload to 4 bytes, and the ICV (16): 52 + roundup4(L + 2) for an inner
 * packet of L bytes. With MTU 1500 the largest L is 1446 (52 + 1448).
 */
HX_TEST_KERNEL(tunnel, mtu_counts_esp_overhead)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	cr_assert_eq(hx_fwd_sa(env->target, SA_HANDLE, 1, 0x1000, "192.0.2.1", "198.51.100.1"), 0);
	hx_frame_spec_init(&spec, 4);
	cr_assert_eq(hx_fwd_tunnel_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2, SA_HANDLE, 1),
		     0);

	set_ip_len(&spec, 1446);
	len = build(&spec, in);
	run(env, 1, in, len, &r);
	expect_tunnel_punt(&r, HWXDP_PUNT_NO_CRYPTO, in, len);

	set_ip_len(&spec, 1447);
	len = build(&spec, in);
	run(env, 1, in, len, &r);
	expect_tunnel_punt(&r, HWXDP_PUNT_MTU_EXCEEDED, in, len);
}

/* The config map is read per frame: a change applies to the next frame. */
HX_TEST_KERNEL(tunnel, config_change_applies_without_reload)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	cr_assert_eq(hx_fwd_sa(env->target, SA_HANDLE, 1, 0x1000, "192.0.2.1", "198.51.100.1"), 0);
	hx_frame_spec_init(&spec, 4);
	len = build(&spec, in);
	cr_assert_eq(hx_fwd_tunnel_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2, SA_HANDLE, 1),
		     0);

	cr_assert_eq(hx_fwd_config(env->target, 1, 0, 1), 0);
	run(env, 1, in, len, &r);
	expect_tunnel_punt(&r, HWXDP_PUNT_IPSEC_OFF, in, len);

	cr_assert_eq(hx_fwd_config(env->target, 1, 1, 1), 0);
	run(env, 1, in, len, &r);
	expect_tunnel_punt(&r, HWXDP_PUNT_NO_CRYPTO, in, len);

	cr_assert_eq(hx_fwd_config(env->target, 1, 0, 1), 0);
	run(env, 1, in, len, &r);
	expect_tunnel_punt(&r, HWXDP_PUNT_IPSEC_OFF, in, len);
}
