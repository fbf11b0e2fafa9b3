// SPDX-License-Identifier: GPL-2.0
/*
 * A redirect the device makes on some paths and punts on others
 * (tests/devdiff/bpf/redirect_cpu_or_port.bpf.c): the call is given a
 * cpumap or a devmap, met at one instruction. Frames for the devmap leave
 * the kernel and the device with the same verdict and bytes; frames for
 * the cpumap are punted by the device, untouched, with the host-only
 * reason, where the kernel (its cpumap empty here) takes the flags'
 * XDP_PASS.
 */
#include <criterion/criterion.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "device/engine.h"
#include "lab/target.h"
#include "loader/device.h"
#include "tests/devdiff/pair.h"

#define FRAME_LEN 64
#define INGRESS	  1 /* lo */

Test(devdiff, redirect_to_a_cpu_or_a_port_at_one_call)
{
	static struct hx_result rk, rd;
	unsigned int punted = 0, redirected = 0;
	char path[4096];
	struct dd_side k, d;
	struct hwxdp_frame f;
	struct hwxdp_run_stats st;
	uint8_t frame[FRAME_LEN], sent[FRAME_LEN];
	uint32_t lo = INGRESS;
	int ek, ed;

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	snprintf(path, sizeof(path), "%s/tests/devdiff/bpf/redirect_cpu_or_port.bpf.o",
		 hx_build_dir());
	memset(&k, 0, sizeof(k));
	memset(&d, 0, sizeof(d));
	cr_assert_eq(dd_side_open_kernel_prog(&k, path, "redirect_cpu_or_port"), 0, "kernel");
	cr_assert_eq(dd_side_open_device_prog(&d, path, "redirect_cpu_or_port"), 0, "device");
	for (uint32_t key = 0; key < 4; key++) {
		cr_assert_eq(k.target.ops->map_update(&k.target, "ports", &key, &lo), 0);
		cr_assert_eq(d.target.ops->map_update(&d.target, "ports", &key, &lo), 0);
	}
	for (unsigned int n = 0; n < 16; n++) {
		bool to_cpu = n & 1;

		for (int i = 0; i < FRAME_LEN; i++)
			frame[i] = (uint8_t)(i * 29 + n);
		frame[14] = (uint8_t)n;
		frame[15] = (uint8_t)(n >> 1);
		memcpy(sent, frame, sizeof(sent));
		memset(&rk, 0, sizeof(rk));
		memset(&rd, 0, sizeof(rd));
		memset(&f, 0, sizeof(f));
		ek = hx_kernel_run_frame(k.prog_fd, INGRESS, frame, FRAME_LEN, &rk);
		ed = hx_device_run_frame(d.engine, d.window, INGRESS, frame, FRAME_LEN, &rd, &f,
					 &st);
		cr_assert_eq(ek, 0, "frame %u: the kernel's run failed", n);
		cr_assert_eq(ed, 0, "frame %u: the device's run failed (op %u)", n, d.fault_op);
		if (to_cpu) {
			cr_expect_eq(rk.action, XDP_PASS, "frame %u: the kernel's verdict %u", n,
				     rk.action);
			cr_expect_eq(f.reason, HWXDP_PUNT_HOST_ONLY,
				     "frame %u: for a CPU's queue, punt reason %u", n, f.reason);
			cr_expect(rd.action == XDP_PASS && rd.len == FRAME_LEN &&
					  !memcmp(rd.frame, sent, FRAME_LEN),
				  "frame %u: the punted frame is not as it came", n);
			punted += f.reason == HWXDP_PUNT_HOST_ONLY;
			continue;
		}
		cr_expect_eq(f.reason, 0, "frame %u: punted (reason %u) for a port", n, f.reason);
		cr_expect_eq(rk.action, XDP_REDIRECT, "frame %u: the kernel's verdict %u", n,
			     rk.action);
		cr_expect_eq(rd.action, rk.action,
			     "frame %u: verdict %u on the device, %u in the "
			     "kernel",
			     n, rd.action, rk.action);
		cr_expect(rd.len == rk.len && !memcmp(rd.frame, rk.frame, rk.len) &&
				  rk.frame[20] == 0xaa,
			  "frame %u: the device's bytes differ from the kernel's", n);
		redirected += rd.action == XDP_REDIRECT;
	}
	cr_expect_eq(punted, 8, "%u frames punted", punted);
	cr_expect_eq(redirected, 8, "%u frames redirected", redirected);
	dd_side_close(&k);
	dd_side_close(&d);
}
