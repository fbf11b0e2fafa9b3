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

struct btf;

#define HWXDP_NAME_MAX 64

/* Where a map came from. */
enum hwxdp_map_origin {
	HWXDP_MAP_BTF,     /* SEC(".maps"), BTF-defined */
	HWXDP_MAP_LEGACY,  /* struct bpf_map_def in SEC("maps") */
	HWXDP_MAP_GLOBAL,  /* .rodata, .data, .bss (one-entry array) */
	HWXDP_MAP_INNER,   /* the template of a map of maps' maps: no map of its own */
};

struct hwxdp_map_desc {
	char name[HWXDP_NAME_MAX];
	enum hwxdp_map_origin origin;
	uint32_t type;              /* enum bpf_map_type */
	uint32_t key_size, value_size, max_entries, map_flags;
	uint32_t btf_key_type_id, btf_value_type_id; /* 0 when unknown */
	const uint8_t *initial;     /* global data: initial value (NULL for .bss) */
	size_t initial_size;
	bool read_only;             /* .rodata: frozen, constant to the verifier */
	char section[HWXDP_NAME_MAX]; /* global data: its ELF section (".rodata") */
	/* ARRAY_OF_MAPS, HASH_OF_MAPS: the index in maps[] of the template
	 * (HWXDP_MAP_INNER) their maps have; other types: 0, unused */
	uint32_t inner_map;
};

/* Source position of an instruction, from .BTF.ext line info. */
struct hwxdp_line {
	uint32_t insn;              /* first instruction of the line */
	const char *file;           /* strings owned by the object */
	const char *text;           /* the source line, trimmed */
	uint32_t line, column;
};

/* A kfunc or ksym the program names, by instruction. */
struct hwxdp_extern_ref {
	uint32_t insn;
	char name[HWXDP_NAME_MAX];
	bool weak;
	bool resolved;              /* in the kfunc table it was opened against */
	int32_t kfunc_id;           /* that table's id when resolved */
};

struct hwxdp_prog {
	char name[HWXDP_NAME_MAX];
	char section[HWXDP_NAME_MAX];
	uint32_t type;              /* enum bpf_prog_type, from the section name */
	uint32_t expected_attach_type;
	struct bpf_insn *insns;     /* main function, then appended subprograms */
	size_t insn_cnt;
	uint32_t *subprog_start;    /* first insn of each function; [0] = 0 */
	const char **subprog_name;  /* each function's symbol name */
	size_t subprog_cnt;
	struct hwxdp_line *lines;   /* sorted by insn */
	size_t line_cnt;
	struct hwxdp_extern_ref *externs;
	size_t extern_cnt;
};

struct hwxdp_object {
	char path[4096];
	char license[128];
	struct hwxdp_map_desc *maps;
	size_t map_cnt;
	struct hwxdp_prog *progs;
	size_t prog_cnt;
	struct btf *btf;            /* NULL when the object has no BTF */
	void *priv;
};

/* Project error codes, above the errno range: 4000 the loader's, 4100 the
 * device engine's, 4200 the translator's, 4300 the image file's, 4400 the
 * conformance runner's. hwxdp_strerror knows them all. */
#define HWXDP_ERR_BASE 4000
enum {
	HWXDP_ERR_ELF = HWXDP_ERR_BASE, /* not an ELF / not a BPF ELF */
	HWXDP_ERR_RELOC,            /* relocation that cannot be applied */
	HWXDP_ERR_MAP,              /* map definition that cannot be read */
	HWXDP_ERR_PROG,             /* program section that cannot be read */
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

/* A message for a negative error return, errno or -HWXDP_ERR_*. */
const char *hwxdp_strerror(int err);

/* The one line that says why the last call of this thread failed with err,
 * naming the file and what is wrong with it; hwxdp_strerror(err) when that
 * call recorded none. Given back once. */
const char *hwxdp_error_message(int err);

/* Opens path. 0 or a negative error (errno or -HWXDP_ERR_*); the reason,
 * one line naming the file, is hwxdp_error_message(err) (nothing is
 * printed). Nothing is half-filled on failure. */
int hwxdp_object__open(const char *path, struct hwxdp_object **out);
/* name stands for the file in messages; as with libbpf, its base name up to
 * the first '.' prefixes the names of .rodata/.data/.bss maps. */
int hwxdp_object__open_mem(const void *data, size_t size, const char *name,
			   struct hwxdp_object **out);
int hwxdp_object__open_opts(const char *path, const struct hwxdp_object_open_opts *opts,
			    struct hwxdp_object **out);
int hwxdp_object__open_mem_opts(const void *data, size_t size, const char *name,
				const struct hwxdp_object_open_opts *opts,
				struct hwxdp_object **out);
void hwxdp_object__close(struct hwxdp_object *obj);

const struct hwxdp_prog *hwxdp_object__find_prog(const struct hwxdp_object *obj,
						 const char *name);
/* The object's first XDP program, or NULL. */
const struct hwxdp_prog *hwxdp_object__xdp_prog(const struct hwxdp_object *obj);
/*
 * Sets the global variable name (in .rodata, .data or .bss, found through
 * BTF) to size bytes of value in the object's map image, as a loader sets
 * `hwxdp_target` before a load. 0, -ENOENT without such a variable, -EINVAL
 * when size differs from the variable's, -ENOMEM.
 */
int hwxdp_object__set_global(struct hwxdp_object *obj, const char *name, const void *value,
			     size_t size);
/* The size bytes of global variable name's initial value, into value: 0,
 * -ENOENT, -EINVAL as for hwxdp_object__set_global. .bss reads as zero. */
int hwxdp_object__get_global(const struct hwxdp_object *obj, const char *name, void *value,
			     size_t size);

/* The source line of insn, or NULL. */
const struct hwxdp_line *hwxdp_prog__line(const struct hwxdp_prog *prog, uint32_t insn);

#endif /* HWXDP_OBJECT_H */
