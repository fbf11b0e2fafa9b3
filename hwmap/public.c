// SPDX-License-Identifier: GPL-2.0
/* include/hwxdp/image.h over the translator and the image file. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "hwmap/image.h"
#include "hwmap/public.h"
#include "hwmap/translate.h"
#include "hwxdp/image.h"
#include "loader/log.h"
#include "loader/object.h"

static struct hwxdp_image *wrap(struct hxu_image *hxu)
{
	struct hwxdp_image *img = calloc(1, sizeof(*img));

	if (!img) {
		hxu_image__free(hxu);
		return NULL;
	}
	img->hxu = hxu;
	return img;
}

int hwxdp_image__translate(const char *path, const struct hwxdp_image_translate_opts *opts,
			   struct hwxdp_image **out)
{
	const struct hwxdp_prog *prog;
	struct hwxdp_object *obj;
	struct hxu_image *hxu;
	char msg[600];
	int err;

	*out = NULL;
	if (opts && opts->sz < sizeof(opts->sz))
		return -EINVAL;
	err = hwxdp_object__open(path, &obj);
	if (err)
		return err;
	prog = opts && opts->prog_name ? hwxdp_object__find_prog(obj, opts->prog_name)
				       : hwxdp_object__xdp_prog(obj);
	if (!prog) {
		pr_warn("%s: no %s%s\n", path, opts && opts->prog_name ? "program " : "XDP program",
			opts && opts->prog_name ? opts->prog_name : "");
		hwxdp_object__close(obj);
		return -ENOENT;
	}
	err = hwxdp_translate_for_device(obj, prog, &hxu, msg, sizeof(msg));
	if (err)
		pr_warn("%s: %s: %s\n", path, prog->name, msg);
	hwxdp_object__close(obj);
	if (err)
		return err;
	*out = wrap(hxu);
	return *out ? 0 : -ENOMEM;
}

int hwxdp_image__load(const char *path, struct hwxdp_image **out)
{
	struct hxu_image *hxu;
	char msg[PATH_MAX + 256];
	int err;

	*out = NULL;
	err = hxu_image__load(path, &hxu, msg, sizeof(msg));
	if (err) {
		pr_warn("%s\n", msg);
		return err;
	}
	*out = wrap(hxu);
	return *out ? 0 : -ENOMEM;
}

int hwxdp_image__save(const struct hwxdp_image *img, const char *path)
{
	char msg[PATH_MAX + 256];
	int err = hxu_image__save(img->hxu, path, msg, sizeof(msg));

	if (err)
		pr_warn("%s: %s\n", path, msg);
	return err;
}

void hwxdp_image__free(struct hwxdp_image *img)
{
	if (!img)
		return;
	hxu_image__free(img->hxu);
	free(img);
}

size_t hwxdp_image__op_cnt(const struct hwxdp_image *img)
{
	return img->hxu->op_cnt;
}

size_t hwxdp_image__table_cnt(const struct hwxdp_image *img)
{
	return img->hxu->table_cnt;
}

size_t hwxdp_image__prog_cnt(const struct hwxdp_image *img)
{
	return img->hxu->prog_cnt;
}
