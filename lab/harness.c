// SPDX-License-Identifier: GPL-2.0
/*
 * include/hwxdp/test.h: the execution targets (lab/target.h) behind an
 * opaque handle, with map sizes checked against the object and failure
 * messages that name bytes by header field or BTF member.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <linux/bpf.h>

#include "hwxdp/test.h"
#include "lab/target.h"
#include "base/log.h"
#include "loader/object.h"

struct hwxdp_test {
	enum hwxdp_test_target target;
	struct hx_target *hx;
	struct hwxdp_object *obj; /* the map definitions and BTF */
	struct hx_result result;
};

static const char *const target_names[HWXDP_TEST__TARGETS] = {
	[HWXDP_TEST_KERNEL] = "kernel",
	[HWXDP_TEST_INTERP] = "interp",
	[HWXDP_TEST_COMPILED] = "compiled",
};

static _Thread_local const char *unavailable[HWXDP_TEST__TARGETS];

const char *hwxdp_test_target__name(enum hwxdp_test_target target)
{
	return (unsigned int)target < HWXDP_TEST__TARGETS ? target_names[target] : "unknown";
}

const char *hwxdp_test__unavailable(enum hwxdp_test_target target)
{
	return (unsigned int)target < HWXDP_TEST__TARGETS ? unavailable[target] : NULL;
}

enum hwxdp_test_target hwxdp_test__target(const struct hwxdp_test *t)
{
	return t->target;
}

void hwxdp_test__close(struct hwxdp_test *t)
{
	if (!t)
		return;
	hx_target_close(t->hx);
	hwxdp_object__close(t->obj);
	free(t);
}

int hwxdp_test__open(const char *path, enum hwxdp_test_target target,
		     const struct hwxdp_test_open_opts *opts, struct hwxdp_test **out)
{
	struct hwxdp_test *t;
	int err;

	*out = NULL;
	if ((unsigned int)target >= HWXDP_TEST__TARGETS || !path ||
	    (opts && opts->sz < sizeof(opts->sz)))
		return -EINVAL;
	unavailable[target] = NULL;
	if (target == HWXDP_TEST_KERNEL && geteuid() != 0) {
		unavailable[target] = "BPF_PROG_TEST_RUN needs root (CAP_BPF and CAP_NET_ADMIN)";
		return -EOPNOTSUPP;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->target = target;
	err = hwxdp_object__open(path, &t->obj);
	if (err)
		goto fail;
	t->hx = hx_target_open(target == HWXDP_TEST_KERNEL ? "kernel" : "device", path);
	if (!t->hx) {
		err = -errno;
		pr_warn("%s target: %s\n", target_names[target], hwxdp_error_message(err));
		goto fail;
	}
	if (target == HWXDP_TEST_COMPILED) {
		err = hx_device_target_set_compiled(t->hx, true);
		if (err < 0)
			goto fail;
		if (!err) {
			unavailable[target] = "the engine interprets: no C compiler for compiled "
					      "mode, or HWXDP_ENGINE=interp (HWXDP_LOG_LEVEL=info "
					      "says which)";
			err = -EOPNOTSUPP;
			goto fail;
		}
	} else if (target == HWXDP_TEST_INTERP) {
		err = hx_device_target_set_compiled(t->hx, false);
		if (err < 0)
			goto fail;
		if (err) {
			unavailable[target] = "HWXDP_ENGINE=compiled forces compiled mode";
			err = -EOPNOTSUPP;
			goto fail;
		}
	}
	*out = t;
	return 0;
fail:
	hwxdp_test__close(t);
	return err;
}

/* The map named map, its sizes checked: 0, -ENOENT, -EINVAL, -EOPNOTSUPP. */
static int check_map(struct hwxdp_test *t, const char *map, size_t key_size,
		     const size_t *value_size)
{
	const struct hwxdp_map_desc *m = hwxdp_object__find_map(t->obj, map);

	if (!m) {
		pr_warn("%s: no map named %s\n", t->obj->path, map);
		return -ENOENT;
	}
	if (m->type == BPF_MAP_TYPE_PERCPU_ARRAY || m->type == BPF_MAP_TYPE_PERCPU_HASH ||
	    m->type == BPF_MAP_TYPE_LRU_PERCPU_HASH) {
		pr_warn("%s: map %s is per-CPU, which the harness does not take yet\n",
			t->obj->path, map);
		return -EOPNOTSUPP;
	}
	if (key_size != m->key_size) {
		pr_warn("%s: map %s has %u-byte keys, not %zu\n", t->obj->path, map, m->key_size,
			key_size);
		return -EINVAL;
	}
	if (value_size && *value_size != m->value_size) {
		pr_warn("%s: map %s has %u-byte values, not %zu\n", t->obj->path, map,
			m->value_size, *value_size);
		return -EINVAL;
	}
	return 0;
}

int hwxdp_test__map_update(struct hwxdp_test *t, const char *map, const void *key, size_t key_size,
			   const void *value, size_t value_size)
{
	int err = check_map(t, map, key_size, &value_size);

	return err ? err : hx_target_map_update(t->hx, map, key, value);
}

int hwxdp_test__map_lookup(struct hwxdp_test *t, const char *map, const void *key, size_t key_size,
			   void *value, size_t value_size)
{
	int err = check_map(t, map, key_size, &value_size);

	return err ? err : hx_target_map_lookup(t->hx, map, key, value);
}

int hwxdp_test__map_delete(struct hwxdp_test *t, const char *map, const void *key, size_t key_size)
{
	int err = check_map(t, map, key_size, NULL);

	return err ? err : hx_target_map_delete(t->hx, map, key);
}

int hwxdp_test__run(struct hwxdp_test *t, uint32_t ingress, const void *frame, size_t len,
		    struct hwxdp_test_result *res)
{
	int err;

	_Static_assert(HWXDP_TEST_META_MAX == HX_META_MAX, "one metadata limit");
	memset(res, 0, offsetof(struct hwxdp_test_result, frame));
	err = hx_target_run(t->hx, ingress, frame, len, &t->result);
	if (err)
		return err;
	if (t->result.len > sizeof(res->frame))
		return -EMSGSIZE;
	res->verdict = t->result.action;
	res->meta_len = t->result.meta_len;
	memcpy(res->meta, t->result.meta_bytes, res->meta_len);
	res->len = t->result.len;
	memcpy(res->frame, t->result.frame, res->len);
	return 0;
}

int hwxdp_test__cycles(struct hwxdp_test *t, uint64_t *cycles)
{
	struct hx_run_stats stats;
	int err = hx_target_stats(t->hx, &stats);

	if (!err)
		*cycles = stats.cycles;
	return err;
}

const char *hwxdp_test__verdict_name(uint32_t verdict)
{
	static const char *const names[] = { "XDP_ABORTED", "XDP_DROP", "XDP_PASS", "XDP_TX",
					     "XDP_REDIRECT" };
	static _Thread_local char other[32];

	if (verdict < sizeof(names) / sizeof(names[0]))
		return names[verdict];
	snprintf(other, sizeof(other), "XDP action %u", verdict);
	return other;
}

bool hwxdp_test__frame_equal(const struct hwxdp_test_result *res, const void *want, size_t want_len,
			     char *msg, size_t msglen)
{
	const uint8_t *w = want;
	size_t n = res->len < want_len ? res->len : want_len, i;
	char field[96];
	int at;

	for (i = 0; i < n && res->frame[i] == w[i]; i++)
		;
	if (i == n && res->len == want_len)
		return true;
	if (i < n) {
		hwxdp_packet__field(w, want_len, i, field, sizeof(field));
		at = snprintf(msg, msglen, "frame byte %zu (%s) is 0x%02x, expected 0x%02x", i,
			      field, res->frame[i], w[i]);
	} else if (res->len > want_len) {
		hwxdp_packet__field(res->frame, res->len, i, field, sizeof(field));
		at = snprintf(msg, msglen, "frame byte %zu (%s) is 0x%02x, expected the end", i,
			      field, res->frame[i]);
	} else {
		hwxdp_packet__field(w, want_len, i, field, sizeof(field));
		at = snprintf(msg, msglen, "frame ends at byte %zu, expected 0x%02x (%s)", i, w[i],
			      field);
	}
	if (res->len != want_len && at >= 0 && (size_t)at < msglen)
		snprintf(msg + at, msglen - at, "; the frame is %zu bytes, expected %zu", res->len,
			 want_len);
	return false;
}

bool hwxdp_test__meta_equal(const struct hwxdp_test_result *res, const void *want, size_t want_len,
			    char *msg, size_t msglen)
{
	const uint8_t *w = want;
	size_t n = res->meta_len < want_len ? res->meta_len : want_len, i;

	for (i = 0; i < n && res->meta[i] == w[i]; i++)
		;
	if (i == n && res->meta_len == want_len)
		return true;
	if (i < n)
		snprintf(msg, msglen, "metadata byte %zu is 0x%02x, expected 0x%02x", i,
			 res->meta[i], w[i]);
	else
		snprintf(msg, msglen, "the metadata is %zu bytes, expected %zu", res->meta_len,
			 want_len);
	return false;
}

/* The path of the member of BTF type id at byte off ("bytes", "hops[2].mac"),
 * into buf; empty when the type says nothing finer than itself. */
static void btf_member_path(const struct btf *btf, uint32_t id, size_t off, char *buf, size_t cap)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int depth = 0; btf && id && depth < 16; depth++) {
		const struct btf_type *t;
		int rid = btf__resolve_type(btf, id);

		if (rid < 0)
			return;
		t = btf__type_by_id(btf, rid);
		if (btf_is_struct(t) || btf_is_union(t)) {
			const struct btf_member *m = btf_members(t);
			bool found = false;

			for (unsigned int i = 0; i < btf_vlen(t); i++, m++) {
				size_t moff = btf_member_bit_offset(t, i) / 8;
				long msize = btf__resolve_size(btf, m->type);

				if (msize <= 0 || off < moff || off >= moff + (size_t)msize)
					continue;
				at += snprintf(buf + at, cap > at ? cap - at : 0, "%s%s",
					       at ? "." : "",
					       btf__name_by_offset(btf, m->name_off));
				off -= moff;
				id = m->type;
				found = true;
				break;
			}
			if (!found)
				return;
		} else if (btf_is_array(t)) {
			const struct btf_array *a = btf_array(t);
			long esize = btf__resolve_size(btf, a->type);

			if (esize <= 0)
				return;
			at += snprintf(buf + at, cap > at ? cap - at : 0, "[%zu]",
				       off / (size_t)esize);
			off %= (size_t)esize;
			id = a->type;
		} else {
			return;
		}
		if (at >= cap)
			return;
	}
}

static void hex(char *buf, size_t cap, const uint8_t *bytes, size_t n)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && i < 16 && at + 4 < cap; i++)
		at += snprintf(buf + at, cap - at, "%s%02x", i ? " " : "", bytes[i]);
	if (n > 16 && at + 4 < cap)
		snprintf(buf + at, cap - at, " ...");
}

bool hwxdp_test__map_equal(struct hwxdp_test *t, const char *map, const void *key, size_t key_size,
			   const void *want, size_t want_size, char *msg, size_t msglen)
{
	const struct hwxdp_map_desc *m;
	const uint8_t *w = want;
	char keytext[64], member[128];
	uint8_t *got;
	size_t i;
	int err;

	hex(keytext, sizeof(keytext), key, key_size);
	got = malloc(want_size ? want_size : 1);
	if (!got) {
		snprintf(msg, msglen, "map %s: out of memory", map);
		return false;
	}
	err = hwxdp_test__map_lookup(t, map, key, key_size, got, want_size);
	if (err) {
		snprintf(msg, msglen, "map %s, key %s: %s", map, keytext,
			 err == -ENOENT ? "no such element" : hwxdp_strerror(err));
		free(got);
		return false;
	}
	for (i = 0; i < want_size && got[i] == w[i]; i++)
		;
	if (i == want_size) {
		free(got);
		return true;
	}
	m = hwxdp_object__find_map(t->obj, map);
	btf_member_path(t->obj->btf, m ? m->btf_value_type_id : 0, i, member, sizeof(member));
	snprintf(msg, msglen, "map %s, key %s: value byte %zu%s%s%s is 0x%02x, expected 0x%02x",
		 map, keytext, i, member[0] ? " (" : "", member, member[0] ? ")" : "", got[i],
		 w[i]);
	free(got);
	return false;
}

int hwxdp_test__open_all(const char *path, struct hwxdp_test *t[HWXDP_TEST__TARGETS])
{
	int n = 0;

	for (int i = 0; i < HWXDP_TEST__TARGETS; i++) {
		t[i] = NULL;
		if (!hwxdp_test__open(path, (enum hwxdp_test_target)i, NULL, &t[i]))
			n++;
	}
	return n;
}

void hwxdp_test__close_all(struct hwxdp_test *t[HWXDP_TEST__TARGETS])
{
	for (int i = 0; i < HWXDP_TEST__TARGETS; i++) {
		hwxdp_test__close(t[i]);
		t[i] = NULL;
	}
}

bool hwxdp_test__agree(const struct hwxdp_test *ta, const struct hwxdp_test_result *a,
		       const struct hwxdp_test *tb, const struct hwxdp_test_result *b, char *msg,
		       size_t msglen)
{
	const char *na = target_names[ta->target], *nb = target_names[tb->target];
	size_t n = a->len < b->len ? a->len : b->len, i;
	char field[96];

	if (a->verdict != b->verdict) {
		char va[32];

		snprintf(va, sizeof(va), "%s", hwxdp_test__verdict_name(a->verdict));
		snprintf(msg, msglen, "the %s and %s targets disagree: verdict %s and %s", na, nb,
			 va, hwxdp_test__verdict_name(b->verdict));
		return false;
	}
	for (i = 0; i < n && a->frame[i] == b->frame[i]; i++)
		;
	if (i == n && a->len == b->len)
		return true;
	if (i < n) {
		hwxdp_packet__field(a->frame, a->len, i, field, sizeof(field));
		snprintf(msg, msglen,
			 "the %s and %s targets disagree: frame byte %zu (%s) is 0x%02x and 0x%02x",
			 na, nb, i, field, a->frame[i], b->frame[i]);
	} else {
		snprintf(msg, msglen,
			 "the %s and %s targets disagree: the frame is %zu and %zu bytes", na, nb,
			 a->len, b->len);
	}
	return false;
}
