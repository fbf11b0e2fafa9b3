// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer entry for the object loader: any bytes either open into a whole
 * object or are refused; the object is walked so that the sanitizers see
 * every field. Build:
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined \
 *     -fno-sanitize-recover=undefined -I. -Iinclude \
 *     tests/fuzz/fuzz_object.c loader/object.c loader/btf_ext.c \
 *     loader/kfuncs.c loader/log.c -lbpf -lelf -lz -o fuzz_object
 * Run with the built objects as the seed corpus.
 */
#include <stdint.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "hwxdp/object.h"
#include "loader/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hwxdp_object *obj;
	size_t i, k;

	hwxdp_set_print(NULL);
	if (hwxdp_object__open_mem(data, size, "fuzz.bpf.o", &obj))
		return 0;
	for (i = 0; i < obj->prog_cnt; i++) {
		const struct hwxdp_prog *p = &obj->progs[i];

		for (k = 0; k < p->insn_cnt; k++)
			sink += p->insns[k].code + (hwxdp_prog__line(p, k) != NULL);
		for (k = 0; k < p->line_cnt; k++)
			sink += strlen(p->lines[k].text) + strlen(p->lines[k].file);
		for (k = 0; k < p->subprog_cnt; k++)
			sink += strlen(p->subprog_name[k]) + p->subprog_start[k];
		for (k = 0; k < p->extern_cnt; k++)
			sink += strlen(p->externs[k].name);
	}
	for (i = 0; i < obj->map_cnt; i++)
		for (k = 0; obj->maps[i].initial && k < obj->maps[i].initial_size; k++)
			sink += obj->maps[i].initial[k];
	hwxdp_object__close(obj);
	return 0;
}
