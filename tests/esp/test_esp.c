// SPDX-License-Identifier: GPL-2.0
/*
 * The crypto engine (device/esp.c): lengths against the MTU formula of
 * progs/fwd.bpf.c, the outer header checked field by field and by a full
 * checksum recomputation, every error leaving the frame and the SA as they
 * were, known-answer vectors from an independent implementation, and a
 * decryption of every packet through a separate libcrypto path.
 * tests/esp/check_esp_scapy.py decrypts the output of esp_dump with scapy.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <string.h>

#include <criterion/criterion.h>
#include <openssl/evp.h>

#include "device/esp.h"
#include "lab/pkt.h"

/* The MTU check of progs/fwd.bpf.c, spelled as it is there. */
#define FWD_ESP_TUNNEL_OVERHEAD (20 + 8 + 8 + 2 + 16)
#define FWD_TUNNEL_LEN(l3_len)	((((l3_len) + 2 + 3) & ~3u) - 2 + FWD_ESP_TUNNEL_OVERHEAD)

#define ETH_LEN	 14
#define HEADROOM 64
#define BUF_CAP	 (HEADROOM + 1600 + HWXDP_ESP_TAILROOM_MAX)

static const uint8_t key128[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static const uint8_t salt[4] = { 0xca, 0xfe, 0xba, 0xbe };

static uint32_t addr_be(const char *dotted)
{
	return inet_addr(dotted);
}

static void sa_open(struct hwxdp_esp_sa *sa, const uint8_t *key, size_t key_len, uint32_t spi)
{
	int err = hwxdp_esp_sa__init(sa, spi, key, key_len, salt, addr_be("192.0.2.1"),
				     addr_be("198.51.100.7"));

	cr_assert_eq(err, 0, "hwxdp_esp_sa__init: %d", err);
}

/*
 * An IPv4 (family 4) or IPv6 frame whose IP packet is ip_len bytes: UDP
 * when it fits, else a bare protocol-253 payload. vlan >= 0 adds a tag.
 */
static size_t build_frame(uint8_t *buf, size_t cap, int family, size_t ip_len, int vlan,
			  uint8_t tos)
{
	struct hx_frame_spec spec;
	size_t ip_header = family == 4 ? 20 : 40, len;

	hx_frame_spec_init(&spec, family);
	spec.vlan = vlan;
	spec.tos = tos;
	spec.proto = ip_len >= ip_header + 8 ? IPPROTO_UDP : 253;
	spec.payload_len = ip_len - ip_header - (spec.proto == IPPROTO_UDP ? 8 : 0);
	len = hx_frame_build(&spec, buf, cap);
	cr_assert_gt(len, 0, "hx_frame_build(family %d, %zu bytes)", family, ip_len);
	return len;
}

static uint16_t be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32_at(const uint8_t *p)
{
	return (uint32_t)be16_at(p) << 16 | be16_at(p + 2);
}

/*
 * Opens an ESP packet with a decryption written apart from the engine:
 * checks the tag, the trailer (RFC 4303 padding 1, 2, 3, ..., minimal
 * length) and returns the inner packet's length in *inner_len.
 */
static void open_esp(const uint8_t *outer, size_t outer_len, const struct hwxdp_esp_sa *sa,
		     uint8_t *plain, size_t *inner_len, uint8_t *next_header)
{
	const EVP_CIPHER *cipher = sa->key_len == 16   ? EVP_aes_128_gcm()
				   : sa->key_len == 24 ? EVP_aes_192_gcm()
						       : EVP_aes_256_gcm();
	const uint8_t *esp = outer + 20, *ct = esp + 16;
	size_t ct_len = outer_len - 20 - 16 - 16, pad, i;
	uint8_t nonce[12], tag[16];
	EVP_CIPHER_CTX *ctx;
	int n, ok;

	cr_assert_geq(outer_len, 20 + 16 + 2 + 16);
	memcpy(nonce, sa->salt, 4);
	memcpy(nonce + 4, esp + 8, 8);
	memcpy(tag, outer + outer_len - 16, 16);
	ctx = EVP_CIPHER_CTX_new();
	cr_assert_not_null(ctx);
	ok = EVP_DecryptInit_ex(ctx, cipher, NULL, NULL, NULL) == 1 &&
	     EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) == 1 &&
	     EVP_DecryptInit_ex(ctx, NULL, NULL, sa->key, nonce) == 1 &&
	     EVP_DecryptUpdate(ctx, NULL, &n, esp, 8) == 1 &&
	     EVP_DecryptUpdate(ctx, plain, &n, ct, (int)ct_len) == 1 &&
	     EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, tag) == 1 &&
	     EVP_DecryptFinal_ex(ctx, plain + n, &n) == 1;
	EVP_CIPHER_CTX_free(ctx);
	cr_assert(ok, "ESP packet does not authenticate");

	pad = plain[ct_len - 2];
	*next_header = plain[ct_len - 1];
	cr_assert_leq(pad, 3, "pad length %zu is not minimal", pad);
	cr_assert_geq(ct_len, pad + 2);
	for (i = 0; i < pad; i++)
		cr_assert_eq(plain[ct_len - 2 - pad + i], i + 1, "padding byte %zu", i);
	*inner_len = ct_len - 2 - pad;
	cr_assert_eq((*inner_len + pad + 2) % 4, 0);
}

/* Encapsulates one frame and checks everything a receiver would. */
static void encap_and_check(struct hwxdp_esp_sa *sa, int family, size_t ip_len, int vlan,
			    uint8_t tos)
{
	uint8_t buf[BUF_CAP], orig[BUF_CAP], plain[BUF_CAP];
	size_t off = HEADROOM, len, l3 = ETH_LEN + (vlan >= 0 ? 4 : 0), inner_len;
	uint64_t seq = sa->seq + 1;
	uint8_t next_header;
	const uint8_t *outer;
	int err;

	memset(buf, 0xee, sizeof(buf));
	len = build_frame(buf + off, sizeof(buf) - off, family, ip_len, vlan, tos);
	memcpy(orig, buf + off, len);

	err = hwxdp_esp_sa__encap(sa, buf, sizeof(buf), &off, &len, l3);
	cr_assert_eq(err, 0, "encap of a %zu-byte IPv%d packet: %d", ip_len, family, err);
	cr_assert_eq(off, HEADROOM - HWXDP_ESP_HEADROOM);
	cr_assert_eq(len - l3, hwxdp_esp_tunnel_len(ip_len));
	cr_assert_eq(len - l3, FWD_TUNNEL_LEN(ip_len), "inner %zu: %zu, fwd.bpf.c says %u", ip_len,
		     len - l3, FWD_TUNNEL_LEN(ip_len));
	cr_assert_eq(memcmp(buf + off, orig, l3), 0, "L2 header changed");

	outer = buf + off + l3;
	cr_assert(hx_ipv4_header_csum_ok(outer, len - l3), "outer IPv4 header checksum");
	cr_assert_eq(outer[0], 0x45);
	cr_assert_eq(outer[1], tos);
	cr_assert_eq(be16_at(outer + 2), len - l3);
	cr_assert_eq(be16_at(outer + 4), (uint16_t)seq, "outer ID");
	cr_assert_eq(be16_at(outer + 6), 0, "DF and fragment offset clear");
	cr_assert_eq(outer[8], 64);
	cr_assert_eq(outer[9], IPPROTO_ESP);
	cr_assert_eq(memcmp(outer + 12, &sa->tunnel_src_be, 4), 0);
	cr_assert_eq(memcmp(outer + 16, &sa->tunnel_dst_be, 4), 0);
	cr_assert_eq(be32_at(outer + 20), sa->spi);
	cr_assert_eq(be32_at(outer + 24), seq);
	cr_assert_eq(be32_at(outer + 28), 0, "IV high word");
	cr_assert_eq(be32_at(outer + 32), seq, "IV is the sequence number");
	cr_assert_eq(sa->seq, seq);

	open_esp(outer, len - l3, sa, plain, &inner_len, &next_header);
	cr_assert_eq(inner_len, ip_len);
	cr_assert_eq(next_header, family == 4 ? 4 : 41);
	cr_assert_eq(memcmp(plain, orig + l3, ip_len), 0, "inner packet differs after decryption");
}

Test(esp, lengths_match_fwd_formula_every_ipv4_length)
{
	struct hwxdp_esp_sa sa;
	size_t ip_len;

	sa_open(&sa, key128, sizeof(key128), 0x1001);
	for (ip_len = 20; ip_len <= 1500; ip_len++)
		encap_and_check(&sa, 4, ip_len, -1, (uint8_t)ip_len);
	cr_assert_eq(sa.seq, 1481);
	hwxdp_esp_sa__fini(&sa);
}

Test(esp, ipv6_inner_with_vlan_and_traffic_class)
{
	static const uint8_t key256[32] = { [0] = 0xa0, [31] = 0x5f };
	struct hwxdp_esp_sa sa;
	size_t ip_len;

	sa_open(&sa, key256, sizeof(key256), 0xdeadbeef);
	for (ip_len = 40; ip_len <= 1500; ip_len += 7)
		encap_and_check(&sa, 6, ip_len, ip_len % 2 ? 50 : -1, 0xb9);
	hwxdp_esp_sa__fini(&sa);
}

Test(esp, aes_192_and_256)
{
	uint8_t key[32];
	struct hwxdp_esp_sa sa;
	size_t i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = i * 13 + 1;
	sa_open(&sa, key, 24, 0x192);
	encap_and_check(&sa, 4, 1400, -1, 0);
	hwxdp_esp_sa__fini(&sa);
	sa_open(&sa, key, 32, 0x256);
	encap_and_check(&sa, 4, 1400, -1, 0);
	hwxdp_esp_sa__fini(&sa);
}

Test(esp, tunnel_len_formula)
{
	size_t l;

	for (l = 0; l <= 65535; l++)
		cr_assert_eq(hwxdp_esp_tunnel_len(l), FWD_TUNNEL_LEN(l), "inner %zu", l);
	cr_assert_eq(hwxdp_esp_tunnel_len(20), 76);
	cr_assert_eq(hwxdp_esp_tunnel_len(1400), 1456);
}

Test(esp, link_padding_is_dropped)
{
	struct hwxdp_esp_sa sa;
	uint8_t buf[BUF_CAP];
	size_t off = HEADROOM, len;

	sa_open(&sa, key128, sizeof(key128), 0x1001);
	len = build_frame(buf + off, sizeof(buf) - off, 4, 40, -1, 0);
	cr_assert_eq(len, 54);
	memset(buf + off + len, 0, 6);
	len = 60;
	cr_assert_eq(hwxdp_esp_sa__encap(&sa, buf, sizeof(buf), &off, &len, ETH_LEN), 0);
	cr_assert_eq(len, ETH_LEN + hwxdp_esp_tunnel_len(40));
	hwxdp_esp_sa__fini(&sa);
}

/* Every refusal leaves the whole buffer, the frame bounds and the SA as
 * they were. */
struct refusal {
	uint8_t buf[BUF_CAP];
	uint8_t before[BUF_CAP];
	size_t off, len, cap;
	struct hwxdp_esp_sa sa;
};

static void refusal_setup(struct refusal *r, int family, size_t ip_len)
{
	memset(r, 0, sizeof(*r));
	memset(r->buf, 0xee, sizeof(r->buf));
	sa_open(&r->sa, key128, sizeof(key128), 0x1001);
	r->off = HEADROOM;
	r->cap = sizeof(r->buf);
	r->len = build_frame(r->buf + r->off, r->cap - r->off, family, ip_len, -1, 0);
}

static void refusal_expect(struct refusal *r, size_t l3_offset, int want)
{
	size_t off = r->off, len = r->len;
	uint64_t seq = r->sa.seq;
	int err;

	memcpy(r->before, r->buf, sizeof(r->buf));
	err = hwxdp_esp_sa__encap(&r->sa, r->buf, r->cap, &off, &len, l3_offset);
	cr_assert_eq(err, want, "got %d, want %d", err, want);
	cr_assert_eq(memcmp(r->before, r->buf, sizeof(r->buf)), 0, "buffer written on error");
	cr_assert_eq(off, r->off);
	cr_assert_eq(len, r->len);
	cr_assert_eq(r->sa.seq, seq, "sequence number consumed on error");
}

Test(esp_errors, no_headroom)
{
	struct refusal r;

	refusal_setup(&r, 4, 100);
	memmove(r.buf + HWXDP_ESP_HEADROOM - 1, r.buf + r.off, r.len);
	r.off = HWXDP_ESP_HEADROOM - 1;
	refusal_expect(&r, ETH_LEN, -ENOSPC);
	memmove(r.buf, r.buf + r.off, r.len);
	r.off = 0;
	refusal_expect(&r, ETH_LEN, -ENOSPC);
	hwxdp_esp_sa__fini(&r.sa);
}

Test(esp_errors, no_tailroom)
{
	struct refusal r;
	size_t need;

	/* 100-byte inner: 2 bytes of padding, so 20 bytes behind it */
	refusal_setup(&r, 4, 100);
	need = r.off + r.len + 2 + 2 + 16;
	r.cap = need - 1;
	refusal_expect(&r, ETH_LEN, -ENOSPC);
	r.cap = need;
	cr_assert_eq(hwxdp_esp_sa__encap(&r.sa, r.buf, r.cap, &r.off, &r.len, ETH_LEN), 0,
		     "exactly enough tailroom must do");
	cr_assert_eq(r.off + r.len, need);
	hwxdp_esp_sa__fini(&r.sa);
}

Test(esp_errors, bad_version)
{
	struct refusal r;

	refusal_setup(&r, 4, 100);
	r.buf[r.off + ETH_LEN] = 0x55;
	refusal_expect(&r, ETH_LEN, -EINVAL);
	r.buf[r.off + ETH_LEN] = 0x05;
	refusal_expect(&r, ETH_LEN, -EINVAL);
	/* the L3 offset points at the Ethernet header: version 0 */
	hwxdp_esp_sa__fini(&r.sa);
	refusal_setup(&r, 4, 100);
	refusal_expect(&r, 0, -EINVAL);
	hwxdp_esp_sa__fini(&r.sa);
}

Test(esp_errors, ipv4_length_disagrees)
{
	struct refusal r;
	uint8_t *iph;

	refusal_setup(&r, 4, 100);
	iph = r.buf + r.off + ETH_LEN;
	iph[2] = 0;
	iph[3] = 101; /* one byte more than the frame holds */
	refusal_expect(&r, ETH_LEN, -EINVAL);
	iph[3] = 19; /* shorter than the header */
	refusal_expect(&r, ETH_LEN, -EINVAL);
	iph[3] = 100;
	iph[0] = 0x44; /* IHL 4 */
	refusal_expect(&r, ETH_LEN, -EINVAL);
	iph[0] = 0x45;
	r.len = ETH_LEN + 19; /* a frame cut inside the IPv4 header */
	refusal_expect(&r, ETH_LEN, -EINVAL);
	hwxdp_esp_sa__fini(&r.sa);
}

Test(esp_errors, ipv6_length_disagrees)
{
	struct refusal r;
	uint8_t *ip6h;

	refusal_setup(&r, 6, 100);
	ip6h = r.buf + r.off + ETH_LEN;
	ip6h[5] = 61;
	refusal_expect(&r, ETH_LEN, -EINVAL);
	ip6h[5] = 60;
	r.len = ETH_LEN + 39;
	refusal_expect(&r, ETH_LEN, -EINVAL);
	hwxdp_esp_sa__fini(&r.sa);
}

Test(esp_errors, frame_outside_buffer)
{
	struct refusal r;

	refusal_setup(&r, 4, 100);
	refusal_expect(&r, r.len + 1, -EINVAL);
	r.cap = r.off + r.len - 1;
	refusal_expect(&r, ETH_LEN, -EINVAL);
	hwxdp_esp_sa__fini(&r.sa);
}

Test(esp_errors, sequence_number_overflow)
{
	struct refusal r;
	size_t off, len;

	refusal_setup(&r, 4, 100);
	r.sa.seq = 0xfffffffe;
	off = r.off;
	len = r.len;
	memcpy(r.before, r.buf, sizeof(r.buf));
	cr_assert_eq(hwxdp_esp_sa__encap(&r.sa, r.buf, r.cap, &off, &len, ETH_LEN), 0);
	cr_assert_eq(be32_at(r.buf + off + ETH_LEN + 24), 0xffffffffu);
	cr_assert_eq(r.sa.seq, 0xffffffffu);

	memcpy(r.buf, r.before, sizeof(r.buf));
	refusal_expect(&r, ETH_LEN, -EOVERFLOW);
	hwxdp_esp_sa__fini(&r.sa);
}

/* Lifetimes: the frame that would pass one is refused, the one that
 * reaches it exactly is not; the counts are the inner bytes and packets. */
Test(esp_errors, packet_and_byte_lifetimes)
{
	struct refusal r;
	size_t off, len;

	refusal_setup(&r, 4, 100);
	r.sa.limit_packets = 2;
	memcpy(r.before, r.buf, sizeof(r.buf));
	for (int i = 0; i < 2; i++) {
		memcpy(r.buf, r.before, sizeof(r.buf));
		off = r.off, len = r.len;
		cr_assert_eq(hwxdp_esp_sa__encap(&r.sa, r.buf, r.cap, &off, &len, ETH_LEN), 0);
	}
	cr_assert_eq(r.sa.seq, 2);
	cr_assert_eq(r.sa.bytes, 200, "inner bytes %llu", (unsigned long long)r.sa.bytes);
	memcpy(r.buf, r.before, sizeof(r.buf));
	refusal_expect(&r, ETH_LEN, -EKEYEXPIRED);
	cr_assert_eq(r.sa.bytes, 200);

	/* 250 bytes: the second 100-byte packet fits, the third does not. */
	r.sa.limit_packets = 0;
	r.sa.seq = r.sa.bytes = 0;
	r.sa.limit_bytes = 250;
	for (int i = 0; i < 2; i++) {
		memcpy(r.buf, r.before, sizeof(r.buf));
		off = r.off, len = r.len;
		cr_assert_eq(hwxdp_esp_sa__encap(&r.sa, r.buf, r.cap, &off, &len, ETH_LEN), 0);
	}
	memcpy(r.buf, r.before, sizeof(r.buf));
	refusal_expect(&r, ETH_LEN, -EKEYEXPIRED);
	r.sa.limit_bytes = 300; /* exactly reached: allowed */
	memcpy(r.buf, r.before, sizeof(r.buf));
	off = r.off, len = r.len;
	cr_assert_eq(hwxdp_esp_sa__encap(&r.sa, r.buf, r.cap, &off, &len, ETH_LEN), 0);
	cr_assert_eq(r.sa.bytes, 300);
	hwxdp_esp_sa__fini(&r.sa);
}

Test(esp_errors, outer_packet_over_64k)
{
	static uint8_t buf[HEADROOM + ETH_LEN + 65535 + HWXDP_ESP_TAILROOM_MAX];
	static uint8_t before[sizeof(buf)];
	struct hwxdp_esp_sa sa;
	size_t off, len;
	uint8_t *iph = buf + HEADROOM + ETH_LEN;

	sa_open(&sa, key128, sizeof(key128), 0x1001);
	/* 65478 is the longest inner packet whose outer packet fits */
	iph[0] = 0x45;
	iph[2] = 65479 >> 8;
	iph[3] = 65479 & 0xff;
	off = HEADROOM;
	len = ETH_LEN + 65479;
	memcpy(before, buf, sizeof(buf));
	cr_assert_eq(hwxdp_esp_sa__encap(&sa, buf, sizeof(buf), &off, &len, ETH_LEN), -EMSGSIZE);
	cr_assert_eq(memcmp(before, buf, sizeof(buf)), 0);
	cr_assert_eq(sa.seq, 0);

	iph[2] = 65478 >> 8;
	iph[3] = 65478 & 0xff;
	len = ETH_LEN + 65478;
	cr_assert_eq(hwxdp_esp_sa__encap(&sa, buf, sizeof(buf), &off, &len, ETH_LEN), 0);
	cr_assert_eq(len, ETH_LEN + 65532);
	hwxdp_esp_sa__fini(&sa);
}

Test(esp_errors, bad_sa_arguments)
{
	static const uint8_t key[32];
	struct hwxdp_esp_sa sa;
	size_t off = HEADROOM, len = 100;
	uint8_t buf[256] = { 0 };

	cr_assert_eq(hwxdp_esp_sa__init(&sa, 0x1001, key, 20, salt, 0, 0), -EINVAL);
	cr_assert_eq(hwxdp_esp_sa__init(&sa, 0x1001, key, 0, salt, 0, 0), -EINVAL);
	cr_assert_eq(hwxdp_esp_sa__init(&sa, 0, key, 16, salt, 0, 0), -EINVAL, "SPI 0");
	cr_assert_eq(hwxdp_esp_sa__init(&sa, 0x1001, NULL, 16, salt, 0, 0), -EINVAL);
	cr_assert_eq(hwxdp_esp_sa__init(&sa, 0x1001, key, 16, NULL, 0, 0), -EINVAL);

	memset(&sa, 0, sizeof(sa));
	cr_assert_eq(hwxdp_esp_sa__encap(&sa, buf, sizeof(buf), &off, &len, ETH_LEN), -EINVAL,
		     "an SA never initialised");
	hwxdp_esp_sa__fini(&sa);
	hwxdp_esp_sa__fini(&sa);
}

Test(esp, sas_count_independently)
{
	struct hwxdp_esp_sa a, b;
	int i;

	sa_open(&a, key128, sizeof(key128), 0x1001);
	sa_open(&b, key128, sizeof(key128), 0x2002);
	for (i = 0; i < 5; i++) {
		encap_and_check(&a, 4, 60 + i, -1, 0);
		encap_and_check(&b, 6, 60 + i, -1, 0);
		encap_and_check(&b, 4, 60 + i, -1, 0);
	}
	cr_assert_eq(a.seq, 5);
	cr_assert_eq(b.seq, 10);
	hwxdp_esp_sa__fini(&a);
	hwxdp_esp_sa__fini(&b);
}

/* Engines are threads: two of them on one SA must never send one sequence
 * number (and so one GCM nonce) twice. Enough packets that the threads
 * overlap even when they share one core. */
#define THREAD_PACKETS 50000

struct thread_arg {
	struct hwxdp_esp_sa *sa;
	pthread_barrier_t *start;
	uint32_t seqs[THREAD_PACKETS];
};

static void *encap_many(void *p)
{
	struct thread_arg *arg = p;
	uint8_t frame[256], buf[512];
	size_t frame_len, off, len;
	int i;

	frame_len = build_frame(frame, sizeof(frame), 4, 120, -1, 0);
	pthread_barrier_wait(arg->start);
	for (i = 0; i < THREAD_PACKETS; i++) {
		off = 64;
		len = frame_len;
		memcpy(buf + off, frame, frame_len);
		if (hwxdp_esp_sa__encap(arg->sa, buf, sizeof(buf), &off, &len, ETH_LEN))
			return NULL;
		arg->seqs[i] = be32_at(buf + off + ETH_LEN + 24);
	}
	return arg;
}

Test(esp, threads_share_an_sa)
{
	static struct thread_arg args[2];
	static uint8_t seen[2 * THREAD_PACKETS + 1];
	struct hwxdp_esp_sa sa;
	pthread_barrier_t start;
	pthread_t threads[2];
	void *ret;
	int t, i;

	sa_open(&sa, key128, sizeof(key128), 0x1001);
	pthread_barrier_init(&start, NULL, 2);
	for (t = 0; t < 2; t++) {
		args[t].sa = &sa;
		args[t].start = &start;
		cr_assert_eq(pthread_create(&threads[t], NULL, encap_many, &args[t]), 0);
	}
	for (t = 0; t < 2; t++) {
		cr_assert_eq(pthread_join(threads[t], &ret), 0);
		cr_assert_not_null(ret, "thread %d: encap failed", t);
	}
	for (t = 0; t < 2; t++) {
		for (i = 0; i < THREAD_PACKETS; i++) {
			uint32_t s = args[t].seqs[i];

			cr_assert(s >= 1 && s <= 2 * THREAD_PACKETS, "seq %u", s);
			cr_assert_eq(seen[s], 0, "seq %u sent twice", s);
			seen[s] = 1;
			if (i)
				cr_assert_gt(s, args[t].seqs[i - 1]);
		}
	}
	cr_assert_eq(sa.seq, 2 * THREAD_PACKETS);
	pthread_barrier_destroy(&start);
	hwxdp_esp_sa__fini(&sa);
}

/*
 * Known answers, produced once with Debian's python3-scapy 2.5.0 (its ESP
 * layer over python3-cryptography), not with this code:
 *
 *   inner = IP(bytes(IP(src="10.0.0.1", dst="10.0.1.1", ttl=63, id=0x1234,
 *              flags="DF", tos=0xb8) / UDP(sport=40000, dport=53) /
 *              Raw(pattern(25))))
 *   sa = SecurityAssociation(ESP, spi=0x1001, crypt_algo="AES-GCM",
 *           crypt_key=bytes(range(1, 17)) + bytes.fromhex("cafebabe"),
 *           tunnel_header=IP(src="192.0.2.1", dst="198.51.100.7", ttl=64,
 *                            id=1, flags=0, tos=0xb8))
 *   outer = sa.encrypt(inner, seq_num=1, iv=(1).to_bytes(8, "big"))
 *
 * and, for the second vector, an IPv6 TCP packet under AES-256:
 *
 *   inner = IPv6(bytes(IPv6(src="fd00::1", dst="fd00:1::1", hlim=63,
 *              tc=0x2e, fl=0x12345) / TCP(sport=40000, dport=443,
 *              flags="PA", seq=1, ack=1, window=65535) / Raw(pattern(30))))
 *   sa = SecurityAssociation(ESP, spi=0xdeadbeef, crypt_algo="AES-GCM",
 *           crypt_key=bytes((0xa0 + i) & 0xff for i in range(32)) +
 *                     bytes.fromhex("01020304"),
 *           tunnel_header=IP(src="203.0.113.1", dst="203.0.113.2", ttl=64,
 *                            id=2, flags=0, tos=0x2e))
 *   outer = sa.encrypt(inner, seq_num=2, iv=(2).to_bytes(8, "big"))
 *
 * where pattern(n) = bytes((i * 7 + 3) & 0xff for i in range(n)).
 */
static const uint8_t kat4_inner[] = {
	0x45, 0xb8, 0x00, 0x35, 0x12, 0x34, 0x40, 0x00, 0x3f, 0x11, 0x13, 0xcb, 0x0a, 0x00,
	0x00, 0x01, 0x0a, 0x00, 0x01, 0x01, 0x9c, 0x40, 0x00, 0x35, 0x00, 0x21, 0xdf, 0x1c,
	0x03, 0x0a, 0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49, 0x50, 0x57, 0x5e,
	0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96, 0x9d, 0xa4, 0xab,
};

static const uint8_t kat4_outer[] = {
	0x45, 0xb8, 0x00, 0x6c, 0x00, 0x01, 0x00, 0x00, 0x40, 0x32, 0x8d, 0x6b, 0xc0, 0x00,
	0x02, 0x01, 0xc6, 0x33, 0x64, 0x07, 0x00, 0x00, 0x10, 0x01, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x58, 0xeb, 0xbb, 0xc4, 0xe9, 0x4b,
	0x43, 0xc9, 0x0d, 0x4d, 0x93, 0x16, 0x6a, 0x1a, 0xd6, 0x3a, 0x80, 0xcc, 0x44, 0x5f,
	0x22, 0x4a, 0x7c, 0x06, 0xa0, 0xe8, 0x4f, 0xd7, 0x64, 0x92, 0xc5, 0x57, 0xe4, 0x18,
	0xcf, 0xbb, 0x34, 0x42, 0xa5, 0x91, 0x68, 0xb3, 0x69, 0x8b, 0x69, 0xaf, 0xe3, 0xee,
	0x95, 0x48, 0xd5, 0xca, 0xa1, 0x5b, 0x1a, 0x65, 0x1a, 0xff, 0x41, 0xc2, 0x94, 0x9a,
	0x5d, 0x8f, 0xed, 0x8c, 0xc1, 0xfb, 0x07, 0x3c, 0xb0, 0xf3,
};

static const uint8_t kat6_inner[] = {
	0x62, 0xe1, 0x23, 0x45, 0x00, 0x32, 0x06, 0x3f, 0xfd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xfd, 0x00, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x9c, 0x40, 0x01, 0xbb, 0x00,
	0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x50, 0x18, 0xff, 0xff, 0x26, 0x53, 0x00, 0x00,
	0x03, 0x0a, 0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49, 0x50, 0x57, 0x5e, 0x65,
	0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96, 0x9d, 0xa4, 0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce,
};

static const uint8_t kat6_outer[] = {
	0x45, 0x2e, 0x00, 0x90, 0x00, 0x02, 0x00, 0x00, 0x40, 0x32, 0x02, 0x08, 0xcb, 0x00, 0x71,
	0x01, 0xcb, 0x00, 0x71, 0x02, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x8f, 0xde, 0xc9, 0xbb, 0x8d, 0x4c, 0xbf, 0xc1, 0x7b,
	0x1f, 0xe4, 0x99, 0x98, 0x83, 0x48, 0x3a, 0x62, 0x8d, 0x96, 0x56, 0xcb, 0x96, 0x6f, 0xdd,
	0x75, 0x84, 0xfb, 0xb8, 0x79, 0xb0, 0xe2, 0x9d, 0x2f, 0x7b, 0xe4, 0x80, 0x86, 0x98, 0xe3,
	0x00, 0x32, 0xbf, 0xcb, 0xe4, 0xed, 0x29, 0xfc, 0x96, 0x68, 0xdc, 0x17, 0xa0, 0x18, 0x4c,
	0xba, 0x14, 0xc9, 0xb5, 0xd0, 0xaa, 0xa8, 0x38, 0xe8, 0xf1, 0x42, 0xca, 0x10, 0xf8, 0xb4,
	0xbd, 0xf1, 0x66, 0xbd, 0xca, 0xdd, 0x84, 0x38, 0x3b, 0xa0, 0x3e, 0xbd, 0x31, 0xd4, 0x43,
	0xaa, 0x95, 0xd0, 0x50, 0xd8, 0x3b, 0xcb, 0xe5, 0x2e, 0xe7, 0xa6, 0x67, 0x0a, 0x86, 0xe8,
	0x5e, 0x79, 0xe3, 0x6a, 0x72, 0x0b, 0xef, 0x1b, 0xc1,
};

/* An IP packet behind a fixed L2 header: the L2 bytes come through as
 * they were, the rest must be the vector's bytes. */
static void known_answer(struct hwxdp_esp_sa *sa, const uint8_t *inner, size_t inner_len,
			 const uint8_t *want, size_t want_len)
{
	static const uint8_t l2[ETH_LEN] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x08, 0x00 };
	uint8_t buf[512];
	size_t off = HEADROOM, len = ETH_LEN + inner_len, i;

	memcpy(buf + off, l2, ETH_LEN);
	memcpy(buf + off + ETH_LEN, inner, inner_len);
	cr_assert_eq(hwxdp_esp_sa__encap(sa, buf, sizeof(buf), &off, &len, ETH_LEN), 0);
	cr_assert_eq(memcmp(buf + off, l2, ETH_LEN), 0);
	cr_assert_eq(len - ETH_LEN, want_len);
	for (i = 0; i < want_len; i++)
		cr_assert_eq(buf[off + ETH_LEN + i], want[i], "byte %zu: %02x, want %02x", i,
			     buf[off + ETH_LEN + i], want[i]);
}

Test(esp_known_answer, aes128_ipv4_udp)
{
	struct hwxdp_esp_sa sa;

	sa_open(&sa, key128, sizeof(key128), 0x1001);
	known_answer(&sa, kat4_inner, sizeof(kat4_inner), kat4_outer, sizeof(kat4_outer));
	hwxdp_esp_sa__fini(&sa);
}

Test(esp_known_answer, aes256_ipv6_tcp_second_packet)
{
	static const uint8_t salt6[4] = { 1, 2, 3, 4 };
	struct hwxdp_esp_sa sa;
	uint8_t key[32];
	size_t i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = 0xa0 + i;
	cr_assert_eq(hwxdp_esp_sa__init(&sa, 0xdeadbeef, key, sizeof(key), salt6,
					addr_be("203.0.113.1"), addr_be("203.0.113.2")),
		     0);
	sa.seq = 1;
	known_answer(&sa, kat6_inner, sizeof(kat6_inner), kat6_outer, sizeof(kat6_outer));
	hwxdp_esp_sa__fini(&sa);
}
