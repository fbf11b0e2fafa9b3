/* SPDX-License-Identifier: GPL-2.0 */
/* The host copy: a program loaded into the kernel as the fallback target. */
#ifndef HWXDP_LOADER_HOST_H
#define HWXDP_LOADER_HOST_H

#include <stdbool.h>
#include <stddef.h>

#include <bpf/libbpf.h>

/*
 * Opens the BPF object at path, marks it for the host target (its
 * `hwxdp_target` global, where it has one) and loads it into the kernel.
 * Legacy maps (struct bpf_map_def in SEC("maps")), which libbpf 1.x refuses,
 * are rewritten as BTF-defined ones first (loader/legacy_maps.h).
 * NULL with errno set on failure; the reason, one line naming the file, is
 * hwxdp_error_message(-errno) (libbpf prints the kernel's log itself).
 */
struct bpf_object *hwxdp_host_load(const char *path);

struct hwxdp_host_load_opts {
	size_t sz; /* sizeof(struct hwxdp_host_load_opts) */
	/* Create the object's own ARRAY maps BPF_F_MMAPABLE, so that their
	 * memory can be shared (the board's tables, hwxdpd). */
	bool mmapable_arrays;
	/* Reuse the maps pinned in this directory by name (a map not pinned
	 * there is made and pinned there): a program replacing another keeps
	 * its maps. A pinned map of another type or size fails the load. */
	const char *pin_dir;
	/* Maps of these names are made new, though pinned in pin_dir, and
	 * not pinned: the caller pins them where it wants, when it wants. */
	const char *const *fresh;
	size_t fresh_cnt;
	/* Not 0: XDP programs are loaded bound to this netdev (prog_ifindex,
	 * BPF_F_XDP_DEV_BOUND_ONLY), as the kernel's XDP metadata kfuncs
	 * need; they then attach to that netdev only. */
	unsigned int bind_ifindex;
};

struct bpf_object *hwxdp_host_load_opts(const char *path, const struct hwxdp_host_load_opts *opts);

/* The object's first XDP program, or NULL. */
struct bpf_program *hwxdp_host_xdp_program(struct bpf_object *obj);

/* The XDP program named (its function's name) that a port runs, or with
 * NULL the first (not one for a devmap or cpumap entry); NULL if none. */
struct bpf_program *hwxdp_host_port_program(struct bpf_object *obj, const char *name);

#endif /* HWXDP_LOADER_HOST_H */
