// SPDX-License-Identifier: GPL-2.0
/*
 * hadj, madj and tadj against the kernel's bpf_xdp_adjust_head, _meta and
 * _tail: the same deltas, one after the other on one frame, must give the
 * same return codes and the same bytes (metadata included). Needs root.
 *
 * The kernel's test run gives a frame 256 bytes of headroom, as the device
 * does, but a 4096-byte buffer with 320 bytes kept for skb_shared_info at
 * its end, where the device's window goes on to 9,728 bytes; tail growth is
 * compared up to the kernel's limit and checked against the device's own
 * limit beyond it.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <criterion/criterion.h>

#include "tests/device/engine_util.h"

/* Deltas sit in the packet's first 12 bytes: meta, head, tail. */
static const char bpf_text[] = "r6 = r1\n"
			       "r2 = *(u32 *)(r6 +0)\n"
			       "r3 = *(u32 *)(r6 +4)\n"
			       "r4 = r2\n"
			       "r4 += 12\n"
			       "if r4 > r3 goto bad\n"
			       "r7 = *(u32 *)(r2 +0)\n"
			       "r8 = *(u32 *)(r2 +4)\n"
			       "r9 = *(u32 *)(r2 +8)\n"
			       "r1 = r6\n"
			       "r2 = r7\n"
			       "call bpf_xdp_adjust_meta\n"
			       "r7 = r0\n"
			       "r1 = r6\n"
			       "r2 = r8\n"
			       "call bpf_xdp_adjust_head\n"
			       "r8 = r0\n"
			       "r1 = r6\n"
			       "r2 = r9\n"
			       "call bpf_xdp_adjust_tail\n"
			       "r0 &= 0xff\n"
			       "r0 <<= 16\n"
			       "r7 &= 0xff\n"
			       "r0 |= r7\n"
			       "r8 &= 0xff\n"
			       "r8 <<= 8\n"
			       "r0 |= r8\n"
			       "exit\n"
			       "bad:\n"
			       "r0 = 0xffffff\n"
			       "exit\n";

static const char hxu_text[] = "ctx r6, data ;;\n"
			       "ld32.pkt r7, [r6]\n"
			       "ld32.pkt r8, [r6 + 4]\n"
			       "ld32.pkt r9, [r6 + 8] ;;\n"
			       "madj r7, r7 ;;\n"
			       "hadj r8, r8 ;;\n"
			       "tadj r0, r9 ;;\n"
			       "and r0, r0, 0xff\n"
			       "and r7, r7, 0xff\n"
			       "and r8, r8, 0xff ;;\n"
			       "lsh r0, r0, 16\n"
			       "lsh r8, r8, 8 ;;\n"
			       "or r0, r0, r7 ;;\n"
			       "or r0, r0, r8 ;;\n"
			       "exit\n";

/* The kernel's test-run buffer: 4096 bytes, 256 of headroom, 320 kept at
 * the end. */
#define KERNEL_DATA_MAX (4096 - 256 - 320)

static int32_t delta(uint64_t *rng, int32_t lo, int32_t hi)
{
	uint64_t r = hxe_rng(rng);

	/* Half of them near the ends of the range, where the limits are. */
	if (r & 1)
		return (r >> 1) & 1 ? lo + (int32_t)((r >> 8) % 8) : hi - (int32_t)((r >> 8) % 8);
	return lo + (int32_t)((r >> 8) % (uint64_t)(hi - lo + 1));
}

Test(adjust_kernel, head_meta_tail_as_the_kernel)
{
	static const size_t lens[] = { 14, 15, 20, 60, 64, 101, 1500, 3000 };
	static uint8_t pkt[KERNEL_DATA_MAX], out[4096];
	struct hxe *x = hxe_new(hxu_text, NULL, 0, NULL);
	uint64_t rng = 12345;
	unsigned int compared = 0, ok_meta = 0, ok_head = 0, ok_tail = 0;
	int fd;

	hxe_have_kernel();
	fd = hxe_kernel_load(bpf_text);
	for (int i = 0; i < 4000; i++) {
		size_t len = lens[i % (sizeof(lens) / sizeof(lens[0]))], out_len = sizeof(out);
		int32_t dm = delta(&rng, -260, 8);
		int32_t dh = delta(&rng, -260, (int32_t)len + 8);
		int32_t dt = delta(&rng, -(int32_t)len - 8, 300);
		uint32_t kret, hret;

		if (len < 12)
			continue;
		for (size_t b = 0; b < len; b++)
			pkt[b] = (uint8_t)(b * 13 + i);
		memcpy(pkt, &dm, 4);
		memcpy(pkt + 4, &dh, 4);
		memcpy(pkt + 8, &dt, 4);
		kret = hxe_kernel_run(fd, pkt, len, out, &out_len);
		cr_assert_eq(hxe_run(x, 0, pkt, len), 0);
		hret = x->frame.verdict;
		cr_assert_eq(hret, kret,
			     "len %zu, meta %d, head %d, tail %d: kernel rc 0x%06x, device 0x%06x "
			     "(bytes: tail, head, meta)",
			     len, dm, dh, dt, kret, hret);
		/* The kernel hands back the metadata and the frame. */
		cr_assert_eq(x->frame.data_end - x->frame.data_meta, out_len,
			     "len %zu, meta %d, head %d, tail %d: kernel %zu bytes, device %u", len,
			     dm, dh, dt, out_len, x->frame.data_end - x->frame.data_meta);
		cr_assert(!memcmp(x->window + x->frame.data_meta, out, out_len),
			  "len %zu, meta %d, head %d, tail %d: bytes differ", len, dm, dh, dt);
		compared++;
		ok_meta += (kret & 0xff) == 0;
		ok_head += ((kret >> 8) & 0xff) == 0;
		ok_tail += ((kret >> 16) & 0xff) == 0;
	}
	/* Both outcomes of each helper were seen. */
	cr_assert(ok_meta > 100 && ok_meta < compared - 100, "meta: %u of %u", ok_meta, compared);
	cr_assert(ok_head > 100 && ok_head < compared - 100, "head: %u of %u", ok_head, compared);
	cr_assert(ok_tail > 100 && ok_tail < compared - 100, "tail: %u of %u", ok_tail, compared);
	close(fd);
	hxe_free(x);
}

Test(adjust_kernel, tail_limits)
{
	static uint8_t pkt[64], out[4096];
	struct hxe *x = hxe_new(hxu_text, NULL, 0, NULL);
	int32_t kernel_max = -1;
	int fd;

	hxe_have_kernel();
	fd = hxe_kernel_load(bpf_text);
	/* Find the kernel's largest growth for a 64-byte frame... */
	for (int32_t d = KERNEL_DATA_MAX - 64 - 2; d <= KERNEL_DATA_MAX - 64 + 2; d++) {
		size_t out_len = sizeof(out);

		memset(pkt, 0, sizeof(pkt));
		memcpy(pkt + 8, &d, 4);
		if (!(hxe_kernel_run(fd, pkt, sizeof(pkt), out, &out_len) >> 16))
			kernel_max = d;
		/* ...where the device agrees, having more room. */
		hxe_run(x, 0, pkt, sizeof(pkt));
		cr_assert_eq(x->frame.verdict >> 16, 0, "device refused tail %d", d);
	}
	cr_assert_eq(kernel_max, KERNEL_DATA_MAX - 64,
		     "the kernel's test run grows a 64-byte frame to %d bytes, not %d",
		     kernel_max + 64, KERNEL_DATA_MAX);
	/* The device's own limit: the end of the window. */
	for (int32_t d = HXU_WINDOW_SIZE - HXU_HEADROOM - 64 - 1;
	     d <= HXU_WINDOW_SIZE - HXU_HEADROOM - 64 + 1; d++) {
		memset(pkt, 0, sizeof(pkt));
		memcpy(pkt + 8, &d, 4);
		hxe_run(x, 0, pkt, sizeof(pkt));
		cr_assert_eq(x->frame.verdict >> 16,
			     d <= HXU_WINDOW_SIZE - HXU_HEADROOM - 64 ? 0 : (uint8_t)-EINVAL,
			     "tail %d", d);
	}
	close(fd);
	hxe_free(x);
}
