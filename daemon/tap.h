/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A port's host netdev: a TAP (IFF_TAP | IFF_NO_PI), persistent, so that a
 * daemon killed without its clean stop leaves it with the host's addresses,
 * routes and neighbours on it, for the daemon started again to take back
 * (docs/daemon.md, "Restart"). tap_close removes it.
 */
#ifndef HWXDP_DAEMON_TAP_H
#define HWXDP_DAEMON_TAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Makes TAP name, up, with mac and mtu; its non-blocking fd and ifindex.
 * With adopt, a TAP of that name left by a killed daemon is taken as it is
 * (its addresses kept). 0 or a negative errno with the reason in msg. */
int tap_open(const char *name, const uint8_t mac[6], uint32_t mtu, bool adopt, int *fd,
	     uint32_t *ifindex, char *msg, size_t msglen);
/* Closes fd and removes its TAP; fd < 0 does nothing. */
void tap_close(int fd);

/* A netdev's MTU and whether it is up: 0 or a negative errno. */
int netdev_set(const char *name, uint32_t mtu, bool up);

/* A netdev's ifindex, MAC and MTU: 0 or -ENODEV. */
int netdev_info(const char *name, uint32_t *ifindex, uint8_t mac[6], uint32_t *mtu);

#endif /* HWXDP_DAEMON_TAP_H */
