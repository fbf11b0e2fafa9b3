// SPDX-License-Identifier: GPL-2.0
/*
 * Wire ports: a Linux netdev's frames onto the board through a wire socket
 * (daemon/wire.h), and a TAP hx<N> for what the board punts to the host.
 * The board names a port by the netdev's ifindex, as a program's
 * ctx->ingress_ifindex does.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/internal.h"
#include "daemon/tap.h"
#include "daemon/wire.h"
#include "device/device.h"

struct port *port_by_name(struct hwxdpd *d, const char *name)
{
	for (int i = 0; i < HWXDPD_PORTS_MAX; i++)
		if (d->ports[i].used && !strcmp(d->ports[i].name, name))
			return &d->ports[i];
	return NULL;
}

static bool name_ok(const char *name)
{
	size_t len = strlen(name);

	return len >= 1 && len < HWXDPD_NAME_MAX &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") ==
		       len;
}

int port_add(struct hwxdpd *d, const char *name, const char *dev, const char *mode_word,
	     int want_index, char *msg, size_t msglen)
{
	enum wire_mode mode = WIRE_AUTO;
	struct port *p = NULL;
	uint8_t mac[6];
	uint32_t ifindex, mtu;
	int err, index = -1;

	if (!name_ok(name)) {
		snprintf(msg, msglen,
			 "port name '%s': 1 to %d letters, digits, '-', '_' or '.' expected", name,
			 HWXDPD_NAME_MAX - 1);
		return -EINVAL;
	}
	if (mode_word) {
		if (!strcmp(mode_word, "af_xdp"))
			mode = WIRE_AF_XDP;
		else if (!strcmp(mode_word, "af_packet"))
			mode = WIRE_AF_PACKET;
		else if (strcmp(mode_word, "auto")) {
			snprintf(msg, msglen, "mode '%s': auto, af_xdp or af_packet expected",
				 mode_word);
			return -EINVAL;
		}
	}
	if (port_by_name(d, name)) {
		snprintf(msg, msglen, "port %s exists already", name);
		return -EEXIST;
	}
	if (netdev_info(dev, &ifindex, mac, &mtu)) {
		snprintf(msg, msglen, "no netdev '%s'", dev);
		return -ENODEV;
	}
	for (int i = 0; i < HWXDPD_PORTS_MAX; i++) {
		struct port *q = &d->ports[i];

		if (!q->used) {
			if (index < 0 && (want_index < 0 || want_index == i))
				index = i;
			continue;
		}
		if (q->ifindex == ifindex) {
			snprintf(msg, msglen, "netdev %s is port %s's already", dev, q->name);
			return -EBUSY;
		}
		if (q->tap_ifindex == ifindex) {
			snprintf(msg, msglen, "netdev %s is port %s's TAP, not a wire", dev,
				 q->name);
			return -EINVAL;
		}
	}
	if (index < 0 && want_index >= 0) {
		snprintf(msg, msglen, "index %d is port %s's already", want_index,
			 d->ports[want_index].name);
		return -EBUSY;
	}
	if (index < 0) {
		snprintf(msg, msglen, "the daemon has %d ports at most", HWXDPD_PORTS_MAX);
		return -ENOSPC;
	}
	p = &d->ports[index];
	memset(p, 0, sizeof(*p));
	p->tap_fd = -1;
	p->prog = -1;
	p->index = (uint32_t)index;
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->dev, sizeof(p->dev), "%s", dev);
	snprintf(p->tap, sizeof(p->tap), "hx%d", index);
	p->ifindex = ifindex;
	memcpy(p->mac, mac, 6);
	p->mtu = mtu;
	err = hwxdp_device__add_port(d->board, ifindex);
	if (err) {
		snprintf(msg, msglen, "the board takes no more ports: %s", strerror(-err));
		goto fail;
	}
	err = tap_open(p->tap, mac, mtu, d->restoring, &p->tap_fd, &p->tap_ifindex, msg, msglen);
	if (err)
		goto fail;
	err = wire_open(dev, ifindex, mtu, mode, &p->wire, msg, msglen);
	if (err)
		goto fail;
	err = dataplane_start(d);
	if (err) {
		snprintf(msg, msglen, "cannot start the board's thread: %s", strerror(-err));
		goto fail;
	}
	p->used = true;
	dataplane_changed(d);
	snprintf(msg, msglen, "port %s on %s (%s), host netdev %s", name, dev,
		 wire_mode_name(p->wire), p->tap);
	return 0;
fail:
	wire_close(p->wire);
	tap_close(p->tap_fd);
	memset(p, 0, sizeof(*p));
	p->tap_fd = -1;
	return err;
}

static void port_release(struct hwxdpd *d, struct port *p)
{
	hwxdp_device__detach(d->board, p->ifindex);
	wire_close(p->wire);
	tap_close(p->tap_fd);
	memset(p, 0, sizeof(*p));
	p->tap_fd = -1;
	p->prog = -1;
}

int port_del(struct hwxdpd *d, struct port *p, char *msg, size_t msglen)
{
	if (p->prog >= 0)
		prog_detach(d, p, msg, msglen);
	lifs_free(d, p);
	snprintf(msg, msglen, "port %s removed, with %s", p->name, p->tap);
	/* The board thread lets go of the port's descriptors first. */
	p->used = false;
	dataplane_changed(d);
	port_release(d, p);
	return 0;
}

void ports_free(struct hwxdpd *d)
{
	char msg[256];

	for (int i = 0; i < HWXDPD_PORTS_MAX; i++)
		if (d->ports[i].used)
			port_del(d, &d->ports[i], msg, sizeof(msg));
}

static void mac_text(const uint8_t *m, char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

void port_json(struct hwxdpd *d, const struct port *p, struct jbuf *b)
{
	struct wire_drops drops;
	char mac[18];

	mac_text(p->mac, mac, sizeof(mac));
	jbuf_start_object(b);
	jbuf_string_field(b, "name", p->name);
	jbuf_uint_field(b, "index", p->index);
	jbuf_string_field(b, "dev", p->dev);
	jbuf_uint_field(b, "ifindex", p->ifindex);
	jbuf_string_field(b, "mode", wire_mode_name(p->wire));
	jbuf_string_field(b, "mac", mac);
	jbuf_uint_field(b, "mtu", p->mtu);
	jbuf_string_field(b, "tap", p->tap);
	jbuf_uint_field(b, "tap_ifindex", p->tap_ifindex);
	jbuf_name(b, "vlans");
	jbuf_start_array(b);
	for (int i = 0; i < HWXDPD_VLANS_MAX; i++)
		if (p->vlans[i].used)
			jbuf_uint(b, p->vlans[i].vlan);
	jbuf_end_array(b);
	jbuf_string_field(b, "program", p->prog >= 0 ? d->progs[p->prog].name : NULL);
	if (wire_fallback_reason(p->wire)[0])
		jbuf_string_field(b, "af_xdp_refused", wire_fallback_reason(p->wire));
	jbuf_name(b, "queues");
	jbuf_start_array(b);
	for (int q = 0; q < wire_queues(p->wire); q++) {
		jbuf_start_object(b);
		jbuf_uint_field(b, "queue", (uint64_t)q);
		jbuf_uint_field(b, "rx", wire_queue_frames(p->wire, q));
		jbuf_end_object(b);
	}
	jbuf_end_array(b);
	jbuf_name(b, "counters");
	jbuf_start_object(b);
	jbuf_uint_field(b, "rx", p->c.rx);
	jbuf_uint_field(b, "rx_bytes", p->c.rx_bytes);
	jbuf_uint_field(b, "tx", p->c.tx);
	jbuf_uint_field(b, "tx_bytes", p->c.tx_bytes);
	jbuf_uint_field(b, "punted", p->c.punted);
	jbuf_uint_field(b, "dropped", p->c.dropped);
	jbuf_uint_field(b, "host_tx", p->c.host_tx);
	jbuf_uint_field(b, "errors", p->c.errors);
	jbuf_uint_field(b, "unknown_vlan", p->unknown_vlan);
	jbuf_uint_field(b, "tunnel_held", p->c.tunnel_held);
	if (!wire_drops(p->wire, &drops)) {
		jbuf_uint_field(b, "kernel_rx_dropped", drops.rx_dropped);
		jbuf_uint_field(b, "kernel_rx_ring_full", drops.rx_ring_full);
		jbuf_uint_field(b, "kernel_fill_ring_empty", drops.fill_ring_empty);
		jbuf_uint_field(b, "kernel_tx_invalid", drops.tx_invalid);
	}
	jbuf_end_object(b);
	jbuf_end_object(b);
}
