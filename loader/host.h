/* SPDX-License-Identifier: GPL-2.0 */
/* The host copy: a program loaded into the kernel as the fallback target. */
#ifndef HWXDP_LOADER_HOST_H
#define HWXDP_LOADER_HOST_H

#include <bpf/libbpf.h>

/*
 * Opens the BPF object at path, marks it for the host target (its
 * `hwxdp_target` global, where it has one) and loads it into the kernel.
 * NULL with errno set on failure; the reason, one line naming the file, is
 * hwxdp_error_message(-errno) (libbpf prints the kernel's log itself).
 */
struct bpf_object *hwxdp_host_load(const char *path);

/* The object's first XDP program, or NULL. */
struct bpf_program *hwxdp_host_xdp_program(struct bpf_object *obj);

#endif /* HWXDP_LOADER_HOST_H */
