// SPDX-License-Identifier: GPL-2.0
/*
 * vdiff: hwxdp's verifier against the kernel's, on generated programs.
 *
 *   vdiff [--seed N] [--count N] [--start N] [--mix templates|mutations|both]
 *         [--caps both|root] [--show-unsound] [--show-strict N] [--save DIR]
 *         [--base OBJ] [--index N] [--log-level N] [-v]
 *
 * Every program (see tests/vdiff/gen.h) goes through hwxdp_verify_insns and
 * through bpf_prog_load as an XDP program, twice: as root, and with only
 * CAP_BPF + CAP_NET_ADMIN, the rules verifier/verifier.h promises (without
 * CAP_PERFMON the kernel also forbids pointer leaks, comparisons and
 * variable packet offsets, and walks speculative paths, so that constant-
 * bounded loops do not load). It then lands in one bin:
 *   both accept    hwxdp and the kernel accept it (as root and with CAP_BPF)
 *   both reject    hwxdp rejects it, and so does the kernel even as root
 *   UNSOUND        hwxdp accepts what even root cannot load: a verifier bug
 *   root only      hwxdp accepts what loads as root but not with CAP_BPF
 *                  alone: outside the promised rules, not unsafe
 *   too strict     hwxdp rejects what the kernel loads with CAP_BPF
 *   root accepts   hwxdp rejects what only root can load: within the
 *                  promised rules, but fwd.bpf.o itself is such a program
 *                  (it subtracts packet pointers)
 *
 *   --seed N         the run's seed (default 1); program i of a seed and --mix
 *                    is always the same program
 *   --count N        programs to run (default 1000), from --start (default 0)
 *   --mix M          template programs, mutations of the base object, or both
 *                    (default both: about 70 % templates)
 *   --caps C         both (default); root: load as root only (fast: no
 *                    speculative-path walks), and judge "too strict" against
 *                    root
 *   --show-unsound   print each unsound program, disassembled, with both logs
 *   --show-strict N  print the first N too-strict programs the same way
 *   --save DIR       write unsound programs to DIR/unsound-I.txt, and the first
 *                    20 of the root-only, too-strict and root-accepts bins to
 *                    DIR/rootonly-I.txt, DIR/strict-I.txt, DIR/rootstrict-I.txt
 *                    (I: program index)
 *   --base OBJ       object whose XDP program is mutated (default
 *                    $HWXDP_BUILD/progs/fwd.bpf.o, HWXDP_BUILD defaults to build)
 *   --index N        run program N alone and print it with both logs
 *   --log-level N    hwxdp's log level (default 1; 2 adds every register state)
 *   -v               one line per program
 *
 * Needs root (CAP_BPF, CAP_NET_ADMIN). Exits 1 when any program is unsound,
 * 2 on a usage or setup error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lab/target.h"
#include "base/log.h"
#include "tests/vdiff/gen.h"
#include "tests/vdiff/kernel.h"
#include "verifier/disasm.h"
#include "verifier/verifier.h"

#define SAVE_STRICT_MAX 20
#define TOP_REASONS	15

enum outcome {
	BOTH_ACCEPT,   /* hwxdp, CAP_BPF and root accept */
	BOTH_REJECT,   /* hwxdp and root reject */
	UNSOUND,       /* hwxdp accepts, root rejects */
	ROOT_ONLY,     /* hwxdp and root accept, CAP_BPF rejects */
	TOO_STRICT,    /* hwxdp rejects, CAP_BPF accepts */
	ROOT_STRICTER, /* hwxdp and CAP_BPF reject, root accepts */
	OUTCOMES
};

static const char *const outcome_names[OUTCOMES] = { "both accept", "both reject", "UNSOUND",
						     "root only",   "too strict",  "root accepts" };

struct reason_count {
	char *shape;
	unsigned long count;
	uint64_t first;
};

struct reasons {
	struct reason_count *items;
	size_t cnt, cap;
};

struct config {
	uint64_t seed, count, start;
	enum vdiff_mix mix;
	enum vdiff_caps caps;
	bool show_unsound, verbose, one;
	unsigned long show_strict;
	int log_level;
	const char *save_dir, *base;
};

struct bin_detail {
	struct reasons reasons;
	unsigned long shown, saved;
};

struct stats {
	unsigned long bins[2][OUTCOMES]; /* [kind][outcome] */
	unsigned long root_accepts[2];
	unsigned long hwxdp_errors, kernel_errors;
	uint64_t hwxdp_ns, kernel_ns;
	struct bin_detail detail[OUTCOMES];
	struct reasons kernel_rejects, bpf_only;
};

static int count_reason(struct reasons *r, const char *reason, uint64_t index)
{
	char shape[256];
	size_t i;

	vdiff_reason_shape(reason[0] ? reason : "(no message)", shape, sizeof(shape));
	for (i = 0; i < r->cnt; i++) {
		if (!strcmp(r->items[i].shape, shape)) {
			r->items[i].count++;
			return 0;
		}
	}
	if (r->cnt == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 32;
		struct reason_count *n = realloc(r->items, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		r->items = n;
		r->cap = cap;
	}
	r->items[r->cnt].shape = strdup(shape);
	if (!r->items[r->cnt].shape)
		return -ENOMEM;
	r->items[r->cnt].count = 1;
	r->items[r->cnt].first = index;
	r->cnt++;
	return 0;
}

static int by_count(const void *a, const void *b)
{
	const struct reason_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static void print_reasons(const char *title, struct reasons *r)
{
	size_t i;

	if (!r->cnt)
		return;
	qsort(r->items, r->cnt, sizeof(*r->items), by_count);
	printf("%s\n", title);
	for (i = 0; i < r->cnt && i < TOP_REASONS; i++)
		printf("  %6lu  %-70s (first: #%llu)\n", r->items[i].count, r->items[i].shape,
		       (unsigned long long)r->items[i].first);
	if (r->cnt > TOP_REASONS)
		printf("  ... %zu more\n", r->cnt - TOP_REASONS);
}

static void free_reasons(struct reasons *r)
{
	size_t i;

	for (i = 0; i < r->cnt; i++)
		free(r->items[i].shape);
	free(r->items);
}

static void print_program(FILE *f, const struct vdiff_prog *prog)
{
	char text[256];
	size_t i;

	fprintf(f, "program #%llu (%zu insns): %s\n", (unsigned long long)prog->index, prog->cnt,
		prog->what);
	for (i = 0; i < prog->map_cnt; i++)
		fprintf(f, "  map[idx:%zu] %s type %u key %u value %u entries %u flags %#x\n", i,
			prog->maps[i].name, prog->maps[i].type, prog->maps[i].key_size,
			prog->maps[i].value_size, prog->maps[i].max_entries,
			prog->maps[i].map_flags);
	for (i = 0; i < prog->cnt; i++) {
		const struct bpf_insn *insn = &prog->insns[i];

		hwxdp_disasm_insn(insn, prog->cnt - i, text, sizeof(text));
		fprintf(f, "%5zu: %-48s ; %02x %x %x %d %d\n", i, text, insn->code, insn->dst_reg,
			insn->src_reg, insn->off, insn->imm);
		if (insn->code == (BPF_LD | BPF_DW | BPF_IMM) && i + 1 < prog->cnt) {
			i++;
			fprintf(f, "%5zu: %-48s ; %02x %x %x %d %d\n", i, "(second half)",
				prog->insns[i].code, prog->insns[i].dst_reg, prog->insns[i].src_reg,
				prog->insns[i].off, prog->insns[i].imm);
		}
	}
}

static void print_log(FILE *f, const char *log, size_t len)
{
	fprintf(f, "%s%s", log ? log : "", len && log[len - 1] != '\n' ? "\n" : "");
}

static void print_kernel(FILE *f, const char *who, const struct vdiff_kernel_result *kr)
{
	fprintf(f, "---- kernel, %s: %s%s%s\n", who, kr->accepted ? "accepted" : "rejected",
		kr->err ? ": " : "", kr->err ? strerror(-kr->err) : "");
	print_log(f, kr->log, kr->log_len);
}

/* bpf is NULL where the CAP_BPF load was not needed (root rejects, or --caps root). */
static void print_report(FILE *f, const char *title, const struct vdiff_prog *prog,
			 const struct hwxdp_verify_result *hv,
			 const struct vdiff_kernel_result *root,
			 const struct vdiff_kernel_result *bpf)
{
	fprintf(f, "==== %s\n", title);
	print_program(f, prog);
	fprintf(f, "---- hwxdp: %s (error insn %u, %u insns processed)\n",
		hv->accepted ? "accepted" : "rejected", hv->error_insn, hv->insns_processed);
	print_log(f, hv->log, hv->log_len);
	if (bpf)
		print_kernel(f, "CAP_BPF + CAP_NET_ADMIN", bpf);
	print_kernel(f, "root", root);
}

static void save_report(const char *dir, const char *prefix, const struct vdiff_prog *prog,
			const struct hwxdp_verify_result *hv,
			const struct vdiff_kernel_result *root,
			const struct vdiff_kernel_result *bpf)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s-%llu.txt", dir, prefix,
		 (unsigned long long)prog->index);
	f = fopen(path, "w");
	if (!f) {
		pr_warn("vdiff: cannot write %s: %s\n", path, strerror(errno));
		return;
	}
	print_report(f, prefix, prog, hv, root, bpf);
	fclose(f);
}

/* Prints and saves the first few programs of a bin, and counts its messages. */
static void keep(const struct config *cfg, struct bin_detail *d, const char *title,
		 const char *prefix, bool all, const char *reason, const struct vdiff_prog *prog,
		 const struct hwxdp_verify_result *hv, const struct vdiff_kernel_result *root,
		 const struct vdiff_kernel_result *bpf)
{
	count_reason(&d->reasons, reason, prog->index);
	if (all ? cfg->show_unsound : d->shown < cfg->show_strict) {
		d->shown++;
		print_report(stdout, title, prog, hv, root, bpf);
	}
	if (cfg->save_dir && (all || d->saved < SAVE_STRICT_MAX)) {
		d->saved++;
		save_report(cfg->save_dir, prefix, prog, hv, root, bpf);
	}
}

static int run_one(const struct config *cfg, struct vdiff_gen *gen, struct vdiff_kernel *kernel,
		   uint64_t index, struct stats *st)
{
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts), .log_level = cfg->log_level };
	struct vdiff_kernel_result root, bpf_res = { 0 };
	const struct vdiff_kernel_result *bpf = NULL, *contract;
	struct hwxdp_verify_result *hv = NULL;
	struct vdiff_prog prog;
	enum outcome outcome;
	char reason[512];
	int err;

	err = vdiff_gen__program(gen, index, &prog);
	if (err) {
		pr_warn("vdiff: program %llu: %s\n", (unsigned long long)index, strerror(-err));
		return err;
	}
	err = hwxdp_verify_insns(prog.insns, prog.cnt, prog.maps, prog.map_cnt, &opts, &hv);
	if (err) {
		pr_warn("vdiff: program %llu: hwxdp_verify_insns: %s\n", (unsigned long long)index,
			strerror(-err));
		st->hwxdp_errors++;
		vdiff_prog__clear(&prog);
		return 0;
	}
	st->hwxdp_ns += hv->verify_ns;
	/*
	 * Root first: it is cheap, and what root rejects CAP_BPF alone rejects
	 * too, so only programs root accepts need the second, slower load.
	 */
	err = vdiff_kernel__load(kernel, &prog, VDIFF_CAPS_ROOT, &root);
	if (!err && root.accepted && cfg->caps == VDIFF_CAPS_BPF) {
		err = vdiff_kernel__load(kernel, &prog, VDIFF_CAPS_BPF, &bpf_res);
		if (err)
			vdiff_kernel_result__clear(&root);
		else
			bpf = &bpf_res;
	}
	if (err) {
		st->kernel_errors++;
		hwxdp_verify_result__free(hv);
		vdiff_prog__clear(&prog);
		/* no privilege or no memory: every other program would fail alike */
		return err == -EPERM || err == -ENOMEM ? err : 0;
	}
	st->kernel_ns += root.load_ns + (bpf ? bpf->load_ns : 0);
	contract = bpf ? bpf : &root;
	if (hv->accepted)
		outcome = !root.accepted ? UNSOUND : contract->accepted ? BOTH_ACCEPT : ROOT_ONLY;
	else
		outcome = contract->accepted ? TOO_STRICT
			  : root.accepted    ? ROOT_STRICTER
					     : BOTH_REJECT;
	st->bins[prog.kind][outcome]++;
	if (root.accepted)
		st->root_accepts[prog.kind]++;
	if (!contract->accepted) {
		vdiff_log__reason(contract->log, reason, sizeof(reason));
		count_reason(root.accepted ? &st->bpf_only : &st->kernel_rejects, reason, index);
	}
	switch (outcome) {
	case UNSOUND:
		vdiff_log__reason(root.log, reason, sizeof(reason));
		printf("UNSOUND #%llu: the kernel says: %s\n", (unsigned long long)index, reason);
		keep(cfg, &st->detail[UNSOUND], "UNSOUND", "unsound", true, reason, &prog, hv,
		     &root, bpf);
		break;
	case ROOT_ONLY:
		vdiff_log__reason(bpf->log, reason, sizeof(reason));
		keep(cfg, &st->detail[ROOT_ONLY], "root only", "rootonly", false, reason, &prog, hv,
		     &root, bpf);
		break;
	case TOO_STRICT:
	case ROOT_STRICTER:
		vdiff_log__reason(hv->log, reason, sizeof(reason));
		keep(cfg, &st->detail[outcome], outcome_names[outcome],
		     outcome == TOO_STRICT ? "strict" : "rootstrict", false, reason, &prog, hv,
		     &root, bpf);
		break;
	default:
		break;
	}
	if (cfg->one)
		print_report(stdout, outcome_names[outcome], &prog, hv, &root, bpf);
	else if (cfg->verbose) {
		vdiff_log__reason(root.accepted ? (bpf ? bpf->log : "") : root.log, reason,
				  sizeof(reason));
		printf("#%llu %-11s %-9s kernel %.1f ms hwxdp %.1f ms: %s | kernel: %s\n",
		       (unsigned long long)index, outcome_names[outcome],
		       prog.kind == VDIFF_KIND_TEMPLATE ? "template" : "mutation",
		       (double)(root.load_ns + (bpf ? bpf->load_ns : 0)) / 1e6,
		       (double)hv->verify_ns / 1e6, prog.what, reason);
	}
	vdiff_kernel_result__clear(&bpf_res);
	vdiff_kernel_result__clear(&root);
	hwxdp_verify_result__free(hv);
	vdiff_prog__clear(&prog);
	return 0;
}

static double share(unsigned long part, unsigned long whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_row(const char *name, const unsigned long *bins, unsigned long root_ok)
{
	unsigned long all = 0;
	int o;

	for (o = 0; o < OUTCOMES; o++)
		all += bins[o];
	printf("%-10s", name);
	for (o = 0; o < OUTCOMES; o++)
		printf(" %12lu", bins[o]);
	printf(" %8.1f%% %8.1f%%\n", share(bins[BOTH_ACCEPT] + bins[TOO_STRICT], all),
	       share(root_ok, all));
}

static void print_summary(const struct config *cfg, struct stats *st)
{
	static const char *const kinds[2] = { "templates", "mutations" };
	unsigned long total[OUTCOMES] = { 0 }, all = 0, k_acc, root_ok = 0;
	bool both = cfg->caps == VDIFF_CAPS_BPF;
	int kind, o;

	printf("\nvdiff: seed %llu, programs %llu..%llu, kernel %s\n",
	       (unsigned long long)cfg->seed, (unsigned long long)cfg->start,
	       (unsigned long long)(cfg->start + cfg->count - 1),
	       both ? "as root and with CAP_BPF + CAP_NET_ADMIN" : "as root only");
	printf("%-10s", "");
	for (o = 0; o < OUTCOMES; o++)
		printf(" %12s", outcome_names[o]);
	printf(" %9s %9s\n", both ? "CAP_BPF ok" : "kernel ok", "root ok");
	for (kind = 0; kind < 2; kind++) {
		unsigned long n = 0;

		for (o = 0; o < OUTCOMES; o++) {
			n += st->bins[kind][o];
			total[o] += st->bins[kind][o];
		}
		root_ok += st->root_accepts[kind];
		all += n;
		if (n)
			print_row(kinds[kind], st->bins[kind], st->root_accepts[kind]);
	}
	print_row("total", total, root_ok);
	if (st->hwxdp_errors || st->kernel_errors)
		printf("not judged: %lu hwxdp errors, %lu kernel errors\n", st->hwxdp_errors,
		       st->kernel_errors);
	k_acc = total[BOTH_ACCEPT] + total[TOO_STRICT];
	printf("kernel accepts %lu of %lu programs (%.1f %%)%s; as root %lu (%.1f %%)\n", k_acc,
	       all, share(k_acc, all), both ? " with CAP_BPF" : "", root_ok, share(root_ok, all));
	printf("hwxdp accepts %.2f %% of the programs the kernel accepts (goal >= 95 %%)\n",
	       share(total[BOTH_ACCEPT], k_acc));
	if (both)
		printf("hwxdp accepts %.2f %% of the programs root can load\n",
		       share(total[BOTH_ACCEPT] + total[ROOT_ONLY], root_ok));
	printf("unsound: %lu (goal 0)\n", total[UNSOUND]);
	if (both)
		printf("root only: %lu accepted by hwxdp that load as root but not with CAP_BPF\n",
		       total[ROOT_ONLY]);
	printf("time: hwxdp %.1f ms, kernel %.1f ms (%.2fx)\n", (double)st->hwxdp_ns / 1e6,
	       (double)st->kernel_ns / 1e6,
	       st->kernel_ns ? (double)st->hwxdp_ns / (double)st->kernel_ns : 0.0);
	print_reasons("kernel (root) messages of the unsound programs:",
		      &st->detail[UNSOUND].reasons);
	print_reasons("kernel (CAP_BPF) messages of the root-only programs:",
		      &st->detail[ROOT_ONLY].reasons);
	print_reasons("hwxdp messages of the too-strict programs:",
		      &st->detail[TOO_STRICT].reasons);
	print_reasons("hwxdp messages of the programs only root loads:",
		      &st->detail[ROOT_STRICTER].reasons);
	if (cfg->verbose) {
		print_reasons("kernel rejection messages, as root:", &st->kernel_rejects);
		print_reasons("kernel rejection messages with CAP_BPF of programs root loads:",
			      &st->bpf_only);
	}
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || !*s || *end ? -EINVAL : 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: vdiff [--seed N] [--count N] [--start N] "
		   "[--mix templates|mutations|both]\n"
		   "             [--caps both|root] [--show-unsound] [--show-strict N] "
		   "[--save DIR]\n"
		   "             [--base OBJ] [--index N] [--log-level N] [-v]\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "start", required_argument, NULL, 'S' },
		{ "mix", required_argument, NULL, 'm' },
		{ "caps", required_argument, NULL, 'c' },
		{ "show-unsound", no_argument, NULL, 'u' },
		{ "show-strict", required_argument, NULL, 't' },
		{ "save", required_argument, NULL, 'd' },
		{ "base", required_argument, NULL, 'b' },
		{ "index", required_argument, NULL, 'i' },
		{ "log-level", required_argument, NULL, 'l' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct config cfg = { .seed = 1, .count = 1000, .mix = VDIFF_MIX_BOTH, .log_level = 1 };
	struct vdiff_gen_opts gopts = { .sz = sizeof(gopts) };
	struct vdiff_kernel *kernel = NULL;
	struct vdiff_gen *gen = NULL;
	struct stats st = { 0 };
	uint64_t i, v;
	int c, err;

	while ((c = getopt_long(argc, argv, "v", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_u64(optarg, &cfg.seed))
				goto bad;
			break;
		case 'n':
			if (parse_u64(optarg, &cfg.count) || !cfg.count)
				goto bad;
			break;
		case 'S':
			if (parse_u64(optarg, &cfg.start))
				goto bad;
			break;
		case 'i':
			if (parse_u64(optarg, &cfg.start))
				goto bad;
			cfg.count = 1;
			cfg.one = true;
			break;
		case 'm':
			if (!strcmp(optarg, "templates"))
				cfg.mix = VDIFF_MIX_TEMPLATES;
			else if (!strcmp(optarg, "mutations"))
				cfg.mix = VDIFF_MIX_MUTATIONS;
			else if (!strcmp(optarg, "both"))
				cfg.mix = VDIFF_MIX_BOTH;
			else
				goto bad;
			break;
		case 'c':
			if (!strcmp(optarg, "both"))
				cfg.caps = VDIFF_CAPS_BPF;
			else if (!strcmp(optarg, "root"))
				cfg.caps = VDIFF_CAPS_ROOT;
			else
				goto bad;
			break;
		case 'u':
			cfg.show_unsound = true;
			break;
		case 't':
			if (parse_u64(optarg, &v))
				goto bad;
			cfg.show_strict = (unsigned long)v;
			break;
		case 'l':
			if (parse_u64(optarg, &v) || v > 2)
				goto bad;
			cfg.log_level = (int)v;
			break;
		case 'd':
			cfg.save_dir = optarg;
			break;
		case 'b':
			cfg.base = optarg;
			break;
		case 'v':
			cfg.verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			goto bad;
		}
	}
	if (optind != argc)
		goto bad;
	if (cfg.save_dir && mkdir(cfg.save_dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "vdiff: %s: %s\n", cfg.save_dir, strerror(errno));
		return 2;
	}
	hwxdp_route_libbpf_print();
	gopts.seed = cfg.seed;
	gopts.mix = cfg.mix;
	gopts.base_object = cfg.base ? cfg.base : hx_object_path("fwd");
	err = vdiff_gen__new(&gopts, &gen);
	if (!err)
		err = vdiff_kernel__new(&kernel);
	if (err) {
		fprintf(stderr, "vdiff: setup: %s\n", strerror(-err));
		vdiff_gen__free(gen);
		return 2;
	}
	for (i = 0; i < cfg.count; i++) {
		err = run_one(&cfg, gen, kernel, cfg.start + i, &st);
		if (err) {
			fprintf(stderr, "vdiff: stopped at program %llu: %s\n",
				(unsigned long long)(cfg.start + i), strerror(-err));
			break;
		}
		if (!cfg.verbose && !cfg.one && cfg.count >= 1000 && (i + 1) % 1000 == 0)
			fprintf(stderr, "vdiff: %llu programs\n", (unsigned long long)(i + 1));
	}
	if (!cfg.one)
		print_summary(&cfg, &st);
	for (c = 0; c < OUTCOMES; c++)
		free_reasons(&st.detail[c].reasons);
	free_reasons(&st.kernel_rejects);
	free_reasons(&st.bpf_only);
	vdiff_kernel__free(kernel);
	vdiff_gen__free(gen);
	if (err)
		return 2;
	return st.bins[0][UNSOUND] + st.bins[1][UNSOUND] ? 1 : 0;
bad:
	usage(stderr);
	return 2;
}
