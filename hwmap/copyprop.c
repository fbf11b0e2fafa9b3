// SPDX-License-Identifier: GPL-2.0
/*
 * Copy propagation over a block of microcode. BPF is two-operand, so clang
 * copies a value before it changes it, and reloads a spilled value into
 * whichever register is free; on a three-operand machine the copy is
 * usually not needed. After `mov rX, rY`, the operations that read rX read
 * rY instead for as long as neither register changes; the move goes when no
 * path can still read rX from it.
 */
#include "hwmap/copyprop.h"
#include "hwmap/work.h"

/* Which fields an operation reads, as register fields it may rename. */
enum { READS_RS = 1, READS_RT = 2, READS_FIXED = 4 };

static unsigned int reads_of(const struct hxu_op *op, uint16_t *fixed, uint16_t *writes)
{
	uint8_t opc = op->opcode;
	bool k = op->flags & HXU_F_K;

	*fixed = 0;
	*writes = 0;
	switch (hxu_opcode_class(opc)) {
	case HXU_CLASS_A:
		*writes = (uint16_t)(1u << op->rd);
		if (opc == HXU_OP_MOVI || (opc == HXU_OP_MOV && k))
			return 0;
		if (opc <= HXU_OP_ARSH && !k)
			return READS_RS | READS_RT;
		return READS_RS;
	case HXU_CLASS_M:
		switch (hxu_mem_kind(opc)) {
		case HXU_OP_LD:
		case HXU_OP_LDSX:
			*writes = (uint16_t)(1u << op->rd);
			return READS_RS;
		case HXU_OP_ST:
			return READS_RS | READS_RT;
		case HXU_OP_STI:
			return READS_RS;
		}
		/* an atomic that fetches writes rd (and cmpxchg reads it): left
		 * alone; one that does not only reads its base and operand */
		if (!(op->flags & HXU_F_FETCH))
			return READS_RS | READS_RT;
		*fixed = (uint16_t)(1u << op->rs | 1u << op->rt | 1u << op->rd);
		*writes = (uint16_t)(1u << op->rd);
		return READS_FIXED;
	case HXU_CLASS_C:
		switch (opc) {
		case HXU_OP_BR:
			return READS_RS | READS_RT;
		case HXU_OP_BRI:
		case HXU_OP_TCALL:
			return READS_RS;
		case HXU_OP_LCHK:
			return op->flags & HXU_F_LCHK_REG ? READS_RS : 0;
		case HXU_OP_EXIT:
		case HXU_OP_RET:
			*fixed = 1u;
			return READS_FIXED;
		}
		return 0;
	case HXU_CLASS_U:
	case HXU_CLASS_NONE:
		break;
	}
	switch (opc) {
	case HXU_OP_REDIR:
		*writes = (uint16_t)(1u << op->rd);
		return op->imm == HXU_REDIR_FLAGS_RT ? READS_RS | READS_RT : READS_RS;
	case HXU_OP_TLOOKUP:
	case HXU_OP_TDELETE:
	case HXU_OP_TINDEX:
	case HXU_OP_HADJ:
	case HXU_OP_MADJ:
	case HXU_OP_TADJ:
		*writes = (uint16_t)(1u << op->rd);
		return READS_RS;
	case HXU_OP_TUPDATE:
	case HXU_OP_ESP:
	case HXU_OP_REDIRIF:
		*writes = (uint16_t)(1u << op->rd);
		return READS_RS | READS_RT;
	case HXU_OP_CSUMD:
		*fixed = 0x3e; /* r1..r5, BPF's arguments */
		*writes = (uint16_t)(1u << op->rd);
		return READS_FIXED;
	case HXU_OP_CSUM16:
		return READS_RS | READS_RT;
	case HXU_OP_CTX:
	case HXU_OP_TIME:
	case HXU_OP_RAND:
	case HXU_OP_CPU:
		*writes = (uint16_t)(1u << op->rd);
		return 0;
	case HXU_OP_PUNT:
		return 0;
	}
	*fixed = 0xffff;
	*writes = 0xffff;
	return READS_FIXED;
}

static bool is_copy(const struct hxu_op *op)
{
	return op->opcode == HXU_OP_MOV && !(op->flags & (HXU_F_K | HXU_F_W32)) && op->rd != op->rs;
}

/*
 * Propagates the copy at ops[i] forward; true when the copy itself is no
 * longer needed. Stops at the block's end, a write of either register, or
 * a read it cannot redirect; along the way a branch to where rX is live, or
 * a stop where rX may still be read, keeps the copy.
 */
static bool propagate(struct hxu_op *ops, size_t n, size_t i, const struct hxu_copyprop_env *env)
{
	uint8_t x = ops[i].rd, y = ops[i].rs;
	uint16_t bx = (uint16_t)(1u << x), by = (uint16_t)(1u << y);

	for (size_t j = i + 1; j < n; j++) {
		struct hxu_op *op = &ops[j];
		uint16_t fixed, writes;
		unsigned int reads;

		hxu_work_add(1);
		if (env->leader[j])
			return !(env->live_in[j] & bx);
		reads = reads_of(op, &fixed, &writes);
		if (fixed & bx)
			return false;
		if ((reads & READS_RS) && op->rs == x)
			op->rs = y;
		if ((reads & READS_RT) && op->rt == x)
			op->rt = y;
		if (hxu_op_is_control(op->opcode)) {
			switch (op->opcode) {
			case HXU_OP_BR:
			case HXU_OP_BRI:
			case HXU_OP_LCHK:
				if (env->live_at_target[j] & bx)
					return false;
				break;
			case HXU_OP_EXIT:
			case HXU_OP_PUNT:
				return true;
			default:
				return false;
			}
		}
		if (writes & bx)
			return true;
		if (writes & by)
			return false;
	}
	return false;
}

size_t hxu_propagate_copies(struct hxu_op *ops, size_t n, bool *removed,
			    const struct hxu_copyprop_env *env)
{
	size_t gone = 0;

	for (size_t i = 0; i < n; i++) {
		removed[i] = false;
		if (!is_copy(&ops[i]))
			continue;
		if (propagate(ops, n, i, env)) {
			removed[i] = true;
			gone++;
		}
	}
	return gone;
}
