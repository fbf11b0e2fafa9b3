// SPDX-License-Identifier: GPL-2.0
/*
 * Written to be refused. A checksum over the first words of a scratch
 * value by an open-coded iterator, which takes the iterator's value for an
 * index as it is: the verifier knows it only as an int, not as 0..7.
 */
#include "include/corpus.h"

struct bpf_iter_num {
	__u64 opaque[1];
} __attribute__((aligned(8)));

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;

struct words {
	__u32 w[8];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct words);
	__uint(max_entries, 1);
} scratch_words SEC(".maps");

SEC("xdp")
int xdp_word_sum(struct xdp_md *ctx)
{
	struct words *w;
	struct bpf_iter_num it;
	__u32 zero = 0, sum = 0;
	int *v;

	w = bpf_map_lookup_elem(&scratch_words, &zero);
	if (!w)
		return XDP_PASS;
	bpf_iter_num_new(&it, 0, 8);
	while ((v = bpf_iter_num_next(&it)))
		sum += w->w[*v];
	bpf_iter_num_destroy(&it);
	return sum & 1 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
