// SPDX-License-Identifier: GPL-2.0
/*
 * The board thread: waits on every wire socket and TAP, runs what the
 * wires bring on the board in batches, and sends each frame where the
 * board's verdict says: out a wire port (tx, redirect), into the TAP of
 * the ingress LIF (pass: a punt, or a port without a program) — a frame
 * tagged with a VLAN the port has goes to that VLAN's TAP untagged, any
 * other as it came to the port's — or nowhere (drop, abort). What the host
 * sends on a port's TAP goes out its wire as it is, on a VLAN's TAP tagged
 * with the VLAN. The flow maker sees the punts and what the host routes.
 *
 * It works under d->lock, and polls without it: the control thread changes
 * ports between two rounds, bumps the generation and wakes it, and the
 * thread then polls the new set of descriptors.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "daemon/flows.h"
#include "daemon/internal.h"
#include "daemon/policy.h"
#include "daemon/sa.h"
#include "daemon/wire.h"
#include "device/esp.h"
#include "device/device.h"
#include "hwmap/hxu.h"
#include "hwxdp/fwd.h"
#include "runner/runner.h"

#define POLL_MS	   200
#define BOARD_NICE 0

struct tx_queue {
	const uint8_t *data[WIRE_BATCH];
	uint32_t len[WIRE_BATCH];
	int n;
};

/* A wire port as the runner's port (runner/runner.h). */
struct wire_port {
	struct dataplane *dp;
	struct port *p;
	uint32_t ifindex; /* the runner's port: p's, when it was added */
};

struct dataplane {
	struct hwxdpd *d;
	struct hx_runner *runner; /* the board's frames between wires and TAPs */
	struct wire_port wp[HWXDPD_PORTS_MAX];
	struct wire_frame rx[WIRE_BATCH];
	uint8_t (*host)[HXU_FRAME_MAX];
	struct tx_queue *txq; /* one per port slot */
};

static struct port *port_by_ifindex(struct hwxdpd *d, uint32_t ifindex)
{
	for (int i = 0; i < HWXDPD_PORTS_MAX; i++)
		if (d->ports[i].used && d->ports[i].ifindex == ifindex)
			return &d->ports[i];
	return NULL;
}

static void flush(struct dataplane *dp, struct port *p)
{
	struct tx_queue *q = &dp->txq[p->index];
	int sent;

	if (!q->n)
		return;
	sent = wire_tx(p->wire, q->data, q->len, q->n);
	for (int i = 0; i < sent; i++) {
		p->c.tx++;
		p->c.tx_bytes += q->len[i];
	}
	p->c.errors += (uint64_t)(q->n - sent);
	q->n = 0;
}

static void queue(struct dataplane *dp, struct port *p, const uint8_t *data, uint32_t len)
{
	struct tx_queue *q = &dp->txq[p->index];

	if (q->n == WIRE_BATCH)
		flush(dp, p);
	q->data[q->n] = data;
	q->len[q->n++] = len;
}

static void to_host(struct port *p, const uint8_t *data, uint32_t len)
{
	struct lif *l = NULL;

	if (len >= 18 && data[12] == 0x81 && data[13] == 0x00) {
		uint32_t vid = (uint32_t)(data[14] << 8 | data[15]) & 0xfff;

		l = lif_by_vlan(p, vid);
		if (!l && vid)
			p->unknown_vlan++;
		/* Priority-tagged frames are the port's, untagged. */
		if (l || !vid) {
			struct iovec iov[2] = {
				{ .iov_base = (void *)data, .iov_len = 12 },
				{ .iov_base = (void *)(data + 16), .iov_len = len - 16 },
			};
			int fd = l ? l->tap_fd : p->tap_fd;

			if (writev(fd, iov, 2) == (ssize_t)len - 4) {
				if (l)
					l->punted++;
				else
					p->c.punted++;
			} else if (l) {
				l->errors++;
			} else {
				p->c.errors++;
			}
			return;
		}
	}
	if (write(p->tap_fd, data, len) == (ssize_t)len)
		p->c.punted++;
	else
		p->c.errors++;
}

/* fwd's reasons for punting a frame of a tunnel flow, which must leave
 * encrypted or not at all. */
static bool tunnel_punt(struct hwxdpd *d, const struct port *p, uint32_t reason)
{
	return p->prog >= 0 && d->progs[p->prog].fwd &&
	       (reason == HWXDP_PUNT_IPSEC_OFF || reason == HWXDP_PUNT_SA_STALE ||
		reason == HWXDP_PUNT_NO_CRYPTO || reason == HWXDP_PUNT_ESP_FAILED);
}

/* A tunnel flow's punted frame: to the host when a policy covers it (the
 * host path encrypts what the host routes of it, or holds it), else held.
 * A frame the board could not encrypt may mean an SA spent: its flows go,
 * to be made again on the tunnel's next SA. */
static bool tunnel_to_host(struct hwxdpd *d, struct port *p, uint32_t reason, const uint8_t *frame,
			   uint32_t len)
{
	struct prog *pr = &d->progs[p->prog];

	if (reason == HWXDP_PUNT_ESP_FAILED)
		sas_retire(d, pr);
	return policy_of_frame(pr, frame, len) != NULL;
}

/* The first frame a replacing build ran: the end of the swap. */
static void swap_seen(struct prog *pr, const struct hwxdp_device_frame *f, int n)
{
	for (int i = 0; i < n; i++)
		if (f[i].prog == pr->swap_watch) {
			pr->swap.first_frame_us = (uint64_t)(hwxdpd_now_us() - pr->swap.slots_us);
			pr->swap.first_seen = true;
			pr->swap_watch = HWXDP_DEVICE_PROG_NONE;
			return;
		}
}

/* The runner's side of a wire: frames from its queues, sends queued for
 * the wire, punts to the TAPs. */
static int wire_port_rx(void *ctx, struct hx_rx_frame *f, int max, char *msg, size_t msglen)
{
	struct wire_port *w = ctx;
	struct port *p = w->p;
	int n = wire_rx(p->wire, w->dp->rx, max < WIRE_BATCH ? max : WIRE_BATCH);

	(void)msg;
	(void)msglen;
	for (int i = 0; i < n; i++) {
		const struct wire_frame *r = &w->dp->rx[i];

		p->c.rx++;
		p->c.rx_bytes += r->len;
		f[i] = (struct hx_rx_frame){
			.data = r->data,
			.len = r->len,
			.queue = r->queue,
			.handle = r->addr,
		};
	}
	return n;
}

static void wire_port_rx_done(void *ctx, const struct hx_rx_frame *f, int n)
{
	struct wire_port *w = ctx;

	for (int i = 0; i < n; i++)
		w->dp->rx[i] = (struct wire_frame){
			.data = f[i].data,
			.len = f[i].len,
			.addr = f[i].handle,
			.queue = (uint16_t)f[i].queue,
		};
	wire_rx_done(w->p->wire, w->dp->rx, n);
}

static int wire_port_send(void *ctx, const uint8_t *data, uint32_t len,
			  const struct hx_rx_frame *from, char *msg, size_t msglen)
{
	struct wire_port *w = ctx;

	(void)from;
	(void)msg;
	(void)msglen;
	queue(w->dp, w->p, data, len);
	return 0;
}

static int wire_port_punt(void *ctx, const struct hwxdp_device_frame *f, const uint8_t *data,
			  uint32_t len, const struct hx_rx_frame *from, char *msg, size_t msglen)
{
	struct wire_port *w = ctx;
	struct hwxdpd *d = w->dp->d;
	struct port *p = w->p;

	(void)from;
	(void)msg;
	(void)msglen;
	if (f->prog != HWXDP_DEVICE_PROG_NONE) {
		if (f->reason == HWXDP_PUNT_FLOW_MISS)
			flows_punted(d, p, data, len);
		/* A tunnel flow the board could not encrypt: the host has no
		 * ESP here and would route it in clear. Held. */
		if (tunnel_punt(d, p, f->reason) && !tunnel_to_host(d, p, f->reason, data, len)) {
			p->c.tunnel_held++;
			return 0;
		}
	}
	to_host(p, data, len);
	return 0;
}

static void wire_port_flush(void *ctx)
{
	struct wire_port *w = ctx;

	flush(w->dp, w->p);
}

static const struct hx_port_ops wire_port_ops = {
	.rx = wire_port_rx,
	.rx_done = wire_port_rx_done,
	.send = wire_port_send,
	.punt = wire_port_punt,
	.flush = wire_port_flush,
};

/* What the runner does with frames, in the port's counters. */
static void wire_fate(void *ctx, uint32_t ingress, const struct hwxdp_device_frame *f,
		      enum hx_fate fate, uint32_t egress)
{
	struct port *p = port_by_ifindex(ctx, ingress);

	(void)f;
	(void)egress;
	if (p && (fate == HX_FATE_INVALID || fate == HX_FATE_ABORTED || fate == HX_FATE_DROPPED))
		p->c.dropped++;
}

/* The first frame a replacing build ran ends its swap. */
static void wire_ran(void *ctx, const struct hwxdp_device_frame *f, int n)
{
	struct hwxdpd *d = ctx;
	struct port *p = n ? port_by_ifindex(d, f[0].port) : NULL;

	if (p && p->prog >= 0 && d->progs[p->prog].swap_watch != HWXDP_DEVICE_PROG_NONE)
		swap_seen(&d->progs[p->prog], f, n);
}

/* The runner's ports are the wires in use, again after a change. */
static void runner_ports(struct dataplane *dp)
{
	struct hwxdpd *d = dp->d;

	/* All out first: a slot may hold another port now, or none, and a
	 * netdev may have moved to another slot. */
	for (int i = 0; i < HWXDPD_PORTS_MAX; i++) {
		if (dp->wp[i].p)
			hx_runner__del_port(dp->runner, dp->wp[i].ifindex);
		dp->wp[i].p = NULL;
	}
	for (int i = 0; i < HWXDPD_PORTS_MAX; i++) {
		struct wire_port *w = &dp->wp[i];

		if (!d->ports[i].used)
			continue;
		w->dp = dp;
		w->ifindex = d->ports[i].ifindex;
		if (!hx_runner__add_port(dp->runner, w->ifindex, &wire_port_ops, w))
			w->p = &d->ports[i];
	}
}

/* Room in front of what the host sends: the ESP headers and a tag. */
#define HOST_HEAD (HWXDP_ESP_HEADROOM + 4)

/* What the host sends on the TAP of p's LIF vlan (l, or the port's own),
 * out of p's wire, tagged for a VLAN; a tunnel policy's packets in ESP
 * (daemon/policy.h), or held. */
static int host_round(struct dataplane *dp, struct port *p, struct lif *l)
{
	int n = 0, fd = l ? l->tap_fd : p->tap_fd;
	struct prog *pr = p->prog >= 0 ? &dp->d->progs[p->prog] : NULL;

	while (n < WIRE_BATCH) {
		uint8_t *buf = dp->host[n];
		ssize_t got = read(fd, buf + HOST_HEAD,
				   HXU_FRAME_MAX - HOST_HEAD - HWXDP_ESP_TAILROOM_MAX);
		size_t off = HOST_HEAD, len;

		if (got <= 0)
			break;
		len = (size_t)got;
		n++;
		flows_routed(dp->d, p, l ? l->vlan : 0, buf + off, (uint32_t)len);
		if (pr && pr->pol &&
		    policy_host_out(pr, buf, HXU_FRAME_MAX, &off, &len, l ? l->mtu : p->mtu) ==
			    POLICY_HELD) {
			p->c.tunnel_held++;
			continue;
		}
		if (l && len >= 14) {
			/* The tag goes in after the MACs: 4 bytes to the front. */
			memmove(buf + off - 4, buf + off, 12);
			off -= 4;
			buf[off + 12] = 0x81;
			buf[off + 13] = 0x00;
			buf[off + 14] = (uint8_t)(l->vlan >> 8);
			buf[off + 15] = (uint8_t)l->vlan;
			queue(dp, p, buf + off, (uint32_t)len + 4);
			l->host_tx++;
		} else {
			queue(dp, p, buf + off, (uint32_t)len);
			p->c.host_tx++;
		}
	}
	flush(dp, p);
	return n;
}

static void *dataplane_main(void *arg)
{
	struct dataplane *dp = arg;
	struct hwxdpd *d = dp->d;
#define DP_FDS (1 + (WIRE_QUEUES_MAX + 1 + HWXDPD_VLANS_MAX) * HWXDPD_PORTS_MAX)
	struct pollfd pfd[DP_FDS];
	/* pfd[i] is a TAP of tap_port[i] (the VLAN tap_lif[i], NULL for the
	 * port's own), or a wire's queue when tap_port[i] is NULL */
	struct port *tap_port[DP_FDS];
	struct lif *tap_lif[DP_FDS];
	uint32_t built = UINT32_MAX;
	int n = 0;

	/* The wires' rings hold some 80 ms of frames: the board thread goes
	 * before the control plane and whatever else the host runs. Best
	 * effort: without the right, it runs as it is. */
	if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), BOARD_NICE))
		errno = 0;
	while (!atomic_load(&d->dp_stop)) {
		uint64_t v;
		int busy = 0;

		if (built != atomic_load(&d->generation)) {
			pthread_mutex_lock(&d->lock);
			built = atomic_load(&d->generation);
			runner_ports(dp);
			n = 0;
			pfd[n++] = (struct pollfd){ .fd = d->dp_wake_fd, .events = POLLIN };
			for (int i = 0; i < HWXDPD_PORTS_MAX; i++) {
				struct port *p = &d->ports[i];

				if (!p->used)
					continue;
				for (int q = 0; q < wire_queues(p->wire); q++) {
					tap_port[n] = NULL;
					pfd[n++] = (struct pollfd){
						.fd = wire_queue_fd(p->wire, q),
						.events = POLLIN,
					};
				}
				tap_port[n] = p;
				tap_lif[n] = NULL;
				pfd[n++] = (struct pollfd){ .fd = p->tap_fd, .events = POLLIN };
				for (int j = 0; j < HWXDPD_VLANS_MAX; j++) {
					if (!p->vlans[j].used)
						continue;
					tap_port[n] = p;
					tap_lif[n] = &p->vlans[j];
					pfd[n++] = (struct pollfd){
						.fd = p->vlans[j].tap_fd,
						.events = POLLIN,
					};
				}
			}
			pthread_mutex_unlock(&d->lock);
		}
		if (poll(pfd, (nfds_t)n, POLL_MS) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents && read(d->dp_wake_fd, &v, sizeof(v)) < 0)
			v = 0;
		pthread_mutex_lock(&d->lock);
		if (built == atomic_load(&d->generation)) {
			/* Every wire, not only the ready ones: a round is cheap,
			 * and AF_XDP rings fill without the fd saying so. A TAP
			 * only when poll says it holds a frame: a read that
			 * finds none is a system call per TAP per batch. */
			for (int i = 0; i < HWXDPD_PORTS_MAX; i++)
				if (dp->wp[i].p) {
					int got =
						hx_runner__round(dp->runner, dp->wp[i].p->ifindex);

					busy += got > 0 ? got : 0;
				}
			for (int i = 1; i < n; i++)
				if (tap_port[i] && (pfd[i].revents & POLLIN))
					busy += host_round(dp, tap_port[i], tap_lif[i]);
		}
		pthread_mutex_unlock(&d->lock);
		(void)busy;
	}
	return NULL;
}

int dataplane_start(struct hwxdpd *d)
{
	struct dataplane *dp;
	int err;

	if (d->dp_started)
		return 0;
	dp = calloc(1, sizeof(*dp));
	if (!dp)
		return -ENOMEM;
	dp->d = d;
	dp->runner = hx_runner__new(d->board, &(struct hx_runner_opts){
						      .sz = sizeof(struct hx_runner_opts),
						      .ran = wire_ran,
						      .ran_ctx = d,
						      .fate = wire_fate,
						      .fate_ctx = d,
					      });
	dp->host = calloc(WIRE_BATCH, sizeof(*dp->host));
	dp->txq = calloc(HWXDPD_PORTS_MAX, sizeof(*dp->txq));
	if (!dp->runner || !dp->host || !dp->txq) {
		err = -ENOMEM;
		goto fail;
	}
	atomic_store(&d->dp_stop, false);
	err = -pthread_create(&d->dp_thread, NULL, dataplane_main, dp);
	if (err)
		goto fail;
	d->dp = dp;
	d->dp_started = true;
	return 0;
fail:
	hx_runner__free(dp->runner);
	free(dp->host);
	free(dp->txq);
	free(dp);
	return err;
}

void dataplane_changed(struct hwxdpd *d)
{
	uint64_t one = 1;

	atomic_fetch_add(&d->generation, 1);
	if (write(d->dp_wake_fd, &one, sizeof(one)) < 0)
		return;
}

void dataplane_stop(struct hwxdpd *d)
{
	struct dataplane *dp = d->dp;

	if (!d->dp_started)
		return;
	atomic_store(&d->dp_stop, true);
	dataplane_changed(d);
	pthread_join(d->dp_thread, NULL);
	d->dp_started = false;
	if (dp) {
		hx_runner__free(dp->runner);
		free(dp->host);
		free(dp->txq);
		free(dp);
		d->dp = NULL;
	}
}
