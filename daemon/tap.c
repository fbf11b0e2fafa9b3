// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <net/if_arp.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon/tap.h"

static int ifreq_ioctl(unsigned long req, struct ifreq *ifr)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, req, ifr))
		err = -errno;
	close(fd);
	return err;
}

int netdev_info(const char *name, uint32_t *ifindex, uint8_t mac[6], uint32_t *mtu)
{
	struct ifreq ifr = { 0 };
	unsigned int idx = if_nametoindex(name);
	int err;

	if (!idx || strlen(name) >= IFNAMSIZ)
		return -ENODEV;
	*ifindex = idx;
	memcpy(ifr.ifr_name, name, strlen(name) + 1);
	err = ifreq_ioctl(SIOCGIFHWADDR, &ifr);
	if (err)
		return err;
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	err = ifreq_ioctl(SIOCGIFMTU, &ifr);
	if (err)
		return err;
	*mtu = (uint32_t)ifr.ifr_mtu;
	return 0;
}

int netdev_set(const char *name, uint32_t mtu, bool up)
{
	struct ifreq ifr = { 0 };
	int err;

	if (strlen(name) >= IFNAMSIZ)
		return -ENODEV;
	memcpy(ifr.ifr_name, name, strlen(name) + 1);
	ifr.ifr_mtu = (int)mtu;
	err = ifreq_ioctl(SIOCSIFMTU, &ifr);
	if (!err)
		err = ifreq_ioctl(SIOCGIFFLAGS, &ifr);
	if (!err) {
		if (up)
			ifr.ifr_flags |= IFF_UP;
		else
			ifr.ifr_flags &= ~IFF_UP;
		err = ifreq_ioctl(SIOCSIFFLAGS, &ifr);
	}
	return err;
}

int tap_open(const char *name, const uint8_t mac[6], uint32_t mtu, bool adopt, int *out_fd,
	     uint32_t *ifindex, char *msg, size_t msglen)
{
	struct ifreq ifr = { 0 };
	int fd, err;

	if (!adopt && if_nametoindex(name)) {
		snprintf(msg, msglen,
			 "a netdev %s exists already (left by a daemon that was killed? "
			 "ip link del %s)",
			 name, name);
		return -EEXIST;
	}
	fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(msg, msglen, "/dev/net/tun: %s", strerror(errno));
		return err;
	}
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(fd, TUNSETIFF, &ifr)) {
		err = -errno;
		snprintf(msg, msglen, "cannot make TAP %s: %s%s", name, strerror(errno),
			 adopt && if_nametoindex(name) ? " (a netdev of that name is not a TAP)"
						       : "");
		goto fail;
	}
	if (ioctl(fd, TUNSETPERSIST, 1)) {
		err = -errno;
		snprintf(msg, msglen, "cannot make TAP %s persistent: %s", name, strerror(errno));
		goto fail;
	}
	ifr.ifr_hwaddr.sa_family = ARPHRD_ETHER;
	memcpy(ifr.ifr_hwaddr.sa_data, mac, 6);
	err = ifreq_ioctl(SIOCSIFHWADDR, &ifr);
	if (!err) {
		ifr.ifr_mtu = (int)mtu;
		err = ifreq_ioctl(SIOCSIFMTU, &ifr);
	}
	if (!err) {
		err = ifreq_ioctl(SIOCGIFFLAGS, &ifr);
		ifr.ifr_flags |= IFF_UP;
		if (!err)
			err = ifreq_ioctl(SIOCSIFFLAGS, &ifr);
	}
	if (err) {
		snprintf(msg, msglen, "cannot set up TAP %s (MAC, MTU %u, up): %s", name, mtu,
			 strerror(-err));
		goto fail;
	}
	*ifindex = if_nametoindex(name);
	*out_fd = fd;
	return 0;
fail:
	tap_close(fd);
	return err;
}

void tap_close(int fd)
{
	if (fd < 0)
		return;
	/* Not persistent any more: the TAP goes with its last descriptor. */
	ioctl(fd, TUNSETPERSIST, 0);
	close(fd);
}
