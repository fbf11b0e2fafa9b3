// SPDX-License-Identifier: GPL-2.0
/* hwxdp verify FILE.o [--prog NAME] [--log-level N] [--target device|host]: prove programs safe. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/grammar.h"
#include "cmd/main.h"
#include "hwxdp/platform.h"
#include "loader/kfuncs.h"
#include "loader/object.h"
#include "verifier/disasm.h"
#include "verifier/verifier.h"

#include <bpf/libbpf.h>

static int verify_help(void)
{
	return cmd_help_object(stderr, cmd_object_find("verify"), false);
}

/* Where a rejection stands: the instruction, its source line, the reason. */
static void explain(const struct hwxdp_prog *prog, const struct hwxdp_verify_result *res)
{
	const struct hwxdp_line *line = hwxdp_prog__line(prog, res->error_insn);
	const char *reason = res->log ? res->log : "";
	const char *last = reason;
	char text[128];
	size_t len;

	/* The log's last line before the statistics is the verdict's reason. */
	for (const char *p = reason; *p; p++)
		if (*p == '\n' && p[1] && strncmp(p + 1, "processed ", 10))
			last = p + 1;
	len = strcspn(last, "\n");
	if (res->error_insn < prog->insn_cnt) {
		hwxdp_disasm_insn(&prog->insns[res->error_insn], prog->insn_cnt - res->error_insn,
				  text, sizeof(text));
		printf("%u: %s\n", res->error_insn, text);
	}
	if (line && line->text)
		printf("; %s @ %s:%u\n", line->text, line->file ? line->file : "?", line->line);
	printf("%.*s\n", (int)len, last);
}

static void report(struct json_writer *w, const char *path, const struct hwxdp_prog *prog,
		   const struct hwxdp_verify_result *res, int log_level)
{
	if (w) {
		json_start_object(w);
		json_string_field(w, "object", path);
		json_string_field(w, "prog", prog->name);
		json_name(w, "accepted");
		json_bool(w, res->accepted);
		json_uint_field(w, "insn_cnt", prog->insn_cnt);
		json_uint_field(w, "insns_processed", res->insns_processed);
		json_uint_field(w, "states_total", res->states_total);
		json_uint_field(w, "states_peak", res->states_peak);
		json_uint_field(w, "verify_ns", res->verify_ns);
		if (!res->accepted)
			json_uint_field(w, "error_insn", res->error_insn);
		json_string_field(w, "log", res->log ? res->log : "");
		json_end_object(w);
		return;
	}
	if (log_level > 0 && res->log && res->log_len)
		fwrite(res->log, 1, res->log_len, stdout);
	if (!res->accepted && !log_level)
		explain(prog, res);
	printf("%s: %s: %s (%zu insns, processed %u, states %u, %.1f ms)\n", path, prog->name,
	       res->accepted ? "accepted" : "rejected", prog->insn_cnt, res->insns_processed,
	       res->states_total, res->verify_ns / 1e6);
}

/* A program of a type whose rules are not the XDP ones: refused, by name. */
static void refuse_type(struct json_writer *w, const char *path, const struct hwxdp_prog *prog)
{
	const char *type = libbpf_bpf_prog_type_str(prog->type);
	char why[256];

	if (prog->type == BPF_PROG_TYPE_UNSPEC)
		snprintf(why, sizeof(why), "section '%s' names no program type", prog->section);
	else
		snprintf(why, sizeof(why), "a %s program (section '%s'): hwxdp verifies XDP only",
			 type ? type : "unknown", prog->section);
	if (w) {
		json_start_object(w);
		json_string_field(w, "object", path);
		json_string_field(w, "prog", prog->name);
		json_string_field(w, "section", prog->section);
		json_string_field(w, "type", type ? type : "unknown");
		json_name(w, "accepted");
		json_bool(w, false);
		json_string_field(w, "error", why);
		json_end_object(w);
		return;
	}
	printf("%s: %s: rejected: %s\n", path, prog->name, why);
}

int do_verify(int argc, char **argv)
{
	struct option options[16];
	char shorts[32];
	struct hwxdp_object_open_opts open_opts = { .sz = sizeof(open_opts) };
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts), .device = true };
	uint32_t target;
	const char *path = NULL, *file, *only = NULL;
	struct json_writer *w = NULL;
	struct hwxdp_object *obj;
	size_t i, matched = 0;
	int opt, err, rejected = 0;
	char *end;

	if (cmd_getopt_table(cmd_object_find("verify")->options, options, 16, shorts,
			     sizeof(shorts)))
		return cmd_error("verify: too many options");
	optind = 0;
	while ((opt = getopt_long(argc + 1, argv - 1, shorts, options, NULL)) >= 0) {
		switch (opt) {
		case 'P':
			only = optarg;
			break;
		case 'l':
			opts.log_level = strtol(optarg, &end, 0);
			if (end == optarg || *end || opts.log_level < 0 || opts.log_level > 2)
				return cmd_error_code(HWXDP_EXIT_USAGE,
						      "--log-level takes 0, 1 or 2, not '%s'",
						      optarg);
			break;
		case 't':
			if (strcmp(optarg, "device") && strcmp(optarg, "host"))
				return cmd_error_code(HWXDP_EXIT_USAGE,
						      "--target takes device or host, not '%s'",
						      optarg);
			opts.device = !strcmp(optarg, "device");
			break;
		case 'u':
			opts.unprivileged = true;
			break;
		case 'b':
			opts.dev_bound = true;
			break;
		case 'j':
		case 'p':
			cmd_output_option(opt);
			break;
		case 'h':
			return verify_help();
		default:
			verify_help();
			return HWXDP_EXIT_USAGE;
		}
	}
	if (optind >= argc + 1)
		return cmd_error_code(HWXDP_EXIT_USAGE,
				      "verify needs a FILE.o (try '%s verify --help')", bin_name);
	path = argv[optind - 1];
	if (optind < argc)
		return cmd_error_code(HWXDP_EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	/* "-": the object on standard input, named "-" in the report */
	if (!strcmp(path, "-")) {
		file = cmd_stdin_path("verify -");
		if (!file)
			return HWXDP_EXIT_USAGE;
	} else {
		file = path;
	}

	/* The host sees the kernel's kfuncs, no device one: those stay
	 * unresolved, as libbpf leaves them. */
	if (!opts.device)
		open_opts.kfuncs = hwxdp_kernel_kfuncs;
	err = hwxdp_object__open_opts(file, &open_opts, &obj);
	if (err)
		return cmd_error_code(HWXDP_EXIT_FAILED, "%s", hwxdp_error_message(err));
	target = opts.device ? HWXDP_TARGET_DEVICE : HWXDP_TARGET_HOST;
	err = hwxdp_object__set_target(obj, target);
	if (err) {
		hwxdp_object__close(obj);
		return cmd_error_code(HWXDP_EXIT_FAILED, "%s: %s", path, hwxdp_error_message(err));
	}
	if (json_output) {
		w = json_new(stdout, pretty_output);
		json_start_array(w);
	}
	for (i = 0; i < obj->prog_cnt; i++) {
		const struct hwxdp_prog *prog = &obj->progs[i];
		struct hwxdp_verify_result *res;

		if (only && strcmp(only, prog->name))
			continue;
		matched++;
		err = hwxdp_verify(obj, prog, &opts, &res);
		if (err == -EOPNOTSUPP) {
			refuse_type(w, path, prog);
			rejected++;
			continue;
		}
		if (err) {
			char name[HWXDP_NAME_MAX];

			/* the object owns the name: copy it before the close */
			snprintf(name, sizeof(name), "%s", prog->name);
			json_destroy(w);
			hwxdp_object__close(obj);
			return cmd_error_code(HWXDP_EXIT_FAILED,
					      "%s: %s: the verifier could not run: %s", path, name,
					      hwxdp_strerror(err));
		}
		report(w, path, prog, res, opts.log_level);
		rejected += !res->accepted;
		hwxdp_verify_result__free(res);
	}
	if (w) {
		json_end_array(w);
		json_destroy(w);
	}
	hwxdp_object__close(obj);
	if (only && !matched)
		return cmd_error_code(HWXDP_EXIT_FAILED, "%s: no program named '%s'", path, only);
	return rejected ? HWXDP_EXIT_REJECTED : HWXDP_EXIT_OK;
}
