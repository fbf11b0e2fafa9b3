// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A session table whose entries expire by a timer,
 * with the callback written as if it were a bpf_for_each_map_elem one: a
 * fourth argument, a context the timer never passes (the kernel calls it
 * with the map, the key and the value only).
 */
#include "include/corpus.h"

struct session {
	__u64 last_seen;
	struct bpf_timer expire;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u32);
	__type(value, struct session);
	__uint(max_entries, 256);
} sessions SEC(".maps");

static int session_expired(void *map, __u32 *key, struct session *s, __u64 *budget)
{
	if (*budget)
		bpf_map_delete_elem(map, key);
	return 0;
}

SEC("xdp")
int xdp_session_expire(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct session fresh = {}, *s;
	struct ethhdr *eth = data;
	struct iphdr *iph;
	__u32 key;

	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	key = iph->saddr;
	fresh.last_seen = bpf_ktime_get_ns();
	bpf_map_update_elem(&sessions, &key, &fresh, BPF_ANY);
	s = bpf_map_lookup_elem(&sessions, &key);
	if (!s)
		return XDP_PASS;
	bpf_timer_init(&s->expire, &sessions, 1);
	bpf_timer_set_callback(&s->expire, session_expired);
	bpf_timer_start(&s->expire, 1000000000ULL, 0);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
