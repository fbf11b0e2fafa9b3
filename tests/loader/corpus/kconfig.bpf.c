// SPDX-License-Identifier: GPL-2.0
/* .kconfig externs of each kind libbpf fills: the kernel version, a bool, a
 * char, a tristate, numbers, a string, and a weak option no kernel has. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern _Bool CONFIG_BPF __kconfig;
extern char CONFIG_BPF_JIT __kconfig;
extern enum libbpf_tristate CONFIG_XDP_SOCKETS __kconfig;
extern int CONFIG_HZ __kconfig;
extern unsigned long long CONFIG_NR_CPUS __kconfig;
extern char CONFIG_LOCALVERSION[16] __kconfig;
extern int CONFIG_HWXDP_NO_SUCH_OPTION __kconfig __weak;

__u64 seen[8];

SEC("xdp")
int kconfig_main(struct xdp_md *ctx)
{
	seen[0] = LINUX_KERNEL_VERSION;
	seen[1] = CONFIG_BPF;
	seen[2] = CONFIG_BPF_JIT;
	seen[3] = CONFIG_XDP_SOCKETS;
	seen[4] = CONFIG_HZ;
	seen[5] = CONFIG_NR_CPUS;
	seen[6] = CONFIG_LOCALVERSION[1];
	seen[7] = CONFIG_HWXDP_NO_SUCH_OPTION;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
