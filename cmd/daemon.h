/* SPDX-License-Identifier: GPL-2.0 */
/* The commands that hwxdpd serves (cmd/daemon.c). */
#ifndef HWXDP_CMD_DAEMON_H
#define HWXDP_CMD_DAEMON_H

int do_daemon(int argc, char **argv);
int do_port(int argc, char **argv);
int do_map(int argc, char **argv);
int do_lif(int argc, char **argv);
int do_flow(int argc, char **argv);
int do_sa(int argc, char **argv);
int do_policy(int argc, char **argv);
int do_stats(int argc, char **argv);
/* prog load|show|list|detach|unload go to the daemon, the rest to do_prog. */
int do_prog_any(int argc, char **argv);

#endif /* HWXDP_CMD_DAEMON_H */
