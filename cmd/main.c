// SPDX-License-Identifier: GPL-2.0
/* hwxdp: the command. `hwxdp [OPTIONS] OBJECT COMMAND ...`, as bpftool. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>
#include <openssl/crypto.h>
#include <z3.h>

#include "cmd/daemon.h"
#include "cmd/main.h"
#include "device/pcap.h"

bool json_output;
bool pretty_output;
const char *bin_name = "hwxdp";

int cmd_read_secret_hex(const char *path, char *hex, size_t len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	size_t n = 0;
	int c;

	if (!f)
		return cmd_error("%s: %s", path, strerror(errno));
	while ((c = fgetc(f)) != EOF) {
		if (isspace(c))
			continue;
		if (n + 1 >= len) {
			n = 0;
			break;
		}
		hex[n++] = (char)c;
	}
	if (f != stdin)
		fclose(f);
	hex[n] = '\0';
	if (!n)
		return cmd_error("%s: no key in it (hex of the key and the salt), or a longer one "
				 "than any AES key",
				 path);
	return 0;
}

static int do_help(int argc, char **argv);
static int do_version(int argc, char **argv);

static const struct cmd commands[] = {
	{ "conformance", do_conformance, "run a raw BPF program the way conformance suites do" },
	{ "daemon", do_daemon, "what the hwxdpd appliance is doing" },
	{ "flow", do_flow, "the connections hwxdpd's flow maker put on the board" },
	{ "lab", do_lab, "run a program over the built-in lab frames on a target" },
	{ "lif", do_lif, "hwxdpd's logical interfaces: a port's VLANs, with their TAPs" },
	{ "map", do_map, "the maps of hwxdpd's programs: dump, lookup, update, delete" },
	{ "policy", do_policy, "tunnel policies: which packets leave through which ESP tunnel" },
	{ "port", do_port, "wire ports of hwxdpd on live netdevs, with their TAPs" },
	{ "prog", do_prog_any,
	  "load programs onto hwxdpd's ports; what a program costs, its microcode" },
	{ "run", do_run, "run a program on the coprocessor model over pcap captures, offline" },
	{ "sa", do_sa, "ESP tunnel SAs on hwxdpd's board: add (key from a file), list, del" },
	{ "stats", do_stats, "the board's counters in hwxdpd" },
	{ "verify", do_verify, "prove the programs of a BPF object safe, without a kernel" },
	{ "version", do_version, "print the version" },
	{ "help", do_help, "print this help" },
	{ 0 },
};

static int do_help(int argc, char **argv)
{
	const struct cmd *c;

	(void)argc;
	(void)argv;
	fprintf(stderr,
		"Usage: %s [OPTIONS] OBJECT { COMMAND | help }\n"
		"\n"
		"OBJECT:\n",
		bin_name);
	for (c = commands; c->name; c++)
		fprintf(stderr, "  %-12s %s\n", c->name, c->summary);
	fprintf(stderr, "\n"
			"OPTIONS:\n"
			"  -j, --json      JSON output\n"
			"  -p, --pretty    indented JSON output (implies -j)\n"
			"  -h, --help      this help\n"
			"  -V, --version   the version\n"
			"\n"
			"Abbreviations are accepted where unique (hwxdp l = hwxdp lab).\n"
			"See hwxdp(8).\n");
	return 0;
}

/* What this build holds, named as `hwxdp version` and `-j version` say. */
static const char *const features[] = {
	"verifier",  "translator",    "device", "compiled-engine", "esp-aes-gcm", "prove-z3",
	"host-copy", "daemon-client", NULL,
};

static int do_version(int argc, char **argv)
{
	char z3[64];
	unsigned int major, minor, build, rev;

	(void)argc;
	(void)argv;
	Z3_get_version(&major, &minor, &build, &rev);
	snprintf(z3, sizeof(z3), "%u.%u.%u", major, minor, build);
	if (json_output) {
		struct json_writer *w = json_new(stdout, pretty_output);

		json_start_object(w);
		json_string_field(w, "version", HWXDP_VERSION);
		json_name(w, "libraries");
		json_start_object(w);
		json_string_field(w, "libbpf", libbpf_version_string());
		json_string_field(w, "libcrypto", OpenSSL_version(OPENSSL_VERSION));
		json_string_field(w, "libpcap", hwxdp_pcap__version());
		json_string_field(w, "z3", z3);
		json_end_object(w);
		json_name(w, "features");
		json_start_array(w);
		for (int i = 0; features[i]; i++)
			json_string(w, features[i]);
		json_end_array(w);
		json_end_object(w);
		json_destroy(w);
		return 0;
	}
	printf("%s v%s\nusing libbpf %s, %s, %s, z3 %s\nfeatures:", bin_name, HWXDP_VERSION,
	       libbpf_version_string(), OpenSSL_version(OPENSSL_VERSION), hwxdp_pcap__version(),
	       z3);
	for (int i = 0; features[i]; i++)
		printf("%s %s", i ? "," : "", features[i]);
	printf("\n");
	return 0;
}

void cmd_output_option(int opt)
{
	json_output = true;
	pretty_output |= opt == 'p';
}

static int cmd_verror(int code, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (json_output) {
		struct json_writer *w = json_new(stdout, pretty_output);

		json_start_object(w);
		json_string_field(w, "error", msg);
		json_end_object(w);
		json_destroy(w);
	} else {
		fprintf(stderr, "%s: error: %s\n", bin_name, msg);
	}
	return code;
}

int cmd_error(const char *fmt, ...)
{
	va_list ap;
	int code;

	va_start(ap, fmt);
	code = cmd_verror(1, fmt, ap);
	va_end(ap);
	return code;
}

int cmd_error_code(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	code = cmd_verror(code, fmt, ap);
	va_end(ap);
	return code;
}

int cmd_select(const struct cmd *cmds, int argc, char **argv, int (*help)(int, char **))
{
	const struct cmd *c, *match = NULL;
	size_t len;

	if (argc < 1 || !strcmp(argv[0], "help"))
		return help(argc, argv);
	len = strlen(argv[0]);
	for (c = cmds; c->name; c++) {
		if (!strcmp(c->name, argv[0]))
			return c->fn(argc - 1, argv + 1);
		if (!strncmp(c->name, argv[0], len)) {
			if (match)
				return cmd_error("'%s' is ambiguous: %s or %s", argv[0],
						 match->name, c->name);
			match = c;
		}
	}
	if (!match)
		return cmd_error("unknown command '%s' (try '%s help')", argv[0], bin_name);
	return match->fn(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	int opt;

	/* '+': options after OBJECT belong to the command. */
	while ((opt = getopt_long(argc, argv, "+jphV", options, NULL)) >= 0) {
		switch (opt) {
		case 'j':
		case 'p':
			cmd_output_option(opt);
			break;
		case 'h':
			return do_help(0, NULL);
		case 'V':
			return do_version(0, NULL);
		default:
			do_help(0, NULL);
			return 1;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1) {
		do_help(0, NULL);
		return 1;
	}
	return cmd_select(commands, argc, argv, do_help);
}
