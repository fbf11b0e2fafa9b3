// SPDX-License-Identifier: GPL-2.0
/*
 * The control socket of hwxdpd: requests and replies as the protocol says
 * (docs/daemon.md), and frames that break it answered or closed, never
 * crashing or hanging the daemon.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/client.h"
#include "daemon/daemon.h"
#include "daemon/proto.h"

static char dir[64], sock_path[128];
static struct hwxdpd *daemon_under_test;
static pthread_t server;

static void *serve(void *arg)
{
	hwxdpd__run(arg);
	return NULL;
}

static void start(void)
{
	struct hwxdpd_opts opts = {
		.sz = sizeof(opts),
		.frame_ms = 300,
		.idle_ms = 2000,
		.pin_root = "/nonexistent/hwxdp-test-pins",
	};
	char msg[256];

	snprintf(dir, sizeof(dir), "/tmp/hwxdpd-test.%d", getpid());
	snprintf(sock_path, sizeof(sock_path), "%s/ctl.sock", dir);
	opts.socket_path = sock_path;
	/* Unprivileged runs test the protocol; the uid check needs root. */
	opts.allow_any_uid = geteuid() != 0;
	daemon_under_test = hwxdpd__new(&opts, msg, sizeof(msg));
	cr_assert(daemon_under_test, "hwxdpd__new: %s", msg);
	cr_assert_eq(pthread_create(&server, NULL, serve, daemon_under_test), 0);
}

static void stop(void)
{
	hwxdpd__stop(daemon_under_test);
	pthread_join(server, NULL);
	hwxdpd__free(daemon_under_test);
}

TestSuite(control, .init = start, .fini = stop, .timeout = 30);

static int connect_raw(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	cr_assert_geq(fd, 0);
	strcpy(sa.sun_path, sock_path);
	cr_assert_eq(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0, "connect: %s",
		     strerror(errno));
	return fd;
}

static void send_all(int fd, const void *buf, size_t len)
{
	cr_assert_eq(send(fd, buf, len, MSG_NOSIGNAL), (ssize_t)len);
}

/* Reads one reply within 3 s: its status, message and header. */
static int read_reply(int fd, struct hwxdp_ctl_hdr *h, char *message, size_t cap)
{
	struct hwxdp_ctl_reply r;
	char payload[8192], msg[256];
	size_t got = 0;

	struct timeval tv = { .tv_sec = 3 };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	while (got < sizeof(*h)) {
		ssize_t n = recv(fd, (char *)h + got, sizeof(*h) - got, 0);

		cr_assert_gt(n, 0, "no reply header (%zd, %s)", n, strerror(errno));
		got += (size_t)n;
	}
	cr_assert_eq(hwxdp_ctl_check_hdr(h, HWXDP_CTL_REPLY, sizeof(payload), msg, sizeof(msg)), 0,
		     "%s", msg);
	for (got = 0; got < h->length;) {
		ssize_t n = recv(fd, payload + got, h->length - got, 0);

		cr_assert_gt(n, 0);
		got += (size_t)n;
	}
	cr_assert_eq(hwxdp_ctl_parse_reply(payload, h->length, &r, msg, sizeof(msg)), 0, "%s", msg);
	snprintf(message, cap, "%.*s", (int)r.message_len, r.message);
	return r.status;
}

/* The peer closed: recv sees the end, not a timeout. */
static void assert_closed(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char c;

	cr_assert_eq(poll(&p, 1, 3000), 1, "the daemon kept the connection open");
	cr_assert_eq(recv(fd, &c, 1, MSG_DONTWAIT), 0);
}

static struct hwxdp_ctl_hdr request_hdr(uint32_t len, uint64_t seq)
{
	return (struct hwxdp_ctl_hdr){
		.magic = HWXDP_CTL_MAGIC,
		.version = HWXDP_CTL_VERSION,
		.type = HWXDP_CTL_REQUEST,
		.length = len,
		.seq = seq,
	};
}

Test(control, status_round_trip)
{
	char *argv[] = { "daemon", "status" }, msg[256];
	struct hwxdp_ctl_result res;

	cr_assert_eq(hwxdp_ctl_call(sock_path, 2, argv, 3000, &res, msg, sizeof(msg)), 0, "%s",
		     msg);
	cr_assert_eq(res.status, 0, "%s", res.message);
	cr_assert(strstr(res.body, "\"protocol\":1"), "%s", res.body);
	cr_assert(strstr(res.body, sock_path), "%s", res.body);
	hwxdp_ctl_result__fini(&res);
}

Test(control, abbreviation_and_unknown_words)
{
	char *ok[] = { "d", "st" }, *bad[] = { "daemon", "frobnicate" }, msg[256];
	struct hwxdp_ctl_result res;

	cr_assert_eq(hwxdp_ctl_call(sock_path, 2, ok, 3000, &res, msg, sizeof(msg)), 0);
	cr_assert_eq(res.status, 0, "%s", res.message);
	hwxdp_ctl_result__fini(&res);
	cr_assert_eq(hwxdp_ctl_call(sock_path, 2, bad, 3000, &res, msg, sizeof(msg)), 0);
	cr_assert_eq(res.status, -EINVAL);
	cr_assert(strstr(res.message, "'frobnicate'"), "%s", res.message);
	cr_assert_str_eq(res.body, "{}");
	hwxdp_ctl_result__fini(&res);
}

Test(control, socket_and_directory_modes)
{
	struct stat st;

	cr_assert_eq(stat(sock_path, &st), 0);
	cr_assert(S_ISSOCK(st.st_mode));
	cr_assert_eq(st.st_mode & 0777, 0600, "socket mode %o", st.st_mode & 0777);
	cr_assert_eq(stat(dir, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0700, "directory mode %o", st.st_mode & 0777);
}

Test(control, unknown_version_is_refused_and_closed)
{
	struct hwxdp_ctl_hdr h = request_hdr(0, 7), r;
	char msg[256];
	int fd = connect_raw();

	h.version = 9;
	send_all(fd, &h, sizeof(h));
	cr_assert_eq(read_reply(fd, &r, msg, sizeof(msg)), -EPROTONOSUPPORT);
	cr_assert(strstr(msg, "version 9"), "%s", msg);
	cr_assert_eq(r.seq, 7);
	assert_closed(fd);
	close(fd);
}

Test(control, bad_magic_and_bad_type)
{
	struct hwxdp_ctl_hdr h = request_hdr(0, 1), r;
	char msg[256];
	int fd = connect_raw();

	h.magic = 0x12345678;
	send_all(fd, &h, sizeof(h));
	cr_assert_eq(read_reply(fd, &r, msg, sizeof(msg)), -EBADMSG);
	assert_closed(fd);
	close(fd);

	fd = connect_raw();
	h = request_hdr(0, 2);
	h.type = HWXDP_CTL_REPLY;
	send_all(fd, &h, sizeof(h));
	cr_assert_eq(read_reply(fd, &r, msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "type 2"), "%s", msg);
	close(fd);
}

Test(control, oversized_length_is_refused_without_reading_it)
{
	struct hwxdp_ctl_hdr h = request_hdr(HWXDP_CTL_REQUEST_MAX + 1, 3), r;
	char msg[256];
	int fd = connect_raw();

	send_all(fd, &h, sizeof(h));
	cr_assert_eq(read_reply(fd, &r, msg, sizeof(msg)), -EMSGSIZE);
	cr_assert(strstr(msg, "65537"), "%s", msg);
	assert_closed(fd);
	close(fd);
}

Test(control, truncated_frame_times_out_and_others_are_served)
{
	struct hwxdp_ctl_hdr h = request_hdr(100, 4);
	char *argv[] = { "daemon", "status" }, msg[256];
	struct hwxdp_ctl_result res;
	int fd = connect_raw();

	/* Half a header, then half a payload on another connection. */
	send_all(fd, &h, 10);
	int fd2 = connect_raw();
	send_all(fd2, &h, sizeof(h));
	send_all(fd2, "abc", 3);
	/* The daemon answers a third peer meanwhile. */
	cr_assert_eq(hwxdp_ctl_call(sock_path, 2, argv, 3000, &res, msg, sizeof(msg)), 0, "%s",
		     msg);
	cr_assert_eq(res.status, 0);
	hwxdp_ctl_result__fini(&res);
	assert_closed(fd);
	assert_closed(fd2);
	close(fd);
	close(fd2);
}

Test(control, malformed_words_get_an_error_and_the_connection_stays)
{
	struct hwxdp_ctl_hdr h, r;
	uint8_t payload[12];
	uint32_t two = 2;
	char msg[256];
	int fd = connect_raw();

	/* Two words announced, the second without its NUL. */
	memcpy(payload, &two, 4);
	memcpy(payload + 4, "daemon\0s", 8);
	h = request_hdr(sizeof(payload), 5);
	send_all(fd, &h, sizeof(h));
	send_all(fd, payload, sizeof(payload));
	cr_assert_eq(read_reply(fd, &r, msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "word 2 of 2"), "%s", msg);
	cr_assert_eq(r.seq, 5);

	/* An empty payload: no word count. */
	h = request_hdr(0, 6);
	send_all(fd, &h, sizeof(h));
	cr_assert_eq(read_reply(fd, &r, msg, sizeof(msg)), -EINVAL);

	/* The framing held: a good request on the same connection works. */
	{
		uint8_t good[4 + 14];
		memcpy(good, &two, 4);
		memcpy(good + 4, "daemon\0status\0", 14);
		h = request_hdr(sizeof(good), 8);
		send_all(fd, &h, sizeof(h));
		send_all(fd, good, sizeof(good));
	}
	cr_assert_eq(read_reply(fd, &r, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(r.seq, 8);
	close(fd);
}

Test(control, non_root_peer_gets_eperm)
{
	char *argv[] = { "daemon", "status" };
	int status;
	pid_t pid;

	if (geteuid() != 0)
		cr_skip_test("needs root: a peer of another uid is made with setuid");
	/* Open the file to others so that only the daemon's check stands. */
	cr_assert_eq(chmod(dir, 0755), 0);
	cr_assert_eq(chmod(sock_path, 0666), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct hwxdp_ctl_result res;
		char msg[256];

		if (setgid(65534) || setuid(65534))
			_exit(10);
		if (hwxdp_ctl_call(sock_path, 2, argv, 3000, &res, msg, sizeof(msg)))
			_exit(11);
		if (res.status != -EPERM || !strstr(res.message, "uid 65534"))
			_exit(12);
		_exit(0);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status));
	cr_assert_eq(WEXITSTATUS(status), 0,
		     "the nobody client: 10 setuid failed, 11 no reply, 12 not EPERM (got %d)",
		     WEXITSTATUS(status));
}
