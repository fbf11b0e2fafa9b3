// SPDX-License-Identifier: GPL-2.0
/*
 * Frames the forwarding program must not forward: truncated, with broken IP
 * headers, or of a kind only the host handles. Each is punted with the
 * reason the program's order of checks gives it, untouched, and counted once.
 * Wherever a flow exists, the intact frame is run first and forwarded, so a
 * punt is caused by the defect under test and not by a missing table entry.
 */
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tests/common/fwd_env.h"

#define ETH_HLEN_  14
#define VLAN_HLEN_ 4
#define IPV4_HLEN_ 20
#define IPV6_HLEN_ 40
#define TCP_HLEN_  20
#define UDP_HLEN_  8

#define ETH_P_ARP_  0x0806
#define ETH_P_LLDP_ 0x88cc

#define IPPROTO_GRE_  47
#define IPPROTO_SCTP_ 132

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/* Tests that damage one IPv4 field recompute the header checksum, so the
 * damaged field is the only thing wrong with the frame. Over the options
 * too when there are some; an IHL below 5 covers no real header, so the
 * fixed 20 bytes are summed then. */
static void refresh_ipv4_csum(uint8_t *iph)
{
	size_t hlen = (size_t)(iph[0] & 0x0f) * 4;

	if (hlen < IPV4_HLEN_)
		hlen = IPV4_HLEN_;
	iph[10] = 0;
	iph[11] = 0;
	put_be16(iph + 10, hx_inet_csum(iph, hlen));
}

static size_t l3_offset(const uint8_t *frame, size_t len)
{
	struct hx_frame_layout lo;

	cr_assert_eq(hx_frame_parse(frame, len, &lo), 0, "test frame does not parse");
	cr_assert_neq(lo.l3_off, 0, "test frame has no IP header");
	return lo.l3_off;
}

static size_t build(const struct hx_frame_spec *spec, uint8_t *buf)
{
	size_t len = hx_frame_build(spec, buf, HX_PKT_MAX);

	cr_assert_gt(len, 0, "test frame does not build");
	return len;
}

static uint64_t punt_bytes(struct hx_env *env, unsigned int reason)
{
	struct hwxdp_counter c;
	uint32_t key = reason;

	cr_assert_eq(hx_target_map_lookup(env->target, "punt_stats", &key, &c), 0,
		     "punt_stats[%s] unreadable", hwxdp_punt_reason_name(reason));
	return c.bytes;
}

static size_t first_difference(const uint8_t *a, const uint8_t *b, size_t len)
{
	size_t i;

	for (i = 0; i < len && a[i] == b[i]; i++)
		;
	return i;
}

/*
 * Runs in[0..len) arriving on ifindex and asserts a punt for reason, the
 * frame unchanged and the reason's counter one higher. The checks are
 * hx_assert_punt's, made first with the case named in every message because
 * the table-driven tests run dozens of frames per test; hx_assert_punt then
 * has the final word, so anything it learns to check applies here too.
 */
static void expect_punt_on(struct hx_env *env, uint32_t ifindex, const uint8_t *in, size_t len,
			   unsigned int reason, const char *what, struct hx_result *r)
{
	uint64_t before = hx_fwd_punts(env->target, reason);
	uint64_t after;
	size_t diff;
	int err;

	err = hx_target_run(env->target, ifindex, in, len, r);
	cr_assert_eq(err, 0, "%s: run failed: %s", what, strerror(-err));
	cr_assert_eq(r->action, XDP_PASS, "%s: verdict %s, expected pass (punt %s)", what,
		     hwxdp_xdp_action_name(r->action), hwxdp_punt_reason_name(reason));
	cr_assert(r->has_meta, "%s: no metadata on the punted frame", what);
	cr_assert_eq(r->meta.reason, reason, "%s: punt reason %s, expected %s", what,
		     hwxdp_punt_reason_name(r->meta.reason), hwxdp_punt_reason_name(reason));
	cr_assert_eq(r->len, len, "%s: punted frame is %zu bytes, arrived as %zu", what, r->len,
		     len);
	diff = first_difference(r->frame, in, len);
	cr_assert_eq(diff, len, "%s: punted frame changed at byte %zu: %02x, arrived as %02x", what,
		     diff, diff < len ? r->frame[diff] : 0, diff < len ? in[diff] : 0);
	hx_assert_punt(r, reason, in, len);

	after = hx_fwd_punts(env->target, reason);
	cr_assert_eq(after, before + 1, "%s: punt counter %s went %llu -> %llu, expected +1", what,
		     hwxdp_punt_reason_name(reason), (unsigned long long)before,
		     (unsigned long long)after);
}

static void expect_punt(struct hx_env *env, unsigned int port, const uint8_t *in, size_t len,
			unsigned int reason, const char *what)
{
	struct hx_result r;

	expect_punt_on(env, env->ifindex[port], in, len, reason, what, &r);
}

/* The intact frame is forwarded 1 -> 2 with TTL 64 -> 63. */
static void expect_forward(struct hx_env *env, const uint8_t *in, size_t len, const char *what)
{
	struct hx_frame_layout lo;
	struct hx_result r;
	size_t ttl_off;

	hx_run_bytes(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
	cr_assert_eq(hx_frame_parse(r.frame, r.len, &lo), 0, "%s: output does not parse", what);
	cr_assert_neq(lo.l3_off, 0, "%s: output has no IP header", what);
	ttl_off = lo.l3_off + (lo.family == 4 ? 8 : 7);
	cr_assert_eq(r.frame[ttl_off], 63, "%s: TTL %u out, expected 63", what, r.frame[ttl_off]);
	if (lo.family == 4)
		cr_assert(hx_ipv4_header_csum_ok(r.frame + lo.l3_off, r.len - lo.l3_off),
			  "%s: IPv4 header checksum wrong", what);
	cr_assert(hx_l4_csum_ok(r.frame, r.len), "%s: L4 checksum wrong", what);
}

/* Installs the flow for spec's connection on port 1 (its VLAN, if tagged)
 * to port 2, builds the frame and proves it is forwarded as it is. */
static size_t build_forwardable(struct hx_env *env, const struct hx_frame_spec *spec, uint8_t *in,
				const char *what)
{
	uint32_t lif = HWXDP_LIF(1, spec->vlan < 0 ? 0 : spec->vlan);
	size_t len = build(spec, in);

	cr_assert_eq(hx_fwd_flow(env->target, lif, spec, NH_P2), 0, "%s: flow", what);
	expect_forward(env, in, len, what);
	return len;
}

/* ---- truncated: every prefix of a forwardable frame ---- */

struct trunc_case {
	const char *name;
	int family;
	uint8_t proto;
	int vlan;
};

static const struct trunc_case trunc_cases[] = {
	{ "ipv4/tcp", 4, IPPROTO_TCP, -1 },	   { "ipv4/udp", 4, IPPROTO_UDP, -1 },
	{ "vlan50 ipv4/tcp", 4, IPPROTO_TCP, 50 }, { "ipv6/tcp", 6, IPPROTO_TCP, -1 },
	{ "ipv6/udp", 6, IPPROTO_UDP, -1 },	   { "vlan50 ipv6/udp", 6, IPPROTO_UDP, 50 },
};

/*
 * Below 14 bytes there is no Ethernet header and the kernel refuses to run
 * the program at all. From 14 bytes up to one byte short of the whole frame
 * the frame is malformed: either a header is cut (a tag at 14..17 bytes of a
 * tagged frame, then the IP header, then L4), or, once every header is
 * whole, the IP length still counts the 32 payload bytes the frame lacks.
 */
static void sweep_prefixes(struct hx_env *env, const struct trunc_case *c)
{
	size_t l2 = ETH_HLEN_ + (c->vlan >= 0 ? VLAN_HLEN_ : 0);
	size_t l3 = c->family == 4 ? IPV4_HLEN_ : IPV6_HLEN_;
	size_t l4 = c->proto == IPPROTO_TCP ? TCP_HLEN_ : UDP_HLEN_;
	size_t headers_end = l2 + l3 + l4;
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	uint64_t malformed_before;
	char what[96];
	size_t len, cut;
	int err;

	hx_frame_spec_init(&spec, c->family);
	spec.proto = c->proto;
	spec.vlan = c->vlan;
	len = build_forwardable(env, &spec, in, c->name);
	cr_assert_eq(len, headers_end + spec.payload_len, "%s: built %zu bytes, expected %zu",
		     c->name, len, headers_end + spec.payload_len);

	malformed_before = hx_fwd_punts(env->target, HWXDP_PUNT_MALFORMED);
	for (cut = 0; cut < ETH_HLEN_; cut++) {
		err = hx_target_run(env->target, env->ifindex[1], in, cut, &r);
		cr_assert_eq(err, -EINVAL,
			     "%s cut to %zu bytes: run returned %d (%s), expected -EINVAL", c->name,
			     cut, err, strerror(-err));
	}
	cr_assert_eq(hx_fwd_punts(env->target, HWXDP_PUNT_MALFORMED), malformed_before,
		     "%s: a frame shorter than Ethernet was counted", c->name);

	for (cut = ETH_HLEN_; cut < len; cut++) {
		snprintf(what, sizeof(what), "%s cut to %zu of %zu bytes (headers end at %zu)",
			 c->name, cut, len, headers_end);
		expect_punt(env, 1, in, cut, HWXDP_PUNT_MALFORMED, what);
	}
}

HX_TEST(truncated, ipv4_tcp_every_prefix)
{
	sweep_prefixes(env, &trunc_cases[0]);
}

HX_TEST(truncated, ipv4_udp_every_prefix)
{
	sweep_prefixes(env, &trunc_cases[1]);
}

HX_TEST(truncated, vlan_ipv4_tcp_every_prefix)
{
	sweep_prefixes(env, &trunc_cases[2]);
}

HX_TEST(truncated, ipv6_tcp_every_prefix)
{
	sweep_prefixes(env, &trunc_cases[3]);
}

HX_TEST(truncated, ipv6_udp_every_prefix)
{
	sweep_prefixes(env, &trunc_cases[4]);
}

HX_TEST(truncated, vlan_ipv6_udp_every_prefix)
{
	sweep_prefixes(env, &trunc_cases[5]);
}

/*
 * The frame holds the whole L4 header, but the IP length ends inside it: the
 * bytes past the IP length are Ethernet padding, not TCP/UDP. With no
 * payload, an IP length ending exactly at the end of the L4 header is the
 * boundary that is still forwarded.
 */
HX_TEST(truncated, l4_header_cut_inside_ip_length)
{
	static const struct {
		const char *name;
		int family;
		uint8_t proto;
		uint16_t ip_len; /* IPv4 total length / IPv6 payload length */
	} cases[] = {
		{ "ipv4/tcp total length 20+10", 4, IPPROTO_TCP, IPV4_HLEN_ + 10 },
		{ "ipv4/tcp total length 20+19", 4, IPPROTO_TCP, IPV4_HLEN_ + 19 },
		{ "ipv4/tcp total length 20+0", 4, IPPROTO_TCP, IPV4_HLEN_ },
		{ "ipv4/udp total length 20+7", 4, IPPROTO_UDP, IPV4_HLEN_ + 7 },
		{ "ipv6/tcp payload length 10", 6, IPPROTO_TCP, 10 },
		{ "ipv6/tcp payload length 19", 6, IPPROTO_TCP, 19 },
		{ "ipv6/udp payload length 7", 6, IPPROTO_UDP, 7 },
		{ "ipv6/udp payload length 0", 6, IPPROTO_UDP, 0 },
	};
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	size_t i, len, l3;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		hx_frame_spec_init(&spec, cases[i].family);
		spec.proto = cases[i].proto;
		spec.payload_len = 0;
		len = build_forwardable(env, &spec, in, cases[i].name);
		l3 = l3_offset(in, len);
		cr_assert_eq(len,
			     l3 + (spec.family == 4 ? IPV4_HLEN_ : IPV6_HLEN_) +
				     (spec.proto == IPPROTO_TCP ? TCP_HLEN_ : UDP_HLEN_),
			     "%s: L4 header is not the frame's end", cases[i].name);
		if (spec.family == 4) {
			put_be16(in + l3 + 2, cases[i].ip_len);
			refresh_ipv4_csum(in + l3);
		} else {
			put_be16(in + l3 + 4, cases[i].ip_len);
		}
		expect_punt(env, 1, in, len, HWXDP_PUNT_MALFORMED, cases[i].name);
	}
}

/* ---- badhdr: broken IP headers in whole frames ---- */

HX_TEST(badhdr, ipv4_ihl_below_5)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	char what[64];
	size_t len, l3;
	unsigned int ihl;

	hx_frame_spec_init(&spec, 4);
	len = build_forwardable(env, &spec, in, "ipv4/tcp");
	l3 = l3_offset(in, len);
	for (ihl = 0; ihl < 5; ihl++) {
		in[l3] = 0x40 | ihl;
		refresh_ipv4_csum(in + l3);
		snprintf(what, sizeof(what), "ipv4 IHL %u", ihl);
		expect_punt(env, 1, in, len, HWXDP_PUNT_MALFORMED, what);
	}
}

HX_TEST(badhdr, ipv4_version_not_4)
{
	static const uint8_t versions[] = { 0, 5, 6, 15 };
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	char what[64];
	size_t i, len, l3;

	hx_frame_spec_init(&spec, 4);
	len = build_forwardable(env, &spec, in, "ipv4/tcp");
	l3 = l3_offset(in, len);
	for (i = 0; i < sizeof(versions); i++) {
		in[l3] = versions[i] << 4 | 5;
		refresh_ipv4_csum(in + l3);
		snprintf(what, sizeof(what), "version %u in an 0x0800 frame", versions[i]);
		expect_punt(env, 1, in, len, HWXDP_PUNT_MALFORMED, what);
	}
}

HX_TEST(badhdr, ipv6_version_not_6)
{
	static const uint8_t versions[] = { 0, 4, 7, 15 };
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	char what[64];
	size_t i, len, l3;

	hx_frame_spec_init(&spec, 6);
	len = build_forwardable(env, &spec, in, "ipv6/tcp");
	l3 = l3_offset(in, len);
	for (i = 0; i < sizeof(versions); i++) {
		in[l3] = (uint8_t)(versions[i] << 4 | (in[l3] & 0x0f));
		snprintf(what, sizeof(what), "version %u in an 0x86dd frame", versions[i]);
		expect_punt(env, 1, in, len, HWXDP_PUNT_MALFORMED, what);
	}
}

HX_TEST(badhdr, ipv4_total_length_beyond_frame)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	size_t len, l3, ip_len;

	hx_frame_spec_init(&spec, 4);
	len = build_forwardable(env, &spec, in, "ipv4/tcp");
	l3 = l3_offset(in, len);
	ip_len = len - l3;

	put_be16(in + l3 + 2, (uint16_t)(ip_len + 1));
	refresh_ipv4_csum(in + l3);
	expect_punt(env, 1, in, len, HWXDP_PUNT_MALFORMED, "total length one past the frame");

	put_be16(in + l3 + 2, 0xffff);
	refresh_ipv4_csum(in + l3);
	expect_punt(env, 1, in, len, HWXDP_PUNT_MALFORMED, "total length 65535");
}

HX_TEST(badhdr, ipv4_total_length_below_header)
{
	static const uint16_t lengths[] = { 0, 1, 19 };
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	char what[64];
	size_t i, len, l3;

	hx_frame_spec_init(&spec, 4);
	len = build_forwardable(env, &spec, in, "ipv4/tcp");
	l3 = l3_offset(in, len);
	for (i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
		put_be16(in + l3 + 2, lengths[i]);
		refresh_ipv4_csum(in + l3);
		snprintf(what, sizeof(what), "total length %u", lengths[i]);
		expect_punt(env, 1, in, len, HWXDP_PUNT_MALFORMED, what);
	}
}

/*
 * A 60-byte minimum frame carrying a 32-byte IPv4/UDP packet: the 14 bytes
 * past the total length are Ethernet padding. The packet is forwarded, the
 * padding goes out as it came, and the flow counts the frame as it arrived.
 */
HX_TEST(badhdr, ethernet_padding_forwarded_and_kept)
{
	const size_t min_frame = 60, ip_len = IPV4_HLEN_ + UDP_HLEN_ + 4;
	struct hx_frame_spec spec;
	struct hwxdp_flow flow;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len, i;

	hx_frame_spec_init(&spec, 4);
	spec.proto = IPPROTO_UDP;
	spec.payload_len = 4;
	len = build(&spec, in);
	cr_assert_eq(len, ETH_HLEN_ + ip_len);
	/* Not zeros: the padding must come back as it was, not be re-zeroed. */
	for (i = len; i < min_frame; i++)
		in[i] = 0xa5;
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);

	hx_run_bytes(env, 1, in, min_frame, &r);
	hx_assert_forward(&r, 1, 2);
	cr_assert_eq(r.len, min_frame, "frame is %zu bytes out, 60 in", r.len);
	cr_assert_eq(r.frame[ETH_HLEN_ + 2], 0, "total length changed");
	cr_assert_eq(r.frame[ETH_HLEN_ + 3], ip_len, "total length %u, expected %zu",
		     r.frame[ETH_HLEN_ + 3], ip_len);
	cr_assert_eq(r.frame[ETH_HLEN_ + 8], 63, "TTL %u, expected 63", r.frame[ETH_HLEN_ + 8]);
	cr_assert(hx_ipv4_header_csum_ok(r.frame + ETH_HLEN_, r.len - ETH_HLEN_),
		  "IPv4 header checksum wrong");
	cr_assert(hx_l4_csum_ok(r.frame, r.len), "UDP checksum wrong");
	/* UDP header, payload and padding untouched. */
	cr_assert_arr_eq(r.frame + ETH_HLEN_ + IPV4_HLEN_, in + ETH_HLEN_ + IPV4_HLEN_,
			 min_frame - ETH_HLEN_ - IPV4_HLEN_, "UDP or padding changed");

	cr_assert_eq(hx_fwd_flow_stats(env->target, HWXDP_LIF(1, 0), &spec, &flow), 0);
	cr_assert_eq(flow.packets, 1);
	cr_assert_eq(flow.bytes, min_frame, "flow counted %llu bytes, the frame was 60",
		     (unsigned long long)flow.bytes);
}

HX_TEST(badhdr, ipv6_payload_length_beyond_frame)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	size_t len, l3, payload;

	hx_frame_spec_init(&spec, 6);
	spec.proto = IPPROTO_UDP;
	len = build_forwardable(env, &spec, in, "ipv6/udp");
	l3 = l3_offset(in, len);
	payload = len - l3 - IPV6_HLEN_;

	put_be16(in + l3 + 4, (uint16_t)(payload + 1));
	expect_punt(env, 1, in, len, HWXDP_PUNT_MALFORMED, "payload length one past the frame");

	put_be16(in + l3 + 4, 0xffff);
	expect_punt(env, 1, in, len, HWXDP_PUNT_MALFORMED, "payload length 65535");
}

static uint32_t xorshift32(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

/*
 * 2,000 frames of 14..1600 bytes from a fixed seed. Pure noise rarely gets
 * past the ethertype, so a quarter of the frames are noise, a quarter claim
 * IPv4 and a quarter IPv6 (some behind a VLAN 50 tag), and a quarter are a
 * forwardable frame with a few bytes changed. Whatever arrives, the run
 * works, the verdict is pass, drop, redirect or tx, a passed frame is the
 * frame that arrived, and every pass is counted under exactly one reason.
 */
HX_TEST(badhdr, random_bytes)
{
	enum { FRAMES = 2000, MIN_LEN = 14, MAX_LEN = 1600 };
	uint8_t valid[2][HX_PKT_MAX], in[HX_PKT_MAX];
	unsigned int passes = 0, forwards = 0;
	uint32_t seed = 0x6d616c66;
	struct hx_frame_spec spec;
	size_t valid_len[2];
	struct hx_result r;
	uint64_t punted = 0, before = 0;
	unsigned int reason, n, mode, flips;
	size_t len, i, l3, diff;
	int err;

	hx_frame_spec_init(&spec, 4);
	valid_len[0] = build_forwardable(env, &spec, valid[0], "ipv4/tcp");
	hx_frame_spec_init(&spec, 6);
	spec.proto = IPPROTO_UDP;
	spec.vlan = 50;
	valid_len[1] = build_forwardable(env, &spec, valid[1], "vlan50 ipv6/udp");
	for (reason = 0; reason < HWXDP_PUNT__MAX; reason++)
		before += hx_fwd_punts(env->target, reason);

	for (n = 0; n < FRAMES; n++) {
		len = MIN_LEN + xorshift32(&seed) % (MAX_LEN - MIN_LEN + 1);
		for (i = 0; i < len; i++)
			in[i] = (uint8_t)xorshift32(&seed);
		mode = xorshift32(&seed) % 4;
		if (mode == 1 || mode == 2) {
			l3 = ETH_HLEN_;
			if (xorshift32(&seed) & 1 && len >= ETH_HLEN_ + VLAN_HLEN_) {
				put_be16(in + 12, 0x8100);
				put_be16(in + 14, 50);
				l3 += VLAN_HLEN_;
			}
			put_be16(in + l3 - 2, mode == 1 ? 0x0800 : 0x86dd);
			/* A real version (and IHL), and half the time an IP
			 * length that fits the frame: without these, noise
			 * never gets past the first IP checks. */
			if (mode == 1 && len >= l3 + IPV4_HLEN_) {
				in[l3] = 0x40 | (5 + xorshift32(&seed) % 11);
				if (xorshift32(&seed) & 1)
					put_be16(in + l3 + 2, (uint16_t)(len - l3));
			} else if (mode == 2 && len >= l3 + IPV6_HLEN_) {
				in[l3] = 0x60 | (in[l3] & 0x0f);
				if (xorshift32(&seed) & 1)
					put_be16(in + l3 + 4, (uint16_t)(len - l3 - IPV6_HLEN_));
			}
		} else if (mode == 3) {
			const uint8_t *base = valid[n & 1];
			size_t base_len = valid_len[n & 1];

			memcpy(in, base, len < base_len ? len : base_len);
			for (flips = 1 + xorshift32(&seed) % 4; flips; flips--)
				in[xorshift32(&seed) % (len < 80 ? len : 80)] ^=
					(uint8_t)(1 + xorshift32(&seed) % 255);
		}

		err = hx_target_run(env->target, env->ifindex[1], in, len, &r);
		cr_assert_eq(err, 0, "random frame %u (%zu bytes, mode %u): run failed: %s", n, len,
			     mode, strerror(-err));
		switch (r.action) {
		case XDP_PASS:
			passes++;
			cr_assert(r.has_meta, "random frame %u: no metadata", n);
			cr_assert(r.meta.reason != HWXDP_PUNT_NONE &&
					  r.meta.reason < HWXDP_PUNT__MAX,
				  "random frame %u (%zu bytes, mode %u): passed with reason %u", n,
				  len, mode, r.meta.reason);
			diff = r.len == len ? first_difference(r.frame, in, len) : 0;
			cr_assert(r.len == len && diff == len,
				  "random frame %u (%zu bytes, mode %u): punted (%s) but changed: "
				  "%zu bytes out, first difference at %zu",
				  n, len, mode, hwxdp_punt_reason_name(r.meta.reason), r.len, diff);
			break;
		case XDP_REDIRECT:
		case XDP_TX:
			forwards++;
			cr_assert(r.has_meta && r.meta.reason == HWXDP_PUNT_NONE,
				  "random frame %u: forwarded with a punt reason", n);
			break;
		case XDP_DROP:
			break;
		default:
			cr_assert_fail("random frame %u (%zu bytes, mode %u): verdict %s", n, len,
				       mode, hwxdp_xdp_action_name(r.action));
		}
	}

	for (reason = 0; reason < HWXDP_PUNT__MAX; reason++)
		punted += hx_fwd_punts(env->target, reason);
	cr_assert_eq(punted - before, passes, "%u frames passed, punt counters rose by %llu",
		     passes, (unsigned long long)(punted - before));
	/* The mix is meant to reach both ends of the program. */
	cr_assert_gt(passes, 0, "no random frame was punted");
	cr_assert_gt(forwards, 0, "no random frame was forwarded");
}

/* ---- punt: well-formed frames the host must handle ---- */

HX_TEST(punt, ipv4_options)
{
	static const uint8_t options_len[] = { 4, 40 };
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	char what[64];
	size_t i, len, l3;

	hx_frame_spec_init(&spec, 4);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);
	expect_forward(env, in, build(&spec, in), "ipv4/tcp without options");

	for (i = 0; i < sizeof(options_len); i++) {
		spec.ip_options_len = options_len[i];
		len = build(&spec, in);
		cr_assert_eq(in[ETH_HLEN_], 0x40 | (5 + options_len[i] / 4),
			     "%u option bytes: version/IHL byte %02x", options_len[i],
			     in[ETH_HLEN_]);
		snprintf(what, sizeof(what), "%u option bytes", options_len[i]);
		expect_punt(env, 1, in, len, HWXDP_PUNT_IP_OPTIONS, what);
	}

	/* Malformed outranks options: a total length that does not even cover
	 * the header with its options, or runs past the frame. */
	spec.ip_options_len = 4;
	len = build(&spec, in);
	l3 = l3_offset(in, len);
	put_be16(in + l3 + 2, IPV4_HLEN_ + 2);
	refresh_ipv4_csum(in + l3);
	expect_punt(env, 1, in, len, HWXDP_PUNT_MALFORMED, "IHL 6 with total length 22");
	put_be16(in + l3 + 2, (uint16_t)(len - l3 + 1));
	refresh_ipv4_csum(in + l3);
	expect_punt(env, 1, in, len, HWXDP_PUNT_MALFORMED,
		    "IHL 6 with total length past the frame");
}

HX_TEST(punt, ipv4_fragments)
{
	static const struct {
		uint16_t frag;
		size_t payload_len;
		const char *name;
	} cases[] = {
		{ 0x2000, 32, "first fragment (MF, offset 0)" },
		{ 0x20b9, 32, "middle fragment (MF, offset 185)" },
		{ 0x0001, 32, "last fragment (offset 1)" },
		{ 0x1fff, 32, "largest offset" },
		{ 0x4001, 32, "DF with offset 1" },
		/* A later fragment has no L4 header: too short for TCP, yet a
		 * fragment and not malformed. */
		{ 0x00b9, 4, "4-byte last fragment" },
	};
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	size_t i, len;

	hx_frame_spec_init(&spec, 4);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		spec.frag = cases[i].frag;
		spec.payload_len = cases[i].payload_len;
		len = build(&spec, in);
		expect_punt(env, 1, in, len, HWXDP_PUNT_FRAGMENT, cases[i].name);
	}
}

/* DF says "do not fragment"; it does not make the packet a fragment. */
HX_TEST(punt, ipv4_df_alone_is_not_a_fragment)
{
	static const uint16_t frags[] = { 0x4000, 0x0000 };
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t i, len;
	uint64_t fragments = hx_fwd_punts(env->target, HWXDP_PUNT_FRAGMENT);

	hx_frame_spec_init(&spec, 4);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);
	for (i = 0; i < sizeof(frags) / sizeof(frags[0]); i++) {
		spec.frag = frags[i];
		len = build(&spec, in);
		hx_run_bytes(env, 1, in, len, &r);
		hx_assert_forward(&r, 1, 2);
		cr_assert_eq(r.frame[ETH_HLEN_ + 6], frags[i] >> 8,
			     "flags byte %02x, expected %02x", r.frame[ETH_HLEN_ + 6],
			     frags[i] >> 8);
		cr_assert_eq(r.frame[ETH_HLEN_ + 7], 0);
		cr_assert_eq(r.frame[ETH_HLEN_ + 8], 63, "TTL %u, expected 63",
			     r.frame[ETH_HLEN_ + 8]);
		cr_assert(hx_ipv4_header_csum_ok(r.frame + ETH_HLEN_, r.len - ETH_HLEN_),
			  "IPv4 header checksum wrong (flags %04x)", frags[i]);
	}
	cr_assert_eq(hx_fwd_punts(env->target, HWXDP_PUNT_FRAGMENT), fragments,
		     "a DF-only frame was counted as a fragment");
}

HX_TEST(punt, ipv6_extension_headers)
{
	static const struct {
		uint8_t type;
		const char *name;
	} exts[] = {
		{ 0, "hop-by-hop (0)" },
		{ 43, "routing (43)" },
		{ 44, "fragment (44)" },
		{ 60, "destination options (60)" },
	};
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	size_t i, len, l3;

	hx_frame_spec_init(&spec, 6);
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);
	expect_forward(env, in, build(&spec, in), "ipv6/tcp without extension header");

	spec.has_ipv6_ext = true;
	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		spec.ipv6_ext = exts[i].type;
		len = build(&spec, in);
		l3 = l3_offset(in, len);
		cr_assert_eq(in[l3 + 6], exts[i].type, "%s: next header %u", exts[i].name,
			     in[l3 + 6]);
		expect_punt(env, 1, in, len, HWXDP_PUNT_IPV6_EXT, exts[i].name);
	}

	/* AH is an extension header too; the frame carries it as raw payload. */
	spec.has_ipv6_ext = false;
	spec.proto = 51;
	len = build(&spec, in);
	expect_punt(env, 1, in, len, HWXDP_PUNT_IPV6_EXT, "authentication header (51)");
}

HX_TEST(punt, not_tcp_or_udp)
{
	static const struct {
		int family;
		uint8_t proto;
		const char *name;
	} cases[] = {
		{ 4, IPPROTO_ICMP, "ipv4 icmp" },     { 4, IPPROTO_ESP, "ipv4 esp" },
		{ 4, IPPROTO_GRE_, "ipv4 gre" },      { 4, IPPROTO_SCTP_, "ipv4 sctp" },
		{ 6, IPPROTO_ICMPV6, "ipv6 icmpv6" }, { 6, IPPROTO_ESP, "ipv6 esp" },
		{ 6, IPPROTO_GRE_, "ipv6 gre" },
	};
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	size_t i, len, l3;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		hx_frame_spec_init(&spec, cases[i].family);
		spec.proto = cases[i].proto;
		spec.esp_spi = 0x1000;
		spec.esp_seq = 1;
		len = build(&spec, in);
		l3 = l3_offset(in, len);
		cr_assert_eq(in[l3 + (cases[i].family == 4 ? 9 : 6)], cases[i].proto,
			     "%s: protocol field", cases[i].name);
		expect_punt(env, 1, in, len, HWXDP_PUNT_L4_PROTO, cases[i].name);
	}
}

HX_TEST(punt, non_ip_ethertypes)
{
	static const uint8_t lldp_dmac[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e };
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	uint64_t bytes_before;
	size_t len;

	hx_frame_spec_init(&spec, 0);
	spec.ethertype = ETH_P_ARP_;
	spec.payload_len = 28;
	len = build(&spec, in);
	cr_assert_eq(len, ETH_HLEN_ + 28);
	cr_assert(in[12] == 0x08 && in[13] == 0x06, "ARP ethertype bytes %02x %02x", in[12],
		  in[13]);
	bytes_before = punt_bytes(env, HWXDP_PUNT_ETHERTYPE);
	expect_punt(env, 1, in, len, HWXDP_PUNT_ETHERTYPE, "arp");
	cr_assert_eq(punt_bytes(env, HWXDP_PUNT_ETHERTYPE), bytes_before + len,
		     "ethertype punt bytes did not rise by the 42-byte frame");

	hx_frame_spec_init(&spec, 0);
	memcpy(spec.dmac, lldp_dmac, sizeof(lldp_dmac));
	spec.ethertype = ETH_P_LLDP_;
	spec.payload_len = 46;
	len = build(&spec, in);
	cr_assert(in[12] == 0x88 && in[13] == 0xcc, "LLDP ethertype bytes %02x %02x", in[12],
		  in[13]);
	expect_punt(env, 1, in, len, HWXDP_PUNT_ETHERTYPE, "lldp");
}

/* The tag is parsed and its LIF found before the ethertype sends the frame
 * up, so the host learns the LIF (port 1, VLAN 50) it arrived on. */
HX_TEST(punt, tagged_arp_on_vlan_50)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, 0);
	spec.ethertype = ETH_P_ARP_;
	spec.vlan = 50;
	spec.payload_len = 28;
	len = build(&spec, in);
	cr_assert_eq(len, ETH_HLEN_ + VLAN_HLEN_ + 28);
	/* TPID 0x8100, PCP 0 DEI 0 VID 50, then ARP. */
	cr_assert(in[12] == 0x81 && in[13] == 0x00 && in[14] == 0x00 && in[15] == 0x32 &&
			  in[16] == 0x08 && in[17] == 0x06,
		  "tag bytes %02x %02x %02x %02x %02x %02x", in[12], in[13], in[14], in[15], in[16],
		  in[17]);
	expect_punt_on(env, env->ifindex[1], in, len, HWXDP_PUNT_ETHERTYPE, "arp on vlan 50", &r);
	cr_assert_eq(r.meta.lif, HWXDP_LIF(1, 50), "metadata LIF %#x, expected %#x (1.50)",
		     r.meta.lif, HWXDP_LIF(1, 50));
}

/* hxq1 is the peer of port 1's veth: a real interface of this namespace,
 * but not one of the program's ports. */
HX_TEST(punt, unknown_ingress_port)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	uint32_t peer;
	size_t len;

	peer = if_nametoindex("hxq1");
	/* The lab's namespace and its veths exist only where root made them. */
	if (!peer && geteuid() != 0)
		cr_skip_test("no hxq1: the lab's veths need root");
	cr_assert_neq(peer, 0, "no hxq1 in the test namespace");
	cr_assert_neq(peer, env->ifindex[1]);

	hx_frame_spec_init(&spec, 4);
	len = build_forwardable(env, &spec, in, "ipv4/tcp on port 1");
	expect_punt_on(env, peer, in, len, HWXDP_PUNT_UNKNOWN_PORT, "ipv4/tcp on hxq1", &r);
	cr_assert_eq(r.meta.lif, 0, "metadata LIF %#x for an unknown port, expected 0", r.meta.lif);

	/* The port is looked up before the tag is read. */
	hx_frame_spec_init(&spec, 6);
	spec.proto = IPPROTO_UDP;
	spec.vlan = 50;
	len = build_forwardable(env, &spec, in, "vlan50 ipv6/udp on port 1");
	expect_punt_on(env, peer, in, len, HWXDP_PUNT_UNKNOWN_PORT, "vlan50 ipv6/udp on hxq1", &r);
}
