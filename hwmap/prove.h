/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The proof that a translation is right: a verified BPF program and the HXU
 * image made of it, each executed symbolically into Z3 terms over every
 * frame of 14 to max_len bytes and every ingress port and rx queue, and the
 * two compared for all of them: the exit kind (verdict, punt, fault), the
 * verdict or punt reason, and for a frame that leaves (PASS, TX, REDIRECT,
 * punt) its length and every byte of it. docs/prove.md says what is
 * modelled and what is not.
 *
 * A construct the model does not cover yet (map helpers, calls, tail calls,
 * head adjustments, ...) or a loop that does not end within the unrolling
 * bound makes the answer "not proven" with the reason, never "proven".
 */
#ifndef HWXDP_HWMAP_PROVE_H
#define HWXDP_HWMAP_PROVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

#include "hwmap/hxu.h"
#include "loader/object.h"
#include "verifier/verifier.h"

#define HWXDP_PROVE_LEN_MAX   512 /* the largest max_len */
#define HWXDP_PROVE_ENTRY_MAX 16  /* map entries a counterexample names */
#define HWXDP_PROVE_KEY_MAX   64
#define HWXDP_PROVE_VALUE_MAX 256

/* The BPF side of one program of an image: its instructions and its
 * accepted device verification (the facts of it as its own program). */
struct hwxdp_prove_prog {
	const struct bpf_insn *insns;
	size_t cnt;
	const struct hwxdp_verify_result *facts;
};

struct hwxdp_prove_opts {
	size_t sz;	     /* sizeof(struct hwxdp_prove_opts) */
	uint32_t max_len;    /* frames up to this length; 0: 128 */
	uint32_t timeout_ms; /* per solver query; 0: 10000 */
	/* Not 0: the frame arrives on this ingress ifindex and rx queue 0,
	 * a context BPF_PROG_TEST_RUN can replay; 0: any of them. */
	uint32_t ingress;
	/* The outputs compared path against path from the start, not only
	 * where the one folded query is undecided (the tests run both). */
	bool by_pairs;
	/* The BPF side of every program of the image, image program k's at
	 * progs[k] (prog_cnt the image's count), for the tail calls that
	 * jump into them (hwxdp_prove_progs() makes it); progs[prog_index]
	 * is the program given. NULL: only the program given is known, and a
	 * tail call that can reach another program of the image is not
	 * proven. */
	const struct hwxdp_prove_prog *progs;
	uint32_t prog_cnt;
};

enum hwxdp_prove_status {
	HWXDP_PROVE_PROVEN,
	HWXDP_PROVE_NOT_PROVEN,	   /* reason says why */
	HWXDP_PROVE_COUNTEREXAMPLE /* the frame below tells the two apart */
};

/* How a run ends. */
enum hwxdp_prove_end {
	HWXDP_PROVE_END_EXIT,  /* value: the verdict */
	HWXDP_PROVE_END_PUNT,  /* value: the punt reason (verdict XDP_PASS) */
	HWXDP_PROVE_END_FAULT, /* the device aborts the frame; value: the op */
};

/* Where a side's last redirect sends the frame (hwxdp_prove_outcome). */
enum hwxdp_prove_egress {
	HWXDP_PROVE_EGRESS_NONE,
	HWXDP_PROVE_EGRESS_ENTRY,      /* the entry of egress_key in egress_map */
	HWXDP_PROVE_EGRESS_IFINDEX,    /* bpf_redirect's egress_ifindex */
	HWXDP_PROVE_EGRESS_BCAST,      /* every port of egress_map */
	HWXDP_PROVE_EGRESS_BCAST_EXCL, /* every port of egress_map but the ingress one */
};

/* One side's run on the counterexample, as the model predicts it. */
struct hwxdp_prove_outcome {
	uint32_t end; /* enum hwxdp_prove_end */
	uint32_t value;
	uint32_t len; /* the frame's length on the way out */
	uint8_t frame[HWXDP_PROVE_LEN_MAX];
	uint32_t last; /* BPF: the insn that ended it; HXU: the op */
	uint32_t prog; /* BPF: the image program last is an insn of (tail calls) */
	/* the insn (BPF) or op (HXU) that wrote the first output byte that
	 * differs; -1: the frame's own byte, or no byte differs */
	int32_t writer;
	/* enum hwxdp_prove_egress; for an entry, egress_ifindex is the port
	 * its value names */
	uint32_t egress;
	uint32_t egress_map, egress_key, egress_ifindex;
};

enum hwxdp_prove_loose {
	/* the two sides' map writes part (diff_write): the model leaves
	 * what the microcode's own writes leave in a map free */
	HWXDP_PROVE_LOOSE_WRITES = 1,
	/* the microcode's outcome depends on the value of a table memory
	 * address (a pointer taken for a number), which is the device's */
	HWXDP_PROVE_LOOSE_ADDRESS = 2,
	/* a side's run goes through the crypto unit, whose result and effect
	 * the model leaves free (diff_esp when the commands part) */
	HWXDP_PROVE_LOOSE_ESP = 4,
	/* a side's run reads the clock, whose values the model leaves free
	 * and no replay chooses (the reference's is 0, the device's its own) */
	HWXDP_PROVE_LOOSE_CLOCK = 8,
	/* a side's run reads the random unit, whose numbers the model leaves
	 * free as the clock's (the reference's and the device's generators
	 * are their own) */
	HWXDP_PROVE_LOOSE_RAND = 16,
};

/* A map entry the counterexample needs (present or, with absent, not). */
struct hwxdp_prove_entry {
	uint32_t map; /* index in the maps given */
	bool absent;
	uint8_t key[HWXDP_PROVE_KEY_MAX];
	uint8_t value[HWXDP_PROVE_VALUE_MAX];
};

struct hwxdp_prove_result {
	uint32_t status; /* enum hwxdp_prove_status */
	char reason[256];
	/* the counterexample */
	uint8_t frame[HWXDP_PROVE_LEN_MAX];
	uint32_t len;
	uint32_t ingress, rx_queue;
	struct hwxdp_prove_entry entries[HWXDP_PROVE_ENTRY_MAX];
	uint32_t entry_cnt;
	struct hwxdp_prove_outcome bpf, hxu;
	int32_t diff_byte;  /* first output byte that differs, or -1 */
	int32_t diff_write; /* first map write that differs, or -1 */
	int32_t diff_esp;   /* first crypto command that differs, or -1 */
	/* the SA handle of BPF's first crypto command, or -1: the replay
	 * gives the unit an SA there */
	int64_t esp_sa;
	uint32_t diff_hxu_insn; /* the BPF insn of the HXU op that ended */
	/* enum hwxdp_prove_loose: where the model's outcome for the
	 * microcode is not exact, and a replay holds the device only to
	 * differing from the BPF reference */
	uint32_t loose;
	/* what it took */
	uint32_t bpf_paths, hxu_paths;
	uint64_t solver_checks;
	uint64_t elapsed_ms;
	uint64_t explore_ms[2]; /* of elapsed_ms, exploring BPF's paths and the microcode's */
	uint64_t solver_bytes;	/* what the solver held at the end */
};

/*
 * Proves image program prog_index of img equal to the cnt instructions at
 * insns, of which facts is the accepted device verification against the
 * map_cnt maps at maps (the translator's: table i is maps[i]). Map
 * contents are free but for read-only global data, whose initial bytes
 * are the contents; a program array's slots hold any of img's programs
 * or none, and its tail calls are followed into them (opts->progs gives
 * their BPF; without it, only an image of one program). Returns 0 with
 * *res filled (status PROVEN, NOT_PROVEN or COUNTEREXAMPLE), -EINVAL for
 * arguments that do not fit together, or -ENOMEM.
 */
int hwxdp_prove(const struct bpf_insn *insns, size_t cnt, const struct hwxdp_map_desc *maps,
		size_t map_cnt, const struct hwxdp_verify_result *facts,
		const struct hxu_image *img, uint32_t prog_index,
		const struct hwxdp_prove_opts *opts, struct hwxdp_prove_result *res);

/*
 * The BPF side of every program of img, which hwxdp_translate_for_device
 * made of a program of obj (its tail calls' targets, its devmap
 * programs): each image program's instructions, by name, and its device
 * verification as its own program, as the translator verified it. 0 with
 * *out (free with hwxdp_prove_progs__free()), -ENOENT for an image program
 * obj has not, -EACCES for one the device's verifier refuses, or the
 * verifier's error.
 */
struct hwxdp_prove_progs {
	struct hwxdp_prove_prog *progs;
	struct hwxdp_verify_result **facts;
	uint32_t cnt;
};

int hwxdp_prove_progs(struct hwxdp_object *obj, const struct hxu_image *img,
		      struct hwxdp_prove_progs **out);
void hwxdp_prove_progs__free(struct hwxdp_prove_progs *pp);

#endif /* HWXDP_HWMAP_PROVE_H */
