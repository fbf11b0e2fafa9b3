// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A keepalive timer whose callback reports whether
 * it re-armed itself, as a loop callback returns 1 to stop; a timer's
 * callback must return 0.
 */
#include "include/corpus.h"

struct keepalive {
	__u64 sent;
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct keepalive);
	__uint(max_entries, 1);
} keepalive SEC(".maps");

static int keepalive_fire(void *map, __u32 *key, struct keepalive *k)
{
	k->sent++;
	if (k->sent > 100)
		return 1;
	bpf_timer_start(&k->timer, 1000000ULL, 0);
	return 0;
}

SEC("xdp")
int xdp_keepalive(struct xdp_md *ctx)
{
	__u32 zero = 0;
	struct keepalive *k = bpf_map_lookup_elem(&keepalive, &zero);

	if (!k)
		return XDP_PASS;
	if (!k->sent && !bpf_timer_init(&k->timer, &keepalive, 1)) {
		bpf_timer_set_callback(&k->timer, keepalive_fire);
		bpf_timer_start(&k->timer, 1000000ULL, 0);
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
