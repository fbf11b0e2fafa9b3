// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier's program generator, built into this folder's binary: the
 * build links a test folder's own sources only.
 */
#include "tests/vdiff/gen.c"
