// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c): the
 * frame's dynptr, made with flags from the frame (byte 13's low bit: a
 * NULL dynptr and -EINVAL when set), and a 4-byte slice of it at an offset
 * the frame gives (14 plus byte 12's low 6 bits), up to the frame's last
 * bytes. The verdict and a copy of the slice's bytes show where it was
 * taken and whether it was NULL.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int bpf_dynptr_from_xdp(struct xdp_md *xdp, __u64 flags, struct bpf_dynptr *ptr) __ksym;
extern void *bpf_dynptr_slice(const struct bpf_dynptr *ptr, __u32 offset, void *buffer,
			      __u32 buffer__szk) __ksym;

SEC("xdp")
int unit_slice(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct bpf_dynptr frame;
	__u8 *p = data, buf[4];
	__u8 *s;
	int rc;

	if ((void *)(p + 18) > end)
		return XDP_PASS;
	rc = bpf_dynptr_from_xdp(ctx, p[13] & 1, &frame);
	s = bpf_dynptr_slice(&frame, 14 + (p[12] & 63), buf, sizeof(buf));
	if (!s)
		return rc ? XDP_ABORTED : XDP_DROP;
	p[14] = s[0];
	p[15] = s[1];
	p[16] = s[2];
	p[17] = s[3];
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
