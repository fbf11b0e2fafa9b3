// SPDX-License-Identifier: GPL-2.0
/*
 * A socket's fields: every offset and size of a load from what
 * bpf_sk_lookup_tcp (struct bpf_sock) and bpf_skc_lookup_tcp (its common
 * part) return, judged by hwxdp and by the running kernel, which must agree.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

static void fields_of(int lookup, const char *type)
{
	static char hlog[1 << 16], klog[1 << 16];
	unsigned int accepted = 0, loads = 0;

	if (!kernel_available())
		cr_skip_test("the kernel's verdicts need root");
	for (int off = 0; off < 88; off++) {
		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			const struct bpf_insn insns[] = {
				SK_LOOKUP(lookup),
				JMP_IMM(BPF_JEQ, 0, 0, 3),
				INSN(BPF_LDX | sizes[s].code | BPF_MEM, 2, 0, off, 0),
				SK_RELEASE(0),
				RET(XDP_PASS),
			};
			size_t cnt = sizeof(insns) / sizeof(insns[0]);
			bool ok = hwxdp_accepts(insns, cnt, hlog, sizeof(hlog));
			int fd = kernel_load(insns, cnt, KERNEL_PRIV, 0, false, klog, sizeof(klog));
			char want[64];

			if (fd >= 0)
				close(fd);
			cr_expect_eq(ok, fd >= 0,
				     "%s off=%d size=%d: hwxdp %s, the kernel %s:\n%s%s", type, off,
				     sizes[s].size, ok ? "accepts" : "refuses",
				     fd >= 0 ? "accepts" : "refuses", hlog, klog);
			snprintf(want, sizeof(want), "R0 invalid %s access off=%d size=%d", type,
				 off, sizes[s].size);
			if (!ok)
				cr_expect(strstr(hlog, want) && strstr(klog, want),
					  "a log lacks \"%s\":\n%s%s", want, hlog, klog);
			accepted += ok;
			loads++;
		}
	}
	cr_log_info("%s: %u of %u loads allowed\n", type, accepted, loads);
}

Test(sockets, fields_of_a_socket_as_the_kernel_allows)
{
	fields_of(BPF_FUNC_sk_lookup_tcp, "sock");
}

Test(sockets, fields_of_a_sock_common_as_the_kernel_allows)
{
	fields_of(BPF_FUNC_skc_lookup_tcp, "sock_common");
}
