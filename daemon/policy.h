/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tunnel policies of a program with fwd's layout: which IP packets leave
 * through an ESP tunnel (the inner source and destination prefixes) and
 * which tunnel (its outer addresses). The SA a policy uses is the newest of
 * the program's SAs with that tunnel that can still encrypt, so a rekey is
 * an `sa add` of the new SA and an `sa del` of the old. The flow maker
 * makes a policy's connections as tunnel flows on that SA; the host path
 * encrypts what the host sends of them while the board has no flow (with
 * the same SA, so the sequence numbers go on), and holds it when no SA
 * can: a policy's packet never leaves in clear. docs/daemon.md, "SAs".
 * All with d->lock held.
 */
#ifndef HWXDP_DAEMON_POLICY_H
#define HWXDP_DAEMON_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hwxdpd;
struct jbuf;
struct prog;

#define HWXDPD_POLICIES_MAX 16

struct policy {
	bool used;
	uint8_t family; /* HWXDP_FAMILY_IPV4 or _IPV6: the inner packets' */
	uint8_t src[16], dst[16];
	uint8_t src_len, dst_len; /* prefix lengths */
	uint32_t tunnel_src_be, tunnel_dst_be;
	/* The host path's frames: encrypted, held (no SA could), held for
	 * size (the ESP packet over the LIF's MTU). */
	uint64_t host_encrypted, held, too_big;
};

/* pr's policies: its own array, made with the first. */
int policy_add(struct hwxdpd *d, struct prog *pr, const struct policy *p, char *msg, size_t msglen);
int policy_del(struct hwxdpd *d, struct prog *pr, uint32_t index, char *msg, size_t msglen);
void policy_json(struct hwxdpd *d, struct prog *pr, struct jbuf *b);
void policies_free(struct prog *pr);

/* The first policy of pr that takes a packet of family from src to dst. */
struct policy *policy_match(struct prog *pr, uint8_t family, const uint8_t *src,
			    const uint8_t *dst);
/* The SA for pol: the newest of pr's with its tunnel that is valid and
 * not past a lifetime. 0 with *handle and *revision, or -ENOENT. */
int policy_sa(struct prog *pr, const struct policy *pol, uint32_t *handle, uint32_t *revision);

/* The policy a frame's IP packet falls under (L2 with up to two tags in
 * front), or NULL. */
struct policy *policy_of_frame(struct prog *pr, const uint8_t *frame, uint32_t len);

enum policy_verdict {
	POLICY_CLEAR,	  /* no policy's: it goes as it is */
	POLICY_ENCRYPTED, /* in ESP now, *off and *len moved */
	POLICY_HELD,	  /* a policy's, and no SA could take it */
};
/*
 * What the host sends on a TAP of a port running pr, untagged, at
 * buf[*off .. *off + *len) of cap bytes: a policy's packet is put in ESP in
 * place (HWXDP_ESP_HEADROOM bytes in front and HWXDP_ESP_TAILROOM_MAX
 * behind must be free), or held. mtu: the LIF's, which the ESP packet
 * must fit.
 */
enum policy_verdict policy_host_out(struct prog *pr, uint8_t *buf, size_t cap, size_t *off,
				    size_t *len, uint32_t mtu);

#endif /* HWXDP_DAEMON_POLICY_H */
