// SPDX-License-Identifier: GPL-2.0
/*
 * The corpus harness: for each program of each object, the kernel's verdict
 * (the oracle), hwxdp's host verifier, the device's verifier and translator,
 * and for a translated program a differential run of frames through the
 * kernel (BPF_PROG_TEST_RUN) and the device with the same starting maps.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "device/engine.h"
#include "device/tables.h"
#include "hwmap/hxu.h"
#include "hwxdp/fwd.h"
#include "loader/kfuncs.h"
#include "loader/object.h"
#include "lab/bpf_count.h"
#include "lab/pkt.h"
#include "lab/target.h"
#include "loader/device.h"
#include "base/file.h"
#include "base/log.h"
#include "loader/legacy_maps.h"
#include "tests/corpus/corpus.h"
#include "tests/corpus/live.h"
#include "tests/corpus/tap.h"
#include "tests/devdiff/pair.h"
#include "verifier/disasm.h"
#include "verifier/verifier.h"

#define KLOG_SIZE  (16u << 20)
#define SHOW_DIFFS 3
#define INGRESS_LO 1 /* lo: an ifindex the kernel knows, no lab port */
#define UNBOUND	   CORPUS_UNBOUND
#ifndef BPF_F_XDP_DEV_BOUND_ONLY
#define BPF_F_XDP_DEV_BOUND_ONLY (1U << 6)
#endif

static char *klog;

unsigned int corpus_frame_count(void)
{
	const char *n = getenv("HWXDP_CORPUS_FRAMES");
	const char *l = getenv("HWXDP_CORPUS_LONG");

	if (n && atoi(n) > 0)
		return (unsigned int)atoi(n);
	if (l && !strcmp(l, "1"))
		return 3000;
	return 300;
}

/* Reasons name sources relative to the tree: the worktree's path is noise. */
static void strip_cwd(char *buf)
{
	static char cwd[4096];
	size_t n;
	char *p;

	if (!cwd[0] && !getcwd(cwd, sizeof(cwd) - 1))
		return;
	n = strlen(cwd);
	if (cwd[n - 1] != '/') {
		cwd[n++] = '/';
		cwd[n] = 0;
	}
	while ((p = strstr(buf, cwd)))
		memmove(p, p + n, strlen(p + n) + 1);
}

static void say(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	strip_cwd(buf);
}

/* The kernel log's last figure after key ("processed ", "verification time "). */
static uint64_t log_number(const char *log, const char *key)
{
	const char *p = NULL, *q = log;

	while (q && (q = strstr(q, key))) {
		p = q;
		q += strlen(key);
	}
	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/* A rejection's reason: the log's last line that is not a statistic. */
static void log_reason(const char *log, char *out, size_t len)
{
	const char *last = NULL, *p = log;
	size_t n;

	while (p && *p) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l && strncmp(p, "processed ", 10) && strncmp(p, "verification time", 17) &&
		    strncmp(p, "stack depth", 11) && strncmp(p, "-- END PROG LOAD LOG", 20))
			last = p;
		p = e ? e + 1 : NULL;
	}
	if (!last) {
		say(out, len, "(no log)");
		return;
	}
	n = strcspn(last, "\n");
	say(out, len, "%.*s", (int)n, last);
}

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	(void)fmt;
	(void)args;
	return 0;
}

static int quiet_hwxdp(enum hwxdp_print_level level, const char *fmt, va_list args)
{
	(void)level;
	(void)fmt;
	(void)args;
	return 0;
}

static bool is_xdp(const struct hwxdp_prog *p)
{
	return p->type == BPF_PROG_TYPE_XDP;
}

/* The image libbpf reads an object with legacy maps from, until it is closed. */
static void *legacy_image;

/*
 * The object with its maps pinned nowhere: libbpf would pin one declared
 * LIBBPF_PIN_BY_NAME as /sys/fs/bpf/NAME, and one object's pin would reach
 * another's load (a map of that name, reused) and outlive the run. Legacy
 * maps (struct bpf_map_def), which libbpf 1.x refuses, are rewritten as the
 * host copy has them (loader/legacy_maps.c).
 */
static struct bpf_object *open_for_kernel(const char *path)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts);
	struct bpf_object *bobj = NULL;
	char name[BPF_OBJ_NAME_LEN];
	const char *base = strrchr(path, '/');
	size_t size = 0, image_size;
	struct bpf_map *m;
	void *data = NULL;
	int err;

	err = hwxdp_file__read(path, "objects", HWXDP_FILE_OBJECT_MAX, &data, &size, NULL, 0);
	err = err ?: hwxdp_legacy_maps_rewrite(data, size, path, &legacy_image, &image_size);
	free(data);
	/* not one to rewrite: libbpf says why it cannot open it, if it cannot */
	if (err < 0) {
		free(legacy_image);
		legacy_image = NULL;
	}
	snprintf(name, sizeof(name), "%s", base ? base + 1 : path);
	name[strcspn(name, ".")] = 0;
	opts.object_name = name;
	bobj = legacy_image ? bpf_object__open_mem(legacy_image, image_size, &opts)
			    : bpf_object__open_file(path, NULL);
	if (bobj)
		bpf_object__for_each_map(m, bobj)
		{
			if (bpf_map__pin_path(m))
				bpf_map__set_pin_path(m, NULL);
		}
	return bobj;
}

static void close_for_kernel(struct bpf_object *bobj)
{
	bpf_object__close(bobj);
	free(legacy_image);
	legacy_image = NULL;
}

/* Step 1 with libbpf: this program alone loaded, with the verifier's log;
 * bound to netdev ifindex when not 0. */
static void kernel_verdict_bound(const char *path, struct corpus_row *r, unsigned int ifindex)
{
	struct bpf_object *bobj = open_for_kernel(path);
	struct bpf_program *p, *mine = NULL;
	char why[CORPUS_REASON_MAX];
	int err;

	if (!bobj) {
		say(r->kernel_reason, sizeof(r->kernel_reason), "libbpf cannot open it: %s",
		    strerror(errno));
		return;
	}
	bpf_object__for_each_program(p, bobj)
	{
		bool me = !strcmp(bpf_program__name(p), r->prog);

		bpf_program__set_autoload(p, me);
		if (me)
			mine = p;
	}
	if (!mine) {
		say(r->kernel_reason, sizeof(r->kernel_reason), "libbpf does not see it");
		close_for_kernel(bobj);
		return;
	}
	/* old loaders took any "xdp*" or "prog" section as XDP; libbpf 1.x needs telling */
	if (bpf_program__type(mine) != BPF_PROG_TYPE_XDP)
		bpf_program__set_type(mine, BPF_PROG_TYPE_XDP);
	if (ifindex) {
		bpf_program__set_ifindex(mine, ifindex);
		bpf_program__set_flags(mine, bpf_program__flags(mine) | BPF_F_XDP_DEV_BOUND_ONLY);
	}
	klog[0] = 0;
	bpf_program__set_log_buf(mine, klog, KLOG_SIZE);
	bpf_program__set_log_level(mine, 1 | 4);
	err = bpf_object__load(bobj);
	log_reason(klog, why, sizeof(why));
	if (err && strstr(klog, "processed ") && !strcmp(why, "(no log)")) {
		/*
		 * Verified (a log of statistics only), and yet not loaded:
		 * libbpf fills a program array its definition initialises
		 * (`.values = { [i] = &prog }`) only with programs it loaded.
		 * A loader loads them all.
		 */
		close_for_kernel(bobj);
		bobj = open_for_kernel(path);
		mine = bobj ? bpf_object__find_program_by_name(bobj, r->prog) : NULL;
		if (!mine) {
			say(r->kernel_reason, sizeof(r->kernel_reason),
			    "libbpf cannot open it again");
			close_for_kernel(bobj);
			return;
		}
		bpf_object__for_each_program(p, bobj)
		{
			if (bpf_program__type(p) == BPF_PROG_TYPE_UNSPEC)
				bpf_program__set_type(p, BPF_PROG_TYPE_XDP);
		}
		klog[0] = 0;
		bpf_program__set_log_buf(mine, klog, KLOG_SIZE);
		bpf_program__set_log_level(mine, 1 | 4);
		err = bpf_object__load(bobj);
	}
	r->kernel_ok = !err;
	r->kernel_insns = (uint32_t)log_number(klog, "processed ");
	r->kernel_usec = log_number(klog, "verification time ");
	if (err)
		log_reason(klog, r->kernel_reason, sizeof(r->kernel_reason));
	close_for_kernel(bobj);
}

/*
 * A program the kernel refuses unbound for its XDP metadata kfuncs is
 * loaded as its loader would load it: bound to a netdev (a TAP here).
 */
static void kernel_verdict_libbpf(const char *path, struct corpus_row *r)
{
	struct tap_net t;
	char why[CORPUS_REASON_MAX];

	kernel_verdict_bound(path, r, 0);
	if (r->kernel_ok || !strstr(r->kernel_reason, UNBOUND))
		return;
	if (tap_net_open(&t, why, sizeof(why))) {
		fprintf(stderr, "corpus: %s: no TAP to bind it to: %s\n", r->prog, why);
		return;
	}
	r->kernel_reason[0] = 0;
	r->kernel_bound = true;
	kernel_verdict_bound(path, r, t.ifindex);
	tap_net_close(&t);
}

/* Where and why hwxdp's verifier refused: "insn N (disasm) line: message". */
static void hwxdp_reason(const struct hwxdp_prog *prog, const struct hwxdp_verify_result *res,
			 char *out, size_t len)
{
	const struct hwxdp_line *line = hwxdp_prog__line(prog, res->error_insn);
	char msg[CORPUS_REASON_MAX], text[96] = "";

	log_reason(res->log ? res->log : "", msg, sizeof(msg));
	strip_cwd(msg);
	if (res->error_insn < prog->insn_cnt)
		hwxdp_disasm_insn(&prog->insns[res->error_insn], prog->insn_cnt - res->error_insn,
				  text, sizeof(text));
	say(out, len, "insn %u (%s) line %u: %s", res->error_insn, text, line ? line->line : 0,
	    msg);
}

/*
 * Step 2: hwxdp's verifier on the host target, as `hwxdp verify --target
 * host`; bound (--dev-bound) where the kernel's copy is, after a verdict as
 * unbound, in host_unbound_reason.
 */
static void host_verdict(const char *path, struct corpus_row *r)
{
	struct hwxdp_object_open_opts oo = { .sz = sizeof(oo), .kfuncs = hwxdp_kernel_kfuncs };
	struct hwxdp_verify_opts vo = { .sz = sizeof(vo), .device = false, .log_level = 1 };
	struct hwxdp_verify_result *res = NULL;
	uint32_t target = HWXDP_TARGET_HOST;
	const struct hwxdp_prog *prog;
	struct hwxdp_object *obj;
	int err;

	err = hwxdp_object__open_opts(path, &oo, &obj);
	if (err) {
		say(r->host_reason, sizeof(r->host_reason), "cannot open: %s", hwxdp_strerror(err));
		return;
	}
	hwxdp_object__set_global(obj, "hwxdp_target", &target, sizeof(target));
	prog = hwxdp_object__find_prog(obj, r->prog);
	if (prog && r->kernel_bound && !hwxdp_verify(obj, prog, &vo, &res)) {
		if (res->accepted)
			say(r->host_unbound_reason, sizeof(r->host_unbound_reason), "accepted");
		else
			hwxdp_reason(prog, res, r->host_unbound_reason,
				     sizeof(r->host_unbound_reason));
		hwxdp_verify_result__free(res);
		res = NULL;
	}
	vo.dev_bound = r->kernel_bound;
	err = prog ? hwxdp_verify(obj, prog, &vo, &res) : -ENOENT;
	if (err) {
		say(r->host_reason, sizeof(r->host_reason), "the verifier could not run: %s",
		    hwxdp_strerror(err));
	} else {
		r->host_ok = res->accepted;
		r->host_insns = res->insns_processed;
		r->host_ns = res->verify_ns;
		if (!res->accepted)
			hwxdp_reason(prog, res, r->host_reason, sizeof(r->host_reason));
	}
	hwxdp_verify_result__free(res);
	hwxdp_object__close(obj);
}

/* Step 3: verified for the device and translated, as the loader does. */
static void device_verdict(const char *path, struct corpus_row *r)
{
	struct hwxdp_verify_opts vo = { .sz = sizeof(vo), .device = true, .log_level = 1 };
	struct hwxdp_verify_result *res = NULL;
	uint32_t target = HWXDP_TARGET_DEVICE;
	struct hwxdp_device_prog_opts dopts = { .sz = sizeof(dopts), .prog = r->prog };
	struct hwxdp_device_prog *dp = NULL;
	const struct hwxdp_prog *prog;
	struct hwxdp_object *obj;
	char msg[CORPUS_REASON_MAX];
	int err;

	/* the device's verifier first, for the instruction and message of a refusal */
	err = hwxdp_object__open(path, &obj);
	if (err) {
		say(r->device_reason, sizeof(r->device_reason), "cannot open: %s",
		    hwxdp_strerror(err));
		return;
	}
	hwxdp_object__set_global(obj, "hwxdp_target", &target, sizeof(target));
	prog = hwxdp_object__find_prog(obj, r->prog);
	err = prog ? hwxdp_verify(obj, prog, &vo, &res) : -ENOENT;
	if (err || !res->accepted) {
		if (err) {
			say(r->device_reason, sizeof(r->device_reason),
			    "the verifier could not run: %s", hwxdp_strerror(err));
		} else {
			hwxdp_reason(prog, res, msg, sizeof(msg));
			say(r->device_reason, sizeof(r->device_reason), "device verifier: %s", msg);
		}
		hwxdp_verify_result__free(res);
		hwxdp_object__close(obj);
		return;
	}
	hwxdp_verify_result__free(res);
	hwxdp_object__close(obj);

	msg[0] = 0;
	err = hwxdp_device_prog__open_opts(path, &dopts, &dp, msg, sizeof(msg));
	if (err) {
		say(r->device_reason, sizeof(r->device_reason), "translate: %s",
		    msg[0] ? msg : hwxdp_strerror(err));
		return;
	}
	r->device_ok = true;
	r->bpf_insns = (uint32_t)dp->prog->insn_cnt;
	r->image_ops = dp->img->op_cnt;
	hwxdp_device_prog__close(dp);
}

/* ---- frames ---- */

static uint64_t xs(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static const char *const v4_pool[] = { "10.0.0.1",    "10.0.1.1", "10.0.0.2",
				       "192.168.1.1", "10.0.1.7", "172.16.0.9" };
static const char *const v6_pool[] = { "fd00::1", "fd00:1::1", "fd00::2", "2001:db8::5" };
static const uint16_t port_pool[] = { 80, 53, 9, 22, 443, 40000, 8080, 0 };

/*
 * GRE frames get a GRE header (version 0 mostly, with checksum, key and
 * sequence words or not, an inner IPv4 or IPv6 protocol or another) where
 * the builder puts a plain payload, and half the IPv6 frames with a routing
 * header get a segment routing header (type 4) of two segments, the pool's
 * addresses, with one or two segments left.
 */
static size_t tunnel_frame(uint64_t *s, const struct hx_frame_spec *sp, uint8_t *buf, size_t len,
			   size_t cap)
{
	static const uint16_t gre_flags[] = { 0, 0x2000, 0x8000, 0xb000, 0x0001, 0x4000 };
	static const uint16_t gre_protos[] = { 0x0800, 0x86dd, 0x0800, 0x6558 };
	size_t l3 = 14 + (sp->outer_tpid ? 4 : 0) + (sp->vlan >= 0 ? 4 : 0);

	if (sp->family == 4 && sp->proto == 47 && sp->payload_len >= 32) {
		uint8_t *g = buf + l3 + 20 + sp->ip_options_len;
		uint16_t fl = gre_flags[xs(s) % 6], pr = gre_protos[xs(s) % 4];
		size_t at = 4;

		g[0] = (uint8_t)(fl >> 8);
		g[1] = (uint8_t)fl;
		g[2] = (uint8_t)(pr >> 8);
		g[3] = (uint8_t)pr;
		/* optional words, then the inner version byte */
		for (int b = 0; b < 3; b++)
			if (fl & (0x8000 >> (b == 0 ? 0 : b + 1)))
				for (int k = 0; k < 4; k++)
					g[at++] = (uint8_t)xs(s);
		g[at] = pr == 0x86dd ? 0x60 : 0x45;
		return len;
	}
	if (sp->family == 6 && sp->has_ipv6_ext && sp->ipv6_ext == 43 && (xs(s) & 1) &&
	    len + 32 <= cap) {
		uint8_t *ip = buf + l3, *rh = ip + 40;
		uint16_t plen = (uint16_t)(ip[4] << 8 | ip[5]);

		memmove(rh + 40, rh + 8, len - (size_t)(rh + 8 - buf));
		rh[1] = 4; /* two segments */
		rh[2] = 4;
		rh[3] = (uint8_t)(1 + xs(s) % 2);
		rh[4] = 1;
		memset(rh + 5, 0, 3);
		hx_ipv6_addr(rh + 8, v6_pool[xs(s) % 4]);
		hx_ipv6_addr(rh + 24, v6_pool[xs(s) % 4]);
		plen = (uint16_t)(plen + 32);
		ip[4] = (uint8_t)(plen >> 8);
		ip[5] = (uint8_t)plen;
		return len + 32;
	}
	return len;
}

/* One valid frame of the family, protocol, tags and sizes the seed picks. */
static size_t valid_frame(uint64_t *s, uint8_t *buf, size_t cap)
{
	static const uint8_t protos[] = { 6, 17, 1, 6, 17, 1, 47, 50 };
	static const size_t payloads[] = { 0, 1, 18, 32, 64, 100, 300, 700, 1400 };
	struct hx_frame_spec sp;
	uint64_t r = xs(s);
	int family = r % 10 == 0 ? 0 : (r % 3 == 0 ? 6 : 4);
	size_t len;

	hx_frame_spec_init(&sp, family);
	r >>= 4;
	sp.proto = protos[r % 8];
	if (sp.proto == 1 && family == 6)
		sp.proto = 58;
	r >>= 3;
	switch (r % 5) {
	case 0:
	case 1:
		sp.vlan = -1;
		break;
	case 2:
	case 3:
		sp.vlan = (int)(xs(s) % 4096);
		break;
	default:
		sp.vlan = (int)(xs(s) % 4096);
		sp.outer_tpid = (xs(s) & 1) ? 0x88a8 : 0x8100;
		sp.outer_vid = (uint16_t)(xs(s) % 4096);
		break;
	}
	r >>= 3;
	if (family == 4) {
		hx_ipv4_addr(sp.src, v4_pool[xs(s) % 6]);
		hx_ipv4_addr(sp.dst, v4_pool[xs(s) % 6]);
		if (xs(s) % 8 == 0)
			sp.ip_options_len = (uint8_t)(4 * (xs(s) % 10));
		if (xs(s) % 12 == 0)
			sp.frag = (xs(s) & 1) ? 0x2000 : 0x0010;
	} else if (family == 6) {
		hx_ipv6_addr(sp.src, v6_pool[xs(s) % 4]);
		hx_ipv6_addr(sp.dst, v6_pool[xs(s) % 4]);
		if (xs(s) % 8 == 0) {
			static const uint8_t ext[] = { 0, 43, 60, 44 };

			sp.has_ipv6_ext = true;
			sp.ipv6_ext = ext[xs(s) % 4];
		}
	} else {
		static const uint16_t types[] = { 0x0806, 0x88b5, 0x8847, 0x0800, 0x86dd };

		sp.ethertype = types[xs(s) % 5];
	}
	sp.sport = port_pool[xs(s) % 8];
	sp.dport = port_pool[xs(s) % 8];
	sp.ttl = (uint8_t)((xs(s) % 6 == 0) ? xs(s) % 3 : 64);
	sp.tos = (uint8_t)(xs(s) % 4);
	sp.ip_id = (uint16_t)xs(s);
	sp.payload_len = payloads[xs(s) % 9];
	if (xs(s) & 1) {
		sp.dmac[5] = (uint8_t)(xs(s) % 4);
		sp.smac[0] = (xs(s) % 4) ? 0x02 : 0xff;
	}
	len = hx_frame_build(&sp, buf, cap);
	if (!len) {
		hx_frame_spec_init(&sp, 4);
		len = hx_frame_build(&sp, buf, cap);
	}
	return tunnel_frame(s, &sp, buf, len, cap);
}

/* Frame i of a run: valid ones, every truncation of a valid frame's first
 * 90 bytes, random bytes behind a plausible ethertype, and mutations. */
static size_t frame_at(uint64_t seed, unsigned int i, uint8_t *buf, size_t cap)
{
	uint64_t s = seed ^ ((uint64_t)(i / 100 + 1) * 0x9e3779b97f4a7c15ull);
	unsigned int kind = i % 100;
	size_t len;

	if (!s)
		s = 1;
	for (int k = 0; k < 3; k++)
		xs(&s);
	if (kind < 40) {
		for (unsigned int k = 0; k < kind; k++)
			xs(&s);
		return valid_frame(&s, buf, cap);
	}
	if (kind < 70) {
		/* one base frame for the block, cut at 30 successive lengths */
		size_t full = valid_frame(&s, buf, cap);
		size_t cut = (size_t)(kind - 40) * 3 + (i / 100) % 3;

		return cut < full ? cut : full;
	}
	for (unsigned int k = 0; k < kind; k++)
		xs(&s);
	if (kind < 80) {
		static const uint16_t types[] = { 0x0800, 0x86dd, 0x8100, 0x88a8, 0x0806, 0x1234 };
		uint16_t t = types[xs(&s) % 6];

		len = 14 + xs(&s) % 180;
		for (size_t k = 0; k < len; k++)
			buf[k] = (uint8_t)xs(&s);
		buf[12] = (uint8_t)(t >> 8);
		buf[13] = (uint8_t)t;
		if (t == 0x0800 && len > 14)
			buf[14] = (uint8_t)(0x40 | (buf[14] & 0x0f));
		return len;
	}
	len = valid_frame(&s, buf, cap);
	for (unsigned int m = 0, n = 1 + xs(&s) % 3; m < n && len; m++) {
		size_t at = xs(&s) % (len < 80 ? len : 80);

		buf[at] ^= (uint8_t)(1u << (xs(&s) % 8));
		if (xs(&s) % 4 == 0)
			buf[at] = (uint8_t)xs(&s);
	}
	return len;
}

/* ---- starting state, the same on both sides ---- */

static bool percpu(uint32_t type)
{
	return type == BPF_MAP_TYPE_PERCPU_ARRAY || type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static bool global_data(const struct dd_map *m)
{
	return strchr(m->name, '.') != NULL;
}

static void pattern(uint8_t *v, size_t n, uint32_t i)
{
	for (size_t j = 0; j < n; j++)
		v[j] = (uint8_t)(i * 37 + j * 11 + 5);
}

static int put(struct dd_side *k, struct dd_side *d, const char *map, const void *key,
	       const void *value)
{
	int ek = k->target.ops->map_update(&k->target, map, key, value);
	int ed = d->target.ops->map_update(&d->target, map, key, value);

	/* a side that takes what the other refuses would start from another state */
	if ((ek == 0) != (ed == 0))
		return ek ? ek : ed;
	return 0;
}

/* A per-CPU entry of zeroes on both sides: each side's own buffer size. */
static int put_percpu(struct dd_side *k, struct dd_side *d, const char *map, const void *key)
{
	struct dd_map *km = dd_side_map(k, map), *dm = dd_side_map(d, map);
	int ncpu = libbpf_num_possible_cpus();
	uint8_t *buf;
	int ek, ed;

	if (!km || !dm || !dm->tab || ncpu <= 0)
		return -ENOENT;
	buf = calloc((size_t)ncpu + hwxdp_table__value_buf_size(dm->tab), 8 + km->value_size);
	if (!buf)
		return -ENOMEM;
	ek = bpf_map_update_elem(km->fd, key, buf, BPF_ANY) ? -errno : 0;
	ed = hwxdp_table__update(dm->tab, key, buf, BPF_ANY);
	free(buf);
	return (ek == 0) != (ed == 0) ? (ek ? ek : ed) : 0;
}

/*
 * A per-CPU entry whose copy for CPU 0, where the run is pinned, and for
 * engine 0 holds value, the other copies zeroes: the lookups of both sides
 * see value, and the copies sum the same.
 */
static int put_percpu_value(struct dd_side *k, struct dd_side *d, const char *map, const void *key,
			    const void *value)
{
	struct dd_map *km = dd_side_map(k, map), *dm = dd_side_map(d, map);
	int ncpu = libbpf_num_possible_cpus();
	uint8_t *kbuf, *dbuf;
	int ek, ed;

	if (!km || !dm || !dm->tab || ncpu <= 0)
		return -ENOENT;
	kbuf = calloc((size_t)ncpu, (km->value_size + 7) & ~7u);
	dbuf = calloc(1, hwxdp_table__value_buf_size(dm->tab));
	if (!kbuf || !dbuf) {
		free(kbuf);
		free(dbuf);
		return -ENOMEM;
	}
	memcpy(kbuf, value, km->value_size);
	memcpy(dbuf, value, km->value_size);
	ek = bpf_map_update_elem(km->fd, key, kbuf, BPF_ANY) ? -errno : 0;
	ed = hwxdp_table__update(dm->tab, key, dbuf, BPF_ANY);
	free(kbuf);
	free(dbuf);
	return (ek == 0) != (ed == 0) ? (ek ? ek : ed) : 0;
}

/* An entry of a hash or a per-CPU hash, as its type wants it. */
static int put_entry(struct dd_side *k, struct dd_side *d, const struct dd_map *m, const void *key,
		     const void *value)
{
	return percpu(m->type) ? put_percpu_value(k, d, m->name, key, value)
			       : put(k, d, m->name, key, value);
}

/* suricata_bypass's IPv4 flow key, laid out as clang lays it out for BPF. */
struct corpus_flowv4 {
	uint32_t src, dst;
	uint16_t port16[2];
	uint8_t ip_proto : 1;
	uint16_t vlan0 : 15;
	uint16_t vlan1;
};

/* Flows between the generated frames' addresses and ports, untagged. */
static int fill_bypass(struct dd_side *k, struct dd_side *d)
{
	int e = 0;

	for (unsigned int a = 0; a < 6 && !e; a++)
		for (unsigned int b = 0; b < 6 && !e; b++)
			for (unsigned int p = 0; p < 8 && !e; p++)
				for (unsigned int q = 0; q < 8 && !e; q += 2) {
					struct corpus_flowv4 key;
					uint8_t addr[16];

					memset(&key, 0, sizeof(key));
					hx_ipv4_addr(addr, v4_pool[a]);
					memcpy(&key.src, addr, 4);
					hx_ipv4_addr(addr, v4_pool[b]);
					memcpy(&key.dst, addr, 4);
					key.port16[0] = htons(port_pool[p]);
					key.port16[1] = htons(port_pool[q]);
					key.ip_proto = (a + b) & 1;
					e = put_percpu(k, d, "flow_table_v4", &key);
				}
	return e;
}

/* tx_iptunnel's virtual IP and tunnel, as clang lays them out for BPF. */
struct corpus_vip {
	uint8_t daddr[16];
	uint16_t dport;
	uint16_t family;
	uint8_t protocol;
	uint8_t pad[3];
};

struct corpus_tnl {
	uint8_t saddr[16];
	uint8_t daddr[16];
	uint16_t family;
	uint8_t dmac[6];
};

/* VIPs on the frames' destinations, ports and protocols, IPv4 and IPv6,
 * with endpoints of the family they are for, some of the other. */
static int fill_vips(struct dd_side *k, struct dd_side *d)
{
	static const uint8_t l4[] = { 6, 17 };
	int e = 0;

	for (unsigned int a = 0; a < 10 && !e; a++)
		for (unsigned int p = 0; p < 4 && !e; p++)
			for (unsigned int q = 0; q < 2 && !e; q++) {
				struct corpus_vip vip;
				struct corpus_tnl tnl;
				bool v6 = a >= 6;

				memset(&vip, 0, sizeof(vip));
				memset(&tnl, 0, sizeof(tnl));
				if (v6)
					hx_ipv6_addr(vip.daddr, v6_pool[a - 6]);
				else
					hx_ipv4_addr(vip.daddr, v4_pool[a]);
				vip.dport = htons(port_pool[p]);
				vip.family = v6 ? 10 : 2;
				vip.protocol = l4[q];
				pattern((uint8_t *)&tnl, sizeof(tnl), a * 8 + p * 2 + q);
				/* one VIP in eight asks for the family it is not */
				tnl.family = (uint16_t)((v6 == ((a + p + q) % 8 != 0)) ? 10 : 2);
				e = put(k, d, "vip2tnl", &vip, &tnl);
			}
	return e;
}

/*
 * A map of maps names, for the keys the frames carry (VLAN 0 and small
 * ones; an array's slots its definition left empty), the maps of the
 * object that fit its template, in turn: on each side that side's own map,
 * as a control plane stores it (the kernel's fd, the device's table id).
 */
static int fill_outer(struct dd_side *k, struct dd_side *d, const struct dd_map *om)
{
	const struct dd_map *dm = dd_side_map(d, om->name);
	const char *inner[8], *name;
	size_t n = 0;
	int e = 0;

	if (!dm || !dm->tab || om->key_size > 8)
		return 0;
	for (size_t i = 0; i < d->map_cnt && n < 8; i++)
		if (hxu_inner_fits(&dm->tab->desc.inner, &d->maps[i].tab->desc) &&
		    dd_side_map(k, d->maps[i].name))
			inner[n++] = d->maps[i].name;
	for (uint32_t j = 0; j < 4 && n && !e; j++) {
		uint8_t key[8] = {};

		if (om->type == BPF_MAP_TYPE_ARRAY_OF_MAPS &&
		    (j >= om->max_entries || dd_side_inner(k, om->name, &j, &name) != -ENOENT))
			continue;
		memcpy(key, &j, sizeof(j));
		e = dd_side_set_inner(k, om->name, key, inner[j % n]);
		e = e ?: dd_side_set_inner(d, om->name, key, inner[j % n]);
	}
	return e;
}

/* Keys the generated frames carry, by key size, so that lookups hit. */
static int fill_maps(struct dd_side *k, struct dd_side *d, char *err, size_t errlen)
{
	uint8_t key[64], val[256];
	int e = 0;

	for (size_t i = 0; i < k->map_cnt && !e; i++) {
		const struct dd_map *m = &k->maps[i];
		uint32_t n;

		/* per-CPU hashes as hashes; per-CPU arrays start at zero */
		if (m->read_only || global_data(m) || m->type == BPF_MAP_TYPE_PERCPU_ARRAY ||
		    m->key_size > sizeof(key) || m->value_size > sizeof(val) ||
		    !dd_side_map(d, m->name))
			continue;
		memset(key, 0, sizeof(key));
		switch (m->type) {
		case BPF_MAP_TYPE_ARRAY:
			n = m->max_entries < 32 ? m->max_entries : 32;
			for (uint32_t j = 0; j < n && !e; j++) {
				pattern(val, m->value_size, j);
				e = put(k, d, m->name, &j, val);
			}
			break;
		case BPF_MAP_TYPE_HASH:
		case BPF_MAP_TYPE_LRU_HASH:
		case BPF_MAP_TYPE_PERCPU_HASH:
		case BPF_MAP_TYPE_LRU_PERCPU_HASH:
			if (m->key_size == 4) {
				for (uint32_t j = 0; j < 4 && !e; j++) {
					hx_ipv4_addr(key, v4_pool[j]);
					pattern(val, m->value_size, j);
					e = put_entry(k, d, m, key, val);
				}
			} else if (m->key_size == 16) {
				for (uint32_t j = 0; j < 2 && !e; j++) {
					hx_ipv6_addr(key, v6_pool[j]);
					pattern(val, m->value_size, j);
					e = put_entry(k, d, m, key, val);
				}
			} else if (m->key_size == 8) {
				/* a MAC as a big-endian number: the frames' sources */
				static const uint64_t macs[] = { 0x020000000002ull,
								 0xff0000000002ull };

				for (uint32_t j = 0; j < 2 && !e; j++) {
					pattern(val, m->value_size, j);
					e = put_entry(k, d, m, &macs[j], val);
				}
			} else if (m->key_size == 6) {
				/* a source MAC some frames carry, and their destination */
				static const uint8_t macs[][6] = { { 0xff, 0, 0, 0, 0, 2 },
								   { 2, 0, 0, 0, 0, 1 } };

				for (uint32_t j = 0; j < 2 && !e; j++) {
					pattern(val, m->value_size, j);
					e = put_entry(k, d, m, macs[j], val);
				}
			} else if (m->key_size == 2) {
				for (uint32_t j = 0; j < 4 && !e; j++) {
					key[0] = (uint8_t)(port_pool[j] >> 8);
					key[1] = (uint8_t)port_pool[j];
					pattern(val, m->value_size, j);
					e = put_entry(k, d, m, key, val);
				}
			}
			break;
		case BPF_MAP_TYPE_LPM_TRIE:
			if (m->key_size == 8) {
				static const uint8_t pfx[][5] = { { 24, 10, 0, 1, 0 },
								  { 16, 10, 0, 0, 0 },
								  { 8, 192, 0, 0, 0 } };
				for (uint32_t j = 0; j < 3 && !e; j++) {
					key[0] = pfx[j][0];
					memcpy(key + 4, &pfx[j][1], 4);
					pattern(val, m->value_size, j);
					e = put(k, d, m->name, key, val);
				}
			}
			break;
		case BPF_MAP_TYPE_DEVMAP:
		case BPF_MAP_TYPE_DEVMAP_HASH:
			for (uint32_t j = 0; j < 4 && j < m->max_entries && !e; j++) {
				uint32_t v[2] = { INGRESS_LO, 0 };

				memset(val, 0, sizeof(val));
				memcpy(val, v, m->value_size < 8 ? m->value_size : 8);
				e = put(k, d, m->name, &j, val);
			}
			break;
		default:
			break;
		}
		if (e)
			say(err, errlen, "filling map %s: %s", m->name, strerror(-e));
	}
	for (size_t i = 0; i < k->map_cnt && !e; i++) {
		if (k->maps[i].type != BPF_MAP_TYPE_ARRAY_OF_MAPS &&
		    k->maps[i].type != BPF_MAP_TYPE_HASH_OF_MAPS)
			continue;
		e = fill_outer(k, d, &k->maps[i]);
		if (e)
			say(err, errlen, "filling map %s: %s", k->maps[i].name, strerror(-e));
	}
	if (!e && dd_side_map(k, "flow_table_v4") && sizeof(struct corpus_flowv4) == 16) {
		e = fill_bypass(k, d);
		if (e)
			say(err, errlen, "filling map flow_table_v4: %s", strerror(-e));
	}
	if (!e && dd_side_map(k, "vip2tnl") && dd_side_map(k, "vip2tnl")->key_size == 24 &&
	    dd_side_map(k, "vip2tnl")->value_size == 40) {
		e = fill_vips(k, d);
		if (e)
			say(err, errlen, "filling map vip2tnl: %s", strerror(-e));
	}
	return e;
}

/* ---- keys the frames look up ---- */

/* Distinct keys a map is given from its lookups, at most. */
#define LOOKED_UP_MAX 64
#define LOOKED_UP_KEY 512

struct looked_up_map {
	const struct dd_map *m;
	uint8_t (*keys)[LOOKED_UP_KEY];
	uint32_t cnt, done; /* keys seen; of those, the ones the passes so far took */
	uint32_t given;	    /* keys given to the maps */
};

struct looked_up {
	struct looked_up_map *maps;
	size_t cnt;
};

static void note_miss(void *arg, const char *map, const void *key, uint32_t key_size)
{
	struct looked_up *lu = arg;

	for (size_t i = 0; i < lu->cnt; i++) {
		struct looked_up_map *l = &lu->maps[i];

		if (strcmp(l->m->name, map) || key_size != l->m->key_size)
			continue;
		for (uint32_t j = 0; j < l->cnt; j++)
			if (!memcmp(l->keys[j], key, key_size))
				return;
		if (l->cnt < LOOKED_UP_MAX)
			memcpy(l->keys[l->cnt++], key, key_size);
		return;
	}
}

/*
 * Hash maps the fills above leave empty (a key of a size they have no
 * pattern for: a 5-tuple of 12 or 13 bytes, an IPv6 pair of 36) get keys
 * the frames themselves look up: the reference interpreter (lab/bpf_count.h)
 * runs the program's device copy on the run's frames from empty maps and
 * says which keys its lookups missed, and every other one of them goes into
 * both sides' maps, so that the run takes the path of a hit and that of a
 * miss. A second pass from the keys given finds those looked up behind a
 * hit. A frame the interpreter stops (a helper it lacks) gives the keys of
 * the lookups before. The number of keys given is *filled.
 */
static int fill_looked_up(const char *path, const struct corpus_row *r, unsigned int frames,
			  struct dd_side *k, struct dd_side *d, uint64_t *filled)
{
	static uint8_t buf[HX_PKT_MAX], val[512];
	struct looked_up lu = { 0 };
	struct hx_target *interp;
	struct hx_result res;
	int e = 0;

	lu.maps = calloc(k->map_cnt ? k->map_cnt : 1, sizeof(*lu.maps));
	if (!lu.maps)
		return -ENOMEM;
	for (size_t i = 0; i < k->map_cnt; i++) {
		const struct dd_map *m = &k->maps[i];
		uint8_t next[LOOKED_UP_KEY];

		if ((m->type != BPF_MAP_TYPE_HASH && m->type != BPF_MAP_TYPE_LRU_HASH &&
		     m->type != BPF_MAP_TYPE_PERCPU_HASH &&
		     m->type != BPF_MAP_TYPE_LRU_PERCPU_HASH) ||
		    m->read_only || m->key_size > LOOKED_UP_KEY || m->value_size > sizeof(val) ||
		    !dd_side_map(d, m->name) || !dd_map_next_key(m, NULL, next))
			continue;
		lu.maps[lu.cnt].m = m;
		lu.maps[lu.cnt].keys = calloc(LOOKED_UP_MAX, LOOKED_UP_KEY);
		if (!lu.maps[lu.cnt++].keys) {
			e = -ENOMEM;
			goto out;
		}
	}
	interp = lu.cnt ? hx_count_target_open_prog(path, r->prog) : NULL;
	if (!interp)
		goto out; /* nothing to fill, or a program the interpreter cannot open */
	hx_count_target_on_miss(interp, note_miss, &lu);
	for (int pass = 0; pass < 2 && !e; pass++) {
		for (unsigned int i = 0; i < frames; i++) {
			size_t len = frame_at(0xc0ffee ^ (uint64_t)strlen(r->object), i, buf,
					      sizeof(buf));

			hx_target_run(interp, INGRESS_LO, buf, len, &res);
		}
		for (size_t i = 0; i < lu.cnt && !e; i++) {
			struct looked_up_map *l = &lu.maps[i];
			uint32_t most = l->m->max_entries / 2;

			/* every other key this pass found: the rest stay misses */
			for (uint32_t j = l->done; j < l->cnt && l->given < most && !e; j += 2) {
				pattern(val, l->m->value_size, j);
				e = put_entry(k, d, l->m, l->keys[j], val);
				if (!e && !percpu(l->m->type))
					hx_target_map_update(interp, l->m->name, l->keys[j], val);
				l->given += !e;
				*filled += !e;
			}
			l->done = l->cnt;
		}
	}
	hx_target_close(interp);
out:
	for (size_t i = 0; i < lu.cnt; i++)
		free(lu.maps[i].keys);
	free(lu.maps);
	return e;
}

/* ---- the differential run ---- */

static int open_pair(const char *path, const struct corpus_row *r, struct dd_side *k,
		     struct dd_side *d, char *msg, size_t len)
{
	struct hwxdp_object *obj = NULL;
	const struct hwxdp_prog *prog;
	int err;

	err = dd_side_open_device_prog(d, path, r->prog);
	if (err) {
		say(msg, len, "device open: %s", hwxdp_strerror(err));
		return err;
	}
	/* the host copy, legacy maps rewritten for libbpf 1.x: no other way in */
	err = dd_side_open_kernel_prog(k, path, r->prog);
	if (!err)
		return 0;
	if (r->legacy) {
		say(msg, len, "host copy: %s", hwxdp_error_message(err));
		return err;
	}
	/* an object libbpf cannot open: the project's loader's instructions, as
	 * the old loaders gave them to the kernel */
	err = hwxdp_object__open(path, &obj);
	if (err) {
		say(msg, len, "cannot open: %s", hwxdp_strerror(err));
		return err;
	}
	prog = hwxdp_object__find_prog(obj, r->prog);
	err = prog ? dd_side_open_kernel_raw(k, prog->insns, prog->insn_cnt, obj->maps,
					     obj->map_cnt, msg, len)
		   : -ENOENT;
	hwxdp_object__close(obj);
	return err;
}

static void show_result(const char *who, int err, const struct hx_result *res)
{
	if (err) {
		fprintf(stderr, "    %s: error %d\n", who, err);
		return;
	}
	fprintf(stderr, "    %s: action %u, %zu bytes, meta %d:", who, res->action, res->len,
		res->has_meta);
	for (size_t i = 0; i < res->len && i < 64; i++)
		fprintf(stderr, " %02x", res->frame[i]);
	fprintf(stderr, "%s\n", res->len > 64 ? " ..." : "");
}

/* Per-CPU maps by their sum over CPUs (engines): counters add up the same
 * whichever CPU ran which frame. Lanes of 8 bytes, or of 4. */
static uint64_t compare_percpu(struct dd_side *k, struct dd_side *d, uint64_t *entries)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t differ = 0;

	for (size_t i = 0; i < k->map_cnt; i++) {
		const struct dd_map *km = &k->maps[i];
		const struct dd_map *dm = dd_side_map(d, km->name);
		size_t stride = (km->value_size + 7) & ~7u, lane = km->value_size % 8 ? 4 : 8;
		uint8_t key[64] = { 0 }, next[64];
		uint8_t *kv, *dv;
		bool first = true;
		uint32_t copies;

		if (!percpu(km->type) || !dm || !dm->tab || km->key_size > sizeof(key) || ncpu <= 0)
			continue;
		copies = hwxdp_table__value_buf_size(dm->tab) / (uint32_t)stride;
		kv = calloc((size_t)ncpu, stride);
		dv = calloc(copies ? copies : 1, stride);
		if (!kv || !dv) {
			free(kv);
			free(dv);
			return differ + 1;
		}
		while (!dd_map_next_key(km, first ? NULL : key, next)) {
			int rk, rd;

			first = false;
			memcpy(key, next, km->key_size);
			(*entries)++;
			memset(dv, 0, (size_t)copies * stride);
			rk = dd_map_lookup(km, key, kv);
			rd = dd_map_lookup(dm, key, dv);
			if (rk || rd) {
				differ += rk != rd;
				continue;
			}
			for (size_t off = 0; off + lane <= km->value_size; off += lane) {
				uint64_t sk = 0, sd = 0, pk = 0, pd = 0, keep = UINT64_MAX;

				/* a lane's padding summed apart, as dd_compare_maps leaves it out
				 */
				if (km->value_mask) {
					keep = 0;
					memcpy(&keep, km->value_mask + off, lane);
					for (size_t b = 0; b < lane; b++)
						k->padding_bytes += km->value_mask[off + b] != 0xff;
				}
				for (int c = 0; c < ncpu; c++) {
					uint64_t x = 0;

					memcpy(&x, kv + (size_t)c * stride + off, lane);
					sk += x & keep;
					pk += x & ~keep;
				}
				for (uint32_t c = 0; c < copies; c++) {
					uint64_t x = 0;

					memcpy(&x, dv + (size_t)c * stride + off, lane);
					sd += x & keep;
					pd += x & ~keep;
				}
				k->padding_differ += pk != pd;
				if (lane == 4) {
					sk &= 0xffffffffu;
					sd &= 0xffffffffu;
				}
				if (sk != sd) {
					differ++;
					fprintf(stderr,
						"corpus: per-CPU map %s: lane %zu sums to %llu in "
						"the kernel, %llu on the device\n",
						km->name, off, (unsigned long long)sk,
						(unsigned long long)sd);
					break;
				}
			}
		}
		free(kv);
		free(dv);
	}
	return differ;
}

/* Maps small enough to copy after every punt. */
#define SYNC_MAX_ENTRIES 4096

static bool syncable(const struct dd_map *m)
{
	return !m->read_only && m->max_entries <= SYNC_MAX_ENTRIES &&
	       (m->type == BPF_MAP_TYPE_ARRAY || m->type == BPF_MAP_TYPE_HASH ||
		m->type == BPF_MAP_TYPE_LRU_HASH || m->type == BPF_MAP_TYPE_LPM_TRIE);
}

/*
 * A punted frame is the host copy's: in the appliance it runs in the kernel
 * on the very maps the device uses. Here the kernel's maps are apart, so
 * what the kernel's run changed is copied to the device's tables, and the
 * run goes on from one state. Returns false when a map is too large to copy
 * (its comparison then means nothing and is left out).
 */
static bool sync_after_punt(struct dd_side *k, struct dd_side *d)
{
	uint8_t key[512], next[512], val[512];
	bool whole = true;

	for (size_t i = 0; i < k->map_cnt; i++) {
		const struct dd_map *km = &k->maps[i];
		const struct dd_map *dm = dd_side_map(d, km->name);
		bool first = true;

		if (!dm || !dm->tab || km->read_only || km->type == BPF_MAP_TYPE_PROG_ARRAY ||
		    km->type == BPF_MAP_TYPE_DEVMAP || km->type == BPF_MAP_TYPE_DEVMAP_HASH ||
		    km->type == BPF_MAP_TYPE_XSKMAP)
			continue;
		if (!syncable(km) || km->key_size > sizeof(key) || km->value_size > sizeof(val)) {
			whole = false;
			continue;
		}
		/* device keys the kernel lacks go first, then the kernel's entries over */
		while (km->type != BPF_MAP_TYPE_ARRAY &&
		       !dd_map_next_key(dm, first ? NULL : key, next)) {
			first = false;
			memcpy(key, next, km->key_size);
			if (dd_map_lookup(km, key, val) == -ENOENT) {
				hwxdp_table__delete(dm->tab, key);
				first = true; /* the walk restarts after a delete */
			}
		}
		first = true;
		while (!dd_map_next_key(km, first ? NULL : key, next)) {
			first = false;
			memcpy(key, next, km->key_size);
			if (!dd_map_lookup(km, key, val))
				hwxdp_table__update(dm->tab, key, val, BPF_ANY);
		}
	}
	return whole;
}

static bool has_percpu(const struct dd_side *k)
{
	for (size_t i = 0; i < k->map_cnt; i++)
		if (percpu(k->maps[i].type))
			return true;
	return false;
}

/* The maps after a run, kernel's against device's: dd_compare_maps reads
 * one value per key, so per-CPU maps apart; a map the device has no table
 * for is one only the host copy touches; after punts (partial), only the
 * maps sync_after_punt copied. */
static void compare_after(struct dd_side *k, struct dd_side *d, struct corpus_row *r, bool partial)
{
	unsigned int shown_maps = 0, nmaps = 0;
	struct dd_side kflat;
	struct dd_map *keep;
	size_t nkeep = 0;

	keep = calloc(k->map_cnt ? k->map_cnt : 1, sizeof(*keep));
	if (!keep || dd_side_mask_padding(k) < 0) {
		free(keep);
		r->map_differ++;
		return;
	}
	k->padding_bytes = k->padding_differ = 0;
	for (size_t i = 0; i < k->map_cnt; i++)
		if (!percpu(k->maps[i].type) && (!partial || syncable(&k->maps[i])) &&
		    k->maps[i].type != BPF_MAP_TYPE_PROG_ARRAY && dd_side_map(d, k->maps[i].name))
			keep[nkeep++] = k->maps[i];
	kflat = *k;
	kflat.maps = keep;
	kflat.map_cnt = nkeep;
	r->map_differ += dd_compare_maps(&kflat, d, &r->map_entries, &nmaps, 6, &shown_maps);
	k->padding_bytes = kflat.padding_bytes;
	k->padding_differ = kflat.padding_differ;
	/* after a punt the per-CPU sums hold the host copy's share on one side only */
	if (!r->punts)
		r->map_differ += compare_percpu(k, d, &r->map_entries);
	r->maps_partial = partial || (r->punts && has_percpu(k));
	r->padding_bytes = k->padding_bytes;
	r->padding_differ = k->padding_differ;
	free(keep);
}

static void run_diff(const char *path, struct corpus_row *r, unsigned int frames)
{
	static struct hx_result rk, rd;
	static uint8_t buf[HX_PKT_MAX];
	struct dd_side k, d;
	struct hwxdp_run_stats st;
	struct hwxdp_frame f;
	bool partial = false;
	unsigned int shown = 0;
	uint64_t bundles = 0, runs = 0;
	int err;

	memset(&k, 0, sizeof(k));
	memset(&d, 0, sizeof(d));
	if (open_pair(path, r, &k, &d, r->run_error, sizeof(r->run_error))) {
		dd_side_close(&k);
		dd_side_close(&d);
		return;
	}
	if (fill_maps(&k, &d, r->run_error, sizeof(r->run_error)))
		goto out;
	err = fill_looked_up(path, r, frames, &k, &d, &r->looked_up_keys);
	if (err) {
		say(r->run_error, sizeof(r->run_error), "filling maps with looked-up keys: %s",
		    strerror(-err));
		goto out;
	}
	r->ran = true;
	for (unsigned int i = 0; i < frames; i++) {
		size_t len = frame_at(0xc0ffee ^ (uint64_t)strlen(r->object), i, buf, sizeof(buf));
		int ek, ed;
		bool differ;

		rk.action = rd.action = 0;
		rk.len = rd.len = 0;
		rk.has_meta = rd.has_meta = false;
		ek = hx_kernel_run_frame(k.prog_fd, INGRESS_LO, buf, len, &rk);
		memset(&st, 0, sizeof(st));
		ed = hx_device_run_frame(d.engine, d.window, INGRESS_LO, buf, len, &rd, &f, &st);
		r->frames++;
		if (!ed) {
			bundles += st.bundles;
			runs++;
		}
		differ = ek != ed;
		if (!differ && !ek && f.reason) {
			/* punted: the device leaves the frame as it came, the kernel decides */
			r->punts++;
			differ = rd.action != XDP_PASS || rd.len != len ||
				 memcmp(rd.frame, buf, len);
			if (!sync_after_punt(&k, &d))
				partial = true;
		} else if (!differ && !ek) {
			differ = rk.action != rd.action || rk.len != rd.len ||
				 memcmp(rk.frame, rd.frame, rk.len) || rk.has_meta != rd.has_meta ||
				 (rk.has_meta && memcmp(&rk.meta, &rd.meta, sizeof(rk.meta)));
		}
		if (!ek && rk.action < 5)
			r->actions[rk.action]++;
		/* BPF_PROG_TEST_RUN does not tell where a redirect goes: the verdict only */
		if (!ek && rk.action == XDP_REDIRECT)
			r->redirects++;
		if (differ) {
			r->differ++;
			if (shown++ < SHOW_DIFFS) {
				fprintf(stderr, "corpus: %s/%s: frame %u (%zu bytes) differs%s%s\n",
					r->object, r->prog, i, len,
					ed && ed != -EINVAL ? " (device fault)" : "",
					f.reason ? " (device punted)" : "");
				hx_hexdump(stderr, buf, len < 96 ? len : 96);
				show_result("kernel", ek, &rk);
				show_result("device", ed, &rd);
			}
		}
	}
	r->bundles_per_frame = runs ? (double)bundles / (double)runs : 0;
	compare_after(&k, &d, r, partial);
out:
	dd_side_close(&k);
	dd_side_close(&d);
}

/*
 * A device-bound program, which BPF_PROG_TEST_RUN refuses: the kernel's copy
 * bound to a TAP and attached there (tests/corpus/tap.h), each frame written
 * to the TAP. What the kernel sends back (XDP_TX) must be what the device
 * sends back, byte for byte, and a frame the device does not send back must
 * not come back; the maps the same after (what the program passed or
 * dropped shows in them).
 */
static void run_tap_diff(const char *path, struct corpus_row *r, unsigned int frames)
{
	static uint8_t buf[HX_PKT_MAX], out[HX_PKT_MAX];
	static struct hx_result rd;
	struct hwxdp_run_stats st;
	struct hwxdp_frame f;
	struct dd_side k, d;
	struct tap_net t;
	unsigned int shown = 0;
	uint64_t bundles = 0, runs = 0;
	int err;

	memset(&k, 0, sizeof(k));
	memset(&d, 0, sizeof(d));
	err = dd_side_open_device_prog(&d, path, r->prog);
	if (err) {
		say(r->run_error, sizeof(r->run_error), "device open: %s", hwxdp_strerror(err));
		dd_side_close(&d);
		return;
	}
	if (tap_net_open(&t, r->run_error, sizeof(r->run_error))) {
		dd_side_close(&d);
		return;
	}
	err = dd_side_open_kernel_bound(&k, path, r->prog, t.ifindex);
	if (err) {
		say(r->run_error, sizeof(r->run_error), "host copy: %s", hwxdp_error_message(err));
		goto out;
	}
	if (tap_net_attach(&t, k.prog_fd, r->run_error, sizeof(r->run_error)) ||
	    fill_maps(&k, &d, r->run_error, sizeof(r->run_error)))
		goto out;
	r->ran = true;
	for (unsigned int i = 0; i < frames; i++) {
		size_t len = frame_at(0xc0ffee ^ (uint64_t)strlen(r->object), i, buf, sizeof(buf));
		size_t out_len = 0;
		bool tx, differ;
		int ek, ed;

		rd.action = 0;
		rd.len = 0;
		memset(&st, 0, sizeof(st));
		ed = hx_device_run_frame(d.engine, d.window, INGRESS_LO, buf, len, &rd, &f, &st);
		tx = !ed && !f.reason && rd.action == XDP_TX;
		/* a frame the device keeps is waited for a while, in case */
		ek = tap_net_send(&t, buf, len, out, sizeof(out), &out_len, tx ? 1000 : 20);
		r->frames++;
		if (!ed) {
			bundles += st.bundles;
			runs++;
		}
		if (ek == -EINVAL || ed == -EINVAL)
			differ = ek != ed; /* shorter than an Ethernet header: both refuse */
		else
			differ = ek || ed || f.reason || tx != (out_len > 0) ||
				 (tx && (out_len != rd.len || memcmp(out, rd.frame, rd.len)));
		if (out_len)
			r->actions[XDP_TX]++;
		if (differ) {
			r->differ++;
			if (shown++ < SHOW_DIFFS) {
				fprintf(stderr,
					"corpus: %s/%s: frame %u (%zu bytes) differs: kernel %d, "
					"%zu bytes back\n",
					r->object, r->prog, i, len, ek, out_len);
				hx_hexdump(stderr, buf, len < 96 ? len : 96);
				for (size_t b = 0; out_len && b < out_len && b < rd.len; b++)
					if (out[b] != rd.frame[b]) {
						fprintf(stderr,
							"    first difference at byte %zu\n", b);
						break;
					}
				if (out_len)
					hx_hexdump(stderr, out, out_len < 96 ? out_len : 96);
				show_result("device", ed, &rd);
			}
		}
	}
	r->bundles_per_frame = runs ? (double)bundles / (double)runs : 0;
	compare_after(&k, &d, r, false);
out:
	dd_side_close(&k);
	tap_net_close(&t);
	dd_side_close(&d);
}

/*
 * A devmap entry's program (SEC("xdp/devmap")), which BPF_PROG_TEST_RUN
 * does not run: the kernel's sends the frames for real behind a redirect
 * into a devmap entry of the oracle's naming it (tests/corpus/live.h), and
 * the device runs its translation as an entry's program for the same port
 * (hwxdp_engine__run_egress). A quarter of the frames come in by that port
 * itself, half of them on rx queue 1. Each frame: sent by both or dropped
 * by both, the same bytes sent; the maps the same after.
 */
static void run_entry_diff(const char *path, struct corpus_row *r, unsigned int frames)
{
	static uint8_t buf[HX_PKT_MAX], out[HX_PKT_MAX];
	struct bpf_program *bp;
	struct dd_side k, d;
	struct live_net n;
	unsigned int shown = 0;
	int err, entry_fd = -1, via = -1;

	memset(&k, 0, sizeof(k));
	memset(&d, 0, sizeof(d));
	err = dd_side_open_device_prog(&d, path, r->prog);
	if (err) {
		say(r->run_error, sizeof(r->run_error), "device open: %s", hwxdp_strerror(err));
		goto out;
	}
	err = dd_side_open_kernel(&k, path);
	bp = err ? NULL : bpf_object__find_program_by_name(k.bobj, r->prog);
	entry_fd = bp ? bpf_program__fd(bp) : -1;
	if (entry_fd < 0) {
		say(r->run_error, sizeof(r->run_error), "host copy: %s",
		    err ? hwxdp_error_message(err) : "no such program");
		goto out;
	}
	if (fill_maps(&k, &d, r->run_error, sizeof(r->run_error)))
		goto out;
	err = live_net_open(&n, r->run_error, sizeof(r->run_error));
	if (err)
		goto out;
	via = live_net_entry(&n, entry_fd, r->run_error, sizeof(r->run_error));
	r->ran = via >= 0;
	for (unsigned int i = 0; r->ran && r->frames < frames && i < 4 * frames; i++) {
		size_t len = frame_at(0xc0ffee ^ (uint64_t)strlen(r->object), i, buf, sizeof(buf));
		uint32_t ingress = i % 4 == 3 ? n.tx_ifindex : n.in_ifindex, rxq = (i / 2) % 2;
		struct hwxdp_frame f = { .window = d.window, .ingress = ingress, .rx_queue = rxq };
		size_t out_len = 0, dlen = 0;
		bool arrived = false, sent;
		int ek, ed;

		if (!live_net_carries(buf, len))
			continue;
		ek = live_net_send(&n, via, ingress, rxq, buf, len, &arrived, out, sizeof(out),
				   &out_len);
		hwxdp_frame__place(&f, buf, (uint32_t)len);
		ed = hwxdp_engine__run_egress(d.engine, 0, &f, n.tx_ifindex, NULL);
		sent = !ed && f.egress != HWXDP_EGRESS_NONE;
		dlen = sent ? f.data_end - f.data : 0;
		r->frames++;
		r->actions[arrived ? XDP_PASS : XDP_DROP] += !ek;
		if (!ek && !ed && arrived == sent &&
		    (!sent || (dlen == out_len && !memcmp(out, d.window + f.data, dlen))))
			continue;
		r->differ++;
		if (shown++ >= SHOW_DIFFS)
			continue;
		fprintf(stderr,
			"corpus: %s/%s: frame %u (%zu bytes, in by %u queue %u) differs: kernel %s "
			"(%d, %zu bytes), device %s (%d, verdict %u, %zu bytes)\n",
			r->object, r->prog, i, len, ingress, rxq, arrived ? "sent" : "dropped", ek,
			out_len, sent ? "sent" : "dropped", ed, f.egress_verdict, dlen);
		hx_hexdump(stderr, buf, len < 64 ? len : 64);
		if (arrived)
			hx_hexdump(stderr, out, out_len < 64 ? out_len : 64);
		if (sent)
			hx_hexdump(stderr, d.window + f.data, dlen < 64 ? dlen : 64);
	}
	live_net_close(&n);
	if (r->ran)
		compare_after(&k, &d, r, false);
out:
	dd_side_close(&k);
	dd_side_close(&d);
}

/* ---- the whole corpus ---- */

static int is_object(const struct dirent *de)
{
	size_t l = strlen(de->d_name);

	return l > 6 && !strcmp(de->d_name + l - 6, ".bpf.o");
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* A new row for a program of the object in file, its name and section. */
static struct corpus_row *add_row(struct corpus_row **rows, size_t *cnt, size_t *cap,
				  const char *file, const char *prog, const char *section)
{
	struct corpus_row *r;

	if (*cnt == *cap) {
		struct corpus_row *n = realloc(*rows, (*cap + 16) * sizeof(*n));

		if (!n)
			return NULL;
		*rows = n;
		*cap += 16;
	}
	r = &(*rows)[(*cnt)++];
	memset(r, 0, sizeof(*r));
	snprintf(r->object, sizeof(r->object), "%.*s", (int)(strlen(file) - 6), file);
	snprintf(r->prog, sizeof(r->prog), "%s", prog);
	snprintf(r->section, sizeof(r->section), "%s", section);
	r->expect_bad = !strncmp(file, "bad_", 4);
	return r;
}

/*
 * An object the project's loader cannot open is a failure of hwxdp on each
 * of its XDP programs, not of the run: the programs are found with libbpf,
 * the kernel's verdict taken, and the loader's error given as hwxdp's.
 */
static int unopened_object(const char *path, const char *file, int open_err,
			   struct corpus_row **rows, size_t *cnt, size_t *cap)
{
	struct bpf_object *bobj = bpf_object__open_file(path, NULL);
	struct bpf_program *p;
	size_t before = *cnt;
	struct corpus_row *r;

	if (!bobj) {
		/* neither loader reads it: one row for the file, refused by both */
		int lerr = -errno;

		r = add_row(rows, cnt, cap, file, "-", "-");
		if (!r)
			return -ENOMEM;
		say(r->kernel_reason, sizeof(r->kernel_reason), "libbpf cannot open it: %s",
		    strerror(-lerr));
		say(r->host_reason, sizeof(r->host_reason), "cannot open: %s",
		    hwxdp_strerror(open_err));
		say(r->device_reason, sizeof(r->device_reason), "cannot open: %s",
		    hwxdp_strerror(open_err));
		return 0;
	}
	bpf_object__for_each_program(p, bobj)
	{
		const char *sec = bpf_program__section_name(p);

		if (bpf_program__type(p) != BPF_PROG_TYPE_XDP && !hwxdp_legacy_xdp_section(sec))
			continue;
		r = add_row(rows, cnt, cap, file, bpf_program__name(p), sec);
		if (!r) {
			bpf_object__close(bobj);
			return -ENOMEM;
		}
		say(r->host_reason, sizeof(r->host_reason), "cannot open: %s",
		    hwxdp_strerror(open_err));
		say(r->device_reason, sizeof(r->device_reason), "cannot open: %s",
		    hwxdp_strerror(open_err));
	}
	bpf_object__close(bobj);
	/* each program alone, as for an object that opens */
	for (size_t i = before; i < *cnt; i++)
		kernel_verdict_libbpf(path, &(*rows)[i]);
	if (*cnt == before) {
		r = add_row(rows, cnt, cap, file, "-", "-");
		if (!r)
			return -ENOMEM;
		say(r->kernel_reason, sizeof(r->kernel_reason), "no XDP program in it");
		say(r->host_reason, sizeof(r->host_reason), "cannot open: %s",
		    hwxdp_strerror(open_err));
	}
	return 0;
}

static int one_object(const char *dir, const char *file, unsigned int frames,
		      struct corpus_row **rows, size_t *cnt, size_t *cap)
{
	char path[8192];
	struct hwxdp_object *obj;
	bool legacy = false;
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	err = hwxdp_object__open(path, &obj);
	if (err) {
		fprintf(stderr, "corpus: %s: the project's loader cannot open it: %s\n", path,
			hwxdp_strerror(err));
		return unopened_object(path, file, err, rows, cnt, cap);
	}
	for (size_t i = 0; i < obj->map_cnt; i++)
		legacy |= obj->maps[i].origin == HWXDP_MAP_LEGACY;
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		const struct hwxdp_prog *p = &obj->progs[i];
		struct corpus_row *r;

		if (!is_xdp(p))
			continue;
		r = add_row(rows, cnt, cap, file, p->name, p->section);
		if (!r) {
			hwxdp_object__close(obj);
			return -ENOMEM;
		}
		r->legacy = legacy;
		kernel_verdict_libbpf(path, r);
		host_verdict(path, r);
		r->device_tried = true;
		device_verdict(path, r);
		if (r->device_ok && r->kernel_ok && r->kernel_bound)
			run_tap_diff(path, r, frames);
		else if (r->device_ok && r->kernel_ok && p->expected_attach_type == BPF_XDP_DEVMAP)
			run_entry_diff(path, r, frames);
		else if (r->device_ok && r->kernel_ok)
			run_diff(path, r, frames);
	}
	hwxdp_object__close(obj);
	return 0;
}

int corpus_run(unsigned int frames, struct corpus_row **rows, size_t *cnt)
{
	return corpus_run_in("tests/corpus", frames, rows, cnt);
}

int corpus_run_in(const char *subdir, unsigned int frames, struct corpus_row **rows, size_t *cnt)
{
	struct dirent **names = NULL;
	cpu_set_t cpu0, old_cpus;
	size_t cap = 0;
	char dir[4096];
	bool pinned;
	int n, err = 0;

	*rows = NULL;
	*cnt = 0;
	snprintf(dir, sizeof(dir), "%s/%s", hx_build_dir(), subdir);
	/* every object, however many: a held-out set is dropped in whole */
	n = scandir(dir, &names, is_object, by_name);
	if (n < 0) {
		fprintf(stderr, "corpus: %s: %s (build the corpus with make)\n", dir,
			strerror(errno));
		return -ENOENT;
	}
	if (!klog)
		klog = malloc(KLOG_SIZE);
	if (!klog)
		err = -ENOMEM;
	libbpf_set_print(quiet_print);
	hwxdp_set_print(quiet_hwxdp);
	/*
	 * bpf_get_smp_processor_id() is the CPU BPF_PROG_TEST_RUN runs on, the
	 * caller's, and on the device the engine's number, 0: on CPU 0 the two
	 * agree, and a program keying its statistics by CPU (xdp-bench,
	 * xdp_sample) writes the same entries on both sides.
	 */
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	pinned = !sched_getaffinity(0, sizeof(old_cpus), &old_cpus) &&
		 !sched_setaffinity(0, sizeof(cpu0), &cpu0);
	if (!pinned)
		fprintf(stderr,
			"corpus: cannot run on CPU 0 (%s): programs that read the CPU "
			"number may differ\n",
			strerror(errno));
	for (int i = 0; i < n; i++) {
		if (!err)
			err = one_object(dir, names[i]->d_name, frames, rows, cnt, &cap);
		free(names[i]);
	}
	free(names);
	if (pinned)
		sched_setaffinity(0, sizeof(old_cpus), &old_cpus);
	return err;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void corpus_totals(const struct corpus_row *rows, size_t cnt, struct corpus_totals *t)
{
	double *ri = calloc(cnt ? cnt : 1, sizeof(double));
	double *rt = calloc(cnt ? cnt : 1, sizeof(double));
	size_t ni = 0, nt = 0;

	memset(t, 0, sizeof(*t));
	t->rows = (unsigned int)cnt;
	for (size_t i = 0; i < cnt; i++) {
		const struct corpus_row *r = &rows[i];

		t->kernel_ok += r->kernel_ok;
		t->host_ok += r->host_ok;
		t->device_ok += r->device_ok;
		t->bad_rows += r->expect_bad;
		t->unsound += !r->kernel_ok && r->host_ok;
		t->host_refuses_kernel_ok += r->kernel_ok && !r->host_ok;
		t->frames += r->frames;
		t->differ += r->differ;
		t->map_differ += r->map_differ;
		t->padding_bytes += r->padding_bytes;
		t->padding_differ += r->padding_differ;
		if (ri && r->kernel_ok && r->host_ok && r->kernel_insns)
			ri[ni++] = (double)r->host_insns / r->kernel_insns;
		if (rt && r->kernel_ok && r->host_ok && r->kernel_usec)
			rt[nt++] = (double)r->host_ns / 1000.0 / (double)r->kernel_usec;
	}
	t->median_insn_ratio = ri ? median(ri, ni) : 0;
	t->median_time_ratio = rt ? median(rt, nt) : 0;
	free(ri);
	free(rt);
}

void corpus_print(FILE *f, const struct corpus_row *rows, size_t cnt, const struct corpus_totals *t)
{
	fprintf(f, "%-22s %-22s %-4s %-4s %7s %7s %6s %-6s %8s %6s %6s %s\n", "object", "program",
		"kern", "host", "k-insn", "h-insn", "ratio", "device", "ops/insn", "punts", "diffs",
		"reason (host / device)");
	for (size_t i = 0; i < cnt; i++) {
		const struct corpus_row *r = &rows[i];
		double ratio = r->kernel_insns ? (double)r->host_insns / r->kernel_insns : 0;

		fprintf(f, "%-22s %-22s %-4s %-4s %7u %7u %6.2f %-6s %8.2f %6llu %6llu %s%s%s\n",
			r->object, r->prog, r->kernel_ok ? "yes" : "NO", r->host_ok ? "yes" : "NO",
			r->kernel_insns, r->host_insns, ratio,
			r->device_ok ? "yes" : (r->device_tried ? "NO" : "-"),
			r->bpf_insns ? (double)r->image_ops / r->bpf_insns : 0,
			(unsigned long long)r->punts,
			(unsigned long long)(r->differ + r->map_differ),
			r->host_ok ? "" : r->host_reason, r->host_ok || r->device_ok ? "" : " / ",
			r->device_ok ? r->run_error : r->device_reason);
		if (!r->kernel_ok)
			fprintf(f, "%46s kernel: %s\n", "", r->kernel_reason);
		if (r->ran)
			fprintf(f,
				"%46s kernel verdicts: aborted %llu drop %llu pass %llu tx %llu "
				"redirect %llu; %.1f device bundles per frame\n",
				"", (unsigned long long)r->actions[0],
				(unsigned long long)r->actions[1],
				(unsigned long long)r->actions[2],
				(unsigned long long)r->actions[3],
				(unsigned long long)r->actions[4], r->bundles_per_frame);
		if (r->ran && r->padding_bytes)
			fprintf(f,
				"%46s map values: %llu padding bytes left out of the comparison, "
				"%llu of them differing\n",
				"", (unsigned long long)r->padding_bytes,
				(unsigned long long)r->padding_differ);
	}
	fprintf(f,
		"corpus: %u programs (%u written to be refused); kernel accepts %u, refuses %u; "
		"hwxdp host accepts %u, refuses %u (%u the kernel accepts); device translates "
		"%u; unsound %u; %llu frames, %llu differ, %llu map entries differ (%llu value "
		"padding bytes left out, %llu of them differing); median "
		"processed-insn ratio hwxdp/kernel %.2f, median verification-time ratio %.2f\n",
		t->rows, t->bad_rows, t->kernel_ok, t->rows - t->kernel_ok, t->host_ok,
		t->rows - t->host_ok, t->host_refuses_kernel_ok, t->device_ok, t->unsound,
		(unsigned long long)t->frames, (unsigned long long)t->differ,
		(unsigned long long)t->map_differ, (unsigned long long)t->padding_bytes,
		(unsigned long long)t->padding_differ, t->median_insn_ratio, t->median_time_ratio);
}

static void json_str(FILE *f, const char *name, const char *s)
{
	fprintf(f, "\"%s\": \"", name);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

int corpus_write_json(const char *path, const struct corpus_row *rows, size_t cnt,
		      const struct corpus_totals *t)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fprintf(f, "{\n  \"programs\": [\n");
	for (size_t i = 0; i < cnt; i++) {
		const struct corpus_row *r = &rows[i];

		fprintf(f, "    {");
		json_str(f, "object", r->object);
		fprintf(f, ", ");
		json_str(f, "prog", r->prog);
		fprintf(f, ", ");
		json_str(f, "section", r->section);
		fprintf(f,
			", \"legacy\": %s, \"expect_bad\": %s, \"kernel_accepted\": %s, "
			"\"kernel_insns\": %u, \"kernel_usec\": %llu, ",
			r->legacy ? "true" : "false", r->expect_bad ? "true" : "false",
			r->kernel_ok ? "true" : "false", r->kernel_insns,
			(unsigned long long)r->kernel_usec);
		json_str(f, "kernel_reason", r->kernel_reason);
		fprintf(f, ", \"host_accepted\": %s, \"host_insns\": %u, \"host_ns\": %llu, ",
			r->host_ok ? "true" : "false", r->host_insns,
			(unsigned long long)r->host_ns);
		json_str(f, "host_reason", r->host_reason);
		fprintf(f, ", \"device_tried\": %s, \"device_translated\": %s, ",
			r->device_tried ? "true" : "false", r->device_ok ? "true" : "false");
		json_str(f, "device_reason", r->device_reason);
		fprintf(f,
			", \"bpf_insns\": %u, \"image_ops\": %u, \"ran\": %s, \"frames\": %llu, "
			"\"differ\": %llu, \"map_entries\": %llu, \"map_differ\": %llu, "
			"\"redirects\": %llu, \"punts\": %llu, \"maps_partial\": %s, "
			"\"looked_up_keys\": %llu, \"bundles_per_frame\": %.2f, \"padding_bytes\": %llu, "
			"\"padding_differ\": %llu, ",
			r->bpf_insns, r->image_ops, r->ran ? "true" : "false",
			(unsigned long long)r->frames, (unsigned long long)r->differ,
			(unsigned long long)r->map_entries, (unsigned long long)r->map_differ,
			(unsigned long long)r->redirects, (unsigned long long)r->punts,
			r->maps_partial ? "true" : "false", (unsigned long long)r->looked_up_keys,
			r->bundles_per_frame, (unsigned long long)r->padding_bytes,
			(unsigned long long)r->padding_differ);
		fprintf(f,
			"\"kernel_actions\": {\"aborted\": %llu, \"drop\": %llu, \"pass\": %llu, "
			"\"tx\": %llu, \"redirect\": %llu}, ",
			(unsigned long long)r->actions[0], (unsigned long long)r->actions[1],
			(unsigned long long)r->actions[2], (unsigned long long)r->actions[3],
			(unsigned long long)r->actions[4]);
		json_str(f, "run_error", r->run_error);
		fprintf(f, "}%s\n", i + 1 < cnt ? "," : "");
	}
	fprintf(f,
		"  ],\n  \"totals\": {\"programs\": %u, \"kernel_accepted\": %u, "
		"\"host_accepted\": %u, \"host_refuses_kernel_accepted\": %u, "
		"\"device_translated\": %u, \"unsound\": %u, \"frames\": %llu, \"differ\": %llu, "
		"\"map_differ\": %llu, \"median_insn_ratio\": %.3f, \"median_time_ratio\": "
		"%.3f}\n}\n",
		t->rows, t->kernel_ok, t->host_ok, t->host_refuses_kernel_ok, t->device_ok,
		t->unsound, (unsigned long long)t->frames, (unsigned long long)t->differ,
		(unsigned long long)t->map_differ, t->median_insn_ratio, t->median_time_ratio);
	return fclose(f) ? -errno : 0;
}
