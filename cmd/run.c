// SPDX-License-Identifier: GPL-2.0
/*
 * hwxdp run FILE.o --in IN.pcap --out OUT.pcap [--punt PUNT.pcap] ...: the
 * coprocessor model offline. The program is verified and translated for the
 * device, its maps filled from a state file, the crypto engine given its
 * SAs, and every frame of the captures run on an engine as if it arrived on
 * a wire port; forwarded frames go to one capture, punted ones to another.
 *
 * The device is put together here from its parts rather than through the
 * lab's device target, because a run needs what that interface does not
 * carry: the crypto engine's SA table, and the engine's egress port and
 * punt reason per frame.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/bpf.h>

#include "cmd/main.h"
#include "device/engine.h"
#include "device/esp.h"
#include "device/pcap.h"
#include "device/tables.h"
#include "hwmap/hxu.h"
#include "hwxdp/fwd.h"
#include "hwxdp/object.h"
#include "lab/fwd.h"
#include "lab/state.h"
#include "loader/device.h"

#define RUN_INPUTS_MAX	 16
#define RUN_EGRESS_MAX	 1024
#define RUN_DEFAULT_PORT 1

struct offline_device {
	struct hwxdp_device_prog *dp;
	struct hwxdp_esp_sa *sas;
	size_t sa_cnt;
};

struct run_input {
	const char *path;
	uint32_t ingress;
	struct hwxdp_pcap_reader *reader;
	bool pending; /* frame below holds the next frame */
	struct timeval ts;
	uint64_t number;
	size_t len;
	uint8_t frame[HXU_FRAME_MAX + 1];
};

struct egress_count {
	uint32_t ifindex;
	uint64_t frames, bytes;
};

struct run_summary {
	uint64_t in, forwarded, punted, dropped, aborted, invalid;
	uint64_t punts[HWXDP_PUNT__MAX + 1]; /* the last slot: reasons beyond the enum */
	struct egress_count egress[RUN_EGRESS_MAX];
	size_t egress_cnt;
	uint64_t ran, ops, bundles, cycles;
};

static void device_close(struct offline_device *d)
{
	for (size_t i = 0; i < d->sa_cnt; i++)
		hwxdp_esp_sa__fini(&d->sas[i]);
	free(d->sas);
	hwxdp_device_prog__close(d->dp);
}

static struct hwxdp_table *table_by_name(struct offline_device *d, const char *name)
{
	return hwxdp_device_prog__table(d->dp, name);
}

static int table_update(void *ctx, const char *map, const void *key, const void *value)
{
	struct hwxdp_table *tab = table_by_name(ctx, map);

	return tab ? hwxdp_table__update(tab, key, value, BPF_ANY) : -ENOENT;
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
				 strerror(-err));
			return err;
		}
		d->sa_cnt = i + 1;
		err = hwxdp_tables__set_sa(d->dp->tables, s->handle, &d->sas[i]);
		if (err) {
			snprintf(msg, msglen, "SA %u: %s", s->handle, strerror(-err));
			return err;
		}
	}
	return 0;
}

/* --in [IFINDEX:]FILE */
static int parse_input(struct run_input *in, const char *arg, uint32_t port)
{
	const char *colon = strchr(arg, ':');
	unsigned long v;
	char *end;

	in->ingress = port;
	in->path = arg;
	if (!colon || colon == arg || strspn(arg, "0123456789") != (size_t)(colon - arg))
		return 0;
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || !v || v > UINT32_MAX)
		return -EINVAL;
	in->ingress = (uint32_t)v;
	in->path = colon + 1;
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
	in->ts = f.ts;
	in->number = f.number;
	/* Longer than the device takes: kept as is, refused when it runs. */
	in->len = f.len > sizeof(in->frame) ? sizeof(in->frame) : f.len;
	memcpy(in->frame, f.data, in->len);
	in->pending = true;
	return 1;
}

/* The input whose next frame is the earliest; ties go to the first given. */
static struct run_input *next_input(struct run_input *in, size_t cnt)
{
	struct run_input *best = NULL;

	for (size_t i = 0; i < cnt; i++)
		if (in[i].pending && (!best || timercmp(&in[i].ts, &best->ts, <)))
			best = &in[i];
	return best;
}

static void count_egress(struct run_summary *s, uint32_t ifindex, size_t len)
{
	size_t i;

	for (i = 0; i < s->egress_cnt && s->egress[i].ifindex != ifindex; i++)
		;
	if (i == s->egress_cnt) {
		if (i == RUN_EGRESS_MAX)
			return;
		s->egress_cnt++;
		s->egress[i].ifindex = ifindex;
	}
	s->egress[i].frames++;
	s->egress[i].bytes += len;
}

/* Runs one frame; 0, or a negative errno when an output cannot be written. */
static int run_frame(struct offline_device *d, struct run_input *in, struct run_summary *s,
		     struct hwxdp_pcap_writer *out, struct hwxdp_pcap_writer *punt)
{
	struct hwxdp_run_stats stats;
	struct hwxdp_frame f = {
		.window = d->dp->window,
		.data = HXU_HEADROOM,
		.data_meta = HXU_HEADROOM,
		.ingress = in->ingress,
	};
	uint32_t egress, reason;
	const uint8_t *data;
	size_t len;
	int err;

	s->in++;
	if (in->len < HXU_ETH_HLEN || in->len > HXU_FRAME_MAX) {
		s->invalid++;
		return 0;
	}
	memset(d->dp->window, 0, HXU_WINDOW_SIZE);
	memcpy(d->dp->window + HXU_HEADROOM, in->frame, in->len);
	f.data_end = HXU_HEADROOM + (uint32_t)in->len;
	err = hwxdp_engine__run(d->dp->engine, 0, &f, &stats);
	s->ran++;
	s->ops += stats.ops;
	s->bundles += stats.bundles;
	s->cycles += stats.cycles;
	if (err || f.verdict == XDP_ABORTED || f.verdict > XDP_REDIRECT) {
		s->aborted++;
		return 0;
	}
	data = d->dp->window + f.data;
	len = f.data_end - f.data;
	switch (f.verdict) {
	case XDP_DROP:
		s->dropped++;
		return 0;
	case XDP_PASS:
		reason = f.reason;
		/* The forwarding program says why in its metadata. */
		if (!reason && f.data - f.data_meta == sizeof(struct hwxdp_meta)) {
			struct hwxdp_meta meta;

			memcpy(&meta, d->dp->window + f.data_meta, sizeof(meta));
			reason = meta.reason;
		}
		s->punted++;
		s->punts[reason < HWXDP_PUNT__MAX ? reason : HWXDP_PUNT__MAX]++;
		return punt ? hwxdp_pcap_writer__write(punt, &in->ts, data, len) : 0;
	case XDP_TX:
		egress = in->ingress;
		break;
	default:
		/* A redirect to no port is a drop, as in the kernel. */
		if (f.egress == HWXDP_EGRESS_NONE) {
			s->dropped++;
			return 0;
		}
		egress = f.egress;
	}
	s->forwarded++;
	count_egress(s, egress, len);
	return hwxdp_pcap_writer__write(out, &in->ts, data, len);
}

static uint64_t per_frame(uint64_t total, uint64_t frames)
{
	return frames ? (total + frames / 2) / frames : 0;
}

static void print_summary(const char *object, const struct run_summary *s,
			  const struct offline_device *d)
{
	unsigned int i;

	if (json_output) {
		struct json_writer *w = json_new(stdout, pretty_output);

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
		for (i = 0; i <= HWXDP_PUNT__MAX; i++)
			if (s->punts[i])
				json_uint_field(w,
						i < HWXDP_PUNT__MAX ? hwxdp_punt_reason_name(i)
								    : "other",
						s->punts[i]);
		json_end_object(w);
		json_uint_field(w, "dropped", s->dropped);
		json_uint_field(w, "aborted", s->aborted);
		json_uint_field(w, "invalid", s->invalid);
		json_name(w, "cost");
		json_start_object(w);
		json_uint_field(w, "frames", s->ran);
		json_uint_field(w, "ops", s->ops);
		json_uint_field(w, "slots", s->bundles);
		json_uint_field(w, "cycles", s->cycles);
		json_uint_field(w, "ops_per_frame", per_frame(s->ops, s->ran));
		json_uint_field(w, "slots_per_frame", per_frame(s->bundles, s->ran));
		json_uint_field(w, "cycles_per_frame", per_frame(s->cycles, s->ran));
		json_uint_field(w, "image_ops", d->dp->img->line_cnt);
		json_uint_field(w, "bpf_insns", d->dp->prog->insn_cnt);
		json_end_object(w);
		json_end_object(w);
		json_destroy(w);
		return;
	}
	printf("%s on the device\n", object);
	printf("  %-22s %10llu\n", "frames in", (unsigned long long)s->in);
	printf("  %-22s %10llu\n", "forwarded", (unsigned long long)s->forwarded);
	for (size_t e = 0; e < s->egress_cnt; e++)
		printf("    ifindex %-12u %10llu  (%llu bytes)\n", s->egress[e].ifindex,
		       (unsigned long long)s->egress[e].frames,
		       (unsigned long long)s->egress[e].bytes);
	printf("  %-22s %10llu\n", "punted", (unsigned long long)s->punted);
	for (i = 0; i <= HWXDP_PUNT__MAX; i++)
		if (s->punts[i])
			printf("    %-20s %10llu\n",
			       i < HWXDP_PUNT__MAX ? hwxdp_punt_reason_name(i) : "other",
			       (unsigned long long)s->punts[i]);
	printf("  %-22s %10llu\n", "dropped", (unsigned long long)s->dropped);
	printf("  %-22s %10llu\n", "aborted", (unsigned long long)s->aborted);
	if (s->invalid)
		printf("  %-22s %10llu  (shorter than 14 or longer than %u bytes)\n", "invalid",
		       (unsigned long long)s->invalid, HXU_FRAME_MAX);
	printf("  per frame              %.1f ops, %.1f slots, %.1f cycles (microcode %u ops, BPF "
	       "%zu "
	       "insns)\n",
	       s->ran ? (double)s->ops / s->ran : 0.0, s->ran ? (double)s->bundles / s->ran : 0.0,
	       s->ran ? (double)s->cycles / s->ran : 0.0, d->dp->img->line_cnt, d->dp->prog->insn_cnt);
}

static int run_help(void)
{
	fprintf(stderr,
		"Usage: %s run FILE.o --in [IFINDEX:]IN.pcap ... --out OUT.pcap [--punt "
		"PUNT.pcap]\n"
		"          [--maps STATE.json ...] [--port IFINDEX] [--sa "
		"HANDLE:SPI:KEY:SALT:SRC:DST ...]\n"
		"\n"
		"Runs the XDP program of FILE.o on the coprocessor model, offline: every\n"
		"frame of the captures arrives on a wire port, forwarded frames (tx,\n"
		"redirect) go to OUT.pcap and punted ones (pass) to PUNT.pcap, with their\n"
		"timestamps. No root needed.\n"
		"\n"
		"  --in [N:]FILE     an Ethernet capture whose frames arrive on ifindex N\n"
		"                    (default: --port); several are merged by timestamp\n"
		"  --out FILE        forwarded frames\n"
		"  --punt FILE       punted frames (otherwise only counted)\n"
		"  --maps FILE       map entries and SAs to load first (JSON; see hwxdp(8));\n"
		"                    several are applied in the order given\n"
		"  --port N          the ingress ifindex of --in files without one (default %d)\n"
		"  --sa H:SPI:KEY:SALT:SRC:DST\n"
		"                    an AES-GCM SA in the crypto engine for `sas` entry H:\n"
		"                    key and salt in hex (16/24/32 and 4 bytes), tunnel IPv4\n"
		"                    source and destination\n",
		bin_name, RUN_DEFAULT_PORT);
	return 0;
}

int do_run(int argc, char **argv)
{
	static const struct option options[] = {
		{ "in", required_argument, NULL, 'i' },	  { "out", required_argument, NULL, 'o' },
		{ "punt", required_argument, NULL, 'P' }, { "maps", required_argument, NULL, 'm' },
		{ "port", required_argument, NULL, 'n' }, { "sa", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },	  { "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },	  { 0 },
	};
	const char *in_args[RUN_INPUTS_MAX], *sa_args[HWXDP_TABLES_SA_MAX];
	const char *object = NULL, *out_path = NULL, *punt_path = NULL;
	const char *maps_args[RUN_INPUTS_MAX];
	struct hwxdp_pcap_writer *out = NULL, *punt = NULL;
	size_t in_cnt = 0, sa_cnt = 0, maps_cnt = 0, i;
	struct offline_device dev = {};
	struct run_input *inputs = NULL;
	struct run_summary *sum = NULL;
	struct hx_state *state = NULL;
	uint32_t port = RUN_DEFAULT_PORT;
	char msg[1024] = "";
	int opt, err, ret = 1;

	optind = 0;
	while ((opt = getopt_long(argc + 1, argv - 1, "hjp", options, NULL)) >= 0) {
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
			char *end;
			unsigned long v;

			errno = 0;
			v = strtoul(optarg, &end, 0);
			if (!*optarg || *end || errno || !v || v > UINT32_MAX)
				return cmd_error("--port %s: not an ifindex (1 to 2^32-1)", optarg);
			port = (uint32_t)v;
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
	if (!object || optind + 1 < argc + 1)
		return cmd_error("expected one BPF object (%s run FILE.o --in IN.pcap --out "
				 "OUT.pcap)",
				 bin_name);
	if (!in_cnt || !out_path)
		return cmd_error("--in and --out are required (see %s run --help)", bin_name);
	if (punt_path && !strcmp(punt_path, out_path))
		return cmd_error("--out and --punt name the same file %s", out_path);

	state = hx_state__new();
	inputs = calloc(in_cnt, sizeof(*inputs));
	sum = calloc(1, sizeof(*sum));
	if (!state || !inputs || !sum) {
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
		if ((!strcmp(inputs[i].path, out_path) ||
		     (punt_path && !strcmp(inputs[i].path, punt_path)))) {
			cmd_error("%s is both an input and an output", inputs[i].path);
			goto out;
		}
		err = hwxdp_pcap_reader__open(inputs[i].path, &inputs[i].reader, msg, sizeof(msg));
		if (err) {
			cmd_error("%s", msg);
			goto out;
		}
	}
	for (i = 0; i < maps_cnt; i++) {
		if (hx_state__load(state, maps_args[i], msg, sizeof(msg))) {
			cmd_error("%s", msg);
			goto out;
		}
	}
	for (i = 0; i < sa_cnt; i++) {
		if (hx_state__add_sa_text(state, sa_args[i], msg, sizeof(msg))) {
			cmd_error("%s", msg);
			goto out;
		}
	}
	if (access(object, R_OK)) {
		cmd_error("%s: %s", object, strerror(errno));
		goto out;
	}
	err = hwxdp_device_prog__open(object, &dev.dp, msg, sizeof(msg));
	if (err) {
		cmd_error("%s", msg[0] ? msg : strerror(-err));
		goto out;
	}
	err = hx_state__apply(state, dev.dp->obj, table_update, &dev, msg, sizeof(msg));
	if (!err)
		err = load_sas(&dev, state, msg, sizeof(msg));
	if (err) {
		cmd_error("%s", msg);
		goto out;
	}

	if (hwxdp_pcap_writer__open(out_path, &out, msg, sizeof(msg)) ||
	    (punt_path && hwxdp_pcap_writer__open(punt_path, &punt, msg, sizeof(msg)))) {
		cmd_error("%s", msg);
		goto out;
	}
	for (i = 0; i < in_cnt; i++) {
		if (input_fill(&inputs[i], msg, sizeof(msg)) < 0) {
			cmd_error("%s", msg);
			goto out;
		}
	}
	for (;;) {
		struct run_input *in = next_input(inputs, in_cnt);

		if (!in)
			break;
		err = run_frame(&dev, in, sum, out, punt);
		if (err) {
			cmd_error("writing frame %llu of %s: %s", (unsigned long long)in->number,
				  in->path, strerror(-err));
			goto out;
		}
		if (input_fill(in, msg, sizeof(msg)) < 0) {
			cmd_error("%s", msg);
			goto out;
		}
	}
	err = hwxdp_pcap_writer__commit(out, msg, sizeof(msg));
	out = NULL;
	if (!err && punt) {
		err = hwxdp_pcap_writer__commit(punt, msg, sizeof(msg));
		punt = NULL;
	}
	if (err) {
		cmd_error("%s", msg);
		goto out;
	}
	print_summary(object, sum, &dev);
	ret = 0;
out:
	hwxdp_pcap_writer__abort(out);
	hwxdp_pcap_writer__abort(punt);
	for (i = 0; inputs && i < in_cnt; i++)
		hwxdp_pcap_reader__close(inputs[i].reader);
	free(inputs);
	free(sum);
	device_close(&dev);
	hx_state__free(state);
	return ret;
}
