/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every public header shares: the export marker, the sized options
 * macro and the library's version.
 */
#ifndef HWXDP_COMMON_H
#define HWXDP_COMMON_H

#include <stddef.h>
#include <string.h>

#define HWXDP_VERSION_MAJOR 0
#define HWXDP_VERSION_MINOR 1

/* A symbol of the public API: the library is built with hidden visibility
 * and a version script, so nothing else leaves it. */
#ifndef HWXDP_API
#define HWXDP_API __attribute__((visibility("default")))
#endif

/*
 * Declares and zeroes an options struct whose first field is `size_t sz`,
 * then sets sz and the fields given, as LIBBPF_OPTS does:
 *   HWXDP_OPTS(hwxdp_test_open_opts, opts, .target = HWXDP_TARGET_KERNEL);
 * A library built before a field was added ignores it when zero and refuses
 * the options (-EINVAL) otherwise.
 */
#define HWXDP_OPTS(TYPE, NAME, ...)                                                                \
	struct TYPE NAME = ({                                                                      \
		memset(&NAME, 0, sizeof(struct TYPE));                                             \
		(struct TYPE){ .sz = sizeof(struct TYPE), __VA_ARGS__ };                           \
	})

#endif /* HWXDP_COMMON_H */
