// SPDX-License-Identifier: GPL-2.0
/*
 * progs/fwd.bpf.o on both targets in one run: the lab of fwdlab/fwd_lab.h in
 * the kernel (a private network namespace, BPF_PROG_TEST_RUN with repeat)
 * and on one engine of the device (a tight loop over the same frame, put
 * in the packet window before every run as the board puts it:
 * hwxdp_frame__place), the
 * engine interpreting and, in a column of its own, compiled
 * (device/compile.h; the column is left out when the engine cannot
 * compile, and the bench checks that both ways give the same frame).
 *
 *   bench_fwd [-n frames] [-r runs] [-k kind] [-K] [-C]
 *
 * Per frame kind: ns per frame of each, the median of the runs (runs
 * interleave the two targets, so that whatever else the machine does weighs
 * on both alike), and the device's speed as a multiple of the kernel's.
 *
 * The kernel's repeated test run keeps one buffer and does not restore it
 * between repetitions, so a program that rewrites the frame sees its own
 * output again: TTLs run down to the punt, a popped tag is gone, a pushed
 * one stays. The "kernel" column is that run's own duration, as asked; the
 * "kernel-1" column is the same frame delivered afresh to every run (one
 * test run each, the kernel's fixed cost per call, measured with a program
 * that only returns, taken off), which is the like-for-like figure. Both
 * ratios are printed for each way the device runs (dev: interpreted, comp:
 * compiled); the last column says whether the repeated kernel run
 * ended on the verdict of a fresh frame. -k runs one frame kind alone
 * (for profilers), -K leaves the kernel out (it needs root), -C the
 * interpreted engine (compiled runs alone, for profilers too).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "device/compile.h"
#include "device/engine.h"
#include "device/tables.h"
#include "hwmap/hxu.h"
#include "fwdlab/fwd.h"
#include "fwdlab/fwd_lab.h"
#include "fwdlab/netlab.h"
#include "lab/target.h"
#include "loader/device.h"
#include "loader/host.h"

#define MAX_RUNS    15
#define FRESH_CALLS 20000

/* Only the map operations hx_lab_setup needs, over objects held here, so
 * that the bench reaches the kernel program's fd and the device's engine. */
static int kernel_update(struct hx_target *t, const char *name, const void *key, const void *value)
{
	struct bpf_map *map = bpf_object__find_map_by_name(t->priv, name);

	if (!map)
		return -ENOENT;
	return bpf_map_update_elem(bpf_map__fd(map), key, value, BPF_ANY) ? -errno : 0;
}

static int device_update(struct hx_target *t, const char *name, const void *key, const void *value)
{
	struct hwxdp_table *tab = hwxdp_device_prog__table(t->priv, name);

	return tab ? hwxdp_table__update(tab, key, value, BPF_ANY) : -ENOENT;
}

static const struct hx_target_ops kernel_ops = { .name = "kernel", .map_update = kernel_update };
static const struct hx_target_ops device_ops = { .name = "device", .map_update = device_update };

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *v, int n)
{
	double s[MAX_RUNS];

	if (!n)
		return 0;
	memcpy(s, v, sizeof(double) * n);
	qsort(s, n, sizeof(double), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

struct kind {
	uint8_t frame[HX_PKT_MAX];
	uint32_t len, ifindex;
	uint32_t device_verdict, kernel_verdict, kernel_repeat_verdict;
	uint64_t ops, bundles; /* the device's, per frame */
	double device[MAX_RUNS], compiled[MAX_RUNS], kernel[MAX_RUNS], fresh[MAX_RUNS];
};

/* One test run of repeat repetitions; its duration per repetition in ns. */
static int kernel_run(int prog_fd, const struct kind *k, uint32_t repeat, uint32_t *retval,
		      double *ns)
{
	static uint8_t out[HX_PKT_MAX + 512];
	struct xdp_md ctx = { .data_end = k->len, .ingress_ifindex = k->ifindex };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = k->frame, .data_size_in = k->len,
		    .data_out = out, .data_size_out = sizeof(out), .ctx_in = &ctx,
		    .ctx_size_in = sizeof(ctx), .repeat = repeat);

	if (bpf_prog_test_run_opts(prog_fd, &opts))
		return -errno;
	*retval = opts.retval;
	*ns = (double)opts.duration;
	return 0;
}

/* calls test runs of one repetition each: the mean of their durations. */
static int kernel_fresh(int prog_fd, const struct kind *k, uint32_t calls, double *ns)
{
	double sum = 0, one;
	uint32_t retval;
	int err;

	for (uint32_t i = 0; i < calls; i++) {
		err = kernel_run(prog_fd, k, 1, &retval, &one);
		if (err)
			return err;
		sum += one;
	}
	*ns = sum / calls;
	return 0;
}

/* A program that only returns XDP_PASS: what a test run costs around the
 * program itself. */
static int null_program(void)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_prog_load(BPF_PROG_TYPE_XDP, "bench_null", "GPL", insns, 2, NULL);
}

static __attribute__((noinline)) double device_loop(struct hwxdp_device_prog *dp,
						    struct hwxdp_engine *engine,
						    const struct kind *k, uint32_t frames)
{
	struct hwxdp_frame f = { .window = dp->window, .ingress = k->ifindex };
	double t = now_ns();

	for (uint32_t i = 0; i < frames; i++) {
		hwxdp_frame__place(&f, k->frame, k->len);
		hwxdp_engine__run(engine, 0, &f, NULL);
	}
	return (now_ns() - t) / frames;
}

/* One frame on engine, without stats: 0, or -1 when it aborted. The
 * frame's bytes are left in out (HX_PKT_MAX bytes), its length in *len. */
static int device_once(struct hwxdp_device_prog *dp, struct hwxdp_engine *engine,
		       const struct kind *k, struct hwxdp_frame *f, uint8_t *out, uint32_t *len)
{
	*f = (struct hwxdp_frame){ .window = dp->window, .ingress = k->ifindex };
	hwxdp_frame__place(f, k->frame, k->len);
	if (hwxdp_engine__run(engine, 0, f, NULL))
		return -1;
	*len = f->data_end - f->data;
	memcpy(out, dp->window + f->data, *len < HX_PKT_MAX ? *len : HX_PKT_MAX);
	return 0;
}

/* The same frame through the interpreter and compiled: the same verdict,
 * egress and bytes. */
static bool same_both_ways(struct hwxdp_device_prog *dp, struct hwxdp_engine *compiled,
			   const struct kind *k)
{
	static uint8_t a[HX_PKT_MAX], b[HX_PKT_MAX];
	struct hwxdp_frame fa, fb;
	uint32_t la = 0, lb = 0;

	if (device_once(dp, dp->engine, k, &fa, a, &la) ||
	    device_once(dp, compiled, k, &fb, b, &lb))
		return false;
	return fa.verdict == fb.verdict && fa.egress == fb.egress && fa.reason == fb.reason &&
	       la == lb && !memcmp(a, b, la < HX_PKT_MAX ? la : HX_PKT_MAX);
}

int main(int argc, char **argv)
{
	static const enum hx_lab_kind kinds[] = { HX_LAB_PLAIN,	    HX_LAB_VLAN_POP,
						  HX_LAB_VLAN_PUSH, HX_LAB_VLAN_SWAP,
						  HX_LAB_IPV6,	    HX_LAB_NO_FLOW };
	enum { NKINDS = sizeof(kinds) / sizeof(kinds[0]) };
	uint32_t frames = 1000000, runs = 5, ifindex[HX_LAB_PORTS];
	const char *only = NULL;
	bool kernel = geteuid() == 0, interpreted = true;
	struct hx_target kt = { &kernel_ops, NULL }, dt = { &device_ops, NULL };
	struct hwxdp_device_prog *dp;
	struct hwxdp_engine *compiled = NULL;
	struct bpf_object *obj = NULL;
	static struct kind k[NKINDS];
	double null_fresh[MAX_RUNS];
	int opt, err, prog_fd = -1, null_fd = -1;
	const char *path;
	char msg[512];

	while ((opt = getopt(argc, argv, "n:r:k:KC")) != -1) {
		switch (opt) {
		case 'n':
			frames = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			runs = strtoul(optarg, NULL, 0);
			break;
		case 'k':
			only = optarg;
			break;
		case 'K':
			kernel = false;
			break;
		case 'C':
			interpreted = false;
			break;
		default:
			fprintf(stderr, "usage: %s [-n frames] [-r runs] [-k kind] [-K] [-C]\n",
				argv[0]);
			return 2;
		}
	}
	if (!runs || runs > MAX_RUNS || !frames) {
		fprintf(stderr, "runs 1..%d, frames > 0\n", MAX_RUNS);
		return 2;
	}
	path = hx_object_path("fwd");

	if (kernel) {
		err = hx_netlab_enter(HX_LAB_PORTS, ifindex);
		if (err) {
			fprintf(stderr, "no network namespace (%s); the device alone\n",
				strerror(-err));
			kernel = false;
		}
	}
	if (!kernel)
		for (uint32_t i = 0; i < HX_LAB_PORTS; i++)
			ifindex[i] = 100 + i;

	err = hwxdp_device_prog__open(path, &dp, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "%s on the device: %s\n", path, msg);
		return 1;
	}
	dt.priv = dp;
	if (hx_lab_setup(&dt, ifindex)) {
		fprintf(stderr, "device lab set-up failed\n");
		return 1;
	}
	/* A second engine on the same image and tables, compiled. */
	compiled = hwxdp_engine__new(dp->img, dp->tables);
	if (!compiled || hwxdp_engine__set_mode(compiled, HWXDP_ENGINE_COMPILED)) {
		fprintf(stderr, "second engine: %s\n", strerror(errno));
		return 1;
	}
	if (hwxdp_engine__mode(compiled) != HWXDP_ENGINE_COMPILED) {
		fprintf(stderr, "the engine cannot compile here: no compiled column\n");
		hwxdp_engine__free(compiled);
		compiled = NULL;
	}
	if (kernel) {
		obj = hwxdp_host_load(path);
		if (!obj || !hwxdp_host_xdp_program(obj)) {
			fprintf(stderr, "%s in the kernel: %s\n", path, strerror(errno));
			return 1;
		}
		prog_fd = bpf_program__fd(hwxdp_host_xdp_program(obj));
		kt.priv = obj;
		null_fd = null_program();
		if (hx_lab_setup(&kt, ifindex) || null_fd < 0) {
			fprintf(stderr, "kernel lab set-up failed: %s\n", strerror(errno));
			return 1;
		}
	}

	for (int i = 0; i < NKINDS; i++) {
		const struct hx_lab_frame *lf = &hx_lab_frames[kinds[i]];
		struct hwxdp_frame f = { .window = dp->window };
		struct hwxdp_run_stats stats;
		double ns;

		k[i].len = (uint32_t)hx_lab_build(kinds[i], k[i].frame, sizeof(k[i].frame));
		k[i].ifindex = ifindex[lf->port - 1];
		if (!k[i].len)
			return 1;
		hwxdp_frame__place(&f, k[i].frame, k[i].len);
		f.ingress = k[i].ifindex;
		if (hwxdp_engine__run(dp->engine, 0, &f, &stats)) {
			fprintf(stderr, "%s: the device aborted the frame\n", lf->name);
			return 1;
		}
		k[i].device_verdict = f.verdict;
		k[i].ops = stats.ops;
		k[i].bundles = stats.bundles;
		if (compiled && !same_both_ways(dp, compiled, &k[i])) {
			fprintf(stderr, "%s: compiled and interpreted runs differ\n", lf->name);
			return 1;
		}
		if (kernel && (kernel_run(prog_fd, &k[i], 1, &k[i].kernel_verdict, &ns) ||
			       k[i].kernel_verdict != k[i].device_verdict)) {
			fprintf(stderr, "%s: kernel verdict %s, device %s\n", lf->name,
				hwxdp_xdp_action_name(k[i].kernel_verdict),
				hwxdp_xdp_action_name(k[i].device_verdict));
			return 1;
		}
	}

	for (uint32_t run = 0; run < runs; run++) {
		if (kernel && kernel_fresh(null_fd, &k[0], FRESH_CALLS, &null_fresh[run])) {
			fprintf(stderr, "test run: %s\n", strerror(errno));
			return 1;
		}
		for (int i = 0; i < NKINDS; i++) {
			if (only && strcmp(only, hx_lab_frames[kinds[i]].name))
				continue;
			if (kernel) {
				double ns;

				if (kernel_run(prog_fd, &k[i], frames, &k[i].kernel_repeat_verdict,
					       &ns) ||
				    kernel_fresh(prog_fd, &k[i], FRESH_CALLS, &k[i].fresh[run])) {
					fprintf(stderr, "test run: %s\n", strerror(errno));
					return 1;
				}
				k[i].kernel[run] = ns;
			}
			if (interpreted)
				k[i].device[run] = device_loop(dp, dp->engine, &k[i], frames);
			if (compiled)
				k[i].compiled[run] = device_loop(dp, compiled, &k[i], frames);
		}
	}

	printf("bench_fwd: %s, %u frames x %u runs, medians in ns/frame\n", path, frames, runs);
	if (kernel)
		printf("  kernel-1 takes off %.1f ns per call (a test run of a program that only "
		       "returns)\n",
		       median(null_fresh, runs));
	printf("  %-10s %5s %9s %9s", "frame", "ops", "device", "compiled");
	if (kernel)
		printf(" %9s %9s %12s %12s %13s %13s  %s", "kernel", "kernel-1", "dev/kernel",
		       "dev/kernel-1", "comp/kernel", "comp/kernel-1", "repeated kernel run");
	printf("\n");
	for (int i = 0; i < NKINDS; i++) {
		double d = median(k[i].device, runs), c = median(k[i].compiled, runs);

		if (only && strcmp(only, hx_lab_frames[kinds[i]].name))
			continue;
		printf("  %-10s %5llu", hx_lab_frames[kinds[i]].name, (unsigned long long)k[i].ops);
		if (interpreted)
			printf(" %9.1f", d);
		else
			printf(" %9s", "-");
		if (compiled)
			printf(" %9.1f", c);
		else
			printf(" %9s", "-");
		if (kernel) {
			double kr = median(k[i].kernel, runs);
			double kf = median(k[i].fresh, runs) - median(null_fresh, runs);

			printf(" %9.1f %9.1f", kr, kf);
			if (interpreted)
				printf(" %11.2fx %11.2fx", kr / d, kf / d);
			else
				printf(" %12s %12s", "-", "-");
			if (compiled)
				printf(" %12.2fx %12.2fx", kr / c, kf / c);
			else
				printf(" %13s %13s", "-", "-");
			printf("  %s", k[i].kernel_repeat_verdict == k[i].kernel_verdict
					       ? "same verdict"
					       : "ends on another path");
		}
		printf("\n");
	}
	printf("  (dev/kernel: the device's frames per second as a multiple of the kernel's;"
	       " comp: the same, compiled)\n");

	if (null_fd >= 0)
		close(null_fd);
	bpf_object__close(obj);
	hwxdp_engine__free(compiled);
	hwxdp_device_prog__close(dp);
	return 0;
}
