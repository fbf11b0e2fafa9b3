/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control protocol of hwxdpd (docs/daemon.md, "Protocol"): frames on a
 * Unix stream socket, each a fixed header and a payload of `length` bytes.
 * Integers are in the host's byte order: the socket is local.
 *
 *   request payload  u32 argc, then argc NUL-terminated words (the command
 *                    line after `hwxdp`), filling the payload exactly
 *   reply payload    s32 status (0 or a negative errno), u32 message length,
 *                    the message (one line, no NUL), then the JSON body
 *                    (the rest of the payload, possibly empty)
 *
 * A reply carries the sequence number of the request it answers.
 */
#ifndef HWXDP_DAEMON_PROTO_H
#define HWXDP_DAEMON_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define HWXDP_CTL_MAGIC	  0x50445848u /* "HXDP" read as little-endian bytes */
#define HWXDP_CTL_VERSION 1
/* A request's payload at most; replies may be longer (map dumps). */
#define HWXDP_CTL_REQUEST_MAX (64u * 1024)
#define HWXDP_CTL_REPLY_MAX   (16u * 1024 * 1024)
#define HWXDP_CTL_ARGS_MAX    256
#define HWXDP_CTL_MESSAGE_MAX 1024

enum hwxdp_ctl_type {
	HWXDP_CTL_REQUEST = 1,
	HWXDP_CTL_REPLY = 2,
};

struct hwxdp_ctl_hdr {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
	uint32_t flags; /* none defined: 0 */
	uint32_t length;
	uint64_t seq;
};

_Static_assert(sizeof(struct hwxdp_ctl_hdr) == 24, "the header is 24 bytes on the wire");

/*
 * Checks a header received from a peer against what a receiver of
 * expect_type takes, with max payload bytes at most. 0, or a negative errno
 * with the reason in msg: -EBADMSG (bad magic), -EPROTONOSUPPORT (version),
 * -EINVAL (type, flags), -EMSGSIZE (length).
 */
int hwxdp_ctl_check_hdr(const struct hwxdp_ctl_hdr *h, uint16_t expect_type, uint32_t max,
			char *msg, size_t msglen);

/* A request's payload into *out (malloc'd, *out_len bytes). 0, -E2BIG for
 * too many words or more than HWXDP_CTL_REQUEST_MAX bytes, -ENOMEM. */
int hwxdp_ctl_encode_request(int argc, char *const *argv, void **out, size_t *out_len);

/*
 * Parses a request's payload in place: argv[i] point into buf, which must
 * stay. At most HWXDP_CTL_ARGS_MAX words; argv has room for that many and a
 * NULL. 0 or -EINVAL with the reason in msg.
 */
int hwxdp_ctl_parse_request(const void *buf, size_t len, int *argc, const char **argv, char *msg,
			    size_t msglen);

/* A reply's payload: 0 or -ENOMEM / -EMSGSIZE. */
int hwxdp_ctl_encode_reply(int32_t status, const char *message, const char *body, size_t body_len,
			   void **out, size_t *out_len);

struct hwxdp_ctl_reply {
	int32_t status;
	const char *message; /* message_len bytes, not NUL-terminated */
	uint32_t message_len;
	const char *body; /* body_len bytes */
	size_t body_len;
};

/* Parses a reply's payload in place: 0 or -EINVAL with msg. */
int hwxdp_ctl_parse_reply(const void *buf, size_t len, struct hwxdp_ctl_reply *r, char *msg,
			  size_t msglen);

#endif /* HWXDP_DAEMON_PROTO_H */
