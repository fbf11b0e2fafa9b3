// SPDX-License-Identifier: GPL-2.0
/*
 * A counting BPF interpreter (lab/bpf_count.h). Pointers are host
 * addresses: the stack is an array here, the packet a window laid out as
 * the device's, map values the addresses table memory hands out. The
 * program is verified before it runs, so memory accesses are trusted as the
 * device trusts table memory; the context is the one exception, read by
 * field as the kernel rewrites it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "device/engine.h"
#include "device/esp.h"
#include "device/tables.h"
#include "loader/kfuncs.h"
#include "loader/device.h"
#include "hwmap/hxu.h"
#include "hwmap/translate.h"
#include "loader/object.h"
#include "lab/bpf_count.h"
#include "base/log.h"
#include "verifier/verifier.h"

#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80
#endif

#define COUNT_FRAMES 8
#define COUNT_STACK  512
/* Loops are bounded by the verifier; this only stops an interpreter bug. */
#define COUNT_BUDGET (1u << 24)
#define COUNT_SA_MAX 4
#define COUNT_PROGS  HXU_PORTS /* the programs of an image, at most */

struct count_target {
	char *path;
	struct hwxdp_object *obj;
	const struct hwxdp_prog *prog;
	/* the programs a tail call jumps to, by the device image's numbers
	 * (prog[0] is prog), which the program arrays hold, as the device's */
	const struct hwxdp_prog *progs[COUNT_PROGS];
	uint32_t prog_cnt;
	struct hwxdp_tables *tables;
	uint8_t *window;
	uint8_t stack[COUNT_FRAMES][COUNT_STACK] __attribute__((aligned(8)));
	uint64_t executed;
	uint64_t rand_state;
	/* the crypto unit's SAs (hx_target_esp_sa) */
	struct hwxdp_esp_sa sa[COUNT_SA_MAX];
	uint32_t sa_cnt;
	/* told of each hash lookup that finds nothing (hx_count_target_on_miss) */
	hx_count_miss_fn on_miss;
	void *miss_arg;
};

/* struct xdp_md as the program reads it: each field a u32 at 4 * index. */
struct count_ctx {
	uint32_t field[6];
	uint8_t *data, *data_end, *data_meta;
	/* where the last redirect sends the frame, as the device's
	 * redirect() names it (device/engine.h) */
	uint32_t egress;
};

static void count_close(struct hx_target *target)
{
	struct count_target *ct = target->priv;

	if (!ct)
		return;
	for (uint32_t i = 0; i < ct->sa_cnt; i++)
		hwxdp_esp_sa__fini(&ct->sa[i]);
	hwxdp_tables__free(ct->tables);
	hwxdp_object__close(ct->obj);
	free(ct->path);
	free(ct->window);
	free(ct);
	target->priv = NULL;
}

/*
 * Where the object has a program array: the programs a tail call can jump
 * to, numbered as the device's image of the program numbers them
 * (hwxdp_translate_for_device: the program, the ones its filled arrays
 * name, its devmap programs), and the arrays filled as the device fills
 * them. A program the translator refuses has no targets: its tail calls
 * are refused here (-ENOTSUP), as they were before.
 */
static int tail_call_targets(struct count_target *ct)
{
	struct hxu_image *img = NULL;
	bool arrays = false;
	char msg[256];
	int err;

	ct->progs[0] = ct->prog;
	ct->prog_cnt = 1;
	for (size_t i = 0; i < ct->obj->map_cnt; i++)
		arrays |= ct->obj->maps[i].type == BPF_MAP_TYPE_PROG_ARRAY;
	if (!arrays)
		return 0;
	if (hwxdp_translate_for_device(ct->obj, ct->prog, &img, msg, sizeof(msg))) {
		ct->prog_cnt = 0;
		return 0;
	}
	for (uint32_t k = 0; k < img->prog_cnt && k < COUNT_PROGS; k++)
		for (size_t i = 0; i < ct->obj->prog_cnt; i++)
			if (!strncmp(img->progs[k].name, ct->obj->progs[i].name, HXU_NAME_MAX - 1))
				ct->progs[k] = &ct->obj->progs[i];
	ct->prog_cnt = img->prog_cnt < COUNT_PROGS ? img->prog_cnt : COUNT_PROGS;
	err = hwxdp_device_tables__fill_progs(ct->tables, ct->obj, img);
	hxu_image__free(img);
	return err;
}

static int count_open_prog(struct hx_target *target, const char *object_path, const char *prog)
{
	struct count_target *ct;
	int err;

	ct = calloc(1, sizeof(*ct));
	if (!ct)
		return -ENOMEM;
	target->priv = ct;
	ct->path = strdup(object_path);
	ct->window = calloc(1, HXU_WINDOW_SIZE);
	ct->tables = hwxdp_tables__new();
	if (!ct->path || !ct->window || !ct->tables) {
		err = -ENOMEM;
		goto fail;
	}
	hwxdp_tables__set_seed(ct->tables, 0x6877786470ull);
	ct->rand_state = 1;
	err = hwxdp_object__open(object_path, &ct->obj);
	if (err)
		goto fail;
	err = hwxdp_object__set_target(ct->obj, HWXDP_TARGET_DEVICE);
	if (err)
		goto fail;
	ct->prog = prog ? hwxdp_object__find_prog(ct->obj, prog) : hwxdp_object__xdp_prog(ct->obj);
	if (!ct->prog) {
		err = hwxdp_error(-ENOENT, "%s: the object has no XDP program%s%s", object_path,
				  prog ? " " : "", prog ? prog : "");
		goto fail;
	}
	/* the tables as the device makes them, global data written in */
	err = hwxdp_device_tables__fill(ct->tables, ct->obj->maps, ct->obj->map_cnt);
	if (err)
		goto fail;
	err = tail_call_targets(ct);
	if (err)
		goto fail;
	return 0;
fail:
	count_close(target);
	return err;
}

static int count_open(struct hx_target *target, const char *object_path)
{
	return count_open_prog(target, object_path, NULL);
}

static struct hwxdp_table *table_by_name(struct hx_target *target, const char *name)
{
	struct count_target *ct = target->priv;

	for (size_t i = 0; i < ct->obj->map_cnt && i < HXU_TABLES; i++)
		if (!strcmp(ct->obj->maps[i].name, name))
			return hwxdp_tables__get(ct->tables, (uint32_t)i);
	return NULL;
}

/* A map the program does not have: which one, and which maps it has. */
static int no_table(struct hx_target *target, const char *map)
{
	const struct count_target *ct = target->priv;
	char have[512];
	size_t n = 0;

	have[0] = '\0';
	for (size_t i = 0; i < ct->obj->map_cnt && n < sizeof(have); i++)
		n += (size_t)snprintf(have + n, sizeof(have) - n, " %s", ct->obj->maps[i].name);
	return hwxdp_error(-ENOENT, "%s: the program has no map \"%s\" (maps:%s)", ct->path, map,
			   ct->obj->map_cnt ? have : " none");
}

static int count_map_update(struct hx_target *target, const char *map, const void *key,
			    const void *value)
{
	struct hwxdp_table *tab = table_by_name(target, map);

	return tab ? hwxdp_table__update(tab, key, value, BPF_ANY) : no_table(target, map);
}

static int count_map_lookup(struct hx_target *target, const char *map, const void *key,
			    void *value)
{
	struct hwxdp_table *tab = table_by_name(target, map);

	return tab ? hwxdp_table__lookup(tab, key, value) : no_table(target, map);
}

static int count_map_delete(struct hx_target *target, const char *map, const void *key)
{
	struct hwxdp_table *tab = table_by_name(target, map);

	return tab ? hwxdp_table__delete(tab, key) : no_table(target, map);
}

static uint64_t load(uint64_t addr, int size)
{
	const void *p = (const void *)(uintptr_t)addr;
	uint8_t b;
	uint16_t h;
	uint32_t w;
	uint64_t d;

	switch (size) {
	case 1: memcpy(&b, p, 1); return b;
	case 2: memcpy(&h, p, 2); return h;
	case 4: memcpy(&w, p, 4); return w;
	}
	memcpy(&d, p, 8);
	return d;
}

static void store(uint64_t addr, int size, uint64_t v)
{
	void *p = (void *)(uintptr_t)addr;
	uint8_t b = (uint8_t)v;
	uint16_t h = (uint16_t)v;
	uint32_t w = (uint32_t)v;

	switch (size) {
	case 1: memcpy(p, &b, 1); return;
	case 2: memcpy(p, &h, 2); return;
	case 4: memcpy(p, &w, 4); return;
	}
	memcpy(p, &v, 8);
}

static int insn_size(uint8_t code)
{
	switch (BPF_SIZE(code)) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	}
	return 8;
}

static uint64_t alu(uint8_t op, int16_t off, uint64_t a, uint64_t b, bool w)
{
	if (w) {
		uint32_t x = (uint32_t)a, y = (uint32_t)b;

		switch (op) {
		case BPF_ADD: return (uint32_t)(x + y);
		case BPF_SUB: return (uint32_t)(x - y);
		case BPF_MUL: return (uint32_t)(x * y);
		case BPF_DIV:
			if (off == 1)
				return !y ? 0 : ((int32_t)x == INT32_MIN && (int32_t)y == -1) ? x :
					(uint32_t)((int32_t)x / (int32_t)y);
			return y ? x / y : 0;
		case BPF_MOD:
			if (off == 1)
				return !y ? x : ((int32_t)y == -1) ? 0 :
					(uint32_t)((int32_t)x % (int32_t)y);
			return y ? x % y : x;
		case BPF_OR: return x | y;
		case BPF_AND: return x & y;
		case BPF_XOR: return x ^ y;
		case BPF_LSH: return (uint32_t)(x << (y & 31));
		case BPF_RSH: return x >> (y & 31);
		case BPF_ARSH: return (uint32_t)((int32_t)x >> (y & 31));
		}
		return 0;
	}
	switch (op) {
	case BPF_ADD: return a + b;
	case BPF_SUB: return a - b;
	case BPF_MUL: return a * b;
	case BPF_DIV:
		if (off == 1)
			return !b ? 0 : ((int64_t)a == INT64_MIN && (int64_t)b == -1) ? a :
				(uint64_t)((int64_t)a / (int64_t)b);
		return b ? a / b : 0;
	case BPF_MOD:
		if (off == 1)
			return !b ? a : ((int64_t)b == -1) ? 0 : (uint64_t)((int64_t)a % (int64_t)b);
		return b ? a % b : a;
	case BPF_OR: return a | b;
	case BPF_AND: return a & b;
	case BPF_XOR: return a ^ b;
	case BPF_LSH: return a << (b & 63);
	case BPF_RSH: return a >> (b & 63);
	case BPF_ARSH: return (uint64_t)((int64_t)a >> (b & 63));
	}
	return 0;
}

static bool cond(uint8_t op, uint64_t a, uint64_t b, bool w)
{
	int64_t sa = (int64_t)a, sb = (int64_t)b;

	if (w) {
		a = (uint32_t)a;
		b = (uint32_t)b;
		sa = (int32_t)a;
		sb = (int32_t)b;
	}
	switch (op) {
	case BPF_JEQ: return a == b;
	case BPF_JNE: return a != b;
	case BPF_JGT: return a > b;
	case BPF_JGE: return a >= b;
	case BPF_JLT: return a < b;
	case BPF_JLE: return a <= b;
	case BPF_JSGT: return sa > sb;
	case BPF_JSGE: return sa >= sb;
	case BPF_JSLT: return sa < sb;
	case BPF_JSLE: return sa <= sb;
	case BPF_JSET: return a & b;
	}
	return false;
}

/* The device's limits (docs/isa.md 4.4), which are the kernel's. */
static int64_t adjust_head(struct count_target *ct, struct count_ctx *c, int32_t delta)
{
	size_t metalen = (size_t)(c->data - c->data_meta);
	uint8_t *data = c->data + delta;

	if (data < ct->window + HXU_FRAME_RESERVED + metalen || data > c->data_end - HXU_ETH_HLEN)
		return -EINVAL;
	if (metalen)
		memmove(c->data_meta + delta, c->data_meta, metalen);
	c->data_meta += delta;
	c->data = data;
	return 0;
}

static int64_t adjust_meta(struct count_target *ct, struct count_ctx *c, int32_t delta)
{
	uint8_t *meta = c->data_meta + delta;

	if (meta < ct->window + HXU_FRAME_RESERVED || meta > c->data)
		return -EINVAL;
	if (((c->data - meta) & 3) || c->data - meta > HXU_META_MAX)
		return -EACCES;
	c->data_meta = meta;
	return 0;
}

static int64_t adjust_tail(struct count_target *ct, struct count_ctx *c, int32_t delta)
{
	uint8_t *end = c->data_end + delta;

	if (end > ct->window + HXU_WINDOW_SIZE || end < c->data + HXU_ETH_HLEN)
		return -EINVAL;
	if (delta > 0)
		memset(c->data_end, 0, (size_t)delta);
	c->data_end = end;
	return 0;
}

/* The kernel's csum_partial on a little-endian host, a byte at a time:
 * byte i weighs 2^(8 * (i mod 4)), the sum folded into 32 bits with
 * end-around carry. */
static uint32_t sum32(const uint8_t *p, uint64_t n, uint32_t seed)
{
	uint64_t acc = seed;

	for (uint64_t i = 0; i < n; i++)
		acc += (uint64_t)p[i] << (8 * (i & 3));
	while (acc >> 32)
		acc = (acc & 0xffffffffu) + (acc >> 32);
	return (uint32_t)acc;
}

/* bpf_csum_diff as Linux 6.18 has it (docs/isa.md, csumd). */
static uint64_t csum_diff_ref(const uint8_t *from, uint64_t fsize, const uint8_t *to,
			      uint64_t tsize, uint32_t seed)
{
	uint64_t v = seed;

	if (fsize && tsize) {
		v = (uint64_t)sum32(to, tsize, seed) + (uint32_t)~sum32(from, fsize, 0);
		v = (v & 0xffffffffu) + (v >> 32);
	} else if (tsize) {
		v = sum32(to, tsize, seed);
	} else if (fsize) {
		v = (uint32_t)~sum32(from, fsize, ~seed);
	}
	while (v >> 16)
		v = (v & 0xffff) + (v >> 16);
	return v;
}

static bool is_hash(uint32_t type)
{
	return type == BPF_MAP_TYPE_HASH || type == BPF_MAP_TYPE_LRU_HASH ||
	       type == BPF_MAP_TYPE_PERCPU_HASH || type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static int helper(struct count_target *ct, struct count_ctx *c, int32_t id, uint64_t *r)
{
	struct hwxdp_table *tab = NULL;
	uint32_t key;

	switch (id) {
	case BPF_FUNC_map_lookup_elem:
	case BPF_FUNC_map_update_elem:
	case BPF_FUNC_map_delete_elem:
	case BPF_FUNC_redirect_map:
		/* a map is its table id, or the handle a lookup in a map of
		 * maps gave (HXU_HANDLE): its low half is the id, of a table
		 * the control plane checked against the template when it
		 * stored it, as the device's tlookupr checks it again */
		tab = hwxdp_tables__get(ct->tables, HXU_HANDLE_ID(r[1]));
		if (!tab)
			return -ENOENT;
	}
	switch (id) {
	case BPF_FUNC_map_lookup_elem:
		if (tab->desc.type == BPF_MAP_TYPE_DEVMAP_HASH ||
		    tab->desc.type == BPF_MAP_TYPE_DEVMAP) {
			memcpy(&key, (void *)(uintptr_t)r[2], sizeof(key));
			r[0] = hwxdp_table__port_addr(tab, key);
		} else {
			r[0] = hwxdp_table__value_addr(tab, (void *)(uintptr_t)r[2]);
			if (!r[0] && ct->on_miss && is_hash(tab->desc.type))
				ct->on_miss(ct->miss_arg, tab->desc.name, (void *)(uintptr_t)r[2],
					    tab->desc.key_size);
		}
		return 0;
	case BPF_FUNC_map_update_elem:
		r[0] = (uint64_t)(int64_t)hwxdp_table__update_elem(tab, (void *)(uintptr_t)r[2],
								   (void *)(uintptr_t)r[3], r[4]);
		return 0;
	case BPF_FUNC_map_delete_elem:
		r[0] = (uint64_t)(int64_t)hwxdp_table__delete(tab, (void *)(uintptr_t)r[2]);
		return 0;
	case BPF_FUNC_redirect_map:
		/* __bpf_xdp_redirect_map with a devmap's flags: a broadcast is
		 * XDP_REDIRECT whatever the key and the map hold */
		if (r[3] & ~(uint64_t)(3 | BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS)) {
			r[0] = XDP_ABORTED;
			return 0;
		}
		key = hwxdp_table__port(tab, (uint32_t)r[2]);
		r[0] = key || (r[3] & BPF_F_BROADCAST) ? XDP_REDIRECT : (r[3] & 3);
		if (key)
			c->field[5] = key;
		c->egress =
			r[3] & BPF_F_BROADCAST
				? HWXDP_EGRESS_BCAST | (tab->desc.id & HWXDP_EGRESS_BCAST_TABLE) |
					  (r[3] & BPF_F_EXCLUDE_INGRESS ? HWXDP_EGRESS_BCAST_EXCL
									: 0)
			: key ? key
			      : HWXDP_EGRESS_NONE;
		return 0;
	case BPF_FUNC_redirect:
		/* the egress only for flags 0, as the kernel's helper */
		r[0] = r[2] ? XDP_ABORTED : XDP_REDIRECT;
		if (!r[2])
			c->field[5] = c->egress = (uint32_t)r[1];
		return 0;
	case BPF_FUNC_csum_diff:
		r[0] = csum_diff_ref((const uint8_t *)(uintptr_t)r[1], r[2],
				     (const uint8_t *)(uintptr_t)r[3], r[4], (uint32_t)r[5]);
		return 0;
	case BPF_FUNC_xdp_adjust_head:
		r[0] = (uint64_t)adjust_head(ct, c, (int32_t)r[2]);
		return 0;
	case BPF_FUNC_xdp_adjust_meta:
		r[0] = (uint64_t)adjust_meta(ct, c, (int32_t)r[2]);
		return 0;
	case BPF_FUNC_xdp_adjust_tail:
		r[0] = (uint64_t)adjust_tail(ct, c, (int32_t)r[2]);
		return 0;
	case BPF_FUNC_ktime_get_ns:
	case BPF_FUNC_ktime_get_boot_ns:
	case BPF_FUNC_ktime_get_coarse_ns:
	case BPF_FUNC_ktime_get_tai_ns:
	case BPF_FUNC_get_smp_processor_id:
		r[0] = 0;
		return 0;
	case BPF_FUNC_get_prandom_u32:
		ct->rand_state = ct->rand_state * 6364136223846793005ull + 1442695040888963407ull;
		r[0] = (uint32_t)(ct->rand_state >> 32);
		return 0;
	}
	pr_warn("count target: helper %d is not interpreted\n", id);
	return -ENOTSUP;
}

/*
 * The kernel's open-coded number iterator (kernel/bpf/bpf_iter.c) and the
 * frame's dynptr (struct bpf_dynptr_kern: data, size with the type XDP in
 * bits 28..30, offset) with its read-only slices, as the kernel runs them
 * on a frame without fragments; int results zero-extended, as x86-64
 * returns them. A slice the kernel would give as the buffer (past 0xffff,
 * or past the frame where it shrank since) is the buffer, filled as
 * bpf_xdp_copy_buf fills it.
 */
struct iter_num_kern {
	int32_t cur, end;
};

struct dynptr_kern {
	void *data;
	uint32_t size, offset;
};

static void lowered_kfunc(struct count_ctx *c, int32_t id, uint64_t *r)
{
	struct iter_num_kern *it = (void *)(uintptr_t)r[1];
	struct dynptr_kern *d;
	uint32_t size, off, len, o, now;
	int32_t start, end;

	switch (id) {
	case HWXDP_KFUNC_ITER_NUM_NEW:
		start = (int32_t)r[2];
		end = (int32_t)r[3];
		r[0] = start > end				? (uint32_t)-EINVAL
		       : (int64_t)end - start > 8 * 1024 * 1024 ? (uint32_t)-E2BIG
								: 0;
		it->cur = r[0] ? 0 : (int32_t)((uint32_t)start - 1);
		it->end = r[0] ? 0 : end;
		return;
	case HWXDP_KFUNC_ITER_NUM_NEXT:
		if ((int32_t)((uint32_t)it->cur + 1) >= it->end) {
			it->cur = it->end = 0;
			r[0] = 0;
			return;
		}
		it->cur++;
		r[0] = (uint64_t)(uintptr_t)&it->cur;
		return;
	case HWXDP_KFUNC_ITER_NUM_DESTROY:
		it->cur = it->end = 0;
		return;
	case HWXDP_KFUNC_DYNPTR_FROM_XDP:
		d = (void *)(uintptr_t)r[3];
		memset(d, 0, sizeof(*d));
		r[0] = r[2] ? (uint32_t)-EINVAL : 0;
		if (!r[2]) {
			d->data = c;
			d->size = (uint32_t)(c->data_end - c->data) | 4u << 28;
		}
		return;
	}
	/* bpf_dynptr_slice(ptr, off, buffer, len) */
	d = (void *)(uintptr_t)r[1];
	size = d->size & 0xffffff;
	off = (uint32_t)r[2];
	len = (uint32_t)r[4];
	now = (uint32_t)(c->data_end - c->data);
	r[0] = 0;
	if (!d->data || len > size || off > size - len)
		return;
	o = d->offset + off;
	if (o > 0xffff || len > 0xffff || o + len > now) {
		if (r[3] && now >= o + len)
			memcpy((void *)(uintptr_t)r[3], c->data + o, len);
		r[0] = r[3];
		return;
	}
	/* past the linear part no fragment is found: the start */
	r[0] = (uint64_t)(uintptr_t)(o < now ? c->data + o : c->data);
}

/* bpf_hwxdp_esp_encap (include/hwxdp/platform.h) on the crypto unit, as
 * docs/isa.md's esp has it: -ENOENT without an SA at the handle, -ENOSPC
 * without the headroom, -EINVAL for an L3 offset beyond the frame, the
 * unit's errno, or 0 with data (and the metadata) moved back. */
static int64_t esp_encap(struct count_target *ct, struct count_ctx *c, uint32_t handle,
			 uint32_t l3)
{
	struct hwxdp_esp_sa *sa = hwxdp_tables__sa(ct->tables, handle);
	size_t metalen = (size_t)(c->data - c->data_meta);
	size_t off = (size_t)(c->data - ct->window), len = (size_t)(c->data_end - c->data);
	uint8_t meta[HXU_META_MAX + 1];
	int err;

	if (!sa)
		return -ENOENT;
	if (c->data_meta < ct->window + HXU_FRAME_RESERVED + HWXDP_ESP_HEADROOM)
		return -ENOSPC;
	if (l3 > len)
		return -EINVAL;
	memcpy(meta, c->data_meta, metalen);
	err = hwxdp_esp_sa__encap(sa, ct->window, HXU_WINDOW_SIZE, &off, &len, l3);
	if (err)
		return err;
	c->data = ct->window + off;
	c->data_end = c->data + len;
	c->data_meta = c->data - metalen;
	memcpy(c->data_meta, meta, metalen);
	return 0;
}

static int count_esp_sa(struct hx_target *target, uint32_t handle)
{
	struct count_target *ct = target->priv;
	int err;

	if (ct->sa_cnt == COUNT_SA_MAX)
		return -ENOSPC;
	err = hx_esp_test_sa(&ct->sa[ct->sa_cnt], handle);
	if (!err)
		err = hwxdp_tables__set_sa(ct->tables, handle, &ct->sa[ct->sa_cnt]);
	if (err) {
		hwxdp_esp_sa__fini(&ct->sa[ct->sa_cnt]);
		return err;
	}
	ct->sa_cnt++;
	return 0;
}

static int ld_imm64(struct count_target *ct, const struct bpf_insn *in, uint64_t *v)
{
	struct hwxdp_table *tab;

	switch (in->src_reg) {
	case 0:
		*v = (uint64_t)(uint32_t)in[1].imm << 32 | (uint32_t)in[0].imm;
		return 0;
	case BPF_PSEUDO_MAP_FD:
		/* Helpers name the table by this id, as the device's do. */
		*v = (uint32_t)in->imm;
		return 0;
	case BPF_PSEUDO_MAP_VALUE:
		tab = hwxdp_tables__get(ct->tables, (uint32_t)in->imm);
		if (!tab || tab->desc.type != BPF_MAP_TYPE_ARRAY)
			return -ENOTSUP;
		*v = hwxdp_table__array_addr(tab, 0) + (uint32_t)in[1].imm;
		return 0;
	case BPF_PSEUDO_BTF_ID:
		/* A device kfunc is present, as on the device. */
		*v = 1;
		return 0;
	case BPF_PSEUDO_FUNC:
		/* A callback, the translator's number: only a helper that
		 * calls back reads it, where the device punts, and which is
		 * not interpreted here. */
		*v = 0;
		return 0;
	}
	return -ENOTSUP;
}

struct count_return {
	uint32_t pc;
	uint64_t saved[4];
};

/*
 * bpf_tail_call(ctx, map, index) as the kernel's: an index past the end,
 * or the 33rd tail call made, goes on after the call, uncounted; one in
 * range counts, and jumps to the program its slot holds, if any. The
 * registers and the stack stay as they are. true when it jumps, to *to.
 */
static bool tail_call(struct count_target *ct, uint64_t map, uint64_t index, uint32_t *calls,
		      const struct hwxdp_prog **to)
{
	struct hwxdp_table *tab = hwxdp_tables__get(ct->tables, (uint32_t)map);
	uint32_t prog;

	if (!tab || tab->desc.type != BPF_MAP_TYPE_PROG_ARRAY ||
	    (uint32_t)index >= tab->desc.max_entries || *calls >= HXU_TAIL_CALL_MAX)
		return false;
	++*calls;
	prog = hwxdp_table__prog(tab, (uint32_t)index);
	if (prog >= ct->prog_cnt || !ct->progs[prog])
		return false;
	*to = ct->progs[prog];
	return true;
}

/* Runs the program from insn 0; returns 0 with r0 in *ret, or an errno. */
static int interpret(struct count_target *ct, struct count_ctx *c, uint64_t *ret)
{
	const struct bpf_insn *insns = ct->prog->insns;
	const struct hwxdp_prog *to;
	struct count_return stack[COUNT_FRAMES];
	uint32_t pc = 0, depth = 0, n = (uint32_t)ct->prog->insn_cnt, tail_calls = 0;
	uint64_t r[11] = { 0 }, executed = 0, v;
	int err;

	r[1] = (uint64_t)(uintptr_t)c;
	/* calls take the frames below: the program's own is the last */
	r[10] = (uint64_t)(uintptr_t)(ct->stack[COUNT_FRAMES - 1] + COUNT_STACK);
	for (;;) {
		const struct bpf_insn *in;
		uint8_t cls, op;
		bool w;

		if (pc >= n || executed >= COUNT_BUDGET)
			return -EFAULT;
		in = &insns[pc];
		cls = BPF_CLASS(in->code);
		op = BPF_OP(in->code);
		executed++;
		ct->executed = executed;
		switch (cls) {
		case BPF_ALU:
		case BPF_ALU64:
			w = cls == BPF_ALU;
			v = BPF_SRC(in->code) == BPF_K ? (uint64_t)(int64_t)in->imm : r[in->src_reg];
			if (op == BPF_MOV) {
				if (BPF_SRC(in->code) == BPF_X && in->off == 8)
					v = (uint64_t)(int64_t)(int8_t)v;
				else if (BPF_SRC(in->code) == BPF_X && in->off == 16)
					v = (uint64_t)(int64_t)(int16_t)v;
				else if (BPF_SRC(in->code) == BPF_X && in->off == 32)
					v = (uint64_t)(int64_t)(int32_t)v;
				r[in->dst_reg] = w ? (uint32_t)v : v;
			} else if (op == BPF_NEG) {
				r[in->dst_reg] = w ? (uint32_t)-(uint32_t)r[in->dst_reg]
						   : -r[in->dst_reg];
			} else if (op == BPF_END) {
				v = r[in->dst_reg];
				if (cls == BPF_ALU64 || BPF_SRC(in->code) == BPF_TO_BE) {
					v = in->imm == 16   ? __builtin_bswap16((uint16_t)v)
					    : in->imm == 32 ? __builtin_bswap32((uint32_t)v)
							    : __builtin_bswap64(v);
				} else {
					v = in->imm == 16 ? (uint16_t)v
					    : in->imm == 32 ? (uint32_t)v : v;
				}
				r[in->dst_reg] = v;
			} else {
				r[in->dst_reg] = alu(op, in->off, r[in->dst_reg], v, w);
			}
			pc++;
			break;
		case BPF_LDX: {
			uint64_t addr = r[in->src_reg] + (uint64_t)(int64_t)in->off;
			int size = insn_size(in->code);

			if (addr >= (uint64_t)(uintptr_t)c &&
			    addr < (uint64_t)(uintptr_t)c + sizeof(c->field)) {
				uint32_t f = (uint32_t)(addr - (uint64_t)(uintptr_t)c) / 4;

				v = f == 0   ? (uint64_t)(uintptr_t)c->data
				    : f == 1 ? (uint64_t)(uintptr_t)c->data_end
				    : f == 2 ? (uint64_t)(uintptr_t)c->data_meta
					     : c->field[f];
			} else {
				v = load(addr, size);
				if (BPF_MODE(in->code) == BPF_MEMSX)
					v = size == 1   ? (uint64_t)(int64_t)(int8_t)v
					    : size == 2 ? (uint64_t)(int64_t)(int16_t)v
							: (uint64_t)(int64_t)(int32_t)v;
			}
			r[in->dst_reg] = v;
			pc++;
			break;
		}
		case BPF_ST:
		case BPF_STX: {
			uint64_t addr = r[in->dst_reg] + (uint64_t)(int64_t)in->off;
			int size = insn_size(in->code);

			if (cls == BPF_ST) {
				store(addr, size, (uint64_t)(int64_t)in->imm);
			} else if (BPF_MODE(in->code) == BPF_MEM) {
				store(addr, size, r[in->src_reg]);
			} else if (BPF_MODE(in->code) == BPF_ATOMIC) {
				uint64_t old = load(addr, size), src = r[in->src_reg], nv = old;

				switch (in->imm & ~BPF_FETCH) {
				case BPF_ADD: nv = old + src; break;
				case BPF_AND: nv = old & src; break;
				case BPF_OR: nv = old | src; break;
				case BPF_XOR: nv = old ^ src; break;
				default:
					if (in->imm == BPF_XCHG) {
						nv = src;
					} else if (in->imm == BPF_CMPXCHG) {
						uint64_t cmp = size == 4 ? (uint32_t)r[0] : r[0];

						nv = old == cmp ? src : old;
					} else {
						return -ENOTSUP;
					}
				}
				store(addr, size, nv);
				if (in->imm == BPF_CMPXCHG)
					r[0] = old;
				else if (in->imm & BPF_FETCH)
					r[in->src_reg] = old;
			} else {
				return -ENOTSUP;
			}
			pc++;
			break;
		}
		case BPF_LD:
			if (in->code != (BPF_LD | BPF_IMM | BPF_DW) || pc + 1 >= n)
				return -ENOTSUP;
			err = ld_imm64(ct, in, &r[in->dst_reg]);
			if (err)
				return err;
			pc += 2;
			break;
		case BPF_JMP:
		case BPF_JMP32:
			w = cls == BPF_JMP32;
			if (op == BPF_EXIT) {
				if (!depth) {
					*ret = r[0];
					return 0;
				}
				depth--;
				memcpy(&r[6], stack[depth].saved, sizeof(stack[depth].saved));
				r[10] += COUNT_STACK;
				pc = stack[depth].pc;
				break;
			}
			if (op == BPF_CALL) {
				if (in->src_reg == BPF_PSEUDO_CALL) {
					if (depth + 1 >= COUNT_FRAMES)
						return -E2BIG;
					stack[depth].pc = pc + 1;
					memcpy(stack[depth].saved, &r[6], sizeof(stack[depth].saved));
					depth++;
					r[10] -= COUNT_STACK;
					pc = (uint32_t)((int64_t)pc + 1 + in->imm);
					break;
				}
				if (in->src_reg == BPF_PSEUDO_KFUNC_CALL &&
				    in->imm == HWXDP_KFUNC_ESP_ENCAP) {
					/* an int, as the device's unit gives it */
					r[0] = (uint64_t)(int64_t)(int32_t)esp_encap(
						ct, c, (uint32_t)r[2], (uint32_t)r[3]);
					pc++;
					break;
				}
				if (in->src_reg == BPF_PSEUDO_KFUNC_CALL && !in->off &&
				    hwxdp_kfunc__is_xdp_metadata(in->imm)) {
					r[0] = HWXDP_KFUNC_XDP_METADATA_RESULT;
					pc++;
					break;
				}
				if (in->src_reg == BPF_PSEUDO_KFUNC_CALL && !in->off &&
				    hwxdp_kfunc__is_lowered(in->imm)) {
					lowered_kfunc(c, in->imm, r);
					pc++;
					break;
				}
				if (!in->src_reg && in->imm == BPF_FUNC_tail_call && ct->prog_cnt &&
				    !depth) {
					if (tail_call(ct, r[2], r[3], &tail_calls, &to)) {
						insns = to->insns;
						n = (uint32_t)to->insn_cnt;
						pc = 0;
						break;
					}
					/* on: r0 is not set, as the helper's void */
					pc++;
					break;
				}
				if (in->src_reg == BPF_PSEUDO_KFUNC_CALL || in->imm == BPF_FUNC_tail_call)
					return -ENOTSUP;
				err = helper(ct, c, in->imm, r);
				if (err)
					return err;
				pc++;
				break;
			}
			if (op == BPF_JA) {
				pc = (uint32_t)((int64_t)pc + 1 + (w ? in->imm : in->off));
				break;
			}
			v = BPF_SRC(in->code) == BPF_K ? (uint64_t)(int64_t)in->imm : r[in->src_reg];
			if (cond(op, r[in->dst_reg], v, w))
				pc = (uint32_t)((int64_t)pc + 1 + in->off);
			else
				pc++;
			break;
		default:
			return -ENOTSUP;
		}
	}
}

static int count_run(struct hx_target *target, uint32_t ingress_ifindex, const uint8_t *frame,
		     size_t len, struct hx_result *result)
{
	struct count_target *ct = target->priv;
	struct count_ctx c = { .field = { 0, 0, 0, ingress_ifindex, 0, 0 },
			       .egress = HWXDP_EGRESS_NONE };
	uint64_t ret;
	size_t meta_len;
	int err;

	if (len < HXU_ETH_HLEN || len > HXU_FRAME_MAX)
		return -EINVAL;
	memset(ct->window, 0, HXU_WINDOW_SIZE);
	memcpy(ct->window + HXU_HEADROOM, frame, len);
	c.data = c.data_meta = ct->window + HXU_HEADROOM;
	c.data_end = c.data + len;
	ct->executed = 0;
	err = interpret(ct, &c, &ret);
	if (err) {
		pr_warn("count target: frame stopped after %llu instructions: %d\n",
			(unsigned long long)ct->executed, err);
		return err;
	}
	result->action = (uint32_t)ret;
	result->has_meta = false;
	meta_len = (size_t)(c.data - c.data_meta);
	if (meta_len >= sizeof(result->meta)) {
		memcpy(&result->meta, c.data - sizeof(result->meta), sizeof(result->meta));
		result->has_meta = true;
	}
	result->len = (size_t)(c.data_end - c.data);
	if (result->len > sizeof(result->frame))
		return -EMSGSIZE;
	memcpy(result->frame, c.data, result->len);
	result->egress_known = true;
	result->egress = c.egress;
	return 0;
}

static int count_stats(struct hx_target *target, struct hx_run_stats *stats)
{
	struct count_target *ct = target->priv;

	memset(stats, 0, sizeof(*stats));
	stats->ops = ct->executed;
	stats->bundles = ct->executed;
	stats->bpf_insns = ct->prog->insn_cnt;
	return 0;
}

const struct hx_target_ops hx_count_target = {
	.name = "count",
	.open = count_open,
	.map_update = count_map_update,
	.map_lookup = count_map_lookup,
	.map_delete = count_map_delete,
	.run = count_run,
	.stats = count_stats,
	.esp_sa = count_esp_sa,
	.close = count_close,
};

struct hx_target *hx_count_target_open(const char *object_path)
{
	return hx_count_target_open_prog(object_path, NULL);
}

void hx_count_target_on_miss(struct hx_target *target, hx_count_miss_fn fn, void *arg)
{
	struct count_target *ct = target->priv;

	ct->on_miss = fn;
	ct->miss_arg = arg;
}

struct hx_target *hx_count_target_open_prog(const char *object_path, const char *prog)
{
	struct hx_target *target = calloc(1, sizeof(*target));
	int err;

	if (!target)
		return NULL;
	target->ops = &hx_count_target;
	err = count_open_prog(target, object_path, prog);
	if (err) {
		free(target);
		errno = -err;
		return NULL;
	}
	return target;
}
