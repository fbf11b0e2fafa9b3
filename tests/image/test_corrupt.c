// SPDX-License-Identifier: GPL-2.0
/*
 * A damaged image file is refused, never half-read: every truncation, every
 * single-byte change (caught by the checksum), and every single-byte change
 * with the checksum made to match again, which the field rules must catch
 * or which lands in a field the device does not care about. Run under
 * `make SAN=1` too: a read outside the buffer is a failure there.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "device/engine.h"
#include "hwmap/image.h"
#include "hwmap/translate.h"
#include "lab/target.h"
#include "tests/image/image_util.h"

static uint8_t *fwd_file(size_t *len, struct hxu_image **img_out)
{
	struct hwxdp_object *obj;
	struct hxu_image *img;
	char dir[64], path[128], err[256];
	uint8_t *bytes;

	cr_assert_eq(image_translate(hx_object_path("fwd"), &obj, &img), 0);
	image_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/fwd.hxu", dir);
	cr_assert_eq(hxu_image__save(img, path, err, sizeof(err)), 0, "%s", err);
	bytes = image_read_file(path, len);
	image_tmpdir_remove(dir);
	hwxdp_object__close(obj);
	if (img_out)
		*img_out = img;
	else
		hxu_image__free(img);
	return bytes;
}

/* The checksum the bytes should carry, computed here from the layout. */
static void fix_crc(uint8_t *buf, size_t len)
{
	uint32_t crc;

	memset(buf + 28, 0, 4);
	crc = (uint32_t)crc32(0, buf, (uInt)len);
	buf[28] = (uint8_t)crc;
	buf[29] = (uint8_t)(crc >> 8);
	buf[30] = (uint8_t)(crc >> 16);
	buf[31] = (uint8_t)(crc >> 24);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void assert_refused(const uint8_t *buf, size_t len, const char *what)
{
	struct hxu_image *img = (struct hxu_image *)1;
	char err[256] = "";
	int ret = hxu_image__read_mem(buf, len, &img, err, sizeof(err));

	cr_assert_eq(ret, -HWXDP_ERR_IMAGE_FILE, "%s: read %d (%s)", what, ret, err);
	cr_assert_null(img, "%s", what);
	cr_assert_eq(strncmp(err, "image: ", 7), 0, "%s: message '%s'", what, err);
	cr_assert_gt(strlen(err), 7, "%s", what);
}

Test(corrupt, every_truncation_and_extension)
{
	size_t len;
	uint8_t *bytes = fwd_file(&len, NULL), *longer;
	char what[64];

	for (size_t n = 0; n < len; n++) {
		snprintf(what, sizeof(what), "first %zu of %zu bytes", n, len);
		assert_refused(bytes, n, what);
	}
	longer = calloc(1, len + 8);
	cr_assert_not_null(longer);
	memcpy(longer, bytes, len);
	for (size_t extra = 1; extra <= 8; extra++) {
		snprintf(what, sizeof(what), "%zu trailing bytes", extra);
		assert_refused(longer, len + extra, what);
	}
	free(longer);
	free(bytes);
}

/* Each byte changed four ways; the checksum catches every one. */
Test(corrupt, every_byte_changed)
{
	static const uint8_t flips[] = { 0x01, 0x80, 0xff, 0x5a };
	size_t len;
	uint8_t *bytes = fwd_file(&len, NULL);
	char what[64];

	for (size_t at = 0; at < len; at++) {
		for (size_t f = 0; f < sizeof(flips); f++) {
			bytes[at] ^= flips[f];
			snprintf(what, sizeof(what), "byte %zu ^ 0x%02x", at, flips[f]);
			assert_refused(bytes, len, what);
			bytes[at] ^= flips[f];
		}
	}
	free(bytes);
}

enum part { PART_HEADER, PART_TABLES, PART_PROGS, PART_LINES, PART_OPS, PART__COUNT };

static const char *const part_names[] = { "header", "tables", "programs", "lines", "ops" };

/*
 * Each byte changed, then the checksum made right: the field rules must
 * refuse it, or the device's check must, or it is an image the device
 * takes that writes back to exactly these bytes (a don't-care field, such
 * as a name's letters, a map flag or a line's instruction index, or an
 * operation changed into another valid one). No change to the header may
 * get through.
 */
Test(corrupt, every_byte_changed_checksum_fixed)
{
	static const uint8_t values[] = { 0x00, 0x01, 0x7f, 0x80, 0xff };
	struct hxu_image *orig;
	size_t len;
	uint8_t *bytes = fwd_file(&len, &orig), *copy = malloc(len);
	unsigned int reader[PART__COUNT] = {}, device[PART__COUNT] = {}, taken[PART__COUNT] = {};
	size_t bounds[PART__COUNT + 1];
	char what[96], err[256], path[64] = "/tmp/hwxdp-image-rw-XXXXXX";
	uint8_t *again = malloc(len + 1);
	int fd = mkstemp(path);

	cr_assert_not_null(copy);
	cr_assert_not_null(again);
	cr_assert_geq(fd, 0);
	unlink(path);
	bounds[PART_HEADER] = 0;
	bounds[PART_TABLES] = 32;
	bounds[PART_PROGS] = bounds[PART_TABLES] + 112 * orig->table_cnt;
	bounds[PART_LINES] = bounds[PART_PROGS] + 72 * orig->prog_cnt;
	bounds[PART_OPS] = bounds[PART_LINES] + 8 * orig->line_cnt;
	bounds[PART__COUNT] = len;

	for (size_t at = 0; at < len; at++) {
		enum part part = PART_HEADER;

		if (at >= 28 && at < 32)
			continue; /* the checksum itself */
		while (at >= bounds[part + 1])
			part++;
		for (size_t v = 0; v < sizeof(values); v++) {
			struct hxu_image *img;
			int ret;

			if (bytes[at] == values[v])
				continue;
			memcpy(copy, bytes, len);
			copy[at] = values[v];
			fix_crc(copy, len);
			snprintf(what, sizeof(what), "%s byte %zu = 0x%02x", part_names[part], at,
				 values[v]);
			ret = hxu_image__read_mem(copy, len, &img, err, sizeof(err));
			if (ret) {
				cr_assert_eq(ret, -HWXDP_ERR_IMAGE_FILE, "%s: %d", what, ret);
				cr_assert_null(img);
				cr_assert_eq(strncmp(err, "image: ", 7), 0, "%s: '%s'", what, err);
				reader[part]++;
				continue;
			}
			cr_assert_neq(part, PART_HEADER, "%s: accepted", what);
			if (hwxdp_engine__check(img, NULL, err, sizeof(err))) {
				cr_assert_gt(strlen(err), 0, "%s: the device says why", what);
				device[part]++;
			} else {
				/* taken: and it is exactly these bytes */
				cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
				cr_assert_eq(ftruncate(fd, 0), 0);
				cr_assert_eq(hxu_image__write(img, fd, err, sizeof(err)), 0,
					     "%s: %s", what, err);
				cr_assert_eq(pread(fd, again, len + 1, 0), (ssize_t)len, "%s",
					     what);
				cr_assert_arr_eq(again, copy, len, "%s: written back", what);
				taken[part]++;
			}
			hxu_image__free(img);
		}
	}
	for (int p = 0; p < PART__COUNT; p++)
		cr_log_info("%s: %u refused by the reader, %u by the device, %u taken",
			    part_names[p], reader[p], device[p], taken[p]);
	/* the field rules are what catches changes outside the operations */
	cr_assert_gt(reader[PART_HEADER], 0);
	cr_assert_gt(reader[PART_TABLES], 0);
	cr_assert_gt(reader[PART_PROGS], 0);
	cr_assert_gt(reader[PART_LINES], 0);
	cr_assert_gt(device[PART_OPS], 0, "the device's check refuses damaged microcode");
	close(fd);
	free(again);
	free(copy);
	free(bytes);
	hxu_image__free(orig);
}

/* Each rule, with the message that names it. */
struct bad_field {
	const char *what;
	size_t (*at)(const struct hxu_image *img); /* offset of the field */
	uint32_t value;				   /* written as 4 bytes */
	const char *message;
	size_t fill; /* or: this many bytes of 'A' written there */
	bool whole;  /* the message is exactly this */
};

static size_t at_version(const struct hxu_image *img)
{
	(void)img;
	return 4;
}
static size_t at_op_cnt(const struct hxu_image *img)
{
	(void)img;
	return 8;
}
static size_t at_table_cnt(const struct hxu_image *img)
{
	(void)img;
	return 12;
}
static size_t at_prog_cnt(const struct hxu_image *img)
{
	(void)img;
	return 16;
}
static size_t at_line_cnt(const struct hxu_image *img)
{
	(void)img;
	return 20;
}
static size_t at_reserved(const struct hxu_image *img)
{
	(void)img;
	return 24;
}
static size_t at_table3(const struct hxu_image *img, size_t field)
{
	cr_assert_gt(img->table_cnt, 3);
	return 32 + 3 * 112 + field;
}
static size_t at_t0_key(const struct hxu_image *img)
{
	cr_assert_eq(img->tables[0].type, 1, "table 0 is a hash table");
	return 32 + 8;
}
static size_t at_t3_id(const struct hxu_image *img)
{
	return at_table3(img, 0);
}
static size_t at_t3_type(const struct hxu_image *img)
{
	return at_table3(img, 4);
}
static size_t at_t3_key(const struct hxu_image *img)
{
	return at_table3(img, 8);
}
static size_t at_t3_value(const struct hxu_image *img)
{
	return at_table3(img, 12);
}
static size_t at_t3_entries(const struct hxu_image *img)
{
	return at_table3(img, 16);
}
static size_t at_t3_name(const struct hxu_image *img)
{
	return at_table3(img, 24);
}
static size_t at_t3_inner_type(const struct hxu_image *img)
{
	return at_table3(img, 88);
}
static size_t at_t3_inner_reserved(const struct hxu_image *img)
{
	return at_table3(img, 108);
}
static size_t at_prog0(const struct hxu_image *img)
{
	return 32 + 112 * img->table_cnt;
}
static size_t at_p0_name_end(const struct hxu_image *img)
{
	return at_prog0(img) + 60;
}
static size_t at_p0_entry(const struct hxu_image *img)
{
	return at_prog0(img) + 64;
}
static size_t at_p0_frames(const struct hxu_image *img)
{
	return at_prog0(img) + 68;
}
static size_t at_line5_op(const struct hxu_image *img)
{
	return at_prog0(img) + 72 * img->prog_cnt + 5 * 8;
}

Test(corrupt, each_rule_names_its_field)
{
	const struct bad_field cases[] = {
		{ "version", at_version, 0, "image: version 0, this reader reads 2" },
		{ "op count 0", at_op_cnt, 0,
		  "image: 0 operation words, the store holds 1..32768" },
		{ "op count", at_op_cnt, 32769, "image: 32769 operation words" },
		{ "table count", at_table_cnt, 257, "image: 257 tables, the device has 256" },
		{ "no programs", at_prog_cnt, 0, "image: 0 programs, an image holds 1..256" },
		{ "line count", at_line_cnt, 32768, "image: 32768 lines for" },
		{ "counts and length", at_line_cnt, 1, "(trailing bytes)" },
		{ "counts and length", at_op_cnt, 2000, "(truncated)" },
		{ "reserved", at_reserved, 7, "image: reserved header word 0x00000007, not zero" },
		{ "table id", at_t3_id, 256, "image: table 3: id 256 beyond 255" },
		{ "table id twice", at_t3_id, 0, "image: table 3: id 0 used twice" },
		{ "table type", at_t3_type, 27,
		  "image: table 3: type 27, which the table engine lacks" },
		{ "key size", at_t0_key, 0, "image: table 0: key size 0", 0, true },
		{ "hash key size", at_t0_key, 65, "image: table 0: key size 65, type 1 takes 1..64",
		  0, true },
		{ "array key size", at_t3_key, 8,
		  "image: table 3: key size 8, type 2 takes exactly 4" },
		{ "value size", at_t3_value, 0, "image: table 3: value size 0" },
		{ "value size", at_t3_value, (1u << 20) + 1, "image: table 3: value size 1048577" },
		{ "entries", at_t3_entries, 0, "image: table 3: no entries" },
		{ "table name", at_t3_name, 0, "image: table 3: name not NUL-terminated", 64 },
		{ "template", at_t3_inner_type, 1,
		  "image: table 3: a template, and no map of maps" },
		{ "template reserved", at_t3_inner_reserved, 1,
		  "image: table 3: reserved word not zero" },
		{ "program name", at_prog0, 0, "image: program 0: name not NUL-terminated", 64 },
		{ "name padding", at_p0_name_end, 0x41,
		  "image: program 0: byte 60 of the name field" },
		{ "entry", at_p0_entry, 100000, "image: program 0: entry 100000 beyond the last" },
		{ "frames 0", at_p0_frames, 0,
		  "image: program 0: 0 stack frames, the device has 1..8" },
		{ "frames 9", at_p0_frames, 9, "image: program 0: 9 stack frames" },
		{ "line order", at_line5_op, 0,
		  "image: line 5: operation 0 does not follow line 4's" },
		{ "line op", at_line5_op, 1u << 20,
		  "image: line 5: operation 1048576 beyond the last" },
	};
	struct hxu_image *orig;
	size_t len;
	uint8_t *bytes = fwd_file(&len, &orig), *copy = malloc(len);

	cr_assert_not_null(copy);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bad_field *c = &cases[i];
		struct hxu_image *img;
		char err[256];

		memcpy(copy, bytes, len);
		if (c->fill)
			memset(copy + c->at(orig), 'A', c->fill);
		else
			put32(copy + c->at(orig), c->value);
		fix_crc(copy, len);
		cr_assert_eq(hxu_image__read_mem(copy, len, &img, err, sizeof(err)),
			     -HWXDP_ERR_IMAGE_FILE, "%s: accepted", c->what);
		cr_assert_not_null(c->whole ? (strcmp(err, c->message) ? NULL : err)
					    : strstr(err, c->message),
				   "%s: '%s', not '%s'", c->what, err, c->message);
	}
	/* the magic and the checksum */
	memcpy(copy, bytes, len);
	copy[3] = '1';
	assert_refused(copy, len, "magic");
	{
		struct hxu_image *img;
		char err[256];

		cr_assert_eq(hxu_image__read_mem(copy, len, &img, err, sizeof(err)),
			     -HWXDP_ERR_IMAGE_FILE);
		cr_assert_str_eq(err, "image: no \"HXU0\" magic: not an HXU image");
		memcpy(copy, bytes, len);
		copy[len - 1] ^= 1;
		cr_assert_eq(hxu_image__read_mem(copy, len, &img, err, sizeof(err)),
			     -HWXDP_ERR_IMAGE_FILE);
		cr_assert_eq(strncmp(err, "image: checksum 0x", 18), 0, "%s", err);
	}
	free(copy);
	free(bytes);
	hxu_image__free(orig);
}

/* The writer refuses what the reader would: nothing unreadable is written. */
Test(corrupt, writer_refuses_what_reader_would)
{
	struct hwxdp_object *obj;
	struct hxu_image *img;
	struct hxu_prog_desc *progs;
	char err[256];
	int fd;

	cr_assert_eq(image_translate(hx_object_path("fwd"), &obj, &img), 0);
	fd = open("/dev/null", O_WRONLY);
	cr_assert_geq(fd, 0);
	progs = (struct hxu_prog_desc *)img->progs;
	progs[0].frames = 0;
	cr_assert_eq(hxu_image__write(img, fd, err, sizeof(err)), -EINVAL);
	cr_assert_str_eq(err, "image: program 0: 0 stack frames, the device has 1..8");
	progs[0].frames = 1;
	memset(progs[0].name, 'x', sizeof(progs[0].name));
	cr_assert_eq(hxu_image__write(img, fd, err, sizeof(err)), -EINVAL);
	cr_assert_str_eq(err, "image: program 0: name not NUL-terminated");
	close(fd);
	hxu_image__free(img);
	hwxdp_object__close(obj);
}
