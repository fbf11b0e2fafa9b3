/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The translator: a verified BPF program and the verifier's facts about it
 * (verifier/verifier.h, run with opts.device) in, an HXU image (hwmap/hxu.h)
 * out.
 *
 * Each map the program uses becomes the table whose id is the map's index in
 * the object, so a caller fills table id i from obj->maps[i] (global data:
 * its initial bytes) after hwxdp_tables__create_all. The image's only
 * program is prog; its line table names the BPF instruction of every
 * operation.
 */
#ifndef HWXDP_HWMAP_TRANSLATE_H
#define HWXDP_HWMAP_TRANSLATE_H

#include <stddef.h>
#include <stdint.h>

#include "hwmap/hxu.h"
#include "loader/object.h"
#include "verifier/verifier.h"

/* HWXDP_ERR_TRANSLATE, why a program cannot be translated. */
#include "hwxdp/log.h"

/*
 * Translates prog of obj. facts must be an accepted device verification of
 * the same instructions. Returns 0 with *out set (free with
 * hxu_image__free), -HWXDP_ERR_TRANSLATE with the reason in err ("insn N
 * (file:line): ..."; errlen bytes, may be 0), or -ENOMEM.
 */
int hwxdp_translate(const struct hwxdp_object *obj, const struct hwxdp_prog *prog,
		    const struct hwxdp_verify_result *facts, struct hxu_image **out, char *err,
		    size_t errlen);

/*
 * The sequence every device load runs, once for every caller (the board's
 * loads, the command, the conformance runs), on an object each opened its
 * own way (a file, memory, bare instructions): sets obj's `hwxdp_target`
 * global to the device (where it has one), verifies prog for the device and
 * translates it, with the programs its tail calls reach through a program
 * array its definition fills (libbpf's `.values`) as further image programs,
 * each verified and translated on its own (docs/translator.md). 0 with *out
 * set; -EACCES when the verifier refuses it (its
 * log through pr_warn), -HWXDP_ERR_TRANSLATE or the verifier's error
 * otherwise; every error with a one-line reason in msg (msglen bytes),
 * which names neither the file nor the program.
 */
int hwxdp_translate_for_device(struct hwxdp_object *obj, const struct hwxdp_prog *prog,
			       struct hxu_image **out, char *msg, size_t msglen);

/* What the device load's steps took, in nanoseconds (CLOCK_MONOTONIC). */
struct hwxdp_translate_times {
	uint64_t verify_ns, translate_ns;
};

struct hwxdp_translate_opts {
	size_t sz; /* sizeof(struct hwxdp_translate_opts) */
	/* The verifier's log level (0: no log beyond a refusal's reason). */
	uint32_t log_level;
	/* Where the steps' times go; may be NULL. */
	struct hwxdp_translate_times *times;
	/* Where the verification goes, accepted or refused, for a caller that
	 * reports a refusal its own way (it frees it with
	 * hwxdp_verify_result__free); nothing is then printed. NULL: freed
	 * here, a refusal's log through pr_warn. */
	struct hwxdp_verify_result **verified;
};

/* hwxdp_translate_for_device with options (opts may be NULL). */
int hwxdp_translate_for_device_opts(struct hwxdp_object *obj, const struct hwxdp_prog *prog,
				    const struct hwxdp_translate_opts *opts, struct hxu_image **out,
				    char *msg, size_t msglen);

void hxu_image__free(struct hxu_image *img);

/*
 * The work the last hwxdp_translate on this thread did: the instructions,
 * operations and edges its passes visited, a figure that grows with the
 * program's length as the translation's time does (hwmap/work.h).
 */
uint64_t hxu_translate_work(void);

#endif /* HWXDP_HWMAP_TRANSLATE_H */
