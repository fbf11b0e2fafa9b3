// SPDX-License-Identifier: GPL-2.0
/*
 * Header push and pop (progs/vlan_tag.bpf.c): bpf_xdp_adjust_head with
 * the copy of the Ethernet header around it. On the device the adjustment
 * is `hadj` and the copies are whole loads and stores, not the byte loads,
 * shifts and byte stores clang writes; the frames that come out are the
 * kernel's, byte for byte.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/bpf.h>
#include <string.h>
#include <unistd.h>

#include "hwmap/hxu.h"
#include "lab/target.h"
#include "loader/device.h"

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

Test(header, push_and_pop_are_wide_on_the_device)
{
	struct hwxdp_device_prog *dp;
	char msg[256];
	unsigned int hadj = 0, byte_stores = 0, wide_stores = 0;

	cr_assert_eq(hwxdp_device_prog__open(hx_object_path("vlan_tag"), &dp, msg, sizeof(msg)), 0,
		     "%s", msg);
	for (uint32_t w = 0; w < dp->img->op_cnt; w++) {
		struct hxu_op op;

		hxu_decode(dp->img->ops[w], &op);
		if (op.opcode == HXU_OP_HADJ)
			hadj++;
		if (hxu_opcode_class(op.opcode) == HXU_CLASS_M &&
		    hxu_mem_kind(op.opcode) == HXU_OP_ST &&
		    hxu_mem_space(op.opcode) == HXU_SPACE_PKT) {
			if (hxu_mem_size(op.flags) == 1)
				byte_stores++;
			else
				wide_stores++;
		}
		w += hxu_op_words(op.opcode) - 1;
	}
	hwxdp_device_prog__close(dp);
	cr_assert_eq(hadj, 2, "one adjustment for the pop, one for the push");
	/* the push's two constant bytes of the TPID are all that stay bytes */
	cr_assert_leq(byte_stores, 2, "%u byte stores to the packet", byte_stores);
	cr_assert_geq(wide_stores, 6);
}

Test(header, kernel_and_device_agree)
{
	struct hx_target *kernel, *device;
	uint64_t rng = 0x5eed;
	uint32_t counts[5] = { 0 }, frames = 3000, key = 0;

	if (geteuid())
		cr_skip_test("needs root for the kernel's BPF_PROG_TEST_RUN");
	kernel = hx_target_open("kernel", hx_object_path("vlan_tag"));
	cr_assert(kernel, "kernel target: %s", strerror(errno));
	device = hx_target_open("device", hx_object_path("vlan_tag"));
	cr_assert(device, "device target: %s", strerror(errno));
	for (uint32_t i = 0; i < frames; i++) {
		struct hx_result kr, dr;
		uint8_t pkt[128];
		size_t len = 14 + next(&rng) % 100;
		uint32_t vid = i % 3 ? (uint32_t)(next(&rng) % 4096) : 0;

		if (i % 100 == 0) {
			cr_assert_eq(hx_target_map_update(kernel, "push_vid", &key, &vid), 0);
			cr_assert_eq(hx_target_map_update(device, "push_vid", &key, &vid), 0);
		}
		for (size_t b = 0; b < len; b++)
			pkt[b] = (uint8_t)next(&rng);
		if (next(&rng) % 2) {
			pkt[12] = 0x81; /* 802.1Q */
			pkt[13] = 0x00;
		}
		memset(&kr, 0, sizeof(kr));
		memset(&dr, 0, sizeof(dr));
		cr_assert_eq(hx_target_run(kernel, 1, pkt, len, &kr), 0);
		cr_assert_eq(hx_target_run(device, 1, pkt, len, &dr), 0);
		cr_assert_eq(dr.action, kr.action, "frame %u: device %u, kernel %u", i, dr.action,
			     kr.action);
		cr_assert_eq(dr.len, kr.len, "frame %u", i);
		cr_assert_arr_eq(dr.frame, kr.frame, kr.len, "frame %u: bytes differ", i);
		if (kr.action < 5)
			counts[kr.action]++;
		if (kr.action == XDP_TX)
			cr_assert_eq(kr.len, len + (pkt[12] == 0x81 && !pkt[13] ? -4 : 4));
	}
	cr_log_info("vlan_tag: %u tx, %u pass, %u aborted on both targets", counts[XDP_TX],
		    counts[XDP_PASS], counts[XDP_ABORTED]);
	cr_assert_gt(counts[XDP_TX], frames / 3);
	cr_assert_gt(counts[XDP_PASS], frames / 20);
	hx_target_close(kernel);
	hx_target_close(device);
}
