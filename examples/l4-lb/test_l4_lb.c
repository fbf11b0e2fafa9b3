// SPDX-License-Identifier: GPL-2.0
/*
 * The load balancer's tests: each body runs on the kernel, the interpreted
 * and the compiled coprocessor engine (hwxdp/test.h). The frame a backend
 * receives is compared with one the frame builder makes afresh for that
 * backend (checksums computed whole, not updated), so the incremental
 * checksum updates are checked against a full recomputation.
 */
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include <hwxdp/packet.h>
#include <hwxdp/test.h>

#include "l4_lb.h"

#define VIP	 "10.0.0.100"
#define BACKENDS 4

static void backend_addr(unsigned int i, uint8_t out[16])
{
	char text[32];

	snprintf(text, sizeof(text), "10.1.0.%u", i + 1);
	hwxdp_packet__ipv4_addr(out, text);
}

static void backend_mac(unsigned int i, uint8_t out[6])
{
	static const uint8_t base[6] = { 0x02, 0, 0, 0, 0xbe, 0 };

	memcpy(out, base, 6);
	out[5] = (uint8_t)(i + 1);
}

/* Services: VIP:80/TCP and VIP:53/UDP on backends 0..3, VIP:81/TCP on none;
 * every backend leaves by port 0 of tx_ports, the loopback (ifindex 1). */
static void setup(struct hwxdp_test *t)
{
	struct vip_backends four = { .first = 0, .count = BACKENDS }, none = { 0, 0 };
	struct vip_key key = { .port = htons(80), .proto = IPPROTO_TCP };
	uint32_t port = 0, ifindex = 1;
	uint8_t addr[16];

	hwxdp_packet__ipv4_addr(addr, VIP);
	memcpy(&key.addr, addr, 4);
	hwxdp_test_map_set(t, "vips", &key, &four);
	key.port = htons(53);
	key.proto = IPPROTO_UDP;
	hwxdp_test_map_set(t, "vips", &key, &four);
	key.port = htons(81);
	key.proto = IPPROTO_TCP;
	hwxdp_test_map_set(t, "vips", &key, &none);
	for (uint32_t i = 0; i < BACKENDS; i++) {
		struct backend be = { .tx_port = 0 };

		backend_addr(i, addr);
		memcpy(&be.addr, addr, 4);
		backend_mac(i, be.mac);
		hwxdp_test_map_set(t, "backends", &i, &be);
	}
	hwxdp_test_map_set(t, "tx_ports", &port, &ifindex);
}

static void client_spec(struct hwxdp_packet_spec *spec, uint8_t proto, uint16_t sport,
			uint16_t dport)
{
	hwxdp_packet_spec__init(spec, 4);
	spec->proto = proto;
	spec->sport = sport;
	spec->dport = dport;
	hwxdp_packet__ipv4_addr(spec->dst, VIP);
}

/* The backend the program sent res to, by its destination address; fails
 * the test when it is none of them. */
static unsigned int backend_of(const struct hwxdp_test_result *res)
{
	uint8_t addr[16];

	cr_assert_geq(res->len, 34);
	for (unsigned int i = 0; i < BACKENDS; i++) {
		backend_addr(i, addr);
		if (!memcmp(res->frame + 14 + 16, addr, 4))
			return i;
	}
	cr_assert_fail("destination %u.%u.%u.%u is no backend", res->frame[30], res->frame[31],
		       res->frame[32], res->frame[33]);
	return 0;
}

/* What backend i should receive of the frame spec describes. */
static size_t expected_frame(const struct hwxdp_packet_spec *client, unsigned int i, uint8_t *buf)
{
	struct hwxdp_packet_spec spec = *client;
	size_t len;

	backend_addr(i, spec.dst);
	memcpy(spec.smac, client->dmac, 6);
	backend_mac(i, spec.dmac);
	len = hwxdp_packet__build(&spec, buf, HWXDP_PACKET_MAX);
	cr_assert_gt(len, 0);
	return len;
}

static void check_balanced(struct hwxdp_test *t, uint8_t proto, uint16_t sport, uint16_t dport)
{
	static struct hwxdp_test_result res;
	static uint8_t in[HWXDP_PACKET_MAX], want[HWXDP_PACKET_MAX];
	struct hwxdp_packet_spec spec;
	size_t len, want_len;

	client_spec(&spec, proto, sport, dport);
	len = hwxdp_packet__build(&spec, in, sizeof(in));
	hwxdp_test_run(t, in, len, &res);
	hwxdp_assert_verdict(t, &res, XDP_REDIRECT);
	want_len = expected_frame(&spec, backend_of(&res), want);
	hwxdp_assert_frame(t, &res, want, want_len);
}

HWXDP_TEST(l4_lb, tcp_to_the_service_goes_to_a_backend_rewritten, OBJECT)
{
	setup(t);
	check_balanced(t, IPPROTO_TCP, 40000, 80);
}

HWXDP_TEST(l4_lb, udp_to_the_service_goes_to_a_backend_rewritten, OBJECT)
{
	setup(t);
	check_balanced(t, IPPROTO_UDP, 40000, 53);
}

HWXDP_TEST(l4_lb, the_backend_is_the_flow_hash_of_the_5_tuple, OBJECT)
{
	static struct hwxdp_test_result res;
	static uint8_t in[HWXDP_PACKET_MAX], want_frame[HWXDP_PACKET_MAX];
	unsigned int hits[BACKENDS] = { 0 };
	struct hwxdp_packet_spec spec;

	setup(t);
	/* the hash computed by the host's C compiler, the program's by the
	 * target: the two must pick the same backend, flow after flow */
	for (uint16_t sport = 40000; sport < 40064; sport++) {
		uint32_t saddr, daddr, want;
		size_t len;

		client_spec(&spec, IPPROTO_TCP, sport, 80);
		memcpy(&saddr, spec.src, 4);
		memcpy(&daddr, spec.dst, 4);
		want = lb_flow_hash(saddr, daddr, htons(sport), htons(80), IPPROTO_TCP) % BACKENDS;
		len = hwxdp_packet__build(&spec, in, sizeof(in));
		hwxdp_test_run(t, in, len, &res);
		hwxdp_assert_verdict(t, &res, XDP_REDIRECT);
		cr_assert_eq(backend_of(&res), want,
			     "%s target: source port %u went to backend %u, not %u",
			     hwxdp_test_target__name(hwxdp_test__target(t)), sport,
			     backend_of(&res), want);
		hwxdp_assert_frame(t, &res, want_frame, expected_frame(&spec, want, want_frame));
		hits[want]++;
	}
	for (unsigned int i = 0; i < BACKENDS; i++)
		cr_assert_gt(hits[i], 4, "backend %u took %u of 64 flows", i, hits[i]);
}

HWXDP_TEST(l4_lb, a_udp_checksum_of_zero_stays_zero, OBJECT)
{
	static struct hwxdp_test_result res;
	uint8_t in[HWXDP_PACKET_MAX], want[HWXDP_PACKET_MAX];
	struct hwxdp_packet_spec spec;
	size_t len, want_len;

	setup(t);
	client_spec(&spec, IPPROTO_UDP, 40001, 53);
	len = hwxdp_packet__build(&spec, in, sizeof(in));
	in[14 + 20 + 6] = in[14 + 20 + 7] = 0; /* "no checksum" (RFC 768) */
	hwxdp_test_run(t, in, len, &res);
	hwxdp_assert_verdict(t, &res, XDP_REDIRECT);
	want_len = expected_frame(&spec, backend_of(&res), want);
	want[14 + 20 + 6] = want[14 + 20 + 7] = 0;
	hwxdp_assert_frame(t, &res, want, want_len);
}

HWXDP_TEST(l4_lb, other_traffic_passes_and_an_empty_service_drops, OBJECT)
{
	static struct hwxdp_test_result res;
	uint8_t in[HWXDP_PACKET_MAX];
	struct hwxdp_packet_spec spec;
	size_t len;

	setup(t);
	client_spec(&spec, IPPROTO_TCP, 40000, 8080); /* no such service */
	len = hwxdp_packet__build(&spec, in, sizeof(in));
	hwxdp_test_run(t, in, len, &res);
	hwxdp_assert_verdict(t, &res, XDP_PASS);
	hwxdp_assert_frame(t, &res, in, len);

	client_spec(&spec, IPPROTO_UDP, 40000, 80); /* port 80 is TCP's */
	len = hwxdp_packet__build(&spec, in, sizeof(in));
	hwxdp_test_run(t, in, len, &res);
	hwxdp_assert_verdict(t, &res, XDP_PASS);

	client_spec(&spec, IPPROTO_TCP, 40000, 81); /* a service without backends */
	len = hwxdp_packet__build(&spec, in, sizeof(in));
	hwxdp_test_run(t, in, len, &res);
	hwxdp_assert_verdict(t, &res, XDP_DROP);
}
