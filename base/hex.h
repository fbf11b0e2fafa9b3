/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HWXDP_BASE_HEX_H
#define HWXDP_BASE_HEX_H

#include <stddef.h>
#include <stdint.h>

/*
 * Reads space-separated hex bytes ("00 01 ff", blanks of any kind and
 * length; "0001ff" as one word is the same three bytes). 0 with *out
 * (malloc'ed, NULL for no bytes) and *len, or -EINVAL with the reason in err
 * (errlen bytes, may be 0), or -ENOMEM.
 */
int hx_hex_parse(const char *text, uint8_t **out, size_t *len, char *err, size_t errlen);

#endif /* HWXDP_BASE_HEX_H */
