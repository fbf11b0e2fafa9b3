/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the engine's tests: microcode from text into a loaded engine,
 * frames into the window, the kernel as an oracle.
 */
#ifndef HWXDP_TESTS_DEVICE_ENGINE_UTIL_H
#define HWXDP_TESTS_DEVICE_ENGINE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

#include "device/engine.h"
#include "device/tables.h"
#include "hwmap/hxu.h"
#include "hwmap/hxu_text.h"

#define HXE_PROGS_MAX  8
#define HXE_TABLES_MAX 16

struct hxe {
	struct hxu_asm_out as;
	struct hxu_image img;
	struct hxu_prog_desc progs[HXE_PROGS_MAX];
	struct hxu_table_desc tables[HXE_TABLES_MAX];
	struct hwxdp_tables *t;
	struct hwxdp_engine *engine;
	uint8_t *window;
	struct hwxdp_frame frame;
	struct hwxdp_run_stats stats;
	int rc;
};

/* Assembles text (asserting it assembles), creates tables (n of them) and
 * loads an engine. Programs: "main" at op 0, then one per label named in
 * progs (NULL-terminated, may be NULL). Asserts the engine loads. */
struct hxe *hxe_new(const char *text, const struct hxu_table_desc *tables, size_t n,
		    const char *const *progs);
/* The same, but returns NULL when the engine refuses the image, with the
 * reason in err. */
struct hxe *hxe_try(const char *text, const struct hxu_table_desc *tables, size_t n,
		    const char *const *progs, char *err, size_t errlen);
void hxe_free(struct hxe *x);

/* Puts pkt (len bytes) at data = HXU_HEADROOM in a zeroed window and runs
 * program prog with stats; returns the run's return code. */
int hxe_run(struct hxe *x, uint32_t prog, const void *pkt, size_t len);

/* The frame's bytes after a run. */
static inline const uint8_t *hxe_data(const struct hxe *x)
{
	return x->window + x->frame.data;
}

static inline size_t hxe_len(const struct hxe *x)
{
	return x->frame.data_end - x->frame.data;
}

/* Table descriptor shorthand. */
struct hxu_table_desc hxe_table(uint32_t id, uint32_t type, uint32_t key_size, uint32_t value_size,
				uint32_t max_entries);

/* Kernel side. */
bool hxe_have_kernel(void); /* root: skips the test otherwise */
/* Assembles BPF text in the kernel verifier's syntax and loads it as XDP;
 * returns the fd, asserting it loads (the verifier log on failure). */
int hxe_kernel_load(const char *bpf_text);
/* BPF_PROG_TEST_RUN: data in, data out (out may be NULL); returns retval. */
uint32_t hxe_kernel_run(int fd, const void *in, size_t in_len, void *out, size_t *out_len);

/* A growing text buffer. */
struct strbuf {
	char *s;
	size_t len, cap;
};

__attribute__((format(printf, 2, 3))) void sb_printf(struct strbuf *b, const char *fmt, ...);
void sb_free(struct strbuf *b);

uint64_t hxe_rng(uint64_t *state);

#endif /* HWXDP_TESTS_DEVICE_ENGINE_UTIL_H */
