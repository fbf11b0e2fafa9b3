// SPDX-License-Identifier: GPL-2.0
/*
 * The public API of include/hwxdp/ as a user sees it, through those headers
 * only: objects and their accessors, verification, translation and image
 * files, the board. Expected frames come from the frame builder; counts
 * are the frames the test sent.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/bpf.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwxdp/board.h"
#include "hwxdp/image.h"
#include "hwxdp/object.h"
#include "hwxdp/packet.h"
#include "hwxdp/verify.h"

static const char *object(const char *rel)
{
	static char path[4096];
	const char *build = getenv("HWXDP_BUILD");

	snprintf(path, sizeof(path), "%s/%s", build && *build ? build : "build", rel);
	return path;
}

#define VLAN_TAG   object("progs/vlan_tag.bpf.o")
#define OFF_BY_ONE object("tests/corpus/bad_off_by_one.bpf.o")
#define BRIDGE	   object("tests/corpus/redirect_broadcast.bpf.o")
#define HINTS	   object("tests/corpus/xdp_hints.bpf.o")

static size_t udp(int vlan, uint8_t *buf)
{
	struct hwxdp_packet_spec spec;

	hwxdp_packet_spec__init(&spec, 4);
	spec.proto = IPPROTO_UDP;
	spec.vlan = vlan;
	return hwxdp_packet__build(&spec, buf, HWXDP_PACKET_MAX);
}

Test(api, object_accessors)
{
	struct hwxdp_object *obj;
	const struct hwxdp_map_desc *m;
	const struct hwxdp_prog *prog;

	cr_assert_eq(hwxdp_object__open(VLAN_TAG, &obj), 0);
	cr_assert_eq(hwxdp_object__prog_cnt(obj), 1);
	prog = hwxdp_object__prog(obj, 0);
	cr_assert_str_eq(hwxdp_prog__name(prog), "vlan_tag");
	cr_assert_str_eq(hwxdp_prog__section(prog), "xdp");
	cr_assert_eq(hwxdp_prog__type(prog), BPF_PROG_TYPE_XDP);
	cr_assert_gt(hwxdp_prog__insn_cnt(prog), 10);
	cr_assert_eq(hwxdp_prog__insns(prog)[hwxdp_prog__insn_cnt(prog) - 1].code,
		     BPF_JMP | BPF_EXIT);
	cr_assert_null(hwxdp_object__prog(obj, 1));
	m = hwxdp_object__find_map(obj, "push_vid");
	cr_assert_not_null(m);
	cr_assert_eq(hwxdp_map__type(m), BPF_MAP_TYPE_ARRAY);
	cr_assert_eq(hwxdp_map__key_size(m), 4);
	cr_assert_eq(hwxdp_map__value_size(m), 4);
	cr_assert_eq(hwxdp_map__max_entries(m), 1);
	cr_assert_neq(hwxdp_map__btf_value_type_id(m), 0);
	cr_assert_not_null(hwxdp_object__btf(obj));
	cr_assert_str_eq(hwxdp_object__license(obj), "GPL");
	cr_assert_null(hwxdp_object__find_map(obj, "nothing"));
	hwxdp_object__close(obj);
}

Test(api, verify_accepts_and_refuses_with_the_reason)
{
	HWXDP_OPTS(hwxdp_prog_verify_opts, opts, .device = true);
	struct hwxdp_object *obj;
	char log[4096];

	cr_assert_eq(hwxdp_object__open(VLAN_TAG, &obj), 0);
	cr_assert_eq(hwxdp_prog__verify(obj, hwxdp_object__xdp_prog(obj), &opts), 0);
	cr_assert_gt(opts.insns_processed, 0);
	hwxdp_object__close(obj);

	cr_assert_eq(hwxdp_object__open(OFF_BY_ONE, &obj), 0);
	opts.log_buf = log;
	opts.log_size = sizeof(log);
	cr_assert_eq(hwxdp_prog__verify(obj, hwxdp_object__xdp_prog(obj), &opts), -EACCES);
	/* the kernel's words for an access beyond the checked bytes */
	cr_assert(strstr(log, "invalid access to packet"), "%s", log);
	hwxdp_object__close(obj);
}

/* The XDP metadata kfuncs: refused in a host copy unbound, as the kernel
 * refuses them; allowed in one verified as bound. */
Test(api, verify_a_host_copy_bound_to_a_netdev)
{
	HWXDP_OPTS(hwxdp_prog_verify_opts, opts);
	struct hwxdp_object *obj;
	char log[4096];

	cr_assert_eq(hwxdp_object__open(HINTS, &obj), 0);
	opts.log_buf = log;
	opts.log_size = sizeof(log);
	cr_assert_eq(hwxdp_prog__verify(obj, hwxdp_object__xdp_prog(obj), &opts), -EACCES);
	cr_assert(strstr(log, "metadata kfuncs require device-bound program"), "%s", log);
	opts.dev_bound = true;
	cr_assert_eq(hwxdp_prog__verify(obj, hwxdp_object__xdp_prog(obj), &opts), 0, "%s", log);
	hwxdp_object__close(obj);
}

Test(api, images_translate_save_and_load)
{
	struct hwxdp_image *img, *back;
	char path[] = "/tmp/hwxdp-api-XXXXXX";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(hwxdp_image__translate(VLAN_TAG, NULL, &img), 0);
	cr_assert_gt(hwxdp_image__op_cnt(img), 0);
	cr_assert_eq(hwxdp_image__table_cnt(img), 1);
	cr_assert_eq(hwxdp_image__prog_cnt(img), 1);
	cr_assert_eq(hwxdp_image__save(img, path), 0);
	cr_assert_eq(hwxdp_image__load(path, &back), 0);
	cr_assert_eq(hwxdp_image__op_cnt(back), hwxdp_image__op_cnt(img));
	hwxdp_image__free(back);
	hwxdp_image__free(img);

	/* a file that is not an image */
	FILE *f = fopen(path, "w");
	fputs("not an image\n", f);
	fclose(f);
	cr_assert_eq(hwxdp_image__load(path, &back), -HWXDP_ERR_IMAGE_FILE);
	cr_assert_null(back);
	unlink(path);

	cr_assert_eq(hwxdp_image__translate(OFF_BY_ONE, NULL, &img), -EACCES);
	cr_assert_null(img);
}

static void board_tags(bool compiled, bool from_image)
{
	HWXDP_OPTS(hwxdp_board_opts, opts, .engines = 2, .compiled = compiled);
	static uint8_t in[HWXDP_PACKET_MAX], want[HWXDP_PACKET_MAX], out[3][HWXDP_PACKET_MAX];
	struct hwxdp_board_counts counts = { .sz = sizeof(counts) };
	struct hwxdp_board *board = hwxdp_board__new(&opts);
	size_t len = udp(-1, in), want_len = udp(50, want);
	uint32_t zero = 0, vid = 50, got = 0;
	struct hwxdp_board_frame frames[3];
	struct hwxdp_image *img = NULL;
	int prog;

	cr_assert_not_null(board);
	if (from_image) {
		cr_assert_eq(hwxdp_image__translate(VLAN_TAG, NULL, &img), 0);
		prog = hwxdp_board__load_image(board, img);
	} else {
		prog = hwxdp_board__load(board, VLAN_TAG);
	}
	cr_assert_geq(prog, 0);
	cr_assert_eq(hwxdp_board__attach(board, 5, (uint32_t)prog), 0);
	cr_assert_eq(hwxdp_board__map_update(board, prog, "push_vid", &zero, &vid, BPF_ANY), 0);
	cr_assert_eq(hwxdp_board__map_lookup(board, prog, "push_vid", &zero, &got), 0);
	cr_assert_eq(got, 50);
	cr_assert_eq(hwxdp_board__map_lookup(board, prog, "nothing", &zero, &got), -ENOENT);

	memset(frames, 0, sizeof(frames));
	for (int i = 0; i < 3; i++) {
		frames[i].data = in;
		frames[i].len = (uint32_t)len;
		frames[i].port = i < 2 ? 5 : 6; /* port 6 has no program */
		frames[i].out = out[i];
		frames[i].out_cap = sizeof(out[i]);
	}
	cr_assert_eq(hwxdp_board__run(board, frames, 3), 0);
	cr_assert_eq(frames[0].verdict, XDP_TX);
	cr_assert_eq(frames[0].error, 0);
	cr_assert_eq(frames[0].out_len, want_len);
	cr_assert_arr_eq(out[0], want, want_len);
	cr_assert_eq(frames[1].verdict, XDP_TX);
	cr_assert_arr_eq(out[1], want, want_len);
	cr_assert_gt(frames[0].cycles, 0);
	cr_assert_eq(frames[2].verdict, XDP_PASS);
	cr_assert_eq(frames[2].out_len, len);
	cr_assert_arr_eq(out[2], in, len);

	cr_assert_eq(hwxdp_board__counts(board, &counts), 0);
	cr_assert_eq(counts.frames, 3);
	cr_assert_eq(counts.verdicts[XDP_TX], 2);
	cr_assert_eq(hwxdp_board__unload(board, prog), -EBUSY);
	cr_assert_eq(hwxdp_board__detach(board, 5), 0);
	cr_assert_eq(hwxdp_board__unload(board, prog), 0);
	hwxdp_board__free(board);
	hwxdp_image__free(img);
}

Test(api, board_runs_a_loaded_object)
{
	board_tags(false, false);
}

Test(api, board_runs_an_image_compiled)
{
	board_tags(true, true);
}

/* A bridge's flood: a copy to every other port of its devmap. */
Test(api, board_names_a_broadcasts_ports)
{
	HWXDP_OPTS(hwxdp_board_opts, opts, .engines = 1);
	struct hwxdp_board *board = hwxdp_board__new(&opts);
	struct hwxdp_board_frame frame = { 0 };
	uint8_t in[64] = { 0x01, 0, 0x5e, 0, 0, 1, 0x02, 0, 0, 0, 0, 0xaa };
	uint32_t ports[4] = { 0 };
	int prog;

	cr_assert_not_null(board);
	prog = hwxdp_board__load(board, BRIDGE);
	cr_assert_geq(prog, 0);
	for (uint32_t port = 1; port <= 3; port++) {
		cr_assert_eq(hwxdp_board__attach(board, port, (uint32_t)prog), 0);
		cr_assert_eq(
			hwxdp_board__map_update(board, prog, "bridge_ports", &port, &port, BPF_ANY),
			0);
	}
	frame.data = in;
	frame.len = sizeof(in);
	frame.port = 2;
	cr_assert_eq(hwxdp_board__run(board, &frame, 1), 0);
	cr_assert_eq(frame.verdict, XDP_REDIRECT);
	cr_assert(hwxdp_board_egress_is_broadcast(frame.egress), "egress 0x%x", frame.egress);
	cr_assert_eq(hwxdp_board__broadcast_ports(board, &frame, ports, 4), 2);
	cr_assert(ports[0] == 1 && ports[1] == 3, "to %u and %u", ports[0], ports[1]);
	frame.egress = 1;
	cr_assert_eq(hwxdp_board__broadcast_ports(board, &frame, ports, 4), -EINVAL);
	hwxdp_board__free(board);
}
