// SPDX-License-Identifier: GPL-2.0
/*
 * Code shapes hand-tuned classifiers have: a large switch over the L4
 * destination port (clang lowers it to a tree of compares, BPF having no
 * jump tables), 64-bit arithmetic on packet fields (a product, a quotient
 * and a remainder by a divisor read from the frame, which may be zero:
 * BPF defines x / 0 as 0 and x % 0 as x), signed compares of differences,
 * bit tricks (population count, lowest set bit, byte swaps, rotates), and
 * values of one and two bytes kept on the stack through a volatile. The
 * results pick a class whose counter is bumped and whose verdict is taken.
 */
#include "include/corpus.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 32);
} class_count SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} mix_sum SEC(".maps");

static __always_inline __u32 port_class(__u16 port)
{
	switch (port) {
	case 7:
		return 1;
	case 9:
		return 2;
	case 21:
	case 22:
	case 23:
		return 3;
	case 25:
		return 4;
	case 53:
		return 5;
	case 67:
	case 68:
		return 6;
	case 80:
		return 7;
	case 110:
		return 8;
	case 123:
		return 9;
	case 143:
		return 10;
	case 161:
	case 162:
		return 11;
	case 179:
		return 12;
	case 443:
		return 13;
	case 514:
		return 14;
	case 993:
		return 15;
	case 1194:
		return 16;
	case 3306:
		return 17;
	case 5060:
		return 18;
	case 8080:
		return 19;
	case 40000:
		return 20;
	default:
		return port < 1024 ? 21 : 22;
	}
}

static __always_inline __u64 rotl64(__u64 x, unsigned int r)
{
	return (x << (r & 63)) | (x >> ((64 - r) & 63));
}

SEC("xdp")
int xdp_switch_bits(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	struct udphdr *udp = (void *)(iph + 1);
	volatile __u8 ttl_spill;
	volatile __u16 id_spill;
	__u64 a, b, q, r, m, *sum;
	__s32 delta;
	__s64 sdelta;
	__u32 cls, key;
	int pop;

	if ((void *)(udp + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP) || iph->ihl != 5)
		return XDP_PASS;
	if (iph->protocol != IPPROTO_UDP && iph->protocol != IPPROTO_TCP)
		return XDP_PASS;

	ttl_spill = iph->ttl;
	id_spill = bpf_ntohs(iph->id);
	cls = port_class(bpf_ntohs(udp->dest));

	a = ((__u64)bpf_ntohl(iph->saddr) << 32) | bpf_ntohl(iph->daddr);
	b = bpf_ntohs(udp->source) & 0x0f; /* zero for some frames */
	q = a / b;
	r = a % b;
	m = a * 0x9e3779b97f4a7c15ull;
	m ^= rotl64(m, id_spill & 63);
	m += __builtin_bswap64(a) ^ __builtin_bswap32((__u32)a);
	pop = __builtin_popcountll(a);
	m += (a & -a) + pop;

	delta = (__s32)ttl_spill - 64;
	sdelta = (__s64)(__s16)id_spill - (__s64)(q & 0xffff);
	if (delta < -32)
		cls = 23 + (cls & 1);
	else if (sdelta > 0 && (__s64)r < 3)
		cls = 25;
	else if ((__s64)m < 0 && pop > 16)
		cls = 26 + (ttl_spill & 3);

	key = cls;
	sum = bpf_map_lookup_elem(&class_count, &key);
	if (sum)
		__sync_fetch_and_add(sum, 1);
	key = cls & 3;
	sum = bpf_map_lookup_elem(&mix_sum, &key);
	if (sum)
		*sum += (m >> 7) + q + r;

	switch (cls) {
	case 2:
	case 14:
	case 24:
		return XDP_DROP;
	case 25:
	case 27:
		return XDP_ABORTED;
	default:
		return XDP_PASS;
	}
}

char _license[] SEC("license") = "GPL";
