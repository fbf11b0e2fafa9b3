/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Instruction-level conformance runs: a raw BPF program (the instructions of
 * one function, no maps) is called with r1 = a memory buffer and r2 = its
 * length, and r0 at its exit is the answer. This is the convention of the
 * public conformance plugins (uBPF, rbpf, PREVAIL, the kernel's own).
 *
 * The device runs XDP programs, so the raw program becomes a subprogram of
 * a small XDP program (hx_conformance_wrap): the memory is the frame, the
 * prologue checks the frame holds it, calls the raw program with r1 = data
 * and r2 = the length (r3..r5 uninitialised, as the convention has them:
 * reading one is a refusal), and stores the 64-bit r0 in entry 0 of a one-entry
 * array (hx_conformance_map), read back after the run. The same wrapped
 * program runs on the kernel with BPF_PROG_TEST_RUN, so both targets answer
 * the same question.
 */
#ifndef HWXDP_LAB_CONFORMANCE_H
#define HWXDP_LAB_CONFORMANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

#include "loader/object.h"

#include "base/hex.h"

/* Instructions the wrapper puts before the raw program's first one. */
#define HX_CONFORMANCE_PROLOGUE 15

/* The most memory a run takes: a frame of the device. */
#define HX_CONFORMANCE_MEM_MAX 9216

/* Why a run failed, beyond errno and the project's other codes. */
enum {
	/* the frame was shorter than the memory: the prologue's error exit */
	HX_CONFORMANCE_ERR_BOUNDS = 4400,
	/* the wrapper ended with a verdict other than its own */
	HX_CONFORMANCE_ERR_VERDICT,
};

enum hx_conformance_target {
	HX_CONFORMANCE_DEVICE, /* hwxdp's verifier, translator and engine */
	HX_CONFORMANCE_KERNEL, /* the kernel's verifier and BPF_PROG_TEST_RUN (root) */
};

struct hx_conformance_opts {
	size_t sz; /* sizeof(struct hx_conformance_opts) */
	enum hx_conformance_target target;
	/* a refusal's full verifier log (hwxdp's or the kernel's) through
	 * pr_info; the error string has its last line either way */
	bool verbose;
};

/* The one-entry array (u32 key, u64 value) the wrapper stores r0 in. */
extern const struct hwxdp_map_desc hx_conformance_map;


/*
 * Raw program bytes as instructions: 0, or -EINVAL for no bytes or a count
 * not a multiple of 8 (reason in err), or -ENOMEM. *insns is malloc'ed.
 */
int hx_conformance_insns(const uint8_t *bytes, size_t len, struct bpf_insn **insns, size_t *cnt,
			 char *err, size_t errlen);

/*
 * The instructions of the first program of an ELF object held in memory
 * (subprograms appended), for programs handed over as ELF files. 0, or a
 * negative error with the reason in err: the object cannot be read, has no
 * program, or uses maps (the convention has none).
 */
int hx_conformance_elf_insns(const uint8_t *elf, size_t len, struct bpf_insn **insns, size_t *cnt,
			     char *err, size_t errlen);

/*
 * The XDP program that calls raw (cnt instructions) with mem_len bytes of
 * memory: HX_CONFORMANCE_PROLOGUE instructions, then raw unchanged (its own
 * BPF-to-BPF calls keep their offsets). Map references are indexes into
 * &hx_conformance_map (include/hwxdp/object.h). 0, -EINVAL (no
 * instructions, mem_len above HX_CONFORMANCE_MEM_MAX) or -ENOMEM.
 */
int hx_conformance_wrap(const struct bpf_insn *raw, size_t cnt, size_t mem_len,
			struct bpf_insn **out, size_t *out_cnt);

/*
 * Runs raw over mem on opts->target (NULL: the device) and sets *r0. 0, or a
 * negative error with a one-line reason in err: -EINVAL (bad input), -EACCES
 * (the verifier refuses it), -HWXDP_ERR_TRANSLATE, -HWXDP_ERR_IMAGE, an
 * engine abort (-HWXDP_ERR_PKT_ACCESS ...), -HX_CONFORMANCE_ERR_*, -EPERM
 * (kernel target without root) or another errno.
 */
int hx_conformance_run(const struct bpf_insn *raw, size_t cnt, const uint8_t *mem, size_t mem_len,
		       const struct hx_conformance_opts *opts, uint64_t *r0, char *err,
		       size_t errlen);

#endif /* HWXDP_LAB_CONFORMANCE_H */
