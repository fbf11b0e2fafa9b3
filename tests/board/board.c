// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <criterion/criterion.h>
#include <linux/bpf.h>
#include <netinet/in.h>

#include "device/tables.h"
#include "hwmap/hash.h"
#include "fwdlab/fwd.h"
#include "loader/device.h"
#include "tests/board/board.h"

/* fwd's maps on the board, through the lab's target interface, so that
 * fwdlab/fwd.h fills and reads them as on any target. */
static int board_map_update(struct hx_target *t, const char *map, const void *key,
			    const void *value)
{
	struct hwxdp_table *tab = board_table(t->priv, map);

	return tab ? hwxdp_table__update(tab, key, value, BPF_ANY) : -ENOENT;
}

static int board_map_lookup(struct hx_target *t, const char *map, const void *key, void *value)
{
	struct hwxdp_table *tab = board_table(t->priv, map);

	return tab ? hwxdp_table__lookup(tab, key, value) : -ENOENT;
}

static int board_map_delete(struct hx_target *t, const char *map, const void *key)
{
	struct hwxdp_table *tab = board_table(t->priv, map);

	return tab ? hwxdp_table__delete(tab, key) : -ENOENT;
}

static const struct hx_target_ops board_target_ops = {
	.name = "board",
	.map_update = board_map_update,
	.map_lookup = board_map_lookup,
	.map_delete = board_map_delete,
};

struct hwxdp_table *board_table(struct board *b, const char *name)
{
	return hwxdp_device__table(b->dev, b->prog, name);
}

void board_open_fwd(struct board *b, uint32_t engines, const struct hwxdp_table_size *sizes,
		    size_t size_cnt)
{
	struct hwxdp_device_opts opts = {
		.sz = sizeof(opts),
		.engines = engines,
		.sizes = sizes,
		.size_cnt = size_cnt,
	};
	char msg[512] = "";
	int id;

	memset(b, 0, sizeof(*b));
	b->dev = hwxdp_device__new(&opts);
	cr_assert(b->dev, "hwxdp_device__new: %s", strerror(errno));
	cr_assert_eq(hwxdp_device__engines(b->dev), engines ? engines : 4);
	id = hwxdp_device__load(b->dev, hx_object_path("fwd"), NULL, msg, sizeof(msg));
	cr_assert_geq(id, 0, "load fwd: %s", msg);
	b->prog = (uint32_t)id;
	b->target.ops = &board_target_ops;
	b->target.priv = b;
	for (uint32_t i = 0; i < HX_LAB_PORTS; i++) {
		b->ifindex[i] = i + 1;
		cr_assert_eq(hwxdp_device__attach(b->dev, b->ifindex[i], b->prog), 0);
	}
	/* A port fwd's `ports` map does not know: its frames punt. */
	cr_assert_eq(hwxdp_device__attach(b->dev, HX_LAB_PORTS + 1, b->prog), 0);
	cr_assert_eq(hx_lab_setup(&b->target, b->ifindex), 0);
}

void board_close(struct board *b)
{
	hwxdp_device__free(b->dev);
	b->dev = NULL;
}

void frames_init(struct frames *fs, size_t cap)
{
	memset(fs, 0, sizeof(*fs));
	fs->f = calloc(cap, sizeof(*fs->f));
	fs->in = malloc(cap * sizeof(*fs->in));
	fs->out = malloc(cap * sizeof(*fs->out));
	cr_assert(fs->f && fs->in && fs->out);
	fs->cap = cap;
}

void frames_free(struct frames *fs)
{
	free(fs->f);
	free(fs->in);
	free(fs->out);
	memset(fs, 0, sizeof(*fs));
}

size_t frames_add(struct frames *fs, uint32_t port, const uint8_t *data, size_t len)
{
	size_t i = fs->cnt++;

	cr_assert_lt(i, fs->cap);
	cr_assert_leq(len, BOARD_FRAME_MAX);
	memcpy(fs->in[i], data, len);
	fs->f[i] = (struct hwxdp_device_frame){
		.data = fs->in[i],
		.len = (uint32_t)len,
		.port = port,
		.out = fs->out[i],
		.out_cap = BOARD_FRAME_MAX,
	};
	return i;
}

size_t frames_add_spec(struct frames *fs, uint32_t port, const struct hx_frame_spec *spec)
{
	uint8_t buf[BOARD_FRAME_MAX];
	size_t len = hx_frame_build(spec, buf, sizeof(buf));

	cr_assert_gt(len, 0);
	return frames_add(fs, port, buf, len);
}

void frames_assert_same(const struct frames *a, const struct frames *b)
{
	cr_assert_eq(a->cnt, b->cnt);
	for (size_t i = 0; i < a->cnt; i++) {
		const struct hwxdp_device_frame *x = &a->f[i], *y = &b->f[i];

		cr_assert_eq(x->verdict, y->verdict, "frame %zu: verdict %u / %u", i, x->verdict,
			     y->verdict);
		cr_assert_eq(x->egress, y->egress, "frame %zu", i);
		cr_assert_eq(x->reason, y->reason, "frame %zu", i);
		cr_assert_eq(x->error, y->error, "frame %zu", i);
		cr_assert_eq(x->prog, y->prog, "frame %zu", i);
		cr_assert_eq(x->out_len, y->out_len, "frame %zu", i);
		cr_assert_leq(x->out_len, x->out_cap, "frame %zu", i);
		cr_assert_eq(memcmp(x->out, y->out, x->out_len), 0, "frame %zu: bytes differ", i);
		cr_assert_eq(x->meta_len, y->meta_len, "frame %zu", i);
		cr_assert_eq(memcmp(x->meta, y->meta, sizeof(x->meta)), 0, "frame %zu", i);
		cr_assert_eq(x->cost.cycles, y->cost.cycles, "frame %zu", i);
	}
}

static void plain_spec(struct hx_frame_spec *spec)
{
	hx_frame_spec_init(spec, 4);
	spec->proto = IPPROTO_TCP;
	hx_ipv4_addr(spec->src, "10.2.0.1");
	hx_ipv4_addr(spec->dst, "10.1.0.1");
	spec->payload_len = 64;
}

static void add_case(struct board_case *c, const char *name, uint32_t port, uint32_t verdict,
		     uint32_t egress_or_reason, const struct hx_frame_spec *spec)
{
	c->name = name;
	c->port = port;
	c->verdict = verdict;
	if (verdict == XDP_REDIRECT)
		c->egress = egress_or_reason;
	else
		c->reason = egress_or_reason;
	if (spec) {
		c->len = hx_frame_build(spec, c->frame, sizeof(c->frame));
		cr_assert_gt(c->len, 0, "%s", name);
	}
}

size_t board_cases(struct board_case **out)
{
	static struct board_case cases[HX_LAB__COUNT + 16];
	struct hx_frame_spec spec;
	size_t n = 0;

	memset(cases, 0, sizeof(cases));
	for (unsigned int k = 0; k < HX_LAB__COUNT; k++) {
		const struct hx_lab_frame *lf = &hx_lab_frames[k];
		struct board_case *c = &cases[n++];
		const struct hx_lab_nexthop_desc *nh = hx_lab_nexthop(lf->nexthop);
		uint32_t egress = nh ? nh->port : 0;

		/* Out by the port it came in: a hairpin, XDP_TX. */
		add_case(c, lf->name, lf->port,
			 !lf->nexthop	      ? XDP_PASS
			 : egress == lf->port ? XDP_TX
					      : XDP_REDIRECT,
			 lf->nexthop ? egress : HWXDP_PUNT_FLOW_MISS, NULL);
		c->len = hx_lab_build(k, c->frame, sizeof(c->frame));
		cr_assert_gt(c->len, 0);
	}
	plain_spec(&spec);
	spec.ttl = 1;
	add_case(&cases[n++], "ttl-1", 2, XDP_PASS, HWXDP_PUNT_TTL_EXCEEDED, &spec);
	plain_spec(&spec);
	spec.proto = IPPROTO_ICMP;
	add_case(&cases[n++], "icmp", 2, XDP_PASS, HWXDP_PUNT_L4_PROTO, &spec);
	plain_spec(&spec);
	spec.ip_options_len = 4;
	add_case(&cases[n++], "ip-options", 2, XDP_PASS, HWXDP_PUNT_IP_OPTIONS, &spec);
	plain_spec(&spec);
	spec.frag = 0x2000;
	add_case(&cases[n++], "fragment", 2, XDP_PASS, HWXDP_PUNT_FRAGMENT, &spec);
	plain_spec(&spec);
	spec.vlan = 99;
	add_case(&cases[n++], "unknown-vlan", 1, XDP_PASS, HWXDP_PUNT_UNKNOWN_VLAN, &spec);
	plain_spec(&spec);
	add_case(&cases[n++], "unknown-port", 4, XDP_PASS, HWXDP_PUNT_UNKNOWN_PORT, &spec);
	plain_spec(&spec);
	spec.vlan = 50;
	spec.outer_tpid = 0x88a8;
	spec.outer_vid = 5;
	add_case(&cases[n++], "qinq", 1, XDP_PASS, HWXDP_PUNT_QINQ, &spec);
	plain_spec(&spec);
	spec.vlan = 4095;
	add_case(&cases[n++], "vid-4095", 1, XDP_PASS, HWXDP_PUNT_VLAN_RESERVED, &spec);
	hx_frame_spec_init(&spec, 6);
	spec.has_ipv6_ext = true;
	add_case(&cases[n++], "ipv6-ext", 2, XDP_PASS, HWXDP_PUNT_IPV6_EXT, &spec);
	hx_frame_spec_init(&spec, 0);
	spec.ethertype = 0x0806;
	spec.payload_len = 28;
	add_case(&cases[n++], "arp", 2, XDP_PASS, HWXDP_PUNT_ETHERTYPE, &spec);
	/* An IPv4 ethertype and 6 bytes after it. */
	plain_spec(&spec);
	add_case(&cases[n++], "truncated", 2, XDP_PASS, HWXDP_PUNT_MALFORMED, &spec);
	cases[n - 1].len = 20;
	*out = cases;
	return n;
}

void board_flow_spec(unsigned int k, struct hx_frame_spec *spec)
{
	char src[32];

	plain_spec(spec);
	snprintf(src, sizeof(src), "10.2.%u.%u", (k >> 8) & 0xff, k & 0xff);
	hx_ipv4_addr(spec->src, src);
	spec->sport = (uint16_t)(1024 + (k >> 16));
	spec->payload_len = 16 + k % 64;
}

void board_add_flows(struct board *b, unsigned int n)
{
	struct hx_frame_spec spec;

	for (unsigned int k = 0; k < n; k++) {
		board_flow_spec(k, &spec);
		cr_assert_eq(hx_fwd_flow(&b->target, HWXDP_LIF(2, 0), &spec, NH_P1), 0);
	}
}

void board_traffic(struct frames *fs, const struct board_case *cases, size_t case_cnt,
		   unsigned int flows, unsigned int reps, uint64_t seed, uint32_t *kind)
{
	size_t per = case_cnt + flows, total = per * reps, start = fs->cnt;
	uint32_t *order = malloc(total * sizeof(*order));

	cr_assert(order);
	for (size_t i = 0; i < total; i++)
		order[i] = (uint32_t)(i % per);
	for (size_t i = total; i > 1; i--) {
		size_t j = board_rng(&seed) % i;
		uint32_t t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < total; i++) {
		if (order[i] < case_cnt) {
			const struct board_case *c = &cases[order[i]];

			frames_add(fs, c->port, c->frame, c->len);
		} else {
			struct hx_frame_spec spec;

			board_flow_spec(order[i] - (uint32_t)case_cnt, &spec);
			frames_add_spec(fs, 2, &spec);
		}
		if (kind)
			kind[start + i] = order[i];
	}
	free(order);
}

static int entry_cmp(const void *a, const void *b, void *key_size)
{
	return memcmp(a, b, *(const size_t *)key_size);
}

void table_dump(struct hwxdp_table *tab, struct dump *out)
{
	size_t ks = tab->desc.key_size, vs = tab->desc.value_size, cap = 64;
	uint8_t key[HWXDP_HASH_KEY_MAX], next[HWXDP_HASH_KEY_MAX];
	bool first = true;

	cr_assert_leq(ks, sizeof(key));
	memset(out, 0, sizeof(*out));
	out->entry_size = ks + vs;
	out->bytes = malloc(cap * out->entry_size);
	cr_assert(out->bytes);
	while (!hwxdp_table__get_next_key(tab, first ? NULL : key, next)) {
		uint8_t *e;

		first = false;
		memcpy(key, next, ks);
		if (out->cnt == cap) {
			cap *= 2;
			out->bytes = realloc(out->bytes, cap * out->entry_size);
			cr_assert(out->bytes);
		}
		e = out->bytes + out->cnt * out->entry_size;
		memcpy(e, key, ks);
		/* A program array's empty slot has a key but no value. */
		if (hwxdp_table__lookup(tab, key, e + ks))
			memset(e + ks, 0xee, vs);
		out->cnt++;
	}
	qsort_r(out->bytes, out->cnt, out->entry_size, entry_cmp, &ks);
}

void dump_free(struct dump *d)
{
	free(d->bytes);
	memset(d, 0, sizeof(*d));
}

void text_image(struct text_image *ti, const char *text, const struct hxu_table_desc *tables,
		size_t n)
{
	char err[256];

	memset(ti, 0, sizeof(*ti));
	cr_assert_eq(hxu_asm(text, &ti->as, err, sizeof(err)), 0, "assembling: %s", err);
	cr_assert_leq(n, sizeof(ti->tables) / sizeof(ti->tables[0]));
	if (n)
		memcpy(ti->tables, tables, n * sizeof(*tables));
	snprintf(ti->prog.name, sizeof(ti->prog.name), "main");
	ti->prog.frames = 1;
	ti->img = (struct hxu_image){
		.version = HXU_VERSION,
		.ops = ti->as.words,
		.op_cnt = ti->as.word_cnt,
		.tables = ti->tables,
		.table_cnt = (uint32_t)n,
		.progs = &ti->prog,
		.prog_cnt = 1,
	};
}

void text_image_free(struct text_image *ti)
{
	hxu_asm_out__free(&ti->as);
}

uint64_t board_rng(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double board_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}
