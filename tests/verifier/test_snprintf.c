// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_snprintf's format, which the kernel checks when it loads the program:
 * each format in a frozen .rodata array, with its arguments' size, judged by
 * hwxdp and by the running kernel, which must agree with each other and
 * with the table.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <criterion/criterion.h>

#include "tests/verifier/insn.h"
#include "tests/verifier/kernel.h"
#include "verifier/verifier.h"

#define FMT_VALUE 64

struct format_case {
	const char *fmt;
	int data_len; /* bytes of u64 arguments */
	bool ok;
};

static const struct format_case cases[] = {
	{ "%d", 8, true },
	{ "%d", 0, false }, /* a conversion with no argument */
	{ "no conversion", 0, true },
	{ "no conversion", 8, true }, /* more arguments than conversions */
	{ "%d %d", 8, false },
	{ "100%%", 0, true },
	{ "%%%d", 8, true },
	{ "%-05d|%+ 0-12d", 16, true },
	{ "%01234567890d", 8, true },
	{ "%ld %lld %lu %llx %X %i", 48, true },
	{ "%llld", 8, false },
	{ "%o", 8, false },
	{ "%hd", 8, false },
	{ "%zd", 8, false },
	{ "%.2d", 8, false },
	{ "%*d", 16, false },
	{ "%f", 8, false },
	{ "%c%c", 16, true },
	{ "%cx", 8, true },
	{ "%lc", 8, false },
	{ "%s", 8, true },
	{ "%s!", 8, true },
	{ "%10s", 8, true },
	{ "%sx", 8, false }, /* %s must end a word */
	{ "%ls", 8, false },
	{ "%p %pK %px %pS %ps %pB", 48, true },
	{ "%p!", 8, true },
	{ "%pKx", 8, true },
	{ "%pI4 %pi4 %pI6 %pi6", 32, true },
	{ "%pI4x", 8, true },
	{ "%pI5", 8, false },
	{ "%pz", 8, false },
	{ "%pa", 8, false },
	{ "%pks %pus", 16, true },
	{ "%pksx", 8, false },
	{ "%lp", 8, false },
	{ "%", 8, false },
	{ "%u%", 8, false },
	{ "tab\tnewline\n", 0, true },
	{ "bell\a", 0, false },	    /* an ASCII control */
	{ "caf\xc3\xa9", 0, true }, /* bytes above ASCII pass */
	{ "%s\xa1", 8, true },	    /* ...and Latin-1 punctuation ends a word */
	{ "%s\xc3", 8, false },
	{ "", 0, true },
	{ "%d", 12, false }, /* not a whole number of arguments */
	{ "%d%d%d%d%d%d%d%d%d%d%d%d%d", 104, true },
};

/* r1 = out (fp-16, 16 bytes), r3 = the format, r4 = arguments at fp-128,
 * all of the stack zeroed: the call, then XDP_PASS */
static size_t program(struct bpf_insn *insns, int map, int data_len)
{
	size_t n = 0;

	for (int off = -8; off >= -128; off -= 8)
		insns[n++] = (struct bpf_insn)ST_MEM(BPF_DW, 10, off, 0);
	const struct bpf_insn tail[] = {
		MOV64_REG(1, 10),	ALU64_IMM(BPF_ADD, 1, -16),
		MOV64_IMM(2, 16),	LD_MAP_VALUE(3, map, 0),
		MOV64_REG(4, 10),	ALU64_IMM(BPF_ADD, 4, -128),
		MOV64_IMM(5, data_len), CALL_HELPER(BPF_FUNC_snprintf),
		MOV64_IMM(0, XDP_PASS), EXIT_INSN(),
	};
	memcpy(insns + n, tail, sizeof(tail));
	return n + sizeof(tail) / sizeof(tail[0]);
}

static bool hwxdp_accepts(const struct format_case *c, char *log, size_t log_size)
{
	uint8_t value[FMT_VALUE] = { 0 };
	struct hwxdp_map_desc map = {
		.name = "fmt.rodata",
		.origin = HWXDP_MAP_GLOBAL,
		.type = BPF_MAP_TYPE_ARRAY,
		.key_size = 4,
		.value_size = FMT_VALUE,
		.max_entries = 1,
		.map_flags = BPF_F_RDONLY_PROG,
		.initial = value,
		.initial_size = FMT_VALUE,
		.read_only = true,
	};
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts), .log_level = 1 };
	struct hwxdp_verify_result *res = NULL;
	struct bpf_insn insns[32];
	size_t n = program(insns, 0, c->data_len);
	bool ok;

	memcpy(value, c->fmt, strlen(c->fmt));
	cr_assert_eq(hwxdp_verify_insns(insns, n, &map, 1, &opts, &res), 0);
	ok = res->accepted;
	snprintf(log, log_size, "%s", res->log ? res->log : "");
	hwxdp_verify_result__free(res);
	return ok;
}

static int kernel_accepts(const struct format_case *c, char *log, size_t log_size)
{
	LIBBPF_OPTS(bpf_map_create_opts, mopts, .map_flags = BPF_F_RDONLY_PROG);
	uint8_t value[FMT_VALUE] = { 0 };
	struct bpf_insn insns[32];
	int map, fd, key = 0;
	size_t n;

	map = bpf_map_create(BPF_MAP_TYPE_ARRAY, "fmt", 4, FMT_VALUE, 1, &mopts);
	cr_assert_geq(map, 0, "the format's map: %s", strerror(errno));
	memcpy(value, c->fmt, strlen(c->fmt));
	cr_assert_eq(bpf_map_update_elem(map, &key, value, 0), 0);
	cr_assert_eq(bpf_map_freeze(map), 0);
	n = program(insns, map, c->data_len);
	fd = kernel_load(insns, n, KERNEL_PRIV, 0, true, log, log_size);
	close(map);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

Test(snprintf, formats_as_the_kernel_checks_them)
{
	static char hlog[1 << 16], klog[1 << 16];
	bool kernel = kernel_available();

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct format_case *c = &cases[i];
		bool ok = hwxdp_accepts(c, hlog, sizeof(hlog));

		cr_expect_eq(ok, c->ok, "\"%s\" with %d bytes: hwxdp %s it:\n%s", c->fmt,
			     c->data_len, ok ? "accepts" : "refuses", hlog);
		if (!ok && c->data_len % 8 == 0)
			cr_expect(strstr(hlog, "Invalid format string"), "\"%s\": %s", c->fmt,
				  hlog);
		if (!kernel)
			continue;
		cr_expect_eq(kernel_accepts(c, klog, sizeof(klog)), c->ok,
			     "\"%s\" with %d bytes: the kernel %s it:\n%s", c->fmt, c->data_len,
			     c->ok ? "refuses" : "accepts", klog);
	}
	if (!kernel)
		cr_log_info("snprintf formats: the kernel's verdicts need root, not checked\n");
}
