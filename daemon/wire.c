// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <xdp/libxdp.h>
#include <xdp/xsk.h>
#include <bpf/libbpf.h>

#include "base/log.h"
#include "daemon/wire.h"

#define XSK_FRAMES     8192
#define XSK_FRAME_SIZE XSK_UMEM__DEFAULT_FRAME_SIZE
#define XSK_RING       4096
/* a busy queue asked again every 100 ms for 3 s (a killed owner's release) */
#define XSK_BUSY_TRIES	 30
#define XSK_BUSY_WAIT_US 100000
/* AF_XDP frames are one page: larger MTUs go to AF_PACKET. */
#define XSK_MTU_MAX   3498
#define PKT_FRAME_MAX 9216 + 64

/* One receive queue's AF_XDP socket, with a umem of its own. */
struct xq {
	void *area;
	struct xsk_umem *umem;
	struct xsk_socket *xsk;
	struct xsk_ring_prod fq, tx;
	struct xsk_ring_cons cq, rx;
	uint64_t *free_addrs; /* frames for tx */
	uint32_t free_cnt;
	uint32_t tx_outstanding;
	uint64_t frames; /* received */
	int fd;
};

struct wire {
	enum wire_mode mode;
	int fd;
	char fallback[256];
	/* AF_XDP: a socket per receive queue; tx goes out on the first */
	struct xq q[WIRE_QUEUES_MAX];
	int nq;
	int next; /* the queue a round starts at */
	/* AF_PACKET */
	uint8_t (*bufs)[PKT_FRAME_MAX];
	struct mmsghdr msgs[WIRE_BATCH];
	struct iovec iov[WIRE_BATCH];
	uint64_t pkt_drops; /* PACKET_STATISTICS so far */
};

static void xq_fini(struct xq *q)
{
	if (q->xsk)
		xsk_socket__delete(q->xsk);
	if (q->umem)
		xsk_umem__delete(q->umem);
	if (q->area)
		munmap(q->area, (size_t)XSK_FRAMES * XSK_FRAME_SIZE);
	free(q->free_addrs);
	memset(q, 0, sizeof(*q));
}

static void xsk_fini(struct wire *w)
{
	for (int i = 0; i < WIRE_QUEUES_MAX; i++)
		xq_fini(&w->q[i]);
	w->nq = 0;
}

static int xq_open(struct xq *q, const char *ifname, uint32_t queue, char *msg, size_t msglen)
{
	struct xsk_umem_config ucfg = {
		.fill_size = XSK_RING,
		.comp_size = XSK_RING,
		.frame_size = XSK_FRAME_SIZE,
	};
	struct xsk_socket_config scfg = {
		.rx_size = XSK_RING,
		.tx_size = XSK_RING,
	};
	size_t size = (size_t)XSK_FRAMES * XSK_FRAME_SIZE;
	uint32_t idx, i;
	int err;

	q->area = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q->area == MAP_FAILED) {
		q->area = NULL;
		return -errno;
	}
	q->free_addrs = calloc(XSK_FRAMES, sizeof(*q->free_addrs));
	if (!q->free_addrs)
		return -ENOMEM;
	err = xsk_umem__create(&q->umem, q->area, size, &q->fq, &q->cq, &ucfg);
	if (err) {
		snprintf(msg, msglen, "AF_XDP umem: %s", strerror(-err));
		q->umem = NULL;
		return err;
	}
	/* The queue of a socket whose process was just killed stays bound
	 * until the kernel's deferred release of it: a restart asks again
	 * for a while before it calls the queue busy. */
	for (int tries = 0;; tries++) {
		err = xsk_socket__create(&q->xsk, ifname, queue, q->umem, &q->rx, &q->tx, &scfg);
		if (err != -EBUSY || tries == XSK_BUSY_TRIES)
			break;
		usleep(XSK_BUSY_WAIT_US);
	}
	if (err) {
		snprintf(msg, msglen, "AF_XDP socket on %s queue %u: %s", ifname, queue,
			 strerror(-err));
		q->xsk = NULL;
		return err;
	}
	/* Half the frames wait in the fill ring for arrivals, half for tx. */
	if (xsk_ring_prod__reserve(&q->fq, XSK_RING, &idx) != XSK_RING) {
		snprintf(msg, msglen, "AF_XDP fill ring on %s queue %u", ifname, queue);
		return -ENOSPC;
	}
	for (i = 0; i < XSK_RING; i++)
		*xsk_ring_prod__fill_addr(&q->fq, idx + i) = (uint64_t)i * XSK_FRAME_SIZE;
	xsk_ring_prod__submit(&q->fq, XSK_RING);
	for (i = XSK_RING; i < XSK_FRAMES; i++)
		q->free_addrs[q->free_cnt++] = (uint64_t)i * XSK_FRAME_SIZE;
	q->fd = xsk_socket__fd(q->xsk);
	return 0;
}

/* The netdev's receive queues, as the kernel has them now
 * (/sys/class/net/IF/queues/rx-N); 1 when it cannot say. */
static int rx_queues(const char *ifname)
{
	char path[128];
	int n = 0;

	while (n < WIRE_QUEUES_MAX) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/queues/rx-%d", ifname, n);
		if (access(path, F_OK))
			break;
		n++;
	}
	return n ? n : 1;
}

static int xsk_open(struct wire *w, const char *ifname, char *msg, size_t msglen)
{
	int nq = rx_queues(ifname), err;

	for (int i = 0; i < nq; i++) {
		err = xq_open(&w->q[i], ifname, (uint32_t)i, msg, msglen);
		if (err)
			return err;
		w->nq = i + 1;
	}
	w->fd = w->q[0].fd;
	w->mode = WIRE_AF_XDP;
	return 0;
}

static int packet_open(struct wire *w, uint32_t ifindex, const char *ifname, char *msg,
		       size_t msglen)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = (int)ifindex,
	};
	int one = 1, err;

	w->bufs = calloc(WIRE_BATCH, sizeof(*w->bufs));
	if (!w->bufs)
		return -ENOMEM;
	w->fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (w->fd < 0) {
		err = -errno;
		snprintf(msg, msglen, "AF_PACKET socket: %s", strerror(errno));
		return err;
	}
	/* What the daemon sends is not read back as arriving. */
	if (setsockopt(w->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one)) ||
	    bind(w->fd, (struct sockaddr *)&sll, sizeof(sll))) {
		err = -errno;
		snprintf(msg, msglen, "AF_PACKET on %s: %s", ifname, strerror(errno));
		return err;
	}
	w->mode = WIRE_AF_PACKET;
	return 0;
}

void wire_close(struct wire *w)
{
	if (!w)
		return;
	if (w->mode == WIRE_AF_XDP)
		xsk_fini(w);
	else if (w->fd >= 0)
		close(w->fd);
	free(w->bufs);
	free(w);
}

int wire_open(const char *ifname, uint32_t ifindex, uint32_t mtu, enum wire_mode mode,
	      struct wire **out, char *msg, size_t msglen)
{
	struct wire *w = calloc(1, sizeof(*w));
	int err = -EOPNOTSUPP;

	if (!w)
		return -ENOMEM;
	/* libxdp's trials (its dispatcher, then one program) are its own
	 * business; what came of them is the port's mode and fallback. */
	libxdp_set_print(NULL);
	w->fd = -1;
	if (mode == WIRE_AF_XDP || mode == WIRE_AUTO) {
		if (mtu > XSK_MTU_MAX) {
			snprintf(msg, msglen, "MTU %u is over AF_XDP's %u on one page", mtu,
				 XSK_MTU_MAX);
			err = -EMSGSIZE;
		} else {
			/* libbpf's words on libxdp's trials likewise */
			libbpf_set_print(NULL);
			err = xsk_open(w, ifname, msg, msglen);
			hwxdp_route_libbpf_print();
		}
		if (err) {
			xsk_fini(w);
			w->mode = WIRE_AUTO;
		}
		if (err && mode == WIRE_AUTO) {
			snprintf(w->fallback, sizeof(w->fallback), "%s", msg);
			msg[0] = '\0';
		}
	}
	if (err && mode != WIRE_AF_XDP)
		err = packet_open(w, ifindex, ifname, msg, msglen);
	if (err) {
		wire_close(w);
		return err;
	}
	*out = w;
	return 0;
}

int wire_drops(struct wire *w, struct wire_drops *out)
{
	memset(out, 0, sizeof(*out));
	if (!w)
		return -EINVAL;
	if (w->mode == WIRE_AF_XDP) {
		for (int i = 0; i < w->nq; i++) {
			struct xdp_statistics st = { 0 };
			socklen_t len = sizeof(st);

			if (getsockopt(w->q[i].fd, SOL_XDP, XDP_STATISTICS, &st, &len))
				return -errno;
			out->rx_dropped += st.rx_dropped + st.rx_invalid_descs;
			out->rx_ring_full += st.rx_ring_full;
			out->fill_ring_empty += st.rx_fill_ring_empty_descs;
			out->tx_invalid += st.tx_invalid_descs;
		}
		return 0;
	}
	/* PACKET_STATISTICS counts since the last read: kept here. */
	{
		struct tpacket_stats st = { 0 };
		socklen_t len = sizeof(st);

		if (getsockopt(w->fd, SOL_PACKET, PACKET_STATISTICS, &st, &len))
			return -errno;
		w->pkt_drops += st.tp_drops;
		out->rx_dropped = w->pkt_drops;
	}
	return 0;
}

const char *wire_mode_name(const struct wire *w)
{
	return w->mode == WIRE_AF_XDP ? "af_xdp" : "af_packet";
}

const char *wire_fallback_reason(const struct wire *w)
{
	return w->fallback;
}

int wire_queues(const struct wire *w)
{
	return w->mode == WIRE_AF_XDP ? w->nq : 1;
}

int wire_queue_fd(const struct wire *w, int queue)
{
	return w->mode == WIRE_AF_XDP ? w->q[queue].fd : w->fd;
}

uint64_t wire_queue_frames(const struct wire *w, int queue)
{
	return w->mode == WIRE_AF_XDP ? w->q[queue].frames : 0;
}

/* The queues in turn from w->next, so that a busy one does not starve
 * the others: each gives what it holds until the batch is full. */
static int xsk_rx(struct wire *w, struct wire_frame *f, int max)
{
	int got = 0;

	for (int k = 0; k < w->nq && got < max; k++) {
		int qi = (w->next + k) % w->nq;
		struct xq *q = &w->q[qi];
		uint32_t idx, n = xsk_ring_cons__peek(&q->rx, (uint32_t)(max - got), &idx);

		for (uint32_t i = 0; i < n; i++) {
			const struct xdp_desc *desc = xsk_ring_cons__rx_desc(&q->rx, idx + i);

			f[got].addr = desc->addr;
			f[got].data = xsk_umem__get_data(q->area, desc->addr);
			f[got].len = desc->len;
			f[got].queue = (uint16_t)qi;
			got++;
		}
		if (n)
			xsk_ring_cons__release(&q->rx, n);
		q->frames += n;
	}
	w->next = w->nq ? (w->next + 1) % w->nq : 0;
	return got;
}

int wire_rx(struct wire *w, struct wire_frame *f, int max)
{
	if (max > WIRE_BATCH)
		max = WIRE_BATCH;
	if (w->mode == WIRE_AF_XDP)
		return xsk_rx(w, f, max);
	for (int i = 0; i < max; i++) {
		w->iov[i] = (struct iovec){ .iov_base = w->bufs[i], .iov_len = PKT_FRAME_MAX };
		w->msgs[i] =
			(struct mmsghdr){ .msg_hdr = { .msg_iov = &w->iov[i], .msg_iovlen = 1 } };
	}
	int n = recvmmsg(w->fd, w->msgs, (unsigned int)max, MSG_DONTWAIT, NULL);

	if (n < 0)
		return 0;
	for (int i = 0; i < n; i++) {
		f[i].data = w->bufs[i];
		f[i].len = w->msgs[i].msg_len;
		f[i].addr = (uint64_t)i;
		f[i].queue = 0;
	}
	return n;
}

/* Gives the n frames of f that came from queue qi back to its fill ring. */
static void xq_refill(struct xq *q, const struct wire_frame *f, int n, int qi)
{
	uint32_t idx, want = 0, k = 0;

	for (int i = 0; i < n; i++)
		want += f[i].queue == qi;
	if (!want)
		return;
	/* The fill ring has room for every frame rx gave out: its size is
	 * the number of receive buffers. Should it not, the buffers are lost
	 * rather than the thread spinning. */
	if (xsk_ring_prod__reserve(&q->fq, want, &idx) != want)
		return;
	for (int i = 0; i < n; i++)
		if (f[i].queue == qi)
			*xsk_ring_prod__fill_addr(&q->fq, idx + k++) =
				f[i].addr - f[i].addr % XSK_FRAME_SIZE;
	xsk_ring_prod__submit(&q->fq, want);
	if (xsk_ring_prod__needs_wakeup(&q->fq))
		recvfrom(q->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
}

void wire_rx_done(struct wire *w, const struct wire_frame *f, int n)
{
	if (w->mode != WIRE_AF_XDP || n <= 0)
		return;
	for (int qi = 0; qi < w->nq; qi++)
		xq_refill(&w->q[qi], f, n, qi);
}

static void xsk_reap(struct xq *q)
{
	uint32_t idx, n = xsk_ring_cons__peek(&q->cq, XSK_RING, &idx);

	for (uint32_t i = 0; i < n; i++)
		q->free_addrs[q->free_cnt++] = *xsk_ring_cons__comp_addr(&q->cq, idx + i);
	if (n)
		xsk_ring_cons__release(&q->cq, n);
	q->tx_outstanding -= n;
}

int wire_tx(struct wire *w, const uint8_t *const *data, const uint32_t *len, int n)
{
	int sent = 0;

	if (n <= 0)
		return 0;
	if (w->mode == WIRE_AF_XDP) {
		struct xq *q = &w->q[0];
		uint32_t idx, want, i;

		xsk_reap(q);
		want = (uint32_t)n < q->free_cnt ? (uint32_t)n : q->free_cnt;
		want = xsk_ring_prod__reserve(&q->tx, want, &idx);
		for (i = 0; i < want; i++) {
			struct xdp_desc *desc = xsk_ring_prod__tx_desc(&q->tx, idx + i);
			uint64_t addr = q->free_addrs[--q->free_cnt];
			uint32_t l = len[i] > XSK_FRAME_SIZE ? XSK_FRAME_SIZE : len[i];

			memcpy(xsk_umem__get_data(q->area, addr), data[i], l);
			desc->addr = addr;
			desc->len = l;
		}
		if (!want)
			return 0;
		xsk_ring_prod__submit(&q->tx, want);
		q->tx_outstanding += want;
		/* Copy mode sends only when told to. */
		sendto(q->fd, NULL, 0, MSG_DONTWAIT, NULL, 0);
		return (int)want;
	}
	{
		struct mmsghdr msgs[WIRE_BATCH];
		struct iovec iov[WIRE_BATCH];

		while (sent < n) {
			int m = n - sent > WIRE_BATCH ? WIRE_BATCH : n - sent, r;

			for (int i = 0; i < m; i++) {
				iov[i] = (struct iovec){ .iov_base = (void *)data[sent + i],
							 .iov_len = len[sent + i] };
				msgs[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov[i],
									 .msg_iovlen = 1 } };
			}
			r = sendmmsg(w->fd, msgs, (unsigned int)m, MSG_DONTWAIT);
			if (r <= 0)
				break;
			sent += r;
		}
	}
	return sent;
}
