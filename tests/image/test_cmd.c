// SPDX-License-Identifier: GPL-2.0
/*
 * `hwxdp prog translate` and `hwxdp prog dump` of an image file, run as a
 * user runs them (the built command, no root).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device/engine.h"
#include "hwmap/hxu_text.h"
#include "hwmap/image.h"
#include "hwmap/translate.h"
#include "lab/target.h"
#include "tests/common/cmd.h"
#include "tests/image/image_util.h"

/* The command's standard output (and its error output, with err2out);
 * malloc'ed, NUL-terminated. *status: its exit status. */
static char *run_cmd(const char *args, bool err2out, int *status)
{
	char line[8192];

	snprintf(line, sizeof(line), "%s %s", args, err2out ? "2>&1" : "2>/dev/null");
	return hx_cmd("hwxdp", line, status);
}

static uint64_t member(const char *json, const char *name)
{
	char key[64];
	const char *at;

	snprintf(key, sizeof(key), "\"%s\":", name);
	at = strstr(json, key);
	cr_assert_not_null(at, "no %s in %s", name, json);
	return strtoull(at + strlen(key), NULL, 10);
}

Test(cmd, translate_writes_the_image)
{
	struct hwxdp_object *obj;
	struct hxu_image *img, *back;
	char dir[64], path[128], args[4400], err[256], *out;
	struct stat st;
	int status;

	cr_assert_eq(image_translate(hx_object_path("fwd"), &obj, &img), 0);
	image_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/fwd.hxu", dir);
	snprintf(args, sizeof(args), "prog translate %s --target device -o %s",
		 hx_object_path("fwd"), path);
	out = run_cmd(args, true, &status);
	cr_assert_eq(status, 0, "%s", out);
	cr_assert_str_empty(out, "prints nothing: '%s'", out);
	free(out);
	cr_assert_eq(hxu_image__load(path, &back, err, sizeof(err)), 0, "%s", err);
	image_assert_equal(img, back);
	hxu_image__free(back);

	/* -j: a summary of what was written, over the same file */
	snprintf(args, sizeof(args), "-j prog translate %s --prog hwxdp_fwd --output %s",
		 hx_object_path("fwd"), path);
	out = run_cmd(args, false, &status);
	cr_assert_eq(status, 0);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(member(out, "bytes"), (uint64_t)st.st_size);
	cr_assert_eq(member(out, "words"), img->op_cnt);
	cr_assert_eq(member(out, "tables"), img->table_cnt);
	cr_assert_eq(member(out, "lines"), img->line_cnt);
	cr_assert_not_null(strstr(out, "\"prog\":\"hwxdp_fwd\""), "%s", out);
	free(out);

	hxu_image__free(img);
	hwxdp_object__close(obj);
	image_tmpdir_remove(dir);
}

/* Refusals exit 1 with a message and write nothing. */
Test(cmd, translate_refusals)
{
	static const struct {
		const char *args, *message;
	} cases[] = {
		{ "prog translate %s --target host -o %s", "no translation target 'host'" },
		{ "prog translate %s --prog nothing -o %s", "no program named 'nothing'" },
		{ "prog translate %s --frame plain -o %s", "prog translate takes no --frame" },
	};
	char dir[64], path[128], args[4400], *out;
	int status;

	image_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/out.hxu", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(args, sizeof(args), cases[i].args, hx_object_path("fwd"), path);
		out = run_cmd(args, true, &status);
		cr_assert_eq(status, 1, "%s: exit %d", args, status);
		cr_assert_not_null(strstr(out, cases[i].message), "%s: '%s'", args, out);
		cr_assert_neq(access(path, F_OK), 0, "%s wrote a file", args);
		free(out);
	}
	snprintf(args, sizeof(args), "prog translate %s", hx_object_path("fwd"));
	out = run_cmd(args, true, &status);
	cr_assert_eq(status, 1);
	cr_assert_not_null(strstr(out, "needs -o"), "%s", out);
	free(out);
	/* into a folder that does not exist */
	snprintf(args, sizeof(args), "prog translate %s -o %s/no/out.hxu", hx_object_path("fwd"),
		 dir);
	out = run_cmd(args, true, &status);
	cr_assert_eq(status, 1);
	cr_assert_not_null(strstr(out, "No such file"), "%s", out);
	free(out);
	image_tmpdir_remove(dir);
}

/* dump of the image file: the same microcode as the image, listing that
 * assembles back to its words, the line table's instructions, and the same
 * bundles as the object's dump. */
Test(cmd, dump_of_an_image)
{
	struct hwxdp_object *obj;
	struct hxu_image *img;
	struct hxu_asm_out as;
	char dir[64], path[128], args[4400], err[256], *out, *line, *from_obj;
	uint32_t rows = 0, ends = 0;
	int status;

	cr_assert_eq(image_translate(hx_object_path("fwd"), &obj, &img), 0);
	image_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/fwd.hxu", dir);
	cr_assert_eq(hxu_image__save(img, path, err, sizeof(err)), 0, "%s", err);

	snprintf(args, sizeof(args), "prog dump %s", path);
	out = run_cmd(args, false, &status);
	cr_assert_eq(status, 0);
	cr_assert_eq(hxu_asm(out, &as, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(as.word_cnt, img->op_cnt);
	cr_assert_arr_eq(as.words, img->ops, img->op_cnt * sizeof(uint64_t));
	hxu_asm_out__free(&as);
	cr_assert_not_null(strstr(out, "# program hwxdp_fwd: 1 stack frames"), "%s", out);
	for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned int at, insn;
		const char *c;

		if (line[0] == '#')
			continue;
		cr_assert_eq(sscanf(line, "%u:", &at), 1, "%s", line);
		c = strstr(line, "# insn ");
		cr_assert_not_null(c, "every operation of fwd has a line: %s", line);
		cr_assert_eq(sscanf(c, "# insn %u", &insn), 1);
		cr_assert_lt(rows, img->line_cnt);
		cr_assert_eq(at, img->lines[rows].op, "%s", line);
		cr_assert_eq(insn, img->lines[rows].insn, "%s", line);
		ends += strstr(line, ";;") != NULL;
		rows++;
	}
	cr_assert_eq(rows, img->line_cnt);
	free(out);

	/* JSON: the bundles the object's dump counts */
	snprintf(args, sizeof(args), "-j prog dump %s", hx_object_path("fwd"));
	from_obj = run_cmd(args, false, &status);
	cr_assert_eq(status, 0);
	snprintf(args, sizeof(args), "-j prog dump %s --prog hwxdp_fwd", path);
	out = run_cmd(args, false, &status);
	cr_assert_eq(status, 0);
	cr_assert_eq(member(strrchr(out, ']'), "bundles"), ends);
	cr_assert_eq(member(strrchr(from_obj, ']'), "bundles"), ends);
	cr_assert_not_null(strstr(out, "\"entry\":0"), "%s", out);
	free(out);
	free(from_obj);

	snprintf(args, sizeof(args), "prog dump %s --prog nothing", path);
	out = run_cmd(args, true, &status);
	cr_assert_eq(status, 1);
	cr_assert_not_null(strstr(out, "no program named 'nothing'"), "%s", out);
	free(out);

	hxu_image__free(img);
	hwxdp_object__close(obj);
	image_tmpdir_remove(dir);
}

/* A damaged image file: the reader's message, exit 1. */
Test(cmd, dump_of_a_damaged_image)
{
	struct hwxdp_object *obj;
	struct hxu_image *img;
	char dir[64], path[128], args[4400], err[256], *out;
	uint8_t *bytes;
	size_t len;
	FILE *f;
	int status;

	cr_assert_eq(image_translate(hx_object_path("fwd"), &obj, &img), 0);
	image_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/fwd.hxu", dir);
	cr_assert_eq(hxu_image__save(img, path, err, sizeof(err)), 0, "%s", err);
	bytes = image_read_file(path, &len);
	f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(bytes, 1, len - 3, f), len - 3);
	fclose(f);
	snprintf(args, sizeof(args), "prog dump %s", path);
	out = run_cmd(args, true, &status);
	cr_assert_eq(status, 1);
	cr_assert_not_null(strstr(out, "image: "), "%s", out);
	cr_assert_not_null(strstr(out, "(truncated)"), "%s", out);
	free(out);

	snprintf(args, sizeof(args), "prog stats %s", path);
	out = run_cmd(args, true, &status);
	cr_assert_eq(status, 1);
	cr_assert_not_null(strstr(out, "not an image"), "%s", out);
	free(out);

	free(bytes);
	hxu_image__free(img);
	hwxdp_object__close(obj);
	image_tmpdir_remove(dir);
}

/* The operation at word w's branch or call target, or -1 for another. */
static int64_t target_of(const struct hxu_image *img, uint32_t w)
{
	struct hxu_op op;

	if (!hxu_decode_at(img->ops + w, img->op_cnt - w, &op))
		return -1;
	return op.opcode == HXU_OP_BR || op.opcode == HXU_OP_BRI || op.opcode == HXU_OP_JMP ||
			       op.opcode == HXU_OP_CALL || op.opcode == HXU_OP_LCHK
		       ? (int64_t)(uint32_t)op.imm
		       : -1;
}

/*
 * An object whose program array its definition fills: the image holds the
 * entry and the two stages, each program's operations and lines between its
 * entry and the next, every branch inside its own program; translate -j
 * names them in image order, and dump lists each with its own BPF
 * instructions.
 */
Test(cmd, translate_and_dump_of_tail_call_targets)
{
	static const char *const names[] = { "xdp_entry", "stage_v4", "stage_v6" };
	char dir[64], path[128], args[4400], obj_path[4200], err[256], *out, *at;
	struct hwxdp_object *obj;
	struct hxu_image *img;
	int status;

	snprintf(obj_path, sizeof(obj_path), "%s/tests/corpus/tail_prog_array.bpf.o",
		 hx_build_dir());
	image_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/tail.hxu", dir);
	snprintf(args, sizeof(args), "-j prog translate %s --prog xdp_entry -o %s", obj_path, path);
	out = run_cmd(args, true, &status);
	cr_assert_eq(status, 0, "%s", out);
	cr_assert_eq(member(out, "progs"), 3, "%s", out);
	cr_assert_not_null(strstr(out, "\"prog_names\":[\"xdp_entry\",\"stage_v4\",\"stage_v6\"]"),
			   "%s", out);
	free(out);
	cr_assert_eq(hxu_image__load(path, &img, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(hwxdp_engine__check(img, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(img->prog_cnt, 3);
	for (uint32_t k = 0; k < 3; k++) {
		uint32_t from = img->progs[k].entry;
		uint32_t to = k + 1 < 3 ? img->progs[k + 1].entry : img->op_cnt;

		cr_expect_str_eq(img->progs[k].name, names[k]);
		cr_assert_lt(from, to, "%s: no operations", names[k]);
		for (uint32_t i = 0; i < img->line_cnt; i++) {
			int64_t t = target_of(img, img->lines[i].op);

			if (img->lines[i].op < from || img->lines[i].op >= to)
				continue;
			cr_expect(t < 0 || (t >= from && t < to),
				  "%s: op %u jumps to %lld, outside %u..%u", names[k],
				  img->lines[i].op, (long long)t, from, to - 1);
		}
	}
	hxu_image__free(img);

	snprintf(args, sizeof(args), "prog dump %s", obj_path);
	out = run_cmd(args, true, &status);
	cr_assert_eq(status, 0, "%s", out);
	cr_assert_not_null(strstr(out, "with the 2 programs its tail calls reach"), "%s", out);
	at = strstr(out, "# program 2 stage_v6: ");
	cr_assert_not_null(at, "%s", out);
	/* stage_v6's own source and instructions, not the entry's at the same
	 * instruction index */
	cr_assert_not_null(strstr(at, "ip6h->hop_limit <= 1"), "%s", at);
	cr_assert_null(strstr(at, "iph->ttl"), "%s", at);
	cr_assert_null(strstr(at, "tcall"), "%s", at);
	free(out);
	cr_assert_eq(image_translate(obj_path, &obj, &img), 0);
	hxu_image__free(img);
	hwxdp_object__close(obj);
	image_tmpdir_remove(dir);
}
