/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files in and out, one way for every command and the library.
 *
 * Inputs are opened so that they cannot block (a FIFO or a device is
 * refused, not waited on) and read up to a limit per kind of input, so that
 * /dev/zero or a runaway file gives an error instead of exhausting memory.
 *
 * Outputs are written whole or not at all, and never over an input: the
 * outputs of one run form a set (struct hwxdp_outputs) that is committed
 * together once every one of them is complete. A regular file is written to
 * an unnamed temporary file in its folder (O_TMPFILE; a named ".NAME.hwxdp-
 * XXXXXX" one where the file system lacks it), linked and renamed over the
 * file only on commit, so a reader sees the old file or the new one. A
 * symbolic link is followed: its target is replaced, the link stays. A
 * character device or a FIFO (/dev/null, /dev/stdout on a pipe) is written
 * in place, as it comes; any other kind of file is refused.
 *
 * Temporary files go on every exit path: freeing an uncommitted set removes
 * them, and SIGINT, SIGTERM and SIGHUP (where the program left them at their
 * default) remove the named ones before the process dies. An unnamed
 * temporary file leaves nothing behind even on SIGKILL; a named one (the
 * fallback, and the moment of commit between link and rename) can remain
 * after SIGKILL, recognisable by its ".hwxdp-" name.
 *
 * Functions return 0 (or a descriptor) or a negative errno and put one line
 * for the user in msg (msglen bytes, may be 0).
 */
#ifndef HWXDP_BASE_FILE_H
#define HWXDP_BASE_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define HWXDP_MIB (1024ull * 1024)

/* The largest input of each kind hwxdp reads whole (hwxdp(8) FILES). */
#define HWXDP_FILE_OBJECT_MAX (256 * HWXDP_MIB)
#define HWXDP_FILE_STATE_MAX  (64 * HWXDP_MIB)
/* Captures are streamed: no limit on the file, one on each record. */
#define HWXDP_FILE_UNLIMITED UINT64_MAX

/*
 * Opens an input without blocking (O_NONBLOCK, then cleared), refuses
 * anything but a regular file (-EINVAL) and a file over limit bytes
 * (-EFBIG). kind names the input in the message ("objects", "captures").
 * The descriptor (O_CLOEXEC), or -errno.
 */
int hwxdp_file__open_input(const char *path, const char *kind, uint64_t limit, char *msg,
			   size_t msglen);

/*
 * Reads the input at path whole (opened as above): *data (free() it, one
 * byte past the end is a NUL) and *len. A file that grows past limit while
 * read is refused as well. 0 or -errno.
 */
int hwxdp_file__read(const char *path, const char *kind, uint64_t limit, void **data, size_t *len,
		     char *msg, size_t msglen);

/* "1.2 GiB", "256 MiB", "17 bytes" */
void hwxdp_file__size_text(uint64_t bytes, char *buf, size_t len);

struct hwxdp_outputs;

/* An empty set of outputs; NULL with errno set. */
struct hwxdp_outputs *hwxdp_outputs__new(void);

/*
 * Notes an input of the run, so that no output of the set is the same file
 * (same device and inode). A path that does not exist or is no regular
 * file is ignored (the reader refuses it). 0, or
 * -EEXIST when an output of the set already is that file.
 */
int hwxdp_outputs__input(struct hwxdp_outputs *set, const char *path, char *msg, size_t msglen);

/*
 * Adds the output path, named by option in messages ("--out", "-o"; may be
 * NULL), created with mode (less the umask) or, when it exists, with the
 * existing file's mode. Refused: the same file as an input or another
 * output (-EEXIST), a folder (-EISDIR), a folder that does not exist
 * (-ENOENT), a block device or a socket (-EINVAL). The descriptor to write
 * to, owned by the set (do not close it; dup() it for a FILE), or -errno.
 */
int hwxdp_outputs__add(struct hwxdp_outputs *set, const char *option, const char *path, mode_t mode,
		       char *msg, size_t msglen);

/*
 * Commits every output: syncs each, and only when all are on disk puts them
 * in place. A failure leaves every existing file as it was (short of a
 * rename failing half-way through, which the message then says). The set
 * is spent either way; free it.
 */
int hwxdp_outputs__commit(struct hwxdp_outputs *set, char *msg, size_t msglen);

/* Removes what an uncommitted set wrote and frees it. NULL is fine. */
void hwxdp_outputs__free(struct hwxdp_outputs *set);

/*
 * One file written whole: a set of one output. data and len are its
 * contents; inputs (NULL-terminated, may be NULL) are files it must not be.
 */
int hwxdp_file__write(const char *path, const char *option, mode_t mode, const void *data,
		      size_t len, const char *const *inputs, char *msg, size_t msglen);

#endif /* HWXDP_BASE_FILE_H */
