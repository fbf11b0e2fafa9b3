// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit bpf_xdp_get_buff_len (data_end - data, the
 * device's frames being linear): the length counted in a map and written
 * into the frame. The kernel's copy is the device's.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} bytes_seen SEC(".maps");

SEC("xdp")
int unit_len(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u64 len = bpf_xdp_get_buff_len(ctx), *bytes;
	__u8 *p = data;
	__u32 key = 0;

	bytes = bpf_map_lookup_elem(&bytes_seen, &key);
	if (!bytes)
		return XDP_ABORTED;
	*bytes += len;
	/* the verdict follows the length, short frames' too */
	if ((void *)(p + 16) > end)
		return len > 100 ? XDP_PASS : XDP_DROP;
	p[14] = (__u8)(len >> 8);
	p[15] = (__u8)len;
	return len > 100 ? XDP_PASS : XDP_TX;
}

char _license[] SEC("license") = "GPL";
