// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "loader/kfuncs.h"

const struct hwxdp_kfunc hwxdp_device_kfuncs[] = {
	{ "bpf_hwxdp_esp_encap", HWXDP_KFUNC_ESP_ENCAP },
	{ NULL, 0 },
};

const struct hwxdp_kfunc *hwxdp_kfunc__find(const struct hwxdp_kfunc *table, const char *name)
{
	for (; table && table->name; table++)
		if (!strcmp(table->name, name))
			return table;
	return NULL;
}
