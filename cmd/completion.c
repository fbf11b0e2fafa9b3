// SPDX-License-Identifier: GPL-2.0
/*
 * hwxdp help --bash-completion: the bash completion script, from the
 * grammar. Objects, verbs, the keywords of a verb's synopsis and what
 * follows each (files, netdevs, hwxdpd's ports, the choices), the options
 * and their arguments.
 */
#include <string.h>

#include "cmd/grammar.h"
#include "cmd/main.h"

/* The shell's words for "complete an argument of this kind". */
static void print_kind(FILE *f, enum cmd_arg_kind kind, const char *choices, const char *word)
{
	switch (kind) {
	case CMD_ARG_FILE:
		if (word && strlen(word) > 2 && !strcmp(word + strlen(word) - 2, ".o"))
			fprintf(f, "_hwxdp_files '@(o)'");
		else if (word && strstr(word, ".pcap"))
			fprintf(f, "_hwxdp_files '@(pcap|pcapng)'");
		else if (word && strstr(word, ".json"))
			fprintf(f, "_hwxdp_files '@(json)'");
		else
			fprintf(f, "_hwxdp_files");
		break;
	case CMD_ARG_NETDEV:
		fprintf(f, "COMPREPLY=($(compgen -W \"$(_hwxdp_netdevs)\" -- \"$cur\"))");
		break;
	case CMD_ARG_PORT:
		fprintf(f, "COMPREPLY=($(compgen -W \"$(_hwxdp_ports)\" -- \"$cur\"))");
		break;
	case CMD_ARG_CHOICE:
		fprintf(f, "COMPREPLY=($(compgen -W \"");
		for (const char *c = choices; *c; c++)
			fputc(*c == '|' ? ' ' : *c, f);
		fprintf(f, "\" -- \"$cur\"))");
		break;
	default:
		fprintf(f, "COMPREPLY=()");
		break;
	}
}

/* What the token at i of a synopsis stands for: an argument (its kind),
 * or a choice group { a | b } (its words, into choices). */
static enum cmd_arg_kind token_kind(const struct cmd_object *o, const struct cmd_tokens *t, int i,
				    char *choices, size_t len, const char **word)
{
	const char *defined;
	size_t at = 0;

	*word = NULL;
	choices[0] = '\0';
	if (i >= t->cnt)
		return CMD_ARG_WORD;
	if (strcmp(t->tok[i], "{")) {
		enum cmd_arg_kind k;

		if (!cmd_is_placeholder(t->tok[i]))
			return CMD_ARG_WORD;
		*word = t->tok[i];
		k = cmd_arg_kind(o, t->tok[i], &defined);
		if (defined)
			snprintf(choices, len, "%s", defined);
		return k;
	}
	/* { FILE | - } is a file; { a | b } the words */
	for (i++; i < t->cnt && strcmp(t->tok[i], "}"); i++) {
		if (!strcmp(t->tok[i], "|"))
			continue;
		if (cmd_is_placeholder(t->tok[i])) {
			*word = t->tok[i];
			return cmd_arg_kind(o, t->tok[i], &defined);
		}
		at += (size_t)snprintf(choices + at, at < len ? len - at : 0, "%s%s", at ? "|" : "",
				       t->tok[i]);
	}
	return CMD_ARG_CHOICE;
}

static void print_options_case(FILE *f, const struct cmd_option *options, const char *indent)
{
	bool any = false;

	for (const struct cmd_option *o = options; o && o->name; o++)
		any |= o->arg != NULL;
	if (any) {
		fprintf(f, "%scase $prev in\n", indent);
		for (const struct cmd_option *o = options; o && o->name; o++) {
			if (!o->arg || (o->flags & CMD_OPT_HIDDEN))
				continue;
			fprintf(f, "%s--%s", indent, o->name);
			if (o->has_short)
				fprintf(f, " | -%c", o->val);
			fprintf(f, ")\n%s\t", indent);
			print_kind(f, o->kind, o->choices, o->arg);
			fprintf(f, "\n%s\treturn\n%s\t;;\n", indent, indent);
		}
		fprintf(f, "%sesac\n", indent);
	}
	fprintf(f, "%sif [[ $cur == -* ]]; then\n%s\tCOMPREPLY=($(compgen -W \"", indent, indent);
	for (const struct cmd_option *o = options; o && o->name; o++) {
		if (o->flags & CMD_OPT_HIDDEN)
			continue;
		fprintf(f, "--%s ", o->name);
		if (o->has_short)
			fprintf(f, "-%c ", o->val);
	}
	fprintf(f, "--help -j -p\" -- \"$cur\"))\n%s\treturn\n%sfi\n", indent, indent);
}

/*
 * A synopsis's words after the verb (or the object): a keyword's argument
 * after it, the first placeholder at the first position, else the
 * keywords not typed yet. base is the shell variable of the verb's index.
 */
static void print_synopsis_case(FILE *f, const struct cmd_object *o, const char *synopsis,
				const struct cmd_option *options, const char *base,
				const char *indent)
{
	struct cmd_tokens t;
	char choices[512];
	const char *word;
	enum cmd_arg_kind k;
	bool keywords = false;
	int first = 0;

	cmd_tokenize(synopsis, &t);
	if (options)
		print_options_case(f, options, indent);
	for (int i = 0; i < t.cnt; i++)
		keywords |= cmd_is_keyword(t.tok[i]) && i + 1 < t.cnt &&
			    (cmd_is_placeholder(t.tok[i + 1]) || !strcmp(t.tok[i + 1], "{"));
	if (keywords) {
		fprintf(f, "%scase $prev in\n", indent);
		for (int i = 0; i + 1 < t.cnt; i++) {
			if (!cmd_is_keyword(t.tok[i]) ||
			    !(cmd_is_placeholder(t.tok[i + 1]) || !strcmp(t.tok[i + 1], "{")))
				continue;
			k = token_kind(o, &t, i + 1, choices, sizeof(choices), &word);
			fprintf(f, "%s%s)\n%s\t", indent, t.tok[i], indent);
			print_kind(f, k, choices, word);
			fprintf(f, "\n%s\treturn\n%s\t;;\n", indent, indent);
		}
		fprintf(f, "%sesac\n", indent);
	}
	/* the first word: an argument, or an optional group's */
	while (first < t.cnt && !strcmp(t.tok[first], "["))
		first++;
	if (first < t.cnt && (cmd_is_placeholder(t.tok[first]) || !strcmp(t.tok[first], "{"))) {
		k = token_kind(o, &t, first, choices, sizeof(choices), &word);
		fprintf(f, "%sif ((cword == %s + 1)); then\n%s\t", indent, base, indent);
		print_kind(f, k, choices, word);
		fprintf(f, "\n%s\treturn\n%sfi\n", indent, indent);
	}
	fprintf(f, "%sCOMPREPLY=($(compgen -W \"", indent);
	for (int i = 0; i < t.cnt; i++)
		if (cmd_is_keyword(t.tok[i]) && (!i || strcmp(t.tok[i - 1], "{")) &&
		    (!i || strcmp(t.tok[i - 1], "|")))
			fprintf(f, "%s ", t.tok[i]);
	fprintf(f, "\" -- \"$cur\"))\n");
}

void cmd_print_bash_completion(FILE *f)
{
	fprintf(f, "# SPDX-License-Identifier: GPL-2.0\n"
		   "# bash completion for hwxdp(8), printed by `hwxdp help --bash-completion`\n"
		   "# from the command's grammar (cmd/grammar.c): do not edit.\n"
		   "_hwxdp_files()\n"
		   "{\n"
		   "\tif declare -F _filedir >/dev/null; then\n"
		   "\t\t_filedir \"$@\"\n"
		   "\telse\n"
		   "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
		   "\tfi\n"
		   "}\n"
		   "\n"
		   "_hwxdp_netdevs()\n"
		   "{\n"
		   "\tls /sys/class/net 2>/dev/null\n"
		   "}\n"
		   "\n"
		   "# The ports of a running hwxdpd, by name; nothing without one.\n"
		   "_hwxdp_ports()\n"
		   "{\n"
		   "\t\"${words[0]:-hwxdp}\" -j port list 2>/dev/null |\n"
		   "\t\tgrep -o '\"name\": *\"[^\"]*\"' | sed 's/.*\"\\([^\"]*\\)\"$/\\1/'\n"
		   "}\n"
		   "\n"
		   "_hwxdp()\n"
		   "{\n"
		   "\tlocal cur prev words cword\n"
		   "\tif declare -F _init_completion >/dev/null; then\n"
		   "\t\t_init_completion || return\n"
		   "\telse\n"
		   "\t\twords=(\"${COMP_WORDS[@]}\") cword=$COMP_CWORD\n"
		   "\t\tcur=${words[cword]} prev=${words[cword - 1]}\n"
		   "\tfi\n"
		   "\n"
		   "\tlocal i o=0 v=0 object=\"\" verb=\"\"\n"
		   "\tfor ((i = 1; i < cword; i++)); do\n"
		   "\t\tcase ${words[i]} in\n"
		   "\t\t-*) ;;\n"
		   "\t\t*)\n"
		   "\t\t\tif [[ -z $object ]]; then\n"
		   "\t\t\t\tobject=${words[i]} o=$i\n"
		   "\t\t\telse\n"
		   "\t\t\t\tverb=${words[i]} v=$i\n"
		   "\t\t\t\tbreak\n"
		   "\t\t\tfi\n"
		   "\t\t\t;;\n"
		   "\t\tesac\n"
		   "\tdone\n"
		   "\n"
		   "\tif [[ -z $object ]]; then\n"
		   "\t\tif [[ $cur == -* ]]; then\n"
		   "\t\t\tCOMPREPLY=($(compgen -W \"");
	for (const struct cmd_option *o = cmd_global_options; o->name; o++)
		fprintf(f, "%s-%c --%s", o == cmd_global_options ? "" : " ", o->val, o->name);
	fprintf(f, "\" -- \"$cur\"))\n"
		   "\t\telse\n"
		   "\t\t\tCOMPREPLY=($(compgen -W \"");
	for (const struct cmd_object *o = cmd_objects; o->name; o++)
		fprintf(f, "%s%s", o == cmd_objects ? "" : " ", o->name);
	fprintf(f, "\" -- \"$cur\"))\n"
		   "\t\tfi\n"
		   "\t\treturn\n"
		   "\tfi\n"
		   "\n"
		   "\tcase $object in\n");
	for (const struct cmd_object *o = cmd_objects; o->name; o++) {
		fprintf(f, "\t%s)\n", o->name);
		if (!o->verbs) {
			print_synopsis_case(f, o, o->synopsis, o->options, "o", "\t\t");
			fprintf(f, "\t\t;;\n");
			continue;
		}
		fprintf(f, "\t\tif ((cword == o + 1)); then\n\t\t\tCOMPREPLY=($(compgen -W \"");
		for (const struct cmd_verb *v = o->verbs; v->name; v++)
			fprintf(f, "%s ", v->name);
		fprintf(f, "help\" -- \"$cur\"))\n\t\t\treturn\n\t\tfi\n"
			   "\t\tcase $verb in\n");
		for (const struct cmd_verb *v = o->verbs; v->name; v++) {
			const struct cmd_object *as = NULL;

			if (!strcmp(o->name, "prog") &&
			    (!strcmp(v->name, "verify") || !strcmp(v->name, "run")))
				as = cmd_object_find(v->name);
			fprintf(f, "\t\t%s)\n", v->name);
			print_synopsis_case(f, as ? as : o, as ? as->synopsis : v->synopsis,
					    as ? as->options : v->options, "v", "\t\t\t");
			fprintf(f, "\t\t\t;;\n");
		}
		fprintf(f, "\t\tesac\n\t\t;;\n");
	}
	fprintf(f, "\tesac\n"
		   "}\n"
		   "complete -F _hwxdp hwxdp\n");
}
