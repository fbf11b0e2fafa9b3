// SPDX-License-Identifier: GPL-2.0
/* include/hwxdp/image.h over the translator and the image file. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>

#include "hwmap/image.h"
#include "hwmap/prove.h"
#include "hwmap/public.h"
#include "hwmap/translate.h"
#include "hwxdp/image.h"
#include "base/log.h"
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

#define offsetofend(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/* The proof the options ask for, of the translation just made: 0, or
 * -HWXDP_ERR_NOT_PROVEN with the reason printed. */
static int require_proof(struct hwxdp_object *obj, const struct hwxdp_prog *prog,
			 const struct hxu_image *hxu, const struct hwxdp_image_translate_opts *opts)
{
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	struct hwxdp_prove_opts popts = { .sz = sizeof(popts),
					  .max_len = opts->prove_max_len,
					  .timeout_ms = opts->prove_timeout_ms,
					  .ingress = 1 };
	struct hwxdp_verify_result *facts = NULL;
	struct hwxdp_prove_progs *pp = NULL;
	struct hwxdp_prove_result *res = malloc(sizeof(*res));
	int err;

	if (!res)
		return -ENOMEM;
	vopts.expected_attach_type = prog->expected_attach_type;
	err = hwxdp_verify(obj, prog, &vopts, &facts);
	if (!err && !facts->accepted)
		err = -EACCES;
	/* the image's other programs, which its tail calls reach */
	if (!err)
		err = hwxdp_prove_progs(obj, hxu, &pp);
	if (!err) {
		popts.progs = pp->progs;
		popts.prog_cnt = pp->cnt;
		err = hwxdp_prove(prog->insns, prog->insn_cnt, obj->maps, obj->map_cnt, facts, hxu,
				  0, &popts, res);
	}
	if (!err && res->status != HWXDP_PROVE_PROVEN) {
		pr_warn("%s: %s: %s: %s\n", obj->path ? obj->path : "", prog->name,
			res->status == HWXDP_PROVE_COUNTEREXAMPLE ? "counterexample" : "not proven",
			res->reason);
		err = -HWXDP_ERR_NOT_PROVEN;
	}
	hwxdp_prove_progs__free(pp);
	hwxdp_verify_result__free(facts);
	free(res);
	return err;
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
	if (!err && opts &&
	    opts->sz >= offsetofend(struct hwxdp_image_translate_opts, prove_timeout_ms) &&
	    opts->prove) {
		err = require_proof(obj, prog, hxu, opts);
		if (err) {
			hxu_image__free(hxu);
			hxu = NULL;
		}
	}
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
