/* SPDX-License-Identifier: GPL-2.0 */
/* The options the prover's tests prove with. */
#ifndef HWXDP_TESTS_PROVE_OPTS_H
#define HWXDP_TESTS_PROVE_OPTS_H

#include <stdlib.h>

#include "hwmap/prove.h"

#define TIMEOUT 20000 /* ms per solver query: the programs here take well under 1 s */

/* Frames of up to 64 bytes, on ingress 1 (a context the kernel's test run
 * replays); path against path in run-tests.sh's second pass. */
static inline struct hwxdp_prove_opts test_prove_opts(void)
{
	return (struct hwxdp_prove_opts){
		.sz = sizeof(struct hwxdp_prove_opts),
		.max_len = 64,
		.timeout_ms = TIMEOUT,
		.ingress = 1,
		.by_pairs = getenv("HWXDP_PROVE_BY_PAIRS") != NULL,
	};
}

#endif /* HWXDP_TESTS_PROVE_OPTS_H */
