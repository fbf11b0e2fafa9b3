/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel as the oracle of the verifier tests: the test maps, created
 * both as hwxdp map descriptions and as real kernel maps, and program loads
 * with or without CAP_PERFMON.
 */
#ifndef HWXDP_TESTS_VERIFIER_KERNEL_H
#define HWXDP_TESTS_VERIFIER_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/bpf.h>

#include "loader/object.h"

/* The test maps, by index (the imm of LD_MAP_FD in test programs). */
enum {
	MAP_HASH,	    /* hash, key 8, value 16 */
	MAP_ARRAY,	    /* array, key 4, value 48, 4 entries */
	MAP_PROGS,	    /* prog array, 4 entries */
	MAP_RODATA,	    /* frozen one-entry array, value 16: u32 1, 2, 3, 4 */
	MAP_TX,		    /* devmap hash, key 4, value 4 */
	MAP_BSS,	    /* writable one-entry array, value 16 */
	MAP_HASH_LARGE_KEY, /* hash, key 16, value 8 */
	MAP_RINGBUF,	    /* ring buffer of 4096 bytes */
	MAP_QUEUE,	    /* queue, no key, value 8, 4 entries */
	MAP_BLOOM,	    /* bloom filter, no key, value 8, 4 entries */
	MAP_LOCKED,	    /* hash, key 4, value struct locked (test_btf) */
	MAP_TIMED,	    /* hash, key 4, value struct timed (test_btf) */
	MAP_TIMED_ARRAY,    /* array of 2, value struct timed */
	MAP_CNT,
};

extern const struct hwxdp_map_desc test_maps[MAP_CNT];

/* How the kernel judges: with every capability, or with CAP_BPF and
 * CAP_NET_ADMIN but without CAP_PERFMON/CAP_SYS_ADMIN, where pointer leaks
 * and uninitialised stack reads are errors (the rules hwxdp keeps). */
enum kernel_mode {
	KERNEL_PRIV,
	KERNEL_STRICT,
	/* as KERNEL_PRIV, bound to a device (a veth of a network namespace of
	 * the test's own: prog_ifindex, BPF_F_XDP_DEV_BOUND_ONLY), which the
	 * XDP metadata kfuncs need; hwxdp's device target is that device */
	KERNEL_BOUND,
};

/*
 * The BTF of the test maps' types: [1] int, [2] struct bpf_spin_lock,
 * [3] struct locked { int a; struct bpf_spin_lock lock; long long b; },
 * its lock at 4, [4] struct bpf_timer (16 bytes), [5] struct timed
 * { int a; struct bpf_timer timer; }, its timer at 8. NULL when it cannot
 * be made.
 */
#define LOCKED_LOCK_OFF 4
#define TIMED_TIMER_OFF 8
const struct btf *test_btf(void);

bool kernel_available(void);

/*
 * Loads insns as an XDP program, map indexes replaced by the fds of real
 * test maps (unless raw_maps), calls of hwxdp's kernel kfunc ids
 * (loader/kfuncs.h) by the running kernel's BTF ids. Returns the fd or a negative errno; the
 * verifier log (level 1) lands in log.
 */
int kernel_load(const struct bpf_insn *insns, size_t cnt, enum kernel_mode mode,
		uint32_t attach_type, bool raw_maps, char *log, size_t log_size);

#endif /* HWXDP_TESTS_VERIFIER_KERNEL_H */
