/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Logging and errors, for every part of the library.
 *
 * Errors: a function returns 0 or a negative error; a pointer return is
 * NULL with errno set. An error is an errno or a project code, and project
 * codes share one range above errno's:
 *   4000-4099  objects (this header names them)
 *   4100-4199  the device engine refused an image or aborted a frame
 *   4200-4299  translation
 *   4300-4399  image files
 *   4400-4499  the conformance runner
 * hwxdp_strerror knows every one of them.
 *
 * Messages: one print callback receives every message of the library, with
 * a level, as libbpf_set_print; the default prints "hwxdp: " and the
 * message to stderr up to the level HWXDP_LOG_LEVEL names (warn, info,
 * debug; warn when unset).
 */
#ifndef HWXDP_LOG_H
#define HWXDP_LOG_H

#include <stdarg.h>

#include "hwxdp/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HWXDP_ERR_BASE 4000
enum {
	HWXDP_ERR_ELF = HWXDP_ERR_BASE, /* not an ELF / not a BPF ELF */
	HWXDP_ERR_RELOC,		/* relocation that cannot be applied */
	HWXDP_ERR_MAP,			/* map definition that cannot be read */
	HWXDP_ERR_PROG,			/* program section that cannot be read */
};
enum {
	HWXDP_ERR_TRANSLATE = 4200, /* the program cannot be translated for the device */
	HWXDP_ERR_NOT_PROVEN,	    /* a translation required proven is not (docs/prove.md) */
};
enum {
	HWXDP_ERR_IMAGE_FILE = 4300, /* not an HXU image file, or one that breaks its rules */
};

/* A message for a negative error return, errno or -HWXDP_ERR_*; static or
 * thread-local storage. */
HWXDP_API const char *hwxdp_strerror(int err);

/* The one line that says why the last call of this thread failed with err,
 * naming the file and what is wrong with it; hwxdp_strerror(err) when that
 * call recorded none. Given back once. */
HWXDP_API const char *hwxdp_error_message(int err);

enum hwxdp_print_level {
	HWXDP_WARN,
	HWXDP_INFO,
	HWXDP_DEBUG,
};

typedef int (*hwxdp_print_fn_t)(enum hwxdp_print_level level, const char *fmt, va_list args);

/* Replaces the print callback; returns the previous one. NULL silences the
 * library. libbpf's own messages come through it too, where the library
 * routes them (loading into the kernel). */
HWXDP_API hwxdp_print_fn_t hwxdp_set_print(hwxdp_print_fn_t fn);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HWXDP_LOG_H */
