// SPDX-License-Identifier: GPL-2.0
/*
 * The translator's figure of merit: microcode issue slots per frame against
 * the BPF instructions the program itself executes on the same frame
 * (lab/bpf_count.h). The count is only meaningful when the interpreter
 * followed the program's real path, so it is held to the kernel's verdict
 * and bytes where the kernel can run.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/bpf.h>
#include <string.h>
#include <unistd.h>

#include "lab/bpf_count.h"
#include "fwdlab/fwd_lab.h"
#include "fwdlab/netlab.h"
#include "lab/target.h"

struct measure {
	struct hx_run_stats device, bpf;
	struct hx_result device_result, bpf_result;
};

static struct hx_target *open_lab(const char *name, const uint32_t *ifindex)
{
	struct hx_target *t = !strcmp(name, "count")
				      ? hx_count_target_open(hx_object_path("fwd"))
				      : hx_target_open(name, hx_object_path("fwd"));

	cr_assert_not_null(t, "cannot open fwd on %s: %s", name, strerror(errno));
	cr_assert_eq(hx_lab_setup(t, ifindex), 0, "lab set-up on %s", name);
	return t;
}

static void measure(enum hx_lab_kind kind, struct measure *m)
{
	static const uint32_t ifindex[HX_LAB_PORTS] = { 11, 12, 13 };
	struct hx_target *dev = open_lab("device", ifindex), *cnt = open_lab("count", ifindex);
	const struct hx_lab_frame *lf = &hx_lab_frames[kind];
	uint8_t frame[HX_PKT_MAX];
	size_t len = hx_lab_build(kind, frame, sizeof(frame));

	cr_assert_gt(len, 0);
	cr_assert_eq(hx_target_run(dev, ifindex[lf->port - 1], frame, len, &m->device_result), 0);
	cr_assert_eq(hx_target_stats(dev, &m->device), 0);
	cr_assert_eq(hx_target_run(cnt, ifindex[lf->port - 1], frame, len, &m->bpf_result), 0);
	cr_assert_eq(hx_target_stats(cnt, &m->bpf), 0);
	/* The same path: the same verdict, bytes and metadata. */
	cr_assert_eq(m->bpf_result.action, m->device_result.action);
	cr_assert_eq(m->bpf_result.len, m->device_result.len);
	cr_assert_arr_eq(m->bpf_result.frame, m->device_result.frame, m->bpf_result.len);
	cr_assert_eq(m->bpf_result.has_meta, m->device_result.has_meta);
	cr_log_info("%s: %llu BPF insns, %llu ops, %llu slots, %llu cycles; slots/BPF %.3f",
		    lf->name, (unsigned long long)m->bpf.ops, (unsigned long long)m->device.ops,
		    (unsigned long long)m->device.bundles, (unsigned long long)m->device.cycles,
		    (double)m->device.bundles / (double)m->bpf.ops);
	hx_target_close(dev);
	hx_target_close(cnt);
}

static void assert_half(enum hx_lab_kind kind)
{
	struct measure m;

	measure(kind, &m);
	cr_assert_eq(m.device_result.action, XDP_REDIRECT, "%s is forwarded",
		     hx_lab_frames[kind].name);
	cr_assert_gt(m.bpf.ops, 100, "a routed frame runs the whole program");
	cr_assert_leq(2 * m.device.bundles, m.bpf.ops,
		      "%s: %llu issue slots for %llu BPF instructions, more than half",
		      hx_lab_frames[kind].name, (unsigned long long)m.device.bundles,
		      (unsigned long long)m.bpf.ops);
}

Test(slots, plain_routed_half_of_bpf)
{
	assert_half(HX_LAB_PLAIN);
}

Test(slots, vlan_pop_half_of_bpf)
{
	assert_half(HX_LAB_VLAN_POP);
}

Test(slots, vlan_push_half_of_bpf)
{
	assert_half(HX_LAB_VLAN_PUSH);
}

/* The interpreter against the kernel itself, every lab frame. */
Test(slots, count_follows_the_kernel)
{
	uint32_t ifindex[HX_LAB_PORTS];
	struct hx_target *kern, *cnt;
	static struct hx_result a, b;

	if (geteuid() != 0)
		cr_skip_test("the kernel target needs root");
	cr_assert_eq(hx_netlab_enter(HX_LAB_PORTS, ifindex), 0);
	kern = open_lab("kernel", ifindex);
	cnt = open_lab("count", ifindex);
	for (int k = 0; k < HX_LAB__COUNT; k++) {
		const struct hx_lab_frame *lf = &hx_lab_frames[k];
		uint8_t frame[HX_PKT_MAX];
		size_t len = hx_lab_build((enum hx_lab_kind)k, frame, sizeof(frame));

		cr_assert_eq(hx_target_run(kern, ifindex[lf->port - 1], frame, len, &a), 0);
		cr_assert_eq(hx_target_run(cnt, ifindex[lf->port - 1], frame, len, &b), 0);
		cr_assert_eq(b.action, a.action, "%s: verdict", lf->name);
		cr_assert_eq(b.len, a.len, "%s: length", lf->name);
		cr_assert_arr_eq(b.frame, a.frame, a.len, "%s: bytes", lf->name);
		cr_assert_eq(b.has_meta, a.has_meta, "%s: metadata", lf->name);
		if (a.has_meta)
			cr_assert_arr_eq(&b.meta, &a.meta, sizeof(a.meta), "%s: metadata",
					 lf->name);
	}
	hx_target_close(kern);
	hx_target_close(cnt);
}
