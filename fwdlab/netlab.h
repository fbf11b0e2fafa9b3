/* SPDX-License-Identifier: GPL-2.0 */
/* A private network namespace with veth ports, for kernel runs that need
 * real ingress and egress devices (BPF_PROG_TEST_RUN, devmaps). */
#ifndef HWXDP_FWDLAB_NETLAB_H
#define HWXDP_FWDLAB_NETLAB_H

#include <stdint.h>

#define HX_NETLAB_MAX_PORTS 8

/*
 * Moves the calling process into a new network namespace and makes count
 * veth pairs hxp1/hxq1 ... there; ifindex[i] is hxp<i+1>'s. 0 or a negative
 * errno: -EPERM without CAP_SYS_ADMIN/CAP_NET_ADMIN, -ENOENT without `ip`.
 */
int hx_netlab_enter(unsigned int count, uint32_t *ifindex);

#endif /* HWXDP_FWDLAB_NETLAB_H */
