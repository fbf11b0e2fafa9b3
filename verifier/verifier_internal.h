/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verifier's abstract state and the functions its parts share.
 * check.c explains the design.
 */
#ifndef HWXDP_VERIFIER_INTERNAL_H
#define HWXDP_VERIFIER_INTERNAL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verifier/tnum.h"
#include "verifier/verifier.h"

#define BPF_REG_FP	    10
#define MAX_BPF_STACK	    512
#define STACK_SLOTS	    (MAX_BPF_STACK / 8)
#define MAX_CALL_FRAMES	    8
#define MAX_PACKET_OFF	    0xffff
#define MAX_VAR_OFF	    (1 << 29)
#define MAX_PENDING_STATES  8192
#define DEFAULT_INSN_BUDGET 1000000
#define MAX_REFS	    16 /* references (sockets, ring buffer reservations) held at once */

/* A verification error: the program is rejected, the reason is logged. */
#define REJECT (-EACCES)

/* Register types: the public enum, so facts copy them as they are. */
enum reg_type {
	NOT_INIT = HWXDP_REG_NOT_INIT,
	SCALAR_VALUE = HWXDP_REG_SCALAR,
	PTR_TO_CTX = HWXDP_REG_PTR_TO_CTX,
	CONST_PTR_TO_MAP = HWXDP_REG_CONST_PTR_TO_MAP,
	PTR_TO_MAP_VALUE = HWXDP_REG_PTR_TO_MAP_VALUE,
	PTR_TO_MAP_VALUE_OR_NULL = HWXDP_REG_PTR_TO_MAP_VALUE_OR_NULL,
	PTR_TO_STACK = HWXDP_REG_PTR_TO_STACK,
	PTR_TO_PACKET_META = HWXDP_REG_PTR_TO_PACKET_META,
	PTR_TO_PACKET = HWXDP_REG_PTR_TO_PACKET,
	PTR_TO_PACKET_END = HWXDP_REG_PTR_TO_PACKET_END,
	KFUNC_ADDR = HWXDP_REG_KFUNC_ADDR,
	CONST_PTR_TO_MAP_OR_NULL = HWXDP_REG_CONST_PTR_TO_MAP_OR_NULL,
	PTR_TO_MEM = HWXDP_REG_PTR_TO_MEM, /* mem_size bytes, whatever they are */
	PTR_TO_MEM_OR_NULL = HWXDP_REG_PTR_TO_MEM_OR_NULL,
	PTR_TO_FUNC = HWXDP_REG_PTR_TO_FUNC,	   /* a subprogram (map: its number) */
	PTR_TO_MAP_KEY = HWXDP_REG_PTR_TO_MAP_KEY, /* key_size bytes, read-only */
	PTR_TO_SOCKET = HWXDP_REG_PTR_TO_SOCKET,   /* struct bpf_sock, read-only */
	PTR_TO_SOCKET_OR_NULL = HWXDP_REG_PTR_TO_SOCKET_OR_NULL,
	PTR_TO_SOCK_COMMON = HWXDP_REG_PTR_TO_SOCK_COMMON, /* its common fields only */
	PTR_TO_SOCK_COMMON_OR_NULL = HWXDP_REG_PTR_TO_SOCK_COMMON_OR_NULL,
	/* a kernel struct of vmlinux BTF (btf_ptr.c): btf_id its type */
	PTR_TO_BTF_ID = HWXDP_REG_PTR_TO_BTF_ID,
	PTR_TO_BTF_ID_OR_NULL = HWXDP_REG_PTR_TO_BTF_ID_OR_NULL,
};

/* Device kfunc ids in hwxdp instruction streams (loader/kfuncs.h). */
#define KFUNC_ESP_ENCAP 1
/* The kernel's XDP metadata kfuncs, by the same table's ids. */
#define KFUNC_XDP_RX_TIMESTAMP 2
#define KFUNC_XDP_RX_HASH      3
#define KFUNC_XDP_RX_VLAN_TAG  4
/* The kernel's dynptr kfuncs (dynptr.c). */
#define KFUNC_DYNPTR_FROM_XDP	5
#define KFUNC_DYNPTR_SLICE	6
#define KFUNC_DYNPTR_SLICE_RDWR 7
/* The kernel's numeric iterator (iter.c). */
#define KFUNC_ITER_NUM_NEW     8
#define KFUNC_ITER_NUM_NEXT    9
#define KFUNC_ITER_NUM_DESTROY 10
/* The kernel's conntrack kfuncs for XDP (btf_ptr.c). */
#define KFUNC_CT_LOOKUP		11
#define KFUNC_CT_ALLOC		12
#define KFUNC_CT_INSERT_ENTRY	13
#define KFUNC_CT_RELEASE	14
#define KFUNC_CT_SET_TIMEOUT	15
#define KFUNC_CT_CHANGE_TIMEOUT 16
#define KFUNC_CT_SET_STATUS	17
#define KFUNC_CT_CHANGE_STATUS	18
#define KFUNC_CT_SET_NAT_INFO	19

/* Packet pointer ranges below zero: what a failed comparison taught. */
enum {
	AT_PKT_END = -1,     /* pointer >= data_end */
	BEYOND_PKT_END = -2, /* pointer > data_end */
};

/*
 * A register: its type, a fixed offset off (pointers), and a variable part
 * known as a tnum and as signed/unsigned 64- and 32-bit ranges, all kept
 * consistent by reg_bounds_sync(). For a scalar the variable part is the
 * value. Registers with the same nonzero id hold the same value (scalars),
 * the result of the same lookup (map_value_or_null) or packet pointers with
 * the same variable part, which then share range.
 */
struct reg_state {
	struct tnum var_off;
	int64_t smin, smax;
	uint64_t umin, umax;
	int32_t s32_min, s32_max;
	uint32_t u32_min, u32_max;
	int32_t off;
	uint32_t id;
	uint32_t ref_obj_id; /* a socket or ring buffer memory: the reference it is, else 0 */
	int32_t range;	     /* packet: bytes from off 0 known to be in the frame */
	uint32_t mem_size;   /* PTR_TO_MEM: the bytes it points to */
	uint32_t dynptr_id;  /* PTR_TO_MEM: the dynptr it is a slice of, else 0 */
	uint32_t btf_id;     /* PTR_TO_BTF_ID(_OR_NULL): its struct in vmlinux BTF */
	uint16_t map;	     /* map pointers and values: index into env->maps;
				PTR_TO_FUNC: the subprogram */
	uint8_t type;
	uint8_t frameno; /* stack pointers: the frame whose stack */
	/* a scalar of a stored state some path from it depended on
	 * (precision.c); only these are compared by their bounds */
	uint8_t precise;
	uint8_t mem_flags; /* PTR_TO_MEM(_OR_NULL): MEM_*; PTR_TO_BTF_ID: BTF_* */
	int16_t iter_off;  /* MEM_ITER_VALUE: the iterator's offset in frame frameno */
};

enum stack_byte {
	STACK_INVALID, /* never written */
	STACK_MISC,    /* written, value unknown */
	STACK_ZERO,    /* written with zero */
	STACK_SPILL,   /* part of a spilled register */
	STACK_DYNPTR,  /* part of a struct bpf_dynptr (dynptr.c) */
	STACK_ITER,    /* a struct bpf_iter_num (iter.c) */
};

/* An open-coded iterator's state, as the kernel's enum bpf_iter_state. */
enum { ITER_ACTIVE = 1, ITER_DRAINED };

/* The kinds of dynptr, as the kernel's enum bpf_dynptr_type names them. */
enum dynptr_kind { DYNPTR_NONE, DYNPTR_LOCAL, DYNPTR_RINGBUF, DYNPTR_XDP };

/* PTR_TO_MEM(_OR_NULL): what else the memory is */
enum {
	MEM_RDONLY = 1,	     /* bpf_dynptr_slice's: read only */
	MEM_XDP_SLICE = 2,   /* a slice of an xdp dynptr: gone when the packet moves */
	MEM_DYNPTR_DATA = 4, /* bpf_dynptr_data's: gone with its dynptr */
	/* read through a BTF pointer's member that points to no struct
	 * (btf_ptr.c): read anywhere, as the kernel's probe loads do */
	MEM_UNTRUSTED = 8,
	MEM_ITER_VALUE = 16, /* bpf_iter_num_next's: the iterator's own int */
};

/* PTR_TO_BTF_ID(_OR_NULL): what the kernel knows of the object */
enum {
	BTF_UNTRUSTED = 1, /* PTR_UNTRUSTED: read through an untrusted one or a union */
	BTF_RCU = 2,	   /* MEM_RCU: an __rcu member of a trusted one */
	BTF_UNSAFE = 4,	   /* MEM_PERCPU or MEM_USER: not to be read through */
};

/* 8 bytes of stack; byte[0] is the lowest address. */
struct stack_slot {
	struct reg_state spill; /* when spill_size: the register stored at byte 0;
				   a dynptr's slots: its id and ref_obj_id */
	uint8_t byte[8];	/* enum stack_byte */
	uint8_t spill_size;
	uint8_t dynptr;	   /* STACK_DYNPTR: enum dynptr_kind */
	bool dynptr_first; /* STACK_DYNPTR: the lower of its two slots */
	uint8_t iter;	   /* STACK_ITER: ITER_ACTIVE or ITER_DRAINED */
	uint32_t iter_depth; /* STACK_ITER: iterations begun on the path */
};

/* One call frame. Slot i holds fp-8*(i+1) .. fp-8*i-1. */
struct func_state {
	struct reg_state regs[MAX_BPF_REG];
	uint32_t callsite; /* the call insn that made this frame */
	uint32_t subprog;
	uint32_t frameno;
	uint32_t slot_cnt;
	uint32_t slot_cap; /* slots allocated at stack */
	struct stack_slot *stack;
	/* Stack liveness, one bit per slot (state.c). Of the current path:
	 * the slots overwritten since its last stored state. Of a stored
	 * state: those overwritten on the way to it, and those that a path
	 * from it reads before overwriting. */
	uint64_t stack_written;
	uint64_t stack_read;
	/* References the path holds (sockets, ring buffer reservations), with the
	 * instruction that took each: the current frame's set is the path's,
	 * a call copies it into the callee and a return back out. A stored
	 * state covers only a path holding as many, mapped one to one
	 * (state.c, refsafe). */
	uint32_t ref_cnt;
	uint32_t ref_id[MAX_REFS];
	uint32_t ref_insn[MAX_REFS];
	/* The bpf_spin_lock the path holds, kept in frame 0 only: 1 + the
	 * insn that took it (0: none), its map and the value pointer's id.
	 * A path holding it is never pruned (check.c), as with references. */
	uint32_t lock_insn;
	uint32_t lock_map;
	uint32_t lock_id;
	/* A callback's frame: called by the helper at callsite, which the
	 * path goes back to at its exit (helpers.c). */
	bool in_callback;
	/* A timer's callback (bpf_timer_set_callback): frame 0 of a path of
	 * its own, which the kernel runs later, not at the call; its exit
	 * returns 0 (helpers.c, check.c). */
	bool async_callback;
	/* Of a caller: how often this path has called the callback of the
	 * helper call it is at, which bounds the calls by the helper's count
	 * (the kernel's callback_depth). */
	uint32_t callback_depth;
};

/* One instruction a path walked (precision.c). */
enum {
	HIST_STACK = 1,		   /* a load or store at stack slot slot of stack_frame */
	HIST_STACK_VAR = 2,	   /* a stack access at a variable offset */
	HIST_LINKED_ELSEWHERE = 4, /* a jump whose operands have links in other
				      frames or in spills */
	HIST_CALLBACK_EXIT = 8,	   /* an exit from a callback, back to its helper call */
};

struct hist_entry {
	uint32_t idx;
	uint16_t linked; /* a conditional jump: registers linked to an operand */
	uint8_t frame;	 /* the frame it ran in */
	uint8_t flags;
	uint8_t stack_frame, slot, byte, size;
};

struct vstate {
	struct func_state *frame[MAX_CALL_FRAMES];
	uint32_t curframe;
	/* Exploration bookkeeping: the checkpoint this path last passed, and
	 * for a checkpoint the paths below it still being explored. */
	struct vstate *parent;
	uint32_t branches;
	uint32_t insn_idx;
	/* 1 + the first instruction on this path with an effect outside the
	 * program (map or packet write), 0 for none: the device punts to the
	 * host only before one. */
	uint32_t side_effect;
	/* the instructions walked since the parent was stored (precision.c);
	 * hist_lost when there were too many to keep */
	struct hist_entry *hist;
	uint32_t hist_cnt, hist_cap;
	bool hist_lost;
	bool all_precise; /* a stored state: every scalar marked, and above */
	/* a stored state some of whose paths go on as a state still being
	 * explored does: every slot counts as read (state.c) */
	bool reads_all;
};

struct explored {
	struct explored *next;
	uint32_t hit_cnt, miss_cnt; /* visits it covered, and did not */
	uint64_t regs_hash;	    /* of its current frame's registers (state.c) */
	struct vstate st;
};

struct pending {
	struct vstate *st;
	uint32_t insn_idx, prev_insn_idx;
	size_t log_pos;
};

/* A global function's argument, from its BTF prototype. */
enum global_arg { GARG_SCALAR = 1, GARG_CTX, GARG_MEM };

struct subprog_info {
	uint32_t start;
	uint32_t stack_depth; /* deepest byte touched, rounded up to 8 */
	/* host, BTF-typed global functions: verified once, on their own */
	bool global, called, verified;
	/* a timer's callback: the root of a call chain of its own */
	bool async_cb;
	uint8_t arg_cnt;
	uint8_t arg[5];	      /* enum global_arg */
	uint32_t arg_size[5]; /* GARG_MEM: the size of what it points to */
	const char *name;
};

struct insn_aux {
	bool prune_point;
	bool jump_target;
	bool ld_imm64_second; /* the second half of an ld_imm64 */
	bool visited;
	bool branch_unknown; /* a visit explored both sides */
	bool branch_true;    /* a visit knew the jump is taken */
	bool branch_false;   /* a visit knew it is not */
	bool pkt_compare;    /* a visit compared packet pointers */
	bool key_seen;	     /* a visit had a constant key (facts.map_key) */
	bool key_varies;     /* a visit had no or another constant key */
	bool map_varies;     /* visits passed different maps (facts.map_known) */
	bool callback_call;  /* a helper call that calls a callback: a state is
				always stored here, where its calls converge */
	uint16_t live_in;    /* registers possibly read before written */
	uint8_t prune_hint;  /* state.c: where states here last differed */
	uint32_t subprog;
	uint32_t visits; /* how often the walk came here: the budget's hint */
};

struct verifier_env {
	const struct bpf_insn *insns;
	uint32_t insn_cnt;
	const struct hwxdp_map_desc *maps;
	uint32_t map_cnt;
	const struct hwxdp_prog *prog; /* source lines, or NULL */
	int log_level;
	bool device;
	bool allow_ptr_leaks; /* root's rules for the host copy */
	bool dev_bound;       /* bound to a netdev: the device's copy, or a host one */
	/* stack bytes never written read into a register as unknown: root's
	 * rule, and the device's, where they are bytes of its local memory */
	bool allow_uninit_stack;
	bool perfmon;	       /* CAP_PERFMON's helpers (printing, kernel reads) */
	bool gpl_compatible;   /* the license lets GPL-restricted helpers be called */
	const struct btf *btf; /* the object's, for global functions; or NULL */
	/* the kernel's types, for BTF pointers (btf_ptr.c); NULL: none known */
	const struct btf *vmlinux_btf;
	uint32_t insn_budget;
	uint32_t attach_type;

	struct insn_aux *aux;
	struct subprog_info *subprogs;
	uint32_t subprog_cnt;
	uint8_t *calls; /* calls[a * subprog_cnt + b]: a calls b */

	struct vstate *cur;
	uint32_t insn_idx, prev_insn_idx;
	struct pending *pending;
	uint32_t pending_cnt, pending_cap;
	struct explored **explored; /* per insn */
	uint32_t *state_cnt;	    /* per insn */
	/* state.c: states kept for reuse (chained by parent), stored ones */
	struct vstate *spare_states;
	struct explored *spare_explored;
	uint32_t id_gen;

	uint32_t insns_processed, states_total, states_live, states_peak, max_states_per_insn;
	uint32_t jmps_processed;
	/* state.c: the counts when a state was last stored */
	uint32_t prev_jmps_processed, prev_insns_processed;

	char *log;
	size_t log_len, log_cap;
	bool log_failed;
	int32_t last_line; /* index into prog->lines last printed */
	uint32_t error_insn;

	struct hwxdp_insn_fact *facts;

	/* device: the call just checked punts; the path ends there */
	bool punted;
	/* the dynptr the call just checked reads (helpers.c, dynptr.c) */
	uint32_t call_dynptr_id, call_dynptr_ref;
	uint8_t call_dynptr_kind;
};

/* Runs body for every register and spilled register of the state. */
#define for_each_reg(st, reg, body)                                                                \
	do {                                                                                       \
		uint32_t f_, i_;                                                                   \
		for (f_ = 0; f_ <= (st)->curframe; f_++) {                                         \
			struct func_state *fr_ = (st)->frame[f_];                                  \
			for (i_ = 0; i_ < MAX_BPF_REG; i_++) {                                     \
				struct reg_state *reg = &fr_->regs[i_];                            \
				body;                                                              \
			}                                                                          \
			for (i_ = 0; i_ < fr_->slot_cnt; i_++) {                                   \
				struct reg_state *reg = &fr_->stack[i_].spill;                     \
				if (!fr_->stack[i_].spill_size)                                    \
					continue;                                                  \
				body;                                                              \
			}                                                                          \
		}                                                                                  \
	} while (0)

/* log.c */
__attribute__((format(printf, 2, 3))) void verbose(struct verifier_env *env, const char *fmt, ...);
void log_truncate(struct verifier_env *env, size_t pos);
void log_insn(struct verifier_env *env, uint32_t idx);
void log_source_line(struct verifier_env *env, uint32_t idx);
void log_state(struct verifier_env *env, const struct vstate *st, bool all_frames);
void log_reg_changes(struct verifier_env *env, const struct func_state *before,
		     const struct func_state *after);
const char *reg_type_str(uint8_t type);
const char *helper_name(int func_id);

/* bounds.c: scalar ranges */
void reg_mark_known(struct reg_state *reg, uint64_t value);
void reg_mark_unknown(struct reg_state *reg);
void reg_mark_not_init(struct reg_state *reg);
void reg_set_unbounded(struct reg_state *reg);
void reg_bounds_sync(struct reg_state *reg);
bool reg_bounds_empty(const struct reg_state *reg);
bool reg_is_const(const struct reg_state *reg);
bool reg_is_const32(const struct reg_state *reg);
void reg_zext32(struct reg_state *reg);
void reg_coerce_size(struct reg_state *reg, int size);
void reg_coerce_size_sx(struct reg_state *reg, int size);
/* dst = dst op src for scalars; op is BPF_OP() of the instruction. */
void scalar_alu(struct reg_state *dst, const struct reg_state *src, uint8_t op, bool alu32);
/* Byte order: bits 16/32/64; swap for "to big endian" and bswap. */
void scalar_endian(struct reg_state *reg, int bits, bool swap);
/* 1 taken, 0 not taken, -1 either, for scalars. */
int scalar_branch_taken(const struct reg_state *a, const struct reg_state *b, uint8_t op,
			bool jmp32);
/* Narrows a and b to the values for which "a op b" holds. */
void scalar_refine(struct reg_state *a, struct reg_state *b, uint8_t op, bool jmp32);
uint8_t jmp_negate(uint8_t op);
uint8_t jmp_flip(uint8_t op);

/* state.c */
struct vstate *state_new(void);
void state_free(struct vstate *st);
int state_copy(struct vstate *dst, const struct vstate *src);
struct vstate *state_dup(const struct vstate *src);
void state_clear(struct vstate *st);
int frame_grow_stack(struct func_state *frame, uint32_t slots);
struct func_state *frame_new(uint32_t frameno, uint32_t callsite, uint32_t subprog);
/* Looks for a stored state at insn that covers cur: 1 prune, 0 go on,
 * REJECT for an infinite loop, -ENOMEM. */
int state_visit(struct verifier_env *env, uint32_t insn);
void state_path_done(struct verifier_env *env);
/* The current path reads (or partly writes) a slot of a frame. */
void stack_mark_read(struct verifier_env *env, const struct func_state *frame, uint32_t slot);
int state_push(struct verifier_env *env, uint32_t insn, uint32_t prev_insn, struct vstate **out);
/* Pops the next pending path into env->cur: 1 popped, 0 none left. */
int state_pop(struct verifier_env *env);
void state_free_all(struct verifier_env *env);

/* precision.c */
int precise_note_insn(struct verifier_env *env, uint32_t idx);
void precise_note_stack(struct verifier_env *env, uint32_t frameno, int64_t lo, int size, bool var);
void precise_note_links(struct verifier_env *env, uint32_t id_a, uint32_t id_b);
/* A newly stored state: no scalar of it is known to matter yet. */
void precise_reset(struct vstate *st);
/* The current instruction depends on these registers of the current frame
 * (scalars only), or on these stack slots of a frame. */
void precise_mark_regs(struct verifier_env *env, uint16_t regs);
void precise_mark_slots(struct verifier_env *env, uint32_t frameno, uint64_t slots);
/* The current path is cut by old: it depends on what old's paths did;
 * with all, on every scalar of old (a cover by a state still explored). */
void precise_propagate(struct verifier_env *env, const struct vstate *old, bool all);
/* The instruction being checked is a callback's exit (back to its call). */
void precise_note_callback_exit(struct verifier_env *env);

/* cfg.c: checks that need no state; liveness and prune points */
int check_program_shape(struct verifier_env *env);
int check_stack_depths(struct verifier_env *env);

/* helpers.c */
/* The registers a helper reads: R1 up to its last argument. */
uint16_t helper_arg_regs(int func_id);
/* The helper calls a callback the program passes it (bpf_loop). */
bool helper_calls_back(int func_id);
int check_helper_call(struct verifier_env *env, const struct bpf_insn *insn, uint32_t idx);
/* 1 + the insn of the bpf_spin_lock the path holds, 0 for none. */
uint32_t lock_held(const struct verifier_env *env);
/* Whether map's values have a bpf_spin_lock (BTF), kept by a NULL check. */
bool map_has_lock(const struct verifier_env *env, const struct hwxdp_map_desc *map);
/* A load, store or helper access of size bytes at off of a map value
 * pointer: refused where it touches the value's bpf_spin_lock or
 * bpf_timer. */
int check_map_field_access(struct verifier_env *env, uint32_t regno, const struct reg_state *reg,
			   int32_t off, int size);
int check_kfunc_call(struct verifier_env *env, const struct bpf_insn *insn, uint32_t idx);
/* A kfunc's memory argument in regno and its __sz in the next: read and
 * written, of up to the size's bound, as the kernel's check_kfunc_mem_size_reg. */
int check_kfunc_mem_arg(struct verifier_env *env, uint32_t regno);
/* Every packet pointer of the state becomes unusable. */
void invalidate_packet_pointers(struct vstate *st);

/* dynptr.c: struct bpf_dynptr on the stack */
/* A write of [lo, hi) into frame's stack ends the dynptrs it touches, or is
 * refused for one that holds a reference. */
int dynptr_stack_write(struct verifier_env *env, struct func_state *frame, int64_t lo, int64_t hi);
/* A read of [lo, hi) by a load or a helper, or a helper's write there,
 * touches no dynptr. */
int dynptr_stack_touch(struct verifier_env *env, const struct func_state *frame, int64_t lo,
		       int64_t hi, bool helper_write);
/* A dynptr argument in regno: made there (kind, ref for a ring buffer's:
 * acquires one), or one made before, of kind (DYNPTR_NONE: any), whose id,
 * kind and ref_obj_id come out. */
int dynptr_arg_init(struct verifier_env *env, uint32_t regno, uint8_t kind, uint32_t idx);
int dynptr_arg_made(struct verifier_env *env, uint32_t regno, uint8_t kind, uint32_t *id,
		    uint8_t *made_kind, uint32_t *ref);
/* Gives back a ring buffer dynptr's reference: its slots and slices go. */
void dynptr_release(struct verifier_env *env, uint32_t ref);
/* The kernel's dynptr kfuncs: bpf_dynptr_from_xdp, _slice, _slice_rdwr */
bool kfunc_is_dynptr(const struct bpf_insn *insn);
int check_dynptr_kfunc(struct verifier_env *env, const struct bpf_insn *insn, uint32_t idx);
int dynptr_frame_moves(struct verifier_env *env, uint32_t idx, const char *what);

/* iter.c: bpf_iter_num_new, _next and _destroy */
bool kfunc_is_iter(const struct bpf_insn *insn);
bool kfunc_is_iter_next(const struct bpf_insn *insn);
int check_iter_kfunc(struct verifier_env *env, const struct bpf_insn *insn, uint32_t idx);

/* kfuncs.c: the kernel's XDP metadata kfuncs */
bool kfunc_is_xdp_metadata(const struct bpf_insn *insn);
/* A kfunc's name by hwxdp id, or NULL. */
const char *kfunc_name(int32_t id);
/* Before the walk, dead code included, as the kernel resolves calls: a
 * metadata kfunc on the host (an unbound program) is refused. */
int check_kfunc_binding(struct verifier_env *env, const struct bpf_insn *insn, uint32_t idx);
int check_xdp_metadata_call(struct verifier_env *env, const struct bpf_insn *insn);

/* btf_ptr.c: pointers to kernel structs (vmlinux BTF), conntrack kfuncs */
/* The struct name of a BTF pointer ("nf_conn"), or "?". */
const char *btf_ptr_struct_name(const struct verifier_env *env, const struct reg_state *reg);
/* A load or store of size bytes at off (the instruction's) through the
 * PTR_TO_BTF_ID in regno; a load's value in dst. */
int check_btf_ptr_access(struct verifier_env *env, uint32_t regno, int32_t off, int size,
			 bool write, struct reg_state *dst);
/* R0 of a helper that returns a kernel struct of that name, or NULL. */
int btf_ptr_mark_ret(struct verifier_env *env, struct reg_state *r0, const char *struct_name);
/* Whether the BTF pointer's struct has a struct sock_common at offset 0. */
bool btf_ptr_is_sock_common(const struct verifier_env *env, const struct reg_state *reg);
bool kfunc_is_conntrack(const struct bpf_insn *insn);
const char *conntrack_kfunc_name(int32_t id);
int check_conntrack_kfunc(struct verifier_env *env, const struct bpf_insn *insn, uint32_t idx);

/* device.c: the coprocessor's restrictions, when env->device */
const char *map_type_name(uint32_t type);
/* The map a device operation at insn idx works on has a device table. */
int device_check_map(struct verifier_env *env, const struct hwxdp_map_desc *map, uint32_t idx);
/* A host-only helper at idx: a punt point (env->punted), or a rejection
 * when the path has had a side effect; reason, when not NULL, says why the
 * coprocessor has no such operation. */
int device_host_only_call(struct verifier_env *env, int func_id, const char *reason, uint32_t idx);
/* A map whose redirects leave the device for the host: a cpumap (a host
 * CPU's queue), an xskmap (an AF_XDP socket in host memory). */
bool device_redirect_to_host(const struct hwxdp_map_desc *map);
/* bpf_redirect_map at idx, given env->maps[map] on this path: into such a
 * map a punt point, or a rejection after a side effect; a rejection when the
 * call's paths pass both kinds of map. */
int device_check_redirect(struct verifier_env *env, uint32_t map, uint32_t idx);
int device_check_tail_call(struct verifier_env *env, uint32_t idx);
/* After the walk: what the walk reached fits the device. */
int device_check_reached(struct verifier_env *env);

/* check.c: the whole verification of env into res (facts, figures) */
int verifier_run(struct verifier_env *env, struct hwxdp_verify_result *res);

/* check.c, for helpers.c */
void note_side_effect(struct verifier_env *env);
int check_mem_region(struct verifier_env *env, uint32_t regno, int32_t off, int size, bool write,
		     bool zero_ok);
int check_reg_readable(struct verifier_env *env, uint32_t regno);
struct func_state *cur_frame(struct verifier_env *env);
uint32_t new_id(struct verifier_env *env);
/* A new reference taken at insn idx: its id, or 0 (logged) when too many
 * are held. */
uint32_t acquire_reference(struct verifier_env *env, uint32_t idx);
/* Gives reference ref back: every register and spill holding it becomes
 * unusable, as the memory is no longer the program's. */
void release_reference(struct verifier_env *env, uint32_t ref);
const struct stack_slot *stack_slot_at(const struct func_state *frame, int32_t off);

static inline bool type_is_pkt(uint8_t type)
{
	return type == PTR_TO_PACKET || type == PTR_TO_PACKET_META;
}

/* A socket pointer, NULL-checked or not. */
static inline bool type_is_mem(uint8_t type)
{
	return type == PTR_TO_MEM || type == PTR_TO_MEM_OR_NULL;
}

static inline bool type_is_sock(uint8_t type)
{
	return type == PTR_TO_SOCKET || type == PTR_TO_SOCKET_OR_NULL ||
	       type == PTR_TO_SOCK_COMMON || type == PTR_TO_SOCK_COMMON_OR_NULL;
}

/* A pointer that may be NULL, which a comparison with 0 decides. */
static inline bool type_is_or_null(uint8_t type)
{
	return type == PTR_TO_MAP_VALUE_OR_NULL || type == CONST_PTR_TO_MAP_OR_NULL ||
	       type == PTR_TO_MEM_OR_NULL || type == PTR_TO_SOCKET_OR_NULL ||
	       type == PTR_TO_SOCK_COMMON_OR_NULL || type == PTR_TO_BTF_ID_OR_NULL;
}

static inline bool type_is_ptr(uint8_t type)
{
	return type != NOT_INIT && type != SCALAR_VALUE;
}

#endif /* HWXDP_VERIFIER_INTERNAL_H */
