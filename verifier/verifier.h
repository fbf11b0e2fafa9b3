/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwxdp's static verifier for XDP programs: decides whether a program is
 * safe to run (on the host or on the coprocessor), explains a rejection in
 * the kernel verifier's words, and hands the translator what it proved about
 * each instruction.
 *
 * The rules are the kernel's (6.18) for a program loaded with CAP_BPF and
 * CAP_NET_ADMIN, made stricter where a pointer would escape or memory would
 * be read uninitialised: reading stack bytes never written, storing a pointer
 * into a map value or the packet, or returning a pointer is rejected (the
 * kernel rejects these too once CAP_PERFMON is dropped). Subtracting packet
 * pointers, which fwd.bpf.c does, stays allowed as it is for root.
 *
 * With opts.device, the coprocessor's rules too: R0 at exit is a verdict
 * (XDP_ABORTED .. XDP_REDIRECT); a host-only helper (bpf_trace_printk,
 * bpf_fib_lookup, perf and ring buffer output, ...) becomes a punt, so no
 * map or packet write may precede it on its path; the device kfuncs
 * (bpf_hwxdp_esp_encap, id 1 in object streams) exist. Without it, a device
 * kfunc call is as unresolved as in the kernel: it must be dead code.
 * Host-only means without a unit in docs/isa.md 4.4: every helper but map
 * lookup, update and delete, redirect_map, xdp_adjust_head/meta/tail,
 * ktime_get_ns, get_prandom_u32, get_smp_processor_id and tail_call. The
 * device's tables, tail calls, local memory and microcode store limit the
 * program too (verifier/device.c).
 */
#ifndef HWXDP_VERIFIER_H
#define HWXDP_VERIFIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

#include "loader/object.h"

struct btf;

struct hwxdp_verify_opts {
	size_t sz;		       /* sizeof(struct hwxdp_verify_opts) */
	int log_level;		       /* 0 errors, 1 + path and stats,
					  2 + register state per insn */
	bool device;		       /* the coprocessor's restrictions too */
	uint32_t insn_budget;	       /* instructions to explore; 0: 1000000 */
	uint32_t expected_attach_type; /* BPF_XDP_DEVMAP unlocks egress_ifindex;
					  0: the program's (SEC("xdp/devmap")) */
	/* The host copy under the kernel's rules without CAP_PERFMON: no
	 * pointer compared, leaked or partly overwritten. The default is
	 * root's, as the appliance loads it. The device has these rules
	 * always: its pointers are offsets in its own spaces, not addresses. */
	bool unprivileged;
	/* The host copy by the kernel's rules for a program bound to a netdev
	 * (prog_ifindex and BPF_F_XDP_DEV_BOUND_ONLY): the XDP metadata
	 * kfuncs may be called. The device's copy is always bound. */
	bool dev_bound;
	/* The license the program is loaded with: a GPL-restricted helper
	 * needs a GPL-compatible one, as in the kernel. NULL: the object's,
	 * or for bare instructions a GPL-compatible one. */
	const char *license;
	/* For bare instructions: the BTF that the maps' btf_value_type_id
	 * name (a value's bpf_spin_lock is found there). An object's
	 * verification uses the object's own. */
	const struct btf *btf;
	/* The kernel's types that BTF pointers (a conntrack entry, a socket
	 * cast) are checked against. NULL: the running kernel's
	 * (/sys/kernel/btf/vmlinux), as the host copy is loaded there. */
	const struct btf *vmlinux_btf;
};

/* Maps one helper call may be passed on different paths, as facts keep them. */
#define HWXDP_MAP_ALTS 4

/* Register types in struct hwxdp_reg_fact.type. */
enum hwxdp_reg_type {
	HWXDP_REG_NOT_INIT,
	HWXDP_REG_SCALAR,
	HWXDP_REG_PTR_TO_CTX,
	HWXDP_REG_CONST_PTR_TO_MAP,
	HWXDP_REG_PTR_TO_MAP_VALUE,
	HWXDP_REG_PTR_TO_MAP_VALUE_OR_NULL,
	HWXDP_REG_PTR_TO_STACK,
	HWXDP_REG_PTR_TO_PACKET_META,
	HWXDP_REG_PTR_TO_PACKET,
	HWXDP_REG_PTR_TO_PACKET_END,
	HWXDP_REG_KFUNC_ADDR,		    /* a device kfunc's address: not NULL */
	HWXDP_REG_CONST_PTR_TO_MAP_OR_NULL, /* a lookup in a map of maps */
	HWXDP_REG_PTR_TO_MEM,		    /* a global function's pointer argument */
	HWXDP_REG_PTR_TO_MEM_OR_NULL,
	HWXDP_REG_PTR_TO_FUNC,	  /* a subprogram, passed as a helper's callback */
	HWXDP_REG_PTR_TO_MAP_KEY, /* a map's key, read-only: a for_each callback's */
	/* a socket a lookup found (struct bpf_sock), read-only, a reference;
	 * or its common part only (a request or time-wait socket too) */
	HWXDP_REG_PTR_TO_SOCKET,
	HWXDP_REG_PTR_TO_SOCKET_OR_NULL,
	HWXDP_REG_PTR_TO_SOCK_COMMON,
	HWXDP_REG_PTR_TO_SOCK_COMMON_OR_NULL,
	/* a kernel struct (vmlinux BTF): a conntrack entry, a TCP socket */
	HWXDP_REG_PTR_TO_BTF_ID,
	HWXDP_REG_PTR_TO_BTF_ID_OR_NULL,
	HWXDP_REG_MIXED = 0xff, /* visits disagree on the type */
};

/*
 * What held in a register on entry to an instruction, over every visit.
 * For a scalar the bounds are its value's; for a pointer they are the
 * offset from the start of the object it points into (off plus the variable
 * part); off is the fixed part when every visit agrees on it, else 0.
 * Facts about a register say nothing where the register is not read.
 */
struct hwxdp_reg_fact {
	uint8_t type; /* enum hwxdp_reg_type */
	int32_t off;
	uint64_t umin, umax;
	int64_t smin, smax;
	uint64_t tnum_value, tnum_mask;
};

struct hwxdp_insn_fact {
	bool reachable;
	bool pkt_check_always_true;  /* packet bound check: always jumps */
	bool pkt_check_always_false; /* never jumps */
	bool map_key_const;	     /* map helper call: the key is map_key */
	uint64_t map_key;	     /* little-endian bytes of the key */
	bool map_known;		     /* map helper call: every visit passed map_index */
	uint32_t map_index;	     /* index into the maps the verifier was given */
	/* map helper call whose visits passed different maps: the ones they
	 * passed, in the order first seen, when no more than HWXDP_MAP_ALTS
	 * (map_alt_cnt is HWXDP_MAP_ALTS + 1 when there were more) */
	uint8_t map_alt_cnt;
	uint32_t map_alt[HWXDP_MAP_ALTS];
	/* device: a host-only helper the device does not call; it punts the
	 * frame to the host here (reason HOST_ONLY), and nothing after it on
	 * the path runs on the device */
	bool punt_point;
	/* device: a bpf_redirect_map given a map only the host reaches
	 * (cpumap, xskmap) on some paths and a port table on the others
	 * (map_alt): it punts on the former, as punt_point, and redirects on
	 * the latter */
	bool punt_host_maps;
	/* device: a tail call that some path reaches after a map or packet
	 * write; the program it calls must not punt (the host would repeat
	 * the write, or see a frame already changed) */
	bool tail_call_after_side_effect;
	struct hwxdp_reg_fact regs[11];
};

struct hwxdp_verify_result {
	bool accepted;
	char *log; /* NUL-terminated */
	size_t log_len;
	uint32_t error_insn; /* where a rejection happened */
	uint32_t insns_processed, states_total, states_peak, max_states_per_insn;
	uint64_t verify_ns;
	struct hwxdp_insn_fact *facts; /* one per instruction */
	size_t fact_cnt;
};

/*
 * Verifies cnt instructions of an XDP program whose ld_imm64 map references
 * carry indexes into maps[]. Returns 0 when the verification ran, whether
 * the program was accepted or not (see (*out)->accepted), or a negative
 * errno when it could not run (*out is then NULL).
 */
__attribute__((visibility("default"))) int
hwxdp_verify_insns(const struct bpf_insn *insns, size_t cnt, const struct hwxdp_map_desc *maps,
		   size_t map_cnt, const struct hwxdp_verify_opts *opts,
		   struct hwxdp_verify_result **out);

/* As hwxdp_verify_insns for a program of obj; the log names source lines.
 * -EOPNOTSUPP for a program that is not XDP. */
__attribute__((visibility("default"))) int hwxdp_verify(const struct hwxdp_object *obj,
							const struct hwxdp_prog *prog,
							const struct hwxdp_verify_opts *opts,
							struct hwxdp_verify_result **out);

__attribute__((visibility("default"))) void
hwxdp_verify_result__free(struct hwxdp_verify_result *res);

#endif /* HWXDP_VERIFIER_H */
