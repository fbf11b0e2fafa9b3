// SPDX-License-Identifier: GPL-2.0
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <bpf/libbpf.h>

#include "device/engine.h"
#include "hwmap/image.h"
#include "hwmap/translate.h"
#include "loader/object.h"
#include "lab/conformance.h"
#include "hwxdp/log.h"
#include "base/log.h"

static enum hwxdp_print_level threshold(void)
{
	static int level = -1;
	const char *env;

	if (level >= 0)
		return level;
	level = HWXDP_WARN;
	env = getenv("HWXDP_LOG_LEVEL");
	if (env && !strcasecmp(env, "info"))
		level = HWXDP_INFO;
	else if (env && !strcasecmp(env, "debug"))
		level = HWXDP_DEBUG;
	else if (env && *env && strcasecmp(env, "warn"))
		/* the level is set: this print does not come back here */
		hwxdp_print(HWXDP_WARN,
			    "HWXDP_LOG_LEVEL=%s is not a level: warn, info or debug; "
			    "printing warnings only\n",
			    env);
	return level;
}

static int default_print(enum hwxdp_print_level level, const char *fmt, va_list args)
{
	if ((int)level > (int)threshold())
		return 0;
	fputs("hwxdp: ", stderr);
	return vfprintf(stderr, fmt, args);
}

static hwxdp_print_fn_t print_fn = default_print;

hwxdp_print_fn_t hwxdp_set_print(hwxdp_print_fn_t fn)
{
	hwxdp_print_fn_t old = print_fn;

	print_fn = fn;
	return old;
}

void hwxdp_print(enum hwxdp_print_level level, const char *fmt, ...)
{
	va_list args;

	if (!print_fn)
		return;
	va_start(args, fmt);
	print_fn(level, fmt, args);
	va_end(args);
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	enum hwxdp_print_level ours = level == LIBBPF_WARN   ? HWXDP_WARN
				      : level == LIBBPF_INFO ? HWXDP_INFO
							     : HWXDP_DEBUG;

	/* libbpf says "libbpf: " itself; keep one prefix per line. */
	if (!print_fn || (int)ours > (int)threshold())
		return 0;
	return print_fn(ours, fmt, args);
}

void hwxdp_route_libbpf_print(void)
{
	libbpf_set_print(libbpf_print);
}

/* Room for a path and the reason after it. */
static _Thread_local struct {
	int err;
	char text[PATH_MAX + 512];
} last_error;

int hwxdp_say(char *msg, size_t msglen, int err, const char *fmt, ...)
{
	va_list ap;

	if (msg && msglen) {
		va_start(ap, fmt);
		vsnprintf(msg, msglen, fmt, ap);
		va_end(ap);
	}
	return err;
}

int hwxdp_error(int err, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(last_error.text, sizeof(last_error.text), fmt, args);
	va_end(args);
	last_error.err = err;
	return err;
}

void hwxdp_error_clear(void)
{
	last_error.err = 0;
}

int hwxdp_error_for(int err, const char *what)
{
	if (err && last_error.err != err)
		hwxdp_error(err, "%s: %s", what, hwxdp_strerror(err));
	return err;
}

const char *hwxdp_error_message(int err)
{
	static _Thread_local char given[sizeof(last_error.text)];

	if (!err || last_error.err != err)
		return hwxdp_strerror(err);
	last_error.err = 0;
	memcpy(given, last_error.text, sizeof(given));
	return given;
}

/*
 * Every project code, whichever component returns it: they share one range
 * above errno's, and a code here is never given to strerror, which would
 * say "Unknown error 4000".
 */
static const struct {
	int code;
	const char *text;
} project_errors[] = {
	{ HWXDP_ERR_ELF, "not a BPF ELF object" },
	{ HWXDP_ERR_RELOC, "a relocation cannot be applied" },
	{ HWXDP_ERR_MAP, "a map definition cannot be read" },
	{ HWXDP_ERR_PROG, "a program section cannot be read" },
	{ HWXDP_ERR_IMAGE, "the microcode image breaks a rule of the engine" },
	{ HWXDP_ERR_PKT_ACCESS, "a packet access outside the window" },
	{ HWXDP_ERR_LM_ACCESS, "a local-memory access outside the stacks" },
	{ HWXDP_ERR_CALL_DEPTH, "a call with the return stack full" },
	{ HWXDP_ERR_RET_EMPTY, "a return with the return stack empty" },
	{ HWXDP_ERR_LOOP_BUDGET, "more loop iterations than a frame may take" },
	{ HWXDP_ERR_FELL_OFF, "the engine ran past the last operation" },
	{ HWXDP_ERR_TM_ACCESS, "a table memory access through a null or impossible address" },
	{ HWXDP_ERR_TRANSLATE, "the program cannot be translated for the device" },
	{ HWXDP_ERR_NOT_PROVEN, "the translation is not proven equal to the program" },
	{ HWXDP_ERR_IMAGE_FILE, "not an HXU image file, or one that breaks its rules" },
	{ HX_CONFORMANCE_ERR_BOUNDS, "the frame is shorter than the program's memory" },
	{ HX_CONFORMANCE_ERR_VERDICT, "the program ended with a verdict of its own" },
};

const char *hwxdp_strerror(int err)
{
	static _Thread_local char unknown[64];
	int code = err < 0 ? -err : err;

	for (size_t i = 0; i < sizeof(project_errors) / sizeof(project_errors[0]); i++)
		if (project_errors[i].code == code)
			return project_errors[i].text;
	if (code >= HWXDP_ERR_BASE) {
		snprintf(unknown, sizeof(unknown),
			 "hwxdp error %d, which this library does not know", code);
		return unknown;
	}
	return strerror(code);
}
