// SPDX-License-Identifier: GPL-2.0
/*
 * Longest-prefix match for the device's LPM tables.
 *
 * Shape. The trie is the kernel's: a path-compressed binary trie whose nodes
 * are the stored prefixes and, where two subtrees part, intermediate nodes
 * (no value, exactly two children). A node's children are chosen by the key
 * bit just after the node's prefix. Given a set of prefixes this trie is
 * unique, which is why get_next_key's postorder can match the kernel's
 * order exactly, whatever the history of updates and deletes.
 *
 * Layout. Nodes live in one pool of 2 * max_entries - 1 (at most max_entries
 * prefixes and one fewer intermediate nodes), values in a pool of
 * max_entries slots; both are reserved at creation and touched as they are
 * first used. A node keeps its key data as big-endian 64-bit words, so that
 * matching a prefix is an XOR and a count of leading zeros per 64 bits: one
 * word for IPv4, two for IPv6.
 *
 * Lookup walks from the root, at each node matching the node's prefix
 * against the key and remembering the last node that holds a value; it
 * stops where the prefix stops matching or where there is no child. An IPv4
 * lookup in a full routing table visits a handful of nodes (the depth of the
 * compressed trie, not 32).
 *
 * Readers and the writer. One sequence counter for the whole trie: the
 * writer holds it odd while it changes links, so a reader that saw it
 * change retries. Every index a reader follows is checked against the pool
 * and every walk is bounded by the depth a trie can have, so a reader that
 * raced a change ends its walk and retries instead of running off.
 */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/bpf.h>

#include "hwmap/lpm.h"

#define NIL	    UINT32_MAX
#define MAX_ENTRIES (1u << 30)
#define DATA_WORDS  ((HWXDP_LPM_KEY_MAX - 4 + 7) / 8)
#define PLEN_MAX    ((HWXDP_LPM_KEY_MAX - 4) * 8)

struct lpm_node {
	uint32_t prefixlen;
	uint32_t value; /* value slot, NIL for an intermediate node */
	uint32_t child[2];
	uint64_t data[]; /* the key's data as given, big-endian words */
};

struct hwxdp_lpm {
	uint32_t key_size, value_size, max_entries;
	uint32_t data_size, data_words, max_prefixlen;
	uint32_t node_stride;  /* bytes */
	uint32_t value_stride; /* bytes, a multiple of 8 */
	uint32_t node_cap;
	uint32_t root;
	uint32_t seq;
	uint32_t count;
	uint32_t node_next, free_node; /* never used yet; freed, linked by child[0] */
	uint32_t value_next, value_top;
	uint8_t *nodes;
	uint8_t *values;
	uint32_t *value_free;
	size_t node_bytes, value_bytes, free_bytes;
};

struct geometry {
	uint32_t node_stride, value_stride, node_cap;
	size_t node_bytes, value_bytes, free_bytes;
};

static size_t page_round(size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (n + page - 1) & ~(page - 1);
}

static bool geometry(uint32_t key_size, uint32_t value_size, uint32_t max_entries,
		     struct geometry *g)
{
	if (key_size < HWXDP_LPM_KEY_MIN || key_size > HWXDP_LPM_KEY_MAX || !value_size ||
	    value_size > HWXDP_LPM_VALUE_MAX || !max_entries || max_entries > MAX_ENTRIES)
		return false;
	g->node_stride = sizeof(struct lpm_node) + (key_size - 4 + 7) / 8 * 8;
	g->value_stride = (value_size + 7) & ~7u;
	g->node_cap = 2 * max_entries - 1;
	g->node_bytes = page_round((size_t)g->node_cap * g->node_stride);
	g->value_bytes = page_round((size_t)max_entries * g->value_stride);
	g->free_bytes = page_round((size_t)max_entries * sizeof(uint32_t));
	return true;
}

size_t hwxdp_lpm__memory_for(uint32_t key_size, uint32_t value_size, uint32_t max_entries)
{
	struct geometry g;

	if (!geometry(key_size, value_size, max_entries, &g))
		return 0;
	return sizeof(struct hwxdp_lpm) + g.node_bytes + g.value_bytes + g.free_bytes;
}

size_t hwxdp_lpm__memory(const struct hwxdp_lpm *l)
{
	return sizeof(*l) + l->node_bytes + l->value_bytes + l->free_bytes;
}

static void *map_pool(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

struct hwxdp_lpm *hwxdp_lpm__new(uint32_t key_size, uint32_t value_size, uint32_t max_entries)
{
	struct hwxdp_lpm *l;
	struct geometry g;

	if (!geometry(key_size, value_size, max_entries, &g)) {
		errno = EINVAL;
		return NULL;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		errno = ENOMEM;
		return NULL;
	}
	l->key_size = key_size;
	l->value_size = value_size;
	l->max_entries = max_entries;
	l->data_size = key_size - 4;
	l->data_words = (l->data_size + 7) / 8;
	l->max_prefixlen = l->data_size * 8;
	l->node_stride = g.node_stride;
	l->value_stride = g.value_stride;
	l->node_cap = g.node_cap;
	l->node_bytes = g.node_bytes;
	l->value_bytes = g.value_bytes;
	l->free_bytes = g.free_bytes;
	l->root = NIL;
	l->free_node = NIL;
	l->nodes = map_pool(l->node_bytes);
	l->values = map_pool(l->value_bytes);
	l->value_free = map_pool(l->free_bytes);
	if (!l->nodes || !l->values || !l->value_free) {
		hwxdp_lpm__free(l);
		errno = ENOMEM;
		return NULL;
	}
	return l;
}

void hwxdp_lpm__free(struct hwxdp_lpm *l)
{
	if (!l)
		return;
	if (l->nodes)
		munmap(l->nodes, l->node_bytes);
	if (l->values)
		munmap(l->values, l->value_bytes);
	if (l->value_free)
		munmap(l->value_free, l->free_bytes);
	free(l);
}

static inline struct lpm_node *node_at(const struct hwxdp_lpm *l, uint32_t n)
{
	return (struct lpm_node *)(l->nodes + (size_t)n * l->node_stride);
}

static inline uint32_t load32(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void store32(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline uint64_t load64(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* The key's data bytes as zero-padded big-endian words. */
static inline void key_words(const struct hwxdp_lpm *l, const uint8_t *data, uint64_t *w)
{
	uint8_t buf[DATA_WORDS * 8];
	uint64_t x;

	memset(buf, 0, l->data_words * 8);
	memcpy(buf, data, l->data_size);
	for (uint32_t i = 0; i < l->data_words; i++) {
		memcpy(&x, buf + i * 8, 8);
		w[i] = __builtin_bswap64(x);
	}
}

static inline uint32_t bit_at(const uint64_t *w, uint32_t index)
{
	return (uint32_t)(w[index / 64] >> (63 - index % 64)) & 1;
}

/* Leading bits of a (a node's words, read racily) and b that agree, up to limit. */
static inline uint32_t match_len(const uint64_t *a, const uint64_t *b, uint32_t limit)
{
	for (uint32_t i = 0; i * 64 < limit; i++) {
		uint64_t x = load64(&a[i]) ^ b[i];

		if (x) {
			uint32_t m = i * 64 + (uint32_t)__builtin_clzll(x);

			return m < limit ? m : limit;
		}
	}
	return limit;
}

static inline uint32_t min32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static inline uint8_t *value_at(const struct hwxdp_lpm *l, uint32_t v)
{
	return l->values + (size_t)v * l->value_stride;
}

/*
 * The node holding the longest match of (kw, plen), or NIL; the walk the
 * kernel's trie_lookup_elem makes. Bounded and range-checked for readers.
 */
static uint32_t walk_longest(const struct hwxdp_lpm *l, const uint64_t *kw, uint32_t plen)
{
	uint32_t found = NIL, n = load32(&l->root), steps, np, m;
	const struct lpm_node *node;

	for (steps = 0; n < l->node_cap && steps <= l->max_prefixlen; steps++) {
		node = node_at(l, n);
		np = load32(&node->prefixlen);
		if (np > l->max_prefixlen)
			break;
		m = match_len(node->data, kw, min32(np, plen));
		if (m == l->max_prefixlen) {
			found = n;
			break;
		}
		if (m < np)
			break;
		if (load32(&node->value) != NIL)
			found = n;
		n = load32(&node->child[bit_at(kw, np)]);
	}
	return found;
}

void *hwxdp_lpm__lookup(const struct hwxdp_lpm *l, const void *key)
{
	uint64_t kw[DATA_WORDS];
	uint32_t plen, s, found, v;

	memcpy(&plen, key, sizeof(plen));
	if (plen > l->max_prefixlen)
		return NULL;
	key_words(l, (const uint8_t *)key + 4, kw);
	for (;;) {
		while ((s = __atomic_load_n(&l->seq, __ATOMIC_ACQUIRE)) & 1)
			sched_yield();
		found = walk_longest(l, kw, plen);
		v = found == NIL ? NIL : load32(&node_at(l, found)->value);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&l->seq, __ATOMIC_RELAXED) != s)
			continue;
		return v < l->max_entries ? value_at(l, v) : NULL;
	}
}

int hwxdp_lpm__lookup_copy(const struct hwxdp_lpm *l, const void *key, void *value)
{
	uint64_t kw[DATA_WORDS];
	uint32_t plen, found;

	memcpy(&plen, key, sizeof(plen));
	if (plen > l->max_prefixlen)
		return -ENOENT;
	key_words(l, (const uint8_t *)key + 4, kw);
	found = walk_longest(l, kw, plen);
	if (found == NIL)
		return -ENOENT;
	memcpy(value, value_at(l, node_at(l, found)->value), l->value_size);
	return 0;
}

static void write_begin(struct hwxdp_lpm *l)
{
	__atomic_store_n(&l->seq, l->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void write_end(struct hwxdp_lpm *l)
{
	__atomic_store_n(&l->seq, l->seq + 1, __ATOMIC_RELEASE);
}

static uint32_t node_alloc(struct hwxdp_lpm *l)
{
	uint32_t n = l->free_node;

	if (n != NIL) {
		l->free_node = node_at(l, n)->child[0];
		return n;
	}
	return l->node_next++;
}

static void node_free(struct hwxdp_lpm *l, uint32_t n)
{
	struct lpm_node *node = node_at(l, n);

	store32(&node->value, NIL);
	store32(&node->child[0], l->free_node);
	store32(&node->child[1], NIL);
	l->free_node = n;
}

static uint32_t value_alloc(struct hwxdp_lpm *l)
{
	return l->value_top ? l->value_free[--l->value_top] : l->value_next++;
}

static void value_release(struct hwxdp_lpm *l, uint32_t v)
{
	l->value_free[l->value_top++] = v;
}

static void set_data(const struct hwxdp_lpm *l, struct lpm_node *node, const uint64_t *kw)
{
	for (uint32_t i = 0; i < l->data_words; i++)
		__atomic_store_n(&node->data[i], kw[i], __ATOMIC_RELAXED);
}

/* The kernel's order: an update that needs a new prefix says ENOENT to
 * BPF_EXIST before it says the trie is full. */
static int check_add(const struct hwxdp_lpm *l, uint64_t flags)
{
	if (flags == BPF_EXIST)
		return -ENOENT;
	if (l->count == l->max_entries)
		return -ENOSPC;
	return 0;
}

/*
 * The node of the exact prefix (kw, plen) or where the walk for it ended:
 * *slot is the link that points at the returned node (or would point at a
 * new one), *parent_slot the link above it, *match the bits the returned
 * node shares with the key.
 */
static uint32_t walk_exact(struct hwxdp_lpm *l, const uint64_t *kw, uint32_t plen,
			   uint32_t **slot, uint32_t **parent_slot, uint32_t *parent,
			   uint32_t *match)
{
	uint32_t n, np;

	*slot = &l->root;
	*parent_slot = NULL;
	*parent = NIL;
	*match = 0;
	while ((n = **slot) != NIL) {
		struct lpm_node *node = node_at(l, n);

		np = node->prefixlen;
		*match = match_len(node->data, kw, min32(np, plen));
		if (np != *match || np == plen)
			break;
		*parent = n;
		*parent_slot = *slot;
		*slot = &node->child[bit_at(kw, np)];
	}
	return n;
}

int hwxdp_lpm__update(struct hwxdp_lpm *l, const void *key, const void *value, uint64_t flags)
{
	uint32_t plen, n, m, parent, added, v, im, b, *slot, *parent_slot;
	struct lpm_node *node = NULL, *fresh, *mid;
	uint64_t kw[DATA_WORDS];
	int err;

	memcpy(&plen, key, sizeof(plen));
	if (flags > BPF_EXIST || plen > l->max_prefixlen)
		return -EINVAL;
	key_words(l, (const uint8_t *)key + 4, kw);
	n = walk_exact(l, kw, plen, &slot, &parent_slot, &parent, &m);
	if (n != NIL)
		node = node_at(l, n);

	if (node && node->prefixlen == m) {
		/* The prefix's own node: a value to replace, or an intermediate
		 * node that becomes a prefix. */
		if (node->value != NIL) {
			if (flags == BPF_NOEXIST)
				return -EEXIST;
			write_begin(l);
			set_data(l, node, kw);
			memcpy(value_at(l, node->value), value, l->value_size);
			write_end(l);
			return 0;
		}
		err = check_add(l, flags);
		if (err)
			return err;
		v = value_alloc(l);
		memcpy(value_at(l, v), value, l->value_size);
		write_begin(l);
		set_data(l, node, kw);
		store32(&node->value, v);
		write_end(l);
		l->count++;
		return 0;
	}

	err = check_add(l, flags);
	if (err)
		return err;
	v = value_alloc(l);
	memcpy(value_at(l, v), value, l->value_size);
	added = node_alloc(l);
	fresh = node_at(l, added);
	write_begin(l);
	store32(&fresh->prefixlen, plen);
	store32(&fresh->value, v);
	store32(&fresh->child[0], NIL);
	store32(&fresh->child[1], NIL);
	set_data(l, fresh, kw);
	if (!node) {
		store32(slot, added);
	} else if (m == plen) {
		/* The new prefix covers node: it goes in between. */
		store32(&fresh->child[bit_at(node->data, m)], n);
		store32(slot, added);
	} else {
		/* They part at bit m: an intermediate node holds both. */
		im = node_alloc(l);
		mid = node_at(l, im);
		b = bit_at(kw, m);
		store32(&mid->prefixlen, m);
		store32(&mid->value, NIL);
		set_data(l, mid, node->data);
		store32(&mid->child[b], added);
		store32(&mid->child[!b], n);
		store32(slot, im);
	}
	write_end(l);
	l->count++;
	return 0;
}

int hwxdp_lpm__delete(struct hwxdp_lpm *l, const void *key)
{
	uint32_t plen, n, m, parent, *slot, *parent_slot;
	struct lpm_node *node, *up;
	uint64_t kw[DATA_WORDS];

	memcpy(&plen, key, sizeof(plen));
	if (plen > l->max_prefixlen)
		return -EINVAL;
	key_words(l, (const uint8_t *)key + 4, kw);
	n = walk_exact(l, kw, plen, &slot, &parent_slot, &parent, &m);
	if (n == NIL)
		return -ENOENT;
	node = node_at(l, n);
	if (node->prefixlen != plen || node->prefixlen != m || node->value == NIL)
		return -ENOENT;

	write_begin(l);
	value_release(l, node->value);
	if (node->child[0] != NIL && node->child[1] != NIL) {
		/* Still where two subtrees part: it stays, without a value. */
		store32(&node->value, NIL);
	} else if (parent != NIL && node_at(l, parent)->value == NIL && node->child[0] == NIL &&
		   node->child[1] == NIL) {
		/* A leaf under an intermediate node: the sibling takes the
		 * intermediate node's place, so every one keeps two children. */
		up = node_at(l, parent);
		store32(parent_slot, up->child[up->child[0] == n ? 1 : 0]);
		node_free(l, parent);
		node_free(l, n);
	} else {
		store32(slot, node->child[0] != NIL ? node->child[0] : node->child[1]);
		node_free(l, n);
	}
	write_end(l);
	l->count--;
	return 0;
}

static void copy_key(const struct hwxdp_lpm *l, const struct lpm_node *node, void *next)
{
	uint8_t buf[DATA_WORDS * 8];

	for (uint32_t i = 0; i < l->data_words; i++) {
		uint64_t x = __builtin_bswap64(node->data[i]);

		memcpy(buf + i * 8, &x, 8);
	}
	memcpy(next, &node->prefixlen, sizeof(uint32_t));
	memcpy((uint8_t *)next + 4, buf, l->data_size);
}

/*
 * Postorder: the successor of a node is the leftmost prefix of its parent's
 * other subtree when it is a child 0 with a sibling, else its nearest
 * ancestor that holds a prefix. The path down is kept on a stack since
 * nodes have no parent links.
 */
int hwxdp_lpm__get_next_key(const struct hwxdp_lpm *l, const void *key, void *next)
{
	uint32_t stack[PLEN_MAX + 2], plen, n, np, m = 0, top, from = l->root, found = NIL;
	const struct lpm_node *node = NULL, *up;
	uint64_t kw[DATA_WORDS];
	int sp = -1;

	if (l->root == NIL)
		return -ENOENT;
	if (!key)
		goto leftmost;
	memcpy(&plen, key, sizeof(plen));
	if (plen > l->max_prefixlen)
		goto leftmost;
	key_words(l, (const uint8_t *)key + 4, kw);
	for (n = l->root; n != NIL;) {
		node = node_at(l, n);
		stack[++sp] = n;
		np = node->prefixlen;
		m = match_len(node->data, kw, min32(np, plen));
		if (np != m || np == plen)
			break;
		n = node->child[bit_at(kw, np)];
	}
	if (n == NIL || node->prefixlen != m || node->value == NIL)
		goto leftmost;

	for (n = stack[sp]; sp > 0; sp--) {
		top = stack[sp - 1];
		up = node_at(l, top);
		if (up->child[0] == n && up->child[1] != NIL) {
			from = up->child[1];
			goto leftmost;
		}
		if (up->value != NIL) {
			found = top;
			goto copy;
		}
		n = top;
	}
	return -ENOENT;

leftmost:
	for (n = from; n != NIL;) {
		node = node_at(l, n);
		if (node->value == NIL) {
			n = node->child[0];
			continue;
		}
		found = n;
		n = node->child[0] != NIL ? node->child[0] : node->child[1];
	}
copy:
	copy_key(l, node_at(l, found), next);
	return 0;
}

uint32_t hwxdp_lpm__count(const struct hwxdp_lpm *l)
{
	return l->count;
}
