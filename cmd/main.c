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
#include "cmd/grammar.h"
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

	if (f == stdin && cmd_stdin_claim("the key file"))
		return 1;
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

/*
 * hwxdp help [--bash-completion | --man TEMPLATE | --verbs | --dispatch]:
 * the objects; the completion script, the man page or the grammar itself.
 */
int do_help(int argc, char **argv)
{
	const struct cmd_object *self = cmd_object_find("help");
	struct option options[12];
	char shorts[16];
	FILE *template;
	int opt, rc;

	if (argc < 1)
		return cmd_help_main(stderr);
	if (cmd_getopt_table(self->options, options, 12, shorts, sizeof(shorts)))
		return cmd_error("help: too many options");
	optind = 0;
	while ((opt = getopt_long(argc + 1, argv - 1, "", options, NULL)) >= 0) {
		switch (opt) {
		case 'b':
			cmd_print_bash_completion(stdout);
			return 0;
		case 'm':
			template = strcmp(optarg, "-") ? fopen(optarg, "re") : stdin;
			if (!template)
				return cmd_error("--man %s: %s", optarg, strerror(errno));
			rc = cmd_print_man(stdout, template, optarg);
			if (template != stdin)
				fclose(template);
			return rc;
		case 'd':
			cmd_print_dispatch(stdout);
			return 0;
		case 'v':
			cmd_print_grammar(stdout);
			return 0;
		case 'h':
			return cmd_help_object(stderr, self, false);
		case 'j':
		case 'p':
			cmd_output_option(opt);
			break;
		default:
			cmd_help_object(stderr, self, false);
			return HWXDP_EXIT_USAGE;
		}
	}
	if (optind < argc + 1)
		return cmd_error_code(HWXDP_EXIT_USAGE, "help: unexpected argument '%s'",
				      argv[optind - 1]);
	return cmd_help_main(stderr);
}

/* What this build holds, named as `hwxdp version` and `-j version` say. */
static const char *const features[] = {
	"verifier",  "translator",    "device", "compiled-engine", "esp-aes-gcm", "prove-z3",
	"host-copy", "daemon-client", NULL,
};

int do_version(int argc, char **argv)
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

static bool is_help_word(const char *w)
{
	return !strcmp(w, "help") || !strcmp(w, "--help") || !strcmp(w, "-h");
}

/*
 * hwxdp OBJECT ...: the object argv[0] names or uniquely abbreviates. Its
 * help, and a verb's (OBJECT VERB help), come from the grammar; the rest
 * is the object's own.
 */
static int cmd_dispatch(int argc, char **argv)
{
	const struct cmd_object *o, *match = NULL;
	const struct cmd_verb *v;
	size_t len = strlen(argv[0]);

	for (o = cmd_objects; o->name; o++) {
		if (!strcmp(o->name, argv[0])) {
			match = o;
			break;
		}
		if (len && !strncmp(o->name, argv[0], len)) {
			if (match)
				return cmd_error("'%s' is ambiguous: %s or %s", argv[0],
						 match->name, o->name);
			match = o;
		}
	}
	if (!match)
		return cmd_error("unknown command '%s' (try '%s help')", argv[0], bin_name);
	o = match;
	argc--;
	argv++;
	if (o->verbs && (argc < 1 || is_help_word(argv[0])))
		return cmd_help_object(stderr, o,
				       argc >= 2 && !strcmp(o->name, "prog") &&
					       !strcmp(argv[1], "live"));
	if (!o->verbs && argc >= 1 && is_help_word(argv[0]))
		return cmd_help_object(stderr, o, false);
	if (o->verbs && argc >= 2 && is_help_word(argv[1])) {
		v = cmd_verb_find(o, argv[0]);
		if (v)
			return cmd_help_verb(stderr, o, v);
	}
	return o->fn(argc, argv);
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
			return cmd_help_main(stderr);
		case 'V':
			return do_version(0, NULL);
		default:
			cmd_help_main(stderr);
			return 1;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1) {
		cmd_help_main(stderr);
		return 1;
	}
	return cmd_dispatch(argc, argv);
}
