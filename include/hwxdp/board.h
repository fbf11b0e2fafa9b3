/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The board: the coprocessor model as a whole (docs/device.md) — packet
 * engines sharing a microcode store and table memory, and ports, each with
 * a program slot. Programs are loaded from BPF objects (verified and
 * translated for the device) or from images; their maps are the device's
 * tables, read and written by name as bpf_map_*_elem does on a map fd.
 *
 * Frames of one flow run on one engine, in the order given; a frame that
 * arrives on a port with an empty slot goes to the host as it is
 * (XDP_PASS). One thread at a time runs frames; loads and attaches may come
 * from others.
 */
#ifndef HWXDP_BOARD_H
#define HWXDP_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwxdp/common.h"
#include "hwxdp/image.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwxdp_board;

struct hwxdp_board_opts {
	size_t sz;	  /* sizeof(struct hwxdp_board_opts) */
	uint32_t engines; /* 0: 4 */
	/* Engines run their microcode compiled to native code (the host's C
	 * compiler; interpreted when there is none). */
	bool compiled;
};

/* A board with its engines idle; NULL with errno set. */
HWXDP_API struct hwxdp_board *hwxdp_board__new(const struct hwxdp_board_opts *opts);
/* Frees the board, every program it loaded and their tables. */
HWXDP_API void hwxdp_board__free(struct hwxdp_board *board);

/* Loads the XDP program of the BPF object at path, or an image: the
 * program's id (0 or more) or a negative error, the reason printed;
 * -ENOSPC when the microcode store is full. */
HWXDP_API int hwxdp_board__load(struct hwxdp_board *board, const char *path);
HWXDP_API int hwxdp_board__load_image(struct hwxdp_board *board, const struct hwxdp_image *img);
/* -EBUSY while a port's slot holds prog, -ENOENT for no such program. */
HWXDP_API int hwxdp_board__unload(struct hwxdp_board *board, uint32_t prog);

/* Points port's slot (ports are named by ifindex, not 0) at prog, or
 * empties it: 0, -ENOENT, -EINVAL, -ENOSPC beyond 256 ports. */
HWXDP_API int hwxdp_board__attach(struct hwxdp_board *board, uint32_t port, uint32_t prog);
HWXDP_API int hwxdp_board__detach(struct hwxdp_board *board, uint32_t port);

/* The maps of a loaded program by name, as bpf_map_lookup_elem & co.:
 * 0, -ENOENT (no such program, map or key) or the kernel's errno for the
 * map's type. key and value are the map's key_size and value_size bytes. */
HWXDP_API int hwxdp_board__map_lookup(struct hwxdp_board *board, uint32_t prog, const char *map,
				      const void *key, void *value);
HWXDP_API int hwxdp_board__map_update(struct hwxdp_board *board, uint32_t prog, const char *map,
				      const void *key, const void *value, uint64_t flags);
HWXDP_API int hwxdp_board__map_delete(struct hwxdp_board *board, uint32_t prog, const char *map,
				      const void *key);

struct hwxdp_board_frame {
	/* In. */
	const uint8_t *data; /* the frame as it arrives, Ethernet first */
	uint32_t len;
	uint32_t port; /* ingress ifindex */
	uint8_t *out;  /* out_cap bytes for the frame as it leaves; may be
			  NULL, may be data */
	uint32_t out_cap;

	/* Out. */
	uint32_t out_len; /* its length as it leaves (bytes in out when it fits) */
	uint32_t verdict; /* XDP action; XDP_PASS for a punt */
	uint32_t egress;  /* with XDP_REDIRECT: the egress ifindex,
			     UINT32_MAX for none (the frame is dropped), or a
			     broadcast (hwxdp_board_egress_is_broadcast) */
	uint32_t reason;  /* the punt reason, 0 for none */
	int error;	  /* 0, or why the engine aborted the frame (hwxdp_strerror) */
	uint64_t cycles;  /* what the frame cost in the cost model */
};

/* Runs n frames; 0 or -EINVAL. Each frame's result is in the frame. */
HWXDP_API int hwxdp_board__run(struct hwxdp_board *board, struct hwxdp_board_frame *frames,
			       size_t n);

/* A broadcast's egress (bpf_redirect_map with BPF_F_BROADCAST): 0xfe000000
 * and the devmap's table in the low bits. */
#define HWXDP_BOARD_EGRESS_BROADCAST 0xfe000000u

static inline bool hwxdp_board_egress_is_broadcast(uint32_t egress)
{
	return egress != UINT32_MAX &&
	       (egress & HWXDP_BOARD_EGRESS_BROADCAST) == HWXDP_BOARD_EGRESS_BROADCAST;
}

/* The ports a broadcast frame leaves by, one copy each, as the kernel's
 * devmap broadcast sends it: every entry of the devmap (in index order;
 * a devmap hash's in key order) but, with BPF_F_EXCLUDE_INGRESS, those
 * naming the frame's ingress port, and but ports the board does not have.
 * The devmap is that of the program in the ingress port's slot, as it
 * holds them now: ask before the slot or the map changes. Returns how many
 * (0: the frame goes nowhere), the first cap of them in ports; -EINVAL for
 * a frame that is no broadcast, -ENOENT when the slot's program has no
 * such table. */
HWXDP_API int hwxdp_board__broadcast_ports(struct hwxdp_board *board,
					   const struct hwxdp_board_frame *frame, uint32_t *ports,
					   size_t cap);

struct hwxdp_board_counts {
	size_t sz; /* sizeof(struct hwxdp_board_counts) */
	uint64_t frames, bytes;
	uint64_t verdicts[6]; /* XDP_ABORTED .. XDP_REDIRECT, then anything else */
	uint64_t punts;	      /* frames sent to the host with a reason */
	uint64_t cycles;      /* the cost model's, every frame's */
};

/* The board's counters since it was made: 0 or -EINVAL. */
HWXDP_API int hwxdp_board__counts(struct hwxdp_board *board, struct hwxdp_board_counts *counts);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HWXDP_BOARD_H */
