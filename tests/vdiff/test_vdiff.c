// SPDX-License-Identifier: GPL-2.0
/*
 * A short differential run of hwxdp's verifier against the kernel's: 300
 * seeded programs, none of which hwxdp may accept when the kernel rejects it
 * even as root. The full run, with the CAP_BPF-only comparison as well, is
 * the vdiff program (tests/vdiff/vdiff_main.c).
 */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>

#include "lab/target.h"
#include "tests/vdiff/gen.h"
#include "tests/vdiff/kernel.h"
#include "verifier/verifier.h"

#define PROGRAMS 300
#define SEED	 20261130

struct tally {
	unsigned long kernel_accepts, both_accept, unsound, strict, judged;
	uint64_t first_unsound;
	char unsound_what[512];
};

static void run(struct vdiff_gen *gen, struct vdiff_kernel *kernel, uint64_t index, struct tally *t)
{
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts) };
	struct hwxdp_verify_result *hv = NULL;
	struct vdiff_kernel_result kr;
	struct vdiff_prog prog;
	int err;

	cr_assert_eq(vdiff_gen__program(gen, index, &prog), 0, "program %llu does not build",
		     (unsigned long long)index);
	err = hwxdp_verify_insns(prog.insns, prog.cnt, prog.maps, prog.map_cnt, &opts, &hv);
	cr_assert_eq(err, 0, "hwxdp_verify_insns on program %llu: %s", (unsigned long long)index,
		     strerror(-err));
	err = vdiff_kernel__load(kernel, &prog, VDIFF_CAPS_ROOT, &kr);
	cr_assert_eq(err, 0, "the kernel cannot judge program %llu: %s", (unsigned long long)index,
		     strerror(-err));
	t->judged++;
	if (kr.accepted) {
		t->kernel_accepts++;
		if (hv->accepted)
			t->both_accept++;
		else
			t->strict++;
	} else if (hv->accepted) {
		if (!t->unsound++) {
			t->first_unsound = index;
			snprintf(t->unsound_what, sizeof(t->unsound_what), "%s", prog.what);
		}
	}
	vdiff_kernel_result__clear(&kr);
	hwxdp_verify_result__free(hv);
	vdiff_prog__clear(&prog);
}

Test(vdiff, seeded_programs_none_unsound, .timeout = 300)
{
	struct vdiff_gen_opts gopts = { .sz = sizeof(gopts), .seed = SEED, .mix = VDIFF_MIX_BOTH };
	struct vdiff_kernel *kernel = NULL;
	struct vdiff_gen *gen = NULL;
	struct tally t = { 0 };
	uint64_t i;

	if (geteuid() != 0)
		cr_skip_test("the kernel's verifier needs root");
	gopts.base_object = hx_object_path("fwd");
	cr_assert_eq(vdiff_gen__new(&gopts, &gen), 0, "cannot open %s", gopts.base_object);
	cr_assert_eq(vdiff_kernel__new(&kernel), 0);
	for (i = 0; i < PROGRAMS; i++)
		run(gen, kernel, i, &t);
	cr_log_info(
		"vdiff: the kernel (root) accepts %lu of %lu programs; hwxdp accepts %lu of those "
		"(%.1f %%), %lu too strict, %lu unsound",
		t.kernel_accepts, t.judged, t.both_accept,
		t.kernel_accepts ? 100.0 * (double)t.both_accept / (double)t.kernel_accepts : 0.0,
		t.strict, t.unsound);
	/* a generator that only makes garbage would prove nothing */
	cr_expect_geq(t.kernel_accepts, PROGRAMS / 4, "the kernel accepts only %lu programs",
		      t.kernel_accepts);
	cr_assert_eq(t.unsound, 0,
		     "%lu unsound programs; the first is #%llu (%s): "
		     "vdiff --seed %d --index %llu shows it",
		     t.unsound, (unsigned long long)t.first_unsound, t.unsound_what, SEED,
		     (unsigned long long)t.first_unsound);
	vdiff_kernel__free(kernel);
	vdiff_gen__free(gen);
}
