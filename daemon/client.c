// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "daemon/client.h"
#include "daemon/proto.h"

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Exactly len bytes each way, or -ETIMEDOUT at the deadline. */
static int io_all(int fd, void *buf, size_t len, bool out, int64_t deadline)
{
	size_t done = 0;

	while (done < len) {
		struct pollfd p = { .fd = fd, .events = out ? POLLOUT : POLLIN };
		int64_t left = deadline - now_ms();
		ssize_t n;

		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)left) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!p.revents)
			continue;
		n = out ? send(fd, (char *)buf + done, len - done, MSG_NOSIGNAL | MSG_DONTWAIT)
			: recv(fd, (char *)buf + done, len - done, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -ECONNRESET;
		done += (size_t)n;
	}
	return 0;
}

int hwxdp_ctl_call(const char *socket_path, int argc, char *const *argv, int timeout_ms,
		   struct hwxdp_ctl_result *res, char *msg, size_t msglen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct hwxdp_ctl_hdr h = {
		.magic = HWXDP_CTL_MAGIC,
		.version = HWXDP_CTL_VERSION,
		.type = HWXDP_CTL_REQUEST,
	};
	int64_t deadline = now_ms() + timeout_ms;
	struct hwxdp_ctl_reply r;
	void *req = NULL, *payload = NULL;
	size_t req_len;
	int fd = -1, err;

	memset(res, 0, sizeof(*res));
	if (strlen(socket_path) >= sizeof(sa.sun_path)) {
		snprintf(msg, msglen, "socket path %s is too long", socket_path);
		return -ENAMETOOLONG;
	}
	err = hwxdp_ctl_encode_request(argc, argv, &req, &req_len);
	if (err) {
		snprintf(msg, msglen,
			 "the command is too long for one request (%u bytes, %d words at most)",
			 HWXDP_CTL_REQUEST_MAX, HWXDP_CTL_ARGS_MAX);
		return err;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	memcpy(sa.sun_path, socket_path, strlen(socket_path) + 1);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		snprintf(msg, msglen, "cannot reach hwxdpd at %s: %s%s", socket_path,
			 strerror(errno),
			 errno == ENOENT || errno == ECONNREFUSED ? " (is hwxdpd running?)" : "");
		goto out;
	}
	h.seq = (uint64_t)getpid() << 20 | (uint64_t)(now_ms() & 0xfffff);
	h.length = (uint32_t)req_len;
	err = io_all(fd, &h, sizeof(h), true, deadline);
	if (!err)
		err = io_all(fd, req, req_len, true, deadline);
	/* A daemon that refuses the peer answers before reading: the reply
	 * still waits to be read. */
	if (err == -EPIPE || err == -ECONNRESET)
		err = 0;
	if (err)
		goto io_error;
	{
		struct hwxdp_ctl_hdr rh;
		uint64_t seq = h.seq;

		err = io_all(fd, &rh, sizeof(rh), false, deadline);
		if (err)
			goto io_error;
		err = hwxdp_ctl_check_hdr(&rh, HWXDP_CTL_REPLY, HWXDP_CTL_REPLY_MAX, msg, msglen);
		if (err)
			goto out;
		/* Sequence 0: an answer to the connection, not to a request. */
		if (rh.seq != seq && rh.seq != 0) {
			snprintf(msg, msglen, "a reply to request %llu, not to %llu",
				 (unsigned long long)rh.seq, (unsigned long long)seq);
			err = -EPROTO;
			goto out;
		}
		payload = malloc(rh.length ? rh.length : 1);
		if (!payload) {
			err = -ENOMEM;
			goto out;
		}
		err = io_all(fd, payload, rh.length, false, deadline);
		if (err)
			goto io_error;
		err = hwxdp_ctl_parse_reply(payload, rh.length, &r, msg, msglen);
		if (err)
			goto out;
	}
	res->status = r.status;
	res->message = strndup(r.message, r.message_len);
	res->body = malloc(r.body_len + 1);
	if (!res->message || !res->body) {
		hwxdp_ctl_result__fini(res);
		err = -ENOMEM;
		goto out;
	}
	memcpy(res->body, r.body, r.body_len);
	res->body[r.body_len] = '\0';
	res->body_len = r.body_len;
	err = 0;
	goto out;
io_error:
	snprintf(msg, msglen, "talking to hwxdpd at %s: %s", socket_path,
		 err == -ETIMEDOUT ? "no reply in time" : strerror(-err));
out:
	if (fd >= 0)
		close(fd);
	free(req);
	free(payload);
	return err;
}

void hwxdp_ctl_result__fini(struct hwxdp_ctl_result *res)
{
	free(res->message);
	free(res->body);
	memset(res, 0, sizeof(*res));
}
