// SPDX-License-Identifier: GPL-2.0
/*
 * The differential harness's way of verifying and translating a raw BPF
 * program for the device (tests/devdiff/pair.h), built into this folder's
 * binary: the build links a test folder's own sources only.
 */
#include "tests/devdiff/pair.c"
