// SPDX-License-Identifier: GPL-2.0
/*
 * hwxdpd's wire ports on real netdevs (root): each with its TAP following
 * the wire's MAC and MTU, and bad requests refused with one line, changing
 * nothing.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdarg.h>
#include <net/if.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/client.h"
#include "daemon/daemon.h"

static char sock_path[128], veth[IF_NAMESIZE], veth2[IF_NAMESIZE];
static struct hwxdpd *daemon_under_test;
static pthread_t server;

static void *serve(void *arg)
{
	hwxdpd__run(arg);
	return NULL;
}

static void start(void)
{
	struct hwxdpd_opts opts = { .sz = sizeof(opts), .engines = 1 };
	char cmd[256], msg[256];

	if (geteuid() != 0)
		return;
	snprintf(sock_path, sizeof(sock_path), "/tmp/hwxdpd-ports.%d/ctl.sock", getpid());
	snprintf(veth, sizeof(veth), "hxtp%d", getpid() % 100000);
	snprintf(veth2, sizeof(veth2), "hxtq%d", getpid() % 100000);
	snprintf(cmd, sizeof(cmd),
		 "ip link add %s type veth peer name %sp && ip link set %s mtu 1400 up && "
		 "ip link add %s type veth peer name %sp && ip link set %s up",
		 veth, veth, veth, veth2, veth2, veth2);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	opts.socket_path = sock_path;
	daemon_under_test = hwxdpd__new(&opts, msg, sizeof(msg));
	cr_assert(daemon_under_test, "hwxdpd__new: %s", msg);
	cr_assert_eq(pthread_create(&server, NULL, serve, daemon_under_test), 0);
}

static void stop(void)
{
	char cmd[128];

	if (!daemon_under_test)
		return;
	hwxdpd__stop(daemon_under_test);
	pthread_join(server, NULL);
	hwxdpd__free(daemon_under_test);
	snprintf(cmd, sizeof(cmd), "ip link del %s; ip link del %s", veth, veth2);
	if (system(cmd))
		return;
}

TestSuite(ports, .init = start, .fini = stop, .timeout = 60);

#define SKIP_UNLESS_ROOT()                                                                         \
	do {                                                                                       \
		if (geteuid() != 0)                                                                \
			cr_skip_test("needs root: netdevs, TAPs, AF_XDP");                         \
	} while (0)

/* Runs words (NULL-terminated) on the daemon: the command's status. */
static int run(struct hwxdp_ctl_result *res, ...)
{
	char *argv[16], msg[256];
	va_list ap;
	int argc = 0;

	va_start(ap, res);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	cr_assert_eq(hwxdp_ctl_call(sock_path, argc, argv, 20000, res, msg, sizeof(msg)), 0, "%s",
		     msg);
	return res->status;
}

static void read_sys(const char *dev, const char *what, char *buf, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", dev, what);
	f = fopen(path, "r");
	cr_assert(f, "%s", path);
	cr_assert(fgets(buf, (int)len, f));
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static int port_count(void)
{
	struct hwxdp_ctl_result res;
	int n = 0;

	cr_assert_eq(run(&res, "port", "list", NULL), 0);
	for (const char *p = res.body; (p = strstr(p, "\"name\":")); p++)
		n++;
	hwxdp_ctl_result__fini(&res);
	return n;
}

Test(ports, tap_follows_the_wire)
{
	char wire_mac[32], tap_mac[32], mtu[16], tap[IF_NAMESIZE];
	struct hwxdp_ctl_result res;
	const char *t;

	SKIP_UNLESS_ROOT();
	cr_assert_eq(run(&res, "port", "add", "w0", "dev", veth, NULL), 0, "%s", res.message);
	t = strstr(res.body, "\"tap\":\"");
	cr_assert(t, "%s", res.body);
	sscanf(t + 7, "%15[^\"]", tap);
	cr_assert(strstr(res.body, "\"mode\":\"af_xdp\"") ||
			  strstr(res.body, "\"mode\":\"af_packet\""),
		  "%s", res.body);
	hwxdp_ctl_result__fini(&res);
	read_sys(veth, "address", wire_mac, sizeof(wire_mac));
	read_sys(tap, "address", tap_mac, sizeof(tap_mac));
	cr_assert_str_eq(tap_mac, wire_mac);
	read_sys(tap, "mtu", mtu, sizeof(mtu));
	cr_assert_str_eq(mtu, "1400");
	read_sys(tap, "flags", mtu, sizeof(mtu));
	cr_assert(strtoul(mtu, NULL, 0) & IFF_UP, "%s is not up", tap);

	cr_assert_eq(run(&res, "port", "del", "w0", NULL), 0, "%s", res.message);
	hwxdp_ctl_result__fini(&res);
	cr_assert_eq(if_nametoindex(tap), 0, "%s is still there", tap);
	cr_assert_eq(port_count(), 0);
}

Test(ports, missing_netdev_is_refused)
{
	struct hwxdp_ctl_result res;

	SKIP_UNLESS_ROOT();
	cr_assert_eq(run(&res, "port", "add", "w0", "dev", "hxt-nonesuch", NULL), -ENODEV);
	cr_assert_str_eq(res.message, "no netdev 'hxt-nonesuch'");
	hwxdp_ctl_result__fini(&res);
	cr_assert_eq(port_count(), 0);
}

Test(ports, one_port_per_netdev_and_per_name)
{
	struct hwxdp_ctl_result res;
	char expect[128];

	SKIP_UNLESS_ROOT();
	cr_assert_eq(run(&res, "port", "add", "w0", "dev", veth, NULL), 0, "%s", res.message);
	hwxdp_ctl_result__fini(&res);
	cr_assert_eq(run(&res, "port", "add", "w1", "dev", veth, NULL), -EBUSY);
	snprintf(expect, sizeof(expect), "netdev %s is port w0's already", veth);
	cr_assert_str_eq(res.message, expect);
	hwxdp_ctl_result__fini(&res);
	cr_assert_eq(run(&res, "port", "add", "w0", "dev", veth2, NULL), -EEXIST);
	cr_assert_str_eq(res.message, "port w0 exists already");
	hwxdp_ctl_result__fini(&res);
	cr_assert_eq(port_count(), 1);
	/* The TAP is not a wire. */
	cr_assert_eq(run(&res, "port", "add", "w2", "dev", "hx0", NULL), -EINVAL);
	hwxdp_ctl_result__fini(&res);
	cr_assert_eq(port_count(), 1);
}

Test(ports, bad_words)
{
	struct hwxdp_ctl_result res;

	SKIP_UNLESS_ROOT();
	cr_assert_eq(run(&res, "port", "add", "w0", NULL), -EINVAL);
	cr_assert(strstr(res.message, "expected dev NETDEV"), "%s", res.message);
	hwxdp_ctl_result__fini(&res);
	cr_assert_eq(run(&res, "port", "add", "w0", "dev", veth, "mode", "carrier-pigeon", NULL),
		     -EINVAL);
	cr_assert(strstr(res.message, "mode 'carrier-pigeon'"), "%s", res.message);
	hwxdp_ctl_result__fini(&res);
	cr_assert_eq(run(&res, "port", "add", "bad/name", "dev", veth, NULL), -EINVAL);
	hwxdp_ctl_result__fini(&res);
	cr_assert_eq(run(&res, "port", "show", "nope", NULL), -ENOENT);
	cr_assert_str_eq(res.message, "no port 'nope'");
	hwxdp_ctl_result__fini(&res);
	cr_assert_eq(port_count(), 0);
}

Test(ports, af_packet_on_request)
{
	struct hwxdp_ctl_result res;

	SKIP_UNLESS_ROOT();
	cr_assert_eq(run(&res, "port", "add", "w0", "dev", veth, "mode", "af_packet", NULL), 0,
		     "%s", res.message);
	hwxdp_ctl_result__fini(&res);
	cr_assert_eq(run(&res, "port", "show", "w0", NULL), 0);
	cr_assert(strstr(res.body, "\"mode\":\"af_packet\""), "%s", res.body);
	hwxdp_ctl_result__fini(&res);
}
