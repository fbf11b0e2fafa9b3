/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Map layouts of the forwarding program (progs/fwd.bpf.c), shared by the
 * program and user space. Every field is fixed-width and every structure is
 * padded explicitly, so the layout is the same under clang -target bpf, gcc
 * and clang on the host, and bpftool prints it by name from BTF.
 *
 * Byte order: fields named *_be are in network byte order (as on the wire);
 * every other field is in host byte order.
 *
 * The platform's side (hwxdp_target, the device kfuncs, the punt reasons and
 * struct hwxdp_meta) is include/hwxdp/platform.h, which any program includes.
 * docs/programs.md describes each map, field, behaviour and punt reason.
 */
#ifndef HWXDP_FWD_H
#define HWXDP_FWD_H

#include <linux/types.h>

/* The target, the punt reasons and the metadata: the platform's. */
#include "hwxdp/platform.h"

/* Map sizes. The device sizes its flow table by the board (issue-level
 * default 2,000,000); the kernel copy is sized for the host fallback. */
#define HWXDP_MAX_PORTS     256
#define HWXDP_MAX_LIFS      16384
#ifndef HWXDP_MAX_FLOWS /* the kernel's flow table; settable at build time */
#define HWXDP_MAX_FLOWS     65536
#endif
#define HWXDP_MAX_NEXTHOPS  65536
#define HWXDP_MAX_SAS       4096

/* A logical interface is a port and a VLAN: (iface_id << 12) | vlan. */
#define HWXDP_VLAN_BITS     12
#define HWXDP_VLAN_MASK     0x0fffu
#define HWXDP_VLAN_RESERVED 0x0fffu
#define HWXDP_LIF(iface_id, vlan) \
	(((__u32)(iface_id) << HWXDP_VLAN_BITS) | ((__u32)(vlan) & HWXDP_VLAN_MASK))
#define HWXDP_LIF_IFACE(lif) ((lif) >> HWXDP_VLAN_BITS)
#define HWXDP_LIF_VLAN(lif)  ((lif) & HWXDP_VLAN_MASK)

/* ports: ingress ifindex -> the port's interface id. Type HASH. */
struct hwxdp_port {
	__u32 iface_id;               /* 0 .. 2^20-1; also the tx_ports key */
	__u32 flags;                  /* reserved, 0 */
};

/* tx_ports: iface_id -> egress ifindex. Type DEVMAP_HASH, value struct
 * bpf_devmap_val (only .ifindex is used). */

/* LIF states. */
enum hwxdp_lif_state {
	HWXDP_LIF_ENABLED          = 0, /* forwarded on the device */
	HWXDP_LIF_OFFLOAD_DISABLED = 1, /* frames go to the host; traffic goes on */
	HWXDP_LIF_ADMIN_DISABLED   = 2, /* frames are dropped */
};

/* lifs: LIF -> state and counters. Type HASH. The counters count frames
 * the program forwarded, updated with atomic adds. */
struct hwxdp_lif {
	__u32 state;                  /* enum hwxdp_lif_state */
	__u32 flags;                  /* reserved, 0 */
	__u64 rx_packets;
	__u64 rx_bytes;
	__u64 tx_packets;
	__u64 tx_bytes;
	__u64 rx_dropped;             /* frames dropped while admin-disabled */
};

/* config: key 0 -> live switches, read per frame. Type ARRAY, 1 entry.
 * All-zero (as created) means every feature off: everything VLAN or
 * tunnel goes to the host, the safe state. Whoever loads the program
 * writes the switches it wants (defaults below). */
struct hwxdp_config {
	__u32 vlan_flows;             /* 1: VLAN connections on the device (default 1) */
	__u32 ipsec_flows;            /* 1: outbound tunnel flows encrypted on the device (default 0) */
	__u32 lif_apply;              /* 1: a VLAN's counts also go to its port's LIF (default 1) */
	__u32 reserved;
};

#define HWXDP_FAMILY_IPV4 4
#define HWXDP_FAMILY_IPV6 6

/* flows: flow key -> microflow. Type HASH.
 * IPv4 addresses sit in the first 4 bytes of src/dst, the rest zero. */
struct hwxdp_flow_key {
	__u32 lif;                    /* ingress LIF */
	__u8  family;                 /* HWXDP_FAMILY_IPV4 / _IPV6 */
	__u8  proto;                  /* IPPROTO_TCP / IPPROTO_UDP */
	__u16 pad;                    /* 0 */
	__be16 sport_be;
	__be16 dport_be;
	__u8  src[16];
	__u8  dst[16];
};

#define HWXDP_FLOW_TUNNEL 0x1u        /* encrypt with SA sa_handle */

struct hwxdp_flow {
	__u32 nexthop;                /* index into nexthops */
	__u32 flags;                  /* HWXDP_FLOW_* */
	__u32 sa_handle;              /* index into sas, when TUNNEL */
	__u32 sa_revision;            /* must equal sas[sa_handle].revision */
	__u64 packets;                /* forwarded by this microflow */
	__u64 bytes;                  /* bytes as they arrived */
};

#define HWXDP_NEXTHOP_VALID 0x1u

/* nexthops: index -> next hop. Type ARRAY. Two next hops differing only
 * by VLAN are two entries. */
struct hwxdp_nexthop {
	__u32 flags;                  /* HWXDP_NEXTHOP_VALID */
	__u32 port;                   /* egress iface_id (tx_ports key) */
	__u16 vlan;                   /* egress VLAN, 0 = untagged */
	__u16 mtu;                    /* largest IP packet the hop takes */
	__u8  dmac[6];
	__u8  smac[6];
};

#define HWXDP_SA_VALID 0x1u

/* sas: SA handle -> SA. Type ARRAY. Key material lives in the device's
 * crypto engine, never in a map. */
struct hwxdp_sa {
	__u32 flags;                  /* HWXDP_SA_VALID */
	__u32 revision;               /* bumped on every rekey */
	__be32 spi_be;
	__be32 tunnel_src_be;         /* outer IPv4 source */
	__be32 tunnel_dst_be;         /* outer IPv4 destination */
	__u32 reserved;
};

/* punt_stats: reason -> count. Type ARRAY, HWXDP_PUNT__MAX entries. */
struct hwxdp_counter {
	__u64 packets;
	__u64 bytes;
};

#endif /* HWXDP_FWD_H */
