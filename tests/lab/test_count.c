// SPDX-License-Identifier: GPL-2.0
/*
 * The lab's tables on a program that lacks one of fwd's maps: the error
 * names the object and the map, in one line that the library does not
 * print itself, on the reference interpreter and on the device alike.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lab/bpf_count.h"
#include "fwdlab/fwd_lab.h"
#include "lab/target.h"
#include "base/log.h"

static char printed[4096];

static int capture(enum hwxdp_print_level level, const char *fmt, va_list args)
{
	size_t n = strlen(printed);

	(void)level;
	return vsnprintf(printed + n, sizeof(printed) - n, fmt, args);
}

static void assert_names_the_map(struct hx_target *t, const char *path)
{
	static const uint32_t ifindex[HX_LAB_PORTS] = { 11, 12, 13 };
	const char *msg;
	int err;

	cr_assert_not_null(t, "%s: %s", path, hwxdp_error_message(-errno));
	err = hx_lab_setup(t, ifindex);
	cr_assert_eq(err, -ENOENT);
	msg = hwxdp_error_message(err);
	/* the lab fills fwd's config first; vlan_tag has no such map */
	cr_assert(strstr(msg, "the program has no map \"config\""), "\"%s\"", msg);
	cr_assert_null(strchr(msg, '\n'), "\"%s\"", msg);
	cr_assert_str_empty(printed, "printed besides: \"%s\"", printed);
	/* given once: the next error of the same kind is not this one */
	cr_assert_str_eq(hwxdp_error_message(err), strerror(ENOENT));
	hx_target_close(t);
}

Test(lab_tables, count_target_names_the_missing_map)
{
	const char *path = hx_object_path("vlan_tag");
	struct hx_target *t;

	hwxdp_set_print(capture);
	t = hx_count_target_open(path);
	assert_names_the_map(t, path);
}

Test(lab_tables, count_target_names_the_object)
{
	static const uint32_t ifindex[HX_LAB_PORTS] = { 11, 12, 13 };
	const char *path = hx_object_path("vlan_tag");
	struct hx_target *t = hx_count_target_open(path);
	int err;

	cr_assert_not_null(t);
	err = hx_lab_setup(t, ifindex);
	cr_assert(strstr(hwxdp_error_message(err), path), "no %s", path);
	hx_target_close(t);
}

/* A path of 1,400 bytes: the reason after it is whole. */
Test(lab_tables, long_path_keeps_the_reason)
{
	char dir[] = "/tmp/hwxdp-count-XXXXXX", path[2048], cmd[2100];
	const char *msg;
	size_t n;
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	n = (size_t)snprintf(path, sizeof(path), "%s", dir);
	while (n < 1400) {
		n += (size_t)snprintf(path + n, sizeof(path) - n, "/%s",
				      "a-directory-with-a-long-name-for-the-test");
		cr_assert(!mkdir(path, 0755), "%s", strerror(errno));
	}
	snprintf(path + n, sizeof(path) - n, "/prog.bpf.o");
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("not an object\n", f);
	fclose(f);
	hwxdp_set_print(capture);
	cr_assert_null(hx_target_open("device", path));
	msg = hwxdp_error_message(-errno);
	cr_assert(strstr(msg, "/prog.bpf.o: not an ELF file"), "cut: \"%s\"", msg);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

Test(lab_tables, device_target_names_the_missing_map)
{
	const char *path = hx_object_path("vlan_tag");
	struct hx_target *t;

	hwxdp_set_print(capture);
	t = hx_target_open("device", path);
	assert_names_the_map(t, path);
}
