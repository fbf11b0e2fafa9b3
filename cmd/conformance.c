// SPDX-License-Identifier: GPL-2.0
/*
 * hwxdp conformance [--program HEX] [MEMORY_HEX] [--debug] [--elf] [--kernel]:
 * a plugin for BPF conformance suites. The raw program (hex bytes of its
 * instructions, on stdin unless --program gives them) runs on the device
 * with r1 = the memory and r2 = its length; r0 is printed in hex.
 *
 * Suites start a plugin as `PLUGIN [MEMORY] [PLUGIN_OPTIONS...] [--elf]`,
 * memory first, so the arguments are taken in any order here; an empty one
 * (what some suites pass for no memory or no options) is skipped.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/grammar.h"
#include "cmd/main.h"
#include "lab/conformance.h"
#include "base/log.h"

/* A program in hex: an ELF object of a few KiB at most, three characters a byte. */
#define STDIN_MAX (16u << 20)

static int conformance_help(void)
{
	return cmd_help_object(stderr, cmd_object_find("conformance"), false);
}

/* The whole of stdin; NULL with errno set. */
static char *read_stdin(void)
{
	size_t cap = 4096, len = 0, n;
	char *buf = malloc(cap), *grown;

	if (!buf)
		return NULL;
	while ((n = fread(buf + len, 1, cap - len - 1, stdin)) > 0) {
		len += n;
		if (len + 1 < cap)
			continue;
		if (cap >= STDIN_MAX) {
			free(buf);
			errno = EFBIG;
			return NULL;
		}
		grown = realloc(buf, cap * 2);
		if (!grown) {
			free(buf);
			errno = ENOMEM;
			return NULL;
		}
		buf = grown;
		cap *= 2;
	}
	if (ferror(stdin)) {
		free(buf);
		errno = EIO;
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

/* --debug: every message, the verifier's log included. */
static int print_all(enum hwxdp_print_level level, const char *fmt, va_list args)
{
	(void)level;
	return vfprintf(stderr, fmt, args);
}

int do_conformance(int argc, char **argv)
{
	struct hx_conformance_opts opts = { .sz = sizeof(opts), .target = HX_CONFORMANCE_DEVICE };
	const char *program_hex = NULL, *memory_hex = NULL;
	uint8_t *program = NULL, *memory = NULL;
	size_t program_len = 0, memory_len = 0, cnt = 0;
	struct bpf_insn *insns = NULL;
	char *input = NULL, err[768] = "";
	bool elf = false, debug = false;
	uint64_t r0 = 0;
	int ret;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!*a)
			continue;
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return conformance_help();
		if (!strcmp(a, "--program")) {
			if (i + 1 >= argc)
				return cmd_error("--program needs the program's hex bytes");
			program_hex = argv[++i];
		} else if (!strcmp(a, "--debug")) {
			debug = true;
		} else if (!strcmp(a, "--elf")) {
			elf = true;
		} else if (!strcmp(a, "--kernel")) {
			opts.target = HX_CONFORMANCE_KERNEL;
		} else if (!strncmp(a, "--", 2)) {
			return cmd_error("unknown option '%s' (try '%s conformance --help')", a,
					 bin_name);
		} else if (!memory_hex) {
			memory_hex = a;
		} else {
			return cmd_error("unexpected argument '%.40s': the memory is '%.40s'", a,
					 memory_hex);
		}
	}
	if (debug) {
		hwxdp_set_print(print_all);
		opts.verbose = true;
	}

	if (!program_hex) {
		input = read_stdin();
		if (!input)
			return cmd_error("cannot read the program from stdin: %s",
					 hwxdp_strerror(-errno));
		program_hex = input;
	}
	ret = hx_hex_parse(program_hex, &program, &program_len, err, sizeof(err));
	if (ret) {
		ret = cmd_error("program: %s", ret == -EINVAL ? err : hwxdp_strerror(ret));
		goto out;
	}
	if (memory_hex) {
		ret = hx_hex_parse(memory_hex, &memory, &memory_len, err, sizeof(err));
		if (ret) {
			ret = cmd_error("memory: %s", ret == -EINVAL ? err : hwxdp_strerror(ret));
			goto out;
		}
	}
	if (elf)
		ret = hx_conformance_elf_insns(program, program_len, &insns, &cnt, err,
					       sizeof(err));
	else
		ret = hx_conformance_insns(program, program_len, &insns, &cnt, err, sizeof(err));
	if (ret) {
		ret = cmd_error("program: %s", *err ? err : hwxdp_strerror(ret));
		goto out;
	}
	ret = hx_conformance_run(insns, cnt, memory, memory_len, &opts, &r0, err, sizeof(err));
	if (ret) {
		ret = cmd_error("%s", *err ? err : hwxdp_strerror(ret));
		goto out;
	}
	printf("%" PRIx64 "\n", r0);
	ret = 0;
out:
	free(insns);
	free(memory);
	free(program);
	free(input);
	return ret;
}
