// SPDX-License-Identifier: GPL-2.0
/*
 * The reverse of verifier/disasm.c. Each instruction form is a pattern written
 * the way the disassembler prints it, so the two cannot drift apart; a line is
 * tried against every pattern until one consumes all of it. A bad register,
 * size or number is an error at once; anything else that fits no pattern is
 * reported where the pattern that read furthest stopped.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verifier/asm.h"
#include "verifier/disasm.h"

#define NAME_MAX_LEN 64

enum {
	F_WIDTH = 1,  /* w registers select BPF_ALU / BPF_JMP32 */
	F_LD64 = 2,   /* two slots; the second carries next */
	F_ATOMIC = 4, /* read-modify-write: u32 or u64 only */
};

/*
 * Pattern language: a blank matches any run of blanks; %d and %s are dst_reg
 * and src_reg (a second mention must name the same register); %z a size u8..u64,
 * %Z also s8..s32 (sign-extending load); %o an optional offset; %i imm; %n the
 * second slot's imm; %q a 64-bit immediate; %a an ALU operator; %j a jump
 * condition; %l a lock operator; %f an atomic fetch operation; %b a byte-swap
 * width; %x a sign-extension cast; %A an address-space pair; %t and %T a jump
 * target into off and imm; %c a call target.
 */
static const struct form {
	const char *pattern;
	uint8_t code, flags, src;
	int16_t off;
	int32_t imm;
} forms[] = {
	{ "exit", BPF_JMP | BPF_EXIT },
	{ "nospec", BPF_ST | HWXDP_BPF_NOSPEC },
	{ "goto %t", BPF_JMP | BPF_JA },
	{ "gotol %T", BPF_JMP32 | BPF_JA },
	{ "may_goto %t", BPF_JMP | BPF_JCOND, 0, BPF_MAY_GOTO },
	{ "call %c", BPF_JMP | BPF_CALL },
	{ "if %d %j %s goto %t", BPF_JMP | BPF_X, F_WIDTH },
	{ "if %d %j %i goto %t", BPF_JMP | BPF_K, F_WIDTH },
	{ "%d = -%d", BPF_ALU64 | BPF_NEG, F_WIDTH },
	{ "%d = %x%s", BPF_ALU64 | BPF_MOV | BPF_X, F_WIDTH },
	{ "%d = &(void __percpu *)(%s)", BPF_ALU64 | BPF_MOV | BPF_X, 0, 0, HWXDP_BPF_ADDR_PERCPU },
	{ "%d = addr_space_cast(%s, %A)", BPF_ALU64 | BPF_MOV | BPF_X, 0, 0, BPF_ADDR_SPACE_CAST },
	{ "%d = %q", BPF_LD | BPF_IMM | BPF_DW, F_LD64 },
	{ "%d %a %s", BPF_ALU64 | BPF_X, F_WIDTH },
	{ "%d %a %i", BPF_ALU64 | BPF_K, F_WIDTH },
	{ "%d = be%b %d", BPF_ALU | BPF_END | BPF_TO_BE },
	{ "%d = le%b %d", BPF_ALU | BPF_END | BPF_TO_LE },
	{ "%d = bswap%b %d", BPF_ALU64 | BPF_END | BPF_TO_LE },
	{ "%d = *(%Z *)(%s %o)", BPF_LDX },
	{ "r0 = *(%z *)skb[%i]", BPF_LD | BPF_ABS },
	{ "r0 = *(%z *)skb[%s + %i]", BPF_LD | BPF_IND },
	{ "*(%z *)(%d %o) = %s", BPF_STX | BPF_MEM },
	{ "*(%z *)(%d %o) = %i", BPF_ST | BPF_MEM },
	{ "lock *(%z *)(%d %o) %l %s", BPF_STX | BPF_ATOMIC, F_ATOMIC },
	{ "%s = atomic64_fetch_%f((u64 *)(%d %o), %s)", BPF_STX | BPF_ATOMIC | BPF_DW },
	{ "%s = atomic_fetch_%f((u32 *)(%d %o), %s)", BPF_STX | BPF_ATOMIC | BPF_W },
	{ "%s = atomic64_xchg((u64 *)(%d %o), %s)", BPF_STX | BPF_ATOMIC | BPF_DW, 0, 0, 0,
	  BPF_XCHG },
	{ "%s = atomic_xchg((u32 *)(%d %o), %s)", BPF_STX | BPF_ATOMIC | BPF_W, 0, 0, 0, BPF_XCHG },
	{ "r0 = atomic64_cmpxchg((u64 *)(%d %o), r0, %s)", BPF_STX | BPF_ATOMIC | BPF_DW, 0, 0, 0,
	  BPF_CMPXCHG },
	{ "r0 = atomic_cmpxchg((u32 *)(%d %o), r0, %s)", BPF_STX | BPF_ATOMIC | BPF_W, 0, 0, 0,
	  BPF_CMPXCHG },
	{ "%d = load_acquire((%z *)(%s %o))", BPF_STX | BPF_ATOMIC, 0, 0, 0, BPF_LOAD_ACQ },
	{ "store_release((%z *)(%d %o), %s)", BPF_STX | BPF_ATOMIC, 0, 0, 0, BPF_STORE_REL },
	{ "%d = map[idx:%i]", BPF_LD | BPF_IMM | BPF_DW, F_LD64, BPF_PSEUDO_MAP_FD },
	{ "%d = map[idx:%i][0]%n", BPF_LD | BPF_IMM | BPF_DW, F_LD64, BPF_PSEUDO_MAP_VALUE },
	{ "%d = map[fd_array:%i]", BPF_LD | BPF_IMM | BPF_DW, F_LD64, BPF_PSEUDO_MAP_IDX },
	{ "%d = map[fd_array:%i][0]%n", BPF_LD | BPF_IMM | BPF_DW, F_LD64,
	  BPF_PSEUDO_MAP_IDX_VALUE },
	{ "%d = ksym[btf_id:%i]", BPF_LD | BPF_IMM | BPF_DW, F_LD64, BPF_PSEUDO_BTF_ID },
	{ "%d = ksym[btf_id:%i,btf_fd:%n]", BPF_LD | BPF_IMM | BPF_DW, F_LD64, BPF_PSEUDO_BTF_ID },
	{ "%d = func[%T]", BPF_LD | BPF_IMM | BPF_DW, F_LD64, BPF_PSEUDO_FUNC },
};

static const struct op {
	const char *text;
	uint8_t code;
	int16_t off;
} alu_ops[] = {
	/* a longer spelling before any shorter one it starts with */
	{ "s>>=", BPF_ARSH }, { "<<=", BPF_LSH }, { ">>=", BPF_RSH }, { "s/=", BPF_DIV, 1 },
	{ "s%=", BPF_MOD, 1 }, { "+=", BPF_ADD },  { "-=", BPF_SUB }, { "*=", BPF_MUL },
	{ "/=", BPF_DIV },     { "|=", BPF_OR },    { "&=", BPF_AND }, { "%=", BPF_MOD },
	{ "^=", BPF_XOR },     { "=", BPF_MOV },    { NULL },
}, jmp_ops[] = {
	{ "s>=", BPF_JSGE }, { "s<=", BPF_JSLE }, { "s>", BPF_JSGT }, { "s<", BPF_JSLT },
	{ "==", BPF_JEQ },   { "!=", BPF_JNE },   { ">=", BPF_JGE },  { "<=", BPF_JLE },
	{ ">", BPF_JGT },    { "<", BPF_JLT },    { "&", BPF_JSET },  { NULL },
}, lock_ops[] = {
	{ "+=", BPF_ADD }, { "&=", BPF_AND }, { "|=", BPF_OR }, { "^=", BPF_XOR }, { NULL },
}, fetch_ops[] = {
	{ "add", BPF_ADD | BPF_FETCH }, { "and", BPF_AND | BPF_FETCH }, { "or", BPF_OR | BPF_FETCH },
	{ "xor", BPF_XOR | BPF_FETCH }, { NULL },
}, sizes[] = {
	{ "u8", BPF_B }, { "u16", BPF_H }, { "u32", BPF_W }, { "u64", BPF_DW },
	{ "s8", BPF_B, 1 }, { "s16", BPF_H, 1 }, { "s32", BPF_W, 1 }, { NULL },
}, casts[] = {
	{ "(s8)", 0, 8 }, { "(s16)", 0, 16 }, { "(s32)", 0, 32 }, { NULL },
};

/* What a line has said so far about its instruction. */
struct match {
	uint8_t code, src;
	int dst_reg, src_reg; /* -1 until named */
	bool any_r, any_w, sx;
	int16_t off;
	int32_t imm, next;
	char label[NAME_MAX_LEN]; /* a pc-relative field still to resolve */
	bool label_in_imm;
};

struct label {
	char name[NAME_MAX_LEN];
	size_t insn;
};

struct fixup {
	char name[NAME_MAX_LEN];
	size_t insn;
	int line;
	bool in_imm;
};

struct assembler {
	struct bpf_insn *insns;
	size_t cnt, cap;
	struct label *labels;
	size_t label_cnt, label_cap;
	struct fixup *fixups;
	size_t fixup_cnt, fixup_cap;
	int line, prefix; /* prefix: the "(xx)" opcode, or -1 */
	const char *furthest;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3))) static int fail(struct assembler *as, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!as->errlen)
		return -EINVAL;
	n = snprintf(as->err, as->errlen, "line %d: ", as->line);
	if (n < 0 || (size_t)n >= as->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(as->err + n, as->errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Makes room for one more item in *array. */
static int grow(void *array, size_t *cap, size_t cnt, size_t elem)
{
	void **p = array, *bigger;

	if (cnt < *cap)
		return 0;
	bigger = realloc(*p, (*cap ? *cap * 2 : 64) * elem);
	if (!bigger)
		return -ENOMEM;
	*p = bigger;
	*cap = *cap ? *cap * 2 : 64;
	return 0;
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.';
}

static size_t ident_len(const char *p)
{
	size_t n = 0;

	while (!isdigit((unsigned char)*p) && is_ident(p[n]))
		n++;
	return n;
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* The first entry of ops that *p starts with (tables list longer spellings first). */
static const struct op *read_op(const char **p, const struct op *ops)
{
	for (; ops->text; ops++) {
		size_t n = strlen(ops->text);

		if (!strncmp(*p, ops->text, n) && !(isalnum((unsigned char)ops->text[n - 1]) &&
						    isalnum((unsigned char)(*p)[n]))) {
			*p += n;
			return ops;
		}
	}
	return NULL;
}

/* A number that fits lo..hi (hi as bits, so 0xffffffff is a 32-bit -1): 1, 0 if none. */
static int read_number(struct assembler *as, const char **p, const char *what, int64_t lo,
		       uint64_t hi, int64_t *out, bool *hex)
{
	const char *s = *p, *start = *p;
	bool neg = *s == '-';
	int base = 10;
	uint64_t v = 0;

	s += *s == '-' || *s == '+';
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2]))
		base = 16, s += 2;
	if (!isxdigit((unsigned char)*s) || (base == 10 && !isdigit((unsigned char)*s)))
		return 0;
	for (; base == 16 ? isxdigit((unsigned char)*s) : isdigit((unsigned char)*s); s++) {
		unsigned int d = isdigit((unsigned char)*s) ? *s - '0' : tolower(*s) - 'a' + 10;

		if (v > (UINT64_MAX - d) / base)
			return fail(as, "number '%.*s' out of range",
				    (int)(strspn(s, "0123456789abcdefABCDEF") + (s - start)),
				    start);
		v = v * base + d;
	}
	if (is_ident(*s))
		return fail(as, "bad number '%.*s'", (int)(s - start + ident_len(s)), start);
	if (neg ? v > 0 - (uint64_t)lo : v > hi)
		return fail(as, "%s %s0x%llx out of range", what, neg ? "-" : "",
			    (unsigned long long)v);
	*out = (int64_t)(neg ? 0 - v : v);
	if (hex)
		*hex = base == 16;
	*p = s;
	return 1;
}

/* rN or wN into *field; a field named twice must name the same register. */
static int read_reg(struct assembler *as, const char **p, struct match *m, int *field)
{
	const char *s = *p;
	size_t n = 1;

	if ((s[0] != 'r' && s[0] != 'w') || !isdigit((unsigned char)s[1]))
		return 0;
	while (is_ident(s[n]))
		n++;
	if (n > 3 || (n == 3 && (s[1] != '1' || s[2] != '0')))
		return fail(as, "bad register '%.*s'", (int)n, s);
	if (*field >= 0 && *field != atoi(s + 1))
		return 0;
	*field = atoi(s + 1);
	m->any_r |= s[0] == 'r';
	m->any_w |= s[0] == 'w';
	*p += n;
	return 1;
}

/* pc+N, pc-N or a label, into off or imm. */
static int read_target(struct assembler *as, const char **p, struct match *m, bool in_imm)
{
	int64_t v;
	size_t n;
	int ret;

	if (!strncmp(*p, "pc+", 3) || !strncmp(*p, "pc-", 3)) {
		*p += 2;
		ret = read_number(as, p, "jump offset", in_imm ? INT32_MIN : INT16_MIN,
				  in_imm ? INT32_MAX : INT16_MAX, &v, NULL);
		if (in_imm)
			m->imm = (int32_t)v;
		else
			m->off = (int16_t)v;
		return ret;
	}
	n = ident_len(*p);
	if (!n)
		return 0;
	if (n >= NAME_MAX_LEN)
		return fail(as, "label '%.*s' too long", (int)n, *p);
	snprintf(m->label, sizeof(m->label), "%.*s", (int)n, *p);
	m->label_in_imm = in_imm;
	*p += n;
	return 1;
}

/* A helper by name (and #id), a kfunc by any other name with #id, or a subprogram. */
static int read_call(struct assembler *as, const char **p, struct match *m)
{
	char name[NAME_MAX_LEN];
	size_t n = ident_len(*p);
	int64_t v;
	int id, ret;

	while (n && (is_ident((*p)[n]) || (*p)[n] == '-'))
		n++;
	if (!strncmp(*p, "pc+", 3) || !strncmp(*p, "pc-", 3) || n >= NAME_MAX_LEN)
		n = 0;
	snprintf(name, sizeof(name), "%.*s", (int)n, *p);
	id = n ? hwxdp_helper_id(name) : -ENOENT;
	if (!n || ((*p)[n] != '#' && id < 0)) {
		m->src = BPF_PSEUDO_CALL;
		return read_target(as, p, m, true);
	}
	*p += n;
	m->imm = id;
	if (**p != '#')
		return 1;
	++*p;
	ret = read_number(as, p, "call id", INT32_MIN, INT32_MAX, &v, NULL);
	if (ret <= 0)
		return ret;
	if (id >= 0 && id != v)
		return fail(as, "%s is helper #%d, not #%lld", name, id, (long long)v);
	m->imm = (int32_t)v;
	if (id < 0 && strcmp(name, "unknown"))
		m->src = BPF_PSEUDO_KFUNC_CALL;
	return 1;
}

/* One placeholder at *p: 1 matched, 0 not this form, negative a hard error. */
static int placeholder(struct assembler *as, char what, const char **p, struct match *m)
{
	const char *start = *p;
	const struct op *op = NULL;
	int64_t v = 0, from = 0;
	bool hex;
	int ret;

	switch (what) {
	case 'd':
		return read_reg(as, p, m, &m->dst_reg);
	case 's':
		return read_reg(as, p, m, &m->src_reg);
	case 'o':
		if (**p == ')')
			return 1;
		ret = read_number(as, p, "offset", INT16_MIN, INT16_MAX, &v, NULL);
		m->off = (int16_t)v;
		return ret;
	case 'i':
	case 'n':
		ret = read_number(as, p, "immediate", INT32_MIN, UINT32_MAX, &v, NULL);
		*(what == 'i' ? &m->imm : &m->next) = (int32_t)(uint32_t)v;
		return ret;
	case 'q':
		ret = read_number(as, p, "immediate", INT64_MIN, UINT64_MAX, &v, &hex);
		if (ret <= 0)
			return ret;
		/* as the kernel prints them: mov takes decimal, ld_imm64 hex */
		if (as->prefix >= 0 ? as->prefix != m->code
				    : m->any_w || (!hex && v >= INT32_MIN && v <= INT32_MAX))
			return 0;
		m->imm = (int32_t)v;
		m->next = (int32_t)((uint64_t)v >> 32);
		return 1;
	case 'b':
		ret = read_number(as, p, "byte swap size", 0, 64, &v, NULL);
		if (ret > 0 && v != 16 && v != 32 && v != 64)
			return fail(as, "byte swap size must be 16, 32 or 64");
		m->imm = (int32_t)v;
		return ret;
	case 'A':
		if ((ret = read_number(as, p, "address space", 0, 0xffff, &v, NULL)) <= 0)
			return ret;
		*p = skip_blanks(*p);
		if (**p != ',')
			return 0;
		*p = skip_blanks(*p + 1);
		ret = read_number(as, p, "address space", 0, 0xffff, &from, NULL);
		m->imm = (int32_t)((uint32_t)v << 16 | (uint32_t)from);
		return ret;
	case 't':
	case 'T':
		return read_target(as, p, m, what == 'T');
	case 'c':
		return read_call(as, p, m);
	case 'z':
	case 'Z':
		op = read_op(p, sizes);
		if (!op || (op->off && what == 'z'))
			return fail(as, "bad size '%.*s'", (int)(ident_len(start) ?: 1), start);
		m->code |= op->code;
		m->sx = op->off;
		return 1;
	}
	op = read_op(p, what == 'a'   ? alu_ops
			: what == 'j' ? jmp_ops
			: what == 'l' ? lock_ops
			: what == 'f' ? fetch_ops
				      : casts);
	if (!op)
		return 0;
	if (what == 'a' || what == 'j')
		m->code |= op->code;
	if (what == 'a' || what == 'x')
		m->off = op->off;
	if (what == 'l' || what == 'f')
		m->imm = op->code;
	return 1;
}

/* Matches text against f: 1 with *m filled, 0 if it is not this form, or an error. */
static int match_form(struct assembler *as, const struct form *f, const char *text, struct match *m)
{
	const char *pat = f->pattern, *p = text;
	int ret = 1;

	*m = (struct match){ .code = f->code,
			     .src = f->src,
			     .dst_reg = -1,
			     .src_reg = -1,
			     .off = f->off,
			     .imm = f->imm };
	for (; *pat && ret > 0; pat++) {
		if (*pat == ' ') {
			p = skip_blanks(p);
		} else if (*pat == '%') {
			p = skip_blanks(p);
			ret = placeholder(as, *++pat, &p, m);
		} else {
			if (ispunct((unsigned char)*pat))
				p = skip_blanks(p);
			ret = *p == *pat;
			p += ret;
		}
	}
	if (ret > 0 && *(p = skip_blanks(p)))
		ret = 0;
	if (!ret && p > as->furthest)
		as->furthest = p;
	return ret;
}

static int assemble(struct assembler *as, const char *text)
{
	const struct form *f;
	struct match m;
	struct fixup *fix;
	int ret = 0;

	as->furthest = text;
	for (f = forms; f < forms + sizeof(forms) / sizeof(forms[0]); f++)
		if ((ret = match_form(as, f, text, &m)) != 0)
			break;
	if (ret < 0)
		return ret;
	if (!ret && as->furthest == text)
		return fail(as, "unknown instruction '%.*s'", (int)(ident_len(text) ?: 1), text);
	if (!ret && !*as->furthest)
		return fail(as, "incomplete instruction '%s'", text);
	if (!ret)
		return fail(as, "unexpected '%s'", as->furthest);
	if (m.any_w && !(f->flags & F_WIDTH))
		return fail(as, "this instruction takes r registers, not w");
	if (m.any_w && m.any_r)
		return fail(as, "r and w registers mixed");
	if (m.any_w)
		m.code = (m.code & ~0x07) | (BPF_CLASS(m.code) == BPF_ALU64 ? BPF_ALU : BPF_JMP32);
	if ((f->flags & F_ATOMIC) && BPF_SIZE(m.code) != BPF_W && BPF_SIZE(m.code) != BPF_DW)
		return fail(as, "atomic operations are u32 or u64");
	if (BPF_CLASS(m.code) == BPF_LDX)
		m.code |= m.sx ? BPF_MEMSX : BPF_MEM;
	if (as->prefix >= 0 && as->prefix != m.code)
		return fail(as, "opcode (%02x) does not match the instruction, which is (%02x)",
			    as->prefix, m.code);
	if (m.label[0]) {
		if (grow(&as->fixups, &as->fixup_cap, as->fixup_cnt, sizeof(*fix)))
			return -ENOMEM;
		fix = &as->fixups[as->fixup_cnt++];
		memcpy(fix->name, m.label, sizeof(fix->name));
		fix->insn = as->cnt;
		fix->line = as->line;
		fix->in_imm = m.label_in_imm;
	}
	if (grow(&as->insns, &as->cap, as->cnt + 1, sizeof(*as->insns)))
		return -ENOMEM;
	as->insns[as->cnt++] = (struct bpf_insn){ .code = m.code,
						  .dst_reg = m.dst_reg < 0 ? 0 : m.dst_reg,
						  .src_reg = m.src_reg < 0 ? m.src : m.src_reg,
						  .off = m.off,
						  .imm = m.imm };
	if (f->flags & F_LD64)
		as->insns[as->cnt++] = (struct bpf_insn){ .imm = m.next };
	return 0;
}

static int define_label(struct assembler *as, const char *name, size_t n)
{
	struct label *l;
	size_t i;

	if (n >= NAME_MAX_LEN)
		return fail(as, "label '%.*s' too long", (int)n, name);
	for (i = 0; i < as->label_cnt; i++)
		if (strlen(as->labels[i].name) == n && !strncmp(as->labels[i].name, name, n))
			return fail(as, "label '%.*s' defined twice", (int)n, name);
	if (grow(&as->labels, &as->label_cap, as->label_cnt, sizeof(*l)))
		return -ENOMEM;
	l = &as->labels[as->label_cnt++];
	snprintf(l->name, sizeof(l->name), "%.*s", (int)n, name);
	l->insn = as->cnt;
	return 0;
}

/* "[N:] [label:]... [(xx)] [instruction] [; comment]" */
static int assemble_line(struct assembler *as, char *line)
{
	char *p, *end;
	size_t n;
	int ret;

	/* ';' always opens a comment; '#' only where "call name#id" cannot mean it */
	for (p = line; *p; p++)
		if (*p == ';' || (*p == '#' && (p == line || isblank((unsigned char)p[-1]))))
			break;
	while (p > line && isspace((unsigned char)p[-1]))
		p--;
	*p = 0;
	p = (char *)skip_blanks(line);
	if (isdigit((unsigned char)*p)) {
		strtoul(p, &end, 10);
		if (*end != ':')
			return fail(as, "unknown instruction '%s'", p);
		p = (char *)skip_blanks(end + 1);
	}
	while ((n = ident_len(p)) && p[n] == ':') {
		if ((ret = define_label(as, p, n)))
			return ret;
		p = (char *)skip_blanks(p + n + 1);
	}
	as->prefix = -1;
	if (p[0] == '(' && isxdigit((unsigned char)p[1]) && isxdigit((unsigned char)p[2]) &&
	    p[3] == ')') {
		as->prefix = (int)strtol(p + 1, NULL, 16);
		p = (char *)skip_blanks(p + 4);
	}
	if (!*p)
		return as->prefix < 0
			       ? 0
			       : fail(as, "opcode (%02x) without an instruction", as->prefix);
	return assemble(as, p);
}

static int resolve_labels(struct assembler *as)
{
	const struct fixup *f;
	size_t j;

	for (f = as->fixups; f < as->fixups + as->fixup_cnt; f++) {
		int64_t delta;

		for (j = 0; j < as->label_cnt && strcmp(as->labels[j].name, f->name); j++)
			;
		as->line = f->line;
		if (j == as->label_cnt)
			return fail(as, "unknown label '%s'", f->name);
		delta = (int64_t)as->labels[j].insn - (int64_t)f->insn - 1;
		if (f->in_imm)
			as->insns[f->insn].imm = (int32_t)delta;
		else if (delta < INT16_MIN || delta > INT16_MAX)
			return fail(as, "label '%s' is too far for a jump (%lld)", f->name,
				    (long long)delta);
		else
			as->insns[f->insn].off = (int16_t)delta;
	}
	return 0;
}

int hwxdp_asm(const char *text, struct bpf_insn **insns, size_t *cnt, char *err, size_t errlen)
{
	struct assembler as = { .err = err, .errlen = errlen };
	const char *line = text;
	int ret = 0;

	if (errlen)
		*err = 0;
	while (!ret && *line) {
		size_t n = strcspn(line, "\n");
		char *copy = strndup(line, n);

		as.line++;
		ret = copy ? assemble_line(&as, copy) : -ENOMEM;
		free(copy);
		line += n + (line[n] == '\n');
	}
	if (!ret)
		ret = resolve_labels(&as);
	free(as.labels);
	free(as.fixups);
	if (ret) {
		free(as.insns);
		return ret == -ENOMEM ? -ENOMEM : -EINVAL;
	}
	*insns = as.insns;
	*cnt = as.cnt;
	return 0;
}
