/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One print path for every message: a level, a "hwxdp: " prefix, and a
 * callback the embedding program can replace (as libbpf_set_print).
 * HWXDP_LOG_LEVEL=warn|info|debug sets the default threshold; any other
 * value is a warning, and the threshold stays warn.
 */
#ifndef HWXDP_BASE_LOG_H
#define HWXDP_BASE_LOG_H

#include <stdarg.h>
#include <stddef.h>

/* The levels, the callback and hwxdp_set_print. */
#include "hwxdp/log.h"

__attribute__((format(printf, 2, 3))) void hwxdp_print(enum hwxdp_print_level level,
						       const char *fmt, ...);

#define pr_warn(fmt, ...)  hwxdp_print(HWXDP_WARN, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)  hwxdp_print(HWXDP_INFO, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) hwxdp_print(HWXDP_DEBUG, fmt, ##__VA_ARGS__)

/*
 * One cause, one line: a library function that fails for a reason errno
 * cannot name records the line with hwxdp_error (it returns err), and
 * prints nothing; the caller prints hwxdp_error_message(err), which is that
 * line when the last error recorded on this thread is err, else
 * hwxdp_strerror(err). A message is given back once.
 */
__attribute__((format(printf, 2, 3))) int hwxdp_error(int err, const char *fmt, ...);

/* Writes the formatted message into msg (msglen bytes, none when 0) and
 * returns err: the one-line report of the functions that take a buffer
 * (msg may be NULL). */
__attribute__((format(printf, 4, 5))) int hwxdp_say(char *msg, size_t msglen, int err,
						    const char *fmt, ...);
const char *hwxdp_error_message(int err);

/* Forgets the line recorded last: a function that records one for every
 * failure calls it first, so that no older line stands for its error. */
void hwxdp_error_clear(void);
/* err, with "what: hwxdp_strerror(err)" recorded for it when no line is:
 * every failure of such a function then has a line naming what failed. */
int hwxdp_error_for(int err, const char *what);

/* Routes libbpf's messages through hwxdp_print (warnings only unless debug). */
void hwxdp_route_libbpf_print(void);

#endif /* HWXDP_BASE_LOG_H */
