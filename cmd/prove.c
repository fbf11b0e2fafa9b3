// SPDX-License-Identifier: GPL-2.0
/*
 * hwxdp prog prove FILE.o [--prog NAME] [--max-len N] [--timeout-ms T]:
 * proves the device's translation of an XDP program equal to the program
 * (hwmap/prove.h), or prints the frame that tells them apart. A
 * counterexample is run on the BPF reference interpreter (lab/bpf_count.h,
 * the device's copy of the program) and on the device model before it is
 * printed; one on which they do not differ as the model says is the
 * prover's own fault, reported as an internal error.
 */
#include <errno.h>
#include <getopt.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/grammar.h"
#include "cmd/main.h"
#include "hwmap/hxu_text.h"
#include "hwmap/prove.h"
#include "hwmap/translate.h"
#include "loader/object.h"
#include "lab/bpf_count.h"
#include "lab/target.h"
#include "verifier/disasm.h"
#include "verifier/verifier.h"

/* The ingress ifindex the counterexample's frame arrives on: loopback, which
 * every host has, so that the kernel could replay it too. */
#define PROVE_INGRESS 1
/* The prover's own fault: a counterexample that does not replay (sysexits'
 * EX_SOFTWARE). */
#define EXIT_INTERNAL 70

static void prove_help(void)
{
	const struct cmd_object *prog = cmd_object_find("prog");

	cmd_help_verb(stderr, prog, cmd_verb_find(prog, "prove"));
}

static int parse_u32(const char *what, const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end || v < lo || v > hi)
		return cmd_error_code(HWXDP_EXIT_USAGE, "%s '%s': a number from %u to %u", what, s,
				      lo, hi);
	*out = (uint32_t)v;
	return 0;
}

struct prove_ctx {
	const char *path;
	struct hwxdp_object *obj;
	const struct hwxdp_prog *prog;
	struct hwxdp_verify_result *facts;
	struct hxu_image *img;
};

static int open_and_translate(struct prove_ctx *c, const char *name)
{
	struct hwxdp_translate_opts topts = { .sz = sizeof(topts), .verified = &c->facts };
	char msg[512];
	int err;

	err = hwxdp_object__open(c->path, &c->obj);
	if (err)
		return cmd_error_code(HWXDP_EXIT_FAILED, "%s", hwxdp_error_message(err));
	for (size_t i = 0; i < c->obj->prog_cnt && !c->prog; i++)
		if (name ? !strcmp(c->obj->progs[i].name, name)
			 : c->obj->progs[i].type == BPF_PROG_TYPE_XDP)
			c->prog = &c->obj->progs[i];
	if (!c->prog)
		return cmd_error(name ? "%s: no program named '%s'" : "%s: no XDP program%s",
				 c->path, name ? name : "");
	err = hwxdp_translate_for_device_opts(c->obj, c->prog, &topts, &c->img, msg, sizeof(msg));
	if (err == -EACCES && c->facts && !c->facts->accepted)
		return cmd_error(
			"%s: %s: rejected by the verifier for the device (see '%s verify')",
			c->path, c->prog->name, bin_name);
	if (err)
		return cmd_error("%s: %s: %s", c->path, c->prog->name, msg);
	return 0;
}

static const char *end_name(uint32_t end)
{
	return end == HWXDP_PROVE_END_EXIT   ? "exit"
	       : end == HWXDP_PROVE_END_PUNT ? "punt"
					     : "fault";
}

struct replay {
	int err[2]; /* reference, device */
	struct hx_result run[2];
	bool ok;
	bool loose; /* the device held only to differing from the reference */
	char why[160];
};

/* Whether two runs that ended end differently: verdict, frame, or where a
 * redirect sends it, where both targets tell. */
static bool runs_differ(const struct hx_result *a, const struct hx_result *b)
{
	return a->action != b->action || a->len != b->len || memcmp(a->frame, b->frame, a->len) ||
	       (a->action == XDP_REDIRECT && a->egress_known && b->egress_known &&
		a->egress != b->egress);
}

/* The counterexample on the BPF reference and on the device. */
static void replay(const struct prove_ctx *c, const struct hwxdp_prove_result *res,
		   struct replay *rp)
{
	struct hx_target *t[2];

	t[0] = hx_count_target_open(c->path);
	t[1] = hx_target_open("device", c->path);
	if (!t[0] || !t[1]) {
		snprintf(rp->why, sizeof(rp->why), "the %s cannot open the object",
			 t[0] ? "device" : "reference interpreter");
		goto out;
	}
	/* the entries the frame needs, on both */
	for (uint32_t e = 0; e < res->entry_cnt; e++) {
		const struct hwxdp_prove_entry *en = &res->entries[e];
		const char *map = c->obj->maps[en->map].name;

		/* a program array's slot or a map of maps' entry the object
		 * fills, and the model empties (an index past its end is none) */
		for (int i = 0; i < 2 && en->absent &&
				(c->obj->maps[en->map].type == BPF_MAP_TYPE_PROG_ARRAY ||
				 hxu_map_of_maps(c->obj->maps[en->map].type));
		     i++) {
			int err = hx_target_map_delete(t[i], map, en->key);

			if (err && err != -ENOENT && err != -E2BIG) {
				snprintf(rp->why, sizeof(rp->why), "the %s cannot empty map %s: %s",
					 i ? "device" : "reference interpreter", map,
					 strerror(-err));
				goto out;
			}
		}
		for (int i = 0; i < 2 && !en->absent; i++) {
			int err = hx_target_map_update(t[i], map, en->key, en->value);

			if (err) {
				snprintf(rp->why, sizeof(rp->why), "the %s cannot fill map %s: %s",
					 i ? "device" : "reference interpreter", map,
					 strerror(-err));
				goto out;
			}
		}
	}
	/* the crypto unit's SA where BPF's first command names one */
	for (int i = 0; i < 2 && res->esp_sa >= 0; i++) {
		int err = hx_target_esp_sa(t[i], (uint32_t)res->esp_sa);

		if (err) {
			snprintf(rp->why, sizeof(rp->why), "the %s cannot have SA %lld: %s",
				 i ? "device" : "reference interpreter", (long long)res->esp_sa,
				 strerror(-err));
			goto out;
		}
	}
	for (int i = 0; i < 2; i++)
		rp->err[i] = hx_target_run(t[i], res->ingress, res->frame, res->len, &rp->run[i]);
	if (res->loose &
	    (HWXDP_PROVE_LOOSE_ESP | HWXDP_PROVE_LOOSE_CLOCK | HWXDP_PROVE_LOOSE_RAND)) {
		/* the crypto unit's output, the clock and the random unit are
		 * free in the model: both are held only to differing */
		const struct hx_result *a = &rp->run[0], *b = &rp->run[1];

		rp->loose = true;
		rp->ok = rp->err[0] || rp->err[1] ? !rp->err[0] != !rp->err[1] : runs_differ(a, b);
		if (!rp->ok)
			snprintf(rp->why, sizeof(rp->why),
				 "the device does what the reference does on this frame");
		goto out;
	}
	/* the interpreter runs no host-only helper: the host's part of a punt */
	if (res->bpf.end == HWXDP_PROVE_END_PUNT && rp->err[0] == -ENOTSUP)
		rp->ok = true;
	else
		rp->ok = hx_result_is_outcome(rp->err[0], &rp->run[0], &res->bpf);
	if (!rp->ok) {
		snprintf(rp->why, sizeof(rp->why),
			 "the reference interpreter does not do what the model says BPF does");
		goto out;
	}
	if (res->loose) {
		/* the model is not exact for the microcode here: the device is
		 * held to differing from the reference */
		const struct hx_result *a = &rp->run[0], *b = &rp->run[1];

		rp->loose = true;
		rp->ok = rp->err[0] == -ENOTSUP ? !hx_result_is_outcome(rp->err[1], b, &res->bpf)
			 : rp->err[0] || rp->err[1] ? !rp->err[0] != !rp->err[1]
						    : runs_differ(a, b);
		if (!rp->ok)
			snprintf(rp->why, sizeof(rp->why),
				 "the device does what the reference does on this frame");
		goto out;
	}
	rp->ok = hx_result_is_outcome(rp->err[1], &rp->run[1], &res->hxu);
	if (!rp->ok)
		snprintf(rp->why, sizeof(rp->why),
			 "the device does not do what the model says the microcode does");
out:
	hx_target_close(t[0]);
	hx_target_close(t[1]);
}

static void hex(char *buf, size_t len, const uint8_t *bytes, uint32_t n)
{
	size_t at = 0;

	buf[0] = 0;
	for (uint32_t i = 0; i < n && at + 3 < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%02x", bytes[i]);
}

/* Insn insn of image program k (a tail call's target), by its name. */
static void prog_insn_text(const struct prove_ctx *c, uint32_t k, uint32_t insn, char *buf,
			   size_t len)
{
	const struct hwxdp_prog *prog = c->prog;
	const struct hwxdp_line *l;
	char text[128];

	for (size_t i = 0; k && k < c->img->prog_cnt && i < c->obj->prog_cnt; i++)
		if (!strncmp(c->img->progs[k].name, c->obj->progs[i].name, HXU_NAME_MAX - 1))
			prog = &c->obj->progs[i];
	if (insn >= prog->insn_cnt) {
		snprintf(buf, len, "?");
		return;
	}
	hwxdp_disasm_insn(&prog->insns[insn], prog->insn_cnt - insn, text, sizeof(text));
	l = hwxdp_prog__line(prog, insn);
	if (l && l->file && prog != c->prog)
		snprintf(buf, len, "%s (%s, %s:%u)", text, prog->name, l->file, l->line);
	else if (l && l->file)
		snprintf(buf, len, "%s (%s:%u)", text, l->file, l->line);
	else
		snprintf(buf, len, "%s", text);
}

static void insn_text(const struct prove_ctx *c, uint32_t insn, char *buf, size_t len)
{
	prog_insn_text(c, 0, insn, buf, len);
}

static void op_text(const struct prove_ctx *c, uint32_t op, char *buf, size_t len)
{
	if (op >= c->img->op_cnt || !hxu_disasm_op(c->img->ops + op, c->img->op_cnt - op, buf, len))
		snprintf(buf, len, "?");
}

static void print_outcome(struct json_writer *w, const char *name,
			  const struct hwxdp_prove_outcome *o, const char *where, uint32_t at,
			  const char *text)
{
	char buf[2 * HWXDP_PROVE_LEN_MAX + 1];

	hex(buf, sizeof(buf), o->frame, hx_outcome_forwards(o) ? o->len : 0);
	if (w) {
		json_name(w, name);
		json_start_object(w);
		json_string_field(w, "end", end_name(o->end));
		json_uint_field(w, o->end == HWXDP_PROVE_END_PUNT ? "reason" : "verdict", o->value);
		json_uint_field(w, where, at);
		json_string_field(w, "text", text);
		if (hx_outcome_forwards(o))
			json_string_field(w, "frame", buf);
		json_end_object(w);
		return;
	}
	printf("  %-9s %s %u at %s %u: %s\n", name, end_name(o->end), o->value, where, at, text);
	if (hx_outcome_forwards(o))
		printf("            out (%u bytes): %s\n", o->len, buf);
}

/* The map entries the counterexample needs. */
static void print_entries(struct json_writer *w, const struct prove_ctx *c,
			  const struct hwxdp_prove_result *res)
{
	char key[2 * HWXDP_PROVE_KEY_MAX + 1], value[2 * HWXDP_PROVE_VALUE_MAX + 1];

	if (w) {
		json_name(w, "entries");
		json_start_array(w);
	}
	for (uint32_t i = 0; i < res->entry_cnt; i++) {
		const struct hwxdp_prove_entry *e = &res->entries[i];
		const struct hwxdp_map_desc *m = &c->obj->maps[e->map];

		/* a map of maps' value is the index of the inner map it names */
		const char *inner = NULL;
		uint32_t index;

		memcpy(&index, e->value, sizeof(index));
		if (!e->absent && hxu_map_of_maps(m->type) && index < c->obj->map_cnt)
			inner = c->obj->maps[index].name;
		hex(key, sizeof(key), e->key, m->key_size);
		hex(value, sizeof(value), e->value, e->absent ? 0 : m->value_size);
		if (w) {
			json_start_object(w);
			json_string_field(w, "map", m->name);
			json_string_field(w, "key", key);
			if (e->absent) {
				json_name(w, "value");
				json_null(w);
			} else {
				json_string_field(w, "value", value);
			}
			if (inner)
				json_string_field(w, "inner", inner);
			json_end_object(w);
		} else {
			printf("  map %s: key %s %s%s%s%s\n", m->name, key,
			       e->absent ? "absent" : "value ", e->absent ? "" : value,
			       inner ? ", map " : "", inner ? inner : "");
		}
	}
	if (w)
		json_end_array(w);
}

/* Where the first differing output byte was written, on each side. */
static void print_writers(const struct prove_ctx *c, const struct hwxdp_prove_result *res)
{
	char text[256];

	printf("  output byte %d written by\n", res->diff_byte);
	if (res->bpf.writer >= 0) {
		insn_text(c, (uint32_t)res->bpf.writer, text, sizeof(text));
		printf("    BPF       insn %d: %s\n", res->bpf.writer, text);
	} else {
		printf("    BPF       nothing: the frame's own byte\n");
	}
	if (res->hxu.writer >= 0) {
		uint32_t insn = 0;

		for (uint32_t i = 0;
		     i < c->img->line_cnt && c->img->lines[i].op <= (uint32_t)res->hxu.writer; i++)
			insn = c->img->lines[i].insn;
		op_text(c, (uint32_t)res->hxu.writer, text, sizeof(text));
		printf("    microcode op %d: %s\n", res->hxu.writer, text);
		insn_text(c, insn, text, sizeof(text));
		printf("              from insn %u: %s\n", insn, text);
	} else {
		printf("    microcode nothing: the frame's own byte\n");
	}
}

static int report(const struct prove_ctx *c, const struct hwxdp_prove_result *res, uint32_t max_len)
{
	struct json_writer *w = json_output ? json_new(stdout, pretty_output) : NULL;
	static const char *const names[] = { "proven", "not proven", "counterexample" };
	char buf[2 * HWXDP_PROVE_LEN_MAX + 1], bt[256], ht[256];
	struct replay rp = {};
	int rc = res->status == HWXDP_PROVE_PROVEN ? HWXDP_EXIT_OK : HWXDP_EXIT_REJECTED;

	if (res->status == HWXDP_PROVE_COUNTEREXAMPLE) {
		replay(c, res, &rp);
		if (!rp.ok && rp.loose) {
			/* a difference of the model's own looseness that the frame
			 * does not show: no counterexample to report */
			if (w)
				json_destroy(w);
			printf("not proven: %s; the replay does not show it: %s\n", res->reason,
			       rp.why);
			return HWXDP_EXIT_REJECTED;
		}
		if (!rp.ok) {
			if (w)
				json_destroy(w);
			return cmd_error_code(EXIT_INTERNAL,
					      "%s: %s: internal error: a counterexample that does "
					      "not replay: %s (%s)",
					      c->path, c->prog->name, rp.why, res->reason);
		}
	}
	if (w) {
		json_start_object(w);
		json_string_field(w, "object", c->path);
		json_string_field(w, "prog", c->prog->name);
		json_string_field(w, "status", names[res->status]);
		if (res->status != HWXDP_PROVE_PROVEN)
			json_string_field(w, "reason", res->reason);
		json_uint_field(w, "max_len", max_len);
		json_uint_field(w, "bpf_paths", res->bpf_paths);
		json_uint_field(w, "hxu_paths", res->hxu_paths);
		json_uint_field(w, "solver_checks", res->solver_checks);
		json_uint_field(w, "ms", res->elapsed_ms);
		json_uint_field(w, "bpf_explore_ms", res->explore_ms[0]);
		json_uint_field(w, "hxu_explore_ms", res->explore_ms[1]);
		json_uint_field(w, "solver_bytes", res->solver_bytes);
	} else if (res->status == HWXDP_PROVE_PROVEN) {
		printf("proven: %s, every frame of 14 to %u bytes (%u BPF paths, %u microcode "
		       "paths, %llu ms)\n",
		       c->prog->name, max_len, res->bpf_paths, res->hxu_paths,
		       (unsigned long long)res->elapsed_ms);
	} else if (res->status == HWXDP_PROVE_NOT_PROVEN) {
		printf("not proven: %s\n", res->reason);
	}
	if (res->status == HWXDP_PROVE_COUNTEREXAMPLE) {
		hex(buf, sizeof(buf), res->frame, res->len);
		prog_insn_text(c, res->bpf.prog, res->bpf.last, bt, sizeof(bt));
		op_text(c, res->hxu.last, ht, sizeof(ht));
		if (w) {
			json_string_field(w, "frame", buf);
			json_uint_field(w, "ingress", res->ingress);
			json_uint_field(w, "rx_queue", res->rx_queue);
			json_int_field(w, "diff_byte", res->diff_byte);
			print_entries(w, c, res);
			print_outcome(w, "bpf", &res->bpf, "insn", res->bpf.last, bt);
			print_outcome(w, "hxu", &res->hxu, "op", res->hxu.last, ht);
			json_uint_field(w, "hxu_insn", res->diff_hxu_insn);
			json_int_field(w, "bpf_writer", res->bpf.writer);
			json_int_field(w, "hxu_writer", res->hxu.writer);
			json_name(w, "replayed");
			json_bool(w, true);
		} else {
			printf("counterexample: %s\n", res->reason);
			printf("  frame (%u bytes, ingress %u, rx queue %u): %s\n", res->len,
			       res->ingress, res->rx_queue, buf);
			print_entries(NULL, c, res);
			print_outcome(NULL, "BPF", &res->bpf, "insn", res->bpf.last, bt);
			print_outcome(NULL, "microcode", &res->hxu, "op", res->hxu.last, ht);
			if (res->diff_byte >= 0)
				print_writers(c, res);
			if (res->esp_sa >= 0)
				printf("  SA %lld: the lab's test SA\n", (long long)res->esp_sa);
			if (rp.loose &&
			    (res->loose & (HWXDP_PROVE_LOOSE_ESP | HWXDP_PROVE_LOOSE_CLOCK |
					   HWXDP_PROVE_LOOSE_RAND)))
				printf("  replayed, with the %s own output (the model "
				       "leaves it free): the reference interpreter ends with "
				       "verdict "
				       "%u, %zu bytes (error %d); the device with verdict %u, %zu "
				       "bytes (error %d)\n",
				       res->loose & HWXDP_PROVE_LOOSE_ESP     ? "crypto unit's"
				       : res->loose & HWXDP_PROVE_LOOSE_CLOCK ? "clock's"
									      : "random unit's",
				       rp.run[0].action, rp.run[0].len, rp.err[0], rp.run[1].action,
				       rp.run[1].len, rp.err[1]);
			else if (rp.loose)
				printf("  replayed: the reference interpreter does as shown; the "
				       "device (%s) differs: it ends with verdict %u, %zu bytes\n",
				       res->loose & HWXDP_PROVE_LOOSE_ADDRESS
					       ? "on a table memory address's value"
					       : "after map writes that part",
				       rp.run[1].action, rp.run[1].len);
			else
				printf("  replayed: the reference interpreter and the device "
				       "differ "
				       "as shown\n");
		}
	}
	if (w) {
		json_end_object(w);
		json_destroy(w);
	}
	return rc;
}

int do_prog_prove(int argc, char **argv)
{
	const struct cmd_object *prog = cmd_object_find("prog");
	struct option options[8];
	char shorts[16];
	struct hwxdp_prove_opts opts = {
		.sz = sizeof(opts), .max_len = 128, .timeout_ms = 10000, .ingress = PROVE_INGRESS
	};
	struct hwxdp_prove_result *res = NULL;
	struct hwxdp_prove_progs *pp = NULL;
	struct prove_ctx c = {};
	const char *name = NULL;
	int opt, rc, err;

	/* argv[0] is FILE or an option: getopt wants a program name first */
	argc++;
	argv--;
	if (cmd_getopt_table(cmd_verb_find(prog, "prove")->options, options, 8, shorts,
			     sizeof(shorts)))
		return cmd_error("prog prove: too many options");
	optind = 0;
	while ((opt = getopt_long(argc, argv, shorts, options, NULL)) >= 0) {
		switch (opt) {
		case 'P':
			name = optarg;
			break;
		case 'L':
			rc = parse_u32("--max-len", optarg, 14, HWXDP_PROVE_LEN_MAX, &opts.max_len);
			if (rc)
				return rc;
			break;
		case 'T':
			rc = parse_u32("--timeout-ms", optarg, 1, 3600000, &opts.timeout_ms);
			if (rc)
				return rc;
			break;
		case 'j':
		case 'p':
			cmd_output_option(opt);
			break;
		case 'h':
			prove_help();
			return 0;
		default:
			prove_help();
			return HWXDP_EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return cmd_error_code(HWXDP_EXIT_USAGE,
				      "prog prove needs a FILE.o (try '%s prog "
				      "prove --help')",
				      bin_name);
	if (optind + 1 < argc)
		return cmd_error_code(HWXDP_EXIT_USAGE, "unexpected argument '%s'",
				      argv[optind + 1]);
	c.path = argv[optind];
	if (!strcmp(c.path, "-") && !(c.path = cmd_stdin_path("prog prove -")))
		return HWXDP_EXIT_USAGE;
	if (access(c.path, R_OK))
		return cmd_error_code(HWXDP_EXIT_FAILED, "%s: %s", c.path, strerror(errno));
	rc = open_and_translate(&c, name);
	if (rc)
		goto out;
	res = malloc(sizeof(*res));
	if (!res) {
		rc = cmd_error("%s", strerror(ENOMEM));
		goto out;
	}
	/* the image's other programs, which its tail calls reach */
	err = hwxdp_prove_progs(c.obj, c.img, &pp);
	if (err) {
		rc = cmd_error("%s: %s: the image's programs cannot be verified: %s", c.path,
			       c.prog->name, strerror(-err));
		goto out;
	}
	opts.progs = pp->progs;
	opts.prog_cnt = pp->cnt;
	err = hwxdp_prove(c.prog->insns, c.prog->insn_cnt, c.obj->maps, c.obj->map_cnt, c.facts,
			  c.img, 0, &opts, res);
	if (err) {
		rc = cmd_error("%s: %s: the prover could not run: %s", c.path, c.prog->name,
			       strerror(-err));
		goto out;
	}
	rc = report(&c, res, opts.max_len);
out:
	free(res);
	hwxdp_prove_progs__free(pp);
	hxu_image__free(c.img);
	hwxdp_verify_result__free(c.facts);
	hwxdp_object__close(c.obj);
	return rc;
}
