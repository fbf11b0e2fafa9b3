/* SPDX-License-Identifier: GPL-2.0 */
/* Maps of the loaded programs (daemon/map.c); called with d->lock held. */
#ifndef HWXDP_DAEMON_MAP_H
#define HWXDP_DAEMON_MAP_H

#include <stddef.h>

struct hwxdpd;
struct jbuf;

int map_list(struct hwxdpd *d, struct jbuf *b);
int map_show(struct hwxdpd *d, const char *spec, struct jbuf *b, char *msg, size_t msglen);
int map_dump(struct hwxdpd *d, const char *spec, int argc, const char **argv, struct jbuf *b,
	     char *msg, size_t msglen);
int map_lookup(struct hwxdpd *d, const char *spec, int argc, const char **argv, struct jbuf *b,
	       char *msg, size_t msglen);
int map_update(struct hwxdpd *d, const char *spec, int argc, const char **argv, struct jbuf *b,
	       char *msg, size_t msglen);
int map_delete(struct hwxdpd *d, const char *spec, int argc, const char **argv, struct jbuf *b,
	       char *msg, size_t msglen);

#endif /* HWXDP_DAEMON_MAP_H */
