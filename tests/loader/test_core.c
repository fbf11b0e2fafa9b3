// SPDX-License-Identifier: GPL-2.0
/*
 * CO-RE relocation on BTF built by hand, without a kernel: the rules libbpf
 * documents for what its loads against the kernel (test_kernel.c) cannot
 * show, a kernel having one type per name. Essential names and anonymous
 * unions, a candidate of another kind, two kernel types that disagree, an
 * instruction that does not hold the object's value, and what this loader
 * refuses.
 */
#include <criterion/criterion.h>
#include <string.h>

#include <bpf/btf.h>
#include <linux/bpf.h>

#include "loader/object_internal.h"

/* struct NAME { u32 a; u32 x; } */
static int add_local(struct btf *b, const char *name)
{
	int u32 = btf__add_int(b, "unsigned int", 4, 0), s = btf__add_struct(b, name, 8);

	cr_assert(u32 > 0 && s > 0);
	cr_assert_eq(btf__add_field(b, "a", u32, 0, 0), 0);
	cr_assert_eq(btf__add_field(b, "x", u32, 32, 0), 0);
	return s;
}

/* struct NAME { u32 pad[3]; union { u32 x; u32 y; }; } */
static int add_kernel(struct btf *b, const char *name, bool pad)
{
	int u32 = btf__add_int(b, "unsigned int", 4, 0);
	int arr = btf__add_array(b, u32, u32, 3);
	int un = btf__add_union(b, NULL, 4), s;

	cr_assert_eq(btf__add_field(b, "x", u32, 0, 0), 0);
	cr_assert_eq(btf__add_field(b, "y", u32, 0, 0), 0);
	s = btf__add_struct(b, name, 16);
	if (pad)
		cr_assert_eq(btf__add_field(b, "pad", arr, 0, 0), 0);
	cr_assert_eq(btf__add_field(b, NULL, un, pad ? 96 : 0, 0), 0);
	return s;
}

static int relocate(struct btf *local, struct btf *targ, int type, uint32_t kind,
		    struct bpf_insn *insn, char *msg)
{
	struct bpf_core_relo rec = { .insn_off = 0,
				     .type_id = type,
				     .access_str_off = btf__add_str(local, "0:1"),
				     .kind = kind };

	return core_relocate(local, targ, &rec, insn, 1, msg, 384);
}

static const struct bpf_insn ldx_x = { .code = BPF_LDX | BPF_MEM | BPF_W,
				       .dst_reg = 2,
				       .src_reg = 1,
				       .off = 4 };

Test(loader_core, flavour_found_through_an_anonymous_union)
{
	struct btf *local = btf__new_empty(), *targ = btf__new_empty();
	struct bpf_insn insn = ldx_x;
	char msg[384] = "";

	add_kernel(targ, "conn", true);
	cr_assert_eq(relocate(local, targ, add_local(local, "conn___v2"),
			      BPF_CORE_FIELD_BYTE_OFFSET, &insn, msg),
		     0, "%s", msg);
	cr_expect_eq(insn.off, 12, "x at %d, the kernel has it at 12", insn.off);
	cr_expect_eq(insn.code, ldx_x.code);
	btf__free(local);
	btf__free(targ);
}

Test(loader_core, other_names_and_kinds_are_no_candidates)
{
	struct btf *local = btf__new_empty(), *targ = btf__new_empty();
	struct bpf_insn insn = ldx_x;
	char msg[384] = "";
	int u32 = btf__add_int(targ, "unsigned int", 4, 0);

	/* a union conn, and a struct whose name only starts like it */
	cr_assert_gt(btf__add_union(targ, "conn", 4), 0);
	cr_assert_eq(btf__add_field(targ, "x", u32, 0, 0), 0);
	add_kernel(targ, "conn_v2", true);
	cr_assert_eq(relocate(local, targ, add_local(local, "conn___v2"),
			      BPF_CORE_FIELD_BYTE_OFFSET, &insn, msg),
		     0, "%s", msg);
	cr_expect_eq(insn.code, BPF_JMP | BPF_CALL, "not poisoned: code %#x", insn.code);
	cr_expect_eq(insn.imm, 0xbad2310);
	insn = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .imm = 1 };
	cr_assert_eq(relocate(local, targ, 2, BPF_CORE_FIELD_EXISTS, &insn, msg), 0, "%s", msg);
	cr_expect_eq(insn.imm, 0, "exists %d", insn.imm);
	btf__free(local);
	btf__free(targ);
}

Test(loader_core, kernel_types_that_disagree_are_refused)
{
	struct btf *local = btf__new_empty(), *targ = btf__new_empty();
	struct bpf_insn insn = ldx_x;
	char msg[384] = "";

	add_kernel(targ, "conn", true);
	add_kernel(targ, "conn", false);
	cr_assert_eq(relocate(local, targ, add_local(local, "conn"), BPF_CORE_FIELD_BYTE_OFFSET,
			      &insn, msg),
		     -HWXDP_ERR_RELOC);
	cr_expect(strstr(msg, "give different values (12 and 0)"), "%s", msg);
	cr_expect(strstr(msg, "insn 0 (byte_off of conn, access 0:1)"), "%s", msg);
	btf__free(local);
	btf__free(targ);
}

Test(loader_core, an_instruction_without_the_local_value_is_refused)
{
	struct btf *local = btf__new_empty(), *targ = btf__new_empty();
	struct bpf_insn insn = ldx_x;
	char msg[384] = "";

	add_kernel(targ, "conn", true);
	insn.off = 8;
	cr_assert_eq(relocate(local, targ, add_local(local, "conn"), BPF_CORE_FIELD_BYTE_OFFSET,
			      &insn, msg),
		     -HWXDP_ERR_RELOC);
	cr_expect(strstr(msg, "offset is 8, the object's BTF says 4"), "%s", msg);
	cr_expect_eq(insn.off, 8, "changed all the same");
	btf__free(local);
	btf__free(targ);
}

Test(loader_core, type_matches_is_refused_in_words)
{
	struct btf *local = btf__new_empty(), *targ = btf__new_empty();
	struct bpf_insn insn = { .code = BPF_ALU64 | BPF_MOV | BPF_K, .imm = 1 };
	char msg[384] = "";
	int s = add_local(local, "conn");
	struct bpf_core_relo rec = { .type_id = s,
				     .access_str_off = btf__add_str(local, "0"),
				     .kind = BPF_CORE_TYPE_MATCHES };

	add_kernel(targ, "conn", true);
	cr_assert_eq(core_relocate(local, targ, &rec, &insn, 1, msg, sizeof(msg)),
		     -HWXDP_ERR_RELOC);
	cr_expect(strstr(msg, "type_matches of conn, access 0): not supported"), "%s", msg);
	btf__free(local);
	btf__free(targ);
}
