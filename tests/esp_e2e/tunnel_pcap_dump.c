// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the capture that tests/esp_e2e/run.sh sends through `hwxdp run`
 * with tests/esp_e2e/state.json: plain frames arriving on ifindex 2 from
 * 10.2.0.1 to 10.3.0.1, most of them on the two tunnel microflows of the
 * state (TCP 40000 -> 80 and UDP 40001 -> 53, SA 1), of every padding
 * length, with a few the device must punt among them: a TTL of 1 on a
 * tunnel flow, and a connection without a microflow.
 *
 * Usage: tunnel_pcap_dump OUT.pcap
 */
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "device/pcap.h"
#include "lab/pkt.h"

int main(int argc, char **argv)
{
	struct hwxdp_pcap_writer *w;
	uint8_t frame[HX_PKT_MAX];
	char msg[256];
	unsigned int i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s OUT.pcap\n", argv[0]);
		return 2;
	}
	if (hwxdp_pcap_writer__open(argv[1], &w, msg, sizeof(msg))) {
		fprintf(stderr, "tunnel_pcap_dump: %s\n", msg);
		return 1;
	}
	for (i = 0; i < 40; i++) {
		struct timeval ts = { .tv_sec = 1700000000 + i, .tv_usec = (suseconds_t)i * 1000 };
		struct hx_frame_spec spec;
		size_t len;

		hx_frame_spec_init(&spec, 4);
		hx_ipv4_addr(spec.src, "10.2.0.1");
		hx_ipv4_addr(spec.dst, "10.3.0.1");
		spec.dmac[5] = 0xfe;
		spec.tos = (uint8_t)(i * 4);
		spec.ip_id = (uint16_t)(0x100 + i);
		if (i % 2) {
			spec.proto = IPPROTO_UDP;
			spec.sport = 40001;
			spec.dport = 53;
		} else {
			spec.sport = 40000;
			spec.dport = 80;
		}
		/* Inner lengths 28 .. 66 and one large packet: every padding. */
		spec.payload_len = i < 38 ? i : 1300;
		spec.ttl = i == 7 ? 1 : i == 8 ? 2 : (uint8_t)(64 - i);
		if (i == 13)
			spec.sport = 40002; /* no microflow */
		len = hx_frame_build(&spec, frame, sizeof(frame));
		if (!len || hwxdp_pcap_writer__write(w, &ts, frame, len)) {
			fprintf(stderr, "tunnel_pcap_dump: frame %u\n", i);
			hwxdp_pcap_writer__abort(w);
			return 1;
		}
	}
	if (hwxdp_pcap_writer__commit(w, msg, sizeof(msg))) {
		fprintf(stderr, "tunnel_pcap_dump: %s\n", msg);
		return 1;
	}
	return 0;
}
