// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <bpf/libbpf.h>
#include <linux/if_link.h>
#include <linux/if_tun.h>

#include "tests/corpus/live.h"
#include "tests/corpus/tap.h"

#define TAP_NAME "hxkt0"

static int say(char *why, size_t len, int err, const char *what)
{
	snprintf(why, len, "%s: %s", what, strerror(-err));
	return err;
}

static int make_tap(struct tap_net *t, char *why, size_t len)
{
	struct ifreq ifr;
	int sock, err = 0;

	t->fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (t->fd < 0)
		return say(why, len, -errno, "/dev/net/tun");
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", TAP_NAME);
	if (ioctl(t->fd, TUNSETIFF, &ifr))
		return say(why, len, -errno, "TUNSETIFF " TAP_NAME);
	/* no router solicitations or MLD reports to read back */
	live_sysctl_write("/proc/sys/net/ipv6/conf/" TAP_NAME "/disable_ipv6", "1");
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return say(why, len, -errno, "a socket for SIOCSIFFLAGS");
	if (ioctl(sock, SIOCGIFFLAGS, &ifr))
		err = -errno;
	ifr.ifr_flags |= IFF_UP;
	if (!err && ioctl(sock, SIOCSIFFLAGS, &ifr))
		err = -errno;
	close(sock);
	if (err)
		return say(why, len, err, TAP_NAME " up");
	t->ifindex = if_nametoindex(TAP_NAME);
	return t->ifindex ? 0 : say(why, len, -errno, TAP_NAME);
}

int tap_net_open(struct tap_net *t, char *why, size_t len)
{
	int err;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->home_ns = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (t->home_ns < 0)
		return say(why, len, -errno, "/proc/thread-self/ns/net");
	if (unshare(CLONE_NEWNET)) {
		err = say(why, len, -errno, "a network namespace");
		close(t->home_ns);
		t->home_ns = -1;
		return err;
	}
	err = make_tap(t, why, len);
	if (err)
		tap_net_close(t);
	return err;
}

int tap_net_attach(struct tap_net *t, int prog_fd, char *why, size_t len)
{
	int err = bpf_xdp_attach((int)t->ifindex, prog_fd, XDP_FLAGS_DRV_MODE, NULL);

	if (err)
		return say(why, len, err, "native XDP on " TAP_NAME);
	t->attached = (int)t->ifindex;
	return 0;
}

int tap_net_send(struct tap_net *t, const uint8_t *frame, size_t len, uint8_t *out, size_t cap,
		 size_t *out_len, int wait_ms)
{
	struct pollfd p = { .fd = t->fd, .events = POLLIN };
	ssize_t n;

	*out_len = 0;
	/* nothing left over from an earlier frame */
	while (read(t->fd, out, cap) > 0)
		;
	if (write(t->fd, frame, len) != (ssize_t)len)
		return -errno;
	if (poll(&p, 1, wait_ms) <= 0)
		return 0;
	n = read(t->fd, out, cap);
	if (n < 0)
		return errno == EAGAIN ? 0 : -errno;
	*out_len = (size_t)n;
	return 0;
}

void tap_net_close(struct tap_net *t)
{
	if (t->attached)
		bpf_xdp_detach(t->attached, XDP_FLAGS_DRV_MODE, NULL);
	t->attached = 0;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->home_ns >= 0) {
		if (setns(t->home_ns, CLONE_NEWNET))
			fprintf(stderr, "tap: cannot go back to the namespace: %s\n",
				strerror(errno));
		close(t->home_ns);
		t->home_ns = -1;
	}
}
