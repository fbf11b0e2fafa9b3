// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer entry for the coprocessor model running fwd.bpf.o: the device
 * copy is built once per process (verified, translated, its tables filled
 * as fwdlab/fwd_lab.h sets the lab up), and every input is one frame:
 *   byte 0    bits 0-1: ingress port 1..3, or 0 for an interface that is
 *             no lab port; bit 2: vlan_flows off; bit 3: lif_apply off
 *   the rest  the frame's bytes
 * The engine must never abort a frame: the verifier proved the program
 * safe, so a fault is the translator's or the engine's bug. A punted frame
 * must reach the host as it arrived, and a verdict must be an XDP action.
 * scripts/run-fuzz.sh builds and runs it (HWXDP_BUILD names the build with
 * progs/fwd.bpf.o); HWXDP_FUZZ_SEEDS=DIR makes it write its seed inputs
 * (one per lab frame, on each port) to DIR and exit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "hwxdp/fwd.h"
#include "fwdlab/fwd.h"
#include "fwdlab/fwd_lab.h"
#include "lab/target.h"
#include "base/log.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint32_t lab_ifindex[HX_LAB_PORTS] = { 10, 11, 12 };
#define OTHER_IFINDEX 99

static struct hx_target *device;
static struct hx_result result;

static int quiet(enum hwxdp_print_level level, const char *fmt, va_list args)
{
	/* the engine's own fault message would drown in libFuzzer's output;
	 * the fault itself traps below */
	return level == HWXDP_WARN ? vfprintf(stderr, fmt, args) : 0;
}

static void write_seeds(const char *dir)
{
	uint8_t buf[1 + HX_PKT_MAX];
	char path[4096];

	for (unsigned int kind = 0; kind < HX_LAB__COUNT; kind++) {
		size_t len = hx_lab_build(kind, buf + 1, sizeof(buf) - 1);

		for (unsigned int port = 0; port <= HX_LAB_PORTS && len; port++) {
			FILE *f;

			buf[0] = (uint8_t)port;
			snprintf(path, sizeof(path), "%s/%s-%u", dir, hx_lab_frames[kind].name,
				 port);
			f = fopen(path, "wb");
			if (!f || fwrite(buf, 1, len + 1, f) != len + 1) {
				fprintf(stderr, "fuzz_device: cannot write %s\n", path);
				exit(1);
			}
			fclose(f);
		}
	}
	exit(0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *seeds = getenv("HWXDP_FUZZ_SEEDS");
	int err;

	(void)argc;
	(void)argv;
	if (seeds)
		write_seeds(seeds);
	hwxdp_set_print(quiet);
	device = hx_target_open("device", hx_object_path("fwd"));
	if (!device) {
		fprintf(stderr, "fuzz_device: cannot open %s on the device: %s\n",
			hx_object_path("fwd"), strerror(errno));
		exit(1);
	}
	err = hx_lab_setup(device, lab_ifindex);
	if (err) {
		fprintf(stderr, "fuzz_device: cannot set the lab up: %s\n", strerror(-err));
		exit(1);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int port;
	uint32_t ingress;
	int err;

	if (!size)
		return -1;
	port = data[0] & 3;
	ingress = port ? lab_ifindex[port - 1] : OTHER_IFINDEX;
	if (hx_fwd_config(device, !(data[0] & 4), 1, !(data[0] & 8)))
		__builtin_trap();
	data++;
	size--;
	err = hx_target_run(device, ingress, data, size, &result);
	/* only a frame shorter than Ethernet or longer than the window is refused */
	if (err == -EINVAL && (size < 14 || size > HX_PKT_MAX))
		return 0;
	/* a tag pushed onto a frame of the largest size has no room in the result */
	if (err == -EMSGSIZE && size > HX_PKT_MAX - 64)
		return 0;
	if (err) {
		fprintf(stderr, "fuzz_device: the engine aborted a %zu-byte frame on port %u: %d\n",
			size, port, err);
		__builtin_trap();
	}
	if (result.action > XDP_REDIRECT || result.len > sizeof(result.frame))
		__builtin_trap();
	if (result.action == XDP_PASS && result.has_meta && result.meta.reason != HWXDP_PUNT_NONE &&
	    (result.len != size || memcmp(result.frame, data, size))) {
		fprintf(stderr, "fuzz_device: punted (%s) frame changed: %zu bytes in, %zu out\n",
			hwxdp_punt_reason_name(result.meta.reason), size, result.len);
		__builtin_trap();
	}
	return 0;
}
