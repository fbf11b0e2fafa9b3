// SPDX-License-Identifier: GPL-2.0
/*
 * Programs on ports. One object, two copies: the microcode on the board
 * (verified and translated by the loader, in the slots of its ports) and
 * the host copy in the kernel (hwxdp_target = HOST), attached to the ports'
 * TAPs through bpf_links so that a new program replaces an old one
 * atomically. The host copy's maps are pinned under PIN_ROOT/NAME/ with
 * their BTF. The device's tables and the kernel's maps are two contents
 * for now (docs/daemon.md, "What is left").
 */
#include <errno.h>
#include <libgen.h>
#include <linux/magic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "daemon/flows.h"
#include "daemon/fwd.h"
#include "daemon/internal.h"
#include "daemon/policy.h"
#include "daemon/mirror.h"
#include "daemon/sa.h"
#include "device/device.h"
#include "device/tables.h"
#include "loader/device.h"
#include "loader/host.h"
#include "base/log.h"
#include "hwxdp/object.h"

/* The verifier's log of a load, for the reply. Loads run on the control
 * thread only, one at a time. */
#define LOG_MAX (60 * 1024)
static char load_log[LOG_MAX];
static size_t load_log_len;

static int capture_print(enum hwxdp_print_level level, const char *fmt, va_list args)
{
	int n;

	(void)level;
	if (load_log_len >= LOG_MAX - 1)
		return 0;
	n = vsnprintf(load_log + load_log_len, LOG_MAX - load_log_len, fmt, args);
	if (n > 0)
		load_log_len +=
			(size_t)n < LOG_MAX - load_log_len ? (size_t)n : LOG_MAX - 1 - load_log_len;
	return n;
}

/* The host copy's program the ports run. */
static struct bpf_program *host_prog(const struct prog *pr)
{
	return hwxdp_host_port_program(pr->host, pr->bpf_prog[0] ? pr->bpf_prog : NULL);
}

/* Why the host copy of path was not loaded, in the loader's words where it
 * has them ("libbpf cannot open it", "the kernel refused the object"). */
static void host_refused(const char *path, int err, char *msg, size_t msglen)
{
	const char *why = hwxdp_error_message(err);
	size_t n = strlen(path);

	if (!strncmp(why, path, n) && !strncmp(why + n, ": ", 2))
		why += n + 2;
	snprintf(msg, msglen, "%s: the host copy: %s", path, why);
}

struct prog *prog_by_name(struct hwxdpd *d, const char *name)
{
	for (int i = 0; i < HWXDPD_PROGS_MAX; i++)
		if (d->progs[i].used && !strcmp(d->progs[i].name, name))
			return &d->progs[i];
	return NULL;
}

/* fwd.bpf.o -> fwd */
static void default_name(const char *path, char *name, size_t len)
{
	char copy[PATH_MAX], *base, *dot;

	snprintf(copy, sizeof(copy), "%s", path);
	base = basename(copy);
	dot = strstr(base, ".bpf.o");
	if (!dot)
		dot = strrchr(base, '.');
	if (dot && dot != base)
		*dot = '\0';
	snprintf(name, len, "%s", base);
}

static bool name_ok(const char *name)
{
	size_t len = strlen(name);

	return len >= 1 && len < HWXDPD_NAME_MAX && name[0] != '.' &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") ==
		       len;
}

/* bpffs under pin_root, mounted at /sys/fs/bpf when nothing is there. */
static int pin_root_ready(struct hwxdpd *d, char *msg, size_t msglen)
{
	char copy[PATH_MAX], parent[PATH_MAX];
	struct statfs fs;

	snprintf(copy, sizeof(copy), "%s", d->pin_root);
	snprintf(parent, sizeof(parent), "%s", dirname(copy));
	if (statfs(parent, &fs) || fs.f_type != BPF_FS_MAGIC) {
		if (!strcmp(parent, "/sys/fs/bpf") &&
		    !mount("bpf", "/sys/fs/bpf", "bpf", 0, "mode=0700") && !statfs(parent, &fs) &&
		    fs.f_type == BPF_FS_MAGIC)
			goto mkdir_root;
		snprintf(msg, msglen, "%s is not a BPF filesystem (mount -t bpf bpf %s)", parent,
			 parent);
		return -ENOTSUP;
	}
mkdir_root:
	if (!mkdir(d->pin_root, 0700))
		d->made_pin_root = true;
	else if (errno != EEXIST) {
		int err = -errno;

		snprintf(msg, msglen, "cannot make %s: %s", d->pin_root, strerror(errno));
		return err;
	}
	return 0;
}

static void unpin(struct prog *pr)
{
	struct bpf_map *map;

	if (!pr->host || !pr->pin_dir[0])
		return;
	bpf_object__for_each_map(map, pr->host) if (bpf_map__is_pinned(map))
		bpf_map__unpin(map, NULL);
	rmdir(pr->pin_dir);
}

static int pin(struct hwxdpd *d, struct prog *pr, char *msg, size_t msglen)
{
	struct bpf_map *map;
	int err;

	err = pin_root_ready(d, msg, msglen);
	if (err)
		return err;
	if (snprintf(pr->pin_dir, sizeof(pr->pin_dir), "%s/%s", d->pin_root, pr->name) >=
	    (int)sizeof(pr->pin_dir)) {
		snprintf(msg, msglen, "pin path %s/%s is too long", d->pin_root, pr->name);
		pr->pin_dir[0] = '\0';
		return -ENAMETOOLONG;
	}
	/* A restart takes back the pins the killed daemon left (the host copy
	 * was loaded on them); otherwise they are in the way. */
	if (mkdir(pr->pin_dir, 0700) && !(d->restoring && errno == EEXIST)) {
		err = -errno;
		snprintf(msg, msglen, "cannot make %s: %s%s", pr->pin_dir, strerror(errno),
			 errno == EEXIST ? " (left by another daemon? remove it)" : "");
		pr->pin_dir[0] = '\0';
		return err;
	}
	bpf_object__for_each_map(map, pr->host)
	{
		char path[PATH_MAX];

		/* .rodata and friends: the object's own, not the user's. */
		if (bpf_map__is_internal(map))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", pr->pin_dir, bpf_map__name(map)) >=
		    (int)sizeof(path))
			err = -ENAMETOOLONG;
		else
			err = bpf_map__pin(map, path);
		if (err) {
			snprintf(msg, msglen, "cannot pin map %s at %s: %s", bpf_map__name(map),
				 path, strerror(-err));
			unpin(pr);
			pr->pin_dir[0] = '\0';
			return err;
		}
	}
	return 0;
}

int host_attach(struct hwxdpd *d, struct prog *pr, struct bpf_link **link, uint32_t ifindex,
		const char *tap, char *msg, size_t msglen)
{
	struct bpf_program *prog = host_prog(pr);
	int err;

	(void)d;
	if (*link) {
		err = bpf_link__update_program(*link, prog);
	} else {
		*link = bpf_program__attach_xdp(prog, (int)ifindex);
		err = *link ? 0 : -errno;
		if (err)
			*link = NULL;
	}
	if (err)
		snprintf(msg, msglen, "cannot attach %s to %s in the kernel: %s", pr->name, tap,
			 strerror(-err));
	return err;
}

/* Puts pr on p: its microcode in the slot, its host copy on the TAPs, the
 * port in its maps; an old program's links are updated in place, so a TAP
 * is never without. */
static int attach(struct hwxdpd *d, struct prog *pr, struct port *p, char *msg, size_t msglen)
{
	int err;

	if (p->prog >= 0 && &d->progs[p->prog] != pr) {
		flows_flush_port(d, p);
		fwd_port_detach(d, &d->progs[p->prog], p);
	}
	err = host_attach(d, pr, &p->link, p->tap_ifindex, p->tap, msg, msglen);
	for (int i = 0; !err && i < HWXDPD_VLANS_MAX; i++)
		if (p->vlans[i].used)
			err = host_attach(d, pr, &p->vlans[i].link, p->vlans[i].tap_ifindex,
					  p->vlans[i].tap, msg, msglen);
	if (!err)
		err = fwd_port_attach(d, pr, p, msg, msglen);
	if (err)
		return err;
	err = hwxdp_device__attach(d->board, p->ifindex, pr->device_id);
	if (err) {
		snprintf(msg, msglen, "cannot attach %s to port %s on the board: %s", pr->name,
			 p->name, strerror(-err));
		fwd_port_detach(d, pr, p);
		return err;
	}
	p->prog = (int)(pr - d->progs);
	return 0;
}

int prog_detach(struct hwxdpd *d, struct port *p, char *msg, size_t msglen)
{
	struct prog *pr;

	if (p->prog < 0) {
		snprintf(msg, msglen, "port %s has no program", p->name);
		return -ENOENT;
	}
	pr = &d->progs[p->prog];
	hwxdp_device__detach(d->board, p->ifindex);
	flows_flush_port(d, p);
	fwd_port_detach(d, pr, p);
	bpf_link__destroy(p->link);
	p->link = NULL;
	for (int i = 0; i < HWXDPD_VLANS_MAX; i++) {
		bpf_link__destroy(p->vlans[i].link);
		p->vlans[i].link = NULL;
	}
	snprintf(msg, msglen, "%s detached from port %s", pr->name, p->name);
	p->prog = -1;
	return 0;
}

static void unmap_arrays(struct prog *pr)
{
	for (int i = 0; i < pr->mm_cnt; i++)
		munmap(pr->mm[i].mem, pr->mm[i].len);
	pr->mm_cnt = 0;
}

static void prog_release(struct hwxdpd *d, struct prog *pr)
{
	if (pr->used)
		flows_flush_prog(d, pr);
	if (pr->device_id != HWXDP_DEVICE_PROG_NONE)
		sas_free(d, pr);
	policies_free(pr);
	mirror_free(pr);
	fwd_free(pr);
	if (pr->device_id != HWXDP_DEVICE_PROG_NONE)
		hwxdp_device__unload(d->board, pr->device_id);
	/* The board's tables are gone: the kernel's memory may go too. */
	unmap_arrays(pr);
	unpin(pr);
	bpf_object__close(pr->host);
	memset(pr, 0, sizeof(*pr));
	pr->device_id = HWXDP_DEVICE_PROG_NONE;
	pr->swap_watch = HWXDP_DEVICE_PROG_NONE;
}

int prog_unload(struct hwxdpd *d, struct prog *pr, char *msg, size_t msglen)
{
	char name[HWXDPD_NAME_MAX];

	for (int i = 0; i < HWXDPD_PORTS_MAX; i++)
		if (d->ports[i].used && d->ports[i].prog == pr - d->progs)
			prog_detach(d, &d->ports[i], msg, msglen);
	snprintf(name, sizeof(name), "%s", pr->name);
	prog_release(d, pr);
	snprintf(msg, msglen, "%s unloaded, its pins removed", name);
	return 0;
}

void progs_free(struct hwxdpd *d)
{
	char msg[256];

	for (int i = 0; i < HWXDPD_PROGS_MAX; i++)
		if (d->progs[i].used)
			prog_unload(d, &d->progs[i], msg, sizeof(msg));
}

static void log_body(struct jbuf *b)
{
	jbuf_reset(b);
	jbuf_start_object(b);
	jbuf_string_field(b, "log", load_log);
	jbuf_end_object(b);
}

/* The BPF instructions and microcode words of pr's board program. */
static void prog_sizes(struct hwxdpd *d, struct prog *pr)
{
	struct hwxdp_device_prog *dp = hwxdp_device__prog(d->board, pr->device_id);

	pr->insns = dp && dp->prog ? (uint32_t)dp->prog->insn_cnt : 0;
	pr->words = hwxdp_device__prog_words(d->board, pr->device_id);
}

/*
 * The TAPs' links of every port that runs pr onto host (pr's name in the
 * messages). The kernel swaps each link atomically, and a swap costs about
 * a grace period (milliseconds): this runs without d->lock, so that the
 * board thread never waits for it; only the control thread changes ports
 * and links. The first error stops it, or with keep_going (a way back) is
 * only returned.
 */
static int switch_links(struct hwxdpd *d, struct prog *pr, struct bpf_object *host, bool keep_going,
			char *msg, size_t msglen)
{
	struct prog as = *pr;
	int first = 0;

	as.host = host;
	for (int i = 0; i < HWXDPD_PORTS_MAX && (!first || keep_going); i++) {
		struct port *p = &d->ports[i];
		int err;

		if (!p->used || p->prog != pr - d->progs)
			continue;
		err = host_attach(d, &as, &p->link, p->tap_ifindex, p->tap, msg, msglen);
		for (int j = 0; (!err || keep_going) && j < HWXDPD_VLANS_MAX; j++)
			if (p->vlans[j].used) {
				int e = host_attach(d, &as, &p->vlans[j].link,
						    p->vlans[j].tap_ifindex, p->vlans[j].tap, msg,
						    msglen);

				err = err ? err : e;
			}
		first = first ? first : err;
	}
	return first;
}

/* Board program id into the slot of every port that runs pr, each between
 * two frames; with d->lock held. */
static int switch_slots(struct hwxdpd *d, struct prog *pr, uint32_t id, char *msg, size_t msglen)
{
	for (int i = 0; i < HWXDPD_PORTS_MAX; i++) {
		struct port *p = &d->ports[i];
		int err;

		if (!p->used || p->prog != pr - d->progs)
			continue;
		err = hwxdp_device__attach(d->board, p->ifindex, id);
		if (err) {
			snprintf(msg, msglen, "cannot switch port %s on the board: %s", p->name,
				 strerror(-err));
			return err;
		}
	}
	return 0;
}

/* The kernel's array for a board table, mapped: the same memory for both. */
static void *array_memory(const struct hxu_table_desc *desc, size_t *size, void *ctx)
{
	struct prog *pr = ctx;
	struct bpf_map *map = bpf_object__find_map_by_name(pr->host, desc->name);
	size_t len;
	void *mem;

	if (!map || bpf_map__is_internal(map) || pr->mm_cnt == HWXDPD_MMAPS_MAX ||
	    bpf_map__type(map) != BPF_MAP_TYPE_ARRAY ||
	    !(bpf_map__map_flags(map) & BPF_F_MMAPABLE) ||
	    bpf_map__value_size(map) != desc->value_size ||
	    bpf_map__max_entries(map) != desc->max_entries)
		return NULL;
	len = (size_t)bpf_map__max_entries(map) * ((bpf_map__value_size(map) + 7) & ~7u);
	len = (len + 4095) & ~(size_t)4095;
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(map), 0);
	if (mem == MAP_FAILED)
		return NULL;
	pr->mm[pr->mm_cnt].mem = mem;
	pr->mm[pr->mm_cnt].len = len;
	snprintf(pr->mm[pr->mm_cnt].name, sizeof(pr->mm[0].name), "%s", desc->name);
	pr->mm_cnt++;
	*size = len;
	return mem;
}

/*
 * The host copy first, its arrays BPF_F_MMAPABLE, then the board's with
 * those arrays as its tables' memory. A program the kernel refuses is also
 * run through the device's load, whose verifier log names the source line.
 */
static int load_both(struct hwxdpd *d, struct prog *tmp, struct hwxdp_device_load_opts *lopts,
		     const char *path, char *msg, size_t msglen)
{
	struct hwxdp_host_load_opts hopts = { .sz = sizeof(hopts), .mmapable_arrays = true };
	char pin_dir[PATH_MAX];
	struct stat st;
	int id, err;

	/* A restart: the maps the killed daemon pinned, with their contents. */
	if (d->restoring &&
	    snprintf(pin_dir, sizeof(pin_dir), "%s/%s", d->pin_root, tmp->name) <
		    (int)sizeof(pin_dir) &&
	    !stat(pin_dir, &st) && S_ISDIR(st.st_mode))
		hopts.pin_dir = pin_dir;
	tmp->host = hwxdp_host_load_opts(path, &hopts);
	if (!tmp->host) {
		char why[512];

		/* The device's refusal, where it has one, says more. */
		err = -errno;
		host_refused(path, err, why, sizeof(why));
		id = hwxdp_device__load(d->board, path, lopts, msg, msglen);
		if (id < 0)
			return id;
		hwxdp_device__unload(d->board, (uint32_t)id);
		snprintf(msg, msglen, "%s", why);
		return err;
	}
	lopts->array_memory = array_memory;
	lopts->array_memory_ctx = tmp;
	id = hwxdp_device__load(d->board, path, lopts, msg, msglen);
	if (id < 0)
		return id;
	tmp->device_id = (uint32_t)id;
	if (!host_prog(tmp)) {
		snprintf(msg, msglen, "%s: the host copy has no XDP program '%s' for a port", path,
			 tmp->bpf_prog);
		return -ENOENT;
	}
	return 0;
}

int prog_load(struct hwxdpd *d, const char *path, const char *name_arg, const char *bpf_prog,
	      const char **ports, int port_cnt, struct jbuf *body, char *msg, size_t msglen)
{
	struct hwxdp_device_load_opts lopts = { .sz = sizeof(lopts) };
	char name[HWXDPD_NAME_MAX * 2];
	struct prog *pr = NULL, tmp;
	hwxdp_print_fn_t old;
	int err;

	if (name_arg)
		snprintf(name, sizeof(name), "%s", name_arg);
	else
		default_name(path, name, sizeof(name));
	if (!name_ok(name)) {
		snprintf(msg, msglen,
			 "program name '%s': 1 to %d letters, digits, '-', '_' or '.' expected "
			 "(give one with `name NAME`)",
			 name, HWXDPD_NAME_MAX - 1);
		return -EINVAL;
	}
	if (access(path, R_OK)) {
		err = -errno;
		snprintf(msg, msglen, "%s: %s", path, strerror(errno));
		return err;
	}
	pthread_mutex_lock(&d->lock);
	err = prog_by_name(d, name) ? -EEXIST : 0;
	for (int i = 0; !err && i < port_cnt; i++)
		if (!port_by_name(d, ports[i]))
			err = -ENOENT, snprintf(msg, msglen, "no port '%s'", ports[i]);
	for (int i = 0; !err && i < HWXDPD_PROGS_MAX && !pr; i++)
		if (!d->progs[i].used)
			pr = &d->progs[i];
	pthread_mutex_unlock(&d->lock);
	if (err == -EEXIST)
		snprintf(msg, msglen, "a program %s is loaded already (prog unload %s first)", name,
			 name);
	if (err)
		return err;
	if (!pr) {
		snprintf(msg, msglen, "%d programs are loaded, the most the daemon holds",
			 HWXDPD_PROGS_MAX);
		return -ENOSPC;
	}

	/* Verified, translated, loaded on both targets before any port sees
	 * it; the lock is not held meanwhile: frames keep flowing. */
	memset(&tmp, 0, sizeof(tmp));
	snprintf(tmp.name, sizeof(tmp.name), "%s", name);
	snprintf(tmp.path, sizeof(tmp.path), "%s", path);
	if (bpf_prog && snprintf(tmp.bpf_prog, sizeof(tmp.bpf_prog), "%s", bpf_prog) >=
				(int)sizeof(tmp.bpf_prog)) {
		snprintf(msg, msglen, "prog '%s': a program name has at most %zu characters",
			 bpf_prog, sizeof(tmp.bpf_prog) - 1);
		return -ENAMETOOLONG;
	}
	lopts.prog = tmp.bpf_prog[0] ? tmp.bpf_prog : NULL;
	tmp.device_id = HWXDP_DEVICE_PROG_NONE;
	tmp.swap_watch = HWXDP_DEVICE_PROG_NONE;
	load_log_len = 0;
	load_log[0] = '\0';
	old = hwxdp_set_print(capture_print);
	err = load_both(d, &tmp, &lopts, path, msg, msglen);
	hwxdp_set_print(old);
	if (err) {
		log_body(body);
		if (tmp.device_id != HWXDP_DEVICE_PROG_NONE)
			hwxdp_device__unload(d->board, tmp.device_id);
		unmap_arrays(&tmp);
		bpf_object__close(tmp.host);
		return err;
	}
	prog_sizes(d, &tmp);
	pthread_mutex_lock(&d->lock);
	*pr = tmp;
	pr->used = true;
	pr->loaded_at = (int64_t)time(NULL);
	err = fwd_detect(d, pr);
	if (!err)
		err = mirror_new(d, pr);
	if (err)
		snprintf(msg, msglen, "%s: %s", name, strerror(-err));
	/* Hash maps that kept their pins (a restart) give the board their
	 * entries before anything reads the board's tables. */
	if (!err)
		mirror_sync(d, pr);
	if (!err)
		err = fwd_setup(d, pr, msg, msglen);
	if (!err)
		err = pin(d, pr, msg, msglen);
	for (int i = 0; !err && i < port_cnt; i++) {
		struct port *p = port_by_name(d, ports[i]);

		/* Gone while the program loaded: named, not half-attached. */
		if (!p) {
			snprintf(msg, msglen, "port '%s' was removed meanwhile", ports[i]);
			err = -ENOENT;
			break;
		}
		err = attach(d, pr, p, msg, msglen);
	}
	if (err) {
		char ignored[256];

		/* A restart that fails keeps the pins: they are the data. */
		if (d->restoring)
			pr->pin_dir[0] = '\0';
		prog_unload(d, pr, ignored, sizeof(ignored));
		pthread_mutex_unlock(&d->lock);
		return err;
	}
	if (d->restoring) {
		sas_forget(d, pr);
		flows_adopt(d, pr);
	}
	prog_json(d, pr, body);
	pthread_mutex_unlock(&d->lock);
	snprintf(msg, msglen, "%s loaded (%u BPF instructions, %u microcode words)%s%s", name,
		 tmp.insns, tmp.words, port_cnt ? " on " : "", port_cnt ? ports[0] : "");
	if (port_cnt > 1) {
		size_t len = strlen(msg);

		for (int i = 1; i < port_cnt && len < msglen; i++)
			len += (size_t)snprintf(msg + len, msglen - len, ", %s", ports[i]);
	}
	return 0;
}

void prog_json(struct hwxdpd *d, const struct prog *pr, struct jbuf *b)
{
	struct bpf_program *prog = host_prog(pr);
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);
	struct bpf_map *map;

	jbuf_start_object(b);
	jbuf_string_field(b, "name", pr->name);
	jbuf_string_field(b, "file", pr->path);
	jbuf_string_field(b, "program", prog ? bpf_program__name(prog) : NULL);
	jbuf_uint_field(b, "device_id", pr->device_id);
	jbuf_uint_field(b, "bpf_insns", pr->insns);
	jbuf_uint_field(b, "microcode_words", pr->words);
	jbuf_int_field(b, "loaded_at", pr->loaded_at);
	jbuf_uint_field(b, "replaces", pr->replaces);
	if (pr->replaces) {
		jbuf_name(b, "last_replace");
		jbuf_start_object(b);
		jbuf_uint_field(b, "request_to_switch_us",
				(uint64_t)(pr->swap.slots_us - pr->swap.request_us));
		jbuf_uint_field(b, "open_us", pr->swap.open_us);
		jbuf_uint_field(b, "verify_us", pr->swap.verify_us);
		jbuf_uint_field(b, "translate_us", pr->swap.translate_us);
		jbuf_uint_field(b, "install_us", pr->swap.install_us);
		jbuf_uint_field(b, "host_load_us", pr->swap.host_us);
		/* From the slots' switch to the first frame the new build ran:
		 * null while no frame has come. */
		jbuf_name(b, "switch_to_first_frame_us");
		if (pr->swap.first_seen)
			jbuf_uint(b, pr->swap.first_frame_us);
		else
			jbuf_null(b);
		jbuf_uint_field(b, "links_us", pr->swap.links_us);
		jbuf_end_object(b);
	}
	if (prog && !bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
		jbuf_uint_field(b, "host_prog_id", info.id);
	jbuf_string_field(b, "pinned", pr->pin_dir[0] ? pr->pin_dir : NULL);
	jbuf_name(b, "ports");
	jbuf_start_array(b);
	for (int i = 0; i < HWXDPD_PORTS_MAX; i++) {
		const struct port *p = &d->ports[i];

		if (!p->used || p->prog != pr - d->progs)
			continue;
		jbuf_start_object(b);
		jbuf_string_field(b, "port", p->name);
		jbuf_string_field(b, "tap", p->tap);
		if (p->link) {
			struct bpf_link_info li = { 0 };
			uint32_t li_len = sizeof(li);

			if (!bpf_obj_get_info_by_fd(bpf_link__fd(p->link), &li, &li_len))
				jbuf_uint_field(b, "link_id", li.id);
		}
		jbuf_end_object(b);
	}
	jbuf_end_array(b);
	jbuf_name(b, "maps");
	jbuf_start_array(b);
	bpf_object__for_each_map(map, pr->host)
	{
		if (bpf_map__is_internal(map))
			continue;
		jbuf_start_object(b);
		jbuf_string_field(b, "name", bpf_map__name(map));
		jbuf_string_field(b, "pin", bpf_map__pin_path(map));
		jbuf_uint_field(b, "max_entries", bpf_map__max_entries(map));
		jbuf_end_object(b);
	}
	jbuf_end_array(b);
	jbuf_end_object(b);
}

/* What the board's load of build id took, into pr's swap record. */
static void swap_load_times(struct hwxdpd *d, struct prog *pr, uint32_t id)
{
	struct hwxdp_device_prog *dp = hwxdp_device__prog(d->board, id);

	if (!dp)
		return;
	pr->swap.open_us = dp->times.open_ns / 1000;
	pr->swap.verify_us = dp->times.verify_ns / 1000;
	pr->swap.translate_us = dp->times.translate_ns / 1000;
	pr->swap.install_us = dp->times.install_ns / 1000;
}

/*
 * Another build in pr's place on every port it is on, its maps kept: the
 * board's new program shares pr's table memory (same maps, same layout,
 * checked by the loader), the host copy reuses pr's pinned kernel maps
 * (libbpf checks type and sizes), so nothing is copied and no count is
 * lost. Verified, translated and loaded before anything changes; then, under
 * the lock, each port's slot and each TAP's link switch (the board between
 * two frames, the kernel atomically through the link), and the old build
 * goes. The slot and the name stay pr's.
 */
/* A fresh replace: the old build's tables copied into the new build's
 * (kept maps; arrays are the kernel's memory, shared already) and its SAs
 * given to them, with d->lock held, just before the switch. */
static int copy_tables(struct hwxdpd *d, struct prog *pr, uint32_t id, const char **fresh,
		       int fresh_cnt, char *msg, size_t msglen)
{
	struct hwxdp_tables *to = hwxdp_device__tables(d->board, id);
	struct bpf_map *map;
	uint8_t *key = NULL, *next = NULL, *value = NULL;
	int err = 0;

	bpf_object__for_each_map(map, pr->host)
	{
		const char *name = bpf_map__name(map);
		struct hwxdp_table *a = hwxdp_device__table(d->board, pr->device_id, name);
		struct hwxdp_table *b = hwxdp_device__table(d->board, id, name);
		/* a program array holds its own build's image indices, which
		 * the new build's load wrote into its table */
		bool skip = !a || !b || a->desc.type == BPF_MAP_TYPE_PROG_ARRAY;

		for (int i = 0; i < fresh_cnt && !skip; i++)
			skip = !strcmp(fresh[i], name);
		for (int i = 0; i < pr->mm_cnt && !skip; i++)
			skip = !strcmp(pr->mm[i].name, name);
		if (skip)
			continue;
		free(key), free(next), free(value);
		key = calloc(1, a->desc.key_size ? a->desc.key_size : 4);
		next = calloc(1, a->desc.key_size ? a->desc.key_size : 4);
		value = calloc(1, hwxdp_table__value_buf_size(a));
		if (!key || !next || !value) {
			err = -ENOMEM;
			break;
		}
		for (int e = hwxdp_table__get_next_key(a, NULL, next); !e && !err;
		     e = hwxdp_table__get_next_key(a, key, next)) {
			memcpy(key, next, a->desc.key_size);
			if (hwxdp_table__lookup(a, key, value))
				continue;
			err = hwxdp_table__update(b, key, value, BPF_ANY);
		}
		if (err) {
			snprintf(msg, msglen, "%s: copying %s to the new build's table: %s",
				 pr->name, name, strerror(-err));
			break;
		}
	}
	free(key), free(next), free(value);
	for (uint32_t h = 0; !err && pr->sa && to && pr->fwd &&
			     h < bpf_map__max_entries(pr->fwd->sas.map) && h < HWXDP_TABLES_SA_MAX;
	     h++)
		if (pr->sa[h])
			err = hwxdp_tables__set_sa(to, h, pr->sa[h]);
	return err;
}

/* After a fresh replace: each fresh map pinned where the old one was. */
static void pin_fresh(struct prog *pr, struct bpf_object *old_host, const char **fresh,
		      int fresh_cnt)
{
	for (int i = 0; i < fresh_cnt && pr->pin_dir[0]; i++) {
		struct bpf_map *old = bpf_object__find_map_by_name(old_host, fresh[i]);
		struct bpf_map *now = bpf_object__find_map_by_name(pr->host, fresh[i]);
		char path[PATH_MAX];

		if (snprintf(path, sizeof(path), "%s/%s", pr->pin_dir, fresh[i]) >=
		    (int)sizeof(path))
			continue;
		if (old && bpf_map__is_pinned(old))
			bpf_map__unpin(old, NULL);
		unlink(path);
		if (now && bpf_map__pin(now, path))
			fprintf(stderr, "hwxdpd: warning: cannot pin %s: %s\n", path,
				strerror(errno));
	}
}

int prog_replace(struct hwxdpd *d, const char *name, const char *path, const char **fresh,
		 int fresh_cnt, struct jbuf *body, char *msg, size_t msglen)
{
	struct hwxdp_device_load_opts lopts = { .sz = sizeof(lopts), .share_tables = true };
	struct hwxdp_host_load_opts hopts = { .sz = sizeof(hopts), .mmapable_arrays = true };
	int64_t request_us = hwxdpd_now_us(), t;
	struct bpf_object *host = NULL, *old_host;
	uint64_t host_us = 0, links_us;
	char pin_dir[PATH_MAX], bpf_prog[HXU_NAME_MAX];
	struct prog *pr, next;
	uint32_t old_id;
	hwxdp_print_fn_t old;
	int id = -1, err = 0;
	__typeof__(next.swap) swap;

	if (access(path, R_OK)) {
		err = -errno;
		snprintf(msg, msglen, "%s: %s", path, strerror(errno));
		return err;
	}
	pthread_mutex_lock(&d->lock);
	pr = prog_by_name(d, name);
	if (pr) {
		/* The new build's program of the same name runs. */
		snprintf(bpf_prog, sizeof(bpf_prog), "%s", pr->bpf_prog);
		lopts.prog = bpf_prog[0] ? bpf_prog : NULL;
		lopts.tables_of = pr->device_id;
		snprintf(pin_dir, sizeof(pin_dir), "%s", pr->pin_dir);
		for (int i = 0; i < fresh_cnt && !err; i++) {
			struct bpf_map *m = bpf_object__find_map_by_name(pr->host, fresh[i]);

			if (!m || bpf_map__is_internal(m)) {
				snprintf(msg, msglen, "fresh %s: %s has no map of that name",
					 fresh[i], name);
				err = -ENOENT;
			}
		}
	}
	pthread_mutex_unlock(&d->lock);
	if (!pr) {
		snprintf(msg, msglen, "no program '%s' is loaded (prog load)", name);
		return -ENOENT;
	}
	if (err)
		return err;
	memset(&next, 0, sizeof(next));
	load_log_len = 0;
	load_log[0] = '\0';
	old = hwxdp_set_print(capture_print);
	if (fresh_cnt) {
		/* Tables of its own, the kept ones filled from the old build's
		 * at the switch; its arrays the kernel maps' memory, the kept
		 * ones the same maps as before. */
		hopts.pin_dir = pin_dir;
		hopts.fresh = fresh;
		hopts.fresh_cnt = (size_t)fresh_cnt;
		t = hwxdpd_now_us();
		host = hwxdp_host_load_opts(path, &hopts);
		host_us = (uint64_t)(hwxdpd_now_us() - t);
		if (host) {
			next.host = host;
			lopts.share_tables = false;
			lopts.array_memory = array_memory;
			lopts.array_memory_ctx = &next;
			id = hwxdp_device__load(d->board, path, &lopts, msg, msglen);
			err = id < 0 ? id : 0;
		} else {
			err = -errno;
			host_refused(path, err, msg, msglen);
		}
	} else {
		id = hwxdp_device__load(d->board, path, &lopts, msg, msglen);
		if (id >= 0) {
			hopts.pin_dir = pin_dir;
			t = hwxdpd_now_us();
			host = hwxdp_host_load_opts(path, &hopts);
			host_us = (uint64_t)(hwxdpd_now_us() - t);
			if (!host) {
				err = -errno;
				host_refused(path, err, msg, msglen);
			}
		} else {
			err = id;
		}
	}
	hwxdp_set_print(old);
	if (err) {
		log_body(body);
		if (id >= 0)
			hwxdp_device__unload(d->board, (uint32_t)id);
		unmap_arrays(&next);
		bpf_object__close(host);
		return err;
	}

	/* What follows the new build's maps (fwd's, the mirror), made before
	 * the switch. */
	next.host = host;
	next.device_id = (uint32_t)id;
	err = fwd_detect(d, &next);
	if (!err)
		err = mirror_new(d, &next);
	if (err) {
		snprintf(msg, msglen, "%s: %s", name, strerror(-err));
		goto drop_new;
	}

	/* The board first, each port's slot between two frames; the board
	 * thread notes the first frame the new build runs. */
	pthread_mutex_lock(&d->lock);
	if (pr->device_id != lopts.tables_of || !pr->used) {
		pthread_mutex_unlock(&d->lock);
		snprintf(msg, msglen, "%s was unloaded or replaced meanwhile", name);
		err = -EAGAIN;
		goto drop_new;
	}
	err = fresh_cnt ? copy_tables(d, pr, (uint32_t)id, fresh, fresh_cnt, msg, msglen) : 0;
	if (!err)
		err = switch_slots(d, pr, (uint32_t)id, msg, msglen);
	if (err) {
		char ignored[256];

		switch_slots(d, pr, pr->device_id, ignored, sizeof(ignored));
		pthread_mutex_unlock(&d->lock);
		goto drop_new;
	}
	swap = pr->swap;
	pr->swap.slots_us = hwxdpd_now_us();
	pr->swap.first_seen = false;
	pr->swap_watch = (uint32_t)id;
	pthread_mutex_unlock(&d->lock);

	/* Then the host copy on the TAPs, without the lock. */
	t = hwxdpd_now_us();
	err = switch_links(d, pr, host, false, msg, msglen);
	links_us = (uint64_t)(hwxdpd_now_us() - t);
	if (err) {
		char ignored[256];

		/* Back to the old build wherever the new one got to. */
		switch_links(d, pr, pr->host, true, ignored, sizeof(ignored));
		pthread_mutex_lock(&d->lock);
		switch_slots(d, pr, pr->device_id, ignored, sizeof(ignored));
		pr->swap = swap;
		pr->swap_watch = HWXDP_DEVICE_PROG_NONE;
		pthread_mutex_unlock(&d->lock);
		goto drop_new;
	}

	pthread_mutex_lock(&d->lock);
	old_host = pr->host;
	old_id = pr->device_id;
	pr->host = host;
	pr->device_id = (uint32_t)id;
	/* The old build's maps live on in the new one's (the same kernel maps,
	 * the same table memory): the mmaps stay; fwd's handles and the mirror
	 * are the new object's, the mirror with what it knew. */
	mirror_carry(next.mirror, pr->mirror);
	for (int i = 0; i < fresh_cnt; i++)
		mirror_forget(next.mirror, fresh[i]);
	if (fresh_cnt) {
		/* The new build's tables map the kernel's arrays afresh. */
		unmap_arrays(pr);
		memcpy(pr->mm, next.mm, sizeof(pr->mm));
		pr->mm_cnt = next.mm_cnt;
		next.mm_cnt = 0;
		pin_fresh(pr, old_host, fresh, fresh_cnt);
	}
	mirror_free(pr);
	fwd_free(pr);
	pr->fwd = next.fwd;
	pr->mirror = next.mirror;
	/* A fresh flow or next-hop table has none of the flows made in the
	 * old one: they are forgotten before the next is made, or one key
	 * would be made twice. */
	for (int i = 0; i < fresh_cnt; i++)
		if (!strcmp(fresh[i], "flows") || !strcmp(fresh[i], "nexthops")) {
			flows_flush_prog(d, pr);
			break;
		}
	snprintf(pr->path, sizeof(pr->path), "%s", path);
	pr->loaded_at = (int64_t)time(NULL);
	pr->replaces++;
	pr->swap.request_us = request_us;
	pr->swap.links_us = links_us;
	pr->swap.host_us = host_us;
	swap_load_times(d, pr, (uint32_t)id);
	pthread_mutex_unlock(&d->lock);

	/* No slot and no link has the old build any more. */
	hwxdp_device__unload(d->board, old_id);
	bpf_object__close(old_host);
	pthread_mutex_lock(&d->lock);
	prog_sizes(d, pr);
	prog_json(d, pr, body);
	pthread_mutex_unlock(&d->lock);
	snprintf(msg, msglen,
		 "%s replaced by %s (%u BPF instructions, %u microcode words), its maps kept", name,
		 path, pr->insns, pr->words);
	return 0;

drop_new:
	mirror_free(&next);
	fwd_free(&next);
	hwxdp_device__unload(d->board, (uint32_t)id);
	unmap_arrays(&next);
	bpf_object__close(host);
	return err;
}
