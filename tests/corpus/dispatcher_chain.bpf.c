// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of libxdp's multi-program dispatcher: a read-only config
 * (a `volatile const struct` in .rodata, which the library fills before
 * load) says how many of ten slot functions run and, for each, the bit set
 * of actions after which the next slot is called. The slots are global
 * __attribute__((noinline)) functions taking the context, the targets that
 * freplace would swap; here they are small filters of their own, each
 * starting from a `volatile int` return value as the library's placeholder programs do.
 * The dispatcher is unrolled by hand, slot by slot, and returns the first
 * action that does not chain, or XDP_PASS after the last slot.
 */
#include "include/corpus.h"

#define MAX_DISPATCHER_ACTIONS 10
#define XDP_DISPATCHER_RETVAL  31

struct xdp_dispatcher_config {
	__u8 magic;
	__u8 dispatcher_version;
	__u8 num_progs_enabled;
	__u8 is_xdp_frags;
	__u32 chain_call_actions[MAX_DISPATCHER_ACTIONS];
	__u32 run_prios[MAX_DISPATCHER_ACTIONS];
	__u32 program_flags[MAX_DISPATCHER_ACTIONS];
};

/* what a loader would have written: seven slots, the chain bits per slot */
static volatile const struct xdp_dispatcher_config conf = {
	.magic = 236,
	.dispatcher_version = 2,
	.num_progs_enabled = 7,
	.chain_call_actions = { (1U << XDP_PASS) | (1U << XDP_DISPATCHER_RETVAL),
				(1U << XDP_PASS) | (1U << XDP_DISPATCHER_RETVAL),
				(1U << XDP_PASS) | (1U << XDP_DROP) | (1U << XDP_DISPATCHER_RETVAL),
				1U << XDP_DISPATCHER_RETVAL,
				(1U << XDP_PASS) | (1U << XDP_DISPATCHER_RETVAL),
				(1U << XDP_PASS) | (1U << XDP_DISPATCHER_RETVAL), 1U << XDP_PASS, 0,
				0, 0 },
	.run_prios = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 },
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, MAX_DISPATCHER_ACTIONS);
} slot_hits SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 32);
} ret_seen SEC(".maps");

static __always_inline void hit(__u32 slot)
{
	__u64 *v = bpf_map_lookup_elem(&slot_hits, &slot);

	if (v)
		(*v)++;
}

/* slot 0: not IP, not interesting to anyone after */
__attribute__((noinline)) int prog0(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	volatile int ret = XDP_DISPATCHER_RETVAL;
	struct ethhdr *eth = data;

	if (!ctx)
		return XDP_ABORTED;
	hit(0);
	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP) && eth->h_proto != bpf_htons(ETH_P_IPV6) &&
	    eth->h_proto != bpf_htons(ETH_P_8021Q))
		return XDP_PASS;
	return ret;
}

/* slot 1: broadcast source MACs are dropped */
__attribute__((noinline)) int prog1(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	volatile int ret = XDP_DISPATCHER_RETVAL;
	struct ethhdr *eth = data;

	if (!ctx)
		return XDP_ABORTED;
	hit(1);
	if ((void *)(eth + 1) > data_end)
		return XDP_ABORTED;
	if (eth->h_source[0] & 1)
		return XDP_DROP;
	return ret;
}

/* slot 2: the IPv4 TTL of 0 or 1 is dropped, 2 passes */
__attribute__((noinline)) int prog2(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	volatile int ret = XDP_DISPATCHER_RETVAL;
	struct iphdr *iph = data + sizeof(struct ethhdr);

	if (!ctx)
		return XDP_ABORTED;
	hit(2);
	if ((void *)(iph + 1) > data_end)
		return ret;
	if (((struct ethhdr *)data)->h_proto != bpf_htons(ETH_P_IP))
		return ret;
	if (iph->ttl < 2)
		return XDP_DROP;
	if (iph->ttl == 2)
		return XDP_PASS;
	return ret;
}

/* slot 3: UDP to port 9 (discard) is dropped; any other verdict stops */
__attribute__((noinline)) int prog3(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	volatile int ret = XDP_DISPATCHER_RETVAL;
	struct iphdr *iph = data + sizeof(struct ethhdr);
	struct udphdr *udp;

	if (!ctx)
		return XDP_ABORTED;
	hit(3);
	if ((void *)(iph + 1) > data_end)
		return ret;
	if (((struct ethhdr *)data)->h_proto != bpf_htons(ETH_P_IP) ||
	    iph->protocol != IPPROTO_UDP || iph->ihl != 5)
		return ret;
	udp = (void *)(iph + 1);
	if ((void *)(udp + 1) > data_end)
		return XDP_PASS;
	if (udp->dest == bpf_htons(9))
		return XDP_DROP;
	return ret;
}

/* slot 4: counts the TOS values it sees, never decides */
__attribute__((noinline)) int prog4(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	volatile int ret = XDP_DISPATCHER_RETVAL;
	struct iphdr *iph = data + sizeof(struct ethhdr);
	__u32 key;
	__u64 *v;

	if (!ctx)
		return XDP_ABORTED;
	hit(4);
	if ((void *)(iph + 1) > data_end)
		return ret;
	key = iph->tos & 31;
	v = bpf_map_lookup_elem(&ret_seen, &key);
	if (v)
		__sync_fetch_and_add(v, 1);
	return ret;
}

/* slot 5: IPv6 hop limit 0 is dropped */
__attribute__((noinline)) int prog5(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	volatile int ret = XDP_DISPATCHER_RETVAL;
	struct ipv6hdr *ip6 = data + sizeof(struct ethhdr);

	if (!ctx)
		return XDP_ABORTED;
	hit(5);
	if ((void *)(ip6 + 1) > data_end)
		return ret;
	if (((struct ethhdr *)data)->h_proto != bpf_htons(ETH_P_IPV6))
		return ret;
	if (!ip6->hop_limit)
		return XDP_DROP;
	return ret;
}

/* slot 6: TCP SYN to port 22 is bounced back (XDP_TX, no rewrite) */
__attribute__((noinline)) int prog6(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	volatile int ret = XDP_DISPATCHER_RETVAL;
	struct iphdr *iph = data + sizeof(struct ethhdr);
	struct tcphdr *tcp;

	if (!ctx)
		return XDP_ABORTED;
	hit(6);
	if ((void *)(iph + 1) > data_end)
		return ret;
	if (iph->protocol != IPPROTO_TCP)
		return XDP_PASS;
	tcp = (void *)iph + iph->ihl * 4;
	if ((void *)(tcp + 1) > data_end)
		return ret;
	if (tcp->syn && tcp->dest == bpf_htons(22))
		return XDP_TX;
	return ret;
}

/* the slots the config leaves off: each returns the dispatcher's default
 * verdict, as libxdp's placeholders for unattached slots do */
#define IDLE_SLOT(n)                                                                                \
	__attribute__((noinline)) int prog##n(struct xdp_md *ctx)                                  \
	{                                                                                          \
		volatile int ret = XDP_DISPATCHER_RETVAL;                                          \
                                                                                                   \
		if (!ctx)                                                                          \
			return XDP_ABORTED;                                                        \
		return ret;                                                                        \
	}
IDLE_SLOT(7)
IDLE_SLOT(8)
IDLE_SLOT(9)

__attribute__((noinline)) int compat_test(struct xdp_md *ctx)
{
	volatile int ret = XDP_DISPATCHER_RETVAL;

	if (!ctx)
		return XDP_ABORTED;
	return ret;
}

SEC("xdp")
int xdp_dispatcher(struct xdp_md *ctx)
{
	__u8 num_progs_enabled = conf.num_progs_enabled;
	int ret;

	if (num_progs_enabled < 1)
		goto out;
	ret = prog0(ctx);
	if (!((1U << ret) & conf.chain_call_actions[0]))
		return ret;
	if (num_progs_enabled < 2)
		goto out;
	ret = prog1(ctx);
	if (!((1U << ret) & conf.chain_call_actions[1]))
		return ret;
	if (num_progs_enabled < 3)
		goto out;
	ret = prog2(ctx);
	if (!((1U << ret) & conf.chain_call_actions[2]))
		return ret;
	if (num_progs_enabled < 4)
		goto out;
	ret = prog3(ctx);
	if (!((1U << ret) & conf.chain_call_actions[3]))
		return ret;
	if (num_progs_enabled < 5)
		goto out;
	ret = prog4(ctx);
	if (!((1U << ret) & conf.chain_call_actions[4]))
		return ret;
	if (num_progs_enabled < 6)
		goto out;
	ret = prog5(ctx);
	if (!((1U << ret) & conf.chain_call_actions[5]))
		return ret;
	if (num_progs_enabled < 7)
		goto out;
	ret = prog6(ctx);
	if (!((1U << ret) & conf.chain_call_actions[6]))
		return ret;
	if (num_progs_enabled < 8)
		goto out;
	ret = prog7(ctx);
	if (!((1U << ret) & conf.chain_call_actions[7]))
		return ret;
	if (num_progs_enabled < 9)
		goto out;
	ret = prog8(ctx);
	if (!((1U << ret) & conf.chain_call_actions[8]))
		return ret;
	if (num_progs_enabled < 10)
		goto out;
	ret = prog9(ctx);
	if (!((1U << ret) & conf.chain_call_actions[9]))
		return ret;
	/* a build-time check the library makes, never true at run time */
	if (num_progs_enabled < 11)
		goto out;
	ret = compat_test(ctx);
out:
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
