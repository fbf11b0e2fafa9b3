// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's XDP metadata kfuncs (bpf_xdp_metadata_rx_timestamp, _rx_hash,
 * _rx_vlan_tag), as a 6.18 kernel judges them.
 *
 * The kernel lets only a device-bound program call them (loaded with
 * prog_ifindex and BPF_F_XDP_DEV_BOUND_ONLY), and says so before it walks a
 * path: a call in dead code is refused too. hwxdp's host copy is loaded
 * unbound, so the host target refuses every such call in those words,
 * unless it is verified as bound (hwxdp_verify_opts.dev_bound).
 *
 * The coprocessor is the device such a copy is bound to. There, and for a
 * bound host copy, the kernel's rules for a bound program apply: R1 the
 * program's context, unmoved; every other argument memory the kfunc may
 * read and write, of its pointee's size (stack, a writable map value, the
 * packet or its metadata), never NULL. The result is a scalar; no packet
 * pointer moves.
 */
#include <stdio.h>

#include "verifier/verifier_internal.h"

struct metadata_kfunc {
	int32_t id;
	const char *name;
	uint8_t arg_cnt;     /* R1 the context, then pointers */
	uint8_t arg_size[4]; /* bytes behind R2, R3 */
};

static const struct metadata_kfunc metadata_kfuncs[] = {
	{ KFUNC_XDP_RX_TIMESTAMP, "bpf_xdp_metadata_rx_timestamp", 2, { 0, 8 } },
	/* u32 *hash, enum xdp_rss_hash_type *rss_type */
	{ KFUNC_XDP_RX_HASH, "bpf_xdp_metadata_rx_hash", 3, { 0, 4, 4 } },
	/* __be16 *vlan_proto, u16 *vlan_tci */
	{ KFUNC_XDP_RX_VLAN_TAG, "bpf_xdp_metadata_rx_vlan_tag", 3, { 0, 2, 2 } },
};

static const struct metadata_kfunc *find_metadata_kfunc(int32_t id)
{
	for (size_t i = 0; i < sizeof(metadata_kfuncs) / sizeof(metadata_kfuncs[0]); i++)
		if (metadata_kfuncs[i].id == id)
			return &metadata_kfuncs[i];
	return NULL;
}

bool kfunc_is_xdp_metadata(const struct bpf_insn *insn)
{
	return insn->src_reg == BPF_PSEUDO_KFUNC_CALL && !insn->off &&
	       find_metadata_kfunc(insn->imm);
}

const char *kfunc_name(int32_t id)
{
	const struct metadata_kfunc *k = find_metadata_kfunc(id);

	if (k)
		return k->name;
	if (conntrack_kfunc_name(id))
		return conntrack_kfunc_name(id);
	switch (id) {
	case KFUNC_ESP_ENCAP:
		return "bpf_hwxdp_esp_encap";
	case KFUNC_DYNPTR_FROM_XDP:
		return "bpf_dynptr_from_xdp";
	case KFUNC_DYNPTR_SLICE:
		return "bpf_dynptr_slice";
	case KFUNC_DYNPTR_SLICE_RDWR:
		return "bpf_dynptr_slice_rdwr";
	case KFUNC_ITER_NUM_NEW:
		return "bpf_iter_num_new";
	case KFUNC_ITER_NUM_NEXT:
		return "bpf_iter_num_next";
	case KFUNC_ITER_NUM_DESTROY:
		return "bpf_iter_num_destroy";
	default:
		return NULL;
	}
}

int check_kfunc_binding(struct verifier_env *env, const struct bpf_insn *insn, uint32_t idx)
{
	if (!kfunc_is_xdp_metadata(insn) || env->dev_bound)
		return 0;
	env->error_insn = idx;
	verbose(env, "%u: call %s: metadata kfuncs require device-bound program\n", idx,
		kfunc_name(insn->imm));
	return -EINVAL;
}

int check_xdp_metadata_call(struct verifier_env *env, const struct bpf_insn *insn)
{
	const struct metadata_kfunc *k = find_metadata_kfunc(insn->imm);
	struct reg_state *regs = cur_frame(env)->regs;
	uint32_t regno;
	int err;

	/* the walk meets no unbound call: check_kfunc_binding refused it */
	if (!k || !env->dev_bound)
		return -EINVAL;
	for (regno = BPF_REG_1; regno <= k->arg_cnt; regno++) {
		const struct reg_state *reg = &regs[regno];

		err = check_reg_readable(env, regno);
		if (err)
			return err;
		if (regno == BPF_REG_1) {
			if (reg->type != PTR_TO_CTX) {
				verbose(env, "arg#0 expected pointer to ctx, but got %s\n",
					reg_type_str(reg->type));
				return REJECT;
			}
			if (reg->off || !tnum_equals_const(reg->var_off, 0)) {
				verbose(env,
					"dereference of modified ctx ptr R1 off=%d disallowed\n",
					reg->off);
				return REJECT;
			}
			continue;
		}
		if (reg->type == SCALAR_VALUE || type_is_or_null(reg->type)) {
			verbose(env, "Possibly NULL pointer passed to trusted arg%u\n", regno - 1);
			return REJECT;
		}
		if (reg->type != PTR_TO_STACK && reg->type != PTR_TO_MAP_VALUE &&
		    !type_is_pkt(reg->type)) {
			verbose(env, "arg#%u pointer type %s is not memory of %u bytes\n",
				regno - 1, reg_type_str(reg->type), k->arg_size[regno - 1]);
			return REJECT;
		}
		/* the kernel's check_mem_reg: read, then written */
		err = check_mem_region(env, regno, 0, k->arg_size[regno - 1], false, false);
		err = err ? err
			  : check_mem_region(env, regno, 0, k->arg_size[regno - 1], true, false);
		if (err)
			return err;
	}
	for (regno = BPF_REG_1; regno <= BPF_REG_5; regno++)
		reg_mark_not_init(&regs[regno]);
	reg_mark_unknown(&regs[BPF_REG_0]);
	return 0;
}
