// SPDX-License-Identifier: GPL-2.0
/*
 * Bucketized cuckoo hashing for the device's hash tables.
 *
 * Layout. Two flat arrays, both mapped with transparent huge pages where the
 * kernel offers them:
 *   meta[bucket]   16 bytes: a sequence counter and one 8-bit tag per slot
 *                  (0 = empty), so a probe compares tags before keys, and the
 *                  metadata of a 2M-entry table (4.4 MB) can stay in the
 *                  last-level cache
 *   slots[]        buckets * 8 slots, then the stash's slots; a slot is the key
 *                  padded to 8 bytes, then the value padded to 8 bytes, so a
 *                  value is 8-byte aligned for atomic adds
 * For the flow table (44-byte key, 32-byte value) a slot is 80 bytes and the
 * table holds max_entries / 0.9 slots: 91 bytes per entry in all.
 *
 * Placement. A key's 64-bit hash names two distinct buckets and a tag. A new
 * key goes to the emptier of its two buckets; when both are full, a
 * breadth-first search over the cuckoo graph (a slot's entry can move to its
 * own other bucket) finds the shortest chain of moves that ends in a bucket
 * with a free slot, and the chain is executed back to front, so every entry
 * is in one of its buckets at every moment. Only when the search fails does
 * the new key go to the stash, a small array scanned after both buckets (and
 * only while it holds anything). A delete that frees a bucket slot pulls back
 * a stashed entry that may live there, so the stash drains.
 *
 * Why max_entries always fits. With two choices and 8 slots per bucket a
 * placement of n keys exists with high probability up to about 0.99 of the
 * slots, and short chains find it: built with 0.99 instead of 0.9, 2M- and
 * 100k-entry tables still fill with chains of at most 3 moves and no stash.
 * At 0.9 free slots are everywhere; the 2M flow fill moves about 15,000
 * entries, each by a chain of one. What is left is a set of buckets that by
 * chance draws more keys with both choices inside it than it has slots; the
 * stash's 8..64 extra slots cover that, far beyond anything a run meets. The
 * guarantee holds for keys not chosen knowing the seed (as for the kernel's
 * jhash with its random seed). tests/hwmap/ fill tables of 1 to 2,000,000
 * entries exactly to max_entries with random and structured keys.
 *
 * Readers and the writer. One thread writes; any number read. Each bucket,
 * and the stash, has a sequence counter that the writer makes odd before it
 * changes a tag or a slot of that bucket and even again after. A move
 * changes two buckets and holds both odd. A reader
 *   1. loads a counter with acquire (retrying while it is odd),
 *   2. reads tags and slot words with relaxed atomic loads,
 *   3. issues an acquire fence and loads the counter again;
 * a changed counter means retry. The writer
 *   1. stores counter + 1 (relaxed), then a release fence,
 *   2. stores tags and slot words with relaxed atomic stores,
 *   3. stores counter + 2 with release.
 * If a reader's load in step 2 saw any store of a writer's step 2, the
 * writer's release fence and the reader's acquire fence synchronize, so the
 * odd counter of the writer's step 1 happens before the reader's final load,
 * which therefore cannot return the even value the reader started from. If
 * the reader's first load saw the writer's step-3 store, everything that
 * writer stored is visible to the reader's step 2. So a reader that validates
 * saw one bucket state, not a mixture. On x86 every one of these is a plain
 * move; the fences only constrain the compiler.
 *
 * A lookup reads bucket 1, then bucket 2, then the stash, each under its own
 * counter, and validates each counter it read at the end. A hit only needs
 * its own bucket to be stable. A miss needs all three: an entry present the
 * whole time must be in some place at the moment the last counter was read,
 * and leaving or entering any place changes that place's counter, so an
 * entry moving from bucket 2 to bucket 1 behind the reader's back makes it
 * retry instead of miss.
 */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/bpf.h>

#include "hwmap/hash.h"
#include "base/log.h"

#define SLOTS	  HWXDP_HASH_BUCKET_SLOTS
#define STASH_MAX 64
#define STASH_MIN 8
/* Slots per entry: the table holds max_entries at this fraction of its slots. */
#define LOAD_NUM    9
#define LOAD_DEN    10
#define MAX_ENTRIES (1u << 30)

#define BYTES_01 0x0101010101010101ull
#define BYTES_7F 0x7f7f7f7f7f7f7f7full

/* Odd multipliers for the hash's two lanes (digits of pi and e). */
#define MUL_A 0x243f6a8885a308d3ull
#define MUL_B 0xb7e151628aed2a6bull

struct bucket_meta {
	uint32_t seq;
	uint32_t reserved;
	uint64_t tags; /* byte i: tag of slot i, 0 when empty */
};

struct search_node {
	uint32_t bucket;
	int32_t parent; /* index in the queue, -1 for a key's own bucket */
	uint8_t slot;	/* slot in the parent's bucket that moves here */
};

struct stash {
	uint32_t seq;
	uint32_t used;
	uint64_t tags[STASH_MAX / 8];
};

struct hwxdp_hash {
	/* Read by every lookup, written only at creation. */
	uint32_t key_size, value_size, max_entries;
	uint32_t key_words; /* key size in 8-byte words, rounded up */
	uint32_t value_words;
	uint32_t slot_words;
	uint32_t buckets;
	uint32_t stash_slots;
	uint32_t stamp_word; /* LRU: the slot word holding the use stamp, else 0 */
	uint64_t seed[4];
	struct bucket_meta *meta;
	uint64_t *slots;
	size_t meta_bytes, slot_bytes;

	/* Read by lookups, written when the stash changes. */
	struct stash stash __attribute__((aligned(64)));

	/* LRU: the clock stamps are taken from; it ticks every 2^clock_shift
	 * inserts. Read by lookups, written by the writer. */
	uint32_t clock __attribute__((aligned(64)));
	uint32_t clock_shift;

	/* The writer's. */
	uint32_t count __attribute__((aligned(64)));
	uint32_t search_budget;
	uint32_t stash_buckets[STASH_MAX][2];
	uint32_t longest_path;
	uint64_t displacements, stashed, search_failures;
	uint64_t inserts, evictions;
	uint32_t hand; /* LRU: where a search for any victim resumes */
	struct search_node queue[HWXDP_HASH_SEARCH_BUDGET + SLOTS];
};

/* Where a key goes: its words (zero padded), two buckets and a tag. */
struct probe {
	uint64_t words[HWXDP_HASH_KEY_MAX / 8];
	uint32_t bucket[2];
	uint8_t tag;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
#endif
}

static inline uint64_t fold_mul(uint64_t a, uint64_t b)
{
	unsigned __int128 p = (unsigned __int128)a * b;

	return (uint64_t)p ^ (uint64_t)(p >> 64);
}

/*
 * Two independent lanes take alternate words, so the multiplications of a
 * 6-word flow key form two chains of three instead of one of six; the seed
 * enters each lane and the final fold, which mixes the lanes' full products.
 */
static __attribute__((always_inline)) inline uint64_t hash_n(const struct hwxdp_hash *h,
							     const uint64_t *w, uint32_t n)
{
	uint64_t a = h->seed[0], b = h->seed[1];
	uint32_t i;

	for (i = 0; i + 1 < n; i += 2) {
		a = fold_mul(a ^ w[i], MUL_A);
		b = fold_mul(b ^ w[i + 1], MUL_B);
	}
	if (i < n)
		a = fold_mul(a ^ w[i], MUL_A);
	return fold_mul(a ^ h->seed[2], b ^ h->seed[3]);
}

static uint64_t hash_words(const struct hwxdp_hash *h, const uint64_t *w)
{
	return hash_n(h, w, h->key_words);
}

/*
 * The buckets come from the hash's two 32-bit halves by multiply-shift, which
 * uses their high bits; the tag comes from the low byte of each half, which
 * barely touches the bucket, so keys sharing a bucket still have
 * independent tags.
 */
static inline void place(const struct hwxdp_hash *h, uint64_t hv, uint32_t *b1, uint32_t *b2,
			 uint8_t *tag)
{
	uint64_t nb = h->buckets;
	uint8_t t = (uint8_t)(hv ^ (hv >> 32));

	*b1 = (uint32_t)(((hv & 0xffffffffu) * nb) >> 32);
	*b2 = (uint32_t)(((hv >> 32) * nb) >> 32);
	if (*b2 == *b1 && nb > 1)
		*b2 = *b1 + 1 == nb ? 0 : *b1 + 1;
	*tag = t ? t : 1;
}

static void probe_init(const struct hwxdp_hash *h, const void *key, struct probe *p)
{
	p->words[h->key_words - 1] = 0;
	memcpy(p->words, key, h->key_size);
	place(h, hash_words(h, p->words), &p->bucket[0], &p->bucket[1], &p->tag);
}

/* High bit set in every byte of tags that equals tag, and nowhere else. */
static inline uint64_t match_tag(uint64_t tags, uint8_t tag)
{
	uint64_t x = tags ^ (BYTES_01 * tag);
	uint64_t y = (x & BYTES_7F) + BYTES_7F;

	return ~(y | x | BYTES_7F);
}

static inline uint32_t lowest_byte(uint64_t mask)
{
	return (uint32_t)__builtin_ctzll(mask) >> 3;
}

static inline uint64_t *slot_at(const struct hwxdp_hash *h, uint32_t idx)
{
	return h->slots + (size_t)idx * h->slot_words;
}

static inline uint32_t stash_base(const struct hwxdp_hash *h)
{
	return h->buckets * SLOTS;
}

static inline uint64_t load64(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void store64(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline uint32_t read_begin(const uint32_t *seq)
{
	uint32_t s, spins = 0;

	/* A writer holds a bucket for tens of nanoseconds, unless it lost its
	 * CPU in between: then give the CPU back rather than spin a time slice. */
	while ((s = __atomic_load_n(seq, __ATOMIC_ACQUIRE)) & 1) {
		if (++spins % 1024)
			cpu_relax();
		else
			sched_yield();
	}
	return s;
}

/* Call after read_fence(); true when the reads since read_begin() hold. */
static inline bool read_valid(const uint32_t *seq, uint32_t s)
{
	return __atomic_load_n(seq, __ATOMIC_RELAXED) == s;
}

static inline void read_fence(void)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
}

static inline void write_begin(uint32_t *seq)
{
	__atomic_store_n(seq, *seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void write_end(uint32_t *seq)
{
	__atomic_store_n(seq, *seq + 1, __ATOMIC_RELEASE);
}

/*
 * The reader's path takes the key's size in words as an argument: the
 * lookups of the common key sizes pass a constant, so that the compare and
 * the hash unroll; everything else passes h->key_words.
 */
static __attribute__((always_inline)) inline bool key_equal(const uint64_t *slot,
							    const uint64_t *words, uint32_t kw)
{
	uint64_t diff = 0;
	uint32_t i;

	/* Branch-free: a slot whose tag matched almost always holds the key. */
	for (i = 0; i < kw; i++)
		diff |= load64(&slot[i]) ^ words[i];
	return !diff;
}

/* The slot index of p's key among tags' candidates at first, or -1. */
static __attribute__((always_inline)) inline int64_t scan_tags(const struct hwxdp_hash *h,
							       uint64_t tags, uint32_t first,
							       const struct probe *p, uint32_t kw)
{
	uint64_t m = match_tag(tags, p->tag);

	while (m) {
		uint32_t idx = first + lowest_byte(m);

		if (key_equal(slot_at(h, idx), p->words, kw))
			return idx;
		m &= m - 1;
	}
	return -1;
}

static __attribute__((always_inline)) inline int64_t
scan_bucket(const struct hwxdp_hash *h, uint32_t b, const struct probe *p, uint32_t kw)
{
	return scan_tags(h, load64(&h->meta[b].tags), b * SLOTS, p, kw);
}

static int64_t scan_stash(const struct hwxdp_hash *h, const struct probe *p)
{
	uint32_t i;
	int64_t idx;

	if (!__atomic_load_n(&h->stash.used, __ATOMIC_RELAXED))
		return -1;
	for (i = 0; i < h->stash_slots / 8; i++) {
		idx = scan_tags(h, load64(&h->stash.tags[i]), stash_base(h) + i * 8, p,
				h->key_words);
		if (idx >= 0)
			return idx;
	}
	return -1;
}

static void copy_value_out(const struct hwxdp_hash *h, const uint64_t *slot, void *value)
{
	const uint64_t *src = slot + h->key_words;
	uint32_t full = h->value_size / 8, i;
	uint64_t w;

	for (i = 0; i < full; i++) {
		w = load64(&src[i]);
		memcpy((uint8_t *)value + i * 8, &w, 8);
	}
	if (h->value_size % 8) {
		w = load64(&src[full]);
		memcpy((uint8_t *)value + full * 8, &w, h->value_size % 8);
	}
}

/*
 * Reader-side search under the sequence counters (see the top of the file);
 * copies the value when value is not NULL. The slot index or -1.
 */
static __attribute__((always_inline)) inline int64_t
find_stable_n(const struct hwxdp_hash *h, const struct probe *p, void *value, uint32_t kw)
{
	const uint32_t *seq1 = &h->meta[p->bucket[0]].seq;
	const uint32_t *seq2 = &h->meta[p->bucket[1]].seq;
	uint32_t s1, s2, ss;
	int64_t idx;

	__builtin_prefetch(&h->meta[p->bucket[1]]);
	for (;;) {
		s1 = read_begin(seq1);
		idx = scan_bucket(h, p->bucket[0], p, kw);
		if (idx >= 0) {
			if (value)
				copy_value_out(h, slot_at(h, idx), value);
			read_fence();
			if (read_valid(seq1, s1))
				return idx;
			continue;
		}
		s2 = read_begin(seq2);
		idx = scan_bucket(h, p->bucket[1], p, kw);
		if (idx >= 0) {
			if (value)
				copy_value_out(h, slot_at(h, idx), value);
			read_fence();
			if (read_valid(seq2, s2))
				return idx;
			continue;
		}
		ss = 0;
		if (h->stash_slots) {
			ss = read_begin(&h->stash.seq);
			idx = scan_stash(h, p);
			if (idx >= 0) {
				if (value)
					copy_value_out(h, slot_at(h, idx), value);
				read_fence();
				if (read_valid(&h->stash.seq, ss))
					return idx;
				continue;
			}
		}
		read_fence();
		if (read_valid(seq1, s1) && read_valid(seq2, s2) &&
		    (!h->stash_slots || read_valid(&h->stash.seq, ss)))
			return -1;
	}
}

static int64_t find_stable(const struct hwxdp_hash *h, const struct probe *p, void *value)
{
	return find_stable_n(h, p, value, h->key_words);
}

/* Writer-side search: nothing changes under the writer. */
static int64_t find(const struct hwxdp_hash *h, const struct probe *p)
{
	int64_t idx = scan_bucket(h, p->bucket[0], p, h->key_words);

	if (idx < 0)
		idx = scan_bucket(h, p->bucket[1], p, h->key_words);
	if (idx < 0 && h->stash_slots)
		idx = scan_stash(h, p);
	return idx;
}

/*
 * A lookup for keys of ks bytes, ks a constant where it is inlined: the key
 * is read straight into the probe's words (the tail once, zero padded, as
 * probe_init pads it), hashed and compared with loops the compiler unrolls.
 */
static __attribute__((always_inline)) inline void *lookup_sized(const struct hwxdp_hash *h,
								const void *key, uint32_t ks)
{
	const uint32_t kw = (ks + 7) / 8, full = ks / 8;
	struct probe p;
	int64_t idx;
	uint32_t i;

	for (i = 0; i < full; i++)
		memcpy(&p.words[i], (const uint8_t *)key + i * 8, 8);
	if (ks % 8) {
		/* The tail word is made in a register and stored whole: a narrow
		 * store into a zeroed word, read back at once as a whole word,
		 * stalls store-to-load forwarding. */
		uint64_t w = 0;

		if (ks % 8 == 4) {
			uint32_t v;

			memcpy(&v, (const uint8_t *)key + full * 8, 4);
			w = v;
		} else {
			memcpy(&w, (const uint8_t *)key + full * 8, ks % 8);
		}
		p.words[full] = w;
	}
	place(h, hash_n(h, p.words, kw), &p.bucket[0], &p.bucket[1], &p.tag);
	idx = find_stable_n(h, &p, NULL, kw);
	return idx < 0 ? NULL : slot_at(h, idx) + kw;
}

void *hwxdp_hash__lookup(const struct hwxdp_hash *h, const void *key)
{
	switch (h->key_size) {
	case 4:
		return lookup_sized(h, key, 4);
	case 8:
		return lookup_sized(h, key, 8);
	case 16:
		return lookup_sized(h, key, 16);
	case 44: /* struct hwxdp_flow_key */
		return lookup_sized(h, key, 44);
	default:
		return lookup_sized(h, key, h->key_size);
	}
}

int hwxdp_hash__lookup_copy(const struct hwxdp_hash *h, const void *key, void *value)
{
	struct probe p;

	probe_init(h, key, &p);
	return find_stable(h, &p, value) < 0 ? -ENOENT : 0;
}

/* Where seq and tags of slot idx live: its bucket's, or the stash's. */
static void slot_home(struct hwxdp_hash *h, uint32_t idx, uint32_t **seq, uint64_t **tags,
		      uint32_t *shift)
{
	if (idx < stash_base(h)) {
		*seq = &h->meta[idx / SLOTS].seq;
		*tags = &h->meta[idx / SLOTS].tags;
	} else {
		idx -= stash_base(h);
		*seq = &h->stash.seq;
		*tags = &h->stash.tags[idx / 8];
	}
	*shift = (idx % 8) * 8;
}

static void write_value(const struct hwxdp_hash *h, uint64_t *slot, const void *value)
{
	uint64_t *dst = slot + h->key_words;
	uint32_t full = h->value_size / 8, i;
	uint64_t w;

	for (i = 0; i < full; i++) {
		memcpy(&w, (const uint8_t *)value + i * 8, 8);
		store64(&dst[i], w);
	}
	if (h->value_size % 8) {
		w = 0;
		memcpy(&w, (const uint8_t *)value + full * 8, h->value_size % 8);
		store64(&dst[full], w);
	}
}

/* Caller holds the slot's counter odd. */
static void write_entry(struct hwxdp_hash *h, uint32_t idx, const struct probe *p,
			const void *value)
{
	uint64_t *slot = slot_at(h, idx);
	uint32_t *seq, shift, i;
	uint64_t *tags;

	for (i = 0; i < h->key_words; i++)
		store64(&slot[i], p->words[i]);
	write_value(h, slot, value);
	if (h->stamp_word)
		store64(&slot[h->stamp_word], h->clock);
	slot_home(h, idx, &seq, &tags, &shift);
	store64(tags, (*tags & ~(0xffull << shift)) | (uint64_t)p->tag << shift);
}

/* Moves an entry between slots of different places (two buckets, or the
 * stash and a bucket), holding both counters odd. */
static void move_entry(struct hwxdp_hash *h, uint32_t from, uint32_t to)
{
	uint32_t *from_seq, *to_seq, from_shift, to_shift, i;
	uint64_t *from_tags, *to_tags, *src = slot_at(h, from), *dst = slot_at(h, to);
	uint8_t tag;

	slot_home(h, from, &from_seq, &from_tags, &from_shift);
	slot_home(h, to, &to_seq, &to_tags, &to_shift);
	tag = (uint8_t)(*from_tags >> from_shift);

	write_begin(from_seq);
	write_begin(to_seq);
	for (i = 0; i < h->slot_words; i++)
		store64(&dst[i], src[i]);
	store64(to_tags, (*to_tags & ~(0xffull << to_shift)) | (uint64_t)tag << to_shift);
	store64(from_tags, *from_tags & ~(0xffull << from_shift));
	write_end(to_seq);
	write_end(from_seq);
}

static uint32_t other_bucket(const struct hwxdp_hash *h, uint32_t idx, uint32_t bucket)
{
	uint32_t b1, b2;
	uint8_t tag;

	place(h, hash_words(h, slot_at(h, idx)), &b1, &b2, &tag);
	return bucket == b1 ? b2 : b1;
}

static inline uint64_t free_slots(const struct hwxdp_hash *h, uint32_t b)
{
	return match_tag(h->meta[b].tags, 0);
}

static bool on_path(const struct hwxdp_hash *h, int32_t node, uint32_t bucket)
{
	for (; node >= 0; node = h->queue[node].parent)
		if (h->queue[node].bucket == bucket)
			return true;
	return false;
}

/*
 * Breadth-first search from p's two (full) buckets for the shortest chain of
 * moves that frees a slot in one of them; executes it and returns the freed
 * slot's index, or -1 when the budget runs out first. Buckets never repeat
 * along a chain, so executing it back to front only ever moves an entry into
 * a slot that the previous move emptied.
 */
static int64_t make_room(struct hwxdp_hash *h, const struct probe *p)
{
	struct search_node *q = h->queue;
	uint32_t head, tail = 0, budget = h->search_budget, s, alt, len;
	int32_t node;
	uint64_t room;
	uint32_t to;

	q[tail++] = (struct search_node){ .bucket = p->bucket[0], .parent = -1 };
	if (p->bucket[1] != p->bucket[0])
		q[tail++] = (struct search_node){ .bucket = p->bucket[1], .parent = -1 };
	for (head = 0; head < tail && tail < budget; head++) {
		for (s = 0; s < SLOTS; s++) {
			alt = other_bucket(h, q[head].bucket * SLOTS + s, q[head].bucket);
			if (on_path(h, head, alt))
				continue;
			q[tail] = (struct search_node){ .bucket = alt, .parent = head, .slot = s };
			room = free_slots(h, alt);
			if (room)
				goto found;
			tail++;
		}
	}
	return -1;

found:
	to = alt * SLOTS + lowest_byte(room);
	len = 0;
	for (node = tail; q[node].parent >= 0; node = q[node].parent) {
		uint32_t from = q[q[node].parent].bucket * SLOTS + q[node].slot;

		move_entry(h, from, to);
		to = from;
		len++;
	}
	h->displacements += len;
	if (len > h->longest_path)
		h->longest_path = len;
	return to;
}

static int64_t stash_room(const struct hwxdp_hash *h)
{
	uint32_t i;
	uint64_t room;

	for (i = 0; i < h->stash_slots / 8; i++) {
		room = match_tag(h->stash.tags[i], 0);
		if (room)
			return stash_base(h) + i * 8 + lowest_byte(room);
	}
	return -1;
}

static int insert(struct hwxdp_hash *h, const struct probe *p, const void *value)
{
	uint64_t free1 = free_slots(h, p->bucket[0]), free2 = free_slots(h, p->bucket[1]);
	uint32_t *seq;
	int64_t idx;

	/* The emptier bucket keeps buckets even, which keeps searches rare. */
	if (free1 && __builtin_popcountll(free1) >= __builtin_popcountll(free2))
		idx = p->bucket[0] * SLOTS + lowest_byte(free1);
	else if (free2)
		idx = p->bucket[1] * SLOTS + lowest_byte(free2);
	else
		idx = make_room(h, p);

	if (idx >= 0) {
		seq = &h->meta[idx / SLOTS].seq;
	} else {
		idx = stash_room(h);
		if (idx < 0) {
			if (!h->search_failures++)
				pr_warn("hash table of %u entries found no room at %u entries\n",
					h->max_entries, h->count);
			return -E2BIG;
		}
		h->stash_buckets[idx - stash_base(h)][0] = p->bucket[0];
		h->stash_buckets[idx - stash_base(h)][1] = p->bucket[1];
		seq = &h->stash.seq;
		h->stashed++;
	}

	write_begin(seq);
	write_entry(h, idx, p, value);
	if (seq == &h->stash.seq)
		__atomic_store_n(&h->stash.used, h->stash.used + 1, __ATOMIC_RELAXED);
	write_end(seq);
	__atomic_store_n(&h->count, h->count + 1, __ATOMIC_RELAXED);
	return 0;
}

static void evict(struct hwxdp_hash *h, const struct probe *p);

static int update_probe(struct hwxdp_hash *h, const struct probe *p, const void *value,
			uint64_t flags)
{
	uint32_t *seq, shift;
	uint64_t *tags;
	int64_t idx;

	idx = find(h, p);
	if (idx >= 0) {
		if (flags == BPF_NOEXIST)
			return -EEXIST;
		slot_home(h, idx, &seq, &tags, &shift);
		write_begin(seq);
		write_value(h, slot_at(h, idx), value);
		if (h->stamp_word)
			store64(&slot_at(h, idx)[h->stamp_word], h->clock);
		write_end(seq);
		return 0;
	}
	if (flags == BPF_EXIST)
		return -ENOENT;
	if (h->count >= h->max_entries) {
		if (!h->stamp_word)
			return -E2BIG;
		evict(h, p);
	}
	if (h->stamp_word)
		__atomic_store_n(&h->clock, (uint32_t)(++h->inserts >> h->clock_shift),
				 __ATOMIC_RELAXED);
	return insert(h, p, value);
}

int hwxdp_hash__update(struct hwxdp_hash *h, const void *key, const void *value, uint64_t flags)
{
	struct probe p;

	if (flags > BPF_EXIST)
		return -EINVAL;
	probe_init(h, key, &p);
	return update_probe(h, &p, value, flags);
}

/*
 * A group's buckets are hashed and their metadata prefetched before the
 * first of them is touched, so the group's cache misses overlap instead of
 * following one another; within the group the operations run in order.
 */
#define BATCH_GROUP 16

static void prefetch_buckets(const struct hwxdp_hash *h, const struct probe *p)
{
	__builtin_prefetch(&h->meta[p->bucket[0]]);
	__builtin_prefetch(&h->meta[p->bucket[1]]);
}

int hwxdp_hash__update_batch(struct hwxdp_hash *h, const void *keys, const void *values,
			     uint32_t *count, uint64_t flags)
{
	const uint8_t *k = keys, *v = values;
	struct probe p[BATCH_GROUP];
	uint32_t done = 0, n, i;
	int err = 0;

	if (flags > BPF_EXIST) {
		*count = 0;
		return -EINVAL;
	}
	while (done < *count && !err) {
		n = *count - done < BATCH_GROUP ? *count - done : BATCH_GROUP;
		for (i = 0; i < n; i++) {
			probe_init(h, k + (size_t)(done + i) * h->key_size, &p[i]);
			prefetch_buckets(h, &p[i]);
		}
		for (i = 0; i < n; i++) {
			err = update_probe(h, &p[i], v + (size_t)(done + i) * h->value_size, flags);
			if (err)
				break;
		}
		done += i;
	}
	*count = done;
	return err;
}

uint32_t hwxdp_hash__lookup_batch(const struct hwxdp_hash *h, const void *keys, uint32_t count,
				  void **values)
{
	const uint8_t *k = keys;
	struct probe p[BATCH_GROUP];
	uint32_t done, n, i, found = 0;
	uint64_t m;
	int64_t idx;

	for (done = 0; done < count; done += n) {
		n = count - done < BATCH_GROUP ? count - done : BATCH_GROUP;
		for (i = 0; i < n; i++) {
			probe_init(h, k + (size_t)(done + i) * h->key_size, &p[i]);
			prefetch_buckets(h, &p[i]);
		}
		/* The first candidate slot of each bucket, before the key compares. */
		for (i = 0; i < n; i++) {
			m = match_tag(load64(&h->meta[p[i].bucket[0]].tags), p[i].tag);
			if (m)
				__builtin_prefetch(
					slot_at(h, p[i].bucket[0] * SLOTS + lowest_byte(m)));
			m = match_tag(load64(&h->meta[p[i].bucket[1]].tags), p[i].tag);
			if (m)
				__builtin_prefetch(
					slot_at(h, p[i].bucket[1] * SLOTS + lowest_byte(m)));
		}
		for (i = 0; i < n; i++) {
			idx = find_stable(h, &p[i], NULL);
			values[done + i] = idx < 0 ? NULL : slot_at(h, idx) + h->key_words;
			found += idx >= 0;
		}
	}
	return found;
}

/* Moves a stashed entry whose buckets include b into b's free slot. */
static void unstash_into(struct hwxdp_hash *h, uint32_t b, uint32_t free_idx)
{
	uint32_t i, at;

	for (i = 0; i < h->stash_slots; i++) {
		if (!(uint8_t)(h->stash.tags[i / 8] >> (i % 8 * 8)))
			continue;
		if (h->stash_buckets[i][0] != b && h->stash_buckets[i][1] != b)
			continue;
		at = stash_base(h) + i;
		move_entry(h, at, free_idx);
		write_begin(&h->stash.seq);
		__atomic_store_n(&h->stash.used, h->stash.used - 1, __ATOMIC_RELAXED);
		write_end(&h->stash.seq);
		return;
	}
}

static void remove_at(struct hwxdp_hash *h, int64_t idx)
{
	uint32_t *seq, shift;
	uint64_t *tags;

	slot_home(h, idx, &seq, &tags, &shift);
	write_begin(seq);
	store64(tags, *tags & ~(0xffull << shift));
	if (seq == &h->stash.seq)
		__atomic_store_n(&h->stash.used, h->stash.used - 1, __ATOMIC_RELAXED);
	write_end(seq);
	__atomic_store_n(&h->count, h->count - 1, __ATOMIC_RELAXED);
	if (idx < stash_base(h) && h->stash.used)
		unstash_into(h, (uint32_t)idx / SLOTS, (uint32_t)idx);
}

static inline uint32_t age_of(const struct hwxdp_hash *h, uint32_t idx)
{
	return h->clock - (uint32_t)slot_at(h, idx)[h->stamp_word];
}

/*
 * LRU: makes room for p's key in a full table. The victim is the entry
 * least recently used among those sharing p's two buckets (up to 16): a
 * sampled LRU, whose sample is the one place an eviction helps, since the
 * new key then lands in the slot it frees. Only when both buckets are empty
 * (their keys all moved elsewhere) does the victim come from a sweep over
 * the table.
 */
static void evict(struct hwxdp_hash *h, const struct probe *p)
{
	uint32_t b, s, idx, age, oldest = 0, end = stash_base(h) + h->stash_slots;
	int64_t victim = -1;
	uint64_t tags;

	for (b = 0; b < 2; b++) {
		tags = h->meta[p->bucket[b]].tags;
		for (s = 0; s < SLOTS; s++) {
			if (!(uint8_t)(tags >> (s * 8)))
				continue;
			idx = p->bucket[b] * SLOTS + s;
			age = age_of(h, idx);
			if (victim < 0 || age > oldest) {
				victim = idx;
				oldest = age;
			}
		}
	}
	for (s = 0; victim < 0 && s < end; s++) {
		idx = h->hand;
		h->hand = h->hand + 1 == end ? 0 : h->hand + 1;
		tags = idx < stash_base(h) ? h->meta[idx / SLOTS].tags
					   : h->stash.tags[(idx - stash_base(h)) / 8];
		if ((uint8_t)(tags >> (idx % 8 * 8)))
			victim = idx;
	}
	if (victim < 0)
		return;
	remove_at(h, victim);
	h->evictions++;
}

void *hwxdp_hash__lookup_touch(const struct hwxdp_hash *h, const void *key)
{
	uint64_t *value = hwxdp_hash__lookup(h, key);
	uint64_t *stamp, now;

	if (!value || !h->stamp_word)
		return value;
	/* Written only when the clock moved: a hot entry costs one store per
	 * tick, not one per lookup. */
	stamp = value + (h->stamp_word - h->key_words);
	now = __atomic_load_n(&h->clock, __ATOMIC_RELAXED);
	if (load64(stamp) != now)
		store64(stamp, now);
	return value;
}

int hwxdp_hash__delete(struct hwxdp_hash *h, const void *key)
{
	struct probe p;
	int64_t idx;

	probe_init(h, key, &p);
	idx = find(h, &p);
	if (idx < 0)
		return -ENOENT;
	remove_at(h, idx);
	return 0;
}

static inline uint8_t tag_of(const struct hwxdp_hash *h, uint32_t idx)
{
	uint64_t tags;

	if (idx < stash_base(h))
		tags = h->meta[idx / SLOTS].tags;
	else
		tags = h->stash.tags[(idx - stash_base(h)) / 8];
	return (uint8_t)(tags >> (idx % 8 * 8));
}

int hwxdp_hash__get_next_key(const struct hwxdp_hash *h, const void *key, void *next)
{
	uint32_t end = stash_base(h) + h->stash_slots, idx = 0;
	struct probe p;
	int64_t at;

	if (key) {
		probe_init(h, key, &p);
		at = find(h, &p);
		if (at >= 0)
			idx = (uint32_t)at + 1;
	}
	/* Skip a whole empty bucket at a time: a sparse table dumps in O(buckets). */
	while (idx < end) {
		if (idx % 8 == 0 && idx < stash_base(h) && !h->meta[idx / SLOTS].tags) {
			idx += SLOTS;
			continue;
		}
		if (tag_of(h, idx)) {
			memcpy(next, slot_at(h, idx), h->key_size);
			return 0;
		}
		idx++;
	}
	return -ENOENT;
}

uint32_t hwxdp_hash__count(const struct hwxdp_hash *h)
{
	return __atomic_load_n(&h->count, __ATOMIC_RELAXED);
}

uint32_t hwxdp_hash__max_entries(const struct hwxdp_hash *h)
{
	return h->max_entries;
}

uint32_t hwxdp_hash__key_size(const struct hwxdp_hash *h)
{
	return h->key_size;
}

uint32_t hwxdp_hash__value_size(const struct hwxdp_hash *h)
{
	return h->value_size;
}

size_t hwxdp_hash__memory(const struct hwxdp_hash *h)
{
	return sizeof(*h) + h->meta_bytes + h->slot_bytes;
}

void hwxdp_hash__stats(const struct hwxdp_hash *h, struct hwxdp_hash_stats *stats)
{
	*stats = (struct hwxdp_hash_stats){
		.buckets = h->buckets,
		.slots = h->buckets * SLOTS,
		.stash_slots = h->stash_slots,
		.stash_used = h->stash.used,
		.displacements = h->displacements,
		.longest_path = h->longest_path,
		.stashed = h->stashed,
		.search_failures = h->search_failures,
		.evictions = h->evictions,
	};
}

uint32_t hwxdp_hash__set_search_budget(struct hwxdp_hash *h, uint32_t budget)
{
	uint32_t old = h->search_budget;

	h->search_budget = budget > HWXDP_HASH_SEARCH_BUDGET ? HWXDP_HASH_SEARCH_BUDGET : budget;
	return old;
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/*
 * Zeroed memory in whole pages, on huge pages when the kernel has them (a
 * 2M-entry table is 180 MB that probes touch at random), and backed at once:
 * device memory exists from the start, as the kernel preallocates a hash
 * map's elements, so no insert or lookup takes a page fault later.
 */
static void *map_zeroed(size_t *bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), off;
	uint8_t *p;

	*bytes = (*bytes + page - 1) & ~(page - 1);
	p = mmap(NULL, *bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	if (*bytes >= (2u << 20))
		madvise(p, *bytes, MADV_HUGEPAGE);
#endif
	if (madvise(p, *bytes, MADV_POPULATE_WRITE)) {
		/* Kernels before 5.14: touch every page instead. */
		for (off = 0; off < *bytes; off += page)
			((volatile uint8_t *)p)[off] = 0;
	}
	return p;
}

static uint64_t mix_seed(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

struct geometry {
	uint32_t value_size; /* stored per entry: every copy */
	uint32_t key_words, value_words, slot_words, stamp_word;
	uint32_t buckets, stash_slots;
	size_t meta_bytes, slot_bytes;
};

static size_t page_round(size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (n + page - 1) & ~(page - 1);
}

static bool geometry(uint32_t key_size, uint32_t value_size, uint32_t max_entries,
		     const struct hwxdp_hash_opts *opts, struct geometry *g)
{
	uint32_t copies = opts && opts->copies ? opts->copies : 1;
	uint64_t buckets;

	if (!key_size || key_size > HWXDP_HASH_KEY_MAX || !value_size ||
	    value_size > HWXDP_HASH_VALUE_MAX || !max_entries || max_entries > MAX_ENTRIES ||
	    copies > HWXDP_HASH_COPIES_MAX)
		return false;
	g->value_size = copies > 1 ? copies * ((value_size + 7) & ~7u) : value_size;
	g->key_words = (key_size + 7) / 8;
	g->value_words = (g->value_size + 7) / 8;
	g->slot_words = g->key_words + g->value_words;
	g->stamp_word = 0;
	if (opts && opts->lru)
		g->stamp_word = g->slot_words++;
	buckets = ((uint64_t)max_entries * LOAD_DEN + SLOTS * LOAD_NUM - 1) / (SLOTS * LOAD_NUM);
	g->buckets = (uint32_t)buckets;
	/* One bucket holds up to 8 entries by itself; more buckets need a
	 * stash for the rare set of buckets that draws too many keys. */
	g->stash_slots = 0;
	if (g->buckets > 1) {
		g->stash_slots = max_entries / 1024;
		if (g->stash_slots < STASH_MIN)
			g->stash_slots = STASH_MIN;
		if (g->stash_slots > STASH_MAX)
			g->stash_slots = STASH_MAX;
		g->stash_slots &= ~7u;
	}
	g->meta_bytes = page_round((size_t)g->buckets * sizeof(struct bucket_meta));
	g->slot_bytes =
		page_round(((size_t)g->buckets * SLOTS + g->stash_slots) * g->slot_words * 8);
	return true;
}

size_t hwxdp_hash__memory_for(uint32_t key_size, uint32_t value_size, uint32_t max_entries,
			      const struct hwxdp_hash_opts *opts)
{
	struct geometry g;

	if (!geometry(key_size, value_size, max_entries, opts, &g))
		return 0;
	return sizeof(struct hwxdp_hash) + g.meta_bytes + g.slot_bytes;
}

struct hwxdp_hash *hwxdp_hash__new_opts(uint32_t key_size, uint32_t value_size,
					uint32_t max_entries, uint64_t seed,
					const struct hwxdp_hash_opts *opts)
{
	struct hwxdp_hash *h;
	struct geometry g;
	int i;

	if (!geometry(key_size, value_size, max_entries, opts, &g)) {
		errno = EINVAL;
		return NULL;
	}
	h = aligned_alloc(64, sizeof(*h));
	if (!h) {
		errno = ENOMEM;
		return NULL;
	}
	memset(h, 0, sizeof(*h));
	h->key_size = key_size;
	h->value_size = g.value_size;
	h->max_entries = max_entries;
	h->key_words = g.key_words;
	h->value_words = g.value_words;
	h->slot_words = g.slot_words;
	h->stamp_word = g.stamp_word;
	h->buckets = g.buckets;
	h->stash_slots = g.stash_slots;
	/* About a thousand clock ticks while the table turns over once. */
	while (h->clock_shift < 31 && (max_entries >> (h->clock_shift + 10)) > 1)
		h->clock_shift++;
	h->search_budget = HWXDP_HASH_SEARCH_BUDGET;
	for (i = 0; i < 4; i++)
		h->seed[i] = mix_seed(&seed);

	h->meta_bytes = g.meta_bytes;
	h->slot_bytes = g.slot_bytes;
	h->meta = map_zeroed(&h->meta_bytes);
	h->slots = h->meta ? map_zeroed(&h->slot_bytes) : NULL;
	if (!h->slots) {
		if (h->meta)
			munmap(h->meta, h->meta_bytes);
		free(h);
		errno = ENOMEM;
		return NULL;
	}
	return h;
}

struct hwxdp_hash *hwxdp_hash__new(uint32_t key_size, uint32_t value_size, uint32_t max_entries,
				   uint64_t seed)
{
	return hwxdp_hash__new_opts(key_size, value_size, max_entries, seed, NULL);
}

void hwxdp_hash__free(struct hwxdp_hash *h)
{
	if (!h)
		return;
	munmap(h->meta, h->meta_bytes);
	munmap(h->slots, h->slot_bytes);
	free(h);
}
