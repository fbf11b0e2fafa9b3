// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the seed corpus of fuzz_verify: valid and nearly valid programs
 * with their maps, in the layout of tests/fuzz/verify_input.h, so that the
 * fuzzer starts deep inside the verifier instead of at its opcode checks.
 *   - every program of each BPF object given (fwd.bpf.o, the loader's
 *     corpus), for the device and for the host, plain and logged;
 *   - the verifier's test cases (tests/verifier/cases_*.c), accepted and
 *     rejected ones, with the test maps;
 *   - programs of the differential generator (tests/vdiff/gen.c): templates
 *     and mutations of the XDP program of the first object named fwd*.
 * Usage: verify_seeds DIR OBJECT...
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/object.h"
#include "base/log.h"
#include "tests/fuzz/verify_input.h"
#include "tests/vdiff/gen.h"
#include "tests/verifier/cases.h"

#define VDIFF_SEEDS 240

static const char *out_dir;
static unsigned int written;

static int write_seed(const char *name, uint8_t options, const struct hwxdp_map_desc *maps,
		      size_t map_cnt, const struct bpf_insn *insns, size_t cnt)
{
	char path[4096];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "%s/%s", out_dir, name);
	f = fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "verify_seeds: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	err = verify_input__write(f, options, maps, map_cnt, insns, cnt);
	if (fclose(f) || err) {
		fprintf(stderr, "verify_seeds: %s: cannot write\n", path);
		return -EIO;
	}
	written++;
	return 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* kfuncs as the kernel sees a device program: none, every weak one is 0 */
static const struct hwxdp_kfunc no_kfuncs[] = { { NULL, 0 } };

/*
 * Each program opened for the device and for the host (where device kfunc
 * calls are dead code), plain and logged, with source lines.
 */
static int object_seeds(const char *path)
{
	static const struct {
		bool host;
		uint8_t options;
	} variants[] = {
		{ false, VI_OPT_DEVICE },
		{ false, VI_OPT_DEVICE | 1 | VI_OPT_LINES },
		{ true, 0 },
		{ true, 2 | VI_OPT_LINES },
	};
	struct hwxdp_object_open_opts opts = { .sz = sizeof(opts) };
	struct hwxdp_object *obj;
	char name[256];
	size_t i, v;
	int err = 0;

	for (v = 0; v < sizeof(variants) / sizeof(variants[0]) && !err; v++) {
		opts.kfuncs = variants[v].host ? no_kfuncs : NULL;
		err = hwxdp_object__open_opts(path, &opts, &obj);
		if (err) {
			fprintf(stderr, "verify_seeds: %s: %s\n", path, hwxdp_strerror(err));
			return err;
		}
		for (i = 0; i < obj->prog_cnt && !err; i++) {
			snprintf(name, sizeof(name), "obj-%s-%s-%zu", base_name(path),
				 obj->progs[i].name, v);
			err = write_seed(name, variants[v].options, obj->maps, obj->map_cnt,
					 obj->progs[i].insns, obj->progs[i].insn_cnt);
		}
		hwxdp_object__close(obj);
	}
	return err;
}

static size_t case_len(const struct verifier_case *c)
{
	size_t n = MAX_TEST_INSNS;

	if (c->insn_cnt)
		return c->insn_cnt;
	while (n && !c->insns[n - 1].code && !c->insns[n - 1].imm && !c->insns[n - 1].dst_reg &&
	       !c->insns[n - 1].src_reg && !c->insns[n - 1].off)
		n--;
	return n;
}

static int case_seeds(const char *kind, const struct verifier_case *cases, unsigned int cnt)
{
	char name[64];
	unsigned int i;
	int err = 0;

	for (i = 0; i < cnt && !err; i++) {
		const struct verifier_case *c = &cases[i];
		uint8_t options = (c->device ? VI_OPT_DEVICE : 0) |
				  (c->attach == BPF_XDP_DEVMAP ? VI_OPT_DEVMAP : 0);

		snprintf(name, sizeof(name), "case-%s-%03u", kind, i);
		err = write_seed(name, options, test_maps, MAP_CNT, c->insns, case_len(c));
	}
	return err;
}

static int vdiff_seeds(const char *base)
{
	struct vdiff_gen_opts opts = {
		.sz = sizeof(opts),
		.seed = 0x68777864,
		.mix = base ? VDIFF_MIX_BOTH : VDIFF_MIX_TEMPLATES,
		.base_object = base,
	};
	struct vdiff_gen *gen;
	struct vdiff_prog prog;
	char name[64];
	uint64_t i;
	int err;

	err = vdiff_gen__new(&opts, &gen);
	if (err)
		return err;
	for (i = 0; i < VDIFF_SEEDS && !err; i++) {
		err = vdiff_gen__program(gen, i, &prog);
		if (err)
			break;
		snprintf(name, sizeof(name), "vdiff-%04llu", (unsigned long long)i);
		err = write_seed(name, (i & 1) ? VI_OPT_DEVICE : 0, prog.maps, prog.map_cnt,
				 prog.insns, prog.cnt);
		vdiff_prog__clear(&prog);
	}
	vdiff_gen__free(gen);
	return err;
}

int main(int argc, char **argv)
{
	const char *base = NULL;
	int i, err = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR OBJECT...\n", argv[0]);
		return 2;
	}
	out_dir = argv[1];
	for (i = 2; i < argc && !err; i++) {
		err = object_seeds(argv[i]);
		if (!base && !strncmp(base_name(argv[i]), "fwd", 3))
			base = argv[i];
	}
	if (!err)
		err = case_seeds("accept", accept_cases, accept_case_cnt);
	if (!err)
		err = case_seeds("reject", reject_cases, reject_case_cnt);
	if (!err)
		err = vdiff_seeds(base);
	if (err) {
		fprintf(stderr, "verify_seeds: %s\n", hwxdp_strerror(err));
		return 1;
	}
	printf("verify_seeds: %u inputs in %s\n", written, out_dir);
	return 0;
}
