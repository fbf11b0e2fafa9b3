// SPDX-License-Identifier: GPL-2.0
/*
 * The prover's units (hwmap/prove.c): csum16, tadj, call and ret, tupdate
 * and tdelete, esp, cpu, time, the frame's length, the atomics that fetch,
 * redir with broadcasts and flags in a register, rand.
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
	/* an image of several programs: the BPF side of each */
	struct hwxdp_prove_progs *progs;
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

/* path's first XDP program as the device's loader makes it: with the
 * programs its tail calls reach, and the BPF side of each for the prover. */
static void image_open(struct unit *u, const char *path)
{
	struct hwxdp_translate_opts topts = { .sz = sizeof(topts), .verified = &u->facts };
	char msg[512];

	memset(u, 0, sizeof(*u));
	snprintf(u->path, sizeof(u->path), "%s", path);
	cr_assert_eq(hwxdp_object__open(u->path, &u->obj), 0, "%s", u->path);
	u->prog = hwxdp_object__xdp_prog(u->obj);
	cr_assert_not_null(u->prog);
	cr_assert_eq(
		hwxdp_translate_for_device_opts(u->obj, u->prog, &topts, &u->img, msg, sizeof(msg)),
		0, "%s", msg);
	cr_assert_eq(hwxdp_prove_progs(u->obj, u->img, &u->progs), 0);
}

static void unit_close(struct unit *u)
{
	hwxdp_prove_progs__free(u->progs);
	hxu_image__free(u->img);
	hwxdp_verify_result__free(u->facts);
	hwxdp_object__close(u->obj);
}

static void unit_prove(const struct unit *u, struct hwxdp_prove_result *res)
{
	struct hwxdp_prove_opts opts = test_prove_opts();

	if (u->progs) {
		opts.progs = u->progs->progs;
		opts.prog_cnt = u->progs->cnt;
	}
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
/* What the entries res names hold after a run (after[e], when after is
 * not NULL): a difference in a map that the frame does not show. */
typedef uint8_t entry_values[HWXDP_PROVE_ENTRY_MAX][HWXDP_PROVE_VALUE_MAX];

static void kernel_run(const struct unit *u, const struct hwxdp_prove_result *res,
		       struct hx_result *kr, entry_values *after)
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
	for (uint32_t e = 0; e < res->entry_cnt; e++) {
		const struct hwxdp_map_desc *d = &u->obj->maps[res->entries[e].map];
		uint8_t value[HWXDP_PROVE_VALUE_MAX];
		uint32_t lo = 1;

		if (res->entries[e].absent || d->read_only) {
			if (d->type == BPF_MAP_TYPE_PROG_ARRAY)
				/* a slot the object fills, which the model has empty */
				hx_target_map_delete(kernel, d->name, res->entries[e].key);
			continue;
		}
		memcpy(value, res->entries[e].value, sizeof(value));
		/* a port map's entry needs a device there; which one, the
		 * kernel's test run does not tell: loopback's */
		if (d->type == BPF_MAP_TYPE_DEVMAP || d->type == BPF_MAP_TYPE_DEVMAP_HASH)
			memcpy(value, &lo, sizeof(lo));
		cr_assert_eq(hx_target_map_update(kernel, d->name, res->entries[e].key, value), 0,
			     "the kernel refuses an entry of %s", d->name);
	}
	cr_assert_eq(hx_target_run(kernel, res->ingress, res->frame, res->len, kr), 0);
	for (uint32_t e = 0; after && e < res->entry_cnt; e++)
		if (hx_target_map_lookup(kernel, u->obj->maps[res->entries[e].map].name,
					 res->entries[e].key, (*after)[e]))
			memset((*after)[e], 0, sizeof((*after)[e]));
	hx_target_close(kernel);
	sched_setaffinity(0, sizeof(old), &old);
}

/* The counterexample on the device, with its entries. */
static int device_run(const struct unit *u, const struct hwxdp_prove_result *res,
		      struct hx_result *dr, entry_values *after)
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
	cr_assert_eq(hwxdp_device_tables__fill_progs(tables, u->obj, u->img), 0);
	for (uint32_t e = 0; e < res->entry_cnt; e++)
		if (!res->entries[e].absent)
			cr_assert_eq(hwxdp_table__update(
					     hwxdp_tables__get(tables, res->entries[e].map),
					     res->entries[e].key, res->entries[e].value, BPF_ANY),
				     0);
		else if (u->obj->maps[res->entries[e].map].type == BPF_MAP_TYPE_PROG_ARRAY)
			hwxdp_table__delete(hwxdp_tables__get(tables, res->entries[e].map),
					    res->entries[e].key);
	engine = hwxdp_engine__new(u->img, tables);
	cr_assert_not_null(engine, "the engine refuses the image");
	window = calloc(1, HXU_WINDOW_SIZE);
	cr_assert_not_null(window);
	err = hx_device_run_frame(engine, window, res->ingress, res->frame, res->len, dr, &f, &st);
	for (uint32_t e = 0; after && e < res->entry_cnt; e++)
		if (hwxdp_table__lookup(hwxdp_tables__get(tables, res->entries[e].map),
					res->entries[e].key, (*after)[e]))
			memset((*after)[e], 0, sizeof((*after)[e]));
	hwxdp_engine__free(engine);
	hwxdp_tables__free(tables);
	free(window);
	return err;
}

/* The counterexample on the device and on the kernel, with its entries. */
static void replay(const struct unit *u, const struct hwxdp_prove_result *res)
{
	static struct hx_result kr, dr;
	static entry_values ka, da;
	int err = device_run(u, res, &dr, &da);
	bool maps_differ = false;

	/* where the two sides' writes part, the model leaves the microcode's
	 * outcome free (loose): the device is held only to differing */
	if (res->hxu.end == HWXDP_PROVE_END_FAULT)
		cr_assert_neq(err, 0, "the model says the device aborts; it does not");
	else if (!(res->loose & HWXDP_PROVE_LOOSE_WRITES))
		cr_assert(!err && result_is(&dr, &res->hxu),
			  "the device does not do what the model says (%s)", res->reason);
	if (geteuid() != 0) {
		cr_log_warn("not replayed on the kernel: it needs root");
		return;
	}
	kernel_run(u, res, &kr, &ka);
	cr_assert(result_is(&kr, &res->bpf), "the kernel does not do what the model says (%s)",
		  res->reason);
	/* or what a map holds afterwards (not a map of maps': its values
	 * are the object's map indices on both) */
	for (uint32_t e = 0; e < res->entry_cnt; e++) {
		const struct hwxdp_map_desc *d = &u->obj->maps[res->entries[e].map];

		if (!hxu_map_of_maps(d->type) && d->value_size <= HWXDP_PROVE_VALUE_MAX &&
		    memcmp(ka[e], da[e], d->value_size))
			maps_differ = true;
	}
	cr_assert(err || maps_differ || kr.action != dr.action || kr.len != dr.len ||
			  memcmp(kr.frame, dr.frame, kr.len),
		  "the counterexample does not tell the kernel and the device apart");
}

/* Proven as translated, refuted once broken, not replayed yet. */
static void prove_then_refute_only(struct unit *u, uint32_t at, uint64_t word,
				   struct hwxdp_prove_result *res)
{
	unit_prove(u, res);
	cr_assert_eq(res->status, HWXDP_PROVE_PROVEN, "%s", res->reason);
	((uint64_t *)u->img->ops)[at] = word;
	unit_prove(u, res);
	cr_assert_eq(res->status, HWXDP_PROVE_COUNTEREXAMPLE, "%s", res->reason);
	cr_log_info("%s: %s", u->prog->name, res->reason);
}

/* Proven as translated, refuted once broken. */
static void prove_then_refute(struct unit *u, uint32_t at, uint64_t word,
			      struct hwxdp_prove_result *res)
{
	prove_then_refute_only(u, at, word, res);
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
	cr_assert_eq(device_run(&u, &res, &dr, NULL), 0);
	cr_assert_eq(dr.action, XDP_DROP, "the device's clock is under a second");
	ref = hx_count_target_open(u.path);
	cr_assert_not_null(ref);
	cr_assert_eq(hx_target_run(ref, res.ingress, res.frame, res.len, &rr), 0);
	hx_target_close(ref);
	cr_assert_eq(rr.action, XDP_PASS);
	if (geteuid() == 0) {
		kernel_run(&u, &res, &kr, NULL);
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

/*
 * Each of the four clocks' readings made another clock's: the slot it is
 * kept in holds another clock's reading. The clocks are free in the model,
 * each reading named by its clock, so the counterexample is loose.
 */
Test(prove_units, one_clock_read_for_another)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "clocks");
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_PROVEN, "%s", res.reason);
	for (int nth = 0; nth < HXU_CLOCK__MAX; nth++) {
		uint64_t kept;

		at = find_op(&u, HXU_OP_TIME, nth, &o);
		cr_assert_eq(o.x, nth, "the clocks are read in the source's order");
		kept = u.img->ops[at];
		o.x = (uint8_t)((o.x + 1) % HXU_CLOCK__MAX);
		((uint64_t *)u.img->ops)[at] = op_word(&o);
		unit_prove(&u, &res);
		cr_assert_eq(res.status, HWXDP_PROVE_COUNTEREXAMPLE, "clock %d: %s", nth,
			     res.reason);
		cr_log_info("%s: clock %d read as %u: %s", u.prog->name, nth, o.x, res.reason);
		cr_assert(res.loose & HWXDP_PROVE_LOOSE_CLOCK);
		((uint64_t *)u.img->ops)[at] = kept;
	}
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_PROVEN, "%s", res.reason);
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

/* The n-th operation with this opcode in image program k. */
static uint32_t find_op_in(const struct unit *u, uint32_t k, uint8_t opcode, int nth,
			   struct hxu_op *out)
{
	uint32_t end = k + 1 < u->img->prog_cnt ? u->img->progs[k + 1].entry : u->img->op_cnt;

	for (uint32_t i = u->img->progs[k].entry; i < end;) {
		unsigned int n = hxu_decode_at(&u->img->ops[i], u->img->op_cnt - i, out);

		cr_assert_neq(n, 0);
		if (out->opcode == opcode && !nth--)
			return i;
		i += n;
	}
	cr_assert_fail("no operation 0x%02x in image program %u", opcode, k);
	return 0;
}

/*
 * The counterexample on the reference interpreter, as `hwxdp prog prove`
 * replays it (lab/bpf_count.h): its tail calls jump into the programs of the
 * device's image that the entries' slots name, and it must do what the
 * model says BPF does.
 */
static void reference_replay(const struct unit *u, const struct hwxdp_prove_result *res)
{
	static struct hx_result rr;
	struct hx_target *ref = hx_count_target_open(u->path);

	cr_assert_not_null(ref, "the reference interpreter refuses %s", u->path);
	for (uint32_t e = 0; e < res->entry_cnt; e++) {
		const char *map = u->obj->maps[res->entries[e].map].name;

		if (!res->entries[e].absent)
			cr_assert_eq(hx_target_map_update(ref, map, res->entries[e].key,
							  res->entries[e].value),
				     0);
		else if (u->obj->maps[res->entries[e].map].type == BPF_MAP_TYPE_PROG_ARRAY)
			hx_target_map_delete(ref, map, res->entries[e].key);
	}
	cr_assert_eq(hx_target_run(ref, res->ingress, res->frame, res->len, &rr), 0);
	cr_assert(result_is(&rr, &res->bpf),
		  "the reference interpreter does not do what the model says BPF does (%s)",
		  res->reason);
	hx_target_close(ref);
}

/* tests/prove/bpf/unit_NAME as the device's loader has it: the entry and
 * the programs its tail calls reach, cnt of them. */
static void tail_open(struct unit *u, const char *name, uint32_t cnt)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/tests/prove/bpf/unit_%s.bpf.o", hx_build_dir(), name);
	image_open(u, path);
	cr_assert_eq(u->img->prog_cnt, cnt);
}

/* Whether the counterexample fills slot of program array map with image
 * program prog (-1: leaves it empty). */
static bool fills_slot(const struct unit *u, const struct hwxdp_prove_result *res, uint32_t slot,
		       int32_t prog)
{
	for (uint32_t e = 0; e < res->entry_cnt; e++) {
		const struct hwxdp_prove_entry *en = &res->entries[e];
		uint32_t key, value;

		memcpy(&key, en->key, sizeof(key));
		memcpy(&value, en->value, sizeof(value));
		if (u->obj->maps[en->map].type == BPF_MAP_TYPE_PROG_ARRAY && key == slot)
			return prog < 0 ? en->absent : !en->absent && value == (uint32_t)prog;
	}
	return false;
}

/* The tail call's index taken from another register (the entry's count,
 * byte 16 plus one): another program runs, or none. */
Test(prove_units, tcall_index_register)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	tail_open(&u, "tcall", 3);
	at = find_op_in(&u, 0, HXU_OP_TCALL, 0, &o);
	cr_assert_eq(o.rs, 3);
	o.rs = 2;
	prove_then_refute(&u, at, op_word(&o), &res);
	reference_replay(&u, &res);
	unit_close(&u);
}

/* The index masked with 1 instead of 3: slot 2 (empty) becomes slot 0,
 * slot 3 (past the end) slot 1. */
Test(prove_units, tcall_index_mask)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	tail_open(&u, "tcall", 3);
	at = find_op_in(&u, 0, HXU_OP_AND, 0, &o);
	cr_assert_eq(o.imm, 3);
	prove_then_refute(&u, at, with_imm(&u, at, 1), &res);
	reference_replay(&u, &res);
	unit_close(&u);
}

/* The tail call made a jump to the next operation: the microcode goes on
 * where BPF runs the slot's program. */
Test(prove_units, tcall_dropped)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	tail_open(&u, "tcall", 3);
	at = find_op_in(&u, 0, HXU_OP_TCALL, 0, &o);
	o.opcode = HXU_OP_JMP;
	o.rs = 0;
	o.x = 0;
	o.imm = (int32_t)at + 1;
	prove_then_refute(&u, at, op_word(&o), &res);
	reference_replay(&u, &res);
	/* BPF ran a slot's program: another, or the entry again (its count) */
	cr_assert(res.bpf.prog != 0 || res.bpf.frame[16] != res.hxu.frame[16], "%s", res.reason);
	unit_close(&u);
}

/* The verdict of tcall_add, which only a tail call reaches, made XDP_PASS:
 * the prover follows the call into it. */
Test(prove_units, tcall_into_a_wrong_target)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	tail_open(&u, "tcall", 3);
	for (int n = 0;; n++) {
		at = find_op_in(&u, 1, HXU_OP_MOV, n, &o);
		if ((o.flags & HXU_F_K) && o.rd == 0 && o.imm == XDP_TX)
			break;
	}
	prove_then_refute(&u, at, with_imm(&u, at, XDP_PASS), &res);
	reference_replay(&u, &res);
	cr_assert_eq(res.bpf.prog, 1, "%s", res.reason);
	cr_assert_eq(res.bpf.value, XDP_TX, "%s", res.reason);
	cr_assert(fills_slot(&u, &res, 0, 1) || fills_slot(&u, &res, 1, 1) ||
			  fills_slot(&u, &res, 2, 1),
		  "no slot holds tcall_add: %s", res.reason);
	unit_close(&u);
}

/* The second tail call's index, tcall_chain's, masked with 2: a chain of
 * two tail calls, the second through the slot its own byte picks. */
Test(prove_units, tcall_chain_index)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	tail_open(&u, "tcall", 3);
	at = find_op_in(&u, 2, HXU_OP_AND, 0, &o);
	cr_assert_eq(o.imm, 3);
	prove_then_refute(&u, at, with_imm(&u, at, 2), &res);
	reference_replay(&u, &res);
	unit_close(&u);
}

/*
 * The 33 tail calls a frame may make, on both sides: tlimit_again counts
 * its runs and sends the frame back where the count is 33 at the call that
 * goes on. Its compare made one with 32 differs only there, where the slot
 * holds tlimit_again and the 34th tail call of the frame is refused: the
 * kernel's replay of the model's BPF outcome (verdict XDP_TX, byte 16 at
 * 33) holds the model to the kernel's count, the device's to the engine's.
 */
Test(prove_units, tcall_limit)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	tail_open(&u, "tlimit", 2);
	at = find_op_in(&u, 1, HXU_OP_BRI, 0, &o);
	cr_assert_eq(o.ext, 33);
	/* the constant is word 2's low half */
	prove_then_refute(&u, at + 1, (u.img->ops[at + 1] & ~0xffffffffull) | 32, &res);
	reference_replay(&u, &res);
	cr_assert(fills_slot(&u, &res, 0, 1), "%s", res.reason);
	cr_assert_eq(res.bpf.value, XDP_TX, "%s", res.reason);
	cr_assert_eq(res.bpf.frame[16], 33, "%s", res.reason);
	unit_close(&u);
}

/* The tail-call units proven path against path too, and the corpus's
 * programs with tail calls: cilium_tail's entry, whose array the object
 * leaves empty (its slots may hold the entry itself), tail_prog_array's,
 * whose image holds its two stages, and tests/devdiff's tail_values (six
 * programs, two arrays, a program calling itself). */
Test(prove_units, tail_call_programs)
{
	static const char *const paths[] = { "tests/prove/bpf/unit_tcall.bpf.o",
					     "tests/prove/bpf/unit_tlimit.bpf.o",
					     "tests/corpus/cilium_tail.bpf.o",
					     "tests/corpus/tail_prog_array.bpf.o",
					     "tests/devdiff/bpf/tail_values.bpf.o" };
	static const uint32_t progs[] = { 3, 2, 1, 3, 6 };
	struct hwxdp_prove_result res;
	char path[4096];

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		struct unit u;

		snprintf(path, sizeof(path), "%s/%s", hx_build_dir(), paths[i]);
		image_open(&u, path);
		cr_expect_eq(u.img->prog_cnt, progs[i], "%s", paths[i]);
		unit_prove(&u, &res);
		cr_expect_eq(res.status, HWXDP_PROVE_PROVEN, "%s: %s", paths[i], res.reason);
		cr_log_info("%s: %u / %u paths, %llu ms", paths[i], res.bpf_paths, res.hxu_paths,
			    (unsigned long long)res.elapsed_ms);
		unit_close(&u);
	}
}

/* The counterexample on the reference interpreter, with its entries. */
static int reference_run(const struct unit *u, const struct hwxdp_prove_result *res,
			 struct hx_result *rr)
{
	struct hx_target *ref = hx_count_target_open(u->path);
	int err;

	cr_assert_not_null(ref);
	for (uint32_t e = 0; e < res->entry_cnt; e++)
		if (!res->entries[e].absent && !u->obj->maps[res->entries[e].map].read_only)
			cr_assert_eq(
				hx_target_map_update(ref, u->obj->maps[res->entries[e].map].name,
						     res->entries[e].key, res->entries[e].value),
				0);
	err = hx_target_run(ref, res->ingress, res->frame, res->len, rr);
	hx_target_close(ref);
	return err;
}

/* Whether a counterexample's two sides differ only in the key of the port
 * map entry they redirect to, the two entries naming one port: the model
 * may give two keys one value (docs/prove.md), and then no target shows the
 * difference. */
static bool only_the_key_differs(const struct hwxdp_prove_result *res)
{
	const struct hwxdp_prove_outcome *b = &res->bpf, *h = &res->hxu;

	return b->egress == HWXDP_PROVE_EGRESS_ENTRY && h->egress == HWXDP_PROVE_EGRESS_ENTRY &&
	       b->egress_key != h->egress_key && b->egress_ifindex == h->egress_ifindex &&
	       b->value == h->value && b->len == h->len && !memcmp(b->frame, h->frame, b->len);
}

/*
 * A redirect's counterexample, replayed: the reference interpreter and the
 * device each do what the model says their side does, where the frame goes
 * included (their egress, as the device names it), and the two differ, in
 * the verdict, the frame or the egress (but where only the key differs of
 * two entries the model gave one port); the kernel, whose test run does
 * not say where a frame goes, does what the model says BPF does.
 */
static void replay_redirect(const struct unit *u, const struct hwxdp_prove_result *res,
			    struct hx_result *rr, struct hx_result *dr)
{
	static struct hx_result kr;
	int rerr = reference_run(u, res, rr), derr = device_run(u, res, dr, NULL);

	cr_assert(hx_result_is_outcome(rerr, rr, &res->bpf),
		  "the reference does not do what the model says BPF does (%s): verdict %u, "
		  "egress 0x%x",
		  res->reason, rr->action, rr->egress);
	cr_assert(hx_result_is_outcome(derr, dr, &res->hxu),
		  "the device does not do what the model says the microcode does (%s): verdict "
		  "%u, egress 0x%x",
		  res->reason, dr->action, dr->egress);
	if (only_the_key_differs(res))
		cr_log_warn("%s: the two entries name one port: no target tells them apart",
			    res->reason);
	else
		cr_assert(rr->action != dr->action || rr->len != dr->len ||
				  memcmp(rr->frame, dr->frame, rr->len) || rr->egress != dr->egress,
			  "the counterexample does not tell the reference and the device apart");
	if (geteuid() != 0) {
		cr_log_warn("not replayed on the kernel: it needs root");
		return;
	}
	kernel_run(u, res, &kr, NULL);
	cr_assert(result_is(&kr, &res->bpf), "the kernel does not do what the model says (%s)",
		  res->reason);
}

/* The redir of a unit, and its flags as imm holds them. */
static uint32_t find_redir(const struct unit *u, int nth, struct hxu_op *o, int32_t flags)
{
	uint32_t at = find_op(u, HXU_OP_REDIR, nth, o);

	cr_assert_eq(o->imm, flags, "redir %d has flags %d", nth, o->imm);
	return at;
}

/* A constant broadcast made a plain redirect (BPF_F_BROADCAST dropped):
 * the frame goes to the key's entry, or, without one, is aborted. */
Test(prove_units, broadcast_made_plain)
{
	static struct hx_result rr, dr;
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "bcast");
	at = find_redir(&u, 0, &o, BPF_F_BROADCAST);
	prove_then_refute_only(&u, at, with_imm(&u, at, 0), &res);
	replay_redirect(&u, &res, &rr, &dr);
	cr_assert(hwxdp_egress_is_bcast(rr.egress), "the reference does not broadcast");
	cr_assert(!hwxdp_egress_is_bcast(dr.egress), "the device broadcasts");
	unit_close(&u);
}

/* BPF_F_EXCLUDE_INGRESS dropped from a broadcast: the verdict and the
 * frame are the same, only the egress differs (the ingress port is
 * flooded too). */
Test(prove_units, exclude_ingress_dropped)
{
	static struct hx_result rr, dr;
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "bcast_excl");
	at = find_redir(&u, 0, &o, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
	prove_then_refute_only(&u, at, with_imm(&u, at, BPF_F_BROADCAST), &res);
	cr_assert(strstr(res.reason, "redirect target"), "%s", res.reason);
	cr_assert_eq(res.bpf.egress, HWXDP_PROVE_EGRESS_BCAST_EXCL, "%s", res.reason);
	cr_assert_eq(res.hxu.egress, HWXDP_PROVE_EGRESS_BCAST, "%s", res.reason);
	replay_redirect(&u, &res, &rr, &dr);
	cr_assert_eq(rr.action, XDP_REDIRECT);
	cr_assert_eq(dr.action, XDP_REDIRECT);
	/* the devmap hash is the object's table 0 */
	cr_assert_eq(rr.egress, HWXDP_EGRESS_BCAST | HWXDP_EGRESS_BCAST_EXCL, "0x%x", rr.egress);
	cr_assert_eq(dr.egress, HWXDP_EGRESS_BCAST, "0x%x", dr.egress);
	unit_close(&u);
}

/* A broadcast that leaves out the ingress port made a plain redirect
 * (BPF_F_EXCLUDE_INGRESS alone changes nothing): key 0's entry or
 * XDP_ABORTED, where BPF floods. */
Test(prove_units, exclude_ingress_alone_is_no_broadcast)
{
	static struct hx_result rr, dr;
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "bcast_excl");
	at = find_redir(&u, 0, &o, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
	prove_then_refute_only(&u, at, with_imm(&u, at, BPF_F_EXCLUDE_INGRESS), &res);
	replay_redirect(&u, &res, &rr, &dr);
	cr_assert(!hwxdp_egress_is_bcast(dr.egress), "the device broadcasts");
	unit_close(&u);
}

/* Flags from the frame, in a register (redir's rt), made the key's
 * register: the flags are then the port's index, which tells a broadcast
 * or refused bits apart from what the frame asks for. */
Test(prove_units, flags_register_made_the_key)
{
	static struct hx_result rr, dr;
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "redir_flags");
	at = find_redir(&u, 0, &o, HXU_REDIR_FLAGS_RT);
	cr_assert_neq(o.rt, o.rs);
	o.rt = o.rs;
	prove_then_refute_only(&u, at, op_word(&o), &res);
	replay_redirect(&u, &res, &rr, &dr);
	unit_close(&u);
}

/* Flags from the frame made the constant BPF_F_BROADCAST: every frame is
 * flooded, where BPF refuses bits beyond the devmap's, returns a miss's
 * verdict, or goes to one port. */
Test(prove_units, flags_register_made_a_broadcast)
{
	static struct hx_result rr, dr;
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "redir_flags");
	at = find_redir(&u, 0, &o, HXU_REDIR_FLAGS_RT);
	o.imm = BPF_F_BROADCAST;
	o.rt = 0;
	prove_then_refute_only(&u, at, op_word(&o), &res);
	replay_redirect(&u, &res, &rr, &dr);
	cr_assert(hwxdp_egress_is_bcast(dr.egress), "the device does not broadcast");
	unit_close(&u);
}

/* The redirect's key read from the byte before (destination byte 4 for
 * 5): the verdict is XDP_REDIRECT either way, and only the egress, the
 * entry's port or none, tells the two apart. */
Test(prove_units, redirect_key_from_another_byte)
{
	static struct hx_result rr, dr;
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "redir_entry");
	find_redir(&u, 0, &o, 0);
	at = find_op(&u, HXU_OP_LD + HXU_SPACE_PKT, 0, &o);
	cr_assert_eq(o.imm, 5);
	prove_then_refute_only(&u, at, with_imm(&u, at, 4), &res);
	cr_assert(strstr(res.reason, "redirect target"), "%s", res.reason);
	replay_redirect(&u, &res, &rr, &dr);
	cr_assert_eq(rr.action, XDP_REDIRECT);
	cr_assert_eq(dr.action, XDP_REDIRECT);
	cr_assert(rr.egress != dr.egress || only_the_key_differs(&res));
	unit_close(&u);
}

/* Flags from the frame made each constant in turn, the action bits, each
 * flag the devmap takes, both, and one it refuses: the counterexamples
 * land on frames whose flags do otherwise, and each replays, on the
 * reference interpreter, the device and the kernel. unit_bcast_reg's
 * flags are a broadcast's, with BPF_F_EXCLUDE_INGRESS or not, so that its
 * counterexamples are broadcasts whose flags come from a register. */
static void flags_made_constants(const char *name)
{
	static const int32_t flags[] = { 0,
					 XDP_PASS,
					 BPF_F_BROADCAST,
					 BPF_F_EXCLUDE_INGRESS,
					 BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS | XDP_TX,
					 32 };
	static struct hx_result rr, dr;
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		unit_open(&u, name);
		at = find_redir(&u, 0, &o, HXU_REDIR_FLAGS_RT);
		o.imm = flags[i];
		o.rt = 0;
		prove_then_refute_only(&u, at, op_word(&o), &res);
		cr_log_info("flags %d: frame's flags 0x%02x", flags[i], res.frame[6]);
		replay_redirect(&u, &res, &rr, &dr);
		unit_close(&u);
	}
}

Test(prove_units, flags_register_made_constants)
{
	flags_made_constants("redir_flags");
	flags_made_constants("bcast_reg");
}

/*
 * The two random numbers exchanged: the second samples the frame and the
 * first is written into it. Each reading is its own free value in the
 * model, so the counterexample is one where they differ; the numbers are
 * the generators' own (the reference's and the device's are not the
 * model's, nor each other's), so it is loose, and the replay holds the
 * reference and the device only to differing.
 */
Test(prove_units, rand_readings_exchanged)
{
	static struct hx_result rr, dr;
	struct hwxdp_prove_result res;
	struct hxu_op st, and;
	struct unit u;
	uint32_t st_at, and_at;

	unit_open(&u, "rand");
	find_op(&u, HXU_OP_RAND, 1, &st);
	st_at = find_op(&u, HXU_OP_ST + HXU_SPACE_PKT, 0, &st);
	and_at = find_op(&u, HXU_OP_AND, 0, &and);
	cr_assert(st.rt == 0 && and.rs != 0, "the second reading is not the one stored");
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_PROVEN, "%s", res.reason);
	st.rt = and.rs;
	and.rs = 0;
	((uint64_t *)u.img->ops)[st_at] = op_word(&st);
	((uint64_t *)u.img->ops)[and_at] = op_word(&and);
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_COUNTEREXAMPLE, "%s", res.reason);
	cr_log_info("%s: %s", u.prog->name, res.reason);
	cr_assert(res.loose & HWXDP_PROVE_LOOSE_RAND);
	cr_assert(res.bpf.value != res.hxu.value || (res.diff_byte >= 6 && res.diff_byte < 10),
		  "%s", res.reason);
	cr_assert_eq(reference_run(&u, &res, &rr), 0);
	cr_assert_eq(device_run(&u, &res, &dr, NULL), 0);
	cr_assert(rr.action != dr.action || memcmp(rr.frame, dr.frame, rr.len),
		  "the reference and the device do the same");
	unit_close(&u);
}

/* The n-th operation with this opcode whose fields match: rs, x (the
 * condition) and, for a W32 test, the flags' 32-bit bit. */
static uint32_t find_cc(const struct unit *u, uint8_t opcode, uint8_t rs, uint8_t cc, bool w32,
			int nth, struct hxu_op *out)
{
	for (uint32_t i = 0; i < u->img->op_cnt;) {
		unsigned int n = hxu_decode_at(&u->img->ops[i], u->img->op_cnt - i, out);

		cr_assert_neq(n, 0);
		if (out->opcode == opcode && out->rs == rs && out->x == cc &&
		    !!(out->flags & HXU_F_W32) == w32 && !nth--)
			return i;
		i += n;
	}
	cr_assert_fail("no operation 0x%02x on r%u with condition %u in the image", opcode, rs, cc);
	return 0;
}

/* The first word of the operation at at with another condition. */
static uint64_t with_cc(const struct unit *u, uint32_t at, uint8_t cc)
{
	uint64_t w[2];
	struct hxu_op o = { 0 };

	cr_assert_neq(hxu_decode_at(&u->img->ops[at], u->img->op_cnt - at, &o), 0);
	o.x = cc;
	hxu_encode(&o, w);
	return w[0];
}

/* bpf_iter_num_next's bound one off in the microcode ((s64)(cur + 1) > end
 * for >=): one iteration more, which the count and the sum in the frame
 * show, on the kernel and on the device. */
Test(prove_units, iter_bound_off_by_one)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "iter");
	at = find_cc(&u, HXU_OP_BR, 2, HXU_CC_SGE, true, 0, &o);
	prove_then_refute(&u, at, with_cc(&u, at, HXU_CC_SGT), &res);
	cr_assert(res.diff_byte == 16 || res.diff_byte == 17, "%s", res.reason);
	unit_close(&u);
}

/* bpf_iter_num_new's -EINVAL sign-extended: the kernel's int result is
 * zero-extended (x86-64 writes eax), which R0 read whole, written into
 * bytes 24..31, shows on the kernel. */
Test(prove_units, iter_result_sign_extended)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "iter");
	at = find_op(&u, HXU_OP_MOV, 0, &o);
	for (int n = 1; !(o.flags & HXU_F_K) || o.imm != -EINVAL; n++)
		at = find_op(&u, HXU_OP_MOV, n, &o);
	cr_assert(o.flags & HXU_F_W32);
	o.flags &= (uint8_t)~HXU_F_W32;
	{
		uint64_t w[2];

		hxu_encode(&o, w);
		prove_then_refute(&u, at, w[0], &res);
	}
	cr_assert(res.diff_byte >= 28 && res.diff_byte <= 31, "%s", res.reason);
	unit_close(&u);
}

/* bpf_dynptr_from_xdp's flags test the other way round in the microcode:
 * a NULL dynptr for flags 0, a made one for 1. The slice's NULL and the
 * verdict show it. */
Test(prove_units, dynptr_flags_inverted)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "slice");
	at = find_cc(&u, HXU_OP_BRI, 2, HXU_CC_NE, false, 0, &o);
	cr_assert_eq(o.ext, 0);
	prove_then_refute(&u, at, with_cc(&u, at, HXU_CC_EQ), &res);
	unit_close(&u);
}

/* The slice's range one byte long in the microcode: a slice of the
 * frame's last 3 bytes and one past its end is the device's, NULL for the
 * kernel. Not replayed: the byte past the frame is the window's, which
 * the model leaves free. */
Test(prove_units, dynptr_slice_range_off_by_one)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "slice");
	/* r5 = the length made with + 1 - (4 + 1) */
	at = find_op(&u, HXU_OP_SUB, 0, &o);
	for (int n = 1; o.rd != 5 || !(o.flags & HXU_F_K); n++)
		at = find_op(&u, HXU_OP_SUB, n, &o);
	cr_assert_eq(o.imm, 5);
	prove_then_refute_only(&u, at, with_imm(&u, at, 4), &res);
	cr_assert_eq(res.bpf.end, HWXDP_PROVE_END_EXIT, "%s", res.reason);
	cr_assert_eq(res.bpf.value, XDP_DROP, "%s", res.reason);
	unit_close(&u);
}

/* The corpus programs these units made provable. */
Test(prove_units, corpus_programs)
{
	static const char *const names[] = { "global_funcs",  "tail_grow",     "legacy_prog_sec",
					     "bench_basic",   "bytes_helpers", "globals_frags",
					     "stats_actions", "atomics_v3",    "map_in_map",
					     "dynptr_parse" };
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
	/* an image of three programs, its tail calls followed */
	snprintf(path, sizeof(path), "%s/tests/corpus/tail_prog_array.bpf.o", hx_build_dir());
	cr_assert_eq(hwxdp_image__translate(path, &opts, &img), 0);
	cr_assert_not_null(img);
	hwxdp_image__free(img);
	/* a map write the prover does not model: not proven, so refused */
	snprintf(path, sizeof(path), "%s/tests/prove/bpf/not_modelled.bpf.o", hx_build_dir());
	cr_assert_eq(hwxdp_image__translate(path, &opts, &img), -HWXDP_ERR_NOT_PROVEN);
	cr_assert_null(img);
	opts.prove = false;
	cr_assert_eq(hwxdp_image__translate(path, &opts, &img), 0);
	hwxdp_image__free(img);
}

/*
 * Maps of maps (unit_inner): the outer lookups' handles and the inner
 * lookups through them. A counterexample fills the outer maps with the
 * object's inner maps (by index) and those with the entries it needs.
 */
static uint64_t with_rt(const struct unit *u, uint32_t at, uint8_t rt)
{
	struct hxu_op o;

	cr_assert_neq(hxu_decode_at(&u->img->ops[at], u->img->op_cnt - at, &o), 0);
	o.rt = rt;
	return op_word(&o);
}

/* An entry of map of maps name in res, present, naming an inner map. */
static bool names_inner_map(const struct unit *u, const struct hwxdp_prove_result *res,
			    const char *name)
{
	for (uint32_t e = 0; e < res->entry_cnt; e++) {
		const struct hwxdp_prove_entry *en = &res->entries[e];
		uint32_t inner;

		memcpy(&inner, en->value, sizeof(inner));
		if (!en->absent && !strcmp(u->obj->maps[en->map].name, name) &&
		    inner < u->obj->map_cnt && !hxu_map_of_maps(u->obj->maps[inner].type))
			return true;
	}
	return false;
}

/* Refuted once broken, the counterexample replayed on the device and the
 * kernel, and on the reference interpreter as `prog prove` replays it: the
 * outer entries the model has absent deleted, as a definition may fill
 * them, the others stored (an inner map's index), and the reference doing
 * what the model says BPF does. */
static void refute_inner(struct unit *u, uint32_t at, uint64_t word, struct hwxdp_prove_result *res)
{
	static struct hx_result rr;
	struct hx_target *ref;

	prove_then_refute(u, at, word, res);
	ref = hx_count_target_open(u->path);
	cr_assert_not_null(ref);
	for (uint32_t e = 0; e < res->entry_cnt; e++) {
		const struct hwxdp_prove_entry *en = &res->entries[e];
		const char *map = u->obj->maps[en->map].name;

		if (!en->absent)
			cr_assert_eq(hx_target_map_update(ref, map, en->key, en->value), 0, "%s",
				     map);
		else if (hxu_map_of_maps(u->obj->maps[en->map].type))
			hx_target_map_delete(ref, map, en->key);
	}
	cr_assert_eq(hx_target_run(ref, res->ingress, res->frame, res->len, &rr), 0);
	hx_target_close(ref);
	cr_assert(result_is(&rr, &res->bpf),
		  "the reference interpreter does not do what the model says (%s)", res->reason);
}

/* The outer array's key taken from the inner one's slot: the counter of
 * another inner map (or none) is read and counted. */
Test(prove_units, outer_key_from_the_wrong_slot)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "inner");
	at = find_op(&u, HXU_OP_TLOOKUP, 0, &o);
	cr_assert_eq(u.obj->maps[o.x].type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	/* the add that points r2 at the outer key (r10 - 4) */
	for (at = 0; at < u.img->op_cnt; at++) {
		cr_assert_neq(hxu_decode_at(&u.img->ops[at], u.img->op_cnt - at, &o), 0);
		if (o.opcode == HXU_OP_ADD && o.rd == 2 && o.rs == HXU_REG_FP && o.imm == -4)
			break;
	}
	cr_assert_lt(at, u.img->op_cnt);
	refute_inner(&u, at, with_imm(&u, at, -8), &res);
	cr_assert(names_inner_map(&u, &res, "by_slot"), "%s", res.reason);
	unit_close(&u);
}

/* The inner array's key taken from the outer one's slot. */
Test(prove_units, inner_key_from_the_wrong_slot)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "inner");
	for (at = 0; at < u.img->op_cnt; at++) {
		cr_assert_neq(hxu_decode_at(&u.img->ops[at], u.img->op_cnt - at, &o), 0);
		if (o.opcode == HXU_OP_ADD && o.rd == 2 && o.rs == HXU_REG_FP && o.imm == -8)
			break;
	}
	cr_assert_lt(at, u.img->op_cnt);
	refute_inner(&u, at, with_imm(&u, at, -4), &res);
	cr_assert(names_inner_map(&u, &res, "by_slot"), "%s", res.reason);
	unit_close(&u);
}

/* tlookupr given the frame's pointer for the handle: the device aborts
 * the frame, the kernel counts it. */
Test(prove_units, tlookupr_handle_from_the_wrong_register)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "inner");
	at = find_op(&u, HXU_OP_TLOOKUPR, 0, &o);
	cr_assert_eq(o.rt, 1);
	refute_inner(&u, at, with_rt(&u, at, 6), &res);
	cr_assert_eq(res.hxu.end, HWXDP_PROVE_END_FAULT, "%s", res.reason);
	cr_assert_eq(res.hxu.last, at, "%s", res.reason);
	unit_close(&u);
}

/* The hash of maps' handle checked against the array of maps' template:
 * no map the hash holds fits it, and the device aborts the frame. */
Test(prove_units, tlookupr_on_the_other_map_of_maps)
{
	struct hwxdp_prove_result res;
	struct hxu_op o, first;
	struct unit u;
	uint32_t at;

	unit_open(&u, "inner");
	find_op(&u, HXU_OP_TLOOKUPR, 0, &first);
	at = find_op(&u, HXU_OP_TLOOKUPR, 1, &o);
	cr_assert_neq(o.x, first.x);
	o.x = first.x;
	refute_inner(&u, at, op_word(&o), &res);
	cr_assert_eq(res.hxu.end, HWXDP_PROVE_END_FAULT, "%s", res.reason);
	cr_assert(names_inner_map(&u, &res, "by_tag"), "%s", res.reason);
	unit_close(&u);
}

/*
 * unit_made: no map of the object fits the array of maps' template, so
 * its inner maps are ones the control plane makes at run time, which the
 * model has too (their values where table memory holds them): proven. A
 * handle from the wrong register then aborts the frame only where the
 * outer map holds such a map, which no replay can make: not proven, and
 * said why.
 */
Test(prove_units, inner_maps_made_at_run_time)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "made");
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_PROVEN, "%s", res.reason);
	at = find_op(&u, HXU_OP_TLOOKUPR, 0, &o);
	((uint64_t *)u.img->ops)[at] = with_rt(&u, at, 6);
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_NOT_PROVEN, "%s", res.reason);
	cr_assert(strstr(res.reason, "an inner map made at run time, none of the object's"), "%s",
		  res.reason);
	unit_close(&u);
}

/* unit_inner_write: tupdater's flags made BPF_NOEXIST, where the program's
 * are BPF_ANY: an update of a key the inner map holds fails on the device
 * only. */
Test(prove_units, tupdater_flags)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "inner_write");
	at = find_op(&u, HXU_OP_TUPDATER, 0, &o);
	cr_assert_eq((uint32_t)o.imm & HXU_TUPDATE_FLAGS_MASK, BPF_ANY);
	o.imm = (int32_t)(((uint32_t)o.imm & ~(uint32_t)HXU_TUPDATE_FLAGS_MASK) | BPF_NOEXIST);
	refute_inner(&u, at, op_word(&o), &res);
	cr_assert(names_inner_map(&u, &res, "by_tag"), "%s", res.reason);
	unit_close(&u);
}

/*
 * tupdater's key taken from the value's buffer: another key is written.
 * The writes part, so the model leaves what the microcode's write leaves
 * free (loose): replayed, the kernel does what the model says BPF does,
 * and the device differs from it, in the frame or in the inner map.
 */
Test(prove_units, tupdater_key_from_the_value)
{
	static struct hx_result kr, dr;
	static entry_values ka, da;
	struct hwxdp_prove_result res;
	bool differ = false;
	struct hxu_op o;
	struct unit u;
	uint32_t at;
	int err;

	unit_open(&u, "inner_write");
	at = find_op(&u, HXU_OP_TUPDATER, 0, &o);
	cr_assert_neq(o.rs, o.rt);
	o.rs = o.rt;
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_PROVEN, "%s", res.reason);
	((uint64_t *)u.img->ops)[at] = op_word(&o);
	unit_prove(&u, &res);
	cr_assert_eq(res.status, HWXDP_PROVE_COUNTEREXAMPLE, "%s", res.reason);
	cr_assert(strstr(res.reason, "key differs"), "%s", res.reason);
	cr_assert(res.loose & HWXDP_PROVE_LOOSE_WRITES);
	cr_assert(names_inner_map(&u, &res, "by_tag"), "%s", res.reason);
	err = device_run(&u, &res, &dr, &da);
	if (geteuid() != 0) {
		cr_log_warn("not replayed on the kernel: it needs root");
		unit_close(&u);
		return;
	}
	kernel_run(&u, &res, &kr, &ka);
	cr_assert(result_is(&kr, &res.bpf), "the kernel does not do what the model says (%s)",
		  res.reason);
	for (uint32_t e = 0; e < res.entry_cnt; e++)
		if (!hxu_map_of_maps(u.obj->maps[res.entries[e].map].type) &&
		    memcmp(ka[e], da[e], u.obj->maps[res.entries[e].map].value_size))
			differ = true;
	cr_assert(err || differ || kr.action != dr.action || kr.len != dr.len ||
			  memcmp(kr.frame, dr.frame, kr.len),
		  "the counterexample does not tell the kernel and the device apart");
	unit_close(&u);
}

/* tdeleter given the frame's pointer for the handle: the device aborts. */
Test(prove_units, tdeleter_handle_from_the_wrong_register)
{
	struct hwxdp_prove_result res;
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	unit_open(&u, "inner_write");
	at = find_op(&u, HXU_OP_TDELETER, 0, &o);
	cr_assert_eq(o.rt, 1);
	refute_inner(&u, at, with_rt(&u, at, 7), &res);
	cr_assert_eq(res.hxu.end, HWXDP_PROVE_END_FAULT, "%s", res.reason);
	cr_assert_eq(res.hxu.last, at, "%s", res.reason);
	unit_close(&u);
}

/*
 * A redirect given a cpumap on some paths and a devmap on others: the device
 * punts where the map is the cpumap (the host copy redirects to the CPU's
 * queue) and redirects through the devmap on the others; proven so. The
 * dispatch's map id made the cpumap's: the device redirects the cpumap's
 * frames through the devmap and punts the devmap's.
 */
Test(prove_units, host_map_dispatch_on_the_wrong_map)
{
	struct hwxdp_prove_result res;
	char path[4096];
	struct hxu_op o;
	struct unit u;
	uint32_t at;

	snprintf(path, sizeof(path), "%s/tests/devdiff/bpf/redirect_cpu_or_port.bpf.o",
		 hx_build_dir());
	image_open(&u, path);
	at = find_op(&u, HXU_OP_BRI, 1, &o);
	cr_assert_eq(o.ext, 1, "the dispatch tests the devmap's id");
	prove_then_refute(&u, at + 1, u.img->ops[at + 1] & ~0xffffffffull, &res);
	cr_assert(res.bpf.end == HWXDP_PROVE_END_PUNT || res.hxu.end == HWXDP_PROVE_END_PUNT,
		  "%s", res.reason);
	unit_close(&u);
}
