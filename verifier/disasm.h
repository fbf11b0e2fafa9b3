/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF instructions as text, in the kernel verifier's own words, so that
 * hwxdp's log reads like the kernel's and can be diffed against it line by
 * line (tests/disasm/test_kernel.c does, against the running kernel).
 *
 * The one place the text differs from a kernel verifier log: ld_imm64 with a
 * pseudo src_reg. By the time the kernel prints it, the reference has become
 * a kernel address ("(18) r1 = 0xffff8881..."). hwxdp's object streams
 * (include/hwxdp/object.h) carry a map index instead, so the reference is
 * printed symbolically, and verifier/asm.c reads it back:
 *   BPF_PSEUDO_MAP_FD          (18) r1 = map[idx:N]
 *   BPF_PSEUDO_MAP_VALUE       (18) r1 = map[idx:N][0]+OFF    (OFF is insn[1].imm)
 *   BPF_PSEUDO_MAP_IDX         (18) r1 = map[fd_array:N]
 *   BPF_PSEUDO_MAP_IDX_VALUE   (18) r1 = map[fd_array:N][0]+OFF
 *   BPF_PSEUDO_BTF_ID          (18) r1 = ksym[btf_id:N]       ksym[btf_id:N,btf_fd:M]
 *   BPF_PSEUDO_FUNC            (18) r1 = func[pc+N]
 * A kfunc call prints "(85) call NAME#ID" with the name of the kfunc hwxdp
 * numbers ID (loader/kfuncs.h), else "(85) call kernel-function#ID", the
 * kernel's text for a kfunc whose BTF name is not at hand.
 */
#ifndef HWXDP_VERIFIER_DISASM_H
#define HWXDP_VERIFIER_DISASM_H

#include <linux/bpf.h>
#include <stddef.h>

/* ISA v4 and later encodings the installed UAPI header may predate. */
#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80
#endif
#ifndef BPF_JCOND
#define BPF_JCOND 0xe0
#endif
#ifndef BPF_MAY_GOTO
#define BPF_MAY_GOTO 0
#endif
#ifndef BPF_LOAD_ACQ
#define BPF_LOAD_ACQ 0x100
#endif
#ifndef BPF_STORE_REL
#define BPF_STORE_REL 0x110
#endif
#ifndef BPF_ADDR_SPACE_CAST
#define BPF_ADDR_SPACE_CAST 1
#endif
/* Kernel-internal encodings that still show up in kernel logs. */
#define HWXDP_BPF_NOSPEC      0xc0 /* mode of BPF_ST */
#define HWXDP_BPF_ADDR_PERCPU (-1) /* off of ALU64 MOV X */

/*
 * One instruction as the kernel verifier log prints it, without the index
 * and the newline: "(b7) r0 = 0", "(85) call bpf_map_lookup_elem#1".
 * remaining is the number of instructions readable at insn (ld_imm64 reads
 * two). Returns the length of the full text, as snprintf does.
 */
int hwxdp_disasm_insn(const struct bpf_insn *insn, size_t remaining, char *buf, size_t len);

/* "bpf_map_lookup_elem" for 1; NULL for an id the UAPI header does not name. */
const char *hwxdp_helper_name(int func_id);

/* The helper id named name ("bpf_map_lookup_elem"), or -ENOENT. */
int hwxdp_helper_id(const char *name);

#endif /* HWXDP_VERIFIER_DISASM_H */
