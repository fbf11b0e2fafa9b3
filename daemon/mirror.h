/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One map, one content, for the maps the kernel and the board cannot share
 * by mmap: each hash map of a program (HASH, LRU_HASH) is its board table
 * and its kernel map kept equal, with a copy of what both held at the last
 * sync to tell who wrote what since. A key written on one side only goes to
 * the other; deleted on one side, it goes from the other; written on both,
 * each 8-byte word one side changed is taken from it, and a word both
 * changed gets both changes added (counters both sides count add up).
 * Per-CPU maps (arrays and hashes) are mirrored by what each side's copies
 * gained, added to the copies of the other side they fold onto (engine e
 * shows as CPU e % cpus), so both sides' sums agree. Devmaps (the daemon's
 * own) and arrays (shared by mmap) are not mirrored. docs/daemon.md, "Maps".
 */
#ifndef HWXDP_DAEMON_MIRROR_H
#define HWXDP_DAEMON_MIRROR_H

#include <stdint.h>

struct hwxdpd;
struct prog;

int mirror_new(struct hwxdpd *d, struct prog *pr);
void mirror_free(struct prog *pr);
/* A new build of the same program: what from knew of each map (the last
 * round's copy, the counts) goes to to's map of the same name. */
struct mirror;
void mirror_carry(struct mirror *to, struct mirror *from);
/* A map made fresh: what the last round knew of it is not its. */
void mirror_forget(struct mirror *m, const char *name);
/* One round over every mirrored map of pr, with d->lock held. */
void mirror_sync(struct hwxdpd *d, struct prog *pr);

/* The daemon wrote value under key on both sides (pair_update): the next
 * round takes it as what both held, not as a change of both. For a per-CPU
 * map, value is the kernel's copies followed by the board's. */
struct bpf_map;
void mirror_written(struct hwxdpd *d, const struct bpf_map *map, const void *key,
		    const void *value);

struct mirror_stats {
	uint64_t rounds, to_kernel, to_board, merged, kernel_full;
};
void mirror_stats(const struct prog *pr, struct mirror_stats *s);

#endif /* HWXDP_DAEMON_MIRROR_H */
