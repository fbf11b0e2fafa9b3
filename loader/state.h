/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device state for an offline run: map entries and crypto-engine SAs, read
 * from a JSON file (hwxdp run --maps) or given one SA at a time (--sa).
 *
 *   {
 *     "maps": {
 *       "MAP": [ { "key": KEY, "value": VALUE }, ... ],
 *       ...
 *     },
 *     "sas": [ { "handle": 1, "spi": "0x1001", "key": "HEX", "salt": "HEX",
 *                "src": "192.0.2.1", "dst": "198.51.100.1" }, ... ]
 *   }
 *
 * KEY and VALUE are either a string of hex bytes in memory order (spaces
 * between bytes allowed, "0a000001 00000000"), exactly the map's key or
 * value size, or a non-negative integer stored in host byte order in a key
 * or value of 1, 2, 4 or 8 bytes (an array index: "key": 3); or as
 * `bpftool map dump -j` prints them: a list of "0x0a" bytes, or the fields by
 * name of its "formatted" section, which the map's BTF encodes when the
 * state is applied. An entry may carry "formatted" beside its bytes (the
 * bytes win), so a dump is a map's list as it is.
 * An entry of a devmap of struct bpf_devmap_val may name the devmap program
 * its frames run by name, "prog": "NAME" (SEC("xdp/devmap")): written into
 * the value's bpf_prog as the device's number of that program, where the
 * kernel's entry takes the program's fd.
 * An SA's key is 16, 24 or 32 bytes, its salt 4; spi is a number or a
 * "0x" string; handle is the index of the `sas` map entry it backs.
 * Members other than these are refused, so a typo is an error and not a
 * silently missing entry.
 */
#ifndef HWXDP_LOADER_STATE_H
#define HWXDP_LOADER_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hwxdp_object;

/* A key or a value as written: bytes, a number to size later, or fields
 * by name (typed, a tree of the state's) to encode by the map's BTF. */
struct hx_state_datum {
	bool is_number;
	uint64_t number;
	uint8_t *bytes;
	size_t len;
	const void *typed;
};

struct hx_state_entry {
	char *map;
	struct hx_state_datum key, value;
	char *where; /* "maps.config[0]", for messages */
	char *prog;  /* a devmap entry's program, by name, or NULL */
};

struct hx_state_sa {
	uint32_t handle;
	uint32_t spi;
	uint8_t key[32];
	size_t key_len;
	uint8_t salt[4];
	uint32_t src_be, dst_be; /* tunnel endpoints, network order */
};

struct hx_state {
	struct hx_state_entry *entries;
	size_t entry_cnt;
	/* every map the file names, an empty list of entries included */
	struct hx_state_map {
		char *name;
		char *where; /* "FILE:3:12: maps.flows" */
	} * maps;
	size_t map_cnt;
	struct hx_state_sa *sas;
	size_t sa_cnt;
	void **docs; /* the parsed files, which typed data point into */
	size_t doc_cnt;
};

/* Every function returns 0 or a negative errno (-EINVAL for input that does
 * not parse, -ENOENT for a missing file, -EISDIR for a directory, -ENOMEM)
 * with a message for the user in msg, one line that is the whole report:
 * "FILE:LINE:COL: ..." for syntax, "FILE: maps.flows[2].key: ..." for
 * content. A path too long for msg is cut in the middle, never the reason. */
struct hx_state *hx_state__new(void);
int hx_state__load(struct hx_state *state, const char *path, char *msg, size_t msglen);
int hx_state__parse(struct hx_state *state, const char *text, size_t len, const char *name,
		    char *msg, size_t msglen);
/* HANDLE:SPI:KEYHEX:SALTHEX:SRC:DST, as hwxdp run --sa takes it. */
int hx_state__add_sa_text(struct hx_state *state, const char *text, char *msg, size_t msglen);
void hx_state__free(struct hx_state *state);

/* Writes datum into out as a key or value of size bytes: -EINVAL when its
 * bytes are not size long or a number does not fit. */
int hx_state_datum__encode(const struct hx_state_datum *d, size_t size, uint8_t *out);

typedef int (*hx_state_update_fn)(void *ctx, const char *map, const void *key, const void *value);

/*
 * Checks every map the state names against obj's maps, and every entry
 * (key and value sizes, an array's key within its entries), then hands the
 * entries to update in file order. Nothing is updated unless every entry
 * checks out. update's errors stop it with a message naming the entry.
 */
int hx_state__apply(const struct hx_state *state, const struct hwxdp_object *obj,
		    hx_state_update_fn update, void *ctx, char *msg, size_t msglen);

/* The number a devmap entry's value gives for program name: 0, -ENOENT
 * when there is none, -EINVAL when it is no devmap program. */
typedef int (*hx_state_prog_fn)(void *ctx, const char *name, uint32_t *number);

/* The same, entries that name a program ("prog") numbered by prog (ctx its
 * argument too); hx_state__apply refuses them. */
int hx_state__apply_progs(const struct hx_state *state, const struct hwxdp_object *obj,
			  hx_state_update_fn update, hx_state_prog_fn prog, void *ctx, char *msg,
			  size_t msglen);

#endif /* HWXDP_LOADER_STATE_H */
