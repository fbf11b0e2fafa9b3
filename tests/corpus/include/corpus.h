/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Headers the public XDP code keeps in its own files (the kernel's uapi has
 * no struct for an 802.1Q tag) and the includes every corpus program needs.
 */
#ifndef CORPUS_H
#define CORPUS_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <linux/icmpv6.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#ifndef ETH_P_8021AD
#define ETH_P_8021AD 0x88A8
#endif

/* linux/icmp.h pulls in libc's socket headers, which a BPF build lacks. */
#define ICMP_ECHOREPLY	   0
#define ICMP_DEST_UNREACH  3
#define ICMP_ECHO	   8
#define ICMP_TIME_EXCEEDED 11
#define ICMP_FRAG_NEEDED   4

struct icmphdr {
	__u8 type;
	__u8 code;
	__sum16 checksum;
	union {
		struct {
			__be16 id;
			__be16 sequence;
		} echo;
		__be32 gateway;
		struct {
			__be16 __unused;
			__be16 mtu;
		} frag;
	} un;
};

struct vlan_hdr {
	__be16 h_vlan_TCI;
	__be16 h_vlan_encapsulated_proto;
};

static __always_inline int proto_is_vlan(__u16 h_proto)
{
	return h_proto == bpf_htons(ETH_P_8021Q) || h_proto == bpf_htons(ETH_P_8021AD);
}

#endif
