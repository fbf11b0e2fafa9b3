/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A verifier test case: a program, what hwxdp must decide, and how the
 * kernel is asked to confirm it (tests/verifier/test_verifier.c).
 */
#ifndef HWXDP_TESTS_VERIFIER_CASES_H
#define HWXDP_TESTS_VERIFIER_CASES_H

#include <stdbool.h>
#include <stdint.h>

#include "tests/verifier/insn.h"
#include "tests/verifier/kernel.h"
#include "loader/kfuncs.h"

#define MAX_TEST_INSNS 64

struct verifier_case {
	const char *name;
	struct bpf_insn insns[MAX_TEST_INSNS];
	uint32_t insn_cnt; /* 0: up to the last non-zero instruction */
	bool accept;
	const char *msg;	/* rejection: hwxdp's log contains it */
	const char *kmsg;	/* the kernel's, when worded otherwise */
	enum kernel_mode kmode; /* how the kernel is asked */
	const char *stricter;	/* hwxdp rejects what every kernel accepts: why */
	bool raw_maps;		/* map imms are not test map indexes */
	bool device;
	uint32_t budget;
	uint32_t attach;
};

extern const struct verifier_case accept_cases[];
extern const unsigned int accept_case_cnt;
extern const struct verifier_case reject_cases[];
extern const unsigned int reject_case_cnt;

/* Common snippets. r2 = data, r3 = data_end. */
#define LOAD_PKT LDX_MEM(BPF_W, 2, 1, 0), LDX_MEM(BPF_W, 3, 1, 4)
/* r4 = r2 + n */
#define PKT_PLUS(n) MOV64_REG(4, 2), ALU64_IMM(BPF_ADD, 4, n)
/* r0 = lookup(map, key 0 at fp-8); 6 instructions */
#define LOOKUP(map)                                                                                \
	ST_MEM(BPF_DW, 10, -8, 0), MOV64_REG(2, 10), ALU64_IMM(BPF_ADD, 2, -8), LD_MAP_FD(1, map), \
		CALL_HELPER(BPF_FUNC_map_lookup_elem)
#define RET(v) MOV64_IMM(0, v), EXIT_INSN()
/* r0 = bpf_ringbuf_reserve(ringbuf, n, 0); 5 instructions */
#define RB_RESERVE(n)                                                                              \
	LD_MAP_FD(1, MAP_RINGBUF), MOV64_IMM(2, n), MOV64_IMM(3, 0),                               \
		CALL_HELPER(BPF_FUNC_ringbuf_reserve)
/* bpf_ringbuf_submit(r, 0) or _discard; 3 instructions */
#define RB_SUBMIT(r)  MOV64_REG(1, r), MOV64_IMM(2, 0), CALL_HELPER(BPF_FUNC_ringbuf_submit)
#define RB_DISCARD(r) MOV64_REG(1, r), MOV64_IMM(2, 0), CALL_HELPER(BPF_FUNC_ringbuf_discard)

/* r3 = fp-8, a context of 0 for a callback; 3 instructions */
#define LOOP_CTX ST_MEM(BPF_DW, 10, -8, 0), MOV64_REG(3, 10), ALU64_IMM(BPF_ADD, 3, -8)
/* bpf_loop(n, callback, r3, flags), the callback rel instructions after
 * the ld_imm64's first half + 1, as a call's; 5 instructions */
#define BPF_LOOP(n, rel, flags)                                                                    \
	MOV64_IMM(1, n), LD_IMM64_RAW(2, BPF_PSEUDO_FUNC, rel), MOV64_IMM(4, flags),               \
		CALL_HELPER(BPF_FUNC_loop)
/* bpf_for_each_map_elem(map, callback, r3, 0), as BPF_LOOP; 6 instructions */
#define FOR_EACH(map, rel)                                                                         \
	LD_MAP_FD(1, map), LD_IMM64_RAW(2, BPF_PSEUDO_FUNC, rel), MOV64_IMM(4, 0),                 \
		CALL_HELPER(BPF_FUNC_for_each_map_elem)
/* bpf_spin_lock or _unlock of the lock in MAP_LOCKED's value at r; 3 instructions */
#define LOCK(r)                                                                                    \
	MOV64_REG(1, r), ALU64_IMM(BPF_ADD, 1, LOCKED_LOCK_OFF), CALL_HELPER(BPF_FUNC_spin_lock)
#define UNLOCK(r)                                                                                  \
	MOV64_REG(1, r), ALU64_IMM(BPF_ADD, 1, LOCKED_LOCK_OFF), CALL_HELPER(BPF_FUNC_spin_unlock)
/* r0 = FN(ctx in r1, a tuple of 12 zero bytes at fp-16, 12,
 * BPF_F_CURRENT_NETNS, 0), a socket lookup; 8 instructions */
#define SK_LOOKUP(fn)                                                                              \
	ST_MEM(BPF_DW, 10, -16, 0), ST_MEM(BPF_W, 10, -8, 0), MOV64_REG(2, 10),                    \
		ALU64_IMM(BPF_ADD, 2, -16), MOV64_IMM(3, 12), MOV64_IMM(4, -1), MOV64_IMM(5, 0),   \
		CALL_HELPER(fn)
/* bpf_timer_init(the timer of the struct timed at r, map, CLOCK_MONOTONIC);
 * 6 instructions */
#define TIMER_INIT(r, map)                                                                         \
	MOV64_REG(1, r), ALU64_IMM(BPF_ADD, 1, TIMED_TIMER_OFF), LD_MAP_FD(2, map),                \
		MOV64_IMM(3, 1), CALL_HELPER(BPF_FUNC_timer_init)
/* bpf_timer_set_callback(that timer, the function rel instructions after
 * the ld_imm64's first half + 1, as BPF_LOOP's); 5 instructions */
#define TIMER_SET_CB(r, rel)                                                                       \
	MOV64_REG(1, r), ALU64_IMM(BPF_ADD, 1, TIMED_TIMER_OFF),                                   \
		LD_IMM64_RAW(2, BPF_PSEUDO_FUNC, rel), CALL_HELPER(BPF_FUNC_timer_set_callback)
/* Dynptrs at fp-32 (above LOOKUP's key). bpf_dynptr_from_mem(the map
 * value in r7, 16, 0, fp-32); 6 instructions */
#define DYNPTR_FROM_MEM                                                                            \
	MOV64_REG(1, 7), MOV64_IMM(2, 16), MOV64_IMM(3, 0), MOV64_REG(4, 10),                      \
		ALU64_IMM(BPF_ADD, 4, -32), CALL_HELPER(BPF_FUNC_dynptr_from_mem)
/* r7 = MAP_ARRAY's value 0, NULL checked (an exit), and a dynptr of it;
 * 16 instructions */
#define DYNPTR_OF_VALUE                                                                            \
	LOOKUP(MAP_ARRAY), JMP_IMM(BPF_JNE, 0, 0, 2), RET(XDP_PASS), MOV64_REG(7, 0),              \
		DYNPTR_FROM_MEM
/* bpf_dynptr_read(8 bytes into fp-40, 8, fp-32, 0, 0); 8 instructions */
#define DYNPTR_READ                                                                                \
	MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -40), MOV64_IMM(2, 8), MOV64_REG(3, 10),           \
		ALU64_IMM(BPF_ADD, 3, -32), MOV64_IMM(4, 0), MOV64_IMM(5, 0),                      \
		CALL_HELPER(BPF_FUNC_dynptr_read)
/* r0 = bpf_dynptr_data(fp-32, 0, n); 5 instructions */
#define DYNPTR_DATA(n)                                                                             \
	MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -32), MOV64_IMM(2, 0), MOV64_IMM(3, n),            \
		CALL_HELPER(BPF_FUNC_dynptr_data)
/* bpf_ringbuf_reserve_dynptr(ringbuf, 8, 0, fp-32); 6 instructions */
#define RB_RESERVE_DYNPTR                                                                          \
	LD_MAP_FD(1, MAP_RINGBUF), MOV64_IMM(2, 8), MOV64_IMM(3, 0), MOV64_REG(4, 10),             \
		ALU64_IMM(BPF_ADD, 4, -32), CALL_HELPER(BPF_FUNC_ringbuf_reserve_dynptr)
/* bpf_ringbuf_submit_dynptr(fp-32, 0) or _discard_dynptr; 4 instructions */
#define RB_SUBMIT_DYNPTR                                                                           \
	MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -32), MOV64_IMM(2, 0),                             \
		CALL_HELPER(BPF_FUNC_ringbuf_submit_dynptr)
#define RB_DISCARD_DYNPTR                                                                          \
	MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -32), MOV64_IMM(2, 0),                             \
		CALL_HELPER(BPF_FUNC_ringbuf_discard_dynptr)
/* bpf_dynptr_from_xdp(the context in r6, 0, fp-32); 5 instructions */
#define DYNPTR_FROM_XDP                                                                            \
	MOV64_REG(1, 6), MOV64_IMM(2, 0), MOV64_REG(3, 10), ALU64_IMM(BPF_ADD, 3, -32),            \
		CALL_KFUNC(HWXDP_KFUNC_DYNPTR_FROM_XDP)
/* r0 = FN(fp-32, 0, the buffer at fp-48, n <= 16); 7 instructions */
#define DYNPTR_SLICE(fn, n)                                                                        \
	MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -32), MOV64_IMM(2, 0), MOV64_REG(3, 10),           \
		ALU64_IMM(BPF_ADD, 3, -48), MOV64_IMM(4, n), CALL_KFUNC(fn)
/* An iterator at fp-8: bpf_iter_num_new(fp-8, start, end); 5 instructions */
#define ITER_NEW(start, end)                                                                       \
	MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -8), MOV64_IMM(2, start), MOV64_IMM(3, end),       \
		CALL_KFUNC(HWXDP_KFUNC_ITER_NUM_NEW)
/* r0 = bpf_iter_num_next(fp-8), or bpf_iter_num_destroy(fp-8); 3 instructions */
#define ITER_NEXT MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -8), CALL_KFUNC(HWXDP_KFUNC_ITER_NUM_NEXT)
#define ITER_DESTROY                                                                               \
	MOV64_REG(1, 10), ALU64_IMM(BPF_ADD, 1, -8), CALL_KFUNC(HWXDP_KFUNC_ITER_NUM_DESTROY)
/* bpf_sk_release(r); 2 instructions */
#define SK_RELEASE(r) MOV64_REG(1, r), CALL_HELPER(BPF_FUNC_sk_release)
/* r0 = a conntrack kfunc (lookup, alloc) of ctx, 12 zero bytes of tuple at
 * fp-16, and opts_size bytes of options at fp-32; 11 instructions */
#define CT_CALL(kfunc, opts_size)                                                                  \
	ST_MEM(BPF_DW, 10, -16, 0), ST_MEM(BPF_W, 10, -8, 0), ST_MEM(BPF_DW, 10, -32, -1),         \
		ST_MEM(BPF_DW, 10, -24, 6), MOV64_REG(2, 10), ALU64_IMM(BPF_ADD, 2, -16),          \
		MOV64_IMM(3, 12), MOV64_REG(4, 10), ALU64_IMM(BPF_ADD, 4, -32),                    \
		MOV64_IMM(5, opts_size), CALL_KFUNC(kfunc)
#define CT_LOOKUP() CT_CALL(HWXDP_KFUNC_CT_LOOKUP, 16)
/* offsets in this kernel's struct nf_conn (the tests ask the running one) */
#define NF_CONN_MASTER 160
#define NF_CONN_MARK   168
#endif /* HWXDP_TESTS_VERIFIER_CASES_H */
