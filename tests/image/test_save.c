// SPDX-License-Identifier: GPL-2.0
/*
 * Saving is atomic: a save that fails, at whatever point, leaves the file
 * it would replace as it was and no temporary file behind; loading names
 * the file and the reason when it cannot read one.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hwmap/image.h"
#include "hwmap/translate.h"
#include "lab/target.h"
#include "tests/image/image_util.h"

static const char old_bytes[] = "the old image, which a failed save must leave alone";

static unsigned int entries(const char *dir)
{
	unsigned int n = 0;
	struct dirent *de;
	DIR *d = opendir(dir);

	cr_assert_not_null(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void write_old(const char *path)
{
	FILE *f = fopen(path, "wb");

	cr_assert_not_null(f);
	cr_assert_eq(fwrite(old_bytes, 1, sizeof(old_bytes), f), sizeof(old_bytes));
	fclose(f);
}

static void assert_old(const char *path)
{
	size_t len;
	uint8_t *bytes = image_read_file(path, &len);

	cr_assert_eq(len, sizeof(old_bytes), "%s was changed", path);
	cr_assert_arr_eq(bytes, old_bytes, len, "%s was changed", path);
	free(bytes);
}

static struct hxu_image *fwd_image(void)
{
	struct hwxdp_object *obj;
	struct hxu_image *img;

	cr_assert_eq(image_translate(hx_object_path("fwd"), &obj, &img), 0);
	hwxdp_object__close(obj);
	return img;
}

/*
 * The file system stops the write part way (a file size limit below the
 * image's size, which holds for root too): the save fails with EFBIG after
 * writing some of the image, and the old file is untouched.
 */
Test(save, failed_write_leaves_the_old_file)
{
	struct hxu_image *img = fwd_image();
	char dir[64], path[128];
	int status;
	pid_t pid;

	cr_assert_gt(hxu_image__file_size(img), 8192);
	image_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/fwd.hxu", dir);
	write_old(path);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		struct rlimit lim = { 4096, 4096 };
		char err[256];
		int ret;

		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &lim))
			_exit(2);
		ret = hxu_image__save(img, path, err, sizeof(err));
		/* 0: it should have failed; 1: it failed as it should */
		_exit(ret == -EFBIG && strstr(err, "cannot write") ? 1 : 0);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status));
	cr_assert_eq(WEXITSTATUS(status), 1, "the save fails with EFBIG");
	assert_old(path);
	cr_assert_eq(entries(dir), 1, "no temporary file remains");

	/* without the limit the same save replaces it */
	{
		struct hxu_image *back;
		char err[256];
		struct stat st;

		cr_assert_eq(hxu_image__save(img, path, err, sizeof(err)), 0, "%s", err);
		cr_assert_eq(hxu_image__load(path, &back, err, sizeof(err)), 0, "%s", err);
		image_assert_equal(img, back);
		hxu_image__free(back);
		cr_assert_eq(stat(path, &st), 0);
		cr_assert_eq(st.st_mode & 0777, 0644);
		cr_assert_eq(entries(dir), 1);
	}
	hxu_image__free(img);
	image_tmpdir_remove(dir);
}

/* The rename fails (a folder is in the way): nothing is left behind. */
Test(save, failed_rename_leaves_nothing)
{
	struct hxu_image *img = fwd_image();
	char dir[64], path[128], inner[160], err[256];

	image_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/fwd.hxu", dir);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(inner, sizeof(inner), "%s/keep", path);
	write_old(inner);
	cr_assert_eq(hxu_image__save(img, path, err, sizeof(err)), -EISDIR);
	cr_assert_not_null(strstr(err, path), "%s", err);
	assert_old(inner);
	cr_assert_eq(entries(dir), 1, "no temporary file remains");
	unlink(inner);
	rmdir(path);
	hxu_image__free(img);
	image_tmpdir_remove(dir);
}

Test(save, missing_folder)
{
	struct hxu_image *img = fwd_image();
	char dir[64], path[128], err[256];

	image_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/no/fwd.hxu", dir);
	cr_assert_eq(hxu_image__save(img, path, err, sizeof(err)), -ENOENT);
	cr_assert_not_null(strstr(err, path), "%s", err);
	cr_assert_eq(entries(dir), 0);
	hxu_image__free(img);
	image_tmpdir_remove(dir);
}

Test(save, load_names_the_file)
{
	char dir[64], path[128], err[256], big[160];
	struct hxu_image *img;
	FILE *f;

	image_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/none.hxu", dir);
	cr_assert_eq(hxu_image__load(path, &img, err, sizeof(err)), -ENOENT);
	cr_assert_null(img);
	cr_assert_not_null(strstr(err, path), "%s", err);

	cr_assert_eq(hxu_image__load(dir, &img, err, sizeof(err)), -EINVAL, "a folder");

	/* a BPF object is no image */
	cr_assert_eq(hxu_image__load(hx_object_path("fwd"), &img, err, sizeof(err)),
		     -HWXDP_ERR_IMAGE_FILE);
	cr_assert_str_eq(err, "image: no \"HXU0\" magic: not an HXU image");

	/* longer than any image: refused before it is read */
	snprintf(big, sizeof(big), "%s/big.hxu", dir);
	f = fopen(big, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fseek(f, HXU_IMAGE_SIZE_MAX, SEEK_SET), 0);
	cr_assert_eq(fputc(0, f), 0);
	fclose(f);
	cr_assert_eq(hxu_image__load(big, &img, err, sizeof(err)), -HWXDP_ERR_IMAGE_FILE);
	cr_assert_not_null(strstr(err, "more than an image can hold"), "%s", err);
	image_tmpdir_remove(dir);
}
