/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test harness: one criterion test body, run on every target a program
 * has.
 *
 *   HWXDP_TEST(filter, drops_port_53, "build/filter.bpf.o")
 *   {
 *           struct hwxdp_test_result res;
 *           ...build a frame with hwxdp/packet.h...
 *           hwxdp_test_run(t, frame, len, &res);
 *           hwxdp_assert_verdict(t, &res, XDP_DROP);
 *           hwxdp_assert_map(t, "counts", &port, &want);
 *   }
 *
 * registers three criterion tests, filter::drops_port_53_kernel, _interp and
 * _compiled, each with the object freshly opened on its target:
 *   kernel    the host copy loaded into the kernel and run by
 *             BPF_PROG_TEST_RUN (root; skipped with the reason otherwise)
 *   interp    verified and translated for the coprocessor, run on the
 *             model's engine, interpreted
 *   compiled  the same microcode compiled to native code (skipped with the
 *             reason when there is no C compiler)
 * On the device targets the object's `hwxdp_target` global reads 1, on
 * the kernel 0.
 *
 * Maps are set and read by name with their C types: the key and value
 * sizes are checked against the object's (BTF) definitions, so a key of
 * the wrong type is an error, not a silent miss. Per-CPU maps are not
 * supported yet (-EOPNOTSUPP).
 *
 * Differentially, hwxdp_test__open_all opens the object on every target at
 * once and hwxdp_assert_agree compares two targets' runs of a frame: the
 * kernel's is the reference.
 *
 * A failed assertion names the target and, for frames and map values, the
 * first byte that differs and what it is: the header field ("IPv4 TTL",
 * "UDP checksum") or the member of the value's BTF type ("bytes").
 *
 * Link with `pkg-config --libs hwxdp` and criterion.
 */
#ifndef HWXDP_TEST_H
#define HWXDP_TEST_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <criterion/criterion.h>

#include "hwxdp/common.h"
#include "hwxdp/log.h"
#include "hwxdp/packet.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hwxdp_test_target {
	HWXDP_TEST_KERNEL,
	HWXDP_TEST_INTERP,
	HWXDP_TEST_COMPILED,
	HWXDP_TEST__TARGETS,
};

/* A program open on one target (opaque). */
struct hwxdp_test;

struct hwxdp_test_open_opts {
	size_t sz; /* sizeof(struct hwxdp_test_open_opts) */
};

/* XDP metadata a program may put in front of a frame: the kernel's limit. */
#define HWXDP_TEST_META_MAX 32

/* What one run did. */
struct hwxdp_test_result {
	uint32_t verdict; /* XDP_* */
	size_t meta_len;  /* the metadata the program left in front of the frame */
	uint8_t meta[HWXDP_TEST_META_MAX];
	size_t len; /* the frame as the program left it */
	uint8_t frame[HWXDP_PACKET_MAX];
};

/* "kernel", "interp", "compiled". */
HWXDP_API const char *hwxdp_test_target__name(enum hwxdp_test_target target);

/*
 * Opens the XDP program of the object at path on target. 0 with *out set;
 * -EOPNOTSUPP when the target cannot run on this host
 * (hwxdp_test__unavailable says why); another negative error when the
 * object cannot be opened, verified or loaded, the reason printed.
 */
HWXDP_API int hwxdp_test__open(const char *path, enum hwxdp_test_target target,
			       const struct hwxdp_test_open_opts *opts, struct hwxdp_test **out);
HWXDP_API void hwxdp_test__close(struct hwxdp_test *t);
/* Why the last hwxdp_test__open of target on this thread returned
 * -EOPNOTSUPP, or NULL. */
HWXDP_API const char *hwxdp_test__unavailable(enum hwxdp_test_target target);
HWXDP_API enum hwxdp_test_target hwxdp_test__target(const struct hwxdp_test *t);

/* Map elements by map name; key_size and value_size must be the map's.
 * 0, -ENOENT (no such map, or key), -EINVAL (a size differs: printed), or
 * the map's error (-E2BIG when full). */
HWXDP_API int hwxdp_test__map_update(struct hwxdp_test *t, const char *map, const void *key,
				     size_t key_size, const void *value, size_t value_size);
HWXDP_API int hwxdp_test__map_lookup(struct hwxdp_test *t, const char *map, const void *key,
				     size_t key_size, void *value, size_t value_size);
HWXDP_API int hwxdp_test__map_delete(struct hwxdp_test *t, const char *map, const void *key,
				     size_t key_size);

/* Runs one frame as arriving on ifindex ingress (0: the kernel's loopback;
 * the kernel target needs an ifindex that exists). 0 or a negative error:
 * -EINVAL for a frame shorter than an Ethernet header. */
HWXDP_API int hwxdp_test__run(struct hwxdp_test *t, uint32_t ingress, const void *frame, size_t len,
			      struct hwxdp_test_result *res);
/* The cost-model cycles of the last frame on a device target;
 * -EOPNOTSUPP on the kernel. */
HWXDP_API int hwxdp_test__cycles(struct hwxdp_test *t, uint64_t *cycles);

/* "XDP_PASS", ..., or "XDP action N". */
HWXDP_API const char *hwxdp_test__verdict_name(uint32_t verdict);

/* Whether res holds want_len bytes of want; if not, a message naming the
 * first byte that differs and its header field (msglen bytes). */
HWXDP_API bool hwxdp_test__frame_equal(const struct hwxdp_test_result *res, const void *want,
				       size_t want_len, char *msg, size_t msglen);
/* Whether the metadata in front of res's frame is want_len bytes of want;
 * if not, a message naming the first byte that differs. */
HWXDP_API bool hwxdp_test__meta_equal(const struct hwxdp_test_result *res, const void *want,
				      size_t want_len, char *msg, size_t msglen);
/* Whether map's value at key is want; if not (or no such key), a message
 * naming the first byte that differs and its member in the value's type. */
HWXDP_API bool hwxdp_test__map_equal(struct hwxdp_test *t, const char *map, const void *key,
				     size_t key_size, const void *want, size_t want_size, char *msg,
				     size_t msglen);

/*
 * Differential runs. Opens path on every target this host can run: t[i]
 * set, or NULL where the target is unavailable (or fails to open, the
 * reason printed). Returns how many were opened.
 */
HWXDP_API int hwxdp_test__open_all(const char *path, struct hwxdp_test *t[HWXDP_TEST__TARGETS]);
HWXDP_API void hwxdp_test__close_all(struct hwxdp_test *t[HWXDP_TEST__TARGETS]);
/* Whether a (what target ta did) and b (tb) agree in verdict and bytes; if
 * not, a message naming both targets, and the first byte that differs with
 * its header field. */
HWXDP_API bool hwxdp_test__agree(const struct hwxdp_test *ta, const struct hwxdp_test_result *a,
				 const struct hwxdp_test *tb, const struct hwxdp_test_result *b,
				 char *msg, size_t msglen);

/* ---- criterion ---- */

static inline struct hwxdp_test *hwxdp_test__criterion_open(const char *path,
							    enum hwxdp_test_target target)
{
	struct hwxdp_test *t = NULL;
	int err = hwxdp_test__open(path, target, NULL, &t);

	if (err == -EOPNOTSUPP)
		cr_skip_test("%s target: %s", hwxdp_test_target__name(target),
			     hwxdp_test__unavailable(target));
	if (err)
		cr_assert_fail("%s target: cannot open %s: %s", hwxdp_test_target__name(target),
			       path, hwxdp_strerror(err));
	return t;
}

#define HWXDP_TEST_ON(suite, name, path, target, tag)                                              \
	Test(suite, name##_##tag)                                                                  \
	{                                                                                          \
		struct hwxdp_test *test_ = hwxdp_test__criterion_open((path), (target));           \
		suite##__##name##__body(test_);                                                    \
		hwxdp_test__close(test_);                                                          \
	}

/* One body, one criterion test per target; the body's handle is t. */
#define HWXDP_TEST(suite, name, path)                                                              \
	static void suite##__##name##__body(struct hwxdp_test *t);                                 \
	HWXDP_TEST_ON(suite, name, path, HWXDP_TEST_KERNEL, kernel)                                \
	HWXDP_TEST_ON(suite, name, path, HWXDP_TEST_INTERP, interp)                                \
	HWXDP_TEST_ON(suite, name, path, HWXDP_TEST_COMPILED, compiled)                            \
	static void suite##__##name##__body(struct hwxdp_test *t)

#define hwxdp_test_target_name_(t) hwxdp_test_target__name(hwxdp_test__target(t))

/* Runs len bytes of frame (ingress 0) and asserts that the run worked. */
#define hwxdp_test_run(t, frame, len, res)                                                         \
	do {                                                                                       \
		int err_ = hwxdp_test__run((t), 0, (frame), (len), (res));                         \
		if (err_)                                                                          \
			cr_assert_fail("%s target: the run failed: %s",                            \
				       hwxdp_test_target_name_(t), hwxdp_strerror(err_));          \
	} while (0)

/* Sets map[*key] = *value, sized by their types. */
#define hwxdp_test_map_set(t, map, key, value)                                                     \
	do {                                                                                       \
		int err_ = hwxdp_test__map_update((t), (map), (key), sizeof(*(key)), (value),      \
						  sizeof(*(value)));                               \
		if (err_)                                                                          \
			cr_assert_fail("%s target: cannot set an element of map %s: %s",           \
				       hwxdp_test_target_name_(t), (map), hwxdp_strerror(err_));   \
	} while (0)

/* Reads map[*key] into *value; fails the test when there is none. */
#define hwxdp_test_map_get(t, map, key, value)                                                     \
	do {                                                                                       \
		int err_ = hwxdp_test__map_lookup((t), (map), (key), sizeof(*(key)), (value),      \
						  sizeof(*(value)));                               \
		if (err_)                                                                          \
			cr_assert_fail("%s target: cannot read an element of map %s: %s",          \
				       hwxdp_test_target_name_(t), (map), hwxdp_strerror(err_));   \
	} while (0)

#define hwxdp_assert_verdict(t, res, want)                                                         \
	do {                                                                                       \
		uint32_t got_ = (res)->verdict, want_ = (want);                                    \
		if (got_ != want_)                                                                 \
			cr_assert_fail("%s target: verdict %s, expected %s",                       \
				       hwxdp_test_target_name_(t), hwxdp_test__verdict_name(got_), \
				       hwxdp_test__verdict_name(want_));                           \
	} while (0)

/* The frame as the program left it is want_len bytes of want. */
#define hwxdp_assert_frame(t, res, want, want_len)                                                 \
	do {                                                                                       \
		char msg_[512];                                                                    \
		if (!hwxdp_test__frame_equal((res), (want), (want_len), msg_, sizeof(msg_)))       \
			cr_assert_fail("%s target: %s", hwxdp_test_target_name_(t), msg_);         \
	} while (0)

/* The metadata in front of the frame is *want (a struct of the program's). */
#define hwxdp_assert_meta(t, res, want)                                                            \
	do {                                                                                       \
		char msg_[512];                                                                    \
		if (!hwxdp_test__meta_equal((res), (want), sizeof(*(want)), msg_, sizeof(msg_)))   \
			cr_assert_fail("%s target: %s", hwxdp_test_target_name_(t), msg_);         \
	} while (0)

/* map[*key] is *want. */
#define hwxdp_assert_map(t, map, key, want)                                                        \
	do {                                                                                       \
		char msg_[512];                                                                    \
		if (!hwxdp_test__map_equal((t), (map), (key), sizeof(*(key)), (want),              \
					   sizeof(*(want)), msg_, sizeof(msg_)))                   \
			cr_assert_fail("%s target: %s", hwxdp_test_target_name_(t), msg_);         \
	} while (0)

/* Two targets' runs of one frame agree. */
#define hwxdp_assert_agree(ta, a, tb, b)                                                           \
	do {                                                                                       \
		char msg_[512];                                                                    \
		if (!hwxdp_test__agree((ta), (a), (tb), (b), msg_, sizeof(msg_)))                  \
			cr_assert_fail("%s", msg_);                                                \
	} while (0)

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HWXDP_TEST_H */
