// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/jbuf.h"

void jbuf_init(struct jbuf *b)
{
	memset(b, 0, sizeof(*b));
	b->first[0] = true;
}

void jbuf_fini(struct jbuf *b)
{
	free(b->data);
	jbuf_init(b);
}

void jbuf_reset(struct jbuf *b)
{
	char *data = b->data;
	size_t cap = b->cap;

	jbuf_init(b);
	b->data = data;
	b->cap = cap;
}

int jbuf_error(const struct jbuf *b)
{
	return b->error;
}

static void put(struct jbuf *b, const char *s, size_t n)
{
	if (b->error)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->data, cap);
		if (!p) {
			b->error = -ENOMEM;
			return;
		}
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static void puts_(struct jbuf *b, const char *s)
{
	put(b, s, strlen(s));
}

/* Before any value: a comma unless it is the first at its depth. */
static void value_start(struct jbuf *b)
{
	if (b->after_name) {
		b->after_name = false;
		return;
	}
	if (!b->first[b->depth])
		put(b, ",", 1);
	b->first[b->depth] = false;
}

static void open_(struct jbuf *b, char c)
{
	value_start(b);
	put(b, &c, 1);
	if (b->depth + 1 >= JBUF_MAX_DEPTH) {
		if (!b->error)
			b->error = -E2BIG;
		return;
	}
	b->first[++b->depth] = true;
}

static void close_(struct jbuf *b, char c)
{
	put(b, &c, 1);
	if (b->depth > 0)
		b->depth--;
}

void jbuf_start_object(struct jbuf *b)
{
	open_(b, '{');
}

void jbuf_end_object(struct jbuf *b)
{
	close_(b, '}');
}

void jbuf_start_array(struct jbuf *b)
{
	open_(b, '[');
}

void jbuf_end_array(struct jbuf *b)
{
	close_(b, ']');
}

static void quoted(struct jbuf *b, const char *s)
{
	put(b, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];

		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			put(b, esc, 2);
		} else if (c < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			puts_(b, esc);
		} else {
			put(b, (const char *)&c, 1);
		}
	}
	put(b, "\"", 1);
}

void jbuf_name(struct jbuf *b, const char *name)
{
	value_start(b);
	quoted(b, name);
	put(b, ":", 1);
	b->after_name = true;
}

void jbuf_string(struct jbuf *b, const char *value)
{
	value_start(b);
	quoted(b, value);
}

void jbuf_uint(struct jbuf *b, uint64_t value)
{
	char num[24];

	value_start(b);
	snprintf(num, sizeof(num), "%" PRIu64, value);
	puts_(b, num);
}

void jbuf_int(struct jbuf *b, int64_t value)
{
	char num[24];

	value_start(b);
	snprintf(num, sizeof(num), "%" PRId64, value);
	puts_(b, num);
}

void jbuf_bool(struct jbuf *b, bool value)
{
	value_start(b);
	puts_(b, value ? "true" : "false");
}

void jbuf_null(struct jbuf *b)
{
	value_start(b);
	puts_(b, "null");
}

void jbuf_string_field(struct jbuf *b, const char *name, const char *value)
{
	jbuf_name(b, name);
	if (value)
		jbuf_string(b, value);
	else
		jbuf_null(b);
}

void jbuf_uint_field(struct jbuf *b, const char *name, uint64_t value)
{
	jbuf_name(b, name);
	jbuf_uint(b, value);
}

void jbuf_int_field(struct jbuf *b, const char *name, int64_t value)
{
	jbuf_name(b, name);
	jbuf_int(b, value);
}

void jbuf_bool_field(struct jbuf *b, const char *name, bool value)
{
	jbuf_name(b, name);
	jbuf_bool(b, value);
}
