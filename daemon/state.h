/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The daemon's configuration kept for a restart (daemon/state.c,
 * docs/daemon.md "Restart"): written after every change, replayed at
 * start, removed by the clean stop.
 */
#ifndef HWXDP_DAEMON_STATE_H
#define HWXDP_DAEMON_STATE_H

#include <stddef.h>

struct hwxdpd;

/* Writes the file when the configuration changed; takes d->lock. A file
 * that cannot be written is a warning: the daemon goes on. */
void state_save(struct hwxdpd *d);
/* Replays the file, if there is one, with d->restoring set: TAPs and pins
 * left by the killed daemon are taken back. Each command's outcome on
 * stderr; 0, or -errno when the file cannot be read. */
int state_restore(struct hwxdpd *d);
void state_remove(struct hwxdpd *d);

/*
 * The SAs with their keys and counts, in a second file (the state file's
 * name and ".sas", mode 0600, removed by the clean stop): the text when it
 * changed since the last write, with d->lock held (NULL: nothing to write),
 * then the write without the lock, which takes the text.
 */
char *state_sas_text(struct hwxdpd *d);
void state_sas_write(struct hwxdpd *d, char *text);

/* One word as the file has it: bytes other than letters, digits and
 * "._/:-+," as %XX. The length it needs; out holds at most cap - 1 of it
 * and a NUL (cap 0: only the length). */
size_t state_word_escape(const char *w, char *out, size_t cap);
/* A line of the file into at most max words, in place, %XX undone: their
 * count, or -1 for a line that is not one (an empty word, %00, a bad
 * escape, a byte that should have been escaped, too many words). */
int state_line_split(char *line, char **words, int max);

#endif /* HWXDP_DAEMON_STATE_H */
