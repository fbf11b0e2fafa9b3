// SPDX-License-Identifier: GPL-2.0
/*
 * Security associations of a program with fwd's layout (daemon/sa.h): the
 * key lives in the board's crypto unit (device/esp.h), which counts the
 * SA's packets and bytes and refuses a frame past its lifetime; fwd's `sas`
 * map names the SA (SPI, tunnel addresses) with a revision that a flow must
 * carry to use it. A removed SA takes the tunnel flows naming it off both
 * homes first, so no frame meets an SA half gone.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "daemon/flows.h"
#include "daemon/fwd.h"
#include "daemon/internal.h"
#include "daemon/jbuf.h"
#include "daemon/sa.h"
#include "device/device.h"
#include "device/esp.h"
#include "device/tables.h"
#include "hwxdp/fwd.h"

/* SA handles a program can have: its sas map's, at most the board's. */
static uint32_t sa_cap(const struct prog *pr)
{
	uint32_t n = pr->fwd ? bpf_map__max_entries(pr->fwd->sas.map) : 0;

	return n < HWXDP_TABLES_SA_MAX ? n : HWXDP_TABLES_SA_MAX;
}

static int sas_entry(struct prog *pr, uint32_t handle, struct hwxdp_sa *e)
{
	memset(e, 0, sizeof(*e));
	return hwxdp_table__lookup(pr->fwd->sas.table, &handle, e);
}

/* The order SAs were added in, for the newest of a tunnel's. */
static uint64_t sa_serial_last;

int sa_add(struct hwxdpd *d, struct prog *pr, const struct sa_args *a, char *msg, size_t msglen)
{
	struct hwxdp_esp_sa *esp;
	struct hwxdp_sa e;
	bool board;
	int err;

	if (!pr->fwd) {
		snprintf(msg, msglen, "%s has no sas map of fwd's layout", pr->name);
		return -EOPNOTSUPP;
	}
	if (a->handle >= sa_cap(pr)) {
		snprintf(msg, msglen, "SA handle %u: %s has handles 0 to %u", a->handle, pr->name,
			 sa_cap(pr) - 1);
		return -ERANGE;
	}
	if (!pr->sa) {
		pr->sa = calloc(sa_cap(pr), sizeof(*pr->sa));
		pr->sa_serial = calloc(sa_cap(pr), sizeof(*pr->sa_serial));
		if (!pr->sa || !pr->sa_serial) {
			free(pr->sa);
			free(pr->sa_serial);
			pr->sa = NULL;
			pr->sa_serial = NULL;
			return -ENOMEM;
		}
	}
	if (pr->sa[a->handle]) {
		snprintf(msg, msglen,
			 "SA %u of %s exists (a rekey: add the new SA under another handle, "
			 "move the flows, then sa del %u)",
			 a->handle, pr->name, a->handle);
		return -EEXIST;
	}
	esp = calloc(1, sizeof(*esp));
	if (!esp)
		return -ENOMEM;
	err = hwxdp_esp_sa__init(esp, a->spi, a->key, a->key_len, a->salt, a->src_be, a->dst_be);
	if (err) {
		snprintf(msg, msglen, "SA %u: the crypto unit refuses it: %s", a->handle,
			 strerror(-err));
		free(esp);
		return err;
	}
	esp->limit_packets = a->lifetime_packets;
	esp->limit_bytes = a->lifetime_bytes;
	if (a->restore) {
		uint64_t seq = a->seq + SA_RESTORE_SEQ_SKIP;

		esp->seq = seq < UINT32_MAX ? seq : UINT32_MAX;
		esp->seq_skip = esp->seq - (a->packets < esp->seq ? a->packets : esp->seq);
		esp->bytes = a->bytes;
	}
	/* The key first, then the name that lets flows use it. */
	err = hwxdp_tables__set_sa(hwxdp_device__tables(d->board, pr->device_id), a->handle, esp);
	if (!err) {
		sas_entry(pr, a->handle, &e);
		e = (struct hwxdp_sa){
			.flags = HWXDP_SA_VALID,
			.revision = e.revision + 1,
			.spi_be = htonl(a->spi),
			.tunnel_src_be = a->src_be,
			.tunnel_dst_be = a->dst_be,
		};
		err = pair_update(d, &pr->fwd->sas, &a->handle, &e, BPF_ANY, &board);
		if (err)
			hwxdp_tables__set_sa(hwxdp_device__tables(d->board, pr->device_id),
					     a->handle, NULL);
	}
	if (err) {
		snprintf(msg, msglen, "SA %u: cannot install it: %s", a->handle, strerror(-err));
		hwxdp_esp_sa__fini(esp);
		free(esp);
		return err;
	}
	pr->sa[a->handle] = esp;
	pr->sa_serial[a->handle] = ++sa_serial_last;
	snprintf(msg, msglen, "SA %u of %s: SPI 0x%x, revision %u", a->handle, pr->name, a->spi,
		 e.revision);
	return 0;
}

/* Tunnel flows naming handle: counted, or with take_off deleted from both
 * homes. */
static uint32_t tunnel_flows(struct prog *pr, uint32_t handle, bool take_off)
{
	struct hwxdp_table *t = pr->fwd->flows.table;
	struct hwxdp_flow_key key, next;
	struct hwxdp_flow v;
	uint32_t n = 0;
	int err;

	for (err = hwxdp_table__get_next_key(t, NULL, &next); !err;) {
		key = next;
		err = hwxdp_table__get_next_key(t, &key, &next);
		if (hwxdp_table__lookup(t, &key, &v) || !(v.flags & HWXDP_FLOW_TUNNEL) ||
		    v.sa_handle != handle)
			continue;
		n++;
		if (take_off)
			pair_delete(&pr->fwd->flows, &key);
	}
	return n;
}

static void forget(struct hwxdpd *d, struct prog *pr, uint32_t handle)
{
	struct hwxdp_sa e;
	bool board;

	sas_entry(pr, handle, &e);
	e = (struct hwxdp_sa){ .revision = e.revision + 1 };
	pair_update(d, &pr->fwd->sas, &handle, &e, BPF_ANY, &board);
}

int sa_del(struct hwxdpd *d, struct prog *pr, uint32_t handle, char *msg, size_t msglen)
{
	struct hwxdp_esp_sa *esp = pr->sa && handle < sa_cap(pr) ? pr->sa[handle] : NULL;
	uint32_t flows;

	if (!esp) {
		snprintf(msg, msglen, "%s has no SA %u", pr->name, handle);
		return -ENOENT;
	}
	/* Flows first (the flow maker's, then any other), then the name, then
	 * the key: the board thread waits on the lock, so no frame is between
	 * two of these. */
	flows = flows_flush_sa(d, pr, handle);
	flows += tunnel_flows(pr, handle, true);
	forget(d, pr, handle);
	hwxdp_tables__set_sa(hwxdp_device__tables(d->board, pr->device_id), handle, NULL);
	pr->sa[handle] = NULL;
	snprintf(msg, msglen, "SA %u of %s removed after %llu packets, %u tunnel flows taken off",
		 handle, pr->name, (unsigned long long)(esp->seq - esp->seq_skip), flows);
	hwxdp_esp_sa__fini(esp);
	free(esp);
	return 0;
}

void sas_forget(struct hwxdpd *d, struct prog *pr)
{
	uint32_t n = 0;

	if (!pr->fwd)
		return;
	for (uint32_t h = 0; h < sa_cap(pr); h++) {
		struct hwxdp_sa e;

		if (sas_entry(pr, h, &e) || !(e.flags & HWXDP_SA_VALID) || (pr->sa && pr->sa[h]))
			continue;
		tunnel_flows(pr, h, true);
		forget(d, pr, h);
		n++;
	}
	if (n)
		fprintf(stderr,
			"hwxdpd: %s: %u SAs of the pinned sas map have no key on the board (keys "
			"are "
			"not kept): marked invalid, their flows taken off; sa add them again\n",
			pr->name, n);
}

void sas_free(struct hwxdpd *d, struct prog *pr)
{
	for (uint32_t h = 0; pr->sa && h < sa_cap(pr); h++) {
		if (!pr->sa[h])
			continue;
		hwxdp_tables__set_sa(hwxdp_device__tables(d->board, pr->device_id), h, NULL);
		hwxdp_esp_sa__fini(pr->sa[h]);
		free(pr->sa[h]);
	}
	free(pr->sa);
	free(pr->sa_serial);
	pr->sa = NULL;
	pr->sa_serial = NULL;
}

bool sa_spent(const struct hwxdp_esp_sa *esp)
{
	return esp->expired ||
	       (esp->limit_packets && esp->seq - esp->seq_skip >= esp->limit_packets) ||
	       (esp->limit_bytes && esp->bytes >= esp->limit_bytes) || esp->seq >= UINT32_MAX;
}

void sas_retire(struct hwxdpd *d, struct prog *pr)
{
	for (uint32_t h = 0; pr->sa && h < sa_cap(pr); h++)
		if (pr->sa[h] && sa_spent(pr->sa[h]))
			flows_flush_sa(d, pr, h);
}

void sa_json(struct hwxdpd *d, struct prog *pr, struct jbuf *b)
{
	(void)d;
	for (uint32_t h = 0; pr->sa && h < sa_cap(pr); h++) {
		const struct hwxdp_esp_sa *esp = pr->sa[h];
		char src[INET_ADDRSTRLEN], dst[INET_ADDRSTRLEN];
		struct hwxdp_sa e;

		if (!esp)
			continue;
		sas_entry(pr, h, &e);
		inet_ntop(AF_INET, &esp->tunnel_src_be, src, sizeof(src));
		inet_ntop(AF_INET, &esp->tunnel_dst_be, dst, sizeof(dst));
		jbuf_start_object(b);
		jbuf_string_field(b, "program", pr->name);
		jbuf_uint_field(b, "handle", h);
		jbuf_uint_field(b, "spi", esp->spi);
		jbuf_string_field(b, "src", src);
		jbuf_string_field(b, "dst", dst);
		jbuf_uint_field(b, "key_bits", 8u * esp->key_len);
		jbuf_uint_field(b, "revision", e.revision);
		/* The engines run under the lock the caller holds: counts are
		 * whole frames. */
		jbuf_uint_field(b, "packets", esp->seq - esp->seq_skip);
		jbuf_uint_field(b, "seq", esp->seq);
		jbuf_uint_field(b, "bytes", esp->bytes);
		jbuf_uint_field(b, "lifetime_packets", esp->limit_packets);
		jbuf_uint_field(b, "lifetime_bytes", esp->limit_bytes);
		jbuf_bool_field(b, "expired", sa_spent(esp));
		jbuf_uint_field(b, "flows", tunnel_flows(pr, h, false));
		jbuf_end_object(b);
	}
}
