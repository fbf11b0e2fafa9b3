// SPDX-License-Identifier: GPL-2.0
/*
 * The runner (runner/runner.h) with ports of memory: frames go in from a
 * list, and what the ports are given is written down. A microcode program
 * decides each frame's verdict from its bytes, so every fate is a frame:
 * byte 20 the exit value, byte 21 (when not 0) an ifindex to redirect to.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>

#include "device/device.h"
#include "device/tables.h"
#include "hwmap/hxu.h"
#include "runner/runner.h"
#include "tests/common/asm_board.h"

static const char program[] = "ctx r6, data ;;\n"
			      "ld8.pkt r1, [r6 + 21] ;;\n"
			      "bne r1, 0, redir ;;\n"
			      "ld8.pkt r0, [r6 + 20] ;;\n"
			      "exit ;;\n"
			      "redir: mov r2, 0 ;;\n"
			      "redirif r0, r1, r2 ;;\n"
			      "exit ;;\n";

#define FRAMES 32

/* What a port of memory was given: its frames' first bytes (an id). */
struct mem_port {
	uint32_t ifindex;
	/* in */
	uint8_t in[FRAMES][64];
	uint32_t in_len[FRAMES];
	struct timespec ts[FRAMES];
	uint32_t order[FRAMES];
	int in_cnt, next;
	int done; /* frames given back by rx_done */
	/* out */
	uint8_t sent[FRAMES], punted[FRAMES];
	int sent_cnt, punted_cnt;
	uint32_t punt_prog[FRAMES];
	int fail_send; /* the nth send fails (1-based), 0: none */
	int flushes;
};

static int mem_rx(void *ctx, struct hx_rx_frame *f, int max, char *msg, size_t msglen)
{
	struct mem_port *p = ctx;
	int n = 0;

	(void)msg;
	(void)msglen;
	while (n < max && p->next < p->in_cnt) {
		f[n] = (struct hx_rx_frame){
			.data = p->in[p->next],
			.len = p->in_len[p->next],
			.ts = p->ts[p->next],
			.order = p->order[p->next],
			.handle = (uint64_t)p->next,
		};
		n++;
		p->next++;
	}
	return n;
}

static void mem_rx_done(void *ctx, const struct hx_rx_frame *f, int n)
{
	(void)f;
	((struct mem_port *)ctx)->done += n;
}

static int mem_send(void *ctx, const uint8_t *data, uint32_t len, const struct hx_rx_frame *from,
		    char *msg, size_t msglen)
{
	struct mem_port *p = ctx;

	(void)len;
	(void)from;
	if (p->fail_send && p->sent_cnt + 1 == p->fail_send) {
		snprintf(msg, msglen, "port %u is full", p->ifindex);
		p->fail_send = 0;
		return -ENOSPC;
	}
	p->sent[p->sent_cnt++] = data[0];
	return 0;
}

static int mem_punt(void *ctx, const struct hwxdp_device_frame *f, const uint8_t *data,
		    uint32_t len, const struct hx_rx_frame *from, char *msg, size_t msglen)
{
	struct mem_port *p = ctx;

	(void)len;
	(void)from;
	(void)msg;
	(void)msglen;
	p->punt_prog[p->punted_cnt] = f->prog;
	p->punted[p->punted_cnt++] = data[0];
	return 0;
}

static void mem_flush(void *ctx)
{
	((struct mem_port *)ctx)->flushes++;
}

static const struct hx_port_ops mem_ops = {
	.rx = mem_rx,
	.rx_done = mem_rx_done,
	.send = mem_send,
	.punt = mem_punt,
	.flush = mem_flush,
};

/* Frame id arriving at second sec (order ord): exit value action, or a
 * redirect to redirect when not 0. */
static void add(struct mem_port *p, uint8_t id, uint8_t action, uint8_t redirect, long sec,
		uint32_t ord)
{
	int i = p->in_cnt++;

	memset(p->in[i], 0, sizeof(p->in[i]));
	p->in[i][0] = id;
	p->in[i][20] = action;
	p->in[i][21] = redirect;
	p->in_len[i] = 64;
	p->ts[i] = (struct timespec){ .tv_sec = sec };
	p->order[i] = ord;
}

/* any_egress: a redirect to any ifindex leaves (the offline run's board).
 * Ports 5 and 6 run the program, port 8 has none. */
static struct hwxdp_device *board(bool any_egress)
{
	uint32_t id;
	struct hwxdp_device *d = asm_board(program, "verdicts", any_egress, &id);

	cr_assert_eq(hwxdp_device__attach(d, 5, id), 0);
	cr_assert_eq(hwxdp_device__attach(d, 6, id), 0);
	cr_assert_eq(hwxdp_device__add_port(d, 8), 0); /* no program */
	return d;
}

static uint8_t elsewhere[FRAMES];
static int elsewhere_cnt;
static uint32_t elsewhere_ifindex;

static int to_elsewhere(void *ctx, uint32_t ifindex, const uint8_t *data, uint32_t len,
			const struct hx_rx_frame *from, char *msg, size_t msglen)
{
	(void)ctx;
	(void)len;
	(void)from;
	(void)msg;
	(void)msglen;
	elsewhere_ifindex = ifindex;
	elsewhere[elsewhere_cnt++] = data[0];
	return 0;
}

Test(runner, every_fate_to_its_port)
{
	struct hwxdp_device *d = board(false);
	struct mem_port a = { .ifindex = 5 }, b = { .ifindex = 6 }, c = { .ifindex = 8 };
	struct hx_runner_counts ca, cc, all;
	struct hx_runner *r = hx_runner__new(d, NULL);

	cr_assert(r);
	add(&a, 1, XDP_DROP, 0, 0, 0);
	add(&a, 2, XDP_PASS, 0, 0, 0);
	add(&a, 3, XDP_TX, 0, 0, 0);
	add(&a, 4, XDP_ABORTED, 0, 0, 0);
	add(&a, 5, 9, 0, 0, 0); /* an unknown action: aborted */
	add(&a, 6, 0, 6, 0, 0); /* a redirect to port 6 */
	add(&a, 7, 0, 7, 0, 0); /* to no port of the board: dropped */
	add(&a, 8, 0, 8, 0, 0); /* to port 8, which has no program: sent there */
	add(&a, 9, XDP_TX, 0, 0, 0);
	a.in_len[a.in_cnt - 1] = 10;  /* shorter than a frame: invalid */
	add(&c, 10, XDP_TX, 0, 0, 0); /* no program on port 8: to its host */
	cr_assert_eq(hx_runner__add_port(r, 5, &mem_ops, &a), 0);
	cr_assert_eq(hx_runner__add_port(r, 6, &mem_ops, &b), 0);
	cr_assert_eq(hx_runner__add_port(r, 8, &mem_ops, &c), 0);
	cr_assert_eq(hx_runner__add_port(r, 5, &mem_ops, &a), -EEXIST);

	cr_assert_eq(hx_runner__round(r, 5), 9);
	cr_assert_eq(hx_runner__round(r, 5), 0);
	cr_assert_eq(hx_runner__round(r, 8), 1);
	cr_assert_eq(a.done, 9, "every buffer back: %d", a.done);
	cr_assert_eq(a.punted_cnt, 1);
	cr_assert_eq(a.punted[0], 2);
	cr_assert_eq(a.sent_cnt, 1);
	cr_assert_eq(a.sent[0], 3, "XDP_TX out of the ingress");
	cr_assert_eq(b.sent_cnt, 1);
	cr_assert_eq(b.sent[0], 6);
	cr_assert_eq(c.sent_cnt, 1);
	cr_assert_eq(c.sent[0], 8);
	cr_assert_eq(c.punted_cnt, 1);
	cr_assert_eq(c.punted[0], 10);
	cr_assert_eq(c.punt_prog[0], HWXDP_DEVICE_PROG_NONE);
	cr_assert_geq(b.flushes, 2, "each port flushed after each batch");

	hx_runner__counts(r, 5, &ca);
	hx_runner__counts(r, 8, &cc);
	hx_runner__counts(r, 0, &all);
	cr_assert_eq(ca.in, 9);
	cr_assert_eq(ca.fate[HX_FATE_DROPPED], 2, "drop, and a redirect to no port");
	cr_assert_eq(ca.fate[HX_FATE_PUNTED], 1);
	cr_assert_eq(ca.fate[HX_FATE_FORWARDED], 3);
	cr_assert_eq(ca.fate[HX_FATE_ABORTED], 2);
	cr_assert_eq(ca.fate[HX_FATE_INVALID], 1);
	cr_assert_eq(cc.fate[HX_FATE_NO_PROGRAM], 1);
	cr_assert_eq(all.in, 10);
	hx_runner__del_port(r, 8);
	hx_runner__counts(r, 0, &all);
	cr_assert_eq(all.in, 10, "a deleted port's counts stay in the total");
	hx_runner__free(r);
	hwxdp_device__free(d);
}

Test(runner, captures_in_timestamp_order)
{
	struct hwxdp_device *d = board(true);
	struct mem_port a = { .ifindex = 5 }, b = { .ifindex = 6 };
	struct hx_runner_opts o = {
		.sz = sizeof(o),
		.send_elsewhere = to_elsewhere,
	};
	struct hx_runner *r = hx_runner__new(d, &o);
	uint8_t want[] = { 1, 2, 3, 4, 5, 6, 7 };
	char msg[128] = "";

	/* Every frame a redirect to 9, no port: its order at "elsewhere". */
	elsewhere_cnt = 0;
	add(&a, 1, 0, 9, 1, 0);
	add(&b, 2, 0, 9, 2, 0);
	add(&b, 4, 0, 9, 3, 0); /* a tie at 3 s: the lower order first */
	add(&a, 3, 0, 9, 3, 1);
	add(&a, 5, 0, 9, 4, 0); /* a tie of equal order: the port added first */
	add(&b, 6, 0, 9, 4, 0);
	add(&a, 7, 0, 9, 9, 0);
	/* b's frame 4 has order 0 and a's frame 3 order 1: 4 goes first. */
	want[2] = 4, want[3] = 3;
	cr_assert_eq(hx_runner__add_port(r, 5, &mem_ops, &a), 0);
	cr_assert_eq(hx_runner__add_port(r, 6, &mem_ops, &b), 0);
	cr_assert_eq(hx_runner__run(r, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(elsewhere_cnt, 7);
	cr_assert_eq(elsewhere_ifindex, 9);
	for (int i = 0; i < 7; i++)
		cr_assert_eq(elsewhere[i], want[i], "frame %d: %u, not %u", i, elsewhere[i],
			     want[i]);
	cr_assert_eq(a.done + b.done, 7);
	hx_runner__free(r);
	hwxdp_device__free(d);
}

Test(runner, a_failed_send_ends_a_run_and_is_counted)
{
	struct hwxdp_device *d = board(false);
	struct mem_port a = { .ifindex = 5, .fail_send = 2 };
	struct hx_runner *r = hx_runner__new(d, NULL);
	struct hx_runner_counts c;
	char msg[128] = "";

	for (int i = 0; i < 4; i++)
		add(&a, (uint8_t)(i + 1), XDP_TX, 0, i, 0);
	cr_assert_eq(hx_runner__add_port(r, 5, &mem_ops, &a), 0);
	cr_assert_eq(hx_runner__run(r, msg, sizeof(msg)), -ENOSPC);
	cr_assert_str_eq(msg, "port 5 is full");
	hx_runner__counts(r, 5, &c);
	cr_assert_eq(c.failed, 1);
	cr_assert_eq(a.sent_cnt, 3, "the batch's other frames still went");
	hx_runner__free(r);
	hwxdp_device__free(d);
}

/* bpf_redirect_map(&ports, 0, byte 20 << 3): byte 20 1 is BPF_F_BROADCAST,
 * 3 that and BPF_F_EXCLUDE_INGRESS. */
static const char broadcast_program[] = "ctx r6, data ;;\n"
					"ld8.pkt r3, [r6 + 20] ;;\n"
					"lsh r3, r3, 3\n"
					"mov r2, 0 ;;\n"
					"redir r0, 0, r2, r3 ;;\n"
					"exit ;;\n";

static const struct hxu_table_desc broadcast_ports = {
	.id = 0,
	.type = BPF_MAP_TYPE_DEVMAP,
	.key_size = 4,
	.value_size = 4,
	.max_entries = 4,
	.name = "ports",
};

static uint32_t fate_egress[FRAMES];
static enum hx_fate fates[FRAMES];
static int fate_cnt;

static void note_fate(void *ctx, uint32_t ingress, const struct hwxdp_device_frame *f,
		      enum hx_fate fate, uint32_t egress)
{
	(void)ctx;
	(void)ingress;
	(void)f;
	fates[fate_cnt] = fate;
	fate_egress[fate_cnt++] = egress;
}

/* A broadcast leaves by every port of the map, the ingress one too unless
 * excluded, and an empty map's goes nowhere. */
Test(runner, a_broadcast_sends_a_copy_per_port)
{
	struct hwxdp_device *d;
	struct mem_port a = { .ifindex = 5 }, b = { .ifindex = 6 }, c = { .ifindex = 8 };
	struct hx_runner_opts opts = { .sz = sizeof(opts), .fate = note_fate };
	struct hx_runner_counts ca;
	struct hwxdp_table *tab;
	struct hx_runner *r;
	static const uint32_t slots[] = { 0, 1, 3 }, ifindex[] = { 8, 5, 6 };
	uint32_t id, k;

	d = asm_board_tables(broadcast_program, "broadcast", false, &broadcast_ports, 1, &id);
	cr_assert_eq(hwxdp_device__attach(d, 5, id), 0);
	cr_assert_eq(hwxdp_device__add_port(d, 6), 0);
	cr_assert_eq(hwxdp_device__add_port(d, 8), 0);
	tab = hwxdp_device__table(d, id, "ports");
	cr_assert(tab);
	r = hx_runner__new(d, &opts);
	cr_assert(r);
	cr_assert_eq(hx_runner__add_port(r, 5, &mem_ops, &a), 0);
	cr_assert_eq(hx_runner__add_port(r, 6, &mem_ops, &b), 0);
	cr_assert_eq(hx_runner__add_port(r, 8, &mem_ops, &c), 0);

	add(&a, 1, 1, 0, 0, 0); /* an empty map: nowhere */
	cr_assert_eq(hx_runner__round(r, 5), 1);
	cr_assert_eq(a.sent_cnt + b.sent_cnt + c.sent_cnt, 0);
	cr_assert_eq(fate_cnt, 1);
	cr_assert_eq(fates[0], HX_FATE_DROPPED);

	for (k = 0; k < 3; k++)
		cr_assert_eq(hwxdp_table__update(tab, &slots[k], &ifindex[k], BPF_ANY), 0);
	fate_cnt = 0;
	add(&a, 2, 1, 0, 0, 0); /* to 8, 5 and 6 */
	add(&a, 3, 3, 0, 0, 0); /* to 8 and 6 */
	cr_assert_eq(hx_runner__round(r, 5), 2);
	cr_assert_eq(a.sent_cnt, 1);
	cr_assert_eq(a.sent[0], 2);
	cr_assert_eq(b.sent_cnt, 2);
	cr_assert(b.sent[0] == 2 && b.sent[1] == 3);
	cr_assert_eq(c.sent_cnt, 2);
	cr_assert(c.sent[0] == 2 && c.sent[1] == 3);
	/* the fate hook hears of each copy, with its port */
	cr_assert_eq(fate_cnt, 5);
	cr_assert(fate_egress[0] == 8 && fate_egress[1] == 5 && fate_egress[2] == 6 &&
		  fate_egress[3] == 8 && fate_egress[4] == 6);
	hx_runner__counts(r, 5, &ca);
	cr_assert_eq(ca.in, 3);
	cr_assert_eq(ca.fate[HX_FATE_FORWARDED], 2, "a frame is counted once, not per copy");
	cr_assert_eq(ca.fate[HX_FATE_DROPPED], 1);
	hx_runner__free(r);
	hwxdp_device__free(d);
}
