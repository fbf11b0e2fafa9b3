// SPDX-License-Identifier: GPL-2.0
/*
 * State files (hwxdp run --maps) that are wrong in a way the reader used to
 * accept or to report in someone else's words: each is refused with one
 * line that names the file, the map or the key and says what is wrong.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/object.h"
#include "lab/state.h"
#include "lab/target.h"
#include "loader/log.h"

static char dir[64];
static char printed[4096];

static int capture(enum hwxdp_print_level level, const char *fmt, va_list args)
{
	size_t n = strlen(printed);

	(void)level;
	return vsnprintf(printed + n, sizeof(printed) - n, fmt, args);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/hwxdp-state-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	printed[0] = '\0';
	hwxdp_set_print(capture);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	fputs(text, f);
	fclose(f);
}

static int count_update(void *ctx, const char *map, const void *key, const void *value)
{
	(void)map;
	(void)key;
	(void)value;
	++*(int *)ctx;
	return 0;
}

/* Loads path and applies it to fwd's maps; the error, the message in msg. */
static int load_apply(const char *path, char *msg, size_t msglen, int *updates)
{
	int none = 0;
	struct hwxdp_object *obj = NULL;
	struct hx_state *state = hx_state__new();
	int err;

	cr_assert_not_null(state);
	cr_assert_eq(hwxdp_object__open(hx_object_path("fwd"), &obj), 0);
	err = hx_state__load(state, path, msg, msglen);
	if (!err)
		err = hx_state__apply(state, obj, count_update, updates ? updates : &none, msg,
				      msglen);
	hx_state__free(state);
	hwxdp_object__close(obj);
	return err;
}

static void assert_one_line(const char *msg)
{
	cr_assert_gt(strlen(msg), 0);
	cr_assert_null(strchr(msg, '\n'), "more than one line: \"%s\"", msg);
	/* the library's report is the message alone: it printed nothing */
	cr_assert_str_empty(printed, "printed besides the message: \"%s\"", printed);
}

Test(state, unknown_map_with_no_entries, .init = setup, .fini = teardown)
{
	char path[128], msg[1024] = "";

	snprintf(path, sizeof(path), "%s/state.json", dir);
	write_file(path, "{ \"maps\": { \"confg\": [] } }");
	cr_assert_eq(load_apply(path, msg, sizeof(msg), NULL), -ENOENT, "%s", msg);
	cr_assert(strstr(msg, path), "%s", msg);
	cr_assert(strstr(msg, "maps.confg: the program has no map \"confg\""), "%s", msg);
	assert_one_line(msg);
}

Test(state, a_directory, .init = setup, .fini = teardown)
{
	char msg[1024] = "", want[256];

	cr_assert_eq(load_apply(dir, msg, sizeof(msg), NULL), -EISDIR, "%s", msg);
	snprintf(want, sizeof(want), "%s: is a directory", dir);
	cr_assert(strstr(msg, want), "%s", msg);
	cr_assert_null(strstr(msg, "Input/output error"), "%s", msg);
	assert_one_line(msg);
}

Test(state, key_outside_an_array, .init = setup, .fini = teardown)
{
	char path[128], msg[1024] = "";

	snprintf(path, sizeof(path), "%s/state.json", dir);
	/* fwd's config is an array of one 16-byte entry */
	write_file(path, "{ \"maps\": { \"config\": [ { \"key\": 7, \"value\": "
			 "\"00000000 00000000 00000000 00000000\" } ] } }");
	cr_assert_eq(load_apply(path, msg, sizeof(msg), NULL), -EINVAL, "%s", msg);
	cr_assert(strstr(msg, "maps.config[0].key: key 7 is outside array config of 1 entries"),
		  "%s", msg);
	cr_assert(strstr(msg, path), "%s", msg);
	assert_one_line(msg);
}

Test(state, the_last_key_of_an_array, .init = setup, .fini = teardown)
{
	char path[128], msg[1024] = "";
	int updates = 0;

	snprintf(path, sizeof(path), "%s/state.json", dir);
	/* an empty list for a map the program has is no error */
	write_file(path, "{ \"maps\": { \"config\": [ { \"key\": 0, \"value\": "
			 "\"00000000 00000000 00000000 00000000\" } ], \"flows\": [] } }");
	cr_assert_eq(load_apply(path, msg, sizeof(msg), &updates), 0, "%s", msg);
	cr_assert_eq(updates, 1);
}

/* A path longer than the message: the reason is all there, the path cut. */
Test(state, long_path_keeps_the_reason, .init = setup, .fini = teardown)
{
	char path[2048], msg[1024] = "";
	size_t n = (size_t)snprintf(path, sizeof(path), "%s", dir);

	while (n < 1400) {
		n += (size_t)snprintf(path + n, sizeof(path) - n, "/%s",
				      "a-directory-with-a-long-name-for-the-test");
		cr_assert(!mkdir(path, 0755) || errno == EEXIST, "%s", strerror(errno));
	}
	cr_assert_eq(load_apply(path, msg, sizeof(msg), NULL), -EISDIR, "%s", msg);
	cr_assert(strstr(msg, ": is a directory, not a state file"), "cut: \"%s\"", msg);
	cr_assert(!strncmp(msg, dir, strlen(dir)), "%s", msg);
	snprintf(path + n, sizeof(path) - n, "/state.json");
	write_file(path, "{ \"maps\": { \"confg\": [] } }");
	msg[0] = '\0';
	cr_assert_eq(load_apply(path, msg, sizeof(msg), NULL), -ENOENT, "%s", msg);
	cr_assert(strstr(msg, "the program has no map \"confg\" (maps:"), "cut: \"%s\"", msg);
	cr_assert(strstr(msg, "/state.json:1:"), "%s", msg);
	cr_assert(strstr(msg, ": maps.confg: the program has no map"), "%s", msg);
}
