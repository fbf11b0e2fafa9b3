// SPDX-License-Identifier: GPL-2.0
/*
 * Table memory: every table reports what it holds, the total is their sum,
 * a table that would not fit the board's budget is refused with a message
 * naming it, and the bytes per entry of each type at a realistic size.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "hwxdp/object.h"
#include <linux/bpf.h>

#include "device/tables.h"
#include "base/log.h"
#include "tests/tables/util.h"

static const struct {
	const char *what;
	uint32_t type, key, value, max, flags;
} realistic[] = {
	{ "flow table (hash)", BPF_MAP_TYPE_HASH, 44, 32, 2000000, 0 },
	{ "flow table (LRU hash)", BPF_MAP_TYPE_LRU_HASH, 44, 32, 2000000, 0 },
	{ "per-CPU hash, 4 engines", BPF_MAP_TYPE_PERCPU_HASH, 16, 8, 100000, 0 },
	{ "LRU per-CPU hash", BPF_MAP_TYPE_LRU_PERCPU_HASH, 16, 8, 100000, 0 },
	{ "IPv4 routes (LPM)", BPF_MAP_TYPE_LPM_TRIE, 8, 8, 1000000, BPF_F_NO_PREALLOC },
	{ "IPv6 routes (LPM)", BPF_MAP_TYPE_LPM_TRIE, 20, 8, 200000, BPF_F_NO_PREALLOC },
	{ "next hops (array)", BPF_MAP_TYPE_ARRAY, 4, 32, 65536, 0 },
	{ "counters (per-CPU array)", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 16, 4096, 0 },
	{ "ports (devmap hash)", BPF_MAP_TYPE_DEVMAP_HASH, 4, 8, 256, 0 },
	{ "programs (prog array)", BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 64, 0 },
};

Test(memory, reported_per_table_and_in_total)
{
	struct hwxdp_tables *t = hwxdp_tables__new();
	uint64_t sum = 0;

	for (uint32_t i = 0; i < sizeof(realistic) / sizeof(realistic[0]); i++) {
		struct hxu_table_desc d = tt_desc(i, realistic[i].type, realistic[i].key,
						  realistic[i].value, realistic[i].max,
						  realistic[i].flags);
		size_t want = hwxdp_tables__memory_for(t, &d), got;

		cr_assert_gt(want, 0, "%s", realistic[i].what);
		cr_assert_eq(hwxdp_tables__create(t, &d), 0, "%s", realistic[i].what);
		got = hwxdp_table__memory(hwxdp_tables__get(t, i));
		cr_assert_eq(got, want, "%s: holds %zu bytes, said it would take %zu",
			     realistic[i].what, got, want);
		/* At least the values and keys themselves. */
		cr_assert_geq(got, (size_t)realistic[i].max * realistic[i].value,
			      "%s: %zu bytes", realistic[i].what, got);
		sum += got;
		cr_log_info("%-26s key %2u value %2u, %8u entries: %10zu bytes, %6.1f per entry",
			    realistic[i].what, realistic[i].key, realistic[i].value,
			    realistic[i].max, got, (double)got / realistic[i].max);
	}
	cr_assert_eq(hwxdp_tables__memory(t), sum);
	cr_assert_leq(sum, hwxdp_tables__budget(t));
	cr_log_info("in all: %llu of %llu bytes", (unsigned long long)sum,
		    (unsigned long long)hwxdp_tables__budget(t));
	hwxdp_tables__free(t);
}

static char last_warning[512];

static int capture(enum hwxdp_print_level level, const char *fmt, va_list args)
{
	if (level == HWXDP_WARN)
		vsnprintf(last_warning, sizeof(last_warning), fmt, args);
	return 0;
}

Test(memory, budget_refuses_what_does_not_fit)
{
	struct hwxdp_tables *t = hwxdp_tables__new();
	struct hxu_table_desc small = tt_desc(1, BPF_MAP_TYPE_HASH, 16, 16, 1000, 0);
	struct hxu_table_desc big = tt_desc(2, BPF_MAP_TYPE_LPM_TRIE, 8, 8, 100000,
					    BPF_F_NO_PREALLOC);
	hwxdp_print_fn_t old = hwxdp_set_print(capture);
	size_t need = hwxdp_tables__memory_for(t, &big);
	char expect[128];
	uint64_t used;

	strcpy(big.name, "routes");
	cr_assert_eq(hwxdp_tables__create(t, &small), 0);
	used = hwxdp_tables__memory(t);
	cr_assert_eq(hwxdp_tables__set_budget(t, used - 1), -ENOSPC);
	cr_assert_eq(hwxdp_tables__set_budget(t, used + need - 1), 0);
	last_warning[0] = '\0';
	cr_assert_eq(hwxdp_tables__create(t, &big), -ENOMEM);
	cr_assert_str_empty(last_warning, "printed: %s", last_warning);
	cr_assert_null(hwxdp_tables__get(t, 2));
	cr_assert_eq(hwxdp_tables__memory(t), used, "a refused table holds nothing");
	snprintf(expect, sizeof(expect), "table 2 (routes): %zu bytes of table memory, the board "
		 "has %zu of its", need, need - 1);
	cr_assert(strstr(hwxdp_error_message(-ENOMEM), expect), "message: %s",
		  hwxdp_error_message(-ENOMEM));
	/* One byte more and it fits, exactly. */
	cr_assert_eq(hwxdp_tables__set_budget(t, used + need), 0);
	cr_assert_eq(hwxdp_tables__create(t, &big), 0);
	cr_assert_eq(hwxdp_tables__memory(t), used + need);
	hwxdp_set_print(old);
	hwxdp_tables__free(t);
}

Test(memory, default_budget_is_a_gibibyte, .init = tt_quiet)
{
	struct hwxdp_tables *t = hwxdp_tables__new();
	struct hxu_table_desc huge = tt_desc(1, BPF_MAP_TYPE_ARRAY, 4, 1024, 2000000, 0);

	cr_assert_eq(hwxdp_tables__budget(t), 1ull << 30);
	cr_assert_eq(hwxdp_tables__create(t, &huge), -ENOMEM);
	hwxdp_tables__free(t);
}
