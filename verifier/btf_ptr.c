// SPDX-License-Identifier: GPL-2.0
/*
 * Pointers to kernel structs (the kernel's PTR_TO_BTF_ID), as a 6.18 kernel
 * judges an XDP program's use of them, and the conntrack kfuncs that hand
 * them out (net/netfilter/nf_conntrack_bpf.c, nf_nat_bpf.c).
 *
 * Such a pointer is a struct of vmlinux BTF: a conntrack entry
 * (bpf_xdp_ct_lookup, bpf_ct_insert_entry: struct nf_conn; bpf_xdp_ct_alloc:
 * struct nf_conn___init) or a socket cast (bpf_skc_to_tcp_sock and the
 * like). A load through it is walked in that BTF as btf_struct_walk() does:
 * a scalar member read within its bytes gives a scalar of the load's size;
 * a pointer member read whole gives a pointer to its struct, one the kernel
 * no longer trusts (it is passed to no kfunc, nor to a socket helper when
 * the walk began at an untrusted one), NULL-checked first where the member
 * is __rcu. A store is XDP's btf_struct_access hook's: nf_conn->mark only.
 *
 * A conntrack entry is a reference (KF_ACQUIRE): every path gives it back,
 * with bpf_ct_release, or bpf_ct_insert_entry for an allocated one, which
 * takes a new one. The kfuncs that change an entry take it trusted (a
 * reference, not a pointer read through one) and of its exact type: an
 * allocated entry is set (bpf_ct_set_timeout, _set_status, _set_nat_info),
 * an inserted or found one changed (bpf_ct_change_timeout, _change_status).
 *
 * The coprocessor has no conntrack table: the device refuses the kfuncs,
 * wherever they are reached, and says why.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "loader/kfuncs.h"
#include "verifier/verifier_internal.h"

static const struct btf *kernel_btf(const struct verifier_env *env)
{
	return env->vmlinux_btf ? env->vmlinux_btf : hwxdp_vmlinux_btf();
}

static const struct btf_type *skip_mods(const struct btf *btf, uint32_t id, uint32_t *res_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t) || btf_is_type_tag(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (res_id)
		*res_id = id;
	return t;
}

static const char *type_name(const struct btf *btf, const struct btf_type *t)
{
	const char *name = t ? btf__name_by_offset(btf, t->name_off) : NULL;

	/* the kernel's __btf_name_by_offset */
	return name && name[0] ? name : "(anon)";
}

const char *btf_ptr_struct_name(const struct verifier_env *env, const struct reg_state *reg)
{
	const struct btf *btf = kernel_btf(env);

	return btf ? type_name(btf, btf__type_by_id(btf, reg->btf_id)) : "?";
}

/* The struct of vmlinux called name, or 0. */
static uint32_t find_struct(const struct btf *btf, const char *name)
{
	int id = btf ? btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT) : -1;

	return id > 0 ? (uint32_t)id : 0;
}

int btf_ptr_mark_ret(struct verifier_env *env, struct reg_state *r0, const char *struct_name)
{
	uint32_t id = find_struct(kernel_btf(env), struct_name);

	if (!id) {
		verbose(env, "kernel BTF has no struct %s\n", struct_name);
		return -EINVAL;
	}
	reg_mark_known(r0, 0);
	r0->type = PTR_TO_BTF_ID_OR_NULL;
	r0->btf_id = id;
	r0->id = new_id(env);
	return 0;
}

bool btf_ptr_is_sock_common(const struct verifier_env *env, const struct reg_state *reg)
{
	const struct btf *btf = kernel_btf(env);
	const struct btf_type *t = btf ? btf__type_by_id(btf, reg->btf_id) : NULL;

	/* the kernel's btf_struct_ids_match: the first member, down */
	for (int depth = 0; t && btf_is_composite(t) && depth < 16; depth++) {
		if (btf_is_struct(t) && !strcmp(type_name(btf, t), "sock_common"))
			return true;
		if (!btf_vlen(t) || btf_member_bit_offset(t, 0))
			return false;
		t = skip_mods(btf, btf_members(t)[0].type, NULL);
	}
	return false;
}

/* What a walk found at the access. */
enum walk_result {
	WALK_SCALAR,
	WALK_PTR,
	WALK_PTR_MEM, /* a pointer to no struct: rdonly_untrusted_mem */
};

struct walk {
	uint32_t ptr_id; /* WALK_PTR: the struct it points to */
	bool rcu;	 /* WALK_PTR: the member is __rcu */
	bool unsafe;	 /* WALK_PTR: __percpu or __user memory */
	bool untrusted;	 /* a union of more than one member was entered */
};

/* The size of a member's type, arrays flattened: elem and its count. */
static int64_t resolve_size(const struct btf *btf, uint32_t id, uint32_t *elem_id, uint32_t *nelems)
{
	const struct btf_type *t = skip_mods(btf, id, &id);
	uint32_t n = 1;

	while (t && btf_is_array(t)) {
		n *= btf_array(t)->nelems;
		t = skip_mods(btf, btf_array(t)->type, &id);
	}
	*elem_id = id;
	*nelems = n;
	if (!t)
		return -1;
	if (btf_is_ptr(t))
		return (int64_t)n * 8;
	if (btf_is_int(t) || btf_is_composite(t) || btf_is_enum(t) || btf_is_enum64(t))
		return (int64_t)n * t->size;
	return -1;
}

/* The tag on a pointer member's target type ("rcu", "percpu", "user"). */
static const char *ptr_tag(const struct btf *btf, const struct btf_type *ptr)
{
	const struct btf_type *t = btf__type_by_id(btf, ptr->type);

	if (t && btf_is_type_tag(t) && !btf_kflag(t))
		return type_name(btf, t);
	return "";
}

/*
 * The kernel's btf_struct_walk over the struct id of btf for size bytes at
 * off: WALK_SCALAR, WALK_PTR (w->ptr_id), or REJECT with its words.
 */
static int struct_walk(struct verifier_env *env, const struct btf *btf, uint32_t id, uint32_t off,
		       uint32_t size, struct walk *w)
{
	const struct btf_type *t = skip_mods(btf, id, NULL);

	for (int depth = 0; depth < 32; depth++) {
		const struct btf_member *m;
		const char *tname = type_name(btf, t);
		uint16_t vlen, i;

		if (!t || !btf_is_composite(t)) {
			verbose(env, "Type '%s' is not a struct\n", tname);
			return -EINVAL;
		}
		vlen = btf_vlen(t);
		if (btf_is_union(t) && vlen != 1)
			w->untrusted = true;
		if ((uint64_t)off + size > t->size) {
			/* a flexible array at the end may be read past the struct */
			const struct btf_type *arr =
				vlen ? skip_mods(btf, btf_members(t)[vlen - 1].type, NULL) : NULL;
			uint32_t moff = vlen ? btf_member_bit_offset(t, vlen - 1) / 8 : 0;
			const struct btf_type *elem;

			if (!arr || !btf_is_array(arr) || btf_array(arr)->nelems || off < moff)
				goto beyond;
			elem = skip_mods(btf, btf_array(arr)->type, &id);
			if (elem && btf_is_int(elem))
				return WALK_SCALAR;
			if (!elem || !btf_is_composite(elem) || !elem->size)
				goto beyond;
			off = (off - moff) % elem->size;
			t = elem;
			continue;
		beyond:
			verbose(env, "access beyond struct %s at off %u size %u\n", tname, off,
				size);
			return REJECT;
		}
		m = btf_members(t);
		for (i = 0; i < vlen; i++, m++) {
			uint32_t bit_off = btf_member_bit_offset(t, i);
			uint32_t bits = btf_member_bitfield_size(t, i);
			uint32_t moff = bit_off / 8, mid, nelems, mend;
			const char *mname = btf__name_by_offset(btf, m->name_off);
			const struct btf_type *mt;
			int64_t msize;

			if ((uint64_t)off + size <= moff)
				break; /* past the access: nothing found */
			if (bits) {
				/* a bitfield is read whole, from its first byte on */
				if (off <= moff && (bit_off + bits + 7) / 8 <= (uint64_t)off + size)
					return WALK_SCALAR;
				continue;
			}
			if (off < moff)
				break; /* a hole */
			msize = resolve_size(btf, m->type, &mid, &nelems);
			if (msize < 0) {
				verbose(env, "field %s doesn't have size\n", mname);
				return -EFAULT;
			}
			mend = moff + (uint32_t)msize;
			if (off >= mend)
				continue;
			mt = skip_mods(btf, m->type, NULL);
			if (btf_is_array(mt)) {
				uint32_t esize = (uint32_t)msize / nelems;

				moff += (off - moff) / esize * esize;
				msize = esize;
				mt = skip_mods(btf, mid, NULL);
			} else {
				mid = m->type;
			}
			if (btf_is_composite(mt)) {
				off -= moff;
				t = mt;
				goto again;
			}
			if (btf_is_ptr(mt)) {
				const struct btf_type *st;
				const char *tag;
				uint32_t sid;

				if (msize != size || off != moff) {
					verbose(env,
						"cannot access ptr member %s with moff %u in "
						"struct "
						"%s with off %u size %u\n",
						mname, moff, tname, off, size);
					return REJECT;
				}
				st = skip_mods(btf, mt->type, &sid);
				if (st && btf_is_composite(st)) {
					tag = ptr_tag(btf, mt);
					w->ptr_id = sid;
					w->rcu = !strcmp(tag, "rcu");
					w->unsafe = !strcmp(tag, "percpu") || !strcmp(tag, "user");
					return WALK_PTR;
				}
				return WALK_PTR_MEM;
			}
			/* within a scalar member, or an array of them, as far
			 * as it goes (anywhere, under an untrusted union) */
			if ((uint64_t)off + size > mend && !w->untrusted) {
				verbose(env,
					"access beyond the end of member %s (mend:%u) in struct %s "
					"with off %u size %u\n",
					mname, mend, tname, off, size);
				return REJECT;
			}
			return WALK_SCALAR;
		}
		verbose(env, "struct %s doesn't have field at offset %d\n", tname, (int)off);
		return -EINVAL;
	again:;
	}
	verbose(env, "struct %s nests too deep\n", type_name(btf, t));
	return -EINVAL;
}

/* XDP's btf_struct_access hook, nf_conntrack's: of a conntrack entry, the
 * mark is written, nothing else, of nothing else. */
static int check_btf_ptr_write(struct verifier_env *env, const struct btf *btf,
			       const struct reg_state *reg, uint32_t off, int size)
{
	const char *name = type_name(btf, btf__type_by_id(btf, reg->btf_id));
	const struct btf_type *ct = btf__type_by_id(btf, find_struct(btf, "nf_conn"));
	const struct btf_member *m;
	uint32_t mark = UINT32_MAX, end;

	if (strcmp(name, "nf_conn") && strcmp(name, "nf_conn___init")) {
		verbose(env, "only read is supported\n");
		return REJECT;
	}
	m = ct ? btf_members(ct) : NULL;
	for (uint16_t i = 0; m && i < btf_vlen(ct); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), "mark"))
			mark = btf_member_bit_offset(ct, i) / 8;
	if (off != mark) {
		verbose(env, "no write support to nf_conn at off %u\n", off);
		return REJECT;
	}
	end = mark + 4; /* u_int32_t mark */
	if (off + (uint32_t)size > end) {
		verbose(env,
			"write access at off %u with size %d beyond the member of nf_conn ended at "
			"%u\n",
			off, size, end);
		return REJECT;
	}
	return 0;
}

int check_btf_ptr_access(struct verifier_env *env, uint32_t regno, int32_t insn_off, int size,
			 bool write, struct reg_state *dst)
{
	const struct reg_state *reg = &cur_frame(env)->regs[regno];
	const struct btf *btf = kernel_btf(env);
	const char *tname = btf_ptr_struct_name(env, reg);
	int32_t off = reg->off + insn_off;
	struct walk w = { 0 };
	int res;

	if (!btf)
		return -EINVAL;
	if (!env->allow_ptr_leaks) {
		verbose(env,
			"'struct %s' access is allowed only to CAP_PERFMON and CAP_SYS_ADMIN\n",
			tname);
		return REJECT;
	}
	if (!env->gpl_compatible) {
		verbose(env, "Cannot access kernel 'struct %s' from non-GPL compatible program\n",
			tname);
		return -EINVAL;
	}
	if (off < 0) {
		verbose(env, "R%u is ptr_%s invalid negative access: off=%d\n", regno, tname, off);
		return REJECT;
	}
	if (!tnum_equals_const(reg->var_off, 0)) {
		char tn[48];

		tnum_print(tn, sizeof(tn), reg->var_off);
		verbose(env, "R%u is ptr_%s invalid variable offset: off=%d, var_off=%s\n", regno,
			tname, off, tn);
		return REJECT;
	}
	if (reg->mem_flags & BTF_UNSAFE) {
		verbose(env, "R%u is ptr_%s access percpu or user memory: off=%d\n", regno, tname,
			off);
		return REJECT;
	}
	if (write)
		return check_btf_ptr_write(env, btf, reg, (uint32_t)off, size);
	res = struct_walk(env, btf, reg->btf_id, (uint32_t)off, (uint32_t)size, &w);
	if (res < 0 || !dst)
		return res < 0 ? res : 0;
	if (res == WALK_SCALAR) {
		reg_mark_unknown(dst);
		reg_coerce_size(dst, size);
		return 0;
	}
	if (res == WALK_PTR_MEM) {
		/* memory of no known size, read through probe loads only */
		reg_mark_known(dst, 0);
		dst->type = PTR_TO_MEM;
		dst->mem_size = 0;
		dst->mem_flags = MEM_RDONLY | MEM_UNTRUSTED;
		return 0;
	}
	/* a pointer read through another: the kernel's check_ptr_to_btf_access */
	reg_mark_known(dst, 0);
	dst->type = PTR_TO_BTF_ID;
	dst->btf_id = w.ptr_id;
	dst->mem_flags = w.unsafe ? BTF_UNSAFE : 0;
	if (w.untrusted || (reg->mem_flags & BTF_UNTRUSTED))
		dst->mem_flags |= BTF_UNTRUSTED;
	if (!(reg->mem_flags & BTF_UNTRUSTED) && (reg->ref_obj_id || (reg->mem_flags & BTF_RCU)) &&
	    w.rcu) {
		/* an __rcu member of a trusted object: RCU-protected, maybe NULL */
		dst->type = PTR_TO_BTF_ID_OR_NULL;
		dst->mem_flags |= BTF_RCU;
		dst->id = new_id(env);
	}
	/* else the kernel's plain (deprecated) PTR_TO_BTF_ID: read, or passed
	 * to a socket helper, never to a kfunc that wants it trusted */
	return 0;
}

/* ---- the conntrack kfuncs ------------------------------------------- */

enum ct_arg {
	CT_NONE,
	CT_CTX,	      /* struct xdp_md *, unmoved */
	CT_MEM,	      /* memory of the next argument's size (its __sz) */
	CT_SIZE,      /* that size: checked with the memory */
	CT_CONN,      /* struct nf_conn *, trusted */
	CT_CONN_INIT, /* struct nf_conn___init *, trusted */
	CT_ADDR,      /* union nf_inet_addr *: 16 bytes read and written */
	CT_SCALAR,
};

enum {
	CT_ACQUIRE = 1,	 /* KF_ACQUIRE */
	CT_RELEASE = 2,	 /* KF_RELEASE */
	CT_RET_NULL = 4, /* KF_RET_NULL */
	CT_TRUSTED = 8,	 /* KF_TRUSTED_ARGS */
	CT_VOID = 16,	 /* returns nothing */
};

struct ct_kfunc {
	int32_t id;
	const char *name;
	uint8_t args[5];
	uint8_t flags;
	const char *ret; /* the struct of an acquired result */
};

#define CT_LOOKUP_ARGS                                                                             \
	{                                                                                          \
		CT_CTX, CT_MEM, CT_SIZE, CT_MEM, CT_SIZE                                           \
	}

static const struct ct_kfunc ct_kfuncs[] = {
	/* ctx, struct bpf_sock_tuple *, tuple__sz, struct bpf_ct_opts *, opts__sz */
	{ KFUNC_CT_LOOKUP, "bpf_xdp_ct_lookup", CT_LOOKUP_ARGS, CT_ACQUIRE | CT_RET_NULL,
	  "nf_conn" },
	{ KFUNC_CT_ALLOC, "bpf_xdp_ct_alloc", CT_LOOKUP_ARGS, CT_ACQUIRE | CT_RET_NULL,
	  "nf_conn___init" },
	{ KFUNC_CT_INSERT_ENTRY,
	  "bpf_ct_insert_entry",
	  { CT_CONN_INIT },
	  CT_ACQUIRE | CT_RELEASE | CT_RET_NULL,
	  "nf_conn" },
	{ KFUNC_CT_RELEASE, "bpf_ct_release", { CT_CONN }, CT_RELEASE | CT_VOID, NULL },
	{ KFUNC_CT_SET_TIMEOUT,
	  "bpf_ct_set_timeout",
	  { CT_CONN_INIT, CT_SCALAR },
	  CT_TRUSTED | CT_VOID,
	  NULL },
	{ KFUNC_CT_CHANGE_TIMEOUT,
	  "bpf_ct_change_timeout",
	  { CT_CONN, CT_SCALAR },
	  CT_TRUSTED,
	  NULL },
	{ KFUNC_CT_SET_STATUS, "bpf_ct_set_status", { CT_CONN_INIT, CT_SCALAR }, CT_TRUSTED, NULL },
	{ KFUNC_CT_CHANGE_STATUS,
	  "bpf_ct_change_status",
	  { CT_CONN, CT_SCALAR },
	  CT_TRUSTED,
	  NULL },
	/* nfct, addr, port, enum nf_nat_manip_type */
	{ KFUNC_CT_SET_NAT_INFO,
	  "bpf_ct_set_nat_info",
	  { CT_CONN_INIT, CT_ADDR, CT_SCALAR, CT_SCALAR },
	  CT_TRUSTED,
	  NULL },
};

static const struct ct_kfunc *find_ct_kfunc(int32_t id)
{
	for (size_t i = 0; i < sizeof(ct_kfuncs) / sizeof(ct_kfuncs[0]); i++)
		if (ct_kfuncs[i].id == id)
			return &ct_kfuncs[i];
	return NULL;
}

const char *conntrack_kfunc_name(int32_t id)
{
	const struct ct_kfunc *k = find_ct_kfunc(id);

	return k ? k->name : NULL;
}

bool kfunc_is_conntrack(const struct bpf_insn *insn)
{
	return insn->src_reg == BPF_PSEUDO_KFUNC_CALL && !insn->off && find_ct_kfunc(insn->imm);
}

/* A conntrack entry argument: a reference or trusted, unmoved, of its
 * exact struct (the kfuncs that acquire or release take no other, and
 * nf_conn___init is nf_conn's no-cast alias). */
static int check_conn_arg(struct verifier_env *env, const struct ct_kfunc *k, uint32_t regno,
			  const char *want)
{
	const struct reg_state *reg = &cur_frame(env)->regs[regno];
	uint32_t arg = regno - 1;

	if (reg->type == PTR_TO_BTF_ID && !reg->ref_obj_id) {
		verbose(env, "R%u must be referenced or trusted\n", regno);
		return -EINVAL;
	}
	/* anything else is memory to the kernel, which a struct of
	 * pointers cannot be */
	if (reg->type != PTR_TO_BTF_ID && !type_is_sock(reg->type)) {
		verbose(env,
			"arg#%u pointer type STRUCT %s must point to scalar, or struct with "
			"scalar\n",
			arg, want);
		return -EINVAL;
	}
	if (reg->off || !tnum_equals_const(reg->var_off, 0)) {
		verbose(env,
			"R%u must have zero offset when passed to release func or trusted arg to "
			"kfunc\n",
			regno);
		return REJECT;
	}
	if (reg->type != PTR_TO_BTF_ID || strcmp(btf_ptr_struct_name(env, reg), want)) {
		verbose(env,
			"kernel function %s args#%u expected pointer to STRUCT %s but R%u has a "
			"pointer to STRUCT %s\n",
			k->name, arg, want, regno,
			reg->type == PTR_TO_BTF_ID   ? btf_ptr_struct_name(env, reg)
			: reg->type == PTR_TO_SOCKET ? "sock"
						     : "sock_common");
		return -EINVAL;
	}
	return 0;
}

static int check_ct_arg(struct verifier_env *env, const struct ct_kfunc *k, uint32_t regno,
			uint32_t *release_ref)
{
	const struct reg_state *reg = &cur_frame(env)->regs[regno];
	uint8_t type = k->args[regno - 1];
	bool trusted = (k->flags & (CT_TRUSTED | CT_RELEASE)) != 0;
	int err;

	err = check_reg_readable(env, regno);
	if (err)
		return err;
	if (type == CT_SCALAR || type == CT_SIZE) {
		if (reg->type != SCALAR_VALUE) {
			verbose(env, "R%u is not a scalar\n", regno);
			return -EINVAL;
		}
		return 0;
	}
	if (trusted && (type_is_or_null(reg->type) ||
			(reg->type == SCALAR_VALUE && tnum_equals_const(reg->var_off, 0)))) {
		verbose(env, "Possibly NULL pointer passed to trusted arg%u\n", regno - 1);
		return -EACCES;
	}
	if (reg->ref_obj_id && (k->flags & CT_RELEASE))
		*release_ref = reg->ref_obj_id;
	switch (type) {
	case CT_CTX:
		if (reg->type != PTR_TO_CTX) {
			verbose(env, "arg#%u expected pointer to ctx, but got %s\n", regno - 1,
				reg_type_str(reg->type));
			return -EINVAL;
		}
		if (reg->off || !tnum_equals_const(reg->var_off, 0)) {
			verbose(env, "dereference of modified ctx ptr R%u off=%d disallowed\n",
				regno, reg->off);
			return REJECT;
		}
		return 0;
	case CT_MEM:
		err = check_kfunc_mem_arg(env, regno);
		if (err)
			verbose(env,
				"arg#%u arg#%u memory, len pair leads to invalid memory access\n",
				regno - 1, regno);
		return err;
	case CT_CONN:
		return check_conn_arg(env, k, regno, "nf_conn");
	case CT_CONN_INIT:
		return check_conn_arg(env, k, regno, "nf_conn___init");
	case CT_ADDR:
		err = check_mem_region(env, regno, 0, 16, false, false);
		return err ? err : check_mem_region(env, regno, 0, 16, true, false);
	default:
		return 0;
	}
}

int check_conntrack_kfunc(struct verifier_env *env, const struct bpf_insn *insn, uint32_t idx)
{
	const struct ct_kfunc *k = find_ct_kfunc(insn->imm);
	struct reg_state *regs = cur_frame(env)->regs;
	uint32_t regno, release_ref = 0, ref;
	int err;

	if (!k)
		return -EINVAL;
	if (env->device) {
		verbose(env,
			"%u: %s: the coprocessor has no conntrack table (the host's netfilter "
			"keeps it); the program is the host's\n",
			idx, k->name);
		return -EOPNOTSUPP;
	}
	for (regno = BPF_REG_1; regno <= BPF_REG_5 && k->args[regno - 1] != CT_NONE; regno++) {
		err = check_ct_arg(env, k, regno, &release_ref);
		if (err)
			return err;
	}
	if ((k->flags & CT_RELEASE) && !release_ref) {
		verbose(env, "release kernel function %s expects refcounted PTR_TO_BTF_ID\n",
			k->name);
		return -EINVAL;
	}
	if (release_ref)
		release_reference(env, release_ref);
	for (regno = BPF_REG_1; regno <= BPF_REG_5; regno++)
		reg_mark_not_init(&regs[regno]);
	if (k->flags & CT_VOID) {
		reg_mark_not_init(&regs[BPF_REG_0]);
		return 0;
	}
	if (!(k->flags & CT_ACQUIRE)) {
		reg_mark_unknown(&regs[BPF_REG_0]);
		return 0;
	}
	err = btf_ptr_mark_ret(env, &regs[BPF_REG_0], k->ret);
	if (err)
		return err;
	ref = acquire_reference(env, idx);
	if (!ref)
		return -E2BIG;
	/* the NULL check's failure side gives the reference back */
	regs[BPF_REG_0].id = ref;
	regs[BPF_REG_0].ref_obj_id = ref;
	return 0;
}
