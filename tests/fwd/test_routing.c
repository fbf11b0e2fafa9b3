// SPDX-License-Identifier: GPL-2.0
/* Routed forwarding: microflow, next hop, MACs, TTL and checksum, egress. */
#include <netinet/in.h>
#include <string.h>

#include "tests/common/fwd_env.h"

static void expect_macs(const struct hx_result *r, const char *dmac, const char *smac)
{
	uint8_t d[6], s[6];

	hx_mac(d, dmac);
	hx_mac(s, smac);
	cr_assert_arr_eq(r->frame, d, 6, "destination MAC not rewritten");
	cr_assert_arr_eq(r->frame + 6, s, 6, "source MAC not rewritten");
}

HX_TEST(routing, ipv4_tcp_forwarded_with_ttl_and_checksum)
{
	struct hx_frame_spec spec;
	uint8_t in[HX_PKT_MAX];
	struct hx_result r;
	size_t len;

	hx_frame_spec_init(&spec, 4);
	len = hx_frame_build(&spec, in, sizeof(in));
	cr_assert_eq(hx_fwd_flow(env->target, HWXDP_LIF(1, 0), &spec, NH_P2), 0);

	hx_run_bytes(env, 1, in, len, &r);
	hx_assert_forward(&r, 1, 2);
	cr_assert_eq(r.len, len, "length changed: %zu -> %zu", len, r.len);
	expect_macs(&r, "02:00:00:00:02:01", "02:00:00:00:02:fe");
	cr_assert_eq(r.frame[14 + 8], 63, "TTL %u, expected 63", r.frame[14 + 8]);
	cr_assert(hx_ipv4_header_csum_ok(r.frame + 14, 20), "IPv4 header checksum wrong");
	cr_assert(hx_l4_csum_ok(r.frame, r.len), "TCP checksum wrong");
	/* Everything past the MACs but TTL and checksum is untouched. */
	cr_assert_arr_eq(r.frame + 12, in + 12, 14 + 8 - 12);
	cr_assert_arr_eq(r.frame + 14 + 12, in + 14 + 12, len - 14 - 12);
}
