// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. In the manner of an XDP-hints program whose
 * metadata keeps the RSS hash type in 16 bits, the last field: the kfunc
 * writes an enum xdp_rss_hash_type (4 bytes) there, 2 bytes past the
 * metadata the program checked. The kernel refuses it bound or not.
 */
#include "include/corpus.h"

enum xdp_rss_hash_type {
	XDP_RSS_TYPE_NONE = 0,
};

extern int bpf_xdp_metadata_rx_hash(const struct xdp_md *ctx, __u32 *hash,
				    enum xdp_rss_hash_type *rss_type) __ksym;

struct short_hints {
	__u32 rx_hash;
	__u16 flags;
	__u16 rx_hash_type;
};

SEC("xdp")
int xdp_hints_short(struct xdp_md *ctx)
{
	struct short_hints *meta;
	void *data;

	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*meta)))
		return XDP_PASS;
	data = (void *)(long)ctx->data;
	meta = (void *)(long)ctx->data_meta;
	if ((void *)(meta + 1) > data)
		return XDP_PASS;
	meta->flags = 0;
	if (!bpf_xdp_metadata_rx_hash(ctx, &meta->rx_hash,
				      (enum xdp_rss_hash_type *)&meta->rx_hash_type))
		meta->flags = 1;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
