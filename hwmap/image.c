// SPDX-License-Identifier: GPL-2.0
/*
 * The HXU image file (docs/isa.md section 6). Every field is written and
 * read byte by byte in little-endian order, so the file is the same on any
 * host; the reader trusts nothing until the length and the checksum agree
 * with the header, and then checks every field it hands on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <linux/bpf.h>

#include "hwmap/hash.h"
#include "hwmap/image.h"
#include "hwmap/translate.h"
#include "base/file.h"

/* Header fields. */
#define HDR_MAGIC     0
#define HDR_VERSION   4
#define HDR_OP_CNT    8
#define HDR_TABLE_CNT 12
#define HDR_PROG_CNT  16
#define HDR_LINE_CNT  20
#define HDR_RESERVED  24
#define HDR_CRC	      28

/* Table descriptor fields. */
#define TAB_ID		0
#define TAB_TYPE	4
#define TAB_KEY_SIZE	8
#define TAB_VALUE_SIZE	12
#define TAB_MAX_ENTRIES 16
#define TAB_FLAGS	20
#define TAB_NAME	24
#define TAB_INNER	88 /* type, key, value, entries, flags; 4 bytes reserved */
#define TAB_INNER_RSVD	108

/* Program descriptor fields. */
#define PROG_NAME   0
#define PROG_ENTRY  64
#define PROG_FRAMES 68

/* Values the table engine holds, at most (docs/isa.md section 1). */
#define ARRAY_VALUE_MAX	       (1u << 20)
#define PERCPU_ARRAY_VALUE_MAX (32u << 10)
/* An LPM trie's key: the 4-byte prefix length and at least one byte. */
#define LPM_KEY_MIN 5

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

__attribute__((format(printf, 3, 4))) static int refuse(char *err, size_t errlen, const char *fmt,
							...)
{
	va_list ap;
	int n = 0;

	if (errlen) {
		n = snprintf(err, errlen, "image: ");
		va_start(ap, fmt);
		if (n >= 0 && (size_t)n < errlen)
			vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -HWXDP_ERR_IMAGE_FILE;
}

/* The file's length for these counts; 64-bit, so that no count overflows it. */
static uint64_t file_size(uint64_t op_cnt, uint64_t table_cnt, uint64_t prog_cnt, uint64_t line_cnt)
{
	return HXU_IMAGE_HEADER_SIZE + table_cnt * HXU_IMAGE_TABLE_SIZE +
	       prog_cnt * HXU_IMAGE_PROG_SIZE + line_cnt * HXU_IMAGE_LINE_SIZE +
	       op_cnt * HXU_IMAGE_WORD_SIZE;
}

/* zlib's CRC-32 of the file with the checksum field taken as zero, so that
 * the field can live in the header, before the bytes it covers. */
static uint32_t file_crc(const uint8_t *buf, size_t len)
{
	static const uint8_t zero[4];
	uLong crc = crc32(0, Z_NULL, 0);

	crc = crc32(crc, buf, HDR_CRC);
	crc = crc32(crc, zero, sizeof(zero));
	/* zlib takes a uInt length; files are far below 4 GiB (HXU_IMAGE_SIZE_MAX) */
	crc = crc32(crc, buf + HDR_CRC + 4, (uInt)(len - HDR_CRC - 4));
	return (uint32_t)crc;
}

bool hxu_image__has_magic(const void *buf, size_t len)
{
	return len >= 4 && !memcmp(buf, HXU_MAGIC, 4);
}

size_t hxu_image__file_size(const struct hxu_image *img)
{
	return (size_t)file_size(img->op_cnt, img->table_cnt, img->prog_cnt, img->line_cnt);
}

/* Copies a name into its fixed field, NUL-padded; false when it has no NUL
 * within the field, which the reader would refuse. */
static bool put_name(uint8_t *field, const char *name)
{
	size_t n = strnlen(name, HXU_NAME_MAX);

	if (n == HXU_NAME_MAX)
		return false;
	memset(field, 0, HXU_NAME_MAX);
	memcpy(field, name, n);
	return true;
}

/* img as file bytes, checked with the reader's rules: 0, -EINVAL (reason in
 * err) or -ENOMEM. */
static int encode(const struct hxu_image *img, uint8_t **out, size_t *out_len, char *err,
		  size_t errlen)
{
	uint64_t size = file_size(img->op_cnt, img->table_cnt, img->prog_cnt, img->line_cnt);
	struct hxu_image *check;
	uint8_t *buf, *p;
	uint32_t i;
	int ret;

	*out = NULL;
	if (size > HXU_IMAGE_SIZE_MAX || img->table_cnt > HXU_TABLES ||
	    img->prog_cnt > HXU_IMAGE_PROGS_MAX || img->op_cnt > HXU_STORE_WORDS ||
	    img->line_cnt > HXU_STORE_WORDS) {
		refuse(err, errlen, "%u words, %u tables, %u programs, %u lines: beyond the limits",
		       img->op_cnt, img->table_cnt, img->prog_cnt, img->line_cnt);
		return -EINVAL;
	}
	if ((img->op_cnt && !img->ops) || (img->table_cnt && !img->tables) ||
	    (img->prog_cnt && !img->progs) || (img->line_cnt && !img->lines)) {
		refuse(err, errlen, "a count without its array");
		return -EINVAL;
	}
	buf = calloc(1, (size_t)size);
	if (!buf)
		return -ENOMEM;
	memcpy(buf + HDR_MAGIC, HXU_MAGIC, 4);
	put32(buf + HDR_VERSION, img->version);
	put32(buf + HDR_OP_CNT, img->op_cnt);
	put32(buf + HDR_TABLE_CNT, img->table_cnt);
	put32(buf + HDR_PROG_CNT, img->prog_cnt);
	put32(buf + HDR_LINE_CNT, img->line_cnt);
	p = buf + HXU_IMAGE_HEADER_SIZE;
	for (i = 0; i < img->table_cnt; i++, p += HXU_IMAGE_TABLE_SIZE) {
		const struct hxu_table_desc *t = &img->tables[i];

		put32(p + TAB_ID, t->id);
		put32(p + TAB_TYPE, t->type);
		put32(p + TAB_KEY_SIZE, t->key_size);
		put32(p + TAB_VALUE_SIZE, t->value_size);
		put32(p + TAB_MAX_ENTRIES, t->max_entries);
		put32(p + TAB_FLAGS, t->flags);
		put32(p + TAB_INNER, t->inner.type);
		put32(p + TAB_INNER + 4, t->inner.key_size);
		put32(p + TAB_INNER + 8, t->inner.value_size);
		put32(p + TAB_INNER + 12, t->inner.max_entries);
		put32(p + TAB_INNER + 16, t->inner.flags);
		if (!put_name(p + TAB_NAME, t->name)) {
			refuse(err, errlen, "table %u: name not NUL-terminated", i);
			free(buf);
			return -EINVAL;
		}
	}
	for (i = 0; i < img->prog_cnt; i++, p += HXU_IMAGE_PROG_SIZE) {
		const struct hxu_prog_desc *pd = &img->progs[i];

		if (!put_name(p + PROG_NAME, pd->name)) {
			refuse(err, errlen, "program %u: name not NUL-terminated", i);
			free(buf);
			return -EINVAL;
		}
		put32(p + PROG_ENTRY, pd->entry);
		put32(p + PROG_FRAMES, pd->frames);
	}
	for (i = 0; i < img->line_cnt; i++, p += HXU_IMAGE_LINE_SIZE) {
		put32(p, img->lines[i].op);
		put32(p + 4, img->lines[i].insn);
	}
	for (i = 0; i < img->op_cnt; i++, p += HXU_IMAGE_WORD_SIZE)
		put64(p, img->ops[i]);
	put32(buf + HDR_CRC, file_crc(buf, (size_t)size));

	/* Never write what would be refused when read back. */
	ret = hxu_image__read_mem(buf, (size_t)size, &check, err, errlen);
	hxu_image__free(check);
	if (ret) {
		free(buf);
		return ret == -ENOMEM ? ret : -EINVAL;
	}
	*out = buf;
	*out_len = (size_t)size;
	return 0;
}

static int write_all(int fd, const uint8_t *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!n)
			return -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int hxu_image__write(const struct hxu_image *img, int fd, char *err, size_t errlen)
{
	uint8_t *buf;
	size_t len;
	int ret;

	if (errlen)
		err[0] = '\0';
	ret = encode(img, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = write_all(fd, buf, len);
	if (ret && errlen)
		snprintf(err, errlen, "image: cannot write: %s", hwxdp_strerror(ret));
	free(buf);
	return ret;
}

int hxu_image__save(const struct hxu_image *img, const char *path, char *err, size_t errlen)
{
	char msg[512];
	uint8_t *buf;
	size_t len;
	int ret;

	if (errlen)
		err[0] = '\0';
	ret = encode(img, &buf, &len, err, errlen);
	if (ret)
		return ret;
	/* an image is no secret */
	ret = hwxdp_file__write(path, NULL, 0644, buf, len, NULL, msg, sizeof(msg));
	free(buf);
	if (ret)
		snprintf(err, errlen, "image: %s", msg);
	return ret;
}

/* A name field: NUL-terminated, NUL after its end, so that a file has one
 * spelling for each image. */
static int check_name(const uint8_t *field, const char *what, uint32_t i, char *err, size_t errlen)
{
	size_t n = strnlen((const char *)field, HXU_NAME_MAX);

	if (n == HXU_NAME_MAX)
		return refuse(err, errlen, "%s %u: name not NUL-terminated", what, i);
	for (size_t k = n + 1; k < HXU_NAME_MAX; k++)
		if (field[k])
			return refuse(err, errlen,
				      "%s %u: byte %zu of the name field after its NUL", what, i,
				      k);
	return 0;
}

/* What docs/isa.md section 1 lets a table be: 0 or the refusal. */
static int check_table(const struct hxu_table_desc *t, uint32_t i, const bool *seen, char *err,
		       size_t errlen)
{
	uint32_t key_exact = 0, key_min = 1, key_max = HWXDP_HASH_KEY_MAX;
	uint32_t value_max = HWXDP_HASH_VALUE_MAX;

	if (t->id >= HXU_TABLES)
		return refuse(err, errlen, "table %u: id %u beyond %u", i, t->id, HXU_TABLES - 1);
	if (seen[t->id])
		return refuse(err, errlen, "table %u: id %u used twice", i, t->id);
	switch (t->type) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		break;
	case BPF_MAP_TYPE_LPM_TRIE:
		key_min = LPM_KEY_MIN;
		break;
	case BPF_MAP_TYPE_ARRAY:
		key_exact = 4;
		value_max = ARRAY_VALUE_MAX;
		break;
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		key_exact = 4;
		value_max = PERCPU_ARRAY_VALUE_MAX;
		break;
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		key_exact = 4;
		value_max = 8;
		break;
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
		key_exact = 4;
		value_max = 4;
		break;
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		value_max = 4;
		break;
	default:
		return refuse(err, errlen, "table %u: type %u, which the table engine lacks", i,
			      t->type);
	}
	if (hxu_map_of_maps(t->type)) {
		struct hxu_table_desc in = {
			.id = 0,
			.type = t->inner.type,
			.key_size = t->inner.key_size,
			.value_size = t->inner.value_size,
			.max_entries = t->inner.max_entries,
		};
		bool none[HXU_TABLES] = {};

		if (hxu_map_of_maps(in.type))
			return refuse(err, errlen,
				      "table %u: a map of maps whose template is one too", i);
		if (check_table(&in, i, none, NULL, 0))
			return refuse(err, errlen,
				      "table %u: template type %u, key %u, value %u, %u entries, "
				      "which no table can be",
				      i, in.type, in.key_size, in.value_size, in.max_entries);
	} else if (t->inner.type || t->inner.key_size || t->inner.value_size ||
		   t->inner.max_entries || t->inner.flags) {
		return refuse(err, errlen, "table %u: a template, and no map of maps", i);
	}
	if (!t->key_size)
		return refuse(err, errlen, "table %u: key size 0", i);
	if (key_exact && t->key_size != key_exact)
		return refuse(err, errlen, "table %u: key size %u, type %u takes exactly %u", i,
			      t->key_size, t->type, key_exact);
	if (!key_exact && (t->key_size < key_min || t->key_size > key_max))
		return refuse(err, errlen, "table %u: key size %u, type %u takes %u..%u", i,
			      t->key_size, t->type, key_min, key_max);
	if (!t->value_size)
		return refuse(err, errlen, "table %u: value size 0", i);
	if (t->value_size > value_max ||
	    ((t->type == BPF_MAP_TYPE_PROG_ARRAY || hxu_map_of_maps(t->type)) &&
	     t->value_size != 4))
		return refuse(err, errlen, "table %u: value size %u, type %u takes at most %u", i,
			      t->value_size, t->type, value_max);
	if (!t->max_entries)
		return refuse(err, errlen, "table %u: no entries", i);
	return 0;
}

/* The arrays of an image whose header, length and checksum are good. */
static int read_body(const uint8_t *buf, struct hxu_image *img, char *err, size_t errlen)
{
	struct hxu_table_desc *tables = NULL;
	struct hxu_prog_desc *progs = NULL;
	struct hxu_line *lines = NULL;
	bool seen[HXU_TABLES] = {};
	const uint8_t *p = buf + HXU_IMAGE_HEADER_SIZE;
	uint64_t *ops;
	uint32_t i;
	int ret;

	ops = malloc((size_t)img->op_cnt * sizeof(*ops));
	if (img->table_cnt)
		tables = calloc(img->table_cnt, sizeof(*tables));
	progs = calloc(img->prog_cnt, sizeof(*progs));
	if (img->line_cnt)
		lines = calloc(img->line_cnt, sizeof(*lines));
	/* owned by img from here: hxu_image__free takes them on every path */
	img->ops = ops;
	img->tables = tables;
	img->progs = progs;
	img->lines = lines;
	if (!ops || (img->table_cnt && !tables) || !progs || (img->line_cnt && !lines))
		return -ENOMEM;

	for (i = 0; i < img->table_cnt; i++, p += HXU_IMAGE_TABLE_SIZE) {
		struct hxu_table_desc *t = &tables[i];

		t->id = get32(p + TAB_ID);
		t->type = get32(p + TAB_TYPE);
		t->key_size = get32(p + TAB_KEY_SIZE);
		t->value_size = get32(p + TAB_VALUE_SIZE);
		t->max_entries = get32(p + TAB_MAX_ENTRIES);
		t->flags = get32(p + TAB_FLAGS);
		t->inner.type = get32(p + TAB_INNER);
		t->inner.key_size = get32(p + TAB_INNER + 4);
		t->inner.value_size = get32(p + TAB_INNER + 8);
		t->inner.max_entries = get32(p + TAB_INNER + 12);
		t->inner.flags = get32(p + TAB_INNER + 16);
		if (get32(p + TAB_INNER_RSVD))
			return refuse(err, errlen, "table %u: reserved word not zero", i);
		ret = check_name(p + TAB_NAME, "table", i, err, errlen);
		if (ret)
			return ret;
		memcpy(t->name, p + TAB_NAME, HXU_NAME_MAX);
		ret = check_table(t, i, seen, err, errlen);
		if (ret)
			return ret;
		seen[t->id] = true;
	}
	for (i = 0; i < img->prog_cnt; i++, p += HXU_IMAGE_PROG_SIZE) {
		struct hxu_prog_desc *pd = &progs[i];

		ret = check_name(p + PROG_NAME, "program", i, err, errlen);
		if (ret)
			return ret;
		memcpy(pd->name, p + PROG_NAME, HXU_NAME_MAX);
		pd->entry = get32(p + PROG_ENTRY);
		pd->frames = get32(p + PROG_FRAMES);
		if (pd->entry >= img->op_cnt)
			return refuse(err, errlen,
				      "program %u: entry %u beyond the last operation %u", i,
				      pd->entry, img->op_cnt - 1);
		if (pd->frames < 1 || pd->frames > HXU_LM_FRAMES)
			return refuse(err, errlen,
				      "program %u: %u stack frames, the device has 1..%u", i,
				      pd->frames, HXU_LM_FRAMES);
	}
	for (i = 0; i < img->line_cnt; i++, p += HXU_IMAGE_LINE_SIZE) {
		lines[i].op = get32(p);
		lines[i].insn = get32(p + 4);
		if (lines[i].op >= img->op_cnt)
			return refuse(err, errlen, "line %u: operation %u beyond the last %u", i,
				      lines[i].op, img->op_cnt - 1);
		if (i && lines[i].op <= lines[i - 1].op)
			return refuse(err, errlen,
				      "line %u: operation %u does not follow line %u's %u", i,
				      lines[i].op, i - 1, lines[i - 1].op);
	}
	for (i = 0; i < img->op_cnt; i++, p += HXU_IMAGE_WORD_SIZE)
		ops[i] = get64(p);
	return 0;
}

int hxu_image__read_mem(const void *data, size_t len, struct hxu_image **out, char *err,
			size_t errlen)
{
	const uint8_t *buf = data;
	struct hxu_image *img;
	uint32_t crc, reserved;
	uint64_t want;
	int ret;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	if (len < HXU_IMAGE_HEADER_SIZE)
		return refuse(err, errlen, "%zu bytes, shorter than the %u-byte header", len,
			      HXU_IMAGE_HEADER_SIZE);
	if (!hxu_image__has_magic(buf, len))
		return refuse(err, errlen, "no \"%s\" magic: not an HXU image", HXU_MAGIC);
	img = calloc(1, sizeof(*img));
	if (!img)
		return -ENOMEM;
	img->version = get32(buf + HDR_VERSION);
	img->op_cnt = get32(buf + HDR_OP_CNT);
	img->table_cnt = get32(buf + HDR_TABLE_CNT);
	img->prog_cnt = get32(buf + HDR_PROG_CNT);
	img->line_cnt = get32(buf + HDR_LINE_CNT);
	reserved = get32(buf + HDR_RESERVED);
	want = file_size(img->op_cnt, img->table_cnt, img->prog_cnt, img->line_cnt);

	if (img->version != HXU_VERSION)
		ret = refuse(err, errlen, "version %u, this reader reads %u", img->version,
			     HXU_VERSION);
	else if (reserved)
		ret = refuse(err, errlen, "reserved header word 0x%08x, not zero", reserved);
	else if (!img->op_cnt || img->op_cnt > HXU_STORE_WORDS)
		ret = refuse(err, errlen, "%u operation words, the store holds 1..%u", img->op_cnt,
			     HXU_STORE_WORDS);
	else if (img->table_cnt > HXU_TABLES)
		ret = refuse(err, errlen, "%u tables, the device has %u", img->table_cnt,
			     HXU_TABLES);
	else if (!img->prog_cnt || img->prog_cnt > HXU_IMAGE_PROGS_MAX)
		ret = refuse(err, errlen, "%u programs, an image holds 1..%u", img->prog_cnt,
			     HXU_IMAGE_PROGS_MAX);
	else if (img->line_cnt > img->op_cnt)
		ret = refuse(err, errlen, "%u lines for %u operation words", img->line_cnt,
			     img->op_cnt);
	else if (want != len)
		ret = refuse(err, errlen, "%zu bytes, the header's counts make %llu (%s)", len,
			     (unsigned long long)want, len < want ? "truncated" : "trailing bytes");
	else if ((crc = file_crc(buf, len)) != get32(buf + HDR_CRC))
		ret = refuse(err, errlen, "checksum 0x%08x, the bytes give 0x%08x",
			     get32(buf + HDR_CRC), crc);
	else
		ret = read_body(buf, img, err, errlen);
	if (ret) {
		hxu_image__free(img);
		return ret;
	}
	*out = img;
	return 0;
}

int hxu_image__load(const char *path, struct hxu_image **out, char *err, size_t errlen)
{
	char msg[512];
	void *buf;
	size_t len;
	int ret;

	*out = NULL;
	ret = hwxdp_file__read(path, "images", HXU_IMAGE_SIZE_MAX, &buf, &len, msg, sizeof(msg));
	if (ret) {
		snprintf(err, errlen, "image: %s%s", msg,
			 ret == -EFBIG ? "; more than an image can hold" : "");
		/* the limits of an image, not of the machine */
		return ret == -EFBIG ? -HWXDP_ERR_IMAGE_FILE : ret;
	}
	ret = hxu_image__read_mem(buf, len, out, err, errlen);
	free(buf);
	return ret;
}
