// SPDX-License-Identifier: GPL-2.0
/* Open object to image: the target set, the device's verification, the
 * translation, once for every caller. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <linux/bpf.h>

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

/*
 * A program array its definition fills with programs (libbpf's `.values`)
 * holds them in the kernel from the load on; the image has one program,
 * prog, and nothing to put there, so its tail calls would fall through
 * where the kernel's jump. -HWXDP_ERR_TRANSLATE with why, or 0.
 */
static int filled_prog_array(const struct hwxdp_object *obj, const struct hwxdp_prog *prog,
			     char *why, size_t len)
{
	for (size_t i = 0; i < obj->map_cnt; i++) {
		const struct hwxdp_map_desc *m = &obj->maps[i];

		if (m->type == BPF_MAP_TYPE_PROG_ARRAY && m->init_prog_cnt) {
			snprintf(
				why, len,
				"program array %s starts with %u of the object's programs, and the "
				"device runs only %s: its tail calls would not find them",
				m->name, m->init_prog_cnt, prog->name);
			return -HWXDP_ERR_TRANSLATE;
		}
	}
	return 0;
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
	err = filled_prog_array(obj, prog, why, sizeof(why));
	if (!err)
		err = hwxdp_translate(obj, prog, res, out, why, sizeof(why));
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
