// SPDX-License-Identifier: GPL-2.0
/*
 * The upkeep thread: netlink events for the flow maker as they come, the
 * flows' ageing every second, the hash maps' mirror and the SA file's
 * counts twice a second. Each
 * round runs under d->lock, between two of the board thread's.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "daemon/flows.h"
#include "daemon/internal.h"
#include "daemon/mirror.h"
#include "daemon/state.h"

#define TICK_MS	  1000
#define MIRROR_MS 500

static void *upkeep_main(void *arg)
{
	struct hwxdpd *d = arg;
	int64_t last_tick = hwxdpd_now_ms(), last_mirror = last_tick;
	int nl = flows_netlink_fd(d->flows);

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = d->hk_stop_fd, .events = POLLIN },
			{ .fd = nl, .events = POLLIN },
		};
		char *sas;
		int64_t now;

		if (poll(pfd, nl >= 0 ? 2 : 1, MIRROR_MS / 2) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents)
			break;
		now = hwxdpd_now_ms();
		pthread_mutex_lock(&d->lock);
		if (nl >= 0 && pfd[1].revents)
			flows_netlink(d);
		if (now - last_tick >= TICK_MS) {
			flows_tick(d, now);
			last_tick = now;
		}
		sas = NULL;
		if (now - last_mirror >= MIRROR_MS) {
			for (int i = 0; i < HWXDPD_PROGS_MAX; i++)
				if (d->progs[i].used)
					mirror_sync(d, &d->progs[i]);
			last_mirror = now;
			/* The SAs' counts for a restart, written without the lock. */
			sas = state_sas_text(d);
		}
		pthread_mutex_unlock(&d->lock);
		state_sas_write(d, sas);
	}
	return NULL;
}

int upkeep_start(struct hwxdpd *d)
{
	int err = -pthread_create(&d->hk_thread, NULL, upkeep_main, d);

	if (!err)
		d->hk_started = true;
	return err;
}

void upkeep_stop(struct hwxdpd *d)
{
	uint64_t one = 1;

	if (!d->hk_started)
		return;
	if (write(d->hk_stop_fd, &one, sizeof(one)) < 0)
		return;
	pthread_join(d->hk_thread, NULL);
	d->hk_started = false;
}
