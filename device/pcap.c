// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "device/pcap.h"
#include "base/file.h"
#include "base/log.h"

/* Larger than any frame the device sends, ESP growth included. */
#define WRITER_SNAPLEN 262144

struct hwxdp_pcap_reader {
	pcap_t *pcap;
	char *path;
	uint64_t number;
	bool nanosecond;
	bool warned; /* a backwards time stamp was reported */
	struct timespec last;
};

struct hwxdp_pcap_writer {
	pcap_t *dead;
	pcap_dumper_t *dumper;
	char *path;
	struct hwxdp_outputs *own; /* the set of one, when it has no other */
	bool nanosecond;
	uint64_t count;
};

/* The magic numbers of pcap files whose time stamps are in nanoseconds,
 * in either byte order, and of pcapng (whose resolution is per interface,
 * microseconds by default, often finer). */
static bool finer_than_us(int fd)
{
	uint8_t m[4];

	if (pread(fd, m, sizeof(m), 0) != sizeof(m))
		return false;
	return !memcmp(m, "\xa1\xb2\x3c\x4d", 4) || !memcmp(m, "\x4d\x3c\xb2\xa1", 4) ||
	       !memcmp(m, "\x0a\x0d\x0d\x0a", 4);
}

int hwxdp_pcap_reader__open(const char *path, struct hwxdp_pcap_reader **out, char *msg,
			    size_t msglen)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	struct hwxdp_pcap_reader *r;
	FILE *f;
	int fd, link, err;

	*out = NULL;
	/* Our own open: errno then says why, where libpcap only has text, and
	 * a FIFO is refused rather than waited on. */
	fd = hwxdp_file__open_input(path, "captures", HWXDP_FILE_UNLIMITED, msg, msglen);
	if (fd < 0)
		return fd;
	f = fdopen(fd, "rb");
	r = calloc(1, sizeof(*r));
	if (!f || !r || !(r->path = strdup(path))) {
		if (f)
			fclose(f);
		else
			close(fd);
		free(r);
		return hwxdp_say(msg, msglen, -ENOMEM, "%s: out of memory", path);
	}
	r->nanosecond = finer_than_us(fd);
	/* Nanoseconds whatever the file has: nothing is lost on the way. */
	r->pcap = pcap_fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!r->pcap) {
		fclose(f);
		err = hwxdp_say(msg, msglen, -EINVAL, "%s: not a pcap or pcapng capture (%s)", path,
				errbuf);
		goto fail;
	}
	link = pcap_datalink(r->pcap);
	if (link != DLT_EN10MB) {
		const char *name = pcap_datalink_val_to_name(link);

		err = hwxdp_say(msg, msglen, -EPROTONOSUPPORT,
				"%s: link type %s (%d); the device's ports take Ethernet (EN10MB) "
				"captures only",
				path, name ? name : "unknown", link);
		goto fail;
	}
	*out = r;
	return 0;
fail:
	hwxdp_pcap_reader__close(r);
	return err;
}

bool hwxdp_pcap_reader__nanosecond(const struct hwxdp_pcap_reader *r)
{
	return r->nanosecond;
}

int hwxdp_pcap_reader__next(struct hwxdp_pcap_reader *r, struct hwxdp_pcap_frame *frame, char *msg,
			    size_t msglen)
{
	struct pcap_pkthdr *hdr;
	const u_char *data;
	struct timespec stamp;
	int ret;

	ret = pcap_next_ex(r->pcap, &hdr, &data);
	if (ret == PCAP_ERROR_BREAK)
		return 0;
	if (ret != 1)
		return hwxdp_say(msg, msglen, -EIO, "%s: after frame %llu: %s", r->path,
				 (unsigned long long)r->number, pcap_geterr(r->pcap));
	r->number++;
	if (hdr->caplen > hdr->len)
		return hwxdp_say(msg, msglen, -EINVAL,
				 "%s: record %llu: %u bytes captured of a %u-byte frame; a record "
				 "cannot hold more than its frame",
				 r->path, (unsigned long long)r->number, hdr->caplen, hdr->len);
	if (hdr->caplen < hdr->len)
		return hwxdp_say(msg, msglen, -EMSGSIZE,
				 "%s: frame %llu: captured %u of its %u bytes (snapshot length); "
				 "the device needs whole frames",
				 r->path, (unsigned long long)r->number, hdr->caplen, hdr->len);
	stamp.tv_sec = hdr->ts.tv_sec;
	stamp.tv_nsec = hdr->ts.tv_usec; /* nanoseconds, as asked at open */
	frame->backwards = false;
	if (r->number > 1 && !r->warned &&
	    (stamp.tv_sec < r->last.tv_sec ||
	     (stamp.tv_sec == r->last.tv_sec && stamp.tv_nsec < r->last.tv_nsec))) {
		frame->backwards = true;
		r->warned = true;
	}
	r->last = stamp;
	frame->stamp = stamp;
	frame->ts.tv_sec = stamp.tv_sec;
	frame->ts.tv_usec = stamp.tv_nsec / 1000;
	frame->data = data;
	frame->len = hdr->caplen;
	frame->number = r->number;
	return 1;
}

void hwxdp_pcap_reader__close(struct hwxdp_pcap_reader *r)
{
	if (!r)
		return;
	if (r->pcap)
		pcap_close(r->pcap);
	free(r->path);
	free(r);
}

static void writer_free(struct hwxdp_pcap_writer *w)
{
	if (w->dumper)
		pcap_dump_close(w->dumper);
	if (w->dead)
		pcap_close(w->dead);
	hwxdp_outputs__free(w->own);
	free(w->path);
	free(w);
}

int hwxdp_pcap_writer__open(const char *path, struct hwxdp_pcap_writer **out, char *msg,
			    size_t msglen)
{
	return hwxdp_pcap_writer__open_opts(path, NULL, out, msg, msglen);
}

int hwxdp_pcap_writer__open_opts(const char *path, const struct hwxdp_pcap_writer_opts *opts,
				 struct hwxdp_pcap_writer **out, char *msg, size_t msglen)
{
	struct hwxdp_outputs *set = opts && opts->sz >= sizeof(*opts) ? opts->outputs : NULL;
	const char *option = opts && opts->sz >= sizeof(*opts) ? opts->option : NULL;
	struct hwxdp_pcap_writer *w;
	FILE *f = NULL;
	int fd, err;

	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w || !(w->path = strdup(path ? path : ""))) {
		free(w);
		return hwxdp_say(msg, msglen, -ENOMEM, "%s: out of memory", path);
	}
	w->nanosecond = opts && opts->sz >= sizeof(*opts) && opts->nanosecond;
	if (!set) {
		set = w->own = hwxdp_outputs__new();
		if (!set) {
			writer_free(w);
			return hwxdp_say(msg, msglen, -ENOMEM, "%s: out of memory", path);
		}
	}
	fd = hwxdp_outputs__add(set, option, path, 0666, msg, msglen);
	if (fd < 0) {
		writer_free(w);
		return fd;
	}
	/* The set keeps its descriptor to sync and link the file. */
	fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (fd >= 0)
		f = fdopen(fd, "wb");
	w->dead = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, WRITER_SNAPLEN,
						       w->nanosecond ? PCAP_TSTAMP_PRECISION_NANO
								     : PCAP_TSTAMP_PRECISION_MICRO);
	if (!f || !w->dead) {
		if (f)
			fclose(f);
		else if (fd >= 0)
			close(fd);
		writer_free(w);
		return hwxdp_say(msg, msglen, -ENOMEM, "%s: out of memory", path);
	}
	w->dumper = pcap_dump_fopen(w->dead, f);
	if (!w->dumper) {
		err = hwxdp_say(msg, msglen, -EIO, "%s: %s", path, pcap_geterr(w->dead));
		fclose(f);
		writer_free(w);
		return err;
	}
	*out = w;
	return 0;
}

int hwxdp_pcap_writer__write_ns(struct hwxdp_pcap_writer *w, const struct timespec *ts,
				const uint8_t *data, size_t len)
{
	struct pcap_pkthdr hdr = {};
	FILE *f = pcap_dump_file(w->dumper);

	if (len > WRITER_SNAPLEN)
		return -EMSGSIZE;
	hdr.ts.tv_sec = ts->tv_sec;
	/* the dumper writes the field as the file's precision says */
	hdr.ts.tv_usec = w->nanosecond ? ts->tv_nsec : ts->tv_nsec / 1000;
	hdr.caplen = hdr.len = (bpf_u_int32)len;
	errno = 0;
	pcap_dump((u_char *)w->dumper, &hdr, data);
	/* A full disk stops the run at once, not at the end. */
	if (ferror(f))
		return errno ? -errno : -EIO;
	w->count++;
	return 0;
}

int hwxdp_pcap_writer__write(struct hwxdp_pcap_writer *w, const struct timeval *ts,
			     const uint8_t *data, size_t len)
{
	struct timespec t = { .tv_sec = ts->tv_sec, .tv_nsec = ts->tv_usec * 1000 };

	return hwxdp_pcap_writer__write_ns(w, &t, data, len);
}

uint64_t hwxdp_pcap_writer__count(const struct hwxdp_pcap_writer *w)
{
	return w->count;
}

int hwxdp_pcap_writer__commit(struct hwxdp_pcap_writer *w, char *msg, size_t msglen)
{
	FILE *f = pcap_dump_file(w->dumper);
	int err = 0;

	/* pcap_dump() reports nothing: the stream's error flag and the flush
	 * say whether every frame was written; the set syncs. */
	errno = 0;
	if (pcap_dump_flush(w->dumper) || ferror(f))
		err = hwxdp_say(msg, msglen, errno ? -errno : -EIO, "%s: cannot write it: %s",
				w->path, strerror(errno ? errno : EIO));
	pcap_dump_close(w->dumper);
	w->dumper = NULL;
	if (!err && w->own)
		err = hwxdp_outputs__commit(w->own, msg, msglen);
	writer_free(w);
	return err;
}

void hwxdp_pcap_writer__abort(struct hwxdp_pcap_writer *w)
{
	if (w)
		writer_free(w);
}

const char *hwxdp_pcap__version(void)
{
	return pcap_lib_version();
}
