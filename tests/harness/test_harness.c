// SPDX-License-Identifier: GPL-2.0
/*
 * The harness of include/hwxdp/test.h on progs/vlan_tag.bpf.c: one body per
 * test, run on the kernel, the interpreted and the compiled engine. The
 * expected frames come from the frame builder with the tag added or
 * removed, not from the program; field names are checked against the
 * header layouts of RFC 791, 793, 768, 8200 and IEEE 802.1Q.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/bpf.h>
#include <netinet/in.h>
#include <string.h>

#include "hwxdp/fwd.h"
#include "hwxdp/packet.h"
#include "hwxdp/test.h"
#include "lab/target.h"

#define VLAN_TAG hx_object_path("vlan_tag")

static size_t build(int vlan, uint8_t ttl, uint8_t *buf)
{
	struct hwxdp_packet_spec spec;
	size_t len;

	hwxdp_packet_spec__init(&spec, 4);
	spec.proto = IPPROTO_UDP;
	spec.vlan = vlan;
	spec.ttl = ttl;
	len = hwxdp_packet__build(&spec, buf, HWXDP_PACKET_MAX);
	cr_assert_gt(len, 0);
	return len;
}

HWXDP_TEST(harness, untagged_without_a_vid_passes, VLAN_TAG)
{
	static struct hwxdp_test_result res;
	uint8_t in[HWXDP_PACKET_MAX];
	size_t len = build(-1, 64, in);

	hwxdp_test_run(t, in, len, &res);
	hwxdp_assert_verdict(t, &res, XDP_PASS);
	hwxdp_assert_frame(t, &res, in, len);
}

HWXDP_TEST(harness, a_vid_in_the_map_tags_the_frame, VLAN_TAG)
{
	static struct hwxdp_test_result res;
	uint8_t in[HWXDP_PACKET_MAX], want[HWXDP_PACKET_MAX];
	size_t len = build(-1, 64, in), want_len = build(50, 64, want);
	uint32_t zero = 0, vid = 50, back = 0;

	hwxdp_test_map_set(t, "push_vid", &zero, &vid);
	hwxdp_test_map_get(t, "push_vid", &zero, &back);
	cr_assert_eq(back, 50);
	hwxdp_assert_map(t, "push_vid", &zero, &vid);
	hwxdp_test_run(t, in, len, &res);
	hwxdp_assert_verdict(t, &res, XDP_TX);
	cr_assert_eq(res.len, len + 4);
	hwxdp_assert_frame(t, &res, want, want_len);
}

HWXDP_TEST(harness, a_tagged_frame_leaves_untagged, VLAN_TAG)
{
	static struct hwxdp_test_result res;
	uint8_t in[HWXDP_PACKET_MAX], want[HWXDP_PACKET_MAX];
	size_t len = build(60, 9, in), want_len = build(-1, 9, want);

	hwxdp_test_run(t, in, len, &res);
	hwxdp_assert_verdict(t, &res, XDP_TX);
	hwxdp_assert_frame(t, &res, want, want_len);
	cr_assert(hwxdp_packet__ipv4_csum_ok(res.frame, res.len));
	cr_assert(hwxdp_packet__l4_csum_ok(res.frame, res.len));
}

HWXDP_TEST(harness, map_sizes_are_checked, VLAN_TAG)
{
	uint64_t wide_key = 0;
	uint32_t zero = 0, vid = 7;
	uint16_t narrow = 7;

	cr_assert_eq(hwxdp_test__map_update(t, "push_vid", &wide_key, sizeof(wide_key), &vid,
					    sizeof(vid)),
		     -EINVAL);
	cr_assert_eq(
		hwxdp_test__map_update(t, "push_vid", &zero, sizeof(zero), &narrow, sizeof(narrow)),
		-EINVAL);
	cr_assert_eq(
		hwxdp_test__map_update(t, "no_such_map", &zero, sizeof(zero), &vid, sizeof(vid)),
		-ENOENT);
}

HWXDP_TEST(harness, wrong_expectations_are_reported, VLAN_TAG)
{
	static struct hwxdp_test_result res;
	uint8_t in[HWXDP_PACKET_MAX], want[HWXDP_PACKET_MAX];
	size_t len = build(60, 9, in), want_len = build(-1, 8, want);
	uint32_t zero = 0, vid = 51;
	char msg[512], text[128];

	hwxdp_test_run(t, in, len, &res);
	cr_assert(!hwxdp_test__frame_equal(&res, want, want_len, msg, sizeof(msg)));
	/* 14 bytes of Ethernet, then the TTL at 8 in the IPv4 header */
	cr_assert_str_eq(msg, "frame byte 22 (IPv4 TTL) is 0x09, expected 0x08");
	cr_assert(!hwxdp_test__frame_equal(&res, want, want_len - 1, msg, sizeof(msg)));
	snprintf(text, sizeof(text),
		 "frame byte 22 (IPv4 TTL) is 0x09, expected 0x08; the frame is %zu bytes, "
		 "expected %zu",
		 want_len, want_len - 1);
	cr_assert_str_eq(msg, text);
	cr_assert(!hwxdp_test__map_equal(t, "push_vid", &zero, sizeof(zero), &vid, sizeof(vid), msg,
					 sizeof(msg)));
	cr_assert_str_eq(msg, "map push_vid, key 00 00 00 00: value byte 0 is 0x00, expected 0x33");
}

HWXDP_TEST(harness, device_targets_tell_the_cost, VLAN_TAG)
{
	static struct hwxdp_test_result res;
	uint8_t in[HWXDP_PACKET_MAX];
	size_t len = build(60, 9, in);
	uint64_t cycles = 0;

	hwxdp_test_run(t, in, len, &res);
	if (hwxdp_test__target(t) == HWXDP_TEST_KERNEL) {
		cr_assert_eq(hwxdp_test__cycles(t, &cycles), -EOPNOTSUPP);
		return;
	}
	cr_assert_eq(hwxdp_test__cycles(t, &cycles), 0);
	cr_assert_gt(cycles, 0);
}

/* fwd, with no ports configured, punts every frame and says why in its
 * metadata (docs/programs.md); vlan_tag writes none. */
HWXDP_TEST(harness, metadata_is_read, hx_object_path("fwd"))
{
	static struct hwxdp_test_result res;
	struct hwxdp_meta want = { .reason = HWXDP_PUNT_UNKNOWN_PORT }, wrong = want;
	uint8_t in[HWXDP_PACKET_MAX];
	size_t len = build(-1, 64, in);
	char msg[256];

	hwxdp_test_run(t, in, len, &res);
	hwxdp_assert_verdict(t, &res, XDP_PASS);
	hwxdp_assert_meta(t, &res, &want);
	hwxdp_assert_frame(t, &res, in, len);
	wrong.reason = HWXDP_PUNT_UNKNOWN_VLAN;
	cr_assert(!hwxdp_test__meta_equal(&res, &wrong, sizeof(wrong), msg, sizeof(msg)));
	cr_assert_str_eq(msg, "metadata byte 8 is 0x02, expected 0x06");
}

HWXDP_TEST(harness, no_metadata_is_none, VLAN_TAG)
{
	static struct hwxdp_test_result res;
	uint8_t in[HWXDP_PACKET_MAX];
	size_t len = build(60, 9, in);
	char msg[256];

	hwxdp_test_run(t, in, len, &res);
	cr_assert_eq(res.meta_len, 0);
	cr_assert(!hwxdp_test__meta_equal(&res, "x", 1, msg, sizeof(msg)));
	cr_assert_str_eq(msg, "the metadata is 0 bytes, expected 1");
}

Test(harness, fields_by_offset)
{
	uint8_t f[HWXDP_PACKET_MAX];
	struct hwxdp_packet_spec spec;
	char name[96];
	size_t len;

	hwxdp_packet_spec__init(&spec, 4); /* TCP, no options */
	len = hwxdp_packet__build(&spec, f, sizeof(f));
	cr_assert_str_eq(hwxdp_packet__field(f, len, 0, name, sizeof(name)),
			 "Ethernet destination");
	cr_assert_str_eq(hwxdp_packet__field(f, len, 11, name, sizeof(name)), "Ethernet source");
	cr_assert_str_eq(hwxdp_packet__field(f, len, 13, name, sizeof(name)), "EtherType");
	cr_assert_str_eq(hwxdp_packet__field(f, len, 14 + 8, name, sizeof(name)), "IPv4 TTL");
	cr_assert_str_eq(hwxdp_packet__field(f, len, 14 + 11, name, sizeof(name)),
			 "IPv4 header checksum");
	cr_assert_str_eq(hwxdp_packet__field(f, len, 14 + 19, name, sizeof(name)),
			 "IPv4 destination address");
	cr_assert_str_eq(hwxdp_packet__field(f, len, 34 + 2, name, sizeof(name)),
			 "TCP destination port");
	cr_assert_str_eq(hwxdp_packet__field(f, len, 34 + 13, name, sizeof(name)), "TCP flags");
	cr_assert_str_eq(hwxdp_packet__field(f, len, 34 + 16, name, sizeof(name)), "TCP checksum");
	cr_assert_str_eq(hwxdp_packet__field(f, len, 34 + 20 + 5, name, sizeof(name)),
			 "payload byte 5");
	cr_assert_str_eq(hwxdp_packet__field(f, len, len, name, sizeof(name)), "beyond the frame");

	spec.vlan = 50;
	spec.proto = IPPROTO_UDP;
	len = hwxdp_packet__build(&spec, f, sizeof(f));
	cr_assert_str_eq(hwxdp_packet__field(f, len, 12, name, sizeof(name)), "VLAN tag 1 TPID");
	cr_assert_str_eq(hwxdp_packet__field(f, len, 15, name, sizeof(name)), "VLAN tag 1 TCI");
	cr_assert_str_eq(hwxdp_packet__field(f, len, 17, name, sizeof(name)), "EtherType");
	cr_assert_str_eq(hwxdp_packet__field(f, len, 38 + 6, name, sizeof(name)), "UDP checksum");

	hwxdp_packet_spec__init(&spec, 6);
	spec.proto = IPPROTO_ICMPV6;
	len = hwxdp_packet__build(&spec, f, sizeof(f));
	cr_assert_str_eq(hwxdp_packet__field(f, len, 14 + 7, name, sizeof(name)), "IPv6 hop limit");
	cr_assert_str_eq(hwxdp_packet__field(f, len, 14 + 8, name, sizeof(name)),
			 "IPv6 source address");
	cr_assert_str_eq(hwxdp_packet__field(f, len, 54 + 2, name, sizeof(name)),
			 "ICMPv6 checksum");
}

/* Every target this host has, one frame after another, against the first
 * (the kernel, where it runs). */
Test(harness, differential_runs_agree)
{
	static struct hwxdp_test_result res[HWXDP_TEST__TARGETS];
	struct hwxdp_test *t[HWXDP_TEST__TARGETS];
	uint8_t in[HWXDP_PACKET_MAX];
	uint32_t zero = 0, vid = 7;
	int first = -1;

	cr_assert_geq(hwxdp_test__open_all(VLAN_TAG, t), 2);
	for (int i = 0; i < HWXDP_TEST__TARGETS; i++)
		if (t[i])
			cr_assert_eq(hwxdp_test__map_update(t[i], "push_vid", &zero, sizeof(zero),
							    &vid, sizeof(vid)),
				     0);
	for (int vlan = -1; vlan < 4; vlan++) {
		size_t len = build(vlan, 30, in);

		for (int i = 0; i < HWXDP_TEST__TARGETS; i++) {
			if (!t[i])
				continue;
			cr_assert_eq(hwxdp_test__run(t[i], 0, in, len, &res[i]), 0);
			if (first < 0)
				first = i;
			hwxdp_assert_agree(t[first], &res[first], t[i], &res[i]);
		}
	}
	hwxdp_test__close_all(t);
}

Test(harness, disagreements_are_named)
{
	static struct hwxdp_test_result a, b;
	struct hwxdp_test *t[HWXDP_TEST__TARGETS];
	char msg[512];
	int x = -1, y = -1;

	hwxdp_test__open_all(VLAN_TAG, t);
	for (int i = 0; i < HWXDP_TEST__TARGETS; i++)
		if (t[i])
			x < 0 ? (x = i) : (y = i);
	cr_assert(x >= 0 && y > x);
	a.len = b.len = build(-1, 64, a.frame);
	memcpy(b.frame, a.frame, b.len);
	a.verdict = b.verdict = XDP_TX;
	cr_assert(hwxdp_test__agree(t[x], &a, t[y], &b, msg, sizeof(msg)));
	b.frame[14 + 8] = 63;
	cr_assert(!hwxdp_test__agree(t[x], &a, t[y], &b, msg, sizeof(msg)));
	cr_assert(strstr(msg, "disagree: frame byte 22 (IPv4 TTL) is 0x40 and 0x3f"), "%s", msg);
	b.verdict = XDP_DROP;
	cr_assert(!hwxdp_test__agree(t[x], &a, t[y], &b, msg, sizeof(msg)));
	cr_assert(strstr(msg, "disagree: verdict XDP_TX and XDP_DROP"), "%s", msg);
	hwxdp_test__close_all(t);
}
