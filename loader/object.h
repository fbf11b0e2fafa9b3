/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loader's objects from the inside: what include/hwxdp/object.h keeps
 * opaque. The verifier, the translator and the lab read these fields; a
 * user of the library goes through the accessors.
 */
#ifndef HWXDP_LOADER_OBJECT_H
#define HWXDP_LOADER_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

#include "hwxdp/object.h"
#include "hwxdp/platform.h"

struct btf;

/*
 * The call a failed CO-RE relocation leaves in place of its instruction
 * (libbpf's 0xbad2310, "bad relo"): harmless where dead, refused where
 * reached.
 */
#define HWXDP_CORE_POISON 0xbad2310

/* A program array's slot its definition fills: slot holds progs[prog]. */
struct hwxdp_init_prog {
	uint32_t slot;
	uint32_t prog; /* index in the object's progs[] */
};

#define HWXDP_INIT_PROG_NONE UINT32_MAX

/* A map of maps' slot its definition fills: slot holds maps[map]. */
struct hwxdp_init_map {
	uint32_t slot;
	uint32_t map; /* index in the object's maps[] */
};

struct hwxdp_map_desc {
	char name[HWXDP_NAME_MAX];
	enum hwxdp_map_origin origin;
	uint32_t type; /* enum bpf_map_type */
	uint32_t key_size, value_size, max_entries, map_flags;
	uint32_t btf_key_type_id, btf_value_type_id; /* 0 when unknown */
	const uint8_t *initial; /* global data: initial value (NULL for .bss) */
	size_t initial_size;
	bool read_only;		      /* .rodata: frozen, constant to the verifier */
	char section[HWXDP_NAME_MAX]; /* global data: its ELF section (".rodata") */
	/* ARRAY_OF_MAPS, HASH_OF_MAPS: the index in maps[] of the template
	 * (HWXDP_MAP_INNER) their maps have; other types: 0, unused */
	uint32_t inner_map;
	/* PROG_ARRAY: slots its definition fills with the object's programs
	 * (libbpf's `.values = { [i] = &prog }`, set when libbpf loads it),
	 * and which: init_prog_cnt of them, in the order they are written */
	uint32_t init_prog_cnt;
	const struct hwxdp_init_prog *init_progs;
	/* ARRAY_OF_MAPS: slots its definition fills with the object's maps
	 * (`.values = { [i] = &map }`, set when libbpf loads it), in order */
	uint32_t init_map_cnt;
	const struct hwxdp_init_map *init_maps;
};

/* A kfunc or ksym the program names, by instruction. */
struct hwxdp_extern_ref {
	uint32_t insn;
	char name[HWXDP_NAME_MAX];
	bool weak;
	bool resolved;	  /* in the kfunc table it was opened against */
	int32_t kfunc_id; /* that table's id when resolved */
};

struct hwxdp_prog {
	char name[HWXDP_NAME_MAX];
	char section[HWXDP_NAME_MAX];
	uint32_t type; /* enum bpf_prog_type, from the section name */
	uint32_t expected_attach_type;
	struct bpf_insn *insns; /* main function, then appended subprograms */
	size_t insn_cnt;
	uint32_t *subprog_start;   /* first insn of each function; [0] = 0 */
	const char **subprog_name; /* each function's symbol name */
	size_t subprog_cnt;
	struct hwxdp_line *lines; /* sorted by insn */
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
	struct btf *btf; /* NULL when the object has no BTF */
	void *priv;
};

/*
 * The global variable name of size bytes in section (section_size bytes) of
 * btf: 0 with *offset set, -ENOENT without one, -EINVAL when its size
 * differs or it lies beyond the section.
 */
int hwxdp_btf__find_global(const struct btf *btf, const char *section, size_t section_size,
			   const char *name, size_t size, uint32_t *offset);

/*
 * The loader's side of the hwxdp_target contract (include/hwxdp/platform.h),
 * the one place it is written: target into the `hwxdp_target` global of the
 * .rodata image (size bytes, whose layout btf gives). 1 when written, 0 when
 * the program has no such global, -EINVAL (recorded: "hwxdp_target is not a
 * 4-byte global") when it is not a 4-byte one.
 */
int hwxdp_target__write(const struct btf *btf, uint8_t *rodata, size_t size,
			enum hwxdp_target target);

/*
 * A section libbpf 1.x gives no program type that the loaders of its day
 * loaded as XDP: any name starting "xdp" (samples/bpf, libbpf 0.x), and
 * "prog" (iproute2's default). Asked only for a section libbpf does not know.
 */
bool hwxdp_legacy_xdp_section(const char *sec);

/* Whether a program of this type and expected attach type runs on a port:
 * XDP, not one a devmap or cpumap entry runs. */
bool hwxdp_port_prog_type(uint32_t type, uint32_t expected_attach_type);

/* hwxdp_target__write on obj's .rodata: 0 (written, or no such global) or
 * the error. */
int hwxdp_object__set_target(struct hwxdp_object *obj, enum hwxdp_target target);

#endif /* HWXDP_LOADER_OBJECT_H */
