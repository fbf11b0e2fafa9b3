/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the board's tests: a board running fwd on the lab's three
 * ports (fwdlab/fwd_lab.h, ifindexes 1..3), frames as batches, microcode from
 * text, and whole-table dumps to compare.
 */
#ifndef HWXDP_TESTS_BOARD_BOARD_H
#define HWXDP_TESTS_BOARD_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/device.h"
#include "hwmap/hxu.h"
#include "hwmap/hxu_text.h"
#include "fwdlab/fwd_lab.h"
#include "lab/pkt.h"
#include "lab/target.h"
#include "loader/device.h"

struct board {
	struct hwxdp_device *dev;
	uint32_t prog;		 /* fwd */
	struct hx_target target; /* fwd's maps on the board, for fwdlab/fwd.h */
	uint32_t ifindex[HX_LAB_PORTS];
};

/* A board of `engines` engines (sizes as hwxdp_device_opts, NULL for the
 * board's default) with fwd loaded, attached to ports 1..4 and the lab's
 * tables filled (port 4 is not in fwd's `ports`). Asserts each step. */
void board_open_fwd(struct board *b, uint32_t engines, const struct hwxdp_table_size *sizes,
		    size_t size_cnt);
void board_close(struct board *b);

/* fwd's table name on the board. */
struct hwxdp_table *board_table(struct board *b, const char *name);

/* The tests' frames are small: room for them and what the program adds. */
#define BOARD_FRAME_MAX 2048

/* A kind of frame the tests send, and what fwd does with it on the lab. */
struct board_case {
	const char *name;
	uint32_t port;	  /* ingress ifindex */
	uint32_t verdict; /* XDP_REDIRECT, XDP_TX or XDP_PASS */
	uint32_t egress;  /* with XDP_REDIRECT */
	uint32_t reason;  /* with XDP_PASS */
	size_t len;
	uint8_t frame[256];
};

/* The lab's frames and one frame per punt reason fwd has off the tunnel
 * path; port 4 is a board port that fwd's `ports` map lacks. */
size_t board_cases(struct board_case **out);

/* Microflow k of n extra flows (port 2, TCP, untagged, to wire 1): installs
 * them on b when b is not NULL; spec is flow k's frame. */
void board_flow_spec(unsigned int k, struct hx_frame_spec *spec);
void board_add_flows(struct board *b, unsigned int n);

/* Frames of a batch, each with its own copy of the input and an output
 * buffer. */
struct frames {
	struct hwxdp_device_frame *f;
	uint8_t (*in)[BOARD_FRAME_MAX];
	uint8_t (*out)[BOARD_FRAME_MAX];
	size_t cnt, cap;
};

void frames_init(struct frames *fs, size_t cap);
void frames_free(struct frames *fs);
/* Appends len bytes arriving on port; returns the frame's index. */
size_t frames_add(struct frames *fs, uint32_t port, const uint8_t *data, size_t len);
size_t frames_add_spec(struct frames *fs, uint32_t port, const struct hx_frame_spec *spec);

/* Asserts that frame i of a and b had the same fate and left with the same
 * bytes (the engine that ran it aside). */
void frames_assert_same(const struct frames *a, const struct frames *b);

/* reps rounds of every case and every extra flow (n), shuffled by seed.
 * kind[i], when not NULL, receives frame i's case (or cnt + flow). */
struct frames;
void board_traffic(struct frames *fs, const struct board_case *cases, size_t case_cnt,
		   unsigned int flows, unsigned int reps, uint64_t seed, uint32_t *kind);

/* Every entry of a table, keys and values, in key order: equal dumps mean
 * equal contents whatever the table's layout. malloc'ed. */
struct dump {
	uint8_t *bytes;
	size_t entry_size, cnt;
};

void table_dump(struct hwxdp_table *tab, struct dump *out);
void dump_free(struct dump *d);

/* Microcode from text, one program ("main" at op 0), with tables. */
struct text_image {
	struct hxu_asm_out as;
	struct hxu_image img;
	struct hxu_prog_desc prog;
	struct hxu_table_desc tables[4];
};

void text_image(struct text_image *ti, const char *text, const struct hxu_table_desc *tables,
		size_t n);
void text_image_free(struct text_image *ti);

/* A splitmix64 step: deterministic pseudo-random numbers for the tests. */
uint64_t board_rng(uint64_t *state);

/* Seconds on the monotonic clock. */
double board_now(void);

#endif /* HWXDP_TESTS_BOARD_BOARD_H */
