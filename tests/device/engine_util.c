// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <criterion/criterion.h>

#include "tests/device/engine_util.h"
#include "verifier/asm.h"

struct hxu_table_desc hxe_table(uint32_t id, uint32_t type, uint32_t key_size, uint32_t value_size,
				uint32_t max_entries)
{
	struct hxu_table_desc d = { .id = id,
				    .type = type,
				    .key_size = key_size,
				    .value_size = value_size,
				    .max_entries = max_entries };

	snprintf(d.name, sizeof(d.name), "t%u", id);
	return d;
}

struct hxe *hxe_try(const char *text, const struct hxu_table_desc *tables, size_t n,
		    const char *const *progs, char *err, size_t errlen)
{
	struct hxe *x = calloc(1, sizeof(*x));
	char msg[256];
	int rc;

	cr_assert(x);
	rc = hxu_asm(text, &x->as, msg, sizeof(msg));
	cr_assert_eq(rc, 0, "assembling: %s\n%s", msg, text);
	x->t = hwxdp_tables__new();
	cr_assert(x->t);
	hwxdp_tables__set_seed(x->t, 42);
	cr_assert_leq(n, HXE_TABLES_MAX);
	for (size_t i = 0; i < n; i++) {
		x->tables[i] = tables[i];
		cr_assert_eq(hwxdp_tables__create(x->t, &tables[i]), 0, "table %u", tables[i].id);
	}
	snprintf(x->progs[0].name, sizeof(x->progs[0].name), "main");
	x->progs[0].frames = HXU_LM_FRAMES;
	x->img.prog_cnt = 1;
	for (size_t i = 0; progs && progs[i]; i++) {
		int64_t at = hxu_asm_out__label(&x->as, progs[i]);

		cr_assert_geq(at, 0, "no label %s", progs[i]);
		cr_assert_lt(x->img.prog_cnt, HXE_PROGS_MAX);
		snprintf(x->progs[x->img.prog_cnt].name, HXU_NAME_MAX, "%s", progs[i]);
		x->progs[x->img.prog_cnt].entry = (uint32_t)at;
		x->progs[x->img.prog_cnt].frames = HXU_LM_FRAMES;
		x->img.prog_cnt++;
	}
	x->img.version = HXU_VERSION;
	x->img.ops = x->as.words;
	x->img.op_cnt = x->as.word_cnt;
	x->img.tables = x->tables;
	x->img.table_cnt = (uint32_t)n;
	x->img.progs = x->progs;
	x->window = calloc(1, HXU_WINDOW_SIZE);
	cr_assert(x->window);
	if (errlen)
		err[0] = '\0';
	if (hwxdp_engine__check(&x->img, x->t, err, errlen)) {
		hxe_free(x);
		return NULL;
	}
	x->engine = hwxdp_engine__new(&x->img, x->t);
	cr_assert(x->engine, "engine__new refused an image engine__check accepted");
	return x;
}

struct hxe *hxe_new(const char *text, const struct hxu_table_desc *tables, size_t n,
		    const char *const *progs)
{
	char err[256];
	struct hxe *x = hxe_try(text, tables, n, progs, err, sizeof(err));

	cr_assert(x, "image refused: %s\n%s", err, text);
	return x;
}

void hxe_free(struct hxe *x)
{
	if (!x)
		return;
	hwxdp_engine__free(x->engine);
	hwxdp_tables__free(x->t);
	hxu_asm_out__free(&x->as);
	free(x->window);
	free(x);
}

int hxe_run(struct hxe *x, uint32_t prog, const void *pkt, size_t len)
{
	cr_assert_leq(len, HXU_FRAME_MAX);
	memset(x->window, 0, HXU_WINDOW_SIZE);
	memcpy(x->window + HXU_HEADROOM, pkt, len);
	memset(&x->frame, 0, sizeof(x->frame));
	x->frame.window = x->window;
	x->frame.data = x->frame.data_meta = HXU_HEADROOM;
	x->frame.data_end = HXU_HEADROOM + (uint32_t)len;
	x->frame.ingress = 1;
	x->rc = hwxdp_engine__run(x->engine, prog, &x->frame, &x->stats);
	return x->rc;
}

bool hxe_have_kernel(void)
{
	if (geteuid() != 0)
		cr_skip_test("needs root to run programs in the kernel");
	return true;
}

int hxe_kernel_load(const char *bpf_text)
{
	static char log[1 << 20];
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = sizeof(log));
	struct bpf_insn *insns;
	size_t cnt;
	char err[256];
	int fd;

	cr_assert_eq(hwxdp_asm(bpf_text, &insns, &cnt, err, sizeof(err)), 0, "BPF asm: %s", err);
	log[0] = '\0';
	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "hxe", "GPL", insns, cnt, &opts);
	if (fd < 0) {
		opts.log_level = 1;
		fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "hxe", "GPL", insns, cnt, &opts);
	}
	free(insns);
	cr_assert_geq(fd, 0, "kernel refused the program: %d\n%.4000s", fd, log);
	return fd;
}

uint32_t hxe_kernel_run(int fd, const void *in, size_t in_len, void *out, size_t *out_len)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = in, .data_size_in = (uint32_t)in_len,
		    .data_out = out, .data_size_out = out_len ? (uint32_t)*out_len : 0,
		    .repeat = 1);
	int err = bpf_prog_test_run_opts(fd, &opts);

	cr_assert_eq(err, 0, "BPF_PROG_TEST_RUN: %d (%s)", err, strerror(errno));
	if (out_len)
		*out_len = opts.data_size_out;
	return opts.retval;
}

void sb_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		cr_assert_geq(n, 0);
		if (b->s && b->len + (size_t)n < b->cap)
			break;
		b->cap = (b->cap + (size_t)n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		cr_assert(b->s);
	}
	b->len += (size_t)n;
}

void sb_free(struct strbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

uint64_t hxe_rng(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
