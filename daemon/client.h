/* SPDX-License-Identifier: GPL-2.0 */
/* The client side of the control protocol (daemon/proto.h): one request, one reply. */
#ifndef HWXDP_DAEMON_CLIENT_H
#define HWXDP_DAEMON_CLIENT_H

#include <stddef.h>
#include <stdint.h>

struct hwxdp_ctl_result {
	int32_t status; /* the command's: 0 or a negative errno */
	char *message;	/* NUL-terminated, malloc'd */
	char *body;	/* the JSON body, NUL-terminated, malloc'd */
	size_t body_len;
};

/*
 * Sends argv as a request to the daemon at socket_path and waits up to
 * timeout_ms for the reply. 0 with *res filled (free it with
 * hwxdp_ctl_result__fini) or a negative errno with the reason in msg: the
 * daemon unreachable, the reply late or malformed.
 */
int hwxdp_ctl_call(const char *socket_path, int argc, char *const *argv, int timeout_ms,
		   struct hwxdp_ctl_result *res, char *msg, size_t msglen);
void hwxdp_ctl_result__fini(struct hwxdp_ctl_result *res);

#endif /* HWXDP_DAEMON_CLIENT_H */
