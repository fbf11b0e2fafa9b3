// SPDX-License-Identifier: GPL-2.0
/*
 * progs/lpm_route.bpf.c on the kernel (BPF_PROG_TEST_RUN) and on the
 * device through the lab targets: the same overlapping IPv4 and IPv6
 * routes in both, the same frames, the same verdicts and bytes out.
 */
#include <errno.h>
#include <string.h>

#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "lab/target.h"
#include "base/log.h"
#include "tests/tables/util.h"

#define BASES 16

struct route {
	uint32_t action, tag;
};

struct family {
	const char *map;
	uint32_t bytes; /* address */
	uint8_t base[BASES][16];
};

static void family_init(struct family *f, const char *map, uint32_t bytes, uint64_t *rng)
{
	uint8_t root[16];

	f->map = map;
	f->bytes = bytes;
	for (int b = 0; b < 16; b++)
		root[b] = (uint8_t)rng_next(rng);
	for (int i = 0; i < BASES; i++) {
		uint32_t keep = rng_below(rng, bytes * 8 + 1);

		for (uint32_t b = 0; b < bytes; b++) {
			uint8_t mask = keep >= (b + 1) * 8 ? 0xff
				       : keep <= b * 8	   ? 0
							   : (uint8_t)(0xff00 >> (keep - b * 8));

			f->base[i][b] = (root[b] & mask) | ((uint8_t)rng_next(rng) & ~mask);
		}
	}
}

/* An address near the bases: one of them with its tail bits flipped
 * (from anywhere, now and then, for addresses no route covers). */
static void address(const struct family *f, uint64_t *rng, uint8_t *addr)
{
	uint32_t from = rng_below(rng, 8) ? rng_below(rng, f->bytes * 8 + 1) : 0;

	memcpy(addr, f->base[rng_below(rng, BASES)], f->bytes);
	for (uint32_t bit = from; bit < f->bytes * 8; bit++)
		if (rng_next(rng) & 1)
			addr[bit / 8] ^= (uint8_t)(0x80 >> (bit % 8));
}

static size_t frame(const struct family *f, uint64_t *rng, uint8_t *pkt)
{
	size_t len = f->bytes == 4 ? 14 + 20 + 26 : 14 + 40 + 26;

	memset(pkt, 0, len);
	for (int b = 0; b < 12; b++)
		pkt[b] = (uint8_t)rng_next(rng);
	if (f->bytes == 4) {
		pkt[12] = 0x08;
		pkt[14] = 0x45;
		pkt[14 + 9] = 17;
		address(f, rng, pkt + 14 + 16);
	} else {
		pkt[12] = 0x86;
		pkt[13] = 0xdd;
		pkt[14] = 0x60;
		pkt[14 + 6] = 17;
		address(f, rng, pkt + 14 + 24);
	}
	return len;
}

Test(lpm_prog, same_routes_same_frames_on_kernel_and_device)
{
	struct hx_target *kernel, *device;
	struct family fam[2];
	uint64_t rng = 99;
	uint32_t routed = 0, passed = 0, frames = 4000;

	tt_need_root();
	kernel = hx_target_open("kernel", hx_object_path("lpm_route"));
	cr_assert(kernel, "kernel target: %s", strerror(errno));
	device = hx_target_open("device", hx_object_path("lpm_route"));
	cr_assert(device, "device target: %s", strerror(errno));
	family_init(&fam[0], "routes4", 4, &rng);
	family_init(&fam[1], "routes6", 16, &rng);

	for (int i = 0; i < 1200; i++) {
		const struct family *f = &fam[i % 2];
		/* No default route: some frames must find nothing. */
		uint32_t plen = 8 + rng_below(&rng, f->bytes * 8 - 7);
		struct route r = { .action = 1 + rng_below(&rng, 3),
				   .tag = (uint32_t)rng_next(&rng) };
		uint8_t key[20] = { 0 };
		int kerr, derr;

		memcpy(key, &plen, 4);
		address(f, &rng, key + 4);
		kerr = hx_target_map_update(kernel, f->map, key, &r);
		derr = hx_target_map_update(device, f->map, key, &r);
		cr_assert_eq(derr, kerr, "route %d: device %d, kernel %d", i, derr, kerr);
	}
	for (uint32_t i = 0; i < frames; i++) {
		struct hx_result kr, dr;
		uint8_t pkt[128];
		size_t len = frame(&fam[rng_below(&rng, 2)], &rng, pkt);

		memset(&kr, 0, sizeof(kr));
		memset(&dr, 0, sizeof(dr));
		cr_assert_eq(hx_target_run(kernel, 1, pkt, len, &kr), 0);
		cr_assert_eq(hx_target_run(device, 1, pkt, len, &dr), 0);
		cr_assert_eq(dr.action, kr.action, "frame %u: device %u, kernel %u", i, dr.action,
			     kr.action);
		cr_assert_eq(dr.len, kr.len);
		cr_assert_arr_eq(dr.frame, kr.frame, kr.len, "frame %u: bytes differ", i);
		if (kr.action == XDP_PASS && !memcmp(kr.frame, pkt, len))
			passed++;
		else
			routed++;
	}
	cr_log_info("lpm_route: %u frames routed, %u left to the stack, on both targets",
		    routed, passed);
	cr_assert_gt(routed, frames / 4);
	cr_assert_gt(passed, frames / 50);
	hx_target_close(kernel);
	hx_target_close(device);
}
