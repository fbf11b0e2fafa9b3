// SPDX-License-Identifier: GPL-2.0
/*
 * Table sizes on the board come from the program (hwxdp_entries_MAP) or
 * the user (the board's sizes), never from a map's name: an LRU of 4,096
 * entries called flows stays 4,096 entries.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "device/device.h"
#include "device/tables.h"
#include "loader/device.h"
#include "lab/target.h"

static struct hwxdp_table *load_and_get(struct hwxdp_device *dev, const char *rel, const char *map)
{
	char msg[1024], path[4096];
	int id;

	snprintf(path, sizeof(path), "%s/%s", hx_build_dir(), rel);
	id = hwxdp_device__load(dev, path, NULL, msg, sizeof(msg));

	cr_assert_geq(id, 0, "%s: %s", rel, msg);
	return hwxdp_device__table(dev, (uint32_t)id, map);
}

Test(board_sizes, a_map_called_flows_keeps_its_size)
{
	struct hwxdp_device_opts opts = { .sz = sizeof(opts), .engines = 1 };
	struct hwxdp_device *dev = hwxdp_device__new(&opts);
	struct hwxdp_table *t;

	cr_assert_not_null(dev);
	t = load_and_get(dev, "tests/loader/corpus/lru_flows.bpf.o", "flows");
	cr_assert_not_null(t);
	cr_assert_eq(t->desc.max_entries, 4096, "%u entries", t->desc.max_entries);
	hwxdp_device__free(dev);
}

Test(board_sizes, the_program_and_the_user_ask)
{
	static const struct hwxdp_table_size user[] = { { "flows", 5000 } };
	struct hwxdp_device_opts opts = { .sz = sizeof(opts), .engines = 1 };
	struct hwxdp_device *dev = hwxdp_device__new(&opts);
	struct hwxdp_table *t;

	cr_assert_not_null(dev);
	/* fwd asks for 2,000,000 in hwxdp_entries_flows; its kernel map has 65,536 */
	t = load_and_get(dev, "progs/fwd.bpf.o", "flows");
	cr_assert_eq(t->desc.max_entries, 2000000, "%u entries", t->desc.max_entries);
	hwxdp_device__free(dev);

	opts.sizes = user;
	opts.size_cnt = 1;
	dev = hwxdp_device__new(&opts);
	cr_assert_not_null(dev);
	t = load_and_get(dev, "progs/fwd.bpf.o", "flows");
	cr_assert_eq(t->desc.max_entries, 5000, "%u entries", t->desc.max_entries);
	hwxdp_device__free(dev);
}
