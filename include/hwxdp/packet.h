/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Frames for tests: a builder (Ethernet, 802.1Q and QinQ tags, IPv4 with
 * options and fragments, IPv6 with an extension header, TCP, UDP, ICMP,
 * ICMPv6, ESP) with every checksum right, a lenient parser, checksum checks
 * by full recomputation, and the name of the header field a byte lies in.
 *
 * Frames are Ethernet II as an XDP program sees them: no preamble, no FCS,
 * no padding to 60 bytes. Addresses (MACs, src, dst) are in network order;
 * every other number in these structures is in host order.
 */
#ifndef HWXDP_PACKET_H
#define HWXDP_PACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwxdp/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest frame the builder writes: a 9000-byte MTU jumbo frame with
 * room for tags. */
#define HWXDP_PACKET_MAX 9216

struct hwxdp_packet_spec {
	uint8_t dmac[6], smac[6];
	uint16_t outer_tpid;	   /* 0: none; else a first tag with this TPID (0x88a8,
				      0x8100) and outer_vid, ahead of the 802.1Q tag
				      (QinQ), alone when vlan is -1 */
	uint16_t outer_vid;	   /* 0..4095 */
	int vlan;		   /* -1: untagged; 0..4095: an 802.1Q tag with this VID */
	uint8_t pcp;		   /* 0..7, in the 802.1Q tag */
	uint8_t dei;		   /* 0..1 */
	int family;		   /* 4: IPv4, 6: IPv6, 0: ethertype below, then payload */
	uint16_t ethertype;	   /* with family 0 (0x0806 ARP, ...) */
	uint8_t proto;		   /* IPPROTO_TCP, _UDP, _ICMP, _ICMPV6, _ESP, or any
				      other number (then payload only) */
	uint8_t src[16], dst[16];  /* IPv4 uses the first 4 bytes */
	uint16_t sport, dport;	   /* TCP, UDP */
	uint8_t ttl;		   /* TTL, hop limit */
	uint8_t tos;		   /* IPv4 TOS, IPv6 traffic class */
	uint16_t ip_id;		   /* IPv4 identification */
	uint16_t frag;		   /* IPv4 flags and fragment offset (0x2000 MF,
				      0x4000 DF); a non-zero offset carries no
				      L4 header */
	uint8_t ip_options_len;	   /* IPv4 options, a multiple of 4, <= 40 */
	bool has_ipv6_ext;	   /* one 8-byte IPv6 extension header, of type: */
	uint8_t ipv6_ext;	   /* 0 hop-by-hop, 43 routing, 60 destination
				      options, 44 fragment (atomic) */
	uint32_t esp_spi, esp_seq; /* IPPROTO_ESP */
	size_t payload_len;	   /* L4 payload, byte i = (uint8_t)(i * 7 + 3) */
};

/* Defaults: dmac 02:00:00:00:00:01, smac 02:00:00:00:00:02, untagged,
 * family as given, TCP, 10.0.0.1 -> 10.0.1.1 (IPv6 fd00::1 -> fd00:1::1),
 * ports 40000 -> 80, TTL 64, DF for IPv4, 32 bytes of payload; family 0
 * has ethertype 0x88b5. */
HWXDP_API void hwxdp_packet_spec__init(struct hwxdp_packet_spec *spec, int family);

/* Builds spec's frame into buf (cap bytes): its length, or 0 when it does
 * not fit or a field is out of range. Every checksum is right (UDP's 0 is
 * sent as 0xffff); TCP has a 20-byte header, ACK|PSH, seq 1, ack 1;
 * ICMP/ICMPv6 are echo requests, id 1 seq 1. */
HWXDP_API size_t hwxdp_packet__build(const struct hwxdp_packet_spec *spec, uint8_t *buf,
				     size_t cap);

/* Where the headers of a frame are. */
struct hwxdp_packet_layout {
	size_t len;
	int vlan_count; /* tags seen (0..2): TPIDs 0x8100, 0x88a8, 0x9100 */
	uint16_t tpid[2], tci[2];
	uint16_t ethertype; /* after the tags */
	size_t l3_off;	    /* 0 when no IP header fits */
	size_t l4_off;	    /* 0 when not reached */
	int family;	    /* 4, 6, or 0 */
	uint8_t proto;	    /* after IPv6 extension headers */
};

/* Fills what it can and returns 0; -EINVAL without an Ethernet header. */
HWXDP_API int hwxdp_packet__parse(const uint8_t *frame, size_t len,
				  struct hwxdp_packet_layout *out);

/* The header field byte off of frame lies in, as "IPv4 TTL", "TCP
 * checksum", "VLAN tag 1 TCI", "payload byte 3" or "beyond the frame",
 * written into name (cap bytes); returns name. */
HWXDP_API const char *hwxdp_packet__field(const uint8_t *frame, size_t len, size_t off, char *name,
					  size_t cap);

/* RFC 1071 checksum over len bytes, folded and complemented, in host order. */
HWXDP_API uint16_t hwxdp_packet__inet_csum(const void *data, size_t len);
/* Full recomputations: true when the frame's IPv4 header checksum, or its
 * TCP/UDP/ICMP/ICMPv6 checksum, is right. */
HWXDP_API bool hwxdp_packet__ipv4_csum_ok(const uint8_t *frame, size_t len);
HWXDP_API bool hwxdp_packet__l4_csum_ok(const uint8_t *frame, size_t len);

/* Text to addresses; out is zeroed when text does not parse. */
HWXDP_API void hwxdp_packet__ipv4_addr(uint8_t out[16], const char *dotted);
HWXDP_API void hwxdp_packet__ipv6_addr(uint8_t out[16], const char *text);
HWXDP_API void hwxdp_packet__mac(uint8_t out[6], const char *text);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HWXDP_PACKET_H */
