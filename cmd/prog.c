// SPDX-License-Identifier: GPL-2.0
/*
 * hwxdp prog stats FILE.o [--frame KIND]: what the microcode costs per lab
 * frame against the BPF the program executes on it.
 * hwxdp prog dump FILE [--prog NAME]: the microcode, bundle by bundle, with
 * the BPF instruction and source line of every operation (FILE a BPF object,
 * or an image file, whose line table gives the BPF instruction only).
 * hwxdp prog translate FILE.o -o OUT.hxu: the image file (docs/isa.md
 * section 6) of the program the device would run.
 * None needs a kernel: the device target and the counting interpreter run
 * in this process.
 */
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <getopt.h>
#include <limits.h>
#include <linux/bpf.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "cmd/grammar.h"
#include "cmd/main.h"
#include "device/engine.h"
#include "device/tables.h"
#include "hwmap/hxu_text.h"
#include "hwmap/image.h"
#include "hwmap/link.h"
#include "hwmap/translate.h"
#include "loader/device.h"
#include "loader/object.h"
#include "lab/bpf_count.h"
#include "fwdlab/fwd.h"
#include "fwdlab/fwd_lab.h"
#include "lab/pkt.h"
#include "loader/state.h"
#include "lab/target.h"
#include "base/file.h"
#include "base/log.h"
#include "verifier/disasm.h"
#include "verifier/verifier.h"

/*
 * Frames for a program that is not the forwarding program, whose lab
 * tables it does not have: one of each common kind, arriving on ifindex 1.
 */
static const struct hx_lab_frame generic_frames[] = {
	{ "ipv4-tcp", "IPv4 TCP, 32 bytes of payload", 1, 4, IPPROTO_TCP, -1, "10.0.0.1",
	  "10.0.1.1", 32, 0 },
	{ "ipv4-udp", "IPv4 UDP", 1, 4, IPPROTO_UDP, -1, "10.0.0.1", "10.0.1.1", 32, 0 },
	{ "ipv4-icmp", "IPv4 ICMP echo request", 1, 4, IPPROTO_ICMP, -1, "10.0.0.1", "10.0.1.1", 32,
	  0 },
	{ "ipv6-tcp", "IPv6 TCP", 1, 6, IPPROTO_TCP, -1, "fd00::1", "fd00:1::1", 32, 0 },
	{ "ipv6-udp", "IPv6 UDP", 1, 6, IPPROTO_UDP, -1, "fd00::1", "fd00:1::1", 32, 0 },
	{ "vlan-udp", "IPv4 UDP in an 802.1Q tag, VLAN 50", 1, 4, IPPROTO_UDP, 50, "10.0.0.1",
	  "10.0.1.1", 32, 0 },
	{ "arp", "an ARP request", 1, 0, 0, -1, NULL, NULL, 28, 0 },
};
#define GENERIC_FRAMES (sizeof(generic_frames) / sizeof(generic_frames[0]))

static int prog_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_help_object(stderr, cmd_object_find("prog"), false);
}

/* What a subcommand was given after its FILE. */
struct prog_args {
	const char *path;
	const char *prog, *frame, *target, *output, *maps;
};

enum {
	OPT_PROG = 1 << 0,
	OPT_FRAME = 1 << 1,
	OPT_TARGET = 1 << 2,
	OPT_OUTPUT = 1 << 3,
	OPT_MAPS = 1 << 4,
};

/* FILE and the options of subcommand sub, which takes those in allowed.
 * Returns 0, or the exit status (error or help printed). */
static int parse(int argc, char **argv, const char *sub, unsigned int allowed, struct prog_args *a)
{
	const struct option options[] = {
		{ "prog", required_argument, NULL, 'P' },
		{ "frame", required_argument, NULL, 'F' },
		{ "target", required_argument, NULL, 'T' },
		{ "output", required_argument, NULL, 'o' },
		{ "maps", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ 0 },
	};
	const char **slot, *name;
	unsigned int bit;
	int opt;

	optind = 0;
	while ((opt = getopt_long(argc + 1, argv - 1, "o:hjp", options, NULL)) >= 0) {
		switch (opt) {
		case 'P':
			slot = &a->prog, bit = OPT_PROG, name = "--prog";
			break;
		case 'F':
			slot = &a->frame, bit = OPT_FRAME, name = "--frame";
			break;
		case 'T':
			slot = &a->target, bit = OPT_TARGET, name = "--target";
			break;
		case 'o':
			slot = &a->output, bit = OPT_OUTPUT, name = "-o/--output";
			break;
		case 'M':
			slot = &a->maps, bit = OPT_MAPS, name = "--maps";
			break;
		case 'j':
		case 'p':
			cmd_output_option(opt);
			continue;
		case 'h':
			prog_help(0, NULL);
			return 0;
		default:
			prog_help(0, NULL);
			return 1;
		}
		if (!(allowed & bit))
			return cmd_error("prog %s takes no %s", sub, name);
		if (!*optarg)
			return cmd_error("%s: an empty %s", name,
					 bit == OPT_OUTPUT ? "file name" : "value");
		*slot = optarg;
	}
	if (optind >= argc + 1)
		return cmd_error("prog %s needs a FILE (try '%s prog help')", sub, bin_name);
	if (optind < argc)
		return cmd_error("unexpected argument '%s'", argv[optind]);
	if (!*argv[optind - 1])
		return cmd_error("prog %s: an empty file name for FILE", sub);
	a->path = argv[optind - 1];
	/* "-": standard input, or for -o standard output */
	if (!strcmp(a->path, "-") && !(a->path = cmd_stdin_path("FILE -")))
		return HWXDP_EXIT_USAGE;
	if (a->maps && !strcmp(a->maps, "-") && !(a->maps = cmd_stdin_path("--maps -")))
		return HWXDP_EXIT_USAGE;
	if (a->output && !strcmp(a->output, "-") && !(a->output = cmd_stdout_path("-o -")))
		return HWXDP_EXIT_USAGE;
	if (access(a->path, R_OK))
		return cmd_error("%s: %s", a->path, hwxdp_strerror(errno));
	return 0;
}

/* Whether the file at path is an image file rather than a BPF object. */
static bool is_image(const char *path)
{
	char magic[4];
	/* not a regular file: neither, as the object reader then says */
	int fd = hwxdp_file__open_input(path, "objects", HWXDP_FILE_UNLIMITED, NULL, 0);
	bool yes;

	if (fd < 0)
		return false;
	yes = read(fd, magic, sizeof(magic)) == sizeof(magic) &&
	      hxu_image__has_magic(magic, sizeof(magic));
	close(fd);
	return yes;
}

struct frame_stats {
	const struct hx_lab_frame *frame;
	struct hx_run_stats device, bpf;
	uint32_t device_action, bpf_action;
};

static size_t build_generic(const struct hx_lab_frame *f, uint8_t *buf, size_t cap)
{
	struct hx_frame_spec spec;

	hx_frame_spec_init(&spec, f->family);
	spec.proto = f->proto;
	spec.vlan = f->vlan;
	spec.payload_len = f->payload;
	if (!f->family)
		spec.ethertype = 0x0806;
	if (f->src && (inet_pton(f->family == 6 ? AF_INET6 : AF_INET, f->src, spec.src) != 1 ||
		       inet_pton(f->family == 6 ? AF_INET6 : AF_INET, f->dst, spec.dst) != 1))
		return 0;
	return hx_frame_build(&spec, buf, cap);
}

static int measure(struct hx_target *dev, struct hx_target *cnt, const uint32_t *ifindex,
		   const struct hx_lab_frame *f, bool lab, struct frame_stats *fs)
{
	static struct hx_result r;
	uint8_t frame[HX_PKT_MAX];
	size_t len = lab ? hx_lab_build((enum hx_lab_kind)(f - hx_lab_frames), frame, sizeof(frame))
			 : build_generic(f, frame, sizeof(frame));
	uint32_t ingress;
	int err;

	if (!len)
		return -EINVAL;
	fs->frame = f;
	ingress = lab ? ifindex[f->port - 1] : 1;
	err = hx_target_run(dev, ingress, frame, len, &r);
	if (!err)
		err = hx_target_stats(dev, &fs->device);
	fs->device_action = r.action;
	if (!err)
		err = hx_target_run(cnt, ingress, frame, len, &r);
	if (!err)
		err = hx_target_stats(cnt, &fs->bpf);
	fs->bpf_action = r.action;
	return err;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

static void print_stats(struct json_writer *w, const struct frame_stats *fs)
{
	if (w) {
		json_start_object(w);
		json_string_field(w, "frame", fs->frame->name);
		json_string_field(w, "what", fs->frame->what);
		json_string_field(w, "verdict", hwxdp_xdp_action_name(fs->device_action));
		json_uint_field(w, "bpf_insns", fs->bpf.ops);
		json_uint_field(w, "ops", fs->device.ops);
		json_uint_field(w, "slots", fs->device.bundles);
		json_uint_field(w, "cycles", fs->device.cycles);
		/* per mille, so that JSON stays integers */
		json_uint_field(w, "slots_per_kbpf",
				(uint64_t)(1000 * ratio(fs->device.bundles, fs->bpf.ops) + 0.5));
		json_uint_field(w, "cycles_per_kbpf",
				(uint64_t)(1000 * ratio(fs->device.cycles, fs->bpf.ops) + 0.5));
		json_end_object(w);
		return;
	}
	printf("%-10s %-8s %9llu %7llu %7llu %7llu %9.3f %10.3f\n", fs->frame->name,
	       hwxdp_xdp_action_name(fs->device_action), (unsigned long long)fs->bpf.ops,
	       (unsigned long long)fs->device.ops, (unsigned long long)fs->device.bundles,
	       (unsigned long long)fs->device.cycles, ratio(fs->device.bundles, fs->bpf.ops),
	       ratio(fs->device.cycles, fs->bpf.ops));
}

/* Both targets of prog stats, fresh. 0 or the exit status, said. */
static int open_pair(const char *path, struct hx_target **dev, struct hx_target **cnt)
{
	int err;

	*dev = hx_target_open("device", path);
	if (!*dev)
		return cmd_error("cannot translate for the device: %s",
				 hwxdp_error_message(-errno));
	*cnt = hx_count_target_open(path);
	if (!*cnt) {
		err = errno;
		hx_target_close(*dev);
		*dev = NULL;
		return cmd_error("%s: cannot open on the reference interpreter: %s", path,
				 hwxdp_error_message(-err));
	}
	return 0;
}

static int state_update(void *ctx, const char *map, const void *key, const void *value)
{
	struct hx_target **pair = ctx;
	int err = hx_target_map_update(pair[0], map, key, value);

	return err ?: hx_target_map_update(pair[1], map, key, value);
}

/* The --maps state file's entries, into both targets. */
static int apply_state(const char *path, const char *maps, struct hx_target *dev,
		       struct hx_target *cnt)
{
	struct hx_target *pair[2] = { dev, cnt };
	struct hx_state *state = hx_state__new();
	struct hwxdp_object *obj = NULL;
	char msg[PATH_MAX + 512];
	int err;

	if (!state)
		return cmd_error("out of memory");
	err = hx_state__load(state, maps, msg, sizeof(msg));
	if (!err) {
		err = hwxdp_object__open(path, &obj);
		if (err)
			snprintf(msg, sizeof(msg), "%s", hwxdp_error_message(err));
	}
	if (!err)
		err = hx_state__apply(state, obj, state_update, pair, msg, sizeof(msg));
	hwxdp_object__close(obj);
	hx_state__free(state);
	return err ? cmd_error("%s", msg) : 0;
}

static int do_stats(int argc, char **argv)
{
	static const uint32_t ifindex[HX_LAB_PORTS] = { 11, 12, 13 };
	struct hx_target *dev = NULL, *cnt = NULL;
	const struct hx_lab_frame *frames = hx_lab_frames;
	size_t frame_cnt = HX_LAB__COUNT;
	struct prog_args a = {};
	const char *path, *only;
	struct json_writer *w = NULL;
	struct hx_run_stats image;
	bool lab = true, found = false;
	int rc, err;

	rc = parse(argc, argv, "stats", OPT_FRAME | OPT_MAPS, &a);
	if (rc || !a.path)
		return rc;
	path = a.path;
	only = a.frame;
	if (is_image(path))
		return cmd_error("%s: prog stats needs the BPF object, not an image", path);
	rc = open_pair(path, &dev, &cnt);
	if (rc)
		return rc;
	/* the forwarding program's lab, or for any other program the generic
	 * frames on tables as the state file (or nothing) fills them */
	err = a.maps ? -ENOENT : hx_lab_setup(dev, ifindex);
	if (!err)
		err = hx_lab_setup(cnt, ifindex);
	if (err) {
		lab = false;
		frames = generic_frames;
		frame_cnt = GENERIC_FRAMES;
		hx_target_close(dev);
		hx_target_close(cnt);
		rc = open_pair(path, &dev, &cnt);
		if (rc)
			return rc;
		if (a.maps) {
			rc = apply_state(path, a.maps, dev, cnt);
			if (rc)
				goto out;
		}
	}
	for (size_t k = 0; only && k < frame_cnt; k++)
		found |= !strcmp(only, frames[k].name);
	if (only && !found) {
		rc = cmd_error("no %s frame '%s' (try '%s prog help')", lab ? "lab" : "generic",
			       only, bin_name);
		goto out;
	}
	hx_target_stats(dev, &image);
	if (json_output) {
		w = json_new(stdout, pretty_output);
		json_start_object(w);
		json_string_field(w, "object", path);
		json_uint_field(w, "bpf_insn_cnt", image.bpf_insns);
		json_uint_field(w, "image_ops", image.image_ops);
		json_name(w, "frames");
		json_start_array(w);
	} else {
		printf("%s: %zu BPF instructions, %zu HXU operations\n\n", path, image.bpf_insns,
		       image.image_ops);
		printf("%-10s %-8s %9s %7s %7s %7s %9s %10s\n", "frame", "verdict", "BPF insns",
		       "ops", "slots", "cycles", "slots/BPF", "cycles/BPF");
	}
	rc = 0;
	for (size_t k = 0; k < frame_cnt; k++) {
		struct frame_stats fs = {};

		if (only && strcmp(only, frames[k].name))
			continue;
		err = measure(dev, cnt, ifindex, &frames[k], lab, &fs);
		if (err) {
			json_destroy(w);
			w = NULL;
			rc = cmd_error("frame %s: %s", frames[k].name, hwxdp_error_message(err));
			goto out;
		}
		/* The count is only the reference when both took the same path. */
		if (fs.device_action != fs.bpf_action)
			fprintf(stderr, "%s: warning: frame %s: device says %s, the reference %s\n",
				bin_name, fs.frame->name, hwxdp_xdp_action_name(fs.device_action),
				hwxdp_xdp_action_name(fs.bpf_action));
		print_stats(w, &fs);
	}
	if (w) {
		json_end_array(w);
		json_end_object(w);
		json_destroy(w);
	}
out:
	hx_target_close(dev);
	hx_target_close(cnt);
	return rc;
}

/* The program the device would run: verified and translated as the device
 * target does it. */
static int translate(const char *path, const char *name, struct hwxdp_object **obj,
		     const struct hwxdp_prog **prog, struct hxu_image **img)
{
	char msg[600];
	int err;

	*img = NULL;
	err = hwxdp_object__open(path, obj);
	if (err)
		return cmd_error("%s", hwxdp_error_message(err));
	*prog = NULL;
	for (size_t i = 0; i < (*obj)->prog_cnt && !*prog; i++)
		if (name ? !strcmp((*obj)->progs[i].name, name)
			 : (*obj)->progs[i].type == BPF_PROG_TYPE_XDP)
			*prog = &(*obj)->progs[i];
	if (!*prog) {
		cmd_error(name ? "%s: no program named '%s'" : "%s: no XDP program%s", path,
			  name ? name : "");
		goto fail;
	}
	err = hwxdp_translate_for_device(*obj, *prog, img, msg, sizeof(msg));
	if (err == -EACCES) {
		cmd_error("%s: %s: rejected by the verifier (see '%s verify')", path, (*prog)->name,
			  bin_name);
		goto fail;
	}
	if (err) {
		cmd_error("%s: %s: %s", path, (*prog)->name, msg);
		goto fail;
	}
	return 0;
fail:
	hwxdp_object__close(*obj);
	*obj = NULL;
	return 1;
}

/* The object's program that is image program k, or NULL. */
static const struct hwxdp_prog *image_prog(const struct hwxdp_object *obj,
					   const struct hxu_image *img, uint32_t k)
{
	for (size_t i = 0; i < obj->prog_cnt; i++)
		if (!strncmp(obj->progs[i].name, img->progs[k].name, HXU_NAME_MAX - 1))
			return &obj->progs[i];
	return NULL;
}

static void dump_op(struct json_writer *w, const struct hwxdp_prog *prog,
		    const struct hxu_image *img, uint32_t i, uint32_t bundle,
		    const struct hwxdp_line **shown)
{
	const struct hxu_line *l = &img->lines[i];
	uint32_t at = l->op;
	const struct hwxdp_line *src = hwxdp_prog__line(prog, l->insn);
	char text[128], line[136], bpf[128] = "";
	bool end = img->ops[at] & HXU_END_BIT;

	if (!hxu_disasm_op(img->ops + at, img->op_cnt - at, text, sizeof(text)))
		snprintf(text, sizeof(text), ".word 0x%016llx", (unsigned long long)img->ops[at]);
	if (l->insn < prog->insn_cnt)
		hwxdp_disasm_insn(&prog->insns[l->insn], prog->insn_cnt - l->insn, bpf,
				  sizeof(bpf));
	if (w) {
		json_start_object(w);
		json_uint_field(w, "op", at);
		json_uint_field(w, "bundle", bundle);
		json_string_field(w, "text", text);
		json_name(w, "end");
		json_bool(w, end);
		json_uint_field(w, "insn", l->insn);
		if (img->prog_cnt > 1)
			json_string_field(w, "prog", prog->name);
		json_string_field(w, "bpf", bpf);
		if (src) {
			json_string_field(w, "file", src->file ? src->file : "");
			json_uint_field(w, "line", src->line);
			json_string_field(w, "src", src->text ? src->text : "");
		}
		json_end_object(w);
		return;
	}
	/* Comments are '#', so that hxu_asm reads the listing back. */
	if (src && src != *shown)
		printf("# %s @ %s:%u\n", src->text ? src->text : "", src->file ? src->file : "?",
		       src->line);
	*shown = src;
	snprintf(line, sizeof(line), "%s%s", text, end ? " ;;" : "");
	printf("%5u: %-36s # insn %u: %s\n", at, line, l->insn, bpf);
}

/* An image file's microcode: every operation of the store in order, each
 * program's entry marked, and the BPF instruction from the line table. */
static int dump_image(const struct prog_args *a)
{
	struct json_writer *w = NULL;
	uint32_t at = 0, line = 0, bundle = 0, ops = 0, i;
	struct hxu_image *img;
	char msg[512];
	int err;

	err = hxu_image__load(a->path, &img, msg, sizeof(msg));
	if (err)
		return cmd_error("%s: %s", a->path, msg);
	/* the file's rules make it readable; the device's make it microcode */
	err = hwxdp_engine__check(img, NULL, msg, sizeof(msg));
	if (err) {
		hxu_image__free(img);
		return cmd_error("%s: the device refuses the image: %s", a->path,
				 err == -HWXDP_ERR_IMAGE ? msg : hwxdp_strerror(err));
	}
	for (i = 0; a->prog && i < img->prog_cnt; i++)
		if (!strcmp(img->progs[i].name, a->prog))
			break;
	if (a->prog && i == img->prog_cnt) {
		hxu_image__free(img);
		return cmd_error("%s: no program named '%s'", a->path, a->prog);
	}
	if (json_output) {
		w = json_new(stdout, pretty_output);
		json_start_object(w);
		json_string_field(w, "image", a->path);
		json_name(w, "progs");
		json_start_array(w);
		for (i = 0; i < img->prog_cnt; i++) {
			json_start_object(w);
			json_string_field(w, "name", img->progs[i].name);
			json_uint_field(w, "entry", img->progs[i].entry);
			json_uint_field(w, "frames", img->progs[i].frames);
			json_end_object(w);
		}
		json_end_array(w);
		json_name(w, "ops");
		json_start_array(w);
	} else {
		printf("# %s: %u programs, %u tables, %u words\n", a->path, img->prog_cnt,
		       img->table_cnt, img->op_cnt);
	}
	while (at < img->op_cnt) {
		char text[128], row[136];
		struct hxu_op op;
		unsigned int n = hxu_decode_at(img->ops + at, img->op_cnt - at, &op);
		bool has_line;

		/* the device's check leaves no operation cut short */
		if (!n)
			break;
		if (!hxu_disasm_op(img->ops + at, img->op_cnt - at, text, sizeof(text)))
			snprintf(text, sizeof(text), ".word 0x%016llx",
				 (unsigned long long)img->ops[at]);
		while (line < img->line_cnt && img->lines[line].op < at)
			line++;
		has_line = line < img->line_cnt && img->lines[line].op == at;
		if (w) {
			json_start_object(w);
			json_uint_field(w, "op", at);
			json_uint_field(w, "bundle", bundle);
			json_string_field(w, "text", text);
			json_name(w, "end");
			json_bool(w, op.end);
			if (has_line)
				json_uint_field(w, "insn", img->lines[line].insn);
			json_end_object(w);
		} else {
			for (i = 0; i < img->prog_cnt; i++)
				if (img->progs[i].entry == at)
					printf("# program %s: %u stack frames\n",
					       img->progs[i].name, img->progs[i].frames);
			snprintf(row, sizeof(row), "%s%s", text, op.end ? " ;;" : "");
			if (has_line)
				printf("%5u: %-36s # insn %u\n", at, row, img->lines[line].insn);
			else
				printf("%5u: %s\n", at, row);
		}
		bundle += op.end;
		ops++;
		at += n;
	}
	if (w) {
		json_end_array(w);
		json_uint_field(w, "bundles", bundle);
		json_end_object(w);
		json_destroy(w);
	} else {
		printf("# %u operations, %u bundles\n", ops, bundle);
	}
	hxu_image__free(img);
	return 0;
}

/* Bytes as a state file takes them back: groups of four, "0a000001 00000000". */
static void hex_groups(const uint8_t *bytes, size_t len, char *out)
{
	for (size_t i = 0; i < len; i++)
		out += sprintf(out, "%s%02x", i && !(i % 4) ? " " : "", bytes[i]);
	*out = '\0';
}

static bool all_zero(const uint8_t *bytes, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (bytes[i])
			return false;
	return true;
}

static int table_update(void *ctx, const char *map, const void *key, const void *value)
{
	struct hwxdp_table *tab = hwxdp_device_prog__table(ctx, map);

	return tab ? hwxdp_table__update(tab, key, value, BPF_ANY) : -EOPNOTSUPP;
}

static int prog_number(void *ctx, const char *name, uint32_t *number)
{
	return hwxdp_device_prog__entry_prog(ctx, name, number);
}

/* One table's entries, in the table's order; an array's entries of zeros,
 * the state it starts in, are left out. */
static int dump_entries(struct json_writer *w, struct hwxdp_table *tab)
{
	const struct hxu_table_desc *d = &tab->desc;
	uint32_t value_size = hwxdp_table__value_buf_size(tab);
	bool array = d->type == BPF_MAP_TYPE_ARRAY || d->type == BPF_MAP_TYPE_PERCPU_ARRAY;
	uint8_t *key = calloc(1, d->key_size), *next = calloc(1, d->key_size);
	uint8_t *value = calloc(1, value_size);
	char *key_hex = malloc(d->key_size * 9 / 4 + 4),
	     *value_hex = malloc(value_size * 9 / 4 + 4);
	int err = -ENOMEM;

	if (!key || !next || !value || !key_hex || !value_hex)
		goto out;
	for (err = hwxdp_table__get_next_key(tab, NULL, next); !err;
	     err = hwxdp_table__get_next_key(tab, key, next)) {
		memcpy(key, next, d->key_size);
		err = hwxdp_table__lookup(tab, key, value);
		if (err == -ENOENT)
			continue;
		if (err)
			goto out;
		if (array && all_zero(value, value_size))
			continue;
		hex_groups(key, d->key_size, key_hex);
		hex_groups(value, value_size, value_hex);
		if (w) {
			json_start_object(w);
			json_string_field(w, "key", key_hex);
			json_string_field(w, "value", value_hex);
			json_end_object(w);
		} else {
			printf("#   %s: %s\n", key_hex, value_hex);
		}
	}
	err = err == -ENOENT ? 0 : err;
out:
	free(key);
	free(next);
	free(value);
	free(key_hex);
	free(value_hex);
	return err;
}

/*
 * The object at path on the device with the state file at maps in its
 * tables, before anything is printed. 0 or the exit status, said.
 */
static int fill_tables(const char *path, const char *maps, struct hwxdp_device_prog **dp)
{
	struct hwxdp_device_prog_opts opts = { .sz = sizeof(opts), .no_engine = true };
	struct hx_state *state = hx_state__new();
	char msg[PATH_MAX + 512];
	int err;

	*dp = NULL;
	if (!state)
		return cmd_error("out of memory");
	err = hx_state__load(state, maps, msg, sizeof(msg));
	if (!err)
		err = hwxdp_device_prog__open_opts(path, &opts, dp, msg, sizeof(msg));
	if (!err)
		err = hx_state__apply_progs(state, (*dp)->obj, table_update, prog_number, *dp, msg,
					    sizeof(msg));
	hx_state__free(state);
	if (err) {
		hwxdp_device_prog__close(*dp);
		*dp = NULL;
		return cmd_error("%s", msg);
	}
	return 0;
}

/* The object's maps as the device holds them (global data with its initial
 * bytes), after the listing. 0 or the exit status, said. */
static int dump_tables(const struct hwxdp_device_prog *dp, struct json_writer *w)
{
	int rc = 0;

	if (w) {
		json_name(w, "tables");
		json_start_array(w);
	}
	for (size_t i = 0; i < dp->obj->map_cnt && !rc; i++) {
		const struct hwxdp_map_desc *m = &dp->obj->maps[i];
		struct hwxdp_table *tab = i < HXU_TABLES ? hwxdp_tables__get(dp->tables, i) : NULL;
		const char *type = libbpf_bpf_map_type_str(m->type);
		int err;

		/* a type the device lacks has no table */
		if (!tab)
			continue;
		if (w) {
			json_start_object(w);
			json_uint_field(w, "id", i);
			json_string_field(w, "name", m->name);
			json_string_field(w, "type", type ? type : "unknown");
			json_uint_field(w, "key_size", tab->desc.key_size);
			json_uint_field(w, "value_size", hwxdp_table__value_buf_size(tab));
			json_uint_field(w, "max_entries", tab->desc.max_entries);
			json_name(w, "entries");
			json_start_array(w);
		} else {
			printf("# table %zu %s: %s, key %u bytes, value %u bytes, %u entries at "
			       "most\n",
			       i, m->name, type ? type : "unknown", tab->desc.key_size,
			       hwxdp_table__value_buf_size(tab), tab->desc.max_entries);
		}
		err = dump_entries(w, tab);
		if (w) {
			json_end_array(w);
			json_end_object(w);
		}
		if (err)
			rc = cmd_error("%s: table %s cannot be read: %s", dp->obj->path, m->name,
				       hwxdp_strerror(err));
	}
	if (w)
		json_end_array(w);
	return rc;
}

static int do_dump(int argc, char **argv)
{
	const struct hwxdp_line *shown = NULL;
	struct hwxdp_device_prog *dp = NULL;
	const struct hwxdp_prog *prog;
	struct json_writer *w = NULL;
	struct prog_args a = {};
	struct hwxdp_object *obj;
	struct hxu_image *img;
	uint32_t i, bundle = 0;
	int rc;

	rc = parse(argc, argv, "dump", OPT_PROG | OPT_MAPS, &a);
	if (rc || !a.path)
		return rc;
	if (is_image(a.path) && a.maps)
		return cmd_error("%s: prog dump --maps needs the BPF object, not an image", a.path);
	if (is_image(a.path))
		return dump_image(&a);
	rc = translate(a.path, a.prog, &obj, &prog, &img);
	if (rc)
		return rc;
	if (a.maps) {
		rc = fill_tables(a.path, a.maps, &dp);
		if (rc)
			goto out;
	}
	if (json_output) {
		w = json_new(stdout, pretty_output);
		json_start_object(w);
		json_string_field(w, "prog", prog->name);
		json_uint_field(w, "insn_cnt", prog->insn_cnt);
		json_name(w, "progs");
		json_start_array(w);
		for (i = 0; i < img->prog_cnt; i++) {
			const struct hwxdp_prog *p = image_prog(obj, img, i);

			json_start_object(w);
			json_string_field(w, "name", img->progs[i].name);
			json_uint_field(w, "index", i);
			json_uint_field(w, "entry", img->progs[i].entry);
			json_uint_field(w, "insn_cnt", p ? p->insn_cnt : 0);
			json_end_object(w);
		}
		json_end_array(w);
		json_name(w, "ops");
		json_start_array(w);
	} else if (img->prog_cnt == 1) {
		printf("# %s: %zu BPF instructions, %u HXU operations (%u words)\n", prog->name,
		       prog->insn_cnt, img->line_cnt, img->op_cnt);
	} else {
		/* the programs its tail calls reach through arrays filled by
		 * their definition come along (docs/translator.md) */
		printf("# %s: %zu BPF instructions, with the %u programs its tail calls reach %u "
		       "HXU operations (%u words)\n",
		       prog->name, prog->insn_cnt, img->prog_cnt - 1, img->line_cnt, img->op_cnt);
	}
	for (i = 0; i < img->line_cnt; i++) {
		uint32_t k = hxu_image__prog_of(img, img->lines[i].op);
		const struct hwxdp_prog *p = image_prog(obj, img, k);

		if (!w && img->prog_cnt > 1 && img->lines[i].op == img->progs[k].entry)
			printf("# program %u %s: %zu BPF instructions%s\n", k, img->progs[k].name,
			       p ? p->insn_cnt : 0, k ? ", reached by a tail call" : "");
		dump_op(w, p ? p : prog, img, i, bundle, &shown);
		if (img->ops[img->lines[i].op] & HXU_END_BIT)
			bundle++;
	}
	if (w) {
		json_end_array(w);
		json_uint_field(w, "bundles", bundle);
	} else {
		printf("# %u bundles\n", bundle);
	}
	if (dp)
		rc = dump_tables(dp, w);
	if (w) {
		json_end_object(w);
		json_destroy(w);
	}
out:
	hwxdp_device_prog__close(dp);
	hxu_image__free(img);
	hwxdp_object__close(obj);
	return rc;
}

static int do_translate(int argc, char **argv)
{
	struct prog_args a = {};
	const struct hwxdp_prog *prog;
	struct hwxdp_object *obj;
	struct json_writer *w;
	struct hxu_image *img;
	uint32_t at = 0, ops = 0, bundles = 0;
	struct hwxdp_outputs *outputs;
	char msg[512];
	int rc, err, fd;

	char *args[8], *kept[64];
	bool prove = false;
	int n = 0;

	/* --prove: the image is written only once it is proven
	 * (`prog prove`, whose report and exit status it gives otherwise) */
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--prove"))
			prove = true;
		else if (n < 63)
			kept[n++] = argv[i];
	}
	kept[n] = NULL;
	argc = n;
	argv = kept;
	rc = parse(argc, argv, "translate", OPT_PROG | OPT_TARGET | OPT_OUTPUT, &a);
	if (rc || !a.path)
		return rc;
	if (prove) {
		n = 0;
		args[n++] = "prove";
		args[n++] = (char *)a.path;
		if (a.prog) {
			args[n++] = "--prog";
			args[n++] = (char *)a.prog;
		}
		args[n] = NULL;
		rc = do_prog_prove(n - 1, args + 1);
		if (rc)
			return rc;
		fflush(stdout);
	}
	/* the device is the one target with microcode; the option leaves room
	 * for another */
	if (a.target && strcmp(a.target, "device"))
		return cmd_error("no translation target '%s' (the target is 'device')", a.target);
	if (!a.output)
		return cmd_error("prog translate needs -o OUT.hxu");
	rc = translate(a.path, a.prog, &obj, &prog, &img);
	if (rc)
		return rc;
	/* an image the device would refuse is of no use to anyone */
	err = hwxdp_engine__check(img, NULL, msg, sizeof(msg));
	if (err) {
		rc = cmd_error("%s: %s: the device refuses the microcode: %s", a.path, prog->name,
			       err == -HWXDP_ERR_IMAGE ? msg : hwxdp_strerror(err));
		goto out;
	}
	/* The object is the one input; -o naming it would destroy it. */
	outputs = hwxdp_outputs__new();
	if (!outputs) {
		rc = cmd_error("out of memory");
		goto out;
	}
	err = hwxdp_outputs__input(outputs, a.path, msg, sizeof(msg));
	fd = err ? err : hwxdp_outputs__add(outputs, "-o", a.output, 0644, msg, sizeof(msg));
	err = fd < 0 ? fd : hxu_image__write(img, fd, msg, sizeof(msg));
	/* an errno from write(): the message names the file, not the image */
	if (fd >= 0 && err < 0 && err > -4096)
		snprintf(msg, sizeof(msg), "-o %s: cannot write it: %s", a.output,
			 hwxdp_strerror(err));
	if (!err)
		err = hwxdp_outputs__commit(outputs, msg, sizeof(msg));
	hwxdp_outputs__free(outputs);
	if (err) {
		rc = cmd_error("%s", msg);
		goto out;
	}
	if (json_output) {
		while (at < img->op_cnt) {
			struct hxu_op op;
			unsigned int n = hxu_decode_at(img->ops + at, img->op_cnt - at, &op);

			if (!n)
				break;
			ops++;
			bundles += op.end;
			at += n;
		}
		w = json_new(stdout, pretty_output);
		json_start_object(w);
		json_string_field(w, "object", a.path);
		json_string_field(w, "prog", prog->name);
		json_string_field(w, "target", "device");
		json_string_field(w, "output", a.output);
		json_uint_field(w, "bytes", hxu_image__file_size(img));
		json_uint_field(w, "insn_cnt", prog->insn_cnt);
		json_uint_field(w, "ops", ops);
		json_uint_field(w, "words", img->op_cnt);
		json_uint_field(w, "bundles", bundles);
		json_uint_field(w, "tables", img->table_cnt);
		json_uint_field(w, "progs", img->prog_cnt);
		/* image program i: the one asked for, then those its tail calls reach */
		json_name(w, "prog_names");
		json_start_array(w);
		for (uint32_t i = 0; i < img->prog_cnt; i++)
			json_string(w, img->progs[i].name);
		json_end_array(w);
		json_uint_field(w, "lines", img->line_cnt);
		json_end_object(w);
		json_destroy(w);
	}
out:
	hxu_image__free(img);
	hwxdp_object__close(obj);
	return rc;
}

const struct cmd prog_offline_cmds[] = {
	{ "stats", do_stats, NULL },
	{ "dump", do_dump, NULL },
	{ "translate", do_translate, NULL },
	{ "prove", do_prog_prove, NULL },
	/* The top-level commands, in the object grammar too. */
	{ "verify", do_verify, NULL },
	{ "run", do_run, NULL },
	{ 0 },
};

int do_prog(int argc, char **argv)
{
	return cmd_select(prog_offline_cmds, argc, argv, prog_help);
}
