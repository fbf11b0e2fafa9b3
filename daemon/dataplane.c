// SPDX-License-Identifier: GPL-2.0
#include "daemon/internal.h"

int dataplane_start(struct hwxdpd *d)
{
	(void)d;
	return 0;
}

void dataplane_stop(struct hwxdpd *d)
{
	(void)d;
}

void dataplane_changed(struct hwxdpd *d)
{
	(void)d;
}
