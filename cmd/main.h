/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HWXDP_CMD_MAIN_H
#define HWXDP_CMD_MAIN_H

#include <stdbool.h>

#include "cmd/json.h"

#define HWXDP_VERSION "0.1.0"

extern bool json_output;
extern bool pretty_output;
extern const char *bin_name;

/* A command: name, handler, one-line summary for `hwxdp help`. */
struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

/* Runs the unique command that argv[0] names or abbreviates; help when none. */
int cmd_select(const struct cmd *cmds, int argc, char **argv, int (*help)(int, char **));

/* -j (JSON) or -p (indented JSON), wherever a command meets it. */
void cmd_output_option(int opt);

/* Exit statuses (hwxdp(8), EXIT STATUS): distinct, so that scripts can
 * tell a refused program from a file that could not be read. */
enum {
	HWXDP_EXIT_OK = 0,
	HWXDP_EXIT_REJECTED = 1, /* verify: a program refused; other commands: failed */
	HWXDP_EXIT_FAILED = 2,	 /* an input that cannot be opened or read, no program */
	HWXDP_EXIT_USAGE = 64,	 /* bad options or arguments (EX_USAGE) */
};

/* Prints "hwxdp: error: ..." (or a JSON error object with -j); returns 1. */
__attribute__((format(printf, 1, 2))) int cmd_error(const char *fmt, ...);
/* The same, returning code. */
__attribute__((format(printf, 2, 3))) int cmd_error_code(int code, const char *fmt, ...);

/*
 * A key given by file, never on the command line: the hex in path ("-" for
 * standard input), white space dropped, into hex (len bytes with its NUL).
 * 0, or 1 with the error printed.
 */
int cmd_read_secret_hex(const char *path, char *hex, size_t len);

/*
 * "-" as a file (cmd/dash.c). cmd_stdin_path: standard input, whole, as a
 * path any reader can open and read again ("/dev/stdin"); what names the
 * argument in messages. cmd_stdout_path: a path that writes to standard
 * output, which the command's own printing then leaves for standard error.
 * Each is for one argument: NULL with the error printed for a second one,
 * or when standard input cannot be read. cmd_stdin_claim: standard input
 * read by the caller itself; 0, or the exit status with the error printed.
 */
const char *cmd_stdin_path(const char *what);
const char *cmd_stdout_path(const char *what);
int cmd_stdin_claim(const char *what);

/* The ingress ifindex of run's captures given without one. */
#define HWXDP_RUN_DEFAULT_PORT 1

/* prog stats, dump, translate, prove, verify, run (cmd/prog.c). */
extern const struct cmd prog_offline_cmds[];

int do_conformance(int argc, char **argv);
int do_help(int argc, char **argv);
int do_version(int argc, char **argv);
int do_lab(int argc, char **argv);
int do_prog(int argc, char **argv);
int do_prog_prove(int argc, char **argv);
int do_run(int argc, char **argv);
int do_verify(int argc, char **argv);

#endif /* HWXDP_CMD_MAIN_H */
