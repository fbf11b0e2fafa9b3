/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Legacy maps for libbpf 1.x: an object whose maps are struct bpf_map_def
 * (or iproute2's struct bpf_elf_map) in SEC("maps") rewritten, in memory,
 * as the same maps defined with BTF in SEC(".maps"), which libbpf 1.x opens.
 */
#ifndef HWXDP_LOADER_LEGACY_MAPS_H
#define HWXDP_LOADER_LEGACY_MAPS_H

#include <stddef.h>

/*
 * The ELF object in data (size bytes; file names it in messages) with its
 * legacy maps section rewritten: 1 and the new object in *image (free() it)
 * and *image_size; 0 when it has no "maps" section, or is no ELF file whose
 * sections can be named (nothing to rewrite: libbpf says what it is); a
 * negative error when it cannot be rewritten, the reason recorded with
 * hwxdp_error (a malformed section, a map of maps).
 */
int hwxdp_legacy_maps_rewrite(const void *data, size_t size, const char *file, void **image,
			      size_t *image_size);

#endif /* HWXDP_LOADER_LEGACY_MAPS_H */
