/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tests of progs/fwd.bpf.c. HX_TEST(suite, name) writes one body and runs it
 * on every execution target: a Test() per target, each with its own freshly
 * loaded program, maps and lab ports.
 *
 * Every test starts from the forwarding lab (fwdlab/fwd_lab.h), freshly
 * written by hx_env_open: ports 1, 2, 3 on veths hxp1..hxp3 in a private
 * network namespace, its LIFs, its next hops (NH_P1, NH_P2, NH_P1_V50, ...)
 * and its SA. No flow is installed: a test adds the ones it needs.
 */
#ifndef HWXDP_TESTS_COMMON_FWD_ENV_H
#define HWXDP_TESTS_COMMON_FWD_ENV_H

#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "fwdlab/fwd.h"
#include "fwdlab/fwd_lab.h"
#include "lab/pkt.h"
#include "lab/target.h"

#define HX_PORTS HX_LAB_PORTS

struct hx_env {
	struct hx_target *target;
	uint32_t ifindex[HX_PORTS + 1]; /* by port number, 1-based */
};

/* Loads fwd on target into the lab above; skips the test where that is
 * impossible (not root, no BPF), fails it on any other error. */
void hx_env_open(struct hx_env *env, const char *target);
/* The same lab on target, with like's port ifindexes (no namespace of its
 * own): two targets then hold the same map contents. */
void hx_env_open_like(struct hx_env *env, const char *target, const struct hx_env *like);
void hx_env_close(struct hx_env *env);

/* Builds spec's frame, runs it as arriving on port; asserts the run itself worked. */
void hx_run_spec(struct hx_env *env, unsigned int port, const struct hx_frame_spec *spec,
		 struct hx_result *result);
void hx_run_bytes(struct hx_env *env, unsigned int port, const uint8_t *frame, size_t len,
		  struct hx_result *result);

/* Asserts a punt for reason: XDP_PASS, the metadata says so, and the frame is
 * byte for byte what arrived. */
void hx_assert_punt(const struct hx_result *result, unsigned int reason, const uint8_t *in,
		    size_t in_len);
/* Asserts a forward out of port (XDP_TX when it is the ingress port). */
void hx_assert_forward(const struct hx_result *result, unsigned int ingress_port,
		       unsigned int egress_port);

#define HX_TEST_ON(suite, name, target_name)                                                       \
	Test(suite, name##_##target_name)                                                          \
	{                                                                                          \
		struct hx_env env;                                                                 \
		hx_env_open(&env, #target_name);                                                   \
		suite##__##name(&env);                                                             \
		hx_env_close(&env);                                                                \
	}

#define HX_TEST(suite, name)                                                                       \
	static void suite##__##name(struct hx_env *env);                                           \
	HX_TEST_ON(suite, name, kernel)                                                            \
	HX_TEST_ON(suite, name, device)                                                            \
	static void suite##__##name(struct hx_env *env)

/* A test of what only the kernel does (tunnel flows punted for want of crypto). */
#define HX_TEST_KERNEL(suite, name)                                                                \
	static void suite##__##name(struct hx_env *env);                                           \
	HX_TEST_ON(suite, name, kernel)                                                            \
	static void suite##__##name(struct hx_env *env)

#endif /* HWXDP_TESTS_COMMON_FWD_ENV_H */
