// SPDX-License-Identifier: GPL-2.0
/*
 * Headers copied whole with __builtin_memcpy into the stack, edited there
 * and copied back, as several XDP tutorials and forwarding examples do: the
 * Ethernet header is copied out, its MACs exchanged, the VLAN PCP rewritten
 * by a switch over the IP DSCP class, and copied back; the IPv4 header is
 * copied, its TOS changed and its checksum recomputed over the copy, and
 * written back. A switch over the L4 protocol picks the verdict.
 */
#include "include/corpus.h"

static __always_inline __u16 ip_csum(struct iphdr *iph)
{
	__u16 *w = (__u16 *)iph;
	__u32 sum = 0;
	int i;

	iph->check = 0;
#pragma unroll
	for (i = 0; i < 10; i++)
		sum += w[i];
	sum = (sum & 0xffff) + (sum >> 16);
	sum += sum >> 16;
	return ~sum;
}

SEC("xdp")
int xdp_copy_edit(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr eth;
	struct iphdr iph;
	__u8 tmp[ETH_ALEN];
	__u32 off = ETH_HLEN;
	__u16 proto;

	if (data + sizeof(eth) > data_end)
		return XDP_PASS;
	__builtin_memcpy(&eth, data, sizeof(eth));
	proto = eth.h_proto;
	if (proto == bpf_htons(ETH_P_8021Q)) {
		struct vlan_hdr vh;

		if (data + off + sizeof(vh) > data_end)
			return XDP_PASS;
		__builtin_memcpy(&vh, data + off, sizeof(vh));
		proto = vh.h_vlan_encapsulated_proto;
		off += sizeof(vh);
	}
	if (proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	if (data + off + sizeof(iph) > data_end)
		return XDP_PASS;
	__builtin_memcpy(&iph, data + off, sizeof(iph));
	if (iph.ihl != 5 || iph.version != 4)
		return XDP_PASS;

	if (off > ETH_HLEN) {
		struct vlan_hdr vh;
		__u16 pcp;

		switch (iph.tos >> 5) {
		case 0:
			pcp = 0;
			break;
		case 1:
		case 2:
			pcp = 2;
			break;
		case 5:
			pcp = 5;
			break;
		case 6:
		case 7:
			pcp = 7;
			break;
		default:
			pcp = 3;
			break;
		}
		__builtin_memcpy(&vh, data + ETH_HLEN, sizeof(vh));
		vh.h_vlan_TCI = bpf_htons((bpf_ntohs(vh.h_vlan_TCI) & 0x1fff) | (pcp << 13));
		__builtin_memcpy(data + ETH_HLEN, &vh, sizeof(vh));
	}

	__builtin_memcpy(tmp, eth.h_dest, ETH_ALEN);
	__builtin_memcpy(eth.h_dest, eth.h_source, ETH_ALEN);
	__builtin_memcpy(eth.h_source, tmp, ETH_ALEN);
	__builtin_memcpy(data, &eth, sizeof(eth));

	iph.tos = (iph.tos & 0x03) | 0xb8;
	iph.check = ip_csum(&iph);
	__builtin_memcpy(data + off, &iph, sizeof(iph));

	switch (iph.protocol) {
	case IPPROTO_TCP:
		return XDP_TX;
	case IPPROTO_UDP:
		return XDP_TX;
	case IPPROTO_ICMP:
		return XDP_PASS;
	case IPPROTO_GRE:
	case IPPROTO_ESP:
		return XDP_DROP;
	default:
		return XDP_ABORTED;
	}
}

char _license[] SEC("license") = "GPL";
