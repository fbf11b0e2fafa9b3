// SPDX-License-Identifier: GPL-2.0
/* Open object to image: the target set, the device's verification, the
 * translation, once for every caller. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <linux/bpf.h>

#include "hwmap/link.h"
#include "hwmap/translate.h"
#include "hwxdp/platform.h"
#include "base/log.h"
#include "loader/object.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* An option from a caller whose struct may be older (shorter) than ours. */
#define OPT(opts, field, fallback)                                                                 \
	((opts) && (opts)->sz >= offsetof(struct hwxdp_translate_opts, field) +                    \
					 sizeof((opts)->field)                                     \
		 ? (opts)->field                                                                   \
		 : (fallback))

/* The programs one image holds at most: one per port's program slot. */
#define LINKED_MAX HXU_PORTS

/* The programs of an image in the making: [0] the one asked for, then each
 * program a filled program array of one before it names, in that order. */
struct linked {
	const struct hwxdp_prog *prog[LINKED_MAX];
	struct hxu_image *img[LINKED_MAX];
	/* per program: its first reachable tail call after a map or packet
	 * write, and its first punt, or -1; and whether a tail call reaches it */
	int64_t effect_call[LINKED_MAX], punt[LINKED_MAX];
	bool reached[LINKED_MAX];
	uint32_t cnt;
};

/* What the facts of l's next program say about its tail calls and punts. */
static void note_facts(struct linked *l, const struct hwxdp_verify_result *res)
{
	l->effect_call[l->cnt] = l->punt[l->cnt] = -1;
	for (size_t i = res->fact_cnt; i-- > 0;) {
		const struct hwxdp_insn_fact *f = &res->facts[i];

		if (f->reachable && f->tail_call_after_side_effect)
			l->effect_call[l->cnt] = (int64_t)i;
		if (f->reachable && (f->punt_point || f->punt_host_maps))
			l->punt[l->cnt] = (int64_t)i;
	}
}

/*
 * A punt hands the frame to the host copy, which runs the program asked for
 * from its start: after a map or packet write and a tail call, the host
 * would repeat the write. The verifier, which sees one program at a time,
 * records such tail calls; here, with every program an image holds, a
 * program reached by a tail call may not punt where some program of the
 * image tail-calls after a write. -HWXDP_ERR_TRANSLATE with why, or 0.
 */
static int check_punts(const struct linked *l, char *why, size_t len)
{
	for (uint32_t i = 0; i < l->cnt; i++)
		for (uint32_t k = 0; l->effect_call[i] >= 0 && k < l->cnt; k++)
			if (l->reached[k] && l->punt[k] >= 0) {
				snprintf(why, len,
					 "%s tail-calls after a map or packet write (insn %lld), "
					 "and %s, which its tail calls may reach, punts to the "
					 "host (insn %lld): the host would repeat the write",
					 l->prog[i]->name, (long long)l->effect_call[i],
					 l->prog[k]->name, (long long)l->punt[k]);
				return -HWXDP_ERR_TRANSLATE;
			}
	return 0;
}

/* Marks prog as reached by a tail call where l has it already. */
static bool linked_has(struct linked *l, const struct hwxdp_prog *prog)
{
	for (uint32_t i = 0; i < l->cnt; i++)
		if (l->prog[i] == prog) {
			l->reached[i] = true;
			return true;
		}
	return false;
}

/* prog verified for the device as its own program, with its attach type. */
static int verify_own(struct hwxdp_object *obj, const struct hwxdp_prog *prog, uint32_t log_level,
		      struct hwxdp_verify_result **res)
{
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts),
					   .device = true,
					   .expected_attach_type = prog->expected_attach_type,
					   .log_level = log_level };

	return hwxdp_verify(obj, prog, &vopts, res);
}

/*
 * Verifies prog for the device as its own program and translates it as
 * l's next program; arr and slot name where a tail call finds it.
 * -HWXDP_ERR_TRANSLATE with why, the verifier's error, or -ENOMEM.
 */
static int add_target(struct hwxdp_object *obj, struct linked *l, const struct hwxdp_prog *prog,
		      const char *arr, uint32_t slot, uint32_t log_level, char *why, size_t len)
{
	struct hwxdp_verify_result *res = NULL;
	int err, n;

	if (l->cnt == LINKED_MAX) {
		snprintf(why, len, "program array %s: more than %u programs for one image", arr,
			 LINKED_MAX);
		return -HWXDP_ERR_TRANSLATE;
	}
	err = verify_own(obj, prog, log_level, &res);
	if (err)
		return err;
	if (!res->accepted) {
		pr_warn("%s", res->log ? res->log : "");
		hwxdp_verify_result__free(res);
		snprintf(why, len,
			 "program array %s holds %s in slot %u, and the device's verifier refuses "
			 "%s",
			 arr, prog->name, slot, prog->name);
		return -HWXDP_ERR_TRANSLATE;
	}
	n = snprintf(why, len,
		     "program array %s holds %s in slot %u, which cannot be translated: ", arr,
		     prog->name, slot);
	n = n < 0 || (size_t)n >= len ? 0 : n;
	err = hwxdp_translate(obj, prog, res, &l->img[l->cnt], why + n, len - (size_t)n);
	if (!err)
		note_facts(l, res);
	hwxdp_verify_result__free(res);
	if (err)
		return err;
	l->reached[l->cnt] = true;
	l->prog[l->cnt++] = prog;
	return 0;
}

/*
 * A program array its definition fills with programs (libbpf's `.values`)
 * holds them in the kernel from the load on: each program that a program
 * of l tail-calls through such an array (a table of its image) joins l, its
 * own arrays followed in turn, so that the image has them to jump to.
 */
static int add_targets(struct hwxdp_object *obj, struct linked *l, uint32_t log_level, char *why,
		       size_t len)
{
	for (uint32_t k = 0; k < l->cnt; k++)
		for (uint32_t t = 0; t < l->img[k]->table_cnt; t++) {
			const struct hxu_table_desc *d = &l->img[k]->tables[t];
			const struct hwxdp_map_desc *m =
				d->id < obj->map_cnt ? &obj->maps[d->id] : NULL;

			if (!m || m->type != BPF_MAP_TYPE_PROG_ARRAY)
				continue;
			for (uint32_t i = 0; i < m->init_prog_cnt; i++) {
				const struct hwxdp_init_prog *ip = &m->init_progs[i];
				const struct hwxdp_prog *target;
				int err;

				if (ip->prog >= obj->prog_cnt) {
					snprintf(why, len,
						 "program array %s: slot %u names no program",
						 m->name, ip->slot);
					return -HWXDP_ERR_TRANSLATE;
				}
				target = &obj->progs[ip->prog];
				if (linked_has(l, target))
					continue;
				err = add_target(obj, l, target, m->name, ip->slot, log_level, why,
						 len);
				if (err)
					return err;
			}
		}
	return 0;
}

/* Whether the image of one of l's programs has a devmap whose entries can
 * name a program (an 8-byte struct bpf_devmap_val). */
static bool has_entry_devmap(const struct linked *l)
{
	for (uint32_t k = 0; k < l->cnt; k++)
		for (uint32_t t = 0; t < l->img[k]->table_cnt; t++) {
			const struct hxu_table_desc *d = &l->img[k]->tables[t];

			if ((d->type == BPF_MAP_TYPE_DEVMAP ||
			     d->type == BPF_MAP_TYPE_DEVMAP_HASH) &&
			    d->value_size >= 8)
				return true;
		}
	return false;
}

/*
 * A devmap's entry names its program at run time (the control plane's
 * bpf_devmap_val.bpf_prog), so every devmap program of the object
 * (SEC("xdp/devmap"), expected attach type BPF_XDP_DEVMAP) joins an image
 * whose programs redirect into a devmap that can hold one, each verified
 * with its attach type and translated as its own program. One the device
 * cannot take is left out, and said so: an entry cannot name it. A devmap
 * program may not punt: the host copy would run the port's program again.
 */
static int add_entry_progs(struct hwxdp_object *obj, struct linked *l, uint32_t log_level)
{
	char why[256];

	if (!has_entry_devmap(l))
		return 0;
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		const struct hwxdp_prog *prog = &obj->progs[i];
		struct hwxdp_verify_result *res = NULL;
		int err;

		if (prog->type != BPF_PROG_TYPE_XDP ||
		    prog->expected_attach_type != BPF_XDP_DEVMAP || linked_has(l, prog))
			continue;
		if (l->cnt == LINKED_MAX) {
			pr_warn("%s: more than %u programs for one image: devmap program %s left "
				"out\n",
				obj->path, LINKED_MAX, prog->name);
			return 0;
		}
		err = verify_own(obj, prog, log_level, &res);
		if (err)
			return err;
		if (!res->accepted) {
			pr_info("%s: the device's verifier refuses devmap program %s: left out\n",
				obj->path, prog->name);
			hwxdp_verify_result__free(res);
			continue;
		}
		why[0] = 0;
		err = hwxdp_translate(obj, prog, res, &l->img[l->cnt], why, sizeof(why));
		if (err == -ENOMEM) {
			hwxdp_verify_result__free(res);
			return err;
		}
		if (!err)
			note_facts(l, res);
		hwxdp_verify_result__free(res);
		if (!err && l->punt[l->cnt] >= 0) {
			hxu_image__free(l->img[l->cnt]);
			l->img[l->cnt] = NULL;
			snprintf(why, sizeof(why), "it punts to the host (insn %lld)",
				 (long long)l->punt[l->cnt]);
			err = -HWXDP_ERR_TRANSLATE;
		}
		if (err) {
			pr_info("%s: devmap program %s left out: %s\n", obj->path, prog->name, why);
			continue;
		}
		l->reached[l->cnt] = false;
		l->prog[l->cnt++] = prog;
	}
	return 0;
}

/* l as one image: its only one, or its programs linked. */
static int link_all(struct linked *l, struct hxu_image **out, char *why, size_t len)
{
	int err;

	if (l->cnt == 1) {
		*out = l->img[0];
		l->img[0] = NULL;
		return 0;
	}
	err = hxu_image__link((const struct hxu_image *const *)l->img, l->cnt, out, why, len);
	return err == -ENOMEM ? err : err ? -HWXDP_ERR_TRANSLATE : 0;
}

int hwxdp_translate_for_device(struct hwxdp_object *obj, const struct hwxdp_prog *prog,
			       struct hxu_image **out, char *msg, size_t msglen)
{
	return hwxdp_translate_for_device_opts(obj, prog, NULL, out, msg, msglen);
}

int hwxdp_translate_for_device_opts(struct hwxdp_object *obj, const struct hwxdp_prog *prog,
				    const struct hwxdp_translate_opts *opts, struct hxu_image **out,
				    char *msg, size_t msglen)
{
	struct hwxdp_translate_times *times = OPT(opts, times, NULL);
	struct hwxdp_verify_result **verified = OPT(opts, verified, NULL);
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	struct hwxdp_verify_result *res = NULL;
	uint64_t t0 = now_ns(), t1;
	struct linked l = { .cnt = 0 };
	char why[512];
	int err;

	*out = NULL;
	if (verified)
		*verified = NULL;
	err = hwxdp_object__set_target(obj, HWXDP_TARGET_DEVICE);
	if (err)
		return hwxdp_say(msg, msglen, err, "%s", hwxdp_error_message(err));
	vopts.expected_attach_type = prog->expected_attach_type;
	vopts.log_level = OPT(opts, log_level, 0);
	err = hwxdp_verify(obj, prog, &vopts, &res);
	t1 = now_ns();
	if (times)
		times->verify_ns = t1 - t0;
	if (err)
		return hwxdp_say(msg, msglen, err, "the verifier could not run: %s",
				 hwxdp_strerror(err));
	if (!res->accepted) {
		if (verified) {
			*verified = res;
		} else {
			pr_warn("%s", res->log ? res->log : "");
			hwxdp_verify_result__free(res);
		}
		return hwxdp_say(msg, msglen, -EACCES, "refused for the device");
	}
	err = hwxdp_translate(obj, prog, res, &l.img[0], why, sizeof(why));
	if (!err) {
		note_facts(&l, res);
		l.prog[l.cnt++] = prog;
		err = add_targets(obj, &l, vopts.log_level, why, sizeof(why));
	}
	if (!err && prog->expected_attach_type != BPF_XDP_DEVMAP)
		err = add_entry_progs(obj, &l, vopts.log_level);
	/* and the arrays the devmap programs tail-call through */
	if (!err)
		err = add_targets(obj, &l, vopts.log_level, why, sizeof(why));
	if (!err)
		err = check_punts(&l, why, sizeof(why));
	if (!err)
		err = link_all(&l, out, why, sizeof(why));
	for (uint32_t i = 0; i < l.cnt; i++)
		hxu_image__free(l.img[i]);
	if (times)
		times->translate_ns = now_ns() - t1;
	if (verified)
		*verified = res;
	else
		hwxdp_verify_result__free(res);
	if (err)
		return hwxdp_say(msg, msglen, err, "cannot be translated: %s",
				 err == -HWXDP_ERR_TRANSLATE ? why : hwxdp_strerror(err));
	return 0;
}
