// SPDX-License-Identifier: GPL-2.0
/*
 * NULL tests of pointers that are never NULL in the kernel but are offsets
 * on the device, where the context's is 0 and so is fp-512 in the first
 * frame: a global function's `if (!p)` on a stack or context argument, seen
 * in the caller's state. The device must take the kernel's outcome.
 */
#include <criterion/criterion.h>
#include <linux/bpf.h>
#include <unistd.h>

#include "tests/common/raw_prog.h"
#include "tests/devdiff/pair.h"

/* if (r<reg> op 0) drop; else pass, with r2 = fp + fp_off first */
static void null_test(struct raw_prog *p, uint8_t reg, uint8_t op, int32_t fp_off)
{
	p->cnt = 0;
	raw_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0);
	raw_emit(p, BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, fp_off);
	raw_emit(p, BPF_JMP | op | BPF_K, reg, 0, 2, 0);
	raw_emit(p, BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, op == BPF_JEQ ? XDP_PASS : XDP_DROP);
	raw_emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	raw_emit(p, BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, op == BPF_JEQ ? XDP_DROP : XDP_PASS);
	raw_emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

static void kernel_and_device_pass(const struct raw_prog *p, const char *what)
{
	struct hx_result res[2];
	uint8_t frame[64] = { 0 };
	struct dd_side k, d;
	char msg[256];
	int err;

	if (geteuid())
		cr_skip_test("the kernel's verdict needs root");
	err = dd_side_open_kernel_raw(&k, p->insns, p->cnt, NULL, 0, msg, sizeof(msg));
	cr_assert_eq(err, 0, "%s: kernel: %s", what, msg);
	err = dd_side_open_device_raw(&d, p->insns, p->cnt, NULL, 0, msg, sizeof(msg));
	cr_assert_eq(err, 0, "%s: device: %s", what, msg);
	cr_assert_eq(hx_target_run(&k.target, 1, frame, sizeof(frame), &res[0]), 0);
	cr_assert_eq(hx_target_run(&d.target, 1, frame, sizeof(frame), &res[1]), 0);
	cr_assert_eq(res[0].action, XDP_PASS, "%s: the kernel took the NULL side", what);
	cr_assert_eq(res[1].action, res[0].action, "%s: device %u, kernel %u", what, res[1].action,
		     res[0].action);
	dd_side_close(&k);
	dd_side_close(&d);
}

Test(null_ptr, stack_pointer_at_the_frames_bottom)
{
	struct raw_prog p;

	null_test(&p, 2, BPF_JEQ, -512);
	kernel_and_device_pass(&p, "fp-512 == 0");
	null_test(&p, 2, BPF_JNE, -512);
	kernel_and_device_pass(&p, "fp-512 != 0");
	null_test(&p, 2, BPF_JEQ, -8);
	kernel_and_device_pass(&p, "fp-8 == 0");
}

Test(null_ptr, context_pointer)
{
	struct raw_prog p;

	null_test(&p, 1, BPF_JEQ, -8);
	kernel_and_device_pass(&p, "ctx == 0");
	null_test(&p, 1, BPF_JNE, -8);
	kernel_and_device_pass(&p, "ctx != 0");
}
