// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the small L7 filters written in XDP: the first bytes of
 * a TCP payload to port 80 or 8080 are copied to the stack and compared with
 * bpf_strncmp against request prefixes kept as constant strings in .rodata;
 * requests for a blocked path are dropped and logged, a line made with
 * bpf_snprintf sent on a ring buffer; the others are counted by method.
 * Neither helper takes a packet pointer, hence the copy.
 */
#include "include/corpus.h"

#define PREFIX_MAX 16

static const char blocked_admin[] = "GET /admin";
static const char blocked_debug[] = "POST /debug";
static const char method_get[] = "GET ";
static const char log_format[] = "blocked %x:%u %s";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 3);
} http_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} http_log SEC(".maps");

enum { HTTP_BLOCKED, HTTP_GET, HTTP_OTHER };

static __always_inline void log_blocked(struct iphdr *iph, struct tcphdr *th, const char *head)
{
	__u64 args[3] = { bpf_ntohl(iph->saddr), bpf_ntohs(th->source), (__u64)(long)head };
	char line[48];

	if (bpf_snprintf(line, sizeof(line), log_format, args, sizeof(args)) > 0)
		bpf_ringbuf_output(&http_log, line, sizeof(line), 0);
}

static __always_inline int count(__u32 what, int verdict)
{
	__u64 *c = bpf_map_lookup_elem(&http_counts, &what);

	if (c)
		__sync_fetch_and_add(c, 1);
	return verdict;
}

SEC("xdp")
int http_prefix(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	char head[PREFIX_MAX];
	struct iphdr *iph;
	struct tcphdr *th;
	__u8 *payload;

	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end || iph->ihl != 5 || iph->protocol != IPPROTO_TCP)
		return XDP_PASS;
	th = (void *)(iph + 1);
	if ((void *)(th + 1) > data_end)
		return XDP_PASS;
	if (th->dest != bpf_htons(80) && th->dest != bpf_htons(8080))
		return XDP_PASS;
	if (th->doff < 5 || th->doff > 15)
		return XDP_PASS;
	payload = (__u8 *)th + th->doff * 4;
	if ((void *)(payload + PREFIX_MAX) > data_end)
		return XDP_PASS;
	__builtin_memcpy(head, payload, PREFIX_MAX);

	if (!bpf_strncmp(head, sizeof(blocked_admin) - 1, blocked_admin) ||
	    !bpf_strncmp(head, sizeof(blocked_debug) - 1, blocked_debug)) {
		head[PREFIX_MAX - 1] = 0;
		log_blocked(iph, th, head);
		return count(HTTP_BLOCKED, XDP_DROP);
	}
	if (!bpf_strncmp(head, sizeof(method_get) - 1, method_get))
		return count(HTTP_GET, XDP_PASS);
	return count(HTTP_OTHER, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
