// SPDX-License-Identifier: GPL-2.0
/* hwxdpd: the appliance. hwxdpd(8) and docs/daemon.md describe it. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "base/log.h"
#include "device/device.h"

static struct hwxdpd *daemon_g;

static void on_signal(int sig)
{
	(void)sig;
	if (daemon_g)
		hwxdpd__stop(daemon_g);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hwxdpd [--socket PATH] [--engines K] [--pin-root DIR] [--flow-idle SEC]\n"
		"              [--state FILE] [--no-restore] [--background]\n"
		"\n"
		"The hwxdp appliance: wire ports on Linux netdevs, a TAP per port for the\n"
		"host, programs on the coprocessor model and in the kernel, controlled by\n"
		"`hwxdp` over a Unix socket. Runs in the foreground unless told otherwise.\n"
		"\n"
		"  --socket PATH     the control socket (default %s)\n"
		"  --engines K       packet engines of the board (default %d, at most %d)\n"
		"  --pin-root DIR    where maps are pinned (default %s)\n"
		"  --flow-idle SEC   a made flow without frames this long goes (default 30)\n"
		"  --state FILE      the configuration kept for a restart (default hwxdpd.state\n"
		"                    next to the socket)\n"
		"  --no-restore      start empty, though a killed daemon left a state file\n"
		"  --background      detach once the socket is ready\n"
		"  -h, --help        this help\n"
		"\n"
		"See hwxdpd(8).\n",
		HWXDPD_SOCKET_DEFAULT, HWXDP_DEVICE_ENGINES_DEFAULT, HWXDP_DEVICE_ENGINES_MAX,
		HWXDPD_PIN_ROOT);
}

/* The parent waits for the child's word that the socket is ready (or its
 * error) so that a caller of `hwxdpd --background` can connect at once. */
static int background(int *ready_fd)
{
	int pipefd[2];
	pid_t pid;
	char c;

	if (pipe(pipefd))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid > 0) {
		close(pipefd[1]);
		if (read(pipefd[0], &c, 1) == 1 && c == 'r')
			_exit(0);
		waitpid(pid, NULL, 0);
		_exit(1);
	}
	close(pipefd[0]);
	setsid();
	*ready_fd = pipefd[1];
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "engines", required_argument, NULL, 'k' },
		{ "flow-idle", required_argument, NULL, 'i' },
		{ "pin-root", required_argument, NULL, 'r' },
		{ "state", required_argument, NULL, 't' },
		{ "no-restore", no_argument, NULL, 'n' },
		{ "background", no_argument, NULL, 'b' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct hwxdpd_opts opts = { .sz = sizeof(opts) };
	struct sigaction sa = { .sa_handler = on_signal };
	bool detach = false;
	int opt, err, ready_fd = -1;
	char msg[1024];

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) >= 0) {
		switch (opt) {
		case 's':
			opts.socket_path = optarg;
			break;
		case 'r':
			opts.pin_root = optarg;
			break;
		case 't':
			opts.state_path = optarg;
			break;
		case 'n':
			opts.no_restore = 1;
			break;
		case 'k': {
			char *end;
			unsigned long v;

			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (!*optarg || *end || errno || !v || v > HWXDP_DEVICE_ENGINES_MAX) {
				fprintf(stderr, "hwxdpd: error: --engines %s: 1 to %d\n", optarg,
					HWXDP_DEVICE_ENGINES_MAX);
				return 1;
			}
			opts.engines = (uint32_t)v;
			break;
		}
		case 'i': {
			char *end;
			unsigned long v;

			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (!*optarg || *end || errno || !v || v > 86400) {
				fprintf(stderr,
					"hwxdpd: error: --flow-idle %s: 1 to 86400 seconds\n",
					optarg);
				return 1;
			}
			opts.flow_idle_ms = (uint32_t)v * 1000;
			break;
		}
		case 'b':
			detach = true;
			break;
		case 'f':
			detach = false;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "hwxdpd: error: unexpected argument '%s'\n", argv[optind]);
		return 1;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "hwxdpd: error: must run as root (netdevs, TAPs and kernel "
				"programs need CAP_NET_ADMIN and CAP_BPF)\n");
		return 1;
	}
	/* Before any thread exists: the board's engines would not survive a fork. */
	if (detach && (err = background(&ready_fd))) {
		fprintf(stderr, "hwxdpd: error: cannot detach: %s\n", strerror(-err));
		return 1;
	}
	/* libbpf's warnings go through hwxdp's print. */
	hwxdp_route_libbpf_print();
	signal(SIGPIPE, SIG_IGN);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	daemon_g = hwxdpd__new(&opts, msg, sizeof(msg));
	if (!daemon_g) {
		fprintf(stderr, "hwxdpd: error: %s\n", msg);
		return 1;
	}
	fprintf(stderr, "hwxdpd: listening on %s\n",
		opts.socket_path ? opts.socket_path : HWXDPD_SOCKET_DEFAULT);
	if (ready_fd >= 0) {
		ssize_t n = write(ready_fd, "r", 1);

		(void)n;
		close(ready_fd);
	}
	err = hwxdpd__run(daemon_g);
	if (err)
		fprintf(stderr, "hwxdpd: error: the control loop failed: %s\n", strerror(-err));
	hwxdpd__free(daemon_g);
	daemon_g = NULL;
	/* hwxdpd__free unloads every program, which unpins its maps. */
	fprintf(stderr,
		"hwxdpd: stopped: ports, TAPs and links removed; every map unpinned, nothing "
		"left pinned under %s\n",
		opts.pin_root ? opts.pin_root : HWXDPD_PIN_ROOT);
	return err ? 1 : 0;
}
