// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proto.h"

int hwxdp_ctl_check_hdr(const struct hwxdp_ctl_hdr *h, uint16_t expect_type, uint32_t max,
			char *msg, size_t msglen)
{
	if (h->magic != HWXDP_CTL_MAGIC) {
		snprintf(msg, msglen, "not an hwxdp control frame (magic 0x%08x, expected 0x%08x)",
			 h->magic, HWXDP_CTL_MAGIC);
		return -EBADMSG;
	}
	if (h->version != HWXDP_CTL_VERSION) {
		snprintf(msg, msglen, "protocol version %u is not supported (this side speaks %u)",
			 h->version, HWXDP_CTL_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (h->type != expect_type) {
		snprintf(msg, msglen, "message type %u where %u was expected", h->type,
			 expect_type);
		return -EINVAL;
	}
	if (h->flags) {
		snprintf(msg, msglen, "unknown flags 0x%x", h->flags);
		return -EINVAL;
	}
	if (h->length > max) {
		snprintf(msg, msglen, "a payload of %u bytes is over the limit of %u", h->length,
			 max);
		return -EMSGSIZE;
	}
	return 0;
}

int hwxdp_ctl_encode_request(int argc, char *const *argv, void **out, size_t *out_len)
{
	uint32_t count = (uint32_t)argc;
	size_t len = sizeof(count);
	char *buf, *p;

	if (argc < 0 || argc > HWXDP_CTL_ARGS_MAX)
		return -E2BIG;
	for (int i = 0; i < argc; i++) {
		len += strlen(argv[i]) + 1;
		if (len > HWXDP_CTL_REQUEST_MAX)
			return -E2BIG;
	}
	buf = malloc(len);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, &count, sizeof(count));
	p = buf + sizeof(count);
	for (int i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]) + 1;

		memcpy(p, argv[i], n);
		p += n;
	}
	*out = buf;
	*out_len = len;
	return 0;
}

int hwxdp_ctl_parse_request(const void *buf, size_t len, int *argc, const char **argv, char *msg,
			    size_t msglen)
{
	const char *p = (const char *)buf + sizeof(uint32_t), *end = (const char *)buf + len;
	uint32_t count;

	if (len < sizeof(count)) {
		snprintf(msg, msglen, "a request of %zu bytes has no word count", len);
		return -EINVAL;
	}
	memcpy(&count, buf, sizeof(count));
	if (count == 0 || count > HWXDP_CTL_ARGS_MAX) {
		snprintf(msg, msglen, "a request of %u words (1 to %d expected)", count,
			 HWXDP_CTL_ARGS_MAX);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < count; i++) {
		const char *nul = memchr(p, '\0', (size_t)(end - p));

		if (!nul) {
			snprintf(msg, msglen, "word %u of %u is not NUL-terminated", i + 1, count);
			return -EINVAL;
		}
		argv[i] = p;
		p = nul + 1;
	}
	if (p != end) {
		snprintf(msg, msglen, "%zu bytes after the last of %u words", (size_t)(end - p),
			 count);
		return -EINVAL;
	}
	argv[count] = NULL;
	*argc = (int)count;
	return 0;
}

int hwxdp_ctl_encode_reply(int32_t status, const char *message, const char *body, size_t body_len,
			   void **out, size_t *out_len)
{
	size_t mlen = message ? strcspn(message, "\n") : 0, len;
	uint32_t m32;
	char *buf;

	if (mlen > HWXDP_CTL_MESSAGE_MAX)
		mlen = HWXDP_CTL_MESSAGE_MAX;
	len = 8 + mlen + body_len;
	if (len > HWXDP_CTL_REPLY_MAX)
		return -EMSGSIZE;
	buf = malloc(len);
	if (!buf)
		return -ENOMEM;
	m32 = (uint32_t)mlen;
	memcpy(buf, &status, 4);
	memcpy(buf + 4, &m32, 4);
	if (mlen)
		memcpy(buf + 8, message, mlen);
	if (body_len)
		memcpy(buf + 8 + mlen, body, body_len);
	*out = buf;
	*out_len = len;
	return 0;
}

int hwxdp_ctl_parse_reply(const void *buf, size_t len, struct hwxdp_ctl_reply *r, char *msg,
			  size_t msglen)
{
	const char *p = buf;

	if (len < 8) {
		snprintf(msg, msglen, "a reply of %zu bytes has no status", len);
		return -EINVAL;
	}
	memcpy(&r->status, p, 4);
	memcpy(&r->message_len, p + 4, 4);
	if (r->message_len > len - 8) {
		snprintf(msg, msglen, "a reply's message of %u bytes in %zu", r->message_len,
			 len - 8);
		return -EINVAL;
	}
	if (r->status > 0) {
		snprintf(msg, msglen, "a reply with a positive status %d", r->status);
		return -EINVAL;
	}
	r->message = p + 8;
	r->body = p + 8 + r->message_len;
	r->body_len = len - 8 - r->message_len;
	return 0;
}
