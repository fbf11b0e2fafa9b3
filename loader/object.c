// SPDX-License-Identifier: GPL-2.0
/*
 * BPF ELF objects into linked programs and map descriptors, without a kernel.
 *
 * libbpf opens the object without loading it and says what the maps and
 * program types are; libelf gives the sections, symbols and relocations.
 * Linking then repeats, in the same order, what libbpf does at load time, so
 * that a program here is instruction for instruction what libbpf hands the
 * kernel, with map indexes where libbpf puts descriptors. libbpf 1.x refuses
 * objects with legacy `struct bpf_map_def` maps; for those the maps are read
 * here, the way libbpf 0.x read them.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "base/file.h"
#include "loader/kconfig.h"
#include "loader/kfuncs.h"
#include "base/log.h"
#include "loader/object_internal.h"

#define INSN_SZ			 sizeof(struct bpf_insn)
#define OP_LD_IMM64		 (BPF_LD | BPF_IMM | BPF_DW)
#define OP_CALL			 (BPF_JMP | BPF_CALL)
#define OBJ_NAME_LEN		 16 /* BPF_OBJ_NAME_LEN: libbpf's object and map names */
#define offsetofend(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

enum sec_kind {
	SEC_NONE,
	SEC_CODE,   /* executable: programs and subprograms */
	SEC_DATA,   /* .data, .data.* */
	SEC_RODATA, /* .rodata, .rodata.* */
	SEC_BSS,    /* .bss, .bss.* */
	SEC_MAPS,   /* .maps: BTF-defined maps */
	SEC_LEGACY, /* maps: struct bpf_map_def */
};

#define IS_GLOBAL_DATA(kind) ((kind) >= SEC_DATA && (kind) <= SEC_BSS)

struct section {
	const char *name;
	GElf_Shdr shdr;
	Elf_Data *data;		/* NULL when empty or NOBITS */
	struct bpf_insn *insns; /* code: an aligned copy, sections may sit anywhere */
	size_t size;
	enum sec_kind kind;
	int map; /* global data: its map */
};

/* A program or a subprogram: one STT_FUNC symbol in a code section. */
struct func {
	const char *name;
	size_t sec, off, cnt; /* in instructions, within the section */
	size_t pos;	      /* where it starts in the program being linked; 0: absent */
};

enum reloc_kind { RELOC_MAP, RELOC_DATA, RELOC_CALL, RELOC_FUNC_ADDR, RELOC_EXTERN, RELOC_KCONFIG };

struct reloc {
	size_t sec, insn; /* the instruction, within its section */
	enum reloc_kind kind;
	const char *name; /* the symbol's */
	size_t sym_sec;
	uint64_t sym_off;
	int map;
	bool weak;
	const struct hwxdp_kfunc *kfunc; /* NULL for an unresolved extern */
};

struct map_place {
	size_t sec;
	uint64_t off;
};

/* A program's address in a program array's definition, or a map's in a
 * map of maps', and where it went. */
struct slot_prog {
	uint64_t off;		      /* in .maps */
	const char *name;	      /* the function's, or the map's */
	struct hwxdp_init_prog *init; /* its map's entry for it; NULL: no map's */
	bool map;		      /* a map's address, not a function's */
};

struct loader {
	const char *file;
	Elf *elf;
	struct section *secs;
	size_t sec_cnt, text, maps, legacy, license, btf, btf_ext;
	Elf_Data *symtab;
	size_t sym_cnt, symtab_sec, strtab;
	struct func *funcs;
	size_t func_cnt;
	struct reloc *relocs;
	size_t reloc_cnt;
	struct map_place *places; /* per map: where it is defined */
	struct slot_prog *slot_progs; /* .maps places a program's address fills */
	size_t slot_prog_cnt, slot_prog_cap;
	const struct hwxdp_kfunc *kfuncs;
	struct hwxdp_object *obj;
	struct object_priv *priv;
	/* the program being linked */
	struct hwxdp_prog *prog;
	struct func **placed; /* functions in stream order */
	size_t insn_cap, start_cap, placed_cap, name_cap, line_cap, extern_cap;
};

__attribute__((format(printf, 3, 4))) static int fail(const struct loader *l, int err,
						      const char *fmt, ...)
{
	char msg[256], *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Names come from the file, which may be garbage. */
	for (p = msg; *p; p++)
		if (!isprint((unsigned char)*p))
			*p = '?';
	return hwxdp_error(err, "%s: %s", l->file, msg);
}

/* Makes the array *buf hold at least need elements. */
static int grow(void *buf, size_t *cap, size_t need, size_t elem)
{
	void **p = buf, *n;
	size_t c = *cap ? *cap : 16;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	n = realloc(*p, c * elem);
	if (!n)
		return -ENOMEM;
	*p = n;
	*cap = c;
	return 0;
}

/* Hands block to the object, which frees it on close; frees it on failure. */
static void *keep(struct object_priv *priv, void *block)
{
	if (!block || grow(&priv->blocks, &priv->block_cap, priv->block_cnt + 1, sizeof(void *))) {
		free(block);
		return NULL;
	}
	priv->blocks[priv->block_cnt++] = block;
	return block;
}

static const char *sec_name(const struct loader *l, size_t idx)
{
	return idx && idx < l->sec_cnt ? l->secs[idx].name : "?";
}

static int get_sym(const struct loader *l, size_t idx, GElf_Sym *sym, const char **name)
{
	if (!idx || idx >= l->sym_cnt || !gelf_getsym(l->symtab, idx, sym))
		return -1;
	*name = elf_strptr(l->elf, l->strtab, sym->st_name);
	if (*name && !**name && GELF_ST_TYPE(sym->st_info) == STT_SECTION)
		*name = sec_name(l, sym->st_shndx);
	return *name ? 0 : -1;
}

/* --- sections ------------------------------------------------------------ */

static bool named(const char *name, const char *base)
{
	size_t len = strlen(base);

	return !strncmp(name, base, len) && (!name[len] || name[len] == '.');
}

static enum sec_kind classify(const struct section *s)
{
	if (!strcmp(s->name, "maps"))
		return SEC_LEGACY;
	if (!strcmp(s->name, ".maps"))
		return SEC_MAPS;
	if (!s->size)
		return SEC_NONE;
	if (s->shdr.sh_type == SHT_PROGBITS && (s->shdr.sh_flags & SHF_EXECINSTR))
		return SEC_CODE;
	if (s->shdr.sh_type == SHT_PROGBITS)
		return named(s->name, ".data")	   ? SEC_DATA
		       : named(s->name, ".rodata") ? SEC_RODATA
						   : SEC_NONE;
	return s->shdr.sh_type == SHT_NOBITS && named(s->name, ".bss") ? SEC_BSS : SEC_NONE;
}

static int read_section(struct loader *l, size_t i, size_t shstrndx)
{
	struct section *s = &l->secs[i];
	Elf_Scn *scn = elf_getscn(l->elf, i);

	s->map = -1;
	if (!scn || !gelf_getshdr(scn, &s->shdr))
		return fail(l, -HWXDP_ERR_ELF, "section %zu: bad header: %s", i, elf_errmsg(-1));
	s->name = elf_strptr(l->elf, shstrndx, s->shdr.sh_name);
	if (!s->name)
		return fail(l, -HWXDP_ERR_ELF, "section %zu: name outside the string table", i);
	s->size = s->shdr.sh_size;
	if (s->shdr.sh_type != SHT_NOBITS && s->size) {
		s->data = elf_getdata(scn, NULL);
		if (!s->data || !s->data->d_buf)
			return fail(l, -HWXDP_ERR_ELF, "section %s: unreadable: %s", s->name,
				    elf_errmsg(-1));
		s->size = s->data->d_size;
	}
	s->kind = classify(s);
	if (s->kind == SEC_CODE) {
		if (s->size % INSN_SZ)
			return fail(l, -HWXDP_ERR_PROG,
				    "section %s: %zu bytes, not whole instructions", s->name,
				    s->size);
		s->insns = malloc(s->size);
		if (!s->insns)
			return -ENOMEM;
		memcpy(s->insns, s->data->d_buf, s->size);
	}
	if (s->shdr.sh_type == SHT_SYMTAB) {
		if (l->symtab)
			return fail(l, -HWXDP_ERR_ELF, "more than one symbol table");
		l->symtab = s->data;
		l->symtab_sec = i;
		l->strtab = s->shdr.sh_link;
		l->sym_cnt = s->data ? s->size / sizeof(Elf64_Sym) : 0;
	}
	if (s->kind == SEC_CODE && !strcmp(s->name, ".text"))
		l->text = i;
	else if (s->kind == SEC_MAPS)
		l->maps = i;
	else if (s->kind == SEC_LEGACY)
		l->legacy = i;
	else if (s->data && !strcmp(s->name, "license"))
		l->license = i;
	else if (s->data && !strcmp(s->name, ".BTF"))
		l->btf = i;
	else if (s->data && !strcmp(s->name, ".BTF.ext"))
		l->btf_ext = i;
	return 0;
}

static int read_sections(struct loader *l)
{
	size_t i, shstrndx;
	GElf_Ehdr eh;
	int err;

	if (elf_kind(l->elf) != ELF_K_ELF)
		return fail(l, -HWXDP_ERR_ELF, "not an ELF file");
	if (!gelf_getehdr(l->elf, &eh))
		return fail(l, -HWXDP_ERR_ELF, "bad ELF header: %s", elf_errmsg(-1));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64)
		return fail(l, -HWXDP_ERR_ELF, "not a 64-bit ELF file");
	if (eh.e_ident[EI_DATA] !=
	    (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB))
		return fail(l, -HWXDP_ERR_ELF, "ELF byte order is not the host's");
	/* Old LLVM left e_machine 0; libbpf takes those too. */
	if (eh.e_machine != EM_BPF && eh.e_machine != EM_NONE)
		return fail(l, -HWXDP_ERR_ELF, "ELF for machine %u, not BPF (%u)", eh.e_machine,
			    EM_BPF);
	if (eh.e_type != ET_REL)
		return fail(l, -HWXDP_ERR_ELF, "not a relocatable object (ELF type %u)", eh.e_type);
	if (elf_getshdrnum(l->elf, &l->sec_cnt) || elf_getshdrstrndx(l->elf, &shstrndx))
		return fail(l, -HWXDP_ERR_ELF, "bad section table: %s", elf_errmsg(-1));
	l->secs = calloc(l->sec_cnt + 1, sizeof(*l->secs));
	if (!l->secs)
		return -ENOMEM;
	for (i = 1; i < l->sec_cnt; i++) {
		err = read_section(l, i, shstrndx);
		if (err)
			return err;
	}
	if (!l->symtab || !l->strtab || l->strtab >= l->sec_cnt ||
	    l->secs[l->strtab].shdr.sh_type != SHT_STRTAB)
		return fail(l, -HWXDP_ERR_ELF, "no symbol table with its string table");
	return 0;
}

/* --- older toolchains ---------------------------------------------------- */

/* Rewrites symbol idx of the object's image (a private copy) and libelf's
 * view of it, so that libbpf and the rest of the loader read the same. */
static void rewrite_sym(struct loader *l, uint8_t *image, size_t size, size_t idx,
			const GElf_Sym *sym)
{
	const GElf_Shdr *sh = &l->secs[l->symtab_sec].shdr;
	size_t at = sh->sh_offset + idx * sizeof(Elf64_Sym);
	Elf64_Sym raw;

	if (sh->sh_offset > size || at > size - sizeof(raw))
		return;
	memcpy(&raw, image + at, sizeof(raw));
	raw.st_info = sym->st_info;
	raw.st_size = sym->st_size;
	memcpy(image + at, &raw, sizeof(raw));
	gelf_update_sym(l->symtab, (int)idx, (GElf_Sym *)sym);
}

/* Where the function starting at value in section sec ends: the next
 * function's start (a typed function or an untyped global symbol), or the
 * section's end. */
static uint64_t untyped_end(const struct loader *l, size_t sec, uint64_t value)
{
	uint64_t end = l->secs[sec].size;

	for (size_t i = 1; i < l->sym_cnt; i++) {
		const char *name;
		GElf_Sym sym;

		if (get_sym(l, i, &sym, &name) || sym.st_shndx != sec ||
		    (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
		     (GELF_ST_TYPE(sym.st_info) != STT_NOTYPE ||
		      GELF_ST_BIND(sym.st_info) != STB_GLOBAL)))
			continue;
		if (sym.st_value > value && sym.st_value < end)
			end = sym.st_value;
	}
	return end;
}

/*
 * Objects that libbpf 0.x loaded and libbpf 1.x does not see, read as the
 * former did. Clang before BTF-era releases left program symbols untyped
 * (STT_NOTYPE, size 0): each such global symbol in a code section starts
 * a function that runs to the next one. Static
 * programs (a local function outside .text) were loaded by name; libbpf
 * 1.x refuses the whole object for them. Both are rewritten in image, the
 * loader's own copy, before libbpf opens it, with a note for each.
 */
static int normalize_symbols(struct loader *l, uint8_t *image, size_t size)
{
	size_t i, untyped = 0;

	for (i = 1; i < l->sym_cnt; i++) {
		unsigned char bind, type;
		const char *name;
		GElf_Sym sym;

		if (get_sym(l, i, &sym, &name) || sym.st_shndx >= l->sec_cnt ||
		    l->secs[sym.st_shndx].kind != SEC_CODE)
			continue;
		bind = GELF_ST_BIND(sym.st_info);
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_NOTYPE && bind == STB_GLOBAL && !sym.st_size &&
		    sym.st_value < l->secs[sym.st_shndx].size) {
			sym.st_size = untyped_end(l, sym.st_shndx, sym.st_value) - sym.st_value;
			sym.st_info = GELF_ST_INFO(STB_GLOBAL, STT_FUNC);
			rewrite_sym(l, image, size, i, &sym);
			untyped++;
		} else if (type == STT_FUNC && bind == STB_LOCAL && sym.st_shndx != l->text) {
			pr_warn("%s: program '%s' in %s is static; loaded by its name, as libbpf "
				"0.x did\n",
				l->file, name, l->secs[sym.st_shndx].name);
			sym.st_info = GELF_ST_INFO(STB_GLOBAL, STT_FUNC);
			rewrite_sym(l, image, size, i, &sym);
		}
	}
	if (untyped)
		pr_warn("%s: %zu untyped function symbol%s (an older clang) read as functions\n",
			l->file, untyped, untyped == 1 ? "" : "s");
	return 0;
}

/* --- functions ----------------------------------------------------------- */

static int cmp_place(size_t sec_a, size_t a, size_t sec_b, size_t b)
{
	if (sec_a != sec_b)
		return sec_a < sec_b ? -1 : 1;
	return a < b ? -1 : a > b;
}

static int cmp_func(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	return cmp_place(x->sec, x->off, y->sec, y->off);
}

/* The function of section sec holding instruction insn, or NULL. */
static struct func *find_func(const struct loader *l, size_t sec, size_t insn)
{
	size_t lo = 0, hi = l->func_cnt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct func *f = &l->funcs[mid];

		if (cmp_place(f->sec, f->off + f->cnt - 1, sec, insn) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < l->func_cnt && l->funcs[lo].sec == sec && l->funcs[lo].off <= insn)
		return &l->funcs[lo];
	return NULL;
}

static int read_funcs(struct loader *l)
{
	size_t i, j, cap = 0;

	for (i = 1; i < l->sym_cnt; i++) {
		const struct section *s;
		const char *name;
		GElf_Sym sym;

		if (get_sym(l, i, &sym, &name))
			return fail(l, -HWXDP_ERR_ELF, "symbol #%zu is unreadable", i);
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx >= l->sec_cnt ||
		    l->secs[sym.st_shndx].kind != SEC_CODE)
			continue;
		s = &l->secs[sym.st_shndx];
		if (sym.st_value % INSN_SZ || sym.st_size % INSN_SZ || !sym.st_size ||
		    sym.st_value > s->size || sym.st_size > s->size - sym.st_value)
			return fail(l, -HWXDP_ERR_PROG, "function '%s' does not fit section %s",
				    name, s->name);
		if (grow(&l->funcs, &cap, l->func_cnt + 1, sizeof(*l->funcs)))
			return -ENOMEM;
		l->funcs[l->func_cnt++] = (struct func){ name, sym.st_shndx, sym.st_value / INSN_SZ,
							 sym.st_size / INSN_SZ };
	}
	if (l->func_cnt)
		qsort(l->funcs, l->func_cnt, sizeof(*l->funcs), cmp_func);
	for (i = 0; i < l->func_cnt; i++) {
		const struct func *f = &l->funcs[i];
		const struct bpf_insn *insn = l->secs[f->sec].insns + f->off;

		if (i && f[-1].sec == f->sec && f[-1].off + f[-1].cnt > f->off)
			return fail(l, -HWXDP_ERR_PROG, "functions '%s' and '%s' overlap",
				    f[-1].name, f->name);
		for (j = 0; j < f->cnt; j++)
			if (insn[j].code == OP_LD_IMM64 && ++j == f->cnt)
				return fail(l, -HWXDP_ERR_PROG,
					    "%s: ld_imm64 at insn %zu lacks its second half",
					    l->secs[f->sec].name, f->off + f->cnt - 1);
	}
	return 0;
}

/* --- relocations --------------------------------------------------------- */

static int cmp_reloc(const void *a, const void *b)
{
	const struct reloc *x = a, *y = b;

	return cmp_place(x->sec, x->insn, y->sec, y->insn);
}

/* The first relocation at or after (sec, insn). */
static size_t reloc_from(const struct loader *l, size_t sec, size_t insn)
{
	size_t lo = 0, hi = l->reloc_cnt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_place(l->relocs[mid].sec, l->relocs[mid].insn, sec, insn) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct reloc *find_reloc(const struct loader *l, size_t sec, size_t insn)
{
	size_t i = reloc_from(l, sec, insn);

	if (i < l->reloc_cnt && l->relocs[i].sec == sec && l->relocs[i].insn == insn)
		return &l->relocs[i];
	return NULL;
}

/* What a relocation does, by its symbol and instruction (libbpf's rules). */
static int classify_reloc(const struct loader *l, struct reloc *r, const GElf_Sym *sym,
			  const struct func *f)
{
	const struct bpf_insn *insn = l->secs[r->sec].insns + r->insn;
	int bind = GELF_ST_BIND(sym->st_info), type = GELF_ST_TYPE(sym->st_info);
	const char *where = l->secs[r->sec].name;
	size_t shndx = sym->st_shndx;

	r->sym_sec = shndx;
	r->sym_off = sym->st_value;
	r->map = -1;
	if (insn->code != OP_CALL && insn->code != OP_LD_IMM64)
		return fail(l, -HWXDP_ERR_RELOC,
			    "%s: relocation at insn %zu (code %#x), not a call or ld_imm64", where,
			    r->insn, insn->code);
	if (insn->code == OP_LD_IMM64 && r->insn + 1 >= f->off + f->cnt)
		return fail(l, -HWXDP_ERR_RELOC, "%s: ld_imm64 at insn %zu lacks its second half",
			    where, r->insn);
	if (shndx == SHN_UNDEF && (bind == STB_GLOBAL || bind == STB_WEAK) && type == STT_NOTYPE) {
		r->kind = RELOC_EXTERN;
		r->weak = bind == STB_WEAK;
		r->kfunc = hwxdp_kfunc__find(l->kfuncs, r->name);
		/*
		 * One the kernel has and hwxdp does not know: libbpf resolves
		 * it for the kernel's copy, weak or not, where hwxdp would see
		 * an absent weak one (0) and verify another program.
		 */
		if (!r->kfunc && hwxdp_kfunc__in_kernel(r->name))
			return fail(l, -HWXDP_ERR_RELOC,
				    "kfunc '%s' is not supported by hwxdp (the kernel has it)",
				    r->name);
		/* a variable: a .kconfig extern when the BTF says so (resolve_map_relocs) */
		if (!r->kfunc && insn->code == OP_LD_IMM64)
			r->kind = RELOC_KCONFIG;
		else if (!r->kfunc && !r->weak)
			return fail(l, -HWXDP_ERR_RELOC,
				    "extern '%s' is not a kfunc of the target, and not weak",
				    r->name);
		return 0;
	}
	if (insn->code == OP_CALL) {
		if (insn->src_reg != BPF_PSEUDO_CALL || !l->text || shndx != l->text ||
		    sym->st_value % INSN_SZ)
			return fail(l, -HWXDP_ERR_RELOC,
				    "%s: insn %zu calls '%s', no function of .text", where, r->insn,
				    r->name);
		r->kind = RELOC_CALL;
		return 0;
	}
	if (shndx == SHN_UNDEF || shndx >= l->sec_cnt)
		return fail(l, -HWXDP_ERR_RELOC, "%s: insn %zu refers to '%s', in no section",
			    where, r->insn, r->name);
	if (shndx == l->text && ((bind == STB_LOCAL && type == STT_SECTION) ||
				 (bind == STB_GLOBAL && type == STT_FUNC))) {
		if (sym->st_value % INSN_SZ || insn->imm % (int)INSN_SZ)
			return fail(l, -HWXDP_ERR_RELOC, "%s: bad function address at insn %zu",
				    where, r->insn);
		r->kind = RELOC_FUNC_ADDR;
		return 0;
	}
	if (IS_GLOBAL_DATA(l->secs[shndx].kind)) {
		r->kind = RELOC_DATA;
		return 0;
	}
	/*
	 * A static legacy map is named by the section and an offset in the
	 * instruction: libbpf 1.x takes no static map, so the host copy could
	 * not be made (loader/legacy_maps.c refuses it too), and libbpf 0.x
	 * read the section's first map for every such reference.
	 */
	if (l->secs[shndx].kind == SEC_LEGACY && type == STT_SECTION)
		return fail(l, -HWXDP_ERR_MAP,
			    "%s: insn %zu refers to section '%s', not a map symbol (a static "
			    "map, which libbpf does not take)",
			    where, r->insn, l->secs[shndx].name);
	if (l->secs[shndx].kind == SEC_MAPS || l->secs[shndx].kind == SEC_LEGACY) {
		r->kind = RELOC_MAP;
		return 0;
	}
	return fail(l, -HWXDP_ERR_RELOC, "%s: insn %zu refers to '%s' in %s, which holds no map",
		    where, r->insn, r->name, l->secs[shndx].name);
}

/* The places in .maps a function's address fills: a program array's
 * initial slots, which maps_from_libbpf gives their maps. */
static int read_slot_progs(struct loader *l, const struct section *s)
{
	for (size_t j = 0; j < s->size / sizeof(Elf64_Rel); j++) {
		const char *name;
		GElf_Sym sym;
		GElf_Rel rel;

		if (!gelf_getrel(s->data, j, &rel) ||
		    get_sym(l, GELF_R_SYM(rel.r_info), &sym, &name))
			return fail(l, -HWXDP_ERR_RELOC, "%s: relocation %zu is unreadable",
				    s->name, j);
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
		    !(GELF_ST_TYPE(sym.st_info) == STT_OBJECT && sym.st_shndx == l->maps))
			continue;
		if (grow(&l->slot_progs, &l->slot_prog_cap, l->slot_prog_cnt + 1,
			 sizeof(*l->slot_progs)))
			return -ENOMEM;
		l->slot_progs[l->slot_prog_cnt++] =
			(struct slot_prog){ rel.r_offset, name, NULL,
					    GELF_ST_TYPE(sym.st_info) == STT_OBJECT };
	}
	return 0;
}

static int read_relocs(struct loader *l)
{
	size_t i, j, cap = 0;
	int err;

	for (i = 1; i < l->sec_cnt; i++) {
		const struct section *s = &l->secs[i];
		size_t target = s->shdr.sh_info;

		if (s->shdr.sh_type != SHT_REL)
			continue;
		if (!target || target >= l->sec_cnt)
			return fail(l, -HWXDP_ERR_RELOC, "%s: relocates no section", s->name);
		if (target == l->maps && s->data) {
			err = read_slot_progs(l, s);
			if (err)
				return err;
			continue;
		}
		if (l->secs[target].kind != SEC_CODE || !s->data)
			continue;
		if (s->shdr.sh_link != l->symtab_sec)
			return fail(l, -HWXDP_ERR_RELOC, "%s: not tied to the symbol table",
				    s->name);
		for (j = 0; j < s->size / sizeof(Elf64_Rel); j++) {
			struct reloc *r;
			struct func *f;
			GElf_Sym sym;
			GElf_Rel rel;

			if (!gelf_getrel(s->data, j, &rel))
				return fail(l, -HWXDP_ERR_RELOC, "%s: relocation %zu is unreadable",
					    s->name, j);
			if (rel.r_offset % INSN_SZ || rel.r_offset >= l->secs[target].size)
				return fail(
					l, -HWXDP_ERR_RELOC,
					"%s: relocation %zu at offset %llu is outside section %s",
					s->name, j, (unsigned long long)rel.r_offset,
					l->secs[target].name);
			/* Like libbpf, skip code that belongs to no function. */
			f = find_func(l, target, rel.r_offset / INSN_SZ);
			if (!f)
				continue;
			if (grow(&l->relocs, &cap, l->reloc_cnt + 1, sizeof(*l->relocs)))
				return -ENOMEM;
			r = &l->relocs[l->reloc_cnt++];
			*r = (struct reloc){ .sec = target, .insn = rel.r_offset / INSN_SZ };
			if (get_sym(l, GELF_R_SYM(rel.r_info), &sym, &r->name))
				return fail(l, -HWXDP_ERR_RELOC,
					    "%s: relocation %zu refers to unknown symbol #%llu",
					    s->name, j, (unsigned long long)GELF_R_SYM(rel.r_info));
			err = classify_reloc(l, r, &sym, f);
			if (err)
				return err;
		}
	}
	if (l->reloc_cnt)
		qsort(l->relocs, l->reloc_cnt, sizeof(*l->relocs), cmp_reloc);
	for (i = 1; i < l->reloc_cnt; i++)
		if (!cmp_reloc(&l->relocs[i - 1], &l->relocs[i]))
			return fail(l, -HWXDP_ERR_RELOC, "%s: two relocations at insn %zu",
				    l->secs[l->relocs[i].sec].name, l->relocs[i].insn);
	return 0;
}

/* The map libbpf made for the object's .kconfig externs, or -1. */
static int kconfig_map(const struct hwxdp_object *obj)
{
	for (size_t m = 0; m < obj->map_cnt; m++) {
		const char *name = obj->maps[m].name;
		size_t n = strlen(name);

		if (obj->maps[m].origin == HWXDP_MAP_GLOBAL && n >= 8 &&
		    !strcmp(name + n - 8, ".kconfig"))
			return (int)m;
	}
	return -1;
}

/* Where libbpf placed the .kconfig extern name in its map: 0 or -ENOENT. */
static int kconfig_offset(const struct btf *btf, const char *name, uint32_t *off)
{
	int id = btf ? btf__find_by_name_kind(btf, ".kconfig", BTF_KIND_DATASEC) : -1;
	const struct btf_type *sec = id > 0 ? btf__type_by_id(btf, id) : NULL;

	for (int i = 0; sec && i < btf_vlen(sec); i++) {
		const struct btf_var_secinfo *vi = btf_var_secinfos(sec) + i;
		const struct btf_type *var = btf__type_by_id(btf, vi->type);

		if (var && !strcmp(btf__name_by_offset(btf, var->name_off), name)) {
			*off = vi->offset;
			return 0;
		}
	}
	return -ENOENT;
}

/* Map references need the maps, which need libbpf, which comes after the
 * checks above so that a broken file is reported in our words. */
static int resolve_map_relocs(struct loader *l)
{
	size_t i, m;

	for (i = 0; i < l->reloc_cnt; i++) {
		struct reloc *r = &l->relocs[i];
		uint32_t off;

		if (r->kind == RELOC_KCONFIG) {
			r->map = kconfig_map(l->obj);
			if (r->map >= 0 && !kconfig_offset(l->obj->btf, r->name, &off)) {
				r->sym_off = off;
				continue;
			}
			if (!r->weak)
				return fail(
					l, -HWXDP_ERR_RELOC,
					"extern '%s' is not a kfunc of the target, and not weak",
					r->name);
			r->kind = RELOC_EXTERN; /* an absent weak ksym */
			continue;
		}
		if (r->kind == RELOC_DATA)
			r->map = l->secs[r->sym_sec].map;
		for (m = 0; r->kind == RELOC_MAP && m < l->obj->map_cnt; m++)
			if (l->places[m].sec == r->sym_sec && l->places[m].off == r->sym_off)
				r->map = m;
		if ((r->kind == RELOC_MAP || r->kind == RELOC_DATA) && r->map < 0)
			return fail(l, -HWXDP_ERR_MAP,
				    "%s: insn %zu refers to '%s', where no map is",
				    l->secs[r->sec].name, r->insn, r->name);
	}
	return 0;
}

/* --- maps ---------------------------------------------------------------- */

/* libbpf's object name: the file's base name up to its first dot. */
static void object_name(char *out, const char *path)
{
	const char *base = strrchr(path, '/');

	snprintf(out, OBJ_NAME_LEN, "%s", base ? base + 1 : path);
	out[strcspn(out, ".")] = 0;
}

/* libbpf's name for the map of a global data section: the object name in
 * front of names without a second dot, and only kernel-safe characters. */
static void global_map_name(char *out, const char *obj_name, const char *sec)
{
	size_t sfx = strlen(sec) > 7 ? strlen(sec) : 7, pfx = 0;
	char *p;

	if (!strchr(sec + 1, '.')) {
		pfx = OBJ_NAME_LEN - sfx - 1;
		pfx = pfx < strlen(obj_name) ? pfx : strlen(obj_name);
	}
	snprintf(out, OBJ_NAME_LEN, "%.*s%.*s", (int)pfx, obj_name, (int)sfx, sec);
	for (p = out; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.')
			*p = '_';
}

static int alloc_maps(struct loader *l, size_t cnt)
{
	l->obj->maps = keep(l->priv, calloc(cnt + 1, sizeof(*l->obj->maps)));
	l->places = calloc(cnt + 1, sizeof(*l->places));
	return l->obj->maps && l->places ? 0 : -ENOMEM;
}

/* Ties each global data section to its map, by libbpf's name for it. */
static int bind_global_maps(struct loader *l, const char *obj_name)
{
	size_t i, m;

	for (i = 1; i < l->sec_cnt; i++) {
		struct section *s = &l->secs[i];
		struct hwxdp_map_desc *map;
		char name[OBJ_NAME_LEN];

		if (!IS_GLOBAL_DATA(s->kind))
			continue;
		global_map_name(name, obj_name, s->name);
		for (m = 0; m < l->obj->map_cnt; m++)
			if (l->obj->maps[m].origin == HWXDP_MAP_GLOBAL &&
			    !strcmp(l->obj->maps[m].name, name))
				break;
		if (m == l->obj->map_cnt)
			return fail(l, -HWXDP_ERR_MAP, "no map '%s' for section %s", name, s->name);
		s->map = m;
		map = &l->obj->maps[m];
		snprintf(map->section, sizeof(map->section), "%s", s->name);
		map->read_only = s->kind == SEC_RODATA;
		map->initial_size = s->size;
		if (s->kind != SEC_BSS) {
			map->initial = keep(l->priv, malloc(s->size));
			if (!map->initial)
				return -ENOMEM;
			memcpy((void *)map->initial, s->data->d_buf, s->size);
		}
	}
	return 0;
}

/* The object's BTF through libbpf, or NULL; refused when libbpf 1.1 would
 * follow a reference out of it. */
static struct btf *checked_btf(struct loader *l, bool *bad)
{
	struct btf *btf;
	uint32_t id;

	*bad = false;
	if (!l->btf)
		return NULL;
	btf = btf__new(l->secs[l->btf].data->d_buf, l->secs[l->btf].size);
	if (btf && btf_check_refs(btf, &id)) {
		fail(l, -HWXDP_ERR_ELF,
		     ".BTF: type %u refers to a name or type that does not exist", id);
		btf__free(btf);
		*bad = true;
		return NULL;
	}
	return btf;
}

static void describe_map(struct hwxdp_map_desc *map, const struct bpf_map *m,
			 enum hwxdp_map_origin origin)
{
	snprintf(map->name, sizeof(map->name), "%s", bpf_map__name(m));
	map->origin = origin;
	map->type = bpf_map__type(m);
	map->key_size = bpf_map__key_size(m);
	map->value_size = bpf_map__value_size(m);
	map->max_entries = bpf_map__max_entries(m);
	map->map_flags = bpf_map__map_flags(m);
	map->btf_key_type_id = bpf_map__btf_key_type_id(m);
	map->btf_value_type_id = bpf_map__btf_value_type_id(m);
}

/* Whether the object's extern name is weak. */
static bool extern_weak(const char *name, void *ctx)
{
	const struct loader *l = ctx;
	const char *sym_name;
	GElf_Sym sym;

	for (size_t i = 1; i < l->sym_cnt; i++)
		if (!get_sym(l, i, &sym, &sym_name) && sym.st_shndx == SHN_UNDEF &&
		    !strcmp(sym_name, name))
			return GELF_ST_BIND(sym.st_info) == STB_WEAK;
	return false;
}

/* The byte offset of the `values` member of the struct a .maps variable
 * is (libbpf's `__array(values, ...)`), or -1. */
static int64_t values_offset(const struct btf *btf, const struct btf_var_secinfo *vi)
{
	const struct btf_type *t = btf__type_by_id(btf, vi->type);
	const struct btf_member *m;

	if (!t || !btf_is_var(t))
		return -1;
	t = btf_skip_links(btf, t->type, NULL);
	if (!t || !btf_is_struct(t))
		return -1;
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), "values"))
			return btf_member_bit_offset(t, (uint32_t)i) / 8;
	return -1;
}

/* The byte offset of the `values` member of map k's variable, or -1. */
static int64_t map_values_offset(struct loader *l, const struct btf_type *sec, size_t k)
{
	const struct btf_var_secinfo *vi = NULL;

	for (int i = 0; sec && i < btf_vlen(sec) && !vi; i++)
		if (btf_var_secinfos(sec)[i].offset == l->places[k].off)
			vi = btf_var_secinfos(sec) + i;
	return vi ? values_offset(l->obj->btf, vi) : -1;
}

/*
 * A map's address in .maps fills a slot of the map of maps defined last
 * before it (libbpf's init_slots for map-in-map), as a program's does a
 * program array's: init_maps, bound by name to the object's maps.
 */
static int place_slot_maps(struct loader *l, const struct btf_type *sec, const size_t *best)
{
	struct hwxdp_map_desc *maps = l->obj->maps;

	for (size_t k = 0; k < l->obj->map_cnt; k++) {
		struct hwxdp_init_map *init;
		int64_t values;
		uint32_t n = 0;

		if (!maps[k].init_map_cnt)
			continue;
		if (maps[k].type != BPF_MAP_TYPE_ARRAY_OF_MAPS &&
		    maps[k].type != BPF_MAP_TYPE_HASH_OF_MAPS)
			return fail(l, -HWXDP_ERR_MAP,
				    "map %s: maps in the values of a map of type %u", maps[k].name,
				    maps[k].type);
		init = keep(l->priv, calloc(maps[k].init_map_cnt, sizeof(*init)));
		if (!init)
			return -ENOMEM;
		maps[k].init_maps = init;
		values = map_values_offset(l, sec, k);
		for (size_t j = 0; j < l->slot_prog_cnt; j++) {
			const struct slot_prog *s = &l->slot_progs[j];
			uint64_t at = s->off - l->places[k].off;
			size_t m;

			if (best[j] != k || !s->map)
				continue;
			if (values < 0 || at < (uint64_t)values || (at - (uint64_t)values) % 8 ||
			    (at - (uint64_t)values) / 8 >= maps[k].max_entries)
				return fail(l, -HWXDP_ERR_MAP,
					    "map %s: %s is not in a slot of its values",
					    maps[k].name, s->name);
			for (m = 0; m < l->obj->map_cnt; m++)
				if (maps[m].origin == HWXDP_MAP_BTF &&
				    !strcmp(maps[m].name, s->name))
					break;
			if (m == l->obj->map_cnt)
				return fail(l, -HWXDP_ERR_MAP,
					    "map %s: slot %u names %s, which is no map",
					    maps[k].name, (uint32_t)((at - (uint64_t)values) / 8),
					    s->name);
			init[n++] = (struct hwxdp_init_map){
				.slot = (uint32_t)((at - (uint64_t)values) / 8),
				.map = (uint32_t)m,
			};
		}
	}
	return 0;
}

/*
 * Each program address in .maps belongs to the map defined last before it,
 * at the slot its place in the map's `values` gives (libbpf's
 * init_slots): its maps' init_progs, their programs bound by name once
 * the programs are read (bind_slot_progs).
 */
static int place_slot_progs(struct loader *l, const struct btf_type *sec)
{
	struct hwxdp_map_desc *maps = l->obj->maps;
	size_t *best = calloc(l->slot_prog_cnt + 1, sizeof(*best));
	int err = 0;

	if (!best)
		return -ENOMEM;
	for (size_t j = 0; j < l->slot_prog_cnt; j++) {
		best[j] = l->obj->map_cnt;
		for (size_t k = 0; k < l->obj->map_cnt; k++)
			if (maps[k].origin == HWXDP_MAP_BTF && l->places[k].sec == l->maps &&
			    l->places[k].off <= l->slot_progs[j].off &&
			    (best[j] == l->obj->map_cnt ||
			     l->places[k].off > l->places[best[j]].off))
				best[j] = k;
		if (best[j] < l->obj->map_cnt && !l->slot_progs[j].map)
			maps[best[j]].init_prog_cnt++;
		else if (best[j] < l->obj->map_cnt)
			maps[best[j]].init_map_cnt++;
	}
	err = place_slot_maps(l, sec, best);
	for (size_t k = 0; k < l->obj->map_cnt && !err; k++) {
		const struct btf_var_secinfo *vi = NULL;
		struct hwxdp_init_prog *init;

		int64_t values = -1;
		uint32_t n = 0;

		if (!maps[k].init_prog_cnt)
			continue;
		init = keep(l->priv, calloc(maps[k].init_prog_cnt, sizeof(*init)));
		if (!init) {
			err = -ENOMEM;
			break;
		}
		maps[k].init_progs = init;
		for (int i = 0; sec && i < btf_vlen(sec) && !vi; i++)
			if (btf_var_secinfos(sec)[i].offset == l->places[k].off)
				vi = btf_var_secinfos(sec) + i;
		if (vi)
			values = values_offset(l->obj->btf, vi);
		for (size_t j = 0; j < l->slot_prog_cnt && !err; j++) {
			uint64_t at = l->slot_progs[j].off - l->places[k].off;

			if (best[j] != k || l->slot_progs[j].map)
				continue;
			if (values < 0 || at < (uint64_t)values || (at - (uint64_t)values) % 8 ||
			    (at - (uint64_t)values) / 8 >= maps[k].max_entries)
				err = fail(l, -HWXDP_ERR_MAP,
					   "map %s: %s is not in a slot of its values",
					   maps[k].name, l->slot_progs[j].name);
			init[n] = (struct hwxdp_init_prog){
				.slot = (uint32_t)((at - (uint64_t)values) / 8),
				.prog = HWXDP_INIT_PROG_NONE,
			};
			l->slot_progs[j].init = &init[n++];
		}
	}
	free(best);
	return err;
}

/* The programs of the slots place_slot_progs placed, once read_progs read
 * them; a slot's function that is no program refuses the object, as libbpf
 * does. */
static int bind_slot_progs(struct loader *l)
{
	for (size_t j = 0; j < l->slot_prog_cnt; j++) {
		struct slot_prog *s = &l->slot_progs[j];

		if (!s->init)
			continue;
		for (size_t i = 0; i < l->obj->prog_cnt; i++)
			if (!strcmp(l->obj->progs[i].name, s->name))
				s->init->prog = (uint32_t)i;
		if (s->init->prog == HWXDP_INIT_PROG_NONE)
			return fail(l, -HWXDP_ERR_MAP,
				    "a program array's slot %u names %s, which is no program",
				    s->init->slot, s->name);
	}
	return 0;
}

/* The .kconfig map's content, the running kernel's values as libbpf gives
 * them at load time: read-only, as the program sees it. */
static int fill_kconfig(struct loader *l)
{
	int m = kconfig_map(l->obj);
	struct hwxdp_map_desc *map;
	uint8_t *value;

	if (m < 0)
		return 0;
	map = &l->obj->maps[m];
	value = keep(l->priv, calloc(1, map->value_size ? map->value_size : 1));
	if (!value)
		return -ENOMEM;
	snprintf(map->section, sizeof(map->section), ".kconfig");
	map->read_only = true;
	map->initial = value;
	map->initial_size = map->value_size;
	return hwxdp_kconfig__fill(l->obj->btf, value, map->value_size, NULL, extern_weak, l);
}

static int maps_from_libbpf(struct loader *l, const void *data, size_t size)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts);
	const struct btf_type *sec = NULL;
	char obj_name[OBJ_NAME_LEN];
	struct bpf_object *bpf;
	struct bpf_map *m;
	struct btf *btf;
	size_t cnt = 0;
	bool bad;
	int i, err;

	btf__free(checked_btf(l, &bad));
	if (bad)
		return -HWXDP_ERR_ELF;
	/* As bpf_object__open_file names it, so global maps get its names. */
	object_name(obj_name, l->file);
	opts.object_name = obj_name;
	bpf = bpf_object__open_mem(data, size, &opts);
	if (!bpf) {
		char msg[128];
		int err = -errno;

		libbpf_strerror(err, msg, sizeof(msg));
		return fail(l, err > -4000 ? err : -HWXDP_ERR_ELF, "libbpf refuses it: %s", msg);
	}
	l->priv->bpf = bpf;
	l->obj->btf = btf = bpf_object__btf(bpf);
	/* a map of maps brings its maps' template, after every map */
	bpf_object__for_each_map(m, bpf) cnt += 1 + !!bpf_map__inner_map(m);
	if (alloc_maps(l, cnt))
		return -ENOMEM;
	bpf_object__for_each_map(m, bpf)
		describe_map(&l->obj->maps[l->obj->map_cnt++], m,
			     bpf_map__is_internal(m) ? HWXDP_MAP_GLOBAL : HWXDP_MAP_BTF);
	for (size_t k = 0, n = l->obj->map_cnt; k < n; k++) {
		struct bpf_map *inner;

		m = bpf_object__find_map_by_name(bpf, l->obj->maps[k].name);
		inner = m ? bpf_map__inner_map(m) : NULL;
		if (!inner)
			continue;
		l->obj->maps[k].inner_map = (uint32_t)l->obj->map_cnt;
		describe_map(&l->obj->maps[l->obj->map_cnt++], inner, HWXDP_MAP_INNER);
	}
	/* A BTF map sits where its variable is in the .maps DATASEC. */
	i = btf ? btf__find_by_name_kind(btf, ".maps", BTF_KIND_DATASEC) : -1;
	if (i > 0)
		sec = btf__type_by_id(btf, i);
	for (i = 0; sec && i < btf_vlen(sec); i++) {
		const struct btf_var_secinfo *vi = btf_var_secinfos(sec) + i;
		const char *name =
			btf__name_by_offset(btf, btf__type_by_id(btf, vi->type)->name_off);
		size_t k;

		for (k = 0; k < l->obj->map_cnt; k++)
			if (l->obj->maps[k].origin == HWXDP_MAP_BTF &&
			    !strcmp(l->obj->maps[k].name, name))
				l->places[k] = (struct map_place){ l->maps, vi->offset };
	}
	err = place_slot_progs(l, sec);
	err = err ?: bind_global_maps(l, bpf_object__name(bpf));
	return err ?: fill_kconfig(l);
}

/* libbpf maps global data only where a non-static variable could be
 * reached from user space through the mapping. */
static bool mmapable(const struct btf *btf, int datasec)
{
	const struct btf_type *t = datasec > 0 ? btf__type_by_id(btf, datasec) : NULL;
	int i;

	for (i = 0; t && i < btf_vlen(t); i++) {
		const struct btf_type *var = btf__type_by_id(btf, btf_var_secinfos(t)[i].type);

		if (btf_is_var(var) && btf_var(var)->linkage != BTF_VAR_STATIC)
			return true;
	}
	return false;
}

static int cmp_place_off(const void *a, const void *b)
{
	const struct map_place *x = a, *y = b;

	return cmp_place(0, x->off, 0, y->off);
}

/* libbpf 0.x: every symbol in "maps" is a map, definitions equally sized. */
static int maps_from_elf(struct loader *l)
{
	const struct section *s = &l->secs[l->legacy];
	size_t i, k, cnt = 0, globals = 0;
	char obj_name[OBJ_NAME_LEN];
	const char *name;
	GElf_Sym sym;
	bool bad;

	if (l->maps)
		return fail(l, -HWXDP_ERR_MAP, "both legacy 'maps' and BTF '.maps' sections");
	for (i = 1; i < l->sym_cnt; i++)
		cnt += !get_sym(l, i, &sym, &name) && sym.st_shndx == l->legacy &&
		       GELF_ST_TYPE(sym.st_info) != STT_SECTION;
	for (i = 1; i < l->sec_cnt; i++)
		globals += IS_GLOBAL_DATA(l->secs[i].kind);
	if (!cnt || !s->data || s->size % cnt)
		return fail(l, -HWXDP_ERR_MAP, "maps: %zu bytes for %zu maps, not one size each",
			    s->size, cnt);
	if (alloc_maps(l, cnt + globals))
		return -ENOMEM;
	/* Each map's symbol index in .off for now, sorted by offset below. */
	for (i = 1; i < l->sym_cnt; i++)
		if (!get_sym(l, i, &sym, &name) && sym.st_shndx == l->legacy &&
		    GELF_ST_TYPE(sym.st_info) != STT_SECTION)
			l->places[l->obj->map_cnt++] = (struct map_place){ i, sym.st_value };
	qsort(l->places, cnt, sizeof(*l->places), cmp_place_off);
	for (k = 0; k < cnt; k++) {
		struct hwxdp_map_desc *map = &l->obj->maps[k];
		uint32_t def[5] = {}; /* type, key_size, value_size, max_entries, map_flags */
		size_t size;

		get_sym(l, l->places[k].sec, &sym, &name);
		size = sym.st_size ? sym.st_size : s->size / cnt;
		if (sym.st_value > s->size || size > s->size - sym.st_value)
			return fail(l, -HWXDP_ERR_MAP, "maps: '%s' lies beyond the section", name);
		memcpy(def, (const uint8_t *)s->data->d_buf + sym.st_value,
		       size < sizeof(def) ? size : sizeof(def));
		*map = (struct hwxdp_map_desc){ .origin = HWXDP_MAP_LEGACY,
						.type = def[0],
						.key_size = def[1],
						.value_size = def[2],
						.max_entries = def[3],
						.map_flags = def[4] };
		snprintf(map->name, sizeof(map->name), "%s", name);
		/* The kernel creates no map of 0 entries; libbpf 0.x sized only
		 * perf event arrays itself (one entry per CPU). */
		if (!map->max_entries && map->type != BPF_MAP_TYPE_PERF_EVENT_ARRAY)
			return fail(l, -HWXDP_ERR_MAP, "maps: '%s' has max_entries 0", name);
		l->places[k].sec = l->legacy;
	}

	l->obj->btf = l->priv->own_btf = checked_btf(l, &bad);
	if (l->btf && !l->obj->btf) {
		/* not a failure here: what checked_btf recorded does not stand */
		hwxdp_error_clear();
		pr_warn("%s: .BTF is unreadable, going on without it\n", l->file);
	}
	object_name(obj_name, l->file);
	for (i = 1; i < l->sec_cnt; i++) {
		const struct section *d = &l->secs[i];
		struct hwxdp_map_desc *map;
		int id;

		if (!IS_GLOBAL_DATA(d->kind))
			continue;
		map = &l->obj->maps[l->obj->map_cnt++];
		global_map_name(map->name, obj_name, d->name);
		id = l->obj->btf ? btf__find_by_name_kind(l->obj->btf, d->name, BTF_KIND_DATASEC)
				 : 0;
		map->origin = HWXDP_MAP_GLOBAL;
		map->type = BPF_MAP_TYPE_ARRAY;
		map->key_size = sizeof(uint32_t);
		map->value_size = d->size;
		map->max_entries = 1;
		map->btf_value_type_id = id > 0 ? id : 0;
		map->map_flags = (d->kind == SEC_RODATA ? BPF_F_RDONLY_PROG : 0) |
				 (mmapable(l->obj->btf, id) ? BPF_F_MMAPABLE : 0);
	}
	return bind_global_maps(l, obj_name);
}

/* --- linking ------------------------------------------------------------- */

/* Map, global and extern references: libbpf's bpf_object__relocate_data. */
static int relocate_data(struct loader *l, const struct reloc *r, size_t at)
{
	struct hwxdp_prog *p = l->prog;
	struct bpf_insn *insn = &p->insns[at];
	struct hwxdp_extern_ref *e;

	switch (r->kind) {
	case RELOC_MAP:
		insn[0].src_reg = BPF_PSEUDO_MAP_FD;
		insn[0].imm = r->map;
		return 0;
	case RELOC_DATA:
	case RELOC_KCONFIG:
		insn[1].imm = (int32_t)((uint32_t)insn[0].imm + (uint32_t)r->sym_off);
		insn[0].src_reg = BPF_PSEUDO_MAP_VALUE;
		insn[0].imm = r->map;
		return 0;
	case RELOC_FUNC_ADDR:
		/* Marked for the call walk; clang leaves src_reg 0. */
		insn[0].src_reg = BPF_PSEUDO_FUNC;
		return 0;
	case RELOC_EXTERN:
		break;
	default:
		return 0;
	}
	if (insn->code == OP_CALL) {
		insn->src_reg = BPF_PSEUDO_KFUNC_CALL;
		insn->imm = r->kfunc ? r->kfunc->id : 0;
		insn->off = 0;
	} else if (r->kfunc) {
		insn[0].src_reg = BPF_PSEUDO_BTF_ID;
		insn[0].imm = r->kfunc->id;
		insn[1].imm = 0;
	} else {
		/* An absent weak symbol's address is the constant 0. */
		insn[0].imm = 0;
		insn[1].imm = 0;
	}
	if (grow(&p->externs, &l->extern_cap, p->extern_cnt + 1, sizeof(*p->externs)))
		return -ENOMEM;
	e = &p->externs[p->extern_cnt++];
	*e = (struct hwxdp_extern_ref){ .insn = at,
					.weak = r->weak,
					.resolved = r->kfunc,
					.kfunc_id = r->kfunc ? r->kfunc->id : 0 };
	snprintf(e->name, sizeof(e->name), "%s", r->name);
	return 0;
}

/* Appends f's code with its data references resolved. */
static int append(struct loader *l, struct func *f)
{
	struct hwxdp_prog *p = l->prog;
	size_t pos = p->insn_cnt, i;
	int err;

	if (pos + f->cnt > UINT32_MAX / 2)
		return fail(l, -E2BIG, "program '%s' is too large", p->name);
	if (grow(&p->insns, &l->insn_cap, pos + f->cnt, INSN_SZ) ||
	    grow(&p->subprog_start, &l->start_cap, p->subprog_cnt + 1, sizeof(uint32_t)) ||
	    grow(&p->subprog_name, &l->name_cap, p->subprog_cnt + 1, sizeof(char *)) ||
	    grow(&l->placed, &l->placed_cap, p->subprog_cnt + 1, sizeof(*l->placed)))
		return -ENOMEM;
	p->subprog_name[p->subprog_cnt] = keep(l->priv, strdup(f->name));
	if (!p->subprog_name[p->subprog_cnt])
		return -ENOMEM;
	memcpy(&p->insns[pos], l->secs[f->sec].insns + f->off, f->cnt * INSN_SZ);
	p->insn_cnt += f->cnt;
	f->pos = pos;
	l->placed[p->subprog_cnt] = f;
	p->subprog_start[p->subprog_cnt++] = pos;
	/* Only a relocation may name a map or a kernel object: a number put
	 * there by hand would be taken for a map index. */
	for (i = 0; i < f->cnt; i++) {
		const struct bpf_insn *insn = &p->insns[pos + i];

		if (insn->code == OP_LD_IMM64 && insn->src_reg &&
		    insn->src_reg != BPF_PSEUDO_FUNC && !find_reloc(l, f->sec, f->off + i))
			return fail(l, -HWXDP_ERR_RELOC,
				    "%s: ld_imm64 at insn %zu names %s %d without a relocation",
				    l->secs[f->sec].name, f->off + i,
				    insn->src_reg <= BPF_PSEUDO_MAP_VALUE ? "map" : "object",
				    insn->imm);
	}
	for (i = reloc_from(l, f->sec, f->off);
	     i < l->reloc_cnt && l->relocs[i].sec == f->sec && l->relocs[i].insn < f->off + f->cnt;
	     i++) {
		err = relocate_data(l, &l->relocs[i], pos + l->relocs[i].insn - f->off);
		if (err)
			return err;
	}
	return 0;
}

/* Where the call or callback address at insn of f goes, in .text, or -1. */
static int64_t call_target(const struct loader *l, const struct func *f, size_t i,
			   const struct bpf_insn *insn)
{
	const struct reloc *r = find_reloc(l, f->sec, f->off + i);

	if (r && r->kind == RELOC_CALL)
		return (int64_t)(r->sym_off / INSN_SZ) + insn->imm + 1;
	if (r && r->kind == RELOC_FUNC_ADDR)
		return ((int64_t)r->sym_off + insn->imm) / (int64_t)INSN_SZ;
	/* A static callee in the same section needs no relocation. */
	if (!r && insn->code == OP_CALL && f->sec == l->text)
		return (int64_t)(f->off + i) + insn->imm + 1;
	return -1;
}

/*
 * libbpf's bpf_object__reloc_code, without its recursion: walking a function,
 * the first call to a subprogram appends it and walks it at once, before the
 * rest of the caller. Each function is on the stack at most once.
 */
static int link_calls(struct loader *l, struct func *main_func)
{
	struct frame {
		struct func *f;
		size_t i;
	} *stack = calloc(l->func_cnt + 1, sizeof(*stack));
	size_t depth = 1;
	int err = 0;

	if (!stack)
		return -ENOMEM;
	stack[0] = (struct frame){ main_func, 0 };
	while (depth && !err) {
		struct frame *fr = &stack[depth - 1];
		struct func *f = fr->f, *callee;
		size_t i = fr->i++, at = f->pos + i;
		struct bpf_insn *insn;
		int64_t target;

		if (i == f->cnt) {
			depth--;
			continue;
		}
		insn = &l->prog->insns[at];
		if (!(insn->code == OP_CALL && insn->src_reg == BPF_PSEUDO_CALL && !insn->dst_reg &&
		      !insn->off) &&
		    !(insn->code == OP_LD_IMM64 && insn->src_reg == BPF_PSEUDO_FUNC))
			continue;
		target = call_target(l, f, i, insn);
		callee = target >= 0 && l->text ? find_func(l, l->text, target) : NULL;
		if (!callee || (int64_t)callee->off != target) {
			err = fail(l, -HWXDP_ERR_RELOC,
				   "%s: insn %zu of '%s' calls where no function of .text starts",
				   l->secs[f->sec].name, f->off + i, f->name);
			break;
		}
		if (!callee->pos) {
			err = append(l, callee);
			stack[depth++] = (struct frame){ callee, 0 };
		}
		l->prog->insns[at].imm = (int32_t)(callee->pos - at - 1);
	}
	free(stack);
	return err;
}

static int cmp_line(const void *a, const void *b)
{
	const struct hwxdp_line *x = a, *y = b;

	return cmp_place(0, x->insn, 0, y->insn);
}

static const char *trimmed(struct object_priv *priv, const char *s)
{
	size_t len;

	if (!s)
		s = "";
	while (isspace((unsigned char)*s))
		s++;
	for (len = strlen(s); len && isspace((unsigned char)s[len - 1]);)
		len--;
	return keep(priv, strndup(s, len));
}

/* Line info of every placed function, moved to where it now starts. */
static int add_lines(struct loader *l)
{
	const struct section *ext = &l->secs[l->btf_ext];
	const struct btf *btf = l->obj->btf;
	struct hwxdp_prog *p = l->prog;
	size_t k, j;

	for (k = 0; l->btf_ext && btf && k < p->subprog_cnt; k++) {
		const struct func *f = l->placed[k];
		struct btf_ext_lines recs;

		/* Malformed line info was warned about at open. */
		if (btf_ext_lines(ext->data->d_buf, ext->size, btf, l->secs[f->sec].name, &recs))
			return 0;
		for (j = 0; j < recs.cnt; j++) {
			struct hwxdp_line *line;
			struct bpf_line_info rec;
			size_t insn;

			memcpy(&rec, recs.recs + j * recs.rec_size, sizeof(rec));
			insn = rec.insn_off / INSN_SZ;
			if (rec.insn_off % INSN_SZ || insn < f->off || insn >= f->off + f->cnt)
				continue;
			if (grow(&p->lines, &l->line_cap, p->line_cnt + 1, sizeof(*p->lines)))
				return -ENOMEM;
			line = &p->lines[p->line_cnt++];
			line->insn = f->pos + insn - f->off;
			line->file = btf__name_by_offset(btf, rec.file_name_off);
			line->file = line->file ? line->file : "";
			line->line = BPF_LINE_INFO_LINE_NUM(rec.line_col);
			line->column = BPF_LINE_INFO_LINE_COL(rec.line_col);
			line->text = trimmed(l->priv, btf__name_by_offset(btf, rec.line_off));
			if (!line->text)
				return -ENOMEM;
		}
	}
	if (p->line_cnt)
		qsort(p->lines, p->line_cnt, sizeof(*p->lines), cmp_line);
	return 0;
}

/*
 * CO-RE relocations, applied to each code section against the running
 * kernel's BTF before programs are linked from them: libbpf patches the
 * same instructions of each program it links.
 */
static int apply_core(struct loader *l)
{
	const struct section *ext = &l->secs[l->btf_ext];
	const struct btf *btf = l->obj->btf;
	struct btf *vmlinux = NULL;
	char msg[384];
	size_t i, j;
	int err = 0;

	if (!l->btf_ext || !btf)
		return 0;
	for (i = 1; i < l->sec_cnt && !err; i++) {
		struct section *s = &l->secs[i];
		struct btf_ext_lines recs;

		if (s->kind != SEC_CODE)
			continue;
		if (btf_ext_core_relos(ext->data->d_buf, ext->size, btf, s->name, &recs)) {
			err = fail(l, -HWXDP_ERR_RELOC, ".BTF.ext: malformed CO-RE relocations");
			break;
		}
		if (recs.cnt && !vmlinux) {
			vmlinux = btf__load_vmlinux_btf();
			if (!vmlinux)
				return fail(l, -HWXDP_ERR_RELOC,
					    "%s: %u CO-RE relocation%s, and the kernel's BTF "
					    "(/sys/kernel/btf/vmlinux) cannot be read: %s",
					    s->name, recs.cnt, recs.cnt == 1 ? "" : "s",
					    strerror(errno));
		}
		for (j = 0; j < recs.cnt && !err; j++) {
			err = core_relocate(btf, vmlinux, recs.recs + j * recs.rec_size, s->insns,
					    s->size / INSN_SZ, msg, sizeof(msg));
			if (err)
				err = fail(l, err, "%s: %s", s->name, msg);
		}
	}
	btf__free(vmlinux);
	return err;
}

static int link_prog(struct loader *l, struct func *main_func, struct hwxdp_prog *p)
{
	size_t i;
	int err, kept;

	for (i = 0; i < l->func_cnt; i++)
		l->funcs[i].pos = 0;
	l->prog = p;
	l->insn_cap = l->start_cap = l->placed_cap = l->name_cap = l->line_cap = 0;
	l->extern_cap = 0;
	snprintf(p->name, sizeof(p->name), "%s", main_func->name);
	snprintf(p->section, sizeof(p->section), "%s", l->secs[main_func->sec].name);
	err = append(l, main_func);
	err = err ?: link_calls(l, main_func);
	err = err ?: add_lines(l);
	/* The object frees them with itself, whether this worked or not: every
	 * keep() must run. */
	kept = keep(l->priv, p->insns) != NULL;
	kept &= keep(l->priv, p->subprog_start) != NULL;
	kept &= keep(l->priv, p->subprog_name) != NULL;
	kept &= !p->lines || keep(l->priv, p->lines);
	kept &= !p->externs || keep(l->priv, p->externs);
	if (!kept)
		err = err ?: -ENOMEM;
	return err;
}

bool hwxdp_legacy_xdp_section(const char *sec)
{
	return !strncmp(sec, "xdp", 3) || !strcmp(sec, "prog");
}

bool hwxdp_port_prog_type(uint32_t type, uint32_t expected_attach_type)
{
	return type == BPF_PROG_TYPE_XDP && expected_attach_type != BPF_XDP_DEVMAP &&
	       expected_attach_type != BPF_XDP_CPUMAP;
}

/*
 * Section names libbpf 1.x does not know but the loaders of their day did:
 * samples/bpf and libbpf 0.x took any section starting "xdp" as XDP
 * ("xdp1", "xdp_icmp", "xdp_prog"), and iproute2 loads the section "prog"
 * (its default) as whatever it attaches, XDP with `ip link set xdp`.
 */
static enum bpf_prog_type legacy_type(const struct loader *l, const char *prog, const char *sec)
{
	if (!hwxdp_legacy_xdp_section(sec))
		return BPF_PROG_TYPE_UNSPEC;
	pr_warn("%s: program '%s': section '%s' read as XDP, as %s did\n", l->file, prog, sec,
		strcmp(sec, "prog") ? "libbpf 0.x" : "iproute2");
	return BPF_PROG_TYPE_XDP;
}

/* Modern objects: libbpf's programs, in its order. Legacy ones: the same
 * rule, every function outside .text, or the only function of .text. */
static int read_progs(struct loader *l)
{
	struct hwxdp_object *obj = l->obj;
	struct bpf_program *bp = NULL;
	size_t i, k, cnt = 0;
	int err;

	if (l->priv->bpf)
		bpf_object__for_each_program(bp, l->priv->bpf) cnt++;
	else
		for (i = 0; i < l->func_cnt; i++)
			cnt += l->funcs[i].sec != l->text || l->func_cnt == 1;
	obj->progs = keep(l->priv, calloc(cnt + 1, sizeof(*obj->progs)));
	if (!obj->progs)
		return -ENOMEM;
	for (i = 0, bp = NULL; obj->prog_cnt < cnt; i++) {
		struct hwxdp_prog *p = &obj->progs[obj->prog_cnt];
		enum bpf_attach_type attach = 0;
		enum bpf_prog_type type = 0;
		struct func *f = NULL;

		if (l->priv->bpf) {
			bp = bpf_object__next_program(l->priv->bpf, bp);
			for (k = 0; !f && k < l->func_cnt; k++)
				if (!strcmp(l->funcs[k].name, bpf_program__name(bp)) &&
				    !strcmp(l->secs[l->funcs[k].sec].name,
					    bpf_program__section_name(bp)))
					f = &l->funcs[k];
			if (!f)
				return fail(l, -HWXDP_ERR_PROG, "program '%s' is not in section %s",
					    bpf_program__name(bp), bpf_program__section_name(bp));
			type = bpf_program__type(bp);
			attach = bpf_program__expected_attach_type(bp);
		} else if (l->funcs[i].sec == l->text && l->func_cnt > 1) {
			continue;
		} else {
			f = &l->funcs[i];
			libbpf_prog_type_by_name(l->secs[f->sec].name, &type, &attach);
		}
		if (type == BPF_PROG_TYPE_UNSPEC)
			type = legacy_type(l, f->name, l->secs[f->sec].name);
		p->type = type;
		p->expected_attach_type = attach;
		obj->prog_cnt++;
		err = link_prog(l, f, p);
		if (err)
			return err;
	}
	return 0;
}

/* --- public -------------------------------------------------------------- */

int hwxdp_object__open_mem_opts(const void *data, size_t size, const char *name,
				const struct hwxdp_object_open_opts *opts,
				struct hwxdp_object **out)
{
	struct loader l = { .file = name ? name : "(memory)", .kfuncs = hwxdp_device_kfuncs };
	struct btf_ext_lines none;
	struct hwxdp_object *obj;
	uint8_t *image;
	size_t i;
	int err;

	hwxdp_error_clear();
	if (!out || (!data && size))
		return hwxdp_error_for(-EINVAL, l.file);
	*out = NULL;
	if (opts && opts->sz < sizeof(opts->sz))
		return fail(&l, -EINVAL, "bad open options");
	if (opts && opts->sz >= offsetofend(struct hwxdp_object_open_opts, kfuncs) && opts->kfuncs)
		l.kfuncs = opts->kfuncs;
	obj = calloc(1, sizeof(*obj));
	l.priv = calloc(1, sizeof(*l.priv));
	if (!obj || !l.priv) {
		free(obj);
		free(l.priv);
		return hwxdp_error_for(-ENOMEM, l.file);
	}
	obj->priv = l.priv;
	l.obj = obj;
	snprintf(obj->path, sizeof(obj->path), "%s", l.file);
	hwxdp_route_libbpf_print();
	elf_version(EV_CURRENT);
	/* A copy of our own: older objects are rewritten in it before libbpf
	 * reads it (normalize_symbols). */
	image = keep(l.priv, malloc(size ? size : 1));
	if (!image) {
		hwxdp_object__close(obj);
		return hwxdp_error_for(-ENOMEM, l.file);
	}
	memcpy(image, data, size);
	l.elf = elf_memory((char *)image, size);
	err = l.elf ? read_sections(&l) : fail(&l, -HWXDP_ERR_ELF, "not an ELF file");
	err = err ?: normalize_symbols(&l, image, size);
	err = err ?: read_funcs(&l);
	err = err ?: read_relocs(&l);
	err = err ?: (l.legacy ? maps_from_elf(&l) : maps_from_libbpf(&l, image, size));
	err = err ?: resolve_map_relocs(&l);
	err = err ?: apply_core(&l);
	if (!err && l.license)
		memcpy(obj->license, l.secs[l.license].data->d_buf,
		       l.secs[l.license].size < sizeof(obj->license) - 1
			       ? l.secs[l.license].size
			       : sizeof(obj->license) - 1);
	if (!err && l.btf_ext && obj->btf &&
	    btf_ext_lines(l.secs[l.btf_ext].data->d_buf, l.secs[l.btf_ext].size, obj->btf, "",
			  &none))
		pr_warn("%s: .BTF.ext is malformed, going on without line info\n", l.file);
	err = err ?: read_progs(&l);
	err = err ?: bind_slot_progs(&l);
	if (!err && !obj->prog_cnt)
		err = fail(&l, -HWXDP_ERR_PROG,
			   "no BPF program in it (no function in a code section)");

	if (l.elf)
		elf_end(l.elf);
	for (i = 0; l.secs && i < l.sec_cnt; i++)
		free(l.secs[i].insns);
	free(l.secs);
	free(l.funcs);
	free(l.relocs);
	free(l.places);
	free(l.slot_progs);
	free(l.placed);
	if (err) {
		hwxdp_object__close(obj);
		return hwxdp_error_for(err, l.file);
	}
	*out = obj;
	return 0;
}

int hwxdp_object__open_mem(const void *data, size_t size, const char *name,
			   struct hwxdp_object **out)
{
	return hwxdp_object__open_mem_opts(data, size, name, NULL, out);
}

int hwxdp_object__open_opts(const char *path, const struct hwxdp_object_open_opts *opts,
			    struct hwxdp_object **out)
{
	char msg[512];
	void *data;
	size_t len;
	int err;

	hwxdp_error_clear();
	if (!path || !out)
		return hwxdp_error_for(-EINVAL, path ? path : "(no path)");
	*out = NULL;
	err = hwxdp_file__read(path, "objects", HWXDP_FILE_OBJECT_MAX, &data, &len, msg,
			       sizeof(msg));
	if (err)
		return hwxdp_error(err, "%s", msg);
	err = hwxdp_object__open_mem_opts(data, len, path, opts, out);
	free(data);
	return err;
}

int hwxdp_object__open(const char *path, struct hwxdp_object **out)
{
	return hwxdp_object__open_opts(path, NULL, out);
}

void hwxdp_object__close(struct hwxdp_object *obj)
{
	struct object_priv *priv;
	size_t i;

	if (!obj)
		return;
	priv = obj->priv;
	if (priv) {
		for (i = 0; i < priv->block_cnt; i++)
			free(priv->blocks[i]);
		free(priv->blocks);
		bpf_object__close(priv->bpf);
		btf__free(priv->own_btf);
		free(priv);
	}
	free(obj);
}

int hwxdp_btf__find_global(const struct btf *btf, const char *section, size_t section_size,
			   const char *name, size_t size, uint32_t *offset)
{
	const struct btf_var_secinfo *var;
	const struct btf_type *sec;
	int id, i;

	id = btf ? btf__find_by_name_kind(btf, section, BTF_KIND_DATASEC) : -ENOENT;
	if (id < 0)
		return -ENOENT;
	sec = btf__type_by_id(btf, id);
	var = btf_var_secinfos(sec);
	for (i = 0; i < btf_vlen(sec); i++, var++) {
		const struct btf_type *t = btf__type_by_id(btf, var->type);

		if (strcmp(btf__name_by_offset(btf, t->name_off), name))
			continue;
		if (var->size != size || var->offset + size > section_size)
			return -EINVAL;
		*offset = var->offset;
		return 0;
	}
	return -ENOENT;
}

/* Global variable name of size bytes: its map and offset. */
static int find_global(const struct hwxdp_object *obj, const char *name, size_t size,
		       struct hwxdp_map_desc **out, uint32_t *offset)
{
	if (!obj || !obj->btf || !name)
		return -ENOENT;
	for (size_t m = 0; m < obj->map_cnt; m++) {
		struct hwxdp_map_desc *map = &obj->maps[m];
		int err;

		if (map->origin != HWXDP_MAP_GLOBAL)
			continue;
		err = hwxdp_btf__find_global(obj->btf, map->section, map->initial_size, name, size,
					     offset);
		if (err == -ENOENT)
			continue;
		*out = map;
		return err;
	}
	return -ENOENT;
}

int hwxdp_target__write(const struct btf *btf, uint8_t *rodata, size_t size,
			enum hwxdp_target target)
{
	uint32_t value = target, offset;
	int err = hwxdp_btf__find_global(btf, ".rodata", size, "hwxdp_target", sizeof(value),
					 &offset);

	if (err == -ENOENT || (!err && !rodata))
		return 0;
	if (err)
		return hwxdp_error(err, "hwxdp_target is not a 4-byte global");
	memcpy(rodata + offset, &value, sizeof(value));
	return 1;
}

int hwxdp_object__set_target(struct hwxdp_object *obj, enum hwxdp_target target)
{
	for (size_t m = 0; m < obj->map_cnt; m++) {
		struct hwxdp_map_desc *map = &obj->maps[m];

		if (map->origin == HWXDP_MAP_GLOBAL && !strcmp(map->section, ".rodata")) {
			int err = hwxdp_target__write(obj->btf, (uint8_t *)map->initial,
						      map->initial_size, target);

			return err < 0 ? err : 0;
		}
	}
	return 0;
}

int hwxdp_object__get_global(const struct hwxdp_object *obj, const char *name, void *value,
			     size_t size)
{
	struct hwxdp_map_desc *map;
	uint32_t offset;
	int err = find_global(obj, name, size, &map, &offset);

	if (err)
		return err;
	if (map->initial)
		memcpy(value, map->initial + offset, size);
	else
		memset(value, 0, size);
	return 0;
}

int hwxdp_object__set_global(struct hwxdp_object *obj, const char *name, const void *value,
			     size_t size)
{
	struct hwxdp_map_desc *map;
	uint32_t offset;
	uint8_t *image;
	int err = find_global(obj, name, size, &map, &offset);

	if (err)
		return err;
	/* .bss has no image until something is written to it. */
	if (!map->initial) {
		image = calloc(1, map->initial_size);
		if (!image || !keep(obj->priv, image))
			return -ENOMEM;
		map->initial = image;
	}
	memcpy((uint8_t *)map->initial + offset, value, size);
	return 0;
}

const struct hwxdp_prog *hwxdp_object__find_prog(const struct hwxdp_object *obj, const char *name)
{
	size_t i;

	for (i = 0; obj && name && i < obj->prog_cnt; i++)
		if (!strcmp(obj->progs[i].name, name))
			return &obj->progs[i];
	return NULL;
}

const struct hwxdp_prog *hwxdp_object__xdp_prog(const struct hwxdp_object *obj)
{
	for (size_t i = 0; obj && i < obj->prog_cnt; i++)
		if (obj->progs[i].type == BPF_PROG_TYPE_XDP)
			return &obj->progs[i];
	return NULL;
}

const struct hwxdp_line *hwxdp_prog__line(const struct hwxdp_prog *prog, uint32_t insn)
{
	size_t lo = 0, hi, k;

	if (!prog || insn >= prog->insn_cnt)
		return NULL;
	/* The last line starting at or before insn, within insn's function. */
	for (hi = prog->line_cnt; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (prog->lines[mid].insn <= insn)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = prog->subprog_cnt; k > 1 && prog->subprog_start[k - 1] > insn; k--)
		;
	/* a program built by hand may come without function starts */
	if (!lo || (k && prog->lines[lo - 1].insn < prog->subprog_start[k - 1]))
		return NULL;
	return &prog->lines[lo - 1];
}
