// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/conformance.h"
#include "tests/conformance/cases.h"
#include "verifier/asm.h"

enum section { SEC_NONE, SEC_ASM, SEC_RAW, SEC_MEM, SEC_RESULT, SEC_ERROR };

const char *conf_path(const char *name)
{
	static char buf[4096];
	const char *slash = strrchr(__FILE__, '/');

	snprintf(buf, sizeof(buf), "%.*s/%s", slash ? (int)(slash - __FILE__) : 1,
		 slash ? __FILE__ : ".", name);
	return buf;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (len = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)len + 1);
		if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
			free(buf);
			buf = NULL;
		} else if (buf) {
			buf[len] = '\0';
		}
	}
	fclose(f);
	return buf;
}

/* Appends line to a section's text. */
static int add_line(char **text, size_t *len, const char *line, size_t n)
{
	char *grown = realloc(*text, *len + n + 2);

	if (!grown)
		return -ENOMEM;
	memcpy(grown + *len, line, n);
	grown[*len + n] = '\n';
	*len += n + 1;
	grown[*len] = '\0';
	*text = grown;
	return 0;
}

static int parse_number(const char *s, uint64_t *value)
{
	char *end;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	errno = 0;
	if (*s == '-')
		*value = (uint64_t)strtoll(s, &end, 0);
	else
		*value = strtoull(s, &end, 0);
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	return errno || end == s || *end ? -EINVAL : 0;
}

int conf_case_load(const char *path, struct conf_case *c, char *err, size_t errlen)
{
	char *text[SEC_ERROR + 1] = { 0 };
	size_t len[SEC_ERROR + 1] = { 0 };
	bool seen[SEC_ERROR + 1] = { 0 };
	enum section sec = SEC_NONE;
	const char *base = strrchr(path, '/');
	char *file, *line, *save = NULL;
	uint8_t *raw = NULL;
	size_t raw_len = 0;
	int ret = -EINVAL;

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", base ? base + 1 : path);
	file = read_file(path);
	if (!file) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	for (line = strtok_r(file, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		static const char *names[] = { "asm", "raw", "mem", "result", "error" };

		if (line[0] == '#')
			continue;
		if (!strncmp(line, "-- ", 3)) {
			sec = SEC_NONE;
			for (size_t i = 0; i < 5; i++)
				if (!strcmp(line + 3, names[i]))
					sec = (enum section)(SEC_ASM + i);
			if (sec == SEC_NONE) {
				snprintf(err, errlen, "%s: unknown section '%s'", c->name, line);
				goto out;
			}
			seen[sec] = true;
			continue;
		}
		if (sec == SEC_NONE) {
			if (strspn(line, " \t") == strlen(line))
				continue;
			snprintf(err, errlen, "%s: text outside a section: '%s'", c->name, line);
			goto out;
		}
		ret = add_line(&text[sec], &len[sec], line, strlen(line));
		if (ret)
			goto out;
		ret = -EINVAL;
	}
	if (seen[SEC_ASM] == seen[SEC_RAW] || seen[SEC_RESULT] == seen[SEC_ERROR]) {
		snprintf(err, errlen, "%s: needs one of asm and raw, one of result and error",
			 c->name);
		goto out;
	}
	if (seen[SEC_ASM]) {
		char why[256] = "";

		ret = hwxdp_asm(text[SEC_ASM] ? text[SEC_ASM] : "", &c->insns, &c->cnt, why,
				sizeof(why));
		if (ret) {
			snprintf(err, errlen, "%s: asm: %s", c->name, why);
			goto out;
		}
	} else {
		char why[256] = "";

		ret = hx_hex_parse(text[SEC_RAW] ? text[SEC_RAW] : "", &raw, &raw_len, why,
				   sizeof(why));
		if (!ret)
			ret = hx_conformance_insns(raw, raw_len, &c->insns, &c->cnt, why,
						   sizeof(why));
		if (ret) {
			snprintf(err, errlen, "%s: raw: %s", c->name, why);
			goto out;
		}
	}
	if (seen[SEC_MEM]) {
		char why[256] = "";

		ret = hx_hex_parse(text[SEC_MEM] ? text[SEC_MEM] : "", &c->mem, &c->mem_len, why,
				   sizeof(why));
		if (ret) {
			snprintf(err, errlen, "%s: mem: %s", c->name, why);
			goto out;
		}
	}
	c->want_error = seen[SEC_ERROR];
	ret = 0;
	if (seen[SEC_RESULT] &&
	    parse_number(text[SEC_RESULT] ? text[SEC_RESULT] : "", &c->result)) {
		snprintf(err, errlen, "%s: result: not a number", c->name);
		ret = -EINVAL;
	}
out:
	for (size_t i = 0; i <= SEC_ERROR; i++)
		free(text[i]);
	free(raw);
	free(file);
	if (ret)
		conf_case_free(c);
	return ret;
}

void conf_case_free(struct conf_case *c)
{
	free(c->insns);
	free(c->mem);
	c->insns = NULL;
	c->mem = NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **conf_case_paths(size_t *cnt)
{
	char dir_path[4096];
	char **paths = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	DIR *dir;

	snprintf(dir_path, sizeof(dir_path), "%s", conf_path("cases"));
	*cnt = 0;
	dir = opendir(dir_path);
	if (!dir)
		return NULL;
	while ((e = readdir(dir))) {
		size_t len = strlen(e->d_name);

		if (len < 6 || strcmp(e->d_name + len - 5, ".data"))
			continue;
		if (n + 2 > cap) {
			char **grown = realloc(paths, (cap = cap ? cap * 2 : 64) * sizeof(*paths));

			if (!grown)
				break;
			paths = grown;
		}
		paths[n] = malloc(strlen(dir_path) + len + 2);
		if (!paths[n])
			break;
		sprintf(paths[n], "%s/%s", dir_path, e->d_name);
		paths[++n] = NULL;
	}
	closedir(dir);
	if (paths)
		qsort(paths, n, sizeof(*paths), cmp_str);
	*cnt = n;
	return paths;
}

void conf_case_paths_free(char **paths)
{
	for (size_t i = 0; paths && paths[i]; i++)
		free(paths[i]);
	free(paths);
}
