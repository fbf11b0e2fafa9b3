// SPDX-License-Identifier: GPL-2.0
/*
 * `hwxdp lab`, run as a user runs it: every lab frame does what the lab
 * (fwdlab/fwd_lab.h) and fwd's rules say it must, on the device and, as
 * root, on the kernel, and the LIFs read back in their lab states.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/target.h"
#include "tests/common/cmd.h"

/* What a frame must do: forwarded out of egress (verdict "redirect" or
 * "tx"), its tag and TTL as they came and went, and its length change; or
 * punted (verdict "pass") for punt, or dropped. */
struct lab_expect {
	const char *frame;
	const char *verdict;
	unsigned int egress;
	int vlan_in, vlan_out, ttl_in, ttl_out, grow;
	const char *punt;
};

#define FWD(name, verdict, egress, vin, vout, tin, grow)                                           \
	{                                                                                          \
		name, verdict, egress, vin, vout, tin, (tin)-1, grow, ""                           \
	}
#define PUNT(name, reason)                                                                         \
	{                                                                                          \
		name, "pass", 0, 0, 0, 0, 0, 0, reason                                             \
	}

static const struct lab_expect expected[] = {
	FWD("tcp vlan 50 -> wire2 (tag removed)", "redirect", 2, 50, 0, 64, -4),
	FWD("tcp wire2 -> vlan 50 (tag added)", "redirect", 1, -1, 50, 64, 4),
	FWD("udp vlan 50 -> vlan 60 (rewritten)", "tx", 1, 50, 60, 32, 0),
	FWD("tcp6 wire2 -> vlan 50 (tag added)", "redirect", 1, -1, 50, 64, 4),
	FWD("udp6 vlan 60 -> wire2 (tag removed)", "redirect", 2, 60, 0, 9, -4),
	FWD("tcp wire1 -> wire1 (hairpin)", "tx", 1, -1, 0, 64, 0),
	PUNT("tcp ttl 1", "ttl-exceeded"),
	PUNT("udp 1400 B to a 1280 MTU hop", "mtu-exceeded"),
	PUNT("tcp, no microflow", "flow-miss"),
	PUNT("tcp vlan 99 (no LIF)", "unknown-vlan"),
	{ "tcp vlan 70 (admin-disabled)", "drop", 0, 0, 0, 0, 0, 0, "" },
	PUNT("tcp vlan 80 (offload-disabled)", "lif-offload-disabled"),
	PUNT("arp", "ethertype"),
	PUNT("icmp echo", "l4-proto"),
	PUNT("tcp with IP options", "ip-options"),
	PUNT("udp fragment", "fragment"),
	PUNT("qinq 88a8/8100", "qinq"),
	/* the kernel has no crypto; the device has the SA but no key for it */
	PUNT("tcp into the tunnel (SA 1 rev 2)", NULL),
	PUNT("tcp into the tunnel, stale SA rev 1", "sa-stale"),
};

/* The object of the frame named name in out, NUL-terminated in buf. */
static void frame_object(const char *out, const char *name, char *buf, size_t len)
{
	char head[128];
	const char *at, *end;

	snprintf(head, sizeof(head), "{\"frame\":\"%s\",", name);
	at = strstr(out, head);
	cr_assert_not_null(at, "no row for '%s' in\n%s", name, out);
	end = strchr(at, '}');
	cr_assert_not_null(end);
	cr_assert_lt((size_t)(end - at), len);
	memcpy(buf, at, (size_t)(end - at));
	buf[end - at] = 0;
}

static long field(const char *obj, const char *name)
{
	char key[64];
	const char *at;

	snprintf(key, sizeof(key), "\"%s\":", name);
	at = strstr(obj, key);
	cr_assert_not_null(at, "no %s in %s", name, obj);
	return strtol(at + strlen(key), NULL, 10);
}

static size_t rows(const char *out)
{
	size_t n = 0;

	for (const char *at = out; (at = strstr(at, "{\"frame\":\"")); at++)
		n++;
	return n;
}

static void expect_has(const char *obj, const char *what)
{
	cr_expect(strstr(obj, what), "want %s in %s", what, obj);
}

static void check_lab(const char *target, const char *tunnel_punt)
{
	char args[4200], obj[512], want[160];
	int status;
	char *out;

	snprintf(args, sizeof(args), "-j lab -t %s -o %s/progs/fwd.bpf.o", target, hx_build_dir());
	out = hx_cmd("hwxdp", args, &status);
	cr_assert_eq(status, 0, "hwxdp %s: %s", args, out);
	cr_assert_eq(rows(out), sizeof(expected) / sizeof(expected[0]), "%s", out);
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		const struct lab_expect *e = &expected[i];

		frame_object(out, e->frame, obj, sizeof(obj));
		snprintf(want, sizeof(want), "\"verdict\":\"%s\"", e->verdict);
		expect_has(obj, want);
		snprintf(want, sizeof(want), "\"punt\":\"%s\"", e->punt ? e->punt : tunnel_punt);
		expect_has(obj, want);
		if (strcmp(e->verdict, "redirect") && strcmp(e->verdict, "tx")) {
			expect_has(obj, "\"egress_port\":null");
			continue;
		}
		cr_expect_eq(field(obj, "egress_port"), e->egress, "%s: %s", e->frame, obj);
		cr_expect_eq(field(obj, "vlan_in"), e->vlan_in, "%s: %s", e->frame, obj);
		cr_expect_eq(field(obj, "vlan_out"), e->vlan_out, "%s: %s", e->frame, obj);
		cr_expect_eq(field(obj, "ttl_in"), e->ttl_in, "%s: %s", e->frame, obj);
		cr_expect_eq(field(obj, "ttl_out"), e->ttl_out, "%s: %s", e->frame, obj);
		cr_expect_eq(field(obj, "len_out") - field(obj, "len_in"), e->grow, "%s: %s",
			     e->frame, obj);
	}
	/* the LIFs of the lab, in their states; the admin-disabled one dropped frame 11 */
	expect_has(out, "\"port\":1,\"vlan\":0,\"state\":\"enabled\"");
	expect_has(out, "\"port\":1,\"vlan\":50,\"state\":\"enabled\"");
	expect_has(out, "\"port\":1,\"vlan\":60,\"state\":\"enabled\"");
	expect_has(out, "\"port\":1,\"vlan\":70,\"state\":\"admin-disabled\",\"rx_packets\":0,"
			"\"rx_bytes\":0,\"tx_packets\":0,\"tx_bytes\":0,\"rx_dropped\":1}");
	expect_has(out, "\"port\":1,\"vlan\":80,\"state\":\"offload-disabled\"");
	expect_has(out, "\"port\":2,\"vlan\":0,\"state\":\"enabled\"");
	expect_has(out, "\"port\":2,\"vlan\":60,\"state\":\"enabled\"");
	expect_has(out, "\"port\":3,\"vlan\":0,\"state\":\"enabled\"");
	free(out);
}

Test(lab, frames_on_the_device)
{
	check_lab("device", "esp-failed");
}

Test(lab, frames_on_the_kernel)
{
	if (geteuid() != 0)
		cr_skip_test("the kernel target needs root");
	check_lab("kernel", "no-crypto");
}
