// SPDX-License-Identifier: GPL-2.0
/* Tunnel policies and the host path's ESP (daemon/policy.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "daemon/fwd.h"
#include "daemon/internal.h"
#include "daemon/jbuf.h"
#include "daemon/policy.h"
#include "daemon/sa.h"
#include "device/esp.h"
#include "device/tables.h"
#include "hwxdp/fwd.h"

static bool prefix_has(const uint8_t *net, uint8_t len, const uint8_t *a)
{
	uint8_t whole = len / 8, rest = len % 8;

	if (memcmp(net, a, whole))
		return false;
	return !rest || !((net[whole] ^ a[whole]) & (uint8_t)(0xff << (8 - rest)));
}

static bool same_policy(const struct policy *a, const struct policy *b)
{
	return a->family == b->family && a->src_len == b->src_len && a->dst_len == b->dst_len &&
	       !memcmp(a->src, b->src, 16) && !memcmp(a->dst, b->dst, 16) &&
	       a->tunnel_src_be == b->tunnel_src_be && a->tunnel_dst_be == b->tunnel_dst_be;
}

int policy_add(struct hwxdpd *d, struct prog *pr, const struct policy *p, char *msg, size_t msglen)
{
	int free_slot = -1;

	(void)d;
	if (!pr->fwd) {
		snprintf(msg, msglen, "%s has no sas map of fwd's layout", pr->name);
		return -EOPNOTSUPP;
	}
	if (!pr->pol) {
		pr->pol = calloc(HWXDPD_POLICIES_MAX, sizeof(*pr->pol));
		if (!pr->pol)
			return -ENOMEM;
	}
	for (int i = 0; i < HWXDPD_POLICIES_MAX; i++) {
		if (pr->pol[i].used && same_policy(&pr->pol[i], p)) {
			snprintf(msg, msglen, "%s has that policy (%d)", pr->name, i);
			return -EEXIST;
		}
		if (!pr->pol[i].used && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0) {
		snprintf(msg, msglen, "%s has %d policies, the most it can", pr->name,
			 HWXDPD_POLICIES_MAX);
		return -ENOSPC;
	}
	pr->pol[free_slot] = *p;
	pr->pol[free_slot].used = true;
	pr->pol[free_slot].host_encrypted = 0;
	pr->pol[free_slot].held = 0;
	pr->pol[free_slot].too_big = 0;
	snprintf(msg, msglen, "policy %d of %s", free_slot, pr->name);
	return 0;
}

int policy_del(struct hwxdpd *d, struct prog *pr, uint32_t index, char *msg, size_t msglen)
{
	(void)d;
	if (!pr->pol || index >= HWXDPD_POLICIES_MAX || !pr->pol[index].used) {
		snprintf(msg, msglen, "%s has no policy %u", pr->name, index);
		return -ENOENT;
	}
	pr->pol[index].used = false;
	snprintf(msg, msglen, "policy %u of %s removed (its tunnel flows stay until their SA goes)",
		 index, pr->name);
	return 0;
}

void policies_free(struct prog *pr)
{
	free(pr->pol);
	pr->pol = NULL;
}

struct policy *policy_match(struct prog *pr, uint8_t family, const uint8_t *src, const uint8_t *dst)
{
	for (int i = 0; pr->pol && i < HWXDPD_POLICIES_MAX; i++) {
		struct policy *p = &pr->pol[i];

		if (p->used && p->family == family && prefix_has(p->src, p->src_len, src) &&
		    prefix_has(p->dst, p->dst_len, dst))
			return p;
	}
	return NULL;
}

int policy_sa(struct prog *pr, const struct policy *pol, uint32_t *handle, uint32_t *revision)
{
	uint32_t cap = pr->fwd ? bpf_map__max_entries(pr->fwd->sas.map) : 0;
	uint64_t best = 0;
	int found = -ENOENT;

	if (cap > HWXDP_TABLES_SA_MAX)
		cap = HWXDP_TABLES_SA_MAX;
	for (uint32_t h = 0; pr->sa && h < cap; h++) {
		const struct hwxdp_esp_sa *esp = pr->sa[h];
		struct hwxdp_sa e = { 0 };

		if (!esp || esp->tunnel_src_be != pol->tunnel_src_be ||
		    esp->tunnel_dst_be != pol->tunnel_dst_be || sa_spent(esp) ||
		    pr->sa_serial[h] < best)
			continue;
		if (hwxdp_table__lookup(pr->fwd->sas.table, &h, &e) || !(e.flags & HWXDP_SA_VALID))
			continue;
		best = pr->sa_serial[h];
		*handle = h;
		*revision = e.revision;
		found = 0;
	}
	return found;
}

/* The IP packet of a frame: its offset, family and addresses. */
static bool frame_ip(const uint8_t *f, uint32_t len, uint32_t *l3, uint8_t *family,
		     const uint8_t **src, const uint8_t **dst)
{
	uint32_t off = 12;
	uint16_t type;

	for (int tags = 0;; tags++) {
		if (len < off + 2)
			return false;
		type = (uint16_t)(f[off] << 8 | f[off + 1]);
		if ((type != 0x8100 && type != 0x88a8) || tags == 2)
			break;
		off += 4;
	}
	off += 2;
	if (type == 0x0800 && len >= off + 20 && (f[off] >> 4) == 4) {
		*family = HWXDP_FAMILY_IPV4;
		*src = f + off + 12;
		*dst = f + off + 16;
	} else if (type == 0x86dd && len >= off + 40 && (f[off] >> 4) == 6) {
		*family = HWXDP_FAMILY_IPV6;
		*src = f + off + 8;
		*dst = f + off + 24;
	} else {
		return false;
	}
	*l3 = off;
	return true;
}

struct policy *policy_of_frame(struct prog *pr, const uint8_t *frame, uint32_t len)
{
	uint8_t a4[2][16] = { { 0 } }, family;
	const uint8_t *src, *dst;
	uint32_t l3;

	if (!pr->pol || !frame_ip(frame, len, &l3, &family, &src, &dst))
		return NULL;
	if (family == HWXDP_FAMILY_IPV4) {
		/* Policies keep IPv4 prefixes in the first 4 of 16 bytes. */
		memcpy(a4[0], src, 4);
		memcpy(a4[1], dst, 4);
		src = a4[0];
		dst = a4[1];
	}
	return policy_match(pr, family, src, dst);
}

enum policy_verdict policy_host_out(struct prog *pr, uint8_t *buf, size_t cap, size_t *off,
				    size_t *len, uint32_t mtu)
{
	struct policy *pol = policy_of_frame(pr, buf + *off, (uint32_t)*len);
	size_t o = *off, l = *len, inner;
	uint32_t handle, revision, l3;
	const uint8_t *src, *dst;
	uint8_t family;

	if (!pol)
		return POLICY_CLEAR;
	frame_ip(buf + o, (uint32_t)l, &l3, &family, &src, &dst);
	inner = family == HWXDP_FAMILY_IPV4 ? (size_t)(buf[o + l3 + 2] << 8 | buf[o + l3 + 3])
					    : 40 + (size_t)(buf[o + l3 + 4] << 8 | buf[o + l3 + 5]);
	if (l3 != 14 || hwxdp_esp_tunnel_len(inner) > mtu) {
		pol->too_big += l3 == 14;
		pol->held += l3 != 14;
		return POLICY_HELD;
	}
	/* A lifetime can end at this frame: then the next SA, if any. */
	for (int tries = 0; tries < 4; tries++) {
		int err;

		if (policy_sa(pr, pol, &handle, &revision))
			break;
		o = *off;
		l = *len;
		err = hwxdp_esp_sa__encap(pr->sa[handle], buf, cap, &o, &l, 14);
		if (err == -EKEYEXPIRED || err == -EOVERFLOW)
			continue;
		if (err)
			break;
		/* The outer packet is IPv4. */
		buf[o + 12] = 0x08;
		buf[o + 13] = 0x00;
		*off = o;
		*len = l;
		pol->host_encrypted++;
		return POLICY_ENCRYPTED;
	}
	pol->held++;
	return POLICY_HELD;
}

void policy_json(struct hwxdpd *d, struct prog *pr, struct jbuf *b)
{
	(void)d;
	for (int i = 0; pr->pol && i < HWXDPD_POLICIES_MAX; i++) {
		const struct policy *p = &pr->pol[i];
		char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], tsrc[INET_ADDRSTRLEN],
			tdst[INET_ADDRSTRLEN], text[INET6_ADDRSTRLEN + 8];
		int af = p->family == HWXDP_FAMILY_IPV4 ? AF_INET : AF_INET6;
		uint32_t handle, revision;

		if (!p->used)
			continue;
		inet_ntop(af, p->src, src, sizeof(src));
		inet_ntop(af, p->dst, dst, sizeof(dst));
		inet_ntop(AF_INET, &p->tunnel_src_be, tsrc, sizeof(tsrc));
		inet_ntop(AF_INET, &p->tunnel_dst_be, tdst, sizeof(tdst));
		jbuf_start_object(b);
		jbuf_string_field(b, "program", pr->name);
		jbuf_uint_field(b, "index", (uint64_t)i);
		snprintf(text, sizeof(text), "%s/%u", src, p->src_len);
		jbuf_string_field(b, "src", text);
		snprintf(text, sizeof(text), "%s/%u", dst, p->dst_len);
		jbuf_string_field(b, "dst", text);
		jbuf_string_field(b, "tunnel_src", tsrc);
		jbuf_string_field(b, "tunnel_dst", tdst);
		if (!policy_sa(pr, p, &handle, &revision))
			jbuf_uint_field(b, "sa", handle);
		else
			jbuf_string_field(b, "sa", NULL);
		jbuf_uint_field(b, "host_encrypted", p->host_encrypted);
		jbuf_uint_field(b, "held", p->held);
		jbuf_uint_field(b, "held_too_big", p->too_big);
		jbuf_end_object(b);
	}
}
