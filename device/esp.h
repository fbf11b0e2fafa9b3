/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The coprocessor model's crypto engine: outbound ESP in tunnel mode
 * (RFC 4303) with AES-GCM and a 16-byte ICV (RFC 4106), outer IPv4.
 * It backs the kfunc bpf_hwxdp_esp_encap(ctx, sa_handle, l3_offset) of
 * progs/fwd.bpf.c; the map entry struct hwxdp_sa names the SA, the keys
 * live here only.
 *
 * Packet layout after encapsulation, l3_offset bytes of L2 kept in front:
 *   L2 | outer IPv4 (20) | SPI, seq (8) | IV (8) | inner packet, padding,
 *   pad length, next header (encrypted) | ICV (16)
 * The IV is the 64-bit sequence number, big-endian; the GCM nonce is the
 * SA's 4-byte salt followed by it; the AAD is SPI || 32-bit sequence number.
 */
#ifndef HWXDP_DEVICE_ESP_H
#define HWXDP_DEVICE_ESP_H

#include <stddef.h>
#include <stdint.h>

/* Bytes the frame grows by in front: outer IPv4, ESP header, IV. */
#define HWXDP_ESP_HEADROOM 36
/* Most bytes it grows by behind the inner packet: padding (0..3), pad
 * length, next header, ICV. */
#define HWXDP_ESP_TAILROOM_MAX 21
#define HWXDP_ESP_OUTER_TTL    64

struct hwxdp_esp_sa {
	uint32_t spi;		/* host order */
	uint8_t key[32];	/* AES key, key_len bytes used */
	uint8_t key_len;	/* 16, 24 or 32 */
	uint8_t salt[4];	/* RFC 4106 salt: the nonce's first bytes */
	uint8_t outer_ttl;	/* HWXDP_ESP_OUTER_TTL after init */
	uint32_t tunnel_src_be; /* outer IPv4 source, network order */
	uint32_t tunnel_dst_be; /* outer IPv4 destination, network order */
	uint64_t seq;		/* last sequence number sent; 0 after init */
	uint64_t bytes;		/* inner bytes encrypted */
	/* Sequence numbers passed over without a packet (an SA taken up
	 * again after its user restarted): the packets are seq - seq_skip. */
	uint64_t seq_skip;
	/* Lifetimes: a frame that would take the SA past either is refused
	 * (-EKEYEXPIRED); 0 is none. Set after init, read under the lock. */
	uint64_t limit_packets, limit_bytes;
	/* Set when a frame was refused for a lifetime: the SA can take no
	 * more (a byte lifetime may leave room for a smaller frame, which
	 * the SA's user should not count on). */
	uint8_t expired;
	void *ctx; /* engine state: cipher context and lock */
};

/*
 * Sets up sa with its key schedule computed once. key_len is 16, 24 or 32;
 * spi must not be 0 (RFC 4303 keeps it off the wire). Returns 0, -EINVAL for
 * bad arguments, -ENOMEM, or -EIO when libcrypto refuses the key.
 * An SA that was initialised must go through hwxdp_esp_sa__fini() before
 * it is initialised again.
 */
int hwxdp_esp_sa__init(struct hwxdp_esp_sa *sa, uint32_t spi, const uint8_t *key, size_t key_len,
		       const uint8_t salt[4], uint32_t tunnel_src_be, uint32_t tunnel_dst_be);

/* Frees the engine state and wipes the key. Safe on a zeroed SA and twice. */
void hwxdp_esp_sa__fini(struct hwxdp_esp_sa *sa);

/* The outer IPv4 total length for an inner IP packet of inner_len bytes:
 * 20 + 8 + 8 + inner_len + minimal padding to 4 + 2 + 16, which is
 * ((inner_len + 2 + 3) & ~3) - 2 + 54, the bound fwd.bpf.c checks the MTU
 * against. */
size_t hwxdp_esp_tunnel_len(size_t inner_len);

/*
 * Encapsulates, in place, the frame at buf[*data_off .. *data_off + *data_len)
 * of a buffer of cap bytes. The first l3_offset bytes of the frame (the L2
 * header) are kept byte for byte and moved HWXDP_ESP_HEADROOM bytes towards
 * the buffer's start; after them comes the outer IPv4 header, then ESP. The
 * inner packet is encrypted where it lies. On success *data_off has moved
 * back by HWXDP_ESP_HEADROOM and *data_len is l3_offset plus the outer
 * length; the L2 header's ethertype is left for the caller to set.
 *
 * The inner packet is IPv4 or IPv6, its length taken from its own header;
 * frame bytes after it (link-layer padding) are not part of it and are
 * dropped. Outer header: TOS from the inner TOS / traffic class (ECN copied
 * too), DF clear, TTL sa->outer_ttl, ID the low 16 bits of the sequence
 * number, addresses from the SA.
 *
 * Returns 0, or with nothing in buf and nothing in sa changed:
 *   -EINVAL    not IPv4/IPv6, an IPv4 header shorter than 20 bytes or a
 *              total length below it, a packet longer than the frame holds,
 *              or bad arguments (frame beyond cap, l3_offset past the frame)
 *   -ENOSPC    fewer than HWXDP_ESP_HEADROOM bytes before the frame, or not
 *              enough after the inner packet for padding, trailer and ICV
 *   -EMSGSIZE  the outer packet would exceed 65535 bytes
 *   -EOVERFLOW the SA has sent sequence number 2^32 - 1 (no ESN): rekey
 *   -EKEYEXPIRED the frame would take the SA past its packet or byte
 *              lifetime: rekey
 *   -EIO       libcrypto failed
 * One SA may be used by several threads at once; each call takes its lock.
 */
int hwxdp_esp_sa__encap(struct hwxdp_esp_sa *sa, uint8_t *buf, size_t cap, size_t *data_off,
			size_t *data_len, size_t l3_offset);

#endif /* HWXDP_DEVICE_ESP_H */
