// SPDX-License-Identifier: GPL-2.0
/*
 * daemon/btf_json.c against bpftool: the maps of tests/daemon/btf_kinds.bpf.c
 * (and of BTF made here, for the kinds clang 14 does not emit) loaded into
 * the kernel, written with varied bytes, dumped with `bpftool -j map dump
 * id N`; each entry's "formatted" must be the text btf_json writes for the
 * bytes bpftool printed beside it. Where bpftool 7.1 writes no JSON (a
 * float, a backslash, a char-encoded quote), the expectation is written here
 * by hand.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/btf.h>

#include "daemon/btf_json.h"
#include "daemon/client.h"
#include "daemon/daemon.h"
#include "daemon/jbuf.h"
#include "lab/target.h"

#define BYTES_MAX 4096
#define PATTERNS  9

static const char *kinds_path(void)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/tests/daemon/btf_kinds.bpf.o", hx_build_dir());
	return path;
}

static struct bpf_object *open_kinds(bool load)
{
	struct bpf_object *obj = bpf_object__open_file(kinds_path(), NULL);

	cr_assert_not_null(obj, "%s: %s (make builds it)", kinds_path(), strerror(errno));
	if (load)
		cr_assert_eq(bpf_object__load(obj), 0, "loading %s", kinds_path());
	return obj;
}

static void need_root(void)
{
	if (geteuid())
		cr_skip_test("needs root: the maps are the kernel's and bpftool reads them");
	if (system("bpftool version >/dev/null 2>&1"))
		cr_skip_test("needs bpftool");
}

/*
 * Bytes of pattern i: zeros, ones, the sign bit of the first byte, a byte
 * short of all ones, 0x55/0xaa, random, random text with NULs (char
 * arrays then hold strings, quotes and backslashes among them), and the
 * bytes at the edges of a string's (backslash, quote, 0x7e, 0x20; 0x7f,
 * 0x1f) between NULs.
 */
static void pattern(int i, uint8_t *p, size_t n, unsigned int *seed)
{
	static const uint8_t edges[] = { '\\', '"', 0x7e, 0x20, 0, 0x7f, 0, 0x1f, 0 };

	for (size_t j = 0; j < n; j++) {
		unsigned int r = (unsigned int)rand_r(seed);

		switch (i) {
		case 0:
			p[j] = 0;
			break;
		case 1:
			p[j] = 0xff;
			break;
		case 2:
			p[j] = j ? 0 : 0x80;
			break;
		case 3:
			p[j] = j + 1 == n ? 0x7f : 0xff;
			break;
		case 4:
			p[j] = j % 2 ? 0xaa : 0x55;
			break;
		case 5:
			p[j] = (uint8_t)r;
			break;
		case 6:
		case 7:
			p[j] = r % 10 < 2   ? 0
			       : r % 10 < 3 ? (uint8_t)(r >> 8)
					    : 0x20 + (r >> 8) % 95;
			break;
		default:
			p[j] = edges[j % sizeof(edges)];
			break;
		}
	}
}

static char *output_of(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	size_t len = 0, cap = 1 << 16, n;
	char *out = malloc(cap);

	cr_assert(p && out);
	while ((n = fread(out + len, 1, cap - len - 1, p)) > 0) {
		len += n;
		if (len + 1 == cap) {
			cap *= 2;
			out = realloc(out, cap);
			cr_assert(out);
		}
	}
	out[len] = '\0';
	cr_assert_eq(pclose(p), 0, "%s failed: %s", cmd, out);
	return out;
}

/* After one JSON value at p (bpftool's text: strings with \" inside). */
static const char *skip_value(const char *p)
{
	int depth = 0;

	do {
		if (*p == '"') {
			for (p++; *p && *p != '"'; p++)
				if (*p == '\\' && p[1])
					p++;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			depth--;
		}
		cr_assert(*p, "bpftool's output ends inside a value");
		p++;
	} while (depth > 0 || (*p != ',' && *p != '}' && *p != ']'));
	return p;
}

static const char *expect(const char *p, const char *word)
{
	cr_assert(!strncmp(p, word, strlen(word)), "bpftool: expected %s at: %.80s", word, p);
	return p + strlen(word);
}

/* ["0x12","0xab",...] */
static const char *hex_list(const char *p, uint8_t *out, size_t *n)
{
	p = expect(p, "[");
	for (*n = 0; *p != ']';) {
		unsigned int v;

		if (*p == ',')
			p++;
		cr_assert_eq(sscanf(p, "\"0x%2x\"", &v), 1, "bpftool byte at %.20s", p);
		cr_assert_lt(*n, BYTES_MAX);
		out[(*n)++] = (uint8_t)v;
		p += 6;
	}
	return p + 1;
}

struct entry {
	uint8_t key[BYTES_MAX], value[BYTES_MAX * 4];
	size_t key_len, value_len;
	unsigned int cpus;
	char *formatted; /* {"formatted":...}, as btf_json's jbuf has it */
};

/* One entry of `bpftool -j map dump`; the value of each CPU at an 8-byte
 * stride, as the kernel returns them. */
static const char *next_entry(const char *p, struct entry *e)
{
	const char *f;

	memset(e, 0, offsetof(struct entry, formatted));
	p = expect(p, "{\"key\":");
	p = hex_list(p, e->key, &e->key_len);
	if (!strncmp(p, ",\"values\":[", 11)) {
		p += 11;
		while (*p == '{') {
			size_t n;

			p = expect(p, "{\"cpu\":");
			p = strchr(p, ',');
			p = expect(p, ",\"value\":");
			p = hex_list(p, e->value + e->value_len, &n);
			e->value_len += (n + 7) & ~(size_t)7;
			e->cpus++;
			p = expect(p, "}");
			if (*p == ',')
				p++;
		}
		p = expect(p, "]");
	} else {
		p = expect(p, ",\"value\":");
		p = hex_list(p, e->value, &e->value_len);
	}
	p = expect(p, ",");
	f = p;
	p = expect(p, "\"formatted\":");
	p = skip_value(p);
	cr_assert(asprintf(&e->formatted, "{%.*s}", (int)(p - f), f) > 0);
	return expect(p, "}");
}

/*
 * btf_json's text in bpftool's spelling where bpftool's is not JSON's: a
 * backslash in a string is "\n" there.
 */
static void bpftool_spelling(char *s)
{
	char *out = s;
	bool in_string = false;

	for (; *s; s++) {
		if (*s == '"')
			in_string = !in_string;
		if (in_string && s[0] == '\\' && s[1] == '\\') {
			*out++ = '\\';
			*out++ = 'n';
			s++;
			continue;
		}
		if (in_string && s[0] == '\\')
			*out++ = *s++;
		*out++ = *s;
	}
	*out = '\0';
}

static char *ours(const struct btf *btf, uint32_t key_id, uint32_t value_id, const struct entry *e,
		  size_t value_size)
{
	struct jbuf b;
	char *text;
	int err;

	jbuf_init(&b);
	jbuf_start_object(&b);
	if (e->cpus)
		err = btf_json_formatted_percpu(&b, btf, key_id, e->key, e->key_len, value_id,
						e->value, value_size, e->cpus);
	else
		err = btf_json_formatted(&b, btf, key_id, e->key, e->key_len, value_id, e->value,
					 value_size);
	jbuf_end_object(&b);
	cr_assert_eq(err, 0, "btf_json refused types %u/%u: %d", key_id, value_id, err);
	cr_assert_eq(jbuf_error(&b), 0);
	text = strdup(b.data);
	jbuf_fini(&b);
	bpftool_spelling(text);
	return text;
}

/* Where two texts part, for the message. */
static size_t parting(const char *a, const char *b)
{
	size_t i = 0;

	while (a[i] && a[i] == b[i])
		i++;
	return i;
}

/* text in bpftool's spelling: the same text or a new one (text freed). */
typedef char *(*spelling_fn)(char *text);

/* Every entry bpftool prints of map fd: its "formatted" and ours the same. */
static int compare_dump(const char *what, int fd, const struct btf *btf, uint32_t key_id,
			uint32_t value_id, size_t value_size, spelling_fn spelling)
{
	struct bpf_map_info info = { 0 };
	uint32_t len = sizeof(info);
	struct entry *e = malloc(sizeof(*e));
	char cmd[128], *dump;
	const char *p;
	int n = 0;

	cr_assert(e);
	cr_assert_eq(bpf_obj_get_info_by_fd(fd, &info, &len), 0);
	snprintf(cmd, sizeof(cmd), "bpftool -j map dump id %u", info.id);
	dump = output_of(cmd);
	p = expect(dump, "[");
	while (*p == '{') {
		char *mine;
		size_t at;

		p = next_entry(p, e);
		mine = ours(btf, key_id, value_id, e, value_size);
		if (spelling)
			mine = spelling(mine);
		at = parting(mine, e->formatted);
		cr_expect_str_eq(mine, e->formatted,
				 "%s entry %d: btf_json and bpftool part at byte %zu:\n"
				 "  btf_json: ...%.120s\n  bpftool:  ...%.120s",
				 what, n, at, mine + at, e->formatted + at);
		free(mine);
		free(e->formatted);
		n++;
		if (*p == ',')
			p++;
	}
	expect(p, "]");
	free(dump);
	free(e);
	return n;
}

/* The entries of pattern 0.. into map (arrays: keys 0..; hashes: random
 * keys), then the comparison. */
static void fill_and_compare(struct bpf_object *obj, const char *name)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, name);
	uint8_t key[BYTES_MAX], *value;
	unsigned int seed = 0x5eed, cpus = 1, max, rounds;
	size_t vsize, stride;
	bool array, percpu;
	int fd, n = 0;

	cr_assert_not_null(map, "no map %s", name);
	fd = bpf_map__fd(map);
	array = bpf_map__type(map) == BPF_MAP_TYPE_ARRAY ||
		bpf_map__type(map) == BPF_MAP_TYPE_PERCPU_ARRAY;
	percpu = bpf_map__type(map) == BPF_MAP_TYPE_PERCPU_ARRAY;
	if (percpu)
		cpus = (unsigned int)libbpf_num_possible_cpus();
	vsize = bpf_map__value_size(map);
	stride = percpu ? (vsize + 7) & ~(size_t)7 : vsize;
	value = calloc(cpus, stride);
	cr_assert(value);
	max = bpf_map__max_entries(map);
	max = max < PATTERNS ? max : PATTERNS;
	rounds = (PATTERNS + max - 1) / max;
	rounds = rounds < 3 ? 3 : rounds;
	for (unsigned int r = 0; r < rounds; r++) {
		for (unsigned int i = 0; i < max; i++) {
			int pat = (int)((r * max + i) % PATTERNS);

			if (array)
				memcpy(key, &i, sizeof(i));
			else
				pattern(5, key, bpf_map__key_size(map), &seed);
			for (unsigned int c = 0; c < cpus; c++)
				pattern((pat + (int)c) % PATTERNS, value + c * stride, vsize,
					&seed);
			cr_assert_eq(bpf_map_update_elem(fd, key, value, BPF_ANY), 0,
				     "%s: update: %s", name, strerror(errno));
		}
		n += compare_dump(name, fd, bpf_object__btf(obj), bpf_map__btf_key_type_id(map),
				  bpf_map__btf_value_type_id(map), vsize, NULL);
	}
	cr_assert_geq(n, (int)max, "%s: bpftool printed %d entries", name, n);
	free(value);
}

static void compare_maps(const char *const *names)
{
	struct bpf_object *obj;

	need_root();
	obj = open_kinds(true);
	for (; *names; names++)
		fill_and_compare(obj, *names);
	bpf_object__close(obj);
}

TestSuite(btf_json, .timeout = 60);

Test(btf_json, integers_of_every_size_and_bool)
{
	compare_maps((const char *const[]){ "ints_map", "wide_map", "typedef_map", NULL });
}

Test(btf_json, bitfields_at_odd_offsets)
{
	compare_maps((const char *const[]){ "bits_map", "keyed_map", NULL });
}

Test(btf_json, arrays_strings_and_multidimensional)
{
	compare_maps((const char *const[]){ "arrays_map", "string_map", NULL });
}

Test(btf_json, structs_unions_enums_pointers_modifiers)
{
	compare_maps((const char *const[]){ "union_map", "nested_map", "colour_map",
					    "union_key_map", NULL });
}

Test(btf_json, per_cpu_values)
{
	compare_maps((const char *const[]){ "percpu_map", NULL });
}

Test(btf_json, global_data_sections)
{
	struct bpf_object *obj;
	struct bpf_map *map;
	int n = 0;

	need_root();
	obj = open_kinds(true);
	bpf_object__for_each_map(map, obj)
	{
		const char *name = bpf_map__name(map);

		if (bpf_map__is_internal(map) && strstr(name, ".data")) {
			fill_and_compare(obj, name);
			n++;
		}
	}
	cr_assert_eq(n, 1, "the object has %d .data maps", n);
	bpf_object__close(obj);
}

/*
 * Kinds clang 14 does not emit: char-encoded bytes, 64-bit enums (signed
 * and not, and as a bitfield), a signed 32-bit enum, a type tag under a
 * pointer. bpftool writes a char-encoded byte it cannot print as "\u00XX";
 * btf_json writes that character itself (0x7f, and U+0080..U+00FF as
 * UTF-8), turned back here.
 */
static char *char_spelling(char *s)
{
	char *buf = malloc(strlen(s) * 6 + 1), *out = buf;

	cr_assert(buf);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == 0x7f) {
			out += sprintf(out, "\\u007f");
		} else if (*p == 0xc2 || *p == 0xc3) {
			out += sprintf(out, "\\u00%02x", ((p[0] & 3) << 6) | (p[1] & 0x3f));
			p++;
		} else {
			*out++ = (char)*p;
		}
	}
	*out = '\0';
	free(s);
	return buf;
}

struct hand {
	struct btf *btf;
	uint32_t u32, e64, st;
};

static struct hand hand_made(void)
{
	struct hand h = { btf__new_empty() };
	int ch, e64s, es, tt, ptt;

	cr_assert_not_null(h.btf);
	h.u32 = (uint32_t)btf__add_int(h.btf, "unsigned int", 4, 0);
	ch = btf__add_int(h.btf, "chr", 1, BTF_INT_CHAR);
	h.e64 = (uint32_t)btf__add_enum64(h.btf, "e64", 8, false);
	btf__add_enum64_value(h.btf, "E_A", 1);
	btf__add_enum64_value(h.btf, "E_B", 0xfffffffffffffff0ULL);
	e64s = btf__add_enum64(h.btf, "e64s", 8, true);
	btf__add_enum64_value(h.btf, "S_A", -3);
	es = btf__add_enum(h.btf, "es", 4);
	btf__add_enum_value(h.btf, "N_A", -3);
	tt = btf__add_type_tag(h.btf, "tag", (int)h.u32);
	ptt = btf__add_ptr(h.btf, tt);
	h.st = (uint32_t)btf__add_struct(h.btf, "hand", 48);
	btf__add_field(h.btf, "c", ch, 0, 0);
	btf__add_field(h.btf, "c2", ch, 8, 0);
	btf__add_field(h.btf, "e", (int)h.e64, 64, 0);
	btf__add_field(h.btf, "s", e64s, 128, 0);
	btf__add_field(h.btf, "n", es, 192, 0);
	btf__add_field(h.btf, "p", ptt, 256, 0);
	btf__add_field(h.btf, "eb", (int)h.e64, 323, 5);
	btf__add_field(h.btf, "tail", (int)h.u32, 352, 0);
	return h;
}

Test(btf_json, kinds_clang_does_not_emit)
{
	struct hand h;
	uint8_t key[8], value[48];
	unsigned int seed = 7;
	int fd;

	need_root();
	h = hand_made();
	cr_assert_eq(btf__load_into_kernel(h.btf), 0, "the kernel refuses the BTF");
	LIBBPF_OPTS(bpf_map_create_opts, opts, .btf_fd = btf__fd(h.btf), .btf_key_type_id = h.e64,
		    .btf_value_type_id = h.st);
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "btf_hand", 8, 48, 64, &opts);
	cr_assert_geq(fd, 0, "map: %s", strerror(errno));
	for (int i = 0; i < 32; i++) {
		pattern(i % 6, value, sizeof(value), &seed);
		/* Every char byte but NUL, '"' and '\' (see below). */
		value[0] = (uint8_t)(1 + (unsigned int)rand_r(&seed) % 255);
		value[1] = (uint8_t)(1 + i * 8);
		if (value[0] == '"' || value[0] == '\\')
			value[0] = 'x';
		if (i % 4 == 1)
			memcpy(value + 8, "\xf0\xff\xff\xff\xff\xff\xff\xff", 8);
		if (i % 4 == 2)
			memcpy(value + 16, "\xfd\xff\xff\xff\xff\xff\xff\xff", 8);
		if (i % 4 == 3)
			memcpy(value + 24, "\xfd\xff\xff\xff", 4);
		pattern(5, key, sizeof(key), &seed);
		if (i < 2)
			memcpy(key, i ? "\xf0\xff\xff\xff\xff\xff\xff\xff" : "\1\0\0\0\0\0\0\0", 8);
		cr_assert_eq(bpf_map_update_elem(fd, key, value, BPF_ANY), 0);
	}
	cr_assert_eq(compare_dump("btf_hand", fd, h.btf, h.e64, h.st, 48, char_spelling), 32);
	close(fd);
	btf__free(h.btf);
}

static char *type_text(const struct btf *btf, uint32_t id, const void *data, size_t size)
{
	struct jbuf b;
	char *text;

	jbuf_init(&b);
	cr_assert_eq(btf_json_type(&b, btf, id, data, size), 0);
	text = strdup(b.data);
	jbuf_fini(&b);
	return text;
}

/* Where bpftool 7.1 writes no JSON: char-encoded quote, backslash, NUL. */
Test(btf_json, char_encoded_bytes_bpftool_cannot_write)
{
	struct hand h = hand_made();
	uint8_t value[48] = { '"', '\\' };
	char *text = type_text(h.btf, h.st, value, sizeof(value));

	cr_assert(!strncmp(text, "{\"c\":\"\\\"\",\"c2\":\"\\\\\",", 20), "%s", text);
	value[0] = 0;
	value[1] = 0xe9;
	free(text);
	text = type_text(h.btf, h.st, value, sizeof(value));
	cr_assert(!strncmp(text, "{\"c\":\"\",\"c2\":\"\xc3\xa9\",", 17), "%s", text);
	free(text);
	btf__free(h.btf);
}

/* bpftool 7.1 stops at "(unsupported-kind" on a float: btf_json writes the
 * value as a decimal string that reads back to the same bits. */
Test(btf_json, floats_are_decimal_strings)
{
	static const float fs[] = { 0.0f, -0.0f, 1.5f, -3.25e-39f, 3.4028235e38f, 0.1f, 1e-45f };
	static const double ds[] = { 0.0, -2.5, 0.1, 1.7976931348623157e308, 4.9e-324, 1e22 };
	struct bpf_object *obj = open_kinds(false);
	struct bpf_map *map = bpf_object__find_map_by_name(obj, "floats_map");
	const struct btf *btf = bpf_object__btf(obj);
	uint32_t id = bpf_map__btf_value_type_id(map);
	unsigned int seed = 3;

	for (int i = 0; i < 200; i++) {
		struct {
			float f;
			uint32_t pad;
			double d;
		} v = { 0 };
		char *text, f_text[64], d_text[64];
		float f;
		double d;

		if (i < 7)
			v.f = fs[i];
		else
			pattern(5, (uint8_t *)&v.f, sizeof(v.f), &seed);
		if (i < 6)
			v.d = ds[i];
		else
			pattern(5, (uint8_t *)&v.d, sizeof(v.d), &seed);
		text = type_text(btf, id, &v, 16);
		cr_assert_eq(
			sscanf(text, "{\"f\":\"%63[^\"]\",\"d\":\"%63[^\"]\"}", f_text, d_text), 2,
			"%s", text);
		f = strtof(f_text, NULL);
		d = strtod(d_text, NULL);
		if (isnan(v.f))
			cr_assert(isnan(f), "%s", text);
		else
			cr_assert(!memcmp(&f, &v.f, sizeof(f)), "float %a written %s", v.f, text);
		if (isnan(v.d))
			cr_assert(isnan(d), "%s", text);
		else
			cr_assert(!memcmp(&d, &v.d, sizeof(d)), "double %a written %s", v.d, text);
		free(text);
	}
	bpf_object__close(obj);
}

/* A type btf_json cannot write leaves the reply as it was. */
Test(btf_json, refusals_write_nothing)
{
	struct hand h = hand_made();
	int fwd = btf__add_fwd(h.btf, "later", BTF_FWD_STRUCT);
	int proto = btf__add_func_proto(h.btf, (int)h.u32);
	uint8_t bytes[48] = { 0 };
	struct jbuf b;

	jbuf_init(&b);
	jbuf_start_object(&b);
	cr_assert_eq(btf_json_formatted(&b, h.btf, h.e64, bytes, 8, h.st, bytes, 47), -EINVAL);
	cr_assert_eq(btf_json_formatted(&b, h.btf, (uint32_t)fwd, bytes, 8, h.st, bytes, 48),
		     -EOPNOTSUPP);
	cr_assert_eq(btf_json_formatted(&b, h.btf, h.e64, bytes, 8, (uint32_t)proto, bytes, 8),
		     -EOPNOTSUPP);
	cr_assert_eq(btf_json_formatted(&b, h.btf, h.e64, bytes, 8, 0, bytes, 8), -EOPNOTSUPP);
	cr_assert_str_eq(b.data, "{");
	/* Nested deeper than the writer takes. */
	while (b.depth < JBUF_MAX_DEPTH - 1)
		jbuf_start_array(&b);
	cr_assert_eq(btf_json_check(&b, h.btf, h.st, 48), -E2BIG);
	cr_assert_eq(btf_json_check(&b, h.btf, h.u32, 4), 0);
	cr_assert_eq(jbuf_error(&b), 0);
	jbuf_fini(&b);
	btf__free(h.btf);
}

/*
 * `hwxdp map dump` and `map lookup` through the daemon: the bytes as before
 * and "formatted" beside them, here written out by hand from the bytes.
 */
static char sock_dir[64], sock_path[128], pin_root[128];
static struct hwxdpd *daemon_under_test;
static pthread_t server;

static void *serve(void *arg)
{
	hwxdpd__run(arg);
	return NULL;
}

static void start_daemon(void)
{
	struct hwxdpd_opts opts = {
		.sz = sizeof(opts),
		.no_restore = 1,
	};
	char msg[256];

	if (geteuid())
		return;
	snprintf(sock_dir, sizeof(sock_dir), "/tmp/hwxdpd-btf.%d", getpid());
	snprintf(sock_path, sizeof(sock_path), "%s/ctl.sock", sock_dir);
	snprintf(pin_root, sizeof(pin_root), "/sys/fs/bpf/hwxdp-btf-test-%d", getpid());
	opts.socket_path = sock_path;
	opts.pin_root = pin_root;
	daemon_under_test = hwxdpd__new(&opts, msg, sizeof(msg));
	cr_assert(daemon_under_test, "hwxdpd__new: %s", msg);
	cr_assert_eq(pthread_create(&server, NULL, serve, daemon_under_test), 0);
}

static void stop_daemon(void)
{
	if (!daemon_under_test)
		return;
	hwxdpd__stop(daemon_under_test);
	pthread_join(server, NULL);
	hwxdpd__free(daemon_under_test);
	daemon_under_test = NULL;
}

/* The reply's body to words, which must succeed. */
static char *call(const char *words)
{
	char buf[4608], *argv[64], msg[256], *body;
	struct hwxdp_ctl_result res;
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", words);
	for (char *w = strtok(buf, " "); w && argc < 64; w = strtok(NULL, " "))
		argv[argc++] = w;
	cr_assert_eq(hwxdp_ctl_call(sock_path, argc, argv, 60000, &res, msg, sizeof(msg)), 0,
		     "%s: %s", words, msg);
	cr_assert_eq(res.status, 0, "%s: %s", words, res.message);
	body = strdup(res.body);
	hwxdp_ctl_result__fini(&res);
	return body;
}

Test(btf_json_daemon, map_dump_and_lookup_print_formatted, .init = start_daemon,
     .fini = stop_daemon, .timeout = 120)
{
	/* struct key { port 0x1234, proto:4 5, flags:4 0xa, vlan_hi 7,
	 * addr 0x04030201 }; struct bits { a:1 1, b:3 5 (0x0b in byte 0),
	 * c:7 from bit 4: 0x7f, d:5 from bit 11: 0x10 (signed -16, printed
	 * unsigned), the rest 0 }. */
	static const char key[] = "0x34 0x12 0xa5 0x07 1 2 3 4";
	static const char value[] = "0xfb 0x87 0 0 0 0 0 0 0 0 0 0 0 0 0 0";
	static const char formatted[] =
		"\"formatted\":{\"key\":{\"port\":4660,\"proto\":\"0x5\",\"flags\":\"0xa\","
		"\"vlan_hi\":7,\"addr\":67305985},\"value\":{\"a\":\"0x1\",\"b\":\"0x5\","
		"\"c\":\"0x7f\",\"d\":\"0x10\",\"e\":\"0x0\",\"f\":\"0x0\",\"g\":\"0x0\","
		"\"h\":\"0x0\",\"i\":\"0x0\",\"j\":\"0x0\"}}";
	char words[4608], *body;

	if (geteuid())
		cr_skip_test("needs root: the daemon loads the host copy into the kernel");
	free(call(
		(snprintf(words, sizeof(words), "prog load %s name kinds", kinds_path()), words)));
	snprintf(words, sizeof(words), "map update kinds/keyed_map key %s value %s", key, value);
	free(call(words));

	body = call("map dump kinds/keyed_map");
	cr_assert(strstr(body, "\"key\":[\"0x34\",\"0x12\",\"0xa5\",\"0x07\",\"0x01\""), "%s",
		  body);
	cr_assert(strstr(body, formatted), "map dump: %s", body);
	free(body);

	snprintf(words, sizeof(words), "map lookup keyed_map key %s", key);
	body = call(words);
	cr_assert(strstr(body, "\"value\":[\"0xfb\",\"0x87\",\"0x00\""), "%s", body);
	cr_assert(strstr(body, formatted), "map lookup: %s", body);
	free(body);

	/* A char array as a string, an enum by name, through the daemon. */
	free(call("map update kinds/colour_map key 1 0 0 0 value 7 0 0 0"));
	body = call("map lookup kinds/colour_map key 1 0 0 0");
	cr_assert(strstr(body, "\"formatted\":{\"key\":1,\"value\":\"GREEN\"}"), "%s", body);
	free(body);
	free(call("map update kinds/string_map key 2 0 0 0 value 0x68 0x78 0 0 0 0 0 0"));
	body = call("map dump string_map");
	cr_assert(strstr(body, "\"formatted\":{\"key\":2,\"value\":\"hx\"}"), "%s", body);
	free(body);
	free(call("prog unload kinds"));
}
