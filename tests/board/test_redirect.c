// SPDX-License-Identifier: GPL-2.0
/*
 * Where the board sends a redirect: to one of its ports, or nowhere when the
 * ifindex is none of them (the kernel drops a redirect to an ifindex no
 * device has); an unknown action is no redirect at all.
 */
#include <criterion/criterion.h>
#include <linux/bpf.h>
#include <string.h>

#include "device/device.h"
#include "device/engine.h"
#include "tests/common/asm_board.h"

/* bpf_redirect(the frame's byte 20, 0), or, when byte 21 is set, the exit
 * value 9. */
static const char program[] = "ctx r6, data ;;\n"
			      "ld8.pkt r1, [r6 + 21] ;;\n"
			      "bne r1, 0, unknown ;;\n"
			      "ld8.pkt r1, [r6 + 20]\n"
			      "mov r2, 0 ;;\n"
			      "redirif r0, r1, r2 ;;\n"
			      "exit ;;\n"
			      "unknown: mov r0, 9 ;;\n"
			      "exit ;;\n";

Test(board_redirect, to_a_port_or_nowhere)
{
	struct hwxdp_device_frame fr[3];
	struct hwxdp_device_stats st;
	struct hwxdp_device *d;
	uint8_t frames[3][64];
	uint32_t id;

	d = asm_board(program, "redirect", false, &id);
	cr_assert_eq(hwxdp_device__attach(d, 5, id), 0);
	cr_assert_eq(hwxdp_device__add_port(d, 6), 0);
	memset(frames, 0, sizeof(frames));
	frames[0][20] = 6; /* a port of the board */
	frames[1][20] = 7; /* no port of the board */
	frames[2][21] = 1; /* an unknown action */
	for (int i = 0; i < 3; i++)
		fr[i] = (struct hwxdp_device_frame){ .data = frames[i], .len = 64, .port = 5 };
	cr_assert_eq(hwxdp_device__run_batch(d, fr, 3), 0);
	cr_assert_eq(fr[0].verdict, XDP_REDIRECT);
	cr_assert_eq(fr[0].egress, 6, "egress %u", fr[0].egress);
	cr_assert_eq(fr[1].verdict, XDP_REDIRECT);
	cr_assert_eq(fr[1].egress, HWXDP_EGRESS_NONE, "egress %u", fr[1].egress);
	cr_assert_eq(fr[2].verdict, 9);
	cr_assert_eq(fr[2].egress, HWXDP_EGRESS_NONE);
	hwxdp_device__stats(d, &st);
	cr_assert_eq(st.redirect_nowhere, 1, "%llu redirects to no port",
		     (unsigned long long)st.redirect_nowhere);
	cr_assert_eq(st.verdicts[XDP_REDIRECT], 2);
	cr_assert_eq(st.verdicts[HWXDP_DEVICE_VERDICTS - 1], 1, "the unknown action's count");
	hwxdp_device__free(d);
}
