// SPDX-License-Identifier: GPL-2.0
/*
 * "-" for a file: standard input or standard output, for the readers and
 * writers that take a path.
 *
 * Standard input is read once into memory (a memfd) that then stands at
 * descriptor 0, so that /dev/stdin is a regular file every reader can open
 * and read again from its start, as the object and capture readers do; a
 * pipe is not. An object read so is named "stdin" (its global data maps
 * stdin.rodata, ...), as a file named /dev/stdin would be.
 *
 * Standard output is kept at a descriptor of its own for the one output
 * that is "-", and descriptor 1 becomes standard error: whatever else the
 * command prints (a summary, a JSON report) never mixes with the bytes of
 * the file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/main.h"

static const char *stdin_user, *stdout_user;
static char stdout_path[32];

int cmd_stdin_claim(const char *what)
{
	if (stdin_user)
		return cmd_error_code(HWXDP_EXIT_USAGE,
				      "%s: standard input is read once, and %s reads it already",
				      what, stdin_user);
	stdin_user = what;
	return 0;
}

const char *cmd_stdin_path(const char *what)
{
	char buf[65536];
	struct stat st;
	ssize_t n;
	int fd;

	if (cmd_stdin_claim(what))
		return NULL;
	if (!fstat(0, &st) && S_ISREG(st.st_mode))
		return "/dev/stdin";
	fd = memfd_create("stdin", MFD_CLOEXEC);
	if (fd < 0) {
		cmd_error("%s: cannot keep standard input: %s", what, strerror(errno));
		return NULL;
	}
	while ((n = read(0, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write(fd, buf, (size_t)n) != n) {
			cmd_error("%s: cannot read standard input: %s", what, strerror(errno));
			close(fd);
			return NULL;
		}
	}
	if (dup2(fd, 0) < 0) {
		cmd_error("%s: cannot keep standard input: %s", what, strerror(errno));
		close(fd);
		return NULL;
	}
	close(fd);
	return "/dev/stdin";
}

const char *cmd_stdout_path(const char *what)
{
	int fd;

	if (stdout_user) {
		cmd_error_code(HWXDP_EXIT_USAGE,
			       "%s: standard output takes one file, and %s writes it already", what,
			       stdout_user);
		return NULL;
	}
	fflush(stdout);
	fd = fcntl(1, F_DUPFD_CLOEXEC, 3);
	if (fd < 0 || dup2(2, 1) < 0) {
		cmd_error("%s: cannot keep standard output: %s", what, strerror(errno));
		return NULL;
	}
	snprintf(stdout_path, sizeof(stdout_path), "/dev/fd/%d", fd);
	stdout_user = what;
	return stdout_path;
}
