// SPDX-License-Identifier: GPL-2.0
/*
 * Legacy maps in the host copy (loader/legacy_maps.c): every object of the
 * corpora whose maps are struct bpf_map_def in SEC("maps") loads into the
 * kernel, and each of its maps is, as the kernel reports it, the definition
 * hwxdp's own loader reads; a malformed "maps" section is refused in words.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "base/log.h"
#include "loader/host.h"
#include "loader/legacy_maps.h"
#include "tests/loader/loader_util.h"

static const char *const dirs[] = { "tests/loader/corpus", "tests/loader/older", "tests/corpus",
				    "tests/corpus-v3", "tests/corpus-O1" };

static bool is_legacy(const struct hwxdp_object *obj)
{
	for (size_t i = 0; i < obj->map_cnt; i++)
		if (obj->maps[i].origin == HWXDP_MAP_LEGACY)
			return true;
	return false;
}

/* Each map of obj's legacy definitions against the kernel's map of that name. */
static size_t check_maps(const char *path, const struct hwxdp_object *obj, struct bpf_object *host)
{
	size_t checked = 0;

	for (size_t i = 0; i < obj->map_cnt; i++) {
		const struct hwxdp_map_desc *d = &obj->maps[i];
		struct bpf_map_info info = { 0 };
		__u32 len = sizeof(info);
		struct bpf_map *m;

		if (d->origin != HWXDP_MAP_LEGACY)
			continue;
		m = bpf_object__find_map_by_name(host, d->name);
		cr_assert_not_null(m, "%s: the host copy has no map '%s'", path, d->name);
		cr_assert_eq(bpf_obj_get_info_by_fd(bpf_map__fd(m), &info, &len), 0,
			     "%s: map '%s': no info from the kernel", path, d->name);
		cr_expect_eq(info.type, d->type, "%s: map '%s': type %u, defined %u", path, d->name,
			     info.type, d->type);
		cr_expect_eq(info.key_size, d->key_size, "%s: map '%s': key_size %u, defined %u",
			     path, d->name, info.key_size, d->key_size);
		cr_expect_eq(info.value_size, d->value_size,
			     "%s: map '%s': value_size %u, defined %u", path, d->name,
			     info.value_size, d->value_size);
		/* libbpf sizes a perf event array of 0 entries by the CPUs, as 0.x did */
		if (d->max_entries || d->type != BPF_MAP_TYPE_PERF_EVENT_ARRAY)
			cr_expect_eq(info.max_entries, d->max_entries,
				     "%s: map '%s': max_entries %u, defined %u", path, d->name,
				     info.max_entries, d->max_entries);
		cr_expect_eq(info.map_flags, d->map_flags,
			     "%s: map '%s': map_flags %#x, defined %#x", path, d->name,
			     info.map_flags, d->map_flags);
		checked++;
	}
	return checked;
}

/* The object's BTF, with the maps' types added (or made for them), is in the
 * kernel; a program with BTF carries it (func and line info): libbpf did not
 * go on without. */
static void check_btf(const char *path, const struct hwxdp_object *obj, struct bpf_object *host)
{
	const struct btf *btf = bpf_object__btf(host);
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);

	cr_assert_not_null(btf, "%s: the host copy has no BTF", path);
	cr_assert_geq(btf__fd(btf), 0, "%s: its BTF is not in the kernel", path);
	cr_assert_eq(
		bpf_obj_get_info_by_fd(bpf_program__fd(hwxdp_host_xdp_program(host)), &info, &len),
		0, "%s: no program info", path);
	if (obj->btf)
		cr_assert_neq(info.btf_id, 0, "%s: the program was loaded without BTF", path);
	else
		cr_assert_eq(info.btf_id, 0, "%s: BTF for a program that has none", path);
}

Test(loader_legacy, every_legacy_object_loads_with_its_maps)
{
	size_t objects = 0, maps = 0;

	if (geteuid() != 0)
		cr_skip_test("loading into the kernel needs root");
	hx_capture_messages();
	for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
		char dir[PATH_MAX];
		struct dirent *de;
		DIR *d;

		snprintf(dir, sizeof(dir), "%s", hx_build_path(dirs[k]));
		d = opendir(dir);
		cr_assert_not_null(d, "%s: not built (make)", dir);
		while ((de = readdir(d))) {
			size_t n = strlen(de->d_name);
			char path[PATH_MAX + 256];
			struct hwxdp_object *obj;
			struct bpf_object *host;

			if (n < 6 || strcmp(de->d_name + n - 6, ".bpf.o"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			if (hx_open_kernel_view(path, &obj))
				continue;
			if (!is_legacy(obj)) {
				hwxdp_object__close(obj);
				continue;
			}
			host = hwxdp_host_load(path);
			cr_assert_not_null(host, "%s: no host copy: %s", path,
					   hwxdp_error_message(-errno));
			cr_assert_not_null(hwxdp_host_xdp_program(host), "%s: no XDP program",
					   path);
			check_btf(path, obj, host);
			maps += check_maps(path, obj, host);
			objects++;
			bpf_object__close(host);
			hwxdp_object__close(obj);
		}
		closedir(d);
	}
	/* legacy_calls, legacy_hash, legacy_nobtf; four of tests/corpus in its three builds */
	cr_assert_geq(objects, 15, "%zu legacy objects loaded, wants 15", objects);
	cr_assert_geq(maps, 31, "%zu legacy maps checked, wants 31", maps);
	cr_log_info("%zu legacy objects loaded, %zu maps as defined", objects, maps);
}

/* --- malformed "maps" sections: refused in words, not crashed on -------- */

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

static Elf64_Shdr *section(struct image *im, const char *name)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)im->data;
	Elf64_Shdr *sh = (Elf64_Shdr *)(im->data + eh->e_shoff);
	const char *names = (const char *)im->data + sh[eh->e_shstrndx].sh_offset;

	for (size_t i = 1; i < eh->e_shnum; i++)
		if (!strcmp(names + sh[i].sh_name, name))
			return &sh[i];
	cr_assert_fail("no section %s", name);
	return NULL;
}

static Elf64_Sym *symbol(struct image *im, const char *name)
{
	Elf64_Shdr *st = section(im, ".symtab");
	Elf64_Sym *syms = (Elf64_Sym *)(im->data + st->sh_offset);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)im->data;
	Elf64_Shdr *strtab = (Elf64_Shdr *)(im->data + eh->e_shoff) + st->sh_link;

	for (size_t i = 1; i < st->sh_size / sizeof(*syms); i++)
		if (!strcmp((const char *)im->data + strtab->sh_offset + syms[i].st_name, name))
			return &syms[i];
	cr_assert_fail("no symbol %s", name);
	return NULL;
}

/* The rewrite refuses im with a line containing want. */
static void refused(struct image *im, const char *want)
{
	void *out = (void *)1;
	const char *msg;
	size_t size;
	int err;

	err = hwxdp_legacy_maps_rewrite(im->data, im->size, "obj.o", &out, &size);
	cr_assert_lt(err, 0, "rewritten, want a refusal: %s", want);
	cr_assert_null(out, "a refusal left an image");
	msg = hwxdp_error_message(err);
	cr_assert(strstr(msg, want), "refused with '%s', want '%s'", msg, want);
	free(im->data);
}

Test(loader_legacy, section_not_a_multiple_of_the_definitions)
{
	struct image im = load("tests/loader/corpus/legacy_hash.bpf.o");

	section(&im, "maps")->sh_size -= 3;
	refused(&im, "obj.o: maps: 37 bytes for 2 maps, not one size each");
}

Test(loader_legacy, symbol_beyond_the_section)
{
	struct image im = load("tests/loader/corpus/legacy_hash.bpf.o");

	symbol(&im, "verdicts")->st_value = 1 << 20;
	refused(&im, "obj.o: maps: 'verdicts' lies beyond the section");
}

Test(loader_legacy, symbol_across_the_end_of_the_section)
{
	struct image im = load("tests/loader/corpus/legacy_hash.bpf.o");

	symbol(&im, "verdicts")->st_value += 4;
	refused(&im, "obj.o: maps: 'verdicts' lies beyond the section");
}

Test(loader_legacy, map_of_maps)
{
	struct image im = load("tests/loader/corpus/legacy_hash.bpf.o");
	uint32_t type = BPF_MAP_TYPE_HASH_OF_MAPS;

	memcpy(im.data + section(&im, "maps")->sh_offset + symbol(&im, "conns")->st_value, &type,
	       sizeof(type));
	refused(&im, "obj.o: maps: 'conns' is a map of maps");
}

/* iproute2's struct bpf_elf_map naming an inner map by inner_id */
Test(loader_legacy, iproute2_inner_map)
{
	struct image im = load("tests/corpus/iproute2_elf_map.bpf.o");
	uint32_t id = 1;

	memcpy(im.data + section(&im, "maps")->sh_offset + symbol(&im, "drop_src")->st_value + 28,
	       &id, sizeof(id));
	refused(&im, "obj.o: maps: 'drop_src' names an inner map (iproute2's inner_id");
}

Test(loader_legacy, no_entries)
{
	struct image im = load("tests/loader/corpus/legacy_hash.bpf.o");
	uint32_t zero = 0;

	memcpy(im.data + section(&im, "maps")->sh_offset + symbol(&im, "verdicts")->st_value + 12,
	       &zero, sizeof(zero));
	refused(&im, "obj.o: maps: 'verdicts' has max_entries 0");
}

/* The host load says the rewrite's reason, and loads nothing. */
Test(loader_legacy, host_load_says_why)
{
	struct image im = load("tests/loader/corpus/legacy_hash.bpf.o");
	char path[] = "/tmp/hwxdp-legacy-XXXXXX";
	int fd = mkstemp(path), err;
	struct bpf_object *obj;
	const char *msg;

	cr_assert_geq(fd, 0);
	section(&im, "maps")->sh_size -= 3;
	cr_assert_eq(write(fd, im.data, im.size), (ssize_t)im.size);
	close(fd);
	free(im.data);
	obj = hwxdp_host_load(path);
	err = obj ? 0 : -errno;
	msg = hwxdp_error_message(err);
	cr_expect_null(obj, "a malformed legacy object loaded");
	cr_expect(strstr(msg, "maps: 37 bytes for 2 maps"), "the reason: %s", msg);
	bpf_object__close(obj);
	unlink(path);
}

/* A file of im's bytes, loaded as the host copy: the object or NULL. */
static struct bpf_object *host_load_image(struct image *im, char *path)
{
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, im->data, im->size), (ssize_t)im->size);
	close(fd);
	return hwxdp_host_load(path);
}

/* Cut where its section headers were: not the rewrite's to refuse, libbpf's. */
Test(loader_legacy, truncated_file)
{
	struct image im = load("tests/loader/corpus/legacy_hash.bpf.o");
	char path[] = "/tmp/hwxdp-legacy-XXXXXX";
	void *out = (void *)1;
	struct bpf_object *obj;
	const char *msg;
	size_t size;

	im.size = 100;
	cr_expect_eq(hwxdp_legacy_maps_rewrite(im.data, im.size, "obj.o", &out, &size), 0);
	cr_expect_null(out);
	obj = host_load_image(&im, path);
	msg = hwxdp_error_message(obj ? 0 : -errno);
	cr_expect_null(obj, "a cut object loaded");
	cr_expect(strstr(msg, path) && strstr(msg, "libbpf cannot open it"), "the reason: %s", msg);
	bpf_object__close(obj);
	unlink(path);
	free(im.data);
}

/* Map symbols of older toolchains, untyped (STT_NOTYPE): maps all the same. */
Test(loader_legacy, untyped_map_symbols)
{
	struct image im = load("tests/loader/corpus/legacy_hash.bpf.o");
	char path[] = "/tmp/hwxdp-legacy-XXXXXX";
	struct bpf_object *obj;
	struct bpf_map *m;
	size_t maps = 0;

	if (geteuid() != 0)
		cr_skip_test("loading into the kernel needs root");
	symbol(&im, "conns")->st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE);
	symbol(&im, "verdicts")->st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE);
	obj = host_load_image(&im, path);
	cr_assert_not_null(obj, "no host copy: %s", hwxdp_error_message(-errno));
	bpf_object__for_each_map(m, obj) maps += !bpf_map__is_internal(m);
	cr_expect_eq(maps, 2, "%zu maps", maps);
	bpf_object__close(obj);
	unlink(path);
	free(im.data);
}

/* No "maps" section: nothing to rewrite. */
Test(loader_legacy, modern_object_untouched)
{
	struct image im = load("tests/loader/corpus/legacy_hash.twin.bpf.o");
	void *out = NULL;
	size_t size = 0;

	cr_expect_eq(hwxdp_legacy_maps_rewrite(im.data, im.size, "twin.o", &out, &size), 0);
	cr_expect_null(out);
	free(im.data);
}

/*
 * A static legacy map: clang names it by the "maps" section's own symbol
 * and its offset in the instruction. libbpf 1.x takes no static map, so the
 * rewrite refuses it, and hwxdp's own loader too, where it read the map at
 * the section symbol's value (the section's first: libbpf 0.x's reading)
 * for every such reference: the device ran conns where the program said
 * verdicts, and no host copy could be made. The image is legacy_hash's with
 * a section symbol moved to "maps" and the reference to verdicts made
 * through it, as clang makes it for `static struct bpf_map_def`.
 */
Test(loader_legacy, static_map_named_by_its_section)
{
	struct image im = load("tests/loader/corpus/legacy_hash.bpf.o");
	Elf64_Ehdr *eh = (Elf64_Ehdr *)im.data;
	Elf64_Shdr *sh = (Elf64_Shdr *)(im.data + eh->e_shoff), *maps = section(&im, "maps");
	Elf64_Shdr *rel = section(&im, ".relxdp"), *prog = section(&im, "xdp");
	Elf64_Shdr *st = section(&im, ".symtab");
	Elf64_Sym *syms = (Elf64_Sym *)(im.data + st->sh_offset), *verdicts;
	Elf64_Rel *r = (Elf64_Rel *)(im.data + rel->sh_offset);
	size_t sym_cnt = st->sh_size / sizeof(*syms), sec_sym = 0, moved = 0;
	struct hwxdp_object *obj = NULL;
	int err;

	verdicts = symbol(&im, "verdicts");
	/* a debug section's symbol, made the one of "maps" */
	for (size_t i = 1; i < sym_cnt && !sec_sym; i++)
		if (ELF64_ST_TYPE(syms[i].st_info) == STT_SECTION && syms[i].st_shndx != prog - sh)
			sec_sym = i;
	cr_assert_neq(sec_sym, 0, "no section symbol to move");
	syms[sec_sym].st_shndx = (uint16_t)(maps - sh);
	for (size_t k = 0; k < rel->sh_size / sizeof(*r); k++) {
		struct bpf_insn *insn =
			(struct bpf_insn *)(im.data + prog->sh_offset + r[k].r_offset);

		if (&syms[ELF64_R_SYM(r[k].r_info)] != verdicts)
			continue;
		r[k].r_info = ELF64_R_INFO(sec_sym, ELF64_R_TYPE(r[k].r_info));
		insn->imm = (int32_t)verdicts->st_value;
		moved++;
	}
	cr_assert_gt(moved, 0, "no reference to verdicts");
	err = hwxdp_object__open_mem(im.data, im.size, "obj.o", &obj);
	cr_expect_lt(err, 0, "hwxdp's loader reads a static map");
	cr_expect(err >= 0 || strstr(hwxdp_error_message(err),
				     "refers to section 'maps', not a map symbol (a static map"),
		  "refused with: %s", hwxdp_error_message(err));
	if (!err)
		hwxdp_object__close(obj);
	refused(&im, "obj.o: maps: .relxdp names the section, not a map symbol");
}

/* One damaged image: rewritten into an object libbpf opens or refuses, or
 * refused with a line naming the file. 1 when rewritten. */
static int rewrite_damaged(const uint8_t *data, size_t size)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = "obj");
	/* a damaged .BTF has lines of libbpf's own */
	libbpf_print_fn_t old = libbpf_set_print(NULL);
	void *out = NULL;
	size_t out_size = 0;
	int err = hwxdp_legacy_maps_rewrite(data, size, "obj.o", &out, &out_size);

	if (out)
		bpf_object__close(bpf_object__open_mem(out, out_size, &opts));
	libbpf_set_print(old);
	free(out);
	if (err < 0) {
		const char *msg = hwxdp_error_message(err);

		cr_assert(!out, "a refusal left an image");
		cr_assert(!strncmp(msg, "obj.o: ", 7), "a refusal without the file's name: %s",
			  msg);
	}
	return err;
}

/* Bytes flipped where the rewrite reads (the ELF and section headers, the
 * symbols, "maps", .BTF) and the file cut at every length: never a crash. */
Test(loader_legacy, damaged_objects_never_crash)
{
	static const char *const rels[] = { "tests/loader/corpus/legacy_calls.bpf.o",
					    "tests/corpus/iproute2_elf_map.bpf.o",
					    "tests/loader/older/legacy_nobtf.bpf.o" };
	size_t rewritten = 0, tried = 0;

	srand(20261202);
	for (size_t r = 0; r < sizeof(rels) / sizeof(rels[0]); r++) {
		struct image im = load(rels[r]);
		Elf64_Ehdr *eh = (Elf64_Ehdr *)im.data;
		const char *names[] = { ".symtab", "maps", ".BTF" };
		struct {
			size_t off, len;
		} spans[5] = { { 0, sizeof(*eh) },
			       { eh->e_shoff, eh->e_shnum * sizeof(Elf64_Shdr) } };
		size_t span_cnt = 2;
		uint8_t *copy = malloc(im.size);

		for (size_t n = 0; n < 3; n++) {
			Elf64_Shdr *sh = (Elf64_Shdr *)(im.data + eh->e_shoff);
			const char *strs = (const char *)im.data + sh[eh->e_shstrndx].sh_offset;

			for (size_t i = 1; i < eh->e_shnum; i++)
				if (!strcmp(strs + sh[i].sh_name, names[n]))
					spans[span_cnt].off = sh[i].sh_offset,
					spans[span_cnt++].len = sh[i].sh_size;
		}
		for (size_t i = 0; i < 600; i++) {
			size_t s = (size_t)rand() % span_cnt;
			size_t pos = spans[s].off + (size_t)rand() % spans[s].len;

			memcpy(copy, im.data, im.size);
			copy[pos] ^= 1 + rand() % 255;
			rewritten += rewrite_damaged(copy, im.size) == 1;
			tried++;
		}
		for (size_t len = 0; len < im.size; len += 61) {
			memcpy(copy, im.data, len);
			rewrite_damaged(copy, len);
			tried++;
		}
		free(copy);
		free(im.data);
	}
	/* a flip in a name or a padding byte leaves a good object */
	cr_assert_gt(rewritten, 0, "no damaged object rewritten of %zu", tried);
	cr_log_info("%zu damaged objects, %zu of them rewritten", tried, rewritten);
}
