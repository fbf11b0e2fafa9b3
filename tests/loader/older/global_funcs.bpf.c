// SPDX-License-Identifier: GPL-2.0
/*
 * Global (BTF-typed, not static) functions, which the kernel verifies once
 * on their own from their prototypes: a pointer argument may be NULL, and
 * the caller knows nothing of what one returns. Programs named ok_* load
 * as root, bad_* do not.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct stats {
	__u64 frames;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, struct stats);
} per_proto SEC(".maps");

__noinline int eth_proto(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > end)
		return -1;
	return bpf_ntohs(eth->h_proto);
}

__noinline int account(struct stats *s, __u32 len)
{
	if (!s)
		return 0;
	s->frames++;
	s->bytes += len;
	return 1;
}

/* dereferences its argument without asking whether it is NULL */
__noinline int careless(struct stats *s)
{
	return s->frames > 10;
}

/* returns 0..7, which its callers cannot know */
__noinline int bucket(__u32 v)
{
	return v & 7;
}

SEC("xdp")
int ok_count_protocols(struct xdp_md *ctx)
{
	int proto = eth_proto(ctx);
	__u32 key = proto == ETH_P_IP ? 0 : proto == ETH_P_IPV6 ? 1 : 2;
	struct stats *s;

	if (proto < 0)
		return XDP_DROP;
	s = bpf_map_lookup_elem(&per_proto, &key);
	account(s, ctx->data_end - ctx->data);
	return XDP_PASS;
}

SEC("xdp")
int ok_stack_argument(struct xdp_md *ctx)
{
	struct stats local = {};

	account(&local, 64);
	return local.frames == 1 ? XDP_PASS : XDP_DROP;
}

SEC("xdp")
int bad_unchecked_argument(struct xdp_md *ctx)
{
	struct stats local = {};

	return careless(&local) ? XDP_DROP : XDP_PASS;
}

SEC("xdp")
int bad_trusts_a_return_value(struct xdp_md *ctx)
{
	struct stats table[8] = {};
	int i = bucket(ctx->rx_queue_index);

	/* a static function's range would be known; a global one's is not */
	return table[i].frames ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
