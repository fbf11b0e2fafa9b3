/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between the object loader's files; not part of the public API. */
#ifndef HWXDP_LOADER_OBJECT_INTERNAL_H
#define HWXDP_LOADER_OBJECT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "loader/object.h"

struct bpf_object;

/* What an object owns beyond its public fields, freed with it. */
struct object_priv {
	struct bpf_object *bpf; /* libbpf's view of a modern object, kept for its BTF */
	struct btf *own_btf;	/* BTF of a legacy object */
	void **blocks;		/* every allocation behind the public fields */
	size_t block_cnt, block_cap;
};

/* The .BTF.ext records of one kind (line info, CO-RE) of one ELF section. */
struct btf_ext_lines {
	const uint8_t *recs; /* struct bpf_line_info, rec_size apart, maybe unaligned */
	uint32_t cnt, rec_size;
};

/*
 * Finds section's line records in the .BTF.ext image ext (size bytes), with
 * section names resolved through btf. The whole image is checked on every
 * call: 0 (cnt 0 when the section has none) or -EINVAL when it is malformed.
 */
int btf_ext_lines(const void *ext, size_t size, const struct btf *btf, const char *section,
		  struct btf_ext_lines *out);

/* The same for section's CO-RE relocations (struct bpf_core_relo). */
int btf_ext_core_relos(const void *ext, size_t size, const struct btf *btf, const char *section,
		       struct btf_ext_lines *out);

struct bpf_insn;

/*
 * Applies the CO-RE relocation rec (a struct bpf_core_relo) of local, the
 * object's BTF, to insns (cnt of them, one code section) against targ, the
 * kernel's BTF, as libbpf does: the instruction gets the kernel's value, or
 * is poisoned (a call to HWXDP_CORE_POISON) when no kernel type matches. 0, or
 * -HWXDP_ERR_RELOC with the reason in msg.
 */
int core_relocate(const struct btf *local, const struct btf *targ, const void *rec,
		  struct bpf_insn *insns, size_t cnt, char *msg, size_t msg_size);

/*
 * Checks that every name and type id btf refers to exists, and that no chain
 * of modifiers and typedefs loops. libbpf 1.1 follows them unchecked when it
 * opens an object. 0, or -EINVAL with *bad the first bad type.
 */
int btf_check_refs(const struct btf *btf, uint32_t *bad);

#define BTF_LINKS_MAX 32 /* modifiers and typedefs followed to a type */

/* The type id names once its modifiers and typedefs are followed (its id in
 * *out, when out is given), or NULL for a chain that ends in no type or is
 * longer than BTF_LINKS_MAX. */
const struct btf_type *btf_skip_links(const struct btf *btf, uint32_t id, uint32_t *out);

#endif /* HWXDP_LOADER_OBJECT_INTERNAL_H */
