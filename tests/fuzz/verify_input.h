/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The byte layout fuzz_verify.c reads and verify_seeds.c writes: a few map
 * descriptions and verifier options in front of a raw instruction stream, so
 * that one input file is one complete verification.
 *
 *   byte 0        options (VI_OPT_*)
 *   byte 1        number of maps, low 4 bits (0..15)
 *   16 per map    u8 type, u8 flags (VI_MAP_*), le16 key_size, le32 value_size,
 *                 le32 max_entries, le16 initial bytes, le16 reserved
 *   ...           each map's initial bytes, in map order
 *   8 per insn    struct bpf_insn, up to VI_MAX_INSNS
 *
 * A short input is read as far as it goes: a map whose 16 bytes are not all
 * there is left out, missing initial bytes are not invented. Every value of
 * every byte stands for something, so mutations never fall off the format.
 */
#ifndef HWXDP_TESTS_FUZZ_VERIFY_INPUT_H
#define HWXDP_TESTS_FUZZ_VERIFY_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <linux/bpf.h>

#include "loader/object.h"

#define VI_MAX_MAPS  15
#define VI_MAP_BYTES 16
#define VI_MAX_INSNS 4096

/* byte 0 */
#define VI_OPT_LOG_LEVEL 0x03 /* 0, 1, 2; 3 reads as 1 */
#define VI_OPT_DEVICE	 0x04
#define VI_OPT_DEVMAP	 0x08 /* expected_attach_type BPF_XDP_DEVMAP */
#define VI_OPT_LINES	 0x10 /* through hwxdp_verify, with source lines */
#define VI_OPT_NO_FUNCS	 0x20 /* with lines: no function starts, as built by hand */

/* a map's flags byte */
#define VI_MAP_RDONLY_PROG 0x01
#define VI_MAP_MMAPABLE	   0x02
#define VI_MAP_NO_PREALLOC 0x04
#define VI_MAP_READ_ONLY   0x08 /* frozen: its bytes are constants */
#define VI_MAP_GLOBAL	   0x10 /* .rodata/.data/.bss */
#define VI_MAP_WILD	   0x20 /* sizes as written, not bounded */
#define VI_MAP_LEGACY	   0x40
#define VI_MAP_WRONLY_PROG 0x80

/* Bounds for sizes without VI_MAP_WILD. */
#define VI_KEY_MAX     512
#define VI_VALUE_MAX   65536
#define VI_ENTRIES_MAX (1u << 24)

struct verify_input {
	uint8_t options;
	struct hwxdp_map_desc maps[VI_MAX_MAPS];
	size_t map_cnt;
	size_t insn_off; /* where the instructions start in the input */
	size_t insn_cnt;
};

static inline uint32_t vi_le(const uint8_t *p, int n)
{
	uint32_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* The map types XDP programs name, for type bytes past the raw range. */
static const uint32_t vi_common_types[] = {
	BPF_MAP_TYPE_ARRAY,	  BPF_MAP_TYPE_HASH,	    BPF_MAP_TYPE_PERCPU_ARRAY,
	BPF_MAP_TYPE_PERCPU_HASH, BPF_MAP_TYPE_LRU_HASH,    BPF_MAP_TYPE_LRU_PERCPU_HASH,
	BPF_MAP_TYPE_DEVMAP,	  BPF_MAP_TYPE_DEVMAP_HASH, BPF_MAP_TYPE_CPUMAP,
	BPF_MAP_TYPE_XSKMAP,	  BPF_MAP_TYPE_PROG_ARRAY,  BPF_MAP_TYPE_PERF_EVENT_ARRAY,
	BPF_MAP_TYPE_RINGBUF,	  BPF_MAP_TYPE_LPM_TRIE,    BPF_MAP_TYPE_QUEUE,
	BPF_MAP_TYPE_STACK,
};

/* Parses data into in; the maps' initial bytes point into data. */
static inline void verify_input__parse(const uint8_t *data, size_t size, struct verify_input *in)
{
	size_t pos = size < 2 ? size : 2, i, want;

	memset(in, 0, sizeof(*in));
	in->options = size > 0 ? data[0] : 0;
	want = size > 1 ? data[1] & 0x0f : 0;
	for (i = 0; i < want && pos + VI_MAP_BYTES <= size; i++, pos += VI_MAP_BYTES) {
		struct hwxdp_map_desc *m = &in->maps[in->map_cnt++];
		const uint8_t *d = data + pos;
		uint8_t flags = d[1];

		snprintf(m->name, sizeof(m->name), "map%zu", i);
		m->type = d[0] < 64 ? d[0]
				    : vi_common_types[d[0] % (sizeof(vi_common_types) /
							      sizeof(vi_common_types[0]))];
		m->key_size = vi_le(d + 2, 2);
		m->value_size = vi_le(d + 4, 4);
		m->max_entries = vi_le(d + 8, 4);
		m->initial_size = vi_le(d + 12, 2);
		if (!(flags & VI_MAP_WILD)) {
			m->key_size %= VI_KEY_MAX + 1;
			m->value_size %= VI_VALUE_MAX + 1;
			m->max_entries %= VI_ENTRIES_MAX + 1;
		}
		m->map_flags = (flags & VI_MAP_RDONLY_PROG ? BPF_F_RDONLY_PROG : 0) |
			       (flags & VI_MAP_WRONLY_PROG ? BPF_F_WRONLY_PROG : 0) |
			       (flags & VI_MAP_MMAPABLE ? BPF_F_MMAPABLE : 0) |
			       (flags & VI_MAP_NO_PREALLOC ? BPF_F_NO_PREALLOC : 0);
		m->read_only = flags & VI_MAP_READ_ONLY;
		m->origin = flags & VI_MAP_GLOBAL   ? HWXDP_MAP_GLOBAL
			    : flags & VI_MAP_LEGACY ? HWXDP_MAP_LEGACY
						    : HWXDP_MAP_BTF;
		if (m->origin == HWXDP_MAP_GLOBAL)
			snprintf(m->section, sizeof(m->section), "%s",
				 m->read_only	   ? ".rodata"
				 : m->initial_size ? ".data"
						   : ".bss");
	}
	/* the loader never keeps more initial bytes than the value holds */
	for (i = 0; i < in->map_cnt; i++) {
		struct hwxdp_map_desc *m = &in->maps[i];

		if (m->initial_size > m->value_size)
			m->initial_size = m->value_size;
		if (m->initial_size > size - pos)
			m->initial_size = size - pos;
		m->initial = m->initial_size ? data + pos : NULL;
		pos += m->initial_size;
	}
	in->insn_off = pos;
	in->insn_cnt = (size - pos) / sizeof(struct bpf_insn);
	if (in->insn_cnt > VI_MAX_INSNS)
		in->insn_cnt = VI_MAX_INSNS;
}

/* Writes one input: the inverse of verify_input__parse for what fits. */
static inline int verify_input__write(FILE *f, uint8_t options, const struct hwxdp_map_desc *maps,
				      size_t map_cnt, const struct bpf_insn *insns, size_t cnt)
{
	uint8_t d[VI_MAP_BYTES];
	size_t i;
	int b;

	if (map_cnt > VI_MAX_MAPS)
		map_cnt = VI_MAX_MAPS;
	if (cnt > VI_MAX_INSNS)
		cnt = VI_MAX_INSNS;
	d[0] = options;
	d[1] = map_cnt;
	if (fwrite(d, 2, 1, f) != 1)
		return -1;
	for (i = 0; i < map_cnt; i++) {
		const struct hwxdp_map_desc *m = &maps[i];
		uint32_t initial = m->initial ? m->initial_size : 0;
		uint8_t flags = 0;

		if (initial > m->value_size)
			initial = m->value_size;
		if (initial > 0xffff)
			initial = 0xffff;
		flags |= m->map_flags & BPF_F_RDONLY_PROG ? VI_MAP_RDONLY_PROG : 0;
		flags |= m->map_flags & BPF_F_WRONLY_PROG ? VI_MAP_WRONLY_PROG : 0;
		flags |= m->map_flags & BPF_F_MMAPABLE ? VI_MAP_MMAPABLE : 0;
		flags |= m->map_flags & BPF_F_NO_PREALLOC ? VI_MAP_NO_PREALLOC : 0;
		flags |= m->read_only ? VI_MAP_READ_ONLY : 0;
		flags |= m->origin == HWXDP_MAP_GLOBAL ? VI_MAP_GLOBAL : 0;
		flags |= m->origin == HWXDP_MAP_LEGACY ? VI_MAP_LEGACY : 0;
		if (m->key_size > VI_KEY_MAX || m->value_size > VI_VALUE_MAX ||
		    m->max_entries > VI_ENTRIES_MAX)
			flags |= VI_MAP_WILD;
		d[0] = m->type < 64 ? m->type : 64;
		d[1] = flags;
		for (b = 0; b < 2; b++)
			d[2 + b] = m->key_size >> (8 * b);
		for (b = 0; b < 4; b++) {
			d[4 + b] = m->value_size >> (8 * b);
			d[8 + b] = m->max_entries >> (8 * b);
		}
		d[12] = initial;
		d[13] = initial >> 8;
		d[14] = d[15] = 0;
		if (fwrite(d, sizeof(d), 1, f) != 1)
			return -1;
	}
	for (i = 0; i < map_cnt; i++) {
		size_t initial = maps[i].initial ? maps[i].initial_size : 0;

		if (initial > maps[i].value_size)
			initial = maps[i].value_size;
		if (initial > 0xffff)
			initial = 0xffff;
		if (initial && fwrite(maps[i].initial, initial, 1, f) != 1)
			return -1;
	}
	if (cnt && fwrite(insns, sizeof(*insns), cnt, f) != cnt)
		return -1;
	return 0;
}

#endif /* HWXDP_TESTS_FUZZ_VERIFY_INPUT_H */
