// SPDX-License-Identifier: GPL-2.0
/* A board running one program from microcode text (asm_board.h). */
#include <criterion/criterion.h>
#include <stdio.h>

#include "device/device.h"
#include "hwmap/hxu_text.h"
#include "tests/common/asm_board.h"

struct hwxdp_device *asm_board(const char *text, const char *name, bool any_egress, uint32_t *id)
{
	return asm_board_tables(text, name, any_egress, NULL, 0, id);
}

struct hwxdp_device *asm_board_tables(const char *text, const char *name, bool any_egress,
				      const struct hxu_table_desc *tables, uint32_t table_cnt,
				      uint32_t *id)
{
	struct hwxdp_device_opts opts = {
		.sz = sizeof(opts),
		.engines = 1,
		.any_egress = any_egress,
	};
	struct hxu_prog_desc prog = { .entry = 0, .frames = 1 };
	struct hxu_asm_out out;
	struct hxu_image img;
	struct hwxdp_device *d;
	char msg[256];
	int ret;

	snprintf(prog.name, sizeof(prog.name), "%s", name);
	cr_assert_eq(hxu_asm(text, &out, msg, sizeof(msg)), 0, "%s", msg);
	img = (struct hxu_image){
		.version = HXU_VERSION,
		.ops = out.words,
		.op_cnt = out.word_cnt,
		.tables = tables,
		.table_cnt = table_cnt,
		.progs = &prog,
		.prog_cnt = 1,
	};
	d = hwxdp_device__new(&opts);
	cr_assert(d);
	ret = hwxdp_device__load_image(d, &img, NULL, msg, sizeof(msg));
	hxu_asm_out__free(&out);
	cr_assert_geq(ret, 0, "%s", msg);
	*id = (uint32_t)ret;
	return d;
}
