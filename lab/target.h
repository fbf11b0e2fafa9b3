/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Execution targets: one interface to load a program, fill its maps, run a
 * frame and read the maps back, so that one test body runs on every target.
 * The kernel target runs the program with BPF_PROG_TEST_RUN; the coprocessor
 * model joins as a second target.
 */
#ifndef HWXDP_LAB_TARGET_H
#define HWXDP_LAB_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwxdp/platform.h"
#include "lab/pkt.h"

#define HX_META_MAX 32

/* What one run of the program did to one frame. */
struct hx_result {
	uint32_t action;	   /* XDP_* verdict */
	uint8_t frame[HX_PKT_MAX]; /* the frame as the program left it */
	size_t len;
	bool has_meta; /* the program wrote struct hwxdp_meta */
	struct hwxdp_meta meta;
	/* Whatever metadata it wrote, raw: its length (the kernel allows 32
	 * bytes at most) and its bytes, the last of them next to the frame. */
	size_t meta_len;
	uint8_t meta_bytes[HX_META_MAX];
	/* Where the last redirect sends the frame, as the device names it
	 * (struct hwxdp_frame's egress, device/engine.h), on the targets that
	 * can tell (the device, the reference interpreter); the kernel's test
	 * run does not say: egress_known false. */
	bool egress_known;
	uint32_t egress;
};

/* What the last run cost, where a target can tell (the device). */
struct hx_run_stats {
	uint64_t ops, bundles, cycles; /* the last frame's */
	size_t image_ops;	       /* operations in the loaded microcode */
	size_t bpf_insns;	       /* instructions of the BPF program */
};

/* Whether a counterexample's outcome forwards the frame (its bytes count),
 * and whether a target's run (err, r) is that outcome: the replay of
 * hwxdp prog prove and of the mutation run. */
struct hwxdp_prove_outcome;
bool hx_outcome_forwards(const struct hwxdp_prove_outcome *o);
bool hx_result_is_outcome(int err, const struct hx_result *r, const struct hwxdp_prove_outcome *o);

struct hx_target;

struct hx_target_ops {
	const char *name;
	int (*open)(struct hx_target *target, const char *object_path);
	int (*map_update)(struct hx_target *target, const char *map, const void *key,
			  const void *value);
	int (*map_lookup)(struct hx_target *target, const char *map, const void *key, void *value);
	int (*map_delete)(struct hx_target *target, const char *map, const void *key);
	int (*run)(struct hx_target *target, uint32_t ingress_ifindex, const uint8_t *frame,
		   size_t len, struct hx_result *result);
	/* optional: -EOPNOTSUPP when NULL */
	int (*stats)(struct hx_target *target, struct hx_run_stats *stats);
	/* optional: hx_target_esp_sa() */
	int (*esp_sa)(struct hx_target *target, uint32_t handle);
	void (*close)(struct hx_target *target);
};

struct hx_target {
	const struct hx_target_ops *ops;
	void *priv;
};

extern const struct hx_target_ops hx_kernel_target;

struct hwxdp_engine;
struct hwxdp_frame;
struct hwxdp_run_stats;

/*
 * One frame through a program, as the targets run it; for harnesses that
 * hold their own program (tests/devdiff). The kernel: prog_fd loaded, run by
 * BPF_PROG_TEST_RUN. The device: engine's program 0 in window, frame arriving
 * on ingress; f and stats report what the engine did (egress, fault_op).
 * 0 or a negative errno; frames shorter than an Ethernet header are -EINVAL
 * on both, as the kernel has it.
 */
int hx_kernel_run_frame(int prog_fd, uint32_t ingress_ifindex, const uint8_t *frame, size_t len,
			struct hx_result *result);
int hx_device_run_frame(struct hwxdp_engine *engine, uint8_t *window, uint32_t ingress,
			const uint8_t *frame, size_t len, struct hx_result *result,
			struct hwxdp_frame *f, struct hwxdp_run_stats *stats);
extern const struct hx_target_ops hx_device_target;
/* Runs the device target's frames compiled (true) or interpreted: 1 when
 * its engine now runs compiled code, 0 when it interprets (compiled mode
 * without a C compiler, or HWXDP_ENGINE=interp), or a negative errno. */
int hx_device_target_set_compiled(struct hx_target *target, bool compiled);

/* Opens the program at object_path on the target named name ("kernel",
 * "device").
 * NULL with errno set on failure. */
struct hx_target *hx_target_open(const char *name, const char *object_path);
void hx_target_close(struct hx_target *target);
const char *hx_target_name(const struct hx_target *target);

/* 0 or a negative errno; lookup of a missing key is -ENOENT. A program
 * array's value is, on every target, the number of a program in the
 * device's image of the object's program (hwxdp_translate_for_device), as
 * the device's array holds it; the kernel's takes that program's fd. */
int hx_target_map_update(struct hx_target *target, const char *map, const void *key,
			 const void *value);
int hx_target_map_lookup(struct hx_target *target, const char *map, const void *key, void *value);
int hx_target_map_delete(struct hx_target *target, const char *map, const void *key);

/* Runs one frame as if it arrived on ingress_ifindex. 0 or a negative errno
 * (the kernel refuses frames shorter than an Ethernet header: -EINVAL). */
int hx_target_run(struct hx_target *target, uint32_t ingress_ifindex, const uint8_t *frame,
		  size_t len, struct hx_result *result);

/* The last run's figures: 0 or -EOPNOTSUPP. */
int hx_target_stats(struct hx_target *target, struct hx_run_stats *stats);

/* The crypto unit's SA at handle, for bpf_hwxdp_esp_encap: the lab's one
 * test SA (AES-GCM-16 with a fixed key, SPI 0x100 + handle, tunnel
 * 192.0.2.1 to 192.0.2.2) on the targets that have the unit (the device
 * and the reference interpreter). 0, -EOPNOTSUPP elsewhere, or the
 * unit's errno. */
int hx_target_esp_sa(struct hx_target *target, uint32_t handle);
/* Makes that SA in sa (hwxdp_esp_sa__fini() it). */
struct hwxdp_esp_sa;
int hx_esp_test_sa(struct hwxdp_esp_sa *sa, uint32_t handle);

/* Where the built objects are: $HWXDP_BUILD or "build". */
const char *hx_build_dir(void);
/* The path of progs/NAME.bpf.o in the build; static storage. */
const char *hx_object_path(const char *name);

#endif /* HWXDP_LAB_TARGET_H */
