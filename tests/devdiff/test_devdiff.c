// SPDX-License-Identifier: GPL-2.0
/*
 * The device against the kernel, a short run of each differential harness
 * (tests/devdiff/devdiff.h); build/tests/devdiff runs the long ones.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tests/devdiff/devdiff.h"

/* a few thousand frames: a few seconds, every fixed case and each kind of mutation */
#define SHORT_FRAMES   3000
#define SHORT_PROGRAMS 300

Test(devdiff, fwd_kernel_vs_device, .timeout = 300)
{
	struct devdiff_opts opts = { .seed = 1, .count = SHORT_FRAMES, .show = 10 };
	struct devdiff_fwd_report rep;
	int err;

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	err = devdiff_fwd(&opts, &rep);
	cr_assert_eq(err, 0, "devdiff could not run: %s", strerror(-err));
	fprintf(stderr,
		"devdiff: %llu frames, %llu differ (%llu forwarded, %llu redirects, %llu punted, "
		"%llu dropped, %llu refused by both; %u punt reasons); %u maps, %llu entries, "
		"%llu differ; device %.1f ops per frame, image %zu ops for %zu BPF insns\n",
		(unsigned long long)rep.frames, (unsigned long long)rep.differ,
		(unsigned long long)rep.forwarded, (unsigned long long)rep.redirects,
		(unsigned long long)rep.punted, (unsigned long long)rep.dropped,
		(unsigned long long)rep.refused, rep.punt_kinds, rep.maps,
		(unsigned long long)rep.map_entries, (unsigned long long)rep.map_differ,
		rep.ops_per_frame, rep.image_ops, rep.bpf_insns);
	cr_assert_eq(rep.differ, 0, "%llu of %llu frames differ between kernel and device",
		     (unsigned long long)rep.differ, (unsigned long long)rep.frames);
	cr_assert_eq(rep.map_differ, 0, "%llu map entries differ",
		     (unsigned long long)rep.map_differ);
	/* a run that compared nothing proves nothing */
	cr_assert_gt(rep.forwarded, 0);
	cr_assert_gt(rep.redirects, 0);
	cr_assert_geq(rep.punt_kinds, 10, "only %u punt reasons reached", rep.punt_kinds);
	cr_assert_geq(rep.maps, 6, "only %u maps compared", rep.maps);
}

Test(devdiff, random_programs_kernel_vs_device, .timeout = 300)
{
	struct devdiff_opts opts = { .seed = 1, .count = SHORT_PROGRAMS, .show = 10 };
	struct devdiff_prog_report rep;
	int err;

	if (geteuid() != 0)
		cr_skip_test("the kernel side needs root");
	err = devdiff_programs(&opts, &rep);
	cr_assert_eq(err, 0, "devdiff could not run: %s", strerror(-err));
	fprintf(stderr,
		"devdiff: %llu programs: %llu refused by the kernel, %llu by hwxdp for the "
		"device, %llu not translated, %llu without a device copy; %llu compared, %llu "
		"identical; %llu frames, %llu "
		"differ, %llu map entries differ, %llu device faults\n",
		(unsigned long long)rep.generated, (unsigned long long)rep.kernel_rejects,
		(unsigned long long)rep.device_rejects, (unsigned long long)rep.untranslated,
		(unsigned long long)rep.no_copy, (unsigned long long)rep.compared,
		(unsigned long long)rep.identical, (unsigned long long)rep.frames,
		(unsigned long long)rep.frame_differ, (unsigned long long)rep.map_differ,
		(unsigned long long)rep.faults);
	cr_assert_gt(rep.compared, 0, "no program reached both targets");
	cr_assert_eq(rep.no_copy, 0, "%llu translated programs the engine refuses",
		     (unsigned long long)rep.no_copy);
	cr_assert_eq(rep.compared, rep.identical, "%llu of %llu programs differ",
		     (unsigned long long)(rep.compared - rep.identical),
		     (unsigned long long)rep.compared);
}
