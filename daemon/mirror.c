// SPDX-License-Identifier: GPL-2.0
/* Hash maps mirrored between the board and the kernel (daemon/mirror.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "daemon/internal.h"
#include "daemon/mirror.h"
#include "device/device.h"
#include "device/tables.h"

/* What both sides held at the last round: an open-addressing set of
 * key+value records, rebuilt each round (so nothing is ever deleted). */
struct shadow {
	uint8_t *rec; /* cap records of 1 + ks + vs bytes; first byte 1 = used */
	size_t cap, cnt;
};

struct mirrored {
	struct bpf_map *map;
	struct hwxdp_table *table;
	uint32_t ks, vs; /* vs: a shadow record's value bytes */
	/* Per-CPU maps: the kernel's CPUs and the board's engines, each with
	 * a copy of round_up(value_size, 8) bytes; the shadow holds both
	 * sides' copies, the kernel's first. */
	bool percpu;
	uint32_t cpus, engines, vs8, value_size;
	struct shadow old;
};

struct mirror {
	struct mirrored *maps;
	int cnt;
	uint8_t *keys; /* a round's keys, collected before anything changes */
	size_t keys_cap;
	struct mirror_stats st;
};

static bool percpu_type(enum bpf_map_type type)
{
	return type == BPF_MAP_TYPE_PERCPU_ARRAY || type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static bool mirrored_type(enum bpf_map_type type)
{
	return type == BPF_MAP_TYPE_HASH || type == BPF_MAP_TYPE_LRU_HASH ||
	       type == BPF_MAP_TYPE_LPM_TRIE || percpu_type(type);
}

int mirror_new(struct hwxdpd *d, struct prog *pr)
{
	struct mirror *m = calloc(1, sizeof(*m));
	struct bpf_map *map;
	int n = 0;

	if (!m)
		return -ENOMEM;
	bpf_object__for_each_map(map, pr->host) n++;
	m->maps = calloc((size_t)n + 1, sizeof(*m->maps));
	if (!m->maps) {
		free(m);
		return -ENOMEM;
	}
	bpf_object__for_each_map(map, pr->host)
	{
		struct hwxdp_table *t;

		if (bpf_map__is_internal(map) || !mirrored_type(bpf_map__type(map)))
			continue;
		t = hwxdp_device__table(d->board, pr->device_id, bpf_map__name(map));
		if (!t || t->desc.key_size != bpf_map__key_size(map) ||
		    t->desc.value_size != bpf_map__value_size(map))
			continue;
		m->maps[m->cnt] = (struct mirrored){
			.map = map,
			.table = t,
			.ks = bpf_map__key_size(map),
			.vs = bpf_map__value_size(map),
			.value_size = bpf_map__value_size(map),
		};
		if (percpu_type(bpf_map__type(map))) {
			struct mirrored *mm = &m->maps[m->cnt];
			int cpus = libbpf_num_possible_cpus();

			if (cpus <= 0)
				continue;
			mm->percpu = true;
			mm->cpus = (uint32_t)cpus;
			mm->engines = t->copies;
			mm->vs8 = (mm->value_size + 7) & ~7u;
			mm->vs = (mm->cpus + mm->engines) * mm->vs8;
		}
		m->cnt++;
	}
	pr->mirror = m;
	return 0;
}

void mirror_free(struct prog *pr)
{
	struct mirror *m = pr->mirror;

	if (!m)
		return;
	for (int i = 0; i < m->cnt; i++)
		free(m->maps[i].old.rec);
	free(m->maps);
	free(m->keys);
	free(m);
	pr->mirror = NULL;
}

void mirror_carry(struct mirror *to, struct mirror *from)
{
	for (int i = 0; to && from && i < to->cnt; i++)
		for (int j = 0; j < from->cnt; j++) {
			struct mirrored *t = &to->maps[i], *f = &from->maps[j];

			if (!f->old.rec || strcmp(bpf_map__name(t->map), bpf_map__name(f->map)) ||
			    t->ks != f->ks || t->vs != f->vs)
				continue;
			free(t->old.rec);
			t->old = f->old;
			f->old = (struct shadow){ 0 };
			break;
		}
	if (to && from)
		to->st = from->st;
}

void mirror_forget(struct mirror *m, const char *name)
{
	for (int i = 0; m && i < m->cnt; i++)
		if (!strcmp(bpf_map__name(m->maps[i].map), name)) {
			free(m->maps[i].old.rec);
			m->maps[i].old = (struct shadow){ 0 };
		}
}

static uint64_t hash_key(const uint8_t *k, uint32_t ks)
{
	uint64_t h = 1469598103934665603ull;

	for (uint32_t i = 0; i < ks; i++)
		h = (h ^ k[i]) * 1099511628211ull;
	return h;
}

static size_t rec_size(const struct mirrored *mm)
{
	return 1 + (size_t)mm->ks + mm->vs;
}

/* The record for key in s, or NULL. */
static uint8_t *shadow_find(const struct mirrored *mm, const struct shadow *s, const uint8_t *key)
{
	size_t rs = rec_size(mm);

	if (!s->cap)
		return NULL;
	for (size_t i = hash_key(key, mm->ks) & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
		uint8_t *r = s->rec + i * rs;

		if (!r[0])
			return NULL;
		if (!memcmp(r + 1, key, mm->ks))
			return r;
	}
}

static int shadow_put(const struct mirrored *mm, struct shadow *s, const uint8_t *key,
		      const uint8_t *value);

static int shadow_grow(const struct mirrored *mm, struct shadow *s)
{
	struct shadow bigger = { .cap = 2 * s->cap };
	size_t rs = rec_size(mm);

	bigger.rec = calloc(bigger.cap, rs);
	if (!bigger.rec)
		return -ENOMEM;
	for (size_t i = 0; i < s->cap; i++) {
		const uint8_t *r = s->rec + i * rs;

		if (r[0])
			shadow_put(mm, &bigger, r + 1, r + 1 + mm->ks);
	}
	free(s->rec);
	*s = bigger;
	return 0;
}

static int shadow_put(const struct mirrored *mm, struct shadow *s, const uint8_t *key,
		      const uint8_t *value)
{
	size_t rs = rec_size(mm);
	uint8_t *r;

	if (2 * (s->cnt + 1) > s->cap && shadow_grow(mm, s))
		return -ENOMEM;
	for (size_t i = hash_key(key, mm->ks) & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
		r = s->rec + i * rs;
		if (!r[0] || !memcmp(r + 1, key, mm->ks))
			break;
	}
	if (!r[0])
		s->cnt++;
	r[0] = 1;
	memcpy(r + 1, key, mm->ks);
	memcpy(r + 1 + mm->ks, value, mm->vs);
	return 0;
}

static int shadow_init(const struct mirrored *mm, struct shadow *s, size_t entries)
{
	size_t cap = 16;

	while (cap < 2 * entries + 2)
		cap *= 2;
	s->rec = calloc(cap, rec_size(mm));
	s->cap = s->rec ? cap : 0;
	s->cnt = 0;
	return s->rec ? 0 : -ENOMEM;
}

/* Word by word: the side that changed it since s, both changes added when
 * both did; bytes past the last whole word from the board when both did. */
static void merge(uint32_t vs, const uint8_t *b, const uint8_t *k, const uint8_t *s, uint8_t *out)
{
	uint32_t i = 0;

	for (; i + 8 <= vs; i += 8) {
		uint64_t bw, kw, sw;

		memcpy(&bw, b + i, 8);
		memcpy(&kw, k + i, 8);
		memcpy(&sw, s + i, 8);
		/* Both changed it: to one value (a write to both), or each by
		 * its own count. */
		bw = bw == sw ? kw : kw == sw || kw == bw ? bw : bw + kw - sw;
		memcpy(out + i, &bw, 8);
	}
	for (; i < vs; i++)
		out[i] = b[i] != s[i] ? b[i] : k[i];
}

/* Collects n keys of one side into m->keys; -errno on failure. */
static int collect(struct mirror *m, const struct mirrored *mm, bool board, size_t *n)
{
	uint8_t *key = NULL;
	int fd = bpf_map__fd(mm->map);

	*n = 0;
	for (;;) {
		uint8_t *next;
		int err;

		if ((*n + 1) * mm->ks > m->keys_cap) {
			size_t cap = m->keys_cap ? 2 * m->keys_cap : 4096 * (size_t)mm->ks;
			uint8_t *grown;

			while (cap < (*n + 1) * mm->ks)
				cap *= 2;
			grown = realloc(m->keys, cap);
			if (!grown)
				return -ENOMEM;
			m->keys = grown;
			m->keys_cap = cap;
		}
		key = *n ? m->keys + (*n - 1) * mm->ks : NULL;
		next = m->keys + *n * mm->ks;
		if (board)
			err = hwxdp_table__get_next_key(mm->table, key, next);
		else
			err = bpf_map_get_next_key(fd, key, next) ? -errno : 0;
		if (err == -ENOENT)
			return 0;
		if (err)
			return err;
		(*n)++;
	}
}

static void sync_map(struct mirror *m, struct mirrored *mm)
{
	int fd = bpf_map__fd(mm->map);
	uint8_t bv[4096], kv[4096], out[4096];
	struct shadow fresh;
	size_t n_board, n_kernel;

	if (mm->vs > sizeof(bv))
		return;
	if (collect(m, mm, true, &n_board))
		return;
	if (shadow_init(mm, &fresh, n_board))
		return;
	for (size_t i = 0; i < n_board; i++) {
		const uint8_t *key = m->keys + i * mm->ks;
		const uint8_t *s = shadow_find(mm, &mm->old, key);
		bool has_k;

		if (hwxdp_table__lookup(mm->table, key, bv))
			continue; /* gone since it was listed */
		has_k = !bpf_map_lookup_elem(fd, key, kv);
		if (s)
			s += 1 + mm->ks;
		if (!has_k) {
			if (s && !memcmp(bv, s, mm->vs)) {
				/* Deleted in the kernel (bpftool). */
				hwxdp_table__delete(mm->table, key);
				m->st.to_board++;
				continue;
			}
			if (bpf_map_update_elem(fd, key, bv, BPF_ANY)) {
				m->st.kernel_full++;
				continue; /* tried again next round */
			}
			m->st.to_kernel++;
			shadow_put(mm, &fresh, key, bv);
			continue;
		}
		if (!memcmp(bv, kv, mm->vs)) {
			shadow_put(mm, &fresh, key, bv);
			continue;
		}
		if (s && !memcmp(kv, s, mm->vs)) {
			bpf_map_update_elem(fd, key, bv, BPF_EXIST);
			m->st.to_kernel++;
			shadow_put(mm, &fresh, key, bv);
		} else if (s && !memcmp(bv, s, mm->vs)) {
			hwxdp_table__update(mm->table, key, kv, BPF_EXIST);
			m->st.to_board++;
			shadow_put(mm, &fresh, key, kv);
		} else {
			/* Both wrote it (or it is new on both). */
			if (s)
				merge(mm->vs, bv, kv, s, out);
			else
				memcpy(out, bv, mm->vs);
			hwxdp_table__update(mm->table, key, out, BPF_EXIST);
			bpf_map_update_elem(fd, key, out, BPF_EXIST);
			m->st.merged++;
			shadow_put(mm, &fresh, key, out);
		}
	}
	if (!collect(m, mm, false, &n_kernel)) {
		for (size_t i = 0; i < n_kernel; i++) {
			const uint8_t *key = m->keys + i * mm->ks;
			const uint8_t *s = shadow_find(mm, &mm->old, key);

			if (shadow_find(mm, &fresh, key) || bpf_map_lookup_elem(fd, key, kv))
				continue;
			if (!hwxdp_table__lookup(mm->table, key, bv))
				continue; /* the board's since its listing: next round */
			if (s && !memcmp(kv, s + 1 + mm->ks, mm->vs)) {
				/* Deleted on the board (aged, a program's delete). */
				bpf_map_delete_elem(fd, key);
				m->st.to_kernel++;
				continue;
			}
			if (hwxdp_table__update(mm->table, key, kv, BPF_NOEXIST))
				continue;
			m->st.to_board++;
			shadow_put(mm, &fresh, key, kv);
		}
	}
	free(mm->old.rec);
	mm->old = fresh;
}

/*
 * Per-CPU maps. The kernel has cpus copies of a value, the board one per
 * engine. Of the two, the side with more copies ("wide") has copy i stand
 * for copy i % n of the other ("narrow", n copies), so narrow copy j is
 * the sum of its class j, j + n, j + 2n, ... on the wide side, word by
 * word: the board's engine e shows as CPU e % cpus when engines >= cpus.
 * Each round, what a side's copies gained since the last round is carried
 * to the other: from wide to narrow, into the copy of the class; from
 * narrow to wide, a gain to the class's first copy and a loss taken from
 * the class's copies in turn, none below zero — so a reset to 0 by bpftool
 * is 0 on every engine, and the sums of both sides stay equal. A key new on
 * one side is made on the other the same way; deleted on one side while
 * the other did not change it, it goes there too.
 */
static void carry(const struct mirrored *mm, const uint8_t *d, uint32_t n, uint8_t *to, uint32_t m)
{
	for (uint32_t w = 0; w + 8 <= mm->vs8; w += 8) {
		for (uint32_t i = 0; i < n && m <= n; i++) {
			uint64_t a, x;

			memcpy(&x, d + (size_t)i * mm->vs8 + w, 8);
			memcpy(&a, to + (size_t)(i % m) * mm->vs8 + w, 8);
			a += x;
			memcpy(to + (size_t)(i % m) * mm->vs8 + w, &a, 8);
		}
		for (uint32_t j = 0; j < n && m > n; j++) {
			uint64_t a, x, r;

			memcpy(&x, d + (size_t)j * mm->vs8 + w, 8);
			if ((int64_t)x >= 0) {
				memcpy(&a, to + (size_t)j * mm->vs8 + w, 8);
				a += x;
				memcpy(to + (size_t)j * mm->vs8 + w, &a, 8);
				continue;
			}
			r = -x;
			for (uint32_t k = j; k < m && r; k += n) {
				memcpy(&a, to + (size_t)k * mm->vs8 + w, 8);
				uint64_t take = a < r ? a : r;

				a -= take;
				r -= take;
				memcpy(to + (size_t)k * mm->vs8 + w, &a, 8);
			}
			memcpy(&a, to + (size_t)j * mm->vs8 + w, 8);
			a -= r;
			memcpy(to + (size_t)j * mm->vs8 + w, &a, 8);
		}
	}
	/* The padding after a value stays zero, as the kernel keeps it. */
	for (uint32_t i = 0; i < m && mm->value_size < mm->vs8; i++)
		memset(to + (size_t)i * mm->vs8 + mm->value_size, 0, mm->vs8 - mm->value_size);
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* now - then, word by word, into d (n copies). */
static void delta(const struct mirrored *mm, const uint8_t *now, const uint8_t *then, uint32_t n,
		  uint8_t *d)
{
	for (size_t w = 0; w + 8 <= (size_t)n * mm->vs8; w += 8) {
		uint64_t a, b;

		memcpy(&a, now + w, 8);
		memcpy(&b, then + w, 8);
		a -= b;
		memcpy(d + w, &a, 8);
	}
}

static void sync_percpu(struct mirror *m, struct mirrored *mm)
{
	size_t kb = (size_t)mm->cpus * mm->vs8, bb = (size_t)mm->engines * mm->vs8;
	uint8_t *kv = malloc(kb), *bv = malloc(bb), *rec = malloc(kb + bb), *dk = malloc(kb),
		*db = malloc(bb);
	bool array = bpf_map__type(mm->map) == BPF_MAP_TYPE_PERCPU_ARRAY;
	int fd = bpf_map__fd(mm->map);
	struct shadow fresh = { 0 };
	size_t n_board, n_kernel;

	if (!kv || !bv || !rec || !dk || !db || collect(m, mm, true, &n_board) ||
	    shadow_init(mm, &fresh, n_board))
		goto out;
	for (size_t i = 0; i < n_board; i++) {
		const uint8_t *key = m->keys + i * mm->ks;
		const uint8_t *s = shadow_find(mm, &mm->old, key);
		bool k_changed, b_changed;

		if (hwxdp_table__lookup(mm->table, key, bv))
			continue;
		if (s)
			s += 1 + mm->ks;
		if (bpf_map_lookup_elem(fd, key, kv)) {
			if (!array && s && !memcmp(bv, s + kb, bb)) {
				hwxdp_table__delete(mm->table, key);
				m->st.to_board++;
				continue;
			}
			memset(kv, 0, kb);
			carry(mm, bv, mm->engines, kv, mm->cpus);
			if (bpf_map_update_elem(fd, key, kv, BPF_ANY)) {
				m->st.kernel_full++;
				continue;
			}
			m->st.to_kernel++;
		} else {
			/* Without a last round (a start, a restart), each side's
			 * whole value is what it gained. */
			if (s) {
				delta(mm, kv, s, mm->cpus, dk);
				delta(mm, bv, s + kb, mm->engines, db);
			} else {
				memcpy(dk, kv, kb);
				memcpy(db, bv, bb);
			}
			k_changed = !all_zero(dk, kb);
			b_changed = !all_zero(db, bb);
			if (b_changed) {
				carry(mm, db, mm->engines, kv, mm->cpus);
				bpf_map_update_elem(fd, key, kv, BPF_EXIST);
				m->st.to_kernel++;
			}
			if (k_changed) {
				carry(mm, dk, mm->cpus, bv, mm->engines);
				hwxdp_table__update(mm->table, key, bv, BPF_EXIST);
				m->st.to_board++;
			}
			if (k_changed && b_changed)
				m->st.merged++;
		}
		memcpy(rec, kv, kb);
		memcpy(rec + kb, bv, bb);
		shadow_put(mm, &fresh, key, rec);
	}
	if (!collect(m, mm, false, &n_kernel)) {
		for (size_t i = 0; i < n_kernel; i++) {
			const uint8_t *key = m->keys + i * mm->ks;
			const uint8_t *s = shadow_find(mm, &mm->old, key);

			if (shadow_find(mm, &fresh, key) || bpf_map_lookup_elem(fd, key, kv))
				continue;
			if (!hwxdp_table__lookup(mm->table, key, bv))
				continue; /* the board's since its listing: next round */
			if (s && !memcmp(kv, s + 1 + mm->ks, kb)) {
				bpf_map_delete_elem(fd, key);
				m->st.to_kernel++;
				continue;
			}
			memset(bv, 0, bb);
			carry(mm, kv, mm->cpus, bv, mm->engines);
			if (hwxdp_table__update(mm->table, key, bv, BPF_NOEXIST))
				continue;
			m->st.to_board++;
			memcpy(rec, kv, kb);
			memcpy(rec + kb, bv, bb);
			shadow_put(mm, &fresh, key, rec);
		}
	}
	free(mm->old.rec);
	mm->old = fresh;
	fresh.rec = NULL;
out:
	free(fresh.rec);
	free(kv);
	free(bv);
	free(rec);
	free(dk);
	free(db);
}

void mirror_sync(struct hwxdpd *d, struct prog *pr)
{
	struct mirror *m = pr->mirror;

	(void)d;
	if (!m)
		return;
	for (int i = 0; i < m->cnt; i++)
		if (m->maps[i].percpu)
			sync_percpu(m, &m->maps[i]);
		else
			sync_map(m, &m->maps[i]);
	m->st.rounds++;
}

void mirror_written(struct hwxdpd *d, const struct bpf_map *map, const void *key, const void *value)
{
	for (int i = 0; i < HWXDPD_PROGS_MAX; i++) {
		struct mirror *m = d->progs[i].mirror;

		for (int j = 0; m && j < m->cnt; j++)
			if (m->maps[j].map == map && m->maps[j].old.cap) {
				shadow_put(&m->maps[j], &m->maps[j].old, key, value);
				return;
			}
	}
}

void mirror_stats(const struct prog *pr, struct mirror_stats *s)
{
	if (pr->mirror)
		*s = pr->mirror->st;
	else
		memset(s, 0, sizeof(*s));
}
