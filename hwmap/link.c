// SPDX-License-Identifier: GPL-2.0
/* Images of one program each, concatenated into one (hwmap/link.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwmap/link.h"
#include "hwmap/translate.h"

static bool has_target(uint8_t opcode)
{
	return opcode == HXU_OP_BR || opcode == HXU_OP_BRI || opcode == HXU_OP_JMP ||
	       opcode == HXU_OP_CALL || opcode == HXU_OP_LCHK;
}

static bool same_shape(const struct hxu_table_desc *a, const struct hxu_table_desc *b)
{
	return a->type == b->type && a->key_size == b->key_size && a->value_size == b->value_size &&
	       a->max_entries == b->max_entries && a->flags == b->flags &&
	       !memcmp(&a->inner, &b->inner, sizeof(a->inner)) && !strcmp(a->name, b->name);
}

static int cmp_table_id(const void *a, const void *b)
{
	const struct hxu_table_desc *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* The union of the parts' tables into tables (room for every one): the
 * count, or -EINVAL with err. */
static int union_tables(const struct hxu_image *const *parts, uint32_t cnt,
			struct hxu_table_desc *tables, char *err, size_t errlen)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < cnt; i++)
		for (uint32_t t = 0; t < parts[i]->table_cnt; t++) {
			const struct hxu_table_desc *d = &parts[i]->tables[t];
			uint32_t k;

			for (k = 0; k < n && tables[k].id != d->id; k++)
				;
			if (k < n && !same_shape(&tables[k], d)) {
				snprintf(err, errlen, "table %u is %s in %s and %s in %s", d->id,
					 tables[k].name, parts[0]->progs[0].name, d->name,
					 parts[i]->progs[0].name);
				return -EINVAL;
			}
			if (k == n)
				tables[n++] = *d;
		}
	qsort(tables, n, sizeof(*tables), cmp_table_id);
	return (int)n;
}

int hxu_image__link(const struct hxu_image *const *parts, uint32_t cnt, struct hxu_image **out,
		    char *err, size_t errlen)
{
	struct hxu_image *img = calloc(1, sizeof(*img));
	uint32_t words = 0, lines = 0, tables = 0, w, l;
	struct hxu_table_desc *tab = NULL;
	struct hxu_prog_desc *progs = NULL;
	struct hxu_line *line = NULL;
	uint64_t *ops = NULL;
	int n, rc = -ENOMEM;

	if (errlen)
		err[0] = '\0';
	*out = NULL;
	if (!img)
		return -ENOMEM;
	rc = -EINVAL;
	if (!cnt || cnt > HXU_PORTS) {
		snprintf(err, errlen, "%u programs, an image holds 1 to %u", cnt, HXU_PORTS);
		goto fail;
	}
	for (uint32_t i = 0; i < cnt; i++) {
		if (parts[i]->prog_cnt != 1 || parts[i]->progs[0].entry) {
			snprintf(err, errlen, "part %u is not one program from word 0", i);
			goto fail;
		}
		words += parts[i]->op_cnt;
		lines += parts[i]->line_cnt;
		tables += parts[i]->table_cnt;
	}
	if (words > HXU_STORE_WORDS) {
		snprintf(err, errlen, "%u operation words, the microcode store holds %u", words,
			 HXU_STORE_WORDS);
		rc = -E2BIG;
		goto fail;
	}
	rc = -ENOMEM;
	ops = calloc(words ? words : 1, sizeof(*ops));
	line = calloc(lines ? lines : 1, sizeof(*line));
	tab = calloc(tables ? tables : 1, sizeof(*tab));
	progs = calloc(cnt, sizeof(*progs));
	if (!ops || !line || !tab || !progs)
		goto fail;
	n = union_tables(parts, cnt, tab, err, errlen);
	if (n < 0) {
		rc = n;
		goto fail;
	}
	w = l = 0;
	for (uint32_t i = 0; i < cnt; i++) {
		const struct hxu_image *p = parts[i];
		uint32_t at = 0;

		while (at < p->op_cnt) {
			struct hxu_op op;
			unsigned int len = hxu_decode_at(p->ops + at, p->op_cnt - at, &op);

			if (!len) {
				snprintf(err, errlen, "%s: op %u is cut short", p->progs[0].name,
					 at);
				rc = -EINVAL;
				goto fail;
			}
			if (has_target(op.opcode))
				op.imm += (int32_t)w;
			hxu_encode(&op, ops + w + at);
			at += len;
		}
		for (uint32_t k = 0; k < p->line_cnt; k++)
			line[l++] = (struct hxu_line){ p->lines[k].op + w, p->lines[k].insn };
		progs[i] = p->progs[0];
		progs[i].entry = w;
		w += p->op_cnt;
	}
	img->version = HXU_VERSION;
	img->ops = ops;
	img->op_cnt = words;
	img->tables = tab;
	img->table_cnt = (uint32_t)n;
	img->progs = progs;
	img->prog_cnt = cnt;
	img->lines = line;
	img->line_cnt = lines;
	*out = img;
	return 0;
fail:
	free(ops);
	free(line);
	free(tab);
	free(progs);
	free(img);
	return rc;
}

uint32_t hxu_image__prog_of(const struct hxu_image *img, uint32_t op)
{
	uint32_t prog = 0;

	for (uint32_t i = 1; i < img->prog_cnt; i++)
		if (img->progs[i].entry <= op && img->progs[i].entry >= img->progs[prog].entry)
			prog = i;
	return prog;
}
