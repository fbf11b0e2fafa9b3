// SPDX-License-Identifier: GPL-2.0
/*
 * The control socket: one poll loop over the listening socket and up to
 * HWXDPD_CONNS_MAX connections, every descriptor non-blocking, so that a
 * peer that sends half a frame or stops reading holds nothing but its own
 * connection, and only until its deadline.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "daemon/flows.h"
#include "daemon/internal.h"
#include "daemon/state.h"
#include "device/device.h"

#define FRAME_MS_DEFAULT     5000
#define IDLE_MS_DEFAULT	     60000
#define FLOW_IDLE_MS_DEFAULT 30000

/* A socket at path that nobody answers is left over from a daemon that
 * died: it goes. One that answers belongs to a running daemon. */
static int clear_stale_socket(const char *path, char *msg, size_t msglen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, err;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(msg, msglen, "%s exists and is not a socket", path);
		return -EEXIST;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	err = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ? -errno : 0;
	close(fd);
	if (!err) {
		snprintf(msg, msglen, "another hwxdpd serves %s", path);
		return -EADDRINUSE;
	}
	if (unlink(path) && errno != ENOENT)
		return -errno;
	return 0;
}

static int make_socket(struct hwxdpd *d, char *msg, size_t msglen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char *slash;
	mode_t old;
	int err;

	if (strlen(d->socket_path) >= sizeof(sa.sun_path)) {
		snprintf(msg, msglen, "socket path %s is longer than %zu bytes", d->socket_path,
			 sizeof(sa.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	snprintf(d->socket_dir, sizeof(d->socket_dir), "%s", d->socket_path);
	slash = strrchr(d->socket_dir, '/');
	if (slash && slash != d->socket_dir) {
		*slash = '\0';
		if (!mkdir(d->socket_dir, 0700)) {
			d->made_dir = true;
		} else if (errno != EEXIST) {
			err = -errno;
			snprintf(msg, msglen, "cannot make the socket's directory %s: %s",
				 d->socket_dir, strerror(errno));
			return err;
		}
	} else {
		d->socket_dir[0] = '\0';
	}
	err = clear_stale_socket(d->socket_path, msg, msglen);
	if (err) {
		if (!msg[0])
			snprintf(msg, msglen, "%s: %s", d->socket_path, strerror(-err));
		return err;
	}
	d->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (d->listen_fd < 0)
		return -errno;
	memcpy(sa.sun_path, d->socket_path, strlen(d->socket_path) + 1);
	/* The socket is never, even for an instant, open to others. */
	old = umask(0177);
	err = bind(d->listen_fd, (struct sockaddr *)&sa, sizeof(sa)) ? -errno : 0;
	umask(old);
	if (!err && chmod(d->socket_path, 0600))
		err = -errno;
	if (!err && listen(d->listen_fd, 16))
		err = -errno;
	if (err)
		snprintf(msg, msglen, "cannot listen on %s: %s", d->socket_path, strerror(-err));
	return err;
}

struct hwxdpd *hwxdpd__new(const struct hwxdpd_opts *opts, char *msg, size_t msglen)
{
	struct hwxdp_device_opts dopts = { .sz = sizeof(dopts) };
	struct hwxdpd *d;
	int err;

	msg[0] = '\0';
	if (opts && opts->sz < sizeof(size_t)) {
		snprintf(msg, msglen, "bad options");
		errno = EINVAL;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	d->listen_fd = d->stop_fd = d->dp_wake_fd = d->hk_stop_fd = -1;
	pthread_mutex_init(&d->lock, NULL);
	pthread_mutex_init(&d->sas_lock, NULL);
	snprintf(d->socket_path, sizeof(d->socket_path), "%s",
		 opts && opts->socket_path ? opts->socket_path : HWXDPD_SOCKET_DEFAULT);
	snprintf(d->pin_root, sizeof(d->pin_root), "%s",
		 opts && opts->pin_root ? opts->pin_root : HWXDPD_PIN_ROOT);
	d->frame_ms = opts && opts->frame_ms ? opts->frame_ms : FRAME_MS_DEFAULT;
	d->idle_ms = opts && opts->idle_ms ? opts->idle_ms : IDLE_MS_DEFAULT;
	d->flow_idle_ms = opts && opts->flow_idle_ms ? opts->flow_idle_ms : FLOW_IDLE_MS_DEFAULT;
	d->allow_any_uid = opts && opts->allow_any_uid;
	d->engines = opts ? opts->engines : 0;
	d->started = time(NULL);
	for (int i = 0; i < HWXDPD_PORTS_MAX; i++)
		d->ports[i].tap_fd = -1;
	d->stop_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	d->dp_wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	d->hk_stop_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (d->stop_fd < 0 || d->dp_wake_fd < 0 || d->hk_stop_fd < 0) {
		err = -errno;
		goto fail;
	}
	dopts.engines = d->engines;
	d->board = hwxdp_device__new(&dopts);
	if (!d->board) {
		err = -errno;
		snprintf(msg, msglen, "cannot make the board: %s", strerror(errno));
		goto fail;
	}
	d->flows = flows_new(msg, msglen);
	if (!d->flows) {
		err = -ENOMEM;
		goto fail;
	}
	err = make_socket(d, msg, msglen);
	if (!err) {
		err = upkeep_start(d);
		if (err)
			snprintf(msg, msglen, "cannot start the upkeep thread: %s", strerror(-err));
	}
	if (err)
		goto fail;
	/* The socket is this daemon's: so is the state file next to it. */
	if (opts && opts->state_path)
		snprintf(d->state_path, sizeof(d->state_path), "%s", opts->state_path);
	else if (snprintf(d->state_path, sizeof(d->state_path), "%s%shwxdpd.state", d->socket_dir,
			  d->socket_dir[0] ? "/" : "") >= (int)sizeof(d->state_path))
		d->state_path[0] = '\0';
	if (!(opts && opts->no_restore)) {
		err = state_restore(d);
		if (err)
			fprintf(stderr, "hwxdpd: warning: cannot read %s: %s\n", d->state_path,
				strerror(-err));
	}
	return d;
fail:
	if (!msg[0])
		snprintf(msg, msglen, "%s", strerror(-err));
	hwxdpd__free(d);
	errno = -err;
	return NULL;
}

void hwxdpd__stop(struct hwxdpd *d)
{
	uint64_t one = 1;
	ssize_t n = write(d->stop_fd, &one, sizeof(one));

	(void)n;
}

static void conn_close(struct conn *c)
{
	if (c->state == CONN_FREE)
		return;
	close(c->fd);
	free(c->payload);
	free(c->out);
	memset(c, 0, sizeof(*c));
	c->state = CONN_FREE;
}

/* Queues a reply; close_after when the peer's framing cannot be trusted. */
static void conn_reply(struct conn *c, uint64_t seq, int status, const char *message,
		       const char *body, size_t body_len, bool close_after, uint32_t frame_ms)
{
	struct hwxdp_ctl_hdr h = {
		.magic = HWXDP_CTL_MAGIC,
		.version = HWXDP_CTL_VERSION,
		.type = HWXDP_CTL_REPLY,
		.seq = seq,
	};
	void *payload = NULL;
	size_t len = 0;
	int err;

	err = hwxdp_ctl_encode_reply(status, message, body, body_len, &payload, &len);
	if (err == -EMSGSIZE)
		err = hwxdp_ctl_encode_reply(-EMSGSIZE, "the reply is over the limit of 16 MiB",
					     NULL, 0, &payload, &len);
	c->out = err ? NULL : malloc(sizeof(h) + len);
	if (!c->out) {
		free(payload);
		conn_close(c);
		return;
	}
	h.length = (uint32_t)len;
	memcpy(c->out, &h, sizeof(h));
	memcpy(c->out + sizeof(h), payload, len);
	free(payload);
	c->out_len = sizeof(h) + len;
	c->out_done = 0;
	c->close_after = close_after;
	c->state = CONN_WRITING;
	c->deadline_ms = hwxdpd_now_ms() + frame_ms;
}

static void conn_request(struct hwxdpd *d, struct conn *c)
{
	const char *argv[HWXDP_CTL_ARGS_MAX + 1];
	char msg[HWXDP_CTL_MESSAGE_MAX] = "";
	struct jbuf body;
	int argc, status;

	status = hwxdp_ctl_parse_request(c->payload, c->hdr.length, &argc, argv, msg, sizeof(msg));
	jbuf_init(&body);
	if (!status) {
		status = hwxdpd_dispatch(d, argc, argv, &body, msg, sizeof(msg));
		if (!status)
			state_save(d);
		if (!status && jbuf_error(&body)) {
			status = jbuf_error(&body);
			snprintf(msg, sizeof(msg), "cannot write the reply: %s", strerror(-status));
		}
	}
	if (status && !msg[0])
		snprintf(msg, sizeof(msg), "%s", strerror(-status));
	/* A failed command's body holds its details (a verifier's log), or
	 * is empty. */
	if (jbuf_error(&body))
		jbuf_reset(&body);
	if (!body.len)
		jbuf_start_object(&body), jbuf_end_object(&body);
	conn_reply(c, c->hdr.seq, status, msg, body.data, body.len, false, d->frame_ms);
	jbuf_fini(&body);
	free(c->payload);
	c->payload = NULL;
}

static void conn_read(struct hwxdpd *d, struct conn *c)
{
	char msg[256] = "";

	for (;;) {
		size_t want;
		uint8_t *dst;
		ssize_t n;
		int err;

		if (c->got < sizeof(c->hdr)) {
			want = sizeof(c->hdr) - c->got;
			dst = (uint8_t *)&c->hdr + c->got;
		} else {
			want = sizeof(c->hdr) + c->hdr.length - c->got;
			dst = c->payload + (c->got - sizeof(c->hdr));
		}
		n = want ? recv(c->fd, dst, want, MSG_DONTWAIT) : 0;
		if (want && n == 0) {
			/* The peer left, whole frame or not. */
			conn_close(c);
			return;
		}
		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				conn_close(c);
			return;
		}
		if (c->got == 0)
			c->deadline_ms = hwxdpd_now_ms() + d->frame_ms;
		c->got += (size_t)n;
		if (!c->payload && c->got == sizeof(c->hdr)) {
			err = hwxdp_ctl_check_hdr(&c->hdr, HWXDP_CTL_REQUEST, HWXDP_CTL_REQUEST_MAX,
						  msg, sizeof(msg));
			if (err) {
				conn_reply(c, c->hdr.magic == HWXDP_CTL_MAGIC ? c->hdr.seq : 0, err,
					   msg, "{}", 2, true, d->frame_ms);
				return;
			}
			/* One byte more than asked for, so that length 0 has a buffer. */
			c->payload = malloc(c->hdr.length + 1);
			if (!c->payload) {
				conn_close(c);
				return;
			}
		}
		if (c->payload && c->got == sizeof(c->hdr) + c->hdr.length) {
			c->got = 0;
			conn_request(d, c);
			return;
		}
	}
}

static void conn_write(struct hwxdpd *d, struct conn *c)
{
	while (c->out_done < c->out_len) {
		ssize_t n = send(c->fd, c->out + c->out_done, c->out_len - c->out_done,
				 MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				conn_close(c);
			return;
		}
		c->out_done += (size_t)n;
	}
	free(c->out);
	c->out = NULL;
	if (c->close_after) {
		/* Whatever else the peer sent is not read: it cannot be framed. */
		shutdown(c->fd, SHUT_WR);
		conn_close(c);
		return;
	}
	c->state = CONN_READING;
	c->got = 0;
	c->deadline_ms = hwxdpd_now_ms() + d->idle_ms;
}

static void accept_all(struct hwxdpd *d)
{
	for (;;) {
		struct ucred cred;
		socklen_t len = sizeof(cred);
		struct conn *c = NULL;
		int fd;

		fd = accept4(d->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		for (int i = 0; i < HWXDPD_CONNS_MAX && !c; i++)
			if (d->conns[i].state == CONN_FREE)
				c = &d->conns[i];
		if (!c) {
			close(fd);
			continue;
		}
		memset(c, 0, sizeof(*c));
		c->fd = fd;
		c->state = CONN_READING;
		c->deadline_ms = hwxdpd_now_ms() + d->idle_ms;
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len)) {
			conn_close(c);
			continue;
		}
		c->uid = cred.uid;
		if (cred.uid != 0 && !d->allow_any_uid) {
			char msg[128];

			snprintf(msg, sizeof(msg), "permission denied: uid %u is not root",
				 cred.uid);
			conn_reply(c, 0, -EPERM, msg, "{}", 2, true, d->frame_ms);
		}
	}
}

int hwxdpd__run(struct hwxdpd *d)
{
	struct pollfd pfd[HWXDPD_CONNS_MAX + 2];
	struct conn *who[HWXDPD_CONNS_MAX + 2];

	for (;;) {
		int64_t now = hwxdpd_now_ms(), next = now + 1000;
		int n = 0, free_slots = 0, ret;

		pfd[n++] = (struct pollfd){ .fd = d->stop_fd, .events = POLLIN };
		for (int i = 0; i < HWXDPD_CONNS_MAX; i++) {
			struct conn *c = &d->conns[i];

			if (c->state == CONN_FREE) {
				free_slots++;
				continue;
			}
			if (c->deadline_ms <= now) {
				conn_close(c);
				free_slots++;
				continue;
			}
			if (c->deadline_ms < next)
				next = c->deadline_ms;
			who[n] = c;
			pfd[n++] = (struct pollfd){
				.fd = c->fd,
				.events = c->state == CONN_WRITING ? POLLOUT : POLLIN,
			};
		}
		/* With every slot taken, new peers wait in the backlog. */
		if (free_slots) {
			who[n] = NULL;
			pfd[n++] = (struct pollfd){ .fd = d->listen_fd, .events = POLLIN };
		}
		ret = poll(pfd, (nfds_t)n, (int)(next - now));
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (pfd[0].revents)
			return 0;
		for (int i = 1; i < n; i++) {
			struct conn *c = who[i];

			if (!pfd[i].revents)
				continue;
			if (!c) {
				accept_all(d);
				continue;
			}
			if (c->state == CONN_READING)
				conn_read(d, c);
			else if (c->state == CONN_WRITING)
				conn_write(d, c);
			/* A reply ready at once goes out without another poll. */
			if (c->state == CONN_WRITING)
				conn_write(d, c);
		}
	}
}

void hwxdpd__free(struct hwxdpd *d)
{
	if (!d)
		return;
	for (int i = 0; i < HWXDPD_CONNS_MAX; i++)
		conn_close(&d->conns[i]);
	upkeep_stop(d);
	dataplane_stop(d);
	pthread_mutex_lock(&d->lock);
	ports_free(d);
	progs_free(d);
	pthread_mutex_unlock(&d->lock);
	if (d->made_pin_root)
		rmdir(d->pin_root);
	state_remove(d);
	flows_free(d->flows);
	hwxdp_device__free(d->board);
	if (d->listen_fd >= 0) {
		close(d->listen_fd);
		unlink(d->socket_path);
	}
	if (d->made_dir)
		rmdir(d->socket_dir);
	if (d->stop_fd >= 0)
		close(d->stop_fd);
	if (d->dp_wake_fd >= 0)
		close(d->dp_wake_fd);
	if (d->hk_stop_fd >= 0)
		close(d->hk_stop_fd);
	pthread_mutex_destroy(&d->lock);
	pthread_mutex_destroy(&d->sas_lock);
	free(d);
}
