// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier log, in the kernel's format: "N: (op) text ; R1=ctx() ...",
 * "from A to B: state", one line per rejection reason, and the statistics
 * line. Register states print as the kernel 6.x prints them, so that a log
 * from hwxdp and one from bpf(2) can be read side by side.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verifier/verifier_internal.h"

#if __has_include("verifier/disasm.h")
#include "verifier/disasm.h"
#define HAVE_DISASM 1
#endif

void verbose(struct verifier_env *env, const char *fmt, ...)
{
	va_list args;
	size_t need;
	int n;

	if (env->log_failed)
		return;
	va_start(args, fmt);
	n = vsnprintf(NULL, 0, fmt, args);
	va_end(args);
	if (n < 0)
		return;
	need = env->log_len + n + 1;
	if (need > env->log_cap) {
		size_t cap = env->log_cap ? env->log_cap : 4096;
		char *log;

		while (cap < need)
			cap *= 2;
		log = realloc(env->log, cap);
		if (!log) {
			env->log_failed = true;
			return;
		}
		env->log = log;
		env->log_cap = cap;
	}
	va_start(args, fmt);
	vsnprintf(env->log + env->log_len, n + 1, fmt, args);
	va_end(args);
	env->log_len += n;
}

void log_truncate(struct verifier_env *env, size_t pos)
{
	if (pos < env->log_len) {
		env->log_len = pos;
		env->log[pos] = '\0';
	}
}

const char *helper_name(int func_id)
{
#ifdef HAVE_DISASM
	return hwxdp_helper_name(func_id);
#else
	return func_id > 0 && func_id < __BPF_FUNC_MAX_ID ? "helper" : NULL;
#endif
}

const char *reg_type_str(uint8_t type)
{
	switch (type) {
	case NOT_INIT:
		return "?";
	case SCALAR_VALUE:
		return "scalar";
	case PTR_TO_CTX:
		return "ctx";
	case CONST_PTR_TO_MAP:
		return "map_ptr";
	case PTR_TO_MAP_VALUE:
		return "map_value";
	case PTR_TO_MAP_VALUE_OR_NULL:
		return "map_value_or_null";
	case CONST_PTR_TO_MAP_OR_NULL:
		return "map_value_or_null"; /* the kernel's name for it */
	case PTR_TO_MEM:
		return "mem";
	case PTR_TO_MEM_OR_NULL:
		return "mem_or_null";
	case PTR_TO_SOCKET:
		return "sock";
	case PTR_TO_SOCKET_OR_NULL:
		return "sock_or_null";
	case PTR_TO_SOCK_COMMON:
		return "sock_common";
	case PTR_TO_SOCK_COMMON_OR_NULL:
		return "sock_common_or_null";
	case PTR_TO_BTF_ID:
		return "ptr_";
	case PTR_TO_BTF_ID_OR_NULL:
		return "ptr_or_null_";
	case PTR_TO_STACK:
		return "fp";
	case PTR_TO_PACKET_META:
		return "pkt_meta";
	case PTR_TO_PACKET:
		return "pkt";
	case PTR_TO_PACKET_END:
		return "pkt_end";
	case KFUNC_ADDR:
		return "kfunc_addr";
	case PTR_TO_FUNC:
		return "func";
	case PTR_TO_MAP_KEY:
		return "map_key";
	}
	return "?";
}

void log_source_line(struct verifier_env *env, uint32_t idx)
{
	const struct hwxdp_prog *prog = env->prog;
	int32_t lo = 0, hi, found = -1;

	if (!prog || !prog->line_cnt)
		return;
	hi = prog->line_cnt - 1;
	while (lo <= hi) {
		int32_t mid = lo + (hi - lo) / 2;

		if (prog->lines[mid].insn <= idx) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	if (found < 0 || found == env->last_line || prog->lines[found].insn != idx ||
	    !prog->lines[found].line)
		return;
	env->last_line = found;
	verbose(env, "; %s @ %s:%u\n", prog->lines[found].text ? prog->lines[found].text : "",
		prog->lines[found].file ? prog->lines[found].file : "?", prog->lines[found].line);
}

void log_insn(struct verifier_env *env, uint32_t idx)
{
	char buf[128];
	int n;

#ifdef HAVE_DISASM
	n = hwxdp_disasm_insn(&env->insns[idx], env->insn_cnt - idx, buf, sizeof(buf));
#else
	const struct bpf_insn *insn = &env->insns[idx];

	n = snprintf(buf, sizeof(buf), "(%02x) dst=r%d src=r%d off=%d imm=%d", insn->code,
		     insn->dst_reg, insn->src_reg, insn->off, insn->imm);
#endif
	if (n < 0)
		snprintf(buf, sizeof(buf), "(%02x) ?", env->insns[idx].code);
	verbose(env, "%u: %s\n", idx, buf);
}

/* Small numbers in decimal, others in hex, as the kernel prints them. */
static int print_num(char *buf, size_t len, int64_t v, bool is_signed)
{
	if (is_signed ? (v >= -512 && v <= 512) : ((uint64_t)v <= 512))
		return snprintf(buf, len, is_signed ? "%" PRId64 : "%" PRIu64, v);
	if (is_signed && v < 0)
		return snprintf(buf, len, "%" PRId64, v);
	return snprintf(buf, len, "%#" PRIx64, (uint64_t)v);
}

/* "smin=umin=7,smax=umax=9,var_off=(0x0; 0xf)": the non-default bounds,
 * equal ones named together. */
static int print_bounds(char *buf, size_t len, const struct reg_state *reg, bool first)
{
	static const char *const names[8] = {
		"smin", "smax", "umin", "umax", "smin32", "smax32", "umin32", "umax32",
	};
	const int64_t val[8] = {
		reg->smin,    reg->smax,    (int64_t)reg->umin, (int64_t)reg->umax,
		reg->s32_min, reg->s32_max, reg->u32_min,	reg->u32_max,
	};
	const int64_t dflt[8] = {
		INT64_MIN, INT64_MAX, 0, (int64_t)UINT64_MAX, INT32_MIN, INT32_MAX, 0, UINT32_MAX,
	};
	bool done[8] = { 0 };
	size_t n = 0;
	int i, j;

#define ROOM (n < len ? len - n : 0)
	for (i = 0; i < 8; i++) {
		if (done[i] || val[i] == dflt[i])
			continue;
		n += snprintf(buf + n, ROOM, "%s%s", first ? "" : ",", names[i]);
		first = false;
		for (j = i + 1; j < 8; j++) {
			if (!done[j] && val[j] != dflt[j] && val[j] == val[i]) {
				n += snprintf(buf + n, ROOM, "=%s", names[j]);
				done[j] = true;
			}
		}
		n += snprintf(buf + n, ROOM, "=");
		n += print_num(buf + n, ROOM, val[i], i == 0 || i == 1 || i == 4 || i == 5);
	}
	if (!tnum_is_unknown(reg->var_off) && !tnum_is_const(reg->var_off)) {
		n += snprintf(buf + n, ROOM, "%svar_off=", first ? "" : ",");
		n += tnum_print(buf + n, ROOM, reg->var_off);
	}
#undef ROOM
	return n;
}

static void print_reg(char *buf, size_t len, const struct reg_state *reg,
		      const struct verifier_env *env)
{
	const struct hwxdp_map_desc *map = NULL;
	size_t n = 0;
	bool first = true;

#define ROOM (n < len ? len - n : 0)
	if (reg->type == SCALAR_VALUE && tnum_is_const(reg->var_off) && !reg->id) {
		print_num(buf, len, reg->var_off.value, true);
		return;
	}
	if (reg->type == PTR_TO_STACK && tnum_equals_const(reg->var_off, 0)) {
		snprintf(buf, len, "fp%d", reg->off);
		return;
	}
	n += snprintf(buf + n, ROOM, "%s(", reg_type_str(reg->type));
	if (reg->id) {
		n += snprintf(buf + n, ROOM, "id=%u", reg->id);
		first = false;
	}
	if (reg->type != SCALAR_VALUE && reg->off) {
		n += snprintf(buf + n, ROOM, "%soff=%d", first ? "" : ",", reg->off);
		first = false;
	}
	if (type_is_pkt(reg->type)) {
		n += snprintf(buf + n, ROOM, "%sr=%d", first ? "" : ",", reg->range);
		first = false;
	}
	if (reg->type == CONST_PTR_TO_MAP || reg->type == PTR_TO_MAP_VALUE ||
	    reg->type == PTR_TO_MAP_VALUE_OR_NULL || reg->type == CONST_PTR_TO_MAP_OR_NULL)
		map = &env->maps[reg->map];
	if (map) {
		n += snprintf(buf + n, ROOM, "%smap=%s,ks=%u,vs=%u", first ? "" : ",", map->name,
			      map->key_size, map->value_size);
		first = false;
	}
	if (reg->type == SCALAR_VALUE && tnum_is_const(reg->var_off)) {
		n += snprintf(buf + n, ROOM, "%s", first ? "" : ",");
		n += print_num(buf + n, ROOM, reg->var_off.value, true);
	} else if (reg->type == SCALAR_VALUE || !tnum_equals_const(reg->var_off, 0)) {
		n += print_bounds(buf + n, ROOM, reg, first);
	}
	snprintf(buf + n, ROOM, ")");
#undef ROOM
}

static void log_frame(struct verifier_env *env, const struct func_state *frame, uint32_t frameno)
{
	static const char kinds[] = { '?', 'm', '0', 'r', 'd', 'i' };
	char buf[512];
	uint32_t r, i;
	int b;

	if (frameno)
		verbose(env, "frame%u: ", frameno);
	for (r = 0; r < MAX_BPF_REG; r++) {
		if (frame->regs[r].type == NOT_INIT)
			continue;
		print_reg(buf, sizeof(buf), &frame->regs[r], env);
		verbose(env, "R%u=%s ", r, buf);
	}
	for (i = 0; i < frame->slot_cnt; i++) {
		const struct stack_slot *s = &frame->stack[i];
		char bytes[9];

		if (s->spill_size == 8 && s->byte[0] == STACK_SPILL) {
			print_reg(buf, sizeof(buf), &s->spill, env);
			verbose(env, "fp%d=%s ", -8 * (int)(i + 1), buf);
			continue;
		}
		for (b = 0; b < 8; b++)
			bytes[b] = s->byte[7 - b] < sizeof(kinds) ? kinds[s->byte[7 - b]] : '?';
		bytes[8] = '\0';
		if (strcmp(bytes, "????????"))
			verbose(env, "fp%d=%s ", -8 * (int)(i + 1), bytes);
	}
}

void log_state(struct verifier_env *env, const struct vstate *st, bool all_frames)
{
	uint32_t f;

	for (f = all_frames ? 0 : st->curframe; f <= st->curframe; f++)
		log_frame(env, st->frame[f], f);
	if (env->log_len && env->log[env->log_len - 1] == ' ')
		env->log[--env->log_len] = '\0';
	verbose(env, "\n");
}

void log_reg_changes(struct verifier_env *env, const struct func_state *before,
		     const struct func_state *after)
{
	char buf[512];
	bool any = false;
	uint32_t r;

	for (r = 0; r < MAX_BPF_REG; r++) {
		if (!memcmp(&before->regs[r], &after->regs[r], sizeof(after->regs[r])))
			continue;
		if (after->regs[r].type == NOT_INIT)
			continue;
		if (!any && env->log_len) {
			/* the state goes on the instruction's line, in the
			 * kernel's column */
			size_t line;

			if (env->log[env->log_len - 1] == '\n')
				env->log[--env->log_len] = '\0';
			line = env->log_len;

			while (line && env->log[line - 1] != '\n')
				line--;
			if (env->log_len - line < 38)
				verbose(env, "%*s", (int)(38 - (env->log_len - line)), "");
		}
		print_reg(buf, sizeof(buf), &after->regs[r], env);
		verbose(env, "%sR%u=%s", any ? " " : " ; ", r, buf);
		any = true;
	}
	if (any)
		verbose(env, "\n");
}
