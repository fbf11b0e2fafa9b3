// SPDX-License-Identifier: GPL-2.0
/*
 * hwxdp daemon|port|prog load ...: the client of hwxdpd. The words typed go
 * to the daemon as they are, which parses them; this side prints the reply,
 * as text or (-j, -p) as JSON, and holds the help texts.
 * HWXDP_SOCKET names another socket than the daemon's default.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/daemon.h"
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

static bool wants_help(int argc, char **argv)
{
	return argc < 1 || !strcmp(argv[0], "help") || !strcmp(argv[0], "--help") ||
	       !strcmp(argv[0], "-h");
}

static int daemon_help(void)
{
	fprintf(stderr,
		"Usage: %s daemon status\n"
		"\n"
		"What hwxdpd is doing: its pid, socket, ports and programs.\n"
		"The socket is %s, or $HWXDP_SOCKET. See hwxdpd(8).\n",
		bin_name, HWXDPD_SOCKET_DEFAULT);
	return 0;
}

int do_daemon(int argc, char **argv)
{
	if (wants_help(argc, argv))
		return daemon_help();
	return call("daemon", argc, argv);
}

static int port_help(void)
{
	fprintf(stderr,
		"Usage: %s port { add | list | show | del | help }\n"
		"       %s port add NAME dev NETDEV [mode { auto | af_xdp | af_packet }] [index "
		"N]\n"
		"       %s port list\n"
		"       %s port show NAME\n"
		"       %s port del NAME\n"
		"\n"
		"A wire port takes the frames of a Linux netdev (through AF_XDP, else\n"
		"AF_PACKET) onto the board, and gets a TAP hx<N> for the host, up, with\n"
		"the netdev's MTU and MAC (N: the first free index, or the one given).\n"
		"NAME is the port's name in hwxdp (1 to 31 letters, digits, '-', '_', '.').\n",
		bin_name, bin_name, bin_name, bin_name, bin_name);
	return 0;
}

int do_port(int argc, char **argv)
{
	if (wants_help(argc, argv))
		return port_help();
	return call("port", argc, argv);
}

static const char *const live_verbs[] = { "load",   "show",    "list", "detach",
					  "unload", "replace", NULL };
static const char *const offline_verbs[] = { "stats",  "dump", "translate", "prove",
					     "verify", "run",  "help",	    NULL };

static bool prefix_of(const char *word, const char *const *verbs, int *count)
{
	size_t len = strlen(word);
	bool exact = false;

	*count = 0;
	for (int i = 0; verbs[i]; i++) {
		if (!strncmp(verbs[i], word, len))
			(*count)++;
		exact |= !strcmp(verbs[i], word);
	}
	return exact;
}

static int prog_live_help(void)
{
	fprintf(stderr,
		"Usage: %s prog load FILE.o [name NAME] [port PORT ...]\n"
		"       %s prog { show | list } [NAME]\n"
		"       %s prog detach port PORT\n"
		"       %s prog unload NAME\n"
		"       %s prog replace NAME FILE.o\n"
		"\n"
		"Programs on hwxdpd's ports: `load` verifies and translates FILE.o for the\n"
		"board (a refusal prints the verifier's log and changes nothing), loads it\n"
		"into the kernel as the host copy, pins its maps under\n"
		"/sys/fs/bpf/hwxdp/NAME/ (NAME: the file's name without .bpf.o) and\n"
		"attaches it to the ports named: the microcode to their slots, the host\n"
		"copy to their TAPs. `replace` puts another build of the program in NAME's\n"
		"place on all its ports, its maps (and their contents) kept: verified and\n"
		"translated first, then switched between two frames on the board and\n"
		"atomically through the TAPs' links. The offline commands (stats, dump,\n"
		"translate, prove, verify, run) are in `%s prog help`.\n",
		bin_name, bin_name, bin_name, bin_name, bin_name, bin_name);
	return 0;
}

int do_prog_any(int argc, char **argv)
{
	int live, offline;
	bool exact;

	if (argc >= 1 && !strcmp(argv[0], "help") && argc >= 2 && !strcmp(argv[1], "live"))
		return prog_live_help();
	if (argc < 1)
		return do_prog(argc, argv);
	exact = prefix_of(argv[0], live_verbs, &live);
	/* An abbreviation both sides have ("s", "d") stays with the offline
	 * commands, as it did before the daemon. */
	prefix_of(argv[0], offline_verbs, &offline);
	if (exact || (live == 1 && !offline)) {
		char full[PATH_MAX];
		int file = -1;

		if (argc >= 2 && (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help")))
			return prog_live_help();
		/* The daemon has another working directory (and keeps the path
		 * for a restart): the file goes as an absolute path. */
		if (!strncmp("load", argv[0], strlen(argv[0])))
			file = 1;
		else if (!strncmp("replace", argv[0], strlen(argv[0])))
			file = 2;
		if (file > 0 && file < argc && realpath(argv[file], full))
			argv[file] = full;
		return call("prog", argc, argv);
	}
	return do_prog(argc, argv);
}

static int map_help(void)
{
	fprintf(stderr,
		"Usage: %s map { list | show | dump | lookup | update | delete | help }\n"
		"       %s map list\n"
		"       %s map show MAP\n"
		"       %s map dump MAP [target { host | device }]\n"
		"       %s map lookup MAP key BYTES [target { host | device }]\n"
		"       %s map update MAP key BYTES value BYTES [flags { any | noexist | exist }]\n"
		"       %s map delete MAP key BYTES\n"
		"\n"
		"The maps of the programs hwxdpd has loaded. MAP is PROG/NAME, or NAME when\n"
		"one program has it. BYTES as bpftool takes them: [hex] BYTE ..., each BYTE\n"
		"0 to 255 (0x.. hex, 0.. octal; all hex after `hex`). Reads come from the\n"
		"kernel's map (the host copy's, pinned) unless `target device`; writes go to\n"
		"both the kernel's map and the board's table, or to neither. In a devmap, a\n"
		"wire port's ifindex is the board's value and its TAP's the kernel's.\n",
		bin_name, bin_name, bin_name, bin_name, bin_name, bin_name, bin_name);
	return 0;
}

int do_map(int argc, char **argv)
{
	if (wants_help(argc, argv))
		return map_help();
	return call("map", argc, argv);
}

static int lif_help(void)
{
	fprintf(stderr,
		"Usage: %s lif { add | set | list | del | help }\n"
		"       %s lif add PORT vlan N [mtu M] [state STATE]\n"
		"       %s lif set PORT vlan N [mtu M] [state STATE]\n"
		"       %s lif list [PORT]\n"
		"       %s lif del PORT vlan N\n"
		"       STATE := { enabled | offload-disabled | admin-disabled }\n"
		"\n"
		"Logical interfaces: VLAN 0 is the port itself (its TAP hx<N>); a VLAN LIF\n"
		"1..4094 gets a TAP hx<N>.<vlan>, the host's VLAN interface, with the port's\n"
		"MAC and the LIF's MTU (at most the port's). The board hands a VLAN's punted\n"
		"frames to its TAP untagged and tags what the host sends there. A program\n"
		"with fwd's maps on the port has each LIF in its lifs map: offload-disabled\n"
		"sends the LIF's frames to the host, admin-disabled drops them (and takes\n"
		"the TAP down).\n",
		bin_name, bin_name, bin_name, bin_name, bin_name);
	return 0;
}

int do_lif(int argc, char **argv)
{
	if (wants_help(argc, argv))
		return lif_help();
	return call("lif", argc, argv);
}

int do_flow(int argc, char **argv)
{
	if (wants_help(argc, argv)) {
		fprintf(stderr,
			"Usage: %s flow list\n"
			"\n"
			"The connections the flow maker made on the board, one microflow per\n"
			"direction: what the host routed after a flow-miss punt, with the next\n"
			"hop it chose. Its counters say what it made, aged, flushed (route,\n"
			"neighbour or MTU changes) and left with the host, and why.\n",
			bin_name);
		return 0;
	}
	return call("flow", argc, argv);
}

static int sa_help(void)
{
	fprintf(stderr,
		"Usage: %s sa { add | list | del | help }\n"
		"       %s sa add HANDLE spi SPI src IPV4 dst IPV4 key-file { FILE | - }\n"
		"                 [lifetime-packets N] [lifetime-bytes N] [prog NAME]\n"
		"       %s sa list [prog NAME]\n"
		"       %s sa del HANDLE [prog NAME]\n"
		"\n"
		"ESP tunnel SAs on the board (AES-GCM, RFC 4106) for a program with fwd's\n"
		"sas map. The key is read from FILE, or from standard input with '-', as\n"
		"hex of the AES key (16, 24 or 32 bytes) followed by the 4-byte salt, as\n"
		"ip xfrm takes rfc4106(gcm(aes)); never from the command line, where ps\n"
		"shows it. The board counts each SA's packets and bytes and refuses a\n"
		"frame past a lifetime. del takes the tunnel flows naming the SA off the\n"
		"board first. PROG: the only program with fwd's layout unless named.\n",
		bin_name, bin_name, bin_name, bin_name);
	return 0;
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

	if (wants_help(argc, argv))
		return sa_help();
	if (argc >= 1 && !strncmp("add", argv[0], strlen(argv[0])))
		err = sa_key_words(argc, argv, hex, sizeof(hex));
	if (!err)
		err = call("sa", argc, argv);
	memset(hex, 0, sizeof(hex));
	return err;
}

static int policy_help(void)
{
	fprintf(stderr,
		"Usage: %s policy { add | list | del | help }\n"
		"       %s policy add src PREFIX dst PREFIX tunnel IPV4 IPV4 [prog NAME]\n"
		"       %s policy list [prog NAME]\n"
		"       %s policy del INDEX [prog NAME]\n"
		"\n"
		"Tunnel policies for a program with fwd's sas map: IP packets from src to\n"
		"dst (IPv4 or IPv6 prefixes) leave through the ESP tunnel with these outer\n"
		"IPv4 source and destination, encrypted with the newest SA of that tunnel\n"
		"that can still encrypt (sa add; a rekey is sa add of the new SA, then sa\n"
		"del of the old). The flow maker makes their connections as tunnel flows\n"
		"while ipsec_flows is 1; what the host routes of them meanwhile is encrypted\n"
		"by the host path with the same SA, or held when no SA can: never sent in\n"
		"clear. The first policy that takes a packet wins.\n",
		bin_name, bin_name, bin_name, bin_name);
	return 0;
}

int do_policy(int argc, char **argv)
{
	if (wants_help(argc, argv))
		return policy_help();
	return call("policy", argc, argv);
}

int do_stats(int argc, char **argv)
{
	if (argc >= 1 && (!strcmp(argv[0], "help") || !strcmp(argv[0], "--help"))) {
		fprintf(stderr,
			"Usage: %s stats\n"
			"\n"
			"The board's counters since hwxdpd started: frames, verdicts, punts by\n"
			"reason number, cycles, and the same per port.\n",
			bin_name);
		return 0;
	}
	return call("stats", argc, argv);
}
