// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel as the oracle: every generated program goes through
 * bpf_prog_load with a verifier log, after its map indexes have been turned
 * back into file descriptors of maps created once for the whole run.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <sys/syscall.h>

#include <bpf/bpf.h>

#include "base/log.h"
#include "tests/vdiff/kernel.h"

/* kernel-internal, not in the UAPI errno list */
#ifndef ENOTSUPP
#define ENOTSUPP 524
#endif

/* bpf_attr.log_level bits (the kernel's BPF_LOG_LEVEL1 and BPF_LOG_STATS) */
#define LOG_TRACE 1u
#define LOG_STATS 4u

#define TRACE_LOG_SIZE (2u << 20)
#define TRACE_MAX      200000 /* insns processed beyond which no trace is taken */

struct kernel_map {
	struct hwxdp_map_desc desc;
	int fd;
};

/*
 * fd_array: map indexes are its indexes, so that an ld_imm64 with
 * BPF_PSEUDO_MAP_IDX means to the kernel what it means to hwxdp. It covers
 * every value of a kfunc call's 16-bit BTF fd index, so that the kernel never
 * reads past it.
 */
#define FD_ARRAY_LEN 32768

struct vdiff_kernel {
	struct kernel_map *maps;
	size_t map_cnt, map_cap;
	int *fd_array;
	size_t fd_array_used;
	char *log;
	size_t log_size; /* the buffer's size; a load may use less */
};

int vdiff_kernel__new(struct vdiff_kernel **out)
{
	struct vdiff_kernel *k = calloc(1, sizeof(*k));
	size_t i;

	*out = NULL;
	if (!k)
		return -ENOMEM;
	k->log_size = TRACE_LOG_SIZE;
	k->log = malloc(k->log_size);
	k->fd_array = malloc(FD_ARRAY_LEN * sizeof(*k->fd_array));
	if (!k->log || !k->fd_array) {
		free(k->log);
		free(k->fd_array);
		free(k);
		return -ENOMEM;
	}
	for (i = 0; i < FD_ARRAY_LEN; i++)
		k->fd_array[i] = -1;
	*out = k;
	return 0;
}

void vdiff_kernel__free(struct vdiff_kernel *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->map_cnt; i++)
		close(k->maps[i].fd);
	free(k->maps);
	free(k->log);
	free(k->fd_array);
	free(k);
}

static bool same_map(const struct hwxdp_map_desc *a, const struct hwxdp_map_desc *b)
{
	return !strcmp(a->name, b->name) && a->type == b->type && a->key_size == b->key_size &&
	       a->value_size == b->value_size && a->max_entries == b->max_entries &&
	       a->map_flags == b->map_flags && a->read_only == b->read_only &&
	       a->initial_size == b->initial_size &&
	       (!a->initial_size || !memcmp(a->initial, b->initial, a->initial_size));
}

static int create_map(const struct hwxdp_map_desc *d)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = d->map_flags);
	char name[BPF_OBJ_NAME_LEN];
	size_t i, j;
	int fd, err;

	/* the kernel takes [A-Za-z0-9_.] and 15 characters */
	for (i = 0, j = 0; d->name[i] && j < sizeof(name) - 1; i++)
		if (isalnum((unsigned char)d->name[i]) || d->name[i] == '_' || d->name[i] == '.')
			name[j++] = d->name[i];
	name[j] = '\0';
	fd = bpf_map_create(d->type, name, d->key_size, d->value_size, d->max_entries, &opts);
	if (fd < 0)
		return -errno;
	if (d->initial && d->initial_size) {
		uint32_t zero = 0;

		/* a global section is a one-entry array: its image is entry 0 */
		if (d->initial_size != d->value_size ||
		    bpf_map_update_elem(fd, &zero, d->initial, 0)) {
			err = d->initial_size != d->value_size ? -EINVAL : -errno;
			close(fd);
			return err;
		}
	}
	/* .rodata is frozen so the kernel treats its contents as constants, as libbpf does */
	if (d->read_only && bpf_map_freeze(fd)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

static int map_fd(struct vdiff_kernel *k, const struct hwxdp_map_desc *d)
{
	struct kernel_map *m;
	size_t i;
	int fd;

	for (i = 0; i < k->map_cnt; i++)
		if (same_map(&k->maps[i].desc, d))
			return k->maps[i].fd;
	if (k->map_cnt == k->map_cap) {
		size_t cap = k->map_cap ? k->map_cap * 2 : 16;

		m = realloc(k->maps, cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		k->maps = m;
		k->map_cap = cap;
	}
	fd = create_map(d);
	if (fd < 0) {
		pr_warn("vdiff: cannot create map %s: %s\n", d->name, strerror(-fd));
		return fd;
	}
	m = &k->maps[k->map_cnt++];
	m->desc = *d;
	/* the descriptor's image belongs to the generator; it is only compared */
	m->fd = fd;
	return fd;
}

/* Map indexes back to file descriptors; an index past the maps becomes a bad fd. */
static int to_kernel_insns(struct vdiff_kernel *k, const struct vdiff_prog *prog,
			   struct bpf_insn *insns)
{
	size_t i;
	int fd;

	for (i = 0; i < k->fd_array_used; i++)
		k->fd_array[i] = -1;
	k->fd_array_used = 0;
	for (i = 0; i < prog->map_cnt && i < FD_ARRAY_LEN; i++) {
		fd = map_fd(k, &prog->maps[i]);
		if (fd < 0)
			return fd;
		k->fd_array[i] = fd;
		k->fd_array_used = i + 1;
	}
	memcpy(insns, prog->insns, prog->cnt * sizeof(*insns));
	for (i = 0; i + 1 < prog->cnt; i++) {
		struct bpf_insn *insn = &insns[i];
		bool in_range = insn->imm >= 0 && (size_t)insn->imm < prog->map_cnt;

		if (insn->code != (BPF_LD | BPF_DW | BPF_IMM))
			continue;
		switch (insn->src_reg) {
		case BPF_PSEUDO_MAP_FD:
		case BPF_PSEUDO_MAP_VALUE:
			insn->imm = in_range ? k->fd_array[insn->imm] : -1;
			break;
		case BPF_PSEUDO_MAP_IDX:
		case BPF_PSEUDO_MAP_IDX_VALUE:
			/* any index past the maps names a -1 inside the array */
			if (!in_range)
				insn->imm = (int32_t)prog->map_cnt;
			break;
		default:
			break;
		}
		i++;
	}
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint32_t processed(const char *log)
{
	const char *p = NULL, *q = log;

	/* the last one: a log may quote earlier passes */
	while ((q = strstr(q, "processed ")))
		p = q++;
	return p ? (uint32_t)strtoul(p + strlen("processed "), NULL, 10) : 0;
}

static int load(struct vdiff_kernel *k, const struct bpf_insn *insns, size_t cnt, __u32 log_level,
		size_t log_size, uint64_t *ns, int *err)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = k->log, .log_size = (__u32)log_size,
		    .log_level = log_level, .fd_array = k->fd_array);
	uint64_t start;
	int fd;

	k->log[0] = '\0';
	start = now_ns();
	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "vdiff", "GPL", insns, cnt, &opts);
	*err = fd < 0 ? -errno : 0;
	*ns = now_ns() - start;
	return fd;
}

static void cap_clear(struct __user_cap_data_struct *data, int cap)
{
	data[CAP_TO_INDEX(cap)].effective &= ~CAP_TO_MASK(cap);
}

static bool cap_permitted(const struct __user_cap_data_struct *data, int cap)
{
	return data[CAP_TO_INDEX(cap)].permitted & CAP_TO_MASK(cap);
}

/*
 * Narrows the effective set for one load and widens it again afterwards:
 * the permitted set keeps everything, so no privilege is lost for good.
 */
static int set_caps(enum vdiff_caps caps)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	int i;

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	if (!cap_permitted(data, CAP_BPF) || !cap_permitted(data, CAP_NET_ADMIN))
		return -EPERM;
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		data[i].effective = data[i].permitted;
	if (caps == VDIFF_CAPS_BPF) {
		cap_clear(data, CAP_PERFMON);
		cap_clear(data, CAP_SYS_ADMIN);
	}
	if (syscall(SYS_capset, &hdr, data))
		return -errno;
	return 0;
}

int vdiff_kernel__load(struct vdiff_kernel *k, const struct vdiff_prog *prog, enum vdiff_caps caps,
		       struct vdiff_kernel_result *res)
{
	struct bpf_insn *insns;
	int fd, err;

	memset(res, 0, sizeof(*res));
	if (!prog->cnt)
		return -EINVAL;
	insns = malloc(prog->cnt * sizeof(*insns));
	if (!insns)
		return -ENOMEM;
	/* maps are made with every capability, the program is judged with caps */
	err = to_kernel_insns(k, prog, insns);
	if (!err)
		err = set_caps(caps);
	if (err)
		goto out;
	/*
	 * The verdict comes from a load that logs errors and statistics only:
	 * a full trace of a long loop costs the kernel far more than verifying
	 * it. A rejected program is loaded again with the trace of its failing
	 * path, unless it was a huge one; a log that does not fit keeps its tail,
	 * which holds the reason.
	 */
	fd = load(k, insns, prog->cnt, LOG_STATS, TRACE_LOG_SIZE, &res->load_ns, &err);
	if (fd < 0 && err != -ENOSPC && processed(k->log) < TRACE_MAX) {
		uint64_t ns;
		int err2;

		fd = load(k, insns, prog->cnt, LOG_TRACE | LOG_STATS, TRACE_LOG_SIZE, &ns, &err2);
		if (fd >= 0) {
			/* a verdict that changes with the log level: report the first one */
			close(fd);
			fd = -1;
			pr_warn("vdiff: program %llu: accepted only with a log\n",
				(unsigned long long)prog->index);
		}
	}
	if (caps != VDIFF_CAPS_ROOT)
		set_caps(VDIFF_CAPS_ROOT);
	if (fd >= 0) {
		close(fd);
		res->accepted = true;
	} else {
		switch (-err) {
		case EACCES:   /* the verifier's safety verdict */
		case EINVAL:   /* malformed program, bad encoding, bad control flow */
		case E2BIG:    /* too many insns processed, too complex */
		case EBADF:    /* an ld_imm64 naming a map that is not there */
		case ENOTSUPP: /* a feature this program type cannot have */
		case EOPNOTSUPP:
		case EFAULT: /* a pointer the verifier cannot follow */
		case ERANGE:
		case ENOSPC: /* the verdict's log did not fit: a huge program */
		case ENOENT:
		case ENXIO:
		case EPROTO: /* a kfunc call naming a BTF fd, no fd_array */
			res->err = err;
			break;
		default:
			pr_warn("vdiff: bpf_prog_load: %s\n", strerror(-err));
			goto out;
		}
	}
	res->log = strdup(k->log);
	if (!res->log) {
		err = -ENOMEM;
		goto out;
	}
	res->log_len = strlen(res->log);
	res->insns_processed = processed(res->log);
	err = 0;
out:
	free(insns);
	return err;
}

void vdiff_kernel_result__clear(struct vdiff_kernel_result *res)
{
	free(res->log);
	memset(res, 0, sizeof(*res));
}

static bool is_insn_line(const char *s)
{
	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s))
		s++;
	return s[0] == ':' && s[1] == ' ' && s[2] == '(';
}

static bool is_noise_line(const char *s, size_t n)
{
	static const char *const prefixes[] = {
		"processed ",	"verification time", "stack depth", "from ",
		"mark_precise", "last_idx",	     "parent ",	    "Func#",
		"; ",		"cur state:",	     "old state:"
	};
	const char *p = s;
	size_t i;

	if (!n)
		return true;
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (n >= strlen(prefixes[i]) && !strncmp(s, prefixes[i], strlen(prefixes[i])))
			return true;
	/* a register dump: "12: R0=..." or "R0=..." */
	while (p < s + n && isdigit((unsigned char)*p))
		p++;
	if (p > s && p[0] == ':' && p[1] == ' ')
		p += 2;
	return p + 2 < s + n && p[0] == 'R' && isdigit((unsigned char)p[1]) &&
	       (p[2] == '=' || (p[2] == '_' && p[3] == 'w') ||
		(isdigit((unsigned char)p[2]) && p[3] == '='));
}

/* A jump's line may carry the message: "14: (a5) if r5 < 0x10 goto pc-4 infinite loop ..." */
static const char *after_jump(const char *line, size_t n)
{
	const char *p = strstr(line, "goto pc");

	if (!p || p >= line + n)
		return NULL;
	p += strlen("goto pc");
	if (*p == '+' || *p == '-')
		p++;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == ' ' && p + 1 < line + n && p[1] != ';' ? p + 1 : NULL;
}

void vdiff_log__reason(const char *log, char *buf, size_t len)
{
	const char *line = log, *after_insn = NULL, *last = NULL, *msg;
	size_t after_len = 0, last_len = 0;
	bool prev_insn = false;

	if (!len)
		return;
	buf[0] = '\0';
	if (!log)
		return;
	while (*line) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);

		if (is_insn_line(line)) {
			prev_insn = true;
			msg = after_jump(line, n);
			if (msg) {
				after_insn = last = msg;
				after_len = last_len = n - (size_t)(msg - line);
				prev_insn = false;
			}
		} else if (!is_noise_line(line, n)) {
			/* the first message after the last instruction names the fault */
			if (prev_insn) {
				after_insn = line;
				after_len = n;
			}
			last = line;
			last_len = n;
			prev_insn = false;
		}
		if (!end)
			break;
		line = end + 1;
	}
	if (after_insn && last && after_insn <= last) {
		line = after_insn;
		last_len = after_len;
	} else {
		line = last;
	}
	if (!line)
		return;
	snprintf(buf, len, "%.*s", (int)last_len, line);
}

void vdiff_reason_shape(const char *reason, char *buf, size_t len)
{
	size_t j = 0;

	if (!len)
		return;
	while (*reason && j + 1 < len) {
		/* 0x1f, -14, 512: all numbers look alike */
		if (isdigit((unsigned char)*reason) ||
		    (*reason == '-' && isdigit((unsigned char)reason[1]))) {
			if (*reason == '-')
				reason++;
			if (reason[0] == '0' && reason[1] == 'x') {
				reason += 2;
				while (isxdigit((unsigned char)*reason))
					reason++;
			}
			while (isdigit((unsigned char)*reason))
				reason++;
			buf[j++] = 'N';
			continue;
		}
		buf[j++] = *reason++;
	}
	buf[j] = '\0';
}
