// SPDX-License-Identifier: GPL-2.0
/*
 * A link partner's VLAN interface without the kernel's 802.1Q module: on
 * the partner's netdev, tc egress tags every frame with VLAN_ID and tc
 * ingress takes the tag of VLAN_ID off (the stack has untagged it into the
 * skb's metadata by then). Frames of other VLANs keep their tag and are
 * not the partner's; a frame that carries a tag already leaves as it is.
 * With txvlan off on the netdev, the tag is written
 * into the frame before it leaves.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#ifndef VLAN_ID
#define VLAN_ID 50
#endif

SEC("tc")
int tag(struct __sk_buff *skb)
{
	__be16 type;

	/* A frame built with its own tag (a test's raw socket) goes as it is. */
	if (!bpf_skb_load_bytes(skb, 12, &type, sizeof(type)) && type == bpf_htons(ETH_P_8021Q))
		return TC_ACT_OK;
	if (bpf_skb_vlan_push(skb, bpf_htons(ETH_P_8021Q), VLAN_ID))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

SEC("tc")
int untag(struct __sk_buff *skb)
{
	if (skb->vlan_present && (skb->vlan_tci & 0x0fff) == VLAN_ID)
		bpf_skb_vlan_pop(skb);
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "GPL";
