/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Builds a fixed set of frames with lab/pkt.c and prints one line per
 * frame: "<case> <hex>". check_pkt_scapy.py holds what each case must
 * contain and checks the bytes with scapy, an independent implementation.
 *
 * Before printing, each frame also goes through hx_frame_parse() and the
 * checksum checks, so the parser is held to what the builder wrote. Those
 * failures go to stderr and make the exit status 1; every line is still
 * printed so the script reports the byte-level view as well.
 */
#define _GNU_SOURCE
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "lab/pkt.h"

static int failures;

static void fail(const char *name, const char *what)
{
	fprintf(stderr, "pkt_dump: %s: %s\n", name, what);
	failures++;
}

static bool has_l4_csum(uint8_t proto)
{
	return proto == IPPROTO_TCP || proto == IPPROTO_UDP ||
	       proto == IPPROTO_ICMP || proto == IPPROTO_ICMPV6;
}

static void self_check(const char *name, const struct hx_frame_spec *s,
		       const uint8_t *frame, size_t len)
{
	struct hx_frame_layout lo;
	size_t l3_off, l4_off = 0;
	int tags = !!s->outer_tpid + (s->vlan >= 0);
	bool later_frag = s->family == 4 && (s->frag & 0x1fff);
	uint8_t copy[HX_PKT_MAX];

	if (hx_frame_parse(frame, len, &lo)) {
		fail(name, "parse failed");
		return;
	}
	l3_off = 14 + 4 * (size_t)tags;
	if (s->family == 4 && !later_frag)
		l4_off = l3_off + 20 + s->ip_options_len;
	else if (s->family == 6)
		l4_off = l3_off + 40 + (s->has_ipv6_ext ? 8 : 0);

	if (lo.len != len || lo.vlan_count != tags)
		fail(name, "parse: length or tag count");
	if (s->family && (lo.l3_off != l3_off || lo.l4_off != l4_off ||
			  lo.family != s->family || lo.proto != s->proto))
		fail(name, "parse: offsets, family or proto");
	if (!s->family && (lo.l3_off || lo.ethertype != s->ethertype))
		fail(name, "parse: raw ethertype");
	if (s->family == 4 && !hx_ipv4_header_csum_ok(frame + l3_off, len - l3_off))
		fail(name, "IPv4 header checksum");
	if (!l4_off || !has_l4_csum(s->proto))
		return;
	if (!hx_l4_csum_ok(frame, len))
		fail(name, "L4 checksum");
	/* the checker must also say no: flip the last byte */
	memcpy(copy, frame, len);
	copy[len - 1] ^= 0x40;
	if (hx_l4_csum_ok(copy, len))
		fail(name, "L4 checksum accepted a corrupted frame");
}

static void emit(const char *name, const struct hx_frame_spec *s)
{
	uint8_t frame[HX_PKT_MAX];
	size_t len = hx_frame_build(s, frame, sizeof(frame)), i;

	if (!len) {
		fail(name, "build returned 0");
		return;
	}
	self_check(name, s, frame, len);
	printf("%s ", name);
	for (i = 0; i < len; i++)
		printf("%02x", frame[i]);
	putchar('\n');
}

/* Picks the source port that makes the UDP checksum compute to 0, so the
 * frame shows the 0 -> 0xffff rule rather than just claiming it. */
static void force_udp_csum_zero(const char *name, struct hx_frame_spec *s)
{
	uint8_t frame[HX_PKT_MAX];
	struct hx_frame_layout lo;
	uint32_t port;
	size_t len;

	for (port = 1; port <= 65535; port++) {
		s->sport = (uint16_t)port;
		len = hx_frame_build(s, frame, sizeof(frame));
		if (len && !hx_frame_parse(frame, len, &lo) && lo.l4_off &&
		    frame[lo.l4_off + 6] == 0xff && frame[lo.l4_off + 7] == 0xff)
			return;
	}
	fail(name, "no source port gives a zero UDP checksum");
}

int main(void)
{
	struct hx_frame_spec s;

	hx_frame_spec_init(&s, 4);
	emit("v4_tcp", &s);

	hx_frame_spec_init(&s, 4);
	s.payload_len = 0;
	emit("v4_tcp_empty", &s);

	hx_frame_spec_init(&s, 4);
	s.proto = IPPROTO_UDP;
	s.sport = 5353;
	s.dport = 4789;
	s.tos = 0xb8;
	s.ttl = 17;
	s.ip_id = 0x1234;
	s.frag = 0;
	s.payload_len = 37;	/* odd: the checksum's padded tail byte */
	hx_ipv4_addr(s.src, "192.168.7.9");
	hx_ipv4_addr(s.dst, "172.16.254.3");
	emit("v4_udp", &s);

	hx_frame_spec_init(&s, 4);
	s.proto = IPPROTO_UDP;
	force_udp_csum_zero("v4_udp_csum0", &s);
	emit("v4_udp_csum0", &s);

	hx_frame_spec_init(&s, 4);
	s.proto = IPPROTO_ICMP;
	s.payload_len = 56;
	emit("v4_icmp", &s);

	hx_frame_spec_init(&s, 4);
	s.ip_options_len = 8;
	emit("v4_options", &s);

	hx_frame_spec_init(&s, 4);
	s.proto = IPPROTO_UDP;
	s.ip_id = 0xbeef;
	s.frag = 0x2000;	/* MF, offset 0: first fragment */
	emit("v4_frag_first", &s);

	hx_frame_spec_init(&s, 4);
	s.ip_id = 0xbeef;
	s.frag = 185;		/* offset 1480 bytes, last fragment */
	s.payload_len = 100;
	emit("v4_frag_later", &s);

	hx_frame_spec_init(&s, 4);
	s.proto = IPPROTO_ESP;
	s.esp_spi = 0x00001001;
	s.esp_seq = 7;
	s.payload_len = 48;
	emit("v4_esp", &s);

	hx_frame_spec_init(&s, 4);
	s.proto = 253;		/* RFC 3692 experimental: no L4 header */
	s.payload_len = 20;
	emit("v4_other", &s);

	hx_frame_spec_init(&s, 6);
	s.payload_len = 1;
	emit("v6_tcp", &s);

	hx_frame_spec_init(&s, 6);
	s.proto = IPPROTO_UDP;
	s.sport = 546;
	s.dport = 547;
	s.tos = 0xb8;
	s.ttl = 5;
	hx_ipv6_addr(s.src, "2001:db8:1:2::abcd");
	hx_ipv6_addr(s.dst, "2001:db8:ffff::1");
	emit("v6_udp", &s);

	hx_frame_spec_init(&s, 6);
	s.proto = IPPROTO_UDP;
	force_udp_csum_zero("v6_udp_csum0", &s);
	emit("v6_udp_csum0", &s);

	hx_frame_spec_init(&s, 6);
	s.proto = IPPROTO_ICMPV6;
	emit("v6_icmpv6", &s);

	hx_frame_spec_init(&s, 6);
	s.has_ipv6_ext = true;
	s.ipv6_ext = 0;
	emit("v6_hbh", &s);

	hx_frame_spec_init(&s, 6);
	s.proto = IPPROTO_UDP;
	s.has_ipv6_ext = true;
	s.ipv6_ext = 43;
	emit("v6_routing", &s);

	hx_frame_spec_init(&s, 6);
	s.proto = IPPROTO_ICMPV6;
	s.has_ipv6_ext = true;
	s.ipv6_ext = 60;
	emit("v6_dstopts", &s);

	hx_frame_spec_init(&s, 6);
	s.proto = IPPROTO_UDP;
	s.has_ipv6_ext = true;
	s.ipv6_ext = 44;
	s.ip_id = 0x4242;
	emit("v6_frag", &s);

	hx_frame_spec_init(&s, 6);
	s.proto = IPPROTO_ESP;
	s.esp_spi = 0xdeadbeef;
	s.esp_seq = 0x01020304;
	emit("v6_esp", &s);

	hx_frame_spec_init(&s, 4);
	s.vlan = 50;
	s.pcp = 5;
	emit("vlan50_pcp5", &s);

	hx_frame_spec_init(&s, 6);
	s.proto = IPPROTO_UDP;
	s.vlan = 4094;
	s.pcp = 7;
	s.dei = 1;
	emit("vlan4094_dei_v6", &s);

	hx_frame_spec_init(&s, 4);
	s.proto = IPPROTO_UDP;
	s.outer_tpid = 0x88a8;
	s.outer_vid = 100;
	s.vlan = 50;
	s.pcp = 3;
	emit("qinq_88a8", &s);

	hx_frame_spec_init(&s, 6);
	s.outer_tpid = 0x8100;
	s.outer_vid = 200;
	s.vlan = 300;
	emit("qinq_8100_v6", &s);

	hx_frame_spec_init(&s, 0);
	s.ethertype = 0x0806;
	s.payload_len = 28;
	hx_mac(s.dmac, "ff:ff:ff:ff:ff:ff");
	emit("arp", &s);

	return failures ? 1 : 0;
}
