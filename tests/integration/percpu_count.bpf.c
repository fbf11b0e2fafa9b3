// SPDX-License-Identifier: GPL-2.0
/*
 * Counts frames in per-CPU maps and passes them: a per-CPU array of
 * frames and bytes (key 0), and a per-CPU hash by IPv4 protocol. On the
 * appliance the board counts a frame and punts it, and the host copy on
 * the TAP counts it again: each map's copies add up to twice the frames.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct totals {
	__u64 frames;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct totals);
} pcpu_totals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __u64);
} pcpu_proto SEC(".maps");

SEC("xdp")
int count(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct totals *t;
	struct iphdr *ip;
	__u32 zero = 0, proto;
	__u64 one = 1, *n;

	t = bpf_map_lookup_elem(&pcpu_totals, &zero);
	if (t) {
		t->frames++;
		t->bytes += (__u64)(end - data);
	}
	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end)
		return XDP_PASS;
	proto = ip->protocol;
	n = bpf_map_lookup_elem(&pcpu_proto, &proto);
	if (n)
		(*n)++;
	else
		bpf_map_update_elem(&pcpu_proto, &proto, &one, BPF_NOEXIST);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
