// SPDX-License-Identifier: GPL-2.0
/*
 * redirect_egress_mac, in each build, end to end against the kernel: the
 * port's program redirects into a devmap whose entries name a port and, for
 * some, the object's devmap program, and what leaves is compared with what
 * the kernel really sends (tests/corpus/live.h: live frames in a namespace
 * of the test's own, captured on the veth peer by an AF_PACKET socket).
 * The kernel's entries hold the program's fd, the device's the program's
 * number in its image (hwxdp_device_prog__entry_prog).
 *
 *   entry 0  hxdm0 with the program   (sent with hxdm0's MAC, or dropped)
 *   entry 1  hxdm0 with no program    (sent as the port's program left it)
 *   entry 2  hxdm1 with the program   (no MAC for hxdm1: dropped)
 *   entry 3  none                     (the port's program drops)
 *
 * Per frame: the port program's verdict (BPF_PROG_TEST_RUN without live
 * frames gives it), whether the frame arrived, and its bytes; after the
 * run, the program's counters.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "device/compile.h"
#include "device/engine.h"
#include "lab/pkt.h"
#include "lab/target.h"
#include "loader/device.h"
#include "tests/corpus/live.h"
#include "tests/devdiff/pair.h"

#define FRAMES 420
#define PORT   "xdp_redirect_map_prog"
#define ENTRY  "xdp_redirect_map_egress"

static const uint8_t hxdm0_mac[6] = { 0x02, 0x68, 0x78, 0x64, 0x6d, 0x30 };

/* Frame i: the entry by the destination's last byte, ARP, the local
 * experimental ethertype, IPv6 multicast, IPv4 and IPv6 of several sizes. */
static size_t frame_of(unsigned int i, uint8_t *buf, size_t cap)
{
	static const size_t sizes[] = { 0, 18, 64, 300, 1000 };
	struct hx_frame_spec sp;
	unsigned int kind = (i / 4) % 6;
	size_t len;

	hx_frame_spec_init(&sp, kind == 1 || kind == 3 ? 6 : kind == 4 || kind == 5 ? 0 : 4);
	sp.dmac[5] = (uint8_t)(i % 4);
	sp.smac[4] = (uint8_t)(i >> 8);
	sp.smac[5] = (uint8_t)i;
	sp.payload_len = sizes[(i / 24) % 5];
	sp.proto = i % 3 ? 6 : 17;
	sp.ip_id = (uint16_t)i;
	if (kind == 3) {
		/* IPv6 multicast: 33:33 and the group's low bytes */
		sp.dmac[0] = sp.dmac[1] = 0x33;
	}
	if (kind == 4)
		sp.ethertype = 0x0806;
	if (kind == 5)
		sp.ethertype = i % 8 < 4 ? 0x88b5 : 0x1234;
	if (i % 7 == 0)
		sp.vlan = (int)(i % 4096);
	len = hx_frame_build(&sp, buf, cap);
	cr_assert_gt(len, 0, "frame %u", i);
	return len;
}

static void put_entry(struct dd_side *s, uint32_t key, uint32_t ifindex, int prog)
{
	struct bpf_devmap_val val = { .ifindex = ifindex, .bpf_prog.fd = prog };
	struct dd_map *m = dd_side_map(s, "tx_port");

	cr_assert_not_null(m);
	if (s->device)
		cr_assert_eq(hwxdp_table__update(m->tab, &key, &val, BPF_ANY), 0, "device entry %u",
			     key);
	else
		cr_assert_eq(bpf_map_update_elem(m->fd, &key, &val, BPF_ANY), 0,
			     "kernel entry %u: %s", key, strerror(errno));
}

static void put_mac(struct dd_side *s, uint32_t ifindex)
{
	uint8_t val[8] = { 0 };
	struct dd_map *m = dd_side_map(s, "port_macs");

	memcpy(val, hxdm0_mac, 6);
	cr_assert_not_null(m);
	if (s->device)
		cr_assert_eq(hwxdp_table__update(m->tab, &ifindex, val, BPF_ANY), 0);
	else
		cr_assert_eq(bpf_map_update_elem(m->fd, &ifindex, val, BPF_ANY), 0);
}

static uint64_t counter(struct dd_side *s, uint32_t i)
{
	struct dd_map *m = dd_side_map(s, "egress_stats");
	uint64_t v = UINT64_MAX;

	cr_assert_not_null(m);
	cr_assert_eq(dd_map_lookup(m, &i, &v), 0);
	return v;
}

struct tally {
	unsigned int frames, differ, sent, dropped_by_entry, port_drops;
};

static void run_build(const char *build, enum hwxdp_engine_mode mode, struct tally *t)
{
	static uint8_t buf[2048], out[2048];
	char path[4096], why[256] = "";
	struct dd_side k, d;
	struct live_net n;
	struct bpf_program *bp;
	uint32_t entry_index = 0;
	unsigned int shown = 0;
	int entry_fd, port_fd, err;

	snprintf(path, sizeof(path), "%s/tests/%s/redirect_egress_mac.bpf.o", hx_build_dir(),
		 build);
	cr_assert_eq(dd_side_open_kernel_prog(&k, path, PORT), 0, "%s: kernel side", path);
	cr_assert_eq(dd_side_open_device_prog(&d, path, PORT), 0, "%s: device side", path);
	cr_assert_eq(hwxdp_engine__set_mode(d.engine, mode), 0);
	if (hwxdp_engine__mode(d.engine) != mode) {
		cr_log_warn("%s: no compiled engine here: interpreted only", build);
		dd_side_close(&k);
		dd_side_close(&d);
		return;
	}
	bp = bpf_object__find_program_by_name(k.bobj, ENTRY);
	cr_assert_not_null(bp);
	entry_fd = bpf_program__fd(bp);
	port_fd = k.prog_fd;
	cr_assert_eq(d.dp->img->prog_cnt, 2, "%s: the image holds the port's program and %s", build,
		     ENTRY);
	cr_assert_eq(hwxdp_device_prog__entry_prog(d.dp, ENTRY, &entry_index), 0);
	cr_expect_eq(entry_index, 1);
	/* not a devmap program: the kernel's devmap refuses it, the device's
	 * control plane too */
	cr_expect_eq(hwxdp_device_prog__entry_prog(d.dp, PORT, &entry_index), -EINVAL);

	err = live_net_open(&n, why, sizeof(why));
	cr_assert_eq(err, 0, "%s", why);
	put_entry(&k, 0, n.tx_ifindex, entry_fd);
	put_entry(&k, 1, n.tx_ifindex, 0);
	put_entry(&k, 2, n.rx_ifindex, entry_fd);
	put_entry(&d, 0, n.tx_ifindex, (int)entry_index);
	put_entry(&d, 1, n.tx_ifindex, 0);
	put_entry(&d, 2, n.rx_ifindex, (int)entry_index);
	put_mac(&k, n.tx_ifindex);
	put_mac(&d, n.tx_ifindex);

	for (unsigned int i = 0; i < FRAMES; i++) {
		size_t len = frame_of(i, buf, sizeof(buf)), out_len = 0, dlen = 0;
		uint32_t ingress = i % 5 == 4 ? n.tx_ifindex : n.in_ifindex, rxq = (i / 3) % 2;
		struct hwxdp_frame f = { .window = d.window, .ingress = ingress, .rx_queue = rxq };
		struct hx_result rk;
		bool arrived, sent;
		int ek, ed, er;

		if (!live_net_carries(buf, len))
			continue;
		/* the port program's verdict, without the redirect carried out */
		er = hx_kernel_run_frame(port_fd, ingress, buf, len, &rk);
		cr_assert_eq(er, 0, "frame %u: BPF_PROG_TEST_RUN: %d", i, er);
		ek = live_net_send(&n, port_fd, ingress, rxq, buf, len, &arrived, out, sizeof(out),
				   &out_len);
		cr_assert_eq(ek, 0, "frame %u: the live run: %s", i, strerror(-ek));
		hwxdp_frame__place(&f, buf, (uint32_t)len);
		ed = hwxdp_engine__run(d.engine, 0, &f, NULL);
		sent = !ed && f.verdict == XDP_REDIRECT && f.egress == n.tx_ifindex;
		dlen = sent ? f.data_end - f.data : 0;
		t->frames++;
		t->sent += sent;
		t->dropped_by_entry +=
			!ed && f.egress_prog != HWXDP_PROG_NONE && f.egress_verdict != XDP_PASS;
		t->port_drops += !ed && f.verdict == XDP_DROP;
		if (!ed && f.verdict == rk.action && arrived == sent &&
		    (!sent || (dlen == out_len && !memcmp(out, d.window + f.data, dlen))))
			continue;
		t->differ++;
		if (shown++ < 3) {
			fprintf(stderr,
				"%s: frame %u (%zu bytes, in by %u) differs: kernel %u, %s (%zu "
				"bytes); device %u (error %d), entry verdict %u, %s (%zu bytes)\n",
				build, i, len, ingress, rk.action, arrived ? "sent" : "not sent",
				out_len, f.verdict, ed, f.egress_verdict,
				sent ? "sent" : "not sent", dlen);
			hx_hexdump(stderr, buf, len < 48 ? len : 48);
			if (arrived)
				hx_hexdump(stderr, out, out_len < 48 ? out_len : 48);
			if (sent)
				hx_hexdump(stderr, d.window + f.data, dlen < 48 ? dlen : 48);
		}
	}
	live_net_close(&n);
	for (uint32_t c = 0; c < 8; c++)
		cr_expect_eq(counter(&k, c), counter(&d, c),
			     "%s: egress_stats[%u]: kernel %llu, "
			     "device %llu",
			     build, c, (unsigned long long)counter(&k, c),
			     (unsigned long long)counter(&d, c));
	cr_log_info("%s: %u frames; kernel sent %llu of %llu; sent %llu, rx queue 0/1 %llu/%llu",
		    build, t->frames, (unsigned long long)n.arrived, (unsigned long long)n.sent,
		    (unsigned long long)counter(&k, 0), (unsigned long long)counter(&k, 5),
		    (unsigned long long)counter(&k, 6));
	dd_side_close(&k);
	dd_side_close(&d);
}

Test(corpus, devmap_entry_program_live, .timeout = 300)
{
	static const char *const builds[] = { "corpus", "corpus-v3", "corpus-O1" };

	if (geteuid() != 0)
		cr_skip_test("a network namespace, veths and BPF_PROG_TEST_RUN need root");
	/* each build on the interpreter and on the compiled engine */
	for (size_t b = 0; b < 6; b++) {
		struct tally t = { 0 };

		run_build(builds[b / 2], b % 2 ? HWXDP_ENGINE_COMPILED : HWXDP_ENGINE_INTERP, &t);
		if (!t.frames)
			continue;
		cr_expect_eq(t.differ, 0, "%s: %u of %u frames differ between kernel and device",
			     builds[b / 2], t.differ, t.frames);
		cr_expect(t.sent && t.dropped_by_entry && t.port_drops,
			  "%s: the frames took too few ways: %u sent, %u dropped by the entry's "
			  "program, %u by the port's",
			  builds[b / 2], t.sent, t.dropped_by_entry, t.port_drops);
		cr_log_info("%s (%s): %u frames the same on both: %u sent, %u dropped by the "
			    "entry's program, %u by the port's",
			    builds[b / 2], b % 2 ? "compiled" : "interpreted", t.frames, t.sent,
			    t.dropped_by_entry, t.port_drops);
	}
}
