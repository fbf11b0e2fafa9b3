/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The coprocessor model's offline ports: frames read from a pcap file as if
 * they arrived on a wire port, and frames written to pcap files as they
 * leave (forwarded) or go to the host (punted). libpcap reads the files
 * (pcap and pcapng); only Ethernet captures (DLT_EN10MB) are taken, since
 * the device's ports are Ethernet ports.
 *
 * A writer writes to a temporary file next to its path and renames it into
 * place on commit, so a run that fails leaves no half-written file behind
 * and an existing file untouched.
 *
 * Functions return 0 or a negative errno and put a message for the user in
 * msg (msglen bytes, may be 0).
 */
#ifndef HWXDP_DEVICE_PCAP_H
#define HWXDP_DEVICE_PCAP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>

struct hwxdp_pcap_reader;
struct hwxdp_pcap_writer;

struct hwxdp_pcap_frame {
	struct timeval ts;
	const uint8_t *data; /* valid until the next call on the reader */
	size_t len;	     /* captured bytes, equal to the frame's length */
	uint64_t number;     /* 1, 2, 3, ... in the file */
};

/* -ENOENT & co. for a file that cannot be opened, -EINVAL for one that is
 * not a capture libpcap reads, -EPROTONOSUPPORT for a link type other than
 * Ethernet. */
int hwxdp_pcap_reader__open(const char *path, struct hwxdp_pcap_reader **out, char *msg,
			    size_t msglen);
/* 1 with *frame filled, 0 at the end of the file, -EIO for a truncated or
 * damaged file, -EMSGSIZE for a frame captured shorter than it was (a
 * snapshot length cut it: the device needs whole frames). */
int hwxdp_pcap_reader__next(struct hwxdp_pcap_reader *r, struct hwxdp_pcap_frame *frame, char *msg,
			    size_t msglen);
void hwxdp_pcap_reader__close(struct hwxdp_pcap_reader *r);

/* An Ethernet pcap file at path, written to a temporary file in the same
 * folder until hwxdp_pcap_writer__commit(). */
int hwxdp_pcap_writer__open(const char *path, struct hwxdp_pcap_writer **out, char *msg,
			    size_t msglen);
int hwxdp_pcap_writer__write(struct hwxdp_pcap_writer *w, const struct timeval *ts,
			     const uint8_t *data, size_t len);
/* Flushes, syncs and renames the file into place; frees w either way. */
int hwxdp_pcap_writer__commit(struct hwxdp_pcap_writer *w, char *msg, size_t msglen);
/* Removes the temporary file and frees w. NULL is fine. */
void hwxdp_pcap_writer__abort(struct hwxdp_pcap_writer *w);
/* Frames written so far. */
uint64_t hwxdp_pcap_writer__count(const struct hwxdp_pcap_writer *w);

#endif /* HWXDP_DEVICE_PCAP_H */
