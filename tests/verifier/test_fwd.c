// SPDX-License-Identifier: GPL-2.0
/*
 * The real forwarding program through hwxdp's verifier: as hwxdp's loader
 * presents it (both targets), and as libbpf relocates it for the kernel,
 * next to the kernel's own verdict and figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <criterion/criterion.h>

#include "loader/object.h"
#include "verifier/verifier.h"

/* The build's fwd.bpf.o: $HWXDP_BUILD or $BUILD (as scripts/run-tests.sh
 * sets it), else build/. */
static const char *fwd_path(void)
{
	static char path[4096];
	const char *build = getenv("HWXDP_BUILD");

	if (!build || !*build)
		build = getenv("BUILD");
	if (!build || !*build)
		build = "build";
	snprintf(path, sizeof(path), "%s/progs/fwd.bpf.o", build);
	return path;
}

static struct hwxdp_verify_result *verify(const struct bpf_insn *insns, size_t cnt,
					  const struct hwxdp_map_desc *maps, size_t map_cnt,
					  bool device)
{
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts), .log_level = 1, .device = device };
	struct hwxdp_verify_result *res = NULL;

	cr_assert_eq(hwxdp_verify_insns(insns, cnt, maps, map_cnt, &opts, &res), 0);
	return res;
}

static size_t reachable(const struct hwxdp_verify_result *res)
{
	size_t i, n = 0;

	for (i = 0; i < res->fact_cnt; i++)
		n += res->facts[i].reachable;
	return n;
}

/* The instruction calling a device kfunc, or -1. */
static long kfunc_call(const struct bpf_insn *insns, size_t cnt)
{
	size_t i;

	for (i = 0; i < cnt; i++)
		if (insns[i].code == (BPF_JMP | BPF_CALL) &&
		    insns[i].src_reg == BPF_PSEUDO_KFUNC_CALL)
			return i;
	return -1;
}

/* hwxdp_target in .rodata selects the copy; the other one's code is dead. */
static struct hwxdp_map_desc *with_target(const struct hwxdp_object *obj, uint32_t target,
					  uint8_t **bytes)
{
	struct hwxdp_map_desc *maps = calloc(obj->map_cnt, sizeof(*maps));
	size_t i;

	cr_assert_not_null(maps);
	memcpy(maps, obj->maps, obj->map_cnt * sizeof(*maps));
	for (i = 0; i < obj->map_cnt; i++) {
		if (!maps[i].read_only)
			continue;
		cr_assert_geq(maps[i].initial_size, sizeof(target));
		*bytes = malloc(maps[i].initial_size);
		cr_assert_not_null(*bytes);
		memcpy(*bytes, maps[i].initial, maps[i].initial_size);
		memcpy(*bytes, &target, sizeof(target));
		maps[i].initial = *bytes;
	}
	return maps;
}

Test(fwd, loader_object_both_targets)
{
	static const struct hwxdp_kfunc no_kfuncs[] = { { 0 } };
	struct hwxdp_object_open_opts host_opts = { .sz = sizeof(host_opts), .kfuncs = no_kfuncs };
	struct hwxdp_object *obj = NULL, *host_obj = NULL;
	const struct hwxdp_prog *prog, *host_prog;
	struct hwxdp_verify_result *host, *dev;
	struct hwxdp_map_desc *maps;
	uint8_t *bytes = NULL;
	long call;
	int err;

	if (access(fwd_path(), R_OK))
		cr_skip_test("%s not built", fwd_path());
	/* The host copy is the kernel's view: device kfuncs stay unresolved. */
	err = hwxdp_object__open_opts(fwd_path(), &host_opts, &host_obj);
	cr_assert_eq(err, 0, "hwxdp_object__open_opts: %d", err);
	host_prog = hwxdp_object__find_prog(host_obj, "hwxdp_fwd");
	cr_assert_not_null(host_prog);
	err = hwxdp_object__open(fwd_path(), &obj);
	cr_assert_eq(err, 0, "hwxdp_object__open: %d", err);
	prog = hwxdp_object__find_prog(obj, "hwxdp_fwd");
	cr_assert_not_null(prog);
	call = kfunc_call(prog->insns, prog->insn_cnt);
	cr_assert_geq(call, 0, "the program calls no device kfunc");

	maps = with_target(host_obj, 0, &bytes); /* HWXDP_TARGET_HOST */
	host = verify(host_prog->insns, host_prog->insn_cnt, maps, host_obj->map_cnt, false);
	cr_expect(host->accepted, "host copy rejected:\n%s", host->log);
	cr_expect(!host->facts[call].reachable, "the host copy reaches the crypto kfunc");
	free(maps);
	free(bytes);

	maps = with_target(obj, 1, &bytes); /* HWXDP_TARGET_DEVICE */
	dev = verify(prog->insns, prog->insn_cnt, maps, obj->map_cnt, true);
	cr_expect(dev->accepted, "device copy rejected:\n%s", dev->log);
	cr_expect(dev->facts[call].reachable, "the device copy never reaches the crypto kfunc");
	cr_log_info("fwd (%zu insns), hwxdp host: processed %u insns, %u states (peak %u, max %u "
		    "per insn), %zu reachable, %.1f ms\n",
		    host_prog->insn_cnt, host->insns_processed, host->states_total,
		    host->states_peak, host->max_states_per_insn, reachable(host),
		    host->verify_ns / 1e6);
	cr_log_info("fwd, hwxdp device: processed %u insns, %u states, %zu reachable, %.1f ms\n",
		    dev->insns_processed, dev->states_total, reachable(dev), dev->verify_ns / 1e6);
	hwxdp_verify_result__free(host);
	hwxdp_verify_result__free(dev);
	free(maps);
	free(bytes);
	hwxdp_object__close(obj);
	hwxdp_object__close(host_obj);
}

/* hwxdp's view of a libbpf map: its index in the object and its layout. */
static void describe_map(const struct bpf_map *map, struct hwxdp_map_desc *desc)
{
	size_t size = 0;
	const void *initial;

	snprintf(desc->name, sizeof(desc->name), "%s", bpf_map__name(map));
	desc->type = bpf_map__type(map);
	desc->key_size = bpf_map__key_size(map);
	desc->value_size = bpf_map__value_size(map);
	desc->max_entries = bpf_map__max_entries(map);
	desc->map_flags = bpf_map__map_flags(map);
	initial = bpf_map__initial_value((struct bpf_map *)map, &size);
	if (initial && (desc->map_flags & BPF_F_RDONLY_PROG)) {
		desc->origin = HWXDP_MAP_GLOBAL;
		desc->read_only = true;
		desc->initial = initial;
		desc->initial_size = size;
	}
}

Test(fwd, libbpf_relocated_against_kernel)
{
	static char log[1 << 20];
	struct hwxdp_map_desc maps[32] = { 0 };
	int fds[32];
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct hwxdp_verify_result *res;
	struct bpf_insn *insns;
	struct bpf_map *map;
	unsigned int k_insns = 0, k_states = 0;
	size_t cnt, i, j, map_cnt = 0;
	const char *p;

	if (geteuid())
		cr_skip_test("libbpf relocates maps by loading them: needs root");
	if (access(fwd_path(), R_OK))
		cr_skip_test("%s not built", fwd_path());
	obj = bpf_object__open_file(fwd_path(), NULL);
	cr_assert_not_null(obj);
	prog = bpf_object__find_program_by_name(obj, "hwxdp_fwd");
	cr_assert_not_null(prog);
	bpf_program__set_log_buf(prog, log, sizeof(log));
	bpf_program__set_log_level(prog, 1);
	cr_assert_eq(bpf_object__load(obj), 0, "the kernel rejects fwd:\n%s", log);
	p = strstr(log, "processed ");
	cr_assert(p && sscanf(p, "processed %u insns", &k_insns) == 1, "%s", log);
	p = strstr(p, "total_states ");
	cr_assert(p && sscanf(p, "total_states %u", &k_states) == 1, "%s", log);

	bpf_object__for_each_map(map, obj)
	{
		cr_assert_lt(map_cnt, 32);
		describe_map(map, &maps[map_cnt]);
		fds[map_cnt++] = bpf_map__fd(map);
	}
	/* the kernel's stream, its map fds turned back into indexes */
	cnt = bpf_program__insn_cnt(prog);
	insns = malloc(cnt * sizeof(*insns));
	cr_assert_not_null(insns);
	memcpy(insns, bpf_program__insns(prog), cnt * sizeof(*insns));
	for (i = 0; i + 1 < cnt; i++) {
		if (insns[i].code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if (insns[i].src_reg == BPF_PSEUDO_MAP_FD ||
		    insns[i].src_reg == BPF_PSEUDO_MAP_VALUE) {
			for (j = 0; j < map_cnt && fds[j] != insns[i].imm; j++)
				;
			cr_assert_lt(j, map_cnt, "insn %zu: fd %d is no map of the object", i,
				     insns[i].imm);
			insns[i].imm = j;
		}
		i++;
	}
	res = verify(insns, cnt, maps, map_cnt, false);
	cr_expect(res->accepted, "hwxdp rejects what the kernel accepts:\n%s", res->log);
	cr_log_info("fwd as libbpf loads it (%zu insns): kernel processed %u insns, %u states; "
		    "hwxdp processed %u insns, %u states (peak %u, max %u per insn) in %.1f ms\n",
		    cnt, k_insns, k_states, res->insns_processed, res->states_total,
		    res->states_peak, res->max_states_per_insn, res->verify_ns / 1e6);
	hwxdp_verify_result__free(res);
	free(insns);
	bpf_object__close(obj);
}
