// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of iproute2-era objects (`ip link set dev X xdp obj F.o`):
 * the program in SEC("prog"), maps as struct bpf_map_def in SEC("maps"),
 * a source-MAC hash of counters updated with bpf_map_update_elem when new
 * (BPF_NOEXIST) and an atomic add when present, and a MAC block list whose
 * hit is deleted from the counter table with bpf_map_delete_elem. The MAC is
 * assembled from byte loads into a u64, high bytes first.
 */
#include "include/corpus.h"

struct bpf_elf_map_legacy {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

struct bpf_elf_map_legacy mac_counts SEC("maps") = {
	.type = BPF_MAP_TYPE_HASH,
	.key_size = sizeof(__u64),
	.value_size = sizeof(__u64),
	.max_entries = 1024,
};

struct bpf_elf_map_legacy mac_block SEC("maps") = {
	.type = BPF_MAP_TYPE_HASH,
	.key_size = sizeof(__u64),
	.value_size = sizeof(__u32),
	.max_entries = 64,
};

SEC("prog")
int xdp_mac_count(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	__u8 *p = (void *)(long)ctx->data;
	__u64 mac, one = 1, *cnt;

	if ((void *)(p + ETH_HLEN) > data_end)
		return XDP_DROP;
	mac = ((__u64)p[6] << 40) | ((__u64)p[7] << 32) | ((__u64)p[8] << 24) |
	      ((__u64)p[9] << 16) | ((__u64)p[10] << 8) | p[11];
	if (bpf_map_lookup_elem(&mac_block, &mac)) {
		bpf_map_delete_elem(&mac_counts, &mac);
		return XDP_DROP;
	}
	cnt = bpf_map_lookup_elem(&mac_counts, &mac);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	else
		bpf_map_update_elem(&mac_counts, &mac, &one, BPF_NOEXIST);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
