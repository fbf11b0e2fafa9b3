// SPDX-License-Identifier: GPL-2.0
/*
 * XDP programs in the styles of public code (tests/corpus/NAME.bpf.c) through
 * the kernel, hwxdp's host verifier and the device; translated ones run
 * against the kernel frame by frame. HWXDP_CORPUS_LONG=1 (3,000 frames per
 * program) or HWXDP_CORPUS_FRAMES=N for a longer run.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <stddef.h>
#include <sys/stat.h>

#include "lab/target.h"
#include "tests/corpus/corpus.h"
#include "tests/devdiff/pair.h"

/*
 * Programs the kernel accepts and hwxdp's host verifier is known to refuse,
 * each with the words of its refusal (alternatives split by '|'), in every
 * build: gaps of the verifier
 * kept in the corpus so that they stay in sight. A row here must still be
 * refused for that reason; one that passes must leave the list.
 */
static const struct {
	const char *object, *reason;
} known_gaps[] = {
	/* the TCP option walk after the extension header walk, the offset in
	 * registers: hwxdp's iterator loops do not converge as the kernel's */
	{ "ipv6_chain_inline",
	  "The sequence of 8193 jumps is too complex|BPF program is too large" },
	{ NULL, NULL }, /* the end */
};

/* Whether reason holds one of gap's words, alternatives split by '|'. */
static bool holds_gap(const char *reason, const char *gap)
{
	char words[CORPUS_REASON_MAX], *alt, *save = NULL;

	snprintf(words, sizeof(words), "%s", gap);
	for (alt = strtok_r(words, "|", &save); alt; alt = strtok_r(NULL, "|", &save))
		if (strstr(reason, alt))
			return true;
	return false;
}

static const char *known_gap(const char *object)
{
	for (size_t i = 0; known_gaps[i].object; i++)
		if (!strcmp(known_gaps[i].object, object))
			return known_gaps[i].reason;
	return NULL;
}

/*
 * One build of the corpus: each program through the three, every check.
 * `as_written`: the build the programs were written for, where each one not
 * named bad_ must be valid; another build (v3) may lead clang to code the
 * kernel refuses, and then only hwxdp's agreement with it counts.
 */
static void check_build(const char *subdir, const char *report, bool as_written)
{
	struct corpus_row *rows = NULL;
	struct corpus_totals t;
	unsigned int gaps = 0;
	const char *gap;
	char path[4096];
	size_t cnt = 0;
	int err;

	if (geteuid() != 0)
		cr_skip_test("the kernel's verdict and BPF_PROG_TEST_RUN need root");
	err = corpus_run_in(subdir, corpus_frame_count(), &rows, &cnt);
	cr_assert_eq(err, 0, "the corpus could not run: %s", strerror(-err));
	corpus_totals(rows, cnt, &t);
	fprintf(stderr, "== %s\n", subdir);
	corpus_print(stderr, rows, cnt, &t);
	snprintf(path, sizeof(path), "%s/%s", hx_build_dir(), report);
	err = corpus_write_json(path, rows, cnt, &t);
	cr_expect_eq(err, 0, "%s: %s", path, strerror(-err));

	for (size_t i = 0; i < cnt; i++) {
		const struct corpus_row *r = &rows[i];

		/* a bad_ program the kernel accepts tests nothing */
		cr_expect(!r->expect_bad || !r->kernel_ok,
			  "%s/%s: written to be refused, the kernel accepts it", r->object,
			  r->prog);
		cr_expect(!r->expect_bad || r->kernel_ok || r->kernel_reason[0],
			  "%s/%s: no reason for the refusal", r->object, r->prog);
		cr_expect(!as_written || r->expect_bad || r->kernel_ok,
			  "%s/%s: meant to be valid, the kernel refuses it: %s", r->object, r->prog,
			  r->kernel_reason);
		cr_expect(r->kernel_ok || !r->host_ok,
			  "unsound: %s/%s (%s): the kernel refuses it (%s), hwxdp's host verifier "
			  "accepts it",
			  r->object, r->prog, subdir, r->kernel_reason);
		/* tests/devdiff/pair.c opens a device side only when every map has a
		 * table; a map type the device lacks is reported, not failed */
		cr_expect(!r->device_ok || !r->kernel_ok || r->ran ||
				  !strncmp(r->run_error, "device open", 11),
			  "%s/%s: no differential run: %s", r->object, r->prog, r->run_error);
		cr_expect(!r->ran || r->frames >= corpus_frame_count(), "%s/%s: %llu frames run",
			  r->object, r->prog, (unsigned long long)r->frames);
		cr_expect_eq(r->differ, 0,
			     "%s/%s (%s): %llu of %llu frames differ between kernel and device",
			     r->object, r->prog, subdir, (unsigned long long)r->differ,
			     (unsigned long long)r->frames);
		cr_expect_eq(r->map_differ, 0, "%s/%s (%s): %llu map entries differ", r->object,
			     r->prog, subdir, (unsigned long long)r->map_differ);
		/* a walk no longer than the kernel's, for what both accept */
		cr_expect(!r->kernel_ok || !r->host_ok || r->host_insns <= r->kernel_insns,
			  "%s/%s (%s): hwxdp's host verifier processed %u instructions, the "
			  "kernel %u",
			  r->object, r->prog, subdir, r->host_insns, r->kernel_insns);
		/* the host copy is loaded by root: what the kernel takes, hwxdp takes */
		gap = known_gap(r->object);
		cr_expect(!r->kernel_ok || r->host_ok || gap,
			  "%s/%s (%s): hwxdp's host verifier refuses it: %s", r->object, r->prog,
			  subdir, r->host_reason);
		cr_expect(!gap || !r->kernel_ok || (!r->host_ok && holds_gap(r->host_reason, gap)),
			  "%s/%s (%s): a known gap (\"%s\") no longer shows: %s", r->object,
			  r->prog, subdir, gap, r->host_ok ? "accepted" : r->host_reason);
		gaps += gap && r->kernel_ok && !r->host_ok;
		/* one the kernel takes only bound: hwxdp, as unbound, refuses it too */
		cr_expect(!r->kernel_bound || strstr(r->host_unbound_reason, CORPUS_UNBOUND),
			  "%s/%s (%s): bound in the kernel; hwxdp as unbound: %s", r->object,
			  r->prog, subdir, r->host_unbound_reason);
	}
	cr_expect_eq(t.host_refuses_kernel_ok, gaps,
		     "%u programs the kernel accepts are refused by hwxdp, %u of them known gaps",
		     t.host_refuses_kernel_ok, gaps);
	cr_assert_geq(cnt, 20, "only %zu corpus programs found in %s", cnt, subdir);
	cr_assert_geq(t.bad_rows, 3, "the corpus needs programs the kernel refuses");
	cr_assert_eq(t.unsound, 0, "%u programs the kernel refuses are accepted by hwxdp",
		     t.unsound);
	free(rows);
}

Test(corpus, kernel_hwxdp_device, .timeout = 600)
{
	check_build("tests/corpus", "corpus-report.json", true);
}

/* The same sources as newer clang builds them by default (-mcpu=v3). */
Test(corpus, cpu_v3, .timeout = 600)
{
	check_build("tests/corpus-v3", "corpus-v3-report.json", false);
}

/* And at -O1, where clang keeps more on the stack and tests pointers for
 * NULL that -O2 proves. */
Test(corpus, clang_O1, .timeout = 600)
{
	check_build("tests/corpus-O1", "corpus-O1-report.json", false);
}

/* More objects than any fixed table would hold, all of them run: a held-out
 * set is dropped into a directory whole. 150 links to one small object. */
Test(corpus, every_object_of_a_large_set, .timeout = 300)
{
	char dir[4096], from[4096], to[4200], *target;
	struct corpus_row *rows = NULL;
	size_t cnt = 0;
	int err;

	if (geteuid() != 0)
		cr_skip_test("the kernel's verdict and BPF_PROG_TEST_RUN need root");
	snprintf(from, sizeof(from), "%s/tests/corpus/nodebug_v1.bpf.o", hx_build_dir());
	target = realpath(from, NULL);
	cr_assert_not_null(target, "%s: build the corpus with make", from);
	snprintf(dir, sizeof(dir), "%s/tests/corpus-many", hx_build_dir());
	mkdir(dir, 0755);
	for (int i = 0; i < 150; i++) {
		snprintf(to, sizeof(to), "%s/n%03d.bpf.o", dir, i);
		unlink(to);
		cr_assert_eq(symlink(target, to), 0, "%s: %s", to, strerror(errno));
	}
	err = corpus_run_in("tests/corpus-many", 1, &rows, &cnt);
	for (int i = 0; i < 150; i++) {
		snprintf(to, sizeof(to), "%s/n%03d.bpf.o", dir, i);
		unlink(to);
	}
	rmdir(dir);
	free(target);
	cr_assert_eq(err, 0, "the run failed: %s", strerror(-err));
	cr_expect_eq(cnt, 150, "%zu of 150 objects run", cnt);
	for (size_t i = 0; i < cnt; i++)
		cr_expect(rows[i].kernel_ok && rows[i].host_ok && rows[i].ran, "%s",
			  rows[i].object);
	free(rows);
}

/*
 * The objects with legacy maps (struct bpf_map_def in SEC("maps")), in each
 * build: the kernel's copy is the host copy, its maps rewritten for libbpf
 * 1.x (loader/legacy_maps.c), and it must agree with the device frame by
 * frame and map entry by map entry.
 */
Test(corpus, legacy_maps_through_the_host_copy, .timeout = 300)
{
	static const char *const objects[] = { "legacy_xdp2", "legacy_prog_sec", "noinline_legacy",
					       "iproute2_elf_map" };
	static const char *const builds[] = { "corpus", "corpus-v3", "corpus-O1" };
	char dir[4096], from[4096], to[4200], *target;
	const size_t want = 12;
	struct corpus_row *rows = NULL;
	size_t cnt = 0, legacy = 0;
	int err;

	if (geteuid() != 0)
		cr_skip_test("the kernel's verdict and BPF_PROG_TEST_RUN need root");
	snprintf(dir, sizeof(dir), "%s/tests/corpus-legacy", hx_build_dir());
	mkdir(dir, 0755);
	for (size_t b = 0; b < 3; b++)
		for (size_t o = 0; o < 4; o++) {
			snprintf(from, sizeof(from), "%s/tests/%s/%s.bpf.o", hx_build_dir(),
				 builds[b], objects[o]);
			target = realpath(from, NULL);
			cr_assert_not_null(target, "%s: build the corpus with make", from);
			snprintf(to, sizeof(to), "%s/%s-%s.bpf.o", dir, objects[o], builds[b]);
			unlink(to);
			cr_assert_eq(symlink(target, to), 0, "%s: %s", to, strerror(errno));
			free(target);
		}
	err = corpus_run_in("tests/corpus-legacy", corpus_frame_count(), &rows, &cnt);
	for (size_t b = 0; b < 3; b++)
		for (size_t o = 0; o < 4; o++) {
			snprintf(to, sizeof(to), "%s/%s-%s.bpf.o", dir, objects[o], builds[b]);
			unlink(to);
		}
	rmdir(dir);
	cr_assert_eq(err, 0, "the run failed: %s", strerror(-err));
	cr_expect_eq(cnt, want, "%zu of %zu programs run", cnt, want);
	for (size_t i = 0; i < cnt; i++) {
		const struct corpus_row *r = &rows[i];

		legacy += r->legacy;
		cr_expect(r->legacy, "%s: not read as an object with legacy maps", r->object);
		cr_expect(r->kernel_ok, "%s: libbpf and the kernel refuse it: %s", r->object,
			  r->kernel_reason);
		cr_expect(r->ran, "%s: no differential run: %s", r->object, r->run_error);
		cr_expect(r->frames >= corpus_frame_count(), "%s: %llu frames run", r->object,
			  (unsigned long long)r->frames);
		cr_expect_eq(r->differ, 0, "%s: %llu of %llu frames differ", r->object,
			     (unsigned long long)r->differ, (unsigned long long)r->frames);
		cr_expect_eq(r->map_differ, 0, "%s: %llu map entries differ", r->object,
			     (unsigned long long)r->map_differ);
		cr_expect_gt(r->map_entries, 0, "%s: no map entry compared", r->object);
		cr_log_info("%s: %llu frames, %llu map entries, the same on both", r->object,
			    (unsigned long long)r->frames, (unsigned long long)r->map_entries);
	}
	cr_expect_eq(legacy, want, "%zu legacy rows", legacy);
	free(rows);
}

/*
 * One object of the corpus in each of its 3 builds, run in a directory of
 * its own under the build (links to the 3 objects): the rows, 0 or -errno.
 */
static int run_in_builds(const char *object, const char *subdir, struct corpus_row **rows,
			 size_t *cnt)
{
	static const char *const builds[] = { "corpus", "corpus-v3", "corpus-O1" };
	char dir[4096], from[4096], to[4200], rel[256], *target;
	int err;

	snprintf(dir, sizeof(dir), "%s/tests/%s", hx_build_dir(), subdir);
	snprintf(rel, sizeof(rel), "tests/%s", subdir);
	mkdir(dir, 0755);
	for (size_t b = 0; b < 3; b++) {
		snprintf(from, sizeof(from), "%s/tests/%s/%s.bpf.o", hx_build_dir(), builds[b],
			 object);
		target = realpath(from, NULL);
		cr_assert_not_null(target, "%s: build the corpus with make", from);
		snprintf(to, sizeof(to), "%s/%s-%s.bpf.o", dir, object, builds[b]);
		unlink(to);
		cr_assert_eq(symlink(target, to), 0, "%s: %s", to, strerror(errno));
		free(target);
	}
	err = corpus_run_in(rel, corpus_frame_count(), rows, cnt);
	for (size_t b = 0; b < 3; b++) {
		snprintf(to, sizeof(to), "%s/%s-%s.bpf.o", dir, object, builds[b]);
		unlink(to);
	}
	rmdir(dir);
	return err;
}

/* A row the kernel accepts, the device translates, and whose frames and
 * map entries are the same on both. */
static void expect_same_on_both(const struct corpus_row *r)
{
	cr_expect(r->kernel_ok, "%s/%s: the kernel refuses it: %s", r->object, r->prog,
		  r->kernel_reason);
	cr_expect(r->device_ok, "%s/%s: not translated: %s", r->object, r->prog, r->device_reason);
	cr_expect(r->ran, "%s/%s: no differential run: %s", r->object, r->prog, r->run_error);
	cr_expect(r->frames >= corpus_frame_count(), "%s/%s: %llu frames run", r->object, r->prog,
		  (unsigned long long)r->frames);
	cr_expect_eq(r->differ, 0, "%s/%s: %llu of %llu frames differ", r->object, r->prog,
		     (unsigned long long)r->differ, (unsigned long long)r->frames);
	cr_expect_eq(r->map_differ, 0, "%s/%s: %llu map entries differ", r->object, r->prog,
		     (unsigned long long)r->map_differ);
	cr_expect_gt(r->map_entries, 0, "%s/%s: no map entry compared", r->object, r->prog);
}

/* A row's frames took both ways, dropped and passed. */
static void expect_both_ways(const struct corpus_row *r)
{
	cr_expect(r->actions[XDP_DROP] && r->actions[XDP_PASS],
		  "%s: the frames took one way only (%llu dropped, %llu passed)", r->object,
		  (unsigned long long)r->actions[XDP_DROP],
		  (unsigned long long)r->actions[XDP_PASS]);
	cr_log_info("%s/%s: %llu frames, %llu map entries, the same on both (%u ops)", r->object,
		    r->prog, (unsigned long long)r->frames, (unsigned long long)r->map_entries,
		    r->image_ops);
}

/*
 * tail_prog_array, in each build: a program array its definition fills
 * (`.values`), so the device's image holds the entry program and the two
 * stages it tail-calls, the array starting with their image indices. Every
 * program translates, and frames taking each way (slot 0, slot 1, the
 * empty slot 2 that falls through) agree with the kernel's, verdict,
 * bytes and counters.
 */
Test(corpus, tail_calls_through_a_filled_program_array, .timeout = 300)
{
	struct corpus_row *rows = NULL;
	size_t cnt = 0, entries = 0;
	int err;

	if (geteuid() != 0)
		cr_skip_test("the kernel's verdict and BPF_PROG_TEST_RUN need root");
	err = run_in_builds("tail_prog_array", "corpus-tail", &rows, &cnt);
	cr_assert_eq(err, 0, "the run failed: %s", strerror(-err));
	cr_expect_eq(cnt, 9, "%zu rows, 3 programs in each of 3 builds", cnt);
	for (size_t i = 0; i < cnt; i++) {
		expect_same_on_both(&rows[i]);
		if (strcmp(rows[i].prog, "xdp_entry"))
			continue;
		entries++;
		/* IPv4 and IPv6 stages drop a hop limit of 1, the fall-through passes */
		expect_both_ways(&rows[i]);
	}
	cr_expect_eq(entries, 3, "%zu entry programs", entries);
	free(rows);
}

/*
 * Hash keys of sizes the harness has no pattern for, filled from the keys
 * the frames look up (corpus.c, fill_looked_up), in each build:
 * acl_5tuple's 13-byte packed 5-tuple and 12-byte pair, katran_vip6_flows'
 * 20-byte VIP and 36-byte IPv6 flow, the flow looked up only behind a VIP
 * hit. The kernel's verdicts show both ways taken: acl_5tuple drops only on
 * a hit, passes a miss; katran_vip6_flows sends back (XDP_TX) only on a VIP
 * and a flow hit, drops a VIP hit of no flow, passes a VIP miss. Frames,
 * bytes and counters agree with the device's.
 */
Test(corpus, hash_keys_of_any_size_hit, .timeout = 300)
{
	static const char *const objects[] = { "acl_5tuple", "katran_vip6_flows" };
	struct corpus_row *rows = NULL;
	size_t cnt = 0;
	int err;

	if (geteuid() != 0)
		cr_skip_test("the kernel's verdict and BPF_PROG_TEST_RUN need root");
	for (size_t o = 0; o < 2; o++) {
		bool katran = o == 1;

		err = run_in_builds(objects[o], "corpus-keys", &rows, &cnt);
		cr_assert_eq(err, 0, "the run failed: %s", strerror(-err));
		cr_expect_eq(cnt, 3, "%zu rows, one program in each of 3 builds", cnt);
		for (size_t i = 0; i < cnt; i++) {
			const struct corpus_row *r = &rows[i];

			expect_same_on_both(r);
			cr_expect_gt(r->looked_up_keys, 0, "%s: no key filled from the lookups",
				     r->object);
			cr_expect(r->actions[XDP_DROP] && r->actions[XDP_PASS] &&
					  (!katran || r->actions[XDP_TX]),
				  "%s: the frames did not take every way (%llu sent back, %llu "
				  "dropped, %llu passed)",
				  r->object, (unsigned long long)r->actions[XDP_TX],
				  (unsigned long long)r->actions[XDP_DROP],
				  (unsigned long long)r->actions[XDP_PASS]);
			cr_log_info("%s/%s: %llu keys filled; %llu sent back, %llu dropped, %llu "
				    "passed, the same on both",
				    r->object, r->prog, (unsigned long long)r->looked_up_keys,
				    (unsigned long long)r->actions[XDP_TX],
				    (unsigned long long)r->actions[XDP_DROP],
				    (unsigned long long)r->actions[XDP_PASS]);
		}
		free(rows);
		rows = NULL;
	}
}

/*
 * map_in_map, in each build: an ARRAY_OF_MAPS its definition fills with
 * two counter arrays and a HASH_OF_MAPS of allow-lists the run stores, the
 * kernel's holding maps and the device's their table ids. The program
 * translates, and frames that find a list (and an address in it or not),
 * find none, and count into either array agree with the kernel's: verdict,
 * bytes, the counters and the entries of both maps of maps.
 */
Test(corpus, maps_of_maps, .timeout = 300)
{
	struct corpus_row *rows = NULL;
	size_t cnt = 0;
	int err;

	if (geteuid() != 0)
		cr_skip_test("the kernel's verdict and BPF_PROG_TEST_RUN need root");
	err = run_in_builds("map_in_map", "corpus-mim", &rows, &cnt);
	cr_assert_eq(err, 0, "the run failed: %s", strerror(-err));
	cr_expect_eq(cnt, 3, "%zu rows, one program in each of 3 builds", cnt);
	for (size_t i = 0; i < cnt; i++) {
		expect_same_on_both(&rows[i]);
		/* a list that lacks the source drops, the others pass */
		expect_both_ways(&rows[i]);
	}
	free(rows);
}

/* A file neither libbpf nor the project's loader reads is a row refused by
 * both, and the objects after it still run. */
Test(corpus, an_unreadable_object_is_a_row)
{
	char dir[4096], path[4200], *target;
	struct corpus_row *rows = NULL;
	size_t cnt = 0;
	FILE *f;
	int err;

	if (geteuid() != 0)
		cr_skip_test("the kernel's verdict and BPF_PROG_TEST_RUN need root");
	snprintf(path, sizeof(path), "%s/tests/corpus/nodebug_v1.bpf.o", hx_build_dir());
	target = realpath(path, NULL);
	cr_assert_not_null(target, "%s: build the corpus with make", path);
	snprintf(dir, sizeof(dir), "%s/tests/corpus-unreadable", hx_build_dir());
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/a_junk.bpf.o", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("\177ELF, or not quite\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/b_good.bpf.o", dir);
	unlink(path);
	cr_assert_eq(symlink(target, path), 0, "%s: %s", path, strerror(errno));
	err = corpus_run_in("tests/corpus-unreadable", 1, &rows, &cnt);
	unlink(path);
	snprintf(path, sizeof(path), "%s/a_junk.bpf.o", dir);
	unlink(path);
	rmdir(dir);
	free(target);
	cr_assert_eq(err, 0, "the run failed: %s", strerror(-err));
	cr_assert_eq(cnt, 2, "%zu rows", cnt);
	cr_expect(!strcmp(rows[0].object, "a_junk") && !rows[0].kernel_ok && !rows[0].host_ok &&
			  strstr(rows[0].kernel_reason, "libbpf cannot open it") &&
			  strstr(rows[0].host_reason, "cannot open"),
		  "%s: %s / %s", rows[0].object, rows[0].kernel_reason, rows[0].host_reason);
	cr_expect(rows[1].kernel_ok && rows[1].host_ok && rows[1].ran, "%s", rows[1].object);
	free(rows);
}

/*
 * The devmap programs (SEC("xdp/devmap")) of globals_frags and
 * redirect_egress_mac, in each build: translated, and run against the
 * kernel's copy, which BPF_PROG_TEST_RUN refuses and so sends the frames
 * for real behind a redirect into an entry naming it (tests/corpus/live.h):
 * the same frames sent, the same dropped, the same bytes, the same maps.
 * globals_frags's drops what goes back out its ingress port.
 */
Test(corpus, devmap_programs_against_the_kernel, .timeout = 300)
{
	static const struct {
		const char *object, *prog;
		bool both_ways;
	} rows_of[] = {
		{ "globals_frags", "xdp_devmap_egress", true },
		{ "redirect_egress_mac", "xdp_redirect_map_egress", false },
	};

	if (geteuid() != 0)
		cr_skip_test("the kernel's verdict, a namespace and BPF_PROG_TEST_RUN need root");
	for (size_t o = 0; o < sizeof(rows_of) / sizeof(rows_of[0]); o++) {
		struct corpus_row *rows = NULL;
		size_t cnt = 0, entries = 0;
		int err = run_in_builds(rows_of[o].object, "corpus-devmap", &rows, &cnt);

		cr_assert_eq(err, 0, "%s: the run failed: %s", rows_of[o].object, strerror(-err));
		for (size_t i = 0; i < cnt; i++) {
			const struct corpus_row *r = &rows[i];

			if (strcmp(r->prog, rows_of[o].prog))
				continue;
			entries++;
			cr_expect(r->kernel_ok, "%s/%s: the kernel refuses it: %s", r->object,
				  r->prog, r->kernel_reason);
			cr_expect(r->device_ok, "%s/%s: not translated: %s", r->object, r->prog,
				  r->device_reason);
			cr_expect(r->ran, "%s/%s: no differential run: %s", r->object, r->prog,
				  r->run_error);
			cr_expect(r->frames >= corpus_frame_count(), "%s/%s: %llu frames run",
				  r->object, r->prog, (unsigned long long)r->frames);
			cr_expect_eq(r->differ, 0, "%s/%s: %llu of %llu frames differ", r->object,
				     r->prog, (unsigned long long)r->differ,
				     (unsigned long long)r->frames);
			cr_expect_eq(r->map_differ, 0, "%s/%s: %llu map entries differ", r->object,
				     r->prog, (unsigned long long)r->map_differ);
			if (rows_of[o].both_ways)
				expect_both_ways(r);
			cr_log_info("%s/%s: %llu frames, %llu sent and %llu dropped on both",
				    r->object, r->prog, (unsigned long long)r->frames,
				    (unsigned long long)r->actions[XDP_PASS],
				    (unsigned long long)r->actions[XDP_DROP]);
		}
		cr_expect_eq(entries, 3, "%s: %zu rows of %s", rows_of[o].object, entries,
			     rows_of[o].prog);
		free(rows);
	}
}

/*
 * A program of the XDP metadata kfuncs, which the kernel takes only bound
 * to a netdev, and then does not test-run: loaded bound to a TAP, its
 * frames written to the TAP (tests/corpus/tap.h), where the kfuncs answer
 * -EOPNOTSUPP as the device's do. hwxdp's host verifier, as unbound,
 * refuses it in the kernel's words, and as bound accepts it, in no more
 * instructions; the device's frames and maps are the kernel's.
 */
Test(corpus, metadata_kfuncs_bound_to_a_tap, .timeout = 300)
{
	struct corpus_row *rows = NULL;
	size_t cnt = 0;
	int err;

	if (geteuid() != 0)
		cr_skip_test("the kernel's verdict, a namespace and a TAP need root");
	err = run_in_builds("xdp_hints", "corpus-hints", &rows, &cnt);
	cr_assert_eq(err, 0, "the run failed: %s", strerror(-err));
	cr_assert_eq(cnt, 3, "%zu rows", cnt);
	for (size_t i = 0; i < cnt; i++) {
		const struct corpus_row *r = &rows[i];

		cr_expect(r->kernel_bound, "%s: not loaded bound", r->object);
		expect_same_on_both(r);
		cr_expect(strstr(r->host_unbound_reason, CORPUS_UNBOUND), "%s: unbound: %s",
			  r->object, r->host_unbound_reason);
		cr_expect(r->host_ok, "%s: bound, the host copy: %s", r->object, r->host_reason);
		cr_expect(r->host_insns <= r->kernel_insns,
			  "%s: bound, hwxdp processed %u instructions, the kernel %u", r->object,
			  r->host_insns, r->kernel_insns);
		/* both ways: sent back, and passed or dropped */
		cr_expect(r->actions[XDP_TX] > 0 && r->actions[XDP_TX] < r->frames,
			  "%s: %llu of %llu frames sent back", r->object,
			  (unsigned long long)r->actions[XDP_TX], (unsigned long long)r->frames);
		cr_log_info("%s: kernel %u insns, host %u insns, device %u ops; %llu frames, "
			    "%llu sent back, %llu differ, %llu map entries differ",
			    r->object, r->kernel_insns, r->host_insns, r->image_ops,
			    (unsigned long long)r->frames, (unsigned long long)r->actions[XDP_TX],
			    (unsigned long long)r->differ, (unsigned long long)r->map_differ);
	}
	free(rows);
}

/* flow_stats_holes.bpf.c's record, laid out by the host's compiler. */
struct conv_rec {
	uint8_t protocol;
	uint64_t rx_packets;
	uint64_t rx_bytes;
	uint16_t last_len;
	uint32_t ifindex;
	uint8_t tcp_flags;
};

#define MEMBER(m)                                                                                  \
	{                                                                                          \
		offsetof(struct conv_rec, m), sizeof(((struct conv_rec *)0)->m)                    \
	}

/*
 * The padding the map comparison leaves out is exactly what no member
 * covers, from the BTF of the object the kernel loaded, against the offsets
 * and sizes the host's compiler gives the same declaration: 16 of 40 bytes.
 * A map whose value has no padding (conn_limit_key's) keeps no mask.
 */
Test(corpus, padding_left_out_is_what_no_member_covers)
{
	static const struct {
		size_t off, size;
	} members[] = { MEMBER(protocol), MEMBER(rx_packets), MEMBER(rx_bytes),
			MEMBER(last_len), MEMBER(ifindex),    MEMBER(tcp_flags) };
	uint8_t covered[sizeof(struct conv_rec)] = { 0 };
	struct dd_side k, c;
	struct dd_map *m;
	char path[4096];
	size_t holes = 0;

	if (geteuid() != 0)
		cr_skip_test("the host copy is loaded into the kernel: root");
	snprintf(path, sizeof(path), "%s/tests/corpus/flow_stats_holes.bpf.o", hx_build_dir());
	cr_assert_eq(dd_side_open_kernel(&k, path), 0, "%s", path);
	cr_expect_eq(dd_side_mask_padding(&k), 1);
	m = dd_side_map(&k, "conv_stats");
	cr_assert_not_null(m);
	cr_assert_eq(m->value_size, sizeof(struct conv_rec));
	cr_assert_not_null(m->value_mask);
	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++)
		memset(covered + members[i].off, 0xff, members[i].size);
	for (size_t b = 0; b < sizeof(covered); b++) {
		cr_expect_eq(m->value_mask[b], covered[b], "byte %zu: mask %#x, members %#x", b,
			     m->value_mask[b], covered[b]);
		holes += !covered[b];
	}
	cr_expect_eq(holes, 16);
	dd_side_close(&k);

	snprintf(path, sizeof(path), "%s/tests/corpus/conn_limit_key.bpf.o", hx_build_dir());
	cr_assert_eq(dd_side_open_kernel(&c, path), 0, "%s", path);
	cr_expect_eq(dd_side_mask_padding(&c), 0);
	m = dd_side_map(&c, "conn_table");
	cr_assert_not_null(m);
	cr_expect_null(m->value_mask);
	dd_side_close(&c);
}
