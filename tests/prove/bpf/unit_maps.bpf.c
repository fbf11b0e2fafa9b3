// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the prover's unit tests (tests/prove/test_units.c), which
 * makes the translator emit one unit: tupdate and tdelete: a hash map written from the frame.
 * It reads no hwxdp_target: the kernel's copy is the device's, so the
 * kernel replays its counterexamples.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>

#define SEC(name)    __attribute__((section(name), used))
#define __uint(n, v) int(*n)[v]
#define __type(n, t) typeof(t) *n

static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)1;
static long (*bpf_map_update_elem)(void *map, const void *key, const void *value,
				   __u64 flags) = (void *)2;
static long (*bpf_map_delete_elem)(void *map, const void *key) = (void *)3;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps");

/* A flow table kept from the frame: byte 14 says what to do with the key
 * at bytes 16..19 (add it with the value at 20..27, delete it, or look it
 * up and write what it holds into the frame). */
SEC("xdp") int map_ops(struct xdp_md *ctx)
{
	unsigned char *p = (unsigned char *)(long)ctx->data;
	unsigned char *end = (unsigned char *)(long)ctx->data_end;
	__u32 key;
	__u64 value, *v;
	long rc;

	if (p + 36 > end)
		return XDP_DROP;
	key = *(__u32 *)(p + 16);
	value = *(__u64 *)(p + 20);
	switch (p[14] & 3) {
	case 0:
		rc = bpf_map_update_elem(&seen, &key, &value, BPF_NOEXIST);
		break;
	case 1:
		rc = bpf_map_delete_elem(&seen, &key);
		break;
	case 2:
		rc = bpf_map_update_elem(&seen, &key, &value, BPF_ANY);
		if (!rc)
			rc = bpf_map_delete_elem(&seen, &key);
		break;
	default:
		v = bpf_map_lookup_elem(&seen, &key);
		if (!v)
			return XDP_PASS;
		*(__u64 *)(p + 28) = *v;
		return XDP_TX;
	}
	p[15] = rc ? 0xe0 | (-rc & 0x1f) : 0;
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
