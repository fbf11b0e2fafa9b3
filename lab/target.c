// SPDX-License-Identifier: GPL-2.0
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "hwmap/prove.h"
#include "device/engine.h"
#include "device/esp.h"
#include "lab/target.h"

static const struct hx_target_ops *const targets[] = {
	&hx_kernel_target,
	&hx_device_target,
};

struct hx_target *hx_target_open(const char *name, const char *object_path)
{
	struct hx_target *target;
	size_t i;
	int err;

	for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		if (strcmp(targets[i]->name, name))
			continue;
		target = calloc(1, sizeof(*target));
		if (!target)
			return NULL;
		target->ops = targets[i];
		err = target->ops->open(target, object_path);
		if (err) {
			free(target);
			errno = -err;
			return NULL;
		}
		return target;
	}
	errno = ENOENT;
	return NULL;
}

void hx_target_close(struct hx_target *target)
{
	if (!target)
		return;
	target->ops->close(target);
	free(target);
}

const char *hx_target_name(const struct hx_target *target)
{
	return target->ops->name;
}

int hx_target_map_update(struct hx_target *target, const char *map, const void *key,
			 const void *value)
{
	return target->ops->map_update(target, map, key, value);
}

int hx_target_map_lookup(struct hx_target *target, const char *map, const void *key, void *value)
{
	return target->ops->map_lookup(target, map, key, value);
}

int hx_target_map_delete(struct hx_target *target, const char *map, const void *key)
{
	return target->ops->map_delete(target, map, key);
}

int hx_target_run(struct hx_target *target, uint32_t ingress_ifindex, const uint8_t *frame,
		  size_t len, struct hx_result *result)
{
	memset(result, 0, sizeof(*result));
	return target->ops->run(target, ingress_ifindex, frame, len, result);
}

int hx_target_esp_sa(struct hx_target *target, uint32_t handle)
{
	if (!target->ops->esp_sa)
		return -EOPNOTSUPP;
	return target->ops->esp_sa(target, handle);
}

int hx_esp_test_sa(struct hwxdp_esp_sa *sa, uint32_t handle)
{
	static const uint8_t key[16] = { 0x4a, 0x65, 0x73, 0x74, 0x20, 0x6b, 0x65, 0x79,
					 0x20, 0x66, 0x6f, 0x72, 0x20, 0x6c, 0x61, 0x62 };
	static const uint8_t salt[4] = { 0x01, 0x02, 0x03, 0x04 };

	return hwxdp_esp_sa__init(sa, 0x100 + handle, key, sizeof(key), salt, htonl(0xc0000201),
				  htonl(0xc0000202));
}

int hx_target_stats(struct hx_target *target, struct hx_run_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	if (!target->ops->stats)
		return -EOPNOTSUPP;
	return target->ops->stats(target, stats);
}

const char *hx_build_dir(void)
{
	const char *dir = getenv("HWXDP_BUILD");

	return dir && *dir ? dir : "build";
}

const char *hx_object_path(const char *name)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/progs/%s.bpf.o", hx_build_dir(), name);
	return path;
}

bool hx_outcome_forwards(const struct hwxdp_prove_outcome *o)
{
	return o->end == HWXDP_PROVE_END_PUNT ||
	       (o->end == HWXDP_PROVE_END_EXIT && o->value >= XDP_PASS && o->value <= XDP_REDIRECT);
}

/* The egress the device gives a frame that o's side redirects. */
static uint32_t outcome_egress(const struct hwxdp_prove_outcome *o)
{
	switch (o->egress) {
	case HWXDP_PROVE_EGRESS_ENTRY:
	case HWXDP_PROVE_EGRESS_IFINDEX:
		return o->egress_ifindex;
	case HWXDP_PROVE_EGRESS_BCAST:
	case HWXDP_PROVE_EGRESS_BCAST_EXCL:
		return HWXDP_EGRESS_BCAST | (o->egress_map & HWXDP_EGRESS_BCAST_TABLE) |
		       (o->egress == HWXDP_PROVE_EGRESS_BCAST_EXCL ? HWXDP_EGRESS_BCAST_EXCL : 0);
	}
	return HWXDP_EGRESS_NONE;
}

bool hx_result_is_outcome(int err, const struct hx_result *r, const struct hwxdp_prove_outcome *o)
{
	if (o->end == HWXDP_PROVE_END_FAULT)
		return err != 0;
	if (err)
		return false;
	if (r->action != (o->end == HWXDP_PROVE_END_PUNT ? (uint32_t)XDP_PASS : o->value))
		return false;
	/* a redirect goes where the model says, where the target tells */
	if (o->end == HWXDP_PROVE_END_EXIT && o->value == XDP_REDIRECT && r->egress_known &&
	    r->egress != outcome_egress(o))
		return false;
	return !hx_outcome_forwards(o) || (r->len == o->len && !memcmp(r->frame, o->frame, o->len));
}
