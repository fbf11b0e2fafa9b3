// SPDX-License-Identifier: GPL-2.0
/*
 * Time to verify a program: hwxdp's verifier against the kernel's, on the
 * same object in the same run. The kernel reports its own verification time
 * with log level 4 (BPF_LOG_STATS); hwxdp's is measured around
 * hwxdp_verify(). Both verify the host copy, the one the kernel sees; the
 * device copy is timed too. Medians of N runs.
 *
 *   bench_verify [OBJECT] [RUNS]     (default build/progs/fwd.bpf.o, 21)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "hwxdp/fwd.h"
#include "loader/object.h"
#include "verifier/verifier.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int silent(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	(void)fmt;
	(void)args;
	return 0;
}

/* The kernel's "verification time N usec" for the object's first program. */
static double kernel_verify_us(const char *path)
{
	static char log[1 << 16];
	struct bpf_program *prog;
	struct bpf_object *obj;
	double us = -1;
	char *p;

	obj = bpf_object__open_file(path, NULL);
	if (!obj)
		return -1;
	prog = bpf_object__next_program(obj, NULL);
	log[0] = 0;
	bpf_program__set_log_level(prog, 4);
	bpf_program__set_log_buf(prog, log, sizeof(log));
	if (!bpf_object__load(obj)) {
		p = strstr(log, "verification time ");
		if (p)
			us = strtod(p + strlen("verification time "), NULL);
	}
	bpf_object__close(obj);
	return us;
}

static double hwxdp_verify_us(const char *path, bool device, uint32_t *processed)
{
	static const struct hwxdp_kfunc no_kfuncs[] = { { 0 } };
	struct hwxdp_object_open_opts open_opts = { .sz = sizeof(open_opts) };
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts), .device = device };
	struct hwxdp_verify_result *res;
	struct hwxdp_object *obj;
	uint32_t target = device ? HWXDP_TARGET_DEVICE : HWXDP_TARGET_HOST;
	double us = -1;

	if (!device)
		open_opts.kfuncs = no_kfuncs;
	if (hwxdp_object__open_opts(path, &open_opts, &obj))
		return -1;
	hwxdp_object__set_target(obj, target);
	if (!hwxdp_verify(obj, &obj->progs[0], &opts, &res)) {
		if (res->accepted)
			us = res->verify_ns / 1000.0;
		*processed = res->insns_processed;
		hwxdp_verify_result__free(res);
	}
	hwxdp_object__close(obj);
	return us;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "build/progs/fwd.bpf.o";
	int runs = argc > 2 ? atoi(argv[2]) : 21, i;
	double *kernel, *host, *device;
	uint32_t host_insns = 0, device_insns = 0;
	bool have_kernel = geteuid() == 0;

	if (runs < 1)
		runs = 1;
	kernel = calloc(runs, sizeof(double));
	host = calloc(runs, sizeof(double));
	device = calloc(runs, sizeof(double));
	if (!kernel || !host || !device)
		return 1;
	libbpf_set_print(silent);
	for (i = 0; i < runs; i++) {
		host[i] = hwxdp_verify_us(path, false, &host_insns);
		device[i] = hwxdp_verify_us(path, true, &device_insns);
		kernel[i] = have_kernel ? kernel_verify_us(path) : -1;
		if (host[i] < 0 || device[i] < 0 || (have_kernel && kernel[i] < 0)) {
			fprintf(stderr, "bench_verify: %s: a verifier refused the program\n", path);
			return 1;
		}
	}
	printf("verify %s, median of %d runs\n", path, runs);
	printf("  hwxdp, host copy    %9.0f us  (%u insns processed)\n", median(host, runs),
	       host_insns);
	printf("  hwxdp, device copy  %9.0f us  (%u insns processed)\n", median(device, runs),
	       device_insns);
	if (!have_kernel) {
		printf("  kernel              skipped: needs root\n");
		return 0;
	}
	printf("  kernel              %9.0f us  (its own 'verification time')\n",
	       median(kernel, runs));
	printf("  kernel / hwxdp host %9.2fx\n", median(kernel, runs) / median(host, runs));
	return 0;
}
