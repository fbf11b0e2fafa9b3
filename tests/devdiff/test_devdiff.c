// SPDX-License-Identifier: GPL-2.0
/*
 * The device against the kernel: the same lab, the same map contents and the
 * same frames on both targets, and every verdict, output byte, metadata and
 * counter must agree. Valid tunnel flows are left out: there the kernel
 * punts (no crypto) and the device encrypts, by design.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tests/common/fwd_env.h"

#define RANDOM_FRAMES 5000
#define MAX_CASES     (256 + RANDOM_FRAMES)

struct dcase {
	uint8_t bytes[2048];
	size_t len;
	uint32_t ifindex;
	char what[48];
};

static struct dcase cases[MAX_CASES];
static unsigned int case_cnt;

/* Flow keys installed, for the final comparison of the flow counters. */
static struct hwxdp_flow_key flow_keys[32];
static unsigned int flow_cnt;

static const uint32_t all_lifs[] = {
	HWXDP_LIF(1, 0),  HWXDP_LIF(1, 50), HWXDP_LIF(2, 0),  HWXDP_LIF(2, 60),
	HWXDP_LIF(3, 0),  HWXDP_LIF(3, 70), HWXDP_LIF(2, 70), HWXDP_LIF(2, 80),
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void add_bytes(const struct hx_env *env, unsigned int port, const uint8_t *b, size_t len,
		      const char *what)
{
	struct dcase *c;

	cr_assert_lt(case_cnt, MAX_CASES);
	cr_assert_leq(len, sizeof(c->bytes));
	c = &cases[case_cnt++];
	memcpy(c->bytes, b, len);
	c->len = len;
	/* port 0: lo, a device the kernel knows that is no lab port */
	c->ifindex = port ? env->ifindex[port] : 1;
	snprintf(c->what, sizeof(c->what), "%s", what);
}

static void add_spec(const struct hx_env *env, unsigned int port, const struct hx_frame_spec *s,
		     const char *what)
{
	uint8_t buf[2048];
	size_t len = hx_frame_build(s, buf, sizeof(buf));

	cr_assert_gt(len, 0, "%s does not build", what);
	add_bytes(env, port, buf, len, what);
}

static struct hx_frame_spec spec_of(int family, int vlan, uint16_t sport)
{
	struct hx_frame_spec s;

	hx_frame_spec_init(&s, family);
	s.vlan = vlan;
	s.sport = sport;
	return s;
}

static void must(int err, const char *what)
{
	cr_assert_eq(err, 0, "%s: %s", what, strerror(-err));
}

static void flow_on_both(struct hx_env *envs, uint32_t lif, const struct hx_frame_spec *s,
			 uint32_t nexthop, uint32_t sa_handle, uint32_t sa_rev)
{
	for (int t = 0; t < 2; t++) {
		if (sa_rev)
			must(hx_fwd_tunnel_flow(envs[t].target, lif, s, nexthop, sa_handle, sa_rev),
			     "tunnel flow");
		else
			must(hx_fwd_flow(envs[t].target, lif, s, nexthop), "flow");
	}
	cr_assert_lt(flow_cnt, sizeof(flow_keys) / sizeof(flow_keys[0]));
	hx_fwd_flow_key(&flow_keys[flow_cnt++], lif, s);
}

/* The lab's extra state, identical on both targets, and the fixed cases. */
static void build_lab(struct hx_env *envs)
{
	const struct hx_env *env = &envs[0];
	struct hx_frame_spec s;
	uint8_t buf[2048];
	size_t len;

	for (int t = 0; t < 2; t++) {
		struct hx_target *tg = envs[t].target;

		must(hx_fwd_nexthop(tg, 5, 7, 0, 1500, "02:00:00:00:07:01", "02:00:00:00:07:fe"),
		     "nexthop 5");
		must(hx_fwd_nexthop(tg, 6, 2, 0, 100, "02:00:00:00:02:01", "02:00:00:00:02:fe"),
		     "nexthop 6");
		must(hx_fwd_nexthop(tg, 7, 3, 70, 1500, "02:00:00:00:03:01", "02:00:00:00:03:fe"),
		     "nexthop 7");
		must(hx_fwd_lif(tg, HWXDP_LIF(3, 70), HWXDP_LIF_OFFLOAD_DISABLED), "lif 3.70");
		must(hx_fwd_lif(tg, HWXDP_LIF(2, 70), HWXDP_LIF_ADMIN_DISABLED), "lif 2.70");
		must(hx_fwd_lif(tg, HWXDP_LIF(2, 80), HWXDP_LIF_OFFLOAD_DISABLED), "lif 2.80");
		must(hx_fwd_sa(tg, 3, 2, 0x1003, "192.0.2.1", "192.0.2.2"), "sa");
	}

	/* Forwarded, each tag change, both families. */
	s = spec_of(4, -1, 1001);
	flow_on_both(envs, HWXDP_LIF(1, 0), &s, NH_P2, 0, 0);
	add_spec(env, 1, &s, "v4 untagged -> port 2");
	s = spec_of(6, -1, 1002);
	s.proto = 17;
	flow_on_both(envs, HWXDP_LIF(1, 0), &s, NH_P2_V60, 0, 0);
	add_spec(env, 1, &s, "v6 udp push tag 60");
	s = spec_of(4, 50, 1003);
	flow_on_both(envs, HWXDP_LIF(1, 50), &s, NH_P2, 0, 0);
	add_spec(env, 1, &s, "v4 pop tag 50");
	s = spec_of(4, 50, 1004);
	s.pcp = 5;
	flow_on_both(envs, HWXDP_LIF(1, 50), &s, NH_P2_V60, 0, 0);
	add_spec(env, 1, &s, "v4 rewrite tag 50 -> 60");
	s = spec_of(6, 50, 1005);
	flow_on_both(envs, HWXDP_LIF(1, 50), &s, NH_P1_V50, 0, 0);
	add_spec(env, 1, &s, "v6 hairpin tx");
	s = spec_of(4, -1, 1006);
	flow_on_both(envs, HWXDP_LIF(2, 0), &s, NH_P1, 0, 0);
	add_spec(env, 2, &s, "v4 port 2 -> 1");
	s = spec_of(6, 60, 1007);
	flow_on_both(envs, HWXDP_LIF(2, 60), &s, NH_P1, 0, 0);
	add_spec(env, 2, &s, "v6 pop tag 60");

	/* Every punt reason the lab can reach. */
	s = spec_of(4, -1, 1008);
	s.ttl = 1;
	flow_on_both(envs, HWXDP_LIF(1, 0), &s, NH_P2, 0, 0);
	add_spec(env, 1, &s, "ttl exceeded");
	s = spec_of(6, -1, 1009);
	s.ttl = 1;
	flow_on_both(envs, HWXDP_LIF(1, 0), &s, NH_P2, 0, 0);
	add_spec(env, 1, &s, "hop limit exceeded");
	s = spec_of(4, -1, 1010);
	flow_on_both(envs, HWXDP_LIF(1, 0), &s, 9, 0, 0);
	add_spec(env, 1, &s, "nexthop miss");
	s = spec_of(4, -1, 1011);
	flow_on_both(envs, HWXDP_LIF(1, 0), &s, 5, 0, 0);
	add_spec(env, 1, &s, "egress miss");
	s = spec_of(4, -1, 1012);
	s.payload_len = 200;
	flow_on_both(envs, HWXDP_LIF(1, 0), &s, 6, 0, 0);
	add_spec(env, 1, &s, "mtu exceeded");
	s = spec_of(4, -1, 1013);
	flow_on_both(envs, HWXDP_LIF(1, 0), &s, 7, 0, 0);
	add_spec(env, 1, &s, "egress lif off");
	s = spec_of(4, -1, 1014);
	flow_on_both(envs, HWXDP_LIF(1, 0), &s, NH_P2, 3, 1);
	add_spec(env, 1, &s, "sa stale");
	s = spec_of(4, -1, 2000);
	add_spec(env, 1, &s, "flow miss");
	s = spec_of(6, -1, 2001);
	add_spec(env, 1, &s, "v6 flow miss");
	s = spec_of(4, -1, 1001);
	add_spec(env, 0, &s, "unknown port");
	s = spec_of(4, 99, 1001);
	add_spec(env, 1, &s, "unknown vlan");
	s = spec_of(4, 4095, 1001);
	add_spec(env, 1, &s, "reserved vlan");
	s = spec_of(4, 50, 1001);
	s.outer_tpid = 0x88a8;
	s.outer_vid = 7;
	add_spec(env, 1, &s, "qinq");
	s = spec_of(4, -1, 1001);
	s.outer_tpid = 0x88a8;
	s.vlan = -1;
	add_spec(env, 1, &s, "802.1ad alone");
	s = spec_of(4, 70, 1001);
	add_spec(env, 2, &s, "admin-disabled lif");
	s = spec_of(4, 80, 1001);
	add_spec(env, 2, &s, "offload-disabled lif");
	s = spec_of(0, -1, 0);
	s.ethertype = 0x0806;
	add_spec(env, 1, &s, "arp");
	s = spec_of(4, -1, 1001);
	s.ip_options_len = 8;
	add_spec(env, 1, &s, "ip options");
	s = spec_of(4, -1, 1001);
	s.frag = 0x2000;
	add_spec(env, 1, &s, "fragment");
	s = spec_of(4, -1, 1001);
	s.frag = 0x0010;
	add_spec(env, 1, &s, "later fragment");
	s = spec_of(4, -1, 0);
	s.proto = 1;
	add_spec(env, 1, &s, "icmp");
	s = spec_of(6, -1, 1001);
	s.has_ipv6_ext = true;
	s.ipv6_ext = 0;
	add_spec(env, 1, &s, "ipv6 hop-by-hop");
	s = spec_of(6, -1, 0);
	s.proto = 58;
	add_spec(env, 1, &s, "icmpv6");

	/* Malformed: every prefix of a forwarded frame, tagged and not. */
	s = spec_of(4, 50, 1003);
	len = hx_frame_build(&s, buf, sizeof(buf));
	for (size_t cut = 0; cut < len && cut < 70; cut += 3)
		add_bytes(env, 1, buf, cut, "v4 tagged prefix");
	s = spec_of(6, -1, 1002);
	s.proto = 17;
	len = hx_frame_build(&s, buf, sizeof(buf));
	for (size_t cut = 10; cut < len && cut < 70; cut += 5)
		add_bytes(env, 1, buf, cut, "v6 prefix");
}

/* Random and mutated frames from the fixed ones, with a fixed seed. */
static void add_random(const struct hx_env *env)
{
	unsigned int fixed = case_cnt;

	for (unsigned int n = 0; n < RANDOM_FRAMES; n++) {
		uint8_t buf[2048];
		uint64_t r = rng();
		size_t len;
		unsigned int port = 1 + (unsigned int)(r % 3);

		if (r % 10 == 0) {
			len = (size_t)(rng() % 200);
			for (size_t i = 0; i < len; i++)
				buf[i] = (uint8_t)rng();
		} else {
			const struct dcase *base = &cases[rng() % fixed];
			unsigned int flips = 1 + (unsigned int)(rng() % 4);

			len = base->len;
			memcpy(buf, base->bytes, len);
			port = 0;
			for (unsigned int i = 0; i < HX_PORTS; i++)
				if (env->ifindex[i + 1] == base->ifindex)
					port = i + 1;
			for (unsigned int f = 0; f < flips && len; f++) {
				/* Headers more often than payload. */
				size_t at = rng() % (len < 64 || rng() % 2 ? len : 64);

				buf[at] ^= (uint8_t)(1u << (rng() % 8));
			}
			if (rng() % 8 == 0 && len)
				len = rng() % len;
		}
		add_bytes(env, port, buf, len, "random");
	}
}

static unsigned int compare_run(struct hx_env *envs, const struct dcase *c, unsigned int index)
{
	static struct hx_result res[2];
	int rc[2];

	for (int t = 0; t < 2; t++)
		rc[t] = hx_target_run(envs[t].target, c->ifindex, c->bytes, c->len, &res[t]);
	if (rc[0] != rc[1]) {
		fprintf(stderr, "case %u (%s, %zu bytes): kernel rc %d, device rc %d\n", index,
			c->what, c->len, rc[0], rc[1]);
		return 1;
	}
	if (rc[0])
		return 0;
	if (res[0].action != res[1].action || res[0].len != res[1].len ||
	    memcmp(res[0].frame, res[1].frame, res[0].len) ||
	    res[0].has_meta != res[1].has_meta ||
	    (res[0].has_meta && memcmp(&res[0].meta, &res[1].meta, sizeof(res[0].meta)))) {
		fprintf(stderr,
			"case %u (%s): kernel %s len %zu meta %d reason %u, device %s len %zu "
			"meta %d reason %u\n",
			index, c->what, hwxdp_xdp_action_name(res[0].action), res[0].len,
			res[0].has_meta, res[0].meta.reason, hwxdp_xdp_action_name(res[1].action),
			res[1].len, res[1].has_meta, res[1].meta.reason);
		return 1;
	}
	return 0;
}

static unsigned int compare_maps(struct hx_env *envs)
{
	unsigned int diff = 0;

	for (size_t i = 0; i < sizeof(all_lifs) / sizeof(all_lifs[0]); i++) {
		struct hwxdp_lif a = {}, b = {};
		int ra = hx_target_map_lookup(envs[0].target, "lifs", &all_lifs[i], &a);
		int rb = hx_target_map_lookup(envs[1].target, "lifs", &all_lifs[i], &b);

		if (ra != rb || memcmp(&a, &b, sizeof(a))) {
			fprintf(stderr, "lif 0x%x: kernel rx %llu/%llu tx %llu, device rx %llu/%llu "
					"tx %llu\n",
				all_lifs[i], (unsigned long long)a.rx_packets,
				(unsigned long long)a.rx_bytes, (unsigned long long)a.tx_packets,
				(unsigned long long)b.rx_packets, (unsigned long long)b.rx_bytes,
				(unsigned long long)b.tx_packets);
			diff++;
		}
	}
	for (unsigned int i = 0; i < flow_cnt; i++) {
		struct hwxdp_flow a = {}, b = {};
		int ra = hx_target_map_lookup(envs[0].target, "flows", &flow_keys[i], &a);
		int rb = hx_target_map_lookup(envs[1].target, "flows", &flow_keys[i], &b);

		if (ra || rb || memcmp(&a, &b, sizeof(a))) {
			fprintf(stderr, "flow %u: kernel %llu pkts, device %llu\n", i,
				(unsigned long long)a.packets, (unsigned long long)b.packets);
			diff++;
		}
	}
	for (uint32_t r = 0; r < HWXDP_PUNT__MAX; r++) {
		struct hwxdp_counter a = {}, b = {};
		int ra = hx_target_map_lookup(envs[0].target, "punt_stats", &r, &a);
		int rb = hx_target_map_lookup(envs[1].target, "punt_stats", &r, &b);

		if (ra || rb || memcmp(&a, &b, sizeof(a))) {
			fprintf(stderr, "punt %s: kernel %llu, device %llu\n",
				hwxdp_punt_reason_name(r), (unsigned long long)a.packets,
				(unsigned long long)b.packets);
			diff++;
		}
	}
	return diff;
}

Test(devdiff, fwd_kernel_vs_device, .timeout = 300)
{
	struct hx_env envs[2];
	unsigned int diff = 0, map_diff, punt_kinds = 0;
	uint64_t ops = 0, bundles = 0, runs = 0;
	struct hx_run_stats st;
	bool seen[HWXDP_PUNT__MAX] = {};

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	hx_env_open(&envs[0], "kernel");
	hx_env_open_like(&envs[1], "device", &envs[0]);
	case_cnt = 0;
	flow_cnt = 0;
	build_lab(envs);
	add_random(&envs[0]);

	for (unsigned int i = 0; i < case_cnt; i++) {
		struct hx_result r;

		diff += compare_run(envs, &cases[i], i);
		if (!hx_target_run(envs[1].target, cases[i].ifindex, cases[i].bytes, cases[i].len,
				   &r)) {
			if (!hx_target_stats(envs[1].target, &st)) {
				ops += st.ops;
				bundles += st.bundles;
				runs++;
			}
			if (r.has_meta && r.action == XDP_PASS && r.meta.reason < HWXDP_PUNT__MAX)
				seen[r.meta.reason] = true;
		}
		/* Keep the counters in step: run it on the kernel a second time too. */
		hx_target_run(envs[0].target, cases[i].ifindex, cases[i].bytes, cases[i].len, &r);
	}
	/* The live switch: VLAN flows off, every tagged case again. */
	for (int t = 0; t < 2; t++)
		must(hx_fwd_config(envs[t].target, 0, 1, 0), "config");
	for (unsigned int i = 0; i < 64 && i < case_cnt; i++)
		diff += compare_run(envs, &cases[i], i);
	map_diff = compare_maps(envs);
	for (unsigned int r = 0; r < HWXDP_PUNT__MAX; r++)
		punt_kinds += seen[r];
	hx_target_stats(envs[1].target, &st);
	fprintf(stderr,
		"devdiff: %u frames (+64 with vlan_flows off), %u differ; %u map entries differ; "
		"%u punt reasons seen; device %.1f ops per frame (%llu bundles); image %zu ops "
		"for %zu BPF insns\n",
		case_cnt, diff, map_diff, punt_kinds, runs ? (double)ops / (double)runs : 0.0,
		(unsigned long long)bundles, st.image_ops, st.bpf_insns);
	hx_env_close(&envs[1]);
	hx_env_close(&envs[0]);
	cr_assert_eq(diff, 0, "%u of %u frames differ between kernel and device", diff, case_cnt);
	cr_assert_eq(map_diff, 0, "%u map entries differ", map_diff);
}
