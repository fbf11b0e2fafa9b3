/* SPDX-License-Identifier: GPL-2.0 */
/* The kfuncs the coprocessor provides, by name and device id. */
#ifndef HWXDP_LOADER_KFUNCS_H
#define HWXDP_LOADER_KFUNCS_H

#include "loader/object.h"

enum {
	HWXDP_KFUNC_ESP_ENCAP = 1,
};

/* Ended by a NULL name. */
extern const struct hwxdp_kfunc hwxdp_device_kfuncs[];

/* The entry of table called name, or NULL. */
const struct hwxdp_kfunc *hwxdp_kfunc__find(const struct hwxdp_kfunc *table, const char *name);

#endif /* HWXDP_LOADER_KFUNCS_H */
