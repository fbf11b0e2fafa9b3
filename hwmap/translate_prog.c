// SPDX-License-Identifier: GPL-2.0
/* Open object to image: the target set, the device's verification, the
 * translation, once for every caller. */
#include <errno.h>
#include <string.h>

#include "hwmap/translate.h"
#include "hwxdp/fwd.h"
#include "loader/log.h"
#include "loader/object.h"

int hwxdp_translate_for_device(struct hwxdp_object *obj, const struct hwxdp_prog *prog,
			       struct hxu_image **out, char *msg, size_t msglen)
{
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts), .device = true };
	struct hwxdp_verify_result *res = NULL;
	uint32_t device = HWXDP_TARGET_DEVICE;
	char why[512];
	int err;

	*out = NULL;
	err = hwxdp_object__set_global(obj, "hwxdp_target", &device, sizeof(device));
	if (err && err != -ENOENT)
		return hwxdp_say(msg, msglen, err, "hwxdp_target is not a 4-byte global");
	vopts.expected_attach_type = prog->expected_attach_type;
	err = hwxdp_verify(obj, prog, &vopts, &res);
	if (err)
		return hwxdp_say(msg, msglen, err, "the verifier could not run: %s",
				 hwxdp_strerror(err));
	if (!res->accepted) {
		pr_warn("%s", res->log ? res->log : "");
		hwxdp_verify_result__free(res);
		return hwxdp_say(msg, msglen, -EACCES, "refused for the device");
	}
	err = hwxdp_translate(obj, prog, res, out, why, sizeof(why));
	hwxdp_verify_result__free(res);
	if (err)
		return hwxdp_say(msg, msglen, err, "cannot translate: %s",
				 err == -HWXDP_ERR_TRANSLATE ? why : hwxdp_strerror(err));
	return 0;
}
