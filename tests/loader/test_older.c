// SPDX-License-Identifier: GPL-2.0
/*
 * Objects of older toolchains and loaders: untyped program symbols, the
 * section names of samples/bpf and iproute2, static programs; programs of
 * other types named and refused; an object with no program an error. The
 * hwxdp command's exit statuses tell each case apart.
 */
#include <criterion/criterion.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "tests/loader/loader_util.h"
#include "verifier/verifier.h"

/*
 * obj with its global function symbols as clang of the pre-BTF years wrote
 * them: STT_NOTYPE, size 0. Local (static) functions keep their type, as
 * they did. Patched in the raw bytes, which is all an old object differs in.
 */
static size_t untype(uint8_t *image, size_t size)
{
	size_t shnum, changed = 0;
	Elf *elf;

	elf_version(EV_CURRENT);
	elf = elf_memory((char *)image, size);
	cr_assert_not_null(elf);
	cr_assert_eq(elf_getshdrnum(elf, &shnum), 0);
	for (size_t i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		for (size_t k = 1; k < sh.sh_size / sizeof(Elf64_Sym); k++) {
			size_t at = sh.sh_offset + k * sizeof(Elf64_Sym);
			Elf64_Sym sym;

			memcpy(&sym, image + at, sizeof(sym));
			if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC ||
			    ELF64_ST_BIND(sym.st_info) != STB_GLOBAL)
				continue;
			sym.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE);
			sym.st_size = 0;
			memcpy(image + at, &sym, sizeof(sym));
			changed++;
		}
	}
	elf_end(elf);
	return changed;
}

static void same_programs(const struct hwxdp_object *a, const struct hwxdp_object *b,
			  const char *what)
{
	cr_assert_eq(a->prog_cnt, b->prog_cnt, "%s: %zu programs typed, %zu untyped", what,
		     a->prog_cnt, b->prog_cnt);
	for (size_t i = 0; i < a->prog_cnt; i++) {
		const struct hwxdp_prog *p = &a->progs[i], *q = &b->progs[i];

		cr_assert_str_eq(p->name, q->name, "%s: program %zu", what, i);
		cr_assert_eq(p->type, q->type, "%s: %s: type", what, p->name);
		cr_assert_eq(p->insn_cnt, q->insn_cnt, "%s: %s: %zu insns typed, %zu untyped", what,
			     p->name, p->insn_cnt, q->insn_cnt);
		cr_assert_eq(memcmp(p->insns, q->insns, p->insn_cnt * sizeof(*p->insns)), 0,
			     "%s: %s: the instructions differ", what, p->name);
	}
}

static void untyped_like_typed(const char *rel)
{
	const char *path = hx_build_path(rel);
	struct hwxdp_object *typed, *untyped;
	uint8_t *image;
	size_t size;
	int err;

	image = hx_read_file(path, &size);
	cr_assert_eq(hwxdp_object__open_mem(image, size, path, &typed), 0, "%s", path);
	cr_assert_gt(untype(image, size), 0, "%s: no global function to untype", path);
	hx_capture_messages();
	err = hwxdp_object__open_mem(image, size, path, &untyped);
	cr_assert_eq(err, 0, "%s untyped: %s", path, hx_messages());
	cr_assert(strstr(hx_messages(), "untyped function symbol"),
		  "%s: no note that the symbols were untyped: %s", path, hx_messages());
	same_programs(typed, untyped, path);
	hwxdp_object__close(typed);
	hwxdp_object__close(untyped);
	free(image);
}

Test(loader_older, untyped_symbols_link_as_typed_ones)
{
	untyped_like_typed("progs/fwd.bpf.o");
	untyped_like_typed("progs/lpm_route.bpf.o");
	untyped_like_typed("tests/loader/corpus/calls.bpf.o");
	untyped_like_typed("tests/loader/corpus/legacy_hash.bpf.o");
}

static const struct hwxdp_prog *prog_named(const struct hwxdp_object *obj, const char *name)
{
	for (size_t i = 0; i < obj->prog_cnt; i++)
		if (!strcmp(obj->progs[i].name, name))
			return &obj->progs[i];
	cr_assert_fail("no program '%s' in the object", name);
	return NULL;
}

Test(loader_older, legacy_sections_and_static_programs)
{
	static const char *const as_xdp[] = { "xdp_one", "xdp_icmp_drop", "iproute2_default",
					      "xdp_prog_pass", "local_xdp" };
	const char *path = hx_build_path("tests/loader/older/sections.bpf.o");
	struct hwxdp_object *obj;

	hx_capture_messages();
	cr_assert_eq(hwxdp_object__open(path, &obj), 0, "%s: %s", path, hx_messages());
	for (size_t i = 0; i < sizeof(as_xdp) / sizeof(as_xdp[0]); i++)
		cr_assert_eq(prog_named(obj, as_xdp[i])->type, BPF_PROG_TYPE_XDP, "%s", as_xdp[i]);
	cr_assert_eq(prog_named(obj, "probe")->type, BPF_PROG_TYPE_KPROBE);
	cr_assert_eq(prog_named(obj, "classifier")->type, BPF_PROG_TYPE_SCHED_CLS);
	cr_assert_eq(prog_named(obj, "unnamed_type")->type, BPF_PROG_TYPE_UNSPEC);
	cr_assert(strstr(hx_messages(), "'local_xdp' in xdp is static"), "%s", hx_messages());
	cr_assert(strstr(hx_messages(), "section 'prog' read as XDP, as iproute2 did"), "%s",
		  hx_messages());
	hwxdp_object__close(obj);
}

/* An object whose only function is in .text beside others: no program. */
Test(loader_older, no_program_is_an_error)
{
	const char *path = hx_build_path("tests/loader/corpus/calls.bpf.o");
	struct hwxdp_object *obj;
	uint8_t *image;
	size_t size, shnum;
	Elf *elf;
	int err;

	image = hx_read_file(path, &size);
	/* every code section but .text becomes a plain data section */
	elf = elf_memory((char *)image, size);
	cr_assert_eq(elf_getshdrnum(elf, &shnum), 0);
	for (size_t i = 1; i < shnum; i++) {
		GElf_Shdr sh;
		size_t strndx;
		const char *name;
		Elf64_Ehdr eh;

		memcpy(&eh, image, sizeof(eh));
		gelf_getshdr(elf_getscn(elf, i), &sh);
		cr_assert_eq(elf_getshdrstrndx(elf, &strndx), 0);
		name = elf_strptr(elf, strndx, sh.sh_name);
		if ((sh.sh_flags & SHF_EXECINSTR) && strcmp(name, ".text")) {
			Elf64_Shdr raw;
			size_t at = eh.e_shoff + i * sizeof(raw);

			memcpy(&raw, image + at, sizeof(raw));
			raw.sh_flags &= ~(uint64_t)SHF_EXECINSTR;
			memcpy(image + at, &raw, sizeof(raw));
		}
	}
	elf_end(elf);
	hx_capture_messages();
	err = hwxdp_object__open_mem(image, size, path, &obj);
	cr_assert_neq(err, 0, "an object without a program opened");
	cr_assert(strstr(hwxdp_error_message(err), "no BPF program in it"), "%s",
		  hwxdp_error_message(err));
	free(image);
}

/* The command's status, its standard output kept in out. */
static int hwxdp_cmd(char *out, size_t len, const char *args)
{
	char cmd[PATH_MAX * 2];
	size_t n;
	FILE *p;
	int st;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", hx_build_path("hwxdp"), args);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	n = fread(out, 1, len - 1, p);
	out[n] = 0;
	st = pclose(p);
	cr_assert(WIFEXITED(st), "%s: did not exit", cmd);
	return WEXITSTATUS(st);
}

Test(loader_older, verify_names_other_types_and_its_statuses_differ)
{
	char out[8192], args[PATH_MAX + 64], older[PATH_MAX];

	snprintf(older, sizeof(older), "%s", hx_build_path("tests/loader/older/sections.bpf.o"));

	snprintf(args, sizeof(args), "verify %s", older);
	cr_assert_eq(hwxdp_cmd(out, sizeof(out), args), 1, "%s", out);
	cr_assert(strstr(out, "probe: rejected: a kprobe program (section 'kprobe/do_sys_open')"),
		  "%s", out);
	cr_assert(strstr(out, "classifier: rejected: a sched_cls program (section 'tc')"), "%s",
		  out);
	cr_assert(strstr(out, "unnamed_type: rejected: section 'my_own_section' names no "
			      "program type"),
		  "%s", out);
	cr_assert(strstr(out, "xdp_one: accepted"), "%s", out);
	cr_assert(strstr(out, "local_xdp: accepted"), "%s", out);

	snprintf(args, sizeof(args), "verify %s --prog xdp_one", older);
	cr_assert_eq(hwxdp_cmd(out, sizeof(out), args), 0, "%s", out);
	snprintf(args, sizeof(args), "verify %s --prog nothing_so_named", older);
	cr_assert_eq(hwxdp_cmd(out, sizeof(out), args), 2, "%s", out);
	cr_assert_eq(hwxdp_cmd(out, sizeof(out), "verify /nonexistent/x.bpf.o"), 2, "%s", out);
	cr_assert_eq(hwxdp_cmd(out, sizeof(out), "verify /etc/hostname"), 2, "%s", out);
	cr_assert_eq(hwxdp_cmd(out, sizeof(out), "verify"), 64, "%s", out);
	snprintf(args, sizeof(args), "verify %s --log-level ''", older);
	cr_assert_eq(hwxdp_cmd(out, sizeof(out), args), 64, "%s", out);
	cr_assert(strstr(out, "--log-level takes 0, 1 or 2, not ''"), "%s", out);
}

/* The kernel's verdict on one program of an object, loaded by libbpf. */
static bool kernel_accepts(const char *path, const char *prog_name)
{
	/* the refusals are expected: their logs are not news */
	libbpf_print_fn_t was = libbpf_set_print(NULL);
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_program *p;
	int err;

	cr_assert_not_null(obj, "%s: libbpf cannot open it", path);
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, !strcmp(bpf_program__name(p), prog_name));
	err = bpf_object__load(obj);
	bpf_object__close(obj);
	libbpf_set_print(was);
	return !err;
}

Test(loader_older, map_of_maps_as_the_kernel)
{
	char path[PATH_MAX];
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts) };
	const struct hwxdp_map_desc *outer = NULL, *inner;
	struct hwxdp_object *obj;

	snprintf(path, sizeof(path), "%s", hx_build_path("tests/loader/older/map_in_map.bpf.o"));
	cr_assert_eq(hwxdp_object__open(path, &obj), 0);
	for (size_t i = 0; i < obj->map_cnt; i++)
		if (!strcmp(obj->maps[i].name, "tables"))
			outer = &obj->maps[i];
	cr_assert_not_null(outer);
	cr_assert_eq(outer->type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	cr_assert_lt(outer->inner_map, obj->map_cnt);
	inner = &obj->maps[outer->inner_map];
	cr_assert_eq(inner->origin, HWXDP_MAP_INNER);
	cr_assert_eq(inner->type, BPF_MAP_TYPE_ARRAY);
	cr_assert_eq(inner->value_size, 8);
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		const struct hwxdp_prog *p = &obj->progs[i];
		struct hwxdp_verify_result *res;
		bool want = !strcmp(p->name, "count_by_table");

		cr_assert_eq(hwxdp_verify(obj, p, &opts, &res), 0);
		cr_expect_eq(res->accepted, want, "%s: hwxdp %s it:\n%s", p->name,
			     res->accepted ? "accepts" : "refuses", res->log);
		hwxdp_verify_result__free(res);
		if (geteuid() == 0)
			cr_expect_eq(kernel_accepts(path, p->name), want, "%s: the kernel %s it",
				     p->name, want ? "refuses" : "accepts");
	}
	hwxdp_object__close(obj);
}

/*
 * Every XDP program of every object here (ok_* and bad_* by name, and the
 * rest) gets the kernel's verdict from hwxdp's host verification, as root.
 */
Test(loader_older, host_verdicts_are_the_kernels)
{
	static const char *const objects[] = { "map_in_map", "global_funcs" };
	int checked = 0;

	if (geteuid() != 0)
		cr_skip_test("the kernel's verdict needs root");
	for (size_t o = 0; o < sizeof(objects) / sizeof(objects[0]); o++) {
		struct hwxdp_verify_opts opts = { .sz = sizeof(opts) };
		char path[PATH_MAX], rel[128];
		struct hwxdp_object *obj;

		snprintf(rel, sizeof(rel), "tests/loader/older/%s.bpf.o", objects[o]);
		snprintf(path, sizeof(path), "%s", hx_build_path(rel));
		cr_assert_eq(hwxdp_object__open(path, &obj), 0, "%s", path);
		for (size_t i = 0; i < obj->prog_cnt; i++) {
			const struct hwxdp_prog *p = &obj->progs[i];
			struct hwxdp_verify_result *res;
			bool kernel;

			if (p->type != BPF_PROG_TYPE_XDP || strcmp(p->section, "xdp"))
				continue; /* libbpf loads only what it knows as XDP */
			cr_assert_eq(hwxdp_verify(obj, p, &opts, &res), 0);
			kernel = kernel_accepts(path, p->name);
			cr_expect_eq(res->accepted, kernel,
				     "%s: %s: the kernel %s it, hwxdp %s:\n%s", objects[o], p->name,
				     kernel ? "accepts" : "refuses",
				     res->accepted ? "accepts" : "refuses", res->log);
			if (!strncmp(p->name, "ok_", 3) || !strncmp(p->name, "bad_", 4))
				cr_expect_eq(kernel, !strncmp(p->name, "ok_", 3),
					     "%s: the kernel's verdict is not the name's", p->name);
			hwxdp_verify_result__free(res);
			checked++;
		}
		hwxdp_object__close(obj);
	}
	cr_assert_geq(checked, 5, "only %d programs compared", checked);
}

/*
 * Zeroed globals in a .bss.* section: the loader takes them as the host
 * copy's libbpf does (1.1.2 makes a map of each, named by its section), or
 * refuses them where it does not.
 */
Test(loader_older, bss_sections_as_libbpf_takes_them)
{
	const char *path = hx_build_path("tests/loader/older/bss_sections.bpf.o");
	struct bpf_object *ref = bpf_object__open_file(path, NULL);
	struct hwxdp_object *obj = NULL;
	bool ours = false;
	int err;

	hx_capture_messages();
	err = hwxdp_object__open(path, &obj);
	cr_assert_eq(!err, ref != NULL, "libbpf %s it, hwxdp %s: %s", ref ? "opens" : "cannot open",
		     err ? "cannot" : "opens", hx_messages());
	for (size_t i = 0; obj && i < obj->map_cnt; i++)
		ours |= !strcmp(obj->maps[i].name, ".bss.counters");
	cr_assert(!ref || (bpf_object__find_map_by_name(ref, ".bss.counters") && ours),
		  "libbpf's map .bss.counters: hwxdp %s it", ours ? "has" : "lacks");
	bpf_object__close(ref);
	hwxdp_object__close(obj);
}
