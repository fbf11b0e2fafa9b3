/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A BPF_MAP_TYPE_LPM_TRIE as a device table: a path-compressed binary trie
 * whose nodes and values sit in two flat pools sized at creation, so table
 * memory is fixed the way the board's is.
 *
 * Keys are the kernel's struct bpf_lpm_trie_key_u8: a host-order u32 prefix
 * length, then key_size - 4 bytes of data, most significant bit first.
 * Semantics are the kernel's LPM trie's (kernel/bpf/lpm_trie.c):
 *   lookup        the value of the longest stored prefix that matches the
 *                 key's data and is no longer than the key's prefix length;
 *                 NULL when none, or when the prefix length exceeds
 *                 8 * (key_size - 4)
 *   update        -EINVAL for flags beyond BPF_EXIST or a prefix length
 *                 beyond the data; -EEXIST (NOEXIST, prefix present),
 *                 -ENOENT (EXIST, prefix missing), -ENOSPC when max_entries
 *                 prefixes are present, in that order
 *   delete        the exact prefix: 0, -ENOENT, or -EINVAL as update
 *   get_next_key  postorder of the trie, child 0 before child 1 before the
 *                 node: more specific prefixes before the ones that cover
 *                 them, as the kernel's; NULL, a key that is not present or
 *                 an invalid prefix length gives the first
 * Only the first prefixlen bits of a key's data name the prefix; the rest is
 * stored as given and returned by get_next_key, as the kernel does.
 *
 * Concurrency: one writer (update, delete, get_next_key, lookup_copy),
 * any number of readers calling lookup, which retries while the writer is
 * changing the trie (a sequence counter). Nodes and values are never
 * returned to the system while the table lives, so a reader that raced a
 * change reads stale but mapped memory and retries. A value pointer from
 * lookup stays inside table memory; after the prefix is deleted it may be
 * reused by another prefix (the kernel frees it after an RCU grace period).
 */
#ifndef HWXDP_HWMAP_LPM_H
#define HWXDP_HWMAP_LPM_H

#include <stddef.h>
#include <stdint.h>

#define HWXDP_LPM_API __attribute__((visibility("default")))

#define HWXDP_LPM_KEY_MIN   5	/* the prefix length and one byte, as the kernel */
#define HWXDP_LPM_KEY_MAX   64	/* the table engine's key limit (docs/isa.md 1) */
#define HWXDP_LPM_VALUE_MAX 256

struct hwxdp_lpm;

/* NULL with errno EINVAL (sizes, max_entries 0 or above 2^30) or ENOMEM. */
HWXDP_LPM_API struct hwxdp_lpm *hwxdp_lpm__new(uint32_t key_size, uint32_t value_size,
					       uint32_t max_entries);
HWXDP_LPM_API void hwxdp_lpm__free(struct hwxdp_lpm *l);

/* Bytes hwxdp_lpm__new allocates for these sizes (0 for sizes it refuses). */
HWXDP_LPM_API size_t hwxdp_lpm__memory_for(uint32_t key_size, uint32_t value_size,
					   uint32_t max_entries);
/* Bytes this table holds: node and value pools, free lists, the header. */
HWXDP_LPM_API size_t hwxdp_lpm__memory(const struct hwxdp_lpm *l);

/* Reader side: the value (8-byte aligned) of the longest match, or NULL. */
HWXDP_LPM_API void *hwxdp_lpm__lookup(const struct hwxdp_lpm *l, const void *key);

/* Writer side. */
HWXDP_LPM_API int hwxdp_lpm__lookup_copy(const struct hwxdp_lpm *l, const void *key,
					 void *value);
HWXDP_LPM_API int hwxdp_lpm__update(struct hwxdp_lpm *l, const void *key, const void *value,
				    uint64_t flags);
HWXDP_LPM_API int hwxdp_lpm__delete(struct hwxdp_lpm *l, const void *key);
HWXDP_LPM_API int hwxdp_lpm__get_next_key(const struct hwxdp_lpm *l, const void *key,
					  void *next);
HWXDP_LPM_API uint32_t hwxdp_lpm__count(const struct hwxdp_lpm *l);

#endif /* HWXDP_HWMAP_LPM_H */
