// SPDX-License-Identifier: GPL-2.0
/*
 * Line info and CO-RE relocation records from .BTF.ext, and a check of
 * BTF's references. libbpf parses
 * .BTF.ext too but keeps the records to itself since 1.0, so the small
 * container format is read here; types and strings come from libbpf's BTF.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <linux/bpf.h>

#include "loader/object_internal.h"

#define BTF_EXT_MAGIC 0xeB9F

/* The part of the header every version has. */
struct btf_ext_header_ {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t func_info_off, func_info_len;
	uint32_t line_info_off, line_info_len;
};

static uint32_t get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The records of one kind (at off, len bytes past the header) for section. */
static int btf_ext_records(const uint8_t *base, uint32_t off, uint32_t len, size_t avail,
			   uint32_t min_rec, const struct btf *btf, const char *section,
			   struct btf_ext_lines *out)
{
	const uint8_t *p, *end;
	uint32_t rec_size;

	if (!len)
		return 0;
	if (off > avail || len > avail - off || len < 4)
		return -EINVAL;
	p = base + off;
	end = p + len;
	rec_size = get_u32(p);
	p += 4;
	if (rec_size < min_rec || rec_size % 4)
		return -EINVAL;
	while (p < end) {
		uint32_t name_off, cnt;
		const char *name;

		if (end - p < 8)
			return -EINVAL;
		name_off = get_u32(p);
		cnt = get_u32(p + 4);
		p += 8;
		if (cnt > (size_t)(end - p) / rec_size)
			return -EINVAL;
		name = btf__name_by_offset(btf, name_off);
		if (!name)
			return -EINVAL;
		if (!out->cnt && !strcmp(name, section)) {
			out->recs = p;
			out->cnt = cnt;
			out->rec_size = rec_size;
		}
		p += (size_t)cnt * rec_size;
	}
	return 0;
}

static int read_header(const void *ext, size_t size, struct btf_ext_header_ *hdr)
{
	if (size < sizeof(*hdr))
		return -EINVAL;
	memcpy(hdr, ext, sizeof(*hdr));
	if (hdr->magic != BTF_EXT_MAGIC || hdr->version != 1 || hdr->hdr_len < sizeof(*hdr) ||
	    hdr->hdr_len > size)
		return -EINVAL;
	return 0;
}

int btf_ext_lines(const void *ext, size_t size, const struct btf *btf, const char *section,
		  struct btf_ext_lines *out)
{
	struct btf_ext_header_ hdr;

	memset(out, 0, sizeof(*out));
	if (read_header(ext, size, &hdr))
		return -EINVAL;
	return btf_ext_records((const uint8_t *)ext + hdr.hdr_len, hdr.line_info_off,
			       hdr.line_info_len, size - hdr.hdr_len, sizeof(struct bpf_line_info),
			       btf, section, out);
}

int btf_ext_core_relos(const void *ext, size_t size, const struct btf *btf, const char *section,
		       struct btf_ext_lines *out)
{
	struct btf_ext_header_ hdr;
	uint32_t off, len;

	memset(out, 0, sizeof(*out));
	if (read_header(ext, size, &hdr))
		return -EINVAL;
	/* Headers older than CO-RE end before its two words. */
	if (hdr.hdr_len < sizeof(hdr) + 8)
		return 0;
	off = get_u32((const uint8_t *)ext + sizeof(hdr));
	len = get_u32((const uint8_t *)ext + sizeof(hdr) + 4);
	return btf_ext_records((const uint8_t *)ext + hdr.hdr_len, off, len, size - hdr.hdr_len,
			       sizeof(struct bpf_core_relo), btf, section, out);
}

static bool name_ok(const struct btf *btf, uint32_t off)
{
	return btf__name_by_offset(btf, off) != NULL;
}

static bool refs_ok(const struct btf *btf, const struct btf_type *t, uint32_t n)
{
	uint16_t i, vlen = btf_vlen(t);
	bool ok = name_ok(btf, t->name_off);

	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
	case BTF_KIND_TYPE_TAG:
		return ok && t->type < n;
	case BTF_KIND_ARRAY:
		return ok && btf_array(t)->type < n && btf_array(t)->index_type < n;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (i = 0; i < vlen; i++)
			ok &= btf_members(t)[i].type < n &&
			      name_ok(btf, btf_members(t)[i].name_off);
		return ok;
	case BTF_KIND_FUNC_PROTO:
		for (i = 0; i < vlen; i++)
			ok &= btf_params(t)[i].type < n && name_ok(btf, btf_params(t)[i].name_off);
		return ok && t->type < n;
	case BTF_KIND_ENUM:
		for (i = 0; i < vlen; i++)
			ok &= name_ok(btf, btf_enum(t)[i].name_off);
		return ok;
	case BTF_KIND_ENUM64:
		for (i = 0; i < vlen; i++)
			ok &= name_ok(btf, btf_enum64(t)[i].name_off);
		return ok;
	case BTF_KIND_DATASEC:
		for (i = 0; i < vlen; i++)
			ok &= btf_var_secinfos(t)[i].type < n;
		return ok;
	default:
		return ok;
	}
}

static bool is_link(const struct btf_type *t)
{
	return btf_is_mod(t) || btf_is_typedef(t) || btf_kind(t) == BTF_KIND_TYPE_TAG;
}

int btf_check_refs(const struct btf *btf, uint32_t *bad)
{
	uint32_t n = btf__type_cnt(btf), id, cur;
	uint8_t *state = calloc(n, 1); /* 1: on the chain being walked, 2: ends */
	int err = 0;

	if (!state)
		return -ENOMEM;
	for (id = 1; id < n && !err; id++)
		if (!refs_ok(btf, btf__type_by_id(btf, id), n))
			err = -EINVAL;
	if (err) {
		*bad = id - 1;
		free(state);
		return err;
	}
	/* Every reference is in range: now walk each chain once. */
	for (id = 1; id < n && !err; id++) {
		for (cur = id; cur && !state[cur] && is_link(btf__type_by_id(btf, cur));
		     cur = btf__type_by_id(btf, cur)->type)
			state[cur] = 1;
		if (cur && state[cur] == 1)
			err = -EINVAL;
		for (cur = id; cur && state[cur] == 1; cur = btf__type_by_id(btf, cur)->type)
			state[cur] = 2;
	}
	*bad = id - 1;
	free(state);
	return err;
}

const struct btf_type *btf_skip_links(const struct btf *btf, uint32_t id, uint32_t *out)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int depth = 0;

	while (t && (btf_is_mod(t) || btf_is_typedef(t)) && depth++ < BTF_LINKS_MAX) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (out)
		*out = id;
	return t && !btf_is_mod(t) && !btf_is_typedef(t) ? t : NULL;
}
