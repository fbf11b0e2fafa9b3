// SPDX-License-Identifier: GPL-2.0
/* include/hwxdp/board.h over the board of device/device.h. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "device/compile.h"
#include "device/device.h"
#include "hwmap/public.h"
#include "hwxdp/board.h"
#include "base/log.h"

_Static_assert(HWXDP_BOARD_EGRESS_BROADCAST == HWXDP_EGRESS_BCAST,
	       "a broadcast's egress is the device's");

struct hwxdp_board {
	struct hwxdp_device *device;
	enum hwxdp_engine_mode mode;
};

struct hwxdp_board *hwxdp_board__new(const struct hwxdp_board_opts *opts)
{
	struct hwxdp_device_opts dopts = { .sz = sizeof(dopts) };
	struct hwxdp_board *board;

	if (opts && opts->sz < sizeof(opts->sz)) {
		errno = EINVAL;
		return NULL;
	}
	board = calloc(1, sizeof(*board));
	if (!board)
		return NULL;
	dopts.engines = opts ? opts->engines : 0;
	board->mode = opts && opts->compiled ? HWXDP_ENGINE_COMPILED : HWXDP_ENGINE_INTERP;
	board->device = hwxdp_device__new(&dopts);
	if (!board->device) {
		free(board);
		return NULL;
	}
	return board;
}

void hwxdp_board__free(struct hwxdp_board *board)
{
	if (!board)
		return;
	hwxdp_device__free(board->device);
	free(board);
}

/* Engines take the process's default mode when a load makes them. */
static int load(struct hwxdp_board *board, const char *path, const struct hxu_image *img)
{
	enum hwxdp_engine_mode was = hwxdp_engine__default_mode();
	char msg[PATH_MAX + 512] = "";
	int ret;

	hwxdp_engine__set_default_mode(board->mode);
	ret = path ? hwxdp_device__load(board->device, path, NULL, msg, sizeof(msg))
		   : hwxdp_device__load_image(board->device, img, NULL, msg, sizeof(msg));
	hwxdp_engine__set_default_mode(was);
	if (ret < 0 && msg[0])
		pr_warn("%s\n", msg);
	return ret;
}

int hwxdp_board__load(struct hwxdp_board *board, const char *path)
{
	return load(board, path, NULL);
}

int hwxdp_board__load_image(struct hwxdp_board *board, const struct hwxdp_image *img)
{
	return load(board, NULL, img->hxu);
}

int hwxdp_board__unload(struct hwxdp_board *board, uint32_t prog)
{
	return hwxdp_device__unload(board->device, prog);
}

int hwxdp_board__attach(struct hwxdp_board *board, uint32_t port, uint32_t prog)
{
	return hwxdp_device__attach(board->device, port, prog);
}

int hwxdp_board__detach(struct hwxdp_board *board, uint32_t port)
{
	return hwxdp_device__detach(board->device, port);
}

static struct hwxdp_table *table(struct hwxdp_board *board, uint32_t prog, const char *map)
{
	return hwxdp_device__table(board->device, prog, map);
}

int hwxdp_board__map_lookup(struct hwxdp_board *board, uint32_t prog, const char *map,
			    const void *key, void *value)
{
	struct hwxdp_table *tab = table(board, prog, map);

	return tab ? hwxdp_table__lookup(tab, key, value) : -ENOENT;
}

int hwxdp_board__map_update(struct hwxdp_board *board, uint32_t prog, const char *map,
			    const void *key, const void *value, uint64_t flags)
{
	struct hwxdp_table *tab = table(board, prog, map);

	return tab ? hwxdp_table__update(tab, key, value, flags) : -ENOENT;
}

int hwxdp_board__map_delete(struct hwxdp_board *board, uint32_t prog, const char *map,
			    const void *key)
{
	struct hwxdp_table *tab = table(board, prog, map);

	return tab ? hwxdp_table__delete(tab, key) : -ENOENT;
}

int hwxdp_board__run(struct hwxdp_board *board, struct hwxdp_board_frame *frames, size_t n)
{
	struct hwxdp_device_frame batch[64];

	for (size_t at = 0; at < n;) {
		size_t k = n - at < 64 ? n - at : 64;
		int err;

		for (size_t i = 0; i < k; i++) {
			const struct hwxdp_board_frame *f = &frames[at + i];

			batch[i] = (struct hwxdp_device_frame){
				.data = f->data,
				.len = f->len,
				.port = f->port,
				.out = f->out,
				.out_cap = f->out_cap,
			};
		}
		err = hwxdp_device__run_batch(board->device, batch, k);
		if (err)
			return err;
		for (size_t i = 0; i < k; i++) {
			struct hwxdp_board_frame *f = &frames[at + i];

			f->out_len = batch[i].out_len;
			f->verdict = batch[i].verdict;
			f->egress = batch[i].egress;
			f->reason = batch[i].reason;
			f->error = batch[i].error;
			f->cycles = batch[i].cost.cycles;
		}
		at += k;
	}
	return 0;
}

int hwxdp_board__broadcast_ports(struct hwxdp_board *board, const struct hwxdp_board_frame *frame,
				 uint32_t *ports, size_t cap)
{
	struct hwxdp_device_frame f = {
		.port = frame->port,
		.verdict = frame->verdict,
		.egress = frame->egress,
		.prog = hwxdp_device__slot(board->device, frame->port),
	};

	return hwxdp_device__broadcast_ports(board->device, &f, ports, cap);
}

int hwxdp_board__counts(struct hwxdp_board *board, struct hwxdp_board_counts *counts)
{
	struct hwxdp_device_stats *s;

	if (!counts || counts->sz < sizeof(*counts))
		return -EINVAL;
	s = malloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	hwxdp_device__stats(board->device, s);
	counts->frames = s->frames;
	counts->bytes = s->bytes;
	memcpy(counts->verdicts, s->verdicts, sizeof(counts->verdicts));
	counts->punts = 0;
	for (size_t i = 1; i < HWXDP_DEVICE_REASONS; i++)
		counts->punts += s->punts[i];
	counts->cycles = s->cycles;
	free(s);
	return 0;
}
