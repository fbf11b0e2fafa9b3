/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Conformance cases as files (tests/conformance/cases/NAME.data):
 *
 *   # what the case checks, and why the answer is what it is
 *   -- asm            the program in verifier/asm.h's syntax, or
 *   -- raw            its instructions as hex bytes
 *   -- mem            the memory as hex bytes (optional; none without)
 *   -- result         r0, a number (0x..., decimal, or negative decimal), or
 *   -- error          a word saying why the program must be refused; both
 *                     targets must refuse it
 *
 * '#' opens a comment at the start of a line anywhere.
 */
#ifndef HWXDP_TESTS_CONFORMANCE_CASES_H
#define HWXDP_TESTS_CONFORMANCE_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

struct conf_case {
	char name[128];
	struct bpf_insn *insns;
	size_t cnt;
	uint8_t *mem;
	size_t mem_len;
	bool want_error; /* the program must be refused */
	uint64_t result;
};

/* Reads one case: 0, or a negative errno with the reason in err. */
int conf_case_load(const char *path, struct conf_case *c, char *err, size_t errlen);
void conf_case_free(struct conf_case *c);

/* The case files, sorted: a NULL-terminated array of malloc'ed paths. */
char **conf_case_paths(size_t *cnt);
void conf_case_paths_free(char **paths);

/* A file of this folder, by name (static storage). */
const char *conf_path(const char *name);

#endif /* HWXDP_TESTS_CONFORMANCE_CASES_H */
