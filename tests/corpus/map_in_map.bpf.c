// SPDX-License-Identifier: GPL-2.0
/*
 * Maps of maps, as Katran's per-real LRU caches and Cilium's per-endpoint
 * policy maps have them: an ARRAY_OF_MAPS of per-queue counter arrays (its
 * slot 0 and 1 filled at load by libbpf) and a HASH_OF_MAPS of per-tenant
 * address allow-lists keyed by VLAN id (the lists allow_a and allow_b, which
 * the control plane stores there). A frame is dropped when its VLAN's
 * inner map exists and lacks the source address; per-protocol counts go to
 * the inner array of slot (ingress ifindex & 1).
 */
#include "include/corpus.h"

struct inner_counts {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 256);
};

struct inner_counts counts_a SEC(".maps");
struct inner_counts counts_b SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, struct inner_counts);
} per_queue SEC(".maps") = {
	.values = { &counts_a, &counts_b },
};

struct inner_allow {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u8);
	__uint(max_entries, 16);
};

/* Two tenants' lists, as a control plane makes them and stores in
 * tenant_allow: here in the object, so that both targets have them. */
struct inner_allow allow_a SEC(".maps");
struct inner_allow allow_b SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH_OF_MAPS);
	__uint(max_entries, 64);
	__type(key, __u16);
	__array(values, struct inner_allow);
} tenant_allow SEC(".maps");

SEC("xdp")
int xdp_map_in_map(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph;
	__u32 slot = ctx->ingress_ifindex & 1, proto;
	__u16 vid = 0, h_proto;
	void *inner;
	__u64 *cnt;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	h_proto = eth->h_proto;
	iph = (void *)(eth + 1);
	if (h_proto == bpf_htons(ETH_P_8021Q)) {
		struct vlan_hdr *vh = (void *)(eth + 1);

		if ((void *)(vh + 1) > data_end)
			return XDP_PASS;
		vid = bpf_ntohs(vh->h_vlan_TCI) & 0xfff;
		h_proto = vh->h_vlan_encapsulated_proto;
		iph = (void *)(vh + 1);
	}
	if (h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;

	inner = bpf_map_lookup_elem(&tenant_allow, &vid);
	if (inner) {
		__u32 src = iph->saddr;

		if (!bpf_map_lookup_elem(inner, &src))
			return XDP_DROP;
	}
	inner = bpf_map_lookup_elem(&per_queue, &slot);
	if (!inner)
		return XDP_PASS;
	proto = iph->protocol;
	cnt = bpf_map_lookup_elem(inner, &proto);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
