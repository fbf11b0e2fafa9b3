// SPDX-License-Identifier: GPL-2.0
/* The verifier's public entry points: options, results, and their memory. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "verifier/verifier_internal.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Options from a caller whose struct may be older (shorter) than ours. */
#define OPT(opts, field, fallback)                                                                 \
	((opts) && (opts)->sz >= offsetof(struct hwxdp_verify_opts, field) + sizeof((opts)->field) \
		 ? (opts)->field                                                                   \
		 : (fallback))

/* The kernel's list (license_is_gpl_compatible). */
static bool gpl_compatible(const char *license)
{
	static const char *const gpl[] = {
		"GPL",		"GPL v2",	"GPL and additional rights",
		"Dual BSD/GPL", "Dual MIT/GPL", "Dual MPL/GPL"
	};

	for (size_t i = 0; i < sizeof(gpl) / sizeof(gpl[0]); i++)
		if (!strcmp(license, gpl[i]))
			return true;
	return false;
}

static int verify(const struct bpf_insn *insns, size_t cnt, const struct hwxdp_map_desc *maps,
		  size_t map_cnt, const struct hwxdp_prog *prog, const struct btf *btf,
		  const char *license, const struct hwxdp_verify_opts *opts,
		  struct hwxdp_verify_result **out)
{
	struct verifier_env env = { 0 };
	struct hwxdp_verify_result *res;
	uint64_t start = now_ns();
	int err;

	if (!out || (!insns && cnt) || (!maps && map_cnt) || cnt > UINT32_MAX ||
	    map_cnt > UINT16_MAX)
		return -EINVAL;
	*out = NULL;
	res = calloc(1, sizeof(*res));
	if (!res)
		return -ENOMEM;
	env.insns = insns;
	env.insn_cnt = cnt;
	env.maps = maps;
	env.map_cnt = map_cnt;
	env.prog = prog;
	env.btf = btf;
	env.vmlinux_btf = OPT(opts, vmlinux_btf, NULL);
	env.last_line = -1;
	env.log_level = OPT(opts, log_level, 0);
	env.device = OPT(opts, device, false);
	env.dev_bound = env.device || OPT(opts, dev_bound, false);
	env.allow_ptr_leaks = !env.device && !OPT(opts, unprivileged, false);
	env.perfmon = !OPT(opts, unprivileged, false);
	env.allow_uninit_stack = !OPT(opts, unprivileged, false);
	env.insn_budget = OPT(opts, insn_budget, 0);
	if (!env.insn_budget)
		env.insn_budget = DEFAULT_INSN_BUDGET;
	/* 0 is no XDP attach type: the program's own (its section's) then */
	if (OPT(opts, license, NULL))
		license = opts->license;
	env.gpl_compatible = !license || gpl_compatible(license);
	env.attach_type = OPT(opts, expected_attach_type, 0);
	if (!env.attach_type && prog)
		env.attach_type = prog->expected_attach_type;

	err = verifier_run(&env, res);
	res->verify_ns = now_ns() - start;
	if (err) {
		free(env.log);
		hwxdp_verify_result__free(res);
		return err;
	}
	if (!env.log) {
		env.log = calloc(1, 1);
		if (!env.log) {
			hwxdp_verify_result__free(res);
			return -ENOMEM;
		}
	}
	res->log = env.log;
	res->log_len = env.log_len;
	*out = res;
	return 0;
}

int hwxdp_verify_insns(const struct bpf_insn *insns, size_t cnt, const struct hwxdp_map_desc *maps,
		       size_t map_cnt, const struct hwxdp_verify_opts *opts,
		       struct hwxdp_verify_result **out)
{
	return verify(insns, cnt, maps, map_cnt, NULL, OPT(opts, btf, NULL), NULL, opts, out);
}

int hwxdp_verify(const struct hwxdp_object *obj, const struct hwxdp_prog *prog,
		 const struct hwxdp_verify_opts *opts, struct hwxdp_verify_result **out)
{
	if (!obj || !prog)
		return -EINVAL;
	/* The rules here are XDP's: another type (or none known) is not guessed. */
	if (prog->type != BPF_PROG_TYPE_XDP)
		return -EOPNOTSUPP;
	return verify(prog->insns, prog->insn_cnt, obj->maps, obj->map_cnt, prog, obj->btf,
		      obj->license, opts, out);
}

void hwxdp_verify_result__free(struct hwxdp_verify_result *res)
{
	if (!res)
		return;
	free(res->log);
	free(res->facts);
	free(res);
}
