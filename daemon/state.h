/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The daemon's configuration kept for a restart (daemon/state.c,
 * docs/daemon.md "Restart"): written after every change, replayed at
 * start, removed by the clean stop.
 */
#ifndef HWXDP_DAEMON_STATE_H
#define HWXDP_DAEMON_STATE_H

struct hwxdpd;

/* Writes the file when the configuration changed; takes d->lock. A file
 * that cannot be written is a warning: the daemon goes on. */
void state_save(struct hwxdpd *d);
/* Replays the file, if there is one, with d->restoring set: TAPs and pins
 * left by the killed daemon are taken back. Each command's outcome on
 * stderr; 0, or -errno when the file cannot be read. */
int state_restore(struct hwxdpd *d);
void state_remove(struct hwxdpd *d);

#endif /* HWXDP_DAEMON_STATE_H */
