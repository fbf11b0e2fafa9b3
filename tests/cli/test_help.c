// SPDX-License-Identifier: GPL-2.0
/*
 * The command's grammar (cmd/grammar.c) against what the command does:
 * every object and verb has a help that names it, every verb a dispatch
 * takes is in the grammar and the other way round (the client's tables,
 * as `hwxdp help --dispatch` prints them, and the daemon's, read from
 * daemon/commands.c), the parsers take every option the grammar names,
 * the bash completion offers the grammar's verbs, and the man page names
 * every command and describes every option.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "fwdlab/fwd_lab.h"
#include "lab/target.h"
#include "tests/common/cmd.h"

#define LINES_MAX 256

struct gram_line {
	char object[32], verb[32];
	bool daemon;
	char options[1024]; /* " --name=ARG --flag" */
};

static int read_grammar(struct gram_line *g, int max)
{
	int status, n = 0;
	char *out = hx_cmd("hwxdp", "help --verbs", &status), *line, *save = NULL;

	cr_assert_eq(status, 0, "hwxdp help --verbs: exit %d", status);
	for (line = strtok_r(out, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save)) {
		char rest[1024] = "";
		int got = sscanf(line, "%31s %31s%1023[^\n]", g[n].object, g[n].verb, rest);

		cr_assert_geq(got, 2, "help --verbs: '%s'", line);
		g[n].daemon = !strncmp(rest, " daemon", 7);
		snprintf(g[n].options, sizeof(g[n].options), "%s", rest + (g[n].daemon ? 7 : 0));
		n++;
	}
	free(out);
	cr_assert_gt(n, 20, "help --verbs: only %d commands", n);
	return n;
}

static bool in_grammar(const struct gram_line *g, int n, const char *object, const char *verb)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(g[i].object, object) && !strcmp(g[i].verb, verb))
			return true;
	return false;
}

Test(help, every_command_has_help_naming_it)
{
	static struct gram_line g[LINES_MAX];
	int n = read_grammar(g, LINES_MAX);

	for (int i = 0; i < n; i++) {
		char args[128], want[96];
		int status;
		char *out;

		if (!strcmp(g[i].verb, "-")) {
			snprintf(args, sizeof(args), "%s help 2>&1", g[i].object);
			snprintf(want, sizeof(want), "Usage: hwxdp %s", g[i].object);
		} else {
			snprintf(args, sizeof(args), "%s %s help 2>&1", g[i].object, g[i].verb);
			snprintf(want, sizeof(want), "hwxdp %s", g[i].object);
		}
		out = hx_cmd("hwxdp", args, &status);
		cr_expect_eq(status, 0, "hwxdp %s: exit %d:\n%s", args, status, out);
		cr_expect(strstr(out, want) != NULL, "hwxdp %s: no '%s' in:\n%s", args, want, out);
		if (strcmp(g[i].verb, "-"))
			cr_expect(strstr(out, g[i].verb) != NULL, "hwxdp %s: the verb is not named",
				  args);
		cr_expect(!strstr(out, "unknown command"), "hwxdp %s: %s", args, out);
		free(out);
	}
}

/* An object's help lists every verb of the grammar, and `help` on a verb
 * that no dispatch has is refused, not explained. */
Test(help, object_help_lists_its_verbs)
{
	static struct gram_line g[LINES_MAX];
	int n = read_grammar(g, LINES_MAX), status;
	char *out;

	for (int i = 0; i < n; i++) {
		char args[128], want[64];

		if (!strcmp(g[i].verb, "-"))
			continue;
		snprintf(args, sizeof(args), "%s help 2>&1", g[i].object);
		snprintf(want, sizeof(want), " %s ", g[i].verb);
		out = hx_cmd("hwxdp", args, &status);
		cr_expect_eq(status, 0);
		cr_expect(strstr(out, want) != NULL, "hwxdp %s: no verb '%s'", args, g[i].verb);
		free(out);
	}
	out = hx_cmd("hwxdp", "prog frobnicate help 2>&1", &status);
	cr_expect_neq(status, 0);
	cr_expect(strstr(out, "unknown command") != NULL, "%s", out);
	free(out);
}

/* The client's own dispatch tables and the grammar: the same verbs. */
Test(dispatch, client_tables_are_the_grammar)
{
	static struct gram_line g[LINES_MAX];
	int n = read_grammar(g, LINES_MAX), status, seen = 0;
	char *out = hx_cmd("hwxdp", "help --dispatch", &status), *line, *save = NULL;

	cr_assert_eq(status, 0);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char object[32] = "", verb[32] = "";
		bool found = false;

		sscanf(line, "%31s %31s", object, verb);
		for (int i = 0; i < n && !verb[0]; i++)
			found |= !strcmp(g[i].object, object);
		if (verb[0])
			found = in_grammar(g, n, object, verb);
		cr_expect(found, "the dispatch takes '%s', the grammar has no such command", line);
		seen += verb[0] != 0;
	}
	free(out);
	/* the other way: each offline prog verb is one the dispatch takes */
	out = hx_cmd("hwxdp", "help --dispatch", &status);
	for (int i = 0; i < n; i++) {
		char want[80];

		if (strcmp(g[i].object, "prog") || g[i].daemon)
			continue;
		snprintf(want, sizeof(want), "prog %s\n", g[i].verb);
		cr_expect(strstr(out, want) != NULL, "the grammar has 'prog %s', no dispatch does",
			  g[i].verb);
	}
	free(out);
	cr_expect_gt(seen, 0);
}

/* The daemon's tables (daemon/commands.c: OBJECT_cmds[] of { "verb", fn })
 * and the grammar's daemon verbs: the same. */
Test(dispatch, daemon_tables_are_the_grammar)
{
	static struct gram_line g[LINES_MAX];
	static char src[1 << 20];
	int n = read_grammar(g, LINES_MAX), tables = 0;
	FILE *f = fopen("daemon/commands.c", "r");
	size_t len;
	char *p;

	cr_assert_not_null(f, "daemon/commands.c: run from the source tree");
	len = fread(src, 1, sizeof(src) - 1, f);
	fclose(f);
	src[len] = '\0';
	for (p = strstr(src, "static const struct word_cmd "); p;
	     p = strstr(p + 1, "static const struct word_cmd ")) {
		char object[32] = "", *end = strstr(p, "};"), *q;

		if (sscanf(p, "static const struct word_cmd %31[a-z]_cmds[]", object) != 1 ||
		    !strchr(p, '[') || strncmp(strchr(p, '[') - 5, "_cmds", 5))
			continue;
		cr_assert_not_null(end);
		tables++;
		for (q = strstr(p, "{ \""); q && q < end; q = strstr(q + 1, "{ \"")) {
			char verb[32] = "";

			if (sscanf(q, "{ \"%31[^\"]\"", verb) != 1)
				continue;
			cr_expect(in_grammar(g, n, object, verb),
				  "hwxdpd takes '%s %s', the grammar has no such command", object,
				  verb);
		}
		for (int i = 0; i < n; i++) {
			char want[64];

			if (!g[i].daemon || strcmp(g[i].object, object))
				continue;
			snprintf(want, sizeof(want), "{ \"%s\", ", g[i].verb);
			q = strstr(p, want);
			cr_expect(q && q < end, "the grammar has '%s %s', hwxdpd does not", object,
				  g[i].verb);
		}
	}
	cr_expect_geq(tables, 7, "only %d word tables in daemon/commands.c", tables);
}

/* An argument the parser takes for an option of the given shape. */
static void sample_value(const char *arg, char *buf, size_t len)
{
	const char *bar = strchr(arg, '|');

	if (bar || !strcmp(arg, "device"))
		snprintf(buf, len, "%.*s", (int)(bar ? bar - arg : (long)strlen(arg)), arg);
	else if (strchr(arg, '='))
		snprintf(buf, len, "flows=16");
	else if (!strncmp(arg, "IFINDEX", 7))
		snprintf(buf, len, "2");
	else if (strlen(arg) <= 2)
		snprintf(buf, len, "16");
	else
		snprintf(buf, len, "x");
}

/* Each option of the grammar, then --help: the parser knows it (getopt
 * would say "unrecognized option" and the command fail). */
Test(options, parsers_take_the_grammar_options)
{
	static struct gram_line g[LINES_MAX];
	int n = read_grammar(g, LINES_MAX), tried = 0;

	for (int i = 0; i < n; i++) {
		char *opts = g[i].options, *save = NULL, *o;

		for (o = strtok_r(opts, " ", &save); o; o = strtok_r(NULL, " ", &save)) {
			char args[512], value[64] = "", *eq = strchr(o, '=');
			int status;
			char *out;

			if (eq) {
				*eq = '\0';
				sample_value(eq + 1, value, sizeof(value));
			}
			if (!strcmp(g[i].object, "help"))
				continue;
			snprintf(args, sizeof(args), "%s %s %s %s --help 2>&1", g[i].object,
				 strcmp(g[i].verb, "-") ? g[i].verb : "", o, value);
			out = hx_cmd("hwxdp", args, &status);
			cr_expect_eq(status, 0, "hwxdp %s: exit %d:\n%s", args, status, out);
			cr_expect(!strstr(out, "unrecognized") && !strstr(out, "unknown option") &&
					  !strstr(out, "takes no"),
				  "hwxdp %s:\n%s", args, out);
			free(out);
			tried++;
		}
	}
	cr_expect_gt(tried, 30);
}

/* The lab's frame kinds are the --frame choices the grammar offers. */
Test(options, frame_kinds_are_the_lab_frames)
{
	static struct gram_line g[LINES_MAX];
	int n = read_grammar(g, LINES_MAX);
	const char *kinds = NULL;

	for (int i = 0; i < n; i++)
		if (!strcmp(g[i].object, "prog") && !strcmp(g[i].verb, "stats"))
			kinds = strstr(g[i].options, "--frame=");
	cr_assert_not_null(kinds);
	for (int k = 0; k < HX_LAB__COUNT; k++) {
		char want[40];

		snprintf(want, sizeof(want), "%s|", hx_lab_frames[k].name);
		cr_expect(strstr(kinds, want) != NULL, "--frame has no lab kind %s",
			  hx_lab_frames[k].name);
	}
}

/* COMPREPLY for the words, from the completion the build printed. */
static char *complete(const char *words)
{
	char args[1024];
	int status;
	char *out;

	snprintf(args, sizeof(args),
		 "help --bash-completion >/dev/null && bash -c 'source "
		 "\"%s/hwxdp.bash-completion\"; "
		 "COMP_WORDS=(%s); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _hwxdp; "
		 "printf \"%%s\\n\" \"${COMPREPLY[@]}\" | sort | tr \"\\n\" \" \"'",
		 hx_build_dir(), words);
	out = hx_cmd("hwxdp", args, &status);
	cr_assert_eq(status, 0, "completion of %s: exit %d", words, status);
	return out;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

Test(completion, offers_the_grammar_verbs)
{
	static struct gram_line g[LINES_MAX];
	int n = read_grammar(g, LINES_MAX), status;
	char *printed = hx_cmd("hwxdp", "help --bash-completion", &status), path[512], *built;
	FILE *f;
	long len;

	/* the installed script is the one the command prints */
	snprintf(path, sizeof(path), "%s/hwxdp.bash-completion", hx_build_dir());
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s: make builds it", path);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	built = calloc(1, (size_t)len + 1);
	cr_assert_eq(fread(built, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	cr_expect_str_eq(built, printed, "%s is not what help --bash-completion prints", path);
	free(built);
	free(printed);

	for (int i = 0; i < n; i++) {
		char words[64], want[1024] = "", *got, *verbs[64];
		int v = 0;
		size_t at = 0;

		if (!strcmp(g[i].verb, "-") || (i > 0 && !strcmp(g[i - 1].object, g[i].object)))
			continue;
		for (int j = i; j < n && !strcmp(g[j].object, g[i].object); j++)
			verbs[v++] = g[j].verb;
		verbs[v++] = "help";
		qsort(verbs, (size_t)v, sizeof(verbs[0]), cmp_str);
		for (int j = 0; j < v; j++)
			at += (size_t)snprintf(want + at, sizeof(want) - at, "%s ", verbs[j]);
		snprintf(words, sizeof(words), "hwxdp %s \"\"", g[i].object);
		got = complete(words);
		cr_expect_str_eq(got, want, "completing '%s'", words);
		free(got);
	}
	{
		char *got = complete("hwxdp lif add p0 vlan 5 state \"\"");

		cr_expect_str_eq(got, "admin-disabled enabled offload-disabled ");
		free(got);
		got = complete("hwxdp -j verify --target \"\"");
		cr_expect_str_eq(got, "device host ");
		free(got);
		got = complete("hwxdp port add p0 dev lo\"\"");
		cr_expect_str_eq(got, "lo ");
		free(got);

		/* port names come from `hwxdp -j port list`: here a script in
		 * hwxdp's place that prints a fixed list */
		FILE *fake = fopen("/tmp/hwxdp-cli-ports", "w");

		cr_assert_not_null(fake);
		fprintf(fake, "#!/bin/sh\necho '{\"ports\": [{\"name\": \"wan\", \"program\": "
			      "\"fwd\"}, {\"name\":\"p0\"}]}'\n");
		fclose(fake);
		cr_assert_eq(chmod("/tmp/hwxdp-cli-ports", 0755), 0);
		got = complete("/tmp/hwxdp-cli-ports prog detach port \"\"");
		cr_expect_str_eq(got, "p0 wan ");
		free(got);
		got = complete("/tmp/hwxdp-cli-ports lif add \"\"");
		cr_expect_str_eq(got, "p0 wan ");
		free(got);
		unlink("/tmp/hwxdp-cli-ports");
	}
}

/* The man page: every command of the grammar has its .TP head, and a
 * template whose prose misses an option is refused. */
Test(man, names_every_command)
{
	static struct gram_line g[LINES_MAX];
	int n = read_grammar(g, LINES_MAX), status;
	char args[512], *page;

	snprintf(args, sizeof(args), "help --man docs/man/hwxdp.8.in");
	page = hx_cmd("hwxdp", args, &status);
	cr_assert_eq(status, 0, "help --man: exit %d", status);
	for (int i = 0; i < n; i++) {
		char want[96], alt[96];

		if (!strcmp(g[i].verb, "-"))
			snprintf(want, sizeof(want), ".TP\n\\fBhwxdp %s\\fR", g[i].object);
		else
			snprintf(want, sizeof(want), "\\fBhwxdp %s %s\\fR", g[i].object, g[i].verb);
		/* { show | list } */
		snprintf(alt, sizeof(alt), " | \\fB%s\\fR }", g[i].verb);
		cr_expect(strstr(page, want) || strstr(page, alt), "the man page has no '%s'",
			  want);
	}
	free(page);
	page = hx_cmd("hwxdp",
		      "help --man - 2>&1 <<'EOF'\n.SH COMMANDS\n@COMMAND verify@\nNo options.\nEOF",
		      &status);
	cr_expect_neq(status, 0);
	cr_expect(strstr(page, "does not describe --prog") != NULL, "%s", page);
	free(page);
}

/* The whole of a file, NUL-terminated; *len its size. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* What a shell command line prints. */
static char *sh(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	size_t len = 0, cap = 1 << 16, n;
	char *out = malloc(cap);

	cr_assert_not_null(p);
	cr_assert_not_null(out);
	while ((n = fread(out + len, 1, cap - len - 1, p)) > 0) {
		len += n;
		if (len + 1 == cap) {
			cap *= 2;
			out = realloc(out, cap);
			cr_assert_not_null(out);
		}
	}
	out[len] = '\0';
	pclose(p);
	return out;
}

/*
 * "-" for the object of verify and prog: the same result as the file, read
 * from a pipe. The object from standard input is named "stdin" (its global
 * data maps are stdin.*), so the file it is compared with is a copy named
 * stdin.bpf.o.
 */
Test(dash, verify_and_prog_read_standard_input)
{
	char dir[] = "/tmp/hwxdp-cli-XXXXXX", copy[64], args[512], *a, *b;
	const char *object = hx_object_path("fwd");
	size_t alen, blen;
	int status;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(copy, sizeof(copy), "%s/stdin.bpf.o", dir);
	snprintf(args, sizeof(args), "cp '%s' '%s'", object, copy);
	cr_assert_eq(system(args), 0);

	/* verify: the report names "-" */
	snprintf(args, sizeof(args), "-j verify %s", copy);
	a = hx_cmd("hwxdp", args, &status);
	cr_assert_eq(status, 0, "%s", a);
	snprintf(args, sizeof(args), "-j verify - <'%s'", object);
	b = hx_cmd("hwxdp", args, &status);
	cr_expect_eq(status, 0, "%s", b);
	cr_expect(strstr(b, "\"object\":\"-\"") != NULL, "%s", b);
	cr_expect(strstr(b, "\"accepted\":true") != NULL, "%s", b);
	free(a);
	free(b);

	/* translate: the image on standard output, byte for byte the file's */
	snprintf(args, sizeof(args), "prog translate '%s' -o '%s/file.hxu'", copy, dir);
	free(hx_cmd("hwxdp", args, &status));
	cr_assert_eq(status, 0);
	snprintf(args, sizeof(args), "-j prog translate - -o - <'%s' >'%s/pipe.hxu' 2>'%s/json'",
		 object, dir, dir);
	free(hx_cmd("hwxdp", args, &status));
	cr_expect_eq(status, 0);
	snprintf(args, sizeof(args), "%s/file.hxu", dir);
	a = slurp(args, &alen);
	snprintf(args, sizeof(args), "%s/pipe.hxu", dir);
	b = slurp(args, &blen);
	cr_expect(alen > 64 && alen == blen && !memcmp(a, b, alen),
		  "prog translate - -o -: %zu bytes, the file's %zu", blen, alen);
	free(a);
	free(b);
	/* its JSON report went to standard error */
	snprintf(args, sizeof(args), "%s/json", dir);
	a = slurp(args, &alen);
	cr_expect(strstr(a, "\"bundles\":") != NULL, "%s", a);
	free(a);

	/* stats through a pipe: the same table as the file's */
	snprintf(args, sizeof(args), "prog stats '%s' | tail -n +2", copy);
	a = hx_cmd("hwxdp", args, &status);
	snprintf(args, sizeof(args), "cat '%s' | %s/hwxdp prog stats - | tail -n +2", object,
		 hx_build_dir());
	b = sh(args);
	cr_expect_str_eq(b, a);
	cr_expect(strstr(a, "plain") != NULL, "%s", a);
	free(a);
	free(b);

	/* dump through a pipe: the listing of the file's */
	snprintf(args, sizeof(args), "prog dump '%s'", copy);
	a = hx_cmd("hwxdp", args, &status);
	cr_expect_eq(status, 0);
	snprintf(args, sizeof(args), "cat '%s' | %s/hwxdp prog dump -", object, hx_build_dir());
	b = sh(args);
	cr_expect(strlen(a) > 1000 && !strcmp(a, b), "prog dump - differs from the file's");
	free(a);
	free(b);

	/* prove through a pipe: proven, as the file is */
	snprintf(args, sizeof(args),
		 "cat '%s/tests/prove/bpf/progs.bpf.o' | %s/hwxdp prog prove - 2>&1",
		 hx_build_dir(), hx_build_dir());
	b = sh(args);
	cr_expect(!strncmp(b, "proven: ", 8), "prog prove -: %s", b);
	free(b);

	/* hwxdpd opens the object itself: no standard input to send it */
	a = hx_cmd("hwxdp", "prog load - 2>&1 </dev/null", &status);
	cr_expect_eq(status, 64, "%s", a);
	cr_expect(strstr(a, "not standard input") != NULL, "%s", a);
	free(a);

	snprintf(args, sizeof(args), "rm -rf '%s'", dir);
	cr_expect_eq(system(args), 0);
}
