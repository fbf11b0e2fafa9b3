// SPDX-License-Identifier: GPL-2.0
/* include/hwxdp/packet.h over the lab's frame builder, and the names of
 * header fields by byte offset. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <netinet/in.h>

#include "hwxdp/packet.h"
#include "lab/pkt.h"

_Static_assert(HWXDP_PACKET_MAX == HX_PKT_MAX, "one frame limit");

static void to_lab(const struct hwxdp_packet_spec *in, struct hx_frame_spec *out)
{
	memset(out, 0, sizeof(*out));
	memcpy(out->dmac, in->dmac, 6);
	memcpy(out->smac, in->smac, 6);
	out->outer_tpid = in->outer_tpid;
	out->outer_vid = in->outer_vid;
	out->vlan = in->vlan;
	out->pcp = in->pcp;
	out->dei = in->dei;
	out->family = in->family;
	out->ethertype = in->ethertype;
	out->proto = in->proto;
	memcpy(out->src, in->src, 16);
	memcpy(out->dst, in->dst, 16);
	out->sport = in->sport;
	out->dport = in->dport;
	out->ttl = in->ttl;
	out->tos = in->tos;
	out->ip_id = in->ip_id;
	out->frag = in->frag;
	out->ip_options_len = in->ip_options_len;
	out->ipv6_ext = in->ipv6_ext;
	out->has_ipv6_ext = in->has_ipv6_ext;
	out->esp_spi = in->esp_spi;
	out->esp_seq = in->esp_seq;
	out->payload_len = in->payload_len;
}

void hwxdp_packet_spec__init(struct hwxdp_packet_spec *spec, int family)
{
	struct hx_frame_spec lab;

	hx_frame_spec_init(&lab, family);
	memset(spec, 0, sizeof(*spec));
	memcpy(spec->dmac, lab.dmac, 6);
	memcpy(spec->smac, lab.smac, 6);
	spec->outer_tpid = lab.outer_tpid;
	spec->outer_vid = lab.outer_vid;
	spec->vlan = lab.vlan;
	spec->pcp = lab.pcp;
	spec->dei = lab.dei;
	spec->family = lab.family;
	spec->ethertype = lab.ethertype;
	spec->proto = lab.proto;
	memcpy(spec->src, lab.src, 16);
	memcpy(spec->dst, lab.dst, 16);
	spec->sport = lab.sport;
	spec->dport = lab.dport;
	spec->ttl = lab.ttl;
	spec->tos = lab.tos;
	spec->ip_id = lab.ip_id;
	spec->frag = lab.frag;
	spec->ip_options_len = lab.ip_options_len;
	spec->ipv6_ext = lab.ipv6_ext;
	spec->has_ipv6_ext = lab.has_ipv6_ext;
	spec->esp_spi = lab.esp_spi;
	spec->esp_seq = lab.esp_seq;
	spec->payload_len = lab.payload_len;
}

size_t hwxdp_packet__build(const struct hwxdp_packet_spec *spec, uint8_t *buf, size_t cap)
{
	struct hx_frame_spec lab;

	to_lab(spec, &lab);
	return hx_frame_build(&lab, buf, cap);
}

int hwxdp_packet__parse(const uint8_t *frame, size_t len, struct hwxdp_packet_layout *out)
{
	struct hx_frame_layout lo;
	int err = hx_frame_parse(frame, len, &lo);

	memset(out, 0, sizeof(*out));
	out->len = lo.len;
	out->vlan_count = lo.vlan_count;
	memcpy(out->tpid, lo.tpid, sizeof(out->tpid));
	memcpy(out->tci, lo.tci, sizeof(out->tci));
	out->ethertype = lo.ethertype;
	out->l3_off = lo.l3_off;
	out->l4_off = lo.l4_off;
	out->family = lo.family;
	out->proto = lo.proto;
	return err;
}

struct field {
	size_t end; /* one past the field's last byte, from the header's start */
	const char *name;
};

static const struct field ipv4_fields[] = {
	{ 1, "version and IHL" },
	{ 2, "TOS" },
	{ 4, "total length" },
	{ 6, "identification" },
	{ 8, "flags and fragment offset" },
	{ 9, "TTL" },
	{ 10, "protocol" },
	{ 12, "header checksum" },
	{ 16, "source address" },
	{ 20, "destination address" },
	{ 0, NULL },
};
static const struct field ipv6_fields[] = {
	{ 4, "version, traffic class and flow label" },
	{ 6, "payload length" },
	{ 7, "next header" },
	{ 8, "hop limit" },
	{ 24, "source address" },
	{ 40, "destination address" },
	{ 0, NULL },
};
static const struct field tcp_fields[] = {
	{ 2, "source port" },	  { 4, "destination port" },
	{ 8, "sequence number" }, { 12, "acknowledgment number" },
	{ 13, "data offset" },	  { 14, "flags" },
	{ 16, "window" },	  { 18, "checksum" },
	{ 20, "urgent pointer" }, { 0, NULL },
};
static const struct field udp_fields[] = {
	{ 2, "source port" }, { 4, "destination port" }, { 6, "length" }, { 8, "checksum" },
	{ 0, NULL },
};
static const struct field icmp_fields[] = {
	{ 1, "type" }, { 2, "code" }, { 4, "checksum" }, { 8, "rest of header" }, { 0, NULL },
};

/* The field of fields at rel; NULL past the last. */
static const char *field_at(const struct field *fields, size_t rel)
{
	for (; fields->name; fields++)
		if (rel < fields->end)
			return fields->name;
	return NULL;
}

const char *hwxdp_packet__field(const uint8_t *frame, size_t len, size_t off, char *name,
				size_t cap)
{
	struct hx_frame_layout lo;
	size_t eth_end, l4_hlen = 0;
	const struct field *l4 = NULL;
	const char *l4_name = "", *f;

	if (off >= len) {
		snprintf(name, cap, "beyond the frame");
		return name;
	}
	if (hx_frame_parse(frame, len, &lo)) {
		snprintf(name, cap, "Ethernet header");
		return name;
	}
	if (off < 6)
		return snprintf(name, cap, "Ethernet destination"), name;
	if (off < 12)
		return snprintf(name, cap, "Ethernet source"), name;
	if (off < 12 + 4 * (size_t)lo.vlan_count) {
		size_t rel = off - 12;

		snprintf(name, cap, "VLAN tag %zu %s", rel / 4 + 1, rel % 4 < 2 ? "TPID" : "TCI");
		return name;
	}
	eth_end = 12 + 4 * (size_t)lo.vlan_count + 2;
	if (off < eth_end)
		return snprintf(name, cap, "EtherType"), name;
	if (!lo.l3_off) {
		snprintf(name, cap, "payload byte %zu", off - eth_end);
		return name;
	}
	if (!lo.l4_off || off < lo.l4_off) {
		const char *ip = lo.family == 4 ? "IPv4" : "IPv6";
		size_t rel = off - lo.l3_off, hlen;

		hlen = lo.family == 4 ? (size_t)(frame[lo.l3_off] & 0xf) * 4
		       : lo.l4_off    ? lo.l4_off - lo.l3_off
				      : 40;
		f = field_at(lo.family == 4 ? ipv4_fields : ipv6_fields, rel);
		if (f)
			snprintf(name, cap, "%s %s", ip, f);
		else if (rel < hlen)
			snprintf(name, cap, "%s %s", ip,
				 lo.family == 4 ? "options" : "extension headers");
		else
			snprintf(name, cap, "%s payload byte %zu", ip, rel - hlen);
		return name;
	}
	switch (lo.proto) {
	case IPPROTO_TCP:
		l4 = tcp_fields, l4_name = "TCP";
		l4_hlen = lo.l4_off + 12 < len ? (size_t)(frame[lo.l4_off + 12] >> 4) * 4 : 20;
		break;
	case IPPROTO_UDP:
		l4 = udp_fields, l4_name = "UDP", l4_hlen = 8;
		break;
	case IPPROTO_ICMP:
		l4 = icmp_fields, l4_name = "ICMP", l4_hlen = 8;
		break;
	case IPPROTO_ICMPV6:
		l4 = icmp_fields, l4_name = "ICMPv6", l4_hlen = 8;
		break;
	}
	if (l4 && off - lo.l4_off < l4_hlen) {
		f = field_at(l4, off - lo.l4_off);
		snprintf(name, cap, "%s %s", l4_name, f ? f : "options");
		return name;
	}
	snprintf(name, cap, "payload byte %zu", off - lo.l4_off - l4_hlen);
	return name;
}

uint16_t hwxdp_packet__inet_csum(const void *data, size_t len)
{
	return hx_inet_csum(data, len);
}

bool hwxdp_packet__ipv4_csum_ok(const uint8_t *frame, size_t len)
{
	struct hx_frame_layout lo;

	if (hx_frame_parse(frame, len, &lo) || lo.family != 4)
		return false;
	return hx_ipv4_header_csum_ok(frame + lo.l3_off, len - lo.l3_off);
}

bool hwxdp_packet__l4_csum_ok(const uint8_t *frame, size_t len)
{
	return hx_l4_csum_ok(frame, len);
}

void hwxdp_packet__ipv4_addr(uint8_t out[16], const char *dotted)
{
	hx_ipv4_addr(out, dotted);
}

void hwxdp_packet__ipv6_addr(uint8_t out[16], const char *text)
{
	hx_ipv6_addr(out, text);
}

void hwxdp_packet__mac(uint8_t out[6], const char *text)
{
	hx_mac(out, text);
}
