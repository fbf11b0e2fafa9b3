// SPDX-License-Identifier: GPL-2.0
/*
 * udpgen: sends one UDP frame over and over on a netdev for a time, as fast
 * as an AF_PACKET socket takes it (PACKET_QDISC_BYPASS, sendmmsg batches),
 * and prints the frames it sent. The appliance bench's traffic source.
 * Given COUNT and RATE, it sends exactly COUNT frames at RATE a second, the
 * first four bytes of each payload its sequence number (0, 1, ..., network
 * order), for a receiver that counts what is lost or doubled; given VLAN
 * too, the frames carry that 802.1Q tag (the socket bypasses the qdisc and
 * whatever tags there).
 *
 * usage: udpgen IFACE SECONDS SIZE DST_MAC SRC_IP DST_IP [COUNT RATE [VLAN]]
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
	static uint8_t frames[BATCH][2048];
	uint8_t *frame = frames[0], smac[6];
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	uint64_t count = 0, rate = 0, seq = 0;
	uint32_t l2 = 14; /* bytes before the IPv4 header */
	uint16_t vlan = 0;
	double start;
	struct ifreq ifr = { 0 };
	unsigned int mac[6];
	struct iphdr *ip;
	struct udphdr *udp;
	unsigned long size;
	double secs, end;
	uint64_t sent = 0;
	int fd, one = 1;

	if (argc != 7 && argc != 9 && argc != 10) {
		fprintf(stderr, "usage: udpgen IFACE SECONDS SIZE DST_MAC SRC_IP DST_IP "
				"[COUNT RATE [VLAN]]\n");
		return 64;
	}
	if (argc == 10) {
		unsigned long v = strtoul(argv[9], NULL, 10);

		if (!v || v > 4094) {
			fprintf(stderr, "udpgen: VLAN 1..4094 expected\n");
			return 64;
		}
		l2 = 18;
		vlan = (uint16_t)v;
	}
	if (argc >= 9) {
		count = strtoull(argv[7], NULL, 10);
		rate = strtoull(argv[8], NULL, 10);
		if (!count || !rate) {
			fprintf(stderr, "udpgen: COUNT and RATE are frames and frames a second\n");
			return 64;
		}
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
	if (vlan) {
		frame[12] = 0x81;
		frame[14] = (uint8_t)(vlan >> 8);
		frame[15] = (uint8_t)vlan;
		frame[16] = 0x08;
	} else {
		frame[12] = 0x08;
	}
	ip = (struct iphdr *)(frame + l2);
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->tot_len = htons((uint16_t)(size - l2));
	if (inet_pton(AF_INET, argv[5], &ip->saddr) != 1 ||
	    inet_pton(AF_INET, argv[6], &ip->daddr) != 1) {
		fprintf(stderr, "udpgen: bad IPv4 address\n");
		return 64;
	}
	ip->check = htons(csum(ip, 20));
	udp = (struct udphdr *)(frame + l2 + 20);
	udp->source = htons(40000);
	udp->dest = htons(9);
	udp->len = htons((uint16_t)(size - l2 - 20));
	for (int i = 0; i < BATCH; i++) {
		if (i)
			memcpy(frames[i], frame, size);
		iov[i] = (struct iovec){ .iov_base = frames[i], .iov_len = size };
		msgs[i] = (struct mmsghdr){ .msg_hdr = { .msg_name = &sll,
							 .msg_namelen = sizeof(sll),
							 .msg_iov = &iov[i],
							 .msg_iovlen = 1 } };
	}
	start = now();
	end = start + secs;
	while (count ? seq < count : now() < end) {
		int want = BATCH, n;

		if (count) {
			/* Paced: no frame before its time; each carries its number. */
			uint64_t due = (uint64_t)((now() - start) * (double)rate) + 1;

			if (due <= seq) {
				/* Not due: sleep until a batch is, the CPU is the
				 * appliance's. */
				struct timespec ts = { 0, (long)(1e9 * BATCH / (double)rate) };

				nanosleep(&ts, NULL);
				continue;
			}
			if (due - seq < (uint64_t)want)
				want = (int)(due - seq);
			if (count - seq < (uint64_t)want)
				want = (int)(count - seq);
			for (int i = 0; i < want; i++) {
				uint32_t be = htonl((uint32_t)(seq + (uint64_t)i));

				memcpy(frames[i] + l2 + 28, &be, 4);
			}
		}
		n = sendmmsg(fd, msgs, (unsigned int)want, 0);
		if (n > 0) {
			sent += (uint64_t)n;
			seq += (uint64_t)n;
		} else if (errno != ENOBUFS && errno != EAGAIN) {
			break;
		}
	}
	printf("%llu\n", (unsigned long long)sent);
	return 0;
}
