/* SPDX-License-Identifier: GPL-2.0 */
/* Maps of the loaded programs (daemon/map.c); called with d->lock held. */
#ifndef HWXDP_DAEMON_MAP_H
#define HWXDP_DAEMON_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bpf_map;
struct hwxdp_table;
struct hwxdpd;
struct jbuf;

/* A map in its two homes: the kernel's (pinned) and the board's table
 * (NULL when the board has none). */
struct map_pair {
	struct bpf_map *map;
	struct hwxdp_table *table;
};

/* Both homes: the kernel first, then the board; a board that refuses
 * takes the kernel's entry back, so that the two stay one. A devmap's
 * wire ifindex becomes its TAP's in the kernel. 0 or a negative errno;
 * *board tells which side refused. */
int pair_update(struct hwxdpd *d, const struct map_pair *m, const void *key, const void *value,
		uint64_t flags, bool *board);
/* Deletes from both: 0 when either had the key, else -ENOENT. */
int pair_delete(const struct map_pair *m, const void *key);

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
