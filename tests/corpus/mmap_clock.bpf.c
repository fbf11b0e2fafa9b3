// SPDX-License-Identifier: GPL-2.0
/*
 * Arrays made for sharing with user space: counters in an array created
 * BPF_F_MMAPABLE (user space reads them through mmap) and a policy array
 * the program may only read (BPF_F_RDONLY_PROG), with the clocks newer
 * code uses: bpf_ktime_get_boot_ns and bpf_jiffies64 taken twice and
 * their differences held against a generous bound, bpf_get_prandom_u32
 * sampling at the policy's rate (0: every frame), and bpf_xdp_get_buff_len
 * for the length. The policy's first word is a length limit (0: none).
 */
#include "include/corpus.h"

struct policy {
	__u32 max_len;
	__u32 sample_shift;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
	__uint(map_flags, BPF_F_MMAPABLE);
} shared_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct policy);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_RDONLY_PROG);
} policy SEC(".maps");

static __always_inline void bump(__u32 i)
{
	__u64 *v = bpf_map_lookup_elem(&shared_counts, &i);

	if (v)
		__sync_fetch_and_add(v, 1);
}

SEC("xdp")
int xdp_mmap_clock(struct xdp_md *ctx)
{
	__u64 t0 = bpf_ktime_get_boot_ns(), j0 = bpf_jiffies64();
	__u32 zero = 0, len = bpf_xdp_get_buff_len(ctx);
	struct policy *p = bpf_map_lookup_elem(&policy, &zero);
	__u64 t1, j1;

	if (!p)
		return XDP_ABORTED;
	if (p->max_len && len > p->max_len) {
		bump(0);
		return XDP_DROP;
	}
	if (p->sample_shift < 32 && (bpf_get_prandom_u32() & ((1u << p->sample_shift) - 1)) == 0)
		bump(1);
	t1 = bpf_ktime_get_boot_ns();
	j1 = bpf_jiffies64();
	/* the clocks never go back, and a frame takes far less than a minute */
	if (t1 < t0 || t1 - t0 > 60000000000ull || j1 < j0 || j1 - j0 > 60000)
		bump(2);
	bump(3 + (len & 3));
	return len < 64 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
