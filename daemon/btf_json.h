/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A map entry's bytes by their BTF, as `bpftool -j map dump` prints them in
 * "formatted" (bpftool 7.1): integers as numbers, bitfields and 128-bit
 * integers as "0x.." strings, bools, char arrays holding a string as
 * strings, other arrays as lists, structs and unions as objects by member
 * name, enums by enumerator name (a number when none matches), pointers as
 * numbers; typedefs and modifiers followed. docs/daemon.md, "Maps".
 */
#ifndef HWXDP_DAEMON_BTF_JSON_H
#define HWXDP_DAEMON_BTF_JSON_H

#include <stddef.h>
#include <stdint.h>

struct bpf_map;
struct bpf_object;
struct btf;
struct jbuf;

/*
 * 0 when type_id can be written and is size bytes; -EOPNOTSUPP for a kind
 * no map holds (void, a function, a forward declaration), -EINVAL for a
 * size that is not the type's, -E2BIG for types nested deeper than b can
 * take.
 */
int btf_json_check(const struct jbuf *b, const struct btf *btf, uint32_t type_id, size_t size);

/* The value at data as type_id, checked first: nothing is written unless
 * btf_json_check says 0, which is returned. */
int btf_json_type(struct jbuf *b, const struct btf *btf, uint32_t type_id, const void *data,
		  size_t size);

/*
 * `"formatted": {"key": .., "value": ..}` for one entry; "key" only when
 * key_type_id is not 0 (global data has none). Nothing is written, and a
 * negative errno returned, when either type cannot be.
 */
int btf_json_formatted(struct jbuf *b, const struct btf *btf, uint32_t key_type_id, const void *key,
		       size_t key_size, uint32_t value_type_id, const void *value,
		       size_t value_size);

/* The same for a per-CPU map: `"values": [{"cpu": N, "value": ..}, ...]`,
 * cpus values of value_size bytes, each 8-byte aligned in values as the
 * kernel's lookup returns them. */
int btf_json_formatted_percpu(struct jbuf *b, const struct btf *btf, uint32_t key_type_id,
			      const void *key, size_t key_size, uint32_t value_type_id,
			      const void *values, size_t value_size, unsigned int cpus);

/* "formatted" for an entry of map (not per-CPU) of obj, by the object's
 * BTF; nothing when the map has no BTF for its value. */
int btf_json_map_entry(struct jbuf *b, const struct bpf_object *obj, const struct bpf_map *map,
		       const void *key, const void *value);

#endif /* HWXDP_DAEMON_BTF_JSON_H */
