// SPDX-License-Identifier: GPL-2.0
/*
 * The command words of a request, parsed once, here: `hwxdp` sends its
 * command line as it was typed (after the global options), so the grammar,
 * the abbreviations and the error messages are the daemon's alone.
 * Grammar as bpftool's: OBJECT COMMAND ARGS, each word abbreviable where
 * unique.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon/internal.h"

struct word_cmd {
	const char *name;
	int (*fn)(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		  size_t msglen);
};

/* The one entry of cmds that word names or abbreviates uniquely. */
static const struct word_cmd *select_word(const struct word_cmd *cmds, const char *word,
					  const char *what, char *msg, size_t msglen)
{
	const struct word_cmd *match = NULL;
	size_t len = strlen(word);

	for (const struct word_cmd *c = cmds; c->name; c++) {
		if (!strcmp(c->name, word))
			return c;
		if (len && !strncmp(c->name, word, len)) {
			if (match) {
				snprintf(msg, msglen, "'%s' is ambiguous: %s or %s", word,
					 match->name, c->name);
				return NULL;
			}
			match = c;
		}
	}
	if (!match) {
		int n = snprintf(msg, msglen, "unknown %s '%s' (one of:", what, word);

		for (const struct word_cmd *c = cmds; c->name && n > 0 && (size_t)n < msglen; c++)
			n += snprintf(msg + n, msglen - (size_t)n, " %s", c->name);
		if (n > 0 && (size_t)n < msglen)
			snprintf(msg + n, msglen - (size_t)n, ")");
	}
	return match;
}

static int run_words(const struct word_cmd *cmds, const char *what, struct hwxdpd *d, int argc,
		     const char **argv, struct jbuf *b, char *msg, size_t msglen)
{
	const struct word_cmd *c;

	if (argc < 1) {
		snprintf(msg, msglen, "expected a %s", what);
		return -EINVAL;
	}
	c = select_word(cmds, argv[0], what, msg, msglen);
	if (!c)
		return -EINVAL;
	return c->fn(d, argc - 1, argv + 1, b, msg, msglen);
}

static int no_more(int argc, const char **argv, const char *usage, char *msg, size_t msglen)
{
	if (!argc)
		return 0;
	snprintf(msg, msglen, "unexpected '%s' (usage: %s)", argv[0], usage);
	return -EINVAL;
}

static int do_daemon_status(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b,
			    char *msg, size_t msglen)
{
	int ports = 0, progs = 0, err;

	err = no_more(argc, argv, "daemon status", msg, msglen);
	if (err)
		return err;
	pthread_mutex_lock(&d->lock);
	for (int i = 0; i < HWXDPD_PORTS_MAX; i++)
		ports += d->ports[i].used;
	for (int i = 0; i < HWXDPD_PROGS_MAX; i++)
		progs += d->progs[i].used;
	pthread_mutex_unlock(&d->lock);
	jbuf_start_object(b);
	jbuf_uint_field(b, "pid", (uint64_t)getpid());
	jbuf_uint_field(b, "protocol", HWXDP_CTL_VERSION);
	jbuf_string_field(b, "socket", d->socket_path);
	jbuf_string_field(b, "pin_root", d->pin_root);
	jbuf_uint_field(b, "uptime_s", (uint64_t)(time(NULL) - d->started));
	jbuf_uint_field(b, "ports", (uint64_t)ports);
	jbuf_uint_field(b, "programs", (uint64_t)progs);
	jbuf_end_object(b);
	return 0;
}

static const struct word_cmd daemon_cmds[] = {
	{ "status", do_daemon_status },
	{ 0 },
};

static int do_daemon(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		     size_t msglen)
{
	return run_words(daemon_cmds, "daemon command", d, argc, argv, b, msg, msglen);
}

static const struct word_cmd objects[] = {
	{ "daemon", do_daemon },
	{ 0 },
};

int hwxdpd_dispatch(struct hwxdpd *d, int argc, const char **argv, struct jbuf *body, char *msg,
		    size_t msglen)
{
	return run_words(objects, "object", d, argc, argv, body, msg, msglen);
}
