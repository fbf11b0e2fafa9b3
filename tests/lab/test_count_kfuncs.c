// SPDX-License-Identifier: GPL-2.0
/*
 * The reference interpreter on open-coded iterators and the frame's
 * dynptr, against the kernel: the corpus programs that use them, and the
 * prover's units (bpf_iter_num_new's R0 read whole, a slice at an offset
 * the frame gives, flags that make a NULL dynptr), on IPv4 and IPv6
 * frames with and without extension headers, and every truncation of
 * them: the same verdict and the same bytes.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <netinet/in.h>

#include "lab/bpf_count.h"
#include "lab/pkt.h"
#include "lab/target.h"

/* Frame n of the run: a valid frame, cut short for the odd ones. */
static size_t frame_of(unsigned int n, uint8_t *buf, size_t cap)
{
	static const uint8_t exts[] = { 0, 43, 44, 60 };
	struct hx_frame_spec sp;
	size_t len;

	hx_frame_spec_init(&sp, n % 3 ? 6 : 4);
	sp.proto = n % 5 == 4 ? IPPROTO_UDP : IPPROTO_TCP;
	sp.has_ipv6_ext = sp.family == 6 && n % 4;
	sp.ipv6_ext = exts[(n / 4) % 4];
	sp.ip_options_len = sp.family == 4 ? (uint8_t)(4 * (n % 4)) : 0;
	sp.payload_len = n % 40;
	len = hx_frame_build(&sp, buf, cap);
	cr_assert_gt(len, 0);
	/* the prover's units read bytes 12..15: other values in them */
	if (n % 7 == 6 && len > 16) {
		buf[14] = (uint8_t)n;
		buf[15] = (uint8_t)(n >> 3);
	}
	return n & 1 ? len - (n / 2) % len : len;
}

static void agree(const char *object)
{
	static struct hx_result kr, cr;
	static uint8_t frame[HX_PKT_MAX];
	struct hx_target *kernel, *count;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", hx_build_dir(), object);
	kernel = hx_target_open("kernel", path);
	cr_assert_not_null(kernel, "the kernel refuses %s", path);
	count = hx_count_target_open(path);
	cr_assert_not_null(count, "the reference interpreter refuses %s", path);
	for (unsigned int n = 0; n < 400; n++) {
		size_t len = frame_of(n, frame, sizeof(frame));

		if (len < 14)
			continue;
		cr_assert_eq(hx_target_run(kernel, 1, frame, len, &kr), 0, "%s", object);
		cr_assert_eq(hx_target_run(count, 1, frame, len, &cr), 0,
			     "%s: frame %u: the reference interpreter cannot run it", object, n);
		cr_assert_eq(cr.action, kr.action,
			     "%s: frame %u (%zu bytes): verdict %u, kernel %u", object, n, len,
			     cr.action, kr.action);
		cr_assert(cr.len == kr.len && !memcmp(cr.frame, kr.frame, kr.len),
			  "%s: frame %u (%zu bytes): other bytes than the kernel's", object, n,
			  len);
	}
	hx_target_close(count);
	hx_target_close(kernel);
}

Test(lab_count, iterators_and_dynptrs_as_the_kernel)
{
	static const char *const objects[] = {
		"tests/corpus/iter_scan.bpf.o",		"tests/corpus/dynptr_parse.bpf.o",
		"tests/corpus/ipv6_chain_dynptr.bpf.o", "tests/corpus-O1/ipv6_chain_dynptr.bpf.o",
		"tests/prove/bpf/unit_iter.bpf.o",	"tests/prove/bpf/unit_slice.bpf.o",
	};

	if (geteuid() != 0)
		cr_skip_test("BPF_PROG_TEST_RUN needs root");
	for (size_t i = 0; i < sizeof(objects) / sizeof(objects[0]); i++)
		agree(objects[i]);
}
