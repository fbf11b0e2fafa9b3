/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The coprocessor as a whole (docs/isa.md section 1, docs/device.md): a
 * board of K packet engines, one thread each, the microcode store and table
 * memory they share, and up to 256 ports, each with a program slot.
 *
 * Programs. A load puts a program's microcode in the store (bounded by
 * HXU_STORE_WORDS across every loaded program) and gives it an engine per
 * thread; its maps live in table memory of its own, or in the table memory
 * of a program loaded before it (the same maps, seen by both). A load from
 * a BPF object sizes its tables as the program asks (hwxdp_entries_MAP,
 * else its maps' max_entries), or as the board's sizes say.
 *
 * Ports and slots. A port is named by its ifindex, the ingress_ifindex its
 * program sees. Attaching a program to a port writes the port's slot; an
 * engine reads the slot once per frame, so a replace takes effect between
 * two frames of that engine, never within one. A frame arriving on a port
 * with an empty slot goes to the host as it is (XDP_PASS, counted as such).
 *
 * Frames. __run_batch hands frames to the engines by a hash of the ingress
 * port and the frame's flow (addresses, protocol, ports), so frames of one
 * flow run on one engine, in the order given; results are written back into
 * each frame. What the batch does to table memory equals what one engine
 * doing the frames in order does wherever the program's effects commute
 * (counters by atomic adds).
 *
 * Threads: one thread at a time calls __run_batch (calls are serialised);
 * load, attach and detach may run in other threads while it does. Table
 * writes from the host go through device/tables.h as ever.
 */
#ifndef HWXDP_DEVICE_DEVICE_H
#define HWXDP_DEVICE_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/engine.h"

struct hxu_image;
struct hwxdp_tables;
struct hwxdp_table;
struct hwxdp_table_size;
struct hwxdp_device_prog;

#define HWXDP_DEVICE_ENGINES_DEFAULT 4
#define HWXDP_DEVICE_ENGINES_MAX     64
#define HWXDP_DEVICE_PORTS	     256
#define HWXDP_DEVICE_PROGS	     64
/* Punt reasons counted one by one; a reason at or above the last slot is
 * counted there ("other"). Slot 0: XDP_PASS without a reason. */
#define HWXDP_DEVICE_REASONS 64
/* Verdict counters: XDP_ABORTED .. XDP_REDIRECT, then anything else. */
#define HWXDP_DEVICE_VERDICTS 6
/* An empty slot, or a frame no program ran on. */
#define HWXDP_DEVICE_PROG_NONE UINT32_MAX
/* Metadata bytes a frame's result carries at most. */
#define HWXDP_DEVICE_META_MAX 32

struct hwxdp_device_opts {
	size_t sz;	  /* sizeof(struct hwxdp_device_opts) */
	uint32_t engines; /* 0: HWXDP_DEVICE_ENGINES_DEFAULT */
	/* Table sizes by map name for programs loaded from objects, over
	 * what the programs ask for; NULL: none. Copied. */
	const struct hwxdp_table_size *sizes;
	size_t size_cnt;
	/* Skip counting ops, issue slots and cycles per frame: the engines
	 * then run their build without counting points, a little faster. */
	bool no_cost;
	/* A board whose every ifindex is a wire (hwxdp run: what leaves goes
	 * to the output, whatever the port): a redirect leaves by the ifindex
	 * it names. By default a redirect to an ifindex that is none of the
	 * board's ports goes nowhere (dropped, counted redirect_nowhere). */
	bool any_egress;
};

struct hwxdp_device_load_opts {
	size_t sz;
	/* Use the table memory of this loaded program when share_tables. */
	bool share_tables;
	uint32_t tables_of;
	/* Which program of the image a slot enters (0: the first). */
	uint32_t entry;
	/* Memory for the ARRAY tables of a program loaded from an object
	 * (loader/device.h, hwxdp_device_prog_opts.array_memory). */
	void *(*array_memory)(const struct hxu_table_desc *desc, size_t *size, void *ctx);
	void *array_memory_ctx;
	/* The object's XDP program of this name; NULL: its first. */
	const char *prog;
};

struct hwxdp_device_frame {
	/* In. */
	const uint8_t *data; /* the frame as it arrives, len bytes */
	uint32_t len;
	uint32_t port; /* ingress ifindex: the slot, and ctx->ingress_ifindex */
	uint32_t rx_queue;
	uint8_t *out; /* out_cap bytes for the frame as it leaves; may be NULL
			 and may be data */
	uint32_t out_cap;

	/* Out. */
	uint32_t out_len; /* the frame's length as it leaves; its bytes are in
			     out when it fits */
	uint32_t verdict; /* XDP action (XDP_PASS for a punt or an empty slot,
			     XDP_ABORTED for a frame the engine aborted or a
			     length the device refuses) */
	uint32_t egress;  /* with XDP_REDIRECT: the port table's ifindex,
			     HWXDP_EGRESS_NONE (the kernel drops such a frame),
			     or a broadcast (hwxdp_egress_is_bcast: the ports
			     are hwxdp_device__broadcast_ports') */
	uint32_t reason;  /* punt reason: the punt operation's, else the one in
			     struct hwxdp_meta metadata; 0 when none */
	int error;	  /* 0, -HWXDP_ERR_* from the engine, -EINVAL for a length
			     outside 14 .. HXU_FRAME_MAX */
	uint32_t fault_op;
	uint32_t prog;			     /* the program that ran, or HWXDP_DEVICE_PROG_NONE */
	uint32_t engine;		     /* the engine that ran it */
	uint32_t meta_len;		     /* metadata bytes in front of the frame */
	uint8_t meta[HWXDP_DEVICE_META_MAX]; /* the last meta_len of them, at most
						HWXDP_DEVICE_META_MAX */
	struct hwxdp_run_stats cost;	     /* zero with no_cost */
};

struct hwxdp_device_port_stats {
	uint32_t ifindex;
	uint32_t prog; /* in the slot when the figures were taken */
	uint64_t frames, bytes;
	uint64_t verdicts[HWXDP_DEVICE_VERDICTS];
	uint64_t no_program; /* frames that met an empty slot (not in verdicts) */
	uint64_t punts[HWXDP_DEVICE_REASONS];
};

struct hwxdp_device_memory {
	uint64_t table_bytes; /* every table of every table memory */
	uint32_t table_cnt;
	uint32_t store_words;	 /* microcode store in use */
	uint32_t store_capacity; /* HXU_STORE_WORDS */
};

struct hwxdp_device_stats {
	uint32_t engines;
	uint32_t progs; /* loaded */
	uint64_t frames, bytes;
	uint64_t verdicts[HWXDP_DEVICE_VERDICTS];
	uint64_t no_program;
	uint64_t invalid;	   /* lengths the device refuses (not in verdicts) */
	uint64_t redirect_nowhere; /* XDP_REDIRECT without an egress: dropped */
	uint64_t punts[HWXDP_DEVICE_REASONS];
	uint64_t ops, bundles, cycles;
	uint64_t engine_frames[HWXDP_DEVICE_ENGINES_MAX];
	uint32_t port_cnt;
	struct hwxdp_device_port_stats port[HWXDP_DEVICE_PORTS]; /* in creation order */
	struct hwxdp_device_memory memory;
};

struct hwxdp_device;

/* A board with its engine threads running (idle). NULL with errno EINVAL
 * (engines beyond HWXDP_DEVICE_ENGINES_MAX, bad opts) or ENOMEM / the
 * thread library's error. */
struct hwxdp_device *hwxdp_device__new(const struct hwxdp_device_opts *opts);
/* Stops the threads and frees every program and table memory the device
 * made. */
void hwxdp_device__free(struct hwxdp_device *d);

uint32_t hwxdp_device__engines(const struct hwxdp_device *d);

/*
 * Loads the XDP program of the BPF object at path: verified and translated
 * for the device, tables sized by the board. Returns the program id (0 ..
 * HWXDP_DEVICE_PROGS - 1) or a negative errno with the reason in msg:
 * -ENOSPC when its microcode does not fit in what is left of the store or
 * every program id is taken, the loader's errors otherwise.
 */
int hwxdp_device__load(struct hwxdp_device *d, const char *path,
		       const struct hwxdp_device_load_opts *opts, char *msg, size_t msglen);
/*
 * Loads an image (copied as needed; the caller keeps img). Its tables are
 * made from the image's descriptors, or are another program's
 * (opts->share_tables). The program id or a negative errno as above,
 * -EINVAL when an engine refuses the image.
 */
int hwxdp_device__load_image(struct hwxdp_device *d, const struct hxu_image *img,
			     const struct hwxdp_device_load_opts *opts, char *msg, size_t msglen);
/* Frees a program's store words and engines: -EBUSY while a port's slot
 * holds it, -ENOENT for no such program. Waits for a running batch. */
int hwxdp_device__unload(struct hwxdp_device *d, uint32_t prog);

/* Adds a port with an empty slot (0 when it exists already), so that its
 * frames are counted per port: -ENOSPC beyond HWXDP_DEVICE_PORTS, -EINVAL
 * for ifindex 0. Frames of a port the board does not have are counted in
 * the totals only. */
int hwxdp_device__add_port(struct hwxdp_device *d, uint32_t port);
/* Points port's slot at prog (replacing what it held): 0, -ENOENT for no
 * such program, -ENOSPC when the port is new and the board has
 * HWXDP_DEVICE_PORTS already, -EINVAL for ifindex 0. */
int hwxdp_device__attach(struct hwxdp_device *d, uint32_t port, uint32_t prog);
/* Empties port's slot: 0 or -ENOENT when it held nothing. */
int hwxdp_device__detach(struct hwxdp_device *d, uint32_t port);
/* The program in port's slot, or HWXDP_DEVICE_PROG_NONE. */
uint32_t hwxdp_device__slot(struct hwxdp_device *d, uint32_t port);

/* Runs n frames on the engines; 0, or -EINVAL for a bad argument. Each
 * frame's result is in the frame, whatever became of it. */
int hwxdp_device__run_batch(struct hwxdp_device *d, struct hwxdp_device_frame *frames, size_t n);

/*
 * The ports a broadcast goes out of: frame fr's result, an XDP_REDIRECT
 * whose egress is HWXDP_EGRESS_BCAST (device/engine.h). Every entry of the
 * port table its program named, as the table holds them now, in key order
 * (a devmap's is the kernel's; a devmap hash's the kernel takes by hash
 * bucket): one copy per entry, so an ifindex twice in the table gets two,
 * none for an entry whose ifindex is fr's ingress port when the egress has
 * HWXDP_EGRESS_BCAST_EXCL, none for an ifindex that is no port of the board
 * (as a redirect to it; with any_egress every ifindex is one). Returns how
 * many, the first cap of them in ports (0: the frame goes nowhere, as the
 * kernel drops a broadcast on an empty map), or -EINVAL when fr is no
 * broadcast, -ENOENT when its program or table is gone, -ENOMEM.
 */
int hwxdp_device__broadcast_ports(struct hwxdp_device *d, const struct hwxdp_device_frame *fr,
				  uint32_t *ports, size_t cap);
/* The same copies as the port table's entries: key, ifindex, and the
 * program each runs on its copy (an image program number, 0 for none). */
int hwxdp_device__broadcast_entries(struct hwxdp_device *d, const struct hwxdp_device_frame *fr,
				    struct hwxdp_port_entry *entries, size_t cap);
/*
 * Broadcast frame fr's copy for entry (one of hwxdp_device__broadcast_entries'):
 * the frame as fr->out holds it, through the entry's program when it has
 * one, run for the entry's port as the kernel's dev_map_enqueue_clone runs
 * each copy's (device/engine.h, hwxdp_engine__run_egress), on the first
 * engine of fr's program between batches. 1 with the copy in out (*len
 * bytes) when it leaves, 0 when the program dropped it (any verdict but
 * XDP_PASS, or a fault), -EINVAL when fr is no broadcast or the program
 * none of the image, -ENOENT when fr's program is gone, -ENOSPC when cap is
 * short of *len.
 */
int hwxdp_device__broadcast_copy(struct hwxdp_device *d, const struct hwxdp_device_frame *fr,
				 const struct hwxdp_port_entry *entry, uint8_t *out, size_t cap,
				 uint32_t *len);

/* Counters since the device was made, taken between batches. */
void hwxdp_device__stats(struct hwxdp_device *d, struct hwxdp_device_stats *stats);
void hwxdp_device__memory(struct hwxdp_device *d, struct hwxdp_device_memory *mem);

/* A program's table memory, its table of map name, and what it loaded
 * from (NULL for an image, or no such program). */
struct hwxdp_tables *hwxdp_device__tables(struct hwxdp_device *d, uint32_t prog);
struct hwxdp_table *hwxdp_device__table(struct hwxdp_device *d, uint32_t prog, const char *name);
struct hwxdp_device_prog *hwxdp_device__prog(struct hwxdp_device *d, uint32_t prog);
/* Microcode words of a loaded program, 0 for none. */
uint32_t hwxdp_device__prog_words(struct hwxdp_device *d, uint32_t prog);

/*
 * Writes count entries into a hash table (keys and values packed,
 * key_size and value_size apart) as bpf_map_update_batch does: stops at
 * the first error, which it returns, with *count set to the number written.
 * -EINVAL for a table that is not a hash.
 */
int hwxdp_device__table_update_batch(struct hwxdp_table *tab, const void *keys, const void *values,
				     uint32_t *count, uint64_t flags);

/* Bytes one table takes in table memory. */
size_t hwxdp_device__table_bytes(const struct hwxdp_table *tab);

#endif /* HWXDP_DEVICE_DEVICE_H */
