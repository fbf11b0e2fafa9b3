// SPDX-License-Identifier: GPL-2.0
/*
 * Encapsulates a fixed set of frames with the crypto engine (device/esp.c)
 * and prints one line per frame for check_esp_scapy.py, which decrypts
 * them with scapy, an independent implementation:
 *
 *   KIND KEY SALT SPI SRC DST L3_OFFSET BEFORE AFTER
 *
 * KIND is "esp", or "wrongkey" when KEY is deliberately not the SA's key
 * (scapy must reject that packet); KEY and SALT are hex, SPI is hex, SRC
 * and DST are the tunnel's dotted addresses, BEFORE and AFTER are the whole
 * frame, L2 header included, before and after encapsulation, in hex.
 * Lines come in the order the packets were sent; several SAs interleave.
 *
 * Usage: esp_dump | /usr/bin/python3 tests/esp/check_esp_scapy.py
 * Exits 1 when the engine refuses a frame it should take.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/esp.h"
#include "lab/pkt.h"

#define HEADROOM 64
#define ETH_LEN	 14

struct tunnel {
	const char *name;
	uint32_t spi;
	size_t key_len;
	uint8_t key[32];
	uint8_t salt[4];
	const char *src, *dst;
	struct hwxdp_esp_sa sa;
};

static struct tunnel tunnels[] = {
	{ .name = "a",
	  .spi = 0x00001001,
	  .key_len = 16,
	  .src = "192.0.2.1",
	  .dst = "198.51.100.1" },
	{ .name = "b",
	  .spi = 0x80002002,
	  .key_len = 32,
	  .src = "192.0.2.2",
	  .dst = "198.51.100.2" },
	{ .name = "c",
	  .spi = 0x00c0ffee,
	  .key_len = 24,
	  .src = "203.0.113.9",
	  .dst = "203.0.113.10" },
	/* its packet is printed with a key one bit off */
	{ .name = "wrong",
	  .spi = 0x00004004,
	  .key_len = 16,
	  .src = "192.0.2.4",
	  .dst = "198.51.100.4" },
};

enum { SA_A, SA_B, SA_C, SA_WRONG, SA_COUNT };

static int failures;

static void print_hex(const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		printf("%02x", p[i]);
}

/*
 * Builds the frame (IP packet of ip_len bytes), encapsulates it and
 * prints its line. link_pad adds bytes of link-layer padding behind the
 * IP packet, as a minimum-size Ethernet frame has.
 */
static void emit(struct tunnel *t, int family, uint8_t proto, size_t ip_len, int vlan, uint8_t tos,
		 size_t link_pad)
{
	uint8_t buf[HEADROOM + 2048], before[2048], key[32];
	size_t ip_header = family == 4 ? 20 : 40, l4 = 0, off = HEADROOM, len, l3;
	struct hx_frame_spec spec;
	int err;

	if (proto == IPPROTO_TCP)
		l4 = 20;
	else if (proto == IPPROTO_UDP)
		l4 = 8;
	hx_frame_spec_init(&spec, family);
	spec.proto = proto;
	spec.vlan = vlan;
	spec.tos = tos;
	spec.payload_len = ip_len - ip_header - l4;
	len = hx_frame_build(&spec, buf + off, sizeof(buf) - off);
	l3 = ETH_LEN + (vlan >= 0 ? 4 : 0);
	if (!len || len != l3 + ip_len) {
		fprintf(stderr, "esp_dump: cannot build a %zu-byte IPv%d frame\n", ip_len, family);
		failures++;
		return;
	}
	memset(buf + off + len, 0, link_pad);
	len += link_pad;
	memcpy(before, buf + off, len);

	err = hwxdp_esp_sa__encap(&t->sa, buf, sizeof(buf), &off, &len, l3);
	if (err) {
		fprintf(stderr, "esp_dump: SA %s, %zu-byte IPv%d packet: error %d\n", t->name,
			ip_len, family, err);
		failures++;
		return;
	}

	memcpy(key, t->key, t->key_len);
	if (t == &tunnels[SA_WRONG])
		key[0] ^= 0x01;
	printf("%s ", t == &tunnels[SA_WRONG] ? "wrongkey" : "esp");
	print_hex(key, t->key_len);
	putchar(' ');
	print_hex(t->salt, sizeof(t->salt));
	printf(" %08x %s %s %zu ", t->spi, t->src, t->dst, l3);
	print_hex(before, l3 + ip_len + link_pad);
	putchar(' ');
	print_hex(buf + off, len);
	putchar('\n');
}

int main(void)
{
	size_t i, j, ip_len;
	int err;

	for (i = 0; i < SA_COUNT; i++) {
		struct tunnel *t = &tunnels[i];

		for (j = 0; j < t->key_len; j++)
			t->key[j] = (uint8_t)(j * 29 + i * 71 + 5);
		for (j = 0; j < sizeof(t->salt); j++)
			t->salt[j] = (uint8_t)(0xc0 + i * 16 + j);
		err = hwxdp_esp_sa__init(&t->sa, t->spi, t->key, t->key_len, t->salt,
					 inet_addr(t->src), inet_addr(t->dst));
		if (err) {
			fprintf(stderr, "esp_dump: SA %s: init error %d\n", t->name, err);
			return 1;
		}
	}

	/* Every padding length many times over: IPv4 20..80, TCP where it
	 * fits, then UDP, then a bare payload; two SAs taking turns. */
	for (ip_len = 20; ip_len <= 80; ip_len++) {
		uint8_t proto = ip_len >= 40 && ip_len % 2 ? IPPROTO_TCP
				: ip_len >= 28		   ? IPPROTO_UDP
							   : 253;

		emit(&tunnels[ip_len % 2 ? SA_A : SA_B], 4, proto, ip_len, -1,
		     (uint8_t)(ip_len * 4), 0);
	}
	for (i = 0; i < SA_WRONG; i++) {
		emit(&tunnels[i], 4, IPPROTO_TCP, 1400, -1, 0x10, 0);
		emit(&tunnels[i], 4, IPPROTO_UDP, 1400, -1, 0, 0);
	}

	/* IPv6 inside, with traffic class, on all three key sizes. */
	for (ip_len = 40; ip_len <= 80; ip_len += 3)
		emit(&tunnels[ip_len % 3 == 0	? SA_C
			      : ip_len % 3 == 1 ? SA_A
						: SA_B],
		     6, ip_len >= 48 ? IPPROTO_UDP : 253, ip_len, -1, 0xb9, 0);
	emit(&tunnels[SA_C], 6, IPPROTO_TCP, 1400, -1, 0x2e, 0);
	emit(&tunnels[SA_B], 6, IPPROTO_UDP, 1400, -1, 0, 0);

	/* An 802.1Q tag stays in front; link padding is not encrypted. */
	emit(&tunnels[SA_C], 4, IPPROTO_UDP, 200, 50, 0, 0);
	emit(&tunnels[SA_A], 6, IPPROTO_TCP, 300, 4000, 0x80, 0);
	emit(&tunnels[SA_B], 4, IPPROTO_TCP, 40, -1, 0, 6);

	emit(&tunnels[SA_WRONG], 4, IPPROTO_UDP, 100, -1, 0, 0);

	for (i = 0; i < SA_COUNT; i++)
		hwxdp_esp_sa__fini(&tunnels[i].sa);
	return failures ? 1 : 0;
}
