// SPDX-License-Identifier: GPL-2.0
/*
 * The prover's units (hwmap/prove.c): csum16, tadj, call and ret, tupdate
 * and tdelete, esp, cpu, time, the frame's length, the atomics that fetch.
 * Each program of tests/prove/bpf/unit_*.bpf.c is proven as the translator
 * makes it; then its image is broken by hand at that unit, and the prover
 * must give a counterexample that, replayed on the device and on the
 * kernel with the map entries it names, shows each doing what the model
 * says its side does, and the two different (where the model leaves a
 * value free that no replay chooses, the clock's, only the last).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <sched.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/engine.h"
#include "device/esp.h"
#include "device/tables.h"
#include "hwmap/prove.h"
#include "tests/prove/prove_opts.h"
#include "hwmap/translate.h"
#include "hwxdp/image.h"
#include "lab/bpf_count.h"
#include "lab/target.h"
#include "loader/device.h"
#include "loader/object.h"
#include "verifier/verifier.h"


struct unit {
	struct hwxdp_object *obj;
	const struct hwxdp_prog *prog;
	struct hwxdp_verify_result *facts;
	struct hxu_image *img;
	char path[4096];
};

static void unit_open(struct unit *u, const char *name)
{
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	char msg[512];

	memset(u, 0, sizeof(*u));
	snprintf(u->path, sizeof(u->path), "%s/tests/prove/bpf/unit_%s.bpf.o", hx_build_dir(),
		 name);
	cr_assert_eq(hwxdp_object__open(u->path, &u->obj), 0, "%s", u->path);
	for (size_t i = 0; i < u->obj->prog_cnt && !u->prog; i++)
		if (u->obj->progs[i].type == BPF_PROG_TYPE_XDP)
			u->prog = &u->obj->progs[i];
	cr_assert_not_null(u->prog);
	cr_assert_eq(hwxdp_verify(u->obj, u->prog, &vopts, &u->facts), 0);
	cr_assert(u->facts->accepted, "%s", u->facts->log);
	cr_assert_eq(hwxdp_translate(u->obj, u->prog, u->facts, &u->img, msg, sizeof(msg)), 0, "%s",
		     msg);
}

static void unit_close(struct unit *u)
{
	hxu_image__free(u->img);
	hwxdp_verify_result__free(u->facts);
	hwxdp_object__close(u->obj);
}

static void unit_prove(const struct unit *u, struct hwxdp_prove_result *res)
{
	struct hwxdp_prove_opts opts = test_prove_opts();

	cr_assert_eq(hwxdp_prove(u->prog->insns, u->prog->insn_cnt, u->obj->maps, u->obj->map_cnt,
				 u->facts, u->img, 0, &opts, res),
		     0);
}

/* The op index of the n-th operation (from 0) with this opcode. */
static uint32_t find_op(const struct unit *u, uint8_t opcode, int nth, struct hxu_op *out)
{
	for (uint32_t i = 0; i < u->img->op_cnt;) {
		unsigned int n = hxu_decode_at(&u->img->ops[i], u->img->op_cnt - i, out);

		cr_assert_neq(n, 0);
		if (out->opcode == opcode && !nth--)
			return i;
		i += n;
	}
	cr_assert_fail("no operation 0x%02x in the image", opcode);
	return 0;
}

static bool result_is(const struct hx_result *r, const struct hwxdp_prove_outcome *o)
{
	bool fwd = o->end == HWXDP_PROVE_END_PUNT ||
		   (o->value >= XDP_PASS && o->value <= XDP_REDIRECT);
	uint32_t action = o->end == HWXDP_PROVE_END_PUNT ? XDP_PASS : o->value;

	return r->action == action &&
	       (!fwd || (r->len == o->len && !memcmp(r->frame, o->frame, o->len)));
}

/*
 * The counterexample on the kernel, with its entries, on CPU 0: the CPU
 * bpf_get_smp_processor_id gives under BPF_PROG_TEST_RUN is the caller's,
 * and a counterexample's is 0 (the device's first engine's number).
 */
static void kernel_run(const struct unit *u, const struct hwxdp_prove_result *res,
		       struct hx_result *kr)
{
	struct hx_target *kernel;
	cpu_set_t cpu0, old;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	cr_assert_eq(sched_getaffinity(0, sizeof(old), &old), 0);
	cr_assert_eq(sched_setaffinity(0, sizeof(cpu0), &cpu0), 0, "cannot run on CPU 0");
	kernel = hx_target_open("kernel", u->path);
	cr_assert_not_null(kernel, "the kernel refuses %s", u->path);
	/* read-only global data is the object's, and frozen */
	for (uint32_t e = 0; e < res->entry_cnt; e++)
		if (!res->entries[e].absent && !u->obj->maps[res->entries[e].map].read_only)
			cr_assert_eq(
				hx_target_map_update(kernel, u->obj->maps[res->entries[e].map].name,
						     res->entries[e].key, res->entries[e].value),
				0);
	cr_assert_eq(hx_target_run(kernel, res->ingress, res->frame, res->len, kr), 0);
	hx_target_close(kernel);
	sched_setaffinity(0, sizeof(old), &old);
}

/* The counterexample on the device, with its entries. */
static int device_run(const struct unit *u, const struct hwxdp_prove_result *res,
		      struct hx_result *dr)
{
	struct hwxdp_tables *tables;
	struct hwxdp_engine *engine;
	struct hwxdp_run_stats st = {};
	struct hwxdp_frame f;
	uint8_t *window;
	int err;

	tables = hwxdp_tables__new();
	cr_assert_not_null(tables);
	cr_assert_eq(hwxdp_tables__create_all(tables, u->img), 0);
	cr_assert_eq(hwxdp_device_tables__fill(tables, u->obj->maps, u->obj->map_cnt), 0);
	for (uint32_t e = 0; e < res->entry_cnt; e++)
		if (!res->entries[e].absent)
			cr_assert_eq(hwxdp_table__update(
					     hwxdp_tables__get(tables, res->entries[e].map),
					     res->entries[e].key, res->entries[e].value, BPF_ANY),
				     0);
	engine = hwxdp_engine__new(u->img, tables);
	cr_assert_not_null(engine, "the engine refuses the image");
	window = calloc(1, HXU_WINDOW_SIZE);
	cr_assert_not_null(window);
	err = hx_device_run_frame(engine, window, res->ingress, res->frame, res->len, dr, &f, &st);
	hwxdp_engine__free(engine);
	hwxdp_tables__free(tables);
	free(window);
	return err;
}

/* The counterexample on the device and on the kernel, with its entries. */
static void replay(const struct unit *u, const struct hwxdp_prove_result *res)
{
	static struct hx_result kr, dr;
	int err = device_run(u, res, &dr);

	if (res->hxu.end == HWXDP_PROVE_END_FAULT)
		cr_assert_neq(err, 0, "the model says the device aborts; it does not");
	else
		cr_assert(!err && result_is(&dr, &res->hxu),
			  "the device does not do what the model says (%s)", res->reason);
	if (geteuid() != 0) {
		cr_log_warn("not replayed on the kernel: it needs root");
		return;
	}
	kernel_run(u, res, &kr);
	cr_assert(result_is(&kr, &res->bpf), "the kernel does not do what the model says (%s)",
		  res->reason);
	cr_assert(err || kr.action != dr.action || kr.len != dr.len ||
			  memcmp(kr.frame, dr.frame, kr.len),
		  "the counterexample does not tell the kernel and the device apart");
}

/* Proven as translated, refuted once broken. */
static void prove_then_refute(struct unit *u, uint32_t at, uint64_t word,
			      struct hwxdp_prove_result *res)
{
	unit_prove(u, res);
	cr_assert_eq(res->status, HWXDP_PROVE_PROVEN, "%s", res->reason);
	((uint64_t *)u->img->ops)[at] = word;
	unit_prove(u, res);
	cr_assert_eq(res->status, HWXDP_PROVE_COUNTEREXAMPLE, "%s", res->reason);
	cr_log_info("%s: %s", u->prog->name, res->reason);
	replay(u, res);
}

static uint64_t with_imm(const struct unit *u, uint32_t at, int32_t imm)
{
	return (u->img->ops[at] & ~0xffffffffull) | (uint32_t)imm;
}

static uint64_t with_opcode(const struct unit *u, uint32_t at, uint8_t opcode)
{
	return (u->img->ops[at] & ~(0xffull << 56)) | (uint64_t)opcode << 56;
}

/* The checksum unit's constant one off: the header checksum shows it. */
Test(prove_units, csum16)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "csum");
	at = find_op(&u, HXU_OP_CSUM16, 0, &o);
	cr_assert_gt(at, 0);
	/* the mov before it loads the constant it adds */
	find_op(&u, HXU_OP_MOV, 0, &o);
	prove_then_refute(&u, at - 1, with_imm(&u, at - 1, 2), &res);
	cr_assert(res.diff_byte == 24 || res.diff_byte == 25, "%s", res.reason);
	unit_close(&u);
}

/* The checksum unit itself wrong: a field of 0xfffe plus 1 gives 0xffff
 * where csum16 gives 0 (the unit's -0 rule), so an image where csum16 is
 * replaced by a plain add would be caught; here the store it makes is
 * moved one byte, which the prover must see as well. */
Test(prove_units, csum16_offset)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "csum");
	at = find_op(&u, HXU_OP_CSUM16, 0, &o);
	prove_then_refute(&u, at, with_imm(&u, at, o.imm + 1), &res);
	unit_close(&u);
}

/* A tail adjustment made a head adjustment: other bytes, other length. */
Test(prove_units, tadj)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "tail");
	at = find_op(&u, HXU_OP_TADJ, 0, &o);
	prove_then_refute(&u, at, with_opcode(&u, at, HXU_OP_HADJ), &res);
	unit_close(&u);
}

/* The callee's multiplier wrong: the prover follows the call. */
Test(prove_units, call_into_a_wrong_callee)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "call");
	at = find_op(&u, HXU_OP_MUL, 0, &o);
	cr_assert_eq(o.imm, 3);
	prove_then_refute(&u, at, with_imm(&u, at, 5), &res);
	cr_assert_eq(res.diff_byte / 4, 10, "%s", res.reason);
	unit_close(&u);
}

/* The second call made to return at once: r6..r9 and the frame come back,
 * r0 is what the caller's stack slot held. */
Test(prove_units, call_to_a_wrong_target)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at, ret;

	unit_open(&u, "call");
	at = find_op(&u, HXU_OP_CALL, 1, &o);
	ret = find_op(&u, HXU_OP_EXIT, 1, &o);
	prove_then_refute(&u, at, with_imm(&u, at, (int32_t)ret), &res);
	unit_close(&u);
}

/* An update made a delete: the result the frame carries differs whether
 * the key is there or not. */
Test(prove_units, tupdate_made_tdelete)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "maps");
	at = find_op(&u, HXU_OP_TUPDATE, 0, &o);
	cr_assert_eq((uint32_t)o.imm & HXU_TUPDATE_FLAGS_MASK, BPF_NOEXIST);
	/* no value register, no flags: what a tdelete has */
	prove_then_refute(&u, at,
			  with_opcode(&u, at, HXU_OP_TDELETE) & ~(0xfull << 44 | 0xffffffffull),
			  &res);
	cr_assert_eq(res.diff_write, 0, "%s", res.reason);
	unit_close(&u);
}

/*
 * Two values of one map are one when their keys are: a load through the
 * second moved above a store through the first (into a register of its
 * own, so that nothing else changes) differs only when the frame gives
 * both lookups one key. The prover must not take two lookups' values for
 * apart.
 */
Test(prove_units, load_moved_above_an_aliasing_store)
{
	struct hwxdp_prove_result res;
	struct hxu_op st, ld, br;
	uint64_t w[2];
	uint32_t st_at, ld_at, br_at;
	struct unit u;
	bool st_end;

	unit_open(&u, "alias");
	st_at = find_op(&u, HXU_OP_ST + HXU_SPACE_TM, 0, &st);
	ld_at = find_op(&u, HXU_OP_LD + HXU_SPACE_TM, 0, &ld);
	br_at = find_op(&u, HXU_OP_BRI, 2, &br);
	cr_assert_lt(st_at, ld_at);
	cr_assert_lt(ld_at, br_at);
	cr_assert_eq(br.rs, ld.rd);
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_PROVEN, "%s", res.reason);
	/* ld r3, [b] where the store was; the store where the load was;
	 * the compare on r3 */
	st_end = st.end;
	st.end = ld.end;
	ld.end = st_end;
	ld.rd = 3;
	br.rs = 3;
	cr_assert_eq(hxu_encode(&ld, w), 1);
	((uint64_t *)u.img->ops)[st_at] = w[0];
	cr_assert_eq(hxu_encode(&st, w), 1);
	((uint64_t *)u.img->ops)[ld_at] = w[0];
	cr_assert_eq(hxu_encode(&br, w), 2);
	memcpy(&((uint64_t *)u.img->ops)[br_at], w, sizeof(w));
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_COUNTEREXAMPLE, "%s", res.reason);
	cr_log_info("%s: %s", u.prog->name, res.reason);
	replay(&u, &res);
	unit_close(&u);
}

/* A table on the stack read at a nibble of the frame, and a histogram
 * counted at nibbles: each store of the table's entries is proven where it
 * is; moved out of the table, the entry it leaves is local memory as it
 * was, which the kernel and the device replay (the prover's model of an
 * access at an index of few values, one value at a time, is the kernel's). */
Test(prove_units, stack_table_entry_moved)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "table");
	at = find_op(&u, HXU_OP_ST + HXU_SPACE_LM, 0, &o);
	prove_then_refute(&u, at, with_imm(&u, at, o.imm - 64), &res);
	cr_assert(res.diff_byte == 0 || res.diff_byte == 1, "%s", res.reason);
	unit_close(&u);
}

/* The flags of an update: BPF_NOEXIST made BPF_ANY. With the key there,
 * the kernel says -EEXIST and the device 0. */
Test(prove_units, tupdate_flags)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "maps");
	at = find_op(&u, HXU_OP_TUPDATE, 0, &o);
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_PROVEN, "%s", res.reason);
	((uint64_t *)u.img->ops)[at] = with_imm(&u, at, o.imm & ~HXU_TUPDATE_FLAGS_MASK);
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_COUNTEREXAMPLE, "%s", res.reason);
	/* the sequence of writes differs first: the flags */
	cr_assert_eq(res.diff_write, 0, "%s", res.reason);
	cr_assert(strstr(res.reason, "what differs"), "%s", res.reason);
	unit_close(&u);
}

/* A delete of the wrong key: the value's first bytes instead. */
Test(prove_units, tdelete_key)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "maps");
	at = find_op(&u, HXU_OP_TDELETE, 0, &o);
	/* rs (bits 51..48) from the key's register to the value's (r3) */
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_PROVEN, "%s", res.reason);
	((uint64_t *)u.img->ops)[at] = (u.img->ops[at] & ~(0xfull << 48)) | 3ull << 48;
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_COUNTEREXAMPLE, "%s", res.reason);
	cr_assert_geq(res.diff_write, 0, "%s", res.reason);
	cr_assert(strstr(res.reason, "key differs"), "%s", res.reason);
	unit_close(&u);
}

/*
 * The crypto unit's command with its SA handle and L3 offset exchanged:
 * the two sides' commands part, and the counterexample, replayed with the
 * lab's SA at the handle BPF names, on the reference interpreter and on
 * the broken image, shows two different errors (the kernel has no such
 * kfunc). The unit's output being free in the model, the replay holds the
 * two only to differing.
 */
Test(prove_units, esp_arguments_exchanged)
{
	static struct hx_result rr, dr;
	struct hwxdp_prove_result res;
	struct hwxdp_run_stats st = {};
	struct hwxdp_tables *tables;
	struct hwxdp_engine *engine;
	struct hwxdp_esp_sa sa = {};
	struct hx_target *ref;
	struct hwxdp_frame f;
	struct hxu_op o;
	struct unit u;
	uint8_t *window;
	uint32_t at;
	int err, rerr;

	unit_open(&u, "esp");
	at = find_op(&u, HXU_OP_ESP, 0, &o);
	cr_assert_eq(o.rs, 2);
	cr_assert_eq(o.rt, 3);
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_PROVEN, "%s", res.reason);
	((uint64_t *)u.img->ops)[at] =
		(u.img->ops[at] & ~(0xffull << 44)) | 3ull << 48 | 2ull << 44;
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_COUNTEREXAMPLE, "%s", res.reason);
	cr_log_info("%s: %s", u.prog->name, res.reason);
	cr_assert_eq(res.diff_esp, 0, "%s", res.reason);
	cr_assert(res.loose & HWXDP_PROVE_LOOSE_ESP);
	cr_assert(strstr(res.reason, "SA handle differs"), "%s", res.reason);
	cr_assert_geq(res.esp_sa, 0);
	cr_assert_neq(res.esp_sa, 14, "BPF's handle is the microcode's: %s", res.reason);

	ref = hx_count_target_open(u.path);
	cr_assert_not_null(ref);
	cr_assert_eq(hx_target_esp_sa(ref, (uint32_t)res.esp_sa), 0);
	rerr = hx_target_run(ref, res.ingress, res.frame, res.len, &rr);
	hx_target_close(ref);

	tables = hwxdp_tables__new();
	cr_assert_not_null(tables);
	cr_assert_eq(hwxdp_tables__create_all(tables, u.img), 0);
	cr_assert_eq(hwxdp_device_tables__fill(tables, u.obj->maps, u.obj->map_cnt), 0);
	cr_assert_eq(hx_esp_test_sa(&sa, (uint32_t)res.esp_sa), 0);
	cr_assert_eq(hwxdp_tables__set_sa(tables, (uint32_t)res.esp_sa, &sa), 0);
	engine = hwxdp_engine__new(u.img, tables);
	cr_assert_not_null(engine, "the engine refuses the image");
	window = calloc(1, HXU_WINDOW_SIZE);
	cr_assert_not_null(window);
	err = hx_device_run_frame(engine, window, res.ingress, res.frame, res.len, &dr, &f, &st);
	hwxdp_engine__free(engine);
	hwxdp_tables__free(tables);
	hwxdp_esp_sa__fini(&sa);
	free(window);
	cr_assert_eq(rerr, 0);
	cr_assert_eq(err, 0);
	cr_assert(rr.action != dr.action || rr.len != dr.len || memcmp(rr.frame, dr.frame, rr.len),
		  "the counterexample does not tell the reference and the device apart");
	unit_close(&u);
}

/* o as the one word it must be, to take the place of a one-word operation. */
static uint64_t op_word(const struct hxu_op *o)
{
	uint64_t w[2];

	cr_assert_eq(hxu_encode(o, w), 1);
	return w[0];
}

/* The CPU's number taken for 1: the frame is counted in CPU 1's slot, and
 * its byte 11 (the CPU folded in) shows the 1 where the kernel, on CPU 0,
 * leaves the byte as it was. */
Test(prove_units, cpu_made_a_constant)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "cpu");
	at = find_op(&u, HXU_OP_CPU, 0, &o);
	o = (struct hxu_op){
		.opcode = HXU_OP_MOV, .rd = o.rd, .flags = HXU_F_K, .imm = 1, .end = o.end
	};
	prove_then_refute(&u, at, op_word(&o), &res);
	cr_assert_eq(res.diff_byte, 11, "%s", res.reason);
	unit_close(&u);
}

/*
 * The first clock reading made a read of the CPU's number (0 on the first
 * engine): the time the frame took is then the clock itself, past the
 * budget. The clock's values are free in the model, so no replay gives the
 * model's; the counterexample says so (loose), and replayed, the device
 * drops the frame the reference interpreter (whose clock stands at 0) and
 * the kernel pass.
 */
Test(prove_units, time_made_cpu)
{
	static struct hx_result rr, dr, kr;
	struct hwxdp_prove_result res;
	struct hx_target *ref;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "clock");
	at = find_op(&u, HXU_OP_TIME, 0, &o);
	find_op(&u, HXU_OP_TIME, 1, &o);
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_PROVEN, "%s", res.reason);
	((uint64_t *)u.img->ops)[at] = with_opcode(&u, at, HXU_OP_CPU);
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_COUNTEREXAMPLE, "%s", res.reason);
	cr_log_info("%s: %s", u.prog->name, res.reason);
	cr_assert(res.loose & HWXDP_PROVE_LOOSE_CLOCK);
	cr_assert_eq(device_run(&u, &res, &dr), 0);
	cr_assert_eq(dr.action, XDP_DROP, "the device's clock is under a second");
	ref = hx_count_target_open(u.path);
	cr_assert_not_null(ref);
	cr_assert_eq(hx_target_run(ref, res.ingress, res.frame, res.len, &rr), 0);
	hx_target_close(ref);
	cr_assert_eq(rr.action, XDP_PASS);
	if (geteuid() == 0) {
		kernel_run(&u, &res, &kr);
		cr_assert_eq(kr.action, XDP_PASS);
	}
	unit_close(&u);
}

/* The second clock reading made a copy of the first: the frame never
 * takes any time, where BPF's two readings may be a budget apart. Each
 * reading is its own value in the model: one value for all of them would
 * prove this. The device's clock and the kernel's move by less than the
 * budget between two readings, so the replay shows nothing: the
 * counterexample is loose. */
Test(prove_units, second_time_reuses_the_first)
{
	struct hwxdp_prove_result res;
	struct hxu_op o, mov;
	struct unit u;
	uint32_t at;

	unit_open(&u, "clock");
	find_op(&u, HXU_OP_TIME, 0, &o);
	find_op(&u, HXU_OP_MOV, 2, &mov);
	cr_assert(mov.rd == 6 && mov.rs == 0, "the first reading is not kept in r6");
	at = find_op(&u, HXU_OP_TIME, 1, &o);
	o = (struct hxu_op){ .opcode = HXU_OP_MOV, .rd = o.rd, .rs = 6, .end = o.end };
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_PROVEN, "%s", res.reason);
	((uint64_t *)u.img->ops)[at] = op_word(&o);
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_COUNTEREXAMPLE, "%s", res.reason);
	cr_log_info("%s: %s", u.prog->name, res.reason);
	cr_assert(res.loose & HWXDP_PROVE_LOOSE_CLOCK);
	cr_assert_eq(res.bpf.value, XDP_DROP, "%s", res.reason);
	cr_assert_eq(res.hxu.value, XDP_PASS, "%s", res.reason);
	unit_close(&u);
}

/* The frame's length made data_end + data: the length written into the
 * frame (bytes 14 and 15), and the verdict it chooses, are wrong. */
Test(prove_units, buff_len_made_a_sum)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "len");
	/* r0 = data_end - data, as the translator makes the helper */
	at = find_op(&u, HXU_OP_SUB, 0, &o);
	cr_assert(o.rd == 0 && o.rs == 0 && o.rt == 1);
	prove_then_refute(&u, at, with_opcode(&u, at, HXU_OP_ADD), &res);
	unit_close(&u);
}

/* The 64-bit cmpxchg made an xchg: an owner slot already taken is taken
 * again, which the slot read back into the frame (bytes 48..55) shows. */
Test(prove_units, cmpxchg_made_xchg)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "atomics");
	at = find_op(&u, HXU_OP_ATOMIC + HXU_SPACE_TM, 0, &o);
	cr_assert_eq(o.x, HXU_ATOMIC_CMPXCHG);
	cr_assert_eq(hxu_mem_size(o.flags), 8);
	o.x = HXU_ATOMIC_XCHG;
	prove_then_refute(&u, at, op_word(&o), &res);
	cr_assert(res.diff_byte >= 48 && res.diff_byte < 56, "%s", res.reason);
	unit_close(&u);
}

/* The 32-bit cmpxchg compares with the wrong register (rd names both the
 * value compared and where the old one goes): the old value the frame
 * carries (bytes 40..43) or the slot read back (bytes 56..59) differs. */
Test(prove_units, cmpxchg32_fetch_into_another_register)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "atomics");
	at = find_op(&u, HXU_OP_ATOMIC + HXU_SPACE_TM, 1, &o);
	cr_assert_eq(o.x, HXU_ATOMIC_CMPXCHG);
	cr_assert_eq(hxu_mem_size(o.flags), 4);
	o.rd = o.rt;
	prove_then_refute(&u, at, op_word(&o), &res);
	cr_assert((res.diff_byte >= 40 && res.diff_byte < 44) ||
			  (res.diff_byte >= 56 && res.diff_byte < 60),
		  "%s", res.reason);
	unit_close(&u);
}

/* fetch_or made fetch_xor: the flags given back, and those left, differ
 * where a bit is set on both sides. */
Test(prove_units, fetch_or_made_fetch_xor)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "atomics");
	for (int i = 0;; i++) {
		at = find_op(&u, HXU_OP_ATOMIC + HXU_SPACE_TM, i, &o);
		if (o.x == HXU_ATOMIC_OR)
			break;
	}
	cr_assert(o.flags & HXU_F_FETCH);
	o.x = HXU_ATOMIC_XOR;
	prove_then_refute(&u, at, op_word(&o), &res);
	unit_close(&u);
}

/* The corpus programs these units made provable. */
Test(prove_units, corpus_programs)
{
	static const char *const names[] = { "global_funcs",  "tail_grow",     "legacy_prog_sec",
					     "bench_basic",   "bytes_helpers", "globals_frags",
					     "stats_actions", "atomics_v3" };
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	struct hwxdp_prove_result res;
	char path[4096], msg[512];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct unit u = {};

		snprintf(path, sizeof(path), "%s/tests/corpus/%s.bpf.o", hx_build_dir(), names[i]);
		cr_assert_eq(hwxdp_object__open(path, &u.obj), 0, "%s", path);
		for (size_t k = 0; k < u.obj->prog_cnt && !u.prog; k++)
			if (u.obj->progs[k].type == BPF_PROG_TYPE_XDP)
				u.prog = &u.obj->progs[k];
		cr_assert_not_null(u.prog);
		cr_assert_eq(hwxdp_verify(u.obj, u.prog, &vopts, &u.facts), 0);
		cr_assert(u.facts->accepted);
		cr_assert_eq(hwxdp_translate(u.obj, u.prog, u.facts, &u.img, msg, sizeof(msg)), 0,
			     "%s", msg);
		unit_prove(&u, &res);
		cr_expect_eq(res.status, HWXDP_PROVE_PROVEN, "%s: %s", names[i], res.reason);
		unit_close(&u);
	}
}

/* The library's call with a proof required: a proven translation comes
 * back, one the prover cannot prove is refused. */
Test(prove_units, translate_requires_a_proof)
{
	struct hwxdp_image_translate_opts opts = { .sz = sizeof(opts), .prove = true };
	struct hwxdp_image *img = NULL;
	char path[4096];

	snprintf(path, sizeof(path), "%s/tests/prove/bpf/unit_csum.bpf.o", hx_build_dir());
	cr_assert_eq(hwxdp_image__translate(path, &opts, &img), 0);
	cr_assert_not_null(img);
	hwxdp_image__free(img);
	/* tail calls are not modelled: not proven, so refused */
	snprintf(path, sizeof(path), "%s/tests/corpus/cilium_tail.bpf.o", hx_build_dir());
	cr_assert_eq(hwxdp_image__translate(path, &opts, &img), -HWXDP_ERR_NOT_PROVEN);
	cr_assert_null(img);
	opts.prove = false;
	cr_assert_eq(hwxdp_image__translate(path, &opts, &img), 0);
	hwxdp_image__free(img);
}
