/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files written whole or not at all: the bytes go to a temporary file beside
 * the destination (one file system, so the rename is atomic), which is then
 * renamed over it. A reader sees the old file or the new one, never half.
 */
#ifndef HWXDP_LOADER_FILE_H
#define HWXDP_LOADER_FILE_H

#include <sys/types.h>

/*
 * Creates the temporary file for path (".NAME.XXXXXX" in path's folder) with
 * mode: its descriptor, and in *tmp_path its name (free() it), or -errno.
 */
int hwxdp_file__create_tmp(const char *path, mode_t mode, char **tmp_path);

/*
 * Renames tmp_path over path and syncs the folder, so that the rename
 * lasts; the caller has synced and closed the file. On failure tmp_path is
 * removed. 0 or -errno.
 */
int hwxdp_file__replace(const char *tmp_path, const char *path);

#endif /* HWXDP_LOADER_FILE_H */
