// SPDX-License-Identifier: GPL-2.0
/*
 * hwxdp help --man TEMPLATE: hwxdp(8) from its template, whose marker
 * lines the grammar fills in:
 *   @SYNOPSIS@                 the SYNOPSIS section's body
 *   @OPTIONS@                  the options before the object
 *   @COMMAND OBJECT [VERB]@    a command's synopsis, as the .TP head of the
 *                              prose after it, which must name every option
 *                              of the command
 *   @COMMANDS@                 every command no @COMMAND names, with its
 *                              description and options
 * A marker the grammar does not know, or prose missing an option, is an
 * error: the page cannot drift from the command.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/grammar.h"
#include "cmd/main.h"

#define MAN_COMMANDS_MAX 128
#define MAN_LINE_MAX	 4096

/* Text for roff: backslashes escaped, minus signs as \-. */
static void man_escape(FILE *f, const char *s, size_t len, bool minus)
{
	for (size_t i = 0; i < len && s[i]; i++) {
		if (s[i] == '\\')
			fputs("\\e", f);
		else if (s[i] == '-' && minus)
			fputs("\\-", f);
		else
			fputc(s[i], f);
	}
}

static void man_word(FILE *f, const char *w)
{
	if (!strcmp(w, "[") || !strcmp(w, "]") || !strcmp(w, "{") || !strcmp(w, "}") ||
	    !strcmp(w, "|") || !strcmp(w, "...")) {
		fputs(w, f);
	} else if (cmd_is_placeholder(w)) {
		fputs("\\fI", f);
		man_escape(f, w, strlen(w), true);
		fputs("\\fR", f);
	} else {
		fputs("\\fB", f);
		man_escape(f, w, strlen(w), true);
		fputs("\\fR", f);
	}
}

static void man_synopsis(FILE *f, const char *synopsis)
{
	struct cmd_tokens t;

	cmd_tokenize(synopsis, &t);
	for (int i = 0; i < t.cnt; i++) {
		bool glue = !strcmp(t.tok[i], "]") || (i > 0 && !strcmp(t.tok[i - 1], "["));

		if (!glue)
			fputc(' ', f);
		man_word(f, t.tok[i]);
	}
}

static void man_option_head(FILE *f, const struct cmd_option *o)
{
	if (o->has_short)
		fprintf(f, "\\fB\\-%c\\fR, ", o->val);
	fputs("\\fB\\-\\-", f);
	man_escape(f, o->name, strlen(o->name), true);
	fputs("\\fR", f);
	if (!o->arg)
		return;
	if (o->kind == CMD_ARG_CHOICE && cmd_choice_count(o->choices) <= 3) {
		char c[256];

		cmd_choice_text(o->choices, c, sizeof(c));
		man_synopsis(f, c);
		return;
	}
	fputs(" \\fI", f);
	man_escape(f, o->arg, strlen(o->arg), true);
	fputs("\\fR", f);
}

static void man_options_synopsis(FILE *f, const struct cmd_option *options)
{
	for (const struct cmd_option *o = options; o && o->name; o++) {
		bool required = o->flags & CMD_OPT_REQUIRED;

		if (o->flags & CMD_OPT_HIDDEN)
			continue;
		fputs(required ? " " : " [", f);
		man_option_head(f, o);
		if (o->flags & CMD_OPT_REPEAT)
			fputs(" ...", f);
		if (!required)
			fputc(']', f);
	}
}

/* The verbs that share v's synopsis as its aliases. */
static void man_verb_words(FILE *f, const struct cmd_object *o, const struct cmd_verb *v)
{
	const struct cmd_verb *a = v + 1;

	if (!(a->name && (a->flags & CMD_VERB_ALIAS) && !strcmp(a->synopsis, v->synopsis))) {
		fprintf(f, "\\fBhwxdp %s %s\\fR", o->name, v->name);
		return;
	}
	fprintf(f, "\\fBhwxdp %s\\fR { \\fB%s\\fR", o->name, v->name);
	for (; a->name && (a->flags & CMD_VERB_ALIAS) && !strcmp(a->synopsis, v->synopsis); a++)
		fprintf(f, " | \\fB%s\\fR", a->name);
	fputs(" }", f);
}

/* The grammar of prog verify and prog run is the top-level commands'. */
static const struct cmd_object *same_as(const struct cmd_object *o, const struct cmd_verb *v)
{
	if (!v || strcmp(o->name, "prog") || (strcmp(v->name, "verify") && strcmp(v->name, "run")))
		return NULL;
	return cmd_object_find(v->name);
}

static void man_command_head(FILE *f, const struct cmd_object *o, const struct cmd_verb *v)
{
	const struct cmd_object *as = same_as(o, v);

	fputs(".TP\n", f);
	if (!v) {
		fprintf(f, "\\fBhwxdp %s\\fR", o->name);
		man_synopsis(f, o->synopsis);
		man_options_synopsis(f, o->options);
	} else {
		man_verb_words(f, o, v);
		man_synopsis(f, as ? as->synopsis : v->synopsis);
		man_options_synopsis(f, as ? as->options : v->options);
	}
	fputc('\n', f);
	for (const struct cmd_def *d = o->defs; v && d && d->name; d++) {
		char c[256];

		cmd_choice_text(d->choices, c, sizeof(c));
		fprintf(f, "\\fI%s\\fR :=", d->name);
		man_synopsis(f, c);
		fputs("\n.br\n", f);
	}
}

/* Prose for roff: filled as it is; a line that would be a request is not. */
static void man_text(FILE *f, const char *text)
{
	while (text && *text) {
		size_t len = strcspn(text, "\n");

		if (*text == '.' || *text == '\'')
			fputs("\\&", f);
		man_escape(f, text, len, false);
		fputc('\n', f);
		text += len;
		if (*text)
			text++;
	}
}

static void man_options_list(FILE *f, const struct cmd_option *options)
{
	if (!options || !options->name)
		return;
	fputs(".RS\n", f);
	for (const struct cmd_option *o = options; o->name; o++) {
		fputs(".TP\n", f);
		man_option_head(f, o);
		fputc('\n', f);
		man_text(f, o->help);
	}
	fputs(".RE\n", f);
}

struct placed {
	const struct cmd_object *o;
	const struct cmd_verb *v;
};

static bool is_placed(const struct placed *p, int n, const struct cmd_object *o,
		      const struct cmd_verb *v)
{
	for (int i = 0; i < n; i++)
		if (p[i].o == o && p[i].v == v)
			return true;
	return false;
}

/* "@COMMAND OBJECT [VERB]@": the command, or NULL with an error printed. */
static int parse_marker(const char *line, const char *name, int lineno, struct placed *out)
{
	char obj[64] = "", verb[64] = "";
	int n = sscanf(line, "@COMMAND %63[a-z] %63[a-z]@", obj, verb);

	if (n < 1)
		goto bad;
	if (n == 1 && !strchr(line + 9, '@'))
		goto bad;
	out->o = cmd_object_find(obj);
	out->v = NULL;
	if (!out->o)
		return cmd_error("%s:%d: no object '%s' in the grammar", name, lineno, obj);
	if (n == 2) {
		out->v = cmd_verb_find(out->o, verb);
		if (!out->v || strcmp(out->v->name, verb))
			return cmd_error("%s:%d: no verb '%s %s' in the grammar", name, lineno, obj,
					 verb);
	}
	return 0;
bad:
	return cmd_error("%s:%d: expected @COMMAND OBJECT [VERB]@", name, lineno);
}

/* Whether the prose of a placed command names each of its options. */
static int check_prose(const struct placed *p, const char *prose, const char *name, int lineno)
{
	const struct cmd_object *as = same_as(p->o, p->v);
	const struct cmd_option *options = as ? as->options : p->v ? p->v->options : p->o->options;
	char want[128];

	for (const struct cmd_option *o = options; o && o->name; o++) {
		size_t at = (size_t)snprintf(want, sizeof(want), "\\fB\\-\\-");

		for (const char *c = o->name; *c && at + 3 < sizeof(want); c++) {
			if (*c == '-')
				want[at++] = '\\';
			want[at++] = *c;
		}
		want[at] = '\0';
		if (!strstr(prose, want))
			return cmd_error("%s:%d: hwxdp %s%s%s: the text does not describe --%s",
					 name, lineno, p->o->name, p->v ? " " : "",
					 p->v ? p->v->name : "", o->name);
	}
	return 0;
}

static void man_rest(FILE *f, const struct placed *placed, int n)
{
	for (const struct cmd_object *o = cmd_objects; o->name; o++) {
		if (!o->verbs) {
			if (is_placed(placed, n, o, NULL))
				continue;
			man_command_head(f, o, NULL);
			man_text(f, o->description);
			man_options_list(f, o->options);
			continue;
		}
		for (const struct cmd_verb *v = o->verbs; v->name; v++) {
			const struct cmd_object *as = same_as(o, v);

			if (is_placed(placed, n, o, v))
				continue;
			if (v->flags & CMD_VERB_ALIAS && v > o->verbs &&
			    !strcmp(v[-1].synopsis, v->synopsis))
				continue;
			man_command_head(f, o, v);
			fprintf(f, "%c%s.\n", toupper((unsigned char)v->summary[0]),
				v->summary + 1);
			if (as) {
				fprintf(f, "The same as \\fBhwxdp %s\\fR.\n", as->name);
				continue;
			}
			man_text(f, v->description);
			if (v == o->verbs && o->description) {
				fputs(".IP\n", f);
				man_text(f, o->description);
			}
			man_options_list(f, v->options);
		}
	}
}

int cmd_print_man(FILE *f, FILE *template, const char *name)
{
	struct placed placed[MAN_COMMANDS_MAX];
	char *lines = NULL, *line, *next;
	size_t len = 0, cap = 0, got;
	char buf[MAN_LINE_MAX];
	int n = 0, lineno = 0, rc = 0;

	/* whole, so that a command's prose can be checked before it is printed */
	while ((got = fread(buf, 1, sizeof(buf), template)) > 0) {
		if (len + got + 1 > cap) {
			char *grown;

			cap = (len + got + 1) * 2;
			grown = realloc(lines, cap);
			if (!grown) {
				free(lines);
				return cmd_error("out of memory");
			}
			lines = grown;
		}
		memcpy(lines + len, buf, got);
		len += got;
	}
	if (ferror(template)) {
		free(lines);
		return cmd_error("%s: cannot read it", name);
	}
	if (!lines)
		return cmd_error("%s: empty", name);
	lines[len] = '\0';
	for (line = lines; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		lineno++;
		if (!strncmp(line, "@COMMAND ", 9)) {
			char *end;

			if (n == MAN_COMMANDS_MAX) {
				rc = cmd_error("%s:%d: too many @COMMAND", name, lineno);
				break;
			}
			rc = parse_marker(line, name, lineno, &placed[n]);
			if (rc)
				break;
			/* its prose: up to the next marker or section */
			for (end = next; *end;
			     end += strcspn(end, "\n") + (end[strcspn(end, "\n")] != 0))
				if (*end == '@' || !strncmp(end, ".SH", 3))
					break;
			{
				char saved = *end;

				*end = '\0';
				rc = check_prose(&placed[n], next, name, lineno);
				*end = saved;
			}
			if (rc)
				break;
			man_command_head(f, placed[n].o, placed[n].v);
			n++;
		} else if (!strcmp(line, "@SYNOPSIS@")) {
			fprintf(f, ".B hwxdp\n[\\fIOPTIONS\\fR] \\fIOBJECT\\fR { \\fICOMMAND\\fR | "
				   "\\fBhelp\\fR }\n.PP\n\\fIOBJECT\\fR := {");
			for (const struct cmd_object *o = cmd_objects; o->name; o++)
				fprintf(f, "%s \\fB%s\\fR", o == cmd_objects ? "" : " |", o->name);
			fprintf(f, " }\n.br\n\\fIOPTIONS\\fR := {");
			for (const struct cmd_option *o = cmd_global_options; o->name; o++)
				fprintf(f, "%s \\fB\\-%c\\fR | \\fB\\-\\-%s\\fR",
					o == cmd_global_options ? "" : " |", o->val, o->name);
			fprintf(f, " }\n");
		} else if (!strcmp(line, "@OPTIONS@")) {
			for (const struct cmd_option *o = cmd_global_options; o->name; o++) {
				fputs(".TP\n", f);
				man_option_head(f, o);
				fprintf(f, "\n%s.\n", o->help);
			}
		} else if (!strcmp(line, "@COMMANDS@")) {
			/* after the template's own: every @COMMAND is known by then */
			for (char *p = next; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0))
				if (!strncmp(p, "@COMMAND ", 9)) {
					rc = cmd_error("%s:%d: @COMMANDS@ must come after every "
						       "@COMMAND",
						       name, lineno);
					break;
				}
			if (rc)
				break;
			man_rest(f, placed, n);
		} else if (line[0] == '@') {
			rc = cmd_error("%s:%d: unknown marker '%s'", name, lineno, line);
			break;
		} else {
			fprintf(f, "%s\n", line);
		}
	}
	free(lines);
	return rc;
}
