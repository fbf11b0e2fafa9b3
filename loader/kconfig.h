/* SPDX-License-Identifier: GPL-2.0 */
/* The values of a program's .kconfig externs, as libbpf gives them. */
#ifndef HWXDP_LOADER_KCONFIG_H
#define HWXDP_LOADER_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;

/* LINUX_KERNEL_VERSION of the running kernel, as libbpf computes it. */
uint32_t hwxdp_kconfig__kernel_version(void);

/*
 * Fills buf (size bytes, the .kconfig map's value) from the variables of
 * btf's .kconfig DATASEC: LINUX_KERNEL_VERSION, and each CONFIG_ option from
 * config (a kernel .config, plain or gzip'd; NULL: /boot/config-$(uname -r),
 * else /proc/config.gz). An extern weak() says is weak (its ELF symbol's
 * binding; BTF does not tell) reads 0 without a value, as libbpf leaves it.
 * 0, or a negative errno recorded with the extern's name.
 */
int hwxdp_kconfig__fill(const struct btf *btf, uint8_t *buf, size_t size, const char *config,
			bool (*weak)(const char *name, void *ctx), void *ctx);

#endif /* HWXDP_LOADER_KCONFIG_H */
