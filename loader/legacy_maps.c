// SPDX-License-Identifier: GPL-2.0
/*
 * Legacy maps rewritten as BTF-defined ones, for the host copy.
 *
 * libbpf 1.x refuses a "maps" section. The object is rewritten so that it
 * has none: the section becomes ".maps", each map symbol a slot of it with a
 * BTF struct of libbpf's __uint() fields (a pointer to an array whose
 * element count is the value) for the definition's type, key_size,
 * value_size, max_entries and map_flags, a VAR of the map's name and a
 * DATASEC ".maps" listing them. Symbol indexes do not change, so the
 * programs' relocations, which name the map symbols, find the maps again.
 * The types are added to the object's .BTF where it has one (its type ids
 * and strings stay, and with them .BTF.ext), to a new .BTF otherwise.
 *
 * The definitions are read as hwxdp's own loader reads them
 * (loader/object.c, after libbpf 0.x): one size for all, the first five
 * words, the rest zero where a definition is shorter. Words past the fifth
 * are those of samples/bpf (inner_map_idx, numa_node) or of iproute2 (id,
 * pinning, inner_id, inner_idx): a map of maps, whose inner map no legacy
 * definition gives libbpf, is refused; iproute2's pinning is not carried (the
 * host copy's maps are pinned where its caller says, loader/host.h).
 */
#include <errno.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <linux/bpf.h>

#include "base/log.h"
#include "loader/legacy_maps.h"

#define DEF_WORDS	5  /* type, key_size, value_size, max_entries, map_flags */
#define SAMPLES_DEF_SZ	28 /* samples/bpf: + inner_map_idx, numa_node */
#define IPROUTE2_DEF_SZ 36 /* struct bpf_elf_map: + id, pinning, inner_id, inner_idx */

static const char *const field_names[] = { "type",	  "key_size",  "value_size",
					   "max_entries", "map_flags", "numa_node" };

struct legacy_map {
	size_t sym;		/* index in .symtab */
	uint64_t old_off;	/* in "maps" */
	uint64_t new_off;	/* in ".maps" */
	uint32_t fields[6];	/* field_names */
	unsigned int field_cnt; /* 5, or 6 with numa_node */
	const char *name;
	int var; /* BTF id */
};

struct section {
	GElf_Shdr shdr;
	const char *name;
	uint8_t *data; /* what is written: the input's bytes, or a rewritten copy */
	size_t size;
	bool owned;
};

struct rewrite {
	const char *file;
	Elf *elf;
	struct section *secs;
	size_t sec_cnt;
	size_t shstrndx, maps, symtab, btf;
	Elf64_Sym *syms; /* a copy, rewritten */
	size_t sym_cnt, strtab;
	struct legacy_map *map;
	size_t map_cnt;
};

static int refuse(const struct rewrite *r, int err, const char *fmt, const char *what)
{
	char line[256];

	snprintf(line, sizeof(line), fmt, what);
	return hwxdp_error(err, "%s: %s", r->file, line);
}

static int read_sections(struct rewrite *r)
{
	bool has_btf_maps = false;
	size_t i;

	if (elf_getshdrnum(r->elf, &r->sec_cnt) || elf_getshdrstrndx(r->elf, &r->shstrndx))
		return refuse(r, -HWXDP_ERR_ELF, "bad section headers: %s", elf_errmsg(-1));
	if (r->sec_cnt >= SHN_LORESERVE || r->shstrndx >= r->sec_cnt)
		return refuse(r, -HWXDP_ERR_ELF, "%s section headers", "too many");
	r->secs = calloc(r->sec_cnt + 1, sizeof(*r->secs));
	if (!r->secs)
		return -ENOMEM;
	for (i = 1; i < r->sec_cnt; i++) {
		struct section *s = &r->secs[i];
		Elf_Scn *scn = elf_getscn(r->elf, i);
		Elf_Data *d;

		if (!scn || !gelf_getshdr(scn, &s->shdr))
			return refuse(r, -HWXDP_ERR_ELF, "bad section header: %s", elf_errmsg(-1));
		s->name = elf_strptr(r->elf, r->shstrndx, s->shdr.sh_name);
		if (!s->name)
			return refuse(r, -HWXDP_ERR_ELF, "%s",
				      "a section name outside the string table");
		if (s->shdr.sh_type != SHT_NOBITS && s->shdr.sh_size) {
			d = elf_getdata(scn, NULL);
			if (!d || !d->d_buf || d->d_size != s->shdr.sh_size)
				return refuse(r, -HWXDP_ERR_ELF, "section %s: unreadable", s->name);
			s->data = d->d_buf;
			s->size = d->d_size;
		}
		/* a power of two, and no more than a page: it lays out the image */
		if (s->shdr.sh_addralign > 4096 ||
		    (s->shdr.sh_addralign & (s->shdr.sh_addralign - 1)))
			return refuse(r, -HWXDP_ERR_ELF, "section %s: an alignment of its own",
				      s->name);
		if (!strcmp(s->name, "maps"))
			r->maps = i;
		else if (!strcmp(s->name, ".maps"))
			has_btf_maps = true;
		else if (!strcmp(s->name, ".BTF"))
			r->btf = i;
		else if (s->shdr.sh_type == SHT_SYMTAB) {
			r->symtab = i;
			r->strtab = s->shdr.sh_link;
		}
	}
	if (r->maps && has_btf_maps)
		return refuse(r, -HWXDP_ERR_MAP, "%s",
			      "both legacy 'maps' and BTF '.maps' sections");
	return 0;
}

/* Whether a section of r is named "maps": only such an object is the rewrite's
 * to refuse; libbpf says what is wrong with any other. */
static bool has_legacy_section(const struct rewrite *r)
{
	size_t cnt, shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrnum(r->elf, &cnt) || elf_getshdrstrndx(r->elf, &shstrndx))
		return false;
	for (size_t i = 1; i < cnt; i++) {
		Elf_Scn *scn = elf_getscn(r->elf, i);
		const char *name = scn && gelf_getshdr(scn, &sh)
					   ? elf_strptr(r->elf, shstrndx, sh.sh_name)
					   : NULL;

		if (name && !strcmp(name, "maps"))
			return true;
	}
	return false;
}

static int cmp_old_off(const void *a, const void *b)
{
	const struct legacy_map *x = a, *y = b;

	return x->old_off < y->old_off ? -1 : x->old_off > y->old_off;
}

static bool map_symbol(const struct rewrite *r, size_t i)
{
	return r->syms[i].st_shndx == r->maps && ELF64_ST_TYPE(r->syms[i].st_info) != STT_SECTION;
}

/* The definitions, as loader/object.c reads them. */
static int read_maps(struct rewrite *r)
{
	const struct section *s = &r->secs[r->maps];
	const struct section *st = &r->secs[r->symtab];
	size_t i, k = 0, def_size;

	if (!r->symtab || st->size % sizeof(Elf64_Sym) || r->strtab >= r->sec_cnt)
		return refuse(r, -HWXDP_ERR_ELF, "%s", "no readable symbol table");
	r->sym_cnt = st->size / sizeof(Elf64_Sym);
	r->syms = malloc(st->size ? st->size : 1);
	if (!r->syms)
		return -ENOMEM;
	memcpy(r->syms, st->data, st->size);
	for (i = 1; i < r->sym_cnt; i++)
		r->map_cnt += map_symbol(r, i);
	if (!r->map_cnt || !s->data || s->size % r->map_cnt) {
		char what[64];

		snprintf(what, sizeof(what), "%zu bytes for %zu maps", s->size, r->map_cnt);
		return refuse(r, -HWXDP_ERR_MAP, "maps: %s, not one size each", what);
	}
	def_size = s->size / r->map_cnt;
	r->map = calloc(r->map_cnt, sizeof(*r->map));
	if (!r->map)
		return -ENOMEM;
	for (i = 1; i < r->sym_cnt; i++)
		if (map_symbol(r, i))
			r->map[k++] =
				(struct legacy_map){ .sym = i, .old_off = r->syms[i].st_value };
	qsort(r->map, r->map_cnt, sizeof(*r->map), cmp_old_off);
	for (k = 0; k < r->map_cnt; k++) {
		struct legacy_map *m = &r->map[k];
		const Elf64_Sym *sym = &r->syms[m->sym];
		uint32_t words[9] = { 0 };
		size_t size = sym->st_size ? sym->st_size : def_size;

		m->name = elf_strptr(r->elf, r->strtab, sym->st_name);
		if (!m->name || !*m->name)
			return refuse(r, -HWXDP_ERR_MAP, "maps: a map symbol %s", "without a name");
		if (m->old_off > s->size || size > s->size - m->old_off)
			return refuse(r, -HWXDP_ERR_MAP, "maps: '%s' lies beyond the section",
				      m->name);
		memcpy(words, s->data + m->old_off, size < sizeof(words) ? size : sizeof(words));
		memcpy(m->fields, words, DEF_WORDS * sizeof(uint32_t));
		m->field_cnt = DEF_WORDS;
		if (!m->fields[3] && m->fields[0] != BPF_MAP_TYPE_PERF_EVENT_ARRAY)
			return refuse(r, -HWXDP_ERR_MAP, "maps: '%s' has max_entries 0", m->name);
		if (m->fields[0] == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
		    m->fields[0] == BPF_MAP_TYPE_HASH_OF_MAPS)
			return refuse(r, -HWXDP_ERR_MAP,
				      "maps: '%s' is a map of maps, whose inner map a legacy "
				      "definition does not give libbpf 1.x: define it in "
				      "SEC(\".maps\") with __array(values, ...)",
				      m->name);
		if (size >= IPROUTE2_DEF_SZ && (words[7] || words[8]))
			return refuse(r, -HWXDP_ERR_MAP,
				      "maps: '%s' names an inner map (iproute2's inner_id, "
				      "inner_idx), which libbpf 1.x takes only from SEC(\".maps\")",
				      m->name);
		/* samples/bpf's numa_node, read only under BPF_F_NUMA_NODE */
		if (size == SAMPLES_DEF_SZ && (m->fields[4] & BPF_F_NUMA_NODE)) {
			m->fields[5] = words[6];
			m->field_cnt = 6;
		}
	}
	return 0;
}

/* The type of a __uint(name, value) member: a pointer to an array of value ints. */
static int uint_ptr(struct btf *btf, int int_id, uint32_t value)
{
	int arr = btf__add_array(btf, int_id, int_id, value);

	return arr < 0 ? arr : btf__add_ptr(btf, arr);
}

/*
 * The old DATASEC "maps" clang wrote stays (its id may be named elsewhere),
 * given the size and offsets libbpf would have taken from the section that
 * is gone: libbpf fixes up only a DATASEC of size 0.
 */
static int fix_old_datasec(const struct rewrite *r, const struct btf *btf, uint8_t *raw,
			   size_t raw_size)
{
	const struct btf_header *hdr = (const struct btf_header *)raw;
	int id = btf__find_by_name_kind(btf, "maps", BTF_KIND_DATASEC);
	const struct btf_type *t, *first;
	struct btf_var_secinfo *vsi;
	size_t off, len;

	if (id <= 0)
		return 0;
	t = btf__type_by_id(btf, id);
	first = btf__type_by_id(btf, 1);
	off = hdr->hdr_len + hdr->type_off + (size_t)((const uint8_t *)t - (const uint8_t *)first);
	len = sizeof(*t) + btf_vlen(t) * sizeof(*vsi);
	if ((const uint8_t *)t < (const uint8_t *)first || off > raw_size || len > raw_size - off ||
	    memcmp(raw + off, t, len))
		return refuse(r, -HWXDP_ERR_ELF, "%s", ".BTF: its DATASEC 'maps' not found again");
	((struct btf_type *)(raw + off))->size = (uint32_t)r->secs[r->maps].size;
	vsi = (struct btf_var_secinfo *)(raw + off + sizeof(*t));
	for (unsigned int i = 0; i < btf_vlen(t); i++) {
		const struct btf_type *var = btf__type_by_id(btf, vsi[i].type);
		const char *name = var ? btf__name_by_offset(btf, var->name_off) : NULL;

		for (size_t k = 0; name && k < r->map_cnt; k++)
			if (!strcmp(name, r->map[k].name))
				vsi[i].offset = (uint32_t)r->map[k].old_off;
	}
	return 0;
}

/* The new .BTF: the old one and the maps' types. */
static int build_btf(struct rewrite *r, uint8_t **out, size_t *out_size)
{
	const struct section *old = r->btf ? &r->secs[r->btf] : NULL;
	struct btf *btf = old ? btf__new(old->data, (uint32_t)old->size) : btf__new_empty();
	const void *raw;
	uint32_t raw_size, total = 0;
	int int_id, err = 0;
	size_t k;

	if (!btf)
		return refuse(r, -HWXDP_ERR_ELF, ".BTF: unreadable (%s)", strerror(errno));
	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	err = int_id < 0 ? int_id : 0;
	for (k = 0; !err && k < r->map_cnt; k++) {
		struct legacy_map *m = &r->map[k];
		const Elf64_Sym *sym = &r->syms[m->sym];
		int ptr[6], s = 0;
		unsigned int f;

		/* a struct's fields follow it at once: their types come first */
		for (f = 0; !err && f < m->field_cnt; f++) {
			ptr[f] = uint_ptr(btf, int_id, m->fields[f]);
			err = ptr[f] < 0 ? ptr[f] : 0;
		}
		if (!err) {
			s = btf__add_struct(btf, NULL, m->field_cnt * 8);
			err = s < 0 ? s : 0;
		}
		for (f = 0; !err && f < m->field_cnt; f++)
			err = btf__add_field(btf, field_names[f], ptr[f], f * 64, 0);
		/* a static map is a static VAR: libbpf looks up a global one's
		 * symbol among the global ones */
		m->var = err ? err
			     : btf__add_var(btf, m->name,
					    ELF64_ST_BIND(sym->st_info) == STB_LOCAL
						    ? BTF_VAR_STATIC
						    : BTF_VAR_GLOBAL_ALLOCATED,
					    s);
		err = m->var < 0 ? m->var : 0;
		m->new_off = total;
		total += m->field_cnt * 8;
	}
	if (!err) {
		int sec = btf__add_datasec(btf, ".maps", total);

		err = sec < 0 ? sec : 0;
	}
	for (k = 0; !err && k < r->map_cnt; k++)
		err = btf__add_datasec_var_info(btf, r->map[k].var, (uint32_t)r->map[k].new_off,
						r->map[k].field_cnt * 8);
	if (err) {
		btf__free(btf);
		return refuse(r, err, ".BTF: cannot add the maps' types: %s", strerror(-err));
	}
	raw = btf__raw_data(btf, &raw_size);
	*out = raw ? malloc(raw_size) : NULL;
	if (!*out) {
		btf__free(btf);
		return -ENOMEM;
	}
	memcpy(*out, raw, raw_size);
	*out_size = raw_size;
	err = old ? fix_old_datasec(r, btf, *out, raw_size) : 0;
	btf__free(btf);
	if (err) {
		free(*out);
		*out = NULL;
	}
	return err;
}

/* Relocations name map symbols (clang's way); one naming the section, or
 * one in the section itself, has nothing libbpf 1.x can take. */
static int check_relocs(const struct rewrite *r)
{
	for (size_t i = 1; i < r->sec_cnt; i++) {
		const struct section *s = &r->secs[i];
		const Elf64_Rel *rel = (const Elf64_Rel *)s->data;

		if (s->shdr.sh_type != SHT_REL || s->shdr.sh_link != r->symtab)
			continue;
		if (s->shdr.sh_info == r->maps)
			return refuse(r, -HWXDP_ERR_MAP, "maps: relocated by %s", s->name);
		if (s->shdr.sh_info >= r->sec_cnt ||
		    !(r->secs[s->shdr.sh_info].shdr.sh_flags & SHF_EXECINSTR))
			continue;
		for (size_t k = 0; rel && k < s->size / sizeof(*rel); k++) {
			size_t sym = ELF64_R_SYM(rel[k].r_info);

			if (sym < r->sym_cnt && r->syms[sym].st_shndx == r->maps &&
			    ELF64_ST_TYPE(r->syms[sym].st_info) == STT_SECTION)
				return refuse(r, -HWXDP_ERR_MAP,
					      "maps: %s names the section, not a map symbol",
					      s->name);
		}
	}
	return 0;
}

static int set_data(struct section *s, uint8_t *data, size_t size)
{
	if (!data)
		return -ENOMEM;
	if (s->owned)
		free(s->data);
	s->data = data;
	s->size = size;
	s->shdr.sh_size = size;
	s->owned = true;
	return 0;
}

/* ".maps" and, where it is new, ".BTF" at the end of .shstrtab. */
static int add_names(struct rewrite *r, bool new_btf, size_t *maps_name, size_t *btf_name)
{
	struct section *s = &r->secs[r->shstrndx];
	size_t size = s->size + sizeof(".maps") + sizeof(".BTF");
	uint8_t *data = malloc(size);

	if (!data)
		return -ENOMEM;
	memcpy(data, s->data, s->size);
	*maps_name = s->size;
	memcpy(data + *maps_name, ".maps", sizeof(".maps"));
	*btf_name = *maps_name + sizeof(".maps");
	memcpy(data + *btf_name, ".BTF", sizeof(".BTF"));
	return set_data(s, data, new_btf ? size : size - sizeof(".BTF"));
}

static size_t align_up(size_t v, size_t a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

/* Ehdr, the sections in their order, then the section headers. */
static int write_elf(const struct rewrite *r, const void *in, size_t cnt, void **image,
		     size_t *image_size)
{
	size_t off = sizeof(Elf64_Ehdr), i;
	Elf64_Ehdr eh;
	uint8_t *out;

	for (i = 1; i < cnt; i++) {
		off = align_up(off, r->secs[i].shdr.sh_addralign);
		if (r->secs[i].shdr.sh_type != SHT_NOBITS)
			off += r->secs[i].size;
	}
	off = align_up(off, 8);
	*image_size = off + cnt * sizeof(Elf64_Shdr);
	out = calloc(1, *image_size);
	if (!out)
		return -ENOMEM;
	memcpy(&eh, in, sizeof(eh));
	eh.e_phoff = 0;
	eh.e_phnum = 0;
	eh.e_shoff = off;
	eh.e_shnum = (Elf64_Half)cnt;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	memcpy(out, &eh, sizeof(eh));
	off = sizeof(Elf64_Ehdr);
	for (i = 1; i < cnt; i++) {
		const struct section *s = &r->secs[i];
		Elf64_Shdr sh = {
			.sh_name = s->shdr.sh_name,
			.sh_type = s->shdr.sh_type,
			.sh_flags = s->shdr.sh_flags,
			.sh_link = s->shdr.sh_link,
			.sh_info = s->shdr.sh_info,
			.sh_addralign = s->shdr.sh_addralign,
			.sh_entsize = s->shdr.sh_entsize,
			.sh_size = s->shdr.sh_size,
		};

		off = align_up(off, sh.sh_addralign);
		sh.sh_offset = off;
		if (s->shdr.sh_type != SHT_NOBITS) {
			if (s->size)
				memcpy(out + off, s->data, s->size);
			off += s->size;
		}
		memcpy(out + eh.e_shoff + i * sizeof(sh), &sh, sizeof(sh));
	}
	*image = out;
	return 0;
}

static int rewrite(struct rewrite *r, const void *data, size_t size, void **image,
		   size_t *image_size)
{
	size_t maps_name, btf_name, btf_size = 0, k, cnt, maps_size;
	uint8_t *btf_raw = NULL;
	struct section *maps;
	bool new_btf;
	GElf_Ehdr eh;
	int err;

	if (elf_kind(r->elf) != ELF_K_ELF || !gelf_getehdr(r->elf, &eh) || !has_legacy_section(r))
		return 0;
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    size < sizeof(Elf64_Ehdr))
		return refuse(r, -HWXDP_ERR_ELF, "%s", "not a 64-bit little-endian ELF file");
	err = read_sections(r);
	if (err || !r->maps)
		return err;
	err = read_maps(r) ?: check_relocs(r) ?: build_btf(r, &btf_raw, &btf_size);
	if (err)
		return err;
	cnt = r->sec_cnt;
	new_btf = !r->btf;
	if (new_btf) {
		r->btf = cnt++;
		r->secs[r->btf].shdr = (GElf_Shdr){ .sh_type = SHT_PROGBITS, .sh_addralign = 4 };
	}
	err = set_data(&r->secs[r->btf], btf_raw, btf_size)
		      ?: add_names(r, new_btf, &maps_name, &btf_name);
	if (err)
		return err;
	if (new_btf)
		r->secs[r->btf].shdr.sh_name = btf_name;
	maps = &r->secs[r->maps];
	maps_size = r->map[r->map_cnt - 1].new_off + r->map[r->map_cnt - 1].field_cnt * 8;
	err = set_data(maps, calloc(1, maps_size), maps_size);
	if (err)
		return err;
	maps->shdr.sh_name = maps_name;
	maps->shdr.sh_type = SHT_PROGBITS;
	maps->shdr.sh_addralign = 8;
	/* objects (older clang left some untyped): libbpf finds a map's VAR
	 * among the object symbols */
	for (k = 0; k < r->map_cnt; k++) {
		Elf64_Sym *sym = &r->syms[r->map[k].sym];

		sym->st_value = r->map[k].new_off;
		sym->st_size = r->map[k].field_cnt * 8;
		sym->st_info = ELF64_ST_INFO(ELF64_ST_BIND(sym->st_info), STT_OBJECT);
	}
	err = set_data(&r->secs[r->symtab], (uint8_t *)r->syms, r->sym_cnt * sizeof(*r->syms));
	if (err)
		return err;
	r->syms = NULL; /* the section's now */
	return write_elf(r, data, cnt, image, image_size) ?: 1;
}

int hwxdp_legacy_maps_rewrite(const void *data, size_t size, const char *file, void **image,
			      size_t *image_size)
{
	struct rewrite r = { .file = file };
	void *copy = malloc(size ? size : 1);
	int err;

	*image = NULL;
	*image_size = 0;
	if (!copy)
		return hwxdp_error(-ENOMEM, "%s: out of memory rewriting its legacy maps", file);
	memcpy(copy, data, size);
	elf_version(EV_CURRENT);
	r.elf = elf_memory(copy, size);
	err = r.elf ? rewrite(&r, copy, size, image, image_size) : 0;
	if (err == -ENOMEM)
		hwxdp_error(err, "%s: out of memory rewriting its legacy maps", file);
	for (size_t i = 0; r.secs && i <= r.sec_cnt; i++)
		if (r.secs[i].owned)
			free(r.secs[i].data);
	free(r.secs);
	free(r.syms);
	free(r.map);
	if (r.elf)
		elf_end(r.elf);
	free(copy);
	return err;
}
