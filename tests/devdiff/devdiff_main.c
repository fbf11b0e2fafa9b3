// SPDX-License-Identifier: GPL-2.0
/*
 * devdiff: the device against the kernel, on many frames and programs.
 *
 *   devdiff [--seed N] [--count N] [--programs N] [--show N]
 *
 *   --seed N      the run's seed (default 1): the same seed, the same frames
 *   --count N     random and mutated frames through fwd.bpf.o (default 100000)
 *   --programs N  the verifier's random programs run on both (default 0)
 *   --show N      differences printed at most (default 20)
 *
 * Needs root. Exits 0 when everything agreed, 1 on a difference, 2 when the
 * run could not take place.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/devdiff/devdiff.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int usage(const char *name)
{
	fprintf(stderr, "usage: %s [--seed N] [--count N] [--programs N] [--show N]\n", name);
	return 2;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = { { "seed", required_argument, NULL, 's' },
						  { "count", required_argument, NULL, 'c' },
						  { "programs", required_argument, NULL, 'p' },
						  { "show", required_argument, NULL, 'w' },
						  { "help", no_argument, NULL, 'h' },
						  {} };
	struct devdiff_opts opts = { .seed = 1, .count = 100000, .show = 20 };
	uint64_t programs = 0;
	bool differ = false;
	double start;
	int c, err;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		char *end;
		unsigned long long v;

		if (c == 'h' || c == '?')
			return usage(argv[0]);
		errno = 0;
		v = strtoull(optarg, &end, 0);
		if (errno || *end || !*optarg)
			return usage(argv[0]);
		if (c == 's')
			opts.seed = v;
		else if (c == 'c')
			opts.count = v;
		else if (c == 'p')
			programs = v;
		else
			opts.show = (unsigned int)v;
	}
	if (optind != argc)
		return usage(argv[0]);

	if (opts.count) {
		struct devdiff_fwd_report rep;

		start = now();
		err = devdiff_fwd(&opts, &rep);
		if (err) {
			fprintf(stderr, "devdiff: fwd: %s\n", strerror(-err));
			return 2;
		}
		printf("fwd: seed %llu, %llu frames in %.1f s: %llu differ; %llu forwarded "
		       "(%llu redirects), %llu punted (%u reasons), %llu dropped, %llu refused "
		       "by both; %u maps, %llu entries, %llu differ; device %.1f ops per frame\n",
		       (unsigned long long)opts.seed, (unsigned long long)rep.frames, now() - start,
		       (unsigned long long)rep.differ, (unsigned long long)rep.forwarded,
		       (unsigned long long)rep.redirects, (unsigned long long)rep.punted,
		       rep.punt_kinds, (unsigned long long)rep.dropped,
		       (unsigned long long)rep.refused, rep.maps,
		       (unsigned long long)rep.map_entries, (unsigned long long)rep.map_differ,
		       rep.ops_per_frame);
		differ |= rep.differ || rep.map_differ;
	}
	if (programs) {
		struct devdiff_prog_report rep;

		opts.count = programs;
		start = now();
		err = devdiff_programs(&opts, &rep);
		if (err) {
			fprintf(stderr, "devdiff: programs: %s\n", strerror(-err));
			return 2;
		}
		printf("programs: seed %llu, %llu generated in %.1f s: %llu refused by the "
		       "kernel, %llu by hwxdp for the device, %llu not translated, %llu "
		       "without a device copy (engine refuses the image); %llu compared, %llu "
		       "identical; %llu frames, %llu differ, %llu map entries "
		       "differ, %llu device faults\n",
		       (unsigned long long)opts.seed, (unsigned long long)rep.generated,
		       now() - start, (unsigned long long)rep.kernel_rejects,
		       (unsigned long long)rep.device_rejects, (unsigned long long)rep.untranslated,
		       (unsigned long long)rep.no_copy, (unsigned long long)rep.compared,
		       (unsigned long long)rep.identical, (unsigned long long)rep.frames,
		       (unsigned long long)rep.frame_differ, (unsigned long long)rep.map_differ,
		       (unsigned long long)rep.faults);
		differ |= rep.compared != rep.identical || rep.no_copy;
	}
	return differ ? 1 : 0;
}
