// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "base/log.h"

/* The name of a temporary file that has one: ".NAME" TMP_MARK "XXXXXX". */
#define TMP_MARK     ".hwxdp-"
#define TMP_REGISTRY 64
#define OUTPUTS_MAX  64

void hwxdp_file__size_text(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	int u = -1;

	/* exact below a MiB, where one decimal of KiB would blur a limit */
	if (bytes < 1024 * 1024) {
		snprintf(buf, len, "%llu byte%s", (unsigned long long)bytes, bytes == 1 ? "" : "s");
		return;
	}
	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%llu %s", (unsigned long long)v, unit[u]);
	else
		snprintf(buf, len, "%.1f %s", v, unit[u]);
}

static const char *file_type(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a folder";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

static int over_limit(const char *path, const char *kind, uint64_t size, uint64_t limit, char *msg,
		      size_t msglen)
{
	char have[32], max[32];

	hwxdp_file__size_text(size, have, sizeof(have));
	hwxdp_file__size_text(limit, max, sizeof(max));
	return hwxdp_say(msg, msglen, -EFBIG, "%s: %s, over the %s limit for %s", path, have, max,
			 kind);
}

int hwxdp_file__open_input(const char *path, const char *kind, uint64_t limit, char *msg,
			   size_t msglen)
{
	struct stat st;
	int fd, flags, err;

	if (!path || !*path)
		return hwxdp_say(msg, msglen, -ENOENT, "an empty file name for %s", kind);
	/* O_NONBLOCK: a FIFO without a writer would block open() for ever. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return hwxdp_say(msg, msglen, -errno, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		err = hwxdp_say(msg, msglen, -errno, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		err = hwxdp_say(msg, msglen, -EINVAL, "%s: %s; %s are read from regular files only",
				path, file_type(st.st_mode), kind);
		goto fail;
	}
	if (limit != HWXDP_FILE_UNLIMITED && (uint64_t)st.st_size > limit) {
		err = over_limit(path, kind, (uint64_t)st.st_size, limit, msg, msglen);
		goto fail;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)) {
		err = hwxdp_say(msg, msglen, -errno, "%s: %s", path, strerror(errno));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return err;
}

int hwxdp_file__read(const char *path, const char *kind, uint64_t limit, void **data, size_t *len,
		     char *msg, size_t msglen)
{
	size_t cap, done = 0;
	struct stat st;
	uint8_t *buf;
	int fd, err = 0;

	*data = NULL;
	*len = 0;
	fd = hwxdp_file__open_input(path, kind, limit, msg, msglen);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		err = hwxdp_say(msg, msglen, -errno, "%s: %s", path, strerror(errno));
		close(fd);
		return err;
	}
	/* Room for the size fstat saw and a byte more: reading that byte
	 * tells whether the file grew. */
	cap = (size_t)st.st_size + 2;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return hwxdp_say(msg, msglen, -ENOMEM, "%s: out of memory", path);
	}
	for (;;) {
		ssize_t n;

		if (done + 1 >= cap) {
			uint8_t *more;

			if ((uint64_t)done > limit) {
				err = over_limit(path, kind, done, limit, msg, msglen);
				break;
			}
			more = realloc(buf, cap * 2);
			if (!more) {
				err = hwxdp_say(msg, msglen, -ENOMEM, "%s: out of memory", path);
				break;
			}
			buf = more;
			cap *= 2;
		}
		n = read(fd, buf + done, cap - 1 - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = hwxdp_say(msg, msglen, -errno, "%s: %s", path, strerror(errno));
			break;
		}
		if (!n)
			break;
		done += (size_t)n;
		if ((uint64_t)done > limit) {
			err = over_limit(path, kind, done, limit, msg, msglen);
			break;
		}
	}
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	buf[done] = '\0';
	*data = buf;
	*len = done;
	return 0;
}

/*
 * Named temporary files a signal must remove. A slot's path is written
 * before it is marked used and cleared after it is unmarked, so the handler
 * (which only reads and unlinks) never sees half a name.
 */
static struct {
	volatile sig_atomic_t used;
	char path[PATH_MAX];
} registry[TMP_REGISTRY];

static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void cleanup_on_signal(int sig)
{
	int saved = errno;

	for (size_t i = 0; i < TMP_REGISTRY; i++)
		if (registry[i].used == 1)
			unlink(registry[i].path);
	errno = saved;
	/* Then die of the signal, as without the handler. */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_handlers(void)
{
	static int installed;

	if (__atomic_exchange_n(&installed, 1, __ATOMIC_SEQ_CST))
		return;
	for (size_t i = 0; i < sizeof(cleanup_signals) / sizeof(cleanup_signals[0]); i++) {
		struct sigaction old, sa = { .sa_handler = cleanup_on_signal };

		/* A program that handles the signal itself keeps its handler. */
		if (sigaction(cleanup_signals[i], NULL, &old) || old.sa_handler != SIG_DFL ||
		    (old.sa_flags & SA_SIGINFO))
			continue;
		sigemptyset(&sa.sa_mask);
		sigaction(cleanup_signals[i], &sa, NULL);
	}
}

/* The slot of path, or -1 when the registry is full (the file is then
 * removed on every exit path but a signal). */
static int tmp_register(const char *path)
{
	install_handlers();
	for (int i = 0; i < TMP_REGISTRY; i++) {
		sig_atomic_t expect = 0;

		if (registry[i].used)
			continue;
		/* Claimed with a placeholder value, published when written. */
		if (!__atomic_compare_exchange_n(&registry[i].used, &expect, 2, false,
						 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			continue;
		snprintf(registry[i].path, sizeof(registry[i].path), "%s", path);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		registry[i].used = 1;
		return i;
	}
	return -1;
}

static void tmp_unregister(int slot)
{
	if (slot < 0)
		return;
	registry[slot].used = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

struct output {
	char *path;   /* as given, for messages */
	char *target; /* the file replaced: symlinks resolved */
	char *dir;    /* target's folder */
	char *tmp;    /* a named temporary file, or NULL */
	int slot;     /* tmp's registry slot */
	int fd, dir_fd;
	bool in_place; /* a device or a FIFO, written as it comes */
	bool unnamed;  /* fd is an O_TMPFILE file */
	bool exists;
	dev_t dev;
	ino_t ino;
};

struct input {
	char *path;
	dev_t dev;
	ino_t ino;
};

struct hwxdp_outputs {
	struct output out[OUTPUTS_MAX];
	size_t cnt;
	struct input *in;
	size_t in_cnt;
	bool spent;
};

struct hwxdp_outputs *hwxdp_outputs__new(void)
{
	return calloc(1, sizeof(struct hwxdp_outputs));
}

static const char *opt_of(const char *option)
{
	return option ? option : "the output";
}

int hwxdp_outputs__input(struct hwxdp_outputs *set, const char *path, char *msg, size_t msglen)
{
	struct input *more;
	struct stat st;

	/* Not a regular file: no input either, as its reader will say. */
	if (!path || stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	for (size_t i = 0; i < set->cnt; i++)
		if (set->out[i].exists && set->out[i].dev == st.st_dev &&
		    set->out[i].ino == st.st_ino)
			return hwxdp_say(msg, msglen, -EEXIST,
					 "%s: an input, and also the output %s", path,
					 set->out[i].path);
	more = realloc(set->in, (set->in_cnt + 1) * sizeof(*more));
	if (!more)
		return hwxdp_say(msg, msglen, -ENOMEM, "out of memory");
	set->in = more;
	more[set->in_cnt].path = strdup(path);
	if (!more[set->in_cnt].path)
		return hwxdp_say(msg, msglen, -ENOMEM, "out of memory");
	more[set->in_cnt].dev = st.st_dev;
	more[set->in_cnt].ino = st.st_ino;
	set->in_cnt++;
	return 0;
}

/* The file a write to path replaces: path with every symlink resolved,
 * also when the file itself (or a link's target) does not exist yet. */
static int resolve_target(const char *path, char **target)
{
	char *copy, *slash, *dir, *base, link[PATH_MAX];
	struct stat st;
	int depth;

	*target = realpath(path, NULL);
	if (*target)
		return 0;
	if (errno != ENOENT)
		return -errno;
	copy = strdup(path);
	/* a dangling link: its target is the file to create */
	for (depth = 0; copy && !lstat(copy, &st) && S_ISLNK(st.st_mode); depth++) {
		ssize_t n = readlink(copy, link, sizeof(link) - 1);
		char *next;

		if (n < 0 || depth == 40) {
			free(copy);
			return n < 0 ? -errno : -ELOOP;
		}
		link[n] = '\0';
		slash = strrchr(copy, '/');
		if (link[0] == '/' || !slash)
			next = strdup(link);
		else if (asprintf(&next, "%.*s/%s", (int)(slash - copy), copy, link) < 0)
			next = NULL;
		free(copy);
		copy = next;
	}
	if (!copy)
		return -ENOMEM;
	slash = strrchr(copy, '/');
	base = slash ? slash + 1 : copy;
	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		free(copy);
		return -EISDIR;
	}
	if (slash == copy)
		dir = realpath("/", NULL);
	else if (slash) {
		*slash = '\0';
		dir = realpath(copy, NULL);
	} else
		dir = realpath(".", NULL);
	if (!dir) {
		int err = -errno;

		free(copy);
		return err;
	}
	if (asprintf(target, "%s/%s", strcmp(dir, "/") ? dir : "", base) < 0) {
		*target = NULL;
		free(dir);
		free(copy);
		return -ENOMEM;
	}
	free(dir);
	free(copy);
	return 0;
}

/* Whether O_TMPFILE is to be tried: HWXDP_NAMED_TMPFILE=1 takes the
 * fallback, to test it where the file system has O_TMPFILE. */
static bool try_unnamed(void)
{
	const char *env = getenv("HWXDP_NAMED_TMPFILE");

	return !env || strcmp(env, "1");
}

/* ".NAME.hwxdp-XXXXXX" beside o->target, opened: its descriptor or -errno. */
static int open_named_tmp(struct output *o, const char *base, mode_t mode)
{
	int fd;

	if (asprintf(&o->tmp, "%s/.%s" TMP_MARK "XXXXXX", strcmp(o->dir, "/") ? o->dir : "", base) <
	    0) {
		o->tmp = NULL;
		return -ENOMEM;
	}
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		return -errno;
	}
	o->slot = tmp_register(o->tmp);
	if (fchmod(fd, mode)) {
		int err = -errno;

		close(fd);
		unlink(o->tmp);
		tmp_unregister(o->slot);
		free(o->tmp);
		o->tmp = NULL;
		return err;
	}
	return fd;
}

static void output_fini(struct output *o)
{
	if (o->fd >= 0)
		close(o->fd);
	if (o->dir_fd >= 0)
		close(o->dir_fd);
	if (o->tmp) {
		unlink(o->tmp);
		tmp_unregister(o->slot);
	}
	free(o->tmp);
	free(o->path);
	free(o->target);
	free(o->dir);
	memset(o, 0, sizeof(*o));
	o->fd = o->dir_fd = o->slot = -1;
}

static int add_in_place(struct output *o, const char *option, const struct stat *st, char *msg,
			size_t msglen)
{
	int flags;

	/* O_NONBLOCK: a FIFO without a reader is an error now, not a hang. */
	o->fd = open(o->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (o->fd < 0) {
		if (errno == ENXIO && S_ISFIFO(st->st_mode))
			return hwxdp_say(msg, msglen, -ENXIO, "%s %s: a FIFO that nothing reads",
					 opt_of(option), o->path);
		return hwxdp_say(msg, msglen, -errno, "%s %s: %s", opt_of(option), o->path,
				 strerror(errno));
	}
	flags = fcntl(o->fd, F_GETFL);
	if (flags < 0 || fcntl(o->fd, F_SETFL, flags & ~O_NONBLOCK))
		return hwxdp_say(msg, msglen, -errno, "%s %s: %s", opt_of(option), o->path,
				 strerror(errno));
	o->in_place = true;
	return 0;
}

static int check_clash(struct hwxdp_outputs *set, const struct output *o, const char *option,
		       char *msg, size_t msglen)
{
	for (size_t i = 0; o->exists && i < set->in_cnt; i++)
		if (set->in[i].dev == o->dev && set->in[i].ino == o->ino)
			return hwxdp_say(msg, msglen, -EEXIST,
					 "%s %s: the same file as the input %s; it would be lost",
					 opt_of(option), o->path, set->in[i].path);
	for (size_t i = 0; i < set->cnt; i++) {
		const struct output *p = &set->out[i];

		if ((o->exists && p->exists && p->dev == o->dev && p->ino == o->ino) ||
		    (o->target && p->target && !strcmp(o->target, p->target)))
			return hwxdp_say(msg, msglen, -EEXIST,
					 "%s %s: the same file as the output %s; one would be lost",
					 opt_of(option), o->path, p->path);
	}
	return 0;
}

int hwxdp_outputs__add(struct hwxdp_outputs *set, const char *option, const char *path, mode_t mode,
		       char *msg, size_t msglen)
{
	struct output *o;
	struct stat st;
	const char *base;
	int err, fd;

	if (!path || !*path)
		return hwxdp_say(msg, msglen, -EINVAL, "%s: an empty file name", opt_of(option));
	if (set->spent)
		return hwxdp_say(msg, msglen, -EINVAL, "%s %s: the outputs are committed already",
				 opt_of(option), path);
	if (set->cnt == OUTPUTS_MAX)
		return hwxdp_say(msg, msglen, -E2BIG, "%s %s: at most %d outputs", opt_of(option),
				 path, OUTPUTS_MAX);
	o = &set->out[set->cnt];
	memset(o, 0, sizeof(*o));
	o->fd = o->dir_fd = o->slot = -1;
	o->path = strdup(path);
	if (!o->path) {
		err = hwxdp_say(msg, msglen, -ENOMEM, "out of memory");
		goto fail;
	}
	if (!stat(path, &st)) {
		o->exists = true;
		o->dev = st.st_dev;
		o->ino = st.st_ino;
		if (S_ISDIR(st.st_mode)) {
			err = hwxdp_say(msg, msglen, -EISDIR, "%s %s: a folder", opt_of(option),
					path);
			goto fail;
		}
		if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode)) {
			err = hwxdp_say(
				msg, msglen, -EINVAL,
				"%s %s: %s; outputs are regular files, character devices or "
				"FIFOs",
				opt_of(option), path, file_type(st.st_mode));
			goto fail;
		}
		err = check_clash(set, o, option, msg, msglen);
		if (err)
			goto fail;
		/* Never replaced: a device or a pipe takes the bytes where it
		 * is. A regular file reached through /proc (/dev/stdout on a
		 * redirect) has no folder to write a file beside, either. */
		if (!S_ISREG(st.st_mode)) {
			err = add_in_place(o, option, &st, msg, msglen);
			if (err)
				goto fail;
			set->cnt++;
			return o->fd;
		}
	} else if (errno != ENOENT) {
		err = hwxdp_say(msg, msglen, -errno, "%s %s: %s", opt_of(option), path,
				strerror(errno));
		goto fail;
	}
	err = resolve_target(path, &o->target);
	if (err) {
		err = hwxdp_say(msg, msglen, err, "%s %s: %s", opt_of(option), path,
				err == -EISDIR ? "a folder" : strerror(-err));
		goto fail;
	}
	if (o->exists && !strncmp(o->target, "/proc/", 6)) {
		free(o->target);
		o->target = NULL;
		o->fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY);
		if (o->fd < 0) {
			err = hwxdp_say(msg, msglen, -errno, "%s %s: %s", opt_of(option), path,
					strerror(errno));
			goto fail;
		}
		o->in_place = true;
		set->cnt++;
		return o->fd;
	}
	err = check_clash(set, o, option, msg, msglen);
	if (err)
		goto fail;
	o->dir = strdup(o->target);
	if (!o->dir) {
		err = hwxdp_say(msg, msglen, -ENOMEM, "out of memory");
		goto fail;
	}
	*strrchr(o->dir, '/') = '\0';
	if (!*o->dir)
		strcpy(o->dir, "/");
	base = strrchr(o->target, '/') + 1;
	o->dir_fd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (o->dir_fd < 0) {
		err = hwxdp_say(msg, msglen, -errno, "%s %s: %s: %s", opt_of(option), path, o->dir,
				strerror(errno));
		goto fail;
	}
	/* A file replaced keeps its mode; a new one gets mode less the umask,
	 * which open() applies (umask() to read it is for the fallback only:
	 * it changes the mask for every thread a moment). */
	if (o->exists)
		mode = st.st_mode & 07777;
	fd = -EOPNOTSUPP;
	if (try_unnamed()) {
		fd = openat(o->dir_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
		if (fd >= 0) {
			o->unnamed = true;
			if (o->exists)
				fchmod(fd, mode);
		} else
			fd = -errno;
	}
	/* File systems without O_TMPFILE say so in several ways. */
	if (fd == -EOPNOTSUPP || fd == -EISDIR || fd == -EINVAL || fd == -ENOENT) {
		if (!o->exists) {
			mode_t mask = umask(0);

			umask(mask);
			mode &= ~mask;
		}
		fd = open_named_tmp(o, base, mode);
	}
	if (fd < 0) {
		err = hwxdp_say(msg, msglen, fd, "%s %s: cannot create a file in %s: %s",
				opt_of(option), path, o->dir, strerror(-fd));
		goto fail;
	}
	o->fd = fd;
	set->cnt++;
	return fd;
fail:
	output_fini(o);
	return err;
}

/* Gives the unnamed file of o a temporary name beside its target. */
static int link_unnamed(struct output *o)
{
	const char *base = strrchr(o->target, '/') + 1;
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	for (int attempt = 0; attempt < 100; attempt++) {
		char *tmp;
		int fd, err;

		/* mkostemp picks a free name; the file it makes is then
		 * replaced by a link to ours. */
		if (asprintf(&tmp, "%s/.%s" TMP_MARK "XXXXXX", strcmp(o->dir, "/") ? o->dir : "",
			     base) < 0)
			return -ENOMEM;
		fd = mkostemp(tmp, O_CLOEXEC);
		if (fd < 0) {
			err = -errno;
			free(tmp);
			return err;
		}
		close(fd);
		unlink(tmp);
		o->slot = tmp_register(tmp);
		if (!linkat(o->fd, "", AT_FDCWD, tmp, AT_EMPTY_PATH) ||
		    (errno != EEXIST &&
		     !linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW))) {
			o->tmp = tmp;
			return 0;
		}
		err = -errno;
		tmp_unregister(o->slot);
		o->slot = -1;
		free(tmp);
		if (err != -EEXIST)
			return err;
	}
	return -EEXIST;
}

int hwxdp_outputs__commit(struct hwxdp_outputs *set, char *msg, size_t msglen)
{
	size_t i, done;
	int err = 0;

	if (set->spent)
		return hwxdp_say(msg, msglen, -EINVAL, "the outputs are committed already");
	set->spent = true;
	/* Every byte on disk before any file is touched. */
	for (i = 0; i < set->cnt; i++) {
		struct output *o = &set->out[i];

		if (o->in_place)
			continue;
		if (fsync(o->fd))
			return hwxdp_say(msg, msglen, -errno, "%s: cannot write it: %s", o->path,
					 strerror(errno));
	}
	for (i = 0; i < set->cnt; i++) {
		struct output *o = &set->out[i];

		if (!o->unnamed)
			continue;
		err = link_unnamed(o);
		if (err)
			return hwxdp_say(msg, msglen, err, "%s: cannot put it in %s: %s", o->path,
					 o->dir, strerror(-err));
	}
	for (done = 0; done < set->cnt; done++) {
		struct output *o = &set->out[done];

		if (o->in_place)
			continue;
		if (rename(o->tmp, o->target)) {
			err = -errno;
			break;
		}
		tmp_unregister(o->slot);
		free(o->tmp);
		o->tmp = NULL;
		/* so that the rename lasts */
		fsync(o->dir_fd);
	}
	if (!err)
		return 0;
	for (i = 0; i < done; i++)
		if (!set->out[i].in_place)
			break;
	return hwxdp_say(msg, msglen, err, "%s: cannot put it in place: %s%s", set->out[done].path,
			 strerror(-err),
			 i < done ? "; the outputs before it on the command line are written" : "");
}

void hwxdp_outputs__free(struct hwxdp_outputs *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->cnt; i++)
		output_fini(&set->out[i]);
	for (size_t i = 0; i < set->in_cnt; i++)
		free(set->in[i].path);
	free(set->in);
	free(set);
}

static int write_all(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int hwxdp_file__write(const char *path, const char *option, mode_t mode, const void *data,
		      size_t len, const char *const *inputs, char *msg, size_t msglen)
{
	struct hwxdp_outputs *set = hwxdp_outputs__new();
	int fd, err = 0;

	if (!set)
		return hwxdp_say(msg, msglen, -ENOMEM, "out of memory");
	for (size_t i = 0; inputs && inputs[i] && !err; i++)
		err = hwxdp_outputs__input(set, inputs[i], msg, msglen);
	if (!err) {
		fd = hwxdp_outputs__add(set, option, path, mode, msg, msglen);
		err = fd < 0 ? fd : 0;
	}
	if (!err && (err = write_all(fd, data, len)))
		hwxdp_say(msg, msglen, err, "%s: cannot write it: %s", path, strerror(-err));
	if (!err)
		err = hwxdp_outputs__commit(set, msg, msglen);
	hwxdp_outputs__free(set);
	return err;
}
