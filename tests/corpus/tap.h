/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel as an oracle for a device-bound program, which
 * BPF_PROG_TEST_RUN refuses (-EINVAL): the program bound to a TAP of a
 * network namespace of the thread's own and attached to it in native mode;
 * each frame written to the TAP's fd runs it, and what it sends back
 * (XDP_TX) is read from the fd. A TAP has no receive metadata, so the XDP
 * metadata kfuncs answer -EOPNOTSUPP there, as on the coprocessor. The
 * namespace goes when the oracle is closed, or with the process.
 */
#ifndef HWXDP_TESTS_CORPUS_TAP_H
#define HWXDP_TESTS_CORPUS_TAP_H

#include <stddef.h>
#include <stdint.h>

struct tap_net {
	int home_ns; /* the thread's namespace, to go back to */
	int fd;	     /* the TAP hxkt0 */
	unsigned int ifindex;
	int attached; /* ifindex a program is attached to, or 0 */
};

/* Enters a new namespace and makes the TAP (up, no IPv6, no address: what
 * the program passes goes nowhere): 0, or a negative errno with why. On
 * failure the thread is back in its namespace. */
int tap_net_open(struct tap_net *t, char *why, size_t len);
/* Attaches prog_fd (bound to t->ifindex) in native mode. */
int tap_net_attach(struct tap_net *t, int prog_fd, char *why, size_t len);
/* Sends frame in; *out_len the length of the frame sent back within
 * wait_ms, 0 for none. 0 or a negative errno. */
int tap_net_send(struct tap_net *t, const uint8_t *frame, size_t len, uint8_t *out, size_t cap,
		 size_t *out_len, int wait_ms);
void tap_net_close(struct tap_net *t);

#endif /* HWXDP_TESTS_CORPUS_TAP_H */
