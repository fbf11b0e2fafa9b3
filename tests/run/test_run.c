// SPDX-License-Identifier: GPL-2.0
/*
 * hwxdp run, the command, against the lab's device target: the same
 * program, map contents and frames give the same verdicts and bytes frame by
 * frame. And bad input is refused with a clear message, exit status 1 and
 * no output file written or touched.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/bpf.h>
/* pcap/bpf.h would define struct bpf_insn again, after linux/bpf.h. */
#define PCAP_DONT_INCLUDE_PCAP_BPF_H
#include <pcap/dlt.h>
#include <pcap/pcap.h>

#include <criterion/criterion.h>

#include "loader/object.h"
#include "fwdlab/fwd.h"
#include "fwdlab/fwd_lab.h"
#include "loader/state.h"
#include "lab/target.h"

#define PORTS HX_LAB_PORTS
static const uint32_t port_ifindex[PORTS] = { 11, 12, 13 };

struct case_frame {
	unsigned int port; /* 1-based */
	int family;
	uint8_t proto;
	int vlan;
	const char *src, *dst;
	uint8_t ttl;
	size_t payload;
	uint16_t ethertype;
	uint32_t nexthop;
	uint32_t sa_revision;
};

/* Every way a frame leaves: routed, tag added and removed, hairpin (tx),
 * and punts of several reasons, the tunnel flow without a key among them. */
static const struct case_frame frames[] = {
	{ 1, 4, IPPROTO_TCP, 50, "10.50.0.2", "10.2.0.1", 64, 1400, .nexthop = NH_P2 },
	{ 2, 4, IPPROTO_TCP, -1, "10.2.0.1", "10.50.0.2", 64, 0, .nexthop = NH_P1_V50 },
	{ 2, 6, IPPROTO_UDP, -1, "fd00:2::1", "fd00:50::2", 9, 100, .nexthop = NH_P1_V50 },
	{ 1, 4, IPPROTO_TCP, -1, "10.1.0.5", "10.1.0.6", 64, 64, .nexthop = NH_P1 },
	{ 1, 4, IPPROTO_TCP, -1, "10.1.0.7", "10.2.0.7", 1, 64, .nexthop = NH_P2 },
	{ 2, 4, IPPROTO_TCP, -1, "10.2.0.99", "10.1.0.99", 64, 64 },
	{ 1, 4, IPPROTO_TCP, 99, "10.99.0.1", "10.2.0.1", 64, 64 },
	{ 2, 0, 0, -1, NULL, NULL, 0, 28, .ethertype = 0x0806 },
	{ 2, 4, IPPROTO_ICMP, -1, "10.2.0.1", "10.1.0.1", 64, 56 },
	{ 3, 4, IPPROTO_UDP, -1, "10.3.0.4", "10.2.0.4", 64, 300, .nexthop = NH_P2 },
	{ 2, 4, IPPROTO_TCP, -1, "10.2.0.1", "10.3.0.1", 64, 256, .nexthop = NH_P3,
	  .sa_revision = HX_LAB_SA_REVISION },
	{ 1, 4, IPPROTO_UDP, 50, "10.50.0.3", "10.2.0.3", 64, 9, .nexthop = NH_P2 },
};
#define FRAME_CNT (sizeof(frames) / sizeof(frames[0]))

static char dir[64];
static char path_buf[8][256];

static const char *in_dir(int slot, const char *name)
{
	snprintf(path_buf[slot], sizeof(path_buf[slot]), "%s/%s", dir, name);
	return path_buf[slot];
}

static void spec_of(const struct case_frame *cf, struct hx_frame_spec *spec)
{
	hx_frame_spec_init(spec, cf->family);
	spec->proto = cf->proto;
	spec->vlan = cf->vlan;
	spec->ttl = cf->ttl;
	spec->payload_len = cf->payload;
	if (cf->family == 0)
		spec->ethertype = cf->ethertype;
	if (cf->family == 4) {
		hx_ipv4_addr(spec->src, cf->src);
		hx_ipv4_addr(spec->dst, cf->dst);
	} else if (cf->family == 6) {
		hx_ipv6_addr(spec->src, cf->src);
		hx_ipv6_addr(spec->dst, cf->dst);
	}
}

static uint32_t lif_of(const struct case_frame *cf)
{
	return HWXDP_LIF(cf->port, cf->vlan < 0 ? 0 : cf->vlan);
}

/* A target that keeps every map update as a state file entry: the lab's
 * own helpers then describe the tables, in the --maps format. */
struct recorder {
	const struct hwxdp_object *obj;
	size_t cnt;
	struct {
		size_t map;
		char *text; /* "\"key\": \"..\", \"value\": \"..\"" */
	} entry[64];
};

static void hex(FILE *f, const void *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		fprintf(f, "%02x", ((const uint8_t *)p)[i]);
}

static int record_update(struct hx_target *t, const char *map, const void *key, const void *value)
{
	struct recorder *r = t->priv;

	for (size_t i = 0; i < r->obj->map_cnt; i++) {
		const struct hwxdp_map_desc *m = &r->obj->maps[i];
		size_t len;
		FILE *f;

		if (strcmp(m->name, map))
			continue;
		cr_assert_lt(r->cnt, 64);
		f = open_memstream(&r->entry[r->cnt].text, &len);
		fprintf(f, "\"key\": \"");
		hex(f, key, m->key_size);
		fprintf(f, "\", \"value\": \"");
		hex(f, value, m->value_size);
		fprintf(f, "\"");
		fclose(f);
		r->entry[r->cnt++].map = i;
		return 0;
	}
	return -ENOENT;
}

static const struct hx_target_ops recorder_ops = { .name = "recorder",
						   .map_update = record_update };

static int fill(struct hx_target *t)
{
	struct hx_frame_spec spec;
	int err;

	err = hx_lab_topology(t, port_ifindex);
	for (size_t i = 0; !err && i < FRAME_CNT; i++) {
		if (!frames[i].nexthop)
			continue;
		spec_of(&frames[i], &spec);
		err = frames[i].sa_revision
			      ? hx_fwd_tunnel_flow(t, lif_of(&frames[i]), &spec, frames[i].nexthop,
						   HX_LAB_SA, frames[i].sa_revision)
			      : hx_fwd_flow(t, lif_of(&frames[i]), &spec, frames[i].nexthop);
	}
	return err;
}

/* The recorded entries, grouped by map. */
static void write_state(const char *path, const struct hwxdp_object *obj)
{
	static struct recorder r;
	struct hx_target t = { .ops = &recorder_ops, .priv = &r };
	bool first_map = true;
	FILE *out;

	r.obj = obj;
	r.cnt = 0;
	cr_assert_eq(fill(&t), 0);
	out = fopen(path, "w");
	cr_assert_not_null(out);
	fprintf(out, "{\n  \"maps\": {");
	for (size_t m = 0; m < obj->map_cnt; m++) {
		bool first = true;

		for (size_t i = 0; i < r.cnt; i++) {
			if (r.entry[i].map != m)
				continue;
			if (first)
				fprintf(out, "%s\n    \"%s\": [", first_map ? "" : ",",
					obj->maps[m].name);
			fprintf(out, "%s\n      { %s }", first ? "" : ",", r.entry[i].text);
			first = first_map = false;
		}
		if (!first)
			fprintf(out, "\n    ]");
	}
	fprintf(out, "\n  }\n}\n");
	fclose(out);
	for (size_t i = 0; i < r.cnt; i++)
		free(r.entry[i].text);
}

static void write_pcap(const char *path, int linktype, const uint8_t *const *data,
		       const size_t *len, const struct timeval *ts, size_t cnt)
{
	pcap_t *dead = pcap_open_dead(linktype, 65535);
	pcap_dumper_t *d = pcap_dump_open(dead, path);

	cr_assert_not_null(d, "%s", pcap_geterr(dead));
	for (size_t i = 0; i < cnt; i++) {
		struct pcap_pkthdr h = { .ts = ts[i],
					 .caplen = (bpf_u_int32)len[i],
					 .len = (bpf_u_int32)len[i] };

		pcap_dump((u_char *)d, &h, data[i]);
	}
	pcap_dump_close(d);
	pcap_close(dead);
}

/* Runs build/hwxdp with args; its exit status, stdout+stderr in out. */
static int hwxdp(char *out, size_t cap, const char *const *args)
{
	char bin[512];
	const char *argv[32] = { bin };
	int pipefd[2], status;
	size_t n = 0, argc = 1;
	ssize_t got;
	pid_t pid;

	snprintf(bin, sizeof(bin), "%s/hwxdp", hx_build_dir());
	for (; args[argc - 1]; argc++)
		argv[argc] = args[argc - 1];
	argv[argc] = NULL;
	cr_assert_eq(pipe(pipefd), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	close(pipefd[1]);
	while (n + 1 < cap && (got = read(pipefd[0], out + n, cap - n - 1)) > 0)
		n += (size_t)got;
	out[n] = '\0';
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static uint64_t json_number(const char *text, const char *name)
{
	char needle[64];
	const char *p;

	snprintf(needle, sizeof(needle), "\"%s\":", name);
	p = strstr(text, needle);
	cr_assert_not_null(p, "no %s in %s", name, text);
	return strtoull(p + strlen(needle), NULL, 10);
}

struct frames_read {
	size_t cnt;
	uint8_t data[32][HX_PKT_MAX + 64];
	size_t len[32];
	struct timeval ts[32];
};

static void read_pcap(const char *path, struct frames_read *fr)
{
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(path, err);
	struct pcap_pkthdr *h;
	const u_char *data;

	cr_assert_not_null(p, "%s: %s", path, err);
	fr->cnt = 0;
	while (pcap_next_ex(p, &h, &data) == 1) {
		cr_assert_lt(fr->cnt, 32);
		memcpy(fr->data[fr->cnt], data, h->caplen);
		fr->len[fr->cnt] = h->caplen;
		fr->ts[fr->cnt] = h->ts;
		fr->cnt++;
	}
	pcap_close(p);
}

static int device_update(void *ctx, const char *map, const void *key, const void *value)
{
	return hx_target_map_update(ctx, map, key, value);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/hwxdp-run-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
}

static size_t dir_entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* The lab frames, one capture per port, one frame a millisecond. */
static void write_lab_captures(uint8_t built[FRAME_CNT][HX_PKT_MAX], size_t *len,
			       struct timeval *ts)
{
	for (unsigned int port = 1; port <= PORTS; port++) {
		const uint8_t *data[FRAME_CNT];
		size_t lens[FRAME_CNT], cnt = 0;
		struct timeval stamps[FRAME_CNT];
		char name[32];

		for (size_t i = 0; i < FRAME_CNT; i++) {
			if (frames[i].port != port)
				continue;
			data[cnt] = built[i];
			lens[cnt] = len[i];
			stamps[cnt] = ts[i];
			cnt++;
		}
		snprintf(name, sizeof(name), "wire%u.pcap", port);
		write_pcap(in_dir(port - 1, name), DLT_EN10MB, data, lens, stamps, cnt);
	}
}

Test(run, lab_frames_match_device_target, .init = setup, .fini = teardown)
{
	static uint8_t built[FRAME_CNT][HX_PKT_MAX];
	static struct frames_read out, punt;
	static struct hx_result r;
	static char text[65536];
	size_t len[FRAME_CNT], want_fwd = 0, want_punt = 0, f = 0, p = 0;
	struct timeval ts[FRAME_CNT];
	const char *object = hx_object_path("fwd");
	struct hwxdp_object *obj;
	struct hx_state *state;
	struct hx_target *t;
	char msg[512], in_arg[PORTS][300];
	int status;

	cr_assert_eq(hwxdp_object__open(object, &obj), 0, "%s", object);
	write_state(in_dir(3, "state.json"), obj);
	for (size_t i = 0; i < FRAME_CNT; i++) {
		struct hx_frame_spec spec;

		spec_of(&frames[i], &spec);
		len[i] = hx_frame_build(&spec, built[i], HX_PKT_MAX);
		cr_assert_gt(len[i], 0);
		ts[i] = (struct timeval){ .tv_sec = 1000, .tv_usec = (suseconds_t)i * 1000 };
	}
	write_lab_captures(built, len, ts);

	/* The device target, filled from the same state file. */
	state = hx_state__new();
	cr_assert_eq(hx_state__load(state, in_dir(3, "state.json"), msg, sizeof(msg)), 0, "%s",
		     msg);
	t = hx_target_open("device", object);
	cr_assert_not_null(t);
	cr_assert_eq(hx_state__apply(state, obj, device_update, t, msg, sizeof(msg)), 0, "%s", msg);

	for (int i = 0; i < PORTS; i++)
		snprintf(in_arg[i], sizeof(in_arg[i]), "%u:%.255s", port_ifindex[i], path_buf[i]);
	{
		const char *args[] = { "-j",
				       "run",
				       object,
				       "--in",
				       in_arg[0],
				       "--in",
				       in_arg[1],
				       "--in",
				       in_arg[2],
				       "--maps",
				       in_dir(3, "state.json"),
				       "--out",
				       in_dir(4, "out.pcap"),
				       "--punt",
				       in_dir(5, "punt.pcap"),
				       NULL };

		status = hwxdp(text, sizeof(text), args);
	}
	cr_assert_eq(status, 0, "%s", text);
	read_pcap(path_buf[4], &out);
	read_pcap(path_buf[5], &punt);

	for (size_t i = 0; i < FRAME_CNT; i++) {
		cr_assert_eq(
			hx_target_run(t, port_ifindex[frames[i].port - 1], built[i], len[i], &r),
			0);
		if (r.action == XDP_TX || r.action == XDP_REDIRECT) {
			want_fwd++;
			cr_assert_lt(f, out.cnt, "frame %zu: forwarded on the target only", i);
			cr_assert_eq(out.len[f], r.len, "frame %zu", i);
			cr_assert_arr_eq(out.data[f], r.frame, r.len, "frame %zu", i);
			cr_assert_eq(out.ts[f].tv_usec, ts[i].tv_usec, "frame %zu", i);
			f++;
		} else if (r.action == XDP_PASS) {
			want_punt++;
			cr_assert_lt(p, punt.cnt, "frame %zu: punted on the target only", i);
			cr_assert_eq(punt.len[p], r.len, "frame %zu", i);
			cr_assert_arr_eq(punt.data[p], r.frame, r.len, "frame %zu", i);
			cr_assert_eq(punt.ts[p].tv_usec, ts[i].tv_usec, "frame %zu", i);
			p++;
		}
	}
	cr_assert_eq(out.cnt, want_fwd);
	cr_assert_eq(punt.cnt, want_punt);
	/* Both kinds occur, or the comparison proves little. */
	cr_assert_geq(want_fwd, 5);
	cr_assert_geq(want_punt, 5);
	cr_assert_eq(json_number(text, "frames_in"), FRAME_CNT);
	cr_assert_eq(json_number(text, "forwarded"), want_fwd);
	cr_assert_eq(json_number(text, "punted"), want_punt);
	/* The summary's punt reasons are the program's own counters. */
	cr_assert_eq(json_number(text, "flow-miss"), hx_fwd_punts(t, HWXDP_PUNT_FLOW_MISS));
	cr_assert_eq(json_number(text, "esp-failed"), hx_fwd_punts(t, HWXDP_PUNT_ESP_FAILED));
	cr_assert_eq(json_number(text, "ttl-exceeded"), 1);

	hx_target_close(t);
	hx_state__free(state);
	hwxdp_object__close(obj);
}

/* A good one-frame capture and state file to spoil one thing at a time. */
static void good_inputs(void)
{
	struct hx_frame_spec spec;
	static uint8_t frame[HX_PKT_MAX];
	const uint8_t *data[1] = { frame };
	struct timeval ts = { 1, 0 };
	size_t len;
	FILE *f;

	spec_of(&frames[1], &spec);
	len = hx_frame_build(&spec, frame, sizeof(frame));
	write_pcap(in_dir(0, "in.pcap"), DLT_EN10MB, data, &len, &ts, 1);
	f = fopen(in_dir(1, "state.json"), "w");
	fprintf(f, "{ \"maps\": { \"config\": [ { \"key\": 0, \"value\": "
		   "\"01000000 01000000 01000000 00000000\" } ] } }\n");
	fclose(f);
	/* An output from an earlier run, which a failed run must not touch. */
	f = fopen(in_dir(2, "out.pcap"), "w");
	fprintf(f, "earlier\n");
	fclose(f);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

/* Runs with --in IN --maps STATE --out OUT (and extra), expects exit 1 and
 * want in the message, the earlier output intact and nothing else written. */
static void expect_refused(const char *in, const char *maps, const char *extra, const char *want)
{
	static char text[8192];
	const char *args[16] = { "run",	  hx_object_path("fwd"), "--in",   in,
				 "--out", path_buf[2],		 "--punt", in_dir(3, "punt.pcap") };
	size_t n = 8, before = dir_entries();
	char earlier[64] = "";
	FILE *f;

	if (maps) {
		args[n++] = "--maps";
		args[n++] = maps;
	}
	if (extra) {
		args[n++] = "--sa";
		args[n++] = extra;
	}
	args[n] = NULL;
	cr_assert_eq(hwxdp(text, sizeof(text), args), 1, "%s", text);
	cr_assert_not_null(strstr(text, want), "message \"%s\" lacks \"%s\"", text, want);
	cr_assert_not_null(strstr(text, "hwxdp: error: "), "%s", text);
	f = fopen(path_buf[2], "r");
	cr_assert_not_null(fgets(earlier, sizeof(earlier), f));
	fclose(f);
	cr_assert_str_eq(earlier, "earlier\n");
	cr_assert_eq(dir_entries(), before, "a failed run left a file behind");
}

Test(run, good_inputs_run, .init = setup, .fini = teardown)
{
	static char text[8192];
	const char *args[] = {
		"run", hx_object_path("fwd"), "--in", NULL, "--maps", NULL, "--out", NULL, NULL
	};

	/* The inputs the refusals below spoil run as they are. */
	good_inputs();
	args[3] = path_buf[0];
	args[5] = path_buf[1];
	args[7] = path_buf[2];
	cr_assert_eq(hwxdp(text, sizeof(text), args), 0, "%s", text);
	cr_assert_not_null(strstr(text, "frames in"), "%s", text);
}

Test(run, missing_input, .init = setup, .fini = teardown)
{
	good_inputs();
	expect_refused(in_dir(4, "nothere.pcap"), path_buf[1], NULL, "No such file");
}

Test(run, not_a_pcap, .init = setup, .fini = teardown)
{
	good_inputs();
	write_file(in_dir(4, "text.pcap"), "this is not a capture\n");
	expect_refused(path_buf[4], path_buf[1], NULL, "not a pcap");
}

Test(run, truncated_pcap, .init = setup, .fini = teardown)
{
	struct stat st;

	good_inputs();
	cr_assert_eq(stat(path_buf[0], &st), 0);
	cr_assert_eq(truncate(path_buf[0], st.st_size - 5), 0);
	expect_refused(path_buf[0], path_buf[1], NULL, "truncated");
}

Test(run, not_ethernet, .init = setup, .fini = teardown)
{
	static const uint8_t ip[20] = { 0x45 };
	const uint8_t *data[1] = { ip };
	struct timeval ts = { 1, 0 };
	size_t len = sizeof(ip);

	good_inputs();
	write_pcap(in_dir(4, "raw.pcap"), DLT_RAW, data, &len, &ts, 1);
	expect_refused(path_buf[4], path_buf[1], NULL, "Ethernet (EN10MB) captures only");
}

Test(run, malformed_json, .init = setup, .fini = teardown)
{
	good_inputs();
	write_file(path_buf[1], "{ \"maps\": { \"config\": [ { \"key\": 0, \n \"value\" } ] } }");
	expect_refused(path_buf[0], path_buf[1], NULL, "state.json:2:10: expected ':'");
}

Test(run, unknown_map, .init = setup, .fini = teardown)
{
	good_inputs();
	write_file(path_buf[1],
		   "{ \"maps\": { \"confg\": [ { \"key\": 0, \"value\": \"00\" } ] } }");
	expect_refused(path_buf[0], path_buf[1], NULL, "the program has no map \"confg\"");
}

Test(run, wrong_value_size, .init = setup, .fini = teardown)
{
	good_inputs();
	write_file(path_buf[1],
		   "{ \"maps\": { \"config\": [ { \"key\": 0, \"value\": \"01000000\" } ] } }");
	expect_refused(path_buf[0], path_buf[1], NULL,
		       "maps.config[0].value: 4 bytes, but map config's value is 16 bytes");
}

Test(run, wrong_key_size, .init = setup, .fini = teardown)
{
	good_inputs();
	write_file(path_buf[1], "{ \"maps\": { \"ports\": [ { \"key\": \"0100\", "
				"\"value\": \"0100000000000000\" } ] } }");
	expect_refused(path_buf[0], path_buf[1], NULL,
		       "maps.ports[0].key: 2 bytes, but map ports's key is 4 bytes");
}

Test(run, bad_sa, .init = setup, .fini = teardown)
{
	good_inputs();
	expect_refused(path_buf[0], path_buf[1], "1:0x1001:0011:c0c1c2c3:192.0.2.1:198.51.100.1",
		       "the key is not 16, 24 or 32 bytes");
}

Test(run, sa_other_than_its_map_entry, .init = setup, .fini = teardown)
{
	good_inputs();
	write_file(path_buf[1],
		   "{ \"maps\": { \"sas\": [ { \"key\": 1, \"value\": "
		   "\"01000000 02000000 00001001 c0000201 c6336401 00000000\" } ] } }");
	expect_refused(path_buf[0], path_buf[1],
		       "1:0x2002:000102030405060708090a0b0c0d0e0f:c0c1c2c3:192.0.2.1:198.51.100.1",
		       "SA 1: the sas map has SPI 0x1001");
}

/* Every byte of a file; malloc'ed, length in *len. */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n ? (size_t)n : 1);
	cr_assert_not_null(buf);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The lab frames REPS times over, one capture per port. */
#define REPS 150

static void write_many_captures(void)
{
	static uint8_t built[FRAME_CNT][HX_PKT_MAX];
	size_t len[FRAME_CNT];

	for (size_t i = 0; i < FRAME_CNT; i++) {
		struct hx_frame_spec spec;

		spec_of(&frames[i], &spec);
		len[i] = hx_frame_build(&spec, built[i], HX_PKT_MAX);
		cr_assert_gt(len[i], 0);
	}
	for (unsigned int port = 1; port <= PORTS; port++) {
		static const uint8_t *data[FRAME_CNT * REPS];
		static size_t lens[FRAME_CNT * REPS];
		static struct timeval stamps[FRAME_CNT * REPS];
		size_t cnt = 0;
		char name[32];

		for (size_t r = 0; r < REPS; r++) {
			for (size_t i = 0; i < FRAME_CNT; i++) {
				if (frames[i].port != port)
					continue;
				data[cnt] = built[i];
				lens[cnt] = len[i];
				stamps[cnt] = (struct timeval){ .tv_sec = 1000 + (time_t)r,
								.tv_usec = (suseconds_t)i * 1000 };
				cnt++;
			}
		}
		snprintf(name, sizeof(name), "wire%u.pcap", port);
		write_pcap(in_dir(port - 1, name), DLT_EN10MB, data, lens, stamps, cnt);
	}
}

/* hwxdp -j run with the lab's captures and state, to out-TAG.pcap and
 * punt-TAG.pcap, and what is given after; exits 0. */
static void run_lab(char *text, size_t cap, const char *tag, const char *const *extra)
{
	static char in_arg[PORTS][300], out[300], punt[300];
	const char *args[40] = { "-j", "run" };
	size_t n = 2;

	for (int i = 0; i < PORTS; i++) {
		char name[32];

		snprintf(name, sizeof(name), "wire%d.pcap", i + 1);
		snprintf(in_arg[i], sizeof(in_arg[i]), "%u:%s/%s", port_ifindex[i], dir, name);
		args[n++] = "--in";
		args[n++] = in_arg[i];
	}
	snprintf(out, sizeof(out), "%s/out-%s.pcap", dir, tag);
	snprintf(punt, sizeof(punt), "%s/punt-%s.pcap", dir, tag);
	args[n++] = "--maps";
	args[n++] = in_dir(3, "state.json");
	args[n++] = "--out";
	args[n++] = out;
	args[n++] = "--punt";
	args[n++] = punt;
	for (size_t i = 0; extra[i]; i++)
		args[n++] = extra[i];
	args[n] = NULL;
	cr_assert_eq(hwxdp(text, cap, args), 0, "%s", text);
}

static void assert_same_file(const char *a, const char *b)
{
	size_t la, lb;
	uint8_t *x = slurp(in_dir(6, a), &la), *y = slurp(in_dir(7, b), &lb);

	cr_assert_eq(la, lb, "%s: %zu bytes, %s: %zu", a, la, b, lb);
	cr_assert_eq(memcmp(x, y, la), 0, "%s and %s differ", a, b);
	free(x);
	free(y);
}

/* One engine or four: the same frames out in the same order, the same
 * counts. */
Test(run, engines_give_the_same_output, .init = setup, .fini = teardown)
{
	static char one[65536], four[65536];
	static const char *const k1[] = { "--engines", "1", NULL };
	static const char *const k4[] = { "--engines", "4", NULL };
	static const char *const fields[] = { "frames_in", "forwarded",	   "punted", "dropped",
					      "flow-miss", "ttl-exceeded", "cycles", NULL };
	const char *object = hx_object_path("fwd");
	struct hwxdp_object *obj;
	size_t busy = 0;
	const char *p;

	cr_assert_eq(hwxdp_object__open(object, &obj), 0, "%s", object);
	write_state(in_dir(3, "state.json"), obj);
	hwxdp_object__close(obj);
	write_many_captures();
	{
		const char *a1[] = { object, k1[0], k1[1], NULL };
		const char *a4[] = { object, k4[0], k4[1], NULL };

		run_lab(one, sizeof(one), "1", a1);
		run_lab(four, sizeof(four), "4", a4);
	}
	assert_same_file("out-1.pcap", "out-4.pcap");
	assert_same_file("punt-1.pcap", "punt-4.pcap");
	for (size_t i = 0; fields[i]; i++)
		cr_assert_eq(json_number(one, fields[i]), json_number(four, fields[i]), "%s",
			     fields[i]);
	cr_assert_eq(json_number(one, "frames_in"), FRAME_CNT * REPS);
	cr_assert_eq(json_number(one, "engines"), 1);
	cr_assert_eq(json_number(four, "engines"), 4);
	/* Four engines, each with a share of the frames. */
	p = strstr(four, "\"engine_frames\":");
	cr_assert_not_null(p);
	p = strchr(p, '[');
	for (int e = 0; e < 4; e++) {
		char *end;

		busy += strtoull(p + 1, &end, 10) > 0;
		p = end;
	}
	cr_assert_geq(busy, 2, "%s", four);
}

/* A program per port; a port without one passes its frames to the host. */
Test(run, program_per_port, .init = setup, .fini = teardown)
{
	static char text[65536];
	static char p11[300], p12[300];
	const char *object = hx_object_path("fwd");
	const char *extra[] = { "--port", p11, "--port", p12, NULL };
	size_t want_none = 0;
	struct hwxdp_object *obj;
	const char *ports;

	cr_assert_eq(hwxdp_object__open(object, &obj), 0, "%s", object);
	write_state(in_dir(3, "state.json"), obj);
	hwxdp_object__close(obj);
	write_many_captures();
	snprintf(p11, sizeof(p11), "%u:%s", port_ifindex[0], object);
	snprintf(p12, sizeof(p12), "%u:%s", port_ifindex[1], object);
	run_lab(text, sizeof(text), "ports", extra);
	for (size_t i = 0; i < FRAME_CNT; i++)
		want_none += frames[i].port == 3;
	want_none *= REPS;
	cr_assert_eq(json_number(text, "no_program"), want_none, "%s", text);
	cr_assert_eq(json_number(text, "frames_in"), FRAME_CNT * REPS);
	/* One object on two ports is one program in the store. */
	ports = strstr(text, "\"programs\":");
	cr_assert_not_null(ports);
	cr_assert_null(strstr(strstr(ports, "\"file\":") + 1, "\"file\":"), "%s", text);
	ports = strstr(text, "\"ports\":");
	cr_assert_not_null(ports);
	cr_assert_not_null(strstr(ports, "\"program\":null"), "%s", text);
	cr_assert_eq(json_number(strstr(ports, "\"ifindex\":13"), "no_program"), want_none);
}

/* The flow table is the board's size: 2,000,000 by default, --table sets
 * another, and a table too small for the state is refused. */
Test(run, table_sizes, .init = setup, .fini = teardown)
{
	static char text[65536];
	const char *object = hx_object_path("fwd");
	struct hwxdp_object *obj;
	const char *args[] = { "run",	object, "--in",	   NULL, "--maps", NULL,
			       "--out", NULL,	"--table", NULL, NULL };
	uint64_t big, small;

	cr_assert_eq(hwxdp_object__open(object, &obj), 0, "%s", object);
	write_state(in_dir(3, "state.json"), obj);
	hwxdp_object__close(obj);
	write_many_captures();
	{
		const char *none[] = { object, NULL };
		const char *set[] = { object, "--table", "flows=1000", NULL };

		run_lab(text, sizeof(text), "big", none);
		big = json_number(text, "table_bytes");
		run_lab(text, sizeof(text), "small", set);
		small = json_number(text, "table_bytes");
	}
	/* 2,000,000 flows of about 91 bytes against 1,000. */
	cr_assert_gt(big, small + 150000000, "%llu / %llu", (unsigned long long)big,
		     (unsigned long long)small);
	cr_assert_lt(big, small + 2000000ull * 96);

	args[3] = in_dir(0, "wire1.pcap");
	args[5] = in_dir(3, "state.json");
	args[7] = in_dir(4, "x.pcap");
	args[9] = "flows=2";
	cr_assert_eq(hwxdp(text, sizeof(text), args), 1, "%s", text);
	cr_assert_not_null(strstr(text, "flows"), "%s", text);
	args[9] = "flowz=2";
	cr_assert_eq(hwxdp(text, sizeof(text), args), 1, "%s", text);
	cr_assert_not_null(strstr(text, "no map \"flowz\""), "%s", text);
	args[9] = "flows=0";
	cr_assert_eq(hwxdp(text, sizeof(text), args), 1, "%s", text);
	cr_assert_not_null(strstr(text, "NAME=ENTRIES"), "%s", text);
	args[9] = "fwd.rodata=5";
	cr_assert_eq(hwxdp(text, sizeof(text), args), 1, "%s", text);
	cr_assert_not_null(strstr(text, "global data"), "%s", text);
}

/* Whether two files hold the same bytes (both must exist). */
static bool same_bytes(const char *a, const char *b)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", a, b);
	return system(cmd) == 0;
}

/* A shell command line run from the test's folder; its exit status. */
static int shell(const char *fmt, const char *object)
{
	char cmd[4096], line[3000], build[PATH_MAX];

	cr_assert_not_null(realpath(hx_build_dir(), build));
	snprintf(line, sizeof(line), fmt, build, object);
	snprintf(cmd, sizeof(cmd), "cd '%s' && %s", dir, line);
	return WEXITSTATUS(system(cmd));
}

/*
 * "-" for a capture, a state file, the object and an output: the same bytes
 * out as the run on files, whether standard input and output are files or
 * pipes; the summary leaves standard output to the capture.
 */
Test(run, dash_is_standard_input_and_output, .init = setup, .fini = teardown)
{
	static uint8_t built[FRAME_CNT][HX_PKT_MAX];
	size_t len[FRAME_CNT];
	struct timeval ts[FRAME_CNT];
	const char *object = hx_object_path("fwd");
	struct hwxdp_object *obj;
	static struct frames_read out;
	char obj_abs[PATH_MAX];
	FILE *f;
	char text[4096];
	size_t n;

	cr_assert_not_null(realpath(object, obj_abs));
	cr_assert_eq(hwxdp_object__open(object, &obj), 0, "%s", object);
	write_state(in_dir(3, "state.json"), obj);
	hwxdp_object__close(obj);
	for (size_t i = 0; i < FRAME_CNT; i++) {
		struct hx_frame_spec spec;

		spec_of(&frames[i], &spec);
		len[i] = hx_frame_build(&spec, built[i], HX_PKT_MAX);
		ts[i] = (struct timeval){ .tv_sec = 1000, .tv_usec = (suseconds_t)i * 1000 };
	}
	write_lab_captures(built, len, ts);

#define RUN "%s/hwxdp run %s --in 12:wire2.pcap --in 11:wire1.pcap "
	/* the oracle: the same run on files */
	cr_assert_eq(
		shell(RUN "--maps state.json --out out.pcap --punt punt.pcap >sum.txt", obj_abs),
		0);
	read_pcap(in_dir(6, "out.pcap"), &out);
	cr_assert_gt(out.cnt, 0, "the run forwarded nothing: no test");

	/* a capture on standard input (a file), forwarded frames on
	 * standard output (a file) */
	cr_assert_eq(shell("%s/hwxdp run %s --in 12:- --in 11:wire1.pcap --maps state.json "
			   "--out - --punt p1.pcap <wire2.pcap >o1.pcap 2>s1.txt",
			   obj_abs),
		     0);
	cr_expect(same_bytes(in_dir(0, "out.pcap"), in_dir(1, "o1.pcap")), "--out - differs");
	cr_expect(same_bytes(in_dir(0, "punt.pcap"), in_dir(1, "p1.pcap")), "--punt differs");
	/* the summary went to standard error, as the file run printed it */
	cr_expect(same_bytes(in_dir(0, "sum.txt"), in_dir(1, "s1.txt")), "the summary differs");

	/* pipes both ways, punted frames on standard output */
	cr_assert_eq(shell("cat wire2.pcap | %s/hwxdp run %s --in 12:- --in 11:wire1.pcap "
			   "--maps state.json --out o2.pcap --punt - 2>/dev/null | cat >p2.pcap",
			   obj_abs),
		     0);
	cr_expect(same_bytes(in_dir(0, "out.pcap"), in_dir(1, "o2.pcap")));
	cr_expect(same_bytes(in_dir(0, "punt.pcap"), in_dir(1, "p2.pcap")), "--punt - differs");

	/* the state file on standard input */
	cr_assert_eq(shell("cat state.json | " RUN "--maps - --out o3.pcap --punt p3.pcap "
			   ">/dev/null",
			   obj_abs),
		     0);
	cr_expect(same_bytes(in_dir(0, "out.pcap"), in_dir(1, "o3.pcap")), "--maps - differs");
	cr_expect(same_bytes(in_dir(0, "punt.pcap"), in_dir(1, "p3.pcap")));

	/* the object on standard input, through a pipe */
	cr_assert_eq(shell("cat %2$s | %1$s/hwxdp run - --in 12:wire2.pcap --in 11:wire1.pcap "
			   "--maps state.json --out o4.pcap --punt p4.pcap >/dev/null",
			   obj_abs),
		     0);
	cr_expect(same_bytes(in_dir(0, "out.pcap"), in_dir(1, "o4.pcap")), "FILE.o - differs");
	cr_expect(same_bytes(in_dir(0, "punt.pcap"), in_dir(1, "p4.pcap")));

	/* standard input is read once; standard output takes one file */
	cr_expect_neq(shell("%s/hwxdp run %s --in 12:- --maps - --out o5.pcap <wire2.pcap "
			    ">/dev/null 2>e5.txt",
			    obj_abs),
		      0);
	f = fopen(in_dir(2, "e5.txt"), "r");
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	cr_expect(strstr(text, "standard input is read once") != NULL, "%s", text);
	cr_expect_neq(shell("%s/hwxdp run %s --in 12:wire2.pcap --out - --punt - >/dev/null "
			    "2>e6.txt",
			    obj_abs),
		      0);
	f = fopen(in_dir(2, "e6.txt"), "r");
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	cr_expect(strstr(text, "standard output takes one file") != NULL, "%s", text);
#undef RUN
}
