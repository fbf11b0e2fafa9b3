// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer entry for the object loader: any bytes either open into a whole
 * object or are refused; the object is walked so that the sanitizers see
 * every field. What opens is also opened as the kernel sees it (no device
 * kfuncs), gets its target global set, and has its XDP programs verified
 * with a log, so the loader's output (source lines, externs, global maps)
 * meets the verifier as it will in use. scripts/run-fuzz.sh builds and runs
 * it; by hand:
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined \
 *     -fno-sanitize-recover=undefined -I. -Iinclude -Iprogs/include \
 *     tests/fuzz/fuzz_object.c loader/\*.c verifier/\*.c \
 *     -lbpf -lelf -lz -o fuzz_object
 * Run with the built objects as the seed corpus.
 */
#include <stdint.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "hwxdp/fwd.h"
#include "loader/object.h"
#include "base/log.h"
#include "verifier/verifier.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;

/* Mutated objects make long programs: keep one input well under a second. */
#define FUZZ_BUDGET 20000

static void verify_progs(const struct hwxdp_object *obj)
{
	struct hwxdp_verify_opts opts = {
		.sz = sizeof(opts),
		.log_level = 1,
		.insn_budget = FUZZ_BUDGET,
	};
	struct hwxdp_verify_result *res;
	size_t i;

	for (i = 0; i < obj->prog_cnt; i++) {
		if (obj->progs[i].type != BPF_PROG_TYPE_XDP)
			continue;
		if (hwxdp_verify(obj, &obj->progs[i], &opts, &res))
			__builtin_trap(); /* it runs on whatever the loader gives */
		sink += res->log_len + res->accepted;
		hwxdp_verify_result__free(res);
	}
}

/* The kernel's view: no device kfuncs, every device extern unresolved. */
static void open_for_kernel(const uint8_t *data, size_t size)
{
	static const struct hwxdp_kfunc none[] = { { NULL, 0 } };
	struct hwxdp_object_open_opts opts = { .sz = sizeof(opts), .kfuncs = none };
	struct hwxdp_object *obj;

	if (hwxdp_object__open_mem_opts(data, size, "fuzz.bpf.o", &opts, &obj))
		return;
	sink += obj->prog_cnt;
	hwxdp_object__close(obj);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hwxdp_object *obj;
	uint32_t target;
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
	for (i = 0; i < obj->prog_cnt; i++)
		if (obj->progs[i].extern_cnt) {
			open_for_kernel(data, size);
			break;
		}
	target = HWXDP_TARGET_DEVICE;
	sink += hwxdp_object__set_global(obj, "hwxdp_target", &target, sizeof(target));
	verify_progs(obj);
	hwxdp_object__close(obj);
	return 0;
}
