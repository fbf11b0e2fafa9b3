// SPDX-License-Identifier: GPL-2.0
/* The BPF side of every program of an image, for the prover's tail calls
 * (hwmap/prove.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hwmap/prove.h"

void hwxdp_prove_progs__free(struct hwxdp_prove_progs *pp)
{
	if (!pp)
		return;
	for (uint32_t k = 0; pp->facts && k < pp->cnt; k++)
		hwxdp_verify_result__free(pp->facts[k]);
	free(pp->facts);
	free(pp->progs);
	free(pp);
}

/* obj's program that image program k is, by name, as the device's loader
 * finds the programs of a filled program array (loader/device.c). */
static const struct hwxdp_prog *prog_named(const struct hwxdp_object *obj,
					   const struct hxu_image *img, uint32_t k)
{
	for (size_t i = 0; i < obj->prog_cnt; i++)
		if (!strncmp(img->progs[k].name, obj->progs[i].name, HXU_NAME_MAX - 1))
			return &obj->progs[i];
	return NULL;
}

int hwxdp_prove_progs(struct hwxdp_object *obj, const struct hxu_image *img,
		      struct hwxdp_prove_progs **out)
{
	struct hwxdp_prove_progs *pp = calloc(1, sizeof(*pp));
	int err = 0;

	*out = NULL;
	if (!pp)
		return -ENOMEM;
	pp->progs = calloc(img->prog_cnt ? img->prog_cnt : 1, sizeof(*pp->progs));
	pp->facts = calloc(img->prog_cnt ? img->prog_cnt : 1, sizeof(*pp->facts));
	if (!pp->progs || !pp->facts) {
		hwxdp_prove_progs__free(pp);
		return -ENOMEM;
	}
	pp->cnt = img->prog_cnt;
	for (uint32_t k = 0; k < img->prog_cnt && !err; k++) {
		const struct hwxdp_prog *prog = prog_named(obj, img, k);
		struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };

		if (!prog) {
			err = -ENOENT;
			break;
		}
		/* each as its own program, with its attach type, as the
		 * translator verified it (hwmap/translate_prog.c) */
		vopts.expected_attach_type = prog->expected_attach_type;
		err = hwxdp_verify(obj, prog, &vopts, &pp->facts[k]);
		if (!err && !pp->facts[k]->accepted)
			err = -EACCES;
		pp->progs[k] =
			(struct hwxdp_prove_prog){ prog->insns, prog->insn_cnt, pp->facts[k] };
	}
	if (err) {
		hwxdp_prove_progs__free(pp);
		return err;
	}
	*out = pp;
	return 0;
}
