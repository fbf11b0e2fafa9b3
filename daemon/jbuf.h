/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON written into memory: the body of a control reply. Values are added in
 * order (objects and arrays nest); the first allocation failure is kept and
 * reported by jbuf_error, so a handler need not check each call.
 */
#ifndef HWXDP_DAEMON_JBUF_H
#define HWXDP_DAEMON_JBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JBUF_MAX_DEPTH 32

struct jbuf {
	char *data;
	size_t len, cap;
	int depth;
	bool first[JBUF_MAX_DEPTH];
	bool after_name;
	int error; /* 0 or -ENOMEM / -E2BIG (too deep) */
};

void jbuf_init(struct jbuf *b);
void jbuf_fini(struct jbuf *b);
void jbuf_reset(struct jbuf *b);
int jbuf_error(const struct jbuf *b);

void jbuf_start_object(struct jbuf *b);
void jbuf_end_object(struct jbuf *b);
void jbuf_start_array(struct jbuf *b);
void jbuf_end_array(struct jbuf *b);
void jbuf_name(struct jbuf *b, const char *name);

void jbuf_string(struct jbuf *b, const char *value);
void jbuf_uint(struct jbuf *b, uint64_t value);
void jbuf_int(struct jbuf *b, int64_t value);
void jbuf_bool(struct jbuf *b, bool value);
void jbuf_null(struct jbuf *b);

void jbuf_string_field(struct jbuf *b, const char *name, const char *value);
void jbuf_uint_field(struct jbuf *b, const char *name, uint64_t value);
void jbuf_int_field(struct jbuf *b, const char *name, int64_t value);
void jbuf_bool_field(struct jbuf *b, const char *name, bool value);

#endif /* HWXDP_DAEMON_JBUF_H */
