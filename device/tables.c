// SPDX-License-Identifier: GPL-2.0
/*
 * Table memory. Array blocks are anonymous mappings so that a value's
 * address and the block's layout are those of a kernel BPF_F_MMAPABLE
 * array; hash-like tables are hwmap/hash.h tables; each operation returns
 * the errno the kernel's map of the same type returns, in the kernel's order
 * of checks.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include <linux/bpf.h>

#include "device/tables.h"
#include "hwmap/hash.h"
#include "hwmap/lpm.h"
#include "hwxdp/object.h"
#include "base/log.h"

#define ARRAY_VALUE_MAX	 (1u << 20)  /* bytes of one array value */
#define PERCPU_VALUE_MAX (32u << 10) /* the kernel's PCPU_MIN_UNIT_SIZE */
#ifndef ENOTSUPP
#define ENOTSUPP 524 /* the kernel's, which bpf(2) passes on */
#endif
/* What an LPM trie's map_flags may hold besides BPF_F_NO_PREALLOC. */
#define LPM_FLAGS                                                                                  \
	(BPF_F_NO_PREALLOC | BPF_F_NUMA_NODE | BPF_F_RDONLY | BPF_F_WRONLY | BPF_F_RDONLY_PROG |   \
	 BPF_F_WRONLY_PROG)

static bool is_lru(uint32_t type)
{
	return type == BPF_MAP_TYPE_LRU_HASH || type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static bool is_percpu(uint32_t type)
{
	return type == BPF_MAP_TYPE_PERCPU_ARRAY || type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static size_t page_round(size_t n)
{
	return (n + 4095) & ~(size_t)4095;
}

static uint32_t key_index(const void *key)
{
	uint32_t index;

	memcpy(&index, key, sizeof(index));
	return index;
}

/*
 * The port table. Linear probing over a power-of-two array at most half
 * full; a delete leaves a tombstone, and the writer rebuilds the array in
 * place when tombstones and entries fill three quarters of it. Readers
 * check a sequence counter the writer makes odd while it changes slots, as
 * in hwmap/hash.c, so a lookup never sees half a change.
 */
enum { PORT_EMPTY, PORT_USED, PORT_DELETED };

struct port_slot {
	uint32_t key;
	uint32_t state;
	struct bpf_devmap_val val;
};

struct hwxdp_port_table {
	uint32_t seq;
	uint32_t shift; /* 32 - log2(capacity) */
	uint32_t mask;
	uint32_t count, deleted;
	struct port_slot *slots;
};

static inline uint32_t port_hash(const struct hwxdp_port_table *p, uint32_t key)
{
	return (key * 0x9e3779b1u) >> p->shift;
}

static uint32_t port_bits(uint32_t max_entries)
{
	uint32_t bits = 3;

	while (bits < 31 && (1u << bits) < 2 * (uint64_t)max_entries)
		bits++;
	return bits;
}

static size_t port_table_bytes(uint32_t max_entries)
{
	return sizeof(struct hwxdp_port_table) +
	       ((size_t)1 << port_bits(max_entries)) * sizeof(struct port_slot);
}

static struct hwxdp_port_table *port_table_new(uint32_t max_entries)
{
	struct hwxdp_port_table *p;
	uint32_t bits = port_bits(max_entries);

	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->shift = 32 - bits;
	p->mask = (1u << bits) - 1;
	p->slots = calloc((size_t)p->mask + 1, sizeof(*p->slots));
	if (!p->slots) {
		free(p);
		return NULL;
	}
	return p;
}

static void port_table_free(struct hwxdp_port_table *p)
{
	if (!p)
		return;
	free(p->slots);
	free(p);
}

/* Writer side: the slot holding key, or -1. */
static int64_t port_find(const struct hwxdp_port_table *p, uint32_t key)
{
	for (uint32_t i = port_hash(p, key), n = 0; n <= p->mask; i = (i + 1) & p->mask, n++) {
		if (p->slots[i].state == PORT_EMPTY)
			return -1;
		if (p->slots[i].state == PORT_USED && p->slots[i].key == key)
			return i;
	}
	return -1;
}

/* Reader side, safe against the writer: the value of key, or NULL. */
/* The entry for key, or NULL; *ifindex (when not NULL) receives its ifindex
 * as read inside the same consistent snapshot, 0 for none. */
static struct bpf_devmap_val *port_read(const struct hwxdp_port_table *p, uint32_t key,
					uint32_t *ifindex, uint32_t *prog)
{
	const struct port_slot *hit;
	uint32_t s, i, n, state, found, found_prog;

	for (;;) {
		while ((s = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE)) & 1)
			sched_yield();
		hit = NULL;
		for (i = port_hash(p, key), n = 0; n <= p->mask; i = (i + 1) & p->mask, n++) {
			state = __atomic_load_n(&p->slots[i].state, __ATOMIC_RELAXED);
			if (state == PORT_EMPTY)
				break;
			if (state == PORT_USED &&
			    __atomic_load_n(&p->slots[i].key, __ATOMIC_RELAXED) == key) {
				hit = &p->slots[i];
				break;
			}
		}
		found = hit ? __atomic_load_n(&hit->val.ifindex, __ATOMIC_RELAXED) : 0;
		found_prog = hit ? __atomic_load_n(&hit->val.bpf_prog.id, __ATOMIC_RELAXED) : 0;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&p->seq, __ATOMIC_RELAXED) == s) {
			if (ifindex)
				*ifindex = found;
			if (prog)
				*prog = found_prog ? found_prog : HWXDP_PROG_NONE;
			return hit ? (struct bpf_devmap_val *)&hit->val : NULL;
		}
	}
}

static struct bpf_devmap_val *port_lookup(const struct hwxdp_port_table *p, uint32_t key)
{
	return port_read(p, key, NULL, NULL);
}

static void port_write_begin(struct hwxdp_port_table *p)
{
	__atomic_store_n(&p->seq, p->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void port_write_end(struct hwxdp_port_table *p)
{
	__atomic_store_n(&p->seq, p->seq + 1, __ATOMIC_RELEASE);
}

/* Drops the tombstones: every entry is put back where a probe from its
 * hash first meets it. */
static int port_rebuild(struct hwxdp_port_table *p)
{
	size_t n = (size_t)p->mask + 1;
	struct port_slot *old = malloc(n * sizeof(*old));

	if (!old)
		return -ENOMEM;
	memcpy(old, p->slots, n * sizeof(*old));
	memset(p->slots, 0, n * sizeof(*old));
	for (size_t j = 0; j < n; j++) {
		uint32_t i;

		if (old[j].state != PORT_USED)
			continue;
		for (i = port_hash(p, old[j].key); p->slots[i].state != PORT_EMPTY;
		     i = (i + 1) & p->mask)
			;
		p->slots[i] = old[j];
	}
	p->deleted = 0;
	free(old);
	return 0;
}

static int port_insert(struct hwxdp_port_table *p, uint32_t key, const struct bpf_devmap_val *val,
		       uint32_t max_entries)
{
	int64_t at = port_find(p, key);
	uint32_t i;
	int err = 0;

	port_write_begin(p);
	if (at >= 0) {
		p->slots[at].val = *val;
		goto out;
	}
	if (p->count >= max_entries) {
		err = -E2BIG;
		goto out;
	}
	if ((p->count + p->deleted + 1) * 4 > (p->mask + 1) * 3) {
		err = port_rebuild(p);
		if (err)
			goto out;
	}
	for (i = port_hash(p, key); p->slots[i].state == PORT_USED; i = (i + 1) & p->mask)
		;
	if (p->slots[i].state == PORT_DELETED)
		p->deleted--;
	p->slots[i].key = key;
	p->slots[i].val = *val;
	p->slots[i].state = PORT_USED;
	p->count++;
out:
	port_write_end(p);
	return err;
}

static int port_delete(struct hwxdp_port_table *p, uint32_t key)
{
	int64_t at = port_find(p, key);

	if (at < 0)
		return -ENOENT;
	port_write_begin(p);
	p->slots[at].state = PORT_DELETED;
	p->count--;
	p->deleted++;
	port_write_end(p);
	return 0;
}

/* Slot order; a key that is not present starts from the first. */
static int port_next_key(const struct hwxdp_port_table *p, const void *key, void *next)
{
	int64_t at = key ? port_find(p, key_index(key)) : -1;

	for (uint32_t i = at < 0 ? 0 : (uint32_t)at + 1; i <= p->mask; i++) {
		if (p->slots[i].state == PORT_USED) {
			memcpy(next, &p->slots[i].key, sizeof(uint32_t));
			return 0;
		}
	}
	return -ENOENT;
}

struct hwxdp_tables *hwxdp_tables__new(void)
{
	struct hwxdp_tables *t = calloc(1, sizeof(*t));

	if (!t) {
		errno = ENOMEM;
		return NULL;
	}
	if (getrandom(&t->hash_seed, sizeof(t->hash_seed), 0) != sizeof(t->hash_seed))
		t->hash_seed = (uint64_t)(uintptr_t)t ^ (uint64_t)getpid() << 32;
	t->engines = HWXDP_TABLES_ENGINES_DEFAULT;
	t->budget = HWXDP_TABLES_BUDGET_DEFAULT;
	return t;
}

int hwxdp_tables__set_engines(struct hwxdp_tables *t, uint32_t engines)
{
	if (!engines || engines > HWXDP_TABLES_ENGINES_MAX)
		return -EINVAL;
	for (int i = 0; i < HXU_TABLES; i++)
		if (t->table[i] && is_percpu(t->table[i]->desc.type) && engines != t->engines)
			return -EBUSY;
	t->engines = engines;
	return 0;
}

int hwxdp_tables__set_budget(struct hwxdp_tables *t, uint64_t bytes)
{
	if (bytes < t->used)
		return -ENOSPC;
	t->budget = bytes;
	return 0;
}

void hwxdp_tables__set_seed(struct hwxdp_tables *t, uint64_t seed)
{
	t->hash_seed = seed;
}

static void table_free(struct hwxdp_table *tab)
{
	if (!tab)
		return;
	if (tab->values && !tab->values_external)
		munmap(tab->values, tab->values_size);
	hwxdp_hash__free(tab->hash);
	hwxdp_lpm__free(tab->lpm);
	free(tab->scratch);
	port_table_free(tab->ports);
	pthread_mutex_destroy(&tab->write_lock);
	free(tab);
}

void hwxdp_tables__free(struct hwxdp_tables *t)
{
	if (!t)
		return;
	for (int i = 0; i < HXU_TABLES; i++)
		table_free(t->table[i]);
	free(t);
}

static uint32_t round_up8(uint32_t n)
{
	return (n + 7) & ~7u;
}

static int check_desc(const struct hxu_table_desc *d);

/* A map of maps: its values are table ids, and its template one of the
 * tables the device holds, not a map of maps (the kernel's one level). */
static int check_outer(const struct hxu_table_desc *d)
{
	struct hxu_table_desc in = {
		.type = d->inner.type,
		.key_size = d->inner.key_size,
		.value_size = d->inner.value_size,
		.max_entries = d->inner.max_entries,
		.flags = d->inner.flags & ~(uint32_t)BPF_F_INNER_MAP,
	};

	if (d->value_size != 4 ||
	    (d->type == BPF_MAP_TYPE_ARRAY_OF_MAPS ? d->key_size != 4
						   : d->key_size > HWXDP_HASH_KEY_MAX))
		return -EINVAL;
	if (hxu_map_of_maps(in.type))
		return -ENOTSUPP;
	return check_desc(&in);
}

/* The kernel's bpf_map_create checks for the types the device holds. */
static int check_desc(const struct hxu_table_desc *d)
{
	if (d->id >= HXU_TABLES || !d->max_entries || !d->key_size || !d->value_size)
		return -EINVAL;
	switch (d->type) {
	case BPF_MAP_TYPE_ARRAY:
		if (d->key_size != 4)
			return -EINVAL;
		if (d->value_size > ARRAY_VALUE_MAX ||
		    (uint64_t)round_up8(d->value_size) * d->max_entries > (1ull << 36))
			return -E2BIG;
		return 0;
	case BPF_MAP_TYPE_PROG_ARRAY:
		return d->key_size == 4 && d->value_size == 4 ? 0 : -EINVAL;
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		return check_outer(d);
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		if (d->key_size != 4 || (d->value_size != 4 && d->value_size != 8))
			return -EINVAL;
		return 0;
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		if (d->key_size != 4 || (d->flags & BPF_F_MMAPABLE))
			return -EINVAL;
		if (round_up8(d->value_size) > PERCPU_VALUE_MAX)
			return -E2BIG;
		return 0;
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		if ((d->flags & BPF_F_NO_COMMON_LRU) && !is_lru(d->type))
			return -EINVAL;
		if (is_lru(d->type) && (d->flags & BPF_F_NO_PREALLOC))
			return -ENOTSUPP;
		if (d->key_size > HWXDP_HASH_KEY_MAX || d->value_size > HWXDP_HASH_VALUE_MAX)
			return -E2BIG;
		return 0;
	case BPF_MAP_TYPE_LPM_TRIE:
		/* The kernel's trie allocates per update, and wants to be told. */
		if (!(d->flags & BPF_F_NO_PREALLOC) || (d->flags & ~(uint32_t)LPM_FLAGS) ||
		    d->key_size < HWXDP_LPM_KEY_MIN || d->key_size > 4 + 256)
			return -EINVAL;
		if (d->key_size > HWXDP_LPM_KEY_MAX || d->value_size > HWXDP_LPM_VALUE_MAX)
			return -E2BIG;
		return 0;
	}
	return -EOPNOTSUPP;
}

/* Bytes of the block of values an ARRAY-like table owns. */
static bool id_array(uint32_t type)
{
	return type == BPF_MAP_TYPE_PROG_ARRAY || type == BPF_MAP_TYPE_ARRAY_OF_MAPS;
}

static size_t array_bytes(const struct hxu_table_desc *d, uint32_t copies)
{
	size_t elem = id_array(d->type) ? 4 : round_up8(d->value_size);

	return page_round(elem * d->max_entries) * copies;
}

static uint32_t table_copies(const struct hwxdp_tables *t, uint32_t type)
{
	return is_percpu(type) ? t->engines : 1;
}

/* Table memory a table of desc takes: what the allocators below allocate. */
static size_t table_bytes(const struct hwxdp_tables *t, const struct hxu_table_desc *d,
			  bool external)
{
	struct hwxdp_hash_opts opts = { .sz = sizeof(opts) };
	size_t bytes = sizeof(struct hwxdp_table), part;

	switch (d->type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		/* Memory the caller mapped is the table's too, unrounded. */
		if (external)
			return bytes + (size_t)round_up8(d->value_size) * d->max_entries;
		return bytes + array_bytes(d, table_copies(t, d->type));
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		return bytes + port_table_bytes(d->max_entries);
	case BPF_MAP_TYPE_LPM_TRIE:
		part = hwxdp_lpm__memory_for(d->key_size, d->value_size, d->max_entries);
		return part ? bytes + part : 0;
	}
	opts.copies = table_copies(t, d->type);
	opts.lru = is_lru(d->type);
	part = hwxdp_hash__memory_for(d->key_size, d->value_size, d->max_entries, &opts);
	if (!part)
		return 0;
	if (is_percpu(d->type))
		bytes += (size_t)opts.copies * round_up8(d->value_size);
	return bytes + part;
}

size_t hwxdp_tables__memory_for(const struct hwxdp_tables *t, const struct hxu_table_desc *desc)
{
	return check_desc(desc) ? 0 : table_bytes(t, desc, false);
}

static int table_add(struct hwxdp_tables *t, const struct hxu_table_desc *desc, void *mem,
		     size_t size)
{
	struct hwxdp_hash_opts opts = { .sz = sizeof(opts) };
	struct hwxdp_table *tab;
	int err;
	size_t bytes;

	hwxdp_error_clear();
	err = check_desc(desc);
	if (err)
		return hwxdp_error(err,
				   "table %u (%.*s): type %u, key %u, value %u, %u entries: %s",
				   desc->id, HXU_NAME_MAX, desc->name, desc->type, desc->key_size,
				   desc->value_size, desc->max_entries, hwxdp_strerror(err));
	if (t->table[desc->id])
		return hwxdp_error(-EEXIST, "table %u (%.*s): id already used by %s", desc->id,
				   HXU_NAME_MAX, desc->name, t->table[desc->id]->desc.name);
	bytes = table_bytes(t, desc, mem != NULL);
	if (bytes > t->budget - t->used)
		return hwxdp_error(-ENOMEM,
				   "table %u (%.*s): %zu bytes of table memory, the board has "
				   "%llu of its %llu left",
				   desc->id, HXU_NAME_MAX, desc->name, bytes,
				   (unsigned long long)(t->budget - t->used),
				   (unsigned long long)t->budget);
	tab = calloc(1, sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	tab->desc = *desc;
	tab->desc.name[HXU_NAME_MAX - 1] = '\0';
	tab->copies = table_copies(t, desc->type);
	tab->tables = t;
	pthread_mutex_init(&tab->write_lock, NULL);
	opts.copies = tab->copies;
	opts.lru = is_lru(desc->type);

	switch (desc->type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		tab->elem_size = id_array(desc->type) ? 4 : round_up8(desc->value_size);
		tab->values_size = (size_t)tab->elem_size * desc->max_entries;
		if (mem) {
			if (size < tab->values_size || ((uintptr_t)mem & 7) ||
			    desc->type != BPF_MAP_TYPE_ARRAY) {
				err = -EINVAL;
				goto fail;
			}
			tab->values = mem;
			tab->values_external = true;
			break;
		}
		tab->values_size = page_round(tab->values_size);
		tab->copy_stride = tab->values_size;
		tab->values_size *= tab->copies;
		tab->values = mmap(NULL, tab->values_size, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (tab->values == MAP_FAILED) {
			tab->values = NULL;
			err = -ENOMEM;
			goto fail;
		}
		if (id_array(desc->type))
			memset(tab->values, 0xff, tab->values_size);
		break;
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		if (mem) {
			err = -EINVAL;
			goto fail;
		}
		tab->ports = port_table_new(desc->max_entries);
		if (!tab->ports) {
			err = -ENOMEM;
			goto fail;
		}
		break;
	case BPF_MAP_TYPE_LPM_TRIE:
		if (mem) {
			err = -EINVAL;
			goto fail;
		}
		tab->lpm = hwxdp_lpm__new(desc->key_size, desc->value_size, desc->max_entries);
		if (!tab->lpm) {
			err = -errno;
			goto fail;
		}
		break;
	default:
		if (mem) {
			err = -EINVAL;
			goto fail;
		}
		tab->hash = hwxdp_hash__new_opts(desc->key_size, desc->value_size,
						 desc->max_entries, t->hash_seed ^ desc->id, &opts);
		if (!tab->hash) {
			err = -errno;
			goto fail;
		}
		if (is_percpu(desc->type)) {
			tab->elem_size = round_up8(desc->value_size);
			tab->scratch = calloc(tab->copies, round_up8(desc->value_size));
			if (!tab->scratch) {
				err = -ENOMEM;
				goto fail;
			}
		}
		break;
	}
	tab->memory = sizeof(*tab) + (tab->values ? tab->values_size : 0) +
		      (tab->hash ? hwxdp_hash__memory(tab->hash) : 0) +
		      (tab->lpm ? hwxdp_lpm__memory(tab->lpm) : 0) +
		      (tab->ports ? port_table_bytes(desc->max_entries) : 0) +
		      (tab->scratch ? (size_t)tab->copies * round_up8(desc->value_size) : 0);
	t->used += tab->memory;
	t->table[desc->id] = tab;
	return 0;
fail:
	table_free(tab);
	return err;
}

int hwxdp_tables__create(struct hwxdp_tables *t, const struct hxu_table_desc *desc)
{
	return table_add(t, desc, NULL, 0);
}

int hwxdp_tables__create_at(struct hwxdp_tables *t, const struct hxu_table_desc *desc, void *mem,
			    size_t size)
{
	if (!mem)
		return -EINVAL;
	return table_add(t, desc, mem, size);
}

int hwxdp_tables__create_all(struct hwxdp_tables *t, const struct hxu_image *img)
{
	int err;

	for (uint32_t i = 0; i < img->table_cnt; i++) {
		err = hwxdp_tables__create(t, &img->tables[i]);
		if (err)
			return err;
	}
	return 0;
}

int hwxdp_tables__set_sa(struct hwxdp_tables *t, uint32_t handle, struct hwxdp_esp_sa *sa)
{
	if (handle >= HWXDP_TABLES_SA_MAX)
		return -E2BIG;
	__atomic_store_n(&t->sa[handle], sa, __ATOMIC_RELEASE);
	return 0;
}

/* The copy engine cpu owns; engines beyond the tables' count share. */
static inline uint32_t copy_of(const struct hwxdp_table *tab, uint32_t cpu)
{
	return cpu < tab->copies ? cpu : cpu % tab->copies;
}

uint64_t hwxdp_table__value_addr_cpu(const struct hwxdp_table *tab, const void *key, uint32_t cpu)
{
	uint32_t index;
	uint8_t *v;

	switch (tab->desc.type) {
	case BPF_MAP_TYPE_ARRAY:
		return hwxdp_table__array_addr(tab, key_index(key));
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		index = key_index(key);
		if (index >= tab->desc.max_entries)
			return 0;
		return (uint64_t)(uintptr_t)(tab->values + copy_of(tab, cpu) * tab->copy_stride +
					     (size_t)index * tab->elem_size);
	case BPF_MAP_TYPE_HASH:
		return (uint64_t)(uintptr_t)hwxdp_hash__lookup(tab->hash, key);
	case BPF_MAP_TYPE_LRU_HASH:
		return (uint64_t)(uintptr_t)hwxdp_hash__lookup_touch(tab->hash, key);
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		v = tab->desc.type == BPF_MAP_TYPE_PERCPU_HASH
			    ? hwxdp_hash__lookup(tab->hash, key)
			    : hwxdp_hash__lookup_touch(tab->hash, key);
		return v ? (uint64_t)(uintptr_t)(v + (size_t)copy_of(tab, cpu) * tab->elem_size)
			 : 0;
	case BPF_MAP_TYPE_LPM_TRIE:
		return (uint64_t)(uintptr_t)hwxdp_lpm__lookup(tab->lpm, key);
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		return hwxdp_table__port_addr(tab, key_index(key));
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		return hwxdp_table__inner_handle(tab, key);
	}
	return 0;
}

/* The id in a map of maps' entry for key, or HWXDP_PROG_NONE. A hash
 * entry's id is read once: the table may move it. */
static uint32_t outer_id(const struct hwxdp_table *tab, const void *key)
{
	uint32_t index;
	uint8_t *v;

	if (tab->desc.type == BPF_MAP_TYPE_ARRAY_OF_MAPS) {
		index = key_index(key);
		if (index >= tab->desc.max_entries)
			return HWXDP_PROG_NONE;
		return __atomic_load_n((uint32_t *)(tab->values + (size_t)index * 4),
				       __ATOMIC_ACQUIRE);
	}
	v = hwxdp_hash__lookup(tab->hash, key);
	return v ? __atomic_load_n((uint32_t *)v, __ATOMIC_ACQUIRE) : HWXDP_PROG_NONE;
}

uint64_t hwxdp_table__inner_handle(const struct hwxdp_table *tab, const void *key)
{
	uint32_t id = outer_id(tab, key);

	return id == HWXDP_PROG_NONE ? 0 : HXU_HANDLE(id);
}

uint64_t hwxdp_table__value_addr(const struct hwxdp_table *tab, const void *key)
{
	return hwxdp_table__value_addr_cpu(tab, key, 0);
}

uint32_t hwxdp_table__port_prog(const struct hwxdp_table *tab, uint32_t key, uint32_t *prog)
{
	uint32_t ifindex;

	port_read(tab->ports, key, &ifindex, prog);
	return ifindex;
}

uint32_t hwxdp_table__port(const struct hwxdp_table *tab, uint32_t key)
{
	return hwxdp_table__port_prog(tab, key, NULL);
}

static int port_entry_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct hwxdp_port_entry *)a)->key;
	uint32_t y = ((const struct hwxdp_port_entry *)b)->key;

	return x < y ? -1 : x > y;
}

size_t hwxdp_table__ports(const struct hwxdp_table *tab, struct hwxdp_port_entry *out, size_t cap)
{
	const struct hwxdp_port_table *p = tab->ports;
	uint32_t s, state;
	size_t n;

	/* one snapshot of the slots, as port_read takes one entry */
	for (;;) {
		while ((s = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE)) & 1)
			sched_yield();
		n = 0;
		for (uint32_t i = 0; i <= p->mask; i++) {
			state = __atomic_load_n(&p->slots[i].state, __ATOMIC_RELAXED);
			if (state != PORT_USED)
				continue;
			if (n < cap)
				out[n] = (struct hwxdp_port_entry){
					.key = __atomic_load_n(&p->slots[i].key, __ATOMIC_RELAXED),
					.ifindex = __atomic_load_n(&p->slots[i].val.ifindex,
								   __ATOMIC_RELAXED),
					.prog = __atomic_load_n(&p->slots[i].val.bpf_prog.id,
								__ATOMIC_RELAXED),
				};
			n++;
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&p->seq, __ATOMIC_RELAXED) == s)
			break;
	}
	if (n <= cap)
		qsort(out, n, sizeof(*out), port_entry_cmp);
	return n;
}

uint64_t hwxdp_table__port_addr(const struct hwxdp_table *tab, uint32_t key)
{
	return (uint64_t)(uintptr_t)port_lookup(tab->ports, key);
}

int hwxdp_table__lookup(struct hwxdp_table *tab, const void *key, void *value)
{
	uint32_t prog, index;
	uint64_t addr;
	int64_t at;
	int err;

	switch (tab->desc.type) {
	case BPF_MAP_TYPE_ARRAY:
		addr = hwxdp_table__array_addr(tab, key_index(key));
		if (!addr)
			return -ENOENT;
		memcpy(value, (void *)(uintptr_t)addr, tab->desc.value_size);
		return 0;
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
		prog = tab->desc.type == BPF_MAP_TYPE_PROG_ARRAY
			       ? hwxdp_table__prog(tab, key_index(key))
			       : outer_id(tab, key);
		if (prog == HWXDP_PROG_NONE)
			return -ENOENT;
		memcpy(value, &prog, sizeof(prog));
		return 0;
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		pthread_mutex_lock(&tab->write_lock);
		at = port_find(tab->ports, key_index(key));
		if (at >= 0)
			memcpy(value, &tab->ports->slots[at].val, tab->desc.value_size);
		pthread_mutex_unlock(&tab->write_lock);
		return at >= 0 ? 0 : -ENOENT;
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		index = key_index(key);
		if (index >= tab->desc.max_entries)
			return -ENOENT;
		for (uint32_t c = 0; c < tab->copies; c++)
			memcpy((uint8_t *)value + (size_t)c * tab->elem_size,
			       tab->values + c * tab->copy_stride + (size_t)index * tab->elem_size,
			       tab->elem_size);
		return 0;
	case BPF_MAP_TYPE_LPM_TRIE:
		pthread_mutex_lock(&tab->write_lock);
		err = hwxdp_lpm__lookup_copy(tab->lpm, key, value);
		pthread_mutex_unlock(&tab->write_lock);
		return err;
	default:
		return hwxdp_hash__lookup_copy(tab->hash, key, value);
	}
}

/* cpu: the engine whose copy a program's update writes; -1 for bpf(2),
 * which writes every copy from the per-CPU buffer. */
static int array_update(struct hwxdp_table *tab, const void *key, const void *value, uint64_t flags,
			int64_t cpu)
{
	uint32_t index = key_index(key);

	if ((flags & ~(uint64_t)BPF_F_LOCK) > BPF_EXIST)
		return -EINVAL;
	if (index >= tab->desc.max_entries)
		return -E2BIG;
	if (flags & BPF_NOEXIST)
		return -EEXIST;
	/* No table holds a bpf_spin_lock. */
	if (flags & BPF_F_LOCK)
		return -EINVAL;
	if (tab->desc.type == BPF_MAP_TYPE_ARRAY) {
		memcpy(tab->values + (size_t)index * tab->elem_size, value, tab->desc.value_size);
		return 0;
	}
	if (cpu >= 0) {
		memcpy(tab->values + copy_of(tab, (uint32_t)cpu) * tab->copy_stride +
			       (size_t)index * tab->elem_size,
		       value, tab->desc.value_size);
		return 0;
	}
	/* As the kernel, each copy takes its 8-byte-rounded share whole. */
	for (uint32_t c = 0; c < tab->copies; c++)
		memcpy(tab->values + c * tab->copy_stride + (size_t)index * tab->elem_size,
		       (const uint8_t *)value + (size_t)c * tab->elem_size, tab->elem_size);
	return 0;
}

/* A program's update of a per-CPU hash: its engine's copy of an existing
 * key, or a new key whose other copies are zero (the kernel's helper). */
static int percpu_hash_update(struct hwxdp_table *tab, const void *key, const void *value,
			      uint64_t flags, uint32_t cpu)
{
	uint8_t *v;

	if (flags > BPF_EXIST)
		return -EINVAL;
	v = hwxdp_hash__lookup(tab->hash, key);
	if (v) {
		if (flags == BPF_NOEXIST)
			return -EEXIST;
		memcpy(v + (size_t)copy_of(tab, cpu) * tab->elem_size, value, tab->desc.value_size);
		return 0;
	}
	if (flags == BPF_EXIST)
		return -ENOENT;
	memset(tab->scratch, 0, (size_t)tab->copies * tab->elem_size);
	memcpy(tab->scratch + (size_t)copy_of(tab, cpu) * tab->elem_size, value,
	       tab->desc.value_size);
	return hwxdp_hash__update(tab->hash, key, tab->scratch, BPF_NOEXIST);
}

static int prog_array_update(struct hwxdp_table *tab, const void *key, const void *value,
			     uint64_t flags)
{
	uint32_t index = key_index(key), prog;

	if (flags & BPF_F_LOCK)
		return -EINVAL;
	if (flags != BPF_ANY)
		return -EINVAL;
	if (index >= tab->desc.max_entries)
		return -E2BIG;
	memcpy(&prog, value, sizeof(prog));
	/* The kernel wants a program's fd; the device a program's number. */
	if (prog == HWXDP_PROG_NONE)
		return -EBADF;
	__atomic_store_n((uint32_t *)(tab->values + (size_t)index * 4), prog, __ATOMIC_RELEASE);
	return 0;
}

/*
 * A map of maps takes a table id that names a table fitting its template:
 * the kernel's map_fd_get_ptr, -EBADF for an fd that is no map, -EINVAL
 * for a map whose meta differs. The device's value is the table id.
 */
static int outer_value(const struct hwxdp_table *tab, const void *value)
{
	const struct hwxdp_table *in;
	uint32_t id;

	memcpy(&id, value, sizeof(id));
	in = id < HXU_TABLES ? tab->tables->table[id] : NULL;
	if (!in)
		return -EBADF;
	return hxu_inner_fits(&tab->desc.inner, &in->desc) ? 0 : -EINVAL;
}

/* bpf_fd_array_map_update_elem, in its order of checks. */
static int outer_array_update(struct hwxdp_table *tab, const void *key, const void *value,
			      uint64_t flags)
{
	uint32_t index = key_index(key), id;
	int err;

	if (flags != BPF_ANY)
		return -EINVAL;
	if (index >= tab->desc.max_entries)
		return -E2BIG;
	err = outer_value(tab, value);
	if (err)
		return err;
	memcpy(&id, value, sizeof(id));
	__atomic_store_n((uint32_t *)(tab->values + (size_t)index * 4), id, __ATOMIC_RELEASE);
	return 0;
}

/*
 * An entry's program (struct bpf_devmap_val's bpf_prog, with an 8-byte
 * value): where the kernel takes a program's fd (> 0) and keeps its id, the
 * device takes and keeps the number of a program in the loaded image (never
 * 0, the port's own program; hwxdp_device_prog__entry_prog gives it by
 * name), which the engine runs on the frames redirected into the entry. 0
 * and negative numbers are no program, as the kernel reads an fd <= 0.
 */
static void port_prog_of(const struct hwxdp_table *tab, struct bpf_devmap_val *val)
{
	if (tab->desc.value_size < 8 || val->bpf_prog.fd <= 0)
		val->bpf_prog.id = 0;
}

static int port_update(struct hwxdp_table *tab, const void *key, const void *value, uint64_t flags)
{
	struct bpf_devmap_val val = { 0 };

	memcpy(&val, value, tab->desc.value_size);
	if (flags > BPF_EXIST || !val.ifindex)
		return -EINVAL;
	port_prog_of(tab, &val);
	if (flags == BPF_NOEXIST && port_find(tab->ports, key_index(key)) >= 0)
		return -EEXIST;
	/* The kernel's devmap hash ignores BPF_EXIST: it adds a missing key. */
	return port_insert(tab->ports, key_index(key), &val, tab->desc.max_entries);
}

/* A plain devmap is an array of ports: every index below max_entries is a
 * slot, BPF_NOEXIST never holds, ifindex 0 empties the slot (the kernel's
 * dev_map_update_elem, in its order of checks). Held in a port table. */
static int devmap_update(struct hwxdp_table *tab, const void *key, const void *value,
			 uint64_t flags)
{
	struct bpf_devmap_val val = { 0 };
	uint32_t index = key_index(key);
	int64_t at;

	memcpy(&val, value, tab->desc.value_size);
	if (flags > BPF_EXIST)
		return -EINVAL;
	if (index >= tab->desc.max_entries)
		return -E2BIG;
	if (flags == BPF_NOEXIST)
		return -EEXIST;
	if (!val.ifindex) {
		if (tab->desc.value_size == 8 && val.bpf_prog.fd > 0)
			return -EINVAL;
		at = port_find(tab->ports, index);
		return at >= 0 ? port_delete(tab->ports, index) : 0;
	}
	port_prog_of(tab, &val);
	return port_insert(tab->ports, index, &val, tab->desc.max_entries);
}

static int table_update(struct hwxdp_table *tab, const void *key, const void *value, uint64_t flags,
			int64_t cpu)
{
	int err;

	switch (tab->desc.type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		return array_update(tab, key, value, flags, cpu);
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		if (cpu < 0)
			break;
		pthread_mutex_lock(&tab->write_lock);
		err = percpu_hash_update(tab, key, value, flags, (uint32_t)cpu);
		pthread_mutex_unlock(&tab->write_lock);
		return err;
	case BPF_MAP_TYPE_LPM_TRIE:
		pthread_mutex_lock(&tab->write_lock);
		err = hwxdp_lpm__update(tab->lpm, key, value, flags);
		pthread_mutex_unlock(&tab->write_lock);
		return err;
	}
	switch (tab->desc.type) {
	case BPF_MAP_TYPE_PROG_ARRAY:
		return prog_array_update(tab, key, value, flags);
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
		return outer_array_update(tab, key, value, flags);
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		err = outer_value(tab, value);
		if (err)
			return err;
		pthread_mutex_lock(&tab->write_lock);
		err = hwxdp_hash__update(tab->hash, key, value, flags);
		pthread_mutex_unlock(&tab->write_lock);
		return err;
	case BPF_MAP_TYPE_DEVMAP_HASH:
		if (flags & BPF_F_LOCK)
			return -EINVAL;
		pthread_mutex_lock(&tab->write_lock);
		err = port_update(tab, key, value, flags);
		pthread_mutex_unlock(&tab->write_lock);
		return err;
	case BPF_MAP_TYPE_DEVMAP:
		pthread_mutex_lock(&tab->write_lock);
		err = devmap_update(tab, key, value, flags);
		pthread_mutex_unlock(&tab->write_lock);
		return err;
	default:
		pthread_mutex_lock(&tab->write_lock);
		err = hwxdp_hash__update(tab->hash, key, value, flags);
		pthread_mutex_unlock(&tab->write_lock);
		return err;
	}
}

int hwxdp_table__update(struct hwxdp_table *tab, const void *key, const void *value, uint64_t flags)
{
	/* bpf(2) refuses BPF_F_LOCK before the map sees it: no value here
	 * holds a bpf_spin_lock. */
	if (flags & BPF_F_LOCK)
		return -EINVAL;
	return table_update(tab, key, value, flags, -1);
}

int hwxdp_table__update_elem_cpu(struct hwxdp_table *tab, const void *key, const void *value,
				 uint64_t flags, uint32_t cpu)
{
	return table_update(tab, key, value, flags, cpu);
}

int hwxdp_table__update_elem(struct hwxdp_table *tab, const void *key, const void *value,
			     uint64_t flags)
{
	return table_update(tab, key, value, flags, 0);
}

int hwxdp_table__delete(struct hwxdp_table *tab, const void *key)
{
	uint32_t index, *slot;
	int err;

	switch (tab->desc.type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		return -EINVAL;
	case BPF_MAP_TYPE_LPM_TRIE:
		pthread_mutex_lock(&tab->write_lock);
		err = hwxdp_lpm__delete(tab->lpm, key);
		pthread_mutex_unlock(&tab->write_lock);
		return err;
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
		index = key_index(key);
		if (index >= tab->desc.max_entries)
			return -E2BIG;
		slot = (uint32_t *)(tab->values + (size_t)index * 4);
		return __atomic_exchange_n(slot, HWXDP_PROG_NONE, __ATOMIC_RELEASE) ==
				       HWXDP_PROG_NONE
			       ? -ENOENT
			       : 0;
	case BPF_MAP_TYPE_DEVMAP_HASH:
		pthread_mutex_lock(&tab->write_lock);
		err = port_delete(tab->ports, key_index(key));
		pthread_mutex_unlock(&tab->write_lock);
		return err;
	case BPF_MAP_TYPE_DEVMAP:
		/* an empty slot below max_entries deletes without an error */
		index = key_index(key);
		if (index >= tab->desc.max_entries)
			return -EINVAL;
		pthread_mutex_lock(&tab->write_lock);
		err = port_delete(tab->ports, index);
		pthread_mutex_unlock(&tab->write_lock);
		return err == -ENOENT ? 0 : err;
	default:
		pthread_mutex_lock(&tab->write_lock);
		err = hwxdp_hash__delete(tab->hash, key);
		pthread_mutex_unlock(&tab->write_lock);
		return err;
	}
}

int hwxdp_table__get_next_key(struct hwxdp_table *tab, const void *key, void *next)
{
	uint32_t index;
	int err;

	switch (tab->desc.type) {
	case BPF_MAP_TYPE_LPM_TRIE:
		pthread_mutex_lock(&tab->write_lock);
		err = hwxdp_lpm__get_next_key(tab->lpm, key, next);
		pthread_mutex_unlock(&tab->write_lock);
		return err;
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_DEVMAP:
		index = key ? key_index(key) : UINT32_MAX;
		if (index >= tab->desc.max_entries) {
			index = 0;
		} else {
			if (index == tab->desc.max_entries - 1)
				return -ENOENT;
			index++;
		}
		memcpy(next, &index, sizeof(index));
		return 0;
	case BPF_MAP_TYPE_DEVMAP_HASH:
		pthread_mutex_lock(&tab->write_lock);
		err = port_next_key(tab->ports, key, next);
		pthread_mutex_unlock(&tab->write_lock);
		return err;
	default:
		pthread_mutex_lock(&tab->write_lock);
		err = hwxdp_hash__get_next_key(tab->hash, key, next);
		pthread_mutex_unlock(&tab->write_lock);
		return err;
	}
}
