// SPDX-License-Identifier: GPL-2.0
/*
 * HXU text: the disassembler prints one form per operation and the
 * assembler reads exactly those forms back (plus labels and comments), so a
 * listing is also a fixture.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwmap/hxu_text.h"

static const char *const alu_names[] = {
	[HXU_OP_ADD] = "add",	      [HXU_OP_SUB] = "sub",	    [HXU_OP_MUL] = "mul",
	[HXU_OP_DIV] = "div",	      [HXU_OP_MOD] = "mod",	    [HXU_OP_SDIV] = "sdiv",
	[HXU_OP_SMOD] = "smod",	      [HXU_OP_AND] = "and",	    [HXU_OP_OR] = "or",
	[HXU_OP_XOR] = "xor",	      [HXU_OP_LSH] = "lsh",	    [HXU_OP_RSH] = "rsh",
	[HXU_OP_ARSH] = "arsh",	      [HXU_OP_NEG] = "neg",	    [HXU_OP_MOV] = "mov",
	[HXU_OP_MOVSX8] = "movsx8",   [HXU_OP_MOVSX16] = "movsx16", [HXU_OP_MOVSX32] = "movsx32",
	[HXU_OP_MOVI] = "movi",	      [HXU_OP_BSWAP16] = "bswap16", [HXU_OP_BSWAP32] = "bswap32",
	[HXU_OP_BSWAP64] = "bswap64", [HXU_OP_ZEXT16] = "zext16",   [HXU_OP_ZEXT32] = "zext32",
};

static const char *const cc_names[HXU_CC__MAX] = {
	"eq", "ne", "gt", "ge", "lt", "le", "sgt", "sge", "slt", "sle", "set",
};

static const char *const atomic_names[HXU_ATOMIC__MAX] = {
	"add", "and", "or", "xor", "xchg", "cmpxchg",
};

static const char *const space_names[HXU_SPACE__MAX] = { "pkt", "lm", "tm" };

static const char *const ctx_names[HXU_CTX__MAX] = {
	"data", "data_end", "data_meta", "ingress", "rx_queue", "egress",
};

static const char *const clock_names[HXU_CLOCK__MAX] = {
	"mono",
	"boot",
	"coarse",
	"tai",
};

static const char *const unit_names[] = {
	[HXU_OP_TLOOKUP - HXU_OP_TLOOKUP] = "tlookup",
	[HXU_OP_TINDEX - HXU_OP_TLOOKUP] = "tindex",
	[HXU_OP_TUPDATE - HXU_OP_TLOOKUP] = "tupdate",
	[HXU_OP_TDELETE - HXU_OP_TLOOKUP] = "tdelete",
	[HXU_OP_REDIR - HXU_OP_TLOOKUP] = "redir",
	[HXU_OP_HADJ - HXU_OP_TLOOKUP] = "hadj",
	[HXU_OP_MADJ - HXU_OP_TLOOKUP] = "madj",
	[HXU_OP_TADJ - HXU_OP_TLOOKUP] = "tadj",
	[HXU_OP_CSUM16 - HXU_OP_TLOOKUP] = "csum16",
	[HXU_OP_ESP - HXU_OP_TLOOKUP] = "esp",
	[HXU_OP_PUNT - HXU_OP_TLOOKUP] = "punt",
	[HXU_OP_TIME - HXU_OP_TLOOKUP] = "time",
	[HXU_OP_RAND - HXU_OP_TLOOKUP] = "rand",
	[HXU_OP_CPU - HXU_OP_TLOOKUP] = "cpu",
	[HXU_OP_CTX - HXU_OP_TLOOKUP] = "ctx",
	[HXU_OP_REDIRIF - HXU_OP_TLOOKUP] = "redirif",
	[HXU_OP_CSUMD - HXU_OP_TLOOKUP] = "csumd",
	[HXU_OP_TLOOKUPR - HXU_OP_TLOOKUP] = "tlookupr",
	[HXU_OP_TUPDATER - HXU_OP_TLOOKUP] = "tupdater",
	[HXU_OP_TDELETER - HXU_OP_TLOOKUP] = "tdeleter",
};

static const char *const control_names[] = {
	[HXU_OP_JMP - HXU_OP_BR] = "jmp",     [HXU_OP_CALL - HXU_OP_BR] = "call",
	[HXU_OP_RET - HXU_OP_BR] = "ret",     [HXU_OP_EXIT - HXU_OP_BR] = "exit",
	[HXU_OP_TCALL - HXU_OP_BR] = "tcall", [HXU_OP_LCHK - HXU_OP_BR] = "lchk",
};

/* ---- disassembler ---- */

struct out {
	char *buf;
	size_t len, used;
};

__attribute__((format(printf, 2, 3))) static void emit(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->used >= o->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->used, o->len - o->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->used += (size_t)n;
}

static void emit_imm(struct out *o, int32_t imm)
{
	if (imm > -65536 && imm < 65536)
		emit(o, "%d", imm);
	else
		emit(o, "0x%x", (uint32_t)imm);
}

static void emit_mem(struct out *o, uint8_t rs, int32_t off)
{
	if (off > 0)
		emit(o, "[r%u + %d]", rs, off);
	else if (off < 0)
		emit(o, "[r%u - %u]", rs, 0u - (uint32_t)off);
	else
		emit(o, "[r%u]", rs);
}

static void disasm_mem(struct out *o, const struct hxu_op *op)
{
	uint8_t kind = hxu_mem_kind(op->opcode);
	enum hxu_space space = hxu_mem_space(op->opcode);
	uint32_t bits = hxu_mem_size(op->flags) * 8;
	bool flag = op->flags & 1;

	switch (kind) {
	case HXU_OP_LD:
	case HXU_OP_LDSX:
		emit(o, "ld%u%s%s.%s r%u, ", bits, flag ? ".be" : "",
		     kind == HXU_OP_LDSX ? ".sx" : "", space_names[space], op->rd);
		emit_mem(o, op->rs, op->imm);
		return;
	case HXU_OP_ST:
	case HXU_OP_STI:
		emit(o, "st%u%s.%s ", bits, flag ? ".be" : "", space_names[space]);
		emit_mem(o, op->rs, op->imm);
		if (kind == HXU_OP_ST)
			emit(o, ", r%u", op->rt);
		else {
			emit(o, ", ");
			emit_imm(o, (int32_t)op->ext);
		}
		return;
	default: /* atomic */
		if (op->x < HXU_ATOMIC__MAX)
			emit(o, "atomic%s%u", atomic_names[op->x], bits);
		else
			emit(o, "atomic%u_%u", op->x, bits);
		if (op->x < HXU_ATOMIC_XCHG && flag)
			emit(o, ".fetch");
		emit(o, ".%s ", space_names[space]);
		if (flag || op->x >= HXU_ATOMIC_XCHG)
			emit(o, "r%u, ", op->rd);
		emit_mem(o, op->rs, op->imm);
		emit(o, ", r%u", op->rt);
		return;
	}
}

static void disasm_alu(struct out *o, const struct hxu_op *op)
{
	const char *w = op->flags & HXU_F_W32 ? ".w" : "";

	switch (op->opcode) {
	case HXU_OP_MOVI:
		emit(o, "movi r%u, 0x%llx", op->rd, (unsigned long long)hxu_movi_value(op));
		return;
	case HXU_OP_MOV:
		emit(o, "mov%s r%u, ", w, op->rd);
		if (op->flags & HXU_F_K)
			emit_imm(o, op->imm);
		else
			emit(o, "r%u", op->rs);
		return;
	case HXU_OP_NEG:
	case HXU_OP_MOVSX8:
	case HXU_OP_MOVSX16:
	case HXU_OP_MOVSX32:
	case HXU_OP_BSWAP16:
	case HXU_OP_BSWAP32:
	case HXU_OP_BSWAP64:
	case HXU_OP_ZEXT16:
	case HXU_OP_ZEXT32:
		emit(o, "%s%s r%u, r%u", alu_names[op->opcode], w, op->rd, op->rs);
		return;
	default:
		emit(o, "%s%s r%u, r%u, ", alu_names[op->opcode], w, op->rd, op->rs);
		if (op->flags & HXU_F_K)
			emit_imm(o, op->imm);
		else
			emit(o, "r%u", op->rt);
	}
}

static void disasm_control(struct out *o, const struct hxu_op *op)
{
	switch (op->opcode) {
	case HXU_OP_BR:
	case HXU_OP_BRI:
		if (op->x < HXU_CC__MAX)
			emit(o, "b%s", cc_names[op->x]);
		else
			emit(o, "bcc%u", op->x);
		emit(o, "%s r%u, ", op->flags & HXU_F_W32 ? ".w" : "", op->rs);
		if (op->opcode == HXU_OP_BR)
			emit(o, "r%u", op->rt);
		else
			emit_imm(o, (int32_t)op->ext);
		emit(o, ", @%u", (uint32_t)op->imm);
		return;
	case HXU_OP_JMP:
	case HXU_OP_CALL:
		emit(o, "%s @%u", control_names[op->opcode - HXU_OP_BR], (uint32_t)op->imm);
		return;
	case HXU_OP_TCALL:
		emit(o, "tcall %u, r%u", op->x, op->rs);
		return;
	case HXU_OP_LCHK:
		emit(o, "lchk ");
		if (op->flags & HXU_F_LCHK_REG)
			emit_mem(o, op->rs, (int32_t)op->ext);
		else
			emit_imm(o, (int32_t)op->ext);
		emit(o, ", @%u", (uint32_t)op->imm);
		return;
	default:
		emit(o, "%s", control_names[op->opcode - HXU_OP_BR]);
	}
}

static const char *space_name(unsigned int space)
{
	return space < HXU_SPACE__MAX ? space_names[space] : "space3";
}

static void disasm_unit(struct out *o, const struct hxu_op *op)
{
	const char *name = unit_names[op->opcode - HXU_OP_TLOOKUP];
	uint32_t imm = (uint32_t)op->imm;

	switch (op->opcode) {
	case HXU_OP_TLOOKUP:
	case HXU_OP_TDELETE:
		emit(o, "%s.%s r%u, %u, r%u", name, space_name(op->flags & 3), op->rd, op->x,
		     op->rs);
		return;
	case HXU_OP_TINDEX:
		emit(o, "tindex r%u, %u, r%u", op->rd, op->x, op->rs);
		return;
	case HXU_OP_TLOOKUPR:
	case HXU_OP_TDELETER:
		emit(o, "%s.%s r%u, %u[r%u], r%u", name, space_name(op->flags & 3), op->rd, op->x,
		     op->rt, op->rs);
		return;
	case HXU_OP_TUPDATER:
		emit(o, "tupdater.%s.%s r%u, %u[r%u], r%u, r%u, %u", space_name(op->flags & 3),
		     space_name((imm >> HXU_TUPDATE_VSPACE_SHIFT) & 3), op->rd, op->x,
		     hxu_handle_reg(op), op->rs, op->rt, imm & HXU_TUPDATE_FLAGS_MASK);
		return;
	case HXU_OP_TUPDATE:
		emit(o, "tupdate.%s.%s r%u, %u, r%u, r%u, %u", space_name(op->flags & 3),
		     space_name((imm >> HXU_TUPDATE_VSPACE_SHIFT) & 3), op->rd, op->x, op->rs,
		     op->rt, imm & HXU_TUPDATE_FLAGS_MASK);
		return;
	case HXU_OP_REDIR:
		emit(o, "redir r%u, %u, r%u, ", op->rd, op->x, op->rs);
		if (op->imm == HXU_REDIR_FLAGS_RT)
			emit(o, "r%u", op->rt);
		else
			emit_imm(o, op->imm);
		return;
	case HXU_OP_HADJ:
	case HXU_OP_MADJ:
	case HXU_OP_TADJ:
		emit(o, "%s r%u, r%u", name, op->rd, op->rs);
		return;
	case HXU_OP_CSUM16:
		emit(o, "csum16 ");
		emit_mem(o, op->rs, op->imm);
		emit(o, ", r%u", op->rt);
		return;
	case HXU_OP_ESP:
	case HXU_OP_REDIRIF:
		emit(o, "%s r%u, r%u, r%u", name, op->rd, op->rs, op->rt);
		return;
	case HXU_OP_CSUMD:
		emit(o, "csumd.%s.%s r%u", space_name(op->x & 3),
		     space_name(op->x >> HXU_CSUMD_TO_SHIFT), op->rd);
		return;
	case HXU_OP_PUNT:
		emit(o, "punt %u", imm);
		return;
	case HXU_OP_CTX:
		if (op->x < HXU_CTX__MAX)
			emit(o, "ctx r%u, %s", op->rd, ctx_names[op->x]);
		else
			emit(o, "ctx r%u, %u", op->rd, op->x);
		return;
	case HXU_OP_TIME: /* the monotonic clock, bpf_ktime_get_ns's, unnamed */
		if (!op->x)
			emit(o, "time r%u", op->rd);
		else if (op->x < HXU_CLOCK__MAX)
			emit(o, "time r%u, %s", op->rd, clock_names[op->x]);
		else
			emit(o, "time r%u, %u", op->rd, op->x);
		return;
	default:
		emit(o, "%s r%u", name, op->rd);
	}
}

unsigned int hxu_disasm_op(const uint64_t *words, uint32_t avail, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };
	struct hxu_op op;
	unsigned int n;

	if (len)
		buf[0] = '\0';
	if (!avail)
		return 0;
	hxu_decode(words[0], &op);
	n = hxu_op_words(op.opcode);
	if (n == 2) {
		if (avail < 2)
			return 0;
		op.ext = (uint32_t)words[1];
	}
	switch (hxu_opcode_class(op.opcode)) {
	case HXU_CLASS_A:
		disasm_alu(&o, &op);
		break;
	case HXU_CLASS_M:
		disasm_mem(&o, &op);
		break;
	case HXU_CLASS_C:
		disasm_control(&o, &op);
		break;
	case HXU_CLASS_U:
		disasm_unit(&o, &op);
		break;
	default:
		emit(&o, ".word 0x%016llx", (unsigned long long)words[0]);
		return 1;
	}
	return n;
}

char *hxu_disasm(const uint64_t *words, uint32_t cnt)
{
	size_t cap = 64 + (size_t)cnt * 72, used = 0;
	char *text = malloc(cap), line[128];
	uint32_t i = 0;
	unsigned int n;

	if (!text) {
		errno = ENOMEM;
		return NULL;
	}
	text[0] = '\0';
	while (i < cnt) {
		n = hxu_disasm_op(words + i, cnt - i, line, sizeof(line));
		if (!n) {
			snprintf(line, sizeof(line), ".word 0x%016llx",
				 (unsigned long long)words[i]);
			n = 1;
		}
		used += (size_t)snprintf(text + used, cap - used, "%5u: %s%s\n", i, line,
					 words[i] & HXU_END_BIT ? " ;;" : "");
		i += n;
	}
	return text;
}

/* ---- assembler ---- */

struct pending {
	struct hxu_op op;
	char target[HXU_NAME_MAX]; /* label to resolve into imm, or "" */
	unsigned int line;
};

struct assembler {
	const char *p; /* cursor in the current line */
	unsigned int line;
	char *err;
	size_t errlen;
	bool failed;
	struct pending *ops;
	uint32_t op_cnt, op_cap;
	uint32_t words; /* words so far */
	struct hxu_label *labels;
	uint32_t label_cnt, label_cap;
	bool bundle_open; /* the last operation has not ended its bundle */
};

__attribute__((format(printf, 2, 3))) static int fail(struct assembler *as, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (as->failed)
		return -EINVAL;
	as->failed = true;
	if (as->errlen) {
		n = snprintf(as->err, as->errlen, "line %u: ", as->line);
		if (n < 0 || (size_t)n >= as->errlen)
			return -EINVAL;
		va_start(ap, fmt);
		vsnprintf(as->err + n, as->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static void skip_blanks(struct assembler *as)
{
	while (*as->p == ' ' || *as->p == '\t')
		as->p++;
}

static bool accept(struct assembler *as, char c)
{
	skip_blanks(as);
	if (*as->p != c)
		return false;
	as->p++;
	return true;
}

static int expect(struct assembler *as, char c)
{
	if (!accept(as, c))
		return fail(as, "expected '%c' at \"%.20s\"", c, as->p);
	return 0;
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.';
}

static size_t read_word(struct assembler *as, char *buf, size_t len)
{
	size_t n = 0;

	skip_blanks(as);
	while (is_ident(as->p[n]))
		n++;
	if (!n || n >= len)
		return 0;
	memcpy(buf, as->p, n);
	buf[n] = '\0';
	as->p += n;
	return n;
}

static int parse_reg(struct assembler *as, uint8_t *reg)
{
	unsigned long n;
	char *end;

	skip_blanks(as);
	if (as->p[0] != 'r' || !isdigit((unsigned char)as->p[1]))
		return fail(as, "expected a register at \"%.20s\"", as->p);
	n = strtoul(as->p + 1, &end, 10);
	if (n >= HXU_REGS || is_ident(*end))
		return fail(as, "no register %.*s (r0..r15)", (int)(end - as->p), as->p);
	*reg = (uint8_t)n;
	as->p = end;
	return 0;
}

static bool at_reg(struct assembler *as)
{
	skip_blanks(as);
	return as->p[0] == 'r' && isdigit((unsigned char)as->p[1]);
}

/* A number: optional '-', decimal or 0x hex; *neg tells the sign. */
static int parse_number(struct assembler *as, uint64_t *mag, bool *neg)
{
	const char *s;
	char *end;
	int base = 10;

	skip_blanks(as);
	s = as->p;
	*neg = false;
	if (*s == '-' || *s == '+') {
		*neg = *s == '-';
		s++;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!isxdigit((unsigned char)*s) || (base == 10 && !isdigit((unsigned char)*s)))
		return fail(as, "expected a number at \"%.20s\"", as->p);
	errno = 0;
	*mag = strtoull(s, &end, base);
	if (errno || is_ident(*end))
		return fail(as, "bad number \"%.*s\"", (int)(end - as->p) + 1, as->p);
	as->p = end;
	return 0;
}

/* A 32-bit pattern: -2^31 .. 2^32-1. */
static int parse_imm32(struct assembler *as, int32_t *imm)
{
	uint64_t mag;
	bool neg;

	if (parse_number(as, &mag, &neg))
		return -EINVAL;
	if (neg ? mag > 0x80000000ull : mag > 0xffffffffull)
		return fail(as, "immediate does not fit in 32 bits");
	*imm = neg ? (int32_t)(uint32_t)(0u - (uint32_t)mag) : (int32_t)(uint32_t)mag;
	return 0;
}

static int parse_u8(struct assembler *as, uint8_t *v, const char *what)
{
	uint64_t mag;
	bool neg;

	if (parse_number(as, &mag, &neg))
		return -EINVAL;
	if (neg || mag > 255)
		return fail(as, "%s must be 0..255", what);
	*v = (uint8_t)mag;
	return 0;
}

/* [rs + off], [rs - off], [rs] */
static int parse_mem(struct assembler *as, uint8_t *rs, int32_t *off)
{
	uint64_t mag;
	bool neg, minus;

	if (expect(as, '[') || parse_reg(as, rs))
		return -EINVAL;
	*off = 0;
	skip_blanks(as);
	if (*as->p == '+' || *as->p == '-') {
		minus = *as->p == '-';
		as->p++;
		if (parse_number(as, &mag, &neg))
			return -EINVAL;
		if (neg)
			minus = !minus;
		if (minus ? mag > 0x80000000ull : mag > 0x7fffffffull)
			return fail(as, "offset does not fit in 32 bits");
		*off = minus ? (int32_t)(0u - (uint32_t)mag) : (int32_t)mag;
	}
	return expect(as, ']');
}

static int parse_target(struct assembler *as, struct pending *pd)
{
	uint64_t mag;
	bool neg;

	skip_blanks(as);
	if (*as->p == '@') {
		as->p++;
		if (parse_number(as, &mag, &neg))
			return -EINVAL;
		if (neg || mag >= HXU_STORE_WORDS)
			return fail(as, "target @%llu beyond the microcode store",
				    (unsigned long long)mag);
		pd->op.imm = (int32_t)mag;
		return 0;
	}
	if (!read_word(as, pd->target, sizeof(pd->target)) || isdigit((unsigned char)pd->target[0]))
		return fail(as, "expected a label or @N at \"%.20s\"", as->p);
	return 0;
}

static int lookup_name(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], name))
			return (int)i;
	return -1;
}

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Mnemonic split at dots: the base and up to 3 suffixes. */
struct mnemonic {
	char base[32];
	char suffix[3][16];
	int suffixes;
};

static int split_mnemonic(struct assembler *as, const char *word, struct mnemonic *m)
{
	const char *dot = strchr(word, '.'), *next;
	size_t n = dot ? (size_t)(dot - word) : strlen(word);

	memset(m, 0, sizeof(*m));
	if (!n || n >= sizeof(m->base))
		return fail(as, "unknown operation \"%s\"", word);
	memcpy(m->base, word, n);
	while (dot) {
		next = strchr(dot + 1, '.');
		n = next ? (size_t)(next - dot - 1) : strlen(dot + 1);
		if (m->suffixes == 3 || !n || n >= sizeof(m->suffix[0]))
			return fail(as, "bad suffixes in \"%s\"", word);
		memcpy(m->suffix[m->suffixes++], dot + 1, n);
		dot = next;
	}
	return 0;
}

/* Takes suffix s out of m when present. */
static bool take_suffix(struct mnemonic *m, const char *s)
{
	for (int i = 0; i < m->suffixes; i++) {
		if (strcmp(m->suffix[i], s))
			continue;
		for (int j = i; j + 1 < m->suffixes; j++)
			memcpy(m->suffix[j], m->suffix[j + 1], sizeof(m->suffix[0]));
		m->suffixes--;
		return true;
	}
	return false;
}

/* The last suffix as a space, taken out. */
static int take_space(struct assembler *as, struct mnemonic *m, const char *word)
{
	int space;

	if (!m->suffixes)
		return fail(as, "\"%s\" needs a space suffix (.pkt, .lm, .tm)", word);
	space = lookup_name(space_names, HXU_SPACE__MAX, m->suffix[m->suffixes - 1]);
	if (space < 0)
		return fail(as, "\"%s\": .%s is not a space (.pkt, .lm, .tm)", word,
			    m->suffix[m->suffixes - 1]);
	m->suffixes--;
	return space;
}

static int no_more_suffixes(struct assembler *as, const struct mnemonic *m, const char *word)
{
	if (m->suffixes)
		return fail(as, "\"%s\": unexpected suffix .%s", word, m->suffix[0]);
	return 0;
}

/* "8", "16", "32", "64" after a prefix: the size in bytes, or 0. */
static uint32_t size_of(const char *digits)
{
	if (!strcmp(digits, "8"))
		return 1;
	if (!strcmp(digits, "16"))
		return 2;
	if (!strcmp(digits, "32"))
		return 4;
	if (!strcmp(digits, "64"))
		return 8;
	return 0;
}

static int parse_alu(struct assembler *as, struct pending *pd, struct mnemonic *m, const char *word,
		     int opcode)
{
	struct hxu_op *op = &pd->op;
	bool w = take_suffix(m, "w");
	uint64_t mag;
	bool neg;

	if (no_more_suffixes(as, m, word))
		return -EINVAL;
	op->opcode = (uint8_t)opcode;
	op->flags = w ? HXU_F_W32 : 0;
	if (parse_reg(as, &op->rd) || expect(as, ','))
		return -EINVAL;
	switch (opcode) {
	case HXU_OP_MOVI:
		if (w)
			return fail(as, "movi has no .w form");
		if (parse_number(as, &mag, &neg))
			return -EINVAL;
		if (neg && mag > 0x8000000000000000ull)
			return fail(as, "immediate does not fit in 64 bits");
		if (neg)
			mag = 0 - mag;
		op->imm = (int32_t)(uint32_t)mag;
		op->ext = (uint32_t)(mag >> 32);
		return 0;
	case HXU_OP_MOV:
		if (at_reg(as))
			return parse_reg(as, &op->rs);
		op->flags |= HXU_F_K;
		return parse_imm32(as, &op->imm);
	case HXU_OP_NEG:
	case HXU_OP_MOVSX8:
	case HXU_OP_MOVSX16:
	case HXU_OP_MOVSX32:
	case HXU_OP_BSWAP16:
	case HXU_OP_BSWAP32:
	case HXU_OP_BSWAP64:
	case HXU_OP_ZEXT16:
	case HXU_OP_ZEXT32:
		return parse_reg(as, &op->rs);
	}
	if (parse_reg(as, &op->rs) || expect(as, ','))
		return -EINVAL;
	if (at_reg(as))
		return parse_reg(as, &op->rt);
	op->flags |= HXU_F_K;
	return parse_imm32(as, &op->imm);
}

static int parse_ld_st(struct assembler *as, struct pending *pd, struct mnemonic *m,
		       const char *word, bool store)
{
	struct hxu_op *op = &pd->op;
	uint32_t size = size_of(m->base + 2);
	bool be, sx;
	int space;

	if (!size)
		return fail(as, "unknown operation \"%s\"", word);
	space = take_space(as, m, word);
	if (space < 0)
		return -EINVAL;
	be = take_suffix(m, "be");
	sx = !store && take_suffix(m, "sx");
	if (no_more_suffixes(as, m, word))
		return -EINVAL;
	op->flags = hxu_mem_flags(size, be);
	if (!store) {
		op->opcode = (uint8_t)((sx ? HXU_OP_LDSX : HXU_OP_LD) + space);
		if (parse_reg(as, &op->rd) || expect(as, ','))
			return -EINVAL;
		return parse_mem(as, &op->rs, &op->imm);
	}
	if (parse_mem(as, &op->rs, &op->imm) || expect(as, ','))
		return -EINVAL;
	if (at_reg(as)) {
		op->opcode = (uint8_t)(HXU_OP_ST + space);
		return parse_reg(as, &op->rt);
	}
	op->opcode = (uint8_t)(HXU_OP_STI + space);
	return parse_imm32(as, (int32_t *)&op->ext);
}

static int parse_atomic(struct assembler *as, struct pending *pd, struct mnemonic *m,
			const char *word)
{
	struct hxu_op *op = &pd->op;
	const char *rest = m->base + 6;
	uint32_t size = 0;
	int aop = -1, space;
	bool fetch;

	for (int i = 0; i < HXU_ATOMIC__MAX; i++) {
		size_t n = strlen(atomic_names[i]);

		if (!strncmp(rest, atomic_names[i], n) && (size = size_of(rest + n))) {
			aop = i;
			break;
		}
	}
	if (aop < 0)
		return fail(as, "unknown operation \"%s\"", word);
	space = take_space(as, m, word);
	if (space < 0)
		return -EINVAL;
	fetch = take_suffix(m, "fetch");
	if (no_more_suffixes(as, m, word))
		return -EINVAL;
	if (fetch && aop >= HXU_ATOMIC_XCHG)
		return fail(as, "%s always fetches: no .fetch", atomic_names[aop]);
	if (aop >= HXU_ATOMIC_XCHG)
		fetch = true;
	op->opcode = (uint8_t)(HXU_OP_ATOMIC + space);
	op->flags = hxu_mem_flags(size, fetch);
	op->x = (uint8_t)aop;
	if (fetch && (parse_reg(as, &op->rd) || expect(as, ',')))
		return -EINVAL;
	if (parse_mem(as, &op->rs, &op->imm) || expect(as, ','))
		return -EINVAL;
	return parse_reg(as, &op->rt);
}

static int parse_branch(struct assembler *as, struct pending *pd, struct mnemonic *m,
			const char *word, int cc)
{
	struct hxu_op *op = &pd->op;
	bool w = take_suffix(m, "w");

	if (no_more_suffixes(as, m, word))
		return -EINVAL;
	op->x = (uint8_t)cc;
	op->flags = w ? HXU_F_W32 : 0;
	if (parse_reg(as, &op->rs) || expect(as, ','))
		return -EINVAL;
	if (at_reg(as)) {
		op->opcode = HXU_OP_BR;
		if (parse_reg(as, &op->rt))
			return -EINVAL;
	} else {
		op->opcode = HXU_OP_BRI;
		if (parse_imm32(as, (int32_t *)&op->ext))
			return -EINVAL;
	}
	if (expect(as, ','))
		return -EINVAL;
	return parse_target(as, pd);
}

static int parse_space_suffix(struct assembler *as, struct mnemonic *m, const char *word,
			      uint8_t *flags)
{
	int space = take_space(as, m, word);

	if (space < 0 || no_more_suffixes(as, m, word))
		return -EINVAL;
	*flags = (uint8_t)space;
	return 0;
}

static int parse_table(struct assembler *as, uint8_t *x)
{
	return parse_u8(as, x, "a table id");
}

static int parse_unit(struct assembler *as, struct pending *pd, struct mnemonic *m,
		      const char *word, int opcode)
{
	struct hxu_op *op = &pd->op;
	char name[32];
	int32_t flags;
	int vspace = 0, field;

	op->opcode = (uint8_t)opcode;
	switch (opcode) {
	case HXU_OP_TLOOKUP:
	case HXU_OP_TDELETE:
	case HXU_OP_TLOOKUPR:
	case HXU_OP_TDELETER:
		if (parse_space_suffix(as, m, word, &op->flags))
			return -EINVAL;
		break;
	case HXU_OP_TUPDATE:
	case HXU_OP_TUPDATER:
		vspace = take_space(as, m, word);
		if (vspace < 0 || parse_space_suffix(as, m, word, &op->flags))
			return -EINVAL;
		break;
	case HXU_OP_CSUMD:
		/* csumd.FROM.TO: the spaces of r1's and r3's buffers */
		vspace = take_space(as, m, word);
		if (vspace < 0 || parse_space_suffix(as, m, word, &op->x))
			return -EINVAL;
		op->x = (uint8_t)(op->x | vspace << HXU_CSUMD_TO_SHIFT);
		break;
	case HXU_OP_CSUM16:
		if (m->suffixes == 1 && !strcmp(m->suffix[0], "pkt"))
			m->suffixes = 0;
		/* fall through */
	default:
		if (no_more_suffixes(as, m, word))
			return -EINVAL;
	}

	switch (opcode) {
	case HXU_OP_TLOOKUP:
	case HXU_OP_TINDEX:
	case HXU_OP_TDELETE:
		return parse_reg(as, &op->rd) || expect(as, ',') || parse_table(as, &op->x) ||
				       expect(as, ',') || parse_reg(as, &op->rs)
			       ? -EINVAL
			       : 0;
	case HXU_OP_TUPDATE:
		if (parse_reg(as, &op->rd) || expect(as, ',') || parse_table(as, &op->x) ||
		    expect(as, ',') || parse_reg(as, &op->rs) || expect(as, ',') ||
		    parse_reg(as, &op->rt) || expect(as, ',') || parse_imm32(as, &flags))
			return -EINVAL;
		if ((uint32_t)flags > HXU_TUPDATE_FLAGS_MASK)
			return fail(as, "tupdate flags must be 0..65535");
		op->imm = (int32_t)((uint32_t)flags | (uint32_t)vspace << HXU_TUPDATE_VSPACE_SHIFT);
		return 0;
	case HXU_OP_TLOOKUPR:
	case HXU_OP_TDELETER:
		/* tlookupr.S rd, T[rH], rs: T's template, the handle in rH */
		return parse_reg(as, &op->rd) || expect(as, ',') || parse_table(as, &op->x) ||
				       expect(as, '[') || parse_reg(as, &op->rt) ||
				       expect(as, ']') || expect(as, ',') || parse_reg(as, &op->rs)
			       ? -EINVAL
			       : 0;
	case HXU_OP_TUPDATER: {
		uint8_t handle;

		if (parse_reg(as, &op->rd) || expect(as, ',') || parse_table(as, &op->x) ||
		    expect(as, '[') || parse_reg(as, &handle) || expect(as, ']') ||
		    expect(as, ',') || parse_reg(as, &op->rs) || expect(as, ',') ||
		    parse_reg(as, &op->rt) || expect(as, ',') || parse_imm32(as, &flags))
			return -EINVAL;
		if ((uint32_t)flags > HXU_TUPDATE_FLAGS_MASK)
			return fail(as, "tupdater flags must be 0..65535");
		op->imm = (int32_t)((uint32_t)flags | (uint32_t)vspace << HXU_TUPDATE_VSPACE_SHIFT |
				    (uint32_t)handle << HXU_TUPDATER_REG_SHIFT);
		return 0;
	}
	case HXU_OP_REDIR:
		if (parse_reg(as, &op->rd) || expect(as, ',') || parse_table(as, &op->x) ||
		    expect(as, ',') || parse_reg(as, &op->rs) || expect(as, ','))
			return -EINVAL;
		/* flags a register: read at run time */
		if (at_reg(as)) {
			op->imm = HXU_REDIR_FLAGS_RT;
			return parse_reg(as, &op->rt);
		}
		if (parse_imm32(as, &op->imm))
			return -EINVAL;
		if (op->imm == HXU_REDIR_FLAGS_RT)
			return fail(as, "redir flags %d: write the register instead", op->imm);
		return 0;
	case HXU_OP_HADJ:
	case HXU_OP_MADJ:
	case HXU_OP_TADJ:
		return parse_reg(as, &op->rd) || expect(as, ',') || parse_reg(as, &op->rs) ? -EINVAL
											   : 0;
	case HXU_OP_CSUM16:
		return parse_mem(as, &op->rs, &op->imm) || expect(as, ',') || parse_reg(as, &op->rt)
			       ? -EINVAL
			       : 0;
	case HXU_OP_ESP:
	case HXU_OP_REDIRIF:
		return parse_reg(as, &op->rd) || expect(as, ',') || parse_reg(as, &op->rs) ||
				       expect(as, ',') || parse_reg(as, &op->rt)
			       ? -EINVAL
			       : 0;
	case HXU_OP_PUNT:
		return parse_imm32(as, &op->imm);
	case HXU_OP_CTX:
		if (parse_reg(as, &op->rd) || expect(as, ','))
			return -EINVAL;
		if (!read_word(as, name, sizeof(name)))
			return fail(as, "expected a ctx field at \"%.20s\"", as->p);
		field = lookup_name(ctx_names, HXU_CTX__MAX, name);
		if (field < 0)
			return fail(as, "no ctx field \"%s\"", name);
		op->x = (uint8_t)field;
		return 0;
	case HXU_OP_TIME:
		if (parse_reg(as, &op->rd))
			return -EINVAL;
		if (!accept(as, ','))
			return 0;
		if (!read_word(as, name, sizeof(name)))
			return fail(as, "expected a clock at \"%.20s\"", as->p);
		field = lookup_name(clock_names, HXU_CLOCK__MAX, name);
		if (field < 0)
			return fail(as, "no clock \"%s\" (mono, boot, coarse, tai)", name);
		op->x = (uint8_t)field;
		return 0;
	default: /* rand, cpu, csumd */
		return parse_reg(as, &op->rd);
	}
}

static int parse_control(struct assembler *as, struct pending *pd, struct mnemonic *m,
			 const char *word, int opcode)
{
	struct hxu_op *op = &pd->op;

	if (no_more_suffixes(as, m, word))
		return -EINVAL;
	op->opcode = (uint8_t)opcode;
	switch (opcode) {
	case HXU_OP_JMP:
	case HXU_OP_CALL:
		return parse_target(as, pd);
	case HXU_OP_TCALL:
		return parse_table(as, &op->x) || expect(as, ',') || parse_reg(as, &op->rs)
			       ? -EINVAL
			       : 0;
	case HXU_OP_LCHK:
		skip_blanks(as);
		if (*as->p == '[') {
			op->flags = HXU_F_LCHK_REG;
			if (parse_mem(as, &op->rs, (int32_t *)&op->ext))
				return -EINVAL;
		} else if (parse_imm32(as, (int32_t *)&op->ext)) {
			return -EINVAL;
		}
		if (expect(as, ','))
			return -EINVAL;
		return parse_target(as, pd);
	}
	return 0; /* ret, exit */
}

static int parse_op(struct assembler *as, struct pending *pd)
{
	char word[48];
	struct mnemonic m;
	int i;

	if (!read_word(as, word, sizeof(word)))
		return fail(as, "expected an operation at \"%.20s\"", as->p);
	if (split_mnemonic(as, word, &m))
		return -EINVAL;

	i = lookup_name(alu_names, ARRAY_LEN(alu_names), m.base);
	if (i > 0)
		return parse_alu(as, pd, &m, word, i);
	if (!strncmp(m.base, "ld", 2))
		return parse_ld_st(as, pd, &m, word, false);
	if (!strncmp(m.base, "st", 2))
		return parse_ld_st(as, pd, &m, word, true);
	if (!strncmp(m.base, "atomic", 6))
		return parse_atomic(as, pd, &m, word);
	i = lookup_name(control_names, ARRAY_LEN(control_names), m.base);
	if (i >= 0)
		return parse_control(as, pd, &m, word, HXU_OP_BR + i);
	if (m.base[0] == 'b') {
		i = lookup_name(cc_names, HXU_CC__MAX, m.base + 1);
		if (i >= 0)
			return parse_branch(as, pd, &m, word, i);
	}
	i = lookup_name(unit_names, ARRAY_LEN(unit_names), m.base);
	if (i >= 0)
		return parse_unit(as, pd, &m, word, HXU_OP_TLOOKUP + i);
	return fail(as, "unknown operation \"%s\"", word);
}

static int grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
	void *p;
	uint32_t n;

	if (need <= *cap)
		return 0;
	n = *cap ? *cap * 2 : 64;
	while (n < need)
		n *= 2;
	p = realloc(*arr, (size_t)n * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

static int add_label(struct assembler *as, const char *name, size_t n)
{
	struct hxu_label *l;

	if (n >= HXU_NAME_MAX)
		return fail(as, "label too long");
	for (uint32_t i = 0; i < as->label_cnt; i++)
		if (strlen(as->labels[i].name) == n && !strncmp(as->labels[i].name, name, n))
			return fail(as, "label \"%.*s\" defined twice", (int)n, name);
	if (as->bundle_open)
		return fail(as, "label \"%.*s\" inside a bundle: end the bundle with ;; first",
			    (int)n, name);
	if (grow((void **)&as->labels, &as->label_cap, as->label_cnt + 1, sizeof(*as->labels)))
		return -ENOMEM;
	l = &as->labels[as->label_cnt++];
	memset(l, 0, sizeof(*l));
	memcpy(l->name, name, n);
	l->op = as->words;
	return 0;
}

/* Strips a comment and trailing blanks; returns the line's length. */
static size_t clean_line(const char *line, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (line[i] == '#' || (line[i] == '/' && i + 1 < n && line[i + 1] == '/')) {
			n = i;
			break;
		}
	}
	while (n && isspace((unsigned char)line[n - 1]))
		n--;
	return n;
}

static int assemble_line(struct assembler *as, char *line)
{
	struct pending *pd;
	bool ends = false;
	size_t n = strlen(line), id;
	char *colon;
	int err;

	if (n >= 2 && line[n - 2] == ';' && line[n - 1] == ';') {
		ends = true;
		line[n - 2] = '\0';
		n = clean_line(line, n - 2);
		line[n] = '\0';
	}
	as->p = line;
	skip_blanks(as);

	/* "name:" or "N:" before an operation. */
	id = 0;
	while (is_ident(as->p[id]) && as->p[id] != '.')
		id++;
	colon = (char *)as->p + id;
	if (id && *colon == ':') {
		if (isdigit((unsigned char)as->p[0])) {
			unsigned long idx = strtoul(as->p, NULL, 10);

			if (idx != as->words)
				return fail(as, "index %lu, but this operation is %u", idx,
					    as->words);
		} else {
			err = add_label(as, as->p, id);
			if (err)
				return err;
		}
		as->p = colon + 1;
		skip_blanks(as);
	}

	if (!*as->p) {
		if (ends) {
			if (!as->op_cnt)
				return fail(as, ";; before any operation");
			as->ops[as->op_cnt - 1].op.end = true;
			as->bundle_open = false;
		}
		return 0;
	}

	if (grow((void **)&as->ops, &as->op_cap, as->op_cnt + 1, sizeof(*as->ops)))
		return -ENOMEM;
	pd = &as->ops[as->op_cnt];
	memset(pd, 0, sizeof(*pd));
	pd->line = as->line;
	err = parse_op(as, pd);
	if (err)
		return err;
	skip_blanks(as);
	if (*as->p)
		return fail(as, "unexpected \"%.20s\"", as->p);
	pd->op.end = ends;
	as->bundle_open = !ends;
	as->op_cnt++;
	as->words += hxu_op_words(pd->op.opcode);
	if (as->words > HXU_STORE_WORDS)
		return fail(as, "more than %u operation words", HXU_STORE_WORDS);
	return 0;
}

static int resolve(struct assembler *as, struct pending *pd)
{
	for (uint32_t i = 0; i < as->label_cnt; i++) {
		if (!strcmp(as->labels[i].name, pd->target)) {
			pd->op.imm = (int32_t)as->labels[i].op;
			return 0;
		}
	}
	as->line = pd->line;
	return fail(as, "no label \"%s\"", pd->target);
}

int hxu_asm(const char *text, struct hxu_asm_out *out, char *err, size_t errlen)
{
	struct assembler as = { .err = err, .errlen = errlen };
	const char *p = text, *eol;
	char line[512];
	uint64_t *words = NULL;
	uint32_t w = 0;
	size_t n;
	int ret = 0;

	if (errlen)
		err[0] = '\0';
	while (*p && !ret) {
		eol = strchr(p, '\n');
		n = eol ? (size_t)(eol - p) : strlen(p);
		as.line++;
		if (n >= sizeof(line)) {
			ret = fail(&as, "line longer than %zu characters", sizeof(line) - 1);
			break;
		}
		n = clean_line(p, n);
		memcpy(line, p, n);
		line[n] = '\0';
		ret = assemble_line(&as, line);
		p = eol ? eol + 1 : p + strlen(p);
	}
	if (!ret && as.op_cnt)
		as.ops[as.op_cnt - 1].op.end = true;
	for (uint32_t i = 0; i < as.op_cnt && !ret; i++)
		if (as.ops[i].target[0])
			ret = resolve(&as, &as.ops[i]);
	if (!ret && as.words) {
		words = calloc(as.words, sizeof(*words));
		if (!words)
			ret = -ENOMEM;
	}
	for (uint32_t i = 0; i < as.op_cnt && !ret; i++)
		w += hxu_encode(&as.ops[i].op, words + w);
	free(as.ops);
	if (ret) {
		free(words);
		free(as.labels);
		return ret;
	}
	out->words = words;
	out->word_cnt = as.words;
	out->labels = as.labels;
	out->label_cnt = as.label_cnt;
	return 0;
}

void hxu_asm_out__free(struct hxu_asm_out *out)
{
	if (!out)
		return;
	free(out->words);
	free(out->labels);
	memset(out, 0, sizeof(*out));
}

int64_t hxu_asm_out__label(const struct hxu_asm_out *out, const char *name)
{
	for (uint32_t i = 0; i < out->label_cnt; i++)
		if (!strcmp(out->labels[i].name, name))
			return out->labels[i].op;
	return -1;
}
