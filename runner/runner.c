// SPDX-License-Identifier: GPL-2.0
/* The runner: ports, the board, and the frames between (runner/runner.h). */
#include <errno.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "hwmap/hxu.h"
#include "runner/runner.h"

struct rport {
	bool used;
	uint32_t ifindex;
	const struct hx_port_ops *ops;
	void *ctx;
	struct hx_runner_counts c;
	/* hx_runner__run: the port's next frame, read ahead; ended: rx said
	 * there are no more. */
	bool pending, ended;
	struct hx_rx_frame next;
};

struct hx_runner {
	struct hwxdp_device *board;
	struct hx_runner_opts o;
	struct rport ports[HX_RUNNER_PORTS];
	struct hx_runner_counts gone; /* of ports deleted since */
	/* One batch: the frames as read, where they came from, and room for
	 * them as they leave (and, for hx_runner__run, as they came). */
	struct hwxdp_device_frame f[HX_RUNNER_BATCH];
	struct hx_rx_frame rx[HX_RUNNER_BATCH];
	struct rport *from[HX_RUNNER_BATCH];
	uint8_t (*out)[HXU_WINDOW_SIZE];
	uint8_t (*in)[HXU_FRAME_MAX + 1];
};

struct hx_runner *hx_runner__new(struct hwxdp_device *board, const struct hx_runner_opts *opts)
{
	struct hx_runner *r;

	if (!board || (opts && opts->sz > sizeof(*opts))) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->out = calloc(HX_RUNNER_BATCH, sizeof(*r->out));
	r->in = calloc(HX_RUNNER_BATCH, sizeof(*r->in));
	if (!r->out || !r->in) {
		hx_runner__free(r);
		errno = ENOMEM;
		return NULL;
	}
	r->board = board;
	if (opts)
		memcpy(&r->o, opts, opts->sz);
	return r;
}

void hx_runner__free(struct hx_runner *r)
{
	if (!r)
		return;
	free(r->out);
	free(r->in);
	free(r);
}

static struct rport *port_of(struct hx_runner *r, uint32_t ifindex)
{
	for (int i = 0; i < HX_RUNNER_PORTS; i++)
		if (r->ports[i].used && r->ports[i].ifindex == ifindex)
			return &r->ports[i];
	return NULL;
}

int hx_runner__add_port(struct hx_runner *r, uint32_t ifindex, const struct hx_port_ops *ops,
			void *ctx)
{
	if (!ops || !ops->rx || !ops->send || !ops->punt)
		return -EINVAL;
	if (port_of(r, ifindex))
		return -EEXIST;
	for (int i = 0; i < HX_RUNNER_PORTS; i++) {
		struct rport *p = &r->ports[i];

		if (p->used)
			continue;
		*p = (struct rport){ .used = true, .ifindex = ifindex, .ops = ops, .ctx = ctx };
		return 0;
	}
	return -ENOSPC;
}

static void add_counts(struct hx_runner_counts *to, const struct hx_runner_counts *c)
{
	to->in += c->in;
	to->in_bytes += c->in_bytes;
	to->failed += c->failed;
	for (int k = 0; k < HX_FATE__COUNT; k++)
		to->fate[k] += c->fate[k];
}

void hx_runner__del_port(struct hx_runner *r, uint32_t ifindex)
{
	struct rport *p = port_of(r, ifindex);

	if (!p)
		return;
	if (p->pending && p->ops->rx_done)
		p->ops->rx_done(p->ctx, &p->next, 1);
	add_counts(&r->gone, &p->c);
	memset(p, 0, sizeof(*p));
}

void hx_runner__counts(const struct hx_runner *r, uint32_t ifindex, struct hx_runner_counts *c)
{
	memset(c, 0, sizeof(*c));
	if (!ifindex)
		add_counts(c, &r->gone);
	for (int i = 0; i < HX_RUNNER_PORTS; i++)
		if (r->ports[i].used && (!ifindex || r->ports[i].ifindex == ifindex))
			add_counts(c, &r->ports[i].c);
}

enum hx_fate hx_runner_fate(const struct hwxdp_device_frame *f)
{
	if (f->error == -EINVAL)
		return HX_FATE_INVALID;
	if (f->prog == HWXDP_DEVICE_PROG_NONE)
		return HX_FATE_NO_PROGRAM;
	if (f->error || f->verdict == XDP_ABORTED || f->verdict > XDP_REDIRECT ||
	    f->out_len > f->out_cap)
		return HX_FATE_ABORTED;
	switch (f->verdict) {
	case XDP_DROP:
		return HX_FATE_DROPPED;
	case XDP_PASS:
		return HX_FATE_PUNTED;
	case XDP_REDIRECT:
		/* A redirect to no port is a drop, as in the kernel. */
		return f->egress == HWXDP_EGRESS_NONE ? HX_FATE_DROPPED : HX_FATE_FORWARDED;
	}
	return HX_FATE_FORWARDED;
}

/* Frame f out of the port of egress, or elsewhere: 0 or the send's error;
 * *fate becomes HX_FATE_DROPPED when it goes nowhere. */
static int send_one(struct hx_runner *r, uint32_t egress, const struct hwxdp_device_frame *f,
		    const struct hx_rx_frame *from, enum hx_fate *fate, char *msg, size_t msglen)
{
	struct rport *out = port_of(r, egress);

	if (out)
		return out->ops->send(out->ctx, f->out, f->out_len, from, msg, msglen);
	if (r->o.send_elsewhere)
		return r->o.send_elsewhere(r->o.elsewhere_ctx, egress, f->out, f->out_len, from,
					   msg, msglen);
	*fate = HX_FATE_DROPPED;
	return 0;
}

/* bytes out of the port of egress, or elsewhere: send_one's rules. */
static int send_bytes(struct hx_runner *r, uint32_t egress, const uint8_t *bytes, uint32_t len,
		      const struct hx_rx_frame *from, enum hx_fate *fate, char *msg, size_t msglen)
{
	struct rport *out = port_of(r, egress);

	if (out)
		return out->ops->send(out->ctx, bytes, len, from, msg, msglen);
	if (r->o.send_elsewhere)
		return r->o.send_elsewhere(r->o.elsewhere_ctx, egress, bytes, len, from, msg,
					   msglen);
	*fate = HX_FATE_DROPPED;
	return 0;
}

/* A broadcast: a copy out of each of its ports, through its entry's
 * program where it has one (hwxdp_device__broadcast_copy), each copy that
 * goes told to the fate hook (*told); *fate HX_FATE_DROPPED when none goes
 * (an empty devmap, as the kernel's). 0 or the first send's error. */
static int broadcast(struct hx_runner *r, const struct rport *in,
		     const struct hwxdp_device_frame *f, const struct hx_rx_frame *from,
		     enum hx_fate *fate, bool *told, char *msg, size_t msglen)
{
	static uint8_t copy_buf[HXU_FRAME_MAX];
	struct hwxdp_port_entry some[HWXDP_DEVICE_PORTS], *e = some;
	int n = hwxdp_device__broadcast_entries(r->board, f, e, HWXDP_DEVICE_PORTS);
	int err = 0, first = 0;
	size_t cap = HWXDP_DEVICE_PORTS;

	if (n > HWXDP_DEVICE_PORTS) {
		cap = (size_t)n;
		e = malloc(cap * sizeof(*e));
		n = e ? hwxdp_device__broadcast_entries(r->board, f, e, cap) : -ENOMEM;
	}
	*fate = HX_FATE_DROPPED;
	for (int i = 0; i < n && (size_t)i < cap; i++) {
		enum hx_fate copy = HX_FATE_FORWARDED;
		uint32_t len = 0;

		if (e[i].prog) {
			/* the entry's program dropped this copy: the others go on */
			if (hwxdp_device__broadcast_copy(r->board, f, &e[i], copy_buf,
							 sizeof(copy_buf), &len) != 1)
				continue;
			err = send_bytes(r, e[i].ifindex, copy_buf, len, from, &copy, msg, msglen);
		} else {
			err = send_one(r, e[i].ifindex, f, from, &copy, msg, msglen);
		}
		if (err && !first)
			first = err;
		if (copy != HX_FATE_FORWARDED)
			continue;
		*fate = HX_FATE_FORWARDED;
		*told = true;
		if (r->o.fate)
			r->o.fate(r->o.fate_ctx, in->ifindex, f, copy, e[i].ifindex);
	}
	if (e != some)
		free(e);
	/* a program or table gone since the frame ran: nowhere to go */
	return first ? first : n == -ENOMEM ? n : 0;
}

/* Where each frame of the batch goes; the first error of a port's send or
 * punt in *first_err (msg with it). */
static void dispatch(struct hx_runner *r, int n, int *first_err, char *msg, size_t msglen)
{
	for (int i = 0; i < n; i++) {
		struct hwxdp_device_frame *f = &r->f[i];
		struct rport *in = r->from[i];
		const struct hx_rx_frame *from = &r->rx[i];
		enum hx_fate fate = hx_runner_fate(f);
		uint32_t egress = 0;
		bool told = false;
		int err = 0;

		switch (fate) {
		case HX_FATE_NO_PROGRAM:
			err = in->ops->punt(in->ctx, f, f->data, f->len, from, msg, msglen);
			break;
		case HX_FATE_PUNTED:
			err = in->ops->punt(in->ctx, f, f->out, f->out_len, from, msg, msglen);
			break;
		case HX_FATE_FORWARDED:
			if (f->verdict == XDP_REDIRECT && hwxdp_egress_is_bcast(f->egress)) {
				err = broadcast(r, in, f, from, &fate, &told, msg, msglen);
				break;
			}
			egress = f->verdict == XDP_TX ? in->ifindex : f->egress;
			err = send_one(r, egress, f, from, &fate, msg, msglen);
			break;
		default:
			break;
		}
		in->c.fate[fate]++;
		if (err) {
			in->c.failed++;
			if (!*first_err)
				*first_err = err;
		}
		if (r->o.fate && !told)
			r->o.fate(r->o.fate_ctx, in->ifindex, f, fate, egress);
	}
	for (int i = 0; i < HX_RUNNER_PORTS; i++)
		if (r->ports[i].used && r->ports[i].ops->flush)
			r->ports[i].ops->flush(r->ports[i].ctx);
}

static void frame_in(struct hx_runner *r, int i, struct rport *p, const uint8_t *data)
{
	r->from[i] = p;
	r->f[i] = (struct hwxdp_device_frame){
		.data = data,
		.len = r->rx[i].len,
		.port = p->ifindex,
		.rx_queue = r->rx[i].queue,
		.out = r->out[i],
		.out_cap = HXU_WINDOW_SIZE,
	};
	p->c.in++;
	p->c.in_bytes += r->rx[i].len;
}

/* The board on the batch, then the ran hook: 0 or the board's error. */
static int board_run(struct hx_runner *r, int n)
{
	int err = hwxdp_device__run_batch(r->board, r->f, (size_t)n);

	if (!err && r->o.ran)
		r->o.ran(r->o.ran_ctx, r->f, n);
	return err;
}

int hx_runner__round(struct hx_runner *r, uint32_t ifindex)
{
	struct rport *p = port_of(r, ifindex);
	char ignored[256];
	int n, err = 0;

	if (!p)
		return -ENOENT;
	n = p->ops->rx(p->ctx, r->rx, HX_RUNNER_BATCH, ignored, sizeof(ignored));
	if (n <= 0)
		return n;
	for (int i = 0; i < n; i++)
		frame_in(r, i, p, r->rx[i].data);
	err = board_run(r, n);
	if (!err) {
		dispatch(r, n, &(int){ 0 }, ignored, sizeof(ignored));
	} else {
		/* The board could not run them: each one aborted. */
		for (int i = 0; i < n; i++) {
			p->c.fate[HX_FATE_ABORTED]++;
			if (r->o.fate)
				r->o.fate(r->o.fate_ctx, p->ifindex, &r->f[i], HX_FATE_ABORTED, 0);
		}
	}
	/* Every buffer rx gave goes back, whether the board ran it or not. */
	if (p->ops->rx_done)
		p->ops->rx_done(p->ctx, r->rx, n);
	return err ? err : n;
}

/* The port's next frame read ahead, unless it has one or has ended. */
static int read_ahead(struct rport *p, char *msg, size_t msglen)
{
	int n;

	if (p->pending || p->ended)
		return 0;
	n = p->ops->rx(p->ctx, &p->next, 1, msg, msglen);
	if (n < 0)
		return n;
	p->pending = n > 0;
	p->ended = n == 0;
	return 0;
}

static bool earlier(const struct hx_rx_frame *a, const struct hx_rx_frame *b)
{
	if (a->ts.tv_sec != b->ts.tv_sec)
		return a->ts.tv_sec < b->ts.tv_sec;
	if (a->ts.tv_nsec != b->ts.tv_nsec)
		return a->ts.tv_nsec < b->ts.tv_nsec;
	return a->order < b->order;
}

int hx_runner__run(struct hx_runner *r, char *msg, size_t msglen)
{
	for (;;) {
		int n = 0, err = 0;

		while (n < HX_RUNNER_BATCH) {
			struct rport *best = NULL;

			for (int i = 0; i < HX_RUNNER_PORTS; i++) {
				struct rport *p = &r->ports[i];

				if (!p->used)
					continue;
				err = read_ahead(p, msg, msglen);
				if (err)
					return err;
				if (p->pending && (!best || earlier(&p->next, &best->next)))
					best = p;
			}
			if (!best)
				break;
			/* The bytes are the batch's: the port reads on. */
			r->rx[n] = best->next;
			if (r->rx[n].len > sizeof(r->in[n]))
				r->rx[n].len = sizeof(r->in[n]);
			memcpy(r->in[n], best->next.data, r->rx[n].len);
			r->rx[n].data = r->in[n];
			frame_in(r, n, best, r->in[n]);
			best->pending = false;
			if (best->ops->rx_done)
				best->ops->rx_done(best->ctx, &best->next, 1);
			n++;
		}
		if (!n)
			return 0;
		err = board_run(r, n);
		if (err)
			return err;
		dispatch(r, n, &err, msg, msglen);
		if (err)
			return err;
	}
}
