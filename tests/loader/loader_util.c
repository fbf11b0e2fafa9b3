// SPDX-License-Identifier: GPL-2.0
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "loader/kfuncs.h"
#include "tests/loader/loader_util.h"

const char *hx_build_path(const char *rel)
{
	static char path[PATH_MAX];
	const char *build = getenv("HWXDP_BUILD");

	/* scripts/run-tests.sh passes the make BUILD folder as BUILD. */
	if (!build || !*build)
		build = getenv("BUILD");
	snprintf(path, sizeof(path), "%s/%s", build && *build ? build : "build", rel);
	return path;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(a, b);
}

size_t hx_corpus(char paths[][PATH_MAX], size_t max)
{
	char dir[PATH_MAX];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%.3000s", hx_build_path("tests/loader/corpus"));
	d = opendir(dir);
	cr_assert_not_null(d, "%s: no corpus; build it first (make)", dir);
	while ((de = readdir(d)) && n < max) {
		size_t len = strlen(de->d_name);

		if (len > 6 && !strcmp(de->d_name + len - 6, ".bpf.o"))
			snprintf(paths[n++], PATH_MAX, "%.3000s/%.255s", dir, de->d_name);
	}
	closedir(d);
	cr_assert_gt(n, 0, "%s: the corpus is empty", dir);
	qsort(paths, n, PATH_MAX, cmp_path);
	return n;
}

uint8_t *hx_read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data;
	long len;

	cr_assert_not_null(f, "%s: cannot open (build it first)", path);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	data = malloc(len ? len : 1);
	cr_assert(data && fread(data, 1, len, f) == (size_t)len, "%s: cannot read", path);
	fclose(f);
	*size = len;
	return data;
}

int hx_open_kernel_view(const char *path, struct hwxdp_object **obj)
{
	struct hwxdp_object_open_opts opts = { .sz = sizeof(opts), .kfuncs = hwxdp_kernel_kfuncs };

	return hwxdp_object__open_opts(path, &opts, obj);
}

static char messages[16384];
static size_t messages_len;

static int capture(enum hwxdp_print_level level, const char *fmt, va_list args)
{
	int n;

	(void)level;
	if (messages_len >= sizeof(messages) - 1)
		return 0;
	n = vsnprintf(messages + messages_len, sizeof(messages) - messages_len, fmt, args);
	if (n > 0)
		messages_len += (size_t)n < sizeof(messages) - messages_len
					? (size_t)n
					: sizeof(messages) - messages_len - 1;
	return n;
}

void hx_capture_messages(void)
{
	messages_len = 0;
	messages[0] = 0;
	hwxdp_set_print(capture);
}

const char *hx_messages(void)
{
	return messages;
}
