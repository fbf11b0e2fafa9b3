// SPDX-License-Identifier: GPL-2.0
/*
 * A program the device runs and the prover does not model
 * (tests/prove/test_units.c: a translation required to be proven is
 * refused): an update of a per-CPU array, whose writes the model does not
 * have (docs/prove.md, "What is not covered").
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} last_len SEC(".maps");

SEC("xdp")
int not_modelled(struct xdp_md *ctx)
{
	__u64 len = ctx->data_end - ctx->data;
	__u32 key = 0;

	bpf_map_update_elem(&last_len, &key, &len, BPF_ANY);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
