// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel structs behind BTF pointers: every offset and size of a load from
 * (and a store to) the struct nf_conn bpf_xdp_ct_lookup returns, and of a
 * load from the struct tcp_sock bpf_skc_to_tcp_sock gives, judged by hwxdp
 * and by the running kernel, which must agree, and in the same words.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <criterion/criterion.h>

#include "tests/verifier/cases.h"
#include "verifier/verifier.h"

static const struct {
	int size, code;
} sizes[] = { { 1, BPF_B }, { 2, BPF_H }, { 4, BPF_W }, { 8, BPF_DW } };

static bool hwxdp_accepts(const struct bpf_insn *insns, size_t cnt, char *log, size_t log_size)
{
	struct hwxdp_verify_opts opts = { .sz = sizeof(opts), .log_level = 1 };
	struct hwxdp_verify_result *res = NULL;
	bool ok;

	cr_assert_eq(hwxdp_verify_insns(insns, cnt, test_maps, MAP_CNT, &opts, &res), 0);
	ok = res->accepted;
	snprintf(log, log_size, "%s", res->log ? res->log : "");
	hwxdp_verify_result__free(res);
	return ok;
}

/* The kernel's reason: the line of its log before "processed N insns". */
static void kernel_reason(const char *klog, char *out, size_t size)
{
	const char *end = strstr(klog, "\nprocessed "), *start;

	out[0] = '\0';
	if (!end)
		return;
	for (start = end; start > klog && start[-1] != '\n'; start--)
		;
	snprintf(out, size, "%.*s", (int)(end - start), start);
}

static uint32_t struct_size(const char *name)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int id = btf ? btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT) : -1;
	uint32_t size = id > 0 ? btf__type_by_id(btf, id)->size : 0;

	btf__free(btf);
	return size;
}

/* Both judge the program; on a refusal, hwxdp gives the kernel's reason. */
static bool agree(const struct bpf_insn *insns, size_t cnt, const char *what)
{
	static char hlog[1 << 16], klog[1 << 16];
	char reason[256];
	bool ok = hwxdp_accepts(insns, cnt, hlog, sizeof(hlog));
	int fd = kernel_load(insns, cnt, KERNEL_PRIV, 0, false, klog, sizeof(klog));

	if (fd >= 0)
		close(fd);
	cr_expect_eq(ok, fd >= 0, "%s: hwxdp %s, the kernel %s:\n%s%s", what,
		     ok ? "accepts" : "refuses", fd >= 0 ? "accepts" : "refuses", hlog, klog);
	kernel_reason(klog, reason, sizeof(reason));
	if (!ok && fd < 0)
		cr_expect(reason[0] && strstr(hlog, reason), "%s: hwxdp's log lacks \"%s\":\n%s",
			  what, reason, hlog);
	return ok;
}

static void conntrack_fields(bool write)
{
	uint32_t size = struct_size("nf_conn");
	unsigned int accepted = 0, accesses = 0;
	char what[64];

	if (!kernel_available())
		cr_skip_test("the kernel's verdicts need root");
	cr_assert_gt(size, 0, "no struct nf_conn in the kernel's BTF");
	for (int off = 0; off < (int)size + 16; off++) {
		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			const struct bpf_insn insns[] = {
				CT_LOOKUP(),
				JMP_IMM(BPF_JEQ, 0, 0, 4),
				MOV64_IMM(2, 1),
				write ? INSN(BPF_STX | sizes[s].code | BPF_MEM, 0, 2, off, 0)
				      : INSN(BPF_LDX | sizes[s].code | BPF_MEM, 2, 0, off, 0),
				MOV64_REG(1, 0),
				CALL_KFUNC(HWXDP_KFUNC_CT_RELEASE),
				RET(XDP_PASS),
			};

			snprintf(what, sizeof(what), "nf_conn %s off=%d size=%d",
				 write ? "store" : "load", off, sizes[s].size);
			accepted += agree(insns, sizeof(insns) / sizeof(insns[0]), what);
			accesses++;
		}
	}
	cr_log_info("nf_conn: %u of %u %s allowed\n", accepted, accesses,
		    write ? "stores" : "loads");
	/* the struct's scalars are read; of a store, only the mark's */
	cr_expect(write ? accepted > 0 && accepted < 8 : accepted > accesses / 4,
		  "%u of %u allowed", accepted, accesses);
}

Test(btf_ptr, loads_from_a_conntrack_entry_as_the_kernel_allows, .timeout = 120)
{
	conntrack_fields(false);
}

Test(btf_ptr, stores_to_a_conntrack_entry_as_the_kernel_allows, .timeout = 120)
{
	conntrack_fields(true);
}

/*
 * tcp_sock through bpf_skc_to_tcp_sock: each load, and for a word read
 * whole, a byte read through what it gave (a pointer member: a struct of
 * its own, or an __rcu one, NULL first).
 */
Test(btf_ptr, loads_from_a_cast_tcp_sock_as_the_kernel_allows, .timeout = 300)
{
	uint32_t size = struct_size("tcp_sock");
	unsigned int accepted = 0, accesses = 0, through = 0;
	char what[64];

	if (!kernel_available())
		cr_skip_test("the kernel's verdicts need root");
	cr_assert_gt(size, 0, "no struct tcp_sock in the kernel's BTF");
	for (int off = 0; off < (int)size + 16; off++) {
		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			for (int deref = 0; deref <= (sizes[s].size == 8); deref++) {
				const struct bpf_insn insns[] = {
					SK_LOOKUP(BPF_FUNC_skc_lookup_tcp),
					JMP_IMM(BPF_JNE, 0, 0, 2),
					RET(XDP_PASS),
					MOV64_REG(6, 0),
					MOV64_REG(1, 0),
					CALL_HELPER(BPF_FUNC_skc_to_tcp_sock),
					JMP_IMM(BPF_JEQ, 0, 0, 2),
					INSN(BPF_LDX | sizes[s].code | BPF_MEM, 2, 0, off, 0),
					deref ? LDX_MEM(BPF_B, 3, 2, 0) : MOV64_IMM(3, 0),
					SK_RELEASE(6),
					RET(XDP_PASS),
				};
				bool ok;

				snprintf(what, sizeof(what), "tcp_sock off=%d size=%d%s", off,
					 sizes[s].size, deref ? " and through it" : "");
				ok = agree(insns, sizeof(insns) / sizeof(insns[0]), what);
				if (deref)
					through += ok;
				else
					accepted += ok;
				accesses += !deref;
			}
		}
	}
	cr_log_info("tcp_sock: %u of %u loads allowed, %u read through\n", accepted, accesses,
		    through);
	cr_expect(accepted > accesses / 4 && through > 0, "%u of %u allowed, %u through", accepted,
		  accesses, through);
}
