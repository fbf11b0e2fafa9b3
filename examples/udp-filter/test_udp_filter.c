// SPDX-License-Identifier: GPL-2.0
/*
 * The UDP filter's tests: each body runs on the kernel, the interpreted and
 * the compiled coprocessor engine (hwxdp/test.h).
 */
#include <linux/bpf.h>
#include <netinet/in.h>

#include <hwxdp/packet.h>
#include <hwxdp/test.h>

#include "udp_filter.h"

/* An untagged IPv4 (or IPv6) UDP datagram to port. */
static size_t udp_frame(int family, uint16_t port, int vlan, uint8_t *buf)
{
	struct hwxdp_packet_spec spec;
	size_t len;

	hwxdp_packet_spec__init(&spec, family);
	spec.proto = IPPROTO_UDP;
	spec.dport = port;
	spec.vlan = vlan;
	len = hwxdp_packet__build(&spec, buf, HWXDP_PACKET_MAX);
	cr_assert_gt(len, 0);
	return len;
}

static void block(struct hwxdp_test *t, uint16_t port)
{
	uint32_t drop = 1;

	hwxdp_test_map_set(t, "blocked", &port, &drop);
}

HWXDP_TEST(udp_filter, a_blocked_port_is_dropped_and_counted, OBJECT)
{
	static struct hwxdp_test_result res;
	uint8_t frame[HWXDP_PACKET_MAX];
	size_t len = udp_frame(4, 53, -1, frame);
	uint16_t port = 53;
	struct port_counts want = { .packets = 1, .bytes = len, .dropped = 1 };

	block(t, 53);
	hwxdp_test_run(t, frame, len, &res);
	hwxdp_assert_verdict(t, &res, XDP_DROP);
	hwxdp_assert_map(t, "counts", &port, &want);
}

HWXDP_TEST(udp_filter, other_ports_pass_untouched_and_are_counted, OBJECT)
{
	static struct hwxdp_test_result res;
	uint8_t frame[HWXDP_PACKET_MAX];
	size_t len = udp_frame(4, 80, -1, frame);
	uint16_t port = 80;
	struct port_counts want = { .packets = 2, .bytes = 2 * len, .dropped = 0 };

	block(t, 53);
	hwxdp_test_run(t, frame, len, &res);
	hwxdp_assert_verdict(t, &res, XDP_PASS);
	hwxdp_assert_frame(t, &res, frame, len);
	hwxdp_test_run(t, frame, len, &res);
	hwxdp_assert_map(t, "counts", &port, &want);
}

HWXDP_TEST(udp_filter, ipv6_and_tagged_frames_too, OBJECT)
{
	static struct hwxdp_test_result res;
	uint8_t v6[HWXDP_PACKET_MAX], tagged[HWXDP_PACKET_MAX];
	size_t v6_len = udp_frame(6, 53, -1, v6), tagged_len = udp_frame(4, 53, 50, tagged);
	uint16_t port = 53;
	struct port_counts want = { .packets = 2, .bytes = v6_len + tagged_len, .dropped = 2 };

	block(t, 53);
	hwxdp_test_run(t, v6, v6_len, &res);
	hwxdp_assert_verdict(t, &res, XDP_DROP);
	hwxdp_test_run(t, tagged, tagged_len, &res);
	hwxdp_assert_verdict(t, &res, XDP_DROP);
	hwxdp_assert_map(t, "counts", &port, &want);
}

HWXDP_TEST(udp_filter, tcp_to_a_blocked_port_is_not_udp, OBJECT)
{
	static struct hwxdp_test_result res;
	struct hwxdp_packet_spec spec;
	uint8_t frame[HWXDP_PACKET_MAX];
	struct port_counts c;
	uint16_t port = 53;
	size_t len;

	hwxdp_packet_spec__init(&spec, 4);
	spec.proto = IPPROTO_TCP;
	spec.dport = 53;
	len = hwxdp_packet__build(&spec, frame, sizeof(frame));
	block(t, 53);
	hwxdp_test_run(t, frame, len, &res);
	hwxdp_assert_verdict(t, &res, XDP_PASS);
	cr_assert_eq(hwxdp_test__map_lookup(t, "counts", &port, sizeof(port), &c, sizeof(c)),
		     -ENOENT, "%s target: a TCP segment was counted",
		     hwxdp_test_target__name(hwxdp_test__target(t)));
}

HWXDP_TEST(udp_filter, options_and_fragments, OBJECT)
{
	static struct hwxdp_test_result res;
	struct hwxdp_packet_spec spec;
	uint8_t frame[HWXDP_PACKET_MAX];
	size_t len;

	block(t, 53);
	/* 8 bytes of IPv4 options move the UDP header: still found */
	hwxdp_packet_spec__init(&spec, 4);
	spec.proto = IPPROTO_UDP;
	spec.dport = 53;
	spec.ip_options_len = 8;
	len = hwxdp_packet__build(&spec, frame, sizeof(frame));
	hwxdp_test_run(t, frame, len, &res);
	hwxdp_assert_verdict(t, &res, XDP_DROP);
	/* a later fragment carries no ports: it passes */
	spec.ip_options_len = 0;
	spec.frag = 0x2000 | 100;
	len = hwxdp_packet__build(&spec, frame, sizeof(frame));
	hwxdp_test_run(t, frame, len, &res);
	hwxdp_assert_verdict(t, &res, XDP_PASS);
}

HWXDP_TEST(udp_filter, a_truncated_datagram_passes, OBJECT)
{
	static struct hwxdp_test_result res;
	uint8_t frame[HWXDP_PACKET_MAX];
	size_t len = udp_frame(4, 53, -1, frame);

	block(t, 53);
	/* Ethernet, IPv4 and half a UDP header */
	hwxdp_test_run(t, frame, 14 + 20 + 4, &res);
	hwxdp_assert_verdict(t, &res, XDP_PASS);
	(void)len;
}
