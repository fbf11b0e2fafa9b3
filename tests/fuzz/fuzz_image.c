// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer entry for the image file reader (hwmap/image.h): any bytes are
 * refused with a message or read into an image, and an image read is one
 * the writer turns back into exactly those bytes (a file has one spelling
 * per image). What reads also meets the device's check, as every loaded
 * image does before use. Each input is tried twice: as it is, and with its
 * checksum made right, so that mutations reach the field rules behind it.
 * scripts/run-fuzz.sh builds and runs it; HWXDP_FUZZ_SEEDS=DIR makes it
 * write its seeds (the images of fwd and of the loader's corpus objects the
 * device takes, from the build HWXDP_BUILD names) to DIR and exit.
 *
 * An image the device accepts is run: its tables are made from its
 * descriptors (in a 64 MiB budget) and a few frames go through the
 * interpreted engine, each exiting or aborted by one of the engine's
 * run-time checks; every HWXDP_FUZZ_COMPILE_EVERY-th accepted image (64
 * unless set, 0 for none) runs on the compiled engine too, since compiling
 * invokes the host compiler.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <linux/bpf.h>

#include "device/compile.h"
#include "device/engine.h"
#include "device/tables.h"
#include "hwmap/image.h"
#include "hwmap/translate.h"
#include "hwxdp/fwd.h"
#include "loader/object.h"
#include "lab/target.h"
#include "base/log.h"
#include "verifier/verifier.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int out_fd = -1;	 /* where read images are written back */
static uint8_t *again;	 /* and read from */
static uint8_t *patched; /* the input with its checksum made right */
static unsigned long compile_every = 64, accepted;
static uint8_t window[HXU_WINDOW_SIZE];

static int quiet(enum hwxdp_print_level level, const char *fmt, va_list args)
{
	(void)level;
	(void)fmt;
	(void)args;
	return 0;
}

/* The image of path's XDP program, as the device target makes it, saved
 * to dir; objects the device does not take are skipped. */
static void write_seed(const char *path, const char *dir)
{
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	struct hwxdp_verify_result *res = NULL;
	uint32_t device = HWXDP_TARGET_DEVICE;
	const struct hwxdp_prog *prog;
	struct hwxdp_object *obj;
	struct hxu_image *img = NULL;
	char out[4096], err[256];
	const char *base = strrchr(path, '/');

	if (hwxdp_object__open(path, &obj))
		return;
	hwxdp_object__set_global(obj, "hwxdp_target", &device, sizeof(device));
	prog = hwxdp_object__xdp_prog(obj);
	if (prog && !hwxdp_verify(obj, prog, &vopts, &res) && res->accepted &&
	    !hwxdp_translate(obj, prog, res, &img, NULL, 0)) {
		snprintf(out, sizeof(out), "%s/%s.hxu", dir, base ? base + 1 : path);
		if (hxu_image__save(img, out, err, sizeof(err))) {
			fprintf(stderr, "fuzz_image: %s\n", err);
			exit(1);
		}
	}
	hxu_image__free(img);
	hwxdp_verify_result__free(res);
	hwxdp_object__close(obj);
}

static void write_seeds(const char *dir)
{
	char pattern[4096];
	glob_t g;

	write_seed(hx_object_path("fwd"), dir);
	snprintf(pattern, sizeof(pattern), "%s/tests/loader/corpus/*.bpf.o", hx_build_dir());
	if (!glob(pattern, 0, NULL, &g)) {
		for (size_t i = 0; i < g.gl_pathc; i++)
			write_seed(g.gl_pathv[i], dir);
		globfree(&g);
	}
	exit(0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *seeds = getenv("HWXDP_FUZZ_SEEDS");

	(void)argc;
	(void)argv;
	hwxdp_set_print(quiet);
	if (seeds)
		write_seeds(seeds);
	if (getenv("HWXDP_FUZZ_COMPILE_EVERY"))
		compile_every = strtoul(getenv("HWXDP_FUZZ_COMPILE_EVERY"), NULL, 0);
	out_fd = memfd_create("fuzz_image", MFD_CLOEXEC);
	again = malloc(HXU_IMAGE_SIZE_MAX + 1);
	patched = malloc(HXU_IMAGE_SIZE_MAX);
	if (out_fd < 0 || !again || !patched) {
		fprintf(stderr, "fuzz_image: %s\n", strerror(errno));
		exit(1);
	}
	return 0;
}

static void run_frames(struct hwxdp_engine *e, uint32_t prog_cnt)
{
	static const uint8_t frame[] = {
		0x02, 0, 0,  0,	 0, 1, 0x02, 0,	   0,	 0,    0, 2, 0x08, 0x00,
		0x45, 0, 0,  28, 0, 0, 0,    0,	   64,	 17,   0, 0, 10,   0,
		0,    1, 10, 0,	 0, 2, 0x12, 0x34, 0x00, 0x35, 0, 8, 0,	   0,
	};

	for (uint32_t prog = 0; prog < prog_cnt && prog < 4; prog++) {
		for (uint32_t ingress = 0; ingress < 3; ingress++) {
			struct hwxdp_frame f = { .window = window, .ingress = ingress };
			int ret;

			hwxdp_frame__place(&f, frame, sizeof(frame));
			ret = hwxdp_engine__run(e, prog, &f, NULL);
			if (ret && (ret > -HWXDP_ERR_PKT_ACCESS || ret < -HWXDP_ERR_TM_ACCESS ||
				    f.verdict != XDP_ABORTED)) {
				fprintf(stderr, "fuzz_image: a frame ended with %d\n", ret);
				__builtin_trap();
			}
		}
	}
}

/* Runs an image the device accepts. */
static void try_run(const struct hxu_image *img)
{
	struct hwxdp_tables *tables = hwxdp_tables__new();
	struct hwxdp_engine *e;

	if (!tables)
		return;
	hwxdp_tables__set_budget(tables, 64u << 20);
	if (!hwxdp_tables__create_all(tables, img)) {
		e = hwxdp_engine__new(img, tables);
		if (e) {
			run_frames(e, img->prog_cnt);
			accepted++;
			if (compile_every && accepted % compile_every == 0 &&
			    !hwxdp_engine__set_mode(e, HWXDP_ENGINE_COMPILED) &&
			    hwxdp_engine__mode(e) == HWXDP_ENGINE_COMPILED)
				run_frames(e, img->prog_cnt);
			hwxdp_engine__free(e);
		}
	}
	hwxdp_tables__free(tables);
}

static void try_read(const uint8_t *data, size_t size)
{
	struct hxu_image *img = (struct hxu_image *)1;
	char err[256] = "";
	ssize_t n;
	int ret;

	ret = hxu_image__read_mem(data, size, &img, err, sizeof(err));
	if (ret) {
		/* refused: with the reader's code, its message, and no image */
		if (ret != -HWXDP_ERR_IMAGE_FILE || img || strncmp(err, "image: ", 7) || !err[7]) {
			fprintf(stderr, "fuzz_image: refused badly: %d '%s'\n", ret, err);
			__builtin_trap();
		}
		return;
	}
	/* the device's check runs on whatever the reader hands on */
	if (!hwxdp_engine__check(img, NULL, err, sizeof(err)))
		try_run(img);
	if (lseek(out_fd, 0, SEEK_SET) || ftruncate(out_fd, 0))
		__builtin_trap();
	ret = hxu_image__write(img, out_fd, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "fuzz_image: an image read does not write: %s\n", err);
		__builtin_trap();
	}
	n = pread(out_fd, again, HXU_IMAGE_SIZE_MAX + 1, 0);
	if (n != (ssize_t)size || memcmp(again, data, size)) {
		fprintf(stderr, "fuzz_image: %zu bytes read, %zd written back, not the same\n",
			size, n);
		__builtin_trap();
	}
	hxu_image__free(img);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uLong crc;

	try_read(data, size);
	if (size < HXU_IMAGE_HEADER_SIZE || size > HXU_IMAGE_SIZE_MAX)
		return 0;
	memcpy(patched, data, size);
	memset(patched + 28, 0, 4);
	crc = crc32(0, patched, (uInt)size);
	for (int i = 0; i < 4; i++)
		patched[28 + i] = (uint8_t)(crc >> (8 * i));
	try_read(patched, size);
	return 0;
}
