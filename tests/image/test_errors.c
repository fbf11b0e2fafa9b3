// SPDX-License-Identifier: GPL-2.0
/*
 * One cause, one line: the built command, given a bad file, says so in one
 * line on its standard error ("hwxdp: error: FILE: what is wrong"), never
 * the library's line and then the command's again, and never an errno
 * text for a project code ("Unknown error 4000").
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "hwmap/image.h"
#include "hwmap/translate.h"
#include "lab/target.h"
#include "tests/common/cmd.h"
#include "tests/image/image_util.h"

static char dir[64];

static void setup(void)
{
	image_tmpdir(dir, sizeof(dir));
}

static void teardown(void)
{
	image_tmpdir_remove(dir);
}

TestSuite(errors, .init = setup, .fini = teardown);

static const char *in_dir(const char *name)
{
	static char path[4][256];
	static int next;
	char *p = path[next++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	return p;
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	cr_assert_eq(fwrite(data, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
}

/* Runs `hwxdp args`, which must fail, and checks its standard error: one
 * line, the command's, naming file and saying what. */
static void assert_one_line(const char *args, const char *file, const char *what)
{
	char line[8192], *err;
	size_t len;
	int status;

	snprintf(line, sizeof(line), "%s 2>&1 >/dev/null", args);
	err = hx_cmd("hwxdp", line, &status);
	len = strlen(err);
	cr_assert(status, "hwxdp %s succeeded", args);
	cr_assert(len && err[len - 1] == '\n', "hwxdp %s: no line: '%s'", args, err);
	cr_assert(strchr(err, '\n') == err + len - 1, "hwxdp %s: more than one line:\n%s", args,
		  err);
	cr_assert(!strncmp(err, "hwxdp: error: ", 14), "hwxdp %s: not an error line: %s", args,
		  err);
	cr_assert(strstr(err, file), "hwxdp %s: the line does not name %s: %s", args, file, err);
	cr_assert(strstr(err, what), "hwxdp %s: the line does not say '%s': %s", args, what, err);
	cr_assert_null(strstr(err, "Unknown error"), "hwxdp %s: %s", args, err);
	free(err);
}

Test(errors, objects_that_are_not_objects)
{
	static const char text[] = "not an object\n";
	/* an empty capture: microseconds, Ethernet */
	static const uint8_t pcap_header[24] = { 0xd4, 0xc3, 0xb2,	  0xa1, 2,	 0,
						 4,    0,    [16] = 0xff, 0xff, [20] = 1 };
	const char *bad = in_dir("text.bpf.o"), *out = in_dir("out.hxu"), *pcap = in_dir("in.pcap");
	char args[1024];

	write_file(bad, text, sizeof(text) - 1);
	write_file(pcap, pcap_header, sizeof(pcap_header));
	snprintf(args, sizeof(args), "prog translate %s -o %s", bad, out);
	assert_one_line(args, bad, "not an ELF file");
	snprintf(args, sizeof(args), "prog dump %s", bad);
	assert_one_line(args, bad, "not an ELF file");
	snprintf(args, sizeof(args), "verify %s", bad);
	assert_one_line(args, bad, "not an ELF file");
	snprintf(args, sizeof(args), "prog stats %s", bad);
	assert_one_line(args, bad, "not an ELF file");
	snprintf(args, sizeof(args), "run %s --in %s --out %s", bad, pcap, in_dir("out.pcap"));
	assert_one_line(args, bad, "not an ELF file");
	snprintf(args, sizeof(args), "verify %s", dir);
	assert_one_line(args, dir, "a folder");
	snprintf(args, sizeof(args), "verify %s", in_dir("missing.bpf.o"));
	assert_one_line(args, in_dir("missing.bpf.o"), "No such file or directory");
}

/* fwd's object cut short: the loader's reason, once. */
Test(errors, a_truncated_object)
{
	const char *cut = in_dir("cut.bpf.o");
	uint8_t *data;
	size_t len;
	char args[1024];

	data = image_read_file(hx_object_path("fwd"), &len);
	write_file(cut, data, 3000);
	free(data);
	snprintf(args, sizeof(args), "prog translate %s -o %s", cut, in_dir("out.hxu"));
	assert_one_line(args, cut, "no symbol table");
	snprintf(args, sizeof(args), "prog stats %s", cut);
	assert_one_line(args, cut, "no symbol table");
}

static void put_crc(uint8_t *data, size_t len)
{
	uint32_t crc;

	memset(data + 28, 0, 4);
	crc = (uint32_t)crc32(0, data, (uInt)len);
	memcpy(data + 28, &crc, 4);
}

/* fwd's image with a table memory load based on r10 (a number, not a
 * table value's address), its checksum made right: the device refuses it
 * and says where. */
Test(errors, an_image_the_device_refuses)
{
	const char *path = in_dir("fwd.hxu"), *wild = in_dir("wild.hxu");
	uint32_t tables, progs, lines, ops, at = UINT32_MAX;
	struct hwxdp_object *obj;
	struct hxu_image *img;
	char args[1024], err[256], what[64];
	uint8_t *data;
	size_t len, base;

	cr_assert_eq(image_translate(hx_object_path("fwd"), &obj, &img), 0);
	cr_assert_eq(hxu_image__save(img, path, err, sizeof(err)), 0, "%s", err);
	hxu_image__free(img);
	hwxdp_object__close(obj);
	data = image_read_file(path, &len);
	memcpy(&ops, data + 8, 4);
	memcpy(&tables, data + 12, 4);
	memcpy(&progs, data + 16, 4);
	memcpy(&lines, data + 20, 4);
	base = 32 + 112 * (size_t)tables + 72 * (size_t)progs + 8 * (size_t)lines;
	for (uint32_t i = 0; i < ops && at == UINT32_MAX; i++) {
		uint64_t w;

		memcpy(&w, data + base + 8 * i, 8);
		if ((w >> 56) == HXU_OP_LD + HXU_SPACE_TM) {
			w = (w & ~(0xfull << HXU_RS_SHIFT)) | (uint64_t)HXU_REG_FP << HXU_RS_SHIFT;
			memcpy(data + base + 8 * i, &w, 8);
			at = i;
		}
	}
	cr_assert_neq(at, UINT32_MAX, "fwd has no table memory load");
	put_crc(data, len);
	write_file(wild, data, len);
	free(data);
	snprintf(what, sizeof(what), "op %u: table memory access through r10", at);
	snprintf(args, sizeof(args), "prog dump %s", wild);
	assert_one_line(args, wild, what);

	/* and a checksum that is wrong, said in words */
	data = image_read_file(path, &len);
	data[40] ^= 1;
	write_file(wild, data, len);
	free(data);
	assert_one_line(args, wild, "checksum");
}

Test(errors, a_state_file_that_is_not_one)
{
	static const char json[] = "{\n  \"maps\": [\n";
	const char *state = in_dir("state.json");
	char args[2048];

	write_file(state, json, sizeof(json) - 1);
	snprintf(args, sizeof(args), "prog stats %s --maps %s", hx_object_path("fwd"), state);
	assert_one_line(args, state, state);
	snprintf(args, sizeof(args), "prog stats %s --maps %s", hx_object_path("fwd"), dir);
	assert_one_line(args, dir, "not a state file");
}
