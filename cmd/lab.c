// SPDX-License-Identifier: GPL-2.0
/*
 * hwxdp lab: the forwarding program over a built-in lab. Three wire ports in
 * a private network namespace, VLANs on the first as the measured drivers
 * had them, a set of connections and frames that exercise every behaviour;
 * for each frame, what the program did, then the counters.
 */
#include <errno.h>
#include <getopt.h>
#include <linux/bpf.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/grammar.h"
#include "cmd/main.h"
#include "loader/object.h"
#include "fwdlab/fwd.h"
#include "fwdlab/fwd_lab.h"
#include "fwdlab/netlab.h"
#include "lab/target.h"
#include "base/log.h"

/* One lab frame: how it is built, where it arrives, the flow it has (if any). */
struct lab_frame {
	const char *name;
	unsigned int port;
	int family;
	uint8_t proto;
	int vlan;
	uint8_t pcp;
	const char *src, *dst;
	uint8_t ttl;
	size_t payload;
	uint16_t ethertype;  /* family 0 */
	uint16_t outer_tpid; /* QinQ */
	uint8_t options;
	uint16_t frag;
	uint32_t nexthop;     /* 0: no flow */
	uint32_t sa_revision; /* tunnel flow naming the lab's SA at this revision */
};

#define TCP IPPROTO_TCP
#define UDP IPPROTO_UDP

static const struct lab_frame lab_frames[] = {
	{ "tcp vlan 50 -> wire2 (tag removed)", 1, 4, TCP, 50, 3, "10.50.0.2", "10.2.0.1", 64, 1400,
	  .nexthop = NH_P2 },
	{ "tcp wire2 -> vlan 50 (tag added)", 2, 4, TCP, -1, 0, "10.2.0.1", "10.50.0.2", 64, 0,
	  .nexthop = NH_P1_V50 },
	{ "udp vlan 50 -> vlan 60 (rewritten)", 1, 4, UDP, 50, 5, "10.50.0.3", "10.60.0.3", 32, 512,
	  .nexthop = NH_P1_V60 },
	{ "tcp6 wire2 -> vlan 50 (tag added)", 2, 6, TCP, -1, 0, "fd00:2::1", "fd00:50::2", 64,
	  1000, .nexthop = NH_P1_V50 },
	{ "udp6 vlan 60 -> wire2 (tag removed)", 1, 6, UDP, 60, 1, "fd00:60::3", "fd00:2::9", 9,
	  100, .nexthop = NH_P2 },
	{ "tcp wire1 -> wire1 (hairpin)", 1, 4, TCP, -1, 0, "10.1.0.5", "10.1.0.6", 64, 64,
	  .nexthop = NH_P1 },
	{ "tcp ttl 1", 1, 4, TCP, -1, 0, "10.1.0.7", "10.2.0.7", 1, 64, .nexthop = NH_P2 },
	{ "udp 1400 B to a 1280 MTU hop", 1, 4, UDP, -1, 0, "10.1.0.8", "10.2.0.8", 64, 1400,
	  .nexthop = NH_P2_SMALL },
	{ "tcp, no microflow", 2, 4, TCP, -1, 0, "10.2.0.99", "10.1.0.99", 64, 64 },
	{ "tcp vlan 99 (no LIF)", 1, 4, TCP, 99, 0, "10.99.0.1", "10.2.0.1", 64, 64 },
	{ "tcp vlan 70 (admin-disabled)", 1, 4, TCP, 70, 0, "10.70.0.1", "10.2.0.1", 64, 64 },
	{ "tcp vlan 80 (offload-disabled)", 1, 4, TCP, 80, 0, "10.80.0.1", "10.2.0.1", 64, 64 },
	{ "arp", 2, 0, 0, -1, 0, NULL, NULL, 0, 28, .ethertype = 0x0806 },
	{ "icmp echo", 2, 4, IPPROTO_ICMP, -1, 0, "10.2.0.1", "10.1.0.1", 64, 56 },
	{ "tcp with IP options", 2, 4, TCP, -1, 0, "10.2.0.1", "10.1.0.1", 64, 64, .options = 8 },
	{ "udp fragment", 2, 4, UDP, -1, 0, "10.2.0.1", "10.1.0.1", 64, 64, .frag = 0x2000 },
	{ "qinq 88a8/8100", 1, 4, TCP, 50, 0, "10.50.0.2", "10.2.0.1", 64, 64,
	  .outer_tpid = 0x88a8 },
	{ "tcp into the tunnel (SA 1 rev 2)", 2, 4, TCP, -1, 0, "10.2.0.1", "10.3.0.1", 64, 256,
	  .nexthop = NH_P3, .sa_revision = HX_LAB_SA_REVISION },
	{ "tcp into the tunnel, stale SA rev 1", 2, 4, TCP, -1, 0, "10.2.0.2", "10.3.0.1", 64, 256,
	  .nexthop = NH_P3, .sa_revision = HX_LAB_SA_REVISION - 1 },
};

static void lab_spec(const struct lab_frame *lf, struct hx_frame_spec *spec)
{
	hx_frame_spec_init(spec, lf->family);
	spec->proto = lf->proto;
	spec->vlan = lf->vlan;
	spec->pcp = lf->pcp;
	spec->ttl = lf->ttl;
	spec->payload_len = lf->payload;
	spec->outer_tpid = lf->outer_tpid;
	spec->ip_options_len = lf->options;
	if (lf->frag)
		spec->frag = lf->frag;
	if (lf->family == 0)
		spec->ethertype = lf->ethertype;
	if (lf->family == 4) {
		hx_ipv4_addr(spec->src, lf->src);
		hx_ipv4_addr(spec->dst, lf->dst);
	} else if (lf->family == 6) {
		hx_ipv6_addr(spec->src, lf->src);
		hx_ipv6_addr(spec->dst, lf->dst);
	}
}

static uint32_t lab_lif_of(const struct lab_frame *lf)
{
	return HWXDP_LIF(lf->port, lf->vlan < 0 ? 0 : lf->vlan);
}

/* The lab's tables, then the flows of its frames. */
static int lab_setup(struct hx_target *t, const uint32_t *ifindex)
{
	struct hx_frame_spec spec;
	unsigned int i;
	int err;

	err = hx_lab_topology(t, ifindex);
	for (i = 0; !err && i < sizeof(lab_frames) / sizeof(lab_frames[0]); i++) {
		const struct lab_frame *lf = &lab_frames[i];

		if (!lf->nexthop)
			continue;
		lab_spec(lf, &spec);
		if (lf->sa_revision)
			err = hx_fwd_tunnel_flow(t, lab_lif_of(lf), &spec, lf->nexthop, HX_LAB_SA,
						 lf->sa_revision);
		else
			err = hx_fwd_flow(t, lab_lif_of(lf), &spec, lf->nexthop);
	}
	return err;
}

/* The tag as the frame came and went: "50>none", "none>50p0", "50>60p5" (VID, PCP). */
static void describe_tag(const struct hx_frame_layout *in, const struct hx_frame_layout *out,
			 bool forwarded, char *tag, size_t tag_len)
{
	char a[16] = "none", b[16] = "none";

	if (in->vlan_count)
		snprintf(a, sizeof(a), "%u", in->tci[in->vlan_count - 1] & 0xfff);
	if (!forwarded) {
		snprintf(tag, tag_len, "%s", a);
		return;
	}
	if (out->vlan_count)
		snprintf(b, sizeof(b), "%up%u", out->tci[0] & 0xfff, out->tci[0] >> 13);
	snprintf(tag, tag_len, "%s>%s", a, b);
}

static int ttl_at(const uint8_t *frame, const struct hx_frame_layout *l)
{
	if (!l->l3_off)
		return -1;
	return frame[l->l3_off + (l->family == 4 ? 8 : 7)];
}

static void print_row(struct json_writer *w, unsigned int n, const struct lab_frame *lf,
		      const uint8_t *in, const struct hx_frame_layout *lin,
		      const struct hx_result *r)
{
	bool forwarded = r->action == XDP_REDIRECT || r->action == XDP_TX;
	struct hx_frame_layout lout = {};
	char tag[32], ttl[16] = "-", egress[16] = "-", ingress[16];
	int t_in = ttl_at(in, lin), t_out = -1;

	if (forwarded) {
		hx_frame_parse(r->frame, r->len, &lout);
		t_out = ttl_at(r->frame, &lout);
		snprintf(egress, sizeof(egress), "wire%u", r->meta.egress_port);
	}
	describe_tag(lin, &lout, forwarded, tag, sizeof(tag));
	if (t_in >= 0)
		snprintf(ttl, sizeof(ttl), forwarded ? "%d>%d" : "%d", t_in, t_out);

	if (w) {
		json_start_object(w);
		json_string_field(w, "frame", lf->name);
		json_uint_field(w, "ingress_port", lf->port);
		json_uint_field(w, "len_in", lin->len);
		json_string_field(w, "verdict", hwxdp_xdp_action_name(r->action));
		json_name(w, "egress_port");
		if (forwarded)
			json_uint(w, r->meta.egress_port);
		else
			json_null(w);
		json_uint_field(w, "len_out", r->len);
		json_int_field(w, "vlan_in",
			       lin->vlan_count ? lin->tci[lin->vlan_count - 1] & 0xfff : -1);
		json_int_field(w, "vlan_out",
			       !forwarded	 ? -1
			       : lout.vlan_count ? lout.tci[0] & 0xfff
						 : 0);
		json_int_field(w, "ttl_in", t_in);
		json_int_field(w, "ttl_out", t_out);
		json_string_field(w, "punt",
				  r->action == XDP_PASS ? hwxdp_punt_reason_name(r->meta.reason)
							: "");
		json_end_object(w);
		return;
	}
	snprintf(ingress, sizeof(ingress), "wire%u", lf->port);
	printf("%2u  %-38s %-6s %-8s %-6s %-10s %-7s %s\n", n, lf->name, ingress,
	       hwxdp_xdp_action_name(r->action), egress, tag, ttl,
	       r->action == XDP_PASS ? hwxdp_punt_reason_name(r->meta.reason) : "");
}

static void print_counters(struct json_writer *w, struct hx_target *t)
{
	static const char *const states[] = { "enabled", "offload-disabled", "admin-disabled" };
	struct hwxdp_counter c;
	struct hwxdp_lif lif;
	unsigned int i;
	uint32_t key;

	if (w) {
		json_name(w, "lifs");
		json_start_array(w);
	} else {
		printf("\nLIF        state             rx pkts   rx bytes  tx pkts   tx bytes  "
		       "dropped\n");
	}
	for (i = 0; i < HX_LAB_LIF_CNT; i++) {
		const struct hx_lab_lif *ll = &hx_lab_lifs[i];
		uint32_t id = HWXDP_LIF(ll->port, ll->vlan);

		if (hx_fwd_lif_stats(t, id, &lif))
			continue;
		if (w) {
			json_start_object(w);
			json_uint_field(w, "lif", id);
			json_uint_field(w, "port", ll->port);
			json_uint_field(w, "vlan", ll->vlan);
			json_string_field(w, "state", states[lif.state % 3]);
			json_uint_field(w, "rx_packets", lif.rx_packets);
			json_uint_field(w, "rx_bytes", lif.rx_bytes);
			json_uint_field(w, "tx_packets", lif.tx_packets);
			json_uint_field(w, "tx_bytes", lif.tx_bytes);
			json_uint_field(w, "rx_dropped", lif.rx_dropped);
			json_end_object(w);
			continue;
		}
		printf("%#07x %u.%-4u %-16s %8llu %10llu %8llu %10llu %8llu\n", id, ll->port,
		       ll->vlan, states[lif.state % 3], (unsigned long long)lif.rx_packets,
		       (unsigned long long)lif.rx_bytes, (unsigned long long)lif.tx_packets,
		       (unsigned long long)lif.tx_bytes, (unsigned long long)lif.rx_dropped);
	}
	if (w) {
		json_end_array(w);
		json_name(w, "punts");
		json_start_object(w);
	} else {
		printf("\npunt reason              packets     bytes\n");
	}
	for (i = 1; i < HWXDP_PUNT__MAX; i++) {
		key = i;
		if (hx_target_map_lookup(t, "punt_stats", &key, &c) || !c.packets)
			continue;
		if (w) {
			json_name(w, hwxdp_punt_reason_name(i));
			json_start_object(w);
			json_uint_field(w, "packets", c.packets);
			json_uint_field(w, "bytes", c.bytes);
			json_end_object(w);
		} else {
			printf("%-22s %9llu %9llu\n", hwxdp_punt_reason_name(i),
			       (unsigned long long)c.packets, (unsigned long long)c.bytes);
		}
	}
	if (w)
		json_end_object(w);
}

static int lab_help(void)
{
	return cmd_help_object(stderr, cmd_object_find("lab"), false);
}

int do_lab(int argc, char **argv)
{
	struct option options[8];
	char shorts[16];
	const char *object = hx_object_path("fwd"), *target_name = "kernel";
	uint32_t ifindex[HX_LAB_PORTS];
	struct json_writer *w = NULL;
	struct hx_target *t;
	unsigned int i;
	int opt, err;

	if (cmd_getopt_table(cmd_object_find("lab")->options, options, 8, shorts, sizeof(shorts)))
		return cmd_error("lab: too many options");
	optind = 0;
	while ((opt = getopt_long(argc + 1, argv - 1, shorts, options, NULL)) >= 0) {
		switch (opt) {
		case 'o':
			object = optarg;
			break;
		case 't':
			target_name = optarg;
			break;
		case 'j':
		case 'p':
			cmd_output_option(opt);
			break;
		case 'h':
			return lab_help();
		default:
			lab_help();
			return 1;
		}
	}
	if (!strcmp(object, "-") && !(object = cmd_stdin_path("--object -")))
		return 1;
	if (access(object, R_OK))
		return cmd_error("%s: %s (build it with make)", object, hwxdp_strerror(-errno));
	/* Off the kernel the ports need no devices: any distinct numbers do. */
	for (i = 0; i < HX_LAB_PORTS; i++)
		ifindex[i] = 101 + i;
	if (!strcmp(target_name, "kernel")) {
		if (geteuid() != 0)
			return cmd_error("the kernel target needs root (BPF_PROG_TEST_RUN in a "
					 "private network namespace)");
		err = hx_netlab_enter(HX_LAB_PORTS, ifindex);
		if (err)
			return cmd_error("cannot make the lab's ports: %s", hwxdp_strerror(err));
	}
	t = hx_target_open(target_name, object);
	if (!t)
		return cmd_error("cannot open %s on target '%s': %s", object, target_name,
				 hwxdp_error_message(-errno));
	err = lab_setup(t, ifindex);
	if (err) {
		hx_target_close(t);
		return cmd_error("%s: cannot fill the lab's tables: %s", object,
				 hwxdp_error_message(err));
	}

	if (json_output) {
		w = json_new(stdout, pretty_output);
		json_start_object(w);
		json_string_field(w, "target", target_name);
		json_name(w, "frames");
		json_start_array(w);
	} else {
		printf("hwxdp lab: %s on %s; wire1 carries VLANs 50, 60, 70 (admin-disabled), "
		       "80 (offload-disabled), wire2 VLAN 60\n\n",
		       object, target_name);
		printf(" #  %-38s %-6s %-8s %-6s %-10s %-7s %s\n", "frame", "in", "verdict",
		       "egress", "tag", "ttl", "punt");
	}
	for (i = 0; i < sizeof(lab_frames) / sizeof(lab_frames[0]); i++) {
		const struct lab_frame *lf = &lab_frames[i];
		struct hx_frame_layout lin;
		struct hx_frame_spec spec;
		uint8_t frame[HX_PKT_MAX];
		static struct hx_result r;
		size_t len;

		lab_spec(lf, &spec);
		len = hx_frame_build(&spec, frame, sizeof(frame));
		hx_frame_parse(frame, len, &lin);
		err = hx_target_run(t, ifindex[lf->port - 1], frame, len, &r);
		if (err) {
			hx_target_close(t);
			json_destroy(w);
			return cmd_error("frame %u (%s): %s", i + 1, lf->name, hwxdp_strerror(err));
		}
		print_row(w, i + 1, lf, frame, &lin, &r);
	}
	if (w)
		json_end_array(w);
	print_counters(w, t);
	if (w) {
		json_end_object(w);
		json_destroy(w);
	}
	hx_target_close(t);
	return 0;
}
