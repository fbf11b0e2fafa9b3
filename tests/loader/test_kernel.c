// SPDX-License-Identifier: GPL-2.0
/*
 * The loader against libbpf and the kernel: every program of every object
 * (progs/ and the corpus) is, instruction for instruction, what libbpf hands
 * the kernel after bpf_object__load, map descriptors aside. A map reference
 * must name the same map (libbpf's map of that descriptor has our map's
 * name) with the same kind and offset. An object with legacy maps, which
 * libbpf 1.x refuses, is compared with its twin built with BTF maps, and
 * with its host copy, whose maps are rewritten (loader/legacy_maps.c). CO-RE
 * objects (core_*) so check the loader's relocation against libbpf's.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "base/log.h"
#include "loader/host.h"
#include "tests/loader/loader_util.h"

#define OP_LD_IMM64 (BPF_LD | BPF_IMM | BPF_DW)

static const char *map_name_by_fd(struct bpf_object *ref, int fd)
{
	struct bpf_map *m;

	bpf_object__for_each_map(m, ref) if (bpf_map__fd(m) == fd) return bpf_map__name(m);
	return NULL;
}

static void compare_prog(const char *path, const struct hwxdp_object *obj,
			 const struct hwxdp_prog *p, struct bpf_object *ref,
			 const struct bpf_program *bp)
{
	const struct bpf_insn *want = bpf_program__insns(bp);
	size_t n = bpf_program__insn_cnt(bp), i;

	cr_assert_eq(p->insn_cnt, n, "%s: '%s' has %zu instructions, libbpf loads %zu", path,
		     p->name, p->insn_cnt, n);
	for (i = 0; i < n; i++) {
		const struct bpf_insn *a = &p->insns[i], *b = &want[i];

		if (b->code == OP_LD_IMM64 &&
		    (b->src_reg == BPF_PSEUDO_MAP_FD || b->src_reg == BPF_PSEUDO_MAP_VALUE)) {
			const char *name = map_name_by_fd(ref, b->imm);

			cr_assert(a->code == b->code && a->dst_reg == b->dst_reg &&
					  a->src_reg == b->src_reg && a->off == b->off,
				  "%s: '%s' insn %zu: ld_imm64 src_reg %u, libbpf's %u", path,
				  p->name, i, a->src_reg, b->src_reg);
			cr_assert(a->imm >= 0 && (size_t)a->imm < obj->map_cnt,
				  "%s: '%s' insn %zu: map index %d out of range", path, p->name, i,
				  a->imm);
			cr_assert(name && !strcmp(name, obj->maps[a->imm].name),
				  "%s: '%s' insn %zu: map '%s', libbpf's '%s'", path, p->name, i,
				  obj->maps[a->imm].name, name ? name : "?");
			cr_assert(i + 1 < n && !memcmp(&a[1], &b[1], sizeof(*a)),
				  "%s: '%s' insn %zu: map offset %d, libbpf's %d", path, p->name, i,
				  a[1].imm, b[1].imm);
			i++;
			continue;
		}
		cr_assert(!memcmp(a, b, sizeof(*a)),
			  "%s: '%s' insn %zu: code %#x dst %u src %u off %d imm %d, libbpf's code "
			  "%#x dst %u src %u off %d imm %d",
			  path, p->name, i, a->code, a->dst_reg, a->src_reg, a->off, a->imm,
			  b->code, b->dst_reg, b->src_reg, b->off, b->imm);
	}
}

/* Every program of obj against the loaded ref. */
static void compare_loaded(const char *path, const struct hwxdp_object *obj, struct bpf_object *ref)
{
	struct bpf_program *bp;
	size_t progs = 0;

	bpf_object__for_each_program(bp, ref)
	{
		const struct hwxdp_prog *p = hwxdp_object__find_prog(obj, bpf_program__name(bp));

		cr_assert_not_null(p, "%s: no program '%s'", path, bpf_program__name(bp));
		compare_prog(path, obj, p, ref, bp);
		progs++;
	}
	cr_assert_eq(progs, obj->prog_cnt, "%s: %zu programs, libbpf has %zu", path, obj->prog_cnt,
		     progs);
}

/* ours_path through hwxdp against ref, loaded by libbpf into the kernel. */
static void compare_path_loaded(const char *ours_path, struct bpf_object *ref)
{
	struct hwxdp_object *obj;

	cr_assert_eq(hx_open_kernel_view(ours_path, &obj), 0, "%s: hwxdp cannot open it",
		     ours_path);
	compare_loaded(ours_path, obj, ref);
	hwxdp_object__close(obj);
}

/* ours_path through hwxdp, ref_path through libbpf and the kernel. */
static void compare_object(const char *ours_path, const char *ref_path)
{
	struct bpf_object *ref;
	int err;

	ref = bpf_object__open_file(ref_path, NULL);
	cr_assert_not_null(ref, "%s: libbpf cannot open it", ref_path);
	err = bpf_object__load(ref);
	cr_assert_eq(err, 0, "%s: libbpf cannot load it: %d", ref_path, err);
	compare_path_loaded(ours_path, ref);
	bpf_object__close(ref);
}

static bool is_legacy(const char *path)
{
	struct hwxdp_object *obj;
	bool legacy = false;
	size_t i;

	cr_assert_eq(hx_open_kernel_view(path, &obj), 0, "%s: hwxdp cannot open it", path);
	for (i = 0; i < obj->map_cnt; i++)
		legacy |= obj->maps[i].origin == HWXDP_MAP_LEGACY;
	hwxdp_object__close(obj);
	return legacy;
}

Test(loader_kernel, fwd_equals_libbpf)
{
	char path[PATH_MAX];

	if (geteuid() != 0)
		cr_skip_test("loading into the kernel needs root");
	snprintf(path, sizeof(path), "%s", hx_build_path("progs/fwd.bpf.o"));
	compare_object(path, path);
}

Test(loader_kernel, corpus_equals_libbpf)
{
	static char paths[HX_CORPUS_MAX][PATH_MAX];
	size_t n = hx_corpus(paths, HX_CORPUS_MAX), i, legacy = 0;

	if (geteuid() != 0)
		cr_skip_test("loading into the kernel needs root");
	for (i = 0; i < n; i++) {
		struct bpf_object *host;
		char twin[PATH_MAX];

		if (!is_legacy(paths[i])) {
			compare_object(paths[i], paths[i]);
			continue;
		}
		snprintf(twin, sizeof(twin), "%.*s.twin.bpf.o",
			 (int)(strlen(paths[i]) - strlen(".bpf.o")), paths[i]);
		cr_assert_eq(access(twin, R_OK), 0, "%s: legacy object without a twin %s", paths[i],
			     twin);
		compare_object(paths[i], twin);
		/* and its host copy, the legacy maps rewritten for libbpf 1.x */
		host = hwxdp_host_load(paths[i]);
		cr_assert_not_null(host, "%s: no host copy: %s", paths[i],
				   hwxdp_error_message(-errno));
		compare_path_loaded(paths[i], host);
		bpf_object__close(host);
		legacy++;
	}
	cr_assert_geq(legacy, 2, "the corpus has %zu legacy objects, wants 2", legacy);
	cr_assert_geq(n, 8, "the corpus has %zu objects", n);
}

/* CO-RE objects: the device's copy (the loader's own relocation, opened for
 * the device) is the host copy hwxdp_host_load hands the kernel (libbpf's
 * relocation), instruction for instruction; clang's other layouts too. */
Test(loader_kernel, core_device_copy_equals_host_copy)
{
	static const char *const objs[] = {
		"tests/loader/corpus/core_fields.bpf.o", "tests/loader/corpus/core_bitfields.bpf.o",
		"tests/loader/corpus/core_poison.bpf.o", "tests/corpus/core_flavors.bpf.o",
		"tests/corpus-O1/core_flavors.bpf.o",	 "tests/corpus/core_bootstrap.bpf.o",
	};
	size_t i;

	if (geteuid() != 0)
		cr_skip_test("loading into the kernel needs root");
	for (i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		char path[PATH_MAX];
		struct hwxdp_object *obj;
		struct bpf_object *host;

		snprintf(path, sizeof(path), "%s", hx_build_path(objs[i]));
		cr_assert_eq(hwxdp_object__open(path, &obj), 0, "%s: hwxdp cannot open it", path);
		cr_assert_eq(hwxdp_object__set_target(obj, HWXDP_TARGET_DEVICE), 0);
		host = hwxdp_host_load(path);
		cr_assert_not_null(host, "%s: the host copy does not load", path);
		compare_loaded(path, obj, host);
		bpf_object__close(host);
		hwxdp_object__close(obj);
	}
}

/* The host copy loaded without a pin directory pins nothing: not even a map
 * declared LIBBPF_PIN_BY_NAME, which libbpf alone pins as /sys/fs/bpf/NAME
 * (tests/corpus/rodata_tables: last_crc). */
Test(loader_kernel, no_pin_without_a_pin_dir)
{
	const char *pin = "/sys/fs/bpf/last_crc";
	struct bpf_object *obj;

	if (geteuid() != 0)
		cr_skip_test("loading into the kernel needs root");
	if (!access(pin, F_OK))
		cr_skip_test("%s exists already", pin);
	obj = hwxdp_host_load(hx_build_path("tests/corpus/rodata_tables.bpf.o"));
	cr_assert_not_null(obj, "the host copy does not load");
	cr_expect_neq(access(pin, F_OK), 0, "%s pinned", pin);
	bpf_object__close(obj);
	unlink(pin);
}
