/* SPDX-License-Identifier: GPL-2.0 */
/* Running the built commands from a test. */
#ifndef HWXDP_TESTS_COMMON_CMD_H
#define HWXDP_TESTS_COMMON_CMD_H

/*
 * Runs BUILD/bin (a path under the build directory: "hwxdp",
 * "mutants/hwxdp") with args, a shell command line that may redirect, and
 * returns what reached its standard output, malloc'ed and NUL-terminated;
 * *status is its exit status. Asserts the binary is built and exited.
 */
char *hx_cmd(const char *bin, const char *args, int *status);

#endif /* HWXDP_TESTS_COMMON_CMD_H */
