// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/file.h"

/* mkstemp's template: six characters it replaces. */
#define TEMPLATE "XXXXXX"

static char *folder_of(const char *path)
{
	char *copy = strdup(path), *dir;

	if (!copy)
		return NULL;
	dir = strdup(dirname(copy));
	free(copy);
	return dir;
}

int hwxdp_file__create_tmp(const char *path, mode_t mode, char **tmp_path)
{
	char *copy = strdup(path), *dir = folder_of(path), *tmp = NULL;
	int fd = -ENOMEM;

	*tmp_path = NULL;
	if (!copy || !dir || asprintf(&tmp, "%s/.%s." TEMPLATE, dir, basename(copy)) < 0) {
		tmp = NULL;
		goto out;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		fd = -errno;
		goto out;
	}
	if (fchmod(fd, mode)) {
		int err = -errno;

		close(fd);
		unlink(tmp);
		fd = err;
		goto out;
	}
	*tmp_path = tmp;
	tmp = NULL;
out:
	free(tmp);
	free(copy);
	free(dir);
	return fd;
}

int hwxdp_file__replace(const char *tmp_path, const char *path)
{
	char *dir;
	int dfd;

	if (rename(tmp_path, path)) {
		int err = -errno;

		unlink(tmp_path);
		return err;
	}
	dir = folder_of(path);
	dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	free(dir);
	return 0;
}
