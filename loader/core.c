// SPDX-License-Identifier: GPL-2.0
/*
 * CO-RE relocation: a program compiled against its own idea of a kernel
 * type (vmlinux.h, a ___flavour struct, preserve_access_index) gets the
 * offsets, sizes, existence and enum values of the running kernel's types,
 * with libbpf's semantics, so that the instructions hwxdp verifies and
 * translates are the ones libbpf hands the kernel. The kinds and the record
 * are those of enum bpf_core_relo_kind and struct bpf_core_relo (linux/bpf.h).
 *
 * A local type is matched to kernel types of the same essential name (the
 * name up to a "___flavour" suffix) and kind; a field access string
 * ("0:1:2": an index into the root, then member or element indices) is
 * followed by member name in each candidate. When no candidate matches, an
 * "exists" relocation becomes 0 and most others poison their instruction: it
 * becomes a call of HWXDP_CORE_POISON, which the verifiers refuse only if reached.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <linux/bpf.h>

#include "hwxdp/log.h"
#include "loader/object_internal.h"

#define OP_LD_IMM64 (BPF_LD | BPF_IMM | BPF_DW)
#define MAX_ACCESS  64
#define MAX_DEPTH   32

/* An access string followed through one BTF. */
struct spec {
	const struct btf *btf;
	uint32_t root_id;	      /* the relocation's type, or the candidate */
	uint32_t idx[MAX_ACCESS];     /* the access string */
	const char *name[MAX_ACCESS]; /* member or enumerator name; NULL: an index */
	uint32_t type[MAX_ACCESS];    /* the type each step reaches */
	uint32_t len;
	/* fields: where the last step lands */
	uint32_t parent_id; /* the composite or array holding the field */
	uint32_t member;    /* its member index, when name[len - 1] */
	uint32_t field_id;  /* the field's type */
	uint64_t bit_off;
	/* enum values */
	uint64_t enum_val;
};

/* What a relocation makes of its instruction. */
struct result {
	uint64_t orig, val;
	uint32_t orig_sz, new_sz;     /* byte offsets: the field's size */
	uint32_t orig_type, new_type; /* byte offsets: the field's type */
	bool validate;		      /* the instruction must hold orig */
	bool poison;
	bool fail_memsz_adjust;
};

struct ctx {
	const struct bpf_core_relo *rec;
	const char *type_name, *access;
	char *msg;
	size_t msg_size;
};

static const char *const kind_names[] = {
	[BPF_CORE_FIELD_BYTE_OFFSET] = "byte_off",    [BPF_CORE_FIELD_BYTE_SIZE] = "byte_sz",
	[BPF_CORE_FIELD_EXISTS] = "field_exists",     [BPF_CORE_FIELD_SIGNED] = "signed",
	[BPF_CORE_FIELD_LSHIFT_U64] = "lshift_u64",   [BPF_CORE_FIELD_RSHIFT_U64] = "rshift_u64",
	[BPF_CORE_TYPE_ID_LOCAL] = "local_type_id",   [BPF_CORE_TYPE_ID_TARGET] = "target_type_id",
	[BPF_CORE_TYPE_EXISTS] = "type_exists",	      [BPF_CORE_TYPE_SIZE] = "type_size",
	[BPF_CORE_ENUMVAL_EXISTS] = "enumval_exists", [BPF_CORE_ENUMVAL_VALUE] = "enumval_value",
	[BPF_CORE_TYPE_MATCHES] = "type_matches",
};

__attribute__((format(printf, 2, 3))) static int refuse(const struct ctx *c, const char *fmt, ...)
{
	char why[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(c->msg, c->msg_size, "CO-RE relocation at insn %u (%s of %s, access %s): %s",
		 c->rec->insn_off / 8, kind_names[c->rec->kind], c->type_name, c->access, why);
	return -HWXDP_ERR_RELOC;
}

static bool field_kind(uint32_t kind)
{
	return kind <= BPF_CORE_FIELD_RSHIFT_U64;
}

static bool enum_kind(uint32_t kind)
{
	return kind == BPF_CORE_ENUMVAL_EXISTS || kind == BPF_CORE_ENUMVAL_VALUE;
}

/* The name up to a "___flavour" suffix, as libbpf cuts it: its length. */
static size_t essential_len(const char *name)
{
	size_t n = strlen(name), i;

	for (i = n >= 5 ? n - 5 + 1 : 0; i-- > 0;)
		if (name[i] != '_' && !strncmp(name + i + 1, "___", 3) && name[i + 4] != '_')
			return i + 1;
	return n;
}

static bool same_essential(const char *a, const char *b)
{
	size_t la = essential_len(a);

	return la == essential_len(b) && !strncmp(a, b, la);
}

static bool kinds_compat(const struct btf_type *a, const struct btf_type *b)
{
	return btf_kind(a) == btf_kind(b) || (btf_is_any_enum(a) && btf_is_any_enum(b));
}

static const char *name_of(const struct btf *btf, uint32_t off)
{
	const char *s = btf__name_by_offset(btf, off);

	return s ? s : "";
}

/* libbpf's rules for a field met in both (bpf_core_fields_are_compat). */
static bool fields_compat(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t tid,
			  int depth)
{
	const struct btf_type *l = btf_skip_links(lb, lid, &lid),
			      *t = btf_skip_links(tb, tid, &tid);

	if (!l || !t || depth > MAX_DEPTH)
		return false;
	if (btf_is_composite(l) && btf_is_composite(t))
		return true;
	if (!kinds_compat(l, t))
		return false;
	switch (btf_kind(l)) {
	case BTF_KIND_PTR:
	case BTF_KIND_FLOAT:
		return true;
	case BTF_KIND_FWD:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return same_essential(name_of(lb, l->name_off), name_of(tb, t->name_off));
	case BTF_KIND_INT:
		return btf_int_offset(l) == 0 && btf_int_offset(t) == 0;
	case BTF_KIND_ARRAY:
		return fields_compat(lb, btf_array(l)->type, tb, btf_array(t)->type, depth + 1);
	default:
		return false;
	}
}

/* libbpf's rules for a whole type (bpf_core_types_are_compat). */
static bool types_compat(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t tid,
			 int depth)
{
	const struct btf_type *l = btf_skip_links(lb, lid, &lid),
			      *t = btf_skip_links(tb, tid, &tid);
	uint16_t i;

	if (!l || !t || depth > MAX_DEPTH || btf_kind(l) != btf_kind(t))
		return false;
	switch (btf_kind(l)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
	case BTF_KIND_FLOAT:
		return true;
	case BTF_KIND_INT:
		return btf_int_offset(l) == 0 && btf_int_offset(t) == 0;
	case BTF_KIND_PTR:
		return types_compat(lb, l->type, tb, t->type, depth + 1);
	case BTF_KIND_ARRAY:
		return types_compat(lb, btf_array(l)->type, tb, btf_array(t)->type, depth + 1);
	case BTF_KIND_FUNC_PROTO:
		if (btf_vlen(l) != btf_vlen(t))
			return false;
		for (i = 0; i < btf_vlen(l); i++)
			if (!types_compat(lb, btf_params(l)[i].type, tb, btf_params(t)[i].type,
					  depth + 1))
				return false;
		return types_compat(lb, l->type, tb, t->type, depth + 1);
	default:
		return false;
	}
}

/* The local side: the access string read, followed through local. */
static int parse_spec(const struct ctx *c, const struct btf *btf, struct spec *s)
{
	const char *p = c->access;
	uint32_t id, i;
	int64_t sz;

	memset(s, 0, sizeof(*s));
	s->btf = btf;
	s->root_id = c->rec->type_id;
	while (*p) {
		char *end;
		unsigned long v;

		if (s->len == MAX_ACCESS)
			return refuse(c, "access string longer than %d steps", MAX_ACCESS);
		v = strtoul(p, &end, 10);
		if (end == p || v > UINT32_MAX || (*end && *end != ':'))
			return refuse(c, "malformed access string");
		s->idx[s->len++] = v;
		p = *end ? end + 1 : end;
	}
	if (!s->len)
		return refuse(c, "empty access string");
	if (c->rec->kind == BPF_CORE_TYPE_ID_LOCAL ||
	    (!field_kind(c->rec->kind) && !enum_kind(c->rec->kind))) {
		if (s->len != 1 || s->idx[0])
			return refuse(c, "a type relocation's access string must be \"0\"");
		return 0;
	}
	if (enum_kind(c->rec->kind)) {
		const struct btf_type *t = btf_skip_links(btf, s->root_id, NULL);

		if (!t || !btf_is_any_enum(t) || s->len != 1 || s->idx[0] >= btf_vlen(t))
			return refuse(c, "not an enumerator of an enum");
		if (btf_is_enum(t)) {
			s->name[0] = name_of(btf, btf_enum(t)[s->idx[0]].name_off);
			s->enum_val = (uint64_t)(int64_t)btf_enum(t)[s->idx[0]].val;
		} else {
			s->name[0] = name_of(btf, btf_enum64(t)[s->idx[0]].name_off);
			s->enum_val = btf_enum64_value(&btf_enum64(t)[s->idx[0]]);
		}
		return 0;
	}
	if (!btf_skip_links(btf, s->root_id, &id))
		return refuse(c, "type %u is not in the object's BTF", s->root_id);
	sz = btf__resolve_size(btf, id);
	if (sz < 0)
		return refuse(c, "the root type has no size");
	s->bit_off = (uint64_t)s->idx[0] * sz * 8;
	s->parent_id = 0;
	s->field_id = id;
	for (i = 1; i < s->len; i++) {
		const struct btf_type *t = btf_skip_links(btf, id, &id);

		if (t && btf_is_composite(t)) {
			const struct btf_member *m;

			if (s->idx[i] >= btf_vlen(t))
				return refuse(c, "member %u of a type with %u", s->idx[i],
					      btf_vlen(t));
			m = &btf_members(t)[s->idx[i]];
			s->name[i] = name_of(btf, m->name_off);
			s->parent_id = id;
			s->member = s->idx[i];
			s->bit_off += btf_member_bit_offset(t, s->idx[i]);
			id = m->type;
		} else if (t && btf_is_array(t)) {
			sz = btf__resolve_size(btf, btf_array(t)->type);
			if (sz < 0)
				return refuse(c, "an array of elements without a size");
			s->name[i] = NULL;
			s->parent_id = id;
			s->bit_off += (uint64_t)s->idx[i] * sz * 8;
			id = btf_array(t)->type;
		} else {
			return refuse(c, "step %u indexes neither a struct, a union nor an array",
				      i);
		}
		s->type[i] = id;
		s->field_id = id;
	}
	if (s->len > 1 && s->name[s->len - 1] && !*s->name[s->len - 1])
		return refuse(c, "the field is an anonymous member");
	return 0;
}

/* Finds member name in composite id, through anonymous members, adding
 * their offsets: 1 when found, with *parent, *member and *bit_off set. */
static int find_member(const struct btf *btf, uint32_t id, const char *name, uint32_t *parent,
		       uint32_t *member, uint64_t *bit_off, int depth)
{
	const struct btf_type *t = btf_skip_links(btf, id, &id);
	uint16_t i;

	if (!t || !btf_is_composite(t) || depth > MAX_DEPTH)
		return 0;
	for (i = 0; i < btf_vlen(t); i++) {
		const struct btf_member *m = &btf_members(t)[i];
		const char *mname = name_of(btf, m->name_off);
		uint64_t off = btf_member_bit_offset(t, i);

		if (!*mname) {
			uint64_t inner = 0;

			if (find_member(btf, m->type, name, parent, member, &inner, depth + 1)) {
				*bit_off += off + inner;
				return 1;
			}
		} else if (!strcmp(mname, name)) {
			*parent = id;
			*member = i;
			*bit_off += off;
			return 1;
		}
	}
	return 0;
}

/* The local field spec followed in candidate cand of targ: 1 when it is
 * there, compatible, with *out filled. */
static int match_field(const struct spec *local, const struct btf *targ, uint32_t cand,
		       struct spec *out)
{
	uint32_t id, i;
	int64_t sz;

	*out = *local;
	out->btf = targ;
	out->root_id = cand;
	if (!btf_skip_links(targ, cand, &id))
		return 0;
	sz = btf__resolve_size(targ, id);
	if (sz < 0)
		return 0;
	out->bit_off = (uint64_t)local->idx[0] * sz * 8;
	out->parent_id = 0;
	out->field_id = id;
	for (i = 1; i < local->len; i++) {
		const struct btf_type *t;

		if (local->name[i] && !*local->name[i])
			continue; /* an anonymous member: found through by name */
		t = btf_skip_links(targ, id, &id);
		if (!t)
			return 0;
		if (local->name[i]) {
			uint32_t parent, member;

			if (!find_member(targ, id, local->name[i], &parent, &member, &out->bit_off,
					 0))
				return 0;
			t = btf__type_by_id(targ, parent);
			id = btf_members(t)[member].type;
			if (!fields_compat(local->btf, local->type[i], targ, id, 0))
				return 0;
			out->parent_id = parent;
			out->member = member;
		} else {
			if (!btf_is_array(t))
				return 0;
			if (local->idx[i] >= btf_array(t)->nelems && btf_array(t)->nelems)
				return 0;
			sz = btf__resolve_size(targ, btf_array(t)->type);
			if (sz < 0)
				return 0;
			out->parent_id = id;
			out->bit_off += (uint64_t)local->idx[i] * sz * 8;
			id = btf_array(t)->type;
		}
		out->field_id = id;
	}
	return 1;
}

/* libbpf's value of a field relocation (bpf_core_calc_field_relo). */
static int field_value(const struct ctx *c, const struct spec *s, uint64_t *val, uint32_t *sz,
		       uint32_t *type_id, bool *validate)
{
	uint32_t kind = c->rec->kind, field_id, bit_sz = 0, byte_sz, byte_off;
	const struct btf_type *mt, *parent;
	uint64_t bit_off;
	bool bitfield;
	int64_t size;

	if (kind == BPF_CORE_FIELD_EXISTS) {
		*val = s ? 1 : 0;
		return 0;
	}
	if (!s)
		return 1; /* poison */
	bit_off = s->bit_off;
	mt = btf_skip_links(s->btf, s->field_id, &field_id);
	if (!mt)
		return refuse(c, "the field's type is unresolved");
	if (s->len == 1 || !s->name[s->len - 1]) {
		size = btf__resolve_size(s->btf, field_id);
		if (size < 0)
			return refuse(c, "the element has no size");
		if (kind == BPF_CORE_FIELD_BYTE_OFFSET) {
			*val = bit_off / 8;
			*sz = size;
			*type_id = field_id;
		} else if (kind == BPF_CORE_FIELD_BYTE_SIZE) {
			*val = size;
		} else {
			return refuse(c, "not a relocation an array element can have");
		}
		return 0;
	}
	parent = btf__type_by_id(s->btf, s->parent_id);
	bit_sz = btf_member_bitfield_size(parent, s->member);
	bitfield = bit_sz > 0;
	if (bitfield) {
		byte_sz = mt->size;
		if (!byte_sz)
			return refuse(c, "a bitfield of a type without a size");
		byte_off = bit_off / 8 / byte_sz * byte_sz;
		while (bit_off + bit_sz - byte_off * 8 > byte_sz * 8) {
			if (byte_sz >= 8)
				return refuse(c, "a bitfield wider than 8 bytes once aligned");
			byte_sz *= 2;
			byte_off = bit_off / 8 / byte_sz * byte_sz;
		}
	} else {
		size = btf__resolve_size(s->btf, field_id);
		if (size < 0)
			return refuse(c, "the field has no size");
		byte_sz = size;
		byte_off = bit_off / 8;
		bit_sz = byte_sz * 8;
	}
	*validate = !bitfield;
	switch (kind) {
	case BPF_CORE_FIELD_BYTE_OFFSET:
		*val = byte_off;
		if (!bitfield) {
			*sz = byte_sz;
			*type_id = field_id;
		}
		break;
	case BPF_CORE_FIELD_BYTE_SIZE:
		*val = byte_sz;
		break;
	case BPF_CORE_FIELD_SIGNED:
		*val = (btf_is_any_enum(mt) && btf_kflag(mt)) ||
		       (btf_is_int(mt) && (btf_int_encoding(mt) & BTF_INT_SIGNED));
		break;
	case BPF_CORE_FIELD_LSHIFT_U64:
		*val = 64 - (bit_off + bit_sz - byte_off * 8);
		break;
	case BPF_CORE_FIELD_RSHIFT_U64:
		*val = 64 - bit_sz;
		*validate = true;
		break;
	}
	return 0;
}

/* The value for a spec (NULL: no candidate matched) into r's val or orig. */
static int value(const struct ctx *c, const struct spec *s, bool local, struct result *r)
{
	uint32_t kind = c->rec->kind, sz = 0, type_id = 0;
	bool validate = true;
	uint64_t v = 0;
	int64_t size;
	int err = 0;

	if (field_kind(kind)) {
		err = field_value(c, s, &v, &sz, &type_id, &validate);
	} else if (enum_kind(kind)) {
		if (kind == BPF_CORE_ENUMVAL_EXISTS)
			v = s != NULL;
		else if (!s)
			err = 1;
		else
			v = s->enum_val;
	} else if (s) {
		switch (kind) {
		case BPF_CORE_TYPE_ID_LOCAL:
		case BPF_CORE_TYPE_ID_TARGET:
			v = s->root_id;
			break;
		case BPF_CORE_TYPE_EXISTS:
		case BPF_CORE_TYPE_MATCHES:
			v = 1;
			break;
		case BPF_CORE_TYPE_SIZE:
			size = btf__resolve_size(s->btf, s->root_id);
			if (size < 0)
				return refuse(c, "the type has no size");
			v = size;
			break;
		}
	}
	if (err < 0)
		return err;
	if (local) {
		r->orig = v;
		r->orig_sz = sz;
		r->orig_type = type_id;
		r->validate = validate;
	} else {
		r->val = v;
		r->new_sz = sz;
		r->new_type = type_id;
		r->poison = err == 1;
	}
	return 0;
}

static bool is_unsigned_int(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	return t && btf_is_int(t) && btf_int_encoding(t) != BTF_INT_SIGNED;
}

static bool is_ptr(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	return t && btf_is_ptr(t);
}

/* The enumerator of the local spec in candidate enum cand: 1 when found. */
static int match_enum(const struct spec *local, const struct btf *targ, uint32_t cand,
		      struct spec *out)
{
	const struct btf_type *t = btf_skip_links(targ, cand, NULL);
	uint16_t i;

	if (!t || !btf_is_any_enum(t))
		return 0;
	for (i = 0; i < btf_vlen(t); i++) {
		const char *name;
		uint64_t v;

		if (btf_is_enum(t)) {
			name = name_of(targ, btf_enum(t)[i].name_off);
			v = (uint64_t)(int64_t)btf_enum(t)[i].val;
		} else {
			name = name_of(targ, btf_enum64(t)[i].name_off);
			v = btf_enum64_value(&btf_enum64(t)[i]);
		}
		if (*name && same_essential(local->name[0], name)) {
			*out = *local;
			out->btf = targ;
			out->root_id = cand;
			out->idx[0] = i;
			out->enum_val = v;
			return 1;
		}
	}
	return 0;
}

/* The target's value: every matching candidate must agree. */
static int target_value(const struct ctx *c, const struct spec *local, const struct btf *targ,
			struct result *r)
{
	const struct btf_type *lt = btf__type_by_id(local->btf, local->root_id);
	uint32_t n = btf__type_cnt(targ), id, found = 0;
	struct spec cand;
	struct result one;
	int err;

	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(targ, id);
		int ok;

		if (!kinds_compat(lt, t) ||
		    !same_essential(c->type_name, name_of(targ, t->name_off)))
			continue;
		if (field_kind(c->rec->kind))
			ok = match_field(local, targ, id, &cand);
		else if (enum_kind(c->rec->kind))
			ok = match_enum(local, targ, id, &cand);
		else {
			ok = types_compat(local->btf, local->root_id, targ, id, 0);
			cand = *local;
			cand.btf = targ;
			cand.root_id = id;
		}
		if (!ok)
			continue;
		one = *r;
		err = value(c, &cand, false, &one);
		if (err)
			return err;
		if (found && (one.val != r->val || one.poison != r->poison))
			return refuse(c,
				      "kernel types %u and %u give different values (%" PRIu64
				      " and %" PRIu64 ")",
				      found, id, r->val, one.val);
		if (!found) {
			*r = one;
			found = id;
		}
	}
	return found ? 0 : value(c, NULL, false, r);
}

/* The bytes a load or store moves: BPF_W, BPF_H, BPF_B, BPF_DW in order. */
static int bpf_size_bytes(uint8_t code)
{
	static const int bytes[] = { 4, 2, 1, 8 };

	return bytes[BPF_SIZE(code) >> 3];
}

static int bytes_bpf_size(uint32_t sz)
{
	return sz == 1 ? BPF_B : sz == 2 ? BPF_H : sz == 4 ? BPF_W : sz == 8 ? BPF_DW : -1;
}

static void poison(struct bpf_insn *insn)
{
	*insn = (struct bpf_insn){ .code = BPF_JMP | BPF_CALL, .imm = HWXDP_CORE_POISON };
}

static int patch(const struct ctx *c, const struct result *r, struct bpf_insn *insns, size_t cnt)
{
	size_t at = c->rec->insn_off / 8;
	struct bpf_insn *insn = &insns[at];
	uint8_t cls = BPF_CLASS(insn->code);
	int size;

	if (r->poison) {
	poison:
		if (insn->code == OP_LD_IMM64 && at + 1 < cnt)
			poison(insn + 1);
		poison(insn);
		return 0;
	}
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		if (BPF_SRC(insn->code) != BPF_K)
			return refuse(c, "an ALU instruction with a register operand");
		if (r->validate && (uint32_t)insn->imm != (uint32_t)r->orig)
			return refuse(c, "the instruction holds %d, the object's BTF says %" PRIu64,
				      insn->imm, r->orig);
		insn->imm = (int32_t)r->val;
		return 0;
	case BPF_LDX:
	case BPF_ST:
	case BPF_STX:
		if (r->validate && (uint64_t)(int64_t)insn->off != r->orig)
			return refuse(c,
				      "the instruction's offset is %d, the object's BTF says "
				      "%" PRIu64,
				      insn->off, r->orig);
		/* a load or store of another size than the kernel's field, whose
		 * meaning narrowing or widening would change */
		if (r->fail_memsz_adjust)
			goto poison;
		if (r->val > SHRT_MAX)
			return refuse(c, "offset %" PRIu64 " does not fit an instruction", r->val);
		insn->off = (int16_t)r->val;
		if (r->new_sz != r->orig_sz) {
			if (bpf_size_bytes(insn->code) != (int)r->orig_sz)
				return refuse(c, "an access of %d bytes to a field of %u",
					      bpf_size_bytes(insn->code), r->orig_sz);
			size = bytes_bpf_size(r->new_sz);
			if (size < 0)
				return refuse(c, "the kernel's field has %u bytes", r->new_sz);
			insn->code = BPF_MODE(insn->code) | size | BPF_CLASS(insn->code);
		}
		return 0;
	case BPF_LD:
		if (insn->code != OP_LD_IMM64 || at + 1 >= cnt)
			return refuse(c, "a BPF_LD that is not ld_imm64");
		if (r->validate && ((uint64_t)(uint32_t)insn[0].imm |
				    (uint64_t)(uint32_t)insn[1].imm << 32) != r->orig)
			return refuse(c,
				      "the instruction holds another value than the object's "
				      "BTF (%" PRIu64 ")",
				      r->orig);
		insn[0].imm = (int32_t)(uint32_t)r->val;
		insn[1].imm = (int32_t)(uint32_t)(r->val >> 32);
		return 0;
	default:
		return refuse(c, "an instruction (code %#x) no relocation can patch", insn->code);
	}
}

int core_relocate(const struct btf *local, const struct btf *targ, const void *raw,
		  struct bpf_insn *insns, size_t cnt, char *msg, size_t msg_size)
{
	const struct btf_type *lt;
	struct bpf_core_relo rec;
	struct result r = { 0 };
	struct spec ls;
	struct ctx c = { .rec = &rec, .msg = msg, .msg_size = msg_size };
	int err;

	memcpy(&rec, raw, sizeof(rec));
	c.access = btf__name_by_offset(local, rec.access_str_off);
	lt = btf__type_by_id(local, rec.type_id);
	c.type_name = lt ? name_of(local, lt->name_off) : "";
	if (!c.access)
		c.access = "?";
	if (rec.kind > BPF_CORE_TYPE_MATCHES) {
		snprintf(msg, msg_size, "CO-RE relocation at insn %u: unknown kind %u",
			 rec.insn_off / 8, rec.kind);
		return -HWXDP_ERR_RELOC;
	}
	if (rec.insn_off % 8 || rec.insn_off / 8 >= cnt)
		return refuse(&c, "outside its section");
	if (!lt || !rec.type_id)
		return refuse(&c, "type %u is not in the object's BTF", rec.type_id);
	if (rec.kind == BPF_CORE_TYPE_MATCHES)
		return refuse(&c, "not supported by this loader");
	if (rec.kind != BPF_CORE_TYPE_ID_LOCAL && !*c.type_name)
		return refuse(&c, "the local type is anonymous");
	err = parse_spec(&c, local, &ls);
	err = err ?: value(&c, &ls, true, &r);
	if (err)
		return err;
	if (rec.kind == BPF_CORE_TYPE_ID_LOCAL)
		r.val = r.orig;
	else
		err = target_value(&c, &ls, targ, &r);
	if (err)
		return err;
	if (rec.kind == BPF_CORE_FIELD_BYTE_OFFSET && !r.poison && r.orig_sz != r.new_sz) {
		uint32_t lid = r.orig_type, tid = r.new_type;

		r.fail_memsz_adjust = !(is_ptr(local, lid) && is_ptr(targ, tid)) &&
				      !(is_unsigned_int(local, lid) && is_unsigned_int(targ, tid));
	}
	return patch(&c, &r, insns, cnt);
}
