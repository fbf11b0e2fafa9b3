// SPDX-License-Identifier: GPL-2.0
/*
 * HWXDP_ENGINE: a value that is neither engine is a warning naming the
 * variable and the values it takes, once, and the mode asked for stands.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/compile.h"
#include "base/log.h"

static char printed[1024];

static int capture(enum hwxdp_print_level level, const char *fmt, va_list args)
{
	size_t n = strlen(printed);

	(void)level;
	return vsnprintf(printed + n, sizeof(printed) - n, fmt, args);
}

Test(engine_env, unknown_engine_is_a_warning)
{
	const char *first;

	setenv("HWXDP_ENGINE", "gpu", 1);
	printed[0] = '\0';
	hwxdp_set_print(capture);
	cr_assert_eq(hwxdp_engine_mode__resolve(HWXDP_ENGINE_INTERP), HWXDP_ENGINE_INTERP);
	cr_assert(strstr(printed, "HWXDP_ENGINE=gpu"), "printed: %s", printed);
	cr_assert(strstr(printed, "compiled or interp"), "printed: %s", printed);
	first = strstr(printed, "HWXDP_ENGINE");
	cr_assert_eq(hwxdp_engine_mode__resolve(HWXDP_ENGINE_COMPILED), HWXDP_ENGINE_COMPILED);
	cr_assert_null(strstr(first + 1, "HWXDP_ENGINE"), "said twice: %s", printed);
	unsetenv("HWXDP_ENGINE");
}

Test(engine_env, known_engines_are_quiet)
{
	printed[0] = '\0';
	hwxdp_set_print(capture);
	setenv("HWXDP_ENGINE", "compiled", 1);
	cr_assert_eq(hwxdp_engine_mode__resolve(HWXDP_ENGINE_INTERP), HWXDP_ENGINE_COMPILED);
	setenv("HWXDP_ENGINE", "interp", 1);
	cr_assert_eq(hwxdp_engine_mode__resolve(HWXDP_ENGINE_COMPILED), HWXDP_ENGINE_INTERP);
	unsetenv("HWXDP_ENGINE");
	cr_assert_str_empty(printed);
}
