// SPDX-License-Identifier: GPL-2.0
#include "daemon/internal.h"

void ports_free(struct hwxdpd *d)
{
	(void)d;
}
