// SPDX-License-Identifier: GPL-2.0
/*
 * hwxdp daemon|port|prog load ...: the client of hwxdpd. The words typed go
 * to the daemon as they are, which parses them; this side prints the reply,
 * as text or (-j, -p) as JSON. The help texts are the grammar's
 * (cmd/grammar.c).
 * HWXDP_SOCKET names another socket than the daemon's default.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/daemon.h"
#include "cmd/grammar.h"
#include "cmd/json_read.h"
#include "cmd/main.h"
#include "daemon/client.h"
#include "daemon/daemon.h"

/* A program load is verified, translated and compiled before the reply. */
#define CALL_TIMEOUT_MS 300000

static const char *socket_path(void)
{
	const char *env = getenv("HWXDP_SOCKET");

	return env && *env ? env : HWXDPD_SOCKET_DEFAULT;
}

static bool is_output_flag(const char *w)
{
	return !strcmp(w, "-j") || !strcmp(w, "--json") || !strcmp(w, "-p") ||
	       !strcmp(w, "--pretty");
}

static int call(const char *object, int argc, char **argv)
{
	char **words = calloc((size_t)argc + 2, sizeof(*words));
	struct hwxdp_ctl_result res;
	struct jnode *body = NULL;
	char msg[1024] = "";
	int n = 0, err, ret = 1;

	if (!words)
		return cmd_error("out of memory");
	words[n++] = (char *)object;
	for (int i = 0; i < argc; i++) {
		if (is_output_flag(argv[i]))
			cmd_output_option(argv[i][1] == 'p' || !strcmp(argv[i], "--pretty") ? 'p'
											    : 'j');
		else
			words[n++] = argv[i];
	}
	err = hwxdp_ctl_call(socket_path(), n, words, CALL_TIMEOUT_MS, &res, msg, sizeof(msg));
	free(words);
	if (err)
		return cmd_error("%s", msg);
	if (res.status) {
		/* A refusal's details (a verifier log) come in the body. */
		body = jnode_parse(res.body, msg, sizeof(msg));
		if (!json_output) {
			const struct jnode *log = jnode_get(body, "log");

			if (log && log->type == JNODE_STRING)
				fputs(log->text, stderr);
		}
		cmd_error("%s", res.message[0] ? res.message : strerror(-res.status));
		goto out;
	}
	body = jnode_parse(res.body, msg, sizeof(msg));
	if (!body) {
		cmd_error("%s", msg);
		goto out;
	}
	if (json_output) {
		jnode_print_json(body, stdout, pretty_output);
	} else {
		if (res.message[0])
			printf("%s\n", res.message);
		jnode_print_text(body, stdout);
	}
	ret = 0;
out:
	jnode_free(body);
	hwxdp_ctl_result__fini(&res);
	return ret;
}

int do_daemon(int argc, char **argv)
{
	return call("daemon", argc, argv);
}

int do_port(int argc, char **argv)
{
	return call("port", argc, argv);
}

/* How many prog verbs of the kind (hwxdpd's or offline) word names or
 * abbreviates; whether one is word itself. */
static bool prefix_of(const char *word, bool daemon, int *count)
{
	const struct cmd_object *prog = cmd_object_find("prog");
	size_t len = strlen(word);
	bool exact = false;

	*count = 0;
	for (const struct cmd_verb *v = prog->verbs; v->name; v++) {
		if (!(v->flags & CMD_VERB_DAEMON) != !daemon)
			continue;
		if (!strncmp(v->name, word, len))
			(*count)++;
		exact |= !strcmp(v->name, word);
	}
	return exact;
}

int do_prog_any(int argc, char **argv)
{
	int live, offline;
	bool exact;

	if (argc < 1)
		return do_prog(argc, argv);
	exact = prefix_of(argv[0], true, &live);
	/* An abbreviation both sides have ("s", "d") stays with the offline
	 * commands, as it did before the daemon. */
	prefix_of(argv[0], false, &offline);
	if (exact || (live == 1 && !offline)) {
		char full[PATH_MAX];
		int file = -1;

		/* The daemon has another working directory (and keeps the path
		 * for a restart): the file goes as an absolute path. */
		if (!strncmp("load", argv[0], strlen(argv[0])))
			file = 1;
		else if (!strncmp("replace", argv[0], strlen(argv[0])))
			file = 2;
		/* hwxdpd opens the object itself, and again at a restart:
		 * there is no standard input to send it. */
		if (file > 0 && file < argc && !strcmp(argv[file], "-"))
			return cmd_error_code(HWXDP_EXIT_USAGE,
					      "prog %s: hwxdpd opens FILE.o itself, by its path: "
					      "give a file, not standard input ('-')",
					      file == 1 ? "load" : "replace");
		if (file > 0 && file < argc && realpath(argv[file], full))
			argv[file] = full;
		return call("prog", argc, argv);
	}
	return do_prog(argc, argv);
}

int do_map(int argc, char **argv)
{
	return call("map", argc, argv);
}

int do_lif(int argc, char **argv)
{
	return call("lif", argc, argv);
}

int do_flow(int argc, char **argv)
{
	return call("flow", argc, argv);
}

/* key-file FILE|- read into the words as `key HEX`: the key goes to the
 * daemon over its root-only socket, never through argv. */
static int sa_key_words(int argc, char **argv, char *hex, size_t hexlen)
{
	int at = -1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "key"))
			return cmd_error("sa add: no key on the command line, where ps shows it "
					 "(key-file FILE, or key-file - for standard input)");
		if (!strcmp(argv[i], "key-file") && i + 1 < argc)
			at = i;
	}
	if (at < 0)
		return 0;
	if (cmd_read_secret_hex(argv[at + 1], hex, hexlen))
		return 1;
	argv[at] = (char *)"key";
	argv[at + 1] = hex;
	return 0;
}

int do_sa(int argc, char **argv)
{
	/* argv comes to point at it: not on the stack. */
	static char hex[256];
	int err = 0;

	if (argc >= 1 && !strncmp("add", argv[0], strlen(argv[0])))
		err = sa_key_words(argc, argv, hex, sizeof(hex));
	if (!err)
		err = call("sa", argc, argv);
	memset(hex, 0, sizeof(hex));
	return err;
}

int do_policy(int argc, char **argv)
{
	return call("policy", argc, argv);
}

int do_stats(int argc, char **argv)
{
	return call("stats", argc, argv);
}
