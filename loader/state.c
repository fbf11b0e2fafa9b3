// SPDX-License-Identifier: GPL-2.0
/*
 * The --maps file: a small JSON reader (RFC 8259, without \u escapes
 * beyond ASCII, which keys, hex and addresses never need) into a tree,
 * then the tree into map entries and SAs.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <bpf/btf.h>
#include <linux/bpf.h>

#include "loader/object.h"
#include "loader/object_internal.h"
#include "base/hex.h"
#include "loader/state.h"
#include "base/file.h"

#define JSON_DEPTH_MAX 32

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	bool boolean;
	bool integer;  /* a non-negative integer that fits number */
	bool negative; /* a negative integer whose magnitude fits number */
	uint64_t number;
	char *string;
	struct json *items; /* array items or object values */
	char **names;	    /* object member names */
	size_t count;
	unsigned int line, col;
};

struct parser {
	const char *p, *end, *line_start;
	unsigned int line;
	const char *name;
	char *msg;
	size_t msglen;
};

static int say(char *msg, size_t msglen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int say(char *msg, size_t msglen, const char *fmt, ...)
{
	va_list ap;

	if (msglen) {
		va_start(ap, fmt);
		vsnprintf(msg, msglen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int syntax(struct parser *ps, const char *what)
{
	return say(ps->msg, ps->msglen, "%s:%u:%u: %s", ps->name, ps->line,
		   (unsigned int)(ps->p - ps->line_start) + 1, what);
}

static void json_free(struct json *j)
{
	for (size_t i = 0; i < j->count; i++) {
		json_free(&j->items[i]);
		if (j->names)
			free(j->names[i]);
	}
	free(j->items);
	free(j->names);
	free(j->string);
	memset(j, 0, sizeof(*j));
}

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end && isspace((unsigned char)*ps->p)) {
		if (*ps->p == '\n') {
			ps->line++;
			ps->line_start = ps->p + 1;
		}
		ps->p++;
	}
}

static int parse_value(struct parser *ps, struct json *out, int depth);

static int parse_string(struct parser *ps, char **out)
{
	size_t cap = 16, len = 0;
	char *s;

	ps->p++; /* the opening quote */
	s = malloc(cap);
	if (!s)
		return -ENOMEM;
	for (;;) {
		char c;

		if (ps->p >= ps->end || *ps->p == '\n') {
			free(s);
			return syntax(ps, "unterminated string");
		}
		c = *ps->p++;
		if (c == '"')
			break;
		if ((unsigned char)c < 0x20) {
			free(s);
			ps->p--;
			return syntax(ps, "control character in a string");
		}
		if (c == '\\') {
			if (ps->p >= ps->end) {
				free(s);
				return syntax(ps, "unterminated string");
			}
			c = *ps->p++;
			switch (c) {
			case '"':
			case '\\':
			case '/':
				break;
			case 'b':
				c = '\b';
				break;
			case 'f':
				c = '\f';
				break;
			case 'n':
				c = '\n';
				break;
			case 'r':
				c = '\r';
				break;
			case 't':
				c = '\t';
				break;
			default:
				free(s);
				ps->p -= 2;
				return syntax(ps, "unsupported escape in a string");
			}
		}
		if (len + 2 > cap) {
			char *n = realloc(s, cap *= 2);

			if (!n) {
				free(s);
				return -ENOMEM;
			}
			s = n;
		}
		s[len++] = c;
	}
	s[len] = '\0';
	*out = s;
	return 0;
}

static int parse_number(struct parser *ps, struct json *out)
{
	const char *start = ps->p;
	bool digits_only = true;
	uint64_t v = 0;

	if (ps->p < ps->end && *ps->p == '-') {
		digits_only = false;
		ps->p++;
	}
	while (ps->p < ps->end && (isdigit((unsigned char)*ps->p) || strchr(".eE+-", *ps->p))) {
		if (!isdigit((unsigned char)*ps->p))
			digits_only = false;
		ps->p++;
	}
	if (ps->p == start || (ps->p - start > 1 && *start == '0' && digits_only)) {
		ps->p = start;
		return syntax(ps, "bad number");
	}
	out->type = JSON_NUMBER;
	/* a negative integer: "-" and digits, as bpftool prints a signed field */
	if (!digits_only && *start == '-' && ps->p - start > 1) {
		out->negative = true;
		for (const char *c = start + 1; c < ps->p; c++)
			out->negative &= isdigit((unsigned char)*c) != 0;
	}
	out->integer = digits_only;
	for (const char *c = start + out->negative; (digits_only || out->negative) && c < ps->p;
	     c++) {
		if (v > (UINT64_MAX - (uint64_t)(*c - '0')) / 10) {
			out->integer = out->negative = false;
			break;
		}
		v = v * 10 + (uint64_t)(*c - '0');
	}
	out->number = v;
	return 0;
}

static int grow(struct json *j, bool named)
{
	struct json *items = realloc(j->items, (j->count + 1) * sizeof(*items));

	if (!items)
		return -ENOMEM;
	j->items = items;
	memset(&items[j->count], 0, sizeof(*items));
	if (named) {
		char **names = realloc(j->names, (j->count + 1) * sizeof(*names));

		if (!names)
			return -ENOMEM;
		j->names = names;
		names[j->count] = NULL;
	}
	return 0;
}

static int parse_container(struct parser *ps, struct json *out, int depth, bool object)
{
	char close = object ? '}' : ']';
	int err;

	out->type = object ? JSON_OBJECT : JSON_ARRAY;
	ps->p++;
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		char *name = NULL;

		skip_space(ps);
		if (object) {
			if (ps->p >= ps->end || *ps->p != '"')
				return syntax(ps, "expected a member name in quotes");
			err = parse_string(ps, &name);
			if (err)
				return err;
			for (size_t i = 0; i < out->count; i++) {
				if (!strcmp(out->names[i], name)) {
					free(name);
					return syntax(ps, "member named twice");
				}
			}
			skip_space(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				free(name);
				return syntax(ps, "expected ':'");
			}
			ps->p++;
		}
		err = grow(out, object);
		if (err) {
			free(name);
			return err;
		}
		if (object)
			out->names[out->count] = name;
		out->count++;
		err = parse_value(ps, &out->items[out->count - 1], depth + 1);
		if (err)
			return err;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return 0;
		}
		return syntax(ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int parse_value(struct parser *ps, struct json *out, int depth)
{
	static const struct {
		const char *word;
		enum json_type type;
		bool value;
	} words[] = { { "true", JSON_BOOL, true },
		      { "false", JSON_BOOL, false },
		      { "null", JSON_NULL, false } };

	skip_space(ps);
	out->line = ps->line;
	out->col = (unsigned int)(ps->p - ps->line_start) + 1;
	if (depth > JSON_DEPTH_MAX)
		return syntax(ps, "nested too deep");
	if (ps->p >= ps->end)
		return syntax(ps, "unexpected end of file");
	switch (*ps->p) {
	case '{':
		return parse_container(ps, out, depth, true);
	case '[':
		return parse_container(ps, out, depth, false);
	case '"':
		out->type = JSON_STRING;
		return parse_string(ps, &out->string);
	}
	if (*ps->p == '-' || isdigit((unsigned char)*ps->p))
		return parse_number(ps, out);
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t n = strlen(words[i].word);

		if ((size_t)(ps->end - ps->p) >= n && !strncmp(ps->p, words[i].word, n)) {
			ps->p += n;
			out->type = words[i].type;
			out->boolean = words[i].value;
			return 0;
		}
	}
	return syntax(ps, "expected a value");
}

static int json_parse(const char *text, size_t len, const char *name, struct json *out, char *msg,
		      size_t msglen)
{
	struct parser ps = {
		.p = text,
		.end = text + len,
		.line_start = text,
		.line = 1,
		.name = name,
		.msg = msg,
		.msglen = msglen,
	};
	int err;

	memset(out, 0, sizeof(*out));
	err = parse_value(&ps, out, 0);
	if (!err) {
		skip_space(&ps);
		if (ps.p != ps.end)
			err = syntax(&ps, "text after the document");
	}
	if (err)
		json_free(out);
	return err;
}

static const struct json *member(const struct json *obj, const char *name)
{
	for (size_t i = 0; i < obj->count; i++)
		if (!strcmp(obj->names[i], name))
			return &obj->items[i];
	return NULL;
}

/* Refuses members not in allowed (NULL-terminated). */
static int only_members(const struct json *obj, const char *const *allowed, const char *name,
			const char *where, char *msg, size_t msglen)
{
	for (size_t i = 0; i < obj->count; i++) {
		const char *const *a;

		for (a = allowed; *a && strcmp(*a, obj->names[i]); a++)
			;
		if (!*a)
			return say(msg, msglen, "%s:%u:%u: %s: unknown member \"%s\"", name,
				   obj->items[i].line, obj->items[i].col, where, obj->names[i]);
	}
	return 0;
}

/* "0x0a": one byte as bpftool prints it in a key or value list. */
static bool is_hex_byte(const struct json *j)
{
	const char *s = j->string;

	return j->type == JSON_STRING && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	       isxdigit((unsigned char)s[2]) && (!s[3] || (isxdigit((unsigned char)s[3]) && !s[4]));
}

/* bpftool's list of bytes, ["0x0a", "0x00", ...]; false for any other array. */
static bool is_hex_list(const struct json *j)
{
	if (j->type != JSON_ARRAY || !j->count)
		return false;
	for (size_t i = 0; i < j->count; i++)
		if (!is_hex_byte(&j->items[i]))
			return false;
	return true;
}

static int datum(const struct json *j, struct hx_state_datum *d, const char *name,
		 const char *where, const char *what, char *msg, size_t msglen)
{
	char why[128];
	int err;

	if (j->type == JSON_NUMBER && j->integer) {
		d->is_number = true;
		d->number = j->number;
		return 0;
	}
	if (is_hex_list(j)) {
		d->bytes = malloc(j->count);
		if (!d->bytes)
			return -ENOMEM;
		for (size_t i = 0; i < j->count; i++)
			d->bytes[i] = (uint8_t)strtoul(j->items[i].string, NULL, 16);
		d->len = j->count;
		return 0;
	}
	/* Fields by name, as bpftool's "formatted" has them: encoded by the
	 * map's BTF when the state is applied (the tree lives with the state). */
	if (j->type == JSON_OBJECT || j->type == JSON_ARRAY || j->type == JSON_BOOL ||
	    (j->type == JSON_NUMBER && j->negative)) {
		d->typed = j;
		return 0;
	}
	if (j->type != JSON_STRING)
		return say(msg, msglen,
			   "%s:%u:%u: %s.%s: expected a string of hex bytes, a list of them as "
			   "bpftool prints, a non-negative integer or fields by name",
			   name, j->line, j->col, where, what);
	err = hx_hex_parse(j->string, &d->bytes, &d->len, why, sizeof(why));
	if (err == -EINVAL)
		return say(msg, msglen, "%s:%u:%u: %s.%s: \"%s\" is not hex bytes: %s", name,
			   j->line, j->col, where, what, j->string, why);
	return err;
}

static int add_entry(struct hx_state *state, const char *map, const struct json *e, size_t index,
		     const char *name, char *msg, size_t msglen)
{
	static const char *const allowed[] = { "key", "value", "formatted", "prog", NULL };
	static const char *const allowed_formatted[] = { "key", "value", NULL };
	struct hx_state_entry *entries, *ent;
	const struct json *key, *value, *formatted, *prog;
	char where[128], *at;
	int err;

	snprintf(where, sizeof(where), "maps.%s[%zu]", map, index);
	if (e->type != JSON_OBJECT)
		return say(msg, msglen, "%s:%u:%u: %s: expected {\"key\": ..., \"value\": ...}",
			   name, e->line, e->col, where);
	if (member(e, "values"))
		return say(msg, msglen,
			   "%s:%u:%u: %s: per-CPU \"values\" are not supported (one value per "
			   "key)",
			   name, e->line, e->col, where);
	err = only_members(e, allowed, name, where, msg, msglen);
	if (err)
		return err;
	key = member(e, "key");
	value = member(e, "value");
	/* bpftool -j prints the bytes and, with BTF, "formatted": the same
	 * entry by field names. The bytes are the entry; "formatted" stands in
	 * for what is not given as bytes. */
	formatted = member(e, "formatted");
	if (formatted) {
		char in[160];

		snprintf(in, sizeof(in), "%s.formatted", where);
		if (formatted->type != JSON_OBJECT)
			return say(msg, msglen, "%s:%u:%u: %s: expected an object", name,
				   formatted->line, formatted->col, in);
		err = only_members(formatted, allowed_formatted, name, in, msg, msglen);
		if (err)
			return err;
		key = key ?: member(formatted, "key");
		value = value ?: member(formatted, "value");
	}
	if (!key || !value)
		return say(msg, msglen, "%s:%u:%u: %s: needs both \"key\" and \"value\"", name,
			   e->line, e->col, where);
	prog = member(e, "prog");
	if (prog && (prog->type != JSON_STRING || !prog->string[0]))
		return say(msg, msglen, "%s:%u:%u: %s.prog: expected a program's name", name,
			   prog->line, prog->col, where);
	entries = realloc(state->entries, (state->entry_cnt + 1) * sizeof(*entries));
	if (!entries)
		return -ENOMEM;
	state->entries = entries;
	ent = &entries[state->entry_cnt];
	memset(ent, 0, sizeof(*ent));
	ent->map = strdup(map);
	/* Where it was written, for messages once the file is gone. */
	if (asprintf(&at, "%s:%u:%u: %s", name, e->line, e->col, where) < 0)
		at = NULL;
	ent->where = at;
	ent->prog = prog ? strdup(prog->string) : NULL;
	state->entry_cnt++;
	if (!ent->map || !ent->where || (prog && !ent->prog))
		return -ENOMEM;
	err = datum(key, &ent->key, name, where, "key", msg, msglen);
	if (!err)
		err = datum(value, &ent->value, name, where, "value", msg, msglen);
	return err;
}

static int add_sa(struct hx_state *state, const struct hx_state_sa *sa)
{
	struct hx_state_sa *sas = realloc(state->sas, (state->sa_cnt + 1) * sizeof(*sas));

	if (!sas)
		return -ENOMEM;
	state->sas = sas;
	for (size_t i = 0; i < state->sa_cnt; i++)
		if (sas[i].handle == sa->handle)
			return -EEXIST;
	sas[state->sa_cnt++] = *sa;
	return 0;
}

/* The checks an SA's parts get however they were written. */
static const char *sa_fill(struct hx_state_sa *sa, const char *handle, const char *spi,
			   const char *key, const char *salt, const char *src, const char *dst)
{
	unsigned long long v;
	uint8_t *bytes;
	size_t len;
	char *end;

	errno = 0;
	v = strtoull(handle, &end, 0);
	if (!*handle || *end || errno || v >= 4096)
		return "the handle is not a number below 4096";
	sa->handle = (uint32_t)v;
	errno = 0;
	v = strtoull(spi, &end, 0);
	if (!*spi || *end || errno || !v || v > UINT32_MAX)
		return "the SPI is not a number from 1 to 0xffffffff";
	sa->spi = (uint32_t)v;
	if (hx_hex_parse(key, &bytes, &len, NULL, 0))
		return "the key is not hex bytes";
	if (len != 16 && len != 24 && len != 32) {
		free(bytes);
		return "the key is not 16, 24 or 32 bytes (AES-128, -192, -256)";
	}
	memcpy(sa->key, bytes, len);
	sa->key_len = len;
	free(bytes);
	if (hx_hex_parse(salt, &bytes, &len, NULL, 0))
		return "the salt is not hex bytes";
	if (len != 4) {
		free(bytes);
		return "the salt is not 4 bytes (RFC 4106)";
	}
	memcpy(sa->salt, bytes, 4);
	free(bytes);
	if (inet_pton(AF_INET, src, &sa->src_be) != 1)
		return "the tunnel source is not an IPv4 address";
	if (inet_pton(AF_INET, dst, &sa->dst_be) != 1)
		return "the tunnel destination is not an IPv4 address";
	return NULL;
}

static int parse_sas(struct hx_state *state, const struct json *sas, const char *name, char *msg,
		     size_t msglen)
{
	static const char *const allowed[] = { "handle", "spi", "key", "salt", "src", "dst", NULL };
	static const char *const fields[] = { "handle", "spi", "key", "salt", "src", "dst" };

	if (sas->type != JSON_ARRAY)
		return say(msg, msglen, "%s:%u:%u: sas: expected an array", name, sas->line,
			   sas->col);
	for (size_t i = 0; i < sas->count; i++) {
		const struct json *s = &sas->items[i];
		char text[6][80], where[32];
		struct hx_state_sa sa = {};
		const char *why;
		int err;

		snprintf(where, sizeof(where), "sas[%zu]", i);
		if (s->type != JSON_OBJECT)
			return say(msg, msglen, "%s:%u:%u: %s: expected an object", name, s->line,
				   s->col, where);
		err = only_members(s, allowed, name, where, msg, msglen);
		if (err)
			return err;
		for (size_t f = 0; f < 6; f++) {
			const struct json *v = member(s, fields[f]);

			if (!v)
				return say(msg, msglen, "%s:%u:%u: %s: \"%s\" is missing", name,
					   s->line, s->col, where, fields[f]);
			if (v->type == JSON_NUMBER && v->integer)
				snprintf(text[f], sizeof(text[f]), "%llu",
					 (unsigned long long)v->number);
			else if (v->type == JSON_STRING && strlen(v->string) < sizeof(text[f]))
				snprintf(text[f], sizeof(text[f]), "%s", v->string);
			else
				return say(msg, msglen,
					   "%s:%u:%u: %s.%s: not a number or a short "
					   "string",
					   name, v->line, v->col, where, fields[f]);
		}
		why = sa_fill(&sa, text[0], text[1], text[2], text[3], text[4], text[5]);
		if (why)
			return say(msg, msglen, "%s:%u:%u: %s: %s", name, s->line, s->col, where,
				   why);
		err = add_sa(state, &sa);
		if (err == -EEXIST)
			return say(msg, msglen, "%s:%u:%u: %s: handle %u given twice", name,
				   s->line, s->col, where, sa.handle);
		if (err)
			return err;
	}
	return 0;
}

static int add_map_name(struct hx_state *state, const char *map, const struct json *list,
			const char *name)
{
	struct hx_state_map *more, *m;

	for (size_t i = 0; i < state->map_cnt; i++)
		if (!strcmp(state->maps[i].name, map))
			return 0;
	more = realloc(state->maps, (state->map_cnt + 1) * sizeof(*more));
	if (!more)
		return -ENOMEM;
	state->maps = more;
	m = &state->maps[state->map_cnt++];
	m->name = strdup(map);
	if (asprintf(&m->where, "%s:%u:%u: maps.%s", name, list->line, list->col, map) < 0)
		m->where = NULL;
	return m->name && m->where ? 0 : -ENOMEM;
}

/*
 * The path as messages name it: whole when it leaves room in msglen bytes
 * for the reason after it, else its start and end around "...", so that
 * the reason is never what is cut.
 */
#define REASON_ROOM 320

static const char *short_path(const char *path, size_t msglen, char *buf, size_t buflen)
{
	size_t len = strlen(path), keep, head;

	if (msglen <= REASON_ROOM + 16 || len + REASON_ROOM < msglen)
		return path;
	keep = msglen - REASON_ROOM;
	if (keep + 4 > buflen)
		keep = buflen - 4;
	head = keep / 3;
	snprintf(buf, buflen, "%.*s...%s", (int)head, path, path + len - (keep - head));
	return buf;
}

struct hx_state *hx_state__new(void)
{
	return calloc(1, sizeof(struct hx_state));
}

int hx_state__parse(struct hx_state *state, const char *text, size_t len, const char *name,
		    char *msg, size_t msglen)
{
	static const char *const allowed[] = { "maps", "sas", NULL };
	const struct json *maps, *sas;
	struct json *doc, **docs;
	int err;

	/* The tree stays with the state: typed keys and values point into it. */
	docs = realloc(state->docs, (state->doc_cnt + 1) * sizeof(*docs));
	if (docs)
		state->docs = (void **)docs;
	doc = docs ? calloc(1, sizeof(*doc)) : NULL;
	if (!doc) {
		say(msg, msglen, "%s: out of memory", name);
		return -ENOMEM;
	}
	err = json_parse(text, len, name, doc, msg, msglen);
	if (err) {
		free(doc);
		return err;
	}
	docs[state->doc_cnt++] = doc;
	if (doc->type != JSON_OBJECT) {
		err = say(msg, msglen, "%s: expected an object {\"maps\": {...}}", name);
		goto out;
	}
	err = only_members(doc, allowed, name, "the document", msg, msglen);
	if (err)
		goto out;
	maps = member(doc, "maps");
	if (maps && maps->type != JSON_OBJECT) {
		err = say(msg, msglen, "%s:%u:%u: maps: expected an object of map names", name,
			  maps->line, maps->col);
		goto out;
	}
	for (size_t m = 0; maps && m < maps->count; m++) {
		const struct json *list = &maps->items[m];

		err = add_map_name(state, maps->names[m], list, name);
		if (err)
			goto out;
		if (list->type != JSON_ARRAY) {
			err = say(msg, msglen, "%s:%u:%u: maps.%s: expected an array of entries",
				  name, list->line, list->col, maps->names[m]);
			goto out;
		}
		for (size_t i = 0; i < list->count; i++) {
			err = add_entry(state, maps->names[m], &list->items[i], i, name, msg,
					msglen);
			if (err)
				goto out;
		}
	}
	sas = member(doc, "sas");
	if (sas)
		err = parse_sas(state, sas, name, msg, msglen);
out:
	if (err == -ENOMEM)
		say(msg, msglen, "%s: out of memory", name);
	return err;
}

int hx_state__load(struct hx_state *state, const char *path, char *msg, size_t msglen)
{
	char shortened[1024];
	const char *name = short_path(path, msglen, shortened, sizeof(shortened));
	struct stat st;
	void *text;
	size_t len;
	int err;

	/* named before the read, which would only say it is no regular file */
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		say(msg, msglen, "%s: is a directory, not a state file", name);
		return -EISDIR;
	}
	err = hwxdp_file__read(path, "state files", HWXDP_FILE_STATE_MAX, &text, &len, msg, msglen);
	if (err)
		return err;
	err = hx_state__parse(state, text, len, name, msg, msglen);
	free(text);
	return err;
}

int hx_state__add_sa_text(struct hx_state *state, const char *text, char *msg, size_t msglen)
{
	char *copy = strdup(text), *part[6], *save = NULL, *s;
	struct hx_state_sa sa = {};
	const char *why;
	int n = 0, err;

	if (!copy)
		return -ENOMEM;
	for (s = strtok_r(copy, ":", &save); s && n < 6; s = strtok_r(NULL, ":", &save))
		part[n++] = s;
	if (n != 6 || s) {
		free(copy);
		return say(msg, msglen, "--sa %s: expected HANDLE:SPI:KEYHEX:SALTHEX:SRC:DST",
			   text);
	}
	why = sa_fill(&sa, part[0], part[1], part[2], part[3], part[4], part[5]);
	free(copy);
	if (why)
		return say(msg, msglen, "--sa %s: %s", text, why);
	err = add_sa(state, &sa);
	if (err == -EEXIST)
		return say(msg, msglen, "--sa %s: SA handle %u is given twice", text, sa.handle);
	return err;
}

void hx_state__free(struct hx_state *state)
{
	if (!state)
		return;
	for (size_t i = 0; i < state->entry_cnt; i++) {
		free(state->entries[i].map);
		free(state->entries[i].where);
		free(state->entries[i].prog);
		free(state->entries[i].key.bytes);
		free(state->entries[i].value.bytes);
	}
	free(state->entries);
	for (size_t i = 0; i < state->map_cnt; i++) {
		free(state->maps[i].name);
		free(state->maps[i].where);
	}
	free(state->maps);
	for (size_t i = 0; i < state->doc_cnt; i++) {
		json_free(state->docs[i]);
		free(state->docs[i]);
	}
	free(state->docs);
	/* Key material does not outlive the state. */
	if (state->sas)
		explicit_bzero(state->sas, state->sa_cnt * sizeof(*state->sas));
	free(state->sas);
	free(state);
}

int hx_state_datum__encode(const struct hx_state_datum *d, size_t size, uint8_t *out)
{
	if (!d->is_number) {
		if (d->len != size)
			return -EINVAL;
		memcpy(out, d->bytes, size);
		return 0;
	}
	switch (size) {
	case 1: {
		uint8_t v = (uint8_t)d->number;

		if (v != d->number)
			return -EINVAL;
		memcpy(out, &v, 1);
		return 0;
	}
	case 2: {
		uint16_t v = (uint16_t)d->number;

		if (v != d->number)
			return -EINVAL;
		memcpy(out, &v, 2);
		return 0;
	}
	case 4: {
		uint32_t v = (uint32_t)d->number;

		if (v != d->number)
			return -EINVAL;
		memcpy(out, &v, 4);
		return 0;
	}
	case 8:
		memcpy(out, &d->number, 8);
		return 0;
	}
	return -EINVAL;
}

static const struct hwxdp_map_desc *map_by_name(const struct hwxdp_object *obj, const char *name)
{
	for (size_t i = 0; i < obj->map_cnt; i++)
		if (!strcmp(obj->maps[i].name, name))
			return &obj->maps[i];
	return NULL;
}

/* The program has no map of that name: which ones it has. */
static int no_map(const struct hwxdp_object *obj, const char *where, const char *name, char *msg,
		  size_t msglen)
{
	size_t n = 0;

	if (!msglen)
		return -ENOENT;
	n += (size_t)snprintf(msg, msglen, "%s: the program has no map \"%s\" (maps:", where, name);
	for (size_t j = 0; j < obj->map_cnt && n < msglen; j++)
		n += (size_t)snprintf(msg + n, msglen - n, " %s", obj->maps[j].name);
	if (n < msglen)
		snprintf(msg + n, msglen - n, ")");
	return -ENOENT;
}

/* Maps whose keys are indexes below max_entries. */
static bool is_array(const struct hwxdp_map_desc *m)
{
	switch (m->type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_CPUMAP:
	case BPF_MAP_TYPE_XSKMAP:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
		return true;
	default:
		return false;
	}
}

static int encode_error(const struct hx_state_entry *e, const struct hx_state_datum *d,
			const char *what, size_t size, char *msg, size_t msglen)
{
	if (d->is_number)
		return say(msg, msglen, "%s.%s: the number %llu does not fit map %s's %zu-byte %s",
			   e->where, what, (unsigned long long)d->number, e->map, size, what);
	return say(msg, msglen, "%s.%s: %zu bytes, but map %s's %s is %zu bytes", e->where, what,
		   d->len, e->map, what, size);
}

/*
 * Fields by name into bytes, by the map's BTF, the way bpftool prints them
 * in "formatted": a struct or union as an object of its members (those not
 * named are 0), an array as a list (a char array also as a string), an
 * integer or a pointer as a number, a bool as true or false, an enum as
 * its number or an enumerator's name. Host byte order, as in the map.
 */
struct typed {
	const struct btf *btf;
	const struct hx_state_entry *entry;
	const char *what; /* "key" or "value" */
	char *msg;
	size_t msglen;
};

static int typed_error(const struct typed *c, const struct json *j, const char *path,
		       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int typed_error(const struct typed *c, const struct json *j, const char *path,
		       const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return say(c->msg, c->msglen, "%s.%s%s (line %u, column %u): %s", c->entry->where, c->what,
		   path, j->line, j->col, why);
}

/* Writes the low bits of v at bit offset off of out (little-endian bit
 * order, as BTF numbers the bits of a bitfield on this host). */
static void put_bits(uint8_t *out, uint32_t off, uint32_t bits, uint64_t v)
{
	for (uint32_t i = 0; i < bits; i++) {
		uint32_t b = off + i;

		out[b / 8] =
			(uint8_t)((out[b / 8] & ~(1u << (b % 8))) | (((v >> i) & 1u) << (b % 8)));
	}
}

static int encode_number(const struct typed *c, const struct json *j, const char *path,
			 bool is_signed, uint32_t bits, uint8_t *out, uint32_t bit_off)
{
	uint64_t v;

	if (j->type == JSON_BOOL) {
		v = j->boolean;
	} else if (j->type == JSON_NUMBER && j->integer) {
		v = j->number;
		if ((bits < 64 && v >> (bits - (is_signed ? 1 : 0))) ||
		    (bits == 64 && is_signed && v >> 63))
			return typed_error(c, j, path, "%llu does not fit %u %s bits",
					   (unsigned long long)v, bits,
					   is_signed ? "signed" : "unsigned");
	} else if (j->type == JSON_NUMBER && j->negative) {
		if (!is_signed || j->number > (uint64_t)1 << (bits - 1))
			return typed_error(c, j, path, "-%llu does not fit %u %s bits",
					   (unsigned long long)j->number, bits,
					   is_signed ? "signed" : "unsigned");
		v = (uint64_t)0 - j->number;
	} else {
		return typed_error(c, j, path, "expected a whole number");
	}
	put_bits(out, bit_off, bits, v);
	return 0;
}

static int encode_typed(const struct typed *c, uint32_t id, const struct json *j, char *path,
			size_t pathlen, uint8_t *out, uint32_t bit_off, uint32_t bitfield);

static int encode_members(const struct typed *c, const struct btf_type *t, const struct json *j,
			  char *path, size_t pathlen, uint8_t *out, uint32_t bit_off)
{
	size_t at = strlen(path);
	int err;

	if (j->type != JSON_OBJECT)
		return typed_error(c, j, path, "expected an object of %s members",
				   btf_is_union(t) ? "union" : "struct");
	for (size_t i = 0; i < j->count; i++) {
		const struct btf_member *m = btf_members(t);
		uint16_t k, n = btf_vlen(t);

		for (k = 0; k < n; k++, m++)
			if (!strcmp(btf__name_by_offset(c->btf, m->name_off), j->names[i]))
				break;
		snprintf(path + at, pathlen - at, ".%s", j->names[i]);
		if (k == n)
			return typed_error(c, &j->items[i], path, "%s %s has no member \"%s\"",
					   btf_is_union(t) ? "union" : "struct",
					   btf__name_by_offset(c->btf, t->name_off), j->names[i]);
		err = encode_typed(c, m->type, &j->items[i], path, pathlen, out,
				   bit_off + btf_member_bit_offset(t, k),
				   btf_member_bitfield_size(t, k));
		if (err)
			return err;
	}
	path[at] = '\0';
	return 0;
}

static int encode_array(const struct typed *c, const struct btf_type *t, const struct json *j,
			char *path, size_t pathlen, uint8_t *out, uint32_t bit_off)
{
	const struct btf_array *a = btf_array(t);
	long long elem = btf__resolve_size(c->btf, a->type);
	size_t at = strlen(path);
	int err;

	if (elem <= 0)
		return typed_error(c, j, path, "an array of elements of unknown size");
	if (j->type == JSON_STRING && elem == 1) {
		size_t len = strlen(j->string);

		if (len >= a->nelems && len != a->nelems)
			return typed_error(c, j, path, "a string of %zu bytes, the array has %u",
					   len, a->nelems);
		memcpy(out + bit_off / 8, j->string, len);
		return 0;
	}
	if (j->type != JSON_ARRAY || j->count != a->nelems)
		return typed_error(c, j, path, "expected a list of %u elements", a->nelems);
	for (size_t i = 0; i < j->count; i++) {
		snprintf(path + at, pathlen - at, "[%zu]", i);
		err = encode_typed(c, a->type, &j->items[i], path, pathlen, out,
				   bit_off + (uint32_t)(i * (size_t)elem * 8), 0);
		if (err)
			return err;
	}
	path[at] = '\0';
	return 0;
}

static int encode_enum(const struct typed *c, const struct btf_type *t, const struct json *j,
		       const char *path, uint8_t *out, uint32_t bit_off, uint32_t bitfield)
{
	uint32_t bits = bitfield ?: t->size * 8;
	bool is_signed = btf_kflag(t);

	if (j->type == JSON_STRING) {
		for (uint16_t k = 0; k < btf_vlen(t); k++) {
			const char *name;
			uint64_t v;

			if (btf_is_enum(t)) {
				name = btf__name_by_offset(c->btf, btf_enum(t)[k].name_off);
				v = (uint64_t)(int64_t)btf_enum(t)[k].val;
			} else {
				name = btf__name_by_offset(c->btf, btf_enum64(t)[k].name_off);
				v = btf_enum64_value(&btf_enum64(t)[k]);
			}
			if (!strcmp(name, j->string)) {
				put_bits(out, bit_off, bits, v);
				return 0;
			}
		}
		return typed_error(c, j, path, "enum %s has no \"%s\"",
				   btf__name_by_offset(c->btf, t->name_off), j->string);
	}
	return encode_number(c, j, path, is_signed || btf_is_enum(t), bits, out, bit_off);
}

static int encode_typed(const struct typed *c, uint32_t id, const struct json *j, char *path,
			size_t pathlen, uint8_t *out, uint32_t bit_off, uint32_t bitfield)
{
	const struct btf_type *t = btf_skip_links(c->btf, id, &id);

	if (!t)
		return typed_error(c, j, path, "BTF type %u is missing", id);
	if (bit_off % 8 && !bitfield && !btf_is_int(t))
		return typed_error(c, j, path, "a member that does not start on a byte");
	if (btf_is_int(t)) {
		uint8_t enc = btf_int_encoding(t);
		uint32_t bits = bitfield ?: btf_int_bits(t);

		if (bits > 64)
			return typed_error(c, j, path, "a %u-bit integer: write it as bytes", bits);
		return encode_number(c, j, path, enc & BTF_INT_SIGNED, bits, out,
				     bit_off + btf_int_offset(t));
	}
	if (btf_is_ptr(t))
		return encode_number(c, j, path, false, 64, out, bit_off);
	if (btf_is_any_enum(t))
		return encode_enum(c, t, j, path, out, bit_off, bitfield);
	if (btf_is_array(t))
		return encode_array(c, t, j, path, pathlen, out, bit_off);
	if (btf_is_composite(t))
		return encode_members(c, t, j, path, pathlen, out, bit_off);
	return typed_error(c, j, path, "BTF kind %u cannot be written by fields", btf_kind(t));
}

/* d into size bytes at out (zeroed first); a message naming e otherwise. */
static int datum_bytes(const struct hwxdp_object *obj, const struct hwxdp_map_desc *m,
		       const struct hx_state_entry *e, const struct hx_state_datum *d,
		       const char *what, uint8_t *out, size_t size, char *msg, size_t msglen)
{
	uint32_t id = !strcmp(what, "key") ? m->btf_key_type_id : m->btf_value_type_id;
	struct typed c = { obj->btf, e, what, msg, msglen };
	char path[256] = "";
	long long typed_size;

	memset(out, 0, size);
	if (!d->typed)
		return hx_state_datum__encode(d, size, out)
			       ? encode_error(e, d, what, size, msg, msglen)
			       : 0;
	if (!obj->btf || !id)
		return say(msg, msglen,
			   "%s.%s: fields by name need BTF, and map %s's %s has none: write it "
			   "as bytes",
			   e->where, what, e->map, what);
	typed_size = btf__resolve_size(obj->btf, id);
	if (typed_size != (long long)size)
		return say(msg, msglen, "%s.%s: map %s's %s type is %lld bytes, not %zu", e->where,
			   what, e->map, what, typed_size, size);
	return encode_typed(&c, id, d->typed, path, sizeof(path), out, 0, 0);
}

/* An entry's "prog": only in a devmap whose value names a program, and
 * only where the caller can number programs; the number into the value's
 * bpf_prog. */
static int entry_prog(const struct hx_state_entry *e, const struct hwxdp_map_desc *m,
		      hx_state_prog_fn prog, void *ctx, uint8_t *value, char *msg, size_t msglen)
{
	uint32_t number;
	int err;

	if ((m->type != BPF_MAP_TYPE_DEVMAP && m->type != BPF_MAP_TYPE_DEVMAP_HASH) ||
	    m->value_size != 8)
		return say(msg, msglen,
			   "%s.prog: only a devmap of struct bpf_devmap_val names a program, not "
			   "map %s",
			   e->where, e->map);
	if (!prog)
		return say(msg, msglen, "%s.prog: programs are named on the device only", e->where);
	err = prog(ctx, e->prog, &number);
	if (err)
		return say(msg, msglen, "%s.prog: %s: %s", e->where, e->prog,
			   err == -EINVAL ? "not a devmap program (SEC(\"xdp/devmap\"))"
					  : "no such program in the device's image");
	memcpy(value + 4, &number, sizeof(number));
	return 0;
}

int hx_state__apply(const struct hx_state *state, const struct hwxdp_object *obj,
		    hx_state_update_fn update, void *ctx, char *msg, size_t msglen)
{
	return hx_state__apply_progs(state, obj, update, NULL, ctx, msg, msglen);
}

int hx_state__apply_progs(const struct hx_state *state, const struct hwxdp_object *obj,
			  hx_state_update_fn update, hx_state_prog_fn prog, void *ctx, char *msg,
			  size_t msglen)
{
	uint8_t *key = NULL, *value = NULL;
	size_t key_max = 0, value_max = 0;
	int err = 0;

	/* Everything is checked before anything is written. */
	for (size_t i = 0; i < state->map_cnt; i++)
		if (!map_by_name(obj, state->maps[i].name))
			return no_map(obj, state->maps[i].where, state->maps[i].name, msg, msglen);
	for (size_t i = 0; i < state->entry_cnt; i++) {
		const struct hwxdp_map_desc *m = map_by_name(obj, state->entries[i].map);

		if (!m)
			return no_map(obj, state->entries[i].where, state->entries[i].map, msg,
				      msglen);
		if (m->key_size > key_max)
			key_max = m->key_size;
		if (m->value_size > value_max)
			value_max = m->value_size;
	}
	key = calloc(1, key_max + 1);
	value = calloc(1, value_max + 1);
	if (!key || !value) {
		err = -ENOMEM;
		say(msg, msglen, "out of memory");
		goto out;
	}
	/* the first pass only checks, the second writes */
	for (int write = 0; write < 2; write++) {
		for (size_t i = 0; i < state->entry_cnt; i++) {
			const struct hx_state_entry *e = &state->entries[i];
			const struct hwxdp_map_desc *m = map_by_name(obj, e->map);
			uint32_t index = 0;

			err = datum_bytes(obj, m, e, &e->key, "key", key, m->key_size, msg, msglen);
			if (!err)
				err = datum_bytes(obj, m, e, &e->value, "value", value,
						  m->value_size, msg, msglen);
			if (!err && e->prog)
				err = entry_prog(e, m, prog, ctx, value, msg, msglen);
			if (err)
				goto out;
			if (is_array(m) && m->key_size == sizeof(index))
				memcpy(&index, key, sizeof(index));
			if (!write && is_array(m) && m->key_size == sizeof(index) &&
			    index >= m->max_entries) {
				err = say(msg, msglen,
					  "%s.key: key %u is outside array %s of %u entries",
					  e->where, index, e->map, m->max_entries);
				goto out;
			}
			err = write ? update(ctx, e->map, key, value) : 0;
			if (err) {
				say(msg, msglen, "%s: map %s refuses the entry: %s", e->where,
				    e->map, hwxdp_strerror(err < 0 ? err : -err));
				goto out;
			}
		}
	}
out:
	free(key);
	free(value);
	return err;
}
