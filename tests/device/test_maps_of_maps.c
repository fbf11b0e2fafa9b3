// SPDX-License-Identifier: GPL-2.0
/*
 * Maps of maps on the device: ARRAY_OF_MAPS and HASH_OF_MAPS tables of
 * table ids, each id checked against the map's template when the control
 * plane stores it (as the kernel checks an inner map's fd, compared here);
 * the handle a program's lookup gives, and the operations whose table is
 * that handle (tlookupr, tupdater, tdeleter), refused at load where they
 * name no map of maps and aborting a frame whose handle names a table that
 * does not fit, in the interpreter and the compiled engine.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <criterion/criterion.h>

#include "base/log.h"
#include "device/compile.h"
#include "tests/device/engine_util.h"

static void quiet(void)
{
	hwxdp_set_print(NULL);
}

/* An outer table of type, key_size, entries whose template is an array of
 * 4-byte keys, 8-byte values and 4 entries. */
static struct hxu_table_desc outer(uint32_t id, uint32_t type, uint32_t key_size, uint32_t entries)
{
	struct hxu_table_desc d = hxe_table(id, type, key_size, 4, entries);

	d.inner = (struct hxu_inner_desc){ BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0 };
	return d;
}

/* 1, 2: arrays that fit; 3: an array of 16-byte values, 4: of 5 entries,
 * 5: a hash of the same sizes, which do not; 6: the array of maps, 7: the
 * hash of maps (2-byte keys). */
static void make_tables(struct hxu_table_desc *t)
{
	t[0] = hxe_table(1, BPF_MAP_TYPE_ARRAY, 4, 8, 4);
	t[1] = hxe_table(2, BPF_MAP_TYPE_ARRAY, 4, 8, 4);
	t[2] = hxe_table(3, BPF_MAP_TYPE_ARRAY, 4, 16, 4);
	t[3] = hxe_table(4, BPF_MAP_TYPE_ARRAY, 4, 8, 5);
	t[4] = hxe_table(5, BPF_MAP_TYPE_HASH, 4, 8, 4);
	t[5] = outer(6, BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4);
	t[6] = outer(7, BPF_MAP_TYPE_HASH_OF_MAPS, 2, 8);
}

/* The control plane stores an id only where the table fits the template,
 * with the kernel's errors for its fds: -EBADF no map, -EINVAL another
 * shape; and the kernel's flags rules per type. */
Test(maps_of_maps, an_id_that_does_not_fit_the_template_is_refused, .init = quiet)
{
	struct hxu_table_desc d[7];
	struct hwxdp_tables *t = hwxdp_tables__new();
	struct hwxdp_table *aom, *hom;
	uint32_t k, id, got;
	uint16_t hk = 5;

	make_tables(d);
	for (int i = 0; i < 7; i++)
		cr_assert_eq(hwxdp_tables__create(t, &d[i]), 0, "table %u", d[i].id);
	aom = hwxdp_tables__get(t, 6);
	hom = hwxdp_tables__get(t, 7);
	k = 1;
	id = 1;
	cr_expect_eq(hwxdp_table__update(aom, &k, &id, BPF_ANY), 0);
	cr_expect_eq(hwxdp_table__lookup(aom, &k, &got), 0);
	cr_expect_eq(got, 1);
	for (id = 3; id <= 7; id++)
		cr_expect_eq(hwxdp_table__update(aom, &k, &id, BPF_ANY), -EINVAL,
			     "table %u stored in the array of maps", id);
	id = 9; /* no table */
	cr_expect_eq(hwxdp_table__update(aom, &k, &id, BPF_ANY), -EBADF);
	id = 300;
	cr_expect_eq(hwxdp_table__update(aom, &k, &id, BPF_ANY), -EBADF);
	/* a refused update leaves the entry as it was */
	cr_expect_eq(hwxdp_table__lookup(aom, &k, &got), 0);
	cr_expect_eq(got, 1);
	id = 2;
	cr_expect_eq(hwxdp_table__update(aom, &k, &id, BPF_NOEXIST), -EINVAL);
	k = 4;
	cr_expect_eq(hwxdp_table__update(aom, &k, &id, BPF_ANY), -E2BIG);
	k = 0;
	cr_expect_eq(hwxdp_table__lookup(aom, &k, &got), -ENOENT);
	cr_expect_eq(hwxdp_table__delete(aom, &k), -ENOENT);
	k = 1;
	cr_expect_eq(hwxdp_table__delete(aom, &k), 0);
	cr_expect_eq(hwxdp_table__lookup(aom, &k, &got), -ENOENT);

	id = 2;
	cr_expect_eq(hwxdp_table__update(hom, &hk, &id, BPF_NOEXIST), 0);
	cr_expect_eq(hwxdp_table__update(hom, &hk, &id, BPF_NOEXIST), -EEXIST);
	id = 5;
	cr_expect_eq(hwxdp_table__update(hom, &hk, &id, BPF_ANY), -EINVAL);
	cr_expect_eq(hwxdp_table__lookup(hom, &hk, &got), 0);
	cr_expect_eq(got, 2);
	/* a program's lookup: the handle of the table, or 0 */
	cr_expect_eq(hwxdp_table__value_addr(hom, &hk), HXU_HANDLE(2));
	hk = 6;
	cr_expect_eq(hwxdp_table__value_addr(hom, &hk), 0);
	hwxdp_tables__free(t);
}

/* The same updates on the kernel's maps of maps, whose inner maps are
 * made as the device's tables are: the errors must be the device's. */
Test(maps_of_maps, the_kernel_refuses_the_same_inner_maps, .init = quiet)
{
	struct hxu_table_desc d[7];
	int fd[8] = { -1, -1, -1, -1, -1, -1, -1, -1 }, err;
	uint32_t k = 1;
	uint16_t hk = 5;

	if (geteuid() != 0)
		cr_skip_test("creating maps of maps needs root");
	make_tables(d);
	for (int i = 0; i < 5; i++) {
		fd[d[i].id] = bpf_map_create(d[i].type, "mom_inner", d[i].key_size, d[i].value_size,
					     d[i].max_entries, NULL);
		cr_assert_geq(fd[d[i].id], 0);
	}
	for (int i = 5; i < 7; i++) {
		LIBBPF_OPTS(bpf_map_create_opts, opts, .inner_map_fd = fd[1]);

		fd[d[i].id] = bpf_map_create(d[i].type, "mom_outer", d[i].key_size, 4,
					     d[i].max_entries, &opts);
		cr_assert_geq(fd[d[i].id], 0, "%s", strerror(errno));
	}
	cr_expect_eq(bpf_map_update_elem(fd[6], &k, &fd[1], BPF_ANY), 0);
	for (int id = 3; id <= 5; id++) {
		err = bpf_map_update_elem(fd[6], &k, &fd[id], BPF_ANY) ? -errno : 0;
		cr_expect_eq(err, -EINVAL, "the kernel stores map %d: %d", id, err);
	}
	err = bpf_map_update_elem(fd[6], &k, &fd[2], BPF_NOEXIST) ? -errno : 0;
	cr_expect_eq(err, -EINVAL);
	k = 4;
	err = bpf_map_update_elem(fd[6], &k, &fd[2], BPF_ANY) ? -errno : 0;
	cr_expect_eq(err, -E2BIG);
	k = 0;
	err = bpf_map_delete_elem(fd[6], &k) ? -errno : 0;
	cr_expect_eq(err, -ENOENT);
	cr_expect_eq(bpf_map_update_elem(fd[7], &hk, &fd[2], BPF_NOEXIST), 0);
	err = bpf_map_update_elem(fd[7], &hk, &fd[2], BPF_NOEXIST) ? -errno : 0;
	cr_expect_eq(err, -EEXIST);
	err = bpf_map_update_elem(fd[7], &hk, &fd[5], BPF_ANY) ? -errno : 0;
	cr_expect_eq(err, -EINVAL);
	for (int i = 0; i < 8; i++)
		if (fd[i] >= 0)
			close(fd[i]);
}

/* The image: the register forms name a map of maps that exists, their
 * unused bits are zero, and a template is one of the device's tables. */
Test(maps_of_maps, images_with_a_bad_register_form_are_refused, .init = quiet)
{
	struct hxu_table_desc d[7], bad;
	struct hwxdp_tables *t = hwxdp_tables__new();
	char err[256];
	struct hxe *x;

	make_tables(d);
	x = hxe_try("tlookupr.lm r0, 1[r1], r2 ;;\nexit", d, 7, NULL, err, sizeof(err));
	cr_expect_null(x);
	cr_expect(strstr(err, "op 0: a table from a register needs a map of maps, table 1 is "
			      "not one"),
		  "%s", err);
	hxe_free(x);
	x = hxe_try("tdeleter.lm r0, 200[r1], r2 ;;\nexit", d, 7, NULL, err, sizeof(err));
	cr_expect_null(x);
	cr_expect(strstr(err, "needs a map of maps, table 200 is missing"), "%s", err);
	hxe_free(x);
	x = hxe_try("tupdater.lm.lm r0, 5[r1], r2, r3, 0 ;;\nexit", d, 7, NULL, err, sizeof(err));
	cr_expect_null(x);
	cr_expect(strstr(err, "table 5 is not one"), "%s", err);
	hxe_free(x);
	/* a fixed-table update or delete of a map of maps: only the control
	 * plane writes one, as the kernel's verifier has it */
	x = hxe_try("tupdate.lm.lm r0, 6, r2, r3, 0 ;;\nexit", d, 7, NULL, err, sizeof(err));
	cr_expect_null(x);
	cr_expect(strstr(err, "is not a table this operation takes"), "%s", err);
	hxe_free(x);
	x = hxe_try("tlookupr.lm r0, 6[r1], r2\ntupdater.lm.lm r3, 7[r1], r2, r4, 2 ;;\nexit", d, 7,
		    NULL, err, sizeof(err));
	cr_expect_not_null(x, "%s", err);
	hxe_free(x);

	/* a template that is a map of maps, or that no table can be */
	bad = outer(8, BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4);
	bad.inner.type = BPF_MAP_TYPE_HASH_OF_MAPS;
	cr_expect_eq(hwxdp_tables__create(t, &bad), -524 /* ENOTSUPP, the kernel's */);
	bad.inner = (struct hxu_inner_desc){ BPF_MAP_TYPE_ARRAY, 8, 8, 4, 0 };
	cr_expect_eq(hwxdp_tables__create(t, &bad), -EINVAL);
	bad = outer(8, BPF_MAP_TYPE_HASH_OF_MAPS, 4, 4);
	bad.value_size = 8;
	cr_expect_eq(hwxdp_tables__create(t, &bad), -EINVAL);
	hwxdp_tables__free(t);
}

/* tupdater's imm: bits other than the flags, the value's space and the
 * handle's register refuse the image. */
Test(maps_of_maps, tupdater_unused_bits_are_refused, .init = quiet)
{
	struct hxu_table_desc d[7];
	struct hxu_op op = hxu_op_make(
		HXU_OP_TUPDATER, 0, 2, 3, HXU_SPACE_LM, 6,
		(int32_t)(HXU_SPACE_LM << 16 | 1u << HXU_TUPDATER_REG_SHIFT | 1u << 28));
	struct hxu_op ex = hxu_op_make(HXU_OP_EXIT, 0, 0, 0, 0, 0, 0);
	struct hxu_prog_desc prog = { .name = "p", .entry = 0, .frames = 1 };
	struct hxu_image img = { .version = HXU_VERSION, .op_cnt = 2, .prog_cnt = 1 };
	uint64_t w[3];
	char err[256];

	make_tables(d);
	op.end = ex.end = true;
	hxu_encode(&op, &w[0]);
	w[2] = w[0];
	hxu_encode(&ex, &w[1]);
	img.ops = w;
	img.progs = &prog;
	img.tables = d;
	img.table_cnt = 7;
	cr_expect_eq(hwxdp_engine__check(&img, NULL, err, sizeof(err)), -HWXDP_ERR_IMAGE);
	cr_expect(strstr(err, "unused bits in tupdater's imm"), "%s", err);
	op.imm &= ~(1 << 28);
	hxu_encode(&op, &w[0]);
	cr_expect_eq(hwxdp_engine__check(&img, NULL, err, sizeof(err)), 0, "%s", err);
}

/*
 * A program: r6 = the handle in slot 0 of the array of maps (key in the
 * frame's first byte), then a lookup of key 2 in its table, an update of
 * key 3 and the value read back; exits with the value, or 100 when the
 * slot is empty. The frame's byte 1 chooses a forged handle instead: the
 * number 1, table 3's handle, which does not fit the template, or a
 * handle of id 300, beyond the table ids.
 */
static const char prog_text[] = "ctx r2, data ;;\n"
				"ld8.pkt r1, [r2]\n"
				"ld8.pkt r7, [r2 + 1] ;;\n"
				"st32.lm [r10 - 4], r1 ;;\n"
				"add r2, r10, -4 ;;\n"
				"tlookup.lm r6, 6, r2 ;;\n"
				"mov r0, 100 ;;\n"
				"beq r6, 0, Out ;;\n"
				"beq r7, 0, Real ;;\n"
				"mov r6, r7 ;;\n"
				"blt r7, 3, Real ;;\n"
				"movi r6, 0x100000003 ;;\n"
				"beq r7, 3, Real ;;\n"
				"movi r6, 0x10000012c ;;\n"
				"Real: mov r1, 2 ;;\n"
				"st32.lm [r10 - 8], r1\n"
				"mov r1, 77 ;;\n"
				"st64.lm [r10 - 16], r1\n"
				"add r2, r10, -8 ;;\n"
				"add r3, r10, -16 ;;\n"
				"tupdater.lm.lm r0, 6[r6], r2, r3, 0 ;;\n"
				"tlookupr.lm r0, 6[r6], r2 ;;\n"
				"mov r1, 101 ;;\n"
				"beq r0, 0, Miss ;;\n"
				"ld64.tm r0, [r0] ;;\n"
				"exit ;;\n"
				"Miss: mov r0, r1 ;;\n"
				"Out: exit";

static void run_program(bool compiled)
{
	struct hxu_table_desc d[7];
	struct hxe *x;
	uint32_t k = 0, id = 2, two = 2;
	uint64_t v;
	uint8_t pkt[64] = { 0 };

	make_tables(d);
	x = hxe_new(prog_text, d, 7, NULL);
	if (compiled) {
		cr_assert_eq(hwxdp_engine__set_mode(x->engine, HWXDP_ENGINE_COMPILED), 0);
		if (hwxdp_engine__mode(x->engine) != HWXDP_ENGINE_COMPILED) {
			hxe_free(x);
			cr_skip_test("no compiled engine here");
		}
	}
	/* slot 0 empty: 100 */
	cr_expect_eq(hxe_run(x, 0, pkt, sizeof(pkt)), 0);
	cr_expect_eq(x->frame.verdict, 100);
	/* slot 0 names table 2: the update lands there, the lookup finds it */
	cr_assert_eq(hwxdp_table__update(hwxdp_tables__get(x->t, 6), &k, &id, BPF_ANY), 0);
	cr_expect_eq(hxe_run(x, 0, pkt, sizeof(pkt)), 0);
	cr_expect_eq(x->frame.verdict, 77);
	cr_expect_eq(hwxdp_table__lookup(hwxdp_tables__get(x->t, 2), &two, &v), 0);
	cr_expect_eq(v, 77);
	cr_expect_eq(hwxdp_table__lookup(hwxdp_tables__get(x->t, 1), &two, &v), 0);
	cr_expect_eq(v, 0, "table 1 written: %llu", (unsigned long long)v);
	/* a forged handle: the plain id 1, not a handle; aborted */
	pkt[1] = 1;
	cr_expect_eq(hxe_run(x, 0, pkt, sizeof(pkt)), -HWXDP_ERR_TM_ACCESS);
	cr_expect_eq(x->frame.verdict, XDP_ABORTED);
	pkt[1] = 3;
	cr_expect_eq(hxe_run(x, 0, pkt, sizeof(pkt)), -HWXDP_ERR_TM_ACCESS);
	cr_expect_eq(x->frame.verdict, XDP_ABORTED);
	cr_expect_eq(hwxdp_table__lookup(hwxdp_tables__get(x->t, 3), &two, &v), 0);
	cr_expect_eq(v, 0, "table 3 written through a handle that does not fit");
	pkt[1] = 4;
	cr_expect_eq(hxe_run(x, 0, pkt, sizeof(pkt)), -HWXDP_ERR_TM_ACCESS);
	cr_expect_eq(x->frame.verdict, XDP_ABORTED);
	hxe_free(x);
}

Test(maps_of_maps, a_program_reaches_the_table_its_handle_names, .init = quiet)
{
	run_program(false);
}

Test(maps_of_maps, compiled_as_interpreted, .init = quiet)
{
	run_program(true);
}
