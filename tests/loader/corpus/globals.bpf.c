// SPDX-License-Identifier: GPL-2.0
/*
 * Globals in every section libbpf turns into a map: .rodata (read-only
 * config), .data, .bss, named .data.* / .rodata.* sections, static and
 * global variables, arrays indexed at run time, and a string literal.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

const volatile __u32 cfg_mult = 3;
const volatile __u64 cfg_table[4] = { 1, 2, 3, 4 };
__u64 hits = 7;
__u32 per_len[8] = { 1 };
__u64 drops;
static __u32 last_len;
static __u32 seen[4] = { 5, 6, 7, 8 };
SEC(".data.extra") __u32 extra_counter = 11;
SEC(".rodata.limits") const volatile __u32 limit = 1500;

SEC("xdp")
int globals_main(struct xdp_md *ctx)
{
	__u32 len = ctx->data_end - ctx->data;

	hits += cfg_mult;
	per_len[len & 7] += 1;
	last_len = len;
	seen[len & 3]++;
	if (len > cfg_table[len & 3])
		drops++;
	if (len > limit) {
		extra_counter++;
		bpf_trace_printk("long frame %u\n", sizeof("long frame %u\n"), len);
	}
	return last_len & 1 ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
