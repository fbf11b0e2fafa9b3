/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command's grammar, once: every object, its verbs, their words and
 * options. `hwxdp ... help`, the man page's synopses and the bash
 * completion are all printed from it (cmd/grammar.c).
 *
 * A synopsis is the words after "hwxdp OBJECT [VERB]", as help prints
 * them: lower-case words are keywords typed as they are; upper-case ones
 * stand for an argument, whose kind the name gives (cmd_arg_kind());
 * [ ] is optional, { a | b } a choice, "..." a repetition. A NAME that a
 * definition names (STATE := { ... }) takes the definition's choices.
 */
#ifndef HWXDP_CMD_GRAMMAR_H
#define HWXDP_CMD_GRAMMAR_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* What an argument is, for completion: the shell completes files,
 * netdevs, the daemon's port names, or the choices of a definition. */
enum cmd_arg_kind {
	CMD_ARG_WORD,	/* anything: a name, a hex string */
	CMD_ARG_FILE,	/* a path; "-" for standard input or output where said */
	CMD_ARG_NETDEV, /* a Linux netdev */
	CMD_ARG_PORT,	/* a port of hwxdpd, by name */
	CMD_ARG_NUMBER,
	CMD_ARG_CHOICE, /* one of choices */
};

/* A getopt option: --name [ARG], described. */
struct cmd_option {
	const char *name; /* the long name, without "--" */
	int val;	  /* what getopt_long returns: the short letter when there is one */
	bool has_short;	  /* val is also -val */
	const char *arg;  /* the argument as help shows it; NULL: none */
	enum cmd_arg_kind kind;
	const char *choices; /* CMD_ARG_CHOICE: "device|host" */
	unsigned int flags;  /* CMD_OPT_* */
	const char *help;
};

enum {
	CMD_OPT_REQUIRED = 1 << 0, /* shown without brackets in the synopsis */
	CMD_OPT_REPEAT = 1 << 1,   /* may be given several times ("...") */
	CMD_OPT_HIDDEN = 1 << 2,   /* another form of the option before it: in the list only */
};

/* NAME := { a | b | c } */
struct cmd_def {
	const char *name;
	const char *choices; /* "a|b|c" */
};

struct cmd_verb {
	const char *name;
	const char *synopsis; /* the words after the verb */
	const char *summary;  /* one line */
	const char *description;
	const struct cmd_option *options;
	unsigned int flags; /* CMD_VERB_* */
};

enum {
	CMD_VERB_DAEMON = 1 << 0, /* hwxdpd runs it: the words go to its socket */
	CMD_VERB_ALIAS = 1 << 1,  /* another name of the verb before it */
};

struct cmd_object {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary; /* one line, for `hwxdp help` */
	/* an object without verbs: its words, after the object */
	const char *synopsis;
	const char *description;
	const struct cmd_option *options;
	const struct cmd_verb *verbs; /* NULL: none */
	const struct cmd_def *defs;
	const char *footer; /* after the options: exit statuses, examples */
};

/* Every object, ending with one whose name is NULL. */
extern const struct cmd_object cmd_objects[];
/* -j, -p, -h, -V before the object. */
extern const struct cmd_option cmd_global_options[];

const struct cmd_object *cmd_object_find(const char *name);
/* The verb that word names or uniquely abbreviates, else NULL. */
const struct cmd_verb *cmd_verb_find(const struct cmd_object *o, const char *word);
enum cmd_arg_kind cmd_arg_kind(const struct cmd_object *o, const char *word, const char **choices);

/* `hwxdp help`; `hwxdp OBJECT help`; `hwxdp OBJECT VERB help`. daemon_only:
 * the verbs hwxdpd runs only. 0. */
int cmd_help_main(FILE *f);
int cmd_help_object(FILE *f, const struct cmd_object *o, bool daemon_only);
int cmd_help_verb(FILE *f, const struct cmd_object *o, const struct cmd_verb *v);

/* options (ending with a NULL name) and -h, -j, -p as getopt_long takes
 * them: long into out (cap entries), the short letters into shorts. 0, or
 * -E2BIG when they do not fit. */
int cmd_getopt_table(const struct cmd_option *options, struct option *out, size_t cap, char *shorts,
		     size_t shorts_len);

/* A synopsis in tokens: words, and [ ] { } | ... on their own. */
#define CMD_TOKENS_MAX 64
#define CMD_TOKEN_LEN  64
struct cmd_tokens {
	int cnt;
	char tok[CMD_TOKENS_MAX][CMD_TOKEN_LEN];
};
void cmd_tokenize(const char *synopsis, struct cmd_tokens *t);
/* FILE.o, NETDEV: an argument; vlan, dev: a keyword. */
bool cmd_is_placeholder(const char *word);
bool cmd_is_keyword(const char *word);
/* How many choices "a|b|c" has; it as "{ a | b | c }". */
int cmd_choice_count(const char *choices);
void cmd_choice_text(const char *choices, char *buf, size_t len);

/* The bash completion script. */
void cmd_print_bash_completion(FILE *f);
/* template with its @...@ markers filled from the table (docs/man/hwxdp.8.in). 0, or
 * 1 with an error printed. */
int cmd_print_man(FILE *f, FILE *template, const char *template_name);

/* The grammar, a line a command: "OBJECT VERB|- [daemon] --OPTION[=ARG] ...". */
void cmd_print_grammar(FILE *f);

/* The verbs each object's dispatch takes in this command ("OBJECT VERB"
 * lines), for the test that holds it to the table. */
void cmd_print_dispatch(FILE *f);

#endif /* HWXDP_CMD_GRAMMAR_H */
