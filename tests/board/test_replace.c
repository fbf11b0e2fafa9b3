// SPDX-License-Identifier: GPL-2.0
/*
 * Programs replaced while frames run: every frame is wholly one program's
 * (or, between a detach and an attach, untouched and passed to the host).
 *
 * The two programs write their own byte over 64 bytes of the frame in eight
 * bundles, count themselves in a shared table and exit with their own
 * verdict: a frame begun by one and finished by the other would show two
 * bytes, or a byte and a verdict that disagree.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <linux/bpf.h>

#include "device/tables.h"
#include "tests/board/board.h"

#define PORTS	   8
#define BATCHES	   400
#define BATCH	   256
#define FRAME_LEN  96
#define PATTERN_AT 14
#define PATTERN_N  64

static void program_text(char *buf, size_t cap, uint8_t byte, uint32_t counter, uint32_t verdict)
{
	int n = snprintf(buf, cap, "ctx r2, data ;;\nmovi r3, 0x%016llx ;;\n",
			 (unsigned long long)(0x0101010101010101ull * byte));

	for (int off = PATTERN_AT; off < PATTERN_AT + PATTERN_N; off += 8)
		n += snprintf(buf + n, cap - n, "st64.pkt [r2 + %d], r3 ;;\n", off);
	snprintf(buf + n, cap - n,
		 "mov r4, %u ;;\ntindex r5, 0, r4 ;;\nmov r6, 1 ;;\natomicadd64.tm [r5], r6 ;;\n"
		 "mov r0, %u ;;\nexit\n",
		 counter, verdict);
}

struct toggler {
	struct hwxdp_device *dev;
	uint32_t prog[2];
	volatile bool stop;
	uint64_t changes;
};

/* Attaches the two programs in turn to every port, now and then leaving a
 * port empty for a moment, until told to stop. */
static void *toggle(void *arg)
{
	struct toggler *t = arg;
	uint64_t seed = 99;

	while (!__atomic_load_n(&t->stop, __ATOMIC_RELAXED)) {
		uint64_t r = board_rng(&seed);
		uint32_t port = 1 + r % PORTS;

		if ((r >> 8) % 8 == 0)
			hwxdp_device__detach(t->dev, port);
		else
			cr_assert_eq(hwxdp_device__attach(t->dev, port, t->prog[(r >> 16) & 1]), 0);
		t->changes++;
	}
	return NULL;
}

Test(board, replace_at_frame_boundary)
{
	struct hxu_table_desc counts = { .id = 0,
					 .type = BPF_MAP_TYPE_ARRAY,
					 .key_size = 4,
					 .value_size = 8,
					 .max_entries = 2,
					 .name = "counts" };
	struct hwxdp_device_opts opts = { .sz = sizeof(opts), .engines = 4 };
	struct hwxdp_device_load_opts share = { .sz = sizeof(share), .share_tables = true };
	static const uint8_t byte[2] = { 0xa1, 0xb2 };
	static const uint32_t verdict[2] = { XDP_TX, XDP_DROP };
	uint64_t ran[2] = { 0 }, untouched = 0, mixed_batches = 0, counted[2];
	struct text_image ti[2];
	struct toggler t = { 0 };
	struct frames fs;
	pthread_t thread;
	char text[2048], msg[256];
	uint8_t frame[FRAME_LEN];
	int id;

	t.dev = hwxdp_device__new(&opts);
	cr_assert(t.dev);
	for (int p = 0; p < 2; p++) {
		program_text(text, sizeof(text), byte[p], (uint32_t)p, verdict[p]);
		text_image(&ti[p], text, &counts, 1);
		share.tables_of = t.prog[0];
		id = hwxdp_device__load_image(t.dev, &ti[p].img, p ? &share : NULL, msg,
					      sizeof(msg));
		cr_assert_geq(id, 0, "%s", msg);
		t.prog[p] = (uint32_t)id;
	}
	cr_assert_eq(hwxdp_device__tables(t.dev, t.prog[0]),
		     hwxdp_device__tables(t.dev, t.prog[1]));
	for (uint32_t port = 1; port <= PORTS; port++)
		cr_assert_eq(hwxdp_device__attach(t.dev, port, t.prog[0]), 0);

	for (size_t i = 0; i < sizeof(frame); i++)
		frame[i] = (uint8_t)(i * 13 + 5);
	/* IPv4, unfragmented: the flow hash reads its addresses. */
	frame[12] = 0x08;
	frame[13] = 0x00;
	frame[14] = 0x45;
	frame[20] = frame[21] = 0;
	frames_init(&fs, BATCH);
	cr_assert_eq(pthread_create(&thread, NULL, toggle, &t), 0);
	for (int b = 0; b < BATCHES; b++) {
		bool seen[2] = { false, false };

		fs.cnt = 0;
		for (int i = 0; i < BATCH; i++) {
			/* The flow hash spreads frames of a port over the engines. */
			frame[30] = (uint8_t)i;
			frames_add(&fs, 1 + (uint32_t)(i % PORTS), frame, sizeof(frame));
		}
		cr_assert_eq(hwxdp_device__run_batch(t.dev, fs.f, fs.cnt), 0);
		for (size_t i = 0; i < fs.cnt; i++) {
			const struct hwxdp_device_frame *f = &fs.f[i];
			int p;

			cr_assert_eq(f->out_len, FRAME_LEN);
			if (f->prog == HWXDP_DEVICE_PROG_NONE) {
				cr_assert_eq(f->verdict, XDP_PASS);
				cr_assert_eq(memcmp(f->out, f->data, FRAME_LEN), 0);
				untouched++;
				continue;
			}
			p = f->prog == t.prog[1];
			cr_assert(f->prog == t.prog[p]);
			cr_assert_eq(f->verdict, verdict[p],
				     "batch %d frame %zu: program %d, verdict %u", b, i, p,
				     f->verdict);
			for (size_t j = 0; j < FRAME_LEN; j++) {
				uint8_t want = j >= PATTERN_AT && j < PATTERN_AT + PATTERN_N
						       ? byte[p]
						       : f->data[j];

				cr_assert_eq(f->out[j], want,
					     "batch %d frame %zu (program %d): byte %zu is 0x%02x",
					     b, i, p, j, f->out[j]);
			}
			ran[p]++;
			seen[p] = true;
		}
		mixed_batches += seen[0] && seen[1];
	}
	t.stop = true;
	pthread_join(thread, NULL);

	/* The table both programs count in agrees with the frames. */
	for (uint32_t k = 0; k < 2; k++)
		cr_assert_eq(hwxdp_table__lookup(hwxdp_device__table(t.dev, t.prog[0], "counts"),
						 &k, &counted[k]),
			     0);
	cr_assert_eq(counted[0], ran[0]);
	cr_assert_eq(counted[1], ran[1]);
	/* The replacing really happened under traffic. */
	cr_assert_gt(t.changes, 1000, "%llu slot changes", (unsigned long long)t.changes);
	cr_assert_gt(mixed_batches, BATCHES / 4, "%llu batches ran both programs",
		     (unsigned long long)mixed_batches);
	cr_assert_gt(untouched, 0);
	cr_log_info("replace: %llu slot changes, %llu / %llu / %llu frames (A / B / none)",
		    (unsigned long long)t.changes, (unsigned long long)ran[0],
		    (unsigned long long)ran[1], (unsigned long long)untouched);

	frames_free(&fs);
	hwxdp_device__free(t.dev);
	text_image_free(&ti[0]);
	text_image_free(&ti[1]);
}

/* A program held by a slot stays; once no slot holds it, it goes, and its
 * store words and shared tables with it only when nothing else uses them. */
Test(board, unload_and_slots)
{
	struct hxu_table_desc counts = { .id = 0,
					 .type = BPF_MAP_TYPE_ARRAY,
					 .key_size = 4,
					 .value_size = 8,
					 .max_entries = 2,
					 .name = "counts" };
	struct hwxdp_device_load_opts share = { .sz = sizeof(share), .share_tables = true };
	struct hwxdp_device_memory mem;
	struct text_image ti;
	struct frames fs;
	char text[2048], msg[256];
	uint8_t frame[FRAME_LEN] = { 0 };
	struct hwxdp_device *dev = hwxdp_device__new(NULL);
	int a, b;

	cr_assert(dev);
	cr_assert_eq(hwxdp_device__engines(dev), HWXDP_DEVICE_ENGINES_DEFAULT);
	program_text(text, sizeof(text), 0xa1, 0, XDP_TX);
	text_image(&ti, text, &counts, 1);
	a = hwxdp_device__load_image(dev, &ti.img, NULL, msg, sizeof(msg));
	cr_assert_geq(a, 0, "%s", msg);
	share.tables_of = (uint32_t)a;
	b = hwxdp_device__load_image(dev, &ti.img, &share, msg, sizeof(msg));
	cr_assert_geq(b, 0, "%s", msg);
	hwxdp_device__memory(dev, &mem);
	cr_assert_eq(mem.store_words, 2 * ti.img.op_cnt);
	cr_assert_eq(mem.table_cnt, 1, "shared tables are counted once");

	cr_assert_eq(hwxdp_device__attach(dev, 7, (uint32_t)a), 0);
	cr_assert_eq(hwxdp_device__slot(dev, 7), (uint32_t)a);
	cr_assert_eq(hwxdp_device__unload(dev, (uint32_t)a), -EBUSY);
	cr_assert_eq(hwxdp_device__attach(dev, 7, (uint32_t)b), 0);
	cr_assert_eq(hwxdp_device__unload(dev, (uint32_t)a), 0);
	cr_assert_eq(hwxdp_device__unload(dev, (uint32_t)a), -ENOENT);
	cr_assert_eq(hwxdp_device__attach(dev, 7, (uint32_t)a), -ENOENT);
	cr_assert_eq(hwxdp_device__attach(dev, 0, (uint32_t)b), -EINVAL);
	hwxdp_device__memory(dev, &mem);
	cr_assert_eq(mem.store_words, ti.img.op_cnt);
	cr_assert_eq(mem.table_cnt, 1, "b still uses a's tables");

	/* b runs on a's tables after a is gone. */
	frames_init(&fs, 4);
	frames_add(&fs, 7, frame, sizeof(frame));
	frames_add(&fs, 8, frame, sizeof(frame));
	cr_assert_eq(hwxdp_device__run_batch(dev, fs.f, fs.cnt), 0);
	cr_assert_eq(fs.f[0].verdict, XDP_TX);
	cr_assert_eq(fs.f[0].prog, (uint32_t)b);
	cr_assert_eq(fs.f[0].out[PATTERN_AT], 0xa1);
	cr_assert_eq(fs.f[1].verdict, XDP_PASS, "port 8 has no program");
	cr_assert_eq(fs.f[1].prog, HWXDP_DEVICE_PROG_NONE);

	cr_assert_eq(hwxdp_device__detach(dev, 7), 0);
	cr_assert_eq(hwxdp_device__detach(dev, 7), -ENOENT);
	cr_assert_eq(hwxdp_device__unload(dev, (uint32_t)b), 0);
	hwxdp_device__memory(dev, &mem);
	cr_assert_eq(mem.store_words, 0);
	cr_assert_eq(mem.table_cnt, 0);
	frames_free(&fs);
	hwxdp_device__free(dev);
	text_image_free(&ti);
}

/* Two loads of fwd on one table memory: a flow written once serves both,
 * and fwd's tables are the board's size in both. */
Test(board, programs_share_tables)
{
	static const struct hwxdp_table_size sizes[] = { { "flows", 5000 } };
	struct hwxdp_device_load_opts share = { .sz = sizeof(share), .share_tables = true };
	struct board_case *cases;
	size_t case_cnt = board_cases(&cases);
	struct frames fs;
	struct board b;
	char msg[512];
	int second;

	board_open_fwd(&b, 2, sizes, 1);
	share.tables_of = b.prog;
	second = hwxdp_device__load(b.dev, hx_object_path("fwd"), &share, msg, sizeof(msg));
	cr_assert_geq(second, 0, "%s", msg);
	cr_assert_neq((uint32_t)second, b.prog);
	cr_assert_eq(hwxdp_device__tables(b.dev, (uint32_t)second),
		     hwxdp_device__tables(b.dev, b.prog));
	cr_assert_eq(hwxdp_device__table(b.dev, (uint32_t)second, "flows"),
		     board_table(&b, "flows"));
	cr_assert_eq(board_table(&b, "flows")->desc.max_entries, 5000);
	/* Port 2 now runs the second copy; the lab's flows are in the shared
	 * tables only because the first copy's setup wrote them. */
	cr_assert_eq(hwxdp_device__attach(b.dev, 2, (uint32_t)second), 0);
	frames_init(&fs, case_cnt);
	for (size_t c = 0; c < case_cnt; c++)
		frames_add(&fs, cases[c].port, cases[c].frame, cases[c].len);
	cr_assert_eq(hwxdp_device__run_batch(b.dev, fs.f, fs.cnt), 0);
	for (size_t c = 0; c < case_cnt; c++) {
		cr_assert_eq(fs.f[c].verdict, cases[c].verdict, "%s", cases[c].name);
		cr_assert_eq(fs.f[c].prog, cases[c].port == 2 ? (uint32_t)second : b.prog, "%s",
			     cases[c].name);
	}
	/* The first copy cannot go while port 1 holds it, and after it does
	 * the second keeps the tables. */
	cr_assert_eq(hwxdp_device__unload(b.dev, b.prog), -EBUSY);
	for (uint32_t p = 1; p <= HX_LAB_PORTS + 1; p++)
		if (p != 2)
			cr_assert_eq(hwxdp_device__detach(b.dev, p), 0);
	cr_assert_eq(hwxdp_device__unload(b.dev, b.prog), 0);
	fs.cnt = 0;
	frames_add(&fs, cases[HX_LAB_PLAIN].port, cases[HX_LAB_PLAIN].frame,
		   cases[HX_LAB_PLAIN].len);
	cr_assert_eq(hwxdp_device__run_batch(b.dev, fs.f, fs.cnt), 0);
	cr_assert_eq(fs.f[0].verdict, cases[HX_LAB_PLAIN].verdict);
	cr_assert_not_null(hwxdp_device__table(b.dev, (uint32_t)second, "flows"));
	frames_free(&fs);
	board_close(&b);
}
