// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <bpf/libbpf.h>

#include "hwxdp/object.h"
#include "loader/log.h"

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
	enum hwxdp_print_level ours = level == LIBBPF_WARN ? HWXDP_WARN :
				      level == LIBBPF_INFO ? HWXDP_INFO : HWXDP_DEBUG;

	/* libbpf says "libbpf: " itself; keep one prefix per line. */
	if (!print_fn || (int)ours > (int)threshold())
		return 0;
	return print_fn(ours, fmt, args);
}

void hwxdp_route_libbpf_print(void)
{
	libbpf_set_print(libbpf_print);
}

const char *hwxdp_strerror(int err)
{
	switch (-err) {
	case HWXDP_ERR_ELF:
		return "not a BPF ELF object";
	case HWXDP_ERR_RELOC:
		return "a relocation cannot be applied";
	case HWXDP_ERR_MAP:
		return "a map definition cannot be read";
	case HWXDP_ERR_PROG:
		return "a program section cannot be read";
	}
	return strerror(-err);
}
