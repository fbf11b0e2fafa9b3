/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test frame builder and parser. Every multi-byte field is written and read
 * one byte at a time in network order, so buffers need no alignment and the
 * code is the same on either host byte order.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <linux/if_ether.h>

#include "pkt.h"

#define IPV4_HLEN	20
#define IPV6_HLEN	40
#define IPV6_EXT_LEN	8
#define VLAN_HLEN	4
#define TPID_QINQ_OLD	0x9100	/* pre-802.1ad QinQ, still seen in the wild */

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* Unfolded sum of big-endian 16-bit words. A 64-bit accumulator cannot
 * overflow for any buffer we can hold, so folding waits until the end. */
static uint64_t csum_add(uint64_t sum, const uint8_t *p, size_t len)
{
	for (; len > 1; p += 2, len -= 2)
		sum += (uint32_t)p[0] << 8 | p[1];
	/* RFC 1071 pads an odd tail with a zero byte on the right */
	if (len)
		sum += (uint32_t)p[0] << 8;
	return sum;
}

static uint16_t csum_fold(uint64_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

uint16_t hx_inet_csum(const void *data, size_t len)
{
	return csum_fold(csum_add(0, data, len));
}

/*
 * Sum of the L4 bytes plus, except for ICMPv4, the pseudo-header. The
 * length goes in as two words because the IPv6 pseudo-header carries it in
 * 32 bits; for IPv4 the high word is zero. addr points at the IP header's
 * source address, immediately followed by the destination in both families.
 */
static uint64_t l4_sum(int family, const uint8_t *addr, uint8_t proto,
		       const uint8_t *l4, size_t l4_len)
{
	uint64_t sum = csum_add(0, l4, l4_len);

	if (proto == IPPROTO_ICMP)
		return sum;
	sum = csum_add(sum, addr, family == 6 ? 32 : 8);
	return sum + proto + (l4_len >> 16) + (l4_len & 0xffff);
}

void hx_frame_spec_init(struct hx_frame_spec *spec, int family)
{
	memset(spec, 0, sizeof(*spec));
	hx_mac(spec->dmac, "02:00:00:00:00:01");
	hx_mac(spec->smac, "02:00:00:00:00:02");
	spec->vlan = -1;
	spec->family = family;
	spec->ethertype = 0x88b5;
	spec->proto = IPPROTO_TCP;
	if (family == 6) {
		hx_ipv6_addr(spec->src, "fd00::1");
		hx_ipv6_addr(spec->dst, "fd00:1::1");
	} else {
		hx_ipv4_addr(spec->src, "10.0.0.1");
		hx_ipv4_addr(spec->dst, "10.0.1.1");
	}
	spec->sport = 40000;
	spec->dport = 80;
	spec->ttl = 64;
	if (family == 4)
		spec->frag = 0x4000;
	spec->payload_len = 32;
}

static size_t l4_hdr_len(uint8_t proto)
{
	switch (proto) {
	case IPPROTO_TCP:
		return 20;
	case IPPROTO_UDP:
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
	case IPPROTO_ESP:
		return 8;
	default:
		return 0;
	}
}

static bool spec_valid(const struct hx_frame_spec *s)
{
	if (s->vlan < -1 || s->vlan > 4095 || s->outer_vid > 4095 ||
	    s->pcp > 7 || s->dei > 1)
		return false;
	if (s->family == 4)
		return s->ip_options_len % 4 == 0 && s->ip_options_len <= 40;
	if (s->family == 6)
		return !s->has_ipv6_ext || s->ipv6_ext == 0 ||
		       s->ipv6_ext == 43 || s->ipv6_ext == 60 ||
		       s->ipv6_ext == 44;
	return s->family == 0;
}

static void write_ipv6_ext(const struct hx_frame_spec *s, uint8_t *p)
{
	p[0] = s->proto;
	p[1] = 0;	/* length in 8-byte units beyond the first */
	switch (s->ipv6_ext) {
	case 0:
	case 60:
		/* options must fill the header: one PadN covering 6 bytes */
		p[2] = 1;
		p[3] = 4;
		break;
	case 43:
		/* type 0, segments left 0: the destination field stays the
		 * final destination, so the pseudo-header is unchanged */
		break;
	case 44:
		/* atomic fragment (offset 0, M 0): the L4 header follows */
		put32(p + 4, s->ip_id);
		break;
	}
}

static void write_l4(const struct hx_frame_spec *s, uint8_t *p, size_t l4_len)
{
	switch (s->proto) {
	case IPPROTO_TCP:
		put16(p, s->sport);
		put16(p + 2, s->dport);
		put32(p + 4, 1);	/* seq */
		put32(p + 8, 1);	/* ack */
		p[12] = 5 << 4;		/* data offset: no options */
		p[13] = 0x18;		/* ACK | PSH */
		put16(p + 14, 65535);
		break;
	case IPPROTO_UDP:
		put16(p, s->sport);
		put16(p + 2, s->dport);
		put16(p + 4, (uint16_t)l4_len);
		break;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		p[0] = s->proto == IPPROTO_ICMP ? 8 : 128;	/* echo request */
		put16(p + 4, 1);	/* id */
		put16(p + 6, 1);	/* seq */
		break;
	case IPPROTO_ESP:
		put32(p, s->esp_spi);
		put32(p + 4, s->esp_seq);
		break;
	}
}

size_t hx_frame_build(const struct hx_frame_spec *s, uint8_t *buf, size_t cap)
{
	bool v4 = s->family == 4, v6 = s->family == 6;
	bool later_frag = v4 && (s->frag & 0x1fff);
	size_t off = 2 * ETH_ALEN, l3_off, l3_len = 0, l4_off, l4h = 0, len, i;
	uint16_t ethertype = s->ethertype, csum;
	uint8_t *ip, *l4;

	if (!spec_valid(s) || s->payload_len > HX_PKT_MAX)
		return 0;
	if (v4) {
		ethertype = ETH_P_IP;
		l3_len = IPV4_HLEN + s->ip_options_len;
	} else if (v6) {
		ethertype = ETH_P_IPV6;
		l3_len = IPV6_HLEN + (s->has_ipv6_ext ? IPV6_EXT_LEN : 0);
	}
	/* a non-first fragment continues the datagram: no L4 header */
	if ((v4 || v6) && !later_frag)
		l4h = l4_hdr_len(s->proto);

	l3_off = ETH_HLEN + (s->outer_tpid ? VLAN_HLEN : 0) +
		 (s->vlan >= 0 ? VLAN_HLEN : 0);
	l4_off = l3_off + l3_len;
	len = l4_off + l4h + s->payload_len;
	if (len > cap || len > HX_PKT_MAX)
		return 0;

	memset(buf, 0, len);
	memcpy(buf, s->dmac, ETH_ALEN);
	memcpy(buf + ETH_ALEN, s->smac, ETH_ALEN);
	if (s->outer_tpid) {
		put16(buf + off, s->outer_tpid);
		put16(buf + off + 2, s->outer_vid);
		off += VLAN_HLEN;
	}
	if (s->vlan >= 0) {
		put16(buf + off, ETH_P_8021Q);
		put16(buf + off + 2, (uint16_t)(s->pcp << 13 | s->dei << 12 | s->vlan));
		off += VLAN_HLEN;
	}
	put16(buf + off, ethertype);

	for (i = 0; i < s->payload_len; i++)
		buf[l4_off + l4h + i] = (uint8_t)(i * 7 + 3);
	if (!v4 && !v6)
		return len;

	ip = buf + l3_off;
	l4 = buf + l4_off;
	if (v4) {
		ip[0] = 0x40 | (uint8_t)(l3_len / 4);
		ip[1] = s->tos;
		put16(ip + 2, (uint16_t)(len - l3_off));
		put16(ip + 4, s->ip_id);
		put16(ip + 6, s->frag);
		ip[8] = s->ttl;
		ip[9] = s->proto;
		memcpy(ip + 12, s->src, 4);
		memcpy(ip + 16, s->dst, 4);
		if (s->ip_options_len) {
			/* NOPs, then EOL as the last byte */
			memset(ip + IPV4_HLEN, 1, s->ip_options_len - 1u);
			ip[l3_len - 1] = 0;
		}
		put16(ip + 10, hx_inet_csum(ip, l3_len));
	} else {
		put32(ip, 6u << 28 | (uint32_t)s->tos << 20);
		put16(ip + 4, (uint16_t)(len - l3_off - IPV6_HLEN));
		ip[6] = s->has_ipv6_ext ? s->ipv6_ext : s->proto;
		ip[7] = s->ttl;
		memcpy(ip + 8, s->src, 16);
		memcpy(ip + 24, s->dst, 16);
		if (s->has_ipv6_ext)
			write_ipv6_ext(s, ip + IPV6_HLEN);
	}

	if (!l4h)
		return len;
	write_l4(s, l4, len - l4_off);
	switch (s->proto) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		csum = csum_fold(l4_sum(s->family, ip + (v4 ? 12 : 8), s->proto,
					l4, len - l4_off));
		/* UDP 0 means "no checksum"; its ones' complement twin is sent */
		if (s->proto == IPPROTO_UDP && !csum)
			csum = 0xffff;
		put16(l4 + (s->proto == IPPROTO_TCP ? 16 :
			    s->proto == IPPROTO_UDP ? 6 : 2), csum);
		break;
	}
	return len;
}

static bool is_tpid(uint16_t type)
{
	return type == ETH_P_8021Q || type == ETH_P_8021AD || type == TPID_QINQ_OLD;
}

/* Extension headers the walk can step over; anything else is the L4 header */
static bool is_ipv6_ext(uint8_t nh)
{
	return nh == 0 || nh == 43 || nh == 60 || nh == 44 || nh == 51;
}

static void parse_ipv6_ext(const uint8_t *f, size_t len, size_t p,
			   struct hx_frame_layout *out)
{
	uint8_t nh = f[out->l3_off + 6];
	size_t step;
	int hops;

	/* bounded: a crafted chain must not keep us walking */
	for (hops = 0; hops < 8; hops++) {
		if (!is_ipv6_ext(nh) || p + IPV6_EXT_LEN > len)
			break;
		if (nh == 44) {
			step = IPV6_EXT_LEN;
			/* a later fragment holds no L4 header */
			if (get16(f + p + 2) & 0xfff8) {
				out->proto = f[p];
				return;
			}
		} else if (nh == 51) {
			/* AH counts 4-byte units, less 2 */
			step = ((size_t)f[p + 1] + 2) * 4;
		} else {
			step = ((size_t)f[p + 1] + 1) * 8;
		}
		nh = f[p];
		p += step;
	}
	out->proto = nh;
	if (!is_ipv6_ext(nh) && p <= len)
		out->l4_off = p;
}

int hx_frame_parse(const uint8_t *f, size_t len, struct hx_frame_layout *out)
{
	size_t off = 2 * ETH_ALEN, ihl;
	uint16_t type;

	memset(out, 0, sizeof(*out));
	out->len = len;
	if (!f || len < ETH_HLEN)
		return -EINVAL;

	type = get16(f + off);
	while (is_tpid(type) && out->vlan_count < 2 && off + VLAN_HLEN + 2 <= len) {
		out->tpid[out->vlan_count] = type;
		out->tci[out->vlan_count] = get16(f + off + 2);
		out->vlan_count++;
		off += VLAN_HLEN;
		type = get16(f + off);
	}
	out->ethertype = type;
	off += 2;

	if (type == ETH_P_IP && off + IPV4_HLEN <= len && f[off] >> 4 == 4 &&
	    (f[off] & 0xf) >= 5) {
		out->l3_off = off;
		out->family = 4;
		out->proto = f[off + 9];
		ihl = (size_t)(f[off] & 0xf) * 4;
		if (!(get16(f + off + 6) & 0x1fff) && off + ihl <= len)
			out->l4_off = off + ihl;
	} else if (type == ETH_P_IPV6 && off + IPV6_HLEN <= len &&
		   f[off] >> 4 == 6) {
		out->l3_off = off;
		out->family = 6;
		parse_ipv6_ext(f, len, off + IPV6_HLEN, out);
	}
	return 0;
}

bool hx_ipv4_header_csum_ok(const uint8_t *iph, size_t len)
{
	size_t ihl;

	if (len < IPV4_HLEN || iph[0] >> 4 != 4)
		return false;
	ihl = (size_t)(iph[0] & 0xf) * 4;
	if (ihl < IPV4_HLEN || ihl > len)
		return false;
	return hx_inet_csum(iph, ihl) == 0;
}

bool hx_l4_csum_ok(const uint8_t *frame, size_t len)
{
	struct hx_frame_layout lo;
	const uint8_t *ip, *l4;
	size_t ip_end, l4_len;

	if (hx_frame_parse(frame, len, &lo) || !lo.l4_off)
		return false;
	ip = frame + lo.l3_off;
	/* the IP length, not the frame length: Ethernet may pad short frames */
	if (lo.family == 4)
		ip_end = lo.l3_off + get16(ip + 2);
	else
		ip_end = lo.l3_off + IPV6_HLEN + get16(ip + 4);
	if (ip_end > len || ip_end < lo.l4_off + 8)
		return false;
	l4 = frame + lo.l4_off;
	l4_len = ip_end - lo.l4_off;

	switch (lo.proto) {
	case IPPROTO_TCP:
		if (l4_len < 20)
			return false;
		break;
	case IPPROTO_UDP:
		if (!get16(l4 + 6))
			return lo.family == 4;
		/* UDP's own length bounds what its checksum covers */
		if (get16(l4 + 4) < 8 || get16(l4 + 4) > l4_len)
			return false;
		l4_len = get16(l4 + 4);
		break;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		break;
	default:
		return false;
	}
	/* a correct checksum makes the whole sum fold to zero; the pseudo-
	 * header uses the destination field, so a routing header with
	 * segments left is not accounted for */
	return csum_fold(l4_sum(lo.family, ip + (lo.family == 4 ? 12 : 8),
				lo.proto, l4, l4_len)) == 0;
}

void hx_ipv4_addr(uint8_t out[16], const char *dotted)
{
	memset(out, 0, 16);
	if (inet_pton(AF_INET, dotted, out) != 1)
		memset(out, 0, 4);
}

void hx_ipv6_addr(uint8_t out[16], const char *text)
{
	if (inet_pton(AF_INET6, text, out) != 1)
		memset(out, 0, 16);
}

void hx_mac(uint8_t out[6], const char *text)
{
	int n = -1;

	if (sscanf(text, "%2hhx:%2hhx:%2hhx:%2hhx:%2hhx:%2hhx%n", &out[0],
		   &out[1], &out[2], &out[3], &out[4], &out[5], &n) != 6 ||
	    text[n] != '\0')
		memset(out, 0, 6);
}

void hx_hexdump(FILE *f, const uint8_t *data, size_t len)
{
	size_t off, i;

	for (off = 0; off < len; off += 16) {
		fprintf(f, "%04zx ", off);
		for (i = off; i < off + 16; i++) {
			if (i % 8 == 0)
				fputc(' ', f);
			if (i < len)
				fprintf(f, "%02x ", data[i]);
			else
				fputs("   ", f);
		}
		fputs(" |", f);
		for (i = off; i < off + 16 && i < len; i++)
			fputc(data[i] >= 0x20 && data[i] < 0x7f ? data[i] : '.', f);
		fputs("|\n", f);
	}
}
