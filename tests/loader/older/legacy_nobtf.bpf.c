// SPDX-License-Identifier: GPL-2.0
/*
 * legacy_hash.bpf.c built without debug information (-g0, CORPUS_CFLAGS in
 * the Makefile), as objects of the bpf_load.c era often were: legacy maps
 * and no .BTF, which the host copy's rewrite then makes whole.
 */
#include "../corpus/legacy_hash.bpf.c"
