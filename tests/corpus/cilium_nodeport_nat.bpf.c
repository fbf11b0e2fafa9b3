// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of Cilium's bpf_xdp.c nodeport path and its ctx_ helpers:
 * headers are read with ctx_load_bytes (bpf_xdp_load_bytes) into stack
 * copies rather than through packet pointers, the service is found by a
 * lb4_key of address, port and a zero slot, a backend picked by the
 * flow's hash modulo the service's count, and the destination rewritten
 * with ctx_store_bytes; the IPv4 and L4 checksums follow with
 * bpf_csum_diff over the old and new words, folded by csum_fold. The
 * per-CPU metrics map is keyed by reason and direction, as Cilium's is.
 * relax_verifier() calls bpf_get_smp_processor_id(), as the original does
 * to cut the state it must track.
 */
#include "include/corpus.h"

#define __section(X)   __attribute__((section(X), used))
#define __maybe_unused __attribute__((unused))

#define CTX_ACT_OK	XDP_PASS
#define CTX_ACT_DROP	XDP_DROP
#define CTX_ACT_TX	XDP_TX
#define DROP_INVALID	(-134)
#define DROP_NO_SERVICE (-158)
#define METRIC_INGRESS	1
#define ETH_HLEN_	14

struct lb4_key {
	__be32 address;
	__be16 dport;
	__u16 backend_slot;
	__u8 proto;
	__u8 scope;
	__u8 pad[2];
};

struct lb4_service {
	__u32 backend_id;
	__u16 count;
	__u16 rev_nat_index;
	__u8 flags;
	__u8 flags2;
	__u8 pad[2];
};

struct lb4_backend {
	__be32 address;
	__be16 port;
	__u8 proto;
	__u8 flags;
};

struct metrics_key {
	__u8 reason;
	__u8 dir;
	__u16 reserved[3];
};

struct metrics_value {
	__u64 count;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct lb4_key);
	__type(value, struct lb4_service);
	__uint(max_entries, 256);
} cilium_lb4_services_v2 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct lb4_backend);
	__uint(max_entries, 256);
} cilium_lb4_backends_v3 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, struct metrics_key);
	__type(value, struct metrics_value);
	__uint(max_entries, 1024);
} cilium_metrics SEC(".maps");

static __always_inline void relax_verifier(void)
{
	volatile int __maybe_unused id = bpf_get_smp_processor_id();
}

static __always_inline int ctx_load_bytes(struct xdp_md *ctx, __u32 off, void *to, __u32 len)
{
	return bpf_xdp_load_bytes(ctx, off, to, len);
}

static __always_inline int ctx_store_bytes(struct xdp_md *ctx, __u32 off, const void *from,
					   __u32 len)
{
	return bpf_xdp_store_bytes(ctx, off, (void *)from, len);
}

static __always_inline __sum16 csum_fold(__u32 csum)
{
	csum = (csum & 0xffff) + (csum >> 16);
	csum = (csum & 0xffff) + (csum >> 16);
	return (__sum16)~csum;
}

static __always_inline void update_metrics(__u64 bytes, __u8 direction, __u8 reason)
{
	struct metrics_value *entry, new_entry = {};
	struct metrics_key key = {};

	key.reason = reason;
	key.dir = direction;
	entry = bpf_map_lookup_elem(&cilium_metrics, &key);
	if (entry) {
		entry->count += 1;
		entry->bytes += bytes;
	} else {
		new_entry.count = 1;
		new_entry.bytes = bytes;
		bpf_map_update_elem(&cilium_metrics, &key, &new_entry, 0);
	}
}

static __always_inline __u32 hash_32(__u32 val)
{
	return (val * 0x61C88647) >> 16;
}

/* the L4 checksum of a rewritten destination, by the diff of both words */
static __always_inline int l4_csum_replace(struct xdp_md *ctx, __u32 off, __be32 from, __be32 to,
					   __be16 pfrom, __be16 pto)
{
	__be32 old[2] = { from, pfrom }, new[2] = { to, pto };
	__sum16 sum;
	__s64 d;

	if (ctx_load_bytes(ctx, off, &sum, sizeof(sum)) < 0)
		return DROP_INVALID;
	if (!sum)
		return 0; /* UDP without a checksum */
	d = bpf_csum_diff(old, sizeof(old), new, sizeof(new), (__u16)~sum);
	if (d < 0)
		return DROP_INVALID;
	sum = csum_fold((__u32)d);
	if (!sum)
		sum = 0xffff;
	return ctx_store_bytes(ctx, off, &sum, sizeof(sum));
}

static __always_inline int nodeport_lb4(struct xdp_md *ctx)
{
	struct lb4_service *svc;
	struct lb4_backend *backend;
	struct lb4_key key = {};
	struct iphdr ip4;
	__be16 ports[2];
	__u32 l4_off, backend_id, csum_off;
	__s64 d;
	int ret;

	if (ctx_load_bytes(ctx, ETH_HLEN_, &ip4, sizeof(ip4)) < 0)
		return DROP_INVALID;
	if (ip4.version != 4 || ip4.ihl < 5)
		return DROP_INVALID;
	if (ip4.protocol != IPPROTO_TCP && ip4.protocol != IPPROTO_UDP)
		return CTX_ACT_OK;
	if (ip4.frag_off & bpf_htons(0x3fff))
		return CTX_ACT_OK;
	l4_off = ETH_HLEN_ + ip4.ihl * 4;
	if (ctx_load_bytes(ctx, l4_off, ports, sizeof(ports)) < 0)
		return DROP_INVALID;
	key.address = ip4.daddr;
	key.dport = ports[1];
	key.proto = ip4.protocol;
	svc = bpf_map_lookup_elem(&cilium_lb4_services_v2, &key);
	if (!svc)
		return CTX_ACT_OK;
	if (!svc->count)
		return DROP_NO_SERVICE;
	relax_verifier();
	key.backend_slot = (hash_32(ip4.saddr ^ ports[0]) % svc->count) + 1;
	svc = bpf_map_lookup_elem(&cilium_lb4_services_v2, &key);
	if (!svc)
		return DROP_NO_SERVICE;
	backend_id = svc->backend_id;
	backend = bpf_map_lookup_elem(&cilium_lb4_backends_v3, &backend_id);
	if (!backend)
		return DROP_NO_SERVICE;

	/* the IPv4 header: the destination and its checksum */
	d = bpf_csum_diff(&ip4.daddr, 4, &backend->address, 4, (__u16)~ip4.check);
	if (d < 0)
		return DROP_INVALID;
	ip4.check = csum_fold((__u32)d);
	csum_off = ip4.protocol == IPPROTO_TCP ? 16 : 6;
	ret = l4_csum_replace(ctx, l4_off + csum_off, ip4.daddr, backend->address, ports[1],
			      backend->port);
	if (ret < 0)
		return ret;
	ip4.daddr = backend->address;
	if (ctx_store_bytes(ctx, ETH_HLEN_ + offsetof(struct iphdr, check), &ip4.check, 2) < 0 ||
	    ctx_store_bytes(ctx, ETH_HLEN_ + offsetof(struct iphdr, daddr), &ip4.daddr, 4) < 0)
		return DROP_INVALID;
	ports[1] = backend->port;
	if (ctx_store_bytes(ctx, l4_off + 2, &ports[1], 2) < 0)
		return DROP_INVALID;
	return CTX_ACT_TX;
}

__section("xdp") int cil_xdp_entry(struct xdp_md *ctx)
{
	__u64 len = ctx->data_end - ctx->data;
	__be16 proto;
	int ret;

	if (ctx_load_bytes(ctx, 12, &proto, sizeof(proto)) < 0)
		return CTX_ACT_OK;
	if (proto != bpf_htons(ETH_P_IP))
		return CTX_ACT_OK;
	ret = nodeport_lb4(ctx);
	if (ret < 0) {
		update_metrics(len, METRIC_INGRESS, (__u8)-ret);
		return CTX_ACT_DROP;
	}
	if (ret == CTX_ACT_TX)
		update_metrics(len, METRIC_INGRESS, 0);
	return ret;
}

char __license[] __section("license") = "Dual BSD/GPL";
