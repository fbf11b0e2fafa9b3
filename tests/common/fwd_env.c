// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fwdlab/netlab.h"
#include "tests/common/fwd_env.h"

static void must(int err, const char *what)
{
	cr_assert_eq(err, 0, "%s: %s", what, strerror(-err));
}

static void fill_lab(struct hx_env *env, const char *target, const uint32_t ifindex[HX_PORTS])
{
	/* HWXDP_FWD_PROG=fwd_alu32: the same suite on another build of fwd */
	const char *name = getenv("HWXDP_FWD_PROG");
	unsigned int i;

	env->target = hx_target_open(target, hx_object_path(name ? name : "fwd"));
	cr_assert_not_null(env->target, "open fwd on %s: %s", target, strerror(errno));
	for (i = 0; i < HX_PORTS; i++)
		env->ifindex[i + 1] = ifindex[i];
	must(hx_lab_topology(env->target, ifindex), "the lab's tables");
}

void hx_env_open(struct hx_env *env, const char *target)
{
	uint32_t ifindex[HX_PORTS];
	unsigned int i;
	int err;

	memset(env, 0, sizeof(*env));
	/* The device runs without root, but where it can it takes the kernel's
	 * lab ports, so that tests naming a namespace's interfaces hold on both. */
	if (!strcmp(target, "kernel") || geteuid() == 0) {
		if (geteuid() != 0)
			cr_skip_test("the kernel target needs root (BPF_PROG_TEST_RUN, netns)");
		err = hx_netlab_enter(HX_PORTS, ifindex);
		if (err == -EPERM)
			cr_skip_test("cannot make a network namespace: %s", strerror(-err));
		must(err, "netlab");
	} else {
		for (i = 0; i < HX_PORTS; i++)
			ifindex[i] = 100 + i;
	}
	fill_lab(env, target, ifindex);
}

void hx_env_open_like(struct hx_env *env, const char *target, const struct hx_env *like)
{
	memset(env, 0, sizeof(*env));
	fill_lab(env, target, like->ifindex + 1);
}

void hx_env_close(struct hx_env *env)
{
	hx_target_close(env->target);
	env->target = NULL;
}

void hx_run_bytes(struct hx_env *env, unsigned int port, const uint8_t *frame, size_t len,
		  struct hx_result *result)
{
	int err;

	cr_assert(port >= 1 && port <= HX_PORTS, "no lab port %u", port);
	err = hx_target_run(env->target, env->ifindex[port], frame, len, result);
	cr_assert_eq(err, 0, "run on %s: %s", hx_target_name(env->target), strerror(-err));
}

void hx_run_spec(struct hx_env *env, unsigned int port, const struct hx_frame_spec *spec,
		 struct hx_result *result)
{
	uint8_t frame[HX_PKT_MAX];
	size_t len = hx_frame_build(spec, frame, sizeof(frame));

	cr_assert_gt(len, 0, "frame does not build");
	hx_run_bytes(env, port, frame, len, result);
}

void hx_assert_punt(const struct hx_result *result, unsigned int reason, const uint8_t *in,
		    size_t in_len)
{
	cr_assert_eq(result->action, XDP_PASS, "verdict %s, expected pass (punt %s)",
		     hwxdp_xdp_action_name(result->action), hwxdp_punt_reason_name(reason));
	cr_assert(result->has_meta, "no metadata on a punted frame");
	cr_assert_eq(result->meta.reason, reason, "punt reason %s, expected %s",
		     hwxdp_punt_reason_name(result->meta.reason), hwxdp_punt_reason_name(reason));
	if (in) {
		cr_assert_eq(result->len, in_len, "punted frame is %zu bytes, arrived as %zu",
			     result->len, in_len);
		cr_assert_arr_eq(result->frame, in, in_len, "a punted frame was changed");
	}
}

void hx_assert_forward(const struct hx_result *result, unsigned int ingress_port,
		       unsigned int egress_port)
{
	unsigned int expected = ingress_port == egress_port ? XDP_TX : XDP_REDIRECT;

	cr_assert(result->has_meta, "no metadata on a forwarded frame");
	cr_assert_eq(result->meta.reason, HWXDP_PUNT_NONE, "punted: %s",
		     hwxdp_punt_reason_name(result->meta.reason));
	cr_assert_eq(result->action, expected, "verdict %s, expected %s",
		     hwxdp_xdp_action_name(result->action), hwxdp_xdp_action_name(expected));
	cr_assert_eq(result->meta.egress_port, egress_port, "egress port %u, expected %u",
		     result->meta.egress_port, egress_port);
}
