// SPDX-License-Identifier: GPL-2.0
/*
 * The reference interpreter, the device and the kernel on a bridge's flood
 * (tests/corpus/redirect_broadcast.bpf.c: bpf_redirect_map with
 * BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS, merged by clang with a plain
 * redirect): the same verdict for each frame, an empty devmap's broadcast
 * included, which is XDP_REDIRECT and not the flags' low bits.
 */
#include <criterion/criterion.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lab/bpf_count.h"
#include "lab/target.h"

#define TARGETS 3

static const uint8_t host_a[6] = { 0x02, 0, 0, 0, 0, 0xaa };
static const uint8_t host_b[6] = { 0x02, 0, 0, 0, 0, 0xbb };
static const uint8_t group[6] = { 0x01, 0, 0x5e, 0, 0, 1 };

static void frame_of(uint8_t *frame, const uint8_t *dst, const uint8_t *src)
{
	memset(frame, 0, 64);
	memcpy(frame, dst, 6);
	memcpy(frame + 6, src, 6);
	frame[12] = 0x08;
}

/* Every frame on each target, as arriving on lo (ifindex 1, port 1 of the
 * bridge): the verdicts, which must be the kernel's. */
static void run_all(struct hx_target **t, int n, uint32_t *want, const char *when)
{
	static struct hx_result r;
	uint8_t frame[64];
	const uint8_t *dst[] = { group, host_b, host_a, group };
	const uint8_t *src[] = { host_a, host_a, host_b, host_b };

	for (size_t f = 0; f < 4; f++) {
		frame_of(frame, dst[f], src[f]);
		for (int i = 0; i < n; i++) {
			cr_assert_eq(hx_target_run(t[i], 1, frame, sizeof(frame), &r), 0, "%s: %s",
				     when, hx_target_name(t[i]));
			if (i == 0)
				want[f] = r.action;
			cr_assert_eq(r.action, want[f], "%s, frame %zu: %s says %u, %s %u", when, f,
				     hx_target_name(t[i]), r.action, hx_target_name(t[0]), want[f]);
		}
	}
}

Test(lab_count, a_broadcast_as_the_kernel_and_the_device)
{
	char path[4096];
	struct hx_target *t[TARGETS];
	uint32_t got[4];
	int n = 0;

	snprintf(path, sizeof(path), "%s/tests/corpus/redirect_broadcast.bpf.o", hx_build_dir());
	if (geteuid() == 0)
		t[n++] = hx_target_open("kernel", path);
	t[n++] = hx_count_target_open(path);
	t[n++] = hx_target_open("device", path);
	for (int i = 0; i < n; i++)
		cr_assert_not_null(t[i], "%s", path);

	/* an empty devmap: the flood is XDP_REDIRECT all the same */
	run_all(t, n, got, "no ports");
	cr_assert_eq(got[0], XDP_REDIRECT, "a group: flooded");
	cr_assert_eq(got[1], XDP_REDIRECT, "an unknown host: flooded");
	cr_assert_eq(got[2], XDP_DROP, "a host learnt on the ingress port");
	cr_assert_eq(got[3], XDP_REDIRECT);

	for (uint32_t port = 1; port <= 3; port++) {
		uint32_t ifindex = 1;

		for (int i = 0; i < n; i++)
			cr_assert_eq(hx_target_map_update(t[i], "bridge_ports", &port, &ifindex), 0);
	}
	run_all(t, n, got, "three ports");
	cr_assert_eq(got[0], XDP_REDIRECT);
	cr_assert_eq(got[1], XDP_DROP, "B is learnt now");
	cr_assert_eq(got[2], XDP_DROP);
	cr_assert_eq(got[3], XDP_REDIRECT);
	for (int i = 0; i < n; i++)
		hx_target_close(t[i]);
}
