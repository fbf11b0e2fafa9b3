// SPDX-License-Identifier: GPL-2.0
/*
 * BPF-to-BPF calls to global functions, as libxdp's dispatcher and newer
 * xdp-tools code have them: non-static __noinline functions with BTF, each
 * verified on its own by the kernel against its prototype. One takes the
 * context and an offset and returns the IPv4 protocol at it or -1, one is a
 * pure scalar function (a port classifier), and a static __noinline one
 * counts the verdict in an array.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
} verdicts SEC(".maps");

__noinline int l4_proto_at(struct xdp_md *ctx, __u32 off)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct iphdr *iph;

	if (off > 64)
		return -1;
	iph = data + off;
	if ((void *)(iph + 1) > data_end)
		return -1;
	if (iph->version != 4)
		return -1;
	return iph->protocol;
}

__noinline int port_class(__u32 port)
{
	if (port < 1024)
		return 1;
	if (port >= 49152)
		return 3;
	return 2;
}

__noinline int dport_at(struct xdp_md *ctx, __u32 off)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u8 *p;

	if (off > 128)
		return -1;
	p = data + off;
	if ((void *)(p + 4) > data_end)
		return -1;
	return (p[2] << 8) | p[3];
}

static __noinline int count(__u32 verdict)
{
	__u64 *v = bpf_map_lookup_elem(&verdicts, &verdict);

	if (v)
		*v += 1;
	return verdict;
}

SEC("xdp")
int xdp_global_calls(struct xdp_md *ctx)
{
	__u32 off = ETH_HLEN;
	int proto, port;

	proto = l4_proto_at(ctx, off);
	if (proto < 0)
		return count(XDP_PASS);
	if (proto != IPPROTO_TCP && proto != IPPROTO_UDP)
		return count(XDP_PASS);
	port = dport_at(ctx, off + sizeof(struct iphdr));
	if (port < 0)
		return count(XDP_DROP);
	switch (port_class(port)) {
	case 1:
		return count(XDP_PASS);
	case 3:
		return count(XDP_DROP);
	default:
		return count(proto == IPPROTO_UDP ? XDP_DROP : XDP_PASS);
	}
}

char _license[] SEC("license") = "GPL";
