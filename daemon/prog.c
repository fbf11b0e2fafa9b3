// SPDX-License-Identifier: GPL-2.0
#include "daemon/internal.h"

void progs_free(struct hwxdpd *d)
{
	(void)d;
}
