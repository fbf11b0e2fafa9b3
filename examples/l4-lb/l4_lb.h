/* SPDX-License-Identifier: GPL-2.0 */
/* The load balancer's maps, shared by the program and its tests. */
#ifndef L4_LB_H
#define L4_LB_H

#include <linux/types.h>

/* A virtual service: IPv4 address, port and protocol, in network order. */
struct vip_key {
	__be32 addr;
	__be16 port;
	__u8 proto;
	__u8 pad;
};

/* Its backends: backends[first .. first + count - 1]. */
struct vip_backends {
	__u32 first;
	__u32 count;
};

struct backend {
	__be32 addr;
	__u8 mac[6];
	__u16 tx_port; /* key in tx_ports, the way out */
};

#define LB_BACKENDS 64

/*
 * The flow hash: the same 5-tuple always picks the same backend, and
 * nearby ones spread. Words in network order as they lie in the frame.
 */
static inline __u32 lb_flow_hash(__u32 saddr, __u32 daddr, __u16 sport, __u16 dport, __u8 proto)
{
	__u32 h = 2166136261u;

	h = (h ^ saddr) * 16777619u;
	h = (h ^ daddr) * 16777619u;
	h = (h ^ (((__u32)sport << 16) | dport)) * 16777619u;
	h = (h ^ proto) * 16777619u;
	/* FNV's low bits see only the inputs' low bits: mix them (murmur3) */
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	return h ^ (h >> 16);
}

#endif /* L4_LB_H */
