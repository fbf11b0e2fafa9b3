// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of Katran's QUIC routing: a UDP frame to port 443 carrying
 * a QUIC long header (a version, then a destination connection id whose
 * length is in the packet) or a short header (the id right after the first
 * byte, its length configured) has the server id read from the id's first
 * bytes (its version in the top two bits), the id's bytes walked one by one
 * at offsets the packet decides, and the real found in an array by the
 * server id; a real that exists gets the frame (its MAC written, XDP_TX),
 * counted per version. Anything else passes to the stack.
 */
#include "include/corpus.h"

#define QUIC_PORT      443
#define QUIC_LONG_HDR  0x80
#define QUIC_MIN_CID   8
#define QUIC_MAX_CID   20
#define QUIC_SHORT_CID 8
#define MAX_QUIC_REALS 256

struct quic_real {
	__u8 mac[6];
	__u16 flags;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct quic_real);
	__uint(max_entries, MAX_QUIC_REALS);
} server_id_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
} quic_stats SEC(".maps");

static __always_inline void stat(__u32 i)
{
	__u64 *v = bpf_map_lookup_elem(&quic_stats, &i);

	if (v)
		*v += 1;
}

/* the server id from the connection id at cid, len bytes long */
static __always_inline int server_id_of(__u8 *cid, __u8 len, void *data_end, __u32 *sid,
					__u8 *cksum)
{
	__u8 sum = 0;

	if ((void *)(cid + QUIC_MIN_CID) > data_end)
		return -1;
	switch (cid[0] >> 6) {
	case 0:
		*sid = ((cid[0] & 0x3f) << 10) | (cid[1] << 2) | (cid[2] >> 6);
		break;
	case 1:
		*sid = (cid[1] << 16) | (cid[2] << 8) | cid[3];
		break;
	default:
		return -1;
	}
	/* the id's own bytes, within the longest id the packet must hold */
	if ((void *)(cid + QUIC_MAX_CID) > data_end)
		return -1;
	for (int i = 0; i < QUIC_MAX_CID; i++) {
		if (i >= len)
			break;
		sum += cid[i];
	}
	*cksum = sum;
	return cid[0] >> 6;
}

SEC("xdp")
int quic_router(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	struct quic_real *real;
	struct udphdr *udp;
	__u8 *quic, *cid, cid_len, cksum = 0;
	__u32 sid = 0;
	int version;

	if ((void *)(iph + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	if (iph->protocol != IPPROTO_UDP || iph->ihl < 5)
		return XDP_PASS;
	udp = (void *)iph + iph->ihl * 4;
	if ((void *)(udp + 1) > data_end)
		return XDP_PASS;
	if (udp->dest != bpf_htons(QUIC_PORT) && udp->dest != bpf_htons(53))
		return XDP_PASS;
	quic = (void *)(udp + 1);
	if ((void *)(quic + 1) > data_end)
		return XDP_PASS;
	if (quic[0] & QUIC_LONG_HDR) {
		/* first byte, 4 of version, the id's length, the id */
		if ((void *)(quic + 6) > data_end)
			return XDP_PASS;
		cid_len = quic[5];
		if (cid_len < QUIC_MIN_CID || cid_len > QUIC_MAX_CID) {
			stat(6);
			return XDP_PASS;
		}
		cid = quic + 6;
	} else {
		cid_len = QUIC_SHORT_CID;
		cid = quic + 1;
	}
	version = server_id_of(cid, cid_len, data_end, &sid, &cksum);
	if (version < 0) {
		stat(7);
		return XDP_PASS;
	}
	stat(version);
	sid &= MAX_QUIC_REALS - 1;
	real = bpf_map_lookup_elem(&server_id_map, &sid);
	if (!real || !(real->flags & 1) || (cksum & 3) == 3) {
		stat(4);
		return XDP_PASS;
	}
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, real->mac, ETH_ALEN);
	stat(5);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
