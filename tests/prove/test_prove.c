// SPDX-License-Identifier: GPL-2.0
/*
 * The prover (hwmap/prove.h) on raw programs: translations it must prove,
 * images with a fault it must refute with a frame that replays, and
 * constructs it must call "not proven".
 *
 * Built twice: as build/tests/prove.test with the translator as it is, and
 * as build/tests/prove_mutant.test with the fault HWXDP_MUTANT_COMBINE_ORDER
 * puts back into hwmap/combine.c (u32s assembled from packet bytes in any
 * order made one load). The same test then expects a proof from the first
 * and, from the second, a counterexample on which the kernel and the
 * device really differ.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "device/engine.h"
#include "device/tables.h"
#include "hwmap/prove.h"
#include "tests/prove/prove_opts.h"
#include "hwmap/translate.h"
#include "loader/object.h"
#include "lab/target.h"
#include "tests/common/raw_prog.h"
#include "loader/device.h"
#include "verifier/verifier.h"

#define OUT_OFF RAW_OUT_OFF

/* A raw program verified for the device and translated. */
struct built {
	struct hwxdp_verify_result *facts;
	struct hxu_image *img;
};

/* r0 = bytes 4..7 of the frame, the byte at 4 + i put at byte perm[i]. */
static void assemble(struct raw_prog *p, const int *perm, bool alu32)
{
	static const int16_t offs[4] = { 4, 5, 6, 7 };
	int shift[4];

	for (int i = 0; i < 4; i++)
		shift[i] = perm[i] * 8;
	raw_assemble(p, BPF_B, offs, shift, 4, alu32);
}

static int build(const struct raw_prog *p, struct built *b, char *msg, size_t msglen)
{
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	uint32_t subprog_start = 0;
	struct hwxdp_prog prog = {
		.name = "prove",
		.type = BPF_PROG_TYPE_XDP,
		.insns = (struct bpf_insn *)p->insns,
		.insn_cnt = p->cnt,
		.subprog_start = &subprog_start,
		.subprog_cnt = 1,
	};
	struct hwxdp_object obj = { .progs = &prog, .prog_cnt = 1 };
	int err;

	memset(b, 0, sizeof(*b));
	err = hwxdp_verify_insns(p->insns, p->cnt, NULL, 0, &vopts, &b->facts);
	if (err)
		return err;
	if (!b->facts->accepted) {
		snprintf(msg, msglen, "refused: %s", b->facts->log);
		return -EACCES;
	}
	return hwxdp_translate(&obj, &prog, b->facts, &b->img, msg, msglen);
}

static void built_free(struct built *b)
{
	hxu_image__free(b->img);
	hwxdp_verify_result__free(b->facts);
}

static int prove(const struct raw_prog *p, const struct built *b, struct hwxdp_prove_result *res)
{
	struct hwxdp_prove_opts opts = test_prove_opts();

	return hwxdp_prove(p->insns, p->cnt, NULL, 0, b->facts, b->img, 0, &opts, res);
}

/* The verdict a run of the predicted outcome hands the kernel's API. */
static uint32_t action_of(const struct hwxdp_prove_outcome *o)
{
	return o->end == HWXDP_PROVE_END_PUNT ? XDP_PASS : o->value;
}

static bool result_is(const struct hx_result *r, const struct hwxdp_prove_outcome *o)
{
	bool fwd = o->end == HWXDP_PROVE_END_PUNT ||
		   (o->value >= XDP_PASS && o->value <= XDP_REDIRECT);

	if (r->action != action_of(o))
		return false;
	return !fwd || (r->len == o->len && !memcmp(r->frame, o->frame, o->len));
}

/*
 * The counterexample through the kernel and the device: each must do what
 * the model predicts for its side, and the two must differ.
 */
static void replay(const struct raw_prog *p, const struct built *b,
		   const struct hwxdp_prove_result *res)
{
	static struct hx_result kr, dr;
	struct hwxdp_tables *tables;
	struct hwxdp_engine *engine;
	struct hwxdp_frame f;
	struct hwxdp_run_stats st = {};
	uint8_t *window;
	int fd, err;

	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "prove", "GPL", p->insns, p->cnt, NULL);
	cr_assert_geq(fd, 0, "the kernel refuses the program: %s", strerror(errno));
	err = hx_kernel_run_frame(fd, res->ingress, res->frame, res->len, &kr);
	close(fd);
	cr_assert_eq(err, 0, "the kernel's run: %s", strerror(-err));

	tables = hwxdp_tables__new();
	cr_assert_not_null(tables);
	cr_assert_eq(hwxdp_tables__create_all(tables, b->img), 0);
	engine = hwxdp_engine__new(b->img, tables);
	cr_assert_not_null(engine, "the engine refuses the image");
	window = calloc(1, HXU_WINDOW_SIZE);
	cr_assert_not_null(window);
	err = hx_device_run_frame(engine, window, res->ingress, res->frame, res->len, &dr, &f, &st);
	hwxdp_engine__free(engine);
	hwxdp_tables__free(tables);
	free(window);

	cr_assert(result_is(&kr, &res->bpf), "the kernel does not do what the model says BPF does");
	if (res->hxu.end == HWXDP_PROVE_END_FAULT)
		cr_assert_neq(err, 0, "the model says the device aborts, the device does not");
	else
		cr_assert(!err && result_is(&dr, &res->hxu),
			  "the device does not do what the model says the microcode does");
	cr_assert(err || kr.action != dr.action || kr.len != dr.len ||
			  memcmp(kr.frame, dr.frame, kr.len),
		  "the counterexample does not tell the kernel and the device apart");
}

/* A u32 from four packet bytes in each of the 24 orders, with 32-bit and
 * 64-bit operations: proven on the translator as it is; on the mutant,
 * every order but memory and network order is a counterexample that
 * replays. */
Test(prove, assembled_u32_in_every_order, .timeout = 300)
{
	int perm[4] = { 0, 1, 2, 3 }, refuted = 0, proven = 0;
	char msg[512];

	for (int k = 0; k < 24; k++, raw_next_permutation(perm, 4)) {
		bool in_order = (perm[0] == 0 && perm[1] == 1 && perm[2] == 2 && perm[3] == 3) ||
				(perm[0] == 3 && perm[1] == 2 && perm[2] == 1 && perm[3] == 0);

		for (int alu32 = 0; alu32 < 2; alu32++) {
			struct hwxdp_prove_result res;
			struct raw_prog p = { .cnt = 0 };
			struct built b;

			raw_prologue(&p);
			assemble(&p, perm, alu32);
			raw_epilogue(&p, BPF_W);
			cr_assert_eq(build(&p, &b, msg, sizeof(msg)), 0, "%s", msg);
			cr_assert_eq(prove(&p, &b, &res), 0);
#ifdef HWXDP_MUTANT_COMBINE_ORDER
			if (in_order) {
				cr_expect_eq(res.status, HWXDP_PROVE_PROVEN, "order %d%d%d%d: %s",
					     perm[0], perm[1], perm[2], perm[3], res.reason);
			} else {
				cr_assert_eq(res.status, HWXDP_PROVE_COUNTEREXAMPLE,
					     "order %d%d%d%d alu32 %d on the mutant: %s", perm[0],
					     perm[1], perm[2], perm[3], alu32, res.reason);
				if (geteuid() == 0)
					replay(&p, &b, &res);
				if (!refuted++)
					cr_log_info("order %d%d%d%d: %s, in %llu ms", perm[0],
						    perm[1], perm[2], perm[3], res.reason,
						    (unsigned long long)res.elapsed_ms);
			}
#else
			(void)in_order;
			cr_expect_eq(res.status, HWXDP_PROVE_PROVEN, "order %d%d%d%d alu32 %d: %s",
				     perm[0], perm[1], perm[2], perm[3], alu32, res.reason);
			proven += res.status == HWXDP_PROVE_PROVEN;
#endif
			built_free(&b);
		}
	}
#ifdef HWXDP_MUTANT_COMBINE_ORDER
	cr_assert_eq(refuted, 44, "%d of the 44 odd orders refuted", refuted);
	(void)proven;
	if (geteuid() != 0)
		cr_log_warn("counterexamples not replayed: the kernel side needs root");
#else
	cr_assert_eq(proven, 48);
	(void)refuted;
#endif
}

#ifndef HWXDP_MUTANT_COMBINE_ORDER
/* ALU operations with the edge cases BPF defines: division and modulo by
 * zero, the most negative value by -1, shifts by more than the width, byte
 * swaps; inputs from the packet so that all of them are symbolic. */
Test(prove, alu_edge_cases)
{
	static const struct {
		uint8_t op;
		int16_t off; /* 1: signed division */
	} ops[] = {
		{ BPF_ADD, 0 }, { BPF_SUB, 0 }, { BPF_MUL, 0 },	 { BPF_DIV, 0 }, { BPF_MOD, 0 },
		{ BPF_DIV, 1 }, { BPF_MOD, 1 }, { BPF_AND, 0 },	 { BPF_OR, 0 },	 { BPF_XOR, 0 },
		{ BPF_LSH, 0 }, { BPF_RSH, 0 }, { BPF_ARSH, 0 }, { BPF_NEG, 0 },
	};
	char msg[512];

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		for (int cls = 0; cls < 2; cls++) {
			uint8_t c = cls ? BPF_ALU64 : BPF_ALU;
			struct hwxdp_prove_result res;
			struct raw_prog p = { .cnt = 0 };
			struct built b;

			raw_prologue(&p);
			raw_emit(&p, BPF_LDX | BPF_MEM | BPF_DW, 0, 2, 8, 0);
			raw_emit(&p, BPF_LDX | BPF_MEM | BPF_DW, 5, 2, 16, 0);
			if (ops[i].op == BPF_NEG)
				raw_emit(&p, c | BPF_NEG | BPF_K, 0, 0, 0, 0);
			else
				raw_emit(&p, c | ops[i].op | BPF_X, 0, 5, ops[i].off, 0);
			raw_emit(&p, BPF_ALU | BPF_END | BPF_TO_BE, 0, 0, 0, 32);
			raw_emit(&p, BPF_JMP | BPF_JSGT | BPF_K, 0, 0, 1, -5);
			raw_emit(&p, BPF_ALU64 | BPF_ARSH | BPF_K, 0, 0, 0, 3);
			raw_epilogue(&p, BPF_DW);
			cr_assert_eq(build(&p, &b, msg, sizeof(msg)), 0, "%s", msg);
			cr_assert_eq(prove(&p, &b, &res), 0);
			cr_expect_eq(res.status, HWXDP_PROVE_PROVEN,
				     "op 0x%02x off %d class %d: %s", ops[i].op, ops[i].off, cls,
				     res.reason);
			built_free(&b);
		}
	}
}

/* The word of the first operation with this opcode in the image. */
static uint64_t *find_op(struct hxu_image *img, uint8_t opcode)
{
	for (uint32_t i = 0; i < img->op_cnt;) {
		struct hxu_op o;
		unsigned int n = hxu_decode_at(&img->ops[i], img->op_cnt - i, &o);

		cr_assert_neq(n, 0);
		if (o.opcode == opcode)
			return (uint64_t *)&img->ops[i];
		i += n;
	}
	return NULL;
}

/* A wrong image, made by hand from a right one: the length check one byte
 * short. The prover must find the frame where it shows (a frame of exactly
 * OUT_OFF + 7 bytes then passes on the device, and faults or writes past
 * the end), and that frame must replay. */
Test(prove, refutes_a_wrong_length_check)
{
	static const int perm[4] = { 0, 1, 2, 3 };
	struct hwxdp_prove_result res;
	struct raw_prog p = { .cnt = 0 };
	struct built b;
	char msg[512];
	uint64_t *w;

	raw_prologue(&p);
	assemble(&p, perm, false);
	raw_epilogue(&p, BPF_W);
	cr_assert_eq(build(&p, &b, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(prove(&p, &b, &res), 0);
	cr_assert_eq(res.status, HWXDP_PROVE_PROVEN, "%s", res.reason);
	w = find_op(b.img, HXU_OP_LCHK);
	cr_assert_not_null(w, "the bound check is not an lchk");
	w[1] -= 1; /* data + 47 > data_end instead of data + 48 */
	cr_assert_eq(prove(&p, &b, &res), 0);
	cr_assert_eq(res.status, HWXDP_PROVE_COUNTEREXAMPLE, "%s", res.reason);
	cr_assert_eq(res.len, OUT_OFF + 7, "frame of %u bytes", res.len);
	cr_assert_eq(res.bpf.value, XDP_DROP);
	if (geteuid() == 0)
		replay(&p, &b, &res);
	built_free(&b);
}

/* A wrong constant stored: the prover names the byte. */
Test(prove, refutes_a_wrong_store)
{
	struct hwxdp_prove_result res;
	struct raw_prog p = { .cnt = 0 };
	struct built b;
	char msg[512];
	uint64_t *w;

	raw_prologue(&p);
	raw_emit(&p, BPF_ST | BPF_MEM | BPF_H, 2, 0, 12, 0x1234);
	raw_emit(&p, BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0x77);
	raw_epilogue(&p, BPF_B);
	cr_assert_eq(build(&p, &b, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(prove(&p, &b, &res), 0);
	cr_assert_eq(res.status, HWXDP_PROVE_PROVEN, "%s", res.reason);
	w = find_op(b.img, HXU_OP_STI + HXU_SPACE_PKT);
	cr_assert_not_null(w, "no sti.pkt in the image");
	w[1] ^= 0x100; /* 0x1334 */
	cr_assert_eq(prove(&p, &b, &res), 0);
	cr_assert_eq(res.status, HWXDP_PROVE_COUNTEREXAMPLE, "%s", res.reason);
	cr_assert_eq(res.diff_byte, 13, "%s", res.reason);
	cr_assert_eq(res.bpf.frame[13], 0x12);
	cr_assert_eq(res.hxu.frame[13], 0x13);
	if (geteuid() == 0)
		replay(&p, &b, &res);
	built_free(&b);
}

/* A bounded loop is unrolled: here 8 rounds over the packet. */
Test(prove, bounded_loop_unrolled)
{
	struct hwxdp_prove_result res;
	struct raw_prog p = { .cnt = 0 };
	struct built b;
	char msg[512];

	raw_prologue(&p);
	raw_emit(&p, BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	raw_emit(&p, BPF_ALU64 | BPF_MOV | BPF_K, 6, 0, 0, 0);
	/* loop: r0 += byte at data + r6; r6++; if r6 < 8 goto loop */
	raw_emit(&p, BPF_ALU64 | BPF_MOV | BPF_X, 7, 2, 0, 0);
	raw_emit(&p, BPF_ALU64 | BPF_ADD | BPF_X, 7, 6, 0, 0);
	raw_emit(&p, BPF_LDX | BPF_MEM | BPF_B, 8, 7, 0, 0);
	raw_emit(&p, BPF_ALU64 | BPF_ADD | BPF_X, 0, 8, 0, 0);
	raw_emit(&p, BPF_ALU64 | BPF_ADD | BPF_K, 6, 0, 0, 1);
	raw_emit(&p, BPF_JMP | BPF_JLT | BPF_K, 6, 0, -6, 8);
	raw_epilogue(&p, BPF_H);
	cr_assert_eq(build(&p, &b, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(prove(&p, &b, &res), 0);
	cr_expect_eq(res.status, HWXDP_PROVE_PROVEN, "%s", res.reason);
	built_free(&b);
}

/* A random number stored in the frame: one free value, read n of the
 * path, on both sides (it was "not modelled" once; tests/prove/test_units.c
 * refutes a translation that exchanges two). */
Test(prove, prandom_read_proven)
{
	struct hwxdp_prove_result res;
	struct raw_prog p = { .cnt = 0 };
	struct built b;
	char msg[512];

	raw_emit(&p, BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0); /* the call clobbers r1 */
	raw_emit(&p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_prandom_u32);
	raw_emit(&p, BPF_LDX | BPF_MEM | BPF_W, 2, 6, offsetof(struct xdp_md, data), 0);
	raw_emit(&p, BPF_LDX | BPF_MEM | BPF_W, 3, 6, offsetof(struct xdp_md, data_end), 0);
	raw_emit(&p, BPF_ALU64 | BPF_MOV | BPF_X, 4, 2, 0, 0);
	raw_emit(&p, BPF_ALU64 | BPF_ADD | BPF_K, 4, 0, 0, OUT_OFF + 8);
	raw_emit(&p, BPF_JMP | BPF_JGT | BPF_X, 4, 3, 3, 0);
	raw_emit(&p, BPF_STX | BPF_MEM | BPF_W, 2, 0, OUT_OFF, 0);
	raw_emit(&p, BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, XDP_PASS);
	raw_emit(&p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	raw_emit(&p, BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, XDP_DROP);
	raw_emit(&p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	cr_assert_eq(build(&p, &b, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(prove(&p, &b, &res), 0);
	cr_assert_eq(res.status, HWXDP_PROVE_PROVEN, "status %u: %s", res.status, res.reason);
	built_free(&b);
}

/* devdiff's maps_of_maps, which counts in the inner arrays of an array of
 * maps and looks up, updates and deletes in the inner hashes of a hash of
 * maps: proven. */
Test(prove, map_of_maps_writes_proven)
{
	static const char *const objects[] = { "tests/devdiff/bpf/maps_of_maps.bpf.o" };
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	struct hwxdp_prove_opts opts = {
		.sz = sizeof(opts), .max_len = 64, .timeout_ms = TIMEOUT, .ingress = 1
	};

	for (size_t n = 0; n < sizeof(objects) / sizeof(objects[0]); n++) {
		const struct hwxdp_prog *prog;
		struct hwxdp_verify_result *facts;
		struct hwxdp_prove_result res;
		struct hwxdp_object *obj;
		struct hxu_image *img;
		char path[4096], msg[512];

		snprintf(path, sizeof(path), "%s/%s", hx_build_dir(), objects[n]);
		cr_assert_eq(hwxdp_object__open(path, &obj), 0, "%s", path);
		prog = &obj->progs[0];
		cr_assert_eq(hwxdp_verify(obj, prog, &vopts, &facts), 0);
		cr_assert(facts->accepted, "%s", path);
		cr_assert_eq(hwxdp_translate(obj, prog, facts, &img, msg, sizeof(msg)), 0, "%s",
			     msg);
		cr_assert_eq(hwxdp_prove(prog->insns, prog->insn_cnt, obj->maps, obj->map_cnt,
					 facts, img, 0, &opts, &res),
			     0);
		cr_expect_eq(res.status, HWXDP_PROVE_PROVEN, "%s: status %u: %s", path, res.status,
			     res.reason);
		hxu_image__free(img);
		hwxdp_verify_result__free(facts);
		hwxdp_object__close(obj);
	}
}

/* Microcode with a register table form on a table that is no map of maps,
 * under a program that returns XDP_PASS: the microcode side says so, and
 * never claims a proof. */
Test(prove, register_table_forms_not_proven)
{
	struct hwxdp_prove_result res;
	struct raw_prog p = { .cnt = 0 };
	struct hxu_image img;
	struct built b;
	struct hxu_op ops[3] = {
		hxu_op_make(HXU_OP_TLOOKUPR, 0, 2, 1, HXU_SPACE_LM, 0, 0),
		hxu_op_make(HXU_OP_MOV, 0, 0, 0, HXU_F_K, 0, XDP_PASS),
		hxu_op_make(HXU_OP_EXIT, 0, 0, 0, 0, 0, 0),
	};
	uint64_t words[3];
	char msg[512];

	raw_emit(&p, BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, XDP_PASS);
	raw_emit(&p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	cr_assert_eq(build(&p, &b, msg, sizeof(msg)), 0, "%s", msg);
	for (int form = 0; form < 2; form++) {
		if (form)
			ops[0] = hxu_op_make(HXU_OP_TUPDATER, 0, 2, 3, HXU_SPACE_LM, 0,
					     1 << HXU_TUPDATER_REG_SHIFT);
		for (int i = 0; i < 3; i++) {
			ops[i].end = true;
			hxu_encode(&ops[i], &words[i]);
		}
		img = *b.img;
		img.ops = words;
		img.op_cnt = 3;
		img.line_cnt = 0;
		cr_assert_eq(hwxdp_prove(p.insns, p.cnt, NULL, 0, b.facts, &img, 0,
					 &(struct hwxdp_prove_opts){
						 .sz = sizeof(struct hwxdp_prove_opts),
						 .max_len = 64,
						 .timeout_ms = TIMEOUT,
						 .ingress = 1 },
					 &res),
			     0);
		cr_expect_eq(res.status, HWXDP_PROVE_NOT_PROVEN, "status %u: %s", res.status,
			     res.reason);
		cr_expect(strstr(res.reason, "op 0: table 0 is no map of maps"), "%s", res.reason);
	}
	built_free(&b);
}

/* A redirect whose flags are no constant 0..3 (the corpus's bridge: a
 * broadcast merged by clang with a plain redirect, its flags in r3, redir
 * reading them from rt) is proven. */
Test(prove, broadcast_redirect_proven)
{
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	struct hwxdp_prove_opts opts = test_prove_opts();
	const struct hwxdp_prog *prog = NULL;
	struct hwxdp_verify_result *facts;
	struct hwxdp_prove_result res;
	struct hwxdp_object *obj;
	struct hxu_image *img;
	char path[4096], msg[512];

	snprintf(path, sizeof(path), "%s/tests/corpus/redirect_broadcast.bpf.o", hx_build_dir());
	cr_assert_eq(hwxdp_object__open(path, &obj), 0, "%s", path);
	for (size_t i = 0; i < obj->prog_cnt; i++)
		if (obj->progs[i].type == BPF_PROG_TYPE_XDP)
			prog = &obj->progs[i];
	cr_assert_not_null(prog);
	cr_assert_eq(hwxdp_verify(obj, prog, &vopts, &facts), 0);
	cr_assert(facts->accepted);
	cr_assert_eq(hwxdp_translate(obj, prog, facts, &img, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(hwxdp_prove(prog->insns, prog->insn_cnt, obj->maps, obj->map_cnt, facts, img,
				 0, &opts, &res),
		     0);
	cr_assert_eq(res.status, HWXDP_PROVE_PROVEN, "status %u: %s", res.status, res.reason);
	hxu_image__free(img);
	hwxdp_verify_result__free(facts);
	hwxdp_object__close(obj);
}

/*
 * A translated object with maps, made wrong by hand: the first `and` with
 * immediate from becomes one with to. The counterexample must name the map
 * entries it needs, and with them the device (and the kernel, as root)
 * must do what the model says each side does, which differs. Returns the
 * counterexample.
 */
static void refute_object(const char *name, int32_t from, int32_t to,
			  struct hwxdp_prove_result *res)
{
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	struct hwxdp_prove_opts opts = test_prove_opts();
	static struct hx_result kr, dr;
	const struct hwxdp_prog *prog = NULL;
	struct hwxdp_verify_result *facts;
	struct hwxdp_object *obj;
	struct hxu_image *img;
	struct hwxdp_tables *tables;
	struct hwxdp_engine *engine;
	struct hx_target *kernel;
	struct hwxdp_run_stats st = {};
	struct hwxdp_frame f;
	uint64_t *w = NULL;
	uint8_t *window;
	char msg[512];
	int err;

	cr_assert_eq(hwxdp_object__open(hx_object_path(name), &obj), 0);
	for (size_t i = 0; i < obj->prog_cnt; i++)
		if (obj->progs[i].type == BPF_PROG_TYPE_XDP)
			prog = &obj->progs[i];
	cr_assert_not_null(prog);
	cr_assert_eq(hwxdp_verify(obj, prog, &vopts, &facts), 0);
	cr_assert(facts->accepted);
	cr_assert_eq(hwxdp_translate(obj, prog, facts, &img, msg, sizeof(msg)), 0, "%s", msg);
	err = hwxdp_prove(prog->insns, prog->insn_cnt, obj->maps, obj->map_cnt, facts, img, 0,
			  &opts, res);
	cr_assert_eq(err, 0);
	cr_assert_eq(res->status, HWXDP_PROVE_PROVEN, "%s: %s", name, res->reason);

	for (uint32_t i = 0; i < img->op_cnt && !w;) {
		struct hxu_op o;
		unsigned int n = hxu_decode_at(&img->ops[i], img->op_cnt - i, &o);

		cr_assert_neq(n, 0);
		if (o.opcode == HXU_OP_AND && (o.flags & HXU_F_K) && o.imm == from)
			w = (uint64_t *)&img->ops[i];
		i += n;
	}
	cr_assert_not_null(w, "no and with %d in %s's microcode", from, name);
	*w = (*w & ~0xffffffffull) | (uint32_t)to;
	err = hwxdp_prove(prog->insns, prog->insn_cnt, obj->maps, obj->map_cnt, facts, img, 0,
			  &opts, res);
	cr_assert_eq(err, 0);
	cr_assert_eq(res->status, HWXDP_PROVE_COUNTEREXAMPLE, "%s: %s", name, res->reason);
	cr_assert_gt(res->entry_cnt, 0, "%s: no map entry named", name);

	tables = hwxdp_tables__new();
	cr_assert_not_null(tables);
	cr_assert_eq(hwxdp_tables__create_all(tables, img), 0);
	cr_assert_eq(hwxdp_device_tables__fill(tables, obj->maps, obj->map_cnt), 0);
	for (uint32_t e = 0; e < res->entry_cnt; e++)
		if (!res->entries[e].absent)
			cr_assert_eq(hwxdp_table__update(
					     hwxdp_tables__get(tables, res->entries[e].map),
					     res->entries[e].key, res->entries[e].value, BPF_ANY),
				     0);
	engine = hwxdp_engine__new(img, tables);
	cr_assert_not_null(engine);
	window = calloc(1, HXU_WINDOW_SIZE);
	cr_assert_not_null(window);
	err = hx_device_run_frame(engine, window, res->ingress, res->frame, res->len, &dr, &f, &st);
	cr_assert_eq(err, 0);
	cr_assert(result_is(&dr, &res->hxu), "%s: the device does not do what the model says",
		  name);
	hwxdp_engine__free(engine);
	hwxdp_tables__free(tables);
	free(window);

	if (geteuid() == 0) {
		/* these programs read no hwxdp_target: the kernel's copy is the device's */
		kernel = hx_target_open("kernel", hx_object_path(name));
		cr_assert_not_null(kernel);
		for (uint32_t e = 0; e < res->entry_cnt; e++)
			if (!res->entries[e].absent)
				cr_assert_eq(hx_target_map_update(
						     kernel, obj->maps[res->entries[e].map].name,
						     res->entries[e].key, res->entries[e].value),
					     0);
		cr_assert_eq(hx_target_run(kernel, res->ingress, res->frame, res->len, &kr), 0);
		hx_target_close(kernel);
		cr_assert(result_is(&kr, &res->bpf),
			  "%s: the kernel does not do what the model says", name);
		cr_assert(kr.action != dr.action || kr.len != dr.len ||
			  memcmp(kr.frame, dr.frame, kr.len));
	}
	hxu_image__free(img);
	hwxdp_verify_result__free(facts);
	hwxdp_object__close(obj);
}

/* vlan_tag's VLAN id mask 0xfff made 0xffe: push_vid's entry must have the
 * low bit set, and the tag's byte 15 shows it. */
Test(prove, refutes_vlan_tag_with_its_map_entry)
{
	struct hwxdp_prove_result res;

	refute_object("vlan_tag", 0xfff, 0xffe, &res);
	cr_assert_eq(res.entry_cnt, 1, "%u entries", res.entry_cnt);
	cr_assert_eq(res.entries[0].map, 0);
	cr_assert(!res.entries[0].absent);
	cr_assert(res.entries[0].value[0] & 1, "the VLAN id's low bit must be set to show");
	cr_assert_eq(res.diff_byte, 15, "%s", res.reason);
}

/* lpm_route's verdict mask 3 made 1: a route must be there, with bit 1 of
 * its action set, for a frame of the family that looked it up. */
Test(prove, refutes_lpm_route_with_a_route)
{
	struct hwxdp_prove_result res;

	refute_object("lpm_route", 3, 1, &res);
	cr_assert_eq(res.entry_cnt, 1, "%u entries", res.entry_cnt);
	cr_assert(!res.entries[0].absent);
	cr_assert(res.entries[0].value[0] & 2, "action 0x%x", res.entries[0].value[0]);
	cr_assert_neq(res.bpf.value, res.hxu.value, "%s", res.reason);
}
#endif
