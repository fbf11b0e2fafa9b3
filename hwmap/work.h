/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The translator's work, counted: every pass adds the instructions,
 * operations or edges it visits, so that a test can hold the total to a
 * multiple of the program's length instead of timing it. Per thread, as
 * translations run in parallel; hwxdp_translate resets it.
 */
#ifndef HWXDP_HWMAP_WORK_H
#define HWXDP_HWMAP_WORK_H

#include <stdint.h>

extern _Thread_local uint64_t hxu_work;

static inline void hxu_work_add(uint64_t units)
{
	hxu_work += units;
}

#endif /* HWXDP_HWMAP_WORK_H */
