// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded scan with open-coded iterators, as newer libbpf code writes
 * loops with bpf_for(): the first 16 bytes of the IPv4 options (when the
 * header has any) are looked through for a Router Alert option, and a
 * table of 8 blocked prefixes is checked against the source address. The
 * loop macro is the one of newer libbpf's bpf_helpers.h, written out here
 * since older headers lack it.
 */
#include "include/corpus.h"

struct bpf_iter_num {
	__u64 opaque[1];
} __attribute__((aligned(8)));

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;

/* i over [start, end): the iterator's value, bounded again for the verifier */
#define scan_for(i, start, end)                                                                    \
	for (struct bpf_iter_num ___it __attribute__((aligned(8), cleanup(bpf_iter_num_destroy))), \
	     *___p __attribute__((unused)) = (bpf_iter_num_new(&___it, (start), (end)),            \
					      (void)bpf_iter_num_destroy, (void *)0);              \
	     ({                                                                                    \
		     int *___t = bpf_iter_num_next(&___it);                                        \
		     (___t && ((i) = *___t, (i) >= (start) && (i) < (end)));                       \
	     });)

struct prefix {
	__u32 addr;
	__u32 mask;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct prefix);
	__uint(max_entries, 8);
} blocked SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 2);
} scan_hits SEC(".maps");

SEC("xdp")
int xdp_iter_scan(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u32 saddr, ra = 0, hit = 0;
	struct iphdr *iph;
	__u8 *opt;
	__u64 *c;
	int i;

	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;
	saddr = iph->saddr;
	opt = (void *)(iph + 1);
	if (iph->ihl > 5) {
		scan_for(i, 0, 16)
		{
			if (opt + i + 1 > (__u8 *)data_end)
				break;
			if (opt[i] == IPOPT_RA) {
				ra = 1;
				break;
			}
		}
	}
	scan_for(i, 0, 8)
	{
		__u32 k = i;
		struct prefix *p = bpf_map_lookup_elem(&blocked, &k);

		if (p && p->mask && (saddr & p->mask) == p->addr) {
			hit = 1;
			break;
		}
	}
	c = bpf_map_lookup_elem(&scan_hits, &hit);
	if (c)
		__sync_fetch_and_add(c, 1);
	if (hit)
		return XDP_DROP;
	/* a Router Alert frame goes to the stack as any other */
	return ra ? XDP_PASS : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
