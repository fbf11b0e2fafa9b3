// SPDX-License-Identifier: GPL-2.0
/*
 * CO-RE bitfield reads: the TCP header's flags as an older kernel laid them
 * out (res1 four bits wide; today's kernel has ae and a three-bit res1),
 * read from the packet with BPF_CORE_READ_BITFIELD, whose byte offset,
 * size, signedness and shifts all come from the running kernel.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct tcphdr___old {
	__u16 source;
	__u16 dest;
	__u32 seq;
	__u32 ack_seq;
	__u16 res1 : 4, doff : 4, fin : 1, syn : 1, rst : 1, psh : 1, ack : 1, urg : 1, ece : 1,
		cwr : 1;
	__u16 window;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u64);
} flags SEC(".maps");

static __always_inline void put(__u32 slot, __u64 v)
{
	bpf_map_update_elem(&flags, &slot, &v, BPF_ANY);
}

SEC("xdp")
int core_bitfields(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct tcphdr___old *th = data + sizeof(struct ethhdr) + 20;

	if ((void *)(th + 1) > data_end)
		return XDP_PASS;
	put(0, BPF_CORE_READ_BITFIELD(th, doff));
	put(1, BPF_CORE_READ_BITFIELD(th, syn));
	put(2, BPF_CORE_READ_BITFIELD(th, res1));
	put(3, BPF_CORE_READ_BITFIELD(th, cwr));
	put(4, __builtin_preserve_field_info(th->doff, BPF_FIELD_SIGNED));
	put(5, bpf_core_field_size(th->window));
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
