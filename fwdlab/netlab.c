// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fwdlab/netlab.h"
#include "base/log.h"

int hx_netlab_enter(unsigned int count, uint32_t *ifindex)
{
	char name[IF_NAMESIZE];
	unsigned int i;
	FILE *ip;
	int status;

	if (count > HX_NETLAB_MAX_PORTS)
		return -EINVAL;
	if (unshare(CLONE_NEWNET))
		return -errno;
	/* One `ip` for every link: the namespace is new, so nothing collides. */
	ip = popen("ip -batch - >/dev/null 2>&1", "w");
	if (!ip)
		return -errno;
	for (i = 1; i <= count; i++) {
		fprintf(ip, "link add hxp%u type veth peer name hxq%u\n", i, i);
		fprintf(ip, "link set hxp%u up\nlink set hxq%u up\n", i, i);
	}
	status = pclose(ip);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		pr_warn("netlab: `ip -batch` could not make the veth ports (%s)\n",
			WIFEXITED(status) && WEXITSTATUS(status) == 127 ? "no ip command" :
									  "ip failed");
		return WIFEXITED(status) && WEXITSTATUS(status) == 127 ? -ENOENT : -EIO;
	}
	for (i = 1; i <= count; i++) {
		snprintf(name, sizeof(name), "hxp%u", i);
		ifindex[i - 1] = if_nametoindex(name);
		if (!ifindex[i - 1])
			return -errno;
	}
	return 0;
}
