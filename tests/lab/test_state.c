// SPDX-License-Identifier: GPL-2.0
/*
 * State files (hwxdp run --maps) that are wrong in a way the reader used to
 * accept or to report in someone else's words: each is refused with one
 * line that names the file, the map or the key and says what is wrong.
 */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdlib.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwmap/hxu.h"
#include "loader/device.h"
#include "loader/object.h"
#include "loader/state.h"
#include "lab/target.h"
#include "base/log.h"

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

/*
 * What bpftool prints, fed back. A real kernel map: fwd loaded and its maps
 * pinned by bpftool, entries written with `bpftool map update` from the
 * bytes below, dumped with `bpftool map dump -j`; the dump as a state file
 * gives back those bytes, once by its byte lists and once by its
 * "formatted" fields alone (encoded by the object's BTF).
 */
static char pin_dir[64];

static void pin_setup(void)
{
	setup();
	snprintf(pin_dir, sizeof(pin_dir), "/sys/fs/bpf/hwxdp-state-%d", (int)getpid());
}

static void pin_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", pin_dir);
	(void)!system(cmd);
	teardown();
}

/* Runs cmd through the shell; its whole output, which the caller frees. */
static char *output_of(const char *cmd)
{
	size_t cap = 1 << 16, len = 0, n;
	char *out = malloc(cap);
	FILE *p = popen(cmd, "r");

	cr_assert(out && p, "%s", cmd);
	while ((n = fread(out + len, 1, cap - len - 1, p)) > 0) {
		len += n;
		if (len + 1 == cap) {
			out = realloc(out, cap *= 2);
			cr_assert_not_null(out);
		}
	}
	out[len] = '\0';
	cr_assert_eq(pclose(p), 0, "%s: %s", cmd, out);
	return out;
}

static void run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void run(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	free(output_of(cmd));
}

/* "0a 00 ..." for bpftool's `hex` arguments. */
static void hex_args(const uint8_t *b, size_t len, char *out)
{
	for (size_t i = 0; i < len; i++)
		sprintf(out + 3 * i, "%02x ", b[i]);
}

struct recorded {
	char map[32];
	uint8_t key[64], value[64];
};

struct record {
	struct recorded e[64];
	int n;
	const struct hwxdp_object *obj;
};

static int record_update(void *ctx, const char *map, const void *key, const void *value)
{
	struct record *r = ctx;
	const struct hwxdp_map_desc *m = NULL;

	for (size_t i = 0; i < r->obj->map_cnt; i++)
		if (!strcmp(r->obj->maps[i].name, map))
			m = &r->obj->maps[i];
	cr_assert(m && m->key_size <= 64 && m->value_size <= 64 && r->n < 64);
	snprintf(r->e[r->n].map, sizeof(r->e[r->n].map), "%s", map);
	memcpy(r->e[r->n].key, key, m->key_size);
	memcpy(r->e[r->n].value, value, m->value_size);
	r->n++;
	return 0;
}

/* The value recorded for map and key, which must be there. */
static const uint8_t *recorded_value(const struct record *r, const char *map, const void *key,
				     size_t key_size)
{
	for (int i = 0; i < r->n; i++)
		if (!strcmp(r->e[i].map, map) && !memcmp(r->e[i].key, key, key_size))
			return r->e[i].value;
	cr_assert_fail("no entry of %s was written", map);
	return NULL;
}

/* The dump with every entry's byte lists left out: {"formatted": ...} only. */
static char *formatted_only(const char *dump)
{
	size_t len = strlen(dump), n = 0;
	char *out = malloc(len + 1);
	const char *p = dump;

	cr_assert_not_null(out);
	out[n++] = '[';
	while ((p = strstr(p, "\"formatted\":"))) {
		const char *start = p;
		int depth = 0;

		p += strlen("\"formatted\":");
		while (*p == ' ' || *p == '\n')
			p++;
		cr_assert_eq(*p, '{');
		do {
			depth += *p == '{' ? 1 : *p == '}' ? -1 : 0;
			p++;
		} while (depth);
		n += (size_t)sprintf(out + n, "%s{%.*s}", n > 1 ? "," : "", (int)(p - start),
				     start);
	}
	out[n++] = ']';
	out[n] = '\0';
	return out;
}

static void feed_back(const char *path, const char *lifs, const char *flows, const char *config,
		      struct record *r)
{
	char *text, msg[1024] = "";
	struct hx_state *state = hx_state__new();
	FILE *f = fopen(path, "w");

	cr_assert(f && state);
	fprintf(f, "{\"maps\": {\"lifs\": %s, \"flows\": %s, \"config\": %s}}\n", lifs, flows,
		config);
	fclose(f);
	cr_assert_eq(hx_state__load(state, path, msg, sizeof(msg)), 0, "%s", msg);
	r->n = 0;
	cr_assert_eq(hx_state__apply(state, r->obj, record_update, r, msg, sizeof(msg)), 0, "%s",
		     msg);
	hx_state__free(state);
	(void)text;
}

Test(state, a_bpftool_dump_fed_back, .init = pin_setup, .fini = pin_teardown)
{
	/* fwd's layouts, written byte by byte here (progs/include/hwxdp/fwd.h):
	 * lifs 4101 -> state 1, rx_packets 2, rx_bytes 0x0102030405, tx 7 */
	static const uint8_t lif_key[4] = { 0x05, 0x10, 0x00, 0x00 };
	static const uint8_t lif_value[48] = { 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0,
					       0, 0, 0, 5, 4, 3, 2, 1, 0, 0, 0, 7 };
	/* flows: LIF 4101, IPv4, UDP, ports 1234 -> 53 in network order,
	 * 10.0.0.1 -> 192.0.2.9 -> next hop 3, tunnel, SA 9 revision 2 */
	static const uint8_t flow_key[44] = { 0x05, 0x10, 0,  0, 4, 17, 0,	    0, 0x04, 0xd2,
					      0,    53,	  10, 0, 0, 1,	[28] = 192, 0, 2,    9 };
	static const uint8_t flow_value[32] = { 3,    0,    0,	  0,	1,    0,    0,	  0,
						9,    0,    0,	  0,	2,    0,    0,	  0,
						0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t config_key[4] = { 0 };
	static const uint8_t config_value[16] = { 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 };
	char path[128], args[2][256], *lifs, *flows, *config, *flifs, *fflows, *fconfig;
	struct hwxdp_object *obj = NULL;
	struct record r = {};

	if (geteuid())
		cr_skip_test("needs root: bpftool loads fwd into the kernel");
	/* a fresh machine may have no bpffs mounted yet: bpftool pins there */
	run("[ \"$(stat -f -c %%T /sys/fs/bpf)\" = bpf_fs ] || mount -t bpf bpf /sys/fs/bpf");
	run("mkdir -p %s && bpftool prog loadall %s %s/progs pinmaps %s/maps type xdp 2>&1",
	    pin_dir, hx_object_path("fwd"), pin_dir, pin_dir);
	hex_args(lif_key, sizeof(lif_key), args[0]);
	hex_args(lif_value, sizeof(lif_value), args[1]);
	run("bpftool map update pinned %s/maps/lifs key hex %s value hex %s", pin_dir, args[0],
	    args[1]);
	hex_args(flow_key, sizeof(flow_key), args[0]);
	hex_args(flow_value, sizeof(flow_value), args[1]);
	run("bpftool map update pinned %s/maps/flows key hex %s value hex %s", pin_dir, args[0],
	    args[1]);
	hex_args(config_key, sizeof(config_key), args[0]);
	hex_args(config_value, sizeof(config_value), args[1]);
	run("bpftool map update pinned %s/maps/config key hex %s value hex %s", pin_dir, args[0],
	    args[1]);

	snprintf(args[0], sizeof(args[0]), "bpftool map dump -p pinned %s/maps/lifs", pin_dir);
	lifs = output_of(args[0]);
	snprintf(args[0], sizeof(args[0]), "bpftool map dump -j pinned %s/maps/flows", pin_dir);
	flows = output_of(args[0]);
	snprintf(args[0], sizeof(args[0]), "bpftool map dump -j pinned %s/maps/config", pin_dir);
	config = output_of(args[0]);
	cr_assert(strstr(flows, "\"formatted\""), "bpftool printed no BTF fields: %s", flows);

	cr_assert_eq(hwxdp_object__open(hx_object_path("fwd"), &obj), 0);
	r.obj = obj;
	snprintf(path, sizeof(path), "%s/dump.json", dir);
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			/* the fields by name alone, without the bytes */
			flifs = formatted_only(lifs);
			fflows = formatted_only(flows);
			fconfig = formatted_only(config);
			cr_assert_null(strstr(fflows, "0x"), "%s", fflows);
			feed_back(path, flifs, fflows, fconfig, &r);
			free(flifs);
			free(fflows);
			free(fconfig);
		} else {
			feed_back(path, lifs, flows, config, &r);
		}
		cr_assert_eq(r.n, 3, "pass %d: %d entries", pass, r.n);
		cr_assert_arr_eq(recorded_value(&r, "lifs", lif_key, 4), lif_value,
				 sizeof(lif_value), "pass %d: lifs", pass);
		cr_assert_arr_eq(recorded_value(&r, "flows", flow_key, sizeof(flow_key)),
				 flow_value, sizeof(flow_value), "pass %d: flows", pass);
		cr_assert_arr_eq(recorded_value(&r, "config", config_key, 4), config_value,
				 sizeof(config_value), "pass %d: config", pass);
	}
	free(lifs);
	free(flows);
	free(config);
	hwxdp_object__close(obj);
}

/* Fields by name are checked against the map's BTF, with a reason and the
 * place of the value at fault (at marks it in the entry). */
Test(state, fields_by_name_that_are_wrong, .init = setup, .fini = teardown)
{
	static const struct {
		const char *entry, *at, *want;
	} cases[] = {
		{ "{\"key\": 0, \"value\": {\"vlan_flow\": 1}}", "1}",
		  "maps.config[0].value.vlan_flow (line 1, column %d): struct hwxdp_config has no "
		  "member \"vlan_flow\"" },
		{ "{\"key\": 0, \"value\": {\"vlan_flows\": 4294967296}}", "4294967296",
		  "value.vlan_flows (line 1, column %d): 4294967296 does not fit 32 unsigned "
		  "bits" },
		{ "{\"key\": 0, \"value\": {\"vlan_flows\": -1}}", "-1",
		  "value.vlan_flows (line 1, column %d): -1 does not fit 32 unsigned bits" },
		{ "{\"key\": 0, \"value\": [1, 0, 1, 0]}", "[1",
		  "value (line 1, column %d): expected an object of struct members" },
		{ "{\"key\": 0, \"values\": [{\"cpu\": 0, \"value\": [\"0x00\"]}]}", NULL,
		  "maps.config[0]: per-CPU \"values\" are not supported" },
		{ "{\"key\": 0, \"value\": {}, \"formatted\": {\"key\": 0, \"valeu\": {}}}", NULL,
		  "maps.config[0].formatted: unknown member \"valeu\"" },
	};
	char path[128], text[512], msg[1024], want[256];

	snprintf(path, sizeof(path), "%s/state.json", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "{\"maps\": {\"config\": [%s]}}", cases[i].entry);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		snprintf(want, sizeof(want), cases[i].want,
			 cases[i].at ? (int)(strstr(text, cases[i].at) - text) + 1 : 0);
#pragma GCC diagnostic pop
		write_file(path, text);
		msg[0] = '\0';
		cr_assert_eq(load_apply(path, msg, sizeof(msg), NULL), -EINVAL, "%s", text);
		cr_assert(strstr(msg, want), "%s\n  got: %s\n  want: %s", text, msg, want);
		assert_one_line(msg);
	}
}

/* The value a devmap entry got, for the test below. */
struct entry_record {
	struct hwxdp_device_prog *dp;
	uint8_t value[8];
	int updates;
};

static int entry_update(void *ctx, const char *map, const void *key, const void *value)
{
	struct entry_record *r = ctx;

	(void)key;
	cr_assert_str_eq(map, "tx_port");
	memcpy(r->value, value, sizeof(r->value));
	r->updates++;
	return 0;
}

static int entry_number(void *ctx, const char *name, uint32_t *number)
{
	return hwxdp_device_prog__entry_prog(((struct entry_record *)ctx)->dp, name, number);
}

/*
 * A devmap entry names its program by name ("prog"): the device's number
 * for it goes into the value's bpf_prog (the program after the port's in
 * redirect_egress_mac's image, 1), the ifindex stays as written. Named
 * where the caller cannot number programs, in a map that is no devmap of
 * struct bpf_devmap_val, or naming no devmap program: refused in words.
 */
Test(state, a_devmap_entry_names_its_program, .init = setup, .fini = teardown)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "{\"maps\": {\"port_macs\": [{\"key\": 1, \"value\": \"0000000000000000\", "
		  "\"prog\": \"xdp_redirect_map_egress\"}]}}",
		  "only a devmap of struct bpf_devmap_val names a program" },
		{ "{\"maps\": {\"tx_port\": [{\"key\": 0, \"value\": \"0500000000000000\", "
		  "\"prog\": \"xdp_redirect_map_prog\"}]}}",
		  "not a devmap program" },
		{ "{\"maps\": {\"tx_port\": [{\"key\": 0, \"value\": \"0500000000000000\", "
		  "\"prog\": \"nothing_of_that_name\"}]}}",
		  "no such program in the device's image" },
		{ "{\"maps\": {\"tx_port\": [{\"key\": 0, \"value\": \"0500000000000000\", "
		  "\"prog\": 3}]}}",
		  "expected a program's name" },
	};
	const char *good = "{\"maps\": {\"tx_port\": [{\"key\": 2, \"value\": "
			   "\"0500000000000000\", \"prog\": \"xdp_redirect_map_egress\"}]}}";
	struct hwxdp_device_prog_opts o = { .sz = sizeof(o), .no_engine = true };
	struct entry_record r = { 0 };
	struct hx_state *state;
	char path[4096], msg[512] = "";
	uint32_t ifindex, prog;

	snprintf(path, sizeof(path), "%s/tests/corpus/redirect_egress_mac.bpf.o", hx_build_dir());
	cr_assert_eq(hwxdp_device_prog__open_opts(path, &o, &r.dp, msg, sizeof(msg)), 0, "%s", msg);
	state = hx_state__new();
	cr_assert_eq(hx_state__parse(state, good, strlen(good), "good.json", msg, sizeof(msg)), 0,
		     "%s", msg);
	cr_assert_eq(hx_state__apply_progs(state, r.dp->obj, entry_update, entry_number, &r, msg,
					   sizeof(msg)),
		     0, "%s", msg);
	memcpy(&ifindex, r.value, 4);
	memcpy(&prog, r.value + 4, 4);
	cr_expect_eq(r.updates, 1);
	cr_expect_eq(ifindex, 5);
	cr_expect_eq(prog, 1, "bpf_prog %u", prog);
	/* hx_state__apply numbers no program */
	cr_expect_eq(hx_state__apply(state, r.dp->obj, entry_update, &r, msg, sizeof(msg)),
		     -EINVAL);
	cr_expect(strstr(msg, "programs are named on the device only"), "%s", msg);
	hx_state__free(state);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int err;

		state = hx_state__new();
		msg[0] = 0;
		err = hx_state__parse(state, bad[i].text, strlen(bad[i].text), "bad.json", msg,
				      sizeof(msg));
		if (!err)
			err = hx_state__apply_progs(state, r.dp->obj, entry_update, entry_number,
						    &r, msg, sizeof(msg));
		cr_expect_neq(err, 0, "case %zu accepted", i);
		cr_expect(strstr(msg, bad[i].says), "case %zu: \"%s\"", i, msg);
		assert_one_line(msg);
		hx_state__free(state);
	}
	cr_expect_eq(r.updates, 1, "a refused state wrote %d entries", r.updates - 1);
	hwxdp_device_prog__close(r.dp);
}
