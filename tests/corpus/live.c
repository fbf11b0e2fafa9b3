// SPDX-License-Identifier: GPL-2.0
/* The kernel's devmap entry programs, run on frames it really sends
 * (tests/corpus/live.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/socket.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "tests/corpus/live.h"

#define LIVE_MTU       2000
#define MARK_ETHERTYPE 0x88b5 /* IEEE local experimental */
#define MARK_LEN       60

static int say(char *why, size_t len, int err, const char *fmt, const char *arg)
{
	snprintf(why, len, fmt, arg, strerror(-err));
	return err;
}

int live_sysctl_write(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		err = -errno;
	close(fd);
	return err;
}

/* r0 = bpf_redirect_map(map, 0, 0): a program of the oracle's own. */
static int redirect_prog(int map_fd)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 2, .imm = 0 },
		{ .code = BPF_LD | BPF_DW | BPF_IMM,
		  .dst_reg = 1,
		  .src_reg = BPF_PSEUDO_MAP_FD,
		  .imm = map_fd },
		{ 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 3, .imm = 0 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_redirect_map },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_prog_load(BPF_PROG_TYPE_XDP, "hxdm_redirect", "GPL", insns,
			     sizeof(insns) / sizeof(insns[0]), NULL);
}

static int pass_prog(void)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_prog_load(BPF_PROG_TYPE_XDP, "hxdm_pass", "GPL", insns, 2, NULL);
}

static int make_links(struct live_net *n, char *why, size_t len)
{
	char cmd[512];
	int err;

	/* no IPv6 on the links: their own router solicitations stay home */
	live_sysctl_write("/proc/sys/net/ipv6/conf/all/disable_ipv6", "1");
	live_sysctl_write("/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");
	snprintf(cmd, sizeof(cmd),
		 "ip link add hxdm0 mtu %d numrxqueues 2 numtxqueues 2 type veth peer name hxdm1 "
		 "mtu %d numrxqueues 2 numtxqueues 2 && ip link set hxdm0 up && "
		 "ip link set hxdm1 up && ip link set lo up && "
		 "ip link add hxdm2 mtu %d numrxqueues 2 numtxqueues 2 type veth peer name hxdm3 "
		 "mtu %d && ip link set hxdm2 up && ip link set hxdm3 up",
		 LIVE_MTU, LIVE_MTU, LIVE_MTU, LIVE_MTU);
	if (system(cmd)) {
		snprintf(why, len,
			 "cannot make the veth pairs hxdm0/hxdm1, hxdm2/hxdm3 (`ip` missing?)");
		return -ENOENT;
	}
	/* one frame in, the same frame out: no merging of TCP segments */
	if (system("ethtool -K hxdm1 gro off >/dev/null 2>&1"))
		fprintf(stderr, "live: cannot turn GRO off on hxdm1\n");
	n->tx_ifindex = if_nametoindex("hxdm0");
	n->rx_ifindex = if_nametoindex("hxdm1");
	n->in_ifindex = if_nametoindex("hxdm2");
	if (!n->tx_ifindex || !n->rx_ifindex || !n->in_ifindex)
		return say(why, len, -ENODEV, "%s: %s", "hxdm0/hxdm1/hxdm2");
	n->pass_fd = pass_prog();
	if (n->pass_fd < 0)
		return say(why, len, -errno, "%s: %s", "XDP_PASS program");
	/* on both ends: either can then be a devmap entry's port (the
	 * kernel's veth takes XDP frames to send only where its peer has XDP) */
	err = bpf_xdp_attach((int)n->rx_ifindex, n->pass_fd, XDP_FLAGS_DRV_MODE, NULL);
	err = err ?: bpf_xdp_attach((int)n->tx_ifindex, n->pass_fd, XDP_FLAGS_DRV_MODE, NULL);
	if (err)
		return say(why, len, err, "%s: %s", "XDP on hxdm0 and hxdm1");
	return 0;
}

static int make_socket(struct live_net *n, char *why, size_t len)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = (int)n->rx_ifindex,
	};
	int one = 1;

	n->sock = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, htons(ETH_P_ALL));
	if (n->sock < 0)
		return say(why, len, -errno, "%s: %s", "AF_PACKET socket");
	if (bind(n->sock, (struct sockaddr *)&sll, sizeof(sll)) ||
	    setsockopt(n->sock, SOL_PACKET, PACKET_AUXDATA, &one, sizeof(one)))
		return say(why, len, -errno, "%s: %s", "AF_PACKET on hxdm1");
	return 0;
}

static int make_mark(struct live_net *n, char *why, size_t len)
{
	uint32_t zero = 0;

	n->mark_map = bpf_map_create(BPF_MAP_TYPE_DEVMAP, "hxdm_mark", 4, 4, 1, NULL);
	if (n->mark_map < 0)
		return say(why, len, -errno, "%s: %s", "the mark's devmap");
	if (bpf_map_update_elem(n->mark_map, &zero, &n->tx_ifindex, BPF_ANY))
		return say(why, len, -errno, "%s: %s", "the mark's devmap entry");
	n->mark_prog = redirect_prog(n->mark_map);
	if (n->mark_prog < 0)
		return say(why, len, -errno, "%s: %s", "the mark's program");
	return 0;
}

int live_net_open(struct live_net *n, char *why, size_t len)
{
	int err;

	memset(n, 0, sizeof(*n));
	n->sock = n->pass_fd = n->mark_map = n->mark_prog = n->entry_map = n->entry_prog = -1;
	n->home_ns = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (n->home_ns < 0)
		return say(why, len, -errno, "%s: %s", "/proc/thread-self/ns/net");
	if (unshare(CLONE_NEWNET)) {
		err = say(why, len, -errno, "%s: %s", "a network namespace");
		close(n->home_ns);
		n->home_ns = -1;
		return err;
	}
	err = make_links(n, why, len);
	err = err ?: make_socket(n, why, len);
	err = err ?: make_mark(n, why, len);
	if (err)
		live_net_close(n);
	return err;
}

void live_net_close(struct live_net *n)
{
	int *fds[] = { &n->sock,     &n->pass_fd,    &n->mark_prog,
		       &n->mark_map, &n->entry_prog, &n->entry_map };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
	if (n->home_ns >= 0) {
		if (setns(n->home_ns, CLONE_NEWNET))
			fprintf(stderr, "live: cannot go back to the namespace: %s\n",
				strerror(errno));
		close(n->home_ns);
		n->home_ns = -1;
	}
}

int live_net_entry(struct live_net *n, int prog_fd, char *why, size_t len)
{
	struct bpf_devmap_val val = { .ifindex = n->tx_ifindex, .bpf_prog.fd = prog_fd };
	uint32_t zero = 0;

	n->entry_map = bpf_map_create(BPF_MAP_TYPE_DEVMAP, "hxdm_entry", 4, sizeof(val), 1, NULL);
	if (n->entry_map < 0)
		return say(why, len, -errno, "%s: %s", "the entry's devmap");
	if (bpf_map_update_elem(n->entry_map, &zero, &val, BPF_ANY))
		return say(why, len, -errno, "%s: %s",
			   "the devmap entry with the program (the kernel refuses it)");
	n->entry_prog = redirect_prog(n->entry_map);
	if (n->entry_prog < 0)
		return say(why, len, -errno, "%s: %s", "the redirect into the entry");
	return n->entry_prog;
}

static int run_live(int prog_fd, uint32_t ingress, uint32_t rx_queue, const uint8_t *frame,
		    size_t len)
{
	struct xdp_md md = {
		.data_end = (uint32_t)len,
		.ingress_ifindex = ingress,
		.rx_queue_index = rx_queue,
	};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame, .data_size_in = (uint32_t)len,
		    .ctx_in = &md, .ctx_size_in = sizeof(md), .repeat = 1,
		    .flags = BPF_F_TEST_XDP_LIVE_FRAMES);

	return bpf_prog_test_run_opts(prog_fd, &opts) ? -errno : 0;
}

/* One frame off the socket into buf, with its tag back: its length, 0
 * for one hxdm1 sent, or -EAGAIN after 2 s of nothing. */
static ssize_t read_one(int sock, uint8_t *buf, size_t cap)
{
	union {
		struct cmsghdr c;
		char space[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
	} ctl;
	struct sockaddr_ll from;
	struct iovec iov = { buf + 4, cap - 4 };
	struct msghdr msg = {
		.msg_name = &from,
		.msg_namelen = sizeof(from),
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = &ctl,
		.msg_controllen = sizeof(ctl),
	};
	struct pollfd p = { .fd = sock, .events = POLLIN };
	ssize_t got;

	if (poll(&p, 1, 2000) <= 0)
		return -EAGAIN;
	got = recvmsg(sock, &msg, MSG_TRUNC);
	if (got < 0)
		return -errno;
	if (from.sll_pkttype == PACKET_OUTGOING)
		return 0;
	if ((size_t)got > cap - 4)
		got = (ssize_t)(cap - 4);
	memmove(buf, buf + 4, (size_t)got);
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		const struct tpacket_auxdata *aux = (const void *)CMSG_DATA(c);
		uint16_t tpid, tci;

		if (c->cmsg_level != SOL_PACKET || c->cmsg_type != PACKET_AUXDATA ||
		    !(aux->tp_status & TP_STATUS_VLAN_VALID) || got < 12)
			continue;
		tpid = aux->tp_status & TP_STATUS_VLAN_TPID_VALID ? aux->tp_vlan_tpid : 0x8100;
		tci = aux->tp_vlan_tci;
		memmove(buf + 16, buf + 12, (size_t)got - 12);
		buf[12] = (uint8_t)(tpid >> 8);
		buf[13] = (uint8_t)tpid;
		buf[14] = (uint8_t)(tci >> 8);
		buf[15] = (uint8_t)tci;
		got += 4;
	}
	return got;
}

static bool is_mark(const uint8_t *buf, ssize_t len, uint32_t seq)
{
	uint32_t at;

	if (len != MARK_LEN || buf[12] != MARK_ETHERTYPE >> 8 ||
	    buf[13] != (MARK_ETHERTYPE & 0xff) || memcmp(buf + 14, "hxdm", 4))
		return false;
	memcpy(&at, buf + 18, 4);
	return at == seq;
}

int live_net_send(struct live_net *n, int prog_fd, uint32_t ingress, uint32_t rx_queue,
		  const uint8_t *frame, size_t len, bool *arrived, uint8_t *out, size_t cap,
		  size_t *out_len)
{
	static const uint8_t head[] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0, 0, 0, 0, 0xfe
	};
	static uint8_t buf[LIVE_MTU + 64];
	uint8_t mark[MARK_LEN] = { 0 };
	unsigned int frames = 0;
	int err;

	*arrived = false;
	*out_len = 0;
	err = run_live(prog_fd, ingress, rx_queue, frame, len);
	if (err)
		return err;
	n->sent++;
	n->seq++;
	memcpy(mark, head, sizeof(head));
	mark[12] = MARK_ETHERTYPE >> 8;
	mark[13] = MARK_ETHERTYPE & 0xff;
	memcpy(mark + 14, "hxdm", 4);
	memcpy(mark + 18, &n->seq, 4);
	err = run_live(n->mark_prog, n->in_ifindex, 0, mark, sizeof(mark));
	if (err)
		return err;
	for (;;) {
		ssize_t got = read_one(n->sock, buf, sizeof(buf));

		if (got < 0)
			return -EIO; /* no mark */
		if (!got)
			continue;
		if (is_mark(buf, got, n->seq))
			break;
		/* a mark of an earlier frame, late */
		if (got == MARK_LEN && !memcmp(buf + 14, "hxdm", 4) && buf[12] == 0x88)
			continue;
		if (frames++)
			continue;
		*arrived = true;
		*out_len = (size_t)got < cap ? (size_t)got : cap;
		memcpy(out, buf, *out_len);
	}
	n->arrived += frames != 0;
	return frames > 1 ? -EIO : 0;
}

bool live_net_carries(const uint8_t *frame, size_t len)
{
	uint16_t type;

	if (len < ETH_HLEN || len > LIVE_MTU + ETH_HLEN)
		return false;
	type = (uint16_t)(frame[12] << 8 | frame[13]);
	/* skb_vlan_untag wants the tag and the next ethertype */
	return !((type == ETH_P_8021Q || type == ETH_P_8021AD) && len < ETH_HLEN + 6);
}
