/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwxdpd, the live appliance: a control socket, wire ports on Linux netdevs
 * with a TAP each, programs on the coprocessor model and, as the host copy,
 * in the kernel. docs/daemon.md describes it.
 *
 * hwxdpd__new makes the socket (and its directory when missing) and the
 * board; hwxdpd__run serves requests until hwxdpd__stop; hwxdpd__free undoes
 * everything the daemon made: ports, TAPs, links, pins, the socket.
 */
#ifndef HWXDP_DAEMON_DAEMON_H
#define HWXDP_DAEMON_DAEMON_H

#include <stddef.h>
#include <stdint.h>

#define HWXDPD_SOCKET_DEFAULT "/run/hwxdp/hwxdpd.sock"
#define HWXDPD_PIN_ROOT	      "/sys/fs/bpf/hwxdp"

struct hwxdpd_opts {
	size_t sz;		 /* sizeof(struct hwxdpd_opts) */
	const char *socket_path; /* NULL: HWXDPD_SOCKET_DEFAULT */
	const char *pin_root;	 /* NULL: HWXDPD_PIN_ROOT */
	uint32_t engines;	 /* 0: the board's default */
	/* A request must arrive whole within frame_ms of its first byte; a
	 * connection without a request for idle_ms is closed. 0: 5 s, 60 s. */
	uint32_t frame_ms, idle_ms;
	/* A made flow without frames for this long is taken off the board.
	 * 0: 30 s. */
	uint32_t flow_idle_ms;
	/* Skip the uid check of peers (tests that run unprivileged). */
	int allow_any_uid;
	/* The configuration kept for a restart; NULL: hwxdpd.state in the
	 * socket's directory. */
	const char *state_path;
	/* Start empty: a state file left by a killed daemon is not replayed
	 * (and is overwritten by the first change). */
	int no_restore;
};

struct hwxdpd;

/* NULL with errno set and the reason in msg. A daemon killed before its
 * hwxdpd__free left a state file: unless opts->no_restore, its ports, LIFs
 * and programs are made again, with the pinned maps' contents, before
 * hwxdpd__new returns. */
struct hwxdpd *hwxdpd__new(const struct hwxdpd_opts *opts, char *msg, size_t msglen);
/* Serves until hwxdpd__stop: 0, or a negative errno when poll fails. */
int hwxdpd__run(struct hwxdpd *d);
/* Async-signal-safe: hwxdpd__run returns soon after. */
void hwxdpd__stop(struct hwxdpd *d);
void hwxdpd__free(struct hwxdpd *d);

#endif /* HWXDP_DAEMON_DAEMON_H */
