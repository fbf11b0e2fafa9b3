/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner: frames from ports through the board and each one where its
 * verdict says, for every kind of port. A port is a source of frames and a
 * place for them (struct hx_port_ops): a capture (pcap in and out, offline:
 * cmd/run.c) or a live netdev with its TAPs (the daemon's wire ports). The
 * runner reads a batch, runs it on the board, and hands each frame to the
 * port the verdict names: out of a port (XDP_TX: the ingress; XDP_REDIRECT:
 * the port of the egress ifindex, or the runner's elsewhere; a broadcast:
 * a copy to each of its ports, hwxdp_device__broadcast_ports), to the host of
 * the ingress port (XDP_PASS: a punt, or a port without a program), or
 * nowhere (drop, abort, a frame the board refuses), counting each fate per
 * ingress port. It knows no file, socket or netdev: ports do.
 *
 * Two ways to run: hx_runner__round, one batch from one port (live ports,
 * in the caller's loop), and hx_runner__run, every port until none has a
 * frame, the frames in timestamp order across ports (captures).
 */
#ifndef HWXDP_RUNNER_RUNNER_H
#define HWXDP_RUNNER_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct hwxdp_device;
struct hwxdp_device_frame;

/* Frames one batch holds at most. */
#define HX_RUNNER_BATCH 64
/* Ports of one runner at most (the board's). */
#define HX_RUNNER_PORTS 64

/* A frame as a port brings it. The bytes stay valid until rx_done. */
struct hx_rx_frame {
	const uint8_t *data;
	uint32_t len;
	uint32_t queue;	    /* the receive queue (ctx->rx_queue_index) */
	struct timespec ts; /* when it arrived (captures); zero for live ports */
	uint32_t order;	    /* between equal times, the lower first (a capture's place) */
	uint64_t handle;    /* the port's own: a buffer, a record number */
};

/* What became of a frame, as the runner counts it. */
enum hx_fate {
	HX_FATE_INVALID,    /* a length the board does not take */
	HX_FATE_NO_PROGRAM, /* to the host as it came: the port has no program */
	HX_FATE_ABORTED,    /* XDP_ABORTED, an engine fault, an unknown action */
	HX_FATE_DROPPED,    /* XDP_DROP, or a redirect to no port */
	HX_FATE_PUNTED,	    /* XDP_PASS: to the host */
	HX_FATE_FORWARDED,  /* XDP_TX, XDP_REDIRECT */
	HX_FATE__COUNT,
};

struct hx_runner_counts {
	uint64_t in, in_bytes;
	uint64_t fate[HX_FATE__COUNT];
	uint64_t failed; /* a port's send or punt refused the frame */
};

struct hx_port_ops {
	/* Up to max frames that have arrived: a live port's waiting ones, a
	 * capture's next ones. How many (0: none now, or the end of a
	 * capture), or a negative errno with msg. */
	int (*rx)(void *ctx, struct hx_rx_frame *f, int max, char *msg, size_t msglen);
	/* The frames rx gave, done with (their buffers back). May be NULL. */
	void (*rx_done)(void *ctx, const struct hx_rx_frame *f, int n);
	/* A frame the board sends out of this port: 0, or a negative errno
	 * (counted failed; with hx_runner__run it ends the run, its message
	 * in msg). from is the frame as it came in (its time, its handle).
	 * The bytes are the runner's until the port's flush: a port that
	 * queues keeps the pointer. */
	int (*send)(void *ctx, const uint8_t *data, uint32_t len, const struct hx_rx_frame *from,
		    char *msg, size_t msglen);
	/* A frame the board passed from this port to its host (f says why:
	 * its reason, or no program); data is the frame as it leaves the
	 * board. 0 or a negative errno, as send. */
	int (*punt)(void *ctx, const struct hwxdp_device_frame *f, const uint8_t *data,
		    uint32_t len, const struct hx_rx_frame *from, char *msg, size_t msglen);
	/* After a batch: what send queued goes out. May be NULL. */
	void (*flush)(void *ctx);
};

struct hx_runner_opts {
	size_t sz;
	/* A redirect to an ifindex that is no port of the runner: sent
	 * there (a capture's output takes any), or NULL to drop it. */
	int (*send_elsewhere)(void *ctx, uint32_t ifindex, const uint8_t *data, uint32_t len,
			      const struct hx_rx_frame *from, char *msg, size_t msglen);
	void *elsewhere_ctx;
	/* Every batch after the board ran it, before the frames go (the
	 * daemon watches for the first frame of a new build). May be NULL. */
	void (*ran)(void *ctx, const struct hwxdp_device_frame *f, int n);
	void *ran_ctx;
	/* A frame's fate, after it went (the offline run counts egress); a
	 * broadcast's once per copy that went, with that copy's egress. */
	void (*fate)(void *ctx, uint32_t ingress, const struct hwxdp_device_frame *f,
		     enum hx_fate fate, uint32_t egress);
	void *fate_ctx;
};
#define hx_runner_opts__last_field fate_ctx

struct hx_runner;

/* A runner on board; NULL with errno. */
struct hx_runner *hx_runner__new(struct hwxdp_device *board, const struct hx_runner_opts *opts);
void hx_runner__free(struct hx_runner *r);

/* A port of ifindex (the board's port number); -EEXIST, -ENOSPC. */
int hx_runner__add_port(struct hx_runner *r, uint32_t ifindex, const struct hx_port_ops *ops,
			void *ctx);
/* The port goes; its counts with it. */
void hx_runner__del_port(struct hx_runner *r, uint32_t ifindex);

/* One batch from the port of ifindex: the frames it read (0: none), or a
 * negative errno (an rx error, or the board's). Sends and punts a port
 * refuses are counted, not errors. */
int hx_runner__round(struct hx_runner *r, uint32_t ifindex);

/* Every port until none has a frame, each batch the earliest frames of
 * all ports by their timestamps (ties: the lower order, then the port
 * added first). 0, or the
 * first negative errno of an rx, a send or a punt, with msg. */
int hx_runner__run(struct hx_runner *r, char *msg, size_t msglen);

/* The counts of the frames that came in on a port (ifindex), or of all
 * of them (0). */
void hx_runner__counts(const struct hx_runner *r, uint32_t ifindex, struct hx_runner_counts *c);

/* The fate of one frame the board ran (what the runner does with it). */
enum hx_fate hx_runner_fate(const struct hwxdp_device_frame *f);

#endif /* HWXDP_RUNNER_RUNNER_H */
