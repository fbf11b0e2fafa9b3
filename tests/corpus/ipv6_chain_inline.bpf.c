// SPDX-License-Identifier: GPL-2.0
/*
 * ipv6_chain_dynptr with its L4 stage called at once, the chain's end in
 * registers instead of the scratch slots. The kernel (6.18) takes it in
 * 1,417 processed instructions; hwxdp's verifier walks past 8,192 pending
 * branches ("The sequence of 8193 jumps is too complex"), a gap kept in
 * sight in tests/corpus/test_corpus.c's known_gaps.
 */
#define L4_INLINE
#include "ipv6_chain_dynptr.bpf.c"
