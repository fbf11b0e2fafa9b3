// SPDX-License-Identifier: GPL-2.0
/*
 * .kconfig externs: `extern u32 LINUX_KERNEL_VERSION __kconfig;` and
 * `extern bool CONFIG_X __kconfig __weak;` name no symbol of the object;
 * libbpf lays them out in a read-only map of its own (their offsets written
 * into the .kconfig DATASEC of the BTF it returns) and fills it at load time
 * from the running kernel. The device reads the same values.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>

#include <bpf/btf.h>

#include "base/log.h"
#include "loader/kconfig.h"
#include "loader/object_internal.h"

uint32_t hwxdp_kconfig__kernel_version(void)
{
	unsigned int major = 0, minor = 0, patch = 0;
	struct utsname u;
	FILE *f;

	/* Ubuntu's kernels carry the upstream version here, as libbpf reads it */
	f = fopen("/proc/version_signature", "r");
	if (f) {
		int n = fscanf(f, "%*s %*s %u.%u.%u\n", &major, &minor, &patch);

		fclose(f);
		if (n == 3)
			goto out;
	}
	if (uname(&u) || sscanf(u.release, "%u.%u.%u", &major, &minor, &patch) != 3)
		return 0;
out:
	return (major << 16) + (minor << 8) + (patch > 255 ? 255 : patch);
}

/* The value of name in config (a line "NAME=value"), or NULL. */
static char *config_value(const char *config, const char *name, char *out, size_t len)
{
	char path[512], line[1024];
	size_t n = strlen(name);
	struct utsname u;
	gzFile f = NULL;
	char *found = NULL;

	if (config) {
		f = gzopen(config, "r");
	} else {
		if (!uname(&u)) {
			snprintf(path, sizeof(path), "/boot/config-%s", u.release);
			f = gzopen(path, "r");
		}
		if (!f)
			f = gzopen("/proc/config.gz", "r");
	}
	if (!f)
		return NULL;
	while (!found && gzgets(f, line, sizeof(line))) {
		if (strncmp(line, name, n) || line[n] != '=')
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(out, len, "%s", line + n + 1);
		found = out;
	}
	gzclose(f);
	return found;
}

/* One option's text into the variable at v, as libbpf reads it by its type. */
static int set_value(const struct btf *btf, const struct btf_type *t, const char *name,
		     const char *text, uint8_t *v, size_t room)
{
	bool tristate =
		btf_is_enum(t) && !strcmp(btf__name_by_offset(btf, t->name_off), "libbpf_tristate");
	char *end;

	if (t->size > room)
		return hwxdp_error(-EINVAL, "kconfig extern '%s' lies beyond its map", name);
	if (btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);
		size_t len = strlen(text);

		if (len < 2 || text[0] != '"' || text[len - 1] != '"')
			return hwxdp_error(-EINVAL, "kconfig extern '%s': '%s' is not a string",
					   name, text);
		if (a->nelems > room)
			return hwxdp_error(-EINVAL, "kconfig extern '%s' lies beyond its map",
					   name);
		memset(v, 0, a->nelems);
		memcpy(v, text + 1,
		       len - 2 < a->nelems ? len - 2 : (a->nelems ? a->nelems - 1 : 0));
		return 0;
	}
	if (!btf_is_int(t) && !tristate)
		return hwxdp_error(-EINVAL, "kconfig extern '%s' has a type libbpf does not fill",
				   name);
	if ((text[0] == 'y' || text[0] == 'n' || text[0] == 'm') && !text[1]) {
		uint8_t enc = btf_is_int(t) ? btf_int_encoding(t) : 0;

		if (tristate) {
			uint32_t tri = text[0] == 'y' ? 1 : text[0] == 'm' ? 2 : 0;

			memcpy(v, &tri, t->size < 4 ? t->size : 4);
			return 0;
		}
		if (enc & BTF_INT_BOOL) {
			if (text[0] == 'm')
				return hwxdp_error(-EINVAL, "kconfig extern '%s': 'm' for a bool",
						   name);
			*v = text[0] == 'y';
			return 0;
		}
		/* any other one-byte integer is a char, which takes the letter */
		if (t->size == 1) {
			*v = (uint8_t)text[0];
			return 0;
		}
		return hwxdp_error(-EINVAL, "kconfig extern '%s': value '%c' for a number", name,
				   text[0]);
	}
	{
		unsigned long long n = strtoull(text, &end, 0);

		if (!btf_is_int(t) || *end || end == text || t->size > 8)
			return hwxdp_error(-EINVAL, "kconfig extern '%s': '%s' is not a number",
					   name, text);
		/* little-endian, as the BPF target this project builds for */
		memcpy(v, &n, t->size);
	}
	return 0;
}

int hwxdp_kconfig__fill(const struct btf *btf, uint8_t *buf, size_t size, const char *config,
			bool (*weak)(const char *name, void *ctx), void *ctx)
{
	const struct btf_type *sec;
	int id;

	id = btf ? btf__find_by_name_kind(btf, ".kconfig", BTF_KIND_DATASEC) : -1;
	if (id <= 0)
		return 0;
	sec = btf__type_by_id(btf, id);
	memset(buf, 0, size);
	for (uint32_t i = 0; i < btf_vlen(sec); i++) {
		const struct btf_var_secinfo *vi = btf_var_secinfos(sec) + i;
		const struct btf_type *var = btf__type_by_id(btf, vi->type), *t;
		const char *name;
		char text[512];
		int err;

		if (!var || !btf_is_var(var))
			continue;
		name = btf__name_by_offset(btf, var->name_off);
		t = btf_skip_links(btf, var->type, NULL);
		if (!t || vi->offset > size)
			return hwxdp_error(-EINVAL, "kconfig extern '%s' lies beyond its map",
					   name);
		if (!strcmp(name, "LINUX_KERNEL_VERSION")) {
			uint32_t version = hwxdp_kconfig__kernel_version();

			if (!btf_is_int(t) || t->size != sizeof(version))
				return hwxdp_error(-EINVAL, "LINUX_KERNEL_VERSION is not a u32");
			memcpy(buf + vi->offset, &version, sizeof(version));
			continue;
		}
		if (strncmp(name, "CONFIG_", 7))
			return hwxdp_error(-EINVAL, "kconfig extern '%s' is not a CONFIG_ option",
					   name);
		if (!config_value(config, name, text, sizeof(text))) {
			if (!weak || !weak(name, ctx))
				return hwxdp_error(-ENOENT,
						   "kconfig extern '%s': the kernel's config has "
						   "no value for it",
						   name);
			continue; /* weak: 0 */
		}
		err = set_value(btf, t, name, text, buf + vi->offset, size - vi->offset);
		if (err)
			return err;
	}
	return 0;
}
