/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HXU, the coprocessor's microcode (docs/isa.md, version 2), in C: the
 * machine's constants, the opcodes and fields of the 64-bit operation word,
 * helpers to encode and decode one operation, and the image the translator
 * hands the device.
 *
 * Word layout (little-endian 64-bit words):
 *   63..56 opcode   55..52 rd   51..48 rs   47..44 rt   43 E (last of bundle)
 *   42..40 flags    39..32 x    31..0 imm
 * flags by class:
 *   A (ALU)      bit 40 .w (32-bit), bit 41 K (the source is imm, not rt)
 *   M (memory)   bits 42..41 log2 of the access size, bit 40 .be (ld, st)
 *                or .fetch (atomic); the space is part of the opcode
 *   C (control)  bit 40 .w (b<cc>); lchk: bit 40 "base is rs, not data"
 *   U (units)    bits 41..40 a key space (tlookup, tupdate, tdelete)
 * x by class: b<cc> condition, table id (t*, redir, tcall), atomic operation,
 * ctx field, csumd's two spaces; 0 elsewhere.
 *
 * Two-word operations. An operation that needs a second 32-bit quantity
 * next to its imm takes the following word too, whose low 32 bits hold it
 * and whose high 32 bits are zero:
 *   movi rd, imm64           imm: low half      word 2: high half
 *   st*.S [rs + off], imm    imm: off           word 2: the value stored
 *   b<cc> rs, imm, target    imm: target        word 2: the immediate
 *   lchk off, target         imm: target        word 2: off
 * Operation indices (branch targets, program entries, pc) count words, so
 * the second word has an index that nothing may name.
 *
 * Fields an operation does not use must be zero; the device refuses an
 * image otherwise, so that they can be given a meaning later.
 */
#ifndef HWXDP_HWMAP_HXU_H
#define HWXDP_HWMAP_HXU_H

#include <stdbool.h>
#include <stdint.h>

#define HXU_MAGIC   "HXU0"
#define HXU_VERSION 2

/* The machine (docs/isa.md sections 1 and 2). */
#define HXU_STORE_WORDS	  32768 /* microcode store, in operation words */
#define HXU_BUNDLE_MAX	  4
#define HXU_REGS	  16
#define HXU_REG_FP	  10 /* r10: frame pointer, read-only */
#define HXU_PORTS	  256
#define HXU_TABLES	  256 /* table ids 0..255 */
#define HXU_HEADROOM	  256
#define HXU_FRAME_MAX	  9216
#define HXU_TAILROOM	  256
#define HXU_WINDOW_SIZE	  (HXU_HEADROOM + HXU_FRAME_MAX + HXU_TAILROOM)
#define HXU_LM_FRAME	  512
#define HXU_LM_FRAMES	  8
#define HXU_LM_SIZE	  (HXU_LM_FRAME * HXU_LM_FRAMES)
#define HXU_RSTACK_DEPTH  8
#define HXU_TAIL_CALL_MAX 33
/*
 * The lowest window offset data_meta (and so data) may reach through hadj,
 * madj and esp: the kernel keeps a struct xdp_frame (40 bytes on 64-bit) at
 * the start of the headroom and refuses adjustments into it, and the device
 * keeps the same limit so that a program sees the same results on both.
 */
#define HXU_FRAME_RESERVED 40
#define HXU_ETH_HLEN	   14
#define HXU_META_MAX	   255 /* XDP metadata: a multiple of 4 up to this */
/* How far esp moves data back: outer IPv4, ESP header and IV (docs/isa.md). */
#define HXU_ESP_HEADROOM 36

/* Field positions. */
#define HXU_OPCODE_SHIFT 56
#define HXU_RD_SHIFT	 52
#define HXU_RS_SHIFT	 48
#define HXU_RT_SHIFT	 44
#define HXU_END_BIT	 (1ull << 43)
#define HXU_FLAGS_SHIFT	 40
#define HXU_X_SHIFT	 32

/* flags bits. */
#define HXU_F_W32	 0x1 /* A, b<cc>: 32-bit */
#define HXU_F_K		 0x2 /* A: source is imm */
#define HXU_F_BE	 0x1 /* ld, st: network byte order */
#define HXU_F_FETCH	 0x1 /* atomic: rd receives the old value */
#define HXU_F_LCHK_REG	 0x1 /* lchk: base is rs */
#define HXU_F_SIZE_SHIFT 1   /* M: log2 of the size in flags bits 2..1 */

/* Spaces (docs/isa.md section 2). */
enum hxu_space {
	HXU_SPACE_PKT = 0, /* offset in the packet window */
	HXU_SPACE_LM = 1,  /* offset in local memory */
	HXU_SPACE_TM = 2,  /* table memory address */
	HXU_SPACE__MAX,
};

enum hxu_opcode {
	HXU_OP_INVALID = 0x00, /* an all-zero word is never an operation */

	/* Class A: rd = rs op (rt | imm). */
	HXU_OP_ADD = 0x01,
	HXU_OP_SUB = 0x02,
	HXU_OP_MUL = 0x03,
	HXU_OP_DIV = 0x04,
	HXU_OP_MOD = 0x05,
	HXU_OP_SDIV = 0x06,
	HXU_OP_SMOD = 0x07,
	HXU_OP_AND = 0x08,
	HXU_OP_OR = 0x09,
	HXU_OP_XOR = 0x0a,
	HXU_OP_LSH = 0x0b,
	HXU_OP_RSH = 0x0c,
	HXU_OP_ARSH = 0x0d,
	HXU_OP_NEG = 0x0e,     /* rd = -rs */
	HXU_OP_MOV = 0x0f,     /* rd = rs | imm */
	HXU_OP_MOVSX8 = 0x10,  /* rd = (s8)rs; .w allowed */
	HXU_OP_MOVSX16 = 0x11, /* rd = (s16)rs; .w allowed */
	HXU_OP_MOVSX32 = 0x12, /* rd = (s32)rs; 64-bit only */
	HXU_OP_MOVI = 0x13,    /* rd = imm64, two words */
	HXU_OP_BSWAP16 = 0x14,
	HXU_OP_BSWAP32 = 0x15,
	HXU_OP_BSWAP64 = 0x16,
	HXU_OP_ZEXT16 = 0x17,
	HXU_OP_ZEXT32 = 0x18,

	/* Class M. ld/ldsx rd, [rs + imm]; st [rs + imm], rt; sti [rs + imm],
	 * word 2; atomic [rs + imm], rt (rd: old value). + enum hxu_space. */
	HXU_OP_LD = 0x40,
	HXU_OP_LDSX = 0x44,
	HXU_OP_ST = 0x48,
	HXU_OP_STI = 0x4c,
	HXU_OP_ATOMIC = 0x50, /* LM and TM only */

	/* Class C. */
	HXU_OP_BR = 0x60,   /* b<cc> rs, rt, imm=target; x = cc */
	HXU_OP_BRI = 0x61,  /* b<cc> rs, word 2, imm=target; x = cc */
	HXU_OP_JMP = 0x62,  /* imm = target */
	HXU_OP_CALL = 0x63, /* imm = target */
	HXU_OP_RET = 0x64,
	HXU_OP_EXIT = 0x65,
	HXU_OP_TCALL = 0x66, /* x = program array, rs = index */
	HXU_OP_LCHK = 0x67,  /* imm = target, word 2 = off */

	/* Class U. */
	HXU_OP_TLOOKUP = 0x80, /* rd, x = T, rs = key (flags: key space) */
	HXU_OP_TINDEX = 0x81,  /* rd, x = T, rs = index */
	HXU_OP_TUPDATE = 0x82, /* rd, x = T, rs = key, rt = value, imm: see below */
	HXU_OP_TDELETE = 0x83, /* rd, x = T, rs = key (flags: key space) */
	HXU_OP_REDIR = 0x84,   /* rd, x = T, rs = key, imm = flags (or rt: below) */
	HXU_OP_HADJ = 0x85,    /* rd, rs = delta */
	HXU_OP_MADJ = 0x86,
	HXU_OP_TADJ = 0x87,
	HXU_OP_CSUM16 = 0x88,  /* [rs + imm] in the packet, rt */
	HXU_OP_ESP = 0x89,     /* rd, rs = SA handle, rt = L3 offset from data */
	HXU_OP_PUNT = 0x8a,    /* imm = reason */
	HXU_OP_TIME = 0x8b,    /* rd, x = enum hxu_clock */
	HXU_OP_RAND = 0x8c,    /* rd */
	HXU_OP_CPU = 0x8d,     /* rd */
	HXU_OP_CTX = 0x8e,     /* rd, x = enum hxu_ctx_field */
	HXU_OP_REDIRIF = 0x8f, /* rd, rs = ifindex, rt = flags */
	HXU_OP_CSUMD = 0x90,   /* rd; reads r1..r5; x = the buffers' spaces */
	/* The table from a register: a handle a lookup in map of maps x gave
	 * (HXU_HANDLE), checked at run time against x's template. */
	HXU_OP_TLOOKUPR = 0x91, /* rd, x = T, rt = handle, rs = key */
	HXU_OP_TUPDATER = 0x92, /* rd, x = T, rs = key, rt = value, imm: tupdate's and
				 * the handle's register (HXU_TUPDATER_REG_SHIFT) */
	HXU_OP_TDELETER = 0x93, /* rd, x = T, rt = handle, rs = key */
};

/* A lookup in a map of maps (ARRAY_OF_MAPS, HASH_OF_MAPS) gives the
 * inner table's handle, never 0, or 0 when it finds nothing: the map the
 * kernel's lookup gives, taken when the lookup is made. */
#define HXU_HANDLE_TAG	 (1ull << 32)
#define HXU_HANDLE(id)	 (HXU_HANDLE_TAG | (uint32_t)(id))
#define HXU_HANDLE_ID(h) ((uint32_t)(h))
#define HXU_HANDLE_OK(h) (((h) >> 32) == 1 && (uint32_t)(h) < HXU_TABLES)

/* tupdater's imm: tupdate's, and the handle's register in bits 23..20. */
#define HXU_TUPDATER_REG_SHIFT 20

/* The three operations whose table is a handle in a register. */
static inline bool hxu_op_table_reg(uint8_t opcode)
{
	return opcode >= HXU_OP_TLOOKUPR && opcode <= HXU_OP_TDELETER;
}

/* redir's imm when the flags are not a constant: they are rt's, all 64
 * bits, at run time (clang merges calls with different flags into one). */
#define HXU_REDIR_FLAGS_RT INT32_MIN

/* csumd's x: the space of r1's buffer in bits 1..0, of r3's in bits 3..2. */
#define HXU_CSUMD_TO_SHIFT 2

/* tupdate's imm: the BPF flags in bits 15..0, the value's space in 17..16. */
#define HXU_TUPDATE_FLAGS_MASK	 0xffffu
#define HXU_TUPDATE_VSPACE_SHIFT 16

/* b<cc> conditions (x). */
enum hxu_cc {
	HXU_CC_EQ,
	HXU_CC_NE,
	HXU_CC_GT, /* unsigned */
	HXU_CC_GE,
	HXU_CC_LT,
	HXU_CC_LE,
	HXU_CC_SGT,
	HXU_CC_SGE,
	HXU_CC_SLT,
	HXU_CC_SLE,
	HXU_CC_SET, /* rs & src != 0 */
	HXU_CC__MAX,
};

/* Atomic operations (x). */
enum hxu_atomic_op {
	HXU_ATOMIC_ADD,
	HXU_ATOMIC_AND,
	HXU_ATOMIC_OR,
	HXU_ATOMIC_XOR,
	HXU_ATOMIC_XCHG,    /* always fetches */
	HXU_ATOMIC_CMPXCHG, /* compares with rd, rd receives the old value */
	HXU_ATOMIC__MAX,
};

/* ctx fields (x): what BPF reads from struct xdp_md. data, data_end and
 * data_meta are offsets in the window, the rest as the kernel's. */
enum hxu_ctx_field {
	HXU_CTX_DATA,
	HXU_CTX_DATA_END,
	HXU_CTX_DATA_META,
	HXU_CTX_INGRESS,  /* ingress_ifindex */
	HXU_CTX_RX_QUEUE, /* rx_queue_index */
	HXU_CTX_EGRESS,	  /* egress_ifindex (0 outside devmap programs) */
	HXU_CTX__MAX,
};

/* The clocks `time` reads, in nanoseconds: the host's, kept in step. */
enum hxu_clock {
	HXU_CLOCK_MONO,	  /* CLOCK_MONOTONIC: bpf_ktime_get_ns */
	HXU_CLOCK_BOOT,	  /* CLOCK_BOOTTIME: bpf_ktime_get_boot_ns */
	HXU_CLOCK_COARSE, /* CLOCK_MONOTONIC_COARSE: bpf_ktime_get_coarse_ns */
	HXU_CLOCK_TAI,	  /* CLOCK_TAI: bpf_ktime_get_tai_ns */
	HXU_CLOCK__MAX,
};

enum hxu_class {
	HXU_CLASS_NONE,
	HXU_CLASS_A,
	HXU_CLASS_M,
	HXU_CLASS_C,
	HXU_CLASS_U,
};

/* One operation, decoded. */
struct hxu_op {
	uint8_t opcode;
	uint8_t rd, rs, rt;
	uint8_t flags; /* bits 42..40 */
	uint8_t x;     /* bits 39..32 */
	bool end;      /* E: last operation of its bundle */
	int32_t imm;   /* bits 31..0 */
	uint32_t ext;  /* word 2's low half, for two-word operations */
};

static inline enum hxu_class hxu_opcode_class(uint8_t opcode)
{
	if (opcode >= HXU_OP_ADD && opcode <= HXU_OP_ZEXT32)
		return HXU_CLASS_A;
	if (opcode >= HXU_OP_LD && opcode <= HXU_OP_ATOMIC + HXU_SPACE_TM &&
	    (opcode & 3) < HXU_SPACE__MAX)
		return HXU_CLASS_M;
	if (opcode >= HXU_OP_BR && opcode <= HXU_OP_LCHK)
		return HXU_CLASS_C;
	if (opcode >= HXU_OP_TLOOKUP && opcode <= HXU_OP_TDELETER)
		return HXU_CLASS_U;
	return HXU_CLASS_NONE;
}

static inline bool hxu_opcode_valid(uint8_t opcode)
{
	return hxu_opcode_class(opcode) != HXU_CLASS_NONE;
}

/* Memory operations: the kind (HXU_OP_LD ...) and the space. */
static inline uint8_t hxu_mem_kind(uint8_t opcode)
{
	return opcode & ~3;
}

static inline enum hxu_space hxu_mem_space(uint8_t opcode)
{
	return (enum hxu_space)(opcode & 3);
}

static inline uint32_t hxu_mem_size(uint8_t flags)
{
	return 1u << ((flags >> HXU_F_SIZE_SHIFT) & 3);
}

static inline uint8_t hxu_mem_flags(uint32_t size, bool be_or_fetch)
{
	uint8_t log2 = size == 8 ? 3 : size == 4 ? 2 : size == 2 ? 1 : 0;

	return (uint8_t)(log2 << HXU_F_SIZE_SHIFT) | (be_or_fetch ? 1 : 0);
}

/* Words an operation takes: 1, or 2 for movi, sti, b<cc> imm and lchk. */
static inline unsigned int hxu_op_words(uint8_t opcode)
{
	return opcode == HXU_OP_MOVI || hxu_mem_kind(opcode) == HXU_OP_STI ||
			       opcode == HXU_OP_BRI || opcode == HXU_OP_LCHK
		       ? 2
		       : 1;
}

/* Operations that transfer control: the last of their bundle. */
static inline bool hxu_op_is_control(uint8_t opcode)
{
	return hxu_opcode_class(opcode) == HXU_CLASS_C || opcode == HXU_OP_PUNT;
}

/* Encodes op into words[0] (and words[1] for a two-word operation);
 * returns the words written. Fields are truncated to their widths. */
static inline unsigned int hxu_encode(const struct hxu_op *op, uint64_t words[2])
{
	words[0] =
		(uint64_t)op->opcode << HXU_OPCODE_SHIFT | (uint64_t)(op->rd & 15) << HXU_RD_SHIFT |
		(uint64_t)(op->rs & 15) << HXU_RS_SHIFT | (uint64_t)(op->rt & 15) << HXU_RT_SHIFT |
		(op->end ? HXU_END_BIT : 0) | (uint64_t)(op->flags & 7) << HXU_FLAGS_SHIFT |
		(uint64_t)op->x << HXU_X_SHIFT | (uint32_t)op->imm;
	if (hxu_op_words(op->opcode) == 1)
		return 1;
	words[1] = op->ext;
	return 2;
}

/* Decodes the word w; a two-word operation's ext is left for the caller
 * (hxu_decode_ext). */
static inline void hxu_decode(uint64_t w, struct hxu_op *op)
{
	op->opcode = (uint8_t)(w >> HXU_OPCODE_SHIFT);
	op->rd = (w >> HXU_RD_SHIFT) & 15;
	op->rs = (w >> HXU_RS_SHIFT) & 15;
	op->rt = (w >> HXU_RT_SHIFT) & 15;
	op->end = !!(w & HXU_END_BIT);
	op->flags = (w >> HXU_FLAGS_SHIFT) & 7;
	op->x = (uint8_t)(w >> HXU_X_SHIFT);
	op->imm = (int32_t)(uint32_t)w;
	op->ext = 0;
}

/* Decodes the operation at words[0] (n words available): the words it
 * takes, or 0 when a two-word operation is cut off or its second word's
 * high half is not zero. */
static inline unsigned int hxu_decode_at(const uint64_t *words, uint32_t n, struct hxu_op *op)
{
	unsigned int len;

	if (!n)
		return 0;
	hxu_decode(words[0], op);
	len = hxu_op_words(op->opcode);
	if (len == 2) {
		if (n < 2 || words[1] >> 32)
			return 0;
		op->ext = (uint32_t)words[1];
	}
	return len;
}

/* The register holding a tlookupr, tupdater or tdeleter's handle. */
static inline uint8_t hxu_handle_reg(const struct hxu_op *op)
{
	return op->opcode == HXU_OP_TUPDATER ? ((uint32_t)op->imm >> HXU_TUPDATER_REG_SHIFT) & 15
					     : op->rt;
}

/* movi's value. */
static inline uint64_t hxu_movi_value(const struct hxu_op *op)
{
	return (uint64_t)op->ext << 32 | (uint32_t)op->imm;
}

/* Convenience constructors, for tests and the translator. */
static inline struct hxu_op hxu_op_make(uint8_t opcode, uint8_t rd, uint8_t rs, uint8_t rt,
					uint8_t flags, uint8_t x, int32_t imm)
{
	struct hxu_op op = { opcode, rd, rs, rt, flags, x, false, imm, 0 };

	return op;
}

/* The image the translator produces and the device loads. Its file form
 * (docs/isa.md section 6) is read and written by hwmap/image.h. */
#define HXU_NAME_MAX 64

/* What every table a map of maps holds is: the kernel's inner map meta. */
struct hxu_inner_desc {
	uint32_t type; /* enum bpf_map_type; 0 for a table that is no map of maps */
	uint32_t key_size, value_size, max_entries;
	uint32_t flags;
};

struct hxu_table_desc {
	uint32_t id;   /* 0..255, what operations name */
	uint32_t type; /* enum bpf_map_type: ARRAY, HASH, DEVMAP_HASH, PROG_ARRAY */
	uint32_t key_size, value_size, max_entries;
	uint32_t flags; /* the map's map_flags (BPF_F_MMAPABLE, ...) */
	char name[HXU_NAME_MAX];
	/* ARRAY_OF_MAPS, HASH_OF_MAPS (value: a table id): the template */
	struct hxu_inner_desc inner;
};

static inline bool hxu_map_of_maps(uint32_t type)
{
	return type == 12 /* BPF_MAP_TYPE_ARRAY_OF_MAPS */ ||
	       type == 13 /* BPF_MAP_TYPE_HASH_OF_MAPS */;
}

/* Whether table t fits template in: the kernel's bpf_map_meta_equal, and
 * an array's entries unless the template says BPF_F_INNER_MAP. */
static inline bool hxu_inner_fits(const struct hxu_inner_desc *in, const struct hxu_table_desc *t)
{
	bool array = in->type == 2 /* ARRAY */ || in->type == 6 /* PERCPU_ARRAY */;

	return t->type == in->type && t->key_size == in->key_size &&
	       t->value_size == in->value_size && t->flags == in->flags &&
	       (!array || (in->flags & (1u << 12)) /* BPF_F_INNER_MAP */ ||
		t->max_entries == in->max_entries);
}

struct hxu_prog_desc {
	char name[HXU_NAME_MAX];
	uint32_t entry;	 /* operation index of its first bundle */
	uint32_t frames; /* local-memory frames it uses, 1..8 */
};

/* Operation op came from BPF instruction insn. Sorted by op. */
struct hxu_line {
	uint32_t op;
	uint32_t insn;
};

struct hxu_image {
	uint32_t version; /* HXU_VERSION */
	const uint64_t *ops;
	uint32_t op_cnt; /* words, at most HXU_STORE_WORDS */
	const struct hxu_table_desc *tables;
	uint32_t table_cnt;
	const struct hxu_prog_desc *progs;
	uint32_t prog_cnt;
	const struct hxu_line *lines;
	uint32_t line_cnt;
};

#endif /* HWXDP_HWMAP_HXU_H */
