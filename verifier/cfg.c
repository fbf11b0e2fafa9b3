// SPDX-License-Identifier: GPL-2.0
/*
 * What can be checked before any state exists: opcodes and reserved
 * fields, ld_imm64 pairs and their maps, functions, jump targets,
 * reachability; and what the walk needs from the control flow: where to
 * try pruning, and which registers are live at each instruction (a dead
 * register never stops a state from covering another).
 */
#include <stdlib.h>
#include <string.h>

#include "verifier/verifier_internal.h"

#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80
#endif

#define REGS_ARGS 0x3e /* r1-r5 */
#define REGS_CALL 0x3f /* r0-r5 */

static bool opcode_valid(uint8_t code)
{
	uint8_t op = BPF_OP(code), size = BPF_SIZE(code), mode = BPF_MODE(code);

	switch (BPF_CLASS(code)) {
	case BPF_ALU:
	case BPF_ALU64:
		if (op == BPF_END)
			return BPF_CLASS(code) == BPF_ALU || BPF_SRC(code) == BPF_TO_LE;
		if (op == BPF_NEG)
			return BPF_SRC(code) == BPF_K;
		return op <= BPF_ARSH;
	case BPF_JMP:
		if (op == BPF_CALL || op == BPF_EXIT || op == BPF_JA)
			return BPF_SRC(code) == BPF_K;
		return op <= BPF_JSLE;
	case BPF_JMP32:
		if (op == BPF_CALL || op == BPF_EXIT)
			return false;
		if (op == BPF_JA)
			return BPF_SRC(code) == BPF_K;
		return op <= BPF_JSLE;
	case BPF_LD:
		if (mode == BPF_IMM)
			return size == BPF_DW;
		return (mode == BPF_ABS || mode == BPF_IND) && size != BPF_DW;
	case BPF_LDX:
		return mode == BPF_MEM || (mode == BPF_MEMSX && size != BPF_DW);
	case BPF_ST:
		return mode == BPF_MEM;
	case BPF_STX:
		return mode == BPF_MEM || (mode == BPF_ATOMIC && (size == BPF_W || size == BPF_DW));
	}
	return false;
}

static bool is_ld_imm64(const struct bpf_insn *insn)
{
	return insn->code == (BPF_LD | BPF_IMM | BPF_DW);
}

static bool is_jump(const struct bpf_insn *insn)
{
	uint8_t class = BPF_CLASS(insn->code), op = BPF_OP(insn->code);

	return (class == BPF_JMP || class == BPF_JMP32) && op != BPF_CALL && op != BPF_EXIT;
}

static uint32_t jump_target(const struct bpf_insn *insn, uint32_t idx)
{
	if (insn->code == (BPF_JMP32 | BPF_JA))
		return idx + 1 + insn->imm;
	return idx + 1 + insn->off;
}

/* ld_imm64 of a function: a callback, started as a call would be. */
static bool is_callback_addr(const struct bpf_insn *insn)
{
	return is_ld_imm64(insn) && insn->src_reg == BPF_PSEUDO_FUNC;
}

static int check_ld_imm64_pair(struct verifier_env *env, uint32_t i)
{
	const struct bpf_insn *insn = &env->insns[i];
	const struct hwxdp_map_desc *map;

	if (i + 1 >= env->insn_cnt || insn[1].code || insn[1].dst_reg || insn[1].src_reg ||
	    insn[1].off) {
		verbose(env, "invalid bpf_ld_imm64 insn\n");
		return -EINVAL;
	}
	switch (insn->src_reg) {
	case 0:
		return 0;
	case BPF_PSEUDO_BTF_ID:
		/* the address of a device kfunc (is it there at all?) */
		if (insn->imm != KFUNC_ESP_ENCAP || insn[1].imm) {
			verbose(env, "ldimm64 insn specifies invalid btf_id %d\n", insn->imm);
			return -EINVAL;
		}
		/* Device kfunc ids mean nothing to the kernel's BTF. */
		if (!env->device) {
			verbose(env, "pseudo btf_id %d in ldimm64 isn't KIND_VAR or KIND_FUNC\n",
				insn->imm);
			return -EINVAL;
		}
		return 0;
	case BPF_PSEUDO_FUNC:
		/* a callback: where it starts, a function is (find_subprogs) */
		if ((int64_t)i + insn->imm + 1 < 0 || (int64_t)i + insn->imm + 1 >= env->insn_cnt) {
			verbose(env, "call to invalid destination\n");
			return -EINVAL;
		}
		return 0;
	case BPF_PSEUDO_MAP_FD:
	case BPF_PSEUDO_MAP_IDX:
	case BPF_PSEUDO_MAP_VALUE:
	case BPF_PSEUDO_MAP_IDX_VALUE:
		break;
	default:
		verbose(env, "unrecognized bpf_ld_imm64 insn\n");
		return -EINVAL;
	}
	if (insn->imm < 0 || (uint32_t)insn->imm >= env->map_cnt) {
		verbose(env, "fd %d is not pointing to valid bpf_map\n", insn->imm);
		return -EBADF;
	}
	map = &env->maps[insn->imm];
	if (insn->src_reg == BPF_PSEUDO_MAP_FD || insn->src_reg == BPF_PSEUDO_MAP_IDX)
		return 0;
	if (map->type != BPF_MAP_TYPE_ARRAY || map->max_entries != 1) {
		verbose(env, "no direct value access support for this map type\n");
		return -EINVAL;
	}
	if ((uint32_t)insn[1].imm >= map->value_size) {
		verbose(env, "invalid access to map value pointer, value_size=%u off=%u\n",
			map->value_size, (uint32_t)insn[1].imm);
		return -EINVAL;
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int find_subprogs(struct verifier_env *env)
{
	uint32_t i, n = 1, s;

	env->subprogs = calloc(env->insn_cnt + 1, sizeof(*env->subprogs));
	if (!env->subprogs)
		return -ENOMEM;
	env->subprogs[0].start = 0;
	for (i = 0; i < env->insn_cnt; i++) {
		const struct bpf_insn *insn = &env->insns[i];
		int64_t target = (int64_t)i + insn->imm + 1;

		if ((insn->code != (BPF_JMP | BPF_CALL) || insn->src_reg != BPF_PSEUDO_CALL) &&
		    !is_callback_addr(insn))
			continue;
		if (target < 0 || target >= env->insn_cnt) {
			verbose(env, "call to invalid destination\n");
			return -EINVAL;
		}
		env->subprogs[n++].start = target;
	}
	qsort(env->subprogs, n, sizeof(*env->subprogs), cmp_u32);
	for (i = 1, s = 1; i < n; i++)
		if (env->subprogs[i].start != env->subprogs[s - 1].start)
			env->subprogs[s++] = env->subprogs[i];
	env->subprog_cnt = s;
	env->subprogs[s].start = env->insn_cnt; /* sentinel: the end of the last one */
	for (s = 0; s < env->subprog_cnt; s++)
		for (i = env->subprogs[s].start; i < env->subprogs[s + 1].start; i++)
			env->aux[i].subprog = s;
	env->calls = calloc(env->subprog_cnt * env->subprog_cnt, 1);
	return env->calls ? 0 : -ENOMEM;
}

static int check_jumps(struct verifier_env *env)
{
	uint32_t i, s;

	for (i = 0; i < env->insn_cnt; i++) {
		const struct bpf_insn *insn = &env->insns[i];
		const struct subprog_info *sp = &env->subprogs[env->aux[i].subprog];
		int64_t target;

		if (env->aux[i].ld_imm64_second)
			continue;
		if (insn->code == (BPF_JMP | BPF_CALL)) {
			/*
			 * The kernel resolves every kfunc call before it walks a
			 * path, dead code included; so must we: only the
			 * unresolved weak form (imm 0, off 0), the metadata
			 * kfuncs on the device (kfuncs.c) and, on the
			 * device, the device's own kfuncs may stand anywhere.
			 */
			if (kfunc_is_xdp_metadata(insn)) {
				int err = check_kfunc_binding(env, insn, i);

				if (err)
					return err;
			} else if (kfunc_is_dynptr(insn) || kfunc_is_iter(insn) ||
				   kfunc_is_conntrack(insn)) {
				/* the kernel's add_kfunc_call */
				if (!env->gpl_compatible) {
					env->error_insn = i;
					verbose(env, "cannot call kernel function from non-GPL "
						     "compatible program\n");
					return -EINVAL;
				}
			} else if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL &&
				   (insn->imm || insn->off) &&
				   (insn->imm != KFUNC_ESP_ENCAP || insn->off || !env->device)) {
				verbose(env, "kernel btf_id %d is not a function\n", insn->imm);
				return -EINVAL;
			}
			if (i + 1 < env->insn_cnt)
				env->aux[i + 1].prune_point = true;
			/* a callback's exit comes back to its helper call */
			if (!insn->src_reg && helper_calls_back(insn->imm))
				env->aux[i].prune_point = env->aux[i].callback_call = true;
			/* an iterator's loop comes back to its next, where the
			 * states of its iterations converge as a callback's */
			if (kfunc_is_iter_next(insn))
				env->aux[i].prune_point = env->aux[i].callback_call = true;
			continue;
		}
		if (!is_jump(insn))
			continue;
		target = insn->code == (BPF_JMP32 | BPF_JA) ? (int64_t)i + 1 + insn->imm
							    : (int64_t)i + 1 + insn->off;
		if (target < sp->start || target >= sp[1].start) {
			verbose(env, "jump out of range from insn %u to %lld\n", i,
				(long long)target);
			return -EINVAL;
		}
		if (env->aux[target].ld_imm64_second) {
			verbose(env, "jump into the middle of ldimm64 insn %lld\n",
				(long long)target - 1);
			return -EINVAL;
		}
		env->aux[target].prune_point = env->aux[target].jump_target = true;
		/* a conditional jump: before it, where a cover ends both of
		 * its sides at once (the kernel's point), and after it */
		if (BPF_OP(insn->code) != BPF_JA && i + 1 < env->insn_cnt)
			env->aux[i].prune_point = env->aux[i + 1].prune_point = true;
	}
	for (s = 0; s < env->subprog_cnt; s++) {
		const struct bpf_insn *last = &env->insns[env->subprogs[s + 1].start - 1];

		env->aux[env->subprogs[s].start].prune_point = true;
		if (last->code != (BPF_JMP | BPF_EXIT) && last->code != (BPF_JMP | BPF_JA) &&
		    last->code != (BPF_JMP32 | BPF_JA)) {
			verbose(env, "last insn is not an exit or jmp\n");
			return -EINVAL;
		}
	}
	return 0;
}

/* Successors of insn i inside its function; returns their count. */
static int successors(const struct verifier_env *env, uint32_t i, uint32_t succ[2])
{
	const struct bpf_insn *insn = &env->insns[i];

	if (is_ld_imm64(insn)) {
		succ[0] = i + 2;
		return 1;
	}
	if (insn->code == (BPF_JMP | BPF_EXIT))
		return 0;
	if (is_jump(insn)) {
		succ[0] = jump_target(insn, i);
		if (BPF_OP(insn->code) == BPF_JA)
			return 1;
		succ[1] = i + 1;
		return 2;
	}
	succ[0] = i + 1;
	return 1;
}

static int check_reachable(struct verifier_env *env)
{
	uint32_t *stack, top = 0, i, succ[2];
	uint8_t *seen;
	int n, err = 0;

	seen = calloc(env->insn_cnt, 1);
	stack = calloc(env->insn_cnt, sizeof(*stack));
	if (!seen || !stack) {
		err = -ENOMEM;
		goto out;
	}
	seen[0] = 1;
	stack[top++] = 0;
	while (top) {
		i = stack[--top];
		n = successors(env, i, succ);
		if ((env->insns[i].code == (BPF_JMP | BPF_CALL) &&
		     env->insns[i].src_reg == BPF_PSEUDO_CALL) ||
		    is_callback_addr(&env->insns[i]))
			succ[n++] = i + 1 + env->insns[i].imm;
		while (n--) {
			if (succ[n] < env->insn_cnt && !seen[succ[n]]) {
				seen[succ[n]] = 1;
				stack[top++] = succ[n];
			}
		}
	}
	for (i = 0; i < env->insn_cnt; i++) {
		if (!seen[i] && !env->aux[i].ld_imm64_second) {
			verbose(env, "unreachable insn %u\n", i);
			err = -EINVAL;
			break;
		}
	}
out:
	free(seen);
	free(stack);
	return err;
}

static void use_def(const struct bpf_insn *insn, uint16_t *use, uint16_t *def)
{
	uint16_t dst = 1u << (insn->dst_reg & 15), src = 1u << (insn->src_reg & 15);
	uint8_t class = BPF_CLASS(insn->code), op = BPF_OP(insn->code);

	*use = *def = 0;
	switch (class) {
	case BPF_ALU:
	case BPF_ALU64:
		*def = dst;
		if (op != BPF_MOV)
			*use |= dst;
		if (BPF_SRC(insn->code) == BPF_X && op != BPF_NEG && op != BPF_END)
			*use |= src;
		break;
	case BPF_LDX:
		*use = src;
		*def = dst;
		break;
	case BPF_ST:
		*use = dst;
		break;
	case BPF_STX:
		*use = dst | src;
		if (BPF_MODE(insn->code) == BPF_ATOMIC && insn->imm == BPF_CMPXCHG) {
			*use |= 1;
			*def = 1;
		} else if (BPF_MODE(insn->code) == BPF_ATOMIC && (insn->imm & BPF_FETCH)) {
			*def = src;
		}
		break;
	case BPF_LD:
		*def = dst;
		break;
	default:
		if (op == BPF_CALL) {
			/* a helper reads its arguments only; a function or
			 * kfunc, as far as this pass knows, r1-r5 */
			*use = insn->src_reg ? REGS_ARGS : helper_arg_regs(insn->imm);
			*def = REGS_CALL;
		} else if (op == BPF_EXIT) {
			*use = 1;
		} else if (op != BPF_JA) {
			*use = dst | (BPF_SRC(insn->code) == BPF_X ? src : 0);
		}
	}
}

/* Backward dataflow to a fixpoint, one function at a time (calls are
 * opaque: they read r1-r5 and set r0-r5). */
static void compute_liveness(struct verifier_env *env)
{
	uint32_t i, succ[2];
	uint16_t use, def, out;
	bool changed = true;
	int n;

	while (changed) {
		changed = false;
		for (i = env->insn_cnt; i-- > 0;) {
			if (env->aux[i].ld_imm64_second)
				continue;
			n = successors(env, i, succ);
			out = 0;
			while (n--)
				if (succ[n] < env->insn_cnt &&
				    env->aux[succ[n]].subprog == env->aux[i].subprog)
					out |= env->aux[succ[n]].live_in;
			use_def(&env->insns[i], &use, &def);
			use |= out & ~def;
			if (use != env->aux[i].live_in) {
				env->aux[i].live_in = use;
				changed = true;
			}
		}
	}
}

int check_program_shape(struct verifier_env *env)
{
	const struct bpf_insn *insn;
	uint32_t i;
	int err;

	if (!env->insn_cnt) {
		verbose(env, "program has no instructions\n");
		return -EINVAL;
	}
	for (i = 0; i < env->insn_cnt; i++) {
		insn = &env->insns[i];
		env->error_insn = i;
		if (!opcode_valid(insn->code)) {
			verbose(env, "unknown opcode %02x\n", insn->code);
			return -EINVAL;
		}
		if (BPF_CLASS(insn->code) == BPF_LDX && insn->imm) {
			verbose(env, "BPF_LDX uses reserved fields\n");
			return -EINVAL;
		}
		if (BPF_CLASS(insn->code) == BPF_LD && !is_ld_imm64(insn)) {
			verbose(env, "BPF_LD_[ABS|IND] instructions not allowed for this program "
				     "type\n");
			return -EINVAL;
		}
		if (!is_ld_imm64(insn))
			continue;
		err = check_ld_imm64_pair(env, i);
		if (err)
			return err;
		env->aux[++i].ld_imm64_second = true;
	}
	env->error_insn = 0;
	err = find_subprogs(env);
	if (!err)
		err = check_jumps(env);
	if (!err)
		err = check_reachable(env);
	if (!err)
		compute_liveness(env);
	return err;
}

static uint32_t round_up16(uint32_t depth)
{
	return (depth + 15) & ~15u;
}

/* The deepest chain of frames reachable from subprog s. */
static int chain_depth(struct verifier_env *env, uint32_t s, uint32_t frames, uint32_t depth)
{
	uint32_t t;
	int err;

	depth += round_up16(env->subprogs[s].stack_depth);
	if (depth > MAX_BPF_STACK) {
		verbose(env, "combined stack size of %u calls is %u. Too large\n", frames, depth);
		return REJECT;
	}
	if (frames >= MAX_CALL_FRAMES)
		return 0;
	for (t = 0; t < env->subprog_cnt; t++) {
		if (!env->calls[s * env->subprog_cnt + t])
			continue;
		err = chain_depth(env, t, frames + 1, depth);
		if (err)
			return err;
	}
	return 0;
}

/*
 * After the walk, which found the calls: the kernel's combined stack rule,
 * which on the device is also the stricter of the two (device.c); then
 * what only the device limits, over the instructions the walk reached.
 */
int check_stack_depths(struct verifier_env *env)
{
	int err = chain_depth(env, 0, 1, 0);

	/* a timer's callback starts a chain of its own, as the kernel counts it */
	for (uint32_t s = 1; !err && s < env->subprog_cnt; s++)
		if (env->subprogs[s].async_cb)
			err = chain_depth(env, s, 1, 0);

	if (!err && env->device)
		err = device_check_reached(env);
	return err;
}
