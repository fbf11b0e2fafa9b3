// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "device/pcap.h"
#include "loader/file.h"

/* Larger than any frame the device sends, ESP growth included. */
#define WRITER_SNAPLEN 262144

struct hwxdp_pcap_reader {
	pcap_t *pcap;
	char *path;
	uint64_t number;
};

struct hwxdp_pcap_writer {
	pcap_t *dead;
	pcap_dumper_t *dumper;
	char *path, *tmp_path;
	uint64_t count;
};

static int say(char *msg, size_t msglen, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int say(char *msg, size_t msglen, int err, const char *fmt, ...)
{
	va_list ap;

	if (msglen) {
		va_start(ap, fmt);
		vsnprintf(msg, msglen, fmt, ap);
		va_end(ap);
	}
	return err;
}

int hwxdp_pcap_reader__open(const char *path, struct hwxdp_pcap_reader **out, char *msg,
			    size_t msglen)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	struct hwxdp_pcap_reader *r;
	FILE *f;
	int link, err;

	*out = NULL;
	/* Our own fopen: errno then says why, where libpcap only has text. */
	f = fopen(path, "rb");
	if (!f)
		return say(msg, msglen, -errno, "%s: %s", path, strerror(errno));
	r = calloc(1, sizeof(*r));
	if (!r || !(r->path = strdup(path))) {
		fclose(f);
		free(r);
		return say(msg, msglen, -ENOMEM, "%s: out of memory", path);
	}
	r->pcap = pcap_fopen_offline(f, errbuf);
	if (!r->pcap) {
		fclose(f);
		err = say(msg, msglen, -EINVAL, "%s: not a pcap or pcapng capture (%s)", path,
			  errbuf);
		goto fail;
	}
	link = pcap_datalink(r->pcap);
	if (link != DLT_EN10MB) {
		const char *name = pcap_datalink_val_to_name(link);

		err = say(msg, msglen, -EPROTONOSUPPORT,
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

int hwxdp_pcap_reader__next(struct hwxdp_pcap_reader *r, struct hwxdp_pcap_frame *frame, char *msg,
			    size_t msglen)
{
	struct pcap_pkthdr *hdr;
	const u_char *data;
	int ret;

	ret = pcap_next_ex(r->pcap, &hdr, &data);
	if (ret == PCAP_ERROR_BREAK)
		return 0;
	if (ret != 1)
		return say(msg, msglen, -EIO, "%s: after frame %llu: %s", r->path,
			   (unsigned long long)r->number, pcap_geterr(r->pcap));
	r->number++;
	if (hdr->caplen < hdr->len)
		return say(msg, msglen, -EMSGSIZE,
			   "%s: frame %llu: captured %u of its %u bytes (snapshot length); "
			   "the device needs whole frames",
			   r->path, (unsigned long long)r->number, hdr->caplen, hdr->len);
	frame->ts = hdr->ts;
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
	free(w->path);
	free(w->tmp_path);
	free(w);
}

int hwxdp_pcap_writer__open(const char *path, struct hwxdp_pcap_writer **out, char *msg,
			    size_t msglen)
{
	struct hwxdp_pcap_writer *w;
	FILE *f;
	int fd, err;

	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return say(msg, msglen, -ENOMEM, "%s: out of memory", path);
	if (!(w->path = strdup(path))) {
		writer_free(w);
		return say(msg, msglen, -ENOMEM, "%s: out of memory", path);
	}
	/* an output file gets the usual umask mode */
	{
		mode_t mask = umask(0);

		umask(mask);
		fd = hwxdp_file__create_tmp(path, 0666 & ~mask, &w->tmp_path);
	}
	if (fd < 0) {
		err = say(msg, msglen, fd, "%s: cannot create a file there: %s", path,
			  strerror(-fd));
		writer_free(w);
		return err;
	}
	f = fdopen(fd, "wb");
	w->dead = pcap_open_dead(DLT_EN10MB, WRITER_SNAPLEN);
	if (!f || !w->dead) {
		if (f)
			fclose(f);
		else
			close(fd);
		hwxdp_pcap_writer__abort(w);
		return say(msg, msglen, -ENOMEM, "%s: out of memory", path);
	}
	w->dumper = pcap_dump_fopen(w->dead, f);
	if (!w->dumper) {
		err = say(msg, msglen, -EIO, "%s: %s", path, pcap_geterr(w->dead));
		fclose(f);
		hwxdp_pcap_writer__abort(w);
		return err;
	}
	*out = w;
	return 0;
}

int hwxdp_pcap_writer__write(struct hwxdp_pcap_writer *w, const struct timeval *ts,
			     const uint8_t *data, size_t len)
{
	struct pcap_pkthdr hdr = { .ts = *ts };

	if (len > WRITER_SNAPLEN)
		return -EMSGSIZE;
	hdr.caplen = hdr.len = (bpf_u_int32)len;
	pcap_dump((u_char *)w->dumper, &hdr, data);
	w->count++;
	return 0;
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
	 * and sync say whether every frame reached the disk. */
	if (pcap_dump_flush(w->dumper) || ferror(f) || fsync(fileno(f)))
		err = say(msg, msglen, -EIO, "%s: write failed: %s", w->path,
			  strerror(errno ? errno : EIO));
	pcap_dump_close(w->dumper);
	w->dumper = NULL;
	if (err)
		unlink(w->tmp_path);
	else if ((err = hwxdp_file__replace(w->tmp_path, w->path)))
		err = say(msg, msglen, err, "%s: %s", w->path, strerror(-err));
	writer_free(w);
	return err;
}

void hwxdp_pcap_writer__abort(struct hwxdp_pcap_writer *w)
{
	if (!w)
		return;
	if (w->dumper) {
		pcap_dump_close(w->dumper);
		w->dumper = NULL;
	}
	if (w->tmp_path)
		unlink(w->tmp_path);
	writer_free(w);
}
