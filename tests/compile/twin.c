// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "device/compile.h"
#include "hwmap/hxu_text.h"
#include "tests/compile/twin.h"

__attribute__((format(printf, 2, 3))) static void note(struct twin_report *rep, const char *fmt,
						       ...)
{
	va_list ap;

	if (rep->first[0])
		return;
	va_start(ap, fmt);
	vsnprintf(rep->first, sizeof(rep->first), fmt, ap);
	va_end(ap);
}

bool twin_run(struct twin *t, uint32_t prog, const uint8_t *pkt, size_t len, uint32_t ingress,
	      struct twin_report *rep)
{
	const struct hwxdp_frame *a = &t->frame[0], *b = &t->frame[1];
	const char *what = NULL;

	cr_assert_leq(len, HXU_FRAME_MAX);
	for (int i = 0; i < 2; i++) {
		memset(t->window[i], 0, HXU_WINDOW_SIZE);
		memcpy(t->window[i] + HXU_HEADROOM, pkt, len);
		t->frame[i] = (struct hwxdp_frame){
			.window = t->window[i],
			.data = HXU_HEADROOM,
			.data_end = HXU_HEADROOM + (uint32_t)len,
			.data_meta = HXU_HEADROOM,
			.ingress = ingress,
			.rx_queue = 3,
		};
		t->stats[i] = (struct hwxdp_run_stats){};
		t->rc[i] = hwxdp_engine__run(t->engine[i], prog, &t->frame[i],
					     t->with_stats ? &t->stats[i] : NULL);
	}
	rep->frames++;
	rep->counted += t->with_stats;
	if (t->rc[0] != t->rc[1])
		what = "return code";
	else if (a->error != b->error)
		what = "error";
	else if (a->error && a->fault_op != b->fault_op)
		what = "fault_op";
	else if (a->verdict != b->verdict)
		what = "verdict";
	else if (a->egress != b->egress)
		what = "egress";
	else if (a->reason != b->reason)
		what = "reason";
	else if (a->data != b->data || a->data_end != b->data_end || a->data_meta != b->data_meta)
		what = "frame bounds";
	else if (memcmp(t->window[0], t->window[1], HXU_WINDOW_SIZE))
		what = "window bytes";
	else if (memcmp(&t->stats[0], &t->stats[1], sizeof(t->stats[0])))
		what = "stats";
	if (!what) {
		if (a->error) {
			rep->faults++;
			rep->fault_kinds |= 1u << ((-a->error - HWXDP_ERR_IMAGE) & 31);
		} else if (a->verdict < 32) {
			rep->verdicts |= 1u << a->verdict;
		}
		return true;
	}
	rep->differ++;
	note(rep,
	     "prog %u, frame %llu (%zu bytes): %s differs: interpreted rc %d verdict %u error %d "
	     "op %u egress %u reason %u data %u..%u meta %u ops %llu/%llu/%llu; compiled rc %d "
	     "verdict %u error %d op %u egress %u reason %u data %u..%u meta %u ops %llu/%llu/%llu",
	     prog, (unsigned long long)rep->frames - 1, len, what, t->rc[0], a->verdict, a->error,
	     a->fault_op, a->egress, a->reason, a->data, a->data_end, a->data_meta,
	     (unsigned long long)t->stats[0].ops, (unsigned long long)t->stats[0].bundles,
	     (unsigned long long)t->stats[0].cycles, t->rc[1], b->verdict, b->error, b->fault_op,
	     b->egress, b->reason, b->data, b->data_end, b->data_meta,
	     (unsigned long long)t->stats[1].ops, (unsigned long long)t->stats[1].bundles,
	     (unsigned long long)t->stats[1].cycles);
	return false;
}

/* Entries of table a missing from b or different there. */
static uint64_t walk(struct hwxdp_table *a, struct hwxdp_table *b, bool count,
		     struct twin_report *rep)
{
	uint32_t ks = a->desc.key_size, vs = hwxdp_table__value_buf_size(a);
	uint8_t *key = calloc(2, ks), *va = calloc(2, vs), *next = key + ks, *vb = va + vs;
	uint64_t differ = 0;
	bool first = true;

	cr_assert(key && va);
	while (!hwxdp_table__get_next_key(a, first ? NULL : key, next)) {
		int ra, rb;

		first = false;
		memcpy(key, next, ks);
		ra = hwxdp_table__lookup(a, key, va);
		rb = hwxdp_table__lookup(b, key, vb);
		if (count)
			rep->entries++;
		if (ra == rb && (ra || !memcmp(va, vb, vs)))
			continue;
		differ++;
		note(rep, "table %u (%s): an entry %s", a->desc.id, a->desc.name,
		     rb ? "exists on one side only" : "differs");
	}
	free(key);
	free(va);
	return differ;
}

uint64_t twin_compare_tables(struct twin *t, struct twin_report *rep)
{
	uint64_t differ = 0;

	for (uint32_t id = 0; id < HXU_TABLES; id++) {
		struct hwxdp_table *a = hwxdp_tables__get(t->tables[0], id);
		struct hwxdp_table *b = hwxdp_tables__get(t->tables[1], id);

		if (!a && !b)
			continue;
		if (!a || !b) {
			differ++;
			note(rep, "table %u exists on one side only", id);
			continue;
		}
		differ += walk(a, b, true, rep) + walk(b, a, false, rep);
	}
	rep->map_differ += differ;
	return differ;
}

void twin_update(struct twin *t, uint32_t id, const void *key, const void *value)
{
	for (int i = 0; i < 2; i++) {
		struct hwxdp_table *tab = hwxdp_tables__get(t->tables[i], id);

		cr_assert(tab, "no table %u", id);
		cr_assert_eq(hwxdp_table__update(tab, key, value, BPF_ANY), 0, "table %u", id);
	}
}

static bool open_text(struct twin *t, const char *text, const struct hxu_table_desc *descs,
		      size_t n, const char *const *progs, char *err, size_t errlen, bool set_modes)
{
	struct hxu_prog_desc pd[16] = {};
	struct hxu_asm_out as;
	struct hxu_image img = { .version = HXU_VERSION };
	char msg[256];

	memset(t, 0, sizeof(*t));
	t->owned = true;
	cr_assert_eq(hxu_asm(text, &as, msg, sizeof(msg)), 0, "assembling: %s\n%s", msg, text);
	snprintf(pd[0].name, sizeof(pd[0].name), "main");
	pd[0].frames = HXU_LM_FRAMES;
	img.prog_cnt = 1;
	for (size_t i = 0; progs && progs[i]; i++) {
		int64_t at = hxu_asm_out__label(&as, progs[i]);

		cr_assert_geq(at, 0, "no label %s", progs[i]);
		cr_assert_lt(img.prog_cnt, 16);
		snprintf(pd[img.prog_cnt].name, HXU_NAME_MAX, "%s", progs[i]);
		pd[img.prog_cnt].entry = (uint32_t)at;
		pd[img.prog_cnt].frames = HXU_LM_FRAMES;
		img.prog_cnt++;
	}
	img.ops = as.words;
	img.op_cnt = as.word_cnt;
	img.tables = descs;
	img.table_cnt = (uint32_t)n;
	img.progs = pd;
	for (int i = 0; i < 2; i++) {
		t->tables[i] = hwxdp_tables__new();
		cr_assert(t->tables[i]);
		hwxdp_tables__set_seed(t->tables[i], 42);
		for (size_t j = 0; j < n; j++)
			cr_assert_eq(hwxdp_tables__create(t->tables[i], &descs[j]), 0, "table %u",
				     descs[j].id);
		t->window[i] = calloc(1, HXU_WINDOW_SIZE);
		cr_assert(t->window[i]);
	}
	if (hwxdp_engine__check(&img, t->tables[0], err, errlen)) {
		hxu_asm_out__free(&as);
		twin_close(t);
		return false;
	}
	for (int i = 0; i < 2; i++) {
		t->engine[i] = hwxdp_engine__new(&img, t->tables[i]);
		cr_assert(t->engine[i], "an engine refused an image the check accepted");
		hwxdp_engine__set_cpu(t->engine[i], 2);
		hwxdp_engine__set_rand_seed(t->engine[i], 7);
	}
	hxu_asm_out__free(&as);
	if (!set_modes)
		return true;
	cr_assert_eq(hwxdp_engine__set_mode(t->engine[TWIN_INTERP], HWXDP_ENGINE_INTERP), 0);
	cr_assert_eq(hwxdp_engine__set_mode(t->engine[TWIN_COMPILED], HWXDP_ENGINE_COMPILED), 0);
	cr_assert_eq(hwxdp_engine__mode(t->engine[TWIN_INTERP]), HWXDP_ENGINE_INTERP);
	cr_assert_eq(hwxdp_engine__mode(t->engine[TWIN_COMPILED]), HWXDP_ENGINE_COMPILED,
		     "the engine did not compile the image");
	return true;
}

bool twin_open_text(struct twin *t, const char *text, const struct hxu_table_desc *descs, size_t n,
		    const char *const *progs, char *err, size_t errlen)
{
	return open_text(t, text, descs, n, progs, err, errlen, true);
}

bool twin_open_text_mode(struct twin *t, const char *text, const struct hxu_table_desc *descs,
			 size_t n, const char *const *progs, char *err, size_t errlen)
{
	return open_text(t, text, descs, n, progs, err, errlen, false);
}

void twin_close(struct twin *t)
{
	if (!t->owned)
		return;
	for (int i = 0; i < 2; i++) {
		hwxdp_engine__free(t->engine[i]);
		hwxdp_tables__free(t->tables[i]);
		free(t->window[i]);
	}
	memset(t, 0, sizeof(*t));
}

static char cache_root[64], cache_hwxdp[96];

void twin_setup(void)
{
	snprintf(cache_root, sizeof(cache_root), "/tmp/hwxdp-compile-test-XXXXXX");
	cr_assert(mkdtemp(cache_root), "mkdtemp: %s", strerror(errno));
	snprintf(cache_hwxdp, sizeof(cache_hwxdp), "%s/hwxdp", cache_root);
	setenv("XDG_CACHE_HOME", cache_root, 1);
	unsetenv("HWXDP_ENGINE");
	unsetenv("HWXDP_CC");
}

const char *twin_cache_dir(void)
{
	return cache_hwxdp;
}

/* Removes dir and the files in it (the cache holds no deeper level). */
static void remove_flat(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[512];

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

void twin_teardown(void)
{
	if (!cache_root[0])
		return;
	remove_flat(cache_hwxdp);
	rmdir(cache_root);
	cache_root[0] = '\0';
}
