/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel side of the differential verifier test: the maps a generated
 * program names, created once, and one bpf_prog_load per program with the
 * verifier log kept for the report.
 */
#ifndef HWXDP_TESTS_VDIFF_KERNEL_H
#define HWXDP_TESTS_VDIFF_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tests/vdiff/gen.h"

struct vdiff_kernel;

/*
 * The privilege a program is loaded with. hwxdp's verifier follows the rules
 * for CAP_BPF + CAP_NET_ADMIN (verifier/verifier.h); with CAP_PERFMON or
 * CAP_SYS_ADMIN as well the kernel lets pointers leak, reads uninitialised
 * stack and skips its Spectre checks.
 */
enum vdiff_caps {
	VDIFF_CAPS_BPF,	 /* CAP_BPF + CAP_NET_ADMIN, the verifier's contract */
	VDIFF_CAPS_ROOT, /* every capability root has */
};

struct vdiff_kernel_result {
	bool accepted;
	int err;   /* bpf_prog_load's negative errno when rejected */
	char *log; /* the verifier log, NUL-terminated, never NULL after load */
	size_t log_len;
	uint32_t insns_processed; /* from the log's "processed N insns" */
	uint64_t load_ns;	  /* wall time of the accepted or rejecting load */
};

/* 0 or a negative errno. */
int vdiff_kernel__new(struct vdiff_kernel **out);
void vdiff_kernel__free(struct vdiff_kernel *kernel);

/*
 * Loads prog as an XDP program with caps and closes it again. 0 when the kernel gave a
 * verdict (res->accepted tells which), a negative errno when it could not
 * judge the program at all (no privilege, out of memory, a map that cannot
 * be created). res is cleared first and must be released with
 * vdiff_kernel_result__clear either way.
 */
int vdiff_kernel__load(struct vdiff_kernel *kernel, const struct vdiff_prog *prog,
		       enum vdiff_caps caps, struct vdiff_kernel_result *res);
void vdiff_kernel_result__clear(struct vdiff_kernel_result *res);

/*
 * The reason in a verifier log: its last line that is not a statistic or a
 * register dump, without the instruction's index ("R1 invalid mem access
 * 'scalar'"). Numbers are kept; see vdiff_reason_shape for grouping.
 */
void vdiff_log__reason(const char *log, char *buf, size_t len);

/* A reason with its numbers replaced by N, so alike messages group together. */
void vdiff_reason_shape(const char *reason, char *buf, size_t len);

#endif /* HWXDP_TESTS_VDIFF_KERNEL_H */
