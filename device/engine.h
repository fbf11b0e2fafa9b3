/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A packet engine of the coprocessor model: loads an HXU image (checking it
 * as the device must, docs/isa.md section 3) and runs one of its programs
 * on one frame at a time, to completion.
 *
 * An engine belongs to one thread; several engines may share an image's
 * tables (device/tables.h). Loading pre-decodes the image into the engine's
 * own form, so the image may be freed once hwxdp_engine__new returns.
 *
 * Per frame the engine counts operations, issue slots (bundles) and the
 * cycles of the cost model (docs/isa.md section 5); counting is skipped
 * when no stats are asked for, and the engine then runs the same code
 * without its counting points.
 *
 * Safety net: every packet access is checked against the window and every
 * local-memory access against local memory; one outside aborts the frame
 * (XDP_ABORTED, error HWXDP_ERR_PKT_ACCESS / _LM_ACCESS). Table memory
 * accesses are proven at load to stay inside a table's value
 * (device/tm_proof.h), and one through a null value pointer aborts the
 * frame (HWXDP_ERR_TM_ACCESS).
 */
#ifndef HWXDP_DEVICE_ENGINE_H
#define HWXDP_DEVICE_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "device/tables.h"
#include "hwmap/hxu.h"

/* Why an engine aborted a frame or refused an image; above the errno range
 * and the loader's codes (include/hwxdp/object.h). */
enum {
	HWXDP_ERR_IMAGE = 4100, /* the image breaks a rule; the message says which */
	HWXDP_ERR_PKT_ACCESS,	/* a packet access outside the window */
	HWXDP_ERR_LM_ACCESS,	/* a local-memory access outside 0 .. 4095 */
	HWXDP_ERR_CALL_DEPTH,	/* call with the return stack full */
	HWXDP_ERR_RET_EMPTY,	/* ret with the return stack empty */
	HWXDP_ERR_LOOP_BUDGET,	/* more loop iterations than a frame may take */
	HWXDP_ERR_FELL_OFF,	/* ran past the last operation of the store */
	HWXDP_ERR_TM_ACCESS,	/* table memory through a null or impossible address */
};

/*
 * Table memory addresses below this are no value's: a lookup that found
 * nothing gives 0, and a load-time check bounds every table memory offset
 * by the largest value an image's tables hold (at most 1 MiB), so an access
 * through a null pointer lands below it and aborts the frame. Host mappings
 * never start this low.
 */
#define HWXDP_TM_LOW (1u << 21)
/* Nor at or above this: beyond the host's user address space, with room for
 * the largest value after it. */
#define HWXDP_TM_HIGH ((1ull << 47) - (1ull << 21))
/* a is a possible table memory address: one compare. */
#define HWXDP_TM_OK(a) ((uint64_t)(a)-HWXDP_TM_LOW < HWXDP_TM_HIGH - HWXDP_TM_LOW)

/* Backward branches a frame may take before the engine gives up on it: the
 * verifier proves termination, this catches a translator's mistake and an
 * image from a file that loops. A program the verifier accepts runs at most
 * its 1,000,000 processed instructions along any path, so at most that many
 * iterations; 2^20 leaves it room and keeps a looping image to a bounded
 * cost per frame (a table update per iteration: about a second). */
#define HWXDP_ENGINE_LOOP_BUDGET (1u << 20)

/* frame.egress when the program redirected nowhere. */
#define HWXDP_EGRESS_NONE UINT32_MAX
/*
 * frame.egress of a broadcast (bpf_redirect_map with BPF_F_BROADCAST): the
 * frame leaves by every port of the port table in the low 8 bits, as the
 * table holds them when the frame leaves the engine (the kernel reads the
 * map in xdp_do_redirect, after the program), and with EXCL by none whose
 * ifindex is the ingress one (BPF_F_EXCLUDE_INGRESS). No ifindex is this
 * high: the kernel's are positive ints. hwxdp_device__broadcast_ports()
 * lists the ports.
 */
#define HWXDP_EGRESS_BCAST	 0xfe000000u
#define HWXDP_EGRESS_BCAST_EXCL	 0x01000000u
#define HWXDP_EGRESS_BCAST_TABLE 0x000000ffu

static inline bool hwxdp_egress_is_bcast(uint32_t egress)
{
	return egress != HWXDP_EGRESS_NONE && (egress & HWXDP_EGRESS_BCAST) == HWXDP_EGRESS_BCAST;
}

/*
 * Ordering for the crypto engine, when several engines share SAs: wait()
 * runs before the crypto engine numbers this frame's packet, passed()
 * after, both with arg. A board numbers an SA's packets in arrival order
 * with them (device/device.c).
 */
struct hwxdp_esp_order {
	void (*wait)(void *arg);
	void (*passed)(void *arg);
	void *arg;
};

struct hwxdp_frame {
	/* In: HXU_WINDOW_SIZE bytes, and where the frame lies in them:
	 * data_meta <= data <= data_end <= HXU_WINDOW_SIZE (data_meta == data
	 * for no metadata). Out: where it lies after the program. */
	uint8_t *window;
	uint32_t data, data_end, data_meta;
	uint32_t ingress;			 /* ingress ifindex, as ctx->ingress_ifindex */
	uint32_t rx_queue;			 /* ctx->rx_queue_index */
	const struct hwxdp_esp_order *esp_order; /* NULL: the crypto engine takes
						    frames as they come */

	/* Out. */
	uint32_t verdict;  /* r0 at exit (an XDP action when the program is
			      sound), XDP_PASS for a punt, XDP_ABORTED for a
			      frame the engine aborted */
	uint32_t egress;   /* the port table's ifindex from the last redir that
			      found its key, HWXDP_EGRESS_BCAST | ... for a
			      broadcast, else HWXDP_EGRESS_NONE; meaningful
			      with XDP_REDIRECT (without one the kernel drops the
			      frame, so must the caller) */
	uint32_t egress_prog;	 /* the devmap entry's program that ran on the
				    frame (an image program number; the engine
				    runs it after a redirect into the entry),
				    else HWXDP_PROG_NONE */
	uint32_t egress_verdict; /* that program's verdict (XDP_PASS: the frame
				    leaves by egress; else it is dropped and
				    egress is HWXDP_EGRESS_NONE), XDP_PASS
				    when none ran, XDP_ABORTED for an entry
				    naming no program of the image */
	uint32_t reason;   /* punt reason; 0 when the frame was not punted */
	int error;	   /* 0, or -HWXDP_ERR_* when the engine aborted it */
	uint32_t fault_op; /* operation index where it did */
};

struct hwxdp_run_stats {
	uint64_t ops;	  /* operations executed (movi counts once) */
	uint64_t bundles; /* issue slots */
	uint64_t cycles;  /* cost model: bundles plus unit latencies */
};

struct hwxdp_engine;

/*
 * Checks img against the device's rules and the tables it names (each of
 * the image's table descriptors must match the table of that id in
 * tables), pre-decodes it, and returns an engine; NULL with errno EINVAL
 * (the reason, "hxu: op N: ...", is hwxdp_error_message(-EINVAL); nothing
 * is printed) or ENOMEM.
 * tables must outlive the engine.
 */
struct hwxdp_engine *hwxdp_engine__new(const struct hxu_image *img, struct hwxdp_tables *tables);
void hwxdp_engine__free(struct hwxdp_engine *e);

/* The same checks alone, silently: 0 or -HWXDP_ERR_IMAGE with the reason
 * in err (errlen bytes, may be 0), or -ENOMEM. tables may be NULL to check
 * the image without table memory. */
int hwxdp_engine__check(const struct hxu_image *img, const struct hwxdp_tables *tables, char *err,
			size_t errlen);

/* The engine number `cpu` reads (bpf_get_smp_processor_id); 0 by default. */
void hwxdp_engine__set_cpu(struct hwxdp_engine *e, uint32_t cpu);

/* Seeds `rand`; a new engine is seeded from getrandom(). */
void hwxdp_engine__set_rand_seed(struct hwxdp_engine *e, uint64_t seed);

/*
 * Runs program prog (an index in the image's programs) on frame. Returns 0
 * when the program exited or punted, the frame's error when the engine
 * aborted it, or -EINVAL (nothing run) for a bad program index or frame
 * geometry. stats, when not NULL, receives this frame's figures.
 */
/*
 * Puts len bytes of a frame in frame->window as a port delivers it: at
 * HXU_HEADROOM, without metadata, the headroom zeroed (adjust_head and
 * adjust_meta can give it to the program; adjust_tail zeroes what it adds
 * itself, and a program reads nothing else beyond the frame). Sets data,
 * data_end and data_meta; len at most HXU_FRAME_MAX.
 */
void hwxdp_frame__place(struct hwxdp_frame *frame, const uint8_t *bytes, uint32_t len);

int hwxdp_engine__run(struct hwxdp_engine *e, uint32_t prog, struct hwxdp_frame *frame,
		      struct hwxdp_run_stats *stats);

/*
 * Runs program prog as a devmap entry's program (expected attach type
 * BPF_XDP_DEVMAP) on frame, bound for port egress: what hwxdp_engine__run
 * does after a redirect into an entry with a program, for the caller that
 * sends a broadcast's copies (one run per copy, as the kernel's
 * dev_map_enqueue_clone). frame->verdict is XDP_REDIRECT and
 * frame->egress egress when the copy goes, HWXDP_EGRESS_NONE when the
 * program dropped it (egress_verdict says how). Returns as
 * hwxdp_engine__run; -EINVAL for egress 0.
 */
int hwxdp_engine__run_egress(struct hwxdp_engine *e, uint32_t prog, struct hwxdp_frame *frame,
			     uint32_t egress, struct hwxdp_run_stats *stats);

#endif /* HWXDP_DEVICE_ENGINE_H */
