// SPDX-License-Identifier: GPL-2.0
/*
 * Conformance runs of raw BPF programs on the device and on the kernel,
 * through one wrapper program (lab/conformance.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "device/engine.h"
#include "device/tables.h"
#include "hwmap/hxu.h"
#include "hwmap/translate.h"
#include "loader/object.h"
#include "lab/conformance.h"
#include "base/hex.h"
#include "lab/target.h"
#include "loader/device.h"
#include "base/log.h"
#include "verifier/verifier.h"

const struct hwxdp_map_desc hx_conformance_map = {
	.name = "conformance",
	.origin = HWXDP_MAP_BTF,
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(uint32_t),
	.value_size = sizeof(uint64_t),
	.max_entries = 1,
};

/* The kernel's log of a refusal can be long; its last lines say why. */
#define KERNEL_LOG_SIZE (1u << 20)

int hx_conformance_insns(const uint8_t *bytes, size_t len, struct bpf_insn **insns, size_t *cnt,
			 char *err, size_t errlen)
{
	*insns = NULL;
	*cnt = 0;
	if (!len) {
		hwxdp_say(err, errlen, 0, "empty program");
		return -EINVAL;
	}
	if (len % sizeof(struct bpf_insn)) {
		hwxdp_say(err, errlen, 0, "program of %zu bytes: not a multiple of %zu", len,
			  sizeof(struct bpf_insn));
		return -EINVAL;
	}
	*insns = malloc(len);
	if (!*insns)
		return -ENOMEM;
	memcpy(*insns, bytes, len);
	*cnt = len / sizeof(struct bpf_insn);
	return 0;
}

int hx_conformance_elf_insns(const uint8_t *elf, size_t len, struct bpf_insn **insns, size_t *cnt,
			     char *err, size_t errlen)
{
	const struct hwxdp_prog *prog;
	struct hwxdp_object *obj;
	int err_code;

	*insns = NULL;
	*cnt = 0;
	err_code = hwxdp_object__open_mem(elf, len, "conformance", &obj);
	if (err_code) {
		hwxdp_say(err, errlen, 0, "the ELF object cannot be read: %s",
			  hwxdp_error_message(err_code));
		return err_code;
	}
	prog = hwxdp_object__xdp_prog(obj);
	if (!prog && obj->prog_cnt)
		prog = &obj->progs[0];
	err_code = -EINVAL;
	if (!prog || !prog->insn_cnt) {
		hwxdp_say(err, errlen, 0, "the ELF object has no program");
		goto out;
	}
	/* the convention passes memory, never maps: nothing to give them */
	if (obj->map_cnt) {
		hwxdp_say(err, errlen, 0, "the ELF object has maps (%s ...): the program gets none",
			  obj->maps[0].name);
		goto out;
	}
	err_code = -ENOMEM;
	*insns = malloc(prog->insn_cnt * sizeof(**insns));
	if (!*insns)
		goto out;
	memcpy(*insns, prog->insns, prog->insn_cnt * sizeof(**insns));
	*cnt = prog->insn_cnt;
	err_code = 0;
out:
	hwxdp_object__close(obj);
	return err_code;
}

static struct bpf_insn insn(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	return (struct bpf_insn){
		.code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm
	};
}

int hx_conformance_wrap(const struct bpf_insn *raw, size_t cnt, size_t mem_len,
			struct bpf_insn **out, size_t *out_cnt)
{
	const int32_t len = (int32_t)mem_len;
	const struct bpf_insn prologue[HX_CONFORMANCE_PROLOGUE] = {
		/* the frame must hold the memory, or the raw program's loads
		 * would not be provably in bounds; r6..r8 because a callee
		 * sees none of them, so that r3..r5 stay uninitialised for it */
		insn(BPF_LDX | BPF_W | BPF_MEM, 6, 1, offsetof(struct xdp_md, data), 0),
		insn(BPF_LDX | BPF_W | BPF_MEM, 7, 1, offsetof(struct xdp_md, data_end), 0),
		insn(BPF_ALU64 | BPF_MOV | BPF_X, 8, 6, 0, 0),
		insn(BPF_ALU64 | BPF_ADD | BPF_K, 8, 0, 0, len),
		insn(BPF_JMP | BPF_JGT | BPF_X, 8, 7, 8, 0), /* to the error exit */
		insn(BPF_ALU64 | BPF_MOV | BPF_X, 1, 6, 0, 0),
		insn(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, len),
		insn(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, HX_CONFORMANCE_PROLOGUE - 8),
		/* the whole 64-bit r0 survives only through memory */
		insn(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_VALUE, 0, 0),
		insn(0, 0, 0, 0, 0),
		insn(BPF_STX | BPF_DW | BPF_MEM, 1, 0, 0, 0),
		insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, XDP_PASS),
		insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
		insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, XDP_DROP),
		insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	struct bpf_insn *prog;

	*out = NULL;
	*out_cnt = 0;
	if (!cnt || mem_len > HX_CONFORMANCE_MEM_MAX)
		return -EINVAL;
	prog = malloc((HX_CONFORMANCE_PROLOGUE + cnt) * sizeof(*prog));
	if (!prog)
		return -ENOMEM;
	memcpy(prog, prologue, sizeof(prologue));
	memcpy(prog + HX_CONFORMANCE_PROLOGUE, raw, cnt * sizeof(*raw));
	*out = prog;
	*out_cnt = HX_CONFORMANCE_PROLOGUE + cnt;
	return 0;
}

/* The frame: the memory, padded with zeros to an Ethernet header, the
 * least a frame may be on either target. */
static uint8_t *make_frame(const uint8_t *mem, size_t mem_len, size_t *len)
{
	size_t n = mem_len < HXU_ETH_HLEN ? HXU_ETH_HLEN : mem_len;
	uint8_t *frame = calloc(1, n);

	if (!frame)
		return NULL;
	if (mem_len)
		memcpy(frame, mem, mem_len);
	*len = n;
	return frame;
}

/* Where a verifier log says why: its last line before the statistics. */
static void log_reason(const char *log, char *buf, size_t buflen)
{
	const char *last = log ? log : "", *p;
	size_t len;

	for (p = last; *p; p++)
		if (*p == '\n' && p[1] && p[1] != '\n' && strncmp(p + 1, "processed ", 10) &&
		    strncmp(p + 1, "verification time", 17))
			last = p + 1;
	len = strcspn(last, "\n");
	snprintf(buf, buflen, "%.*s", (int)(len > 200 ? 200 : len), last);
}

/* An instruction of the wrapped program, as the raw program numbers it. */
static void where(uint32_t insn, char *buf, size_t buflen)
{
	if (insn >= HX_CONFORMANCE_PROLOGUE)
		snprintf(buf, buflen, "insn %u", insn - HX_CONFORMANCE_PROLOGUE);
	else
		snprintf(buf, buflen, "the wrapper's insn %u", insn);
}

/* First instruction of every function: 0 and each BPF-to-BPF call's
 * target, as the translator needs them. */
static int subprogs(const struct bpf_insn *insns, size_t cnt, uint32_t **starts, size_t *n)
{
	uint32_t *s = calloc(cnt + 1, sizeof(*s));
	size_t k = 1;

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < cnt; i++) {
		const struct bpf_insn *in = &insns[i];
		int64_t target = (int64_t)i + 1 + in->imm;
		bool call = in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_CALL;
		bool func =
			in->code == (BPF_LD | BPF_DW | BPF_IMM) && in->src_reg == BPF_PSEUDO_FUNC;
		size_t j;

		if ((!call && !func) || target <= 0 || target >= (int64_t)cnt)
			continue;
		for (j = 0; j < k && s[j] != (uint32_t)target; j++)
			;
		if (j == k)
			s[k++] = (uint32_t)target;
	}
	/* in order, as the translator reads them */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && s[j - 1] > s[j]; j--) {
			uint32_t t = s[j];

			s[j] = s[j - 1];
			s[j - 1] = t;
		}
	*starts = s;
	*n = k;
	return 0;
}

static const char *engine_error(int err)
{
	switch (-err) {
	case HWXDP_ERR_PKT_ACCESS:
		return "a packet access outside the window";
	case HWXDP_ERR_LM_ACCESS:
		return "a local-memory access outside the stacks";
	case HWXDP_ERR_CALL_DEPTH:
		return "a call with the return stack full";
	case HWXDP_ERR_RET_EMPTY:
		return "a return with the return stack empty";
	case HWXDP_ERR_LOOP_BUDGET:
		return "more loop iterations than a frame may take";
	case HWXDP_ERR_FELL_OFF:
		return "it ran past the last operation";
	}
	return hwxdp_strerror(err);
}

/* What the wrapper's exit says: 0 when r0 was stored. */
static int verdict(uint32_t action, char *err, size_t errlen)
{
	if (action == XDP_PASS)
		return 0;
	if (action == XDP_DROP) {
		hwxdp_say(err, errlen, 0, "the frame does not hold the memory");
		return -HX_CONFORMANCE_ERR_BOUNDS;
	}
	hwxdp_say(err, errlen, 0, "the program ended with verdict %u", action);
	return -HX_CONFORMANCE_ERR_VERDICT;
}

static int run_device(const struct bpf_insn *insns, size_t cnt, const uint8_t *frame,
		      size_t frame_len, bool verbose, uint64_t *r0, char *err, size_t errlen)
{
	struct hwxdp_map_desc map = hx_conformance_map;
	struct hwxdp_verify_result *res = NULL;
	struct hwxdp_translate_opts topts = {
		.sz = sizeof(topts),
		.log_level = verbose ? 1 : 0,
		.verified = &res,
	};
	struct hwxdp_prog prog = {
		.name = "conformance",
		.type = BPF_PROG_TYPE_XDP,
		.insns = (struct bpf_insn *)insns,
		.insn_cnt = cnt,
	};
	/* the object the wrapped program is: its map and itself, no ELF */
	struct hwxdp_object obj = {
		.maps = &map,
		.map_cnt = 1,
		.progs = &prog,
		.prog_cnt = 1,
	};
	struct hwxdp_tables *tables = NULL;
	struct hwxdp_engine *engine = NULL;
	struct hx_result *result = NULL;
	struct hxu_image *img = NULL;
	uint8_t *window = NULL;
	uint32_t *starts = NULL, zero = 0;
	struct hwxdp_frame f;
	char why[512], at[64];
	int ret;

	ret = subprogs(insns, cnt, &starts, &prog.subprog_cnt);
	if (ret)
		return ret;
	prog.subprog_start = starts;
	ret = hwxdp_translate_for_device_opts(&obj, &prog, &topts, &img, why, sizeof(why));
	if (ret == -EACCES && res) {
		if (verbose && res->log)
			pr_info("%s", res->log);
		log_reason(res->log, why, sizeof(why));
		where(res->error_insn, at, sizeof(at));
		hwxdp_say(err, errlen, 0, "the verifier refuses it at %s: %s", at, why);
		goto out;
	}
	if (ret == -HWXDP_ERR_TRANSLATE) {
		hwxdp_say(err, errlen, 0,
			  "it %s (the wrapped program: %d insns before the raw ones)", why,
			  HX_CONFORMANCE_PROLOGUE);
		goto out;
	}
	if (ret) {
		hwxdp_say(err, errlen, 0, "%s", why);
		goto out;
	}
	ret = hwxdp_engine__check(img, NULL, why, sizeof(why));
	if (ret) {
		hwxdp_say(err, errlen, 0, "the engine refuses the microcode: %s",
			  ret == -HWXDP_ERR_IMAGE ? why : hwxdp_strerror(ret));
		goto out;
	}
	ret = -ENOMEM;
	tables = hwxdp_tables__new();
	window = calloc(1, HXU_WINDOW_SIZE);
	result = calloc(1, sizeof(*result));
	if (!tables || !window || !result)
		goto out;
	hwxdp_tables__set_seed(tables, 0x6877786470ull);
	ret = hwxdp_tables__create_all(tables, img);
	if (!ret)
		ret = hwxdp_device_tables__fill(tables, &map, 1);
	if (ret || !hwxdp_tables__get(tables, 0)) {
		ret = ret ? ret : -ENOENT;
		hwxdp_say(err, errlen, 0, "the device cannot hold the result map: %s",
			  hwxdp_error_message(ret));
		goto out;
	}
	engine = hwxdp_engine__new(img, tables);
	if (!engine) {
		ret = -errno;
		hwxdp_say(err, errlen, 0, "the engine refuses the microcode: %s",
			  hwxdp_error_message(ret));
		goto out;
	}
	hwxdp_engine__set_rand_seed(engine, 1);
	ret = hx_device_run_frame(engine, window, 1, frame, frame_len, result, &f, NULL);
	if (ret) {
		if (ret == -EINVAL || ret == -EMSGSIZE)
			hwxdp_say(err, errlen, 0, "the device cannot run the frame: %s",
				  hwxdp_strerror(ret));
		else
			hwxdp_say(err, errlen, 0, "the engine aborted the program at op %u: %s",
				  f.fault_op, engine_error(ret));
		goto out;
	}
	ret = verdict(result->action, err, errlen);
	if (ret)
		goto out;
	ret = hwxdp_table__lookup(hwxdp_tables__get(tables, 0), &zero, r0);
	if (ret)
		hwxdp_say(err, errlen, 0, "the result cannot be read: %s", hwxdp_strerror(ret));
out:
	hwxdp_engine__free(engine);
	hwxdp_tables__free(tables);
	hxu_image__free(img);
	hwxdp_verify_result__free(res);
	free(result);
	free(window);
	free(starts);
	return ret;
}

/* Why the kernel refuses a program: load it again with a log. */
static void kernel_reason(const struct bpf_insn *insns, size_t cnt, bool verbose, char *why,
			  size_t whylen)
{
	char *log = calloc(1, KERNEL_LOG_SIZE);
	int fd;

	snprintf(why, whylen, "%s", hwxdp_strerror(-errno));
	if (!log)
		return;
	{
		LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = KERNEL_LOG_SIZE,
			    .log_level = 1);

		fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "conformance", "GPL", insns, cnt, &opts);
	}
	if (fd >= 0) {
		close(fd);
	} else if (*log) {
		if (verbose)
			pr_info("%s", log);
		log_reason(log, why, whylen);
	}
	free(log);
}

static int run_kernel(struct bpf_insn *insns, size_t cnt, const uint8_t *frame, size_t frame_len,
		      bool verbose, uint64_t *r0, char *err, size_t errlen)
{
	const struct hwxdp_map_desc *m = &hx_conformance_map;
	struct hx_result *result = NULL;
	int map_fd, prog_fd = -1, ret;
	uint32_t zero = 0;
	char why[512];

	map_fd = bpf_map_create(m->type, "conformance", m->key_size, m->value_size, m->max_entries,
				NULL);
	if (map_fd < 0) {
		ret = -errno;
		hwxdp_say(err, errlen, 0, "the kernel cannot create the result map: %s",
			  hwxdp_strerror(ret));
		return ret;
	}
	/* the wrapper's map reference, by file descriptor as the kernel takes it */
	for (size_t i = 0; i + 1 < cnt; i++) {
		if (insns[i].code != (BPF_LD | BPF_DW | BPF_IMM))
			continue;
		if (insns[i].src_reg == BPF_PSEUDO_MAP_VALUE && !insns[i].imm)
			insns[i].imm = map_fd;
		i++;
	}
	prog_fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "conformance", "GPL", insns, cnt, NULL);
	if (prog_fd < 0) {
		ret = -errno;
		kernel_reason(insns, cnt, verbose, why, sizeof(why));
		hwxdp_say(err, errlen, 0, "the kernel refuses it: %s", why);
		if (ret != -EPERM)
			ret = -EACCES;
		goto out;
	}
	ret = -ENOMEM;
	result = calloc(1, sizeof(*result));
	if (!result)
		goto out;
	ret = hx_kernel_run_frame(prog_fd, 1, frame, frame_len, result);
	if (ret) {
		hwxdp_say(err, errlen, 0, "the kernel cannot run it: %s", hwxdp_strerror(ret));
		goto out;
	}
	ret = verdict(result->action, err, errlen);
	if (ret)
		goto out;
	if (bpf_map_lookup_elem(map_fd, &zero, r0)) {
		ret = -errno;
		hwxdp_say(err, errlen, 0, "the result cannot be read: %s", hwxdp_strerror(ret));
	}
out:
	free(result);
	if (prog_fd >= 0)
		close(prog_fd);
	close(map_fd);
	return ret;
}

int hx_conformance_run(const struct bpf_insn *raw, size_t cnt, const uint8_t *mem, size_t mem_len,
		       const struct hx_conformance_opts *opts, uint64_t *r0, char *err,
		       size_t errlen)
{
	bool kernel = opts && opts->target == HX_CONFORMANCE_KERNEL;
	bool verbose = opts && opts->verbose;
	struct bpf_insn *prog = NULL;
	uint8_t *frame = NULL;
	size_t prog_cnt, frame_len;
	int ret;

	if (!cnt) {
		hwxdp_say(err, errlen, 0, "empty program");
		return -EINVAL;
	}
	if (mem_len > HX_CONFORMANCE_MEM_MAX) {
		hwxdp_say(err, errlen, 0, "%zu bytes of memory: at most %u", mem_len,
			  HX_CONFORMANCE_MEM_MAX);
		return -EINVAL;
	}
	ret = hx_conformance_wrap(raw, cnt, mem_len, &prog, &prog_cnt);
	if (ret)
		return ret;
	frame = make_frame(mem, mem_len, &frame_len);
	if (!frame) {
		free(prog);
		return -ENOMEM;
	}
	*r0 = 0;
	if (kernel)
		ret = run_kernel(prog, prog_cnt, frame, frame_len, verbose, r0, err, errlen);
	else
		ret = run_device(prog, prog_cnt, frame, frame_len, verbose, r0, err, errlen);
	free(frame);
	free(prog);
	return ret;
}
