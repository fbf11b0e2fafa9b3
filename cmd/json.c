// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdlib.h>

#include "cmd/json.h"

#define JSON_MAX_DEPTH 32

struct json_writer {
	FILE *out;
	bool pretty;
	int depth;
	bool first[JSON_MAX_DEPTH]; /* no value yet at this depth */
	bool after_name;
};

struct json_writer *json_new(FILE *out, bool pretty)
{
	struct json_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->out = out;
	w->pretty = pretty;
	w->first[0] = true;
	return w;
}

void json_destroy(struct json_writer *w)
{
	if (!w)
		return;
	fputc('\n', w->out);
	free(w);
}

static void indent(struct json_writer *w)
{
	int i;

	if (!w->pretty)
		return;
	fputc('\n', w->out);
	for (i = 0; i < w->depth; i++)
		fputs("    ", w->out);
}

/* Separator and indentation before a value or a name. */
static void begin_value(struct json_writer *w)
{
	if (w->after_name) {
		w->after_name = false;
		return;
	}
	if (!w->first[w->depth])
		fputc(',', w->out);
	w->first[w->depth] = false;
	if (w->depth)
		indent(w);
}

static void open(struct json_writer *w, char c)
{
	begin_value(w);
	fputc(c, w->out);
	if (w->depth < JSON_MAX_DEPTH - 1)
		w->depth++;
	w->first[w->depth] = true;
}

static void close_(struct json_writer *w, char c)
{
	bool empty = w->first[w->depth];

	if (w->depth)
		w->depth--;
	if (!empty)
		indent(w);
	fputc(c, w->out);
}

void json_start_object(struct json_writer *w) { open(w, '{'); }
void json_end_object(struct json_writer *w) { close_(w, '}'); }
void json_start_array(struct json_writer *w) { open(w, '['); }
void json_end_array(struct json_writer *w) { close_(w, ']'); }

static void quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

void json_name(struct json_writer *w, const char *name)
{
	begin_value(w);
	quoted(w->out, name);
	fputs(w->pretty ? ": " : ":", w->out);
	w->after_name = true;
}

void json_string(struct json_writer *w, const char *value)
{
	begin_value(w);
	quoted(w->out, value);
}

void json_uint(struct json_writer *w, uint64_t value)
{
	begin_value(w);
	fprintf(w->out, "%" PRIu64, value);
}

void json_int(struct json_writer *w, int64_t value)
{
	begin_value(w);
	fprintf(w->out, "%" PRId64, value);
}

void json_bool(struct json_writer *w, bool value)
{
	begin_value(w);
	fputs(value ? "true" : "false", w->out);
}

void json_null(struct json_writer *w)
{
	begin_value(w);
	fputs("null", w->out);
}

void json_string_field(struct json_writer *w, const char *name, const char *value)
{
	json_name(w, name);
	json_string(w, value);
}

void json_uint_field(struct json_writer *w, const char *name, uint64_t value)
{
	json_name(w, name);
	json_uint(w, value);
}

void json_int_field(struct json_writer *w, const char *name, int64_t value)
{
	json_name(w, name);
	json_int(w, value);
}
