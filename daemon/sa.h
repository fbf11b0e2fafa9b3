/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SAs on the board for a program with fwd's layout (daemon/sa.c,
 * docs/daemon.md "SAs"); all with d->lock held.
 */
#ifndef HWXDP_DAEMON_SA_H
#define HWXDP_DAEMON_SA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hwxdpd;
struct jbuf;
struct prog;

struct sa_args {
	uint32_t handle, spi;
	uint32_t src_be, dst_be; /* the tunnel's outer IPv4 addresses */
	uint8_t key[32];
	size_t key_len; /* 16, 24 or 32 */
	uint8_t salt[4];
	uint64_t lifetime_packets, lifetime_bytes; /* 0: none */
	/* A restart: the counts the SA file kept (daemon/state.c). */
	bool restore;
	uint64_t packets, bytes, seq;
};

/* Sequence numbers an SA taken up again after a restart passes over: more
 * than the board encrypts between two writes of the SA file (500 ms), so
 * that no number, and no GCM nonce, is used twice. */
#define SA_RESTORE_SEQ_SKIP (1ull << 22)

/* The key into the board's crypto unit, then sas[handle] valid with a new
 * revision. A handle in use is -EEXIST. */
int sa_add(struct hwxdpd *d, struct prog *pr, const struct sa_args *a, char *msg, size_t msglen);
/* The tunnel flows naming it off both homes, sas[handle] invalid with a new
 * revision, then the key gone. */
int sa_del(struct hwxdpd *d, struct prog *pr, uint32_t handle, char *msg, size_t msglen);
/* A restart: valid entries of the pinned sas map whose keys the board does
 * not have (keys are never kept) are made invalid, their flows taken off. */
void sas_forget(struct hwxdpd *d, struct prog *pr);
void sas_free(struct hwxdpd *d, struct prog *pr);
/* An SA that can encrypt no more: a lifetime reached or a frame refused
 * for one, or its sequence numbers used up. */
struct hwxdp_esp_sa;
bool sa_spent(const struct hwxdp_esp_sa *esp);
/* The flow maker's tunnel flows on spent SAs taken off: their next frames
 * go through the host path and are made again on the tunnel's next SA. */
void sas_retire(struct hwxdpd *d, struct prog *pr);
/* pr's SAs as array elements: identity, revision, the board's counts. */
void sa_json(struct hwxdpd *d, struct prog *pr, struct jbuf *b);

#endif /* HWXDP_DAEMON_SA_H */
