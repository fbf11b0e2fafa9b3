// SPDX-License-Identifier: GPL-2.0
/*
 * What the grammar (cmd/grammar.c) prints: `help` texts, the bash
 * completion script and the man page's synopses. One table, so that none
 * of them can name a verb or an option the others do not.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/grammar.h"
#include "cmd/main.h"

#define USAGE_WIDTH 80
#define OPT_COLUMN  20
#define GROUPS_MAX  64

/* An option as the synopsis shows it, into buf: [--prog NAME]. */
static void option_synopsis(const struct cmd_option *opt, char *buf, size_t len)
{
	char arg[256] = "";

	if (opt->arg && opt->kind == CMD_ARG_CHOICE && cmd_choice_count(opt->choices) <= 3) {
		arg[0] = ' ';
		cmd_choice_text(opt->choices, arg + 1, sizeof(arg) - 1);
	} else if (opt->arg) {
		snprintf(arg, sizeof(arg), " %s", opt->arg);
	}
	snprintf(buf, len, "%s--%s%s%s%s", opt->flags & CMD_OPT_REQUIRED ? "" : "[", opt->name, arg,
		 opt->flags & CMD_OPT_REPEAT ? " ..." : "",
		 opt->flags & CMD_OPT_REQUIRED ? "" : "]");
}

/* The pieces of a synopsis that stay on one line: a bracketed group whole. */
static int groups(const char *synopsis, char group[][512], int max)
{
	struct cmd_tokens t;
	int n = 0, depth = 0;
	size_t at = 0;

	cmd_tokenize(synopsis, &t);
	for (int i = 0; i < t.cnt; i++) {
		const char *w = t.tok[i];
		bool space;

		if (!depth && at && strcmp(w, "...")) {
			if (++n == max)
				return n;
			at = 0;
		}
		if (!at)
			group[n][0] = '\0';
		space = at && strcmp(w, "]") && group[n][at - 1] != '[';
		at += (size_t)snprintf(group[n] + at, at < 512 ? 512 - at : 0, "%s%s",
				       space ? " " : "", w);
		depth +=
			(!strcmp(w, "[") || !strcmp(w, "{")) - (!strcmp(w, "]") || !strcmp(w, "}"));
	}
	return at ? n + 1 : n;
}

/* "hwxdp OBJECT VERB synopsis options", wrapped under the first word after
 * the command words. */
static void print_usage_line(FILE *f, const char *lead, const char *words, const char *synopsis,
			     const struct cmd_option *options)
{
	char group[GROUPS_MAX + 32][512], extra[512];
	int n = groups(synopsis, group, GROUPS_MAX);
	size_t col, indent;

	for (const struct cmd_option *o = options; o && o->name && n < GROUPS_MAX + 32; o++) {
		if (o->flags & CMD_OPT_HIDDEN)
			continue;
		option_synopsis(o, extra, sizeof(extra));
		snprintf(group[n++], sizeof(group[0]), "%s", extra);
	}
	col = (size_t)fprintf(f, "%s%s %s", lead, bin_name, words);
	indent = strlen(lead) + strlen(bin_name) + 1 + strlen(words) + 1;
	if (indent > 40)
		indent = strlen(lead) + 4;
	for (int i = 0; i < n; i++) {
		size_t len = strlen(group[i]);

		if (col + 1 + len > USAGE_WIDTH && col > indent) {
			fprintf(f, "\n%*s", (int)indent - 1, "");
			col = indent - 1;
		}
		col += (size_t)fprintf(f, " %s", group[i]);
	}
	fputc('\n', f);
}

static void print_options(FILE *f, const struct cmd_option *options)
{
	for (const struct cmd_option *o = options; o && o->name; o++) {
		char head[128];
		const char *h = o->help;
		int len;

		if (o->has_short)
			len = snprintf(head, sizeof(head), "  -%c, --%s%s%s", o->val, o->name,
				       o->arg ? " " : "", o->arg ? o->arg : "");
		else
			len = snprintf(head, sizeof(head), "  --%s%s%s", o->name, o->arg ? " " : "",
				       o->arg ? o->arg : "");
		fputs(head, f);
		if (len + 2 > OPT_COLUMN)
			fprintf(f, "\n%*s", OPT_COLUMN, "");
		else
			fprintf(f, "%*s", OPT_COLUMN - len, "");
		while (*h) {
			size_t line = strcspn(h, "\n");

			fprintf(f, "%.*s\n", (int)line, h);
			h += line;
			if (*h == '\n' && *++h)
				fprintf(f, "%*s", OPT_COLUMN, "");
		}
	}
}

/* The verbs of o that share v's synopsis as its aliases: "{ show | list }". */
static void verb_words(const struct cmd_object *o, const struct cmd_verb *v, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "%s %s", o->name, v->name);
	bool more = false;

	for (const struct cmd_verb *a = v + 1; a->name && (a->flags & CMD_VERB_ALIAS); a++) {
		if (strcmp(a->synopsis, v->synopsis))
			break;
		more = true;
	}
	if (!more)
		return;
	at = (size_t)snprintf(buf, len, "%s { %s", o->name, v->name);
	for (const struct cmd_verb *a = v + 1;
	     a->name && (a->flags & CMD_VERB_ALIAS) && !strcmp(a->synopsis, v->synopsis); a++)
		at += (size_t)snprintf(buf + at, at < len ? len - at : 0, " | %s", a->name);
	if (at < len)
		snprintf(buf + at, len - at, " }");
}

/* prog verify and prog run are the top-level commands: their grammar. */
static const struct cmd_object *same_as(const struct cmd_object *o, const struct cmd_verb *v)
{
	if (strcmp(o->name, "prog") || (strcmp(v->name, "verify") && strcmp(v->name, "run")))
		return NULL;
	return cmd_object_find(v->name);
}

static void print_text(FILE *f, const char *text)
{
	if (text && *text)
		fprintf(f, "\n%s", text);
}

static void print_defs(FILE *f, const struct cmd_object *o)
{
	for (const struct cmd_def *d = o->defs; d && d->name; d++) {
		char c[256];

		cmd_choice_text(d->choices, c, sizeof(c));
		fprintf(f, "       %s := %s\n", d->name, c);
	}
}

int cmd_help_main(FILE *f)
{
	fprintf(f,
		"Usage: %s [OPTIONS] OBJECT { COMMAND | help }\n"
		"\n"
		"OBJECT:\n",
		bin_name);
	for (const struct cmd_object *o = cmd_objects; o->name; o++)
		fprintf(f, "  %-12s %s\n", o->name, o->summary);
	fprintf(f, "\nOPTIONS:\n");
	for (const struct cmd_option *o = cmd_global_options; o->name; o++) {
		char head[64];

		snprintf(head, sizeof(head), "-%c, --%s", o->val, o->name);
		fprintf(f, "  %-15s %s\n", head, o->help);
	}
	fprintf(f, "\n"
		   "Abbreviations are accepted where unique (hwxdp l = hwxdp lab).\n"
		   "`hwxdp OBJECT help` and `hwxdp OBJECT COMMAND help` say more.\n"
		   "See hwxdp(8).\n");
	return 0;
}

int cmd_help_verb(FILE *f, const struct cmd_object *o, const struct cmd_verb *v)
{
	const struct cmd_object *as = same_as(o, v);
	char words[256];

	if (as) {
		snprintf(words, sizeof(words), "%s %s", o->name, v->name);
		print_usage_line(f, "Usage: ", words, as->synopsis, as->options);
		fprintf(f, "\n%c%s.\n", toupper((unsigned char)v->summary[0]), v->summary + 1);
		print_text(f, as->description);
		if (as->options) {
			fputc('\n', f);
			print_options(f, as->options);
		}
		print_text(f, as->footer);
		return 0;
	}
	verb_words(o, v, words, sizeof(words));
	print_usage_line(f, "Usage: ", words, v->synopsis, v->options);
	print_defs(f, o);
	fprintf(f, "\n%c%s.\n", toupper((unsigned char)v->summary[0]), v->summary + 1);
	print_text(f, v->description);
	if (v->options) {
		fputc('\n', f);
		print_options(f, v->options);
	}
	return 0;
}

int cmd_help_object(FILE *f, const struct cmd_object *o, bool daemon_only)
{
	const char *lead = "Usage: ";
	char words[256];

	if (!o->verbs) {
		print_usage_line(f, lead, o->name, o->synopsis, o->options);
		print_text(f, o->description);
		if (o->options) {
			fputc('\n', f);
			print_options(f, o->options);
		}
		print_text(f, o->footer);
		return 0;
	}
	{
		size_t col = (size_t)fprintf(f, "%s%s %s {", lead, bin_name, o->name);
		size_t indent = col - 1;

		for (const struct cmd_verb *v = o->verbs; v->name; v++) {
			if (daemon_only && !(v->flags & CMD_VERB_DAEMON))
				continue;
			if (col + strlen(v->name) + 3 > USAGE_WIDTH) {
				fprintf(f, "\n%*s", (int)indent, "");
				col = indent;
			}
			col += (size_t)fprintf(f, " %s |", v->name);
		}
		fprintf(f, " help }\n");
	}
	for (const struct cmd_verb *v = o->verbs; v->name; v++) {
		const struct cmd_object *as = same_as(o, v);

		if (daemon_only && !(v->flags & CMD_VERB_DAEMON))
			continue;
		if (v->flags & CMD_VERB_ALIAS && v > o->verbs &&
		    !strcmp(v[-1].synopsis, v->synopsis))
			continue;
		verb_words(o, v, words, sizeof(words));
		print_usage_line(f, "       ", words, as ? as->synopsis : v->synopsis,
				 as ? as->options : v->options);
	}
	print_defs(f, o);
	fputc('\n', f);
	for (const struct cmd_verb *v = o->verbs; v->name; v++)
		if (!daemon_only || (v->flags & CMD_VERB_DAEMON))
			fprintf(f, "  %-12s %s\n", v->name, v->summary);
	print_text(f, o->description);
	for (const struct cmd_verb *v = o->verbs; v->name; v++) {
		if (daemon_only && !(v->flags & CMD_VERB_DAEMON))
			continue;
		if (same_as(o, v))
			continue;
		if (v->description)
			fprintf(f, "\n%s %s:\n%s", o->name, v->name, v->description);
		if (v->options) {
			fprintf(f, "\n%s options:\n", v->name);
			print_options(f, v->options);
		}
	}
	fprintf(f, "\n`%s %s COMMAND help`: one command.\n", bin_name, o->name);
	return 0;
}

int cmd_getopt_table(const struct cmd_option *options, struct option *out, size_t cap, char *shorts,
		     size_t shorts_len)
{
	static const struct option common[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
	};
	size_t n = 0, s = 0;

	for (const struct cmd_option *o = options; o && o->name; o++) {
		if (o->flags & CMD_OPT_HIDDEN)
			continue;
		if (n + 1 >= cap)
			return -E2BIG;
		out[n++] = (struct option){ o->name, o->arg ? required_argument : no_argument, NULL,
					    o->val };
		if (o->has_short) {
			if (s + 3 >= shorts_len)
				return -E2BIG;
			shorts[s++] = (char)o->val;
			if (o->arg)
				shorts[s++] = ':';
		}
	}
	for (size_t i = 0; i < sizeof(common) / sizeof(common[0]); i++) {
		if (n + 1 >= cap || s + 2 >= shorts_len)
			return -E2BIG;
		out[n++] = common[i];
		shorts[s++] = (char)common[i].val;
	}
	out[n] = (struct option){ 0 };
	shorts[s] = '\0';
	return 0;
}

void cmd_print_dispatch(FILE *f)
{
	for (const struct cmd_object *o = cmd_objects; o->name; o++)
		fprintf(f, "%s\n", o->name);
	for (const struct cmd *c = prog_offline_cmds; c->name; c++)
		fprintf(f, "prog %s\n", c->name);
}

static void print_option_words(FILE *f, const struct cmd_option *options)
{
	for (const struct cmd_option *o = options; o && o->name; o++) {
		if (o->flags & CMD_OPT_HIDDEN)
			continue;
		fprintf(f, " --%s", o->name);
		if (o->arg)
			fprintf(f, "=%s", o->kind == CMD_ARG_CHOICE ? o->choices : o->arg);
	}
}

void cmd_print_grammar(FILE *f)
{
	for (const struct cmd_object *o = cmd_objects; o->name; o++) {
		if (!o->verbs) {
			fprintf(f, "%s -", o->name);
			print_option_words(f, o->options);
			fputc('\n', f);
			continue;
		}
		for (const struct cmd_verb *v = o->verbs; v->name; v++) {
			const struct cmd_object *as = same_as(o, v);

			fprintf(f, "%s %s%s", o->name, v->name,
				v->flags & CMD_VERB_DAEMON ? " daemon" : "");
			print_option_words(f, as ? as->options : v->options);
			fputc('\n', f);
		}
	}
}
