/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A wire port's socket on a Linux netdev: AF_XDP through libxdp where the
 * netdev takes it, AF_PACKET otherwise; frames in batches either way.
 */
#ifndef HWXDP_DAEMON_WIRE_H
#define HWXDP_DAEMON_WIRE_H

#include <stddef.h>
#include <stdint.h>

enum wire_mode {
	WIRE_AUTO,
	WIRE_AF_XDP,
	WIRE_AF_PACKET,
};

/* Frames one rx call returns at most. */
#define WIRE_BATCH 64
/* Receive queues of a netdev that get an AF_XDP socket each, at most;
 * frames on queues beyond reach the netdev's own stack. */
#define WIRE_QUEUES_MAX 16

struct wire_frame {
	const uint8_t *data;
	uint32_t len;
	uint64_t addr; /* the socket's own handle on the buffer */
	uint16_t queue; /* the receive queue it came on */
};

struct wire;

/*
 * Opens the socket on ifname in mode (WIRE_AUTO: AF_XDP, then AF_PACKET
 * when AF_XDP fails, the reason kept for wire_fallback_reason). 0 or a
 * negative errno with the reason in msg.
 */
int wire_open(const char *ifname, uint32_t ifindex, uint32_t mtu, enum wire_mode mode,
	      struct wire **out, char *msg, size_t msglen);
void wire_close(struct wire *w);

/* The receive queues the port reads (AF_XDP: one socket each; AF_PACKET:
 * 1), each one's descriptor to poll and the frames it brought. */
int wire_queues(const struct wire *w);
int wire_queue_fd(const struct wire *w, int queue);
uint64_t wire_queue_frames(const struct wire *w, int queue);
const char *wire_mode_name(const struct wire *w);

/* What the kernel dropped before the daemon saw it (AF_XDP's
 * XDP_STATISTICS; AF_PACKET's PACKET_STATISTICS drops as rx_dropped):
 * 0, or -errno when the socket cannot say. */
struct wire_drops {
	uint64_t rx_dropped, rx_ring_full, fill_ring_empty, tx_invalid;
};
int wire_drops(struct wire *w, struct wire_drops *out);
/* Why an automatic choice is not AF_XDP, or "". */
const char *wire_fallback_reason(const struct wire *w);

/* Up to max frames received (max <= WIRE_BATCH); they stay valid until
 * wire_rx_done. 0 when none is waiting. */
int wire_rx(struct wire *w, struct wire_frame *f, int max);
void wire_rx_done(struct wire *w, const struct wire_frame *f, int n);
/* Sends n frames (copied): how many went. */
int wire_tx(struct wire *w, const uint8_t *const *data, const uint32_t *len, int n);

#endif /* HWXDP_DAEMON_WIRE_H */
