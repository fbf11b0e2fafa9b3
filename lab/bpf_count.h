/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reference count: a small BPF interpreter that runs a program's own
 * instructions on one frame and counts how many it executed, so that the
 * microcode's issue slots can be compared with the BPF it came from.
 *
 * It is an execution target (lab/target.h) like the kernel and the device:
 * the same lab set-up fills its maps, which live in a table memory of their
 * own (device/tables.h), and hx_target_stats() reports the instructions the
 * last frame executed in ops (and bundles: one instruction a step; cycles
 * stay 0, the interpreter has no cost model). The program is the device's copy
 * (hwxdp_target = DEVICE), the one the translator sees; a ld_imm64 counts
 * as one instruction, a helper call as one. Helpers: map lookup, update and
 * delete, redirect_map, xdp_adjust_head/meta/tail, ktime (0), prandom,
 * smp_processor_id (0); the ESP kfunc on the crypto unit with the SAs
 * hx_target_esp_sa() gives it (none: -ENOENT); the XDP metadata kfuncs as
 * on the device (loader/kfuncs.h: -EOPNOTSUPP); the open-coded number
 * iterators and the frame's dynptr with its read-only slices as the
 * kernel's. Tail calls as the kernel's
 * (at most 33 a frame), into the programs of the device's image of the
 * program, which a program array's entries name by their numbers there,
 * as the device's do (the arrays filled from the object's `.values` as the
 * device fills them); in an object the translator refuses, and from a
 * function, they are refused (-ENOTSUP), as other kfunc calls are, so a
 * frame that reaches one is not counted.
 */
#ifndef HWXDP_LAB_BPF_COUNT_H
#define HWXDP_LAB_BPF_COUNT_H

#include "lab/target.h"

extern const struct hx_target_ops hx_count_target;

/* Opens object_path's XDP program on the counting interpreter; NULL with
 * errno set. Close with hx_target_close(). */
struct hx_target *hx_count_target_open(const char *object_path);
/* The same for its program called prog (NULL: the XDP program). */
struct hx_target *hx_count_target_open_prog(const char *object_path, const char *prog);

/*
 * What a frame asks of a map it does not hold: fn is called, from the
 * frames run after this, for each lookup in a hash (HASH, LRU_HASH and
 * their per-CPU forms) that finds nothing, with the table's (the map's)
 * name, the key and its size. NULL stops it. A harness fills the maps of
 * the kernel and the device with keys the frames will look up.
 */
typedef void (*hx_count_miss_fn)(void *arg, const char *map, const void *key, uint32_t key_size);
void hx_count_target_on_miss(struct hx_target *target, hx_count_miss_fn fn, void *arg);

#endif /* HWXDP_LAB_BPF_COUNT_H */
