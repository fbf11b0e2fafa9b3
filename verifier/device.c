// SPDX-License-Identifier: GPL-2.0
/*
 * The coprocessor's restrictions (docs/isa.md), checked in the same walk as
 * the kernel's rules when opts.device is set. A program for the device is
 * always a program for the host as well (the host runs every frame the
 * device punts), so these rules come on top of the kernel's, never instead.
 *
 * Tables. The table engine holds arrays, per-CPU arrays, hash tables (plain,
 * per-CPU, LRU), LPM tries, port tables (devmap, devmap hash) and program
 * arrays. A map needs a device table where the device operates on it: a map
 * argument of a helper the device runs (lookup, update, delete,
 * redirect_map, tail_call), or a global-data value the device addresses
 * (ld_imm64 of a map value on a path the device takes). Neither "referenced
 * anywhere" nor "loaded by an ld_imm64 the device reaches" would do: the
 * first rejects a ring buffer used only by the host copy's branch (dead for
 * the device, as DESIGN.md "One program, two targets" intends), the second
 * one passed to bpf_ringbuf_output on a device path, where the device punts
 * at the call and the map pointer it loaded a moment before is never used.
 * The translator, likewise, makes tables only for the maps the device uses.
 *
 * Key and value widths are the table engine's (hwmap/hash.h): keys of at
 * most 64 bytes and values of at most 256 for every table looked up by key
 * (hash, per-CPU and LRU hash, LPM trie: prefix length included); arrays
 * are addressed, not compared, and take values up to 1 MiB; port tables
 * and program arrays have the kernel's fixed layouts. The number of entries
 * is the board's business, checked when the tables are made.
 *
 * Stack. The device has 8 frames of local memory of 512 bytes each, and a
 * return stack of 8 (so 7 nested calls: the same 8 frames as the kernel's
 * MAX_CALL_FRAMES). The kernel allows 512 bytes for all frames of a call
 * chain together, which is the stricter rule: a chain within it has every
 * frame within 512. A device program must load on the host too, so the
 * kernel's rule (cfg.c) is the one applied, on both targets, and nothing
 * is left to check here; the static assertions below keep it true.
 *
 * Microcode store. 32,768 operation words, shared by every loaded program.
 * The translator emits at most one word per BPF instruction slot (an
 * ld_imm64 is two slots and a two-word movi; a helper call, a kfunc call,
 * a tail call and a punt are one unit operation each; fusing only lowers
 * the count), so a program whose instructions reachable on the device fill
 * more than the store can never fit and is rejected here. One that fits
 * here can still be refused at load, when other programs hold the store.
 *
 * Tail calls. PROG_ARRAY and bpf_tail_call map to `tcall`; the limit of 33
 * tail calls per frame is counted by the device at run time, as the kernel
 * counts its own (MAX_TAIL_CALL_CNT), so nothing bounds it here. A tail
 * call from a subprogram is rejected: in BPF the called program returns to
 * the subprogram's caller, while on the device its `exit` ends the frame.
 * A tail call after a side effect is recorded in the facts, since the
 * program it calls must then not punt.
 */
#include <stdio.h>

#include "hwmap/hash.h"
#include "verifier/verifier_internal.h"

#define DEVICE_STORE_WORDS     32768	  /* docs/isa.md 1 */
#define DEVICE_LM_FRAMES       8	  /* docs/isa.md 2: local memory frames */
#define DEVICE_LM_FRAME_SIZE   512	  /* bytes of one */
#define DEVICE_ARRAY_VALUE_MAX (1u << 20) /* bytes of one array value */

_Static_assert(MAX_CALL_FRAMES <= DEVICE_LM_FRAMES,
	       "a call chain the walk accepts must fit the device's local memory");
_Static_assert(MAX_BPF_STACK <= DEVICE_LM_FRAME_SIZE,
	       "a combined stack within the kernel's limit must fit one device frame");

const char *map_type_name(uint32_t type)
{
	static const char *const names[] = {
		[BPF_MAP_TYPE_UNSPEC] = "unspec",
		[BPF_MAP_TYPE_HASH] = "hash",
		[BPF_MAP_TYPE_ARRAY] = "array",
		[BPF_MAP_TYPE_PROG_ARRAY] = "prog_array",
		[BPF_MAP_TYPE_PERF_EVENT_ARRAY] = "perf_event_array",
		[BPF_MAP_TYPE_PERCPU_HASH] = "percpu_hash",
		[BPF_MAP_TYPE_PERCPU_ARRAY] = "percpu_array",
		[BPF_MAP_TYPE_STACK_TRACE] = "stack_trace",
		[BPF_MAP_TYPE_CGROUP_ARRAY] = "cgroup_array",
		[BPF_MAP_TYPE_LRU_HASH] = "lru_hash",
		[BPF_MAP_TYPE_LRU_PERCPU_HASH] = "lru_percpu_hash",
		[BPF_MAP_TYPE_LPM_TRIE] = "lpm_trie",
		[BPF_MAP_TYPE_ARRAY_OF_MAPS] = "array_of_maps",
		[BPF_MAP_TYPE_HASH_OF_MAPS] = "hash_of_maps",
		[BPF_MAP_TYPE_DEVMAP] = "devmap",
		[BPF_MAP_TYPE_SOCKMAP] = "sockmap",
		[BPF_MAP_TYPE_CPUMAP] = "cpumap",
		[BPF_MAP_TYPE_XSKMAP] = "xskmap",
		[BPF_MAP_TYPE_SOCKHASH] = "sockhash",
		[BPF_MAP_TYPE_CGROUP_STORAGE] = "cgroup_storage",
		[BPF_MAP_TYPE_REUSEPORT_SOCKARRAY] = "reuseport_sockarray",
		[BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE] = "percpu_cgroup_storage",
		[BPF_MAP_TYPE_QUEUE] = "queue",
		[BPF_MAP_TYPE_STACK] = "stack",
		[BPF_MAP_TYPE_SK_STORAGE] = "sk_storage",
		[BPF_MAP_TYPE_DEVMAP_HASH] = "devmap_hash",
		[BPF_MAP_TYPE_STRUCT_OPS] = "struct_ops",
		[BPF_MAP_TYPE_RINGBUF] = "ringbuf",
		[BPF_MAP_TYPE_INODE_STORAGE] = "inode_storage",
		[BPF_MAP_TYPE_TASK_STORAGE] = "task_storage",
		[BPF_MAP_TYPE_BLOOM_FILTER] = "bloom_filter",
		[BPF_MAP_TYPE_USER_RINGBUF] = "user_ringbuf",
	};

	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return "unknown";
}

/* " (file:line)" for insn idx when the program came with line info. */
static const char *source_of(struct verifier_env *env, uint32_t idx, char *buf, size_t size)
{
	const struct hwxdp_line *line = env->prog ? hwxdp_prog__line(env->prog, idx) : NULL;

	buf[0] = '\0';
	if (line && line->line)
		snprintf(buf, size, " (%s:%u)", line->file ? line->file : "?", line->line);
	return buf;
}

/* What the table engine takes of a map type; false for a type it lacks. */
static bool device_table(uint32_t type, const char **kind, uint32_t *key_exact, uint32_t *key_max,
			 uint32_t *value_max)
{
	*key_exact = 0;
	*key_max = HWXDP_HASH_KEY_MAX;
	*value_max = HWXDP_HASH_VALUE_MAX;
	switch (type) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		*kind = "hash table";
		return true;
	case BPF_MAP_TYPE_LPM_TRIE:
		*kind = "LPM trie";
		return true;
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		*kind = "array";
		*key_exact = 4;
		*value_max = DEVICE_ARRAY_VALUE_MAX;
		return true;
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		*kind = "port table";
		*key_exact = 4;
		*value_max = 8; /* an ifindex, and an egress program's fd */
		return true;
	case BPF_MAP_TYPE_PROG_ARRAY:
		*kind = "program array";
		*key_exact = 4;
		*value_max = 4;
		return true;
	}
	return false;
}

int device_check_map(struct verifier_env *env, const struct hwxdp_map_desc *map, uint32_t idx)
{
	uint32_t key_exact, key_max, value_max;
	const char *kind;
	char where[256];

	/* a table of table ids, whose tables are as its template is */
	if (map->type == BPF_MAP_TYPE_ARRAY_OF_MAPS || map->type == BPF_MAP_TYPE_HASH_OF_MAPS) {
		const struct hwxdp_map_desc *in =
			map->inner_map < env->map_cnt ? &env->maps[map->inner_map] : NULL;

		if (map->type == BPF_MAP_TYPE_ARRAY_OF_MAPS ? map->key_size != 4
							    : map->key_size > HWXDP_HASH_KEY_MAX) {
			verbose(env,
				"map '%s' (%s) at insn %u%s: key_size %u, the device's map of maps "
				"takes %s %u bytes\n",
				map->name, map_type_name(map->type), idx,
				source_of(env, idx, where, sizeof(where)), map->key_size,
				map->type == BPF_MAP_TYPE_ARRAY_OF_MAPS ? "keys of" : "keys up to",
				map->type == BPF_MAP_TYPE_ARRAY_OF_MAPS ? 4 : HWXDP_HASH_KEY_MAX);
			return REJECT;
		}
		if (!in || in->type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
		    in->type == BPF_MAP_TYPE_HASH_OF_MAPS) {
			verbose(env, "map '%s' (%s) at insn %u%s: no template the device holds\n",
				map->name, map_type_name(map->type), idx,
				source_of(env, idx, where, sizeof(where)));
			return REJECT;
		}
		return device_check_map(env, in, idx);
	}
	if (!device_table(map->type, &kind, &key_exact, &key_max, &value_max)) {
		verbose(env,
			"map '%s' (%s, type %u) at insn %u%s: the device has no such table (it "
			"holds array, percpu_array, hash, percpu_hash, lru_hash, lru_percpu_hash, "
			"lpm_trie, devmap, devmap_hash, prog_array)\n",
			map->name, map_type_name(map->type), map->type, idx,
			source_of(env, idx, where, sizeof(where)));
		return REJECT;
	}
	if (key_exact ? map->key_size != key_exact : map->key_size > key_max) {
		verbose(env,
			"map '%s' (%s) at insn %u%s: key_size %u, the device's %s takes %s %u "
			"bytes\n",
			map->name, map_type_name(map->type), idx,
			source_of(env, idx, where, sizeof(where)), map->key_size, kind,
			key_exact ? "keys of" : "keys up to", key_exact ? key_exact : key_max);
		return REJECT;
	}
	if (map->value_size > value_max) {
		verbose(env,
			"map '%s' (%s) at insn %u%s: value_size %u, the device's %s takes values "
			"up to %u bytes\n",
			map->name, map_type_name(map->type), idx,
			source_of(env, idx, where, sizeof(where)), map->value_size, kind,
			value_max);
		return REJECT;
	}
	return 0;
}

/* A punt at idx, for what the call is ("host-only helper NAME#N", ...). */
static int device_punt_call(struct verifier_env *env, const char *what, const char *why,
			    uint32_t idx)
{
	uint32_t side_effect = env->cur->side_effect;
	char at[256], after[256];

	/*
	 * A punt hands the frame to the host, which runs the program again
	 * from the start: right only while nothing this run did is visible,
	 * neither a map write (the host would repeat it) nor a change to the
	 * frame (the host must see it as it arrived). The write of a
	 * helper's own memory argument, noted as its arguments were checked,
	 * is not one: the device punts before the call.
	 */
	if (side_effect == idx + 1)
		side_effect = 0;
	if (side_effect) {
		verbose(env,
			"%s after the side effect of insn %u%s: the device cannot punt at insn "
			"%u%s\n",
			what, side_effect - 1,
			source_of(env, side_effect - 1, after, sizeof(after)), idx,
			source_of(env, idx, at, sizeof(at)));
		return REJECT;
	}
	env->facts[idx].punt_point = true;
	env->punted = true;
	if (env->log_level >= 1)
		verbose(env, "%u: punt to the host: %s\n", idx, why);
	return 0;
}

int device_host_only_call(struct verifier_env *env, int func_id, const char *reason, uint32_t idx)
{
	char what[192], why[192];

	if (reason) {
		snprintf(what, sizeof(what), "host-only helper %s#%d (%s)", helper_name(func_id),
			 func_id, reason);
		snprintf(why, sizeof(why), "%s#%d is host-only: %s", helper_name(func_id), func_id,
			 reason);
	} else {
		snprintf(what, sizeof(what), "host-only helper %s#%d", helper_name(func_id),
			 func_id);
		snprintf(why, sizeof(why), "%s#%d is host-only", helper_name(func_id), func_id);
	}
	return device_punt_call(env, what, why, idx);
}

bool device_redirect_to_host(const struct hwxdp_map_desc *map)
{
	return map->type == BPF_MAP_TYPE_CPUMAP || map->type == BPF_MAP_TYPE_XSKMAP;
}

static const char *host_target(const struct hwxdp_map_desc *map)
{
	return map->type == BPF_MAP_TYPE_CPUMAP ? "a host CPU's queue" : "an AF_XDP socket";
}

int device_check_redirect(struct verifier_env *env, uint32_t map_idx, uint32_t idx)
{
	struct hwxdp_insn_fact *f = &env->facts[idx];
	const struct hwxdp_map_desc *map = &env->maps[map_idx], *host = NULL, *dev = NULL;
	char what[HWXDP_NAME_MAX + 128], why[HWXDP_NAME_MAX + 128], at[256];
	bool more = !f->map_known && f->map_alt_cnt > HWXDP_MAP_ALTS;
	int err;

	for (uint8_t i = 0; !f->map_known && i < f->map_alt_cnt && i < HWXDP_MAP_ALTS; i++) {
		const struct hwxdp_map_desc *m = &env->maps[f->map_alt[i]];

		if (device_redirect_to_host(m))
			host = host ? host : m;
		else
			dev = dev ? dev : m;
	}
	/*
	 * A host redirect punts, which a call given a port table on other
	 * paths does only on the paths that passed a host map: the translator
	 * tests the map register for them (Suricata's bypass to its IPS peer
	 * and its CPU spreading, met at one call). More maps than the facts
	 * name cannot be told apart.
	 */
	if (host && more) {
		verbose(env,
			"bpf_redirect_map#%d at insn %u%s is given %s '%s' on one path and other "
			"maps on others: the device punts a redirect to %s and cannot tell the "
			"paths apart\n",
			BPF_FUNC_redirect_map, idx, source_of(env, idx, at, sizeof(at)),
			map_type_name(host->type), host->name, host_target(host));
		return REJECT;
	}
	if (host && dev) {
		f->punt_host_maps = true;
		f->punt_point = false;
	}
	if (!device_redirect_to_host(map))
		return 0;
	snprintf(what, sizeof(what),
		 "bpf_redirect_map#%d into %s '%s' (%s, which only the host reaches)",
		 BPF_FUNC_redirect_map, map_type_name(map->type), map->name, host_target(map));
	snprintf(why, sizeof(why), "bpf_redirect_map#%d into %s '%s' goes to %s",
		 BPF_FUNC_redirect_map, map_type_name(map->type), map->name, host_target(map));
	err = device_punt_call(env, what, why, idx);
	if (f->punt_host_maps)
		f->punt_point = false;
	return err;
}

int device_check_tail_call(struct verifier_env *env, uint32_t idx)
{
	char at[256];

	if (env->cur->curframe) {
		verbose(env,
			"tail call from a subprogram (frame %u) at insn %u%s: on the device the "
			"called program's exit ends the frame instead of returning to the caller\n",
			env->cur->curframe, idx, source_of(env, idx, at, sizeof(at)));
		return REJECT;
	}
	if (env->cur->side_effect)
		env->facts[idx].tail_call_after_side_effect = true;
	return 0;
}

static bool is_ld_imm64(const struct bpf_insn *insn)
{
	return insn->code == (BPF_LD | BPF_IMM | BPF_DW);
}

int device_check_reached(struct verifier_env *env)
{
	uint32_t i, words = 0, full_at = UINT32_MAX;
	char at[256];
	int err;

	for (i = 0; i < env->insn_cnt; i++) {
		const struct bpf_insn *insn = &env->insns[i];

		if (!env->facts[i].reachable)
			continue;
		words += is_ld_imm64(insn) ? 2 : 1;
		if (words > DEVICE_STORE_WORDS && full_at == UINT32_MAX)
			full_at = i;
		/* a global-data value the device addresses lives in table memory */
		if (is_ld_imm64(insn) && (insn->src_reg == BPF_PSEUDO_MAP_VALUE ||
					  insn->src_reg == BPF_PSEUDO_MAP_IDX_VALUE)) {
			env->error_insn = i;
			err = device_check_map(env, &env->maps[insn->imm], i);
			if (err)
				return err;
		}
	}
	if (full_at != UINT32_MAX) {
		env->error_insn = full_at;
		verbose(env,
			"program too large for the device: %u microcode words for the instructions "
			"it reaches (one per instruction, two per ld_imm64), the store holds %u; "
			"it is full before insn %u%s\n",
			words, DEVICE_STORE_WORDS, full_at,
			source_of(env, full_at, at, sizeof(at)));
		return -E2BIG;
	}
	return 0;
}
