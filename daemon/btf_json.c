// SPDX-License-Identifier: GPL-2.0
/*
 * Map entries by their BTF, in bpftool's "formatted" JSON (bpftool 7.1, as
 * its output shows it; tests/daemon/test_btf_json.c holds the two side by
 * side). Each type is checked before anything is written, so that an entry
 * either has its whole "formatted" or none: a reply is never left with half
 * a value in it.
 *
 * Where bpftool 7.1 writes no JSON, this writes some (docs/daemon.md,
 * "Maps"): a float (bpftool stops at "(unsupported-kind") is a string of
 * its decimal value; a backslash in a string is "\\" (bpftool writes
 * "\n"); a char-encoded integer that is a quote or a backslash is escaped
 * (bpftool writes it bare), and one of 0x80 and above is U+0080..U+00FF,
 * the character bpftool's "\u00XX" names.
 *
 * Bit numbering is the little-endian one, as BTF has it on this host.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "daemon/btf_json.h"
#include "daemon/jbuf.h"

/* Typedefs and modifiers followed at most this many times: BTF from a
 * file may loop. */
#define MODIFIERS_MAX 32

struct writer {
	struct jbuf *b;
	const struct btf *btf;
};

/* Through typedefs and modifiers to the type that has the bytes; NULL for
 * a missing type or a chain that does not end. */
static const struct btf_type *resolve(const struct btf *btf, uint32_t *id)
{
	const struct btf_type *t = btf__type_by_id(btf, *id);

	for (int i = 0; t && i < MODIFIERS_MAX; i++) {
		if (!btf_is_mod(t) && !btf_is_typedef(t))
			return t;
		*id = t->type;
		t = btf__type_by_id(btf, *id);
	}
	return NULL;
}

/* 1, 2, 4 or 8 */
static bool is_word(uint32_t bytes)
{
	return bytes && bytes <= 8 && !(bytes & (bytes - 1));
}

static bool int_is_whole(const struct btf_type *t, uint32_t shift)
{
	uint32_t bits = btf_int_bits(t);

	return !shift && !btf_int_offset(t) && !(bits % 8) && is_word(bits / 8);
}

/*
 * Whether id can be written with room containers still open to it; a
 * member at a bit shift within its byte must be an integer (bpftool takes
 * its bits).
 */
static int check_type(const struct btf *btf, uint32_t id, int room, uint32_t shift)
{
	const struct btf_type *t = resolve(btf, &id);

	if (!t)
		return -EOPNOTSUPP;
	if (shift && !btf_is_int(t))
		return -EOPNOTSUPP;
	switch (btf_kind(t)) {
	case BTF_KIND_INT: {
		uint8_t enc = btf_int_encoding(t);

		if (enc && enc != BTF_INT_SIGNED && enc != BTF_INT_CHAR && enc != BTF_INT_BOOL)
			return -EOPNOTSUPP;
		return btf_int_bits(t) + btf_int_offset(t) + shift <= 128 ? 0 : -EOPNOTSUPP;
	}
	case BTF_KIND_PTR:
		return btf__pointer_size(btf) == 8 || btf__pointer_size(btf) == 4 ? 0 : -EOPNOTSUPP;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return is_word(t->size) ? 0 : -EOPNOTSUPP;
	case BTF_KIND_FLOAT:
		return t->size == 4 || t->size == 8 ? 0 : -EOPNOTSUPP;
	case BTF_KIND_ARRAY:
		if (room < 1)
			return -E2BIG;
		if (btf__resolve_size(btf, btf_array(t)->type) < 0)
			return -EOPNOTSUPP;
		return check_type(btf, btf_array(t)->type, room - 1, 0);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		const struct btf_member *m = btf_members(t);

		if (room < 1)
			return -E2BIG;
		for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
			uint32_t off = btf_member_bit_offset(t, i);
			uint32_t bits = btf_member_bitfield_size(t, i);
			int err;

			if (bits) {
				if (bits > 128)
					return -EOPNOTSUPP;
				continue;
			}
			err = check_type(btf, m->type, room - 1, off % 8);
			if (err)
				return err;
		}
		return 0;
	}
	case BTF_KIND_VAR:
		if (room < 1)
			return -E2BIG;
		return check_type(btf, t->type, room - 1, 0);
	case BTF_KIND_DATASEC: {
		const struct btf_var_secinfo *v = btf_var_secinfos(t);

		if (room < 2)
			return -E2BIG;
		for (uint16_t i = 0; i < btf_vlen(t); i++, v++) {
			int err = check_type(btf, v->type, room - 2, 0);

			if (err)
				return err;
		}
		return 0;
	}
	default:
		return -EOPNOTSUPP;
	}
}

/* Containers b can still open: jbuf refuses its JBUF_MAX_DEPTH'th. */
static int room_of(const struct jbuf *b)
{
	return JBUF_MAX_DEPTH - 1 - b->depth;
}

static int check(const struct btf *btf, uint32_t id, size_t size, int room)
{
	long long want;

	if (!btf || !id)
		return -EOPNOTSUPP;
	want = btf__resolve_size(btf, id);
	if (want < 0)
		return -EOPNOTSUPP;
	if ((unsigned long long)want != size)
		return -EINVAL;
	return check_type(btf, id, room, 0);
}

int btf_json_check(const struct jbuf *b, const struct btf *btf, uint32_t type_id, size_t size)
{
	return check(btf, type_id, size, room_of(b));
}

/* bits bits from bit off of p, as bpftool prints bitfields and 128-bit
 * integers: unsigned, in hex, in a string. */
static void write_bits(struct writer *w, const uint8_t *p, uint32_t off, uint32_t bits)
{
	uint64_t lo = 0, hi = 0;
	char hex[40];

	for (uint32_t i = 0; i < bits; i++) {
		uint32_t at = off + i;

		if (!((p[at / 8] >> (at % 8)) & 1))
			continue;
		if (i < 64)
			lo |= (uint64_t)1 << i;
		else
			hi |= (uint64_t)1 << (i - 64);
	}
	if (hi)
		snprintf(hex, sizeof(hex), "0x%" PRIx64 "%016" PRIx64, hi, lo);
	else
		snprintf(hex, sizeof(hex), "0x%" PRIx64, lo);
	jbuf_string(w->b, hex);
}

static uint64_t read_unsigned(const uint8_t *p, uint32_t bytes)
{
	uint64_t v = 0;

	memcpy(&v, p, bytes);
	return v;
}

static int64_t read_signed(const uint8_t *p, uint32_t bytes)
{
	uint64_t v = read_unsigned(p, bytes);

	if (bytes < 8 && (v >> (bytes * 8 - 1)) & 1)
		v |= ~(uint64_t)0 << (bytes * 8);
	return (int64_t)v;
}

/* A char-encoded byte: itself when printable, else the character of that
 * number (U+0000 has no place in a C string: it is ""). */
static void write_char(struct writer *w, uint8_t c)
{
	char s[3] = { 0 };

	if (c < 0x80) {
		s[0] = (char)c;
	} else {
		s[0] = (char)(0xc0 | (c >> 6));
		s[1] = (char)(0x80 | (c & 0x3f));
	}
	jbuf_string(w->b, s);
}

static void write_int(struct writer *w, const struct btf_type *t, const uint8_t *p, uint32_t shift)
{
	uint32_t bits = btf_int_bits(t);

	if (!int_is_whole(t, shift)) {
		write_bits(w, p, shift + btf_int_offset(t), bits);
		return;
	}
	switch (btf_int_encoding(t)) {
	case BTF_INT_SIGNED:
		jbuf_int(w->b, read_signed(p, bits / 8));
		break;
	case BTF_INT_CHAR:
		write_char(w, p[0]);
		break;
	case BTF_INT_BOOL:
		jbuf_bool(w->b, p[0] != 0);
		break;
	default:
		jbuf_uint(w->b, read_unsigned(p, bits / 8));
		break;
	}
}

/* An enumerator's name when one has the value, else the value, signed. */
static void write_enum(struct writer *w, const struct btf_type *t, const uint8_t *p)
{
	int64_t v = read_signed(p, t->size);

	for (uint16_t i = 0; i < btf_vlen(t); i++) {
		int64_t e;
		uint32_t name;

		if (btf_is_enum(t)) {
			e = btf_enum(t)[i].val;
			name = btf_enum(t)[i].name_off;
		} else {
			e = (int64_t)btf_enum64_value(&btf_enum64(t)[i]);
			name = btf_enum64(t)[i].name_off;
		}
		if (e == v) {
			jbuf_string(w->b, btf__name_by_offset(w->btf, name));
			return;
		}
	}
	jbuf_int(w->b, v);
}

static void write_float(struct writer *w, const struct btf_type *t, const uint8_t *p)
{
	char num[40];

	if (t->size == 4) {
		float f;

		memcpy(&f, p, sizeof(f));
		snprintf(num, sizeof(num), "%.9g", (double)f);
	} else {
		double d;

		memcpy(&d, p, sizeof(d));
		snprintf(num, sizeof(num), "%.17g", d);
	}
	jbuf_string(w->b, num);
}

/* A char array (char, or a char-encoded byte, under modifiers but not a
 * typedef) is a string when a NUL ends printable ASCII within it. */
static bool is_string(const struct btf *btf, const struct btf_array *a, const uint8_t *p)
{
	const struct btf_type *e = btf__type_by_id(btf, a->type);
	const char *name;

	for (int i = 0; e && btf_is_mod(e) && i < MODIFIERS_MAX; i++)
		e = btf__type_by_id(btf, e->type);
	if (!a->nelems || !e || !btf_is_int(e) || e->size != 1)
		return false;
	name = btf__name_by_offset(btf, e->name_off);
	if (btf_int_encoding(e) != BTF_INT_CHAR && (!name || strcmp(name, "char")))
		return false;
	for (uint32_t i = 0; i < a->nelems; i++) {
		if (!p[i])
			return true;
		if (p[i] < 0x20 || p[i] > 0x7e)
			return false;
	}
	return false;
}

static void write_type(struct writer *w, uint32_t id, const uint8_t *p, uint32_t shift);

static void write_array(struct writer *w, const struct btf_type *t, const uint8_t *p)
{
	const struct btf_array *a = btf_array(t);
	long long elem = btf__resolve_size(w->btf, a->type);

	if (is_string(w->btf, a, p)) {
		jbuf_string(w->b, (const char *)p);
		return;
	}
	jbuf_start_array(w->b);
	for (uint32_t i = 0; i < a->nelems; i++)
		write_type(w, a->type, p + (size_t)i * (size_t)elem, 0);
	jbuf_end_array(w->b);
}

static void write_members(struct writer *w, const struct btf_type *t, const uint8_t *p)
{
	const struct btf_member *m = btf_members(t);

	jbuf_start_object(w->b);
	for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
		uint32_t off = btf_member_bit_offset(t, i);
		uint32_t bits = btf_member_bitfield_size(t, i);

		jbuf_name(w->b, btf__name_by_offset(w->btf, m->name_off));
		if (bits)
			write_bits(w, p + off / 8, off % 8, bits);
		else
			write_type(w, m->type, p + off / 8, off % 8);
	}
	jbuf_end_object(w->b);
}

/* Global data: {"SECTION": [{"VAR": value}, ...]}. */
static void write_datasec(struct writer *w, const struct btf_type *t, const uint8_t *p)
{
	const struct btf_var_secinfo *v = btf_var_secinfos(t);

	jbuf_start_object(w->b);
	jbuf_name(w->b, btf__name_by_offset(w->btf, t->name_off));
	jbuf_start_array(w->b);
	for (uint16_t i = 0; i < btf_vlen(t); i++, v++)
		write_type(w, v->type, p + v->offset, 0);
	jbuf_end_array(w->b);
	jbuf_end_object(w->b);
}

/* id at p, shift bits into p[0] (a member that is not on a byte). Checked
 * by check_type before. */
static void write_type(struct writer *w, uint32_t id, const uint8_t *p, uint32_t shift)
{
	const struct btf_type *t = resolve(w->btf, &id);

	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		write_int(w, t, p, shift);
		break;
	case BTF_KIND_PTR:
		jbuf_uint(w->b, read_unsigned(p, (uint32_t)btf__pointer_size(w->btf)));
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		write_enum(w, t, p);
		break;
	case BTF_KIND_FLOAT:
		write_float(w, t, p);
		break;
	case BTF_KIND_ARRAY:
		write_array(w, t, p);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		write_members(w, t, p);
		break;
	case BTF_KIND_VAR:
		jbuf_start_object(w->b);
		jbuf_name(w->b, btf__name_by_offset(w->btf, t->name_off));
		write_type(w, t->type, p, 0);
		jbuf_end_object(w->b);
		break;
	case BTF_KIND_DATASEC:
		write_datasec(w, t, p);
		break;
	}
}

int btf_json_type(struct jbuf *b, const struct btf *btf, uint32_t type_id, const void *data,
		  size_t size)
{
	struct writer w = { b, btf };
	int err = btf_json_check(b, btf, type_id, size);

	if (!err)
		write_type(&w, type_id, data, 0);
	return err;
}

/* Both types checked, with room for "formatted" and, per-CPU, the list of
 * CPUs and an object in it. */
static int check_entry(const struct jbuf *b, const struct btf *btf, uint32_t key_type_id,
		       size_t key_size, uint32_t value_type_id, size_t value_size, int wrappers)
{
	int room = room_of(b) - wrappers, err = 0;

	if (key_type_id)
		err = check(btf, key_type_id, key_size, room);
	return err ?: check(btf, value_type_id, value_size, room);
}

static void write_key(struct writer *w, uint32_t key_type_id, const void *key)
{
	if (!key_type_id)
		return;
	jbuf_name(w->b, "key");
	write_type(w, key_type_id, key, 0);
}

int btf_json_formatted(struct jbuf *b, const struct btf *btf, uint32_t key_type_id, const void *key,
		       size_t key_size, uint32_t value_type_id, const void *value,
		       size_t value_size)
{
	struct writer w = { b, btf };
	int err = check_entry(b, btf, key_type_id, key_size, value_type_id, value_size, 1);

	if (err)
		return err;
	jbuf_name(b, "formatted");
	jbuf_start_object(b);
	write_key(&w, key_type_id, key);
	jbuf_name(b, "value");
	write_type(&w, value_type_id, value, 0);
	jbuf_end_object(b);
	return 0;
}

int btf_json_formatted_percpu(struct jbuf *b, const struct btf *btf, uint32_t key_type_id,
			      const void *key, size_t key_size, uint32_t value_type_id,
			      const void *values, size_t value_size, unsigned int cpus)
{
	struct writer w = { b, btf };
	size_t stride = (value_size + 7) & ~(size_t)7;
	int err = check_entry(b, btf, key_type_id, key_size, value_type_id, value_size, 3);

	if (err)
		return err;
	jbuf_name(b, "formatted");
	jbuf_start_object(b);
	write_key(&w, key_type_id, key);
	jbuf_name(b, "values");
	jbuf_start_array(b);
	for (unsigned int cpu = 0; cpu < cpus; cpu++) {
		jbuf_start_object(b);
		jbuf_uint_field(b, "cpu", cpu);
		jbuf_name(b, "value");
		write_type(&w, value_type_id, (const uint8_t *)values + cpu * stride, 0);
		jbuf_end_object(b);
	}
	jbuf_end_array(b);
	jbuf_end_object(b);
	return 0;
}

int btf_json_map_entry(struct jbuf *b, const struct bpf_object *obj, const struct bpf_map *map,
		       const void *key, const void *value)
{
	return btf_json_formatted(b, bpf_object__btf(obj), bpf_map__btf_key_type_id(map), key,
				  bpf_map__key_size(map), bpf_map__btf_value_type_id(map), value,
				  bpf_map__value_size(map));
}
