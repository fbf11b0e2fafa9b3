// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon's configuration as the commands that make it, in a file next
 * to the socket: a daemon killed without its clean stop (SIGKILL, a crash)
 * is started again as it was. The pinned maps keep the data (flows, next
 * hops, counters), the persistent TAPs the host's addresses and routes;
 * this file keeps the rest: ports with their indexes, LIFs, programs and
 * where they run. It is written whole after every change (a new file
 * renamed over the old, so a reader sees the old one or the new one) and
 * removed by the clean stop, with everything else the daemon made.
 *
 * One command per line, its words separated by one space; a byte that is
 * not a letter, digit or one of "._/:-+," is written %XX.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "daemon/flows.h"
#include "daemon/fwd.h"
#include "daemon/internal.h"
#include "daemon/policy.h"
#include "daemon/jbuf.h"
#include "daemon/state.h"
#include "daemon/wire.h"
#include "device/esp.h"
#include "device/tables.h"
#include "hwxdp/fwd.h"

#define STATE_HEADER "# hwxdpd state 1: the commands that make this daemon's configuration\n"
#define STATE_WORDS  256
#define SAS_HEADER                                                                                 \
	"# hwxdpd SAs 1: keys and counts for a restart (root only; removed by the clean stop)\n"

struct text {
	char *s;
	size_t len, cap;
	bool failed;
};

static void put(struct text *t, const char *s, size_t n)
{
	if (t->failed)
		return;
	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1024;
		char *grown;

		while (cap < t->len + n + 1)
			cap *= 2;
		grown = realloc(t->s, cap);
		if (!grown) {
			t->failed = true;
			return;
		}
		t->s = grown;
		t->cap = cap;
	}
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
}

static bool plain(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr("._/:-+,", c);
}

size_t state_word_escape(const char *w, char *out, size_t cap)
{
	size_t n = 0;

	for (const unsigned char *c = (const unsigned char *)w; *c; c++) {
		char esc[4];

		if (plain(*c)) {
			if (n + 1 < cap)
				out[n] = (char)*c;
			n++;
			continue;
		}
		snprintf(esc, sizeof(esc), "%%%02X", *c);
		for (int i = 0; i < 3; i++, n++)
			if (n + 1 < cap)
				out[n] = esc[i];
	}
	if (cap)
		out[n < cap ? n : cap - 1] = '\0';
	return n;
}

static void word(struct text *t, const char *w)
{
	size_t n = state_word_escape(w, NULL, 0);
	char *esc = malloc(n + 1);

	if (!esc) {
		t->failed = true;
		return;
	}
	state_word_escape(w, esc, n + 1);
	if (t->len && t->s[t->len - 1] != '\n')
		put(t, " ", 1);
	put(t, esc, n);
	free(esc);
}

static void end_line(struct text *t)
{
	put(t, "\n", 1);
}

static void number(struct text *t, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	word(t, buf);
}

/* The commands, in an order that replays: ports with their LIFs, then the
 * programs on their ports. */
static void describe(struct hwxdpd *d, struct text *t)
{
	put(t, STATE_HEADER, strlen(STATE_HEADER));
	for (int i = 0; i < HWXDPD_PORTS_MAX; i++) {
		struct port *p = &d->ports[i];

		if (!p->used)
			continue;
		word(t, "port"), word(t, "add"), word(t, p->name), word(t, "dev"), word(t, p->dev);
		word(t, "mode"), word(t, wire_mode_name(p->wire)), word(t, "index");
		number(t, p->index);
		end_line(t);
		if (p->lif_state != HWXDP_LIF_ENABLED) {
			word(t, "lif"), word(t, "set"), word(t, p->name), word(t, "vlan"),
				word(t, "0");
			word(t, "state"), word(t, lif_state_name(p->lif_state));
			end_line(t);
		}
		for (int j = 0; j < HWXDPD_VLANS_MAX; j++) {
			struct lif *l = &p->vlans[j];

			if (!l->used)
				continue;
			word(t, "lif"), word(t, "add"), word(t, p->name), word(t, "vlan");
			number(t, l->vlan);
			word(t, "mtu");
			number(t, l->mtu);
			word(t, "state"), word(t, lif_state_name(l->state));
			end_line(t);
		}
	}
	for (int i = 0; i < HWXDPD_PROGS_MAX; i++) {
		struct prog *pr = &d->progs[i];

		if (!pr->used)
			continue;
		word(t, "prog"), word(t, "load"), word(t, pr->path), word(t, "name");
		word(t, pr->name);
		if (pr->bpf_prog[0])
			word(t, "prog"), word(t, pr->bpf_prog);
		for (int j = 0, first = 1; j < HWXDPD_PORTS_MAX; j++)
			if (d->ports[j].used && d->ports[j].prog == i) {
				if (first)
					word(t, "port");
				word(t, d->ports[j].name);
				first = 0;
			}
		end_line(t);
	}
	/* Policies after their programs; SAs are not kept (their keys never
	 * are), so a policy without one holds its packets until sa add. */
	for (int i = 0; i < HWXDPD_PROGS_MAX; i++) {
		struct prog *pr = &d->progs[i];

		for (int j = 0; pr->used && pr->pol && j < HWXDPD_POLICIES_MAX; j++) {
			const struct policy *pol = &pr->pol[j];
			int af = pol->family == HWXDP_FAMILY_IPV4 ? AF_INET : AF_INET6;
			char a[INET6_ADDRSTRLEN], buf[INET6_ADDRSTRLEN + 8];

			if (!pol->used)
				continue;
			word(t, "policy"), word(t, "add"), word(t, "src");
			inet_ntop(af, pol->src, a, sizeof(a));
			snprintf(buf, sizeof(buf), "%s/%u", a, pol->src_len);
			word(t, buf), word(t, "dst");
			inet_ntop(af, pol->dst, a, sizeof(a));
			snprintf(buf, sizeof(buf), "%s/%u", a, pol->dst_len);
			word(t, buf), word(t, "tunnel");
			inet_ntop(AF_INET, &pol->tunnel_src_be, a, sizeof(a));
			word(t, a);
			inet_ntop(AF_INET, &pol->tunnel_dst_be, a, sizeof(a));
			word(t, a), word(t, "prog"), word(t, pr->name);
			end_line(t);
		}
	}
}

/* The SAs, keys and counts with them: sa add lines with the restore-only
 * words packets, bytes and seq. */
static void describe_sas(struct hwxdpd *d, struct text *t)
{
	put(t, SAS_HEADER, strlen(SAS_HEADER));
	for (int i = 0; i < HWXDPD_PROGS_MAX; i++) {
		struct prog *pr = &d->progs[i];
		uint32_t cap = pr->fwd ? bpf_map__max_entries(pr->fwd->sas.map) : 0;

		for (uint32_t h = 0; pr->used && pr->sa && h < cap && h < HWXDP_TABLES_SA_MAX;
		     h++) {
			const struct hwxdp_esp_sa *esp = pr->sa[h];
			char a[INET_ADDRSTRLEN], hexkey[2 * (32 + 4) + 1];

			if (!esp)
				continue;
			word(t, "sa"), word(t, "add");
			number(t, h);
			word(t, "spi");
			number(t, esp->spi);
			inet_ntop(AF_INET, &esp->tunnel_src_be, a, sizeof(a));
			word(t, "src"), word(t, a);
			inet_ntop(AF_INET, &esp->tunnel_dst_be, a, sizeof(a));
			word(t, "dst"), word(t, a);
			for (int k = 0; k < esp->key_len; k++)
				snprintf(hexkey + 2 * k, 3, "%02x", esp->key[k]);
			for (int k = 0; k < 4; k++)
				snprintf(hexkey + 2 * (esp->key_len + k), 3, "%02x", esp->salt[k]);
			word(t, "key"), word(t, hexkey);
			memset(hexkey, 0, sizeof(hexkey));
			word(t, "lifetime-packets");
			number(t, esp->limit_packets);
			word(t, "lifetime-bytes");
			number(t, esp->limit_bytes);
			word(t, "prog"), word(t, pr->name);
			word(t, "packets");
			number(t, esp->seq - esp->seq_skip);
			word(t, "bytes");
			number(t, esp->bytes);
			word(t, "seq");
			number(t, esp->seq);
			end_line(t);
		}
	}
}

/* Frees what a text held, keys included, without leaving them in memory. */
static void text_wipe(struct text *t)
{
	if (t->s)
		memset(t->s, 0, t->cap);
	free(t->s);
	*t = (struct text){ 0 };
}

static int write_file(const char *path, const char *s, size_t len)
{
	char tmp[PATH_MAX + 8];
	size_t done = 0;
	int fd, err = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.new", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	while (!err && done < len) {
		ssize_t n = write(fd, s + done, len - done);

		if (n < 0 && errno != EINTR)
			err = -errno;
		else if (n > 0)
			done += (size_t)n;
	}
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

static void save_sas(struct hwxdpd *d);

void state_save(struct hwxdpd *d)
{
	struct text t = { 0 };
	int err;

	if (!d->state_path[0] || d->restoring)
		return;
	save_sas(d);
	pthread_mutex_lock(&d->lock);
	describe(d, &t);
	pthread_mutex_unlock(&d->lock);
	if (t.failed) {
		fprintf(stderr, "hwxdpd: warning: cannot write %s: %s\n", d->state_path,
			strerror(ENOMEM));
		free(t.s);
		return;
	}
	if (d->state_text && !strcmp(d->state_text, t.s)) {
		free(t.s);
		return;
	}
	err = write_file(d->state_path, t.s, t.len);
	if (err) {
		fprintf(stderr, "hwxdpd: warning: cannot write %s: %s\n", d->state_path,
			strerror(-err));
		free(t.s);
		return;
	}
	free(d->state_text);
	d->state_text = t.s;
}

static void save_sas(struct hwxdpd *d)
{
	char *text;

	pthread_mutex_lock(&d->lock);
	text = state_sas_text(d);
	pthread_mutex_unlock(&d->lock);
	state_sas_write(d, text);
}

static void sas_path(const struct hwxdpd *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s.sas", d->state_path);
}

char *state_sas_text(struct hwxdpd *d)
{
	struct text t = { 0 };

	if (!d->state_path[0] || d->restoring)
		return NULL;
	describe_sas(d, &t);
	if (t.failed) {
		text_wipe(&t);
		return NULL;
	}
	if (d->sas_text && !strcmp(d->sas_text, t.s)) {
		text_wipe(&t);
		return NULL;
	}
	return t.s;
}

void state_sas_write(struct hwxdpd *d, char *text)
{
	char path[PATH_MAX + 8];
	int err;

	if (!text)
		return;
	sas_path(d, path, sizeof(path));
	pthread_mutex_lock(&d->sas_lock);
	err = write_file(path, text, strlen(text));
	if (err) {
		fprintf(stderr, "hwxdpd: warning: cannot write %s: %s\n", path, strerror(-err));
		memset(text, 0, strlen(text));
		free(text);
	} else {
		if (d->sas_text) {
			memset(d->sas_text, 0, strlen(d->sas_text));
			free(d->sas_text);
		}
		d->sas_text = text;
	}
	pthread_mutex_unlock(&d->sas_lock);
}

void state_remove(struct hwxdpd *d)
{
	char path[PATH_MAX + 8];

	if (d->state_path[0]) {
		sas_path(d, path, sizeof(path));
		unlink(path);
	}
	if (d->sas_text) {
		memset(d->sas_text, 0, strlen(d->sas_text));
		free(d->sas_text);
		d->sas_text = NULL;
	}
	if (d->state_path[0])
		unlink(d->state_path);
	free(d->state_text);
	d->state_text = NULL;
}

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int state_line_split(char *line, char **words, int max)
{
	int n = 0;

	for (char *r = line, *w = line; *r;) {
		if (n == max || *r == ' ')
			return -1; /* too many, or an empty word */
		words[n++] = w;
		while (*r && *r != ' ') {
			if (*r == '%') {
				int hi = hex(r[1]), lo = hi < 0 ? -1 : hex(r[2]);

				if (lo < 0 || (hi == 0 && lo == 0))
					return -1;
				*w++ = (char)(hi * 16 + lo);
				r += 3;
			} else if (plain((unsigned char)*r)) {
				*w++ = *r++;
			} else {
				return -1;
			}
		}
		if (*r == ' ') {
			r++;
			if (!*r)
				return -1;
		}
		*w++ = '\0';
	}
	return n;
}

/* Replays one file's commands; how many were and were not. */
static int replay(struct hwxdpd *d, const char *path, bool secret, int *done, int *failed)
{
	char *words[STATE_WORDS], *line = NULL, msg[1024];
	int lineno = 0;
	size_t cap = 0;
	struct jbuf body;
	ssize_t len;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	jbuf_init(&body);
	while ((len = getline(&line, &cap, f)) >= 0) {
		int n, err;

		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		n = memchr(line, '\0', (size_t)len) ? -1
						    : state_line_split(line, words, STATE_WORDS);
		if (n < 1) {
			fprintf(stderr, "hwxdpd: %s:%d: not a command, skipped\n", path, lineno);
			(*failed)++;
			continue;
		}
		msg[0] = '\0';
		jbuf_reset(&body);
		err = hwxdpd_dispatch(d, n, (const char **)words, &body, msg, sizeof(msg));
		if (err) {
			fprintf(stderr, "hwxdpd: %s:%d: not restored: %s\n", path, lineno,
				msg[0] ? msg : strerror(-err));
			(*failed)++;
		} else {
			fprintf(stderr, "hwxdpd: restored: %s\n", msg);
			(*done)++;
		}
	}
	if (secret && line)
		memset(line, 0, cap);
	free(line);
	fclose(f);
	jbuf_fini(&body);
	return 0;
}

int state_restore(struct hwxdpd *d)
{
	char path[PATH_MAX + 8];
	int done = 0, failed = 0, err;

	if (!d->state_path[0])
		return 0;
	d->restoring = true;
	err = replay(d, d->state_path, false, &done, &failed);
	/* The SAs after the programs they belong to. */
	sas_path(d, path, sizeof(path));
	if (!err)
		err = replay(d, path, true, &done, &failed);
	d->restoring = false;
	if (err)
		return err;
	fprintf(stderr, "hwxdpd: %d command%s of %s restored, %d not\n", done, done == 1 ? "" : "s",
		d->state_path, failed);
	/* What runs now is what a next restart restores. */
	state_save(d);
	return 0;
}
