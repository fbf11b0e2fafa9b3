// SPDX-License-Identifier: GPL-2.0
/*
 * One bpf_redirect_map call given a cpumap on some paths and a devmap on
 * others, for tests/devdiff/test_redirect_host.c (Suricata's CPU spreading
 * and its IPS peer port, met at one call): bit 0 of byte 14 picks the
 * cpumap `cpus`, else the devmap `ports`, whose path first marks the frame
 * (byte 20); byte 15 is the key. Only the host reaches a CPU's queue, so
 * the device punts there and redirects to the port.
 */
#include "../../corpus/include/corpus.h"

#define HDR 32

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
	__uint(max_entries, 4);
} cpus SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 4);
} ports SEC(".maps");

SEC("xdp")
int redirect_cpu_or_port(struct xdp_md *ctx)
{
	__u8 *p = (__u8 *)(long)ctx->data, *end = (__u8 *)(long)ctx->data_end;
	void *map;

	if (p + HDR > end)
		return XDP_ABORTED;
	if (p[14] & 1) {
		map = &cpus;
	} else {
		p[20] = 0xaa;
		map = &ports;
	}
	return bpf_redirect_map(map, p[15] & 3, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
