// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "lab/target.h"
#include "tests/common/cmd.h"

char *hx_cmd(const char *bin, const char *args, int *status)
{
	char path[4096], cmd[8192], buf[4096], *out = NULL;
	size_t len = 0, cap = 0, n;
	FILE *p;

	snprintf(path, sizeof(path), "%s/%s", hx_build_dir(), bin);
	cr_assert_eq(access(path, X_OK), 0, "%s: build it first", path);
	snprintf(cmd, sizeof(cmd), "%s %s", path, args);
	p = popen(cmd, "r");
	cr_assert_not_null(p, "%s: %s", cmd, strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0) {
		if (len + n + 1 > cap) {
			cap = (len + n + 1) * 2;
			out = realloc(out, cap);
			cr_assert_not_null(out);
		}
		memcpy(out + len, buf, n);
		len += n;
	}
	*status = pclose(p);
	cr_assert(WIFEXITED(*status), "%s: did not exit", cmd);
	*status = WEXITSTATUS(*status);
	if (!out)
		out = calloc(1, 1);
	cr_assert_not_null(out);
	out[len] = '\0';
	return out;
}
