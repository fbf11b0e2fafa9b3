/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test frame builder and parser for the lab tool, the criterion tests and
 * the benchmarks. Frames are plain Ethernet II as they sit in an XDP
 * buffer: no preamble, no FCS, no padding to the 60-byte minimum.
 *
 * Byte order: addresses (src, dst, MACs) are in network order as on the
 * wire; every other number in these structures is in host order.
 */
#ifndef HWXDP_LAB_PKT_H
#define HWXDP_LAB_PKT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Largest frame hx_frame_build() writes: a 9000-byte MTU jumbo frame with
 * room for tags. Keeps the IPv4 total length far from its 16-bit limit. */
#define HX_PKT_MAX 9216

struct hx_frame_spec {
	uint8_t dmac[6], smac[6];
	uint16_t outer_tpid;	/* 0: none; else a first tag with this TPID
				 * (0x88a8 or 0x8100) and outer_vid, ahead of
				 * the 802.1Q tag below (QinQ); alone when
				 * vlan is -1 */
	uint16_t outer_vid;	/* 0..4095; the outer tag's PCP and DEI are 0 */
	int vlan;		/* -1: untagged; 0..4095: one 802.1Q tag
				 * (TPID 0x8100) with this VID */
	uint8_t pcp;		/* 0..7, in the 802.1Q tag */
	uint8_t dei;		/* 0..1 */
	int family;		/* 4: IPv4, 6: IPv6, 0: raw ethertype below
				 * followed by payload_len bytes of payload */
	uint16_t ethertype;	/* used when family == 0 (e.g. 0x0806 ARP) */
	uint8_t proto;		/* IPPROTO_TCP, _UDP, _ICMP, _ICMPV6, _ESP, or
				 * any other number (then payload only) */
	uint8_t src[16], dst[16]; /* IPv4 uses the first 4 bytes */
	uint16_t sport, dport;	/* TCP/UDP */
	uint8_t ttl;		/* TTL / hop limit */
	uint8_t tos;		/* IPv4 TOS / IPv6 traffic class */
	uint16_t ip_id;		/* IPv4 identification; also the IPv6
				 * fragment header's identification */
	uint16_t frag;		/* IPv4 flags + fragment offset field
				 * (0x2000 = MF, 0x4000 = DF). With a
				 * non-zero offset the frame carries no L4
				 * header, only payload, as a real
				 * non-first fragment does. */
	uint8_t ip_options_len;	/* IPv4 options bytes, multiple of 4, <= 40
				 * (NOPs and a final EOL) */
	uint8_t ipv6_ext;	/* type of the one 8-byte IPv6 extension
				 * header when has_ipv6_ext: 0 hop-by-hop,
				 * 43 routing, 60 destination options,
				 * 44 fragment (atomic: offset 0, M 0) */
	bool has_ipv6_ext;
	uint32_t esp_spi, esp_seq; /* for IPPROTO_ESP */
	size_t payload_len;	/* L4 payload bytes, byte i = (uint8_t)(i * 7 + 3) */
};

/* Fills spec with defaults: dmac 02:00:00:00:00:01, smac 02:00:00:00:00:02,
 * vlan -1, family as given, proto TCP, 10.0.0.1 -> 10.0.1.1 (IPv6: fd00::1
 * -> fd00:1::1), ports 40000 -> 80, ttl 64, DF set for IPv4, payload 32.
 * For family 0 the ethertype is 0x88b5 (IEEE local experimental). */
void hx_frame_spec_init(struct hx_frame_spec *spec, int family);

/* Builds the frame into buf (cap bytes). Returns its length, or 0 when it
 * does not fit in cap or HX_PKT_MAX, or a field is out of range (VID, PCP,
 * DEI, family, options length, extension type). Fields that do not apply
 * to the family are ignored (frag and options on IPv6, the extension on
 * IPv4, everything IP when family is 0).
 * All checksums are correct: IPv4 header, TCP/UDP with the pseudo-header
 * (v4 and v6), ICMP (no pseudo-header) and ICMPv6 (pseudo-header). They
 * cover the bytes present, so for an IPv4 fragment only the fragment's part.
 * UDP checksum 0 is sent as 0xffff. TCP: 20-byte header, ACK|PSH, seq 1,
 * ack 1, window 65535. ICMP/ICMPv6: echo request, id 1 seq 1.
 * ESP: SPI, sequence number, then payload. */
size_t hx_frame_build(const struct hx_frame_spec *spec, uint8_t *buf, size_t cap);

/* Where things are in a built or received frame. */
struct hx_frame_layout {
	size_t len;
	int vlan_count;		/* tags seen (0..2): TPIDs 0x8100, 0x88a8, 0x9100 */
	uint16_t tpid[2], tci[2];
	uint16_t ethertype;	/* after the tags */
	size_t l3_off;		/* 0 when no IP header fits */
	size_t l4_off;		/* 0 when not reached: truncated, non-first
				 * fragment, or over 8 IPv6 extension headers
				 * (hop-by-hop, routing, fragment, dest opts,
				 * AH are stepped over) */
	int family;		/* 4, 6, or 0 when l3_off is 0 */
	uint8_t proto;		/* L4 protocol, after IPv6 extension headers */
};

/* Lenient: fills what it can and returns 0; -EINVAL only when there is not
 * even an Ethernet header. */
int hx_frame_parse(const uint8_t *frame, size_t len, struct hx_frame_layout *out);

/* RFC 1071 Internet checksum over len bytes, folded and complemented.
 * Returned in host order: store it with htons() or as big-endian bytes. */
uint16_t hx_inet_csum(const void *data, size_t len);

/* Full recomputation checks (not incremental): true when the checksum
 * field is correct. len is the bytes available from iph / frame. */
bool hx_ipv4_header_csum_ok(const uint8_t *iph, size_t len);
/* TCP/UDP/ICMP/ICMPv6 of the frame's IP packet, bounded by the IP length
 * fields (Ethernet padding is ignored). IPv4 UDP checksum 0 ("none") is
 * accepted, IPv6 UDP checksum 0 is not. False for other protocols and
 * when the L4 header is missing or truncated. */
bool hx_l4_csum_ok(const uint8_t *frame, size_t len);

/* Helpers for tests. On text that does not parse, out is zeroed. */
void hx_ipv4_addr(uint8_t out[16], const char *dotted); /* first 4 bytes, rest 0 */
void hx_ipv6_addr(uint8_t out[16], const char *text);
void hx_mac(uint8_t out[6], const char *text);		/* "02:00:00:00:00:01" */
void hx_hexdump(FILE *f, const uint8_t *data, size_t len);

#endif /* HWXDP_LAB_PKT_H */
