// SPDX-License-Identifier: GPL-2.0
/*
 * The esp operation is the crypto engine on the frame: the same bytes as
 * hwxdp_esp_sa__encap on the same frame with an SA in the same state, the
 * metadata carried along, and the frame untouched when it fails.
 */
#include <errno.h>
#include <string.h>

#include <criterion/criterion.h>

#include "device/esp.h"
#include "lab/pkt.h"
#include "tests/device/engine_util.h"

static const uint8_t key[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static const uint8_t salt[4] = { 0xca, 0xfe, 0xba, 0xbe };

#define HANDLE 17

/* esp with SA r2, L3 at r3; r0 the result; 8 bytes of metadata first
 * when r4 is not 0. */
static const char text[] = "mov r2, 17\nmov r3, 14\nmov r4, %d ;;\n"
			   "beq r4, 0, go ;;\n"
			   "mov r1, -8 ;;\nmadj r5, r1 ;;\nctx r1, data_meta ;;\n"
			   "st64.be.pkt [r1], 0x5eed ;;\n"
			   "go: esp r0, r2, r3 ;;\nexit";

static struct hxe *esp_engine(bool meta, struct hwxdp_esp_sa *sa)
{
	char buf[sizeof(text) + 8];
	struct hxe *x;

	snprintf(buf, sizeof(buf), text, meta);
	x = hxe_new(buf, NULL, 0, NULL);
	cr_assert_eq(hwxdp_esp_sa__init(sa, 0x1001, key, sizeof(key), salt, 0x0100000a, 0x0200000a),
		     0);
	cr_assert_eq(hwxdp_tables__set_sa(x->t, HANDLE, sa), 0);
	return x;
}

static size_t frame(uint8_t *pkt, size_t cap, int family, size_t payload)
{
	struct hx_frame_spec spec;

	hx_frame_spec_init(&spec, family);
	spec.proto = 17;
	spec.payload_len = payload;
	return hx_frame_build(&spec, pkt, cap);
}

Test(esp, same_bytes_as_the_crypto_engine)
{
	static const size_t payloads[] = { 0, 1, 2, 3, 17, 100, 1400 };
	static uint8_t pkt[2048], direct[HXU_WINDOW_SIZE];

	for (int family = 4; family <= 6; family += 2) {
		for (size_t p = 0; p < sizeof(payloads) / sizeof(payloads[0]); p++) {
			struct hwxdp_esp_sa sa_engine, sa_direct;
			struct hxe *x = esp_engine(false, &sa_engine);
			size_t len = frame(pkt, sizeof(pkt), family, payloads[p]), off, dlen;

			cr_assert(len);
			cr_assert_eq(hwxdp_esp_sa__init(&sa_direct, 0x1001, key, sizeof(key), salt,
							0x0100000a, 0x0200000a),
				     0);
			/* Two frames each, so the sequence numbers move on alike. */
			for (int round = 0; round < 2; round++) {
				cr_assert_eq(hxe_run(x, 0, pkt, len), 0);
				cr_assert_eq(x->frame.verdict, 0, "esp returned %d",
					     (int)x->frame.verdict);
				memset(direct, 0, sizeof(direct));
				memcpy(direct + HXU_HEADROOM, pkt, len);
				off = HXU_HEADROOM;
				dlen = len;
				cr_assert_eq(hwxdp_esp_sa__encap(&sa_direct, direct, sizeof(direct),
								 &off, &dlen, 14),
					     0);
				cr_assert_eq(x->frame.data, off);
				cr_assert_eq(hxe_len(x), dlen);
				cr_assert(!memcmp(hxe_data(x), direct + off, dlen),
					  "IPv%d, %zu payload bytes: the frames differ", family,
					  payloads[p]);
				cr_assert_eq(x->frame.data_meta, x->frame.data);
			}
			/* The cost model: bundles, 64, and 1 per 16 bytes of ciphertext. */
			cr_assert_eq(x->stats.cycles,
				     x->stats.bundles + 64 + (dlen - 14 - 36 - 16 + 15) / 16);
			hwxdp_esp_sa__fini(&sa_direct);
			hxe_free(x);
			hwxdp_esp_sa__fini(&sa_engine);
		}
	}
}

Test(esp, metadata_moves_with_the_frame)
{
	static uint8_t pkt[256];
	struct hwxdp_esp_sa sa;
	struct hxe *x = esp_engine(true, &sa);
	size_t len = frame(pkt, sizeof(pkt), 4, 40);
	static const uint8_t meta[8] = { 0, 0, 0, 0, 0, 0, 0x5e, 0xed };

	cr_assert_eq(hxe_run(x, 0, pkt, len), 0);
	cr_assert_eq(x->frame.verdict, 0);
	cr_assert_eq(x->frame.data, HXU_HEADROOM - HWXDP_ESP_HEADROOM);
	cr_assert_eq(x->frame.data - x->frame.data_meta, 8);
	cr_assert(!memcmp(x->window + x->frame.data_meta, meta, 8));
	hxe_free(x);
	hwxdp_esp_sa__fini(&sa);
}

static void untouched(struct hxe *x, const uint8_t *pkt, size_t len, int want)
{
	cr_assert_eq((int)x->frame.verdict, want, "esp returned %d, not %d", (int)x->frame.verdict,
		     want);
	cr_assert_eq(hxe_len(x), len);
	cr_assert(!memcmp(hxe_data(x), pkt, len), "the frame changed");
}

Test(esp, failures_leave_the_frame)
{
	static uint8_t pkt[256];
	struct hwxdp_esp_sa sa;
	struct hxe *x = esp_engine(false, &sa);
	size_t len = frame(pkt, sizeof(pkt), 4, 40);

	/* No SA at the handle. */
	cr_assert_eq(hwxdp_tables__set_sa(x->t, HANDLE, NULL), 0);
	hxe_run(x, 0, pkt, len);
	untouched(x, pkt, len, -ENOENT);
	cr_assert_eq(hwxdp_tables__set_sa(x->t, HANDLE, &sa), 0);
	cr_assert_eq(hwxdp_tables__set_sa(x->t, HWXDP_TABLES_SA_MAX, &sa), -E2BIG);

	/* Not IP: version 1. */
	pkt[14] = 0x15;
	hxe_run(x, 0, pkt, len);
	untouched(x, pkt, len, -EINVAL);
	hxe_free(x);

	/* Too little headroom: the frame pushed to 60 bytes from the window's
	 * start, 20 above the part the device keeps. */
	x = hxe_new("mov r1, -196 ;;\nhadj r5, r1 ;;\nctx r1, data ;;\n"
		    "mov r2, 17\nmov r3, 0 ;;\nesp r0, r2, r3 ;;\nexit",
		    NULL, 0, NULL);
	cr_assert_eq(hwxdp_tables__set_sa(x->t, HANDLE, &sa), 0);
	len = frame(pkt, sizeof(pkt), 4, 40);
	hxe_run(x, 0, pkt, len);
	cr_assert_eq(x->frame.data, 60);
	cr_assert_eq((int)x->frame.verdict, -ENOSPC);
	hxe_free(x);
	hwxdp_esp_sa__fini(&sa);
}
