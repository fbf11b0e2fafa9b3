// SPDX-License-Identifier: GPL-2.0
/*
 * CO-RE field, type and enum relocations against the running kernel: a
 * flavour of struct xdp_md whose fields sit elsewhere than the kernel's, a
 * field no kernel has, a local struct iphdr without the kernel's anonymous
 * union around the addresses, fields wider than the kernel's, arrays
 * indexed, type sizes and ids, and values of kernel enums. Each answer goes to a map so that no relocation is dead code.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct xdp_md___shuffled {
	__u32 rx_queue_index;
	__u32 data_end;
	__u32 no_such_field;
	__u32 data;
	__u32 ingress_ifindex;
} __attribute__((preserve_access_index));

struct iphdr___flat {
	__u8 ttl;
	__u8 protocol;
	__u32 saddr;
	__u32 daddr;
} __attribute__((preserve_access_index));

/* wider than the kernel's fields: loads are narrowed where unsigned, and
 * poisoned where signed (never reached: its size says 4) */
struct xdp_md___wide {
	__u64 rx_queue_index;
	__s64 ingress_ifindex;
} __attribute__((preserve_access_index));

/* the addresses in the other order, read by element */
struct ethhdr___swapped {
	unsigned char h_source[6];
	unsigned char h_dest[6];
	__be16 h_proto;
} __attribute__((preserve_access_index));

struct no_such_type___anywhere {
	int x;
};

enum bpf_func_id___mine {
	BPF_FUNC_map_lookup_elem___mine = 100,
	BPF_FUNC_redirect___mine = 200,
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} answers SEC(".maps");

static __always_inline void put(__u32 slot, __u64 v)
{
	bpf_map_update_elem(&answers, &slot, &v, BPF_ANY);
}

SEC("xdp")
int core_fields(struct xdp_md *ctx)
{
	struct xdp_md___shuffled *m = (void *)ctx;
	void *data = (void *)(long)m->data;
	void *data_end = (void *)(long)m->data_end;
	struct ethhdr *eth = data;
	struct iphdr___flat *ip = (void *)(eth + 1);
	struct xdp_md___wide *w = (void *)ctx;
	struct ethhdr___swapped *e = data;

	put(0, m->rx_queue_index);
	put(1, m->ingress_ifindex);
	put(2, bpf_core_field_exists(m->no_such_field));
	put(3, bpf_core_field_size(m->ingress_ifindex));
	put(4, bpf_core_field_offset(m->ingress_ifindex));
	put(5, bpf_core_type_size(struct iphdr___flat));
	put(6, bpf_core_type_exists(struct no_such_type___anywhere));
	put(7, bpf_core_type_id_kernel(struct xdp_md___shuffled));
	put(8, bpf_core_type_id_local(struct xdp_md___shuffled));
	put(9, bpf_core_enum_value(enum xdp_action, XDP_REDIRECT));
	put(10, bpf_core_enum_value(enum bpf_func_id___mine, BPF_FUNC_redirect___mine));
	put(11, bpf_core_enum_value_exists(enum bpf_func_id___mine,
					   BPF_FUNC_map_lookup_elem___mine));
	/* the kernel's header, not the local one, is read */
	if ((void *)ip + 20 > data_end)
		return XDP_PASS;
	put(12, ip->ttl);
	put(13, ip->daddr);
	put(14, bpf_core_field_offset(ip->saddr));
	put(15, w->rx_queue_index);
	if (bpf_core_field_size(w->ingress_ifindex) == 8)
		put(15, w->ingress_ifindex);
	put(15, e->h_source[3] + bpf_core_field_offset(e->h_dest[1]));
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
