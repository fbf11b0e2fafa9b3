// SPDX-License-Identifier: GPL-2.0
/*
 * Choosing compiled mode: the API and HWXDP_ENGINE, the fallback to the
 * interpreter when there is no compiler or it fails, the cache, the
 * temporary directory, runs with stats, and the loop budget.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "device/compile.h"
#include "base/log.h"
#include "tests/compile/hxu_gen.h"
#include "tests/compile/twin.h"

TestSuite(compile_mode, .init = twin_setup, .fini = twin_teardown, .timeout = 120);

/* Reads a 2-byte field of the frame, adds 1 to the byte at data + 1, and
 * returns XDP_TX when the field is 0x0800, else XDP_DROP; r6 counts in
 * table 0. */
static const char prog_text[] = "	ctx r2, data\n"
				"	ctx r3, data_end ;;\n"
				"	ld16.be.pkt r4, [r2 + 12] ;;\n"
				"	ld8.pkt r5, [r2 + 1] ;;\n"
				"	add r5, r5, 1 ;;\n"
				"	st8.pkt [r2 + 1], r5 ;;\n"
				"	mov.w r6, 0 ;;\n"
				"	tindex r7, 0, r6 ;;\n"
				"	beq r7, 0, out ;;\n"
				"	mov r8, 1 ;;\n"
				"	atomicadd64.tm [r7 + 0], r8 ;;\n"
				"out:\n"
				"	mov r0, 1 ;;\n"
				"	bne r4, 0x0800, done ;;\n"
				"	mov r0, 3 ;;\n"
				"done:\n"
				"	exit ;;\n";

static const struct hxu_table_desc counter = {
	.id = 0,
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = 4,
	.value_size = 8,
	.max_entries = 1,
	.name = "counter",
};

static const uint8_t frame[64] = { [12] = 0x08, [13] = 0x00, [1] = 0x41 };

/* One engine (side TWIN_INTERP of a twin made for it) in whatever mode
 * the environment leaves. */
static struct twin one;

static struct hwxdp_engine *engine_from_text(void)
{
	char err[256];

	memset(&one, 0, sizeof(one));
	cr_assert(twin_open_text_mode(&one, prog_text, &counter, 1, NULL, err, sizeof(err)), "%s",
		  err);
	return one.engine[0];
}

/* The frame on e: XDP_TX, byte 1 incremented, the counter at n. */
static void assert_runs(struct hwxdp_engine *e, uint64_t n)
{
	uint8_t *win = one.window[0];
	struct hwxdp_frame f = { .window = win,
				 .data = HXU_HEADROOM,
				 .data_meta = HXU_HEADROOM,
				 .data_end = HXU_HEADROOM + sizeof(frame) };
	uint32_t key = 0;
	uint64_t count;

	memset(win, 0, HXU_WINDOW_SIZE);
	memcpy(win + HXU_HEADROOM, frame, sizeof(frame));
	cr_assert_eq(hwxdp_engine__run(e, 0, &f, NULL), 0);
	cr_assert_eq(f.verdict, XDP_TX);
	cr_assert_eq(win[HXU_HEADROOM + 1], 0x42);
	cr_assert_eq(hwxdp_table__lookup(hwxdp_tables__get(one.tables[0], 0), &key, &count), 0);
	cr_assert_eq(count, n);
}

static char printed[4096];

static int capture(enum hwxdp_print_level level, const char *fmt, va_list args)
{
	size_t len = strlen(printed);

	(void)level;
	vsnprintf(printed + len, sizeof(printed) - len, fmt, args);
	return 0;
}

static int entries(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, prefix, strlen(prefix));
	closedir(d);
	return n;
}

Test(compile_mode, interpreter_by_default)
{
	struct hwxdp_engine *e = engine_from_text();

	cr_assert_eq(hwxdp_engine__default_mode(), HWXDP_ENGINE_INTERP);
	cr_assert_eq(hwxdp_engine__mode(e), HWXDP_ENGINE_INTERP);
	assert_runs(e, 1);
	twin_close(&one);
}

Test(compile_mode, set_mode_both_ways)
{
	struct hwxdp_engine *e = engine_from_text();

	cr_assert_eq(hwxdp_engine__set_mode(e, HWXDP_ENGINE_COMPILED), 0);
	cr_assert_eq(hwxdp_engine__mode(e), HWXDP_ENGINE_COMPILED);
	assert_runs(e, 1);
	assert_runs(e, 2);
	cr_assert_eq(hwxdp_engine__set_mode(e, HWXDP_ENGINE_INTERP), 0);
	cr_assert_eq(hwxdp_engine__mode(e), HWXDP_ENGINE_INTERP);
	assert_runs(e, 3);
	twin_close(&one);
}

Test(compile_mode, default_mode_for_new_engines)
{
	struct hwxdp_engine *e;

	hwxdp_engine__set_default_mode(HWXDP_ENGINE_COMPILED);
	e = engine_from_text();
	hwxdp_engine__set_default_mode(HWXDP_ENGINE_INTERP);
	cr_assert_eq(hwxdp_engine__mode(e), HWXDP_ENGINE_COMPILED);
	assert_runs(e, 1);
	twin_close(&one);
}

Test(compile_mode, environment_overrides)
{
	struct hwxdp_engine *e;

	setenv("HWXDP_ENGINE", "compiled", 1);
	e = engine_from_text();
	cr_assert_eq(hwxdp_engine__mode(e), HWXDP_ENGINE_COMPILED);
	cr_assert_eq(hwxdp_engine__set_mode(e, HWXDP_ENGINE_INTERP), 0);
	cr_assert_eq(hwxdp_engine__mode(e), HWXDP_ENGINE_COMPILED, "HWXDP_ENGINE=compiled lost");
	assert_runs(e, 1);
	twin_close(&one);

	setenv("HWXDP_ENGINE", "interp", 1);
	e = engine_from_text();
	cr_assert_eq(hwxdp_engine__set_mode(e, HWXDP_ENGINE_COMPILED), 0);
	cr_assert_eq(hwxdp_engine__mode(e), HWXDP_ENGINE_INTERP, "HWXDP_ENGINE=interp lost");
	assert_runs(e, 1);
	twin_close(&one);
	unsetenv("HWXDP_ENGINE");
}

/* No compiler, or one that fails: the engine interprets, says why, and
 * runs the frame right. */
static void falls_back(const char *cc, const char *why)
{
	struct hwxdp_engine *e = engine_from_text();
	hwxdp_print_fn_t old;

	setenv("HWXDP_CC", cc, 1);
	setenv("HWXDP_LOG_LEVEL", "info", 1);
	printed[0] = '\0';
	old = hwxdp_set_print(capture);
	cr_assert_eq(hwxdp_engine__set_mode(e, HWXDP_ENGINE_COMPILED), 0);
	hwxdp_set_print(old);
	unsetenv("HWXDP_CC");
	cr_assert_eq(hwxdp_engine__mode(e), HWXDP_ENGINE_INTERP);
	cr_assert(strstr(printed, "interpreting") && strstr(printed, why), "printed: %s", printed);
	assert_runs(e, 1);
	cr_assert_eq(entries(twin_cache_dir(), ""), 2, "the cache holds something");
	twin_close(&one);
}

Test(compile_mode, no_compiler)
{
	falls_back("/nonexistent", "/nonexistent");
}

Test(compile_mode, compiler_fails)
{
	falls_back("false", "false failed");
}

Test(compile_mode, compile_error)
{
	/* a compiler that takes no C at all */
	falls_back("cc -x assembler", "failed");
}

/* The object is cached under the cache directory, and a later compile of
 * the same image loads it from there (no compiler needed). */
Test(compile_mode, cache)
{
	struct hwxdp_engine *e = engine_from_text();
	char path[256];

	cr_assert_eq(entries(twin_cache_dir(), ""), 0);
	cr_assert_eq(hwxdp_engine__set_mode(e, HWXDP_ENGINE_COMPILED), 0);
	cr_assert_eq(hwxdp_engine__mode(e), HWXDP_ENGINE_COMPILED);
	cr_assert_eq(entries(twin_cache_dir(), ""), 3, "want one object in %s", twin_cache_dir());
	twin_close(&one);

	/* with every engine gone, only the cache can supply the object */
	snprintf(path, sizeof(path), "%s", getenv("PATH"));
	setenv("PATH", "/nonexistent", 1);
	e = engine_from_text();
	cr_assert_eq(hwxdp_engine__set_mode(e, HWXDP_ENGINE_COMPILED), 0);
	setenv("PATH", path, 1);
	cr_assert_eq(hwxdp_engine__mode(e), HWXDP_ENGINE_COMPILED, "the cache was not used");
	assert_runs(e, 1);
	twin_close(&one);
}

/* Without a writable cache the object is compiled each time, and the
 * temporary directory is removed either way. */
Test(compile_mode, no_cache_and_temporary_files)
{
	char tmp[] = "/tmp/hwxdp-compile-tmp-XXXXXX";
	struct hwxdp_engine *e;

	cr_assert(mkdtemp(tmp));
	setenv("TMPDIR", tmp, 1);
	setenv("XDG_CACHE_HOME", "/proc/hwxdp-no-such-dir", 1);
	e = engine_from_text();
	cr_assert_eq(hwxdp_engine__set_mode(e, HWXDP_ENGINE_COMPILED), 0);
	cr_assert_eq(hwxdp_engine__mode(e), HWXDP_ENGINE_COMPILED);
	assert_runs(e, 1);
	cr_assert_eq(entries(tmp, ""), 2, "%s is not empty", tmp);
	twin_close(&one);

	setenv("HWXDP_CC", "false", 1);
	e = engine_from_text();
	cr_assert_eq(hwxdp_engine__set_mode(e, HWXDP_ENGINE_COMPILED), 0);
	cr_assert_eq(hwxdp_engine__mode(e), HWXDP_ENGINE_INTERP);
	cr_assert_eq(entries(tmp, ""), 2, "%s is not empty after a failed compile", tmp);
	twin_close(&one);
	unsetenv("HWXDP_CC");
	unsetenv("TMPDIR");
	rmdir(tmp);
}

/* Runs with stats are counted, compiled or not. */
Test(compile_mode, stats_are_counted)
{
	struct hwxdp_engine *e = engine_from_text();
	struct hwxdp_run_stats st = {};
	struct hwxdp_frame f = { .window = one.window[0],
				 .data = HXU_HEADROOM,
				 .data_meta = HXU_HEADROOM,
				 .data_end = HXU_HEADROOM + sizeof(frame) };

	cr_assert_eq(hwxdp_engine__set_mode(e, HWXDP_ENGINE_COMPILED), 0);
	cr_assert_eq(hwxdp_engine__mode(e), HWXDP_ENGINE_COMPILED);
	memcpy(one.window[0] + HXU_HEADROOM, frame, sizeof(frame));
	cr_assert_eq(hwxdp_engine__run(e, 0, &f, &st), 0);
	cr_assert_eq(f.verdict, XDP_TX);
	cr_assert_eq(st.ops, 15);
	cr_assert_eq(st.bundles, 14);
	twin_close(&one);
}

/* A loop that never ends: both engines give up after the same budget, at
 * the loop's header. */
Test(compile_mode, loop_budget)
{
	static const char text[] = "	mov r0, 0 ;;\n"
				   "	mov r4, 0 ;;\n"
				   "loop:\n"
				   "	add r4, r4, 1 ;;\n"
				   "	jmp loop ;;\n";
	struct twin t;
	struct twin_report rep = {};
	char err[256];

	cr_assert(twin_open_text(&t, text, NULL, 0, NULL, err, sizeof(err)), "%s", err);
	cr_assert(twin_run(&t, 0, frame, sizeof(frame), 1, &rep), "%s", rep.first);
	cr_assert_eq(t.frame[TWIN_COMPILED].error, -HWXDP_ERR_LOOP_BUDGET);
	cr_assert_eq(t.frame[TWIN_COMPILED].fault_op, 2);
	cr_assert_eq(t.frame[TWIN_COMPILED].verdict, XDP_ABORTED);
	twin_close(&t);
}

/* The clock: compiled code reads the interpreter's. */
Test(compile_mode, time)
{
	static const char text[] = "	time r0 ;;\n"
				   "	ctx r2, data ;;\n"
				   "	st64.pkt [r2 + 0], r0 ;;\n"
				   "	mov r0, 2 ;;\n"
				   "	exit ;;\n";
	struct timespec a, b;
	struct twin t;
	struct twin_report rep = {};
	char err[256];
	uint64_t got, lo, hi;

	cr_assert(twin_open_text(&t, text, NULL, 0, NULL, err, sizeof(err)), "%s", err);
	clock_gettime(CLOCK_MONOTONIC, &a);
	twin_run(&t, 0, frame, sizeof(frame), 1, &rep);
	clock_gettime(CLOCK_MONOTONIC, &b);
	lo = (uint64_t)a.tv_sec * 1000000000ull + (uint64_t)a.tv_nsec;
	hi = (uint64_t)b.tv_sec * 1000000000ull + (uint64_t)b.tv_nsec;
	memcpy(&got, t.window[TWIN_COMPILED] + HXU_HEADROOM, 8);
	cr_assert(got >= lo && got <= hi, "time %llu outside %llu..%llu", (unsigned long long)got,
		  (unsigned long long)lo, (unsigned long long)hi);
	twin_close(&t);
}
