/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A BPF_MAP_TYPE_HASH as a device table: a bucketized cuckoo hash table whose
 * keys and values sit inline in fixed-size slots of one flat array, the way
 * the coprocessor's table memory holds the flow table.
 *
 * Semantics are the kernel's hash map's:
 *   lookup        value pointer or NULL
 *   update        flags BPF_ANY / BPF_NOEXIST / BPF_EXIST; -EINVAL for other
 *                 flags, -ENOENT (EXIST, key missing), -EEXIST (NOEXIST, key
 *                 present), -E2BIG when max_entries entries are present
 *   delete        0 or -ENOENT
 *   get_next_key  NULL or a key that is not present gives the first key;
 *                 -ENOENT after the last; every entry exactly once while the
 *                 table does not change
 *
 * Capacity: max_entries is a guarantee, not a hint. The table has room for
 * about max_entries / 0.9 entries in buckets plus a small overflow stash, and
 * an insert below max_entries moves entries along a breadth-first search of
 * the cuckoo graph before using the stash; hash.c explains why that cannot
 * run out of room for keys the seed was not chosen against.
 *
 * Concurrency: one writer (update, delete, get_next_key, the value pointer
 * it writes through) and any number of readers in other threads calling
 * lookup, lookup_copy and count. Readers never block the writer; they retry
 * while a bucket they read is being written (a per-bucket sequence counter).
 * lookup_copy is the reader's way to get a value that is never torn. A
 * pointer from lookup stays inside the table's memory for the table's life,
 * but the writer may move the entry to another slot (cuckoo displacement) or
 * delete it, so a reader's pointer may go stale: an atomic add through it
 * that races with a displacement of that very entry can be lost (the kernel
 * avoids this with RCU; the device model does not have grace periods yet).
 */
#ifndef HWXDP_HWMAP_HASH_H
#define HWXDP_HWMAP_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exported from the library, which builds with -fvisibility=hidden. */
#define HWXDP_HASH_API __attribute__((visibility("default")))

#define HWXDP_HASH_KEY_MAX   64
#define HWXDP_HASH_VALUE_MAX 256

struct hwxdp_hash;

/*
 * A table for max_entries keys of key_size bytes (1..64) and values of
 * value_size bytes (1..256), hashed with a key derived from seed: the same
 * seed places the same keys the same way, so tests can repeat a run, and a
 * random seed (getrandom) keeps anyone who picks flow keys from piling them
 * into a few buckets. All memory is allocated and touched here, none later.
 * NULL with errno EINVAL (bad sizes, max_entries 0 or above 2^30) or ENOMEM.
 */
HWXDP_HASH_API struct hwxdp_hash *hwxdp_hash__new(uint32_t key_size, uint32_t value_size,
						  uint32_t max_entries, uint64_t seed);

/*
 * Variants of a table, for the map types built on the hash:
 *   copies  values per entry (per-CPU tables: one per engine), each rounded
 *           up to 8 bytes and stored one after the other, the layout of the
 *           kernel's per-CPU value buffer; 0 or 1 is one value, unrounded.
 *           The table's value size is then copies * round_up(value_size, 8).
 *   lru     BPF_MAP_TYPE_LRU_HASH: an insert into a full table evicts an
 *           entry instead of failing with -E2BIG. Each entry carries a use
 *           stamp from a clock that ticks about a thousand times while the
 *           table turns over once; lookup_touch and updates stamp it. The
 *           victim is the stalest of the entries in the new key's two
 *           buckets (up to 16 of them): a sampled LRU, like the kernel's,
 *           an approximation, and one that frees a slot where the new key
 *           goes. The kernel's LRU may also evict before the map is full
 *           (its free lists are per CPU); this one evicts only when full.
 */
#define HWXDP_HASH_COPIES_MAX 256

struct hwxdp_hash_opts {
	size_t sz;
	uint32_t copies;
	bool lru;
};

HWXDP_HASH_API struct hwxdp_hash *hwxdp_hash__new_opts(uint32_t key_size, uint32_t value_size,
						       uint32_t max_entries, uint64_t seed,
						       const struct hwxdp_hash_opts *opts);

/* Bytes hwxdp_hash__new_opts allocates for these sizes, 0 for sizes it
 * refuses: what hwxdp_hash__memory reports once the table exists. */
HWXDP_HASH_API size_t hwxdp_hash__memory_for(uint32_t key_size, uint32_t value_size,
					     uint32_t max_entries,
					     const struct hwxdp_hash_opts *opts);

HWXDP_HASH_API void hwxdp_hash__free(struct hwxdp_hash *h);

/* The value of key (value_size bytes, 8-byte aligned) or NULL. Safe in
 * reader threads; see above for how long the pointer stays meaningful. */
HWXDP_HASH_API void *hwxdp_hash__lookup(const struct hwxdp_hash *h, const void *key);

/* lookup, and on an LRU table a use of the entry (a program's lookup; the
 * control plane's lookup_copy is not one, as in the kernel). */
HWXDP_HASH_API void *hwxdp_hash__lookup_touch(const struct hwxdp_hash *h, const void *key);

/* Copies key's value into value as one consistent snapshot: 0 or -ENOENT.
 * Safe in reader threads while the writer updates, deletes and displaces. */
HWXDP_HASH_API int hwxdp_hash__lookup_copy(const struct hwxdp_hash *h, const void *key,
					   void *value);

/* Writer only. 0 or -EINVAL, -ENOENT, -EEXIST, -E2BIG as the kernel. */
HWXDP_HASH_API int hwxdp_hash__update(struct hwxdp_hash *h, const void *key, const void *value,
				      uint64_t flags);

/*
 * Writer only. Updates *count keys (packed, key_size apart) with as many
 * values (packed, value_size apart) in order, as bpf_map_update_batch: stops
 * at the first error, which it returns, with *count set to the number
 * updated. Faster than one update at a time on a large table: it overlaps
 * the cache misses of consecutive keys.
 */
HWXDP_HASH_API int hwxdp_hash__update_batch(struct hwxdp_hash *h, const void *keys,
					    const void *values, uint32_t *count, uint64_t flags);

/* values[i] = hwxdp_hash__lookup(h, key i) for count packed keys, with the
 * cache misses of neighbouring keys overlapped. Returns how many were found. */
HWXDP_HASH_API uint32_t hwxdp_hash__lookup_batch(const struct hwxdp_hash *h, const void *keys,
						 uint32_t count, void **values);

/* Writer only. 0 or -ENOENT. */
HWXDP_HASH_API int hwxdp_hash__delete(struct hwxdp_hash *h, const void *key);

/* Writer only. Copies the key after key (the first when key is NULL or not
 * present) into next: 0, or -ENOENT when there is none. */
HWXDP_HASH_API int hwxdp_hash__get_next_key(const struct hwxdp_hash *h, const void *key,
					    void *next);

HWXDP_HASH_API uint32_t hwxdp_hash__count(const struct hwxdp_hash *h);

HWXDP_HASH_API uint32_t hwxdp_hash__max_entries(const struct hwxdp_hash *h);

HWXDP_HASH_API uint32_t hwxdp_hash__key_size(const struct hwxdp_hash *h);

HWXDP_HASH_API uint32_t hwxdp_hash__value_size(const struct hwxdp_hash *h);

/* Bytes of every allocation the table holds (page-rounded mappings
 * included), for bytes-per-entry figures. */
HWXDP_HASH_API size_t hwxdp_hash__memory(const struct hwxdp_hash *h);

/* Where entries live and what inserting them took; for tests and benchmarks. */
struct hwxdp_hash_stats {
	uint32_t buckets; /* each of HWXDP_HASH_BUCKET_SLOTS slots */
	uint32_t slots;	  /* buckets * slots per bucket */
	uint32_t stash_slots;
	uint32_t stash_used;
	uint64_t displacements;	  /* entries moved to make room, in total */
	uint32_t longest_path;	  /* most entries moved for one insert */
	uint64_t stashed;	  /* inserts that went to the stash */
	uint64_t search_failures; /* inserts that found no room below max_entries */
	uint64_t evictions;	  /* LRU: entries evicted to make room */
};

#define HWXDP_HASH_BUCKET_SLOTS 8

HWXDP_HASH_API void hwxdp_hash__stats(const struct hwxdp_hash *h, struct hwxdp_hash_stats *stats);

/*
 * Test hook: how many buckets one insert's displacement search may visit
 * (default HWXDP_HASH_SEARCH_BUDGET). 0 turns displacement off, so that
 * tests can drive entries into the stash and past it. Returns the old one.
 */
#define HWXDP_HASH_SEARCH_BUDGET 1024

HWXDP_HASH_API uint32_t hwxdp_hash__set_search_budget(struct hwxdp_hash *h, uint32_t budget);

#endif /* HWXDP_HWMAP_HASH_H */
