// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/json.h"
#include "cmd/json_read.h"

#define JNODE_DEPTH_MAX 64

struct parser {
	const char *p;
	char *msg;
	size_t msglen;
	bool failed;
};

static void fail(struct parser *ps, const char *what)
{
	if (!ps->failed)
		snprintf(ps->msg, ps->msglen, "the reply is not JSON: %s at \"%.16s\"", what,
			 ps->p);
	ps->failed = true;
}

static void skip_space(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

static char *parse_string(struct parser *ps)
{
	size_t cap = 16, len = 0;
	char *out = malloc(cap);

	if (!out || *ps->p != '"') {
		free(out);
		fail(ps, "expected a string");
		return NULL;
	}
	ps->p++;
	while (*ps->p && *ps->p != '"') {
		char c = *ps->p++;

		if (c == '\\') {
			char e = *ps->p++;

			switch (e) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'r':
				c = '\r';
				break;
			case 'b':
				c = '\b';
				break;
			case 'f':
				c = '\f';
				break;
			case 'u': {
				char hex[5] = { 0 };
				unsigned long v;

				memcpy(hex, ps->p, strnlen(ps->p, 4));
				if (strlen(hex) != 4 ||
				    strspn(hex, "0123456789abcdefABCDEF") != 4) {
					free(out);
					fail(ps, "a bad \\u escape");
					return NULL;
				}
				v = strtoul(hex, NULL, 16);
				ps->p += 4;
				/* The daemon escapes control bytes only. */
				c = v < 0x80 ? (char)v : '?';
				break;
			}
			case '"':
			case '\\':
			case '/':
				c = e;
				break;
			default:
				free(out);
				fail(ps, "a bad escape");
				return NULL;
			}
		}
		if (len + 2 > cap) {
			char *n = realloc(out, cap *= 2);

			if (!n) {
				free(out);
				fail(ps, "out of memory");
				return NULL;
			}
			out = n;
		}
		out[len++] = c;
	}
	if (*ps->p != '"') {
		free(out);
		fail(ps, "an unterminated string");
		return NULL;
	}
	ps->p++;
	out[len] = '\0';
	return out;
}

static struct jnode *parse_value(struct parser *ps, int depth);

static struct jnode *parse_members(struct parser *ps, struct jnode *n, char close, int depth)
{
	struct jnode **tail = &n->child;

	ps->p++;
	skip_space(ps);
	if (*ps->p == close) {
		ps->p++;
		return n;
	}
	for (;;) {
		char *key = NULL;
		struct jnode *v;

		skip_space(ps);
		if (close == '}') {
			key = parse_string(ps);
			if (!key)
				return NULL;
			skip_space(ps);
			if (*ps->p != ':') {
				free(key);
				fail(ps, "expected ':'");
				return NULL;
			}
			ps->p++;
		}
		v = parse_value(ps, depth + 1);
		if (!v) {
			free(key);
			return NULL;
		}
		v->key = key;
		*tail = v;
		tail = &v->next;
		skip_space(ps);
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p == close) {
			ps->p++;
			return n;
		}
		fail(ps, "expected ',' or the end");
		return NULL;
	}
}

static struct jnode *parse_value(struct parser *ps, int depth)
{
	struct jnode *n;

	if (depth > JNODE_DEPTH_MAX) {
		fail(ps, "nested too deep");
		return NULL;
	}
	skip_space(ps);
	n = calloc(1, sizeof(*n));
	if (!n) {
		fail(ps, "out of memory");
		return NULL;
	}
	if (*ps->p == '{' || *ps->p == '[') {
		n->type = *ps->p == '{' ? JNODE_OBJECT : JNODE_ARRAY;
		if (!parse_members(ps, n, *ps->p == '{' ? '}' : ']', depth)) {
			jnode_free(n);
			return NULL;
		}
	} else if (*ps->p == '"') {
		n->type = JNODE_STRING;
		n->text = parse_string(ps);
		if (!n->text) {
			free(n);
			return NULL;
		}
	} else if (!strncmp(ps->p, "true", 4) || !strncmp(ps->p, "false", 5)) {
		n->type = JNODE_BOOL;
		n->boolean = *ps->p == 't';
		ps->p += n->boolean ? 4 : 5;
	} else if (!strncmp(ps->p, "null", 4)) {
		n->type = JNODE_NULL;
		ps->p += 4;
	} else {
		size_t len = strspn(ps->p, "-+0123456789.eE");

		if (!len) {
			free(n);
			fail(ps, "expected a value");
			return NULL;
		}
		n->type = JNODE_NUMBER;
		n->text = strndup(ps->p, len);
		ps->p += len;
		if (!n->text) {
			free(n);
			fail(ps, "out of memory");
			return NULL;
		}
	}
	return n;
}

struct jnode *jnode_parse(const char *text, char *msg, size_t msglen)
{
	struct parser ps = { .p = text, .msg = msg, .msglen = msglen };
	struct jnode *n = parse_value(&ps, 0);

	if (!n)
		return NULL;
	skip_space(&ps);
	if (*ps.p) {
		fail(&ps, "text after the value");
		jnode_free(n);
		return NULL;
	}
	return n;
}

void jnode_free(struct jnode *n)
{
	while (n) {
		struct jnode *next = n->next;

		jnode_free(n->child);
		free(n->key);
		free(n->text);
		free(n);
		n = next;
	}
}

const struct jnode *jnode_get(const struct jnode *obj, const char *key)
{
	if (!obj || obj->type != JNODE_OBJECT)
		return NULL;
	for (const struct jnode *c = obj->child; c; c = c->next)
		if (c->key && !strcmp(c->key, key))
			return c;
	return NULL;
}

static void emit(const struct jnode *n, struct json_writer *w)
{
	if (n->key)
		json_name(w, n->key);
	switch (n->type) {
	case JNODE_NULL:
		json_null(w);
		break;
	case JNODE_BOOL:
		json_bool(w, n->boolean);
		break;
	case JNODE_NUMBER:
		if (n->text[0] == '-')
			json_int(w, strtoll(n->text, NULL, 10));
		else
			json_uint(w, strtoull(n->text, NULL, 10));
		break;
	case JNODE_STRING:
		json_string(w, n->text);
		break;
	case JNODE_ARRAY:
	case JNODE_OBJECT:
		if (n->type == JNODE_ARRAY)
			json_start_array(w);
		else
			json_start_object(w);
		for (const struct jnode *c = n->child; c; c = c->next)
			emit(c, w);
		if (n->type == JNODE_ARRAY)
			json_end_array(w);
		else
			json_end_object(w);
		break;
	}
}

void jnode_print_json(const struct jnode *n, FILE *out, bool pretty)
{
	struct json_writer *w = json_new(out, pretty);

	if (!w)
		return;
	emit(n, w);
	json_destroy(w);
}

static bool scalar(const struct jnode *n)
{
	return n->type != JNODE_ARRAY && n->type != JNODE_OBJECT;
}

static void print_scalar(const struct jnode *n, FILE *out)
{
	switch (n->type) {
	case JNODE_NULL:
		fputs("-", out);
		break;
	case JNODE_BOOL:
		fputs(n->boolean ? "yes" : "no", out);
		break;
	default:
		fputs(n->text, out);
	}
}

static void print_fields(const struct jnode *obj, FILE *out, int indent);

/* One object on one line (its scalars), what nests in it below. */
static void print_row(const struct jnode *obj, FILE *out, int indent)
{
	bool any = false, nested = false;

	fprintf(out, "%*s", indent, "");
	for (const struct jnode *c = obj->child; c; c = c->next) {
		if (!scalar(c)) {
			nested = true;
			continue;
		}
		fprintf(out, "%s%s ", any ? "  " : "", c->key);
		print_scalar(c, out);
		any = true;
	}
	fputc('\n', out);
	if (!nested)
		return;
	for (const struct jnode *c = obj->child; c; c = c->next) {
		if (scalar(c))
			continue;
		if (c->type == JNODE_OBJECT && !c->child)
			continue;
		fprintf(out, "%*s%s:\n", indent + 4, "", c->key);
		if (c->type == JNODE_OBJECT)
			print_fields(c, out, indent + 6);
		else
			for (const struct jnode *e = c->child; e; e = e->next)
				if (e->type == JNODE_OBJECT)
					print_row(e, out, indent + 6);
				else
					fprintf(out, "%*s", indent + 6, ""), print_scalar(e, out),
						fputc('\n', out);
	}
}

static void print_fields(const struct jnode *obj, FILE *out, int indent)
{
	for (const struct jnode *c = obj->child; c; c = c->next) {
		if (scalar(c)) {
			fprintf(out, "%*s%-16s ", indent, "", c->key);
			print_scalar(c, out);
			fputc('\n', out);
		} else if (c->type == JNODE_OBJECT) {
			fprintf(out, "%*s%s:\n", indent, "", c->key);
			print_fields(c, out, indent + 2);
		} else if (!c->child) {
			fprintf(out, "%*s%-16s (none)\n", indent, "", c->key);
		} else {
			fprintf(out, "%*s%s:\n", indent, "", c->key);
			for (const struct jnode *e = c->child; e; e = e->next) {
				if (e->type == JNODE_OBJECT) {
					print_row(e, out, indent + 2);
				} else {
					fprintf(out, "%*s", indent + 2, "");
					print_scalar(e, out);
					fputc('\n', out);
				}
			}
		}
	}
}

void jnode_print_text(const struct jnode *n, FILE *out)
{
	if (n->type == JNODE_OBJECT)
		print_fields(n, out, 0);
	else if (n->type == JNODE_ARRAY)
		for (const struct jnode *e = n->child; e; e = e->next)
			e->type == JNODE_OBJECT ? print_row(e, out, 0)
						: (print_scalar(e, out), fputc('\n', out));
	else
		print_scalar(n, out), fputc('\n', out);
}
