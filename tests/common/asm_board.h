/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A board of one engine running one program written in microcode text
 * (docs/isa.md): for the tests whose program decides a frame's fate from
 * its bytes. Asserts each step.
 */
#ifndef HWXDP_TESTS_COMMON_ASM_BOARD_H
#define HWXDP_TESTS_COMMON_ASM_BOARD_H

#include <stdbool.h>
#include <stdint.h>

struct hwxdp_device;

/* The board (any_egress as hwxdp_device_opts) with text loaded as program
 * name; its id in *id. */
struct hwxdp_device *asm_board(const char *text, const char *name, bool any_egress, uint32_t *id);
/* The same with the image's tables (made empty on the board). */
struct hxu_table_desc;
struct hwxdp_device *asm_board_tables(const char *text, const char *name, bool any_egress,
				      const struct hxu_table_desc *tables, uint32_t table_cnt,
				      uint32_t *id);

#endif /* HWXDP_TESTS_COMMON_ASM_BOARD_H */
