/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF objects without a kernel: an ELF file's programs, fully linked, and its
 * maps, as the verifier, the translator and the device see them.
 *
 * A program's instruction stream is what libbpf would hand the kernel after
 * relocation, except that a map reference carries the map's index in the
 * object instead of a file descriptor:
 *   ld_imm64 rX, map       src_reg BPF_PSEUDO_MAP_FD,    imm = map index
 *   ld_imm64 rX, &global   src_reg BPF_PSEUDO_MAP_VALUE, imm = map index,
 *                          next imm = offset in the map's value
 *   call subprog           src_reg BPF_PSEUDO_CALL, imm relative, callees
 *                          appended after the main function as libbpf does
 *   call kfunc             src_reg BPF_PSEUDO_KFUNC_CALL, imm = device kfunc
 *                          id, or imm 0 / off 0 for an unresolved weak kfunc
 *   ld_imm64 rX, kfunc     src_reg BPF_PSEUDO_BTF_ID, imm = kfunc id, next imm 0;
 *                          an unresolved weak one is the constant 0 (src_reg 0,
 *                          both imm 0), as libbpf leaves it for the kernel
 *   ld_imm64 rX, callback  src_reg BPF_PSEUDO_FUNC, imm relative, as a call
 */
#ifndef HWXDP_OBJECT_H
#define HWXDP_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

#include "hwxdp/common.h"
#include "hwxdp/log.h"

#ifdef __cplusplus
extern "C" {
#endif

struct btf;

/* An ELF object's programs and maps (opaque), as hwxdp_object__open reads them. */
struct hwxdp_object;
/* One program of an object, fully linked. */
struct hwxdp_prog;
/* One map of an object: its definition, not its contents. */
struct hwxdp_map_desc;

#define HWXDP_NAME_MAX 64

/* Where a map came from. */
enum hwxdp_map_origin {
	HWXDP_MAP_BTF,     /* SEC(".maps"), BTF-defined */
	HWXDP_MAP_LEGACY,  /* struct bpf_map_def in SEC("maps") */
	HWXDP_MAP_GLOBAL,  /* .rodata, .data, .bss (one-entry array) */
	HWXDP_MAP_INNER,   /* the template of a map of maps' maps: no map of its own */
};

/* Source position of an instruction, from .BTF.ext line info. */
struct hwxdp_line {
	uint32_t insn;              /* first instruction of the line */
	const char *file;           /* strings owned by the object */
	const char *text;           /* the source line, trimmed */
	uint32_t line, column;
};

/* A function the target provides (kfunc), by name. */
struct hwxdp_kfunc {
	const char *name;
	int32_t id;
};

struct hwxdp_object_open_opts {
	size_t sz;                  /* sizeof(struct hwxdp_object_open_opts) */
	/* kfuncs to resolve externs against, ended by a NULL name; NULL means
	 * the device's table. The kernel's view of a device program is an
	 * empty table: every device kfunc then stays unresolved. */
	const struct hwxdp_kfunc *kfuncs;
};

/* Opens path. 0 or a negative error (errno or -HWXDP_ERR_*); the reason,
 * one line naming the file, is hwxdp_error_message(err) (hwxdp/log.h;
 * nothing is printed). Nothing is half-filled on failure. */
HWXDP_API int hwxdp_object__open(const char *path, struct hwxdp_object **out);
/* name stands for the file in messages; as with libbpf, its base name up to
 * the first '.' prefixes the names of .rodata/.data/.bss maps. */
HWXDP_API int hwxdp_object__open_mem(const void *data, size_t size, const char *name,
			   struct hwxdp_object **out);
HWXDP_API int hwxdp_object__open_opts(const char *path, const struct hwxdp_object_open_opts *opts,
			    struct hwxdp_object **out);
HWXDP_API int hwxdp_object__open_mem_opts(const void *data, size_t size, const char *name,
				const struct hwxdp_object_open_opts *opts,
				struct hwxdp_object **out);
HWXDP_API void hwxdp_object__close(struct hwxdp_object *obj);

HWXDP_API const struct hwxdp_prog *hwxdp_object__find_prog(const struct hwxdp_object *obj,
						 const char *name);
/* The object's first XDP program, or NULL. */
HWXDP_API const struct hwxdp_prog *hwxdp_object__xdp_prog(const struct hwxdp_object *obj);
/*
 * Sets the global variable name (in .rodata, .data or .bss, found through
 * BTF) to size bytes of value in the object's map image, as a loader sets
 * `hwxdp_target` before a load. 0, -ENOENT without such a variable, -EINVAL
 * when size differs from the variable's, -ENOMEM.
 */
HWXDP_API int hwxdp_object__set_global(struct hwxdp_object *obj, const char *name, const void *value,
			     size_t size);
/* The size bytes of global variable name's initial value, into value: 0,
 * -ENOENT, -EINVAL as for hwxdp_object__set_global. .bss reads as zero. */
HWXDP_API int hwxdp_object__get_global(const struct hwxdp_object *obj, const char *name, void *value,
			     size_t size);

/* The object's programs and maps, by index (NULL past the end) or by name. */
HWXDP_API size_t hwxdp_object__prog_cnt(const struct hwxdp_object *obj);
HWXDP_API const struct hwxdp_prog *hwxdp_object__prog(const struct hwxdp_object *obj, size_t i);
HWXDP_API size_t hwxdp_object__map_cnt(const struct hwxdp_object *obj);
HWXDP_API const struct hwxdp_map_desc *hwxdp_object__map(const struct hwxdp_object *obj,
							 size_t i);
HWXDP_API const struct hwxdp_map_desc *hwxdp_object__find_map(const struct hwxdp_object *obj,
							      const char *name);
/* The path (or name) it was opened as, its license, and its BTF (libbpf's
 * struct btf; NULL without BTF). */
HWXDP_API const char *hwxdp_object__path(const struct hwxdp_object *obj);
HWXDP_API const char *hwxdp_object__license(const struct hwxdp_object *obj);
HWXDP_API const struct btf *hwxdp_object__btf(const struct hwxdp_object *obj);

HWXDP_API const char *hwxdp_prog__name(const struct hwxdp_prog *prog);
HWXDP_API const char *hwxdp_prog__section(const struct hwxdp_prog *prog);
/* enum bpf_prog_type, from the section name. */
HWXDP_API uint32_t hwxdp_prog__type(const struct hwxdp_prog *prog);
/* The instructions, main function then subprograms, with map references as
 * this header's opening comment says. */
HWXDP_API const struct bpf_insn *hwxdp_prog__insns(const struct hwxdp_prog *prog);
HWXDP_API size_t hwxdp_prog__insn_cnt(const struct hwxdp_prog *prog);

HWXDP_API const char *hwxdp_map__name(const struct hwxdp_map_desc *map);
HWXDP_API enum hwxdp_map_origin hwxdp_map__origin(const struct hwxdp_map_desc *map);
/* enum bpf_map_type. */
HWXDP_API uint32_t hwxdp_map__type(const struct hwxdp_map_desc *map);
HWXDP_API uint32_t hwxdp_map__key_size(const struct hwxdp_map_desc *map);
HWXDP_API uint32_t hwxdp_map__value_size(const struct hwxdp_map_desc *map);
HWXDP_API uint32_t hwxdp_map__max_entries(const struct hwxdp_map_desc *map);
/* BTF type ids of key and value in hwxdp_object__btf, 0 when unknown. */
HWXDP_API uint32_t hwxdp_map__btf_key_type_id(const struct hwxdp_map_desc *map);
HWXDP_API uint32_t hwxdp_map__btf_value_type_id(const struct hwxdp_map_desc *map);

/* The source line of insn, or NULL. */
HWXDP_API const struct hwxdp_line *hwxdp_prog__line(const struct hwxdp_prog *prog, uint32_t insn);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HWXDP_OBJECT_H */
