// SPDX-License-Identifier: GPL-2.0
/*
 * The command words of a request, parsed once, here: `hwxdp` sends its
 * command line as it was typed (after the global options), so the grammar,
 * the abbreviations and the error messages are the daemon's alone.
 * Grammar as bpftool's: OBJECT COMMAND ARGS, each word abbreviable where
 * unique.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon/flows.h"
#include "daemon/internal.h"
#include "daemon/policy.h"
#include "daemon/map.h"
#include "daemon/sa.h"
#include "device/device.h"
#include "hwxdp/fwd.h"

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

/* A number in base (0: decimal, 0x hex, 0 octal), at most max; no sign. */
static bool number_u64(const char *w, int base, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(w, &end, base);
	if (!*w || *w == '-' || *end || errno || v > max)
		return false;
	*out = v;
	return true;
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

static int do_port_add(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		       size_t msglen)
{
	static const char usage[] =
		"port add NAME dev NETDEV [mode auto|af_xdp|af_packet] [index N]";
	const char *dev = NULL, *mode = NULL;
	int err, index = -1;
	struct port *p;

	if (argc < 1) {
		snprintf(msg, msglen, "expected a port name (usage: %s)", usage);
		return -EINVAL;
	}
	for (int i = 1; i < argc; i += 2) {
		if (i + 1 >= argc) {
			snprintf(msg, msglen, "'%s' needs a value (usage: %s)", argv[i], usage);
			return -EINVAL;
		}
		if (!strcmp(argv[i], "dev"))
			dev = argv[i + 1];
		else if (!strcmp(argv[i], "mode"))
			mode = argv[i + 1];
		else if (!strcmp(argv[i], "index")) {
			uint64_t v;

			if (!number_u64(argv[i + 1], 10, HWXDPD_PORTS_MAX - 1, &v)) {
				snprintf(msg, msglen, "index '%s': a number from 0 to %d expected",
					 argv[i + 1], HWXDPD_PORTS_MAX - 1);
				return -EINVAL;
			}
			index = (int)v;
		} else {
			snprintf(msg, msglen, "unexpected '%s' (usage: %s)", argv[i], usage);
			return -EINVAL;
		}
	}
	if (!dev) {
		snprintf(msg, msglen, "expected dev NETDEV (usage: %s)", usage);
		return -EINVAL;
	}
	pthread_mutex_lock(&d->lock);
	err = port_add(d, argv[0], dev, mode, index, msg, msglen);
	p = err ? NULL : port_by_name(d, argv[0]);
	if (p)
		port_json(d, p, b);
	pthread_mutex_unlock(&d->lock);
	return err;
}

static int do_port_list(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
			size_t msglen)
{
	int err = no_more(argc, argv, "port list", msg, msglen);

	if (err)
		return err;
	pthread_mutex_lock(&d->lock);
	jbuf_start_object(b);
	jbuf_name(b, "ports");
	jbuf_start_array(b);
	for (int i = 0; i < HWXDPD_PORTS_MAX; i++)
		if (d->ports[i].used)
			port_json(d, &d->ports[i], b);
	jbuf_end_array(b);
	jbuf_end_object(b);
	pthread_mutex_unlock(&d->lock);
	return 0;
}

/* The port argv[0] names, with the lock held on success. */
static struct port *named_port(struct hwxdpd *d, int argc, const char **argv, const char *usage,
			       char *msg, size_t msglen)
{
	struct port *p;

	if (argc != 1) {
		snprintf(msg, msglen, argc ? "unexpected '%s' (usage: %s)" : "%s(usage: %s)",
			 argc ? argv[1] : "expected a port name ", usage);
		return NULL;
	}
	pthread_mutex_lock(&d->lock);
	p = port_by_name(d, argv[0]);
	if (!p) {
		pthread_mutex_unlock(&d->lock);
		snprintf(msg, msglen, "no port '%s'", argv[0]);
	}
	return p;
}

static int do_port_show(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
			size_t msglen)
{
	struct port *p = named_port(d, argc, argv, "port show NAME", msg, msglen);

	if (!p)
		return argc == 1 ? -ENOENT : -EINVAL;
	port_json(d, p, b);
	pthread_mutex_unlock(&d->lock);
	return 0;
}

static int do_port_del(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		       size_t msglen)
{
	struct port *p = named_port(d, argc, argv, "port del NAME", msg, msglen);
	int err;

	(void)b;
	if (!p)
		return argc == 1 ? -ENOENT : -EINVAL;
	err = port_del(d, p, msg, msglen);
	pthread_mutex_unlock(&d->lock);
	return err;
}

static const struct word_cmd port_cmds[] = {
	{ "add", do_port_add },
	{ "list", do_port_list },
	{ "show", do_port_show },
	{ "del", do_port_del },
	{ 0 },
};

static int do_port(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		   size_t msglen)
{
	return run_words(port_cmds, "port command", d, argc, argv, b, msg, msglen);
}

static bool keyword(const char *w)
{
	return !strcmp(w, "port") || !strcmp(w, "name") || !strcmp(w, "prog");
}

static int do_prog_load(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
			size_t msglen)
{
	static const char usage[] = "prog load FILE.o [prog PROG] [name NAME] [port PORT ...]";
	const char *ports[HWXDPD_PORTS_MAX], *name = NULL, *bpf_prog = NULL;
	int port_cnt = 0;

	if (argc < 1) {
		snprintf(msg, msglen, "expected a BPF object (usage: %s)", usage);
		return -EINVAL;
	}
	for (int i = 1; i < argc;) {
		if (!strcmp(argv[i], "name") && i + 1 < argc) {
			name = argv[i + 1];
			i += 2;
		} else if (!strcmp(argv[i], "prog") && i + 1 < argc) {
			bpf_prog = argv[i + 1];
			i += 2;
		} else if (!strcmp(argv[i], "port") && i + 1 < argc && !keyword(argv[i + 1])) {
			for (i++; i < argc && !keyword(argv[i]); i++) {
				for (int j = 0; j < port_cnt; j++)
					if (!strcmp(ports[j], argv[i])) {
						snprintf(msg, msglen, "port %s is named twice",
							 argv[i]);
						return -EINVAL;
					}
				if (port_cnt == HWXDPD_PORTS_MAX) {
					snprintf(msg, msglen, "at most %d ports", HWXDPD_PORTS_MAX);
					return -E2BIG;
				}
				ports[port_cnt++] = argv[i];
			}
		} else {
			snprintf(msg, msglen, "unexpected '%s' (usage: %s)", argv[i], usage);
			return -EINVAL;
		}
	}
	return prog_load(d, argv[0], name, bpf_prog, ports, port_cnt, b, msg, msglen);
}

static int do_prog_list(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
			size_t msglen)
{
	struct prog *pr = NULL;

	if (argc > 1) {
		snprintf(msg, msglen, "unexpected '%s' (usage: prog show [NAME])", argv[1]);
		return -EINVAL;
	}
	pthread_mutex_lock(&d->lock);
	if (argc == 1) {
		pr = prog_by_name(d, argv[0]);
		if (!pr) {
			pthread_mutex_unlock(&d->lock);
			snprintf(msg, msglen, "no program '%s' is loaded", argv[0]);
			return -ENOENT;
		}
		prog_json(d, pr, b);
		pthread_mutex_unlock(&d->lock);
		return 0;
	}
	jbuf_start_object(b);
	jbuf_name(b, "programs");
	jbuf_start_array(b);
	for (int i = 0; i < HWXDPD_PROGS_MAX; i++)
		if (d->progs[i].used)
			prog_json(d, &d->progs[i], b);
	jbuf_end_array(b);
	jbuf_end_object(b);
	pthread_mutex_unlock(&d->lock);
	return 0;
}

static int do_prog_detach(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
			  size_t msglen)
{
	struct port *p;
	int err;

	(void)b;
	if (argc != 2 || strcmp(argv[0], "port")) {
		snprintf(msg, msglen, "usage: prog detach port PORT");
		return -EINVAL;
	}
	p = named_port(d, 1, argv + 1, "prog detach port PORT", msg, msglen);
	if (!p)
		return -ENOENT;
	err = prog_detach(d, p, msg, msglen);
	pthread_mutex_unlock(&d->lock);
	return err;
}

static int do_prog_unload(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
			  size_t msglen)
{
	struct prog *pr;
	int err;

	(void)b;
	if (argc != 1) {
		snprintf(msg, msglen, "usage: prog unload NAME");
		return -EINVAL;
	}
	pthread_mutex_lock(&d->lock);
	pr = prog_by_name(d, argv[0]);
	if (!pr) {
		pthread_mutex_unlock(&d->lock);
		snprintf(msg, msglen, "no program '%s' is loaded", argv[0]);
		return -ENOENT;
	}
	err = prog_unload(d, pr, msg, msglen);
	pthread_mutex_unlock(&d->lock);
	return err;
}

static int do_prog_replace(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
			   size_t msglen)
{
	if (argc < 2 || (argc > 2 && (strcmp(argv[2], "fresh") || argc == 3))) {
		snprintf(msg, msglen, "usage: prog replace NAME FILE.o [fresh MAP ...]");
		return -EINVAL;
	}
	return prog_replace(d, argv[0], argv[1], argc > 3 ? argv + 3 : NULL,
			    argc > 3 ? argc - 3 : 0, b, msg, msglen);
}

static const struct word_cmd prog_cmds[] = {
	{ "load", do_prog_load },
	{ "show", do_prog_list },
	{ "list", do_prog_list },
	{ "detach", do_prog_detach },
	{ "unload", do_prog_unload },
	{ "replace", do_prog_replace },
	{ 0 },
};

static int do_prog(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		   size_t msglen)
{
	return run_words(prog_cmds, "prog command", d, argc, argv, b, msg, msglen);
}

static int do_map_list(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		       size_t msglen)
{
	int err = no_more(argc, argv, "map list", msg, msglen);

	if (err)
		return err;
	pthread_mutex_lock(&d->lock);
	err = map_list(d, b);
	pthread_mutex_unlock(&d->lock);
	return err;
}

typedef int (*map_fn)(struct hwxdpd *d, const char *spec, int argc, const char **argv,
		      struct jbuf *b, char *msg, size_t msglen);

static int map_call(map_fn fn, const char *usage, struct hwxdpd *d, int argc, const char **argv,
		    struct jbuf *b, char *msg, size_t msglen)
{
	int err;

	if (argc < 1) {
		snprintf(msg, msglen, "expected a map (usage: %s)", usage);
		return -EINVAL;
	}
	pthread_mutex_lock(&d->lock);
	err = fn(d, argv[0], argc - 1, argv + 1, b, msg, msglen);
	pthread_mutex_unlock(&d->lock);
	return err;
}

static int show_fn(struct hwxdpd *d, const char *spec, int argc, const char **argv, struct jbuf *b,
		   char *msg, size_t msglen)
{
	int err = no_more(argc, argv, "map show MAP", msg, msglen);

	return err ? err : map_show(d, spec, b, msg, msglen);
}

static int do_map_show(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		       size_t msglen)
{
	return map_call(show_fn, "map show [PROG/]MAP", d, argc, argv, b, msg, msglen);
}

static int do_map_dump(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		       size_t msglen)
{
	return map_call(map_dump, "map dump [PROG/]MAP [target host|device]", d, argc, argv, b, msg,
			msglen);
}

static int do_map_lookup(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
			 size_t msglen)
{
	return map_call(map_lookup, "map lookup MAP key BYTES", d, argc, argv, b, msg, msglen);
}

static int do_map_update(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
			 size_t msglen)
{
	return map_call(map_update, "map update MAP key BYTES value BYTES", d, argc, argv, b, msg,
			msglen);
}

static int do_map_delete(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
			 size_t msglen)
{
	return map_call(map_delete, "map delete MAP key BYTES", d, argc, argv, b, msg, msglen);
}

static const struct word_cmd map_cmds[] = {
	{ "list", do_map_list },
	{ "show", do_map_show },
	{ "dump", do_map_dump },
	{ "lookup", do_map_lookup },
	{ "update", do_map_update },
	{ "delete", do_map_delete },
	{ 0 },
};

static int do_map(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		  size_t msglen)
{
	return run_words(map_cmds, "map command", d, argc, argv, b, msg, msglen);
}

static void counts_json(struct jbuf *b, const uint64_t *verdicts, uint64_t no_program,
			const uint64_t *punts)
{
	static const char *const names[HWXDP_DEVICE_VERDICTS] = { "aborted", "drop",	 "pass",
								  "tx",	     "redirect", "other" };

	jbuf_name(b, "verdicts");
	jbuf_start_object(b);
	for (int i = 0; i < HWXDP_DEVICE_VERDICTS; i++)
		jbuf_uint_field(b, names[i], verdicts[i]);
	jbuf_end_object(b);
	jbuf_uint_field(b, "no_program", no_program);
	/* By reason number: the reasons' names are the program's own. */
	jbuf_name(b, "punts");
	jbuf_start_object(b);
	for (int i = 0; i < HWXDP_DEVICE_REASONS; i++) {
		char num[8];

		if (!punts[i])
			continue;
		snprintf(num, sizeof(num), "%d", i);
		jbuf_uint_field(b, num, punts[i]);
	}
	jbuf_end_object(b);
}

static int do_stats(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		    size_t msglen)
{
	struct hwxdp_device_stats *st;
	int err = no_more(argc, argv, "stats", msg, msglen);

	if (err)
		return err;
	st = malloc(sizeof(*st));
	if (!st)
		return -ENOMEM;
	hwxdp_device__stats(d->board, st);
	jbuf_start_object(b);
	jbuf_uint_field(b, "engines", st->engines);
	jbuf_uint_field(b, "programs", st->progs);
	jbuf_uint_field(b, "frames", st->frames);
	jbuf_uint_field(b, "bytes", st->bytes);
	counts_json(b, st->verdicts, st->no_program, st->punts);
	jbuf_uint_field(b, "invalid", st->invalid);
	jbuf_uint_field(b, "redirect_nowhere", st->redirect_nowhere);
	jbuf_uint_field(b, "cycles", st->cycles);
	jbuf_name(b, "ports");
	jbuf_start_array(b);
	pthread_mutex_lock(&d->lock);
	for (uint32_t i = 0; i < st->port_cnt; i++) {
		const struct hwxdp_device_port_stats *p = &st->port[i];
		const char *name = NULL;

		for (int j = 0; j < HWXDPD_PORTS_MAX; j++)
			if (d->ports[j].used && d->ports[j].ifindex == p->ifindex)
				name = d->ports[j].name;
		jbuf_start_object(b);
		jbuf_string_field(b, "port", name);
		jbuf_uint_field(b, "ifindex", p->ifindex);
		jbuf_uint_field(b, "frames", p->frames);
		jbuf_uint_field(b, "bytes", p->bytes);
		counts_json(b, p->verdicts, p->no_program, p->punts);
		jbuf_end_object(b);
	}
	pthread_mutex_unlock(&d->lock);
	jbuf_end_array(b);
	jbuf_end_object(b);
	free(st);
	return 0;
}

/* PORT vlan N [mtu M] [state S]: the port with the lock held, or NULL. */
static struct port *lif_args(struct hwxdpd *d, int argc, const char **argv, const char *usage,
			     bool options, uint32_t *vlan, int64_t *mtu, int64_t *state, char *msg,
			     size_t msglen, int *err)
{
	struct port *p;

	*mtu = *state = -1;
	*err = -EINVAL;
	if (argc < 3 || strcmp(argv[1], "vlan")) {
		snprintf(msg, msglen, "usage: %s", usage);
		return NULL;
	}
	for (int i = 2; i < argc; i += 2) {
		const char *w = argv[i];
		unsigned long v;
		char *end;

		if (i + 1 >= argc && i != 2) {
			snprintf(msg, msglen, "'%s' needs a value (usage: %s)", w, usage);
			return NULL;
		}
		if (i == 2) {
			errno = 0;
			v = strtoul(w, &end, 10);
			if (!*w || *end || errno || v > 4095) {
				snprintf(msg, msglen, "vlan '%s': a number from 0 to 4094 expected",
					 w);
				return NULL;
			}
			*vlan = (uint32_t)v;
			i--; /* the options come in pairs after the VLAN */
			continue;
		}
		if (!options) {
			snprintf(msg, msglen, "unexpected '%s' (usage: %s)", w, usage);
			return NULL;
		}
		if (!strcmp(w, "mtu")) {
			errno = 0;
			v = strtoul(argv[i + 1], &end, 10);
			if (!*argv[i + 1] || *end || errno || v > 65535) {
				snprintf(msg, msglen, "mtu '%s': a number of bytes expected",
					 argv[i + 1]);
				return NULL;
			}
			*mtu = (int64_t)v;
		} else if (!strcmp(w, "state")) {
			int st = lif_state_parse(argv[i + 1]);

			if (st < 0) {
				snprintf(msg, msglen,
					 "state '%s': enabled, offload-disabled or admin-disabled "
					 "expected",
					 argv[i + 1]);
				return NULL;
			}
			*state = st;
		} else {
			snprintf(msg, msglen, "unexpected '%s' (usage: %s)", w, usage);
			return NULL;
		}
	}
	p = named_port(d, 1, argv, usage, msg, msglen);
	if (!p)
		*err = -ENOENT;
	return p;
}

typedef int (*lif_change_fn)(struct hwxdpd *d, struct port *p, uint32_t vlan, int64_t mtu,
			     int64_t state, char *msg, size_t msglen);

/* lif add and lif set: the same words, then the change, then the LIF. */
static int lif_change(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		      size_t msglen, const char *usage, lif_change_fn change)
{
	int64_t mtu, state;
	uint32_t vlan = 0;
	struct port *p;
	int err;

	p = lif_args(d, argc, argv, usage, true, &vlan, &mtu, &state, msg, msglen, &err);
	if (!p)
		return err;
	err = change(d, p, vlan, mtu, state, msg, msglen);
	if (!err)
		lif_json(d, p, vlan, b);
	pthread_mutex_unlock(&d->lock);
	return err;
}

static int do_lif_add(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		      size_t msglen)
{
	return lif_change(
		d, argc, argv, b, msg, msglen,
		"lif add PORT vlan N [mtu M] [state enabled|offload-disabled|admin-disabled]",
		lif_add);
}

static int do_lif_set(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		      size_t msglen)
{
	return lif_change(
		d, argc, argv, b, msg, msglen,
		"lif set PORT vlan N [mtu M] [state enabled|offload-disabled|admin-disabled]",
		lif_set);
}

static int do_lif_del(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		      size_t msglen)
{
	int64_t mtu, state;
	uint32_t vlan = 0;
	struct port *p;
	int err;

	(void)b;
	p = lif_args(d, argc, argv, "lif del PORT vlan N", false, &vlan, &mtu, &state, msg, msglen,
		     &err);
	if (!p)
		return err;
	err = lif_del(d, p, vlan, msg, msglen);
	pthread_mutex_unlock(&d->lock);
	return err;
}

static void port_lifs_json(struct hwxdpd *d, struct port *p, struct jbuf *b)
{
	lif_json(d, p, 0, b);
	for (int i = 0; i < HWXDPD_VLANS_MAX; i++)
		if (p->vlans[i].used)
			lif_json(d, p, p->vlans[i].vlan, b);
}

static int do_lif_list(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		       size_t msglen)
{
	struct port *p = NULL;

	if (argc > 1) {
		snprintf(msg, msglen, "unexpected '%s' (usage: lif list [PORT])", argv[1]);
		return -EINVAL;
	}
	pthread_mutex_lock(&d->lock);
	if (argc == 1) {
		p = port_by_name(d, argv[0]);
		if (!p) {
			pthread_mutex_unlock(&d->lock);
			snprintf(msg, msglen, "no port '%s'", argv[0]);
			return -ENOENT;
		}
	}
	jbuf_start_object(b);
	jbuf_name(b, "lifs");
	jbuf_start_array(b);
	for (int i = 0; i < HWXDPD_PORTS_MAX; i++)
		if (d->ports[i].used && (!p || p == &d->ports[i]))
			port_lifs_json(d, &d->ports[i], b);
	jbuf_end_array(b);
	jbuf_end_object(b);
	pthread_mutex_unlock(&d->lock);
	return 0;
}

static const struct word_cmd lif_cmds[] = {
	{ "add", do_lif_add },	 { "set", do_lif_set }, { "list", do_lif_list },
	{ "show", do_lif_list }, { "del", do_lif_del }, { 0 },
};

static int do_lif(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		  size_t msglen)
{
	return run_words(lif_cmds, "lif command", d, argc, argv, b, msg, msglen);
}

static int do_flow_list(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
			size_t msglen)
{
	int err = no_more(argc, argv, "flow list", msg, msglen);

	if (err)
		return err;
	pthread_mutex_lock(&d->lock);
	flows_json(d, b);
	pthread_mutex_unlock(&d->lock);
	return 0;
}

static const struct word_cmd flow_cmds[] = {
	{ "list", do_flow_list },
	{ "show", do_flow_list },
	{ 0 },
};

static int do_flow(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		   size_t msglen)
{
	return run_words(flow_cmds, "flow command", d, argc, argv, b, msg, msglen);
}

/* ---- sa ---- */

/* HEX of key and salt (RFC 4106: the salt is the last 4 bytes). */
static bool key_salt(const char *hex, struct sa_args *a)
{
	size_t n = strlen(hex), bytes;

	if (n > 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
		hex += 2, n -= 2;
	bytes = n / 2;
	if (n % 2 || (bytes != 20 && bytes != 28 && bytes != 36))
		return false;
	for (size_t i = 0; i < bytes; i++) {
		unsigned int v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1 || !isxdigit((unsigned char)hex[2 * i]) ||
		    !isxdigit((unsigned char)hex[2 * i + 1]))
			return false;
		if (i < bytes - 4)
			a->key[i] = (uint8_t)v;
		else
			a->salt[i - (bytes - 4)] = (uint8_t)v;
	}
	a->key_len = bytes - 4;
	return true;
}

/* The program an sa command means: `prog NAME`, or the only one with fwd's
 * layout. */
static struct prog *sa_prog(struct hwxdpd *d, const char *name, char *msg, size_t msglen)
{
	struct prog *found = NULL;
	int n = 0;

	if (name) {
		found = prog_by_name(d, name);
		if (!found)
			snprintf(msg, msglen, "no program '%s' is loaded", name);
		return found;
	}
	for (int i = 0; i < HWXDPD_PROGS_MAX; i++)
		if (d->progs[i].used && d->progs[i].fwd)
			found = &d->progs[i], n++;
	if (n != 1)
		snprintf(msg, msglen, "%s (name one with prog NAME)",
			 n ? "more than one program has SAs"
			   : "no program with fwd's sas map is loaded");
	return n == 1 ? found : NULL;
}

static int do_sa_add(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		     size_t msglen)
{
	static const char usage[] =
		"sa add HANDLE spi SPI src IPV4 dst IPV4 key HEX [lifetime-packets N] "
		"[lifetime-bytes N] [prog NAME]";
	struct sa_args a = { 0 };
	const char *prog_name = NULL;
	bool spi = false, src = false, dst = false, key = false;
	struct prog *pr;
	uint64_t v;
	int err;

	if (argc < 1 || !number_u64(argv[0], 0, UINT32_MAX, &v)) {
		snprintf(msg, msglen, "expected an SA handle (usage: %s)", usage);
		return -EINVAL;
	}
	a.handle = (uint32_t)v;
	for (int i = 1; i < argc; i += 2) {
		const char *w = argv[i], *x = i + 1 < argc ? argv[i + 1] : NULL;
		bool ok = x != NULL;

		if (ok && !strcmp(w, "spi")) {
			ok = number_u64(x, 0, UINT32_MAX, &v) && v;
			a.spi = (uint32_t)v, spi = true;
		} else if (ok && (!strcmp(w, "src") || !strcmp(w, "dst"))) {
			ok = inet_pton(AF_INET, x, w[0] == 's' ? &a.src_be : &a.dst_be) == 1;
			*(w[0] == 's' ? &src : &dst) = true;
		} else if (ok && !strcmp(w, "key")) {
			ok = key_salt(x, &a);
			key = true;
		} else if (ok && !strcmp(w, "lifetime-packets")) {
			ok = number_u64(x, 0, UINT64_MAX, &a.lifetime_packets);
		} else if (ok && !strcmp(w, "lifetime-bytes")) {
			ok = number_u64(x, 0, UINT64_MAX, &a.lifetime_bytes);
		} else if (ok && !strcmp(w, "prog")) {
			prog_name = x;
		} else if (ok && d->restoring &&
			   (!strcmp(w, "packets") || !strcmp(w, "bytes") || !strcmp(w, "seq"))) {
			/* The SA file's counts, at a restart only. */
			ok = number_u64(x, 10, UINT64_MAX,
					w[0] == 'p'   ? &a.packets
					: w[0] == 'b' ? &a.bytes
						      : &a.seq);
			a.restore = true;
		} else {
			snprintf(msg, msglen, "unexpected '%s' (usage: %s)", w, usage);
			memset(&a, 0, sizeof(a));
			return -EINVAL;
		}
		if (!ok) {
			/* Never the key's bytes in a message. */
			snprintf(msg, msglen, "%s '%s': %s", w, strcmp(w, "key") ? x : "...",
				 !strcmp(w, "key") ? "hex of a 16, 24 or 32-byte AES key and a "
						     "4-byte salt expected"
						   : "not valid");
			memset(&a, 0, sizeof(a));
			return -EINVAL;
		}
	}
	if (!spi || !src || !dst || !key) {
		snprintf(msg, msglen, "spi, src, dst and key are needed (usage: %s)", usage);
		memset(&a, 0, sizeof(a));
		return -EINVAL;
	}
	pthread_mutex_lock(&d->lock);
	pr = sa_prog(d, prog_name, msg, msglen);
	err = pr ? sa_add(d, pr, &a, msg, msglen) : -ENOENT;
	if (!err) {
		jbuf_start_object(b);
		jbuf_name(b, "sas");
		jbuf_start_array(b);
		sa_json(d, pr, b);
		jbuf_end_array(b);
		jbuf_end_object(b);
	}
	pthread_mutex_unlock(&d->lock);
	memset(&a, 0, sizeof(a));
	return err;
}

static int do_sa_list(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		      size_t msglen)
{
	struct prog *only = NULL;

	if (argc && (argc != 2 || strcmp(argv[0], "prog"))) {
		snprintf(msg, msglen, "usage: sa list [prog NAME]");
		return -EINVAL;
	}
	pthread_mutex_lock(&d->lock);
	if (argc) {
		only = prog_by_name(d, argv[1]);
		if (!only) {
			pthread_mutex_unlock(&d->lock);
			snprintf(msg, msglen, "no program '%s' is loaded", argv[1]);
			return -ENOENT;
		}
	}
	jbuf_start_object(b);
	jbuf_name(b, "sas");
	jbuf_start_array(b);
	for (int i = 0; i < HWXDPD_PROGS_MAX; i++)
		if (d->progs[i].used && (!only || only == &d->progs[i]))
			sa_json(d, &d->progs[i], b);
	jbuf_end_array(b);
	jbuf_end_object(b);
	pthread_mutex_unlock(&d->lock);
	return 0;
}

static int do_sa_del(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		     size_t msglen)
{
	struct prog *pr;
	uint64_t h;
	int err;

	(void)b;
	if ((argc != 1 && argc != 3) || !number_u64(argv[0], 0, UINT32_MAX, &h) ||
	    (argc == 3 && strcmp(argv[1], "prog"))) {
		snprintf(msg, msglen, "usage: sa del HANDLE [prog NAME]");
		return -EINVAL;
	}
	pthread_mutex_lock(&d->lock);
	pr = sa_prog(d, argc == 3 ? argv[2] : NULL, msg, msglen);
	err = pr ? sa_del(d, pr, (uint32_t)h, msg, msglen) : -ENOENT;
	pthread_mutex_unlock(&d->lock);
	return err;
}

static const struct word_cmd sa_cmds[] = {
	{ "add", do_sa_add },
	{ "list", do_sa_list },
	{ "show", do_sa_list },
	{ "del", do_sa_del },
	{ 0 },
};

static int do_sa(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		 size_t msglen)
{
	return run_words(sa_cmds, "sa command", d, argc, argv, b, msg, msglen);
}

/* ---- policy ---- */

/* ADDR/LEN (or ADDR, a host) of family, as a policy keeps it. */
static bool prefix_parse(const char *w, uint8_t *family, uint8_t *addr, uint8_t *len)
{
	char text[INET6_ADDRSTRLEN + 8];
	const char *slash = strchr(w, '/');
	size_t n = slash ? (size_t)(slash - w) : strlen(w);
	uint64_t v;
	uint8_t fam;

	if (n >= INET6_ADDRSTRLEN)
		return false;
	memcpy(text, w, n);
	text[n] = '\0';
	memset(addr, 0, 16);
	if (inet_pton(AF_INET, text, addr) == 1)
		fam = HWXDP_FAMILY_IPV4;
	else if (inet_pton(AF_INET6, text, addr) == 1)
		fam = HWXDP_FAMILY_IPV6;
	else
		return false;
	v = fam == HWXDP_FAMILY_IPV4 ? 32 : 128;
	if (slash && !number_u64(slash + 1, 10, v, &v))
		return false;
	/* The bits past the prefix are not part of it. */
	for (uint32_t bit = (uint32_t)v; bit < 128; bit++)
		addr[bit / 8] &= (uint8_t) ~(0x80 >> (bit % 8));
	if (*family && *family != fam)
		return false;
	*family = fam;
	*len = (uint8_t)v;
	return true;
}

static int do_policy_add(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
			 size_t msglen)
{
	static const char usage[] = "policy add src PREFIX dst PREFIX tunnel IPV4 IPV4 [prog NAME]";
	struct policy p = { 0 };
	const char *prog_name = NULL;
	bool src = false, dst = false, tunnel = false;
	struct prog *pr;
	int err;

	for (int i = 0; i < argc;) {
		const char *w = argv[i];
		bool ok;

		if ((!strcmp(w, "src") || !strcmp(w, "dst")) && i + 1 < argc) {
			bool s = w[0] == 's';

			ok = prefix_parse(argv[i + 1], &p.family, s ? p.src : p.dst,
					  s ? &p.src_len : &p.dst_len);
			*(s ? &src : &dst) = true;
			if (!ok) {
				snprintf(msg, msglen,
					 "%s '%s': an IPv4 or IPv6 prefix expected, both of one "
					 "family",
					 w, argv[i + 1]);
				return -EINVAL;
			}
			i += 2;
		} else if (!strcmp(w, "tunnel") && i + 2 < argc) {
			if (inet_pton(AF_INET, argv[i + 1], &p.tunnel_src_be) != 1 ||
			    inet_pton(AF_INET, argv[i + 2], &p.tunnel_dst_be) != 1) {
				snprintf(msg, msglen,
					 "tunnel '%s' '%s': the outer IPv4 source and destination "
					 "expected",
					 argv[i + 1], argv[i + 2]);
				return -EINVAL;
			}
			tunnel = true;
			i += 3;
		} else if (!strcmp(w, "prog") && i + 1 < argc) {
			prog_name = argv[i + 1];
			i += 2;
		} else {
			snprintf(msg, msglen, "unexpected '%s' (usage: %s)", w, usage);
			return -EINVAL;
		}
	}
	if (!src || !dst || !tunnel) {
		snprintf(msg, msglen, "src, dst and tunnel are needed (usage: %s)", usage);
		return -EINVAL;
	}
	pthread_mutex_lock(&d->lock);
	pr = sa_prog(d, prog_name, msg, msglen);
	err = pr ? policy_add(d, pr, &p, msg, msglen) : -ENOENT;
	if (!err) {
		jbuf_start_object(b);
		jbuf_name(b, "policies");
		jbuf_start_array(b);
		policy_json(d, pr, b);
		jbuf_end_array(b);
		jbuf_end_object(b);
	}
	pthread_mutex_unlock(&d->lock);
	return err;
}

static int do_policy_list(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
			  size_t msglen)
{
	struct prog *only = NULL;

	if (argc && (argc != 2 || strcmp(argv[0], "prog"))) {
		snprintf(msg, msglen, "usage: policy list [prog NAME]");
		return -EINVAL;
	}
	pthread_mutex_lock(&d->lock);
	if (argc && !(only = prog_by_name(d, argv[1]))) {
		pthread_mutex_unlock(&d->lock);
		snprintf(msg, msglen, "no program '%s' is loaded", argv[1]);
		return -ENOENT;
	}
	jbuf_start_object(b);
	jbuf_name(b, "policies");
	jbuf_start_array(b);
	for (int i = 0; i < HWXDPD_PROGS_MAX; i++)
		if (d->progs[i].used && (!only || only == &d->progs[i]))
			policy_json(d, &d->progs[i], b);
	jbuf_end_array(b);
	jbuf_end_object(b);
	pthread_mutex_unlock(&d->lock);
	return 0;
}

static int do_policy_del(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
			 size_t msglen)
{
	struct prog *pr;
	uint64_t i;
	int err;

	(void)b;
	if ((argc != 1 && argc != 3) || !number_u64(argv[0], 10, UINT32_MAX, &i) ||
	    (argc == 3 && strcmp(argv[1], "prog"))) {
		snprintf(msg, msglen, "usage: policy del INDEX [prog NAME]");
		return -EINVAL;
	}
	pthread_mutex_lock(&d->lock);
	pr = sa_prog(d, argc == 3 ? argv[2] : NULL, msg, msglen);
	err = pr ? policy_del(d, pr, (uint32_t)i, msg, msglen) : -ENOENT;
	pthread_mutex_unlock(&d->lock);
	return err;
}

static const struct word_cmd policy_cmds[] = {
	{ "add", do_policy_add },
	{ "list", do_policy_list },
	{ "show", do_policy_list },
	{ "del", do_policy_del },
	{ 0 },
};

static int do_policy(struct hwxdpd *d, int argc, const char **argv, struct jbuf *b, char *msg,
		     size_t msglen)
{
	return run_words(policy_cmds, "policy command", d, argc, argv, b, msg, msglen);
}

static const struct word_cmd objects[] = {
	{ "map", do_map },	 { "stats", do_stats },
	{ "prog", do_prog },	 { "daemon", do_daemon },
	{ "port", do_port },	 { "lif", do_lif },
	{ "flow", do_flow },	 { "sa", do_sa },
	{ "policy", do_policy }, { 0 },
};

int hwxdpd_dispatch(struct hwxdpd *d, int argc, const char **argv, struct jbuf *body, char *msg,
		    size_t msglen)
{
	return run_words(objects, "object", d, argc, argv, body, msg, msglen);
}
