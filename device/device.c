// SPDX-License-Identifier: GPL-2.0
/*
 * The board: engine threads, the program slots of the ports, the shared
 * microcode store's budget and table memory, and the counters.
 *
 * Each engine thread holds one hwxdp_engine per loaded program (an engine
 * is pre-decoded for one image and is not thread safe), a packet window and
 * its own counters, so that a frame touches nothing another thread writes
 * except table memory. Counters are summed when asked for, between batches.
 *
 * Ports live in a small open-addressing table keyed by ifindex. A port is
 * never removed, so a reader's probe needs no sequence counter: the writer
 * fills a port entry before it publishes the ifindex (release), and readers
 * load the ifindex with acquire. A slot is one 32-bit word, the program id:
 * a replace is one store, and an engine loads it once per frame.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/bpf.h>

#include "device/device.h"
#include "device/tables.h"
#include "hwmap/hash.h"
#include "hwmap/hxu.h"
#include "hwxdp/platform.h"
#include "hwxdp/object.h"
#include "loader/device.h"
#include "base/log.h"

/* Twice the ports, so probes stay short. */
#define PORT_BUCKETS (2 * HWXDP_DEVICE_PORTS)
#define TABLE_SEED   0x6877786470ull

/* Table memory that one or more programs use. */
struct table_mem {
	struct hwxdp_tables *tables;
	uint32_t users;
};

struct program {
	bool used;
	uint32_t words;
	uint32_t entry;
	struct table_mem *mem;
	struct hwxdp_device_prog *dp; /* loaded from an object; NULL for an image */
};

struct port {
	uint32_t ifindex; /* 0: free; written once, with release */
	uint32_t slot;	  /* program id or HWXDP_DEVICE_PROG_NONE */
	uint32_t order;	  /* index in creation order, for the counters */
};

struct counters {
	uint64_t frames, bytes;
	uint64_t verdicts[HWXDP_DEVICE_VERDICTS];
	uint64_t no_program, invalid, redirect_nowhere;
	uint64_t punts[HWXDP_DEVICE_REASONS];
	uint64_t ops, bundles, cycles;
	struct hwxdp_device_port_stats port[HWXDP_DEVICE_PORTS];
};

struct worker {
	struct hwxdp_device *d;
	uint32_t index;
	pthread_t thread;
	bool started;
	uint64_t seen; /* the last batch generation it ran */
	uint8_t *window;
	struct hwxdp_engine *engine[HWXDP_DEVICE_PROGS];
	struct counters count;
	size_t scan; /* frames of this batch before it are all past their ESP */
	size_t at;   /* the frame it runs */
	struct hwxdp_esp_order esp_order;
};

struct hwxdp_device {
	uint32_t engine_cnt;
	bool cost;
	bool any_egress; /* opts.any_egress */
	struct hwxdp_table_size *sizes;
	size_t size_cnt;

	/* Load, unload, attach, detach: one at a time. */
	pthread_mutex_t ctl_lock;
	struct program prog[HWXDP_DEVICE_PROGS];
	uint32_t store_used;
	struct port ports[PORT_BUCKETS];
	uint32_t port_cnt;

	/* One batch at a time; unload and stats wait for it. */
	pthread_mutex_t batch_lock;
	uint8_t *assign; /* engine of each frame of the batch */
	uint8_t *passed; /* each frame: done, or past its ESP step */
	size_t assign_cap;

	/* Hand-off to the engine threads. */
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	uint64_t gen;
	uint32_t pending;
	bool stop;
	struct hwxdp_device_frame *frames;
	size_t frame_cnt;

	struct worker worker[];
};

/* ---- ports ---- */

static inline uint32_t port_bucket(uint32_t ifindex)
{
	return (ifindex * 0x9e3779b1u) >> 23; /* 9 bits: PORT_BUCKETS */
}

/* The port of ifindex, or NULL; safe against a concurrent add. */
static struct port *port_find(struct hwxdp_device *d, uint32_t ifindex)
{
	for (uint32_t i = port_bucket(ifindex), n = 0; n < PORT_BUCKETS;
	     i = (i + 1) % PORT_BUCKETS, n++) {
		uint32_t at = __atomic_load_n(&d->ports[i].ifindex, __ATOMIC_ACQUIRE);

		if (at == ifindex)
			return &d->ports[i];
		if (!at)
			return NULL;
	}
	return NULL;
}

/* Under ctl_lock. */
static int port_add(struct hwxdp_device *d, uint32_t ifindex, struct port **out)
{
	struct port *p = port_find(d, ifindex);
	uint32_t i;

	if (!ifindex)
		return -EINVAL;
	if (p) {
		*out = p;
		return 0;
	}
	if (d->port_cnt == HWXDP_DEVICE_PORTS)
		return -ENOSPC;
	for (i = port_bucket(ifindex); d->ports[i].ifindex; i = (i + 1) % PORT_BUCKETS)
		;
	p = &d->ports[i];
	p->slot = HWXDP_DEVICE_PROG_NONE;
	p->order = d->port_cnt++;
	__atomic_store_n(&p->ifindex, ifindex, __ATOMIC_RELEASE);
	*out = p;
	return 0;
}

/* ---- flows to engines ---- */

static inline uint32_t get16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static inline uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

/*
 * What a NIC's receive-side scaling hashes: the addresses, the protocol and
 * (for an unfragmented TCP, UDP or SCTP packet) the ports, behind up to two
 * VLAN tags. A frame it cannot read hashes by its port alone; all that
 * matters is that one flow always gives one value.
 */
static uint32_t flow_hash(const uint8_t *p, uint32_t len, uint32_t port)
{
	uint64_t h = mix(0x6877786470ull, port);
	uint32_t off = 12, type, l4 = 0, proto = 0, i;

	if (len < 14)
		return (uint32_t)(h >> 32);
	type = get16(p + off);
	for (i = 0; i < 2 && (type == 0x8100 || type == 0x88a8) && off + 6 <= len; i++) {
		off += 4;
		type = get16(p + off);
	}
	off += 2;
	if (type == 0x0800 && off + 20 <= len) {
		const uint8_t *ip = p + off;

		proto = ip[9];
		for (i = 12; i < 20; i += 4)
			h = mix(h, (uint64_t)get16(ip + i) << 16 | get16(ip + i + 2));
		if (!(get16(ip + 6) & 0x3fff))
			l4 = off + (ip[0] & 0xf) * 4u;
	} else if (type == 0x86dd && off + 40 <= len) {
		const uint8_t *ip = p + off;

		proto = ip[6];
		for (i = 8; i < 40; i += 4)
			h = mix(h, (uint64_t)get16(ip + i) << 16 | get16(ip + i + 2));
		l4 = off + 40;
	}
	h = mix(h, type << 8 | proto);
	if (l4 && (proto == 6 || proto == 17 || proto == 132) && l4 + 4 <= len)
		h = mix(h, (uint64_t)get16(p + l4) << 16 | get16(p + l4 + 2));
	return (uint32_t)(h >> 32);
}

/* ---- running frames ---- */

static void count_frame(struct counters *c, struct hwxdp_device_port_stats *ps,
			const struct hwxdp_device_frame *fr)
{
	uint32_t v =
		fr->verdict < HWXDP_DEVICE_VERDICTS - 1 ? fr->verdict : HWXDP_DEVICE_VERDICTS - 1;
	uint32_t r = fr->reason < HWXDP_DEVICE_REASONS - 1 ? fr->reason : HWXDP_DEVICE_REASONS - 1;

	c->frames++;
	c->bytes += fr->len;
	if (ps) {
		ps->frames++;
		ps->bytes += fr->len;
	}
	if (fr->error == -EINVAL) {
		c->invalid++;
		return;
	}
	if (fr->prog == HWXDP_DEVICE_PROG_NONE) {
		c->no_program++;
		if (ps)
			ps->no_program++;
		return;
	}
	c->verdicts[v]++;
	if (ps)
		ps->verdicts[v]++;
	if (fr->verdict == XDP_REDIRECT && fr->egress == HWXDP_EGRESS_NONE)
		c->redirect_nowhere++;
	if (fr->verdict != XDP_PASS)
		return;
	c->punts[r]++;
	if (ps)
		ps->punts[r]++;
}

static void copy_out(struct hwxdp_device_frame *fr, const uint8_t *bytes, uint32_t len)
{
	fr->out_len = len;
	if (fr->out && len <= fr->out_cap)
		memmove(fr->out, bytes, len);
}

/*
 * The crypto engine numbers an SA's packets in arrival order, whatever the
 * engines: a frame's ESP step waits until every earlier frame of the batch
 * is done or past its own. An engine takes its frames in arrival order, so
 * the earliest frame not done never waits, and the wait always ends.
 */
static void esp_wait(void *arg)
{
	struct worker *w = arg;

	for (; w->scan < w->at; w->scan++)
		while (!__atomic_load_n(&w->d->passed[w->scan], __ATOMIC_ACQUIRE))
			sched_yield();
}

static void esp_passed(void *arg)
{
	struct worker *w = arg;

	__atomic_store_n(&w->d->passed[w->at], 1, __ATOMIC_RELEASE);
}

static void run_frame(struct worker *w, struct hwxdp_device_frame *fr)
{
	struct hwxdp_device *d = w->d;
	struct port *port = port_find(d, fr->port);
	struct hwxdp_device_port_stats *ps = port ? &w->count.port[port->order] : NULL;
	struct hwxdp_run_stats *cost = d->cost ? &fr->cost : NULL;
	struct hwxdp_frame f;
	uint32_t slot;
	int err;

	fr->verdict = XDP_ABORTED;
	fr->egress = HWXDP_EGRESS_NONE;
	fr->reason = 0;
	fr->error = 0;
	fr->fault_op = 0;
	fr->engine = w->index;
	fr->meta_len = 0;
	fr->out_len = 0;
	fr->cost = (struct hwxdp_run_stats){ 0 };
	/* The one read of the slot for this frame: whatever happens to it
	 * from here on, this frame runs this program to the end. */
	slot = port ? __atomic_load_n(&port->slot, __ATOMIC_ACQUIRE) : HWXDP_DEVICE_PROG_NONE;
	fr->prog = slot;
	if (fr->len < HXU_ETH_HLEN || fr->len > HXU_FRAME_MAX || !fr->data) {
		fr->error = -EINVAL;
		goto out;
	}
	if (slot == HWXDP_DEVICE_PROG_NONE) {
		fr->verdict = XDP_PASS;
		copy_out(fr, fr->data, fr->len);
		goto out;
	}
	f = (struct hwxdp_frame){
		.window = w->window,
		.ingress = fr->port,
		.rx_queue = fr->rx_queue,
		.esp_order = d->engine_cnt > 1 ? &w->esp_order : NULL,
	};
	hwxdp_frame__place(&f, fr->data, fr->len);
	err = hwxdp_engine__run(w->engine[slot], d->prog[slot].entry, &f, cost);
	if (err) {
		fr->error = f.error ? f.error : (err < 0 ? err : -err);
		fr->fault_op = f.fault_op;
		fr->verdict = XDP_ABORTED;
		goto out;
	}
	fr->verdict = f.verdict;
	/* A redirect to an ifindex the board has no port of goes nowhere, as
	 * the kernel's to an ifindex no device has: dropped, and counted. A
	 * broadcast's ports are the table's when the frame is sent. */
	fr->egress = f.egress != HWXDP_EGRESS_NONE &&
				     (d->any_egress || hwxdp_egress_is_bcast(f.egress) ||
				      port_find(d, f.egress))
			     ? f.egress
			     : HWXDP_EGRESS_NONE;
	fr->reason = f.reason;
	fr->meta_len = f.data - f.data_meta;
	if (fr->meta_len) {
		uint32_t n =
			fr->meta_len < HWXDP_DEVICE_META_MAX ? fr->meta_len : HWXDP_DEVICE_META_MAX;

		memcpy(fr->meta, w->window + f.data - n, n);
	}
	/* A program that punts through XDP_PASS says why in its metadata
	 * (include/hwxdp/platform.h, struct hwxdp_meta). */
	if (f.verdict == XDP_PASS && !fr->reason && fr->meta_len == sizeof(struct hwxdp_meta)) {
		struct hwxdp_meta meta;

		memcpy(&meta, fr->meta, sizeof(meta));
		fr->reason = meta.reason;
	}
	copy_out(fr, w->window + f.data, f.data_end - f.data);
out:
	w->count.ops += fr->cost.ops;
	w->count.bundles += fr->cost.bundles;
	w->count.cycles += fr->cost.cycles;
	count_frame(&w->count, ps, fr);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct hwxdp_device *d = w->d;

	for (;;) {
		struct hwxdp_device_frame *frames;
		size_t n;

		pthread_mutex_lock(&d->lock);
		while (d->gen == w->seen && !d->stop)
			pthread_cond_wait(&d->work, &d->lock);
		if (d->stop) {
			pthread_mutex_unlock(&d->lock);
			return NULL;
		}
		w->seen = d->gen;
		frames = d->frames;
		n = d->frame_cnt;
		pthread_mutex_unlock(&d->lock);

		w->scan = 0;
		for (size_t i = 0; i < n; i++) {
			if (d->assign[i] != w->index)
				continue;
			w->at = i;
			run_frame(w, &frames[i]);
			__atomic_store_n(&d->passed[i], 1, __ATOMIC_RELEASE);
		}

		pthread_mutex_lock(&d->lock);
		if (!--d->pending)
			pthread_cond_signal(&d->done);
		pthread_mutex_unlock(&d->lock);
	}
}

int hwxdp_device__run_batch(struct hwxdp_device *d, struct hwxdp_device_frame *frames, size_t n)
{
	if (!d || (n && !frames))
		return -EINVAL;
	if (!n)
		return 0;
	pthread_mutex_lock(&d->batch_lock);
	if (n > d->assign_cap) {
		uint8_t *a = realloc(d->assign, n), *p;

		if (a)
			d->assign = a;
		p = a ? realloc(d->passed, n) : NULL;
		if (!p) {
			pthread_mutex_unlock(&d->batch_lock);
			return -ENOMEM;
		}
		d->passed = p;
		d->assign_cap = n;
	}
	memset(d->passed, 0, n);
	for (size_t i = 0; i < n; i++) {
		const struct hwxdp_device_frame *fr = &frames[i];

		d->assign[i] =
			(uint8_t)(d->engine_cnt == 1
					  ? 0
					  : flow_hash(fr->data, fr->data ? fr->len : 0, fr->port) %
						    d->engine_cnt);
	}
	pthread_mutex_lock(&d->lock);
	d->frames = frames;
	d->frame_cnt = n;
	d->pending = d->engine_cnt;
	d->gen++;
	pthread_cond_broadcast(&d->work);
	while (d->pending)
		pthread_cond_wait(&d->done, &d->lock);
	d->frames = NULL;
	d->frame_cnt = 0;
	pthread_mutex_unlock(&d->lock);
	pthread_mutex_unlock(&d->batch_lock);
	return 0;
}

/* ---- the board ---- */

static int copy_sizes(struct hwxdp_device *d, const struct hwxdp_table_size *sizes, size_t cnt)
{
	if (!sizes)
		cnt = 0;
	d->sizes = calloc(cnt ? cnt : 1, sizeof(*d->sizes));
	if (!d->sizes)
		return -ENOMEM;
	for (size_t i = 0; i < cnt; i++) {
		d->sizes[i].max_entries = sizes[i].max_entries;
		d->sizes[i].name = strdup(sizes[i].name ? sizes[i].name : "");
		d->size_cnt = i + 1;
		if (!d->sizes[i].name)
			return -ENOMEM;
	}
	return 0;
}

struct hwxdp_device *hwxdp_device__new(const struct hwxdp_device_opts *opts)
{
	struct hwxdp_device_opts o = { .sz = sizeof(o) };
	struct hwxdp_device *d;
	uint32_t k;
	int err;

	if (opts) {
		if (opts->sz < sizeof(size_t)) {
			errno = EINVAL;
			return NULL;
		}
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	}
	k = o.engines ? o.engines : HWXDP_DEVICE_ENGINES_DEFAULT;
	if (k > HWXDP_DEVICE_ENGINES_MAX) {
		errno = EINVAL;
		return NULL;
	}
	d = calloc(1, sizeof(*d) + k * sizeof(d->worker[0]));
	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	d->engine_cnt = k;
	d->cost = !o.no_cost;
	d->any_egress = o.any_egress;
	pthread_mutex_init(&d->ctl_lock, NULL);
	pthread_mutex_init(&d->batch_lock, NULL);
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->work, NULL);
	pthread_cond_init(&d->done, NULL);
	err = copy_sizes(d, o.sizes, o.size_cnt);
	for (uint32_t i = 0; !err && i < k; i++) {
		struct worker *w = &d->worker[i];

		w->d = d;
		w->index = i;
		w->esp_order = (struct hwxdp_esp_order){ esp_wait, esp_passed, w };
		w->window = aligned_alloc(64, (HXU_WINDOW_SIZE + 63) & ~63u);
		if (!w->window) {
			err = -ENOMEM;
			break;
		}
		err = -pthread_create(&w->thread, NULL, worker_main, w);
		w->started = !err;
	}
	if (err) {
		hwxdp_device__free(d);
		errno = -err;
		return NULL;
	}
	return d;
}

static void table_mem_put(struct table_mem *mem)
{
	if (!mem || --mem->users)
		return;
	hwxdp_tables__free(mem->tables);
	free(mem);
}

/* Under ctl_lock, with no batch running. */
static void program_free(struct hwxdp_device *d, uint32_t id)
{
	struct program *p = &d->prog[id];

	for (uint32_t i = 0; i < d->engine_cnt; i++) {
		hwxdp_engine__free(d->worker[i].engine[id]);
		d->worker[i].engine[id] = NULL;
	}
	hwxdp_device_prog__close(p->dp);
	table_mem_put(p->mem);
	d->store_used -= p->words;
	memset(p, 0, sizeof(*p));
}

void hwxdp_device__free(struct hwxdp_device *d)
{
	if (!d)
		return;
	pthread_mutex_lock(&d->lock);
	d->stop = true;
	pthread_cond_broadcast(&d->work);
	pthread_mutex_unlock(&d->lock);
	for (uint32_t i = 0; i < d->engine_cnt; i++) {
		if (d->worker[i].started)
			pthread_join(d->worker[i].thread, NULL);
		free(d->worker[i].window);
	}
	for (uint32_t i = 0; i < HWXDP_DEVICE_PROGS; i++)
		if (d->prog[i].used)
			program_free(d, i);
	for (size_t i = 0; i < d->size_cnt; i++)
		free((void *)d->sizes[i].name);
	free(d->sizes);
	free(d->assign);
	free(d->passed);
	pthread_cond_destroy(&d->work);
	pthread_cond_destroy(&d->done);
	pthread_mutex_destroy(&d->lock);
	pthread_mutex_destroy(&d->batch_lock);
	pthread_mutex_destroy(&d->ctl_lock);
	free(d);
}

uint32_t hwxdp_device__engines(const struct hwxdp_device *d)
{
	return d->engine_cnt;
}

/* ---- programs ---- */

static int free_prog_id(struct hwxdp_device *d, char *msg, size_t msglen)
{
	for (uint32_t i = 0; i < HWXDP_DEVICE_PROGS; i++)
		if (!d->prog[i].used)
			return (int)i;
	snprintf(msg, msglen, "the board holds %d programs already", HWXDP_DEVICE_PROGS);
	return -ENOSPC;
}

static int load_opts(const struct hwxdp_device_load_opts *opts, struct hwxdp_device_load_opts *o)
{
	*o = (struct hwxdp_device_load_opts){ .sz = sizeof(*o) };
	if (!opts)
		return 0;
	if (opts->sz < sizeof(size_t))
		return -EINVAL;
	memcpy(o, opts, opts->sz < sizeof(*o) ? opts->sz : sizeof(*o));
	return 0;
}

/* The table memory a load asks to share, or NULL with msg. */
static struct table_mem *shared_mem(struct hwxdp_device *d, const struct hwxdp_device_load_opts *o,
				    char *msg, size_t msglen)
{
	if (o->tables_of >= HWXDP_DEVICE_PROGS || !d->prog[o->tables_of].used) {
		snprintf(msg, msglen, "no program %u to share tables with", o->tables_of);
		return NULL;
	}
	return d->prog[o->tables_of].mem;
}

/*
 * Puts img in the store as program id, on mem's tables: the store's budget
 * first, then the device's checks, then an engine per thread. The program
 * is visible to ports only once this returns (attach publishes it).
 */
static int install(struct hwxdp_device *d, uint32_t id, const struct hxu_image *img,
		   struct table_mem *mem, uint32_t entry, const char *what, char *msg,
		   size_t msglen)
{
	struct hwxdp_engine *engine[HWXDP_DEVICE_ENGINES_MAX] = { 0 };
	char why[256];
	int err;

	if (entry >= img->prog_cnt) {
		snprintf(msg, msglen, "%s: no program %u in the image (it has %u)", what, entry,
			 img->prog_cnt);
		return -EINVAL;
	}
	if (img->op_cnt > HXU_STORE_WORDS - d->store_used) {
		snprintf(msg, msglen,
			 "%s: its microcode does not fit: %u operation words, and the store has "
			 "%u of its %u free",
			 what, img->op_cnt, HXU_STORE_WORDS - d->store_used, HXU_STORE_WORDS);
		return -ENOSPC;
	}
	err = hwxdp_engine__check(img, mem->tables, why, sizeof(why));
	if (err) {
		snprintf(msg, msglen, "%s: the device refuses the microcode: %s", what,
			 err == -ENOMEM ? strerror(ENOMEM) : why);
		return err == -ENOMEM ? err : -EINVAL;
	}
	for (uint32_t i = 0; i < d->engine_cnt; i++) {
		engine[i] = hwxdp_engine__new(img, mem->tables);
		if (!engine[i]) {
			err = -errno;
			snprintf(msg, msglen, "%s: engine %u: %s", what, i,
				 hwxdp_error_message(err));
			while (i--)
				hwxdp_engine__free(engine[i]);
			return err;
		}
		/* `cpu` reads the engine number, as bpf_get_smp_processor_id
		 * reads the CPU; random numbers repeat from run to run. */
		hwxdp_engine__set_cpu(engine[i], i);
		hwxdp_engine__set_rand_seed(engine[i], 1 + i);
	}
	for (uint32_t i = 0; i < d->engine_cnt; i++)
		d->worker[i].engine[id] = engine[i];
	d->prog[id] = (struct program){
		.used = true,
		.words = img->op_cnt,
		.entry = entry,
		.mem = mem,
	};
	mem->users++;
	d->store_used += img->op_cnt;
	return 0;
}

int hwxdp_device__load(struct hwxdp_device *d, const char *path,
		       const struct hwxdp_device_load_opts *opts, char *msg, size_t msglen)
{
	struct hwxdp_device_prog_opts popts = {
		.sz = sizeof(popts),
		.sizes = d->sizes,
		.size_cnt = d->size_cnt,
		.no_engine = true,
		.engines = d->engine_cnt,
	};
	struct hwxdp_device_load_opts o;
	struct hwxdp_device_prog *dp = NULL;
	struct table_mem *mem = NULL, *own = NULL;
	struct timespec t0, t1;
	int id, err;

	if (load_opts(opts, &o)) {
		snprintf(msg, msglen, "%s: bad load options", path);
		return -EINVAL;
	}
	pthread_mutex_lock(&d->ctl_lock);
	id = free_prog_id(d, msg, msglen);
	if (id < 0) {
		err = id;
		goto out;
	}
	if (o.share_tables) {
		mem = shared_mem(d, &o, msg, msglen);
		if (!mem) {
			err = -ENOENT;
			goto out;
		}
		popts.tables = mem->tables;
	}
	popts.array_memory = o.array_memory;
	popts.array_memory_ctx = o.array_memory_ctx;
	popts.prog = o.prog;
	err = hwxdp_device_prog__open_opts(path, &popts, &dp, msg, msglen);
	if (err)
		goto out;
	if (!hwxdp_port_prog_type(dp->prog->type, dp->prog->expected_attach_type)) {
		snprintf(msg, msglen,
			 "%s: %s runs in a devmap entry (SEC(\"xdp/devmap\")), not on a port: "
			 "load the program that redirects into the devmap",
			 path, dp->prog->name);
		err = -EINVAL;
		goto out;
	}
	if (!mem) {
		own = calloc(1, sizeof(*own));
		if (!own) {
			snprintf(msg, msglen, "%s: %s", path, strerror(ENOMEM));
			err = -ENOMEM;
			goto out;
		}
		/* The board owns the table memory from here: another program
		 * may come to share it and outlive this one. */
		own->tables = dp->tables;
		dp->tables_shared = true;
		mem = own;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = install(d, (uint32_t)id, dp->img, mem, o.entry, path, msg, msglen);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	dp->times.install_ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u +
			       (uint64_t)t1.tv_nsec - (uint64_t)t0.tv_nsec;
	if (!err) {
		d->prog[id].dp = dp;
		dp = NULL;
		own = NULL;
	}
out:
	if (own) {
		hwxdp_tables__free(own->tables);
		free(own);
	}
	hwxdp_device_prog__close(dp);
	pthread_mutex_unlock(&d->ctl_lock);
	return err ? err : id;
}

int hwxdp_device__load_image(struct hwxdp_device *d, const struct hxu_image *img,
			     const struct hwxdp_device_load_opts *opts, char *msg, size_t msglen)
{
	const char *what = img && img->prog_cnt ? img->progs[0].name : "image";
	struct hwxdp_device_load_opts o;
	struct table_mem *mem = NULL, *own = NULL;
	int id, err;

	if (!img || load_opts(opts, &o)) {
		snprintf(msg, msglen, "bad arguments");
		return -EINVAL;
	}
	pthread_mutex_lock(&d->ctl_lock);
	id = free_prog_id(d, msg, msglen);
	if (id < 0) {
		err = id;
		goto out;
	}
	if (o.share_tables) {
		mem = shared_mem(d, &o, msg, msglen);
		if (!mem) {
			err = -ENOENT;
			goto out;
		}
	} else {
		err = -ENOMEM;
		snprintf(msg, msglen, "%s: %s", what, strerror(ENOMEM));
		own = calloc(1, sizeof(*own));
		if (!own)
			goto out;
		own->tables = hwxdp_tables__new();
		if (!own->tables)
			goto out;
		hwxdp_tables__set_seed(own->tables, TABLE_SEED);
		/* A per-CPU table holds a copy per engine of this board. */
		err = hwxdp_tables__set_engines(own->tables, d->engine_cnt);
		if (err) {
			snprintf(msg, msglen, "%s: %u engines: %s", what, d->engine_cnt,
				 strerror(-err));
			goto out;
		}
		/* Only the store's budget is checked before making tables that
		 * would be thrown away. */
		if (img->op_cnt <= HXU_STORE_WORDS - d->store_used) {
			err = hwxdp_tables__create_all(own->tables, img);
			if (err) {
				snprintf(msg, msglen, "%s: the device cannot hold its tables: %s",
					 what, hwxdp_error_message(err));
				goto out;
			}
		}
		mem = own;
	}
	err = install(d, (uint32_t)id, img, mem, o.entry, what, msg, msglen);
	if (!err)
		own = NULL;
out:
	if (own) {
		hwxdp_tables__free(own->tables);
		free(own);
	}
	pthread_mutex_unlock(&d->ctl_lock);
	return err ? err : id;
}

static bool prog_attached(struct hwxdp_device *d, uint32_t id)
{
	for (uint32_t i = 0; i < PORT_BUCKETS; i++)
		if (d->ports[i].ifindex &&
		    __atomic_load_n(&d->ports[i].slot, __ATOMIC_RELAXED) == id)
			return true;
	return false;
}

int hwxdp_device__unload(struct hwxdp_device *d, uint32_t prog)
{
	int err = 0;

	pthread_mutex_lock(&d->ctl_lock);
	if (prog >= HWXDP_DEVICE_PROGS || !d->prog[prog].used) {
		err = -ENOENT;
	} else if (prog_attached(d, prog)) {
		err = -EBUSY;
	} else {
		/* A frame of the running batch may have read a slot that
		 * held this program just before it was emptied. */
		pthread_mutex_lock(&d->batch_lock);
		program_free(d, prog);
		pthread_mutex_unlock(&d->batch_lock);
	}
	pthread_mutex_unlock(&d->ctl_lock);
	return err;
}

/* ---- ports and slots ---- */

int hwxdp_device__add_port(struct hwxdp_device *d, uint32_t ifindex)
{
	struct port *p;
	int err;

	pthread_mutex_lock(&d->ctl_lock);
	err = port_add(d, ifindex, &p);
	pthread_mutex_unlock(&d->ctl_lock);
	return err;
}

int hwxdp_device__attach(struct hwxdp_device *d, uint32_t ifindex, uint32_t prog)
{
	struct port *p;
	int err;

	pthread_mutex_lock(&d->ctl_lock);
	if (prog >= HWXDP_DEVICE_PROGS || !d->prog[prog].used) {
		err = -ENOENT;
		goto out;
	}
	err = port_add(d, ifindex, &p);
	if (err)
		goto out;
	/* Release: an engine that reads this id finds the program's engine
	 * and tables complete. */
	__atomic_store_n(&p->slot, prog, __ATOMIC_RELEASE);
out:
	pthread_mutex_unlock(&d->ctl_lock);
	return err;
}

int hwxdp_device__detach(struct hwxdp_device *d, uint32_t ifindex)
{
	struct port *p;
	int err = 0;

	pthread_mutex_lock(&d->ctl_lock);
	p = port_find(d, ifindex);
	if (!p || __atomic_exchange_n(&p->slot, HWXDP_DEVICE_PROG_NONE, __ATOMIC_RELEASE) ==
			  HWXDP_DEVICE_PROG_NONE)
		err = -ENOENT;
	pthread_mutex_unlock(&d->ctl_lock);
	return err;
}

uint32_t hwxdp_device__slot(struct hwxdp_device *d, uint32_t ifindex)
{
	struct port *p = port_find(d, ifindex);

	return p ? __atomic_load_n(&p->slot, __ATOMIC_ACQUIRE) : HWXDP_DEVICE_PROG_NONE;
}

/* ---- what the board holds ---- */

static struct program *program_at(struct hwxdp_device *d, uint32_t id)
{
	return id < HWXDP_DEVICE_PROGS && d->prog[id].used ? &d->prog[id] : NULL;
}

struct hwxdp_tables *hwxdp_device__tables(struct hwxdp_device *d, uint32_t prog)
{
	struct program *p = program_at(d, prog);

	return p ? p->mem->tables : NULL;
}

/* The entries a broadcast frame fr goes to, the first cap of them into
 * entries or, their ifindexes, into ports (whichever is given): how many
 * there are, or -errno. */
static int broadcast_to(struct hwxdp_device *d, const struct hwxdp_device_frame *fr,
			struct hwxdp_port_entry *entries, uint32_t *ports, size_t cap)
{
	struct hwxdp_tables *tables;
	struct hwxdp_port_entry *e;
	struct hwxdp_table *tab;
	size_t n, max;
	int cnt = 0;

	if (fr->verdict != XDP_REDIRECT || !hwxdp_egress_is_bcast(fr->egress))
		return -EINVAL;
	tables = hwxdp_device__tables(d, fr->prog);
	tab = tables ? hwxdp_tables__get(tables, fr->egress & HWXDP_EGRESS_BCAST_TABLE) : NULL;
	if (!tab ||
	    (tab->desc.type != BPF_MAP_TYPE_DEVMAP && tab->desc.type != BPF_MAP_TYPE_DEVMAP_HASH))
		return -ENOENT;
	max = tab->desc.max_entries;
	e = malloc((max ? max : 1) * sizeof(*e));
	if (!e)
		return -ENOMEM;
	n = hwxdp_table__ports(tab, e, max);
	if (n > max)
		n = max;
	/* dev_map_enqueue_multi: one copy per entry, but for the ingress
	 * port with BPF_F_EXCLUDE_INGRESS */
	for (size_t i = 0; i < n && cnt < INT_MAX; i++) {
		if ((fr->egress & HWXDP_EGRESS_BCAST_EXCL) && e[i].ifindex == fr->port)
			continue;
		if (!d->any_egress && !port_find(d, e[i].ifindex))
			continue;
		if ((size_t)cnt < cap && entries)
			entries[cnt] = e[i];
		if ((size_t)cnt < cap && ports)
			ports[cnt] = e[i].ifindex;
		cnt++;
	}
	free(e);
	return cnt;
}

int hwxdp_device__broadcast_entries(struct hwxdp_device *d, const struct hwxdp_device_frame *fr,
				    struct hwxdp_port_entry *entries, size_t cap)
{
	return broadcast_to(d, fr, entries, NULL, cap);
}

int hwxdp_device__broadcast_ports(struct hwxdp_device *d, const struct hwxdp_device_frame *fr,
				  uint32_t *ports, size_t cap)
{
	return broadcast_to(d, fr, NULL, ports, cap);
}

int hwxdp_device__broadcast_copy(struct hwxdp_device *d, const struct hwxdp_device_frame *fr,
				 const struct hwxdp_port_entry *entry, uint8_t *out, size_t cap,
				 uint32_t *len)
{
	struct worker *w = &d->worker[0];
	struct hwxdp_engine *engine;
	struct hwxdp_frame f;
	int err;

	*len = 0;
	if (fr->verdict != XDP_REDIRECT || !hwxdp_egress_is_bcast(fr->egress) ||
	    fr->prog >= HWXDP_DEVICE_PROGS || fr->out_len > fr->out_cap ||
	    fr->out_len < HXU_ETH_HLEN || fr->out_len > HXU_FRAME_MAX || !entry->ifindex)
		return -EINVAL;
	if (!entry->prog) {
		if (cap < fr->out_len)
			return -ENOSPC;
		memcpy(out, fr->out, fr->out_len);
		*len = fr->out_len;
		return 1;
	}
	/* between batches, the first engine's window and copy of the image */
	pthread_mutex_lock(&d->batch_lock);
	engine = w->engine[fr->prog];
	if (!engine) {
		pthread_mutex_unlock(&d->batch_lock);
		return -ENOENT;
	}
	f = (struct hwxdp_frame){ .window = w->window,
				  .ingress = fr->port,
				  .rx_queue = fr->rx_queue };
	hwxdp_frame__place(&f, fr->out, fr->out_len);
	err = hwxdp_engine__run_egress(engine, entry->prog, &f, entry->ifindex, NULL);
	if (!err && f.egress != HWXDP_EGRESS_NONE) {
		*len = f.data_end - f.data;
		if (*len <= cap)
			memcpy(out, w->window + f.data, *len);
	}
	pthread_mutex_unlock(&d->batch_lock);
	if (err == -EINVAL)
		return err;
	if (*len > cap)
		return -ENOSPC;
	return *len ? 1 : 0;
}

struct hwxdp_table *hwxdp_device__table(struct hwxdp_device *d, uint32_t prog, const char *name)
{
	struct program *p = program_at(d, prog);

	if (!p)
		return NULL;
	if (p->dp)
		return hwxdp_device_prog__table(p->dp, name);
	for (uint32_t i = 0; i < HXU_TABLES; i++) {
		struct hwxdp_table *tab = hwxdp_tables__get(p->mem->tables, i);

		if (tab && !strncmp(tab->desc.name, name, HXU_NAME_MAX))
			return tab;
	}
	return NULL;
}

struct hwxdp_device_prog *hwxdp_device__prog(struct hwxdp_device *d, uint32_t prog)
{
	struct program *p = program_at(d, prog);

	return p ? p->dp : NULL;
}

uint32_t hwxdp_device__prog_words(struct hwxdp_device *d, uint32_t prog)
{
	struct program *p = program_at(d, prog);

	return p ? p->words : 0;
}

int hwxdp_device__table_update_batch(struct hwxdp_table *tab, const void *keys, const void *values,
				     uint32_t *count, uint64_t flags)
{
	int err;

	if (!tab || tab->desc.type != BPF_MAP_TYPE_HASH || !tab->hash) {
		*count = 0;
		return -EINVAL;
	}
	/* The table's one writer, as hwxdp_table__update is. */
	pthread_mutex_lock(&tab->write_lock);
	err = hwxdp_hash__update_batch(tab->hash, keys, values, count, flags);
	pthread_mutex_unlock(&tab->write_lock);
	return err;
}

size_t hwxdp_device__table_bytes(const struct hwxdp_table *tab)
{
	return hwxdp_table__memory(tab);
}

/* Under ctl_lock. */
static void memory_of(struct hwxdp_device *d, struct hwxdp_device_memory *mem)
{
	const struct table_mem *seen[HWXDP_DEVICE_PROGS];
	uint32_t seen_cnt = 0;

	*mem = (struct hwxdp_device_memory){
		.store_words = d->store_used,
		.store_capacity = HXU_STORE_WORDS,
	};
	for (uint32_t i = 0; i < HWXDP_DEVICE_PROGS; i++) {
		const struct table_mem *m = d->prog[i].mem;
		uint32_t j;

		if (!d->prog[i].used)
			continue;
		for (j = 0; j < seen_cnt && seen[j] != m; j++)
			;
		if (j < seen_cnt)
			continue;
		seen[seen_cnt++] = m;
		for (uint32_t t = 0; t < HXU_TABLES; t++) {
			const struct hwxdp_table *tab = hwxdp_tables__get(m->tables, t);

			if (!tab)
				continue;
			mem->table_bytes += hwxdp_device__table_bytes(tab);
			mem->table_cnt++;
		}
	}
}

void hwxdp_device__memory(struct hwxdp_device *d, struct hwxdp_device_memory *mem)
{
	pthread_mutex_lock(&d->ctl_lock);
	memory_of(d, mem);
	pthread_mutex_unlock(&d->ctl_lock);
}

static void add_port_stats(struct hwxdp_device_port_stats *to,
			   const struct hwxdp_device_port_stats *from)
{
	to->frames += from->frames;
	to->bytes += from->bytes;
	to->no_program += from->no_program;
	for (int v = 0; v < HWXDP_DEVICE_VERDICTS; v++)
		to->verdicts[v] += from->verdicts[v];
	for (int r = 0; r < HWXDP_DEVICE_REASONS; r++)
		to->punts[r] += from->punts[r];
}

void hwxdp_device__stats(struct hwxdp_device *d, struct hwxdp_device_stats *s)
{
	memset(s, 0, sizeof(*s));
	pthread_mutex_lock(&d->ctl_lock);
	pthread_mutex_lock(&d->batch_lock);
	s->engines = d->engine_cnt;
	for (uint32_t i = 0; i < HWXDP_DEVICE_PROGS; i++)
		s->progs += d->prog[i].used;
	s->port_cnt = d->port_cnt;
	for (uint32_t i = 0; i < PORT_BUCKETS; i++) {
		const struct port *p = &d->ports[i];

		if (!p->ifindex)
			continue;
		s->port[p->order].ifindex = p->ifindex;
		s->port[p->order].prog = __atomic_load_n(&p->slot, __ATOMIC_RELAXED);
	}
	for (uint32_t w = 0; w < d->engine_cnt; w++) {
		const struct counters *c = &d->worker[w].count;

		s->frames += c->frames;
		s->bytes += c->bytes;
		s->no_program += c->no_program;
		s->invalid += c->invalid;
		s->redirect_nowhere += c->redirect_nowhere;
		s->ops += c->ops;
		s->bundles += c->bundles;
		s->cycles += c->cycles;
		s->engine_frames[w] = c->frames;
		for (int v = 0; v < HWXDP_DEVICE_VERDICTS; v++)
			s->verdicts[v] += c->verdicts[v];
		for (int r = 0; r < HWXDP_DEVICE_REASONS; r++)
			s->punts[r] += c->punts[r];
		for (uint32_t p = 0; p < d->port_cnt; p++)
			add_port_stats(&s->port[p], &c->port[p]);
	}
	memory_of(d, &s->memory);
	pthread_mutex_unlock(&d->batch_lock);
	pthread_mutex_unlock(&d->ctl_lock);
}
