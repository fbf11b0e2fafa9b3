/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The coprocessor's table memory: one table per id (0..255), each holding a
 * BPF map's content in the device's layout, and the crypto engine's SA
 * table.
 *
 *   ARRAY        values in one page-aligned block, value i at i * elem_size
 *                where elem_size is value_size rounded up to 8: the layout
 *                of a kernel BPF_F_MMAPABLE array's mmap, so a table can also
 *                live in memory the caller mapped from the kernel's map
 *   HASH         a cuckoo table (hwmap/hash.h); LRU_HASH the same, evicting
 *                the stalest of the new key's bucket mates when full
 *   PERCPU_ARRAY one ARRAY block per engine, one after the other, so that
 *                engines never share a cache line of their copies
 *   PERCPU_HASH, LRU_PERCPU_HASH
 *                a (LRU) cuckoo table whose value is one copy per engine,
 *                each rounded up to 8 bytes: the kernel's per-CPU value
 *                buffer, stored as it is
 *   LPM_TRIE     a path-compressed binary trie (hwmap/lpm.h)
 *   DEVMAP_HASH  the port table: key -> struct bpf_devmap_val, whose ifindex
 *                is the egress port and whose bpf_prog (8-byte values) the
 *                number of the image program the entry runs on egress, 0
 *                for none; a small open-addressing table read
 *                under a sequence counter, since every redirect reads it
 *   DEVMAP       the same table with the kernel's array rules: keys below
 *                max_entries, every one a slot, ifindex 0 an empty one
 *   PROG_ARRAY   index -> program number in the loaded image (u32), or empty
 *   ARRAY_OF_MAPS  index -> table id (u32), or empty: PROG_ARRAY's layout
 *   HASH_OF_MAPS   a cuckoo table of key -> table id (u32)
 *                the table ids the control plane stores name tables of
 *                the same tables that fit the map's template (desc.inner,
 *                the kernel's bpf_map_meta_equal), and a program's lookup
 *                gives the table's handle (HXU_HANDLE), not an address
 *
 * Lookup, update, delete and get_next_key return what the kernel's bpf()
 * map commands return for the same map type, flags and keys.
 *
 * Per engine. The per-CPU types hold one copy of each value per engine; the
 * engine count is the tables' (hwxdp_tables__set_engines, default 4, HXU's
 * default engines), fixed once a per-CPU table exists. An engine's lookup
 * and update reach its own copy (engine n: the number hwxdp_engine__set_cpu
 * gave it); the control plane reads and writes every copy at once through
 * the kernel's per-CPU buffer, round_up(value_size, 8) bytes per engine,
 * engine 0 first (hwxdp_table__value_buf_size).
 *
 * Table memory is budgeted: the board has HWXDP_TABLES_BUDGET_DEFAULT bytes
 * for tables unless set otherwise, and a table that would not fit in what
 * is left is refused when it is created. Every table reports the bytes it
 * holds: values, buckets, trie nodes, free lists and its own descriptor.
 *
 * Table memory addresses. An engine names a value by a 64-bit table memory
 * address, which here is the host virtual address of the value's first byte.
 * Addresses never leave an engine (the verifier proves no pointer reaches a
 * map, the packet or a verdict), so no other encoding is needed; a value's
 * address stays valid for the table's life (a hash entry may move when the
 * table is written, see hwmap/hash.h).
 *
 * Threads: any number of engines look up and write values through
 * addresses; writes that add or remove hash entries are serialised by the
 * table's lock, as the hash table wants one writer.
 */
#ifndef HWXDP_DEVICE_TABLES_H
#define HWXDP_DEVICE_TABLES_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

#include "hwmap/hxu.h"

struct hwxdp_hash;
struct hwxdp_lpm;
struct hwxdp_esp_sa;
struct hwxdp_port_table;

#define HWXDP_TABLES_SA_MAX 4096       /* SA handles 0..4095 */
#define HWXDP_PROG_NONE	    UINT32_MAX /* an empty program array slot */

#define HWXDP_TABLES_ENGINES_DEFAULT 4
#define HWXDP_TABLES_ENGINES_MAX     256
#define HWXDP_TABLES_BUDGET_DEFAULT  (1ull << 30) /* bytes of table memory */

struct hwxdp_table {
	struct hxu_table_desc desc;
	uint32_t elem_size;		/* arrays, per-CPU hash: bytes between values */
	uint8_t *values;		/* ARRAY, PROG_ARRAY: the block */
	size_t values_size;		/* its bytes, page-rounded when owned */
	bool values_external;		/* the caller's memory, not freed here */
	struct hwxdp_hash *hash;	/* HASH and the other hash types */
	struct hwxdp_port_table *ports; /* DEVMAP, DEVMAP_HASH */
	struct hwxdp_lpm *lpm;		/* LPM_TRIE */
	uint32_t copies;		/* values per key: engines (per-CPU), or 1 */
	size_t copy_stride;		/* PERCPU_ARRAY: bytes between engines' blocks */
	uint8_t *scratch;		/* per-CPU hash: one key's values, for writes */
	size_t memory;			/* bytes of table memory held */
	pthread_mutex_t write_lock;
	struct hwxdp_tables *tables; /* the tables it is one of */
};

struct hwxdp_tables {
	struct hwxdp_table *table[HXU_TABLES];
	struct hwxdp_esp_sa *sa[HWXDP_TABLES_SA_MAX];
	uint64_t hash_seed;
	uint32_t engines;
	uint64_t budget, used; /* bytes of table memory */
};

/* NULL with errno ENOMEM. Hash tables are seeded from getrandom() unless
 * a seed is set before they are created. */
struct hwxdp_tables *hwxdp_tables__new(void);
/* Frees every table (not memory given to create_at, not SAs). */
void hwxdp_tables__free(struct hwxdp_tables *t);
void hwxdp_tables__set_seed(struct hwxdp_tables *t, uint64_t seed);

/* Engines, and so copies of a per-CPU table's values: 0, -EINVAL outside
 * 1..HWXDP_TABLES_ENGINES_MAX, -EBUSY once a per-CPU table exists. */
int hwxdp_tables__set_engines(struct hwxdp_tables *t, uint32_t engines);
static inline uint32_t hwxdp_tables__engines(const struct hwxdp_tables *t)
{
	return t->engines;
}

/* The board's table memory: 0, or -ENOSPC when tables already hold more
 * than bytes. */
int hwxdp_tables__set_budget(struct hwxdp_tables *t, uint64_t bytes);
static inline uint64_t hwxdp_tables__budget(const struct hwxdp_tables *t)
{
	return t->budget;
}

/* Bytes every table holds together (SAs are the crypto engine's, apart). */
static inline uint64_t hwxdp_tables__memory(const struct hwxdp_tables *t)
{
	return t->used;
}

/* Bytes one table holds. */
static inline size_t hwxdp_table__memory(const struct hwxdp_table *tab)
{
	return tab->memory;
}

/* Bytes hwxdp_tables__create would take for desc, 0 when it would refuse
 * desc for another reason than the budget. */
size_t hwxdp_tables__memory_for(const struct hwxdp_tables *t, const struct hxu_table_desc *desc);

/*
 * Creates table desc->id, as bpf_map_create would: -EINVAL for sizes the
 * kernel refuses for the type (ARRAY and PROG_ARRAY keys are 4 bytes, a
 * PROG_ARRAY value is 4 bytes, a DEVMAP_HASH value 4 or 8, max_entries 0),
 * -E2BIG for a HASH key or value beyond hwmap/hash.h's limits, -EOPNOTSUPP
 * for a type the device has no table for, -EEXIST when the id is taken,
 * -ENOMEM when the table does not fit in the budget's rest (the message
 * names the table, its bytes and what is left) or memory runs out.
 * An LPM_TRIE needs BPF_F_NO_PREALLOC in flags, as the kernel's does.
 * Prints nothing: a refusal's line, naming the table, is
 * hwxdp_error_message(err).
 */
int hwxdp_tables__create(struct hwxdp_tables *t, const struct hxu_table_desc *desc);

/* An ARRAY whose values live at mem (size bytes, at least max_entries *
 * elem_size, 8-byte aligned): for instance a kernel BPF_F_MMAPABLE array
 * mapped with mmap(), which the host program, bpftool and the device then
 * share. The memory must outlive the table. */
int hwxdp_tables__create_at(struct hwxdp_tables *t, const struct hxu_table_desc *desc, void *mem,
			    size_t size);

/* Every table of an image, in order; stops at the first error. */
int hwxdp_tables__create_all(struct hwxdp_tables *t, const struct hxu_image *img);

/* Table id, or NULL. */
static inline struct hwxdp_table *hwxdp_tables__get(const struct hwxdp_tables *t, uint32_t id)
{
	return id < HXU_TABLES ? t->table[id] : NULL;
}

/*
 * The table handle names, when it is one that a lookup in map of maps
 * outer may give: a table that fits outer's template. NULL otherwise, and
 * an engine aborts the frame (HWXDP_ERR_TM_ACCESS).
 */
static inline struct hwxdp_table *hwxdp_table__inner(const struct hwxdp_table *outer,
						     uint64_t handle)
{
	struct hwxdp_table *t;

	if (!HXU_HANDLE_OK(handle))
		return NULL;
	t = outer->tables->table[HXU_HANDLE_ID(handle)];
	return t && hxu_inner_fits(&outer->desc.inner, &t->desc) ? t : NULL;
}

/* SA handle -> crypto engine SA (owned by the caller, NULL removes): 0 or
 * -E2BIG for a handle beyond the table. */
int hwxdp_tables__set_sa(struct hwxdp_tables *t, uint32_t handle, struct hwxdp_esp_sa *sa);

static inline struct hwxdp_esp_sa *hwxdp_tables__sa(const struct hwxdp_tables *t, uint64_t handle)
{
	return handle < HWXDP_TABLES_SA_MAX ? t->sa[handle] : NULL;
}

/* The control plane's operations, as bpf_map_lookup_elem & co. on a map fd:
 * lookup copies the value (PROG_ARRAY: the program number; per-CPU types:
 * every engine's) or -ENOENT; update and delete return 0 or the kernel's
 * errno for the type. */
int hwxdp_table__lookup(struct hwxdp_table *tab, const void *key, void *value);
int hwxdp_table__update(struct hwxdp_table *tab, const void *key, const void *value,
			uint64_t flags);
int hwxdp_table__delete(struct hwxdp_table *tab, const void *key);
int hwxdp_table__get_next_key(struct hwxdp_table *tab, const void *key, void *next);

/* The same update as the bpf_map_update_elem helper in a program, which
 * checks the flags in the map's order (an array says -EEXIST to
 * BPF_NOEXIST | BPF_F_LOCK, where bpf(2) says -EINVAL). */
int hwxdp_table__update_elem(struct hwxdp_table *tab, const void *key, const void *value,
			     uint64_t flags);
/* The same from engine cpu: a per-CPU table's update writes that engine's
 * copy (and zeroes the others of a new key), as the kernel's helper does
 * on the CPU it runs on. update_elem is engine 0's. */
int hwxdp_table__update_elem_cpu(struct hwxdp_table *tab, const void *key, const void *value,
				 uint64_t flags, uint32_t cpu);

/* Bytes of the control plane's value buffer: value_size, or for per-CPU
 * types round_up(value_size, 8) per engine. */
static inline bool hwxdp_table__percpu(const struct hwxdp_table *tab)
{
	return tab->desc.type == BPF_MAP_TYPE_PERCPU_ARRAY ||
	       tab->desc.type == BPF_MAP_TYPE_PERCPU_HASH ||
	       tab->desc.type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static inline uint32_t hwxdp_table__value_buf_size(const struct hwxdp_table *tab)
{
	return hwxdp_table__percpu(tab) ? tab->copies * ((tab->desc.value_size + 7) & ~7u)
					: tab->desc.value_size;
}

/* The engine's side: the table memory address of key's value, or 0.
 * For ARRAY and PROG_ARRAY the key is a u32 index. value_addr_cpu is the
 * lookup of engine cpu: its copy of a per-CPU value, and on an LRU table a
 * use of the entry; value_addr is engine 0's. */
uint64_t hwxdp_table__value_addr(const struct hwxdp_table *tab, const void *key);
uint64_t hwxdp_table__value_addr_cpu(const struct hwxdp_table *tab, const void *key, uint32_t cpu);
/* A map of maps' entry for key as a program's lookup gives it: the inner
 * table's handle (HXU_HANDLE), or 0. value_addr_cpu gives the same. */
uint64_t hwxdp_table__inner_handle(const struct hwxdp_table *tab, const void *key);

static inline uint64_t hwxdp_table__array_addr(const struct hwxdp_table *tab, uint32_t index)
{
	return index < tab->desc.max_entries
		       ? (uint64_t)(uintptr_t)(tab->values + (size_t)index * tab->elem_size)
		       : 0;
}

/* A port table entry's egress ifindex, or 0 when key is absent. */
uint32_t hwxdp_table__port(const struct hwxdp_table *tab, uint32_t key);
/* The same, and in *prog the program the entry runs on the frames
 * redirected into it (a devmap program: an image program number), or
 * HWXDP_PROG_NONE; both read from one snapshot of the entry. */
uint32_t hwxdp_table__port_prog(const struct hwxdp_table *tab, uint32_t key, uint32_t *prog);
/* A port table's entries in key order, as one snapshot: how many it holds
 * (at most max_entries), the first cap of them in out, which are in key
 * order when all of them fit. A broadcast's ports: a devmap's in the
 * kernel's order (by index), a devmap hash's by key where the kernel goes
 * by its hash buckets. */
struct hwxdp_port_entry {
	uint32_t key, ifindex;
	uint32_t prog; /* the entry's program (an image program number), or 0 */
};
size_t hwxdp_table__ports(const struct hwxdp_table *tab, struct hwxdp_port_entry *out, size_t cap);
/* The table memory address of a port table entry's value, or 0. */
uint64_t hwxdp_table__port_addr(const struct hwxdp_table *tab, uint32_t key);

/* A program array's program number at index, or HWXDP_PROG_NONE. */
static inline uint32_t hwxdp_table__prog(const struct hwxdp_table *tab, uint32_t index)
{
	if (index >= tab->desc.max_entries)
		return HWXDP_PROG_NONE;
	return __atomic_load_n((const uint32_t *)(tab->values + (size_t)index * 4),
			       __ATOMIC_RELAXED);
}

#endif /* HWXDP_DEVICE_TABLES_H */
