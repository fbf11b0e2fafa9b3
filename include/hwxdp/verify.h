/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verification: whether a program of an object is safe, by the kernel's
 * rules for the host copy and by the coprocessor's too for the device,
 * without a kernel. docs/verifier.md describes the rules.
 *
 * A program written for both targets branches on a `const volatile __u32
 * hwxdp_target` global (0 host, 1 device); set it with
 * hwxdp_object__set_global before verifying, as a loader would.
 */
#ifndef HWXDP_VERIFY_H
#define HWXDP_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwxdp/common.h"
#include "hwxdp/object.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwxdp_prog_verify_opts {
	size_t sz; /* sizeof(struct hwxdp_prog_verify_opts) */
	/* The coprocessor's restrictions too (verdicts, host-only helpers
	 * become punts, the device's limits). */
	bool device;
	/* The host copy by the kernel's rules without CAP_PERFMON. */
	bool unprivileged;
	/* 0 the rejection only, 1 also the path and figures, 2 also the
	 * registers at every instruction. */
	int log_level;
	/* Instructions to explore before giving up; 0: 1000000. */
	uint32_t insn_budget;
	/* The log, NUL-terminated and cut to log_size bytes. Without a
	 * buffer a rejection's log goes through the print callback. */
	char *log_buf;
	size_t log_size;

	/* Out. */
	uint32_t error_insn;	  /* where a rejection happened */
	uint32_t insns_processed; /* instructions the verifier visited */

	/* The host copy by the kernel's rules for a program bound to a
	 * netdev (prog_ifindex and BPF_F_XDP_DEV_BOUND_ONLY): the XDP
	 * metadata kfuncs may be called. The device's copy is always bound. */
	bool dev_bound;
};

/*
 * Verifies prog of obj. 0 when it is accepted, -EACCES when it is refused
 * (the reason in the log, naming the instruction and source line),
 * -EOPNOTSUPP for a program that is not XDP, -EINVAL for bad options,
 * another negative errno when the verifier could not run.
 */
HWXDP_API int hwxdp_prog__verify(const struct hwxdp_object *obj, const struct hwxdp_prog *prog,
				 struct hwxdp_prog_verify_opts *opts);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HWXDP_VERIFY_H */
