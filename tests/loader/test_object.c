// SPDX-License-Identifier: GPL-2.0
/*
 * What the loader makes of well-formed objects, without a kernel: maps as
 * libbpf describes them, subprograms appended in libbpf's order, globals as
 * map values, kfuncs against the device's table and the kernel's, legacy
 * maps, and source lines that are the source's.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "device/tables.h"
#include "hwmap/hxu.h"
#include "loader/device.h"
#include "loader/kconfig.h"
#include "loader/kfuncs.h"
#include "tests/loader/loader_util.h"

#define OP_LD_IMM64 (BPF_LD | BPF_IMM | BPF_DW)
#define OP_CALL	    (BPF_JMP | BPF_CALL)

static struct hwxdp_object *open_device(const char *rel)
{
	struct hwxdp_object *obj;
	const char *path = hx_build_path(rel);

	cr_assert_eq(hwxdp_object__open(path, &obj), 0, "%s: cannot open", path);
	return obj;
}

static int map_index(const struct hwxdp_object *obj, const char *name)
{
	size_t i;

	for (i = 0; i < obj->map_cnt; i++)
		if (!strcmp(obj->maps[i].name, name))
			return i;
	cr_assert_fail("no map '%s'", name);
	return -1;
}

static void assert_map_like(const char *path, const struct hwxdp_map_desc *ours,
			    const struct bpf_map *m, bool btf_ids)
{
	cr_assert_eq(ours->type, bpf_map__type(m), "%s: map %s type", path, ours->name);
	cr_assert_eq(ours->key_size, bpf_map__key_size(m), "%s: map %s key size", path, ours->name);
	cr_assert_eq(ours->value_size, bpf_map__value_size(m), "%s: map %s value size", path,
		     ours->name);
	cr_assert_eq(ours->max_entries, bpf_map__max_entries(m), "%s: map %s entries", path,
		     ours->name);
	cr_assert_eq(ours->map_flags, bpf_map__map_flags(m), "%s: map %s flags %#x, libbpf %#x",
		     path, ours->name, ours->map_flags, bpf_map__map_flags(m));
	if (btf_ids) {
		cr_assert_eq(ours->btf_key_type_id, bpf_map__btf_key_type_id(m),
			     "%s: map %s key id", path, ours->name);
		cr_assert_eq(ours->btf_value_type_id, bpf_map__btf_value_type_id(m),
			     "%s: map %s value id", path, ours->name);
	}
}

/* Every object's maps and programs as libbpf opens them; a legacy object's
 * as libbpf opens its twin. */
Test(loader_object, maps_and_programs_as_libbpf_sees_them)
{
	static char paths[HX_CORPUS_MAX + 1][PATH_MAX];
	size_t n = hx_corpus(paths, HX_CORPUS_MAX), i, legacy_maps = 0;

	snprintf(paths[n++], PATH_MAX, "%s", hx_build_path("progs/fwd.bpf.o"));
	for (i = 0; i < n; i++) {
		struct hwxdp_object *obj;
		struct bpf_object *ref;
		struct bpf_program *bp;
		struct bpf_map *m;
		char twin[PATH_MAX];
		size_t k = 0;
		bool legacy;

		cr_assert_eq(hwxdp_object__open(paths[i], &obj), 0, "%s: cannot open", paths[i]);
		legacy = obj->map_cnt && obj->maps[0].origin == HWXDP_MAP_LEGACY;
		snprintf(twin, sizeof(twin), "%.*s%s", (int)(strlen(paths[i]) - 6), paths[i],
			 legacy ? ".twin.bpf.o" : ".bpf.o");
		ref = bpf_object__open_file(twin, NULL);
		cr_assert_not_null(ref, "%s: libbpf cannot open it", twin);
		bpf_object__for_each_map(m, ref)
		{
			const struct hwxdp_map_desc *ours;
			size_t size;
			const void *init = bpf_map__initial_value(m, &size);

			ours = legacy ? &obj->maps[map_index(obj, bpf_map__name(m))]
				      : &obj->maps[k];
			cr_assert_str_eq(ours->name, bpf_map__name(m), "%s: map %zu", paths[i], k);
			assert_map_like(paths[i], ours, m, !legacy);
			cr_assert_eq(ours->origin == HWXDP_MAP_GLOBAL, bpf_map__is_internal(m),
				     "%s: map %s origin", paths[i], ours->name);
			legacy_maps += ours->origin == HWXDP_MAP_LEGACY;
			/* libbpf fills .kconfig at the load, compared below after one */
			if (ours->origin == HWXDP_MAP_GLOBAL && ours->initial &&
			    strcmp(ours->section, ".kconfig")) {
				cr_assert(init && size == ours->initial_size &&
						  !memcmp(init, ours->initial, size),
					  "%s: map %s initial value", paths[i], ours->name);
				cr_assert_eq(ours->read_only,
					     !!(bpf_map__map_flags(m) & BPF_F_RDONLY_PROG));
			}
			k++;
		}
		cr_assert_eq(k, obj->map_cnt, "%s: %zu maps, libbpf has %zu", paths[i],
			     obj->map_cnt, k);
		k = 0;
		bpf_object__for_each_program(bp, ref)
		{
			const struct hwxdp_prog *p = &obj->progs[k++];

			cr_assert_str_eq(p->name, bpf_program__name(bp), "%s: program order",
					 paths[i]);
			cr_assert_str_eq(p->section, bpf_program__section_name(bp));
			cr_assert_eq(p->type, bpf_program__type(bp));
			cr_assert_eq(p->expected_attach_type,
				     bpf_program__expected_attach_type(bp));
		}
		cr_assert_eq(k, obj->prog_cnt, "%s: program count", paths[i]);
		cr_assert_str_eq(obj->license, "GPL");
		bpf_object__close(ref);
		hwxdp_object__close(obj);
	}
	cr_assert_geq(legacy_maps, 5, "legacy maps seen: %zu", legacy_maps);
}

static void assert_subprogs(const struct hwxdp_prog *p, const char *const *names, size_t cnt)
{
	size_t i, k;

	cr_assert_eq(p->subprog_cnt, cnt, "'%s': %zu functions, want %zu", p->name, p->subprog_cnt,
		     cnt);
	for (k = 0; k < cnt; k++)
		cr_assert_str_eq(p->subprog_name[k], names[k], "'%s': function %zu", p->name, k);
	cr_assert_eq(p->subprog_start[0], 0);
	/* Every call and callback lands on the first instruction of a function. */
	for (i = 0; i < p->insn_cnt; i++) {
		const struct bpf_insn *insn = &p->insns[i];
		int64_t target = (int64_t)i + insn->imm + 1;
		bool hit = false;

		if (!(insn->code == OP_CALL && insn->src_reg == BPF_PSEUDO_CALL) &&
		    !(insn->code == OP_LD_IMM64 && insn->src_reg == BPF_PSEUDO_FUNC))
			continue;
		for (k = 1; k < p->subprog_cnt; k++)
			hit |= p->subprog_start[k] == target;
		cr_assert(hit, "'%s': insn %zu goes to %lld, which starts no function", p->name, i,
			  (long long)target);
	}
}

/* libbpf appends a subprogram where its first call is met, and walks it at
 * once: deep's call to mid comes before main's own call to bump. */
Test(loader_object, subprograms_in_libbpf_order)
{
	static const char *const main_order[] = { "calls_main", "leaf", "add_index",
						  "deep",	"mid",	"bump" };
	static const char *const other_order[] = { "calls_other", "bump", "leaf", "mid", "deep" };
	struct hwxdp_object *obj = open_device("tests/loader/corpus/calls.bpf.o");

	assert_subprogs(hwxdp_object__find_prog(obj, "calls_main"), main_order, 6);
	assert_subprogs(hwxdp_object__find_prog(obj, "calls_other"), other_order, 5);
	hwxdp_object__close(obj);
}

/* The offset of variable var in DATASEC sec, from BTF. */
static uint32_t var_offset(const struct btf *btf, const char *sec, const char *var)
{
	int id = btf__find_by_name_kind(btf, sec, BTF_KIND_DATASEC), i;
	const struct btf_type *t;

	cr_assert_gt(id, 0, "no DATASEC %s", sec);
	t = btf__type_by_id(btf, id);
	for (i = 0; i < btf_vlen(t); i++) {
		const struct btf_var_secinfo *vi = btf_var_secinfos(t) + i;

		if (!strcmp(btf__name_by_offset(btf, btf__type_by_id(btf, vi->type)->name_off),
			    var))
			return vi->offset;
	}
	cr_assert_fail("no variable %s in %s", var, sec);
	return 0;
}

static bool refers_to(const struct hwxdp_prog *p, int map, uint32_t off)
{
	size_t i;

	for (i = 0; i + 1 < p->insn_cnt; i++)
		if (p->insns[i].code == OP_LD_IMM64 &&
		    p->insns[i].src_reg == BPF_PSEUDO_MAP_VALUE && p->insns[i].imm == map &&
		    (uint32_t)p->insns[i + 1].imm == off)
			return true;
	return false;
}

Test(loader_object, globals_are_map_values)
{
	struct hwxdp_object *obj = open_device("tests/loader/corpus/globals.bpf.o");
	const struct hwxdp_prog *p = hwxdp_object__find_prog(obj, "globals_main");
	int rodata = map_index(obj, "globals.rodata"), data = map_index(obj, "globals.data");
	int bss = map_index(obj, "globals.bss"), limits = map_index(obj, ".rodata.limits");
	int extra = map_index(obj, ".data.extra");
	uint32_t v;
	size_t i;

	cr_assert_not_null(p);
	cr_assert(refers_to(p, bss, var_offset(obj->btf, ".bss", "drops")), "drops");
	cr_assert(refers_to(p, bss, var_offset(obj->btf, ".bss", "last_len")), "static last_len");
	cr_assert(refers_to(p, data, var_offset(obj->btf, ".data", "hits")), "hits");
	cr_assert(refers_to(p, rodata, var_offset(obj->btf, ".rodata", "cfg_mult")), "cfg_mult");
	cr_assert(refers_to(p, limits, 0), "limit");
	cr_assert(refers_to(p, extra, 0), "extra_counter");
	for (i = 0; i + 1 < p->insn_cnt; i++)
		if (p->insns[i].code == OP_LD_IMM64 && p->insns[i].src_reg == BPF_PSEUDO_MAP_VALUE)
			cr_assert_lt((uint32_t)p->insns[i + 1].imm,
				     obj->maps[p->insns[i].imm].value_size, "insn %zu", i);

	cr_assert(obj->maps[rodata].read_only && obj->maps[limits].read_only);
	cr_assert(!obj->maps[data].read_only && !obj->maps[bss].read_only);
	cr_assert_null(obj->maps[bss].initial);
	memcpy(&v, obj->maps[rodata].initial + var_offset(obj->btf, ".rodata", "cfg_mult"), 4);
	cr_assert_eq(v, 3);
	memcpy(&v, obj->maps[limits].initial, 4);
	cr_assert_eq(v, 1500);
	hwxdp_object__close(obj);
}

/* Each kfunc call and address load of prog, by extern name. */
static void assert_kfunc_refs(const struct hwxdp_prog *p, const char *name, int32_t id,
			      size_t *calls, size_t *loads)
{
	size_t i;

	*calls = *loads = 0;
	for (i = 0; i < p->extern_cnt; i++) {
		const struct hwxdp_extern_ref *e = &p->externs[i];
		const struct bpf_insn *insn = &p->insns[e->insn];

		if (strcmp(e->name, name))
			continue;
		cr_assert(e->weak);
		cr_assert_eq(e->resolved, id != 0, "%s resolved", name);
		cr_assert_eq(e->kfunc_id, id);
		if (insn->code == OP_CALL) {
			cr_assert(insn->src_reg == BPF_PSEUDO_KFUNC_CALL && insn->imm == id &&
					  insn->off == 0,
				  "%s: call at %u: src %u imm %d off %d", name, e->insn,
				  insn->src_reg, insn->imm, insn->off);
			(*calls)++;
		} else {
			cr_assert_eq(insn->code, OP_LD_IMM64);
			cr_assert(insn[0].src_reg == (id ? BPF_PSEUDO_BTF_ID : 0) &&
					  insn[0].imm == id && insn[1].imm == 0,
				  "%s: address at %u: src %u imm %d/%d", name, e->insn,
				  insn->src_reg, insn[0].imm, insn[1].imm);
			(*loads)++;
		}
	}
}

Test(loader_object, weak_kfuncs_on_device_and_kernel)
{
	const char *path = hx_build_path("tests/loader/corpus/weak_kfunc.bpf.o");
	struct hwxdp_object *dev, *kern;
	size_t calls, loads;

	cr_assert_eq(hwxdp_object__open(path, &dev), 0);
	cr_assert_eq(hx_open_kernel_view(path, &kern), 0);
	assert_kfunc_refs(hwxdp_object__find_prog(dev, "kfunc_main"), "bpf_hwxdp_esp_encap",
			  HWXDP_KFUNC_ESP_ENCAP, &calls, &loads);
	cr_assert(calls == 2 && loads == 3, "device: %zu calls, %zu loads", calls, loads);
	assert_kfunc_refs(hwxdp_object__find_prog(dev, "kfunc_main"), "bpf_hwxdp_nowhere", 0,
			  &calls, &loads);
	cr_assert(calls == 1 && loads == 1, "nowhere: %zu calls, %zu loads", calls, loads);
	assert_kfunc_refs(hwxdp_object__find_prog(kern, "kfunc_main"), "bpf_hwxdp_esp_encap", 0,
			  &calls, &loads);
	cr_assert(calls == 2 && loads == 3, "kernel: %zu calls, %zu loads", calls, loads);
	hwxdp_object__close(dev);
	hwxdp_object__close(kern);
}

/* The XDP metadata kfuncs: the same id in the device's view and the kernel's. */
Test(loader_object, metadata_kfuncs_on_device_and_kernel)
{
	static const struct hwxdp_kfunc want[] = {
		{ "bpf_xdp_metadata_rx_timestamp", HWXDP_KFUNC_XDP_RX_TIMESTAMP },
		{ "bpf_xdp_metadata_rx_hash", HWXDP_KFUNC_XDP_RX_HASH },
		{ "bpf_xdp_metadata_rx_vlan_tag", HWXDP_KFUNC_XDP_RX_VLAN_TAG },
	};
	const char *path = hx_build_path("tests/corpus/xdp_hints.bpf.o");
	struct hwxdp_object *objs[2];

	cr_assert_eq(hwxdp_object__open(path, &objs[0]), 0);
	cr_assert_eq(hx_open_kernel_view(path, &objs[1]), 0);
	for (size_t o = 0; o < 2; o++) {
		const struct hwxdp_prog *p = hwxdp_object__find_prog(objs[o], "xdp_rx_hints");
		size_t calls[3] = { 0 };

		cr_assert_not_null(p);
		for (size_t i = 0; i < p->extern_cnt; i++) {
			const struct hwxdp_extern_ref *e = &p->externs[i];
			const struct bpf_insn *insn = &p->insns[e->insn];

			for (size_t k = 0; k < 3; k++) {
				if (strcmp(e->name, want[k].name))
					continue;
				cr_assert(!e->weak && e->resolved && e->kfunc_id == want[k].id);
				cr_assert(insn->code == OP_CALL &&
						  insn->src_reg == BPF_PSEUDO_KFUNC_CALL &&
						  insn->imm == want[k].id && !insn->off,
					  "%s: call at %u: src %u imm %d", e->name, e->insn,
					  insn->src_reg, insn->imm);
				calls[k]++;
			}
		}
		for (size_t k = 0; k < 3; k++)
			cr_expect_eq(calls[k], 1, "%s: %s called %zu times",
				     o ? "kernel" : "device", want[k].name, calls[k]);
	}
	hwxdp_object__close(objs[0]);
	hwxdp_object__close(objs[1]);
}

/* Legacy and twin: the same stream, maps named alike. */
Test(loader_object, legacy_objects_link_like_their_twins)
{
	static const char *const names[] = { "legacy_hash", "legacy_calls" };
	size_t n, i;

	for (n = 0; n < 2; n++) {
		char rel[128], twin_rel[128];
		struct hwxdp_object *a, *b;

		snprintf(rel, sizeof(rel), "tests/loader/corpus/%s.bpf.o", names[n]);
		snprintf(twin_rel, sizeof(twin_rel), "tests/loader/corpus/%s.twin.bpf.o", names[n]);
		a = open_device(rel);
		b = open_device(twin_rel);
		cr_assert_eq(a->maps[0].origin, HWXDP_MAP_LEGACY);
		cr_assert_eq(a->prog_cnt, 1);
		cr_assert_eq(a->progs[0].insn_cnt, b->progs[0].insn_cnt, "%s", rel);
		for (i = 0; i < a->progs[0].insn_cnt; i++) {
			struct bpf_insn x = a->progs[0].insns[i], y = b->progs[0].insns[i];

			if (x.code == OP_LD_IMM64 &&
			    (x.src_reg == BPF_PSEUDO_MAP_FD || x.src_reg == BPF_PSEUDO_MAP_VALUE)) {
				cr_assert_str_eq(a->maps[x.imm].name, b->maps[y.imm].name,
						 "%s: %zu", rel, i);
				x.imm = y.imm = 0;
			}
			cr_assert(!memcmp(&x, &y, sizeof(x)), "%s: insn %zu differs", rel, i);
		}
		hwxdp_object__close(a);
		hwxdp_object__close(b);
	}
}

/* Each line's text is the source's line of that number, where the source is
 * at hand (the path clang recorded). */
Test(loader_object, lines_are_the_source_lines)
{
	static char paths[HX_CORPUS_MAX + 1][PATH_MAX];
	size_t n = hx_corpus(paths, HX_CORPUS_MAX), i, k, checked = 0;

	snprintf(paths[n++], PATH_MAX, "%s", hx_build_path("progs/fwd.bpf.o"));
	for (i = 0; i < n; i++) {
		struct hwxdp_object *obj;

		cr_assert_eq(hwxdp_object__open(paths[i], &obj), 0);
		for (k = 0; k < obj->prog_cnt; k++) {
			const struct hwxdp_prog *p = &obj->progs[k];
			size_t j;

			cr_assert_gt(p->line_cnt, 0, "%s: '%s' has no lines", paths[i], p->name);
			cr_assert_eq(p->lines[0].insn, 0);
			for (j = 0; j < p->line_cnt; j++) {
				const struct hwxdp_line *line = &p->lines[j];
				char buf[512], *s, *e;
				unsigned int no = 0;
				FILE *f;

				cr_assert(j == 0 || line->insn >= p->lines[j - 1].insn);
				cr_assert_lt(line->insn, p->insn_cnt);
				cr_assert_eq(hwxdp_prog__line(p, line->insn)->insn, line->insn);
				if (!line->line || !(f = fopen(line->file, "r")))
					continue;
				while (no < line->line && fgets(buf, sizeof(buf), f))
					no++;
				fclose(f);
				for (s = buf; *s == ' ' || *s == '\t'; s++)
					;
				for (e = s + strlen(s);
				     e > s && (e[-1] == '\n' || e[-1] == ' ' || e[-1] == '\t');)
					*--e = 0;
				cr_assert_str_eq(line->text, s, "%s:%u", line->file, line->line);
				checked++;
			}
		}
		hwxdp_object__close(obj);
	}
	cr_assert_gt(checked, 300, "only %zu lines checked against their source", checked);
}

Test(loader_object, lookups_and_options)
{
	struct hwxdp_object_open_opts bad = { .sz = 0 };
	struct hwxdp_object *obj = open_device("progs/fwd.bpf.o"), *none;
	const struct hwxdp_prog *p = hwxdp_object__find_prog(obj, "hwxdp_fwd");
	const struct hwxdp_line *line;
	size_t i;

	cr_assert_not_null(p);
	cr_assert_null(hwxdp_object__find_prog(obj, "nope"));
	cr_assert_null(hwxdp_prog__line(p, p->insn_cnt));
	/* The lookup of the first map reference names that map in its text. */
	for (i = 0; i < p->insn_cnt; i++)
		if (p->insns[i].code == OP_LD_IMM64 && p->insns[i].src_reg == BPF_PSEUDO_MAP_FD)
			break;
	cr_assert_lt(i, p->insn_cnt);
	line = hwxdp_prog__line(p, i);
	cr_assert_not_null(line);
	cr_assert(strstr(line->text, obj->maps[p->insns[i].imm].name), "insn %zu: '%s'", i,
		  line->text);
	cr_assert(strstr(line->file, "fwd.bpf.c"));
	hwxdp_object__close(obj);

	hx_capture_messages();
	cr_assert_eq(hwxdp_object__open_opts(hx_build_path("progs/fwd.bpf.o"), &bad, &none),
		     -EINVAL);
	cr_assert_null(none);
	cr_assert_eq(hwxdp_object__open("/nonexistent/x.bpf.o", &none), -ENOENT);
	cr_assert_str_eq(hwxdp_error_message(-ENOENT),
			 "/nonexistent/x.bpf.o: No such file or directory");
	cr_assert_str_empty(hx_messages(), "printed: %s", hx_messages());
	cr_assert_lt(hwxdp_object__open("/tmp", &none), 0);
	cr_assert_null(none);
}

/* The map libbpf makes for .kconfig externs, by its name's ending. */
static int kconfig_index(const struct hwxdp_object *obj)
{
	for (size_t i = 0; i < obj->map_cnt; i++) {
		size_t n = strlen(obj->maps[i].name);

		if (n >= 8 && !strcmp(obj->maps[i].name + n - 8, ".kconfig"))
			return (int)i;
	}
	cr_assert_fail("no .kconfig map");
	return -1;
}

static const char *const kconfig_vars[] = {
	"LINUX_KERNEL_VERSION",
	"CONFIG_BPF",
	"CONFIG_BPF_JIT",
	"CONFIG_XDP_SOCKETS",
	"CONFIG_HZ",
	"CONFIG_NR_CPUS",
	"CONFIG_LOCALVERSION",
	"CONFIG_HWXDP_NO_SUCH_OPTION",
};

/* Each extern a read of the .kconfig map at its offset, the map read-only
 * and holding what libbpf puts in it when it loads the object. */
Test(loader_object, kconfig_externs_as_libbpf_fills_them)
{
	const char *path = hx_build_path("tests/loader/corpus/kconfig.bpf.o");
	struct bpf_object *bobj;
	struct hwxdp_object *obj;
	const struct hwxdp_prog *p;
	const struct bpf_map *m;
	const void *theirs;
	size_t size;
	int k;

	if (access("/proc/config.gz", R_OK))
		cr_skip_test("the kernel's config is not in /proc/config.gz");
	obj = open_device("tests/loader/corpus/kconfig.bpf.o");
	p = hwxdp_object__find_prog(obj, "kconfig_main");
	cr_assert_not_null(p);
	k = kconfig_index(obj);
	cr_assert(obj->maps[k].read_only);
	cr_assert_not_null(obj->maps[k].initial);
	cr_assert_eq(obj->maps[k].initial_size, obj->maps[k].value_size);
	for (size_t i = 0; i < sizeof(kconfig_vars) / sizeof(kconfig_vars[0]); i++) {
		uint32_t off = var_offset(obj->btf, ".kconfig", kconfig_vars[i]);

		cr_assert(refers_to(p, k, off), "%s at %u", kconfig_vars[i], off);
	}
	if (geteuid() != 0) {
		hwxdp_object__close(obj);
		cr_skip_test("libbpf's values need a load, which needs root");
	}
	bobj = bpf_object__open_file(path, NULL);
	cr_assert_not_null(bobj);
	cr_assert_eq(bpf_object__load(bobj), 0, "libbpf cannot load %s", path);
	bpf_object__for_each_map(m, bobj)
	{
		size_t n = strlen(bpf_map__name(m));

		if (n < 8 || strcmp(bpf_map__name(m) + n - 8, ".kconfig"))
			continue;
		theirs = bpf_map__initial_value((struct bpf_map *)m, &size);
		cr_assert_eq(size, obj->maps[k].initial_size);
		cr_assert_arr_eq(obj->maps[k].initial, theirs, size,
				 "the .kconfig values differ from libbpf's");
	}
	bpf_object__close(bobj);
	hwxdp_object__close(obj);
}

static bool weak_option(const char *name, void *ctx)
{
	(void)ctx;
	return !strcmp(name, "CONFIG_HWXDP_NO_SUCH_OPTION");
}

/* Values from a config file, each as libbpf reads it by the extern's type,
 * and a strong extern the file lacks refused. */
Test(loader_object, kconfig_values_by_type)
{
	struct hwxdp_object *obj = open_device("tests/loader/corpus/kconfig.bpf.o");
	char file[] = "/tmp/hwxdp-kconfig-XXXXXX";
	int fd = mkstemp(file), k = kconfig_index(obj);
	uint8_t buf[256];
	size_t size = obj->maps[k].value_size;
	uint64_t u64 = 0;
	int32_t i32 = 0;
	FILE *f;

	cr_assert_geq(fd, 0);
	cr_assert_leq(size, sizeof(buf));
	f = fdopen(fd, "w");
	fputs("# CONFIG_X is not set\nCONFIG_BPF=y\nCONFIG_BPF_JIT=n\nCONFIG_XDP_SOCKETS=m\n"
	      "CONFIG_HZ=0x64\nCONFIG_NR_CPUS=12345678901\nCONFIG_LOCALVERSION=\"-abc\"\n",
	      f);
	fclose(f);
	cr_assert_eq(hwxdp_kconfig__fill(obj->btf, buf, size, file, weak_option, NULL), 0);
	cr_assert_eq(buf[var_offset(obj->btf, ".kconfig", "CONFIG_BPF")], 1);
	cr_assert_eq(buf[var_offset(obj->btf, ".kconfig", "CONFIG_BPF_JIT")], 'n');
	memcpy(&i32, buf + var_offset(obj->btf, ".kconfig", "CONFIG_XDP_SOCKETS"), 4);
	cr_assert_eq(i32, 2, "a module is 2");
	memcpy(&i32, buf + var_offset(obj->btf, ".kconfig", "CONFIG_HZ"), 4);
	cr_assert_eq(i32, 100);
	memcpy(&u64, buf + var_offset(obj->btf, ".kconfig", "CONFIG_NR_CPUS"), 8);
	cr_assert_eq(u64, 12345678901ull);
	cr_assert_str_eq((char *)buf + var_offset(obj->btf, ".kconfig", "CONFIG_LOCALVERSION"),
			 "-abc");
	memcpy(&i32, buf + var_offset(obj->btf, ".kconfig", "CONFIG_HWXDP_NO_SUCH_OPTION"), 4);
	cr_assert_eq(i32, 0, "a weak option the config lacks is 0");

	f = fopen(file, "w");
	fputs("CONFIG_HZ=100\n", f);
	fclose(f);
	cr_assert_eq(hwxdp_kconfig__fill(obj->btf, buf, size, file, weak_option, NULL), -ENOENT,
		     "a strong option the config lacks");
	unlink(file);
	hwxdp_object__close(obj);
}

/* A program array whose definition names programs: its slots and their
 * programs, an inner map's template none; the device's image holds the
 * entry and the programs the array names, the array their image indices. */
Test(loader_object, program_arrays_filled_by_their_definition)
{
	struct hwxdp_object *obj = open_device("tests/corpus/tail_prog_array.bpf.o");
	struct hwxdp_object *mim = open_device("tests/corpus/map_in_map.bpf.o");
	const struct hwxdp_map_desc *stages = &obj->maps[map_index(obj, "stages")];
	struct hwxdp_device_prog_opts opts = { .sz = sizeof(opts), .prog = "xdp_entry" };
	static const char *const want[] = { "stage_v4", "stage_v6" };
	struct hwxdp_device_prog *dp = NULL;
	char msg[512] = "";

	cr_assert_eq(stages->init_prog_cnt, 2);
	cr_assert_eq(obj->maps[map_index(obj, "stage_hits")].init_prog_cnt, 0);
	for (uint32_t i = 0; i < 2; i++) {
		cr_expect_eq(stages->init_progs[i].slot, i);
		cr_assert_lt(stages->init_progs[i].prog, obj->prog_cnt);
		cr_expect_str_eq(obj->progs[stages->init_progs[i].prog].name, want[i]);
	}
	for (size_t i = 0; i < mim->map_cnt; i++)
		cr_assert_eq(mim->maps[i].init_prog_cnt, 0, "%s", mim->maps[i].name);
	for (size_t i = 0; i < obj->map_cnt; i++)
		cr_assert_eq(obj->maps[i].init_map_cnt, 0, "%s", obj->maps[i].name);
	cr_assert_eq(
		hwxdp_device_prog__open_opts(hx_build_path("tests/corpus/tail_prog_array.bpf.o"),
					     &opts, &dp, msg, sizeof(msg)),
		0, "%s", msg);
	cr_assert_eq(dp->img->prog_cnt, 3);
	cr_expect_str_eq(dp->img->progs[0].name, "xdp_entry");
	for (uint32_t i = 0; i < 2; i++) {
		uint32_t prog = UINT32_MAX;

		cr_assert_eq(hwxdp_table__lookup(hwxdp_device_prog__table(dp, "stages"), &i, &prog),
			     0);
		cr_assert_lt(prog, dp->img->prog_cnt);
		cr_expect_str_eq(dp->img->progs[prog].name, want[i], "slot %u", i);
	}
	hwxdp_device_prog__close(dp);
	hwxdp_object__close(mim);
	hwxdp_object__close(obj);
}

/* A map of maps whose definition names maps: its slots and their maps,
 * as libbpf fills the kernel's; the device's table holds their table ids
 * (a map's index), and a lookup there a handle. The hash of maps no
 * definition fills starts empty; its lists are in the image for the
 * control plane to store. */
Test(loader_object, maps_of_maps_filled_by_their_definition)
{
	struct hwxdp_object *obj = open_device("tests/corpus/map_in_map.bpf.o");
	const struct hwxdp_map_desc *pq = &obj->maps[map_index(obj, "per_queue")];
	struct hwxdp_device_prog_opts opts = { .sz = sizeof(opts) };
	static const char *const want[] = { "counts_a", "counts_b" };
	struct hwxdp_device_prog *dp = NULL;
	struct hwxdp_table *tab;
	uint16_t vid = 0;
	uint32_t id;
	char msg[512] = "";

	cr_assert_eq(pq->init_map_cnt, 2);
	cr_expect_eq(obj->maps[map_index(obj, "tenant_allow")].init_map_cnt, 0);
	cr_expect_eq(obj->maps[pq->inner_map].origin, HWXDP_MAP_INNER);
	for (uint32_t i = 0; i < 2; i++) {
		cr_expect_eq(pq->init_maps[i].slot, i);
		cr_assert_lt(pq->init_maps[i].map, obj->map_cnt);
		cr_expect_str_eq(obj->maps[pq->init_maps[i].map].name, want[i]);
	}
	cr_assert_eq(hwxdp_device_prog__open_opts(hx_build_path("tests/corpus/map_in_map.bpf.o"),
						  &opts, &dp, msg, sizeof(msg)),
		     0, "%s", msg);
	tab = hwxdp_device_prog__table(dp, "per_queue");
	cr_assert_not_null(tab);
	cr_expect_eq(tab->desc.inner.type, BPF_MAP_TYPE_ARRAY);
	cr_expect_eq(tab->desc.inner.value_size, 8);
	for (uint32_t i = 0; i < 2; i++) {
		cr_assert_eq(hwxdp_table__lookup(tab, &i, &id), 0, "slot %u", i);
		cr_expect_eq(id, (uint32_t)map_index(obj, want[i]), "slot %u holds table %u", i,
			     id);
		cr_expect_eq(hwxdp_table__value_addr(tab, &i), HXU_HANDLE(id));
	}
	cr_expect_not_null(hwxdp_device_prog__table(dp, "allow_a"));
	cr_expect_not_null(hwxdp_device_prog__table(dp, "allow_b"));
	cr_expect_eq(hwxdp_table__lookup(hwxdp_device_prog__table(dp, "tenant_allow"), &vid, &id),
		     -ENOENT);
	hwxdp_device_prog__close(dp);
	hwxdp_object__close(obj);
}

/* Table memory shared with another load: a program array filled by its
 * definition holds image indices, which the sharer must read as its own
 * image has them. */
Test(loader_object, shared_program_arrays_hold_the_same_indices)
{
	struct hwxdp_device_prog_opts own = { .sz = sizeof(own), .prog = "xdp_entry" };
	struct hwxdp_device_prog_opts shared = { .sz = sizeof(shared), .prog = "xdp_entry" };
	struct hwxdp_device_prog *a = NULL, *b = NULL;
	const char *path = hx_build_path("tests/corpus/tail_prog_array.bpf.o");
	uint32_t slot = 0, other = 2;
	char msg[512] = "";

	cr_assert_eq(hwxdp_device_prog__open_opts(path, &own, &a, msg, sizeof(msg)), 0, "%s", msg);
	shared.tables = a->tables;
	cr_assert_eq(hwxdp_device_prog__open_opts(path, &shared, &b, msg, sizeof(msg)), 0, "%s",
		     msg);
	hwxdp_device_prog__close(b);
	b = NULL;
	/* a stage, which tail-calls nothing, takes the tables whatever they hold */
	shared.prog = "stage_v4";
	cr_assert_eq(
		hwxdp_table__update(hwxdp_device_prog__table(a, "stages"), &slot, &other, BPF_ANY),
		0);
	cr_assert_eq(hwxdp_device_prog__open_opts(path, &shared, &b, msg, sizeof(msg)), 0, "%s",
		     msg);
	hwxdp_device_prog__close(b);
	b = NULL;
	shared.prog = "xdp_entry";
	cr_assert_eq(hwxdp_device_prog__open_opts(path, &shared, &b, msg, sizeof(msg)), -EEXIST);
	cr_assert(strstr(msg, "program array stages: slot 0 holds program 2 of the shared table "
			      "memory's image, program 1 of this one"),
		  "%s", msg);
	hwxdp_device_prog__close(a);
}
