// SPDX-License-Identifier: GPL-2.0
/*
 * hwxdp_strerror knows every project code of every component, and gives an
 * errno's text only for an errno: a project code through strerror reads
 * "Unknown error 4000".
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "device/engine.h"
#include "hwmap/image.h"
#include "hwmap/translate.h"
#include "loader/object.h"
#include "lab/conformance.h"

static const int codes[] = {
	HWXDP_ERR_ELF,	       HWXDP_ERR_RELOC,		  HWXDP_ERR_MAP,
	HWXDP_ERR_PROG,	       HWXDP_ERR_IMAGE,		  HWXDP_ERR_PKT_ACCESS,
	HWXDP_ERR_LM_ACCESS,   HWXDP_ERR_CALL_DEPTH,	  HWXDP_ERR_RET_EMPTY,
	HWXDP_ERR_LOOP_BUDGET, HWXDP_ERR_FELL_OFF,	  HWXDP_ERR_TRANSLATE,
	HWXDP_ERR_IMAGE_FILE,  HX_CONFORMANCE_ERR_BOUNDS, HX_CONFORMANCE_ERR_VERDICT,
	HWXDP_ERR_TM_ACCESS,
};
#define CODES (sizeof(codes) / sizeof(codes[0]))

Test(strerror, every_project_code_in_words)
{
	for (size_t i = 0; i < CODES; i++) {
		const char *text = hwxdp_strerror(-codes[i]);

		cr_assert(!strstr(text, "Unknown error"), "%d: \"%s\"", codes[i], text);
		cr_assert(!strstr(text, "does not know"), "%d: \"%s\"", codes[i], text);
		cr_assert_gt(strlen(text), 10, "%d: \"%s\"", codes[i], text);
	}
}

Test(strerror, no_two_codes_alike)
{
	for (size_t i = 0; i < CODES; i++)
		for (size_t j = i + 1; j < CODES; j++) {
			cr_assert_neq(codes[i], codes[j], "codes %zu and %zu are both %d", i, j,
				      codes[i]);
			cr_assert_str_neq(hwxdp_strerror(-codes[i]), hwxdp_strerror(-codes[j]),
					  "%d and %d", codes[i], codes[j]);
		}
}

Test(strerror, loader_codes_say_what)
{
	cr_assert_str_eq(hwxdp_strerror(-HWXDP_ERR_ELF), "not a BPF ELF object");
	cr_assert(strstr(hwxdp_strerror(-HWXDP_ERR_TRANSLATE), "translated"));
	cr_assert(strstr(hwxdp_strerror(-HWXDP_ERR_IMAGE_FILE), "image"));
}

Test(strerror, an_unknown_project_code_is_not_an_errno)
{
	const char *text = hwxdp_strerror(-4999);

	cr_assert(!strstr(text, "Unknown error"), "\"%s\"", text);
	cr_assert(strstr(text, "hwxdp error 4999"), "\"%s\"", text);
}

Test(strerror, an_errno_is_strerror)
{
	cr_assert_str_eq(hwxdp_strerror(-ENOENT), strerror(ENOENT));
	cr_assert_str_eq(hwxdp_strerror(-EISDIR), strerror(EISDIR));
}
