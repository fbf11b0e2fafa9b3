// SPDX-License-Identifier: GPL-2.0
/*
 * Several programs in one object, as tutorials and tools ship them: two for
 * ports, one for a devmap entry, and a kprobe that is no part of XDP. The
 * appliance runs the one `prog load ... prog NAME` names.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps");

static __always_inline int count(__u32 which, int verdict)
{
	__u64 *n = bpf_map_lookup_elem(&seen, &which);

	if (n)
		__sync_fetch_and_add(n, 1);
	return verdict;
}

SEC("xdp")
int xdp_first(struct xdp_md *ctx)
{
	return count(0, XDP_PASS);
}

SEC("xdp")
int xdp_second(struct xdp_md *ctx)
{
	return count(1, XDP_PASS);
}

SEC("xdp/devmap")
int xdp_on_devmap(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("kprobe/do_nanosleep")
int probe_sleep(void *ctx)
{
	return 0;
}

char _license[] SEC("license") = "GPL";
