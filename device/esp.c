// SPDX-License-Identifier: GPL-2.0
/*
 * ESP tunnel-mode encapsulation with AES-GCM-16 (RFC 4303, RFC 4106) on
 * libcrypto's EVP interface. The key schedule is computed once per SA; per
 * packet only the nonce is set, so a packet costs one GCM pass.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "device/esp.h"
#include "base/log.h"

#define IPV4_HEADER_LEN 20
#define OUTER_IPV4_LEN	IPV4_HEADER_LEN
#define ESP_HEADER_LEN	8
#define ESP_IV_LEN	8
#define ESP_SALT_LEN	4
#define ESP_ICV_LEN	16
#define ESP_NONCE_LEN	(ESP_SALT_LEN + ESP_IV_LEN)
#define ESP_TRAILER_LEN 2 /* pad length, next header */
#define ESP_SEQ_MAX	UINT32_MAX
#define IPV6_HEADER_LEN 40
#define IP_MAX_LEN	65535
#define NEXTHDR_IPV4	4
#define NEXTHDR_IPV6	41
#define PROTO_ESP	50

struct esp_engine {
	EVP_CIPHER_CTX *cipher;
	/* Engines are threads and may share an SA: the sequence number and
	 * the cipher context's per-packet state go together. */
	pthread_mutex_t lock;
};

struct inner_packet {
	size_t len;
	uint8_t next_header;
	uint8_t tos;
};

static const EVP_CIPHER *gcm_cipher(size_t key_len)
{
	switch (key_len) {
	case 16:
		return EVP_aes_128_gcm();
	case 24:
		return EVP_aes_192_gcm();
	case 32:
		return EVP_aes_256_gcm();
	}
	return NULL;
}

int hwxdp_esp_sa__init(struct hwxdp_esp_sa *sa, uint32_t spi, const uint8_t *key, size_t key_len,
		       const uint8_t salt[4], uint32_t tunnel_src_be, uint32_t tunnel_dst_be)
{
	const EVP_CIPHER *cipher = gcm_cipher(key_len);
	struct esp_engine *engine;

	if (!sa || !key || !salt || !cipher || !spi)
		return -EINVAL;

	engine = calloc(1, sizeof(*engine));
	if (!engine)
		return -ENOMEM;
	engine->cipher = EVP_CIPHER_CTX_new();
	if (!engine->cipher) {
		free(engine);
		return -ENOMEM;
	}
	if (EVP_EncryptInit_ex(engine->cipher, cipher, NULL, NULL, NULL) != 1 ||
	    EVP_CIPHER_CTX_ctrl(engine->cipher, EVP_CTRL_GCM_SET_IVLEN, ESP_NONCE_LEN, NULL) != 1 ||
	    EVP_EncryptInit_ex(engine->cipher, NULL, NULL, key, NULL) != 1) {
		pr_warn("esp: SA 0x%08x: libcrypto refused the AES-%zu-GCM key\n", spi,
			key_len * 8);
		EVP_CIPHER_CTX_free(engine->cipher);
		free(engine);
		return -EIO;
	}
	pthread_mutex_init(&engine->lock, NULL);

	memset(sa, 0, sizeof(*sa));
	sa->spi = spi;
	memcpy(sa->key, key, key_len);
	sa->key_len = key_len;
	memcpy(sa->salt, salt, ESP_SALT_LEN);
	sa->outer_ttl = HWXDP_ESP_OUTER_TTL;
	sa->tunnel_src_be = tunnel_src_be;
	sa->tunnel_dst_be = tunnel_dst_be;
	sa->ctx = engine;
	return 0;
}

void hwxdp_esp_sa__fini(struct hwxdp_esp_sa *sa)
{
	struct esp_engine *engine;

	if (!sa)
		return;
	engine = sa->ctx;
	if (engine) {
		EVP_CIPHER_CTX_free(engine->cipher);
		pthread_mutex_destroy(&engine->lock);
		free(engine);
	}
	OPENSSL_cleanse(sa, sizeof(*sa));
}

static size_t esp_pad_len(size_t inner_len)
{
	return (4 - (inner_len + ESP_TRAILER_LEN) % 4) % 4;
}

size_t hwxdp_esp_tunnel_len(size_t inner_len)
{
	return OUTER_IPV4_LEN + ESP_HEADER_LEN + ESP_IV_LEN + inner_len + esp_pad_len(inner_len) +
	       ESP_TRAILER_LEN + ESP_ICV_LEN;
}

static uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, v >> 16);
	put_be16(p + 2, v);
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, v >> 32);
	put_be32(p + 4, v);
}

static uint16_t ipv4_header_csum(const uint8_t *iph)
{
	uint32_t sum = 0;
	int i;

	for (i = 0; i < OUTER_IPV4_LEN; i += 2)
		sum += get_be16(iph + i);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* The inner packet's length comes from its header, never from the frame:
 * short frames arrive with link-layer padding behind the IP packet. */
static int parse_inner(const uint8_t *l3, size_t avail, struct inner_packet *in)
{
	if (avail < 1)
		return -EINVAL;
	switch (l3[0] >> 4) {
	case 4:
		if (avail < IPV4_HEADER_LEN || (l3[0] & 0x0f) < 5)
			return -EINVAL;
		in->len = get_be16(l3 + 2);
		if (in->len < (size_t)(l3[0] & 0x0f) * 4)
			return -EINVAL;
		in->next_header = NEXTHDR_IPV4;
		in->tos = l3[1];
		break;
	case 6:
		if (avail < IPV6_HEADER_LEN)
			return -EINVAL;
		in->len = IPV6_HEADER_LEN + get_be16(l3 + 4);
		in->next_header = NEXTHDR_IPV6;
		in->tos = (uint8_t)((l3[0] & 0x0f) << 4 | l3[1] >> 4);
		break;
	default:
		return -EINVAL;
	}
	return in->len <= avail ? 0 : -EINVAL;
}

/*
 * Encrypts the inner packet in place and the trailer into trailer[], and
 * writes the tag. The inner bytes are the only frame bytes written here; if
 * libcrypto fails after changing them, a second pass with the same nonce
 * (CTR mode is its own inverse) puts the plaintext back.
 */
static int esp_seal(EVP_CIPHER_CTX *cipher, const uint8_t nonce[ESP_NONCE_LEN],
		    const uint8_t aad[ESP_HEADER_LEN], uint8_t *inner, size_t inner_len,
		    uint8_t *trailer, size_t trailer_len, uint8_t tag[ESP_ICV_LEN])
{
	int out_len;

	if (EVP_EncryptInit_ex(cipher, NULL, NULL, NULL, nonce) != 1 ||
	    EVP_EncryptUpdate(cipher, NULL, &out_len, aad, ESP_HEADER_LEN) != 1)
		return -EIO;
	if (EVP_EncryptUpdate(cipher, inner, &out_len, inner, (int)inner_len) != 1)
		return -EIO;
	if (EVP_EncryptUpdate(cipher, trailer, &out_len, trailer, (int)trailer_len) != 1 ||
	    EVP_EncryptFinal_ex(cipher, trailer + trailer_len, &out_len) != 1 ||
	    EVP_CIPHER_CTX_ctrl(cipher, EVP_CTRL_GCM_GET_TAG, ESP_ICV_LEN, tag) != 1) {
		if (EVP_EncryptInit_ex(cipher, NULL, NULL, NULL, nonce) != 1 ||
		    EVP_EncryptUpdate(cipher, NULL, &out_len, aad, ESP_HEADER_LEN) != 1 ||
		    EVP_EncryptUpdate(cipher, inner, &out_len, inner, (int)inner_len) != 1)
			pr_warn("esp: libcrypto failed twice; inner packet left encrypted\n");
		return -EIO;
	}
	return 0;
}

static void write_outer_ipv4(uint8_t *iph, const struct hwxdp_esp_sa *sa,
			     const struct inner_packet *in, size_t outer_len, uint32_t seq)
{
	iph[0] = 0x45;
	/* DSCP and ECN both copied: RFC 6040's normal mode */
	iph[1] = in->tos;
	put_be16(iph + 2, (uint16_t)outer_len);
	put_be16(iph + 4, (uint16_t)seq);
	put_be16(iph + 6, 0);
	iph[8] = sa->outer_ttl;
	iph[9] = PROTO_ESP;
	put_be16(iph + 10, 0);
	memcpy(iph + 12, &sa->tunnel_src_be, 4);
	memcpy(iph + 16, &sa->tunnel_dst_be, 4);
	put_be16(iph + 10, ipv4_header_csum(iph));
}

int hwxdp_esp_sa__encap(struct hwxdp_esp_sa *sa, uint8_t *buf, size_t cap, size_t *data_off,
			size_t *data_len, size_t l3_offset)
{
	uint8_t nonce[ESP_NONCE_LEN], esp_header[ESP_HEADER_LEN];
	uint8_t trailer[3 + ESP_TRAILER_LEN + EVP_MAX_BLOCK_LENGTH], tag[ESP_ICV_LEN];
	size_t off, pad_len, trailer_len, outer_len, i;
	struct esp_engine *engine;
	struct inner_packet in;
	uint8_t *l2, *inner, *head;
	uint32_t seq;
	int err;

	if (!sa || !sa->ctx || !buf || !data_off || !data_len)
		return -EINVAL;
	off = *data_off;
	if (off > cap || *data_len > cap - off || l3_offset > *data_len)
		return -EINVAL;
	l2 = buf + off;
	inner = l2 + l3_offset;
	err = parse_inner(inner, *data_len - l3_offset, &in);
	if (err)
		return err;

	outer_len = hwxdp_esp_tunnel_len(in.len);
	if (outer_len > IP_MAX_LEN)
		return -EMSGSIZE;
	pad_len = esp_pad_len(in.len);
	trailer_len = pad_len + ESP_TRAILER_LEN;
	if (off < HWXDP_ESP_HEADROOM ||
	    cap - (off + l3_offset + in.len) < trailer_len + ESP_ICV_LEN)
		return -ENOSPC;

	/* RFC 4303 2.4: padding bytes count 1, 2, 3, ... */
	for (i = 0; i < pad_len; i++)
		trailer[i] = i + 1;
	trailer[pad_len] = pad_len;
	trailer[pad_len + 1] = in.next_header;

	engine = sa->ctx;
	pthread_mutex_lock(&engine->lock);
	if (sa->seq >= ESP_SEQ_MAX) {
		pthread_mutex_unlock(&engine->lock);
		return -EOVERFLOW;
	}
	if ((sa->limit_packets && sa->seq - sa->seq_skip + 1 > sa->limit_packets) ||
	    (sa->limit_bytes && sa->bytes + in.len > sa->limit_bytes)) {
		sa->expired = 1;
		pthread_mutex_unlock(&engine->lock);
		return -EKEYEXPIRED;
	}
	seq = sa->seq + 1;
	put_be32(esp_header, sa->spi);
	put_be32(esp_header + 4, seq);
	memcpy(nonce, sa->salt, ESP_SALT_LEN);
	put_be64(nonce + ESP_SALT_LEN, seq);
	err = esp_seal(engine->cipher, nonce, esp_header, inner, in.len, trailer, trailer_len, tag);
	if (!err) {
		sa->seq = seq;
		sa->bytes += in.len;
	}
	pthread_mutex_unlock(&engine->lock);
	if (err)
		return err;

	/* The new headers go where the L2 header began, so it moves first. */
	head = l2 - HWXDP_ESP_HEADROOM;
	memmove(head, l2, l3_offset);
	head += l3_offset;
	write_outer_ipv4(head, sa, &in, outer_len, seq);
	memcpy(head + OUTER_IPV4_LEN, esp_header, ESP_HEADER_LEN);
	memcpy(head + OUTER_IPV4_LEN + ESP_HEADER_LEN, nonce + ESP_SALT_LEN, ESP_IV_LEN);
	memcpy(inner + in.len, trailer, trailer_len);
	memcpy(inner + in.len + trailer_len, tag, ESP_ICV_LEN);

	*data_off = off - HWXDP_ESP_HEADROOM;
	*data_len = l3_offset + outer_len;
	return 0;
}
