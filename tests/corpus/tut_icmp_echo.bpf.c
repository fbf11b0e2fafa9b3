// SPDX-License-Identifier: GPL-2.0
/*
 * In the manner of the xdp-tutorial's packet03 lesson, with the helpers in
 * the lesson's own header (include/tut_parse.h): ICMP and ICMPv6 echo
 * requests are answered in place. The MACs and the IP addresses are
 * exchanged, the type becomes the reply's, and the ICMP checksum is patched:
 * for IPv4 by bpf_csum_diff over the old and new 8-byte headers folded by
 * hand, for ICMPv6 by adding the difference of the type word to the old sum.
 * Every verdict is counted by xdp_stats_record_action with the length taken
 * as data_end - data.
 */
#include "include/tut_parse.h"

#define ICMPV6_ECHO_REQUEST 128
#define ICMPV6_ECHO_REPLY   129

SEC("xdp")
int xdp_icmp_echo_func(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	struct icmp6hdr *icmp6hdr;
	struct icmphdr *icmphdr;
	struct icmphdr icmphdr_old;
	struct ipv6hdr *ipv6hdr;
	struct iphdr *iphdr;
	struct ethhdr *eth;
	__u32 action = XDP_PASS;
	int eth_type, ip_type, icmp_type;
	__u16 echo_reply, old_csum;

	eth_type = parse_ethhdr(&nh, data_end, &eth);
	if (eth_type == bpf_htons(ETH_P_IP)) {
		ip_type = parse_iphdr(&nh, data_end, &iphdr);
		if (ip_type != IPPROTO_ICMP)
			goto out;
	} else if (eth_type == bpf_htons(ETH_P_IPV6)) {
		ip_type = parse_ip6hdr(&nh, data_end, &ipv6hdr);
		if (ip_type != IPPROTO_ICMPV6)
			goto out;
	} else {
		goto out;
	}

	if (eth_type == bpf_htons(ETH_P_IP)) {
		icmp_type = parse_icmphdr(&nh, data_end, &icmphdr);
		if (icmp_type != ICMP_ECHO)
			goto out;
		swap_src_dst_ipv4(iphdr);
		echo_reply = ICMP_ECHOREPLY;

		old_csum = icmphdr->checksum;
		icmphdr->checksum = 0;
		icmphdr_old = *icmphdr;
		icmphdr->type = echo_reply;
		icmphdr->checksum = icmp_checksum_diff(~old_csum, icmphdr, &icmphdr_old);
	} else {
		__u32 sum;

		icmp_type = parse_icmp6hdr(&nh, data_end, &icmp6hdr);
		if (icmp_type != ICMPV6_ECHO_REQUEST)
			goto out;
		swap_src_dst_ipv6(ipv6hdr);
		echo_reply = ICMPV6_ECHO_REPLY;
		icmp6hdr->icmp6_type = echo_reply;
		/* the type is the high byte of the first word: it grew by one */
		sum = (__u16)~bpf_ntohs(icmp6hdr->icmp6_cksum);
		sum += (__u16) ~(ICMPV6_ECHO_REQUEST << 8) + (ICMPV6_ECHO_REPLY << 8);
		icmp6hdr->icmp6_cksum = bpf_htons(csum_fold_helper(sum));
	}
	swap_src_dst_mac(eth);
	action = XDP_TX;
out:
	return xdp_stats_record_action(ctx, action);
}

char _license[] SEC("license") = "GPL";
