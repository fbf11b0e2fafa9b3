// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c): an
 * open-coded iterator whose range the frame gives (bytes 14 and 15, 0..3
 * each, so that start > end happens too), summing the iterator's values.
 * The count, the sum and bpf_iter_num_new's whole 64-bit result are
 * written into the frame: an iteration too many or too few, or an int
 * result widened otherwise than the kernel's, shows in its bytes.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_iter_num {
	__u64 opaque[1];
} __attribute__((aligned(8)));

/* its int result read whole: R0's high half as the kernel leaves it */
extern long bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;

SEC("xdp")
int unit_iter(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct bpf_iter_num it;
	__u8 *p = data, count = 0, sum = 0;
	int *v;
	long rc;

	if ((void *)(p + 32) > end)
		return XDP_PASS;
	rc = bpf_iter_num_new(&it, p[15] & 3, p[14] & 3);
	while ((v = bpf_iter_num_next(&it))) {
		count++;
		sum += (__u8)*v;
	}
	bpf_iter_num_destroy(&it);
	p[16] = count;
	p[17] = sum;
	__builtin_memcpy(p + 24, &rc, sizeof(rc));
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
