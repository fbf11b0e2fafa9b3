// SPDX-License-Identifier: GPL-2.0
/* Open object to image: the target set, the device's verification, the
 * translation, once for every caller. */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "hwmap/translate.h"
#include "hwxdp/platform.h"
#include "loader/log.h"
#include "loader/object.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int hwxdp_translate_for_device(struct hwxdp_object *obj, const struct hwxdp_prog *prog,
			       struct hxu_image **out, char *msg, size_t msglen)
{
	return hwxdp_translate_for_device_timed(obj, prog, out, NULL, msg, msglen);
}

int hwxdp_translate_for_device_timed(struct hwxdp_object *obj, const struct hwxdp_prog *prog,
				     struct hxu_image **out, struct hwxdp_translate_times *times,
				     char *msg, size_t msglen)
{
	uint64_t t0 = now_ns(), t1;
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	struct hwxdp_verify_result *res = NULL;
	char why[512];
	int err;

	*out = NULL;
	err = hwxdp_object__set_target(obj, HWXDP_TARGET_DEVICE);
	if (err)
		return hwxdp_say(msg, msglen, err, "%s", hwxdp_error_message(err));
	vopts.expected_attach_type = prog->expected_attach_type;
	err = hwxdp_verify(obj, prog, &vopts, &res);
	t1 = now_ns();
	if (times)
		times->verify_ns = t1 - t0;
	if (err)
		return hwxdp_say(msg, msglen, err, "the verifier could not run: %s",
				 hwxdp_strerror(err));
	if (!res->accepted) {
		pr_warn("%s", res->log ? res->log : "");
		hwxdp_verify_result__free(res);
		return hwxdp_say(msg, msglen, -EACCES, "refused for the device");
	}
	err = hwxdp_translate(obj, prog, res, out, why, sizeof(why));
	if (times)
		times->translate_ns = now_ns() - t1;
	hwxdp_verify_result__free(res);
	if (err)
		return hwxdp_say(msg, msglen, err, "cannot translate: %s",
				 err == -HWXDP_ERR_TRANSLATE ? why : hwxdp_strerror(err));
	return 0;
}
