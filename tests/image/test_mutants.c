// SPDX-License-Identifier: GPL-2.0
/*
 * Images with one field changed and the checksum made to match again: the
 * file's rules cannot catch them, so the device must, at load or while it
 * runs a frame, never by touching memory that is not the frame's, the
 * stack's or a table value's. Run under `make SAN=1` too.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <linux/bpf.h>

#include "device/compile.h"
#include "device/engine.h"
#include "device/tables.h"
#include "hwmap/image.h"
#include "hwmap/translate.h"
#include "lab/target.h"
#include "tests/image/image_util.h"

static uint8_t *fwd_bytes(size_t *len, struct hxu_image **img_out)
{
	struct hwxdp_object *obj;
	char dir[64], path[128], err[256];
	uint8_t *bytes;

	cr_assert_eq(image_translate(hx_object_path("fwd"), &obj, img_out), 0);
	image_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/fwd.hxu", dir);
	cr_assert_eq(hxu_image__save(*img_out, path, err, sizeof(err)), 0, "%s", err);
	bytes = image_read_file(path, len);
	image_tmpdir_remove(dir);
	hwxdp_object__close(obj);
	return bytes;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void fix_crc(uint8_t *buf, size_t len)
{
	memset(buf + 28, 0, 4);
	put32(buf + 28, (uint32_t)crc32(0, buf, (uInt)len));
}

/* An IPv4/UDP frame to port 0 of fwd. */
static void run_frames(struct hwxdp_engine *e, const char *what)
{
	static const uint8_t frame[] = {
		0x02, 0, 0,  0,	 0, 1, 0x02, 0,	   0,	 0,    0, 2, 0x08, 0x00,
		0x45, 0, 0,  28, 0, 0, 0,    0,	   64,	 17,   0, 0, 10,   0,
		0,    1, 10, 0,	 0, 2, 0x12, 0x34, 0x00, 0x35, 0, 8, 0,	   0,
	};
	static uint8_t window[HXU_WINDOW_SIZE];

	for (uint32_t ingress = 0; ingress < 3; ingress++) {
		struct hwxdp_frame f = { .window = window, .ingress = ingress };
		int ret;

		hwxdp_frame__place(&f, frame, sizeof(frame));
		ret = hwxdp_engine__run(e, 0, &f, NULL);
		/* exited, or aborted by one of the engine's run-time checks */
		cr_assert(ret == 0 || (ret <= -HWXDP_ERR_PKT_ACCESS &&
				       ret >= -HWXDP_ERR_TM_ACCESS && f.verdict == XDP_ABORTED),
			  "%s: frame %u: %d", what, ingress, ret);
	}
}

/* The image in buf, with its tables: the engine, or NULL with err set. */
static struct hwxdp_engine *load(const uint8_t *buf, size_t len, struct hwxdp_tables **tables,
				 struct hxu_image **img, char *err, size_t errlen)
{
	cr_assert_eq(hxu_image__read_mem(buf, len, img, err, errlen), 0, "%s", err);
	*tables = hwxdp_tables__new();
	cr_assert_not_null(*tables);
	if (hwxdp_tables__create_all(*tables, *img)) {
		snprintf(err, errlen, "tables refused");
		return NULL;
	}
	if (hwxdp_engine__check(*img, *tables, err, errlen))
		return NULL;
	return hwxdp_engine__new(*img, *tables);
}

Test(mutants, atomic_offset_beyond_the_value_is_refused)
{
	struct hxu_image *orig, *img;
	struct hwxdp_tables *tables;
	struct hwxdp_engine *e;
	size_t len, ops;
	uint8_t *bytes = fwd_bytes(&len, &orig);
	char err[256] = "";
	bool found = false;

	ops = len - (size_t)orig->op_cnt * 8;
	for (uint32_t w = 0; w < orig->op_cnt && !found; w++) {
		uint8_t *p = bytes + ops + (size_t)w * 8;

		/* atomicadd64.tm: opcode 0x52, the 64-bit size in the flags */
		if (p[7] != HXU_OP_ATOMIC + HXU_SPACE_TM)
			continue;
		put32(p, 33554432);
		found = true;
	}
	cr_assert(found, "fwd has an atomic add on table memory");
	fix_crc(bytes, len);
	e = load(bytes, len, &tables, &img, err, sizeof(err));
	cr_assert_null(e, "the image with [r + 33554432] is refused");
	cr_assert(strstr(err, "table memory offset 33554432"), "message: %s", err);
	cr_assert(strncmp(err, "op ", 3) == 0, "names the operation: %s", err);
	hxu_image__free(img);
	hwxdp_tables__free(tables);
	hxu_image__free(orig);
	free(bytes);
}

/* Every table's type and entry count changed, one at a time: what loads
 * runs frames without touching memory it should not; a lookup that now
 * finds nothing is a null value pointer, which aborts the frame. */
Test(mutants, table_type_and_entries_changed)
{
	static const uint32_t types[] = {
		BPF_MAP_TYPE_HASH,	  BPF_MAP_TYPE_ARRAY,	   BPF_MAP_TYPE_PERCPU_ARRAY,
		BPF_MAP_TYPE_PERCPU_HASH, BPF_MAP_TYPE_LRU_HASH,   BPF_MAP_TYPE_DEVMAP_HASH,
		BPF_MAP_TYPE_LPM_TRIE,	  BPF_MAP_TYPE_PROG_ARRAY,
	};
	struct hxu_image *orig;
	size_t len;
	uint8_t *bytes = fwd_bytes(&len, &orig), *copy = malloc(len);
	unsigned int refused = 0, ran = 0;

	cr_assert_not_null(copy);
	for (uint32_t t = 0; t < orig->table_cnt; t++) {
		uint8_t *desc = copy + 32 + (size_t)t * 112;

		for (size_t m = 0; m < sizeof(types) / sizeof(types[0]) + 3; m++) {
			struct hwxdp_tables *tables;
			struct hwxdp_engine *e;
			struct hxu_image *img;
			char err[256] = "", what[64];

			memcpy(copy, bytes, len);
			if (m < sizeof(types) / sizeof(types[0]))
				put32(desc + 4, types[m]);
			else
				put32(desc + 16, (uint32_t[]){ 1, 2, 0x7fffffff }[m - 8]);
			fix_crc(copy, len);
			snprintf(what, sizeof(what), "table %u mutant %zu", t, m);
			if (hxu_image__read_mem(copy, len, &img, err, sizeof(err))) {
				refused++;
				continue;
			}
			hxu_image__free(img);
			e = load(copy, len, &tables, &img, err, sizeof(err));
			if (!e) {
				cr_assert_gt(strlen(err), 0, "%s: refused with a reason", what);
				refused++;
			} else {
				run_frames(e, what);
				ran++;
				hwxdp_engine__free(e);
			}
			hxu_image__free(img);
			hwxdp_tables__free(tables);
		}
	}
	cr_log_info("%u refused, %u ran", refused, ran);
	cr_assert_gt(ran, 0);
	hxu_image__free(orig);
	free(bytes);
	free(copy);
}

static uint64_t next_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned long env_count(const char *name, unsigned long def)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : def;
}

/* One mutation of buf: a bit flipped, a byte set, or a field of an
 * operation or a table descriptor given a value at or beyond its range. */
static void mutate(uint8_t *buf, size_t len, size_t ops, uint32_t table_cnt, uint64_t *rng)
{
	static const uint32_t imms[] = { 0,	     1,		 4,	     8,		40,
					 255,	     256,	 4096,	     9728,	33554432,
					 0x7fffffff, 0x80000000, 0xfffffff8, 0xffffffff };
	static const uint32_t entries[] = { 1, 2, 3, 16, 255 };
	uint64_t r = next_rand(rng);
	uint32_t words = (uint32_t)((len - ops) / 8);
	uint8_t *op = buf + ops + (size_t)(next_rand(rng) % words) * 8;

	switch (r % 6) {
	case 0: {
		size_t at = 32 + (size_t)(next_rand(rng) % (len - 32));

		buf[at] ^= (uint8_t)(1u << (next_rand(rng) % 8));
		break;
	}
	case 1:
		buf[32 + next_rand(rng) % (len - 32)] = (uint8_t)next_rand(rng);
		break;
	case 2: /* imm */
		put32(op, imms[next_rand(rng) % (sizeof(imms) / sizeof(imms[0]))]);
		break;
	case 3: /* a register field: rd, rs or rt */
		op[6 + (next_rand(rng) & 1)] ^= (uint8_t)(1u << (next_rand(rng) % 8));
		break;
	case 4: /* x: a table id, condition, atomic or ctx field */
		op[4] = (uint8_t)next_rand(rng);
		break;
	default: {
		uint8_t *desc =
			buf + 32 + (size_t)(next_rand(rng) % (table_cnt ? table_cnt : 1)) * 112;
		uint32_t field = (uint32_t)(next_rand(rng) % 4);

		if (!table_cnt)
			break;
		if (field == 0)
			put32(desc + 4, (uint32_t)(next_rand(rng) % 32));
		else if (field == 3)
			put32(desc + 16, entries[next_rand(rng) % 5]);
		else
			put32(desc + 4 + 4 * field, (uint32_t)imms[next_rand(rng) % 9]);
	}
	}
}

/*
 * HWXDP_MUTANTS mutants of fwd's image (500 unless set), each with one to
 * three mutations and its checksum fixed; every one the device accepts
 * runs frames on the interpreted engine, and every HWXDP_MUTANTS_COMPILE-th
 * accepted one (0, the default: none) on the compiled engine too, since
 * compiling runs the host compiler. `make fuzz-images` is the long run.
 */
Test(mutants, random_mutants_of_fwd, .timeout = 0)
{
	unsigned long count = env_count("HWXDP_MUTANTS", 500);
	unsigned long compile_every = env_count("HWXDP_MUTANTS_COMPILE", 0);
	uint64_t rng = env_count("HWXDP_MUTANTS_SEED", 1);
	unsigned long reader = 0, device = 0, ran = 0, compiled = 0;
	struct hxu_image *orig;
	size_t len, ops;
	uint8_t *bytes = fwd_bytes(&len, &orig), *copy = malloc(len);

	cr_assert_not_null(copy);
	ops = len - (size_t)orig->op_cnt * 8;
	for (unsigned long i = 0; i < count; i++) {
		struct hwxdp_tables *tables;
		struct hwxdp_engine *e;
		struct hxu_image *img;
		char err[256] = "", what[64];
		unsigned int n = 1 + (unsigned int)(next_rand(&rng) % 3);

		memcpy(copy, bytes, len);
		for (unsigned int k = 0; k < n; k++)
			mutate(copy, len, ops, orig->table_cnt, &rng);
		fix_crc(copy, len);
		snprintf(what, sizeof(what), "mutant %lu", i);
		if (hxu_image__read_mem(copy, len, &img, err, sizeof(err))) {
			reader++;
			continue;
		}
		hxu_image__free(img);
		e = load(copy, len, &tables, &img, err, sizeof(err));
		if (!e) {
			cr_assert_gt(strlen(err), 0, "%s: refused with a reason", what);
			device++;
		} else {
			run_frames(e, what);
			ran++;
			if (compile_every && ran % compile_every == 0 &&
			    !hwxdp_engine__set_mode(e, HWXDP_ENGINE_COMPILED) &&
			    hwxdp_engine__mode(e) == HWXDP_ENGINE_COMPILED) {
				run_frames(e, what);
				compiled++;
			}
			hwxdp_engine__free(e);
		}
		hxu_image__free(img);
		hwxdp_tables__free(tables);
	}
	cr_log_info("%lu mutants: %lu refused by the reader, %lu by the device, %lu ran (%lu "
		    "compiled too)",
		    count, reader, device, ran, compiled);
	cr_assert_gt(ran, 0);
	hxu_image__free(orig);
	free(bytes);
	free(copy);
}
