/* SPDX-License-Identifier: GPL-2.0 */
/* The counters' layout, shared by the program and its tests. */
#ifndef UDP_FILTER_H
#define UDP_FILTER_H

#include <linux/types.h>

struct port_counts {
	__u64 packets;
	__u64 bytes;   /* Ethernet frame bytes */
	__u64 dropped; /* of packets, those dropped */
};

#endif /* UDP_FILTER_H */
