// SPDX-License-Identifier: GPL-2.0
/*
 * `hwxdp prog stats` and `hwxdp prog dump`, run as a user runs them (the
 * built command, no root): the figures they print are the device target's
 * and the reference interpreter's own, and the listing is the image the
 * translator makes, operation for operation.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwmap/hxu_text.h"
#include "hwmap/translate.h"
#include "hwxdp/fwd.h"
#include "loader/object.h"
#include "lab/bpf_count.h"
#include "fwdlab/fwd_lab.h"
#include "lab/target.h"
#include "tests/common/cmd.h"
#include "verifier/verifier.h"

/* The command's standard output; malloc'ed, NUL-terminated. */
static char *run_cmd(const char *args, int *status)
{
	return hx_cmd("hwxdp", args, status);
}

/* The unsigned member "name" of the first JSON object at or after from. */
static uint64_t member(const char *from, const char *name)
{
	char key[64];
	const char *at;

	snprintf(key, sizeof(key), "\"%s\":", name);
	at = strstr(from, key);
	cr_assert_not_null(at, "no %s in %s", name, from);
	return strtoull(at + strlen(key), NULL, 10);
}

Test(prog_cmd, stats_are_the_targets)
{
	static const uint32_t ifindex[HX_LAB_PORTS] = { 11, 12, 13 };

	for (int k = 0; k < HX_LAB__COUNT; k++) {
		const struct hx_lab_frame *lf = &hx_lab_frames[k];
		struct hx_target *dev = hx_target_open("device", hx_object_path("fwd"));
		struct hx_target *cnt = hx_count_target_open(hx_object_path("fwd"));
		struct hx_run_stats ds, cs;
		static struct hx_result r;
		uint8_t frame[HX_PKT_MAX];
		size_t len = hx_lab_build((enum hx_lab_kind)k, frame, sizeof(frame));
		char args[4200], *out, *row;
		int status;

		cr_assert(dev && cnt, "fwd on the device and the interpreter");
		cr_assert_eq(hx_lab_setup(dev, ifindex), 0);
		cr_assert_eq(hx_lab_setup(cnt, ifindex), 0);
		cr_assert_eq(hx_target_run(dev, ifindex[lf->port - 1], frame, len, &r), 0);
		cr_assert_eq(hx_target_stats(dev, &ds), 0);
		cr_assert_eq(hx_target_run(cnt, ifindex[lf->port - 1], frame, len, &r), 0);
		cr_assert_eq(hx_target_stats(cnt, &cs), 0);

		snprintf(args, sizeof(args), "-j prog stats %s --frame %s", hx_object_path("fwd"),
			 lf->name);
		out = run_cmd(args, &status);
		cr_assert_eq(status, 0, "%s: exit status %d", args, status);
		cr_assert_eq(member(out, "bpf_insn_cnt"), ds.bpf_insns);
		cr_assert_eq(member(out, "image_ops"), ds.image_ops);
		row = strstr(out, "\"frames\":[{");
		cr_assert_not_null(row, "%s", out);
		cr_assert_not_null(strstr(row, lf->name), "%s", out);
		cr_assert_eq(member(row, "bpf_insns"), cs.ops, "%s: BPF instructions", lf->name);
		cr_assert_eq(member(row, "ops"), ds.ops, "%s: operations", lf->name);
		cr_assert_eq(member(row, "slots"), ds.bundles, "%s: issue slots", lf->name);
		cr_assert_eq(member(row, "cycles"), ds.cycles, "%s: cycles", lf->name);
		cr_assert_eq(member(row, "slots_per_kbpf"),
			     (uint64_t)(1000.0 * (double)ds.bundles / (double)cs.ops + 0.5));
		free(out);
		hx_target_close(dev);
		hx_target_close(cnt);
	}
}

/* Every lab frame, one row each, in the plain listing too. */
Test(prog_cmd, stats_lists_every_frame)
{
	char args[4200], *out;
	int status;

	snprintf(args, sizeof(args), "prog stats %s", hx_object_path("fwd"));
	out = run_cmd(args, &status);
	cr_assert_eq(status, 0);
	for (int k = 0; k < HX_LAB__COUNT; k++) {
		char head[32];

		snprintf(head, sizeof(head), "\n%s ", hx_lab_frames[k].name);
		cr_assert_not_null(strstr(out, head), "no row for %s in\n%s", hx_lab_frames[k].name,
				   out);
	}
	free(out);
	snprintf(args, sizeof(args), "prog stats %s --frame no-such-frame 2>/dev/null",
		 hx_object_path("fwd"));
	out = run_cmd(args, &status);
	cr_assert_neq(status, 0, "an unknown frame kind is an error");
	free(out);
}

/* The translator's image of fwd, as the device target makes it. */
static struct hxu_image *translate_fwd(struct hwxdp_object **obj, const struct hwxdp_prog **prog)
{
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	struct hwxdp_verify_result *res;
	uint32_t device = HWXDP_TARGET_DEVICE;
	struct hxu_image *img;

	cr_assert_eq(hwxdp_object__open(hx_object_path("fwd"), obj), 0);
	cr_assert_eq(hwxdp_object__set_global(*obj, "hwxdp_target", &device, sizeof(device)), 0);
	*prog = hwxdp_object__find_prog(*obj, "hwxdp_fwd");
	cr_assert_not_null(*prog);
	cr_assert_eq(hwxdp_verify(*obj, *prog, &vopts, &res), 0);
	cr_assert(res->accepted);
	cr_assert_eq(hwxdp_translate(*obj, *prog, res, &img, NULL, 0), 0);
	hwxdp_verify_result__free(res);
	return img;
}

Test(prog_cmd, dump_is_the_image)
{
	const struct hwxdp_prog *prog;
	struct hwxdp_object *obj;
	struct hxu_image *img = translate_fwd(&obj, &prog);
	struct hxu_asm_out as;
	char args[4200], err[256], *out, *line;
	uint32_t ops = 0, ends = 0, sources = 0;
	int status;

	snprintf(args, sizeof(args), "prog dump %s --prog hwxdp_fwd", hx_object_path("fwd"));
	out = run_cmd(args, &status);
	cr_assert_eq(status, 0);

	/* The listing assembles back to the very words of the image. */
	cr_assert_eq(hxu_asm(out, &as, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(as.word_cnt, img->op_cnt);
	cr_assert_arr_eq(as.words, img->ops, img->op_cnt * sizeof(uint64_t));
	hxu_asm_out__free(&as);

	/* Each operation names the instruction the line table gives it, and
	 * the source of that instruction is shown above it. */
	for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned int at, insn;
		const char *c;

		if (line[0] == '#') {
			sources += strstr(line, "fwd.bpf.c:") != NULL;
			continue;
		}
		cr_assert_eq(sscanf(line, "%u:", &at), 1, "%s", line);
		c = strstr(line, "# insn ");
		cr_assert_not_null(c, "%s", line);
		cr_assert_eq(sscanf(c, "# insn %u:", &insn), 1);
		cr_assert_lt(ops, img->line_cnt);
		cr_assert_eq(at, img->lines[ops].op, "%s", line);
		cr_assert_eq(insn, img->lines[ops].insn, "%s", line);
		cr_assert_lt(insn, prog->insn_cnt);
		ends += strstr(line, ";;") != NULL;
		ops++;
	}
	cr_assert_eq(ops, img->line_cnt);
	cr_assert_gt(ends, 0);
	cr_assert_lt(ends, ops, "bundles hold more than one operation");
	cr_assert_gt(sources, 10, "source lines are shown");
	free(out);
	hxu_image__free(img);
	hwxdp_object__close(obj);
}

Test(prog_cmd, dump_json_counts_bundles)
{
	const struct hwxdp_prog *prog;
	struct hwxdp_object *obj;
	struct hxu_image *img = translate_fwd(&obj, &prog);
	uint32_t ends = 0;
	char args[4200], *out;
	int status;

	for (uint32_t i = 0; i < img->line_cnt; i++)
		ends += !!(img->ops[img->lines[i].op] & HXU_END_BIT);
	snprintf(args, sizeof(args), "-j prog dump %s", hx_object_path("fwd"));
	out = run_cmd(args, &status);
	cr_assert_eq(status, 0);
	cr_assert_eq(member(out, "insn_cnt"), prog->insn_cnt);
	cr_assert_eq(member(strrchr(out, ']'), "bundles"), ends);
	free(out);
	hxu_image__free(img);
	hwxdp_object__close(obj);
}

/*
 * Any program, not only the forwarding one: the generic frames, on tables
 * a state file fills. lpm_route passes a frame it has no route for, and
 * does what the route says when the state gives one; device and reference
 * agree (the command warns when they do not).
 */
Test(prog_cmd, stats_takes_any_program)
{
	char args[8192], state[] = "/tmp/hwxdp-stats-XXXXXX";
	const char *text = "{ \"maps\": { \"routes4\": [ { \"key\": \"10000000 0a000100\", "
			   "\"value\": \"01000000 deadbeef\" } ] } }";
	char *out;
	int st, fd;

	snprintf(args, sizeof(args), "-j prog stats %s/progs/lpm_route.bpf.o --frame ipv4-udp 2>&1",
		 hx_build_dir());
	out = run_cmd(args, &st);
	cr_assert_eq(st, 0, "%s", out);
	cr_assert_not_null(strstr(out, "\"verdict\":\"pass\""), "%s", out);
	cr_assert_gt(member(out, "bpf_insns"), 0, "%s", out);
	cr_assert_gt(member(out, "slots"), 0, "%s", out);
	cr_assert_null(strstr(out, "warning"), "%s", out);
	free(out);

	fd = mkstemp(state);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	snprintf(args, sizeof(args),
		 "-j prog stats %s/progs/lpm_route.bpf.o --frame ipv4-udp --maps %s 2>&1",
		 hx_build_dir(), state);
	out = run_cmd(args, &st);
	unlink(state);
	cr_assert_eq(st, 0, "%s", out);
	cr_assert_not_null(strstr(out, "\"verdict\":\"drop\""), "the route was not used: %s", out);
	cr_assert_null(strstr(out, "warning"), "%s", out);
	free(out);

	snprintf(args, sizeof(args), "prog stats %s/progs/vlan_tag.bpf.o 2>&1", hx_build_dir());
	out = run_cmd(args, &st);
	cr_assert_eq(st, 0, "%s", out);
	cr_assert_not_null(strstr(out, "vlan-udp"), "%s", out);
	free(out);
}

static void write_file(char *path, const char *text)
{
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/*
 * prog dump of a program that is not the forwarding one, with its maps from
 * a state file: the listing is the plain dump's, then the device's tables,
 * the route written by hand in its LPM table and the other table empty; the
 * JSON's entries are a state file's, so they go back in as they are.
 */
Test(prog_cmd, dump_takes_any_program_with_maps)
{
	char state[] = "/tmp/hwxdp-dump-XXXXXX", again[] = "/tmp/hwxdp-dump-XXXXXX";
	char wrong[] = "/tmp/hwxdp-dump-XXXXXX", args[8192];
	const char *text = "{ \"maps\": { \"routes4\": [ { \"key\": \"18000000 0a0b0c00\", "
			   "\"value\": \"02000000 c0ffee00\" } ] } }";
	char *plain, *out, *json, *tables, *fed, *end, *routes6;
	int st;

	write_file(state, text);
	snprintf(args, sizeof(args), "prog dump %s/progs/lpm_route.bpf.o", hx_build_dir());
	plain = run_cmd(args, &st);
	cr_assert_eq(st, 0, "%s", plain);
	snprintf(args, sizeof(args), "prog dump %s/progs/lpm_route.bpf.o --maps %s 2>&1",
		 hx_build_dir(), state);
	out = run_cmd(args, &st);
	cr_assert_eq(st, 0, "%s", out);
	cr_assert_eq(strncmp(out, plain, strlen(plain)), 0, "the listing differs:\n%s", out);
	cr_assert_not_null(strstr(out, "# table 0 routes4: lpm_trie, key 8 bytes, value 8 bytes"),
			   "%s", out);
	cr_assert_not_null(strstr(out, "#   18000000 0a0b0c00: 02000000 c0ffee00\n"), "%s", out);
	routes6 = strstr(out, "# table 1 routes6: lpm_trie");
	cr_assert_not_null(routes6, "%s", out);
	cr_assert_null(strstr(routes6, "\n#   "), "routes6 is not empty:\n%s", out);
	free(out);

	snprintf(args, sizeof(args), "-j prog dump %s/progs/lpm_route.bpf.o --maps %s",
		 hx_build_dir(), state);
	json = run_cmd(args, &st);
	cr_assert_eq(st, 0, "%s", json);
	tables = strstr(json, "\"tables\":");
	cr_assert_not_null(tables, "%s", json);
	cr_assert_not_null(strstr(tables, "\"entries\":[{\"key\":\"18000000 0a0b0c00\","
					  "\"value\":\"02000000 c0ffee00\"}]"),
			   "%s", tables);
	/* routes4's entries, as a state file holds them */
	fed = strstr(tables, "\"entries\":") + strlen("\"entries\":");
	end = strchr(fed, ']');
	snprintf(args, sizeof(args), "{ \"maps\": { \"routes4\": %.*s } }", (int)(end - fed + 1),
		 fed);
	write_file(again, args);
	snprintf(args, sizeof(args), "-j prog dump %s/progs/lpm_route.bpf.o --maps %s",
		 hx_build_dir(), again);
	out = run_cmd(args, &st);
	unlink(again);
	cr_assert_eq(st, 0, "%s", out);
	cr_assert_str_eq(out, json);
	free(out);
	free(json);

	/* a map the object lacks: an error naming it, and no listing */
	write_file(wrong, "{ \"maps\": { \"no_such_map\": [] } }");
	snprintf(args, sizeof(args), "prog dump %s/progs/lpm_route.bpf.o --maps %s 2>&1",
		 hx_build_dir(), wrong);
	out = run_cmd(args, &st);
	unlink(wrong);
	unlink(state);
	cr_assert_neq(st, 0, "%s", out);
	cr_assert_not_null(strstr(out, "no_such_map"), "%s", out);
	cr_assert_null(strstr(out, "bundles"), "%s", out);
	free(out);
	free(plain);
}
