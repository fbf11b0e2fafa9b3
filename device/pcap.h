/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The coprocessor model's offline ports: frames read from a pcap file as if
 * they arrived on a wire port, and frames written to pcap files as they
 * leave (forwarded) or go to the host (punted). libpcap reads the files
 * (pcap and pcapng); only Ethernet captures (DLT_EN10MB) are taken, since
 * the device's ports are Ethernet ports.
 *
 * A writer writes through base/file.h's outputs: a temporary file beside
 * its path, put in place on commit, so a run that fails leaves no
 * half-written file behind and an existing file untouched. Several writers
 * (and other outputs) can share one set of outputs, committed together.
 *
 * Captures are read as a stream: no limit on a file's size; a record holds
 * no more than the file's snapshot length (libpcap refuses a longer one),
 * and one that claims more bytes captured than its frame had is an error.
 *
 * Functions return 0 or a negative errno and put a message for the user in
 * msg (msglen bytes, may be 0).
 */
#ifndef HWXDP_DEVICE_PCAP_H
#define HWXDP_DEVICE_PCAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

struct hwxdp_outputs;
struct hwxdp_pcap_reader;
struct hwxdp_pcap_writer;

struct hwxdp_pcap_frame {
	struct timeval ts;     /* the time stamp to the microsecond */
	const uint8_t *data;   /* valid until the next call on the reader */
	size_t len;	       /* captured bytes, equal to the frame's length */
	uint64_t number;       /* 1, 2, 3, ... in the file */
	struct timespec stamp; /* the time stamp to the nanosecond */
	/* Earlier than the record before it: the first such record of the
	 * file only, to be reported once. */
	bool backwards;
};

/* -ENOENT & co. for a file that cannot be opened, -EINVAL for one that is
 * not a capture libpcap reads, -EPROTONOSUPPORT for a link type other than
 * Ethernet. */
int hwxdp_pcap_reader__open(const char *path, struct hwxdp_pcap_reader **out, char *msg,
			    size_t msglen);
/* 1 with *frame filled, 0 at the end of the file, -EIO for a truncated or
 * damaged file, -EMSGSIZE for a frame captured shorter than it was (a
 * snapshot length cut it: the device needs whole frames), -EINVAL for a
 * record with more bytes captured than the frame had. */
int hwxdp_pcap_reader__next(struct hwxdp_pcap_reader *r, struct hwxdp_pcap_frame *frame, char *msg,
			    size_t msglen);
/* Whether the file's time stamps are finer than microseconds (a
 * nanosecond pcap, or pcapng). */
bool hwxdp_pcap_reader__nanosecond(const struct hwxdp_pcap_reader *r);
void hwxdp_pcap_reader__close(struct hwxdp_pcap_reader *r);

struct hwxdp_pcap_writer_opts {
	size_t sz;
	/* The set the file is one output of, committed by its owner after
	 * hwxdp_pcap_writer__commit(); NULL: a set of its own. */
	struct hwxdp_outputs *outputs;
	const char *option; /* the file's name in messages: "--out" */
	bool nanosecond;    /* a nanosecond pcap, else a microsecond one */
};

/* An Ethernet pcap file at path, written to a temporary file in the same
 * folder until committed. */
int hwxdp_pcap_writer__open(const char *path, struct hwxdp_pcap_writer **out, char *msg,
			    size_t msglen);
int hwxdp_pcap_writer__open_opts(const char *path, const struct hwxdp_pcap_writer_opts *opts,
				 struct hwxdp_pcap_writer **out, char *msg, size_t msglen);
int hwxdp_pcap_writer__write(struct hwxdp_pcap_writer *w, const struct timeval *ts,
			     const uint8_t *data, size_t len);
int hwxdp_pcap_writer__write_ns(struct hwxdp_pcap_writer *w, const struct timespec *ts,
				const uint8_t *data, size_t len);
/* Flushes the file and checks that every frame was written; with a set of
 * its own, also puts it in place. Frees w either way. */
int hwxdp_pcap_writer__commit(struct hwxdp_pcap_writer *w, char *msg, size_t msglen);
/* Removes the temporary file and frees w. NULL is fine. */
void hwxdp_pcap_writer__abort(struct hwxdp_pcap_writer *w);

/* The capture library's version, as it names itself. */
const char *hwxdp_pcap__version(void);
/* Frames written so far. */
uint64_t hwxdp_pcap_writer__count(const struct hwxdp_pcap_writer *w);

#endif /* HWXDP_DEVICE_PCAP_H */
