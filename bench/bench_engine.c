// SPDX-License-Identifier: GPL-2.0
/*
 * The engine on one core against the kernel's JIT, in one run: a parse of
 * Ethernet, an optional 802.1Q tag and IPv4, a flow lookup in a hash table,
 * a MAC rewrite, a TTL decrement with an incremental checksum, a counter and
 * a redirect through a port table, as hand-written microcode and as the
 * equivalent BPF program.
 *
 *   bench_engine [-n frames] [-r runs] [-f flows] [-K]
 *
 * Reported per mode, the median of the runs: ns of the thread's CPU time
 * per frame and frames per second, then the kernel's figure (BPF_PROG_TEST_RUN with repeat, which
 * runs the JIT-compiled program on one buffer) and the ratio. -K skips the
 * kernel (it needs root).
 *
 * Modes: "one frame" runs every repetition on the same buffer, as the
 * kernel's test run does; "flows" cycles through one window per flow, so
 * table entries and frames come from memory as they would on a device;
 * "flows+stats" adds the per-frame operation, bundle and cycle counts.
 * The program has no TTL <= 1 check, so that every repetition of a frame
 * takes the same path on both sides while the TTL wraps around.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <linux/bpf.h>

#include "device/engine.h"
#include "device/tables.h"
#include "hwmap/hxu_text.h"
#include "lab/pkt.h"
#include "verifier/asm.h"

#define MAX_RUNS 15

struct flow_key {
	uint32_t saddr, daddr; /* network order, as in the header */
	uint32_t proto;
};

struct flow_value {
	uint8_t dmac[6], smac[6];
	uint32_t port;
	uint64_t packets;
};

enum { FLOWS_TABLE = 1, PORTS_TABLE = 2 };

static const char microcode[] = "	ctx r6, data\n"
				"	ctx r7, data_end ;;\n"
				"	lchk 14, drop ;;\n"
				"	ld16.be.pkt r2, [r6 + 12]\n"
				"	mov r8, 14 ;;\n"
				"	bne r2, 0x8100, untagged ;;\n"
				"	lchk 18, drop ;;\n"
				"	ld16.be.pkt r2, [r6 + 16]\n"
				"	mov r8, 18 ;;\n"
				"untagged:\n"
				"	bne r2, 0x0800, pass ;;\n"
				"	add r9, r6, r8 ;;\n"
				"	lchk [r9 + 20], drop ;;\n"
				"	ld8.pkt r2, [r9]\n"
				"	ld32.pkt r3, [r9 + 12]\n"
				"	ld32.pkt r4, [r9 + 16]\n"
				"	ld8.pkt r5, [r9 + 9] ;;\n"
				"	bne r2, 0x45, pass ;;\n"
				"	st32.lm [r10 - 16], r3\n"
				"	st32.lm [r10 - 12], r4\n"
				"	st32.lm [r10 - 8], r5\n"
				"	add r1, r10, -16 ;;\n"
				"	tlookup.lm r0, 1, r1 ;;\n"
				"	beq r0, 0, pass ;;\n"
				"	ld32.tm r2, [r0]\n"
				"	ld16.tm r3, [r0 + 4]\n"
				"	ld32.tm r4, [r0 + 6]\n"
				"	ld16.tm r5, [r0 + 10] ;;\n"
				"	st32.pkt [r6], r2\n"
				"	st16.pkt [r6 + 4], r3\n"
				"	st32.pkt [r6 + 6], r4\n"
				"	st16.pkt [r6 + 10], r5 ;;\n"
				"	ld8.pkt r2, [r9 + 8]\n"
				"	mov r3, 1\n"
				"	ld32.tm r1, [r0 + 12]\n"
				"	mov r4, 1 ;;\n"
				"	sub r2, r2, 1\n"
				"	csum16 [r9 + 10], r3\n"
				"	atomicadd64.tm [r0 + 16], r4 ;;\n"
				"	st8.pkt [r9 + 8], r2\n"
				"	redir r0, 2, r1, 0 ;;\n"
				"	exit ;;\n"
				"pass:\n"
				"	mov r0, 2 ;;\n"
				"	exit ;;\n"
				"drop:\n"
				"	mov r0, 1 ;;\n"
				"	exit ;;\n";

/* The same program for the kernel; %d are the maps' fds. */
static const char bpf_program[] = "r6 = *(u32 *)(r1 +0)\n"
				  "r7 = *(u32 *)(r1 +4)\n"
				  "r2 = r6\n"
				  "r2 += 14\n"
				  "if r2 > r7 goto drop\n"
				  "r2 = *(u16 *)(r6 +12)\n"
				  "r8 = 14\n"
				  "if r2 != 0x81 goto untagged\n"
				  "r3 = r6\n"
				  "r3 += 18\n"
				  "if r3 > r7 goto drop\n"
				  "r2 = *(u16 *)(r6 +16)\n"
				  "r8 = 18\n"
				  "untagged:\n"
				  "if r2 != 0x8 goto pass\n"
				  "r9 = r6\n"
				  "r9 += r8\n"
				  "r3 = r9\n"
				  "r3 += 20\n"
				  "if r3 > r7 goto drop\n"
				  "r2 = *(u8 *)(r9 +0)\n"
				  "if r2 != 0x45 goto pass\n"
				  "r2 = *(u32 *)(r9 +12)\n"
				  "*(u32 *)(r10 -16) = r2\n"
				  "r2 = *(u32 *)(r9 +16)\n"
				  "*(u32 *)(r10 -12) = r2\n"
				  "r2 = *(u8 *)(r9 +9)\n"
				  "*(u32 *)(r10 -8) = r2\n"
				  "r2 = r10\n"
				  "r2 += -16\n"
				  "r1 = map[idx:%d]\n"
				  "call bpf_map_lookup_elem\n"
				  "if r0 == 0x0 goto pass\n"
				  "r2 = *(u32 *)(r0 +0)\n"
				  "*(u32 *)(r6 +0) = r2\n"
				  "r2 = *(u16 *)(r0 +4)\n"
				  "*(u16 *)(r6 +4) = r2\n"
				  "r2 = *(u32 *)(r0 +6)\n"
				  "*(u32 *)(r6 +6) = r2\n"
				  "r2 = *(u16 *)(r0 +10)\n"
				  "*(u16 *)(r6 +10) = r2\n"
				  "r2 = *(u8 *)(r9 +8)\n"
				  "r2 += -1\n"
				  "*(u8 *)(r9 +8) = r2\n"
				  "r3 = *(u16 *)(r9 +10)\n"
				  "r3 += 1\n"
				  "r4 = r3\n"
				  "r4 >>= 16\n"
				  "r3 += r4\n"
				  "*(u16 *)(r9 +10) = r3\n"
				  "r2 = 1\n"
				  "lock *(u64 *)(r0 +16) += r2\n"
				  "r1 = map[idx:%d]\n"
				  "r2 = *(u32 *)(r0 +12)\n"
				  "r3 = 0\n"
				  "call bpf_redirect_map\n"
				  "exit\n"
				  "pass:\n"
				  "r0 = 2\n"
				  "exit\n"
				  "drop:\n"
				  "r0 = 1\n"
				  "exit\n";

struct figure {
	const char *name;
	double ns[MAX_RUNS];
	int n;
};

/* The thread's CPU time: the machine may be shared, and the kernel's test
 * run leaves out the time it was scheduled away too. */
static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* Puts frame i back where it arrived; the bytes stay as the last run left
 * them, as in the kernel's repeated test run. */
static inline void rewind_frame(struct hwxdp_frame *f, const uint32_t *lens, uint32_t i)
{
	f->data = f->data_meta = HXU_HEADROOM;
	f->data_end = HXU_HEADROOM + lens[i];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(struct figure *f)
{
	double s[MAX_RUNS];

	memcpy(s, f->ns, sizeof(double) * f->n);
	qsort(s, f->n, sizeof(double), cmp_double);
	return f->n % 2 ? s[f->n / 2] : (s[f->n / 2 - 1] + s[f->n / 2]) / 2;
}

static void report(struct figure *f, double kernel)
{
	double m = median(f);

	printf("  %-22s %8.1f ns/frame %12.0f frames/s", f->name, m, 1e9 / m);
	if (kernel > 0)
		printf("   %.2fx the kernel's speed", kernel / m);
	printf("\n");
}

static void flow_of(uint32_t i, struct hx_frame_spec *spec, struct flow_key *key,
		    struct flow_value *value)
{
	hx_frame_spec_init(spec, 4);
	spec->vlan = i % 3 == 0 ? (int)(10 + i % 100) : -1;
	spec->proto = i % 2 ? 17 : 6;
	spec->src[0] = 10;
	spec->src[1] = (uint8_t)(i >> 16);
	spec->src[2] = (uint8_t)(i >> 8);
	spec->src[3] = (uint8_t)i;
	spec->dst[0] = 192;
	spec->dst[1] = 168;
	spec->dst[2] = (uint8_t)(i >> 8);
	spec->dst[3] = (uint8_t)(i * 7);
	spec->sport = (uint16_t)(1024 + i);
	spec->payload_len = 64 + i % 512;
	memset(key, 0, sizeof(*key));
	memcpy(&key->saddr, spec->src, 4);
	memcpy(&key->daddr, spec->dst, 4);
	key->proto = spec->proto;
	memset(value, 0, sizeof(*value));
	for (int b = 0; b < 6; b++) {
		value->dmac[b] = (uint8_t)(0x02 + b + i);
		value->smac[b] = (uint8_t)(0x12 + b);
	}
	value->port = i % 8;
}

int main(int argc, char **argv)
{
	uint32_t frames = 1000000, runs = 5, flows = 1024;
	bool kernel = geteuid() == 0;
	struct hxu_table_desc descs[2] = {
		{ .id = FLOWS_TABLE,
		  .type = BPF_MAP_TYPE_HASH,
		  .key_size = sizeof(struct flow_key),
		  .value_size = sizeof(struct flow_value),
		  .max_entries = 65536,
		  .name = "flows" },
		{ .id = PORTS_TABLE,
		  .type = BPF_MAP_TYPE_DEVMAP_HASH,
		  .key_size = 4,
		  .value_size = 4,
		  .max_entries = 64,
		  .name = "ports" },
	};
	struct hxu_prog_desc prog = { .name = "fwd", .entry = 0, .frames = 1 };
	struct figure one = { "engine, one frame" }, many = { "engine, flows" },
		      counted = { "engine, flows+stats" }, kern = { "kernel JIT, one frame" },
		      ratio = { "ratio" };
	struct hxu_asm_out as;
	struct hxu_image img;
	struct hwxdp_tables *tables;
	struct hwxdp_engine *engine;
	struct hwxdp_frame *fr;
	struct hwxdp_run_stats stats, sum = { 0 };
	uint8_t **windows, pkt[HX_PKT_MAX];
	uint32_t *lens, redirected = 0;
	char err[256];
	int opt, flows_fd = -1, ports_fd = -1, prog_fd = -1;

	while ((opt = getopt(argc, argv, "n:r:f:K")) != -1) {
		switch (opt) {
		case 'n':
			frames = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			runs = strtoul(optarg, NULL, 0);
			break;
		case 'f':
			flows = strtoul(optarg, NULL, 0);
			break;
		case 'K':
			kernel = false;
			break;
		default:
			fprintf(stderr, "usage: %s [-n frames] [-r runs] [-f flows] [-K]\n",
				argv[0]);
			return 2;
		}
	}
	if (!runs || runs > MAX_RUNS || !flows || flows > 65536 || !frames) {
		fprintf(stderr, "runs 1..%d, flows 1..65536, frames > 0\n", MAX_RUNS);
		return 2;
	}

	if (hxu_asm(microcode, &as, err, sizeof(err))) {
		fprintf(stderr, "microcode: %s\n", err);
		return 1;
	}
	img = (struct hxu_image){ .version = HXU_VERSION,
				  .ops = as.words,
				  .op_cnt = as.word_cnt,
				  .tables = descs,
				  .table_cnt = 2,
				  .progs = &prog,
				  .prog_cnt = 1 };
	tables = hwxdp_tables__new();
	if (!tables || hwxdp_tables__create_all(tables, &img))
		return 1;
	engine = hwxdp_engine__new(&img, tables);
	if (!engine)
		return 1;

	if (kernel) {
		flows_fd = bpf_map_create(BPF_MAP_TYPE_HASH, "flows", sizeof(struct flow_key),
					  sizeof(struct flow_value), 65536, NULL);
		ports_fd = bpf_map_create(BPF_MAP_TYPE_DEVMAP_HASH, "ports", 4, 4, 64, NULL);
		if (flows_fd < 0 || ports_fd < 0) {
			fprintf(stderr, "kernel maps: %s; skipping the kernel\n", strerror(errno));
			kernel = false;
		}
	}

	windows = calloc(flows, sizeof(*windows));
	lens = calloc(flows, sizeof(*lens));
	fr = calloc(flows, sizeof(*fr));
	for (uint32_t i = 0; i < flows; i++) {
		struct hx_frame_spec spec;
		struct flow_key key;
		struct flow_value value;
		uint32_t port = i % 8, ifindex = 1;

		flow_of(i, &spec, &key, &value);
		lens[i] = (uint32_t)hx_frame_build(&spec, pkt, sizeof(pkt));
		windows[i] = aligned_alloc(64, HXU_WINDOW_SIZE);
		if (!lens[i] || !windows[i])
			return 1;
		memset(windows[i], 0, HXU_WINDOW_SIZE);
		memcpy(windows[i] + HXU_HEADROOM, pkt, lens[i]);
		fr[i] = (struct hwxdp_frame){ .window = windows[i],
					      .data = HXU_HEADROOM,
					      .data_meta = HXU_HEADROOM,
					      .data_end = HXU_HEADROOM + lens[i],
					      .ingress = 1 };
		if (hwxdp_table__update(hwxdp_tables__get(tables, FLOWS_TABLE), &key, &value,
					BPF_ANY) ||
		    (i < 8 && hwxdp_table__update(hwxdp_tables__get(tables, PORTS_TABLE), &port,
						  &ifindex, BPF_ANY)))
			return 1;
		if (kernel && (bpf_map_update_elem(flows_fd, &key, &value, BPF_ANY) ||
			       (i < 8 && bpf_map_update_elem(ports_fd, &port, &ifindex, BPF_ANY))))
			return 1;
	}

	/* Every frame must be forwarded, or the figures measure something else. */
	for (uint32_t i = 0; i < flows; i++) {
		hwxdp_engine__run(engine, 0, &fr[i], &stats);
		redirected += fr[i].verdict == XDP_REDIRECT && fr[i].egress == 1;
		sum.ops += stats.ops;
		sum.bundles += stats.bundles;
		sum.cycles += stats.cycles;
	}
	if (redirected != flows) {
		fprintf(stderr, "only %u of %u frames were redirected\n", redirected, flows);
		return 1;
	}

	if (kernel) {
		char text[sizeof(bpf_program) + 32];
		struct bpf_insn *insns;
		size_t cnt;

		snprintf(text, sizeof(text), bpf_program, flows_fd, ports_fd);
		if (hwxdp_asm(text, &insns, &cnt, err, sizeof(err))) {
			fprintf(stderr, "BPF program: %s\n", err);
			return 1;
		}
		prog_fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "bench_fwd", "GPL", insns, cnt, NULL);
		free(insns);
		if (prog_fd < 0) {
			fprintf(stderr, "kernel refused the program: %s\n", strerror(errno));
			return 1;
		}
	}

	/* Runs interleave the kernel and the engine, so that whatever else the
	 * machine does weighs on both alike; the ratio is taken per run. */
	for (uint32_t run = 0; run < runs; run++) {
		double t;

		if (kernel) {
			LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = windows[0] + HXU_HEADROOM,
				    .data_size_in = lens[0], .repeat = frames);

			if (bpf_prog_test_run_opts(prog_fd, &opts) || opts.retval != XDP_REDIRECT) {
				fprintf(stderr, "test run: %s, retval %u\n", strerror(errno),
					opts.retval);
				return 1;
			}
			kern.ns[kern.n++] = opts.duration;
		}

		t = now_ns();
		for (uint32_t i = 0; i < frames; i++) {
			rewind_frame(&fr[0], lens, 0);
			hwxdp_engine__run(engine, 0, &fr[0], NULL);
		}
		one.ns[one.n++] = (now_ns() - t) / frames;
		if (kernel)
			ratio.ns[ratio.n++] = kern.ns[kern.n - 1] / one.ns[one.n - 1];

		t = now_ns();
		for (uint32_t i = 0, j = 0; i < frames; i++) {
			rewind_frame(&fr[j], lens, j);
			hwxdp_engine__run(engine, 0, &fr[j], NULL);
			if (++j == flows)
				j = 0;
		}
		many.ns[many.n++] = (now_ns() - t) / frames;

		t = now_ns();
		for (uint32_t i = 0, j = 0; i < frames; i++) {
			rewind_frame(&fr[j], lens, j);
			hwxdp_engine__run(engine, 0, &fr[j], &stats);
			if (++j == flows)
				j = 0;
		}
		counted.ns[counted.n++] = (now_ns() - t) / frames;
	}

	printf("bench_engine: %u frames x %u runs, %u flows, microcode %u words\n", frames, runs,
	       flows, as.word_cnt);
	printf("  per frame (model): %.1f operations, %.1f bundles, %.1f cycles\n",
	       (double)sum.ops / flows, (double)sum.bundles / flows, (double)sum.cycles / flows);
	if (kernel)
		report(&kern, 0);
	report(&one, kernel ? median(&kern) : 0);
	report(&many, kernel ? median(&kern) : 0);
	report(&counted, kernel ? median(&kern) : 0);
	if (kernel)
		printf("  engine, one frame, against the kernel run next to it: %.2fx its speed "
		       "(median of %d)\n",
		       median(&ratio), ratio.n);

	if (prog_fd >= 0)
		close(prog_fd);
	if (flows_fd >= 0)
		close(flows_fd);
	if (ports_fd >= 0)
		close(ports_fd);
	for (uint32_t i = 0; i < flows; i++)
		free(windows[i]);
	free(windows);
	free(lens);
	free(fr);
	hwxdp_engine__free(engine);
	hwxdp_tables__free(tables);
	hxu_asm_out__free(&as);
	return 0;
}
