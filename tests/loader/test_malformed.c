// SPDX-License-Identifier: GPL-2.0
/*
 * Broken objects: each is refused with a negative code and a message that
 * names the file and the defect, or (for damage the loader cannot see)
 * opened whole; never a crash, never a half-filled object.
 */
#include <criterion/criterion.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/kfuncs.h"
#include "tests/loader/loader_util.h"

#define OP_LD_IMM64 (BPF_LD | BPF_IMM | BPF_DW)
#define NAME	    "broken.bpf.o"

struct image {
	uint8_t *data;
	size_t size;
};

static struct image load(const char *rel)
{
	struct image im;

	im.data = hx_read_file(hx_build_path(rel), &im.size);
	return im;
}

/* File offset and size of section name. */
static size_t section(const struct image *im, const char *name, size_t *size)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx, off = 0;

	elf_version(EV_CURRENT);
	elf = elf_memory((char *)im->data, im->size);
	cr_assert(elf && !elf_getshdrstrndx(elf, &shstrndx));
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		gelf_getshdr(scn, &sh);
		if (!strcmp(elf_strptr(elf, shstrndx, sh.sh_name), name)) {
			off = sh.sh_offset;
			*size = sh.sh_size;
		}
	}
	elf_end(elf);
	cr_assert_gt(off, 0, "no section %s", name);
	return off;
}

/* The symbol table entry of name. */
static Elf64_Sym *symbol(const struct image *im, const char *name)
{
	size_t size, strsz, i, symoff = section(im, ".symtab", &size);
	const char *strtab = (const char *)im->data + section(im, ".strtab", &strsz);

	for (i = 0; i < size / sizeof(Elf64_Sym); i++) {
		Elf64_Sym *sym = (Elf64_Sym *)(im->data + symoff) + i;

		if (!strcmp(strtab + sym->st_name, name))
			return sym;
	}
	cr_assert_fail("no symbol %s", name);
	return NULL;
}

/* Opening im must fail with err and one line naming the file and saying
 * what, given to the caller and not printed. */
static void assert_refused(const struct image *im, int err, const char *what)
{
	struct hwxdp_object *obj = (void *)1;
	const char *msg;
	int ret;

	hx_capture_messages();
	ret = hwxdp_object__open_mem(im->data, im->size, NAME, &obj);
	msg = hwxdp_error_message(ret);
	cr_assert_eq(ret, err, "returned %d, want %d; said: %s", ret, err, msg);
	cr_assert_null(obj);
	cr_assert(!strncmp(msg, NAME ": ", strlen(NAME ": ")), "message without the file: %s", msg);
	cr_assert(strstr(msg, what), "message without '%s': %s", what, msg);
	cr_assert(!strchr(msg, '\n'), "more than one line: %s", msg);
	cr_assert_str_empty(hx_messages(), "printed besides: %s", hx_messages());
}

/* Opens or fails cleanly; an opened object is walked whole. */
static int open_or_fail(const uint8_t *data, size_t size)
{
	struct hwxdp_object *obj = (void *)1;
	size_t i, k, sum = 0;
	int ret;

	hx_capture_messages();
	ret = hwxdp_object__open_mem(data, size, NAME, &obj);
	if (ret) {
		cr_assert_lt(ret, 0);
		cr_assert_null(obj);
		const char *msg = hwxdp_error_message(ret);

		cr_assert(strstr(msg, NAME), "refused (%d) without naming the file: %s", ret, msg);
		return ret;
	}
	for (i = 0; i < obj->prog_cnt; i++) {
		const struct hwxdp_prog *p = &obj->progs[i];

		for (k = 0; k < p->insn_cnt; k++)
			sum += p->insns[k].code;
		for (k = 0; k < p->line_cnt; k++)
			sum += strlen(p->lines[k].text) + strlen(p->lines[k].file);
		for (k = 0; k < p->subprog_cnt; k++)
			cr_assert_lt(p->subprog_start[k], p->insn_cnt);
		for (k = 0; k < p->insn_cnt; k++)
			if (p->insns[k].code == OP_LD_IMM64 &&
			    (p->insns[k].src_reg == BPF_PSEUDO_MAP_FD ||
			     p->insns[k].src_reg == BPF_PSEUDO_MAP_VALUE))
				cr_assert_lt((size_t)p->insns[k].imm, obj->map_cnt);
	}
	for (i = 0; i < obj->map_cnt; i++)
		for (k = 0; obj->maps[i].initial && k < obj->maps[i].initial_size; k++)
			sum += obj->maps[i].initial[k];
	hwxdp_object__close(obj);
	return sum ? 0 : 0;
}

Test(loader_malformed, not_an_elf)
{
	struct image im = { (uint8_t *)"just some text, not an object\n", 30 };

	assert_refused(&im, -HWXDP_ERR_ELF, "not an ELF");
	im.size = 0;
	assert_refused(&im, -HWXDP_ERR_ELF, "not an ELF");
}

Test(loader_malformed, elf_of_another_machine)
{
	struct image im = load("progs/fwd.bpf.o");

	((Elf64_Ehdr *)im.data)->e_machine = EM_X86_64;
	assert_refused(&im, -HWXDP_ERR_ELF, "machine 62");
	free(im.data);
}

Test(loader_malformed, relocation_outside_its_section)
{
	struct image im = load("progs/fwd.bpf.o");
	size_t code_size, size, off = section(&im, ".relxdp", &size);

	section(&im, "xdp", &code_size);
	((Elf64_Rel *)(im.data + off))->r_offset = code_size;
	assert_refused(&im, -HWXDP_ERR_RELOC, "outside section xdp");
	free(im.data);
}

Test(loader_malformed, relocation_to_an_unknown_symbol)
{
	struct image im = load("progs/fwd.bpf.o");
	size_t size, off = section(&im, ".relxdp", &size);
	Elf64_Rel *rel = (Elf64_Rel *)(im.data + off) + 2;

	rel->r_info = ELF64_R_INFO(100000, ELF64_R_TYPE(rel->r_info));
	assert_refused(&im, -HWXDP_ERR_RELOC, "unknown symbol #100000");
	free(im.data);
}

/* A map named by number rather than by relocation. */
Test(loader_malformed, map_index_out_of_range)
{
	struct image im = load("progs/fwd.bpf.o");
	size_t size, i, off = section(&im, "xdp", &size);
	struct bpf_insn *insn = (struct bpf_insn *)(im.data + off);

	for (i = 0; i < size / sizeof(*insn); i++)
		if (insn[i].code == OP_LD_IMM64 && insn[i].src_reg == 0 && insn[i].imm == -4096)
			break;
	cr_assert_lt(i, size / sizeof(*insn), "fwd has no 64-bit constant to spoil");
	insn[i].src_reg = BPF_PSEUDO_MAP_FD;
	insn[i].imm = 99;
	assert_refused(&im, -HWXDP_ERR_RELOC, "names map 99 without a relocation");
	free(im.data);
}

Test(loader_malformed, legacy_map_beyond_its_section)
{
	struct image im = load("tests/loader/corpus/legacy_hash.bpf.o");

	symbol(&im, "verdicts")->st_value = 40;
	assert_refused(&im, -HWXDP_ERR_MAP, "'verdicts' lies beyond the section");
	free(im.data);
}

/* struct bpf_map_def: type, key_size, value_size, max_entries, map_flags */
Test(loader_malformed, legacy_map_of_no_entries)
{
	struct image im = load("tests/loader/corpus/legacy_hash.bpf.o");
	size_t size, maps = section(&im, "maps", &size);
	uint32_t zero = 0;

	memcpy(im.data + maps + symbol(&im, "verdicts")->st_value + 12, &zero, sizeof(zero));
	assert_refused(&im, -HWXDP_ERR_MAP, "'verdicts' has max_entries 0");
	free(im.data);
}

Test(loader_malformed, ld_imm64_without_second_half)
{
	struct image im = load("progs/fwd.bpf.o");
	size_t size, off = section(&im, "xdp", &size);
	struct bpf_insn *last = (struct bpf_insn *)(im.data + off + size) - 1;

	cr_assert(last->code && last[-1].code != OP_LD_IMM64, "fwd ends in an ld_imm64");
	last->code = OP_LD_IMM64;
	assert_refused(&im, -HWXDP_ERR_PROG, "lacks its second half");
	free(im.data);
}

Test(loader_malformed, extern_neither_a_kfunc_nor_weak)
{
	struct image im = load("tests/loader/corpus/weak_kfunc.bpf.o");
	Elf64_Sym *sym = symbol(&im, "bpf_hwxdp_nowhere");

	sym->st_info = ELF64_ST_INFO(STB_GLOBAL, ELF64_ST_TYPE(sym->st_info));
	assert_refused(&im, -HWXDP_ERR_RELOC, "extern 'bpf_hwxdp_nowhere' is not a kfunc");
	free(im.data);
}

/* Every copy of name in im (symbol and BTF strings) becomes to, no longer. */
static void rename_all(struct image *im, const char *name, const char *to)
{
	size_t n = strlen(name) + 1, renamed = 0;

	cr_assert_leq(strlen(to), strlen(name));
	for (size_t at = 0; at + n <= im->size; at++)
		if (!memcmp(im->data + at, name, n)) {
			memset(im->data + at, 0, n);
			memcpy(im->data + at, to, strlen(to));
			renamed++;
		}
	cr_assert_gt(renamed, 0, "no string %s", name);
}

/*
 * xdp_hints's vlan kfunc renamed: to a kernel kfunc hwxdp lacks, strong or
 * weak (libbpf resolves it for the kernel's copy either way, where hwxdp
 * would take a weak one for absent and verify another program), and to one
 * no kernel has. Each is refused, by name.
 */
Test(loader_malformed, kfuncs_hwxdp_does_not_know)
{
	static const struct {
		const char *name, *why;
		bool weak;
	} cases[] = {
		{ "bpf_dynptr_adjust", "kfunc 'bpf_dynptr_adjust' is not supported by hwxdp" },
		{ "bpf_dynptr_adjust", "kfunc 'bpf_dynptr_adjust' is not supported by hwxdp",
		  true },
		{ "bpf_no_such_kfunc", "extern 'bpf_no_such_kfunc' is not a kfunc of the target" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct image im = load("tests/corpus/xdp_hints.bpf.o");

		/* the kernel's BTF tells them apart, where there is one */
		if (i < 2 && !hwxdp_kfunc__in_kernel(cases[i].name)) {
			cr_log_info("%s: not in this kernel's BTF\n", cases[i].name);
			free(im.data);
			continue;
		}
		rename_all(&im, "bpf_xdp_metadata_rx_vlan_tag", cases[i].name);
		if (cases[i].weak) {
			Elf64_Sym *sym = symbol(&im, cases[i].name);

			sym->st_info = ELF64_ST_INFO(STB_WEAK, ELF64_ST_TYPE(sym->st_info));
		}
		assert_refused(&im, -HWXDP_ERR_RELOC, cases[i].why);
		free(im.data);
	}
}

/* libbpf 1.1 reads a BTF name it does not check: found by fuzzing. */
Test(loader_malformed, btf_name_out_of_range)
{
	struct image im = load("progs/fwd.bpf.o");
	size_t size, off = section(&im, ".BTF", &size);
	uint32_t hdr_len, type_off, bad = 0x7fffffff;

	memcpy(&hdr_len, im.data + off + 4, 4);
	memcpy(&type_off, im.data + off + 8, 4);
	/* The first type's name_off. */
	memcpy(im.data + off + hdr_len + type_off, &bad, 4);
	assert_refused(&im, -HWXDP_ERR_ELF, ".BTF: type 1 refers to a name or type");
	free(im.data);
}

Test(loader_malformed, truncated_at_fifty_lengths)
{
	struct image im = load("progs/fwd.bpf.o");
	size_t i, refused = 0;

	for (i = 0; i < 50; i++) {
		size_t len = i < 10 ? i * 7 : im.size * (i - 9) / 41;

		refused += open_or_fail(im.data, len) < 0;
	}
	cr_assert_geq(refused, 49, "only %zu of 50 truncations refused", refused);
	free(im.data);
}

Test(loader_malformed, bytes_flipped_at_seeded_positions)
{
	static const char *const rels[] = { "progs/fwd.bpf.o", "tests/loader/corpus/calls.bpf.o",
					    "tests/loader/corpus/legacy_calls.bpf.o" };
	size_t r, i, opened = 0;

	srand(20240611);
	for (r = 0; r < 3; r++) {
		struct image im = load(rels[r]);
		uint8_t *copy = malloc(im.size);

		for (i = 0; i < 200; i++) {
			size_t pos = (size_t)rand() % im.size;

			memcpy(copy, im.data, im.size);
			copy[pos] ^= 1 + rand() % 255;
			opened += open_or_fail(copy, im.size) == 0;
		}
		free(copy);
		free(im.data);
	}
	/* Most bytes are debug info the loader never reads. */
	cr_assert_gt(opened, 0);
}

Test(loader_malformed, random_bytes)
{
	uint8_t buf[4096];
	size_t i, k;

	srand(7);
	for (i = 0; i < 200; i++) {
		size_t len = (size_t)rand() % sizeof(buf);

		for (k = 0; k < len; k++)
			buf[k] = rand();
		/* Half of them look like a BPF ELF header to get further in. */
		if (i % 2 && len >= sizeof(Elf64_Ehdr)) {
			Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;

			memcpy(eh->e_ident, ELFMAG, SELFMAG);
			eh->e_ident[EI_CLASS] = ELFCLASS64;
			eh->e_ident[EI_DATA] = ELFDATA2LSB;
			eh->e_ident[EI_VERSION] = EV_CURRENT;
			eh->e_type = ET_REL;
			eh->e_machine = EM_BPF;
			eh->e_version = EV_CURRENT;
			eh->e_shentsize = sizeof(Elf64_Shdr);
			eh->e_shoff %= len;
			eh->e_shnum %= 16;
		}
		cr_assert_lt(open_or_fail(buf, len), 0, "random bytes %zu opened", i);
	}
}
