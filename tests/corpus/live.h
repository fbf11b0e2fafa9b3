/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel as an oracle for what leaves by a devmap entry: BPF_PROG_TEST_RUN
 * refuses programs of expected attach type BPF_XDP_DEVMAP, so their frames are
 * sent for real. A network namespace of the thread's own (unshare), a veth
 * pair in it, hxdm0 (the port a devmap entry names) and hxdm1 (its peer,
 * where what hxdm0 sends arrives, read by an AF_PACKET socket), a second
 * pair whose hxdm2 (2 rx queues) frames come in by, so that what a program
 * passes or sends back goes elsewhere than hxdm1, and a
 * program run in BPF_PROG_TEST_RUN's live-frames mode (BPF_F_TEST_XDP_LIVE_FRAMES),
 * whose redirects the kernel carries out: into the devmap, through the
 * entry's program, out of hxdm0. The namespace and its links go when the
 * oracle is closed, or with the process.
 */
#ifndef HWXDP_TESTS_CORPUS_LIVE_H
#define HWXDP_TESTS_CORPUS_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct live_net {
	int home_ns;		   /* the thread's namespace, to go back to */
	uint32_t tx_ifindex;	   /* hxdm0: the port the devmap's entries name */
	uint32_t rx_ifindex;	   /* hxdm1: where hxdm0's frames arrive */
	uint32_t in_ifindex;	   /* hxdm2: an ingress with 2 rx queues */
	int sock;		   /* AF_PACKET on hxdm1 */
	int pass_fd;		   /* XDP_PASS on hxdm0, hxdm1: veth sends XDP frames with one */
	int mark_map, mark_prog;   /* a devmap and a program redirecting into it */
	int entry_map, entry_prog; /* live_net_entry's */
	uint32_t seq;		   /* the last mark's number */
	uint64_t sent, arrived;
};

/* Enters a new network namespace and makes the links: 0, or a negative
 * errno with why (-EPERM without root, -ENOENT without `ip`). On failure
 * the thread is back in its namespace. */
int live_net_open(struct live_net *n, char *why, size_t len);
/* Back to the thread's namespace; the new one goes with the last fd. */
void live_net_close(struct live_net *n);
/* Writes value to the file at path (a sysctl): 0 or a negative errno. */
int live_sysctl_write(const char *path, const char *value);

/*
 * A program of its own that redirects every frame into entry 0 of a DEVMAP
 * of struct bpf_devmap_val whose entry is { tx_ifindex, prog_fd }: the way
 * in for a devmap program that has no port program with it. Its fd, or a
 * negative errno with why (the kernel's refusal of prog_fd for the entry).
 */
int live_net_entry(struct live_net *n, int prog_fd, char *why, size_t len);

/*
 * Runs prog_fd on frame in live-frames mode, as received by ingress on
 * rx_queue (in_ifindex, or tx_ifindex where the program sends nothing
 * back and passes nothing), then a mark frame behind it by the mark devmap (no program), and
 * reads hxdm1 up to the mark: *arrived whether a frame came out of hxdm0
 * before it, that frame in out (cap bytes; *out_len its length), a VLAN tag
 * the receiving stack took off put back where it was. 0, -EIO when more
 * than one frame came or the mark did not, or the run's negative errno.
 */
int live_net_send(struct live_net *n, int prog_fd, uint32_t ingress, uint32_t rx_queue,
		  const uint8_t *frame, size_t len, bool *arrived, uint8_t *out, size_t cap,
		  size_t *out_len);

/* Whether the kernel can carry a frame this far in one piece: at least an
 * Ethernet header, no more than hxdm1's MTU allows, and not a VLAN tag cut
 * short (the receiving stack drops one before a socket sees it). */
bool live_net_carries(const uint8_t *frame, size_t len);

#endif /* HWXDP_TESTS_CORPUS_LIVE_H */
