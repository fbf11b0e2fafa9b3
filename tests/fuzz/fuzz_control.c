// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer over what a control-socket peer can send hwxdpd: a header and a
 * payload (daemon/proto.h). A header is checked as the daemon checks it; a
 * payload that passes is parsed as a request, its words encoded back and
 * compared with the original bytes (the parse must lose nothing). The same
 * bytes are parsed as a reply, as the client does. `make fuzz-control`.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *argv[HWXDP_CTL_ARGS_MAX + 1];
	struct hwxdp_ctl_reply reply;
	struct hwxdp_ctl_hdr h;
	char msg[256];
	size_t len;
	void *again;
	int argc;

	if (size < sizeof(h))
		return 0;
	memcpy(&h, data, sizeof(h));
	data += sizeof(h);
	size -= sizeof(h);
	/* The first byte of flags picks which side reads it, so both parsers
	 * see headers that pass. */
	if (hwxdp_ctl_check_hdr(&h, HWXDP_CTL_REQUEST, HWXDP_CTL_REQUEST_MAX, msg, sizeof(msg)) &&
	    hwxdp_ctl_check_hdr(&h, HWXDP_CTL_REPLY, HWXDP_CTL_REPLY_MAX, msg, sizeof(msg)) &&
	    (h.flags & 0xff) != 0x5a)
		return 0;
	if (size > HWXDP_CTL_REQUEST_MAX)
		size = HWXDP_CTL_REQUEST_MAX;
	/* The daemon's buffer is exactly the payload: a copy lets ASan see
	 * any read past it. */
	uint8_t *payload = malloc(size ? size : 1);

	if (!payload)
		return 0;
	memcpy(payload, data, size);
	if (!hwxdp_ctl_parse_request(payload, size, &argc, argv, msg, sizeof(msg))) {
		if (argc < 1 || argc > HWXDP_CTL_ARGS_MAX || argv[argc])
			abort();
		if (hwxdp_ctl_encode_request(argc, (char *const *)argv, &again, &len) ||
		    len != size || memcmp(again, payload, size))
			abort();
		free(again);
	}
	if (!hwxdp_ctl_parse_reply(payload, size, &reply, msg, sizeof(msg))) {
		if (reply.status > 0 || 8 + reply.message_len + reply.body_len != size)
			abort();
	}
	free(payload);
	return 0;
}
