// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "hwmap/hxu_text.h"
#include "base/log.h"
#include "tests/tables/util.h"

struct hxu_table_desc tt_desc(uint32_t id, uint32_t type, uint32_t key_size, uint32_t value_size,
			      uint32_t max_entries, uint32_t flags)
{
	struct hxu_table_desc d = { .id = id,
				    .type = type,
				    .key_size = key_size,
				    .value_size = value_size,
				    .max_entries = max_entries,
				    .flags = flags };

	snprintf(d.name, sizeof(d.name), "t%u", id);
	return d;
}

void tt_need_root(void)
{
	if (geteuid() != 0)
		cr_skip_test("needs root to create kernel BPF maps and programs");
}

void tt_quiet(void)
{
	hwxdp_set_print(NULL);
}

void tt_engine_load(struct tt_engine *te, struct hwxdp_tables *t, const char *text,
		    const struct hxu_table_desc *descs, uint32_t n)
{
	struct hxu_asm_out *as = calloc(1, sizeof(*as));
	static struct hxu_prog_desc prog = { .name = "main", .entry = 0, .frames = HXU_LM_FRAMES };
	struct hxu_image img = { .version = HXU_VERSION };
	char msg[256];

	cr_assert(as);
	cr_assert_eq(hxu_asm(text, as, msg, sizeof(msg)), 0, "assembling: %s", msg);
	img.ops = as->words;
	img.op_cnt = as->word_cnt;
	img.tables = descs;
	img.table_cnt = n;
	img.progs = &prog;
	img.prog_cnt = 1;
	te->as = as;
	te->engine = hwxdp_engine__new(&img, t);
	cr_assert(te->engine, "the engine refused the image");
	te->window = calloc(1, HXU_WINDOW_SIZE);
	cr_assert(te->window);
}

uint32_t tt_engine_run(struct tt_engine *te)
{
	memset(te->window, 0, HXU_WINDOW_SIZE);
	te->frame = (struct hwxdp_frame){ .window = te->window,
					  .data = HXU_HEADROOM,
					  .data_meta = HXU_HEADROOM,
					  .data_end = HXU_HEADROOM + 64,
					  .ingress = 1 };
	cr_assert_eq(hwxdp_engine__run(te->engine, 0, &te->frame, NULL), 0);
	return te->frame.verdict;
}

void tt_engine_free(struct tt_engine *te)
{
	hwxdp_engine__free(te->engine);
	hxu_asm_out__free(te->as);
	free(te->as);
	free(te->window);
}
