// SPDX-License-Identifier: GPL-2.0
/* include/hwxdp/verify.h over the verifier's own interface. */
#include <errno.h>
#include <stdio.h>

#include "hwxdp/verify.h"
#include "base/log.h"
#include "verifier/verifier.h"

#define OPTS_HAS(opts, field)                                                                      \
	((opts)->sz >= offsetof(typeof(*(opts)), field) + sizeof((opts)->field))

int hwxdp_prog__verify(const struct hwxdp_object *obj, const struct hwxdp_prog *prog,
		       struct hwxdp_prog_verify_opts *opts)
{
	struct hwxdp_verify_opts vopts = { .sz = sizeof(vopts) };
	struct hwxdp_verify_result *res = NULL;
	int err;

	if (!obj || !prog || (opts && !OPTS_HAS(opts, log_size)))
		return -EINVAL;
	if (opts) {
		vopts.device = opts->device;
		vopts.unprivileged = opts->unprivileged;
		vopts.log_level = opts->log_level;
		vopts.insn_budget = opts->insn_budget;
		if (OPTS_HAS(opts, dev_bound))
			vopts.dev_bound = opts->dev_bound;
	}
	vopts.expected_attach_type = prog->expected_attach_type;
	err = hwxdp_verify(obj, prog, &vopts, &res);
	if (err)
		return err;
	if (opts && opts->log_buf && opts->log_size)
		snprintf(opts->log_buf, opts->log_size, "%s", res->log ? res->log : "");
	else if (!res->accepted && res->log)
		pr_warn("%s", res->log);
	if (opts && OPTS_HAS(opts, insns_processed)) {
		opts->error_insn = res->error_insn;
		opts->insns_processed = res->insns_processed;
	}
	err = res->accepted ? 0 : -EACCES;
	hwxdp_verify_result__free(res);
	return err;
}
