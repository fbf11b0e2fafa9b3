// SPDX-License-Identifier: GPL-2.0
/*
 * hwxdp run FILE.o --in IN.pcap --out OUT.pcap [--punt PUNT.pcap] ...: the
 * coprocessor model offline. A board (device/device.h) of K engines gets
 * the program, or a program per port; they are verified and translated for
 * the device, their maps (one table memory, shared by every program of the
 * run) filled from a state file and the crypto engine given its SAs. The
 * frames of the captures arrive on wire ports in timestamp order and run in
 * batches on the engines; forwarded frames go to one capture, punted ones
 * to another, each in arrival order.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/bpf.h>

#include "cmd/grammar.h"
#include "cmd/main.h"
#include "device/compile.h"
#include "device/device.h"
#include "device/engine.h"
#include "device/esp.h"
#include "device/pcap.h"
#include "device/tables.h"
#include "hwmap/hxu.h"
#include "hwxdp/fwd.h"
#include "loader/object.h"
#include "fwdlab/fwd.h"
#include "loader/state.h"
#include "base/file.h"
#include "loader/device.h"
#include "runner/runner.h"

#define RUN_INPUTS_MAX	 16
#define RUN_EGRESS_MAX	 1024
#define RUN_DEFAULT_PORT HWXDP_RUN_DEFAULT_PORT
#define RUN_PROGS_MAX	 64
#define RUN_TABLES_MAX	 32
#define RUN_BATCH	 256

/* A program the run loads, once however many ports run it. */
struct run_prog {
	const char *path;
	uint32_t id;
};

/* --port N:FILE.o */
struct run_port {
	uint32_t ifindex;
	const char *path;
};

struct offline_device {
	struct hwxdp_device *board;
	struct run_prog progs[RUN_PROGS_MAX];
	size_t prog_cnt;
	uint32_t first; /* the program whose table memory every other one uses */
	struct hwxdp_esp_sa *sas;
	size_t sa_cnt;
};

struct run_input {
	const char *path;
	uint32_t ingress;
	struct hwxdp_pcap_reader *reader;
	bool pending; /* frame below holds the next frame */
	struct timespec ts;
	uint64_t number;
	size_t len;
	uint8_t frame[HXU_FRAME_MAX + 1];
};

struct egress_count {
	uint32_t ifindex;
	uint64_t frames, bytes;
};

struct run_summary {
	uint64_t in, forwarded, punted, dropped, aborted, invalid, no_program;
	struct egress_count egress[RUN_EGRESS_MAX];
	size_t egress_cnt;
	uint64_t ran;
	struct hwxdp_device_stats board; /* the board's own counters, at the end */
};

static void device_close(struct offline_device *d)
{
	/* The engines go before the SAs they may point at. */
	hwxdp_device__free(d->board);
	for (size_t i = 0; i < d->sa_cnt; i++)
		hwxdp_esp_sa__fini(&d->sas[i]);
	free(d->sas);
}

static struct hwxdp_table *table_by_name(struct offline_device *d, const char *name)
{
	return hwxdp_device__table(d->board, d->first, name);
}

static int table_update(void *ctx, const char *map, const void *key, const void *value)
{
	struct hwxdp_table *tab = table_by_name(ctx, map);

	return tab ? hwxdp_table__update(tab, key, value, BPF_ANY) : -ENOENT;
}

/* A devmap entry's program by name: its number in the first program's image. */
static int prog_number(void *ctx, const char *name, uint32_t *number)
{
	struct offline_device *d = ctx;

	return hwxdp_device_prog__entry_prog(hwxdp_device__prog(d->board, d->first), name, number);
}

static void ipv4_text(uint32_t addr_be, char *buf)
{
	inet_ntop(AF_INET, &addr_be, buf, INET_ADDRSTRLEN);
}

/* A key in the crypto engine for an SA the `sas` map names differently is a
 * mistake in the state: frames would leave under an SPI the map does not
 * say. A missing entry is legal (its flows punt sa-stale) but worth a word. */
static int check_sa_entry(struct offline_device *d, const struct hx_state_sa *s, char *msg,
			  size_t msglen)
{
	struct hwxdp_table *tab = table_by_name(d, "sas");
	char a[INET_ADDRSTRLEN], b[INET_ADDRSTRLEN], c[INET_ADDRSTRLEN], e[INET_ADDRSTRLEN];
	struct hwxdp_sa entry;

	if (!tab || tab->desc.value_size != sizeof(entry))
		return 0;
	if (hwxdp_table__lookup(tab, &s->handle, &entry) || !(entry.flags & HWXDP_SA_VALID)) {
		fprintf(stderr,
			"%s: warning: SA %u has no valid entry in the sas map; its "
			"flows will punt\n",
			bin_name, s->handle);
		return 0;
	}
	if (ntohl(entry.spi_be) == s->spi && entry.tunnel_src_be == s->src_be &&
	    entry.tunnel_dst_be == s->dst_be)
		return 0;
	ipv4_text(entry.tunnel_src_be, a);
	ipv4_text(entry.tunnel_dst_be, b);
	ipv4_text(s->src_be, c);
	ipv4_text(s->dst_be, e);
	snprintf(msg, msglen,
		 "SA %u: the sas map has SPI 0x%x %s -> %s, the key given is for SPI 0x%x "
		 "%s -> %s",
		 s->handle, ntohl(entry.spi_be), a, b, s->spi, c, e);
	return -EINVAL;
}

static int load_sas(struct offline_device *d, const struct hx_state *state, char *msg,
		    size_t msglen)
{
	int err;

	if (!state->sa_cnt)
		return 0;
	d->sas = calloc(state->sa_cnt, sizeof(*d->sas));
	if (!d->sas)
		return -ENOMEM;
	for (size_t i = 0; i < state->sa_cnt; i++) {
		const struct hx_state_sa *s = &state->sas[i];

		err = check_sa_entry(d, s, msg, msglen);
		if (err)
			return err;
		err = hwxdp_esp_sa__init(&d->sas[i], s->spi, s->key, s->key_len, s->salt, s->src_be,
					 s->dst_be);
		if (err) {
			snprintf(msg, msglen, "SA %u: the crypto engine refuses it: %s", s->handle,
				 hwxdp_strerror(err));
			return err;
		}
		d->sa_cnt = i + 1;
		err = hwxdp_tables__set_sa(hwxdp_device__tables(d->board, d->first), s->handle,
					   &d->sas[i]);
		if (err) {
			snprintf(msg, msglen, "SA %u: %s", s->handle, hwxdp_strerror(err));
			return err;
		}
	}
	return 0;
}

/* An ifindex: 1 to 2^32-1, the whole of text. */
static int parse_ifindex(const char *text, size_t len, uint32_t *out)
{
	unsigned long v;
	char *end;

	if (!len || strspn(text, "0123456789") < len)
		return -EINVAL;
	errno = 0;
	v = strtoul(text, &end, 10);
	if (errno || (size_t)(end - text) != len || !v || v > UINT32_MAX)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* --in [IFINDEX:]FILE */
static int parse_input(struct run_input *in, const char *arg, uint32_t port)
{
	const char *colon = strchr(arg, ':');

	in->ingress = port;
	in->path = arg;
	if (!colon || colon == arg || strspn(arg, "0123456789") != (size_t)(colon - arg))
		return 0;
	if (parse_ifindex(arg, (size_t)(colon - arg), &in->ingress))
		return -EINVAL;
	in->path = colon + 1;
	return 0;
}

/* --table NAME=ENTRIES */
static int parse_table(struct hwxdp_table_size *ts, const char *arg)
{
	const char *eq = strrchr(arg, '=');
	unsigned long v;
	char *end;

	if (!eq || eq == arg || !eq[1])
		return -EINVAL;
	errno = 0;
	v = strtoul(eq + 1, &end, 0);
	if (*end || errno || !v || v > (1ul << 30) || eq[1] == '-')
		return -EINVAL;
	ts->name = strndup(arg, (size_t)(eq - arg));
	if (!ts->name)
		return -ENOMEM;
	ts->max_entries = (uint32_t)v;
	return 0;
}

static int input_fill(struct run_input *in, char *msg, size_t msglen)
{
	struct hwxdp_pcap_frame f;
	int ret;

	in->pending = false;
	ret = hwxdp_pcap_reader__next(in->reader, &f, msg, msglen);
	if (ret <= 0)
		return ret;
	if (f.backwards)
		fprintf(stderr,
			"%s: warning: %s: record %llu: its time stamp is earlier than the "
			"record's before it; frames run in the order of the file\n",
			bin_name, in->path, (unsigned long long)f.number);
	in->ts = f.stamp;
	in->number = f.number;
	/* Longer than the device takes: kept as is, refused when it runs. */
	in->len = f.len > sizeof(in->frame) ? sizeof(in->frame) : f.len;
	memcpy(in->frame, f.data, in->len);
	in->pending = true;
	return 1;
}

/*
 * The captures as the runner's ports (runner/runner.h): a port per ingress
 * ifindex, its captures merged by timestamp (ties: the first given); every
 * frame that leaves, whichever ifindex it names, goes to --out, every punt
 * to --punt.
 */
struct capture_port {
	uint32_t ifindex;
	struct run_input *in[RUN_INPUTS_MAX];
	size_t in_cnt;
	struct run_input *taken; /* the input rx gave the last frame of */
	struct run_input *first; /* inputs[0]: a capture's place is its order */
	struct run_outputs *outs;
};

struct run_outputs {
	struct hwxdp_pcap_writer *out, *punt;
	const char *out_path, *punt_path;
	struct run_summary *sum;
};

static int capture_rx(void *ctx, struct hx_rx_frame *f, int max, char *msg, size_t msglen)
{
	struct capture_port *cp = ctx;
	struct run_input *best = NULL;

	(void)max;
	if (cp->taken) {
		int err = input_fill(cp->taken, msg, msglen);

		cp->taken = NULL;
		if (err < 0)
			return err;
	}
	for (size_t i = 0; i < cp->in_cnt; i++) {
		struct run_input *in = cp->in[i];

		if (in->pending &&
		    (!best || in->ts.tv_sec < best->ts.tv_sec ||
		     (in->ts.tv_sec == best->ts.tv_sec && in->ts.tv_nsec < best->ts.tv_nsec)))
			best = in;
	}
	if (!best)
		return 0;
	*f = (struct hx_rx_frame){
		.data = best->frame,
		.len = (uint32_t)best->len,
		.ts = best->ts,
		.order = (uint32_t)(best - cp->first),
		.handle = best->number,
	};
	best->pending = false;
	cp->taken = best;
	return 1;
}

static int write_frame(struct hwxdp_pcap_writer *w, const char *path, const uint8_t *data,
		       uint32_t len, const struct hx_rx_frame *from, char *msg, size_t msglen)
{
	int err = hwxdp_pcap_writer__write_ns(w, &from->ts, data, len);

	if (err)
		snprintf(msg, msglen, "writing frame %llu to %s: %s",
			 (unsigned long long)from->handle, path, hwxdp_strerror(err));
	return err;
}

static int capture_send_any(void *ctx, uint32_t ifindex, const uint8_t *data, uint32_t len,
			    const struct hx_rx_frame *from, char *msg, size_t msglen)
{
	struct run_outputs *o = ctx;

	(void)ifindex;
	return write_frame(o->out, o->out_path, data, len, from, msg, msglen);
}

static int capture_send(void *ctx, const uint8_t *data, uint32_t len,
			const struct hx_rx_frame *from, char *msg, size_t msglen)
{
	struct capture_port *cp = ctx;

	return capture_send_any(cp->outs, cp->ifindex, data, len, from, msg, msglen);
}

static int capture_punt(void *ctx, const struct hwxdp_device_frame *f, const uint8_t *data,
			uint32_t len, const struct hx_rx_frame *from, char *msg, size_t msglen)
{
	struct run_outputs *o = ((struct capture_port *)ctx)->outs;

	(void)f;
	return o->punt ? write_frame(o->punt, o->punt_path, data, len, from, msg, msglen) : 0;
}

static const struct hx_port_ops capture_ops = {
	.rx = capture_rx,
	.send = capture_send,
	.punt = capture_punt,
};

static void count_egress(void *ctx, uint32_t ingress, const struct hwxdp_device_frame *f,
			 enum hx_fate fate, uint32_t ifindex)
{
	struct run_summary *s = ((struct run_outputs *)ctx)->sum;
	size_t i;

	(void)ingress;
	if (fate != HX_FATE_FORWARDED)
		return;
	for (i = 0; i < s->egress_cnt && s->egress[i].ifindex != ifindex; i++)
		;
	if (i == s->egress_cnt) {
		if (i == RUN_EGRESS_MAX)
			return;
		s->egress_cnt++;
		s->egress[i].ifindex = ifindex;
	}
	s->egress[i].frames++;
	s->egress[i].bytes += f->out_len;
}

/* The runner's counts as the summary has them. */
static void summary_counts(struct run_summary *s, const struct hx_runner_counts *c)
{
	s->in = c->in;
	s->invalid = c->fate[HX_FATE_INVALID];
	s->no_program = c->fate[HX_FATE_NO_PROGRAM];
	s->aborted = c->fate[HX_FATE_ABORTED];
	s->dropped = c->fate[HX_FATE_DROPPED];
	s->punted = c->fate[HX_FATE_PUNTED];
	s->forwarded = c->fate[HX_FATE_FORWARDED];
	s->ran = s->aborted + s->dropped + s->punted + s->forwarded;
}

static uint64_t per_frame(uint64_t total, uint64_t frames)
{
	return frames ? (total + frames / 2) / frames : 0;
}

static const char *reason_name(unsigned int r)
{
	if (r == HWXDP_DEVICE_REASONS - 1)
		return "other";
	return r < HWXDP_PUNT__MAX ? hwxdp_punt_reason_name(r) : "?";
}

static const char *prog_path(const struct offline_device *d, uint32_t id)
{
	for (size_t i = 0; i < d->prog_cnt; i++)
		if (d->progs[i].id == id)
			return d->progs[i].path;
	return NULL;
}

static uint64_t port_forwarded(const struct hwxdp_device_port_stats *p)
{
	return p->verdicts[XDP_TX] + p->verdicts[XDP_REDIRECT];
}

static void print_json(const char *object, const struct run_summary *s,
		       const struct offline_device *d)
{
	const struct hwxdp_device_stats *b = &s->board;
	struct hwxdp_device_prog *first = hwxdp_device__prog(d->board, d->first);
	struct json_writer *w = json_new(stdout, pretty_output);
	unsigned int i;

	json_start_object(w);
	json_string_field(w, "object", object);
	json_uint_field(w, "frames_in", s->in);
	json_uint_field(w, "forwarded", s->forwarded);
	json_name(w, "egress");
	json_start_array(w);
	for (size_t e = 0; e < s->egress_cnt; e++) {
		json_start_object(w);
		json_uint_field(w, "ifindex", s->egress[e].ifindex);
		json_uint_field(w, "frames", s->egress[e].frames);
		json_uint_field(w, "bytes", s->egress[e].bytes);
		json_end_object(w);
	}
	json_end_array(w);
	json_uint_field(w, "punted", s->punted);
	json_name(w, "punts");
	json_start_object(w);
	for (i = 0; i < HWXDP_DEVICE_REASONS; i++)
		if (b->punts[i])
			json_uint_field(w, reason_name(i), b->punts[i]);
	json_end_object(w);
	json_uint_field(w, "no_program", s->no_program);
	json_uint_field(w, "dropped", s->dropped);
	json_uint_field(w, "aborted", s->aborted);
	json_uint_field(w, "invalid", s->invalid);
	json_name(w, "cost");
	json_start_object(w);
	json_uint_field(w, "frames", s->ran);
	json_uint_field(w, "ops", b->ops);
	json_uint_field(w, "slots", b->bundles);
	json_uint_field(w, "cycles", b->cycles);
	json_uint_field(w, "ops_per_frame", per_frame(b->ops, s->ran));
	json_uint_field(w, "slots_per_frame", per_frame(b->bundles, s->ran));
	json_uint_field(w, "cycles_per_frame", per_frame(b->cycles, s->ran));
	json_uint_field(w, "image_ops", first ? first->img->line_cnt : 0);
	json_uint_field(w, "bpf_insns", first ? first->prog->insn_cnt : 0);
	json_end_object(w);
	json_uint_field(w, "engines", b->engines);
	json_name(w, "engine_frames");
	json_start_array(w);
	for (i = 0; i < b->engines; i++)
		json_uint(w, b->engine_frames[i]);
	json_end_array(w);
	json_name(w, "programs");
	json_start_array(w);
	for (size_t p = 0; p < d->prog_cnt; p++) {
		struct hwxdp_device_prog *dp = hwxdp_device__prog(d->board, d->progs[p].id);

		json_start_object(w);
		json_string_field(w, "file", d->progs[p].path);
		json_uint_field(w, "id", d->progs[p].id);
		json_uint_field(w, "words", hwxdp_device__prog_words(d->board, d->progs[p].id));
		json_uint_field(w, "image_ops", dp->img->line_cnt);
		json_uint_field(w, "bpf_insns", dp->prog->insn_cnt);
		json_uint_field(w, "image_progs", dp->img->prog_cnt);
		json_end_object(w);
	}
	json_end_array(w);
	json_name(w, "ports");
	json_start_array(w);
	for (i = 0; i < b->port_cnt; i++) {
		const struct hwxdp_device_port_stats *p = &b->port[i];
		const char *path = prog_path(d, p->prog);

		json_start_object(w);
		json_uint_field(w, "ifindex", p->ifindex);
		if (path)
			json_string_field(w, "program", path);
		else
			json_name(w, "program"), json_null(w);
		json_uint_field(w, "frames", p->frames);
		json_uint_field(w, "bytes", p->bytes);
		json_uint_field(w, "forwarded", port_forwarded(p));
		json_uint_field(w, "punted", p->verdicts[XDP_PASS]);
		json_uint_field(w, "dropped", p->verdicts[XDP_DROP]);
		json_uint_field(w, "aborted", p->verdicts[XDP_ABORTED] + p->verdicts[5]);
		json_uint_field(w, "no_program", p->no_program);
		json_name(w, "punts");
		json_start_object(w);
		for (unsigned int r = 0; r < HWXDP_DEVICE_REASONS; r++)
			if (p->punts[r])
				json_uint_field(w, reason_name(r), p->punts[r]);
		json_end_object(w);
		json_end_object(w);
	}
	json_end_array(w);
	json_name(w, "memory");
	json_start_object(w);
	json_uint_field(w, "table_bytes", b->memory.table_bytes);
	json_uint_field(w, "tables", b->memory.table_cnt);
	json_uint_field(w, "store_words", b->memory.store_words);
	json_uint_field(w, "store_capacity", b->memory.store_capacity);
	json_end_object(w);
	json_end_object(w);
	json_destroy(w);
}

static void print_summary(const char *object, const struct run_summary *s,
			  const struct offline_device *d)
{
	const struct hwxdp_device_stats *b = &s->board;
	unsigned int i;

	if (json_output) {
		print_json(object, s, d);
		return;
	}
	printf("%s on the device (%u engine%s)\n", object, b->engines, b->engines == 1 ? "" : "s");
	printf("  %-22s %10llu\n", "frames in", (unsigned long long)s->in);
	printf("  %-22s %10llu\n", "forwarded", (unsigned long long)s->forwarded);
	for (size_t e = 0; e < s->egress_cnt; e++)
		printf("    ifindex %-12u %10llu  (%llu bytes)\n", s->egress[e].ifindex,
		       (unsigned long long)s->egress[e].frames,
		       (unsigned long long)s->egress[e].bytes);
	printf("  %-22s %10llu\n", "punted", (unsigned long long)s->punted);
	for (i = 0; i < HWXDP_DEVICE_REASONS; i++)
		if (b->punts[i])
			printf("    %-20s %10llu\n", reason_name(i),
			       (unsigned long long)b->punts[i]);
	if (s->no_program)
		printf("  %-22s %10llu  (to the host as they came)\n", "no program",
		       (unsigned long long)s->no_program);
	printf("  %-22s %10llu\n", "dropped", (unsigned long long)s->dropped);
	printf("  %-22s %10llu\n", "aborted", (unsigned long long)s->aborted);
	if (s->invalid)
		printf("  %-22s %10llu  (shorter than 14 or longer than %u bytes)\n", "invalid",
		       (unsigned long long)s->invalid, HXU_FRAME_MAX);
	printf("  per frame              %.1f ops, %.1f slots, %.1f cycles\n",
	       s->ran ? (double)b->ops / s->ran : 0.0, s->ran ? (double)b->bundles / s->ran : 0.0,
	       s->ran ? (double)b->cycles / s->ran : 0.0);
	printf("  engines               ");
	for (i = 0; i < b->engines; i++)
		printf(" %llu", (unsigned long long)b->engine_frames[i]);
	printf("  (frames each)\n");
	printf("  programs\n");
	for (size_t p = 0; p < d->prog_cnt; p++) {
		struct hwxdp_device_prog *dp = hwxdp_device__prog(d->board, d->progs[p].id);

		printf("    %-20s microcode %u ops in %u words, BPF %zu insns", d->progs[p].path,
		       dp->img->line_cnt, hwxdp_device__prog_words(d->board, d->progs[p].id),
		       dp->prog->insn_cnt);
		/* the programs its tail calls reach share its image (docs/translator.md) */
		if (dp->img->prog_cnt > 1)
			printf(", with %u programs its tail calls reach", dp->img->prog_cnt - 1);
		printf("\n");
	}
	printf("  ports                      frames  forwarded     punted    dropped\n");
	for (i = 0; i < b->port_cnt; i++) {
		const struct hwxdp_device_port_stats *p = &b->port[i];
		const char *path = prog_path(d, p->prog);

		printf("    ifindex %-10u %10llu %10llu %10llu %10llu  %s\n", p->ifindex,
		       (unsigned long long)p->frames, (unsigned long long)port_forwarded(p),
		       (unsigned long long)(p->verdicts[XDP_PASS] + p->no_program),
		       (unsigned long long)p->verdicts[XDP_DROP], path ? path : "(no program)");
		for (unsigned int r = 0; r < HWXDP_DEVICE_REASONS; r++)
			if (p->punts[r])
				printf("      %-24s %10llu\n", reason_name(r),
				       (unsigned long long)p->punts[r]);
	}
	printf("  device memory          tables %.1f MiB (%u tables), microcode %u of %u words\n",
	       b->memory.table_bytes / 1048576.0, b->memory.table_cnt, b->memory.store_words,
	       b->memory.store_capacity);
}

static int run_help(void)
{
	return cmd_help_object(stderr, cmd_object_find("run"), false);
}

/* Loads path once; its program id in *id. The first program's table memory
 * serves every later one. */
static int board_load(struct offline_device *d, const char *path, uint32_t *id, char *msg,
		      size_t msglen)
{
	struct hwxdp_device_load_opts lopts = {
		.sz = sizeof(lopts),
		.share_tables = d->prog_cnt > 0,
		.tables_of = d->first,
	};
	int ret;

	for (size_t i = 0; i < d->prog_cnt; i++) {
		if (!strcmp(d->progs[i].path, path)) {
			*id = d->progs[i].id;
			return 0;
		}
	}
	if (d->prog_cnt == RUN_PROGS_MAX) {
		snprintf(msg, msglen, "at most %d programs", RUN_PROGS_MAX);
		return -E2BIG;
	}
	if (access(path, R_OK)) {
		snprintf(msg, msglen, "%s: %s", path, hwxdp_strerror(errno));
		return -errno;
	}
	ret = hwxdp_device__load(d->board, path, &lopts, msg, msglen);
	if (ret < 0)
		return ret;
	if (!d->prog_cnt)
		d->first = (uint32_t)ret;
	d->progs[d->prog_cnt].path = path;
	d->progs[d->prog_cnt++].id = (uint32_t)ret;
	*id = (uint32_t)ret;
	return 0;
}

/*
 * --sa H:SPI:@FILE:SRC:DST (the key and salt as hex in FILE, "-" for
 * standard input), or H:SPI:KEY:SALT:SRC:DST with a warning: a key on the
 * command line is in ps for anyone to read. 0; -1 with msg; 1 printed.
 */
static int sa_text_add(struct hx_state *state, const char *text, char *msg, size_t msglen)
{
	char hex[160], full[512], *at = strchr(text, '@'), *end;
	size_t n;
	int err;

	if (!at) {
		fprintf(stderr, "hwxdp: warning: --sa: a key on the command line is visible to "
				"every user (ps); give H:SPI:@FILE:SRC:DST\n");
		return hx_state__add_sa_text(state, text, msg, msglen) ? -1 : 0;
	}
	end = strchr(at, ':');
	if (!end || at == text || at[-1] != ':' || (size_t)(end - at - 1) >= sizeof(full) / 2) {
		snprintf(msg, msglen, "--sa: expected HANDLE:SPI:@FILE:SRC:DST");
		return -1;
	}
	snprintf(full, sizeof(full), "%.*s", (int)(end - at - 1), at + 1);
	if (cmd_read_secret_hex(full, hex, sizeof(hex)))
		return 1;
	n = strlen(hex);
	if (n > 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
		memmove(hex, hex + 2, n - 1), n -= 2;
	if (n <= 8) {
		snprintf(msg, msglen, "--sa: %.*s: expected hex of the key and the 4-byte salt",
			 (int)(end - at - 1), at + 1);
		memset(hex, 0, sizeof(hex));
		return -1;
	}
	/* The same text as the inline form, built here and wiped. */
	snprintf(full, sizeof(full), "%.*s%.*s:%s%s", (int)(at - text), text, (int)(n - 8), hex,
		 hex + n - 8, end);
	err = hx_state__add_sa_text(state, full, msg, msglen);
	memset(hex, 0, sizeof(hex));
	memset(full, 0, sizeof(full));
	if (err && strstr(msg, "--sa "))
		snprintf(msg, msglen,
			 "--sa %s: the key file's hex is not a 16, 24 or 32-byte key "
			 "and a 4-byte salt, or another field is wrong",
			 text);
	return err ? -1 : 0;
}

/* Loads every program and fills every slot: a port named by --port N:FILE
 * gets FILE, every other port an --in names gets the default program (or
 * stays empty without one). */
static int board_setup(struct offline_device *d, const char *object, const struct run_port *ports,
		       size_t port_cnt, const struct run_input *inputs, size_t in_cnt, char *msg,
		       size_t msglen)
{
	uint32_t id, def = HWXDP_DEVICE_PROG_NONE;
	int err;

	if (object) {
		err = board_load(d, object, &def, msg, msglen);
		if (err)
			return err;
	}
	for (size_t i = 0; i < port_cnt; i++) {
		err = board_load(d, ports[i].path, &id, msg, msglen);
		if (!err)
			err = hwxdp_device__attach(d->board, ports[i].ifindex, id);
		if (err) {
			if (err == -ENOSPC)
				snprintf(msg, msglen, "port %u: the board has %d ports at most",
					 ports[i].ifindex, HWXDP_DEVICE_PORTS);
			return err;
		}
	}
	for (size_t i = 0; i < in_cnt; i++) {
		uint32_t port = inputs[i].ingress;

		if (hwxdp_device__slot(d->board, port) != HWXDP_DEVICE_PROG_NONE)
			continue;
		err = def != HWXDP_DEVICE_PROG_NONE ? hwxdp_device__attach(d->board, port, def)
						    : hwxdp_device__add_port(d->board, port);
		if (err) {
			snprintf(msg, msglen, "port %u: the board has %d ports at most", port,
				 HWXDP_DEVICE_PORTS);
			return err;
		}
	}
	return 0;
}

int do_run(int argc, char **argv)
{
	struct option options[24];
	char shorts[32];
	const char *in_args[RUN_INPUTS_MAX], *sa_args[HWXDP_TABLES_SA_MAX];
	const char *object = NULL, *out_path = NULL, *punt_path = NULL;
	const char *maps_args[RUN_INPUTS_MAX];
	/* what the user asks for; the program's own asks come first */
	struct hwxdp_table_size sizes[RUN_TABLES_MAX + 1] = { { NULL, 0 } };
	char *size_names[RUN_TABLES_MAX + 1] = { NULL };
	struct hwxdp_device_opts dopts = { .sz = sizeof(dopts) };
	struct run_port ports[RUN_PROGS_MAX];
	struct hwxdp_pcap_writer *out = NULL, *punt = NULL;
	struct hwxdp_pcap_writer_opts wopts = { .sz = sizeof(wopts) };
	struct hwxdp_outputs *outputs = NULL;
	bool nanosecond = false;
	size_t in_cnt = 0, sa_cnt = 0, maps_cnt = 0, port_cnt = 0, size_cnt = 0, i;
	struct offline_device dev = {};
	struct run_input *inputs = NULL;
	struct run_summary *sum = NULL;
	struct capture_port *cports = NULL;
	struct run_outputs outs = { 0 };
	struct hx_runner *runner = NULL;
	struct hx_runner_counts counts;
	size_t cport_cnt = 0;
	struct hx_state *state = NULL;
	uint32_t port = RUN_DEFAULT_PORT, engines = HWXDP_DEVICE_ENGINES_DEFAULT;
	enum hwxdp_engine_mode mode = HWXDP_ENGINE_COMPILED;
	char msg[1024] = "";
	int opt, err, ret = 1;

	if (cmd_getopt_table(cmd_object_find("run")->options, options, 24, shorts, sizeof(shorts)))
		return cmd_error("run: too many options");
	optind = 0;
	while ((opt = getopt_long(argc + 1, argv - 1, shorts, options, NULL)) >= 0) {
		/* "" is no file name, whatever open() would make of it */
		if (strchr("ioPm", opt) && !*optarg) {
			for (i = 0; options[i].val != opt; i++)
				;
			return cmd_error("--%s: an empty file name", options[i].name);
		}
		switch (opt) {
		case 'i':
			if (in_cnt == RUN_INPUTS_MAX)
				return cmd_error("at most %d --in captures", RUN_INPUTS_MAX);
			in_args[in_cnt++] = optarg;
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'P':
			punt_path = optarg;
			break;
		case 'm':
			if (maps_cnt == RUN_INPUTS_MAX)
				return cmd_error("at most %d --maps files", RUN_INPUTS_MAX);
			maps_args[maps_cnt++] = optarg;
			break;
		case 'n': {
			const char *colon = strchr(optarg, ':');

			if (!colon) {
				if (parse_ifindex(optarg, strlen(optarg), &port))
					return cmd_error("--port %s: not an ifindex (1 to 2^32-1)",
							 optarg);
				break;
			}
			if (port_cnt == RUN_PROGS_MAX)
				return cmd_error("at most %d --port programs", RUN_PROGS_MAX);
			if (parse_ifindex(optarg, (size_t)(colon - optarg),
					  &ports[port_cnt].ifindex) ||
			    !colon[1])
				return cmd_error("--port %s: expected IFINDEX:FILE.o (ifindex 1 to "
						 "2^32-1)",
						 optarg);
			for (i = 0; i < port_cnt; i++)
				if (ports[i].ifindex == ports[port_cnt].ifindex)
					return cmd_error("--port %s: port %u has a program already",
							 optarg, ports[i].ifindex);
			ports[port_cnt++].path = colon + 1;
			break;
		}
		case 'k': {
			char *end;
			unsigned long v;

			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (!*optarg || *end || errno || !v || v > HWXDP_DEVICE_ENGINES_MAX)
				return cmd_error("--engines %s: 1 to %d", optarg,
						 HWXDP_DEVICE_ENGINES_MAX);
			engines = (uint32_t)v;
			break;
		}
		case 'e':
			if (!strcmp(optarg, "compiled"))
				mode = HWXDP_ENGINE_COMPILED;
			else if (!strcmp(optarg, "interp"))
				mode = HWXDP_ENGINE_INTERP;
			else
				return cmd_error("--engine %s: compiled or interp", optarg);
			break;
		case 't': {
			struct hwxdp_table_size ts;

			err = parse_table(&ts, optarg);
			if (err)
				return cmd_error("--table %s: expected NAME=ENTRIES (1 to 2^30)",
						 optarg);
			for (i = 0; i < size_cnt && strcmp(sizes[i].name, ts.name); i++)
				;
			if (i == size_cnt) {
				if (size_cnt == RUN_TABLES_MAX) {
					free((void *)ts.name);
					return cmd_error("at most %d --table", RUN_TABLES_MAX);
				}
				size_cnt++;
			}
			free(size_names[i]);
			size_names[i] = (char *)ts.name;
			sizes[i] = ts;
			break;
		}
		case 's':
			if (sa_cnt == HWXDP_TABLES_SA_MAX)
				return cmd_error("too many --sa");
			sa_args[sa_cnt++] = optarg;
			break;
		case 'j':
		case 'p':
			cmd_output_option(opt);
			break;
		case 'h':
			return run_help();
		default:
			run_help();
			return 1;
		}
	}
	/* The shifted argv: non-options start at optind. */
	if (optind < argc + 1)
		object = argv[optind - 1];
	if ((!object && !port_cnt) || optind + 1 < argc + 1) {
		ret = cmd_error("expected one BPF object (%s run FILE.o --in IN.pcap --out "
				"OUT.pcap)",
				bin_name);
		goto out;
	}
	if (!in_cnt || !out_path) {
		ret = cmd_error("--in and --out are required (see %s run --help)", bin_name);
		goto out;
	}
	if (object && !*object) {
		ret = cmd_error("an empty file name for the BPF object");
		goto out;
	}
	/* "-": standard input (read once: one of the inputs) or output */
	if (object && !strcmp(object, "-") && !(object = cmd_stdin_path("FILE.o -")))
		goto out;
	for (i = 0; i < port_cnt; i++)
		if (!strcmp(ports[i].path, "-") && !(ports[i].path = cmd_stdin_path("--port N:-")))
			goto out;
	for (i = 0; i < maps_cnt; i++)
		if (!strcmp(maps_args[i], "-") && !(maps_args[i] = cmd_stdin_path("--maps -")))
			goto out;
	if (!strcmp(out_path, "-") && !(out_path = cmd_stdout_path("--out -")))
		goto out;
	if (punt_path && !strcmp(punt_path, "-") && !(punt_path = cmd_stdout_path("--punt -")))
		goto out;

	state = hx_state__new();
	inputs = calloc(in_cnt, sizeof(*inputs));
	sum = calloc(1, sizeof(*sum));
	cports = calloc(in_cnt, sizeof(*cports));
	outputs = hwxdp_outputs__new();
	if (!state || !inputs || !sum || !cports || !outputs) {
		cmd_error("out of memory");
		goto out;
	}
	/* Everything the user gave is read and checked before the device is
	 * touched or a file is created. */
	for (i = 0; i < in_cnt; i++) {
		if (parse_input(&inputs[i], in_args[i], port)) {
			cmd_error("--in %s: the ifindex before ':' is not 1 to 2^32-1", in_args[i]);
			goto out;
		}
		if (!*inputs[i].path) {
			cmd_error("--in %s: no file name after the ifindex", in_args[i]);
			goto out;
		}
		if (!strcmp(inputs[i].path, "-") && !(inputs[i].path = cmd_stdin_path("--in -")))
			goto out;
		err = hwxdp_pcap_reader__open(inputs[i].path, &inputs[i].reader, msg, sizeof(msg));
		if (!err)
			err = hwxdp_outputs__input(outputs, inputs[i].path, msg, sizeof(msg));
		if (err) {
			cmd_error("%s", msg);
			goto out;
		}
		nanosecond |= hwxdp_pcap_reader__nanosecond(inputs[i].reader);
	}
	/* Every file read is one no output may be: same device and inode,
	 * however the paths are spelt. */
	err = object ? hwxdp_outputs__input(outputs, object, msg, sizeof(msg)) : 0;
	for (i = 0; !err && i < port_cnt; i++)
		err = hwxdp_outputs__input(outputs, ports[i].path, msg, sizeof(msg));
	for (i = 0; !err && i < maps_cnt; i++)
		err = hwxdp_outputs__input(outputs, maps_args[i], msg, sizeof(msg));
	if (err) {
		cmd_error("%s", msg);
		goto out;
	}
	/* The outputs are made (empty, unnamed where the file system can) now,
	 * so that a clash or a folder that cannot take them is an error before
	 * the run rather than after it. */
	wopts.outputs = outputs;
	wopts.nanosecond = nanosecond;
	wopts.option = "--out";
	err = hwxdp_pcap_writer__open_opts(out_path, &wopts, &out, msg, sizeof(msg));
	if (!err && punt_path) {
		wopts.option = "--punt";
		err = hwxdp_pcap_writer__open_opts(punt_path, &wopts, &punt, msg, sizeof(msg));
	}
	if (err) {
		cmd_error("%s", msg);
		goto out;
	}
	for (i = 0; i < maps_cnt; i++) {
		if (hx_state__load(state, maps_args[i], msg, sizeof(msg))) {
			cmd_error("%s", msg);
			goto out;
		}
	}
	for (i = 0; i < sa_cnt; i++) {
		int bad = sa_text_add(state, sa_args[i], msg, sizeof(msg));

		if (bad) {
			if (bad < 0)
				cmd_error("%s", msg);
			goto out;
		}
	}
	if (object && access(object, R_OK)) {
		cmd_error("%s: %s", object, hwxdp_strerror(errno));
		goto out;
	}
	dopts.engines = engines;
	dopts.sizes = sizes;
	dopts.size_cnt = size_cnt;
	/* Every frame that leaves goes to --out, whichever ifindex it names. */
	dopts.any_egress = true;
	hwxdp_engine__set_default_mode(mode);
	dev.board = hwxdp_device__new(&dopts);
	if (!dev.board) {
		cmd_error("cannot make the board: %s", hwxdp_strerror(errno));
		goto out;
	}
	err = board_setup(&dev, object, ports, port_cnt, inputs, in_cnt, msg, sizeof(msg));
	if (err) {
		cmd_error("%s", msg[0] ? msg : hwxdp_strerror(err));
		goto out;
	}
	/* A size for a map no program has is a typo, not a wish. */
	for (i = 0; i < size_cnt; i++) {
		if (!table_by_name(&dev, sizes[i].name)) {
			cmd_error("--table %s=%u: the programs have no map \"%s\"", sizes[i].name,
				  sizes[i].max_entries, sizes[i].name);
			goto out;
		}
	}
	err = hx_state__apply_progs(state, hwxdp_device__prog(dev.board, dev.first)->obj,
				    table_update, prog_number, &dev, msg, sizeof(msg));
	if (!err)
		err = load_sas(&dev, state, msg, sizeof(msg));
	if (err) {
		cmd_error("%s", msg);
		goto out;
	}

	for (i = 0; i < in_cnt; i++) {
		if (input_fill(&inputs[i], msg, sizeof(msg)) < 0) {
			cmd_error("%s", msg);
			goto out;
		}
	}
	outs = (struct run_outputs){
		.out = out,
		.punt = punt,
		.out_path = out_path,
		.punt_path = punt_path,
		.sum = sum,
	};
	runner = hx_runner__new(dev.board, &(struct hx_runner_opts){
						   .sz = sizeof(struct hx_runner_opts),
						   .send_elsewhere = capture_send_any,
						   .elsewhere_ctx = &outs,
						   .fate = count_egress,
						   .fate_ctx = &outs,
					   });
	if (!runner) {
		cmd_error("cannot make the runner: %s", hwxdp_strerror(errno));
		goto out;
	}
	/* A port per ingress ifindex, in the order the captures were given. */
	for (i = 0; i < in_cnt; i++) {
		struct capture_port *cp = NULL;

		for (size_t k = 0; k < cport_cnt; k++)
			if (cports[k].ifindex == inputs[i].ingress)
				cp = &cports[k];
		if (!cp) {
			cp = &cports[cport_cnt++];
			cp->ifindex = inputs[i].ingress;
			cp->outs = &outs;
			cp->first = inputs;
			err = hx_runner__add_port(runner, cp->ifindex, &capture_ops, cp);
			if (err) {
				cmd_error("port %u: %s", cp->ifindex, hwxdp_strerror(err));
				goto out;
			}
		}
		cp->in[cp->in_cnt++] = &inputs[i];
	}
	err = hx_runner__run(runner, msg, sizeof(msg));
	if (err) {
		cmd_error("%s", msg[0] ? msg : hwxdp_strerror(err));
		goto out;
	}
	hx_runner__counts(runner, 0, &counts);
	summary_counts(sum, &counts);
	err = hwxdp_pcap_writer__commit(out, msg, sizeof(msg));
	out = NULL;
	if (!err && punt) {
		err = hwxdp_pcap_writer__commit(punt, msg, sizeof(msg));
		punt = NULL;
	}
	/* Only when every output is whole does any file change. */
	if (!err)
		err = hwxdp_outputs__commit(outputs, msg, sizeof(msg));
	if (err) {
		cmd_error("%s", msg);
		goto out;
	}
	hwxdp_device__stats(dev.board, &sum->board);
	print_summary(object ? object : ports[0].path, sum, &dev);
	ret = 0;
out:
	hwxdp_pcap_writer__abort(out);
	hwxdp_pcap_writer__abort(punt);
	hwxdp_outputs__free(outputs);
	for (i = 0; inputs && i < in_cnt; i++)
		hwxdp_pcap_reader__close(inputs[i].reader);
	free(inputs);
	free(sum);
	free(cports);
	hx_runner__free(runner);
	device_close(&dev);
	hx_state__free(state);
	for (i = 0; i < size_cnt; i++)
		free(size_names[i]);
	return ret;
}
