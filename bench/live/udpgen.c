// SPDX-License-Identifier: GPL-2.0
/*
 * udpgen: sends one UDP frame over and over on a netdev for a time, as fast
 * as an AF_PACKET socket takes it (PACKET_QDISC_BYPASS, sendmmsg batches),
 * and prints the frames it sent. The appliance bench's traffic source.
 *
 * usage: udpgen IFACE SECONDS SIZE DST_MAC SRC_IP DST_IP
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64

static uint16_t csum(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(b[i] << 8 | b[i + 1]);
	if (len & 1)
		sum += (uint32_t)b[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	uint8_t frame[2048] = { 0 }, smac[6];
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct mmsghdr msgs[BATCH];
	struct iovec iov;
	struct ifreq ifr = { 0 };
	unsigned int mac[6];
	struct iphdr *ip;
	struct udphdr *udp;
	unsigned long size;
	double secs, end;
	uint64_t sent = 0;
	int fd, one = 1;

	if (argc != 7) {
		fprintf(stderr, "usage: udpgen IFACE SECONDS SIZE DST_MAC SRC_IP DST_IP\n");
		return 64;
	}
	secs = atof(argv[2]);
	size = strtoul(argv[3], NULL, 10);
	if (size < 60 || size > 1514 ||
	    sscanf(argv[4], "%x:%x:%x:%x:%x:%x", &mac[0], &mac[1], &mac[2], &mac[3], &mac[4],
		   &mac[5]) != 6) {
		fprintf(stderr, "udpgen: SIZE 60..1514 (no FCS) and a MAC aa:bb:.. expected\n");
		return 64;
	}
	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (fd < 0) {
		perror("udpgen: socket");
		return 1;
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", argv[1]);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr)) {
		perror("udpgen: SIOCGIFHWADDR");
		return 1;
	}
	memcpy(smac, ifr.ifr_hwaddr.sa_data, 6);
	sll.sll_ifindex = (int)if_nametoindex(argv[1]);
	sll.sll_protocol = htons(ETH_P_IP);
	setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	for (int i = 0; i < 6; i++)
		frame[i] = (uint8_t)mac[i];
	memcpy(frame + 6, smac, 6);
	frame[12] = 0x08;
	ip = (struct iphdr *)(frame + 14);
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->tot_len = htons((uint16_t)(size - 14));
	if (inet_pton(AF_INET, argv[5], &ip->saddr) != 1 ||
	    inet_pton(AF_INET, argv[6], &ip->daddr) != 1) {
		fprintf(stderr, "udpgen: bad IPv4 address\n");
		return 64;
	}
	ip->check = htons(csum(ip, 20));
	udp = (struct udphdr *)(frame + 34);
	udp->source = htons(40000);
	udp->dest = htons(9);
	udp->len = htons((uint16_t)(size - 34));
	iov = (struct iovec){ .iov_base = frame, .iov_len = size };
	for (int i = 0; i < BATCH; i++)
		msgs[i] = (struct mmsghdr){ .msg_hdr = { .msg_name = &sll,
							 .msg_namelen = sizeof(sll),
							 .msg_iov = &iov,
							 .msg_iovlen = 1 } };
	end = now() + secs;
	while (now() < end) {
		int n = sendmmsg(fd, msgs, BATCH, 0);

		if (n > 0)
			sent += (uint64_t)n;
		else if (errno != ENOBUFS && errno != EAGAIN)
			break;
	}
	printf("%llu\n", (unsigned long long)sent);
	return 0;
}
