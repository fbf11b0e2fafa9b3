// SPDX-License-Identifier: GPL-2.0
/*
 * A flow table whose entries expire by themselves, as conntrack-like XDP
 * code does without a user-space sweeper: each new IPv4 TCP or UDP flow
 * gets an entry with a struct bpf_timer, armed for the idle timeout; the
 * timer's callback deletes its entry. A frame of a known flow counts and
 * pushes the expiry out again. A second map, an array of one control
 * value, holds a timer that rolls a per-period frame counter over.
 */
#include "include/corpus.h"

#define CLOCK_MONOTONIC 1
#define FLOW_IDLE_NS	(30ULL * 1000 * 1000 * 1000)
#define PERIOD_NS	(1000ULL * 1000 * 1000)

struct flow_key {
	__u32 saddr, daddr;
	__u16 sport, dport;
	__u8 proto, pad[3];
};

struct flow {
	__u64 packets;
	__u64 bytes;
	struct bpf_timer expire;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct flow_key);
	__type(value, struct flow);
	__uint(max_entries, 1024);
} flows SEC(".maps");

struct period {
	__u64 frames;
	__u64 last_frames;
	struct bpf_timer tick;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct period);
	__uint(max_entries, 1);
} periods SEC(".maps");

static int flow_expired(void *map, struct flow_key *key, struct flow *val)
{
	bpf_map_delete_elem(map, key);
	return 0;
}

static int period_tick(void *map, __u32 *key, struct period *p)
{
	p->last_frames = p->frames;
	p->frames = 0;
	bpf_timer_start(&p->tick, PERIOD_NS, 0);
	return 0;
}

static __always_inline void count_period(void)
{
	__u32 zero = 0;
	struct period *p = bpf_map_lookup_elem(&periods, &zero);

	if (!p)
		return;
	if (__sync_fetch_and_add(&p->frames, 1) == 0 &&
	    bpf_timer_init(&p->tick, &periods, CLOCK_MONOTONIC) == 0) {
		bpf_timer_set_callback(&p->tick, period_tick);
		bpf_timer_start(&p->tick, PERIOD_NS, 0);
	}
}

SEC("xdp")
int xdp_timer_conntrack(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct flow_key key = {};
	struct ethhdr *eth = data;
	struct flow fresh = {}, *f;
	struct iphdr *iph;
	__u16 *ports;

	count_period();
	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end || iph->ihl != 5)
		return XDP_PASS;
	if (iph->protocol != IPPROTO_TCP && iph->protocol != IPPROTO_UDP)
		return XDP_PASS;
	ports = (void *)(iph + 1);
	if ((void *)(ports + 2) > data_end)
		return XDP_PASS;
	key.saddr = iph->saddr;
	key.daddr = iph->daddr;
	key.sport = ports[0];
	key.dport = ports[1];
	key.proto = iph->protocol;

	f = bpf_map_lookup_elem(&flows, &key);
	if (f) {
		f->packets++;
		f->bytes += data_end - data;
		bpf_timer_start(&f->expire, FLOW_IDLE_NS, 0);
		return XDP_PASS;
	}
	fresh.packets = 1;
	fresh.bytes = data_end - data;
	if (bpf_map_update_elem(&flows, &key, &fresh, BPF_NOEXIST))
		return XDP_PASS;
	f = bpf_map_lookup_elem(&flows, &key);
	if (!f)
		return XDP_PASS;
	if (bpf_timer_init(&f->expire, &flows, CLOCK_MONOTONIC))
		return XDP_PASS;
	bpf_timer_set_callback(&f->expire, flow_expired);
	bpf_timer_start(&f->expire, FLOW_IDLE_NS, 0);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
