// SPDX-License-Identifier: GPL-2.0
/*
 * Expectations that are wrong on purpose, against the installed headers:
 * every test here must fail, on every target, with a message that names
 * the target, the byte and its field (tests/install/run.sh checks the
 * messages). A harness that passed them would pass anything.
 */
#include <linux/bpf.h>
#include <netinet/in.h>

#include <hwxdp/packet.h>
#include <hwxdp/test.h>

struct port_counts {
	uint64_t packets, bytes, dropped;
};

static size_t udp(int vlan, uint8_t ttl, uint16_t dport, uint8_t *buf)
{
	struct hwxdp_packet_spec spec;

	hwxdp_packet_spec__init(&spec, 4);
	spec.proto = IPPROTO_UDP;
	spec.vlan = vlan;
	spec.ttl = ttl;
	spec.dport = dport;
	return hwxdp_packet__build(&spec, buf, HWXDP_PACKET_MAX);
}

/* vlan_tag removes the tag and leaves the TTL alone: 9 is not 8. */
HWXDP_TEST(wrong, ttl, VLAN_TAG)
{
	static struct hwxdp_test_result res;
	uint8_t in[HWXDP_PACKET_MAX], want[HWXDP_PACKET_MAX];
	size_t len = udp(60, 9, 53, in), want_len = udp(-1, 8, 53, want);

	hwxdp_test_run(t, in, len, &res);
	hwxdp_assert_frame(t, &res, want, want_len);
}

/* It sends the frame back out (XDP_TX), it does not drop it. */
HWXDP_TEST(wrong, verdict, VLAN_TAG)
{
	static struct hwxdp_test_result res;
	uint8_t in[HWXDP_PACKET_MAX];
	size_t len = udp(60, 9, 53, in);

	hwxdp_test_run(t, in, len, &res);
	hwxdp_assert_verdict(t, &res, XDP_DROP);
}

/* fwd without ports punts for an unknown port (2), not an unknown VLAN
 * (6): its struct hwxdp_meta holds the reason at byte 8. */
HWXDP_TEST(wrong, metadata, FWD)
{
	static struct hwxdp_test_result res;
	uint8_t in[HWXDP_PACKET_MAX];
	size_t len = udp(-1, 64, 80, in);
	struct {
		uint32_t lif, egress_port;
		uint16_t reason, pad;
	} want = { .reason = 6 };

	hwxdp_test_run(t, in, len, &res);
	hwxdp_assert_meta(t, &res, &want);
}

/* The filter counts the frame's bytes, not one more. */
HWXDP_TEST(wrong, counter, UDP_FILTER)
{
	static struct hwxdp_test_result res;
	uint8_t in[HWXDP_PACKET_MAX];
	size_t len = udp(-1, 64, 80, in);
	struct port_counts want = { .packets = 1, .bytes = len + 1 };
	uint16_t port = 80;

	hwxdp_test_run(t, in, len, &res);
	hwxdp_assert_map(t, "counts", &port, &want);
}
