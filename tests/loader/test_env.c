// SPDX-License-Identifier: GPL-2.0
/*
 * HWXDP_LOG_LEVEL: a value that is not a level is a warning naming the
 * variable and the levels, and the threshold stays at warnings. Each test
 * runs in its own process, which reads the variable once.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"

static char printed[1024];

/* What the default printer writes to stderr for an info line and a
 * warning, with HWXDP_LOG_LEVEL=value. */
static void print_with(const char *value)
{
	char path[] = "/tmp/hwxdp-log-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	size_t n;

	cr_assert_geq(fd, 0);
	setenv("HWXDP_LOG_LEVEL", value, 1);
	fflush(stderr);
	cr_assert_not_null(freopen(path, "w", stderr));
	pr_info("an info line\n");
	pr_warn("a warning\n");
	fflush(stderr);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	n = fread(printed, 1, sizeof(printed) - 1, f);
	printed[n] = '\0';
	fclose(f);
	close(fd);
	unlink(path);
}

Test(log_level, unknown_value_is_a_warning)
{
	print_with("verbose");
	cr_assert(strstr(printed, "HWXDP_LOG_LEVEL=verbose"), "printed: %s", printed);
	cr_assert(strstr(printed, "warn, info or debug"), "printed: %s", printed);
	cr_assert_null(strstr(printed, "an info line"), "printed: %s", printed);
	cr_assert(strstr(printed, "a warning"), "printed: %s", printed);
}

Test(log_level, info_prints_info)
{
	print_with("info");
	cr_assert(strstr(printed, "an info line"), "printed: %s", printed);
	cr_assert_null(strstr(printed, "HWXDP_LOG_LEVEL"), "printed: %s", printed);
}

Test(log_level, warn_is_a_level)
{
	print_with("WARN");
	cr_assert_str_eq(printed, "hwxdp: a warning\n");
}
