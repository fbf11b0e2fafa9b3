/* SPDX-License-Identifier: GPL-2.0 */
/* A small streaming JSON writer for -j/--json output (bpftool's shape). */
#ifndef HWXDP_CMD_JSON_H
#define HWXDP_CMD_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json_writer;

struct json_writer *json_new(FILE *out, bool pretty);
void json_destroy(struct json_writer *w); /* ends the document with a newline */

void json_start_object(struct json_writer *w);
void json_end_object(struct json_writer *w);
void json_start_array(struct json_writer *w);
void json_end_array(struct json_writer *w);
void json_name(struct json_writer *w, const char *name); /* next value's key */

void json_string(struct json_writer *w, const char *value);
void json_uint(struct json_writer *w, uint64_t value);
void json_int(struct json_writer *w, int64_t value);
void json_bool(struct json_writer *w, bool value);
void json_null(struct json_writer *w);

/* Shorthands for "name": value inside an object. */
void json_string_field(struct json_writer *w, const char *name, const char *value);
void json_uint_field(struct json_writer *w, const char *name, uint64_t value);
void json_int_field(struct json_writer *w, const char *name, int64_t value);

#endif /* HWXDP_CMD_JSON_H */
