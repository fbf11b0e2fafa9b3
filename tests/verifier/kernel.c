// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <net/if.h>
#include <sched.h>
#include <linux/capability.h>
#include <sys/syscall.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "loader/kfuncs.h"
#include "tests/verifier/kernel.h"

#ifndef BPF_F_XDP_DEV_BOUND_ONLY
#define BPF_F_XDP_DEV_BOUND_ONLY (1U << 6)
#endif

static const uint8_t rodata_bytes[16] = { 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0 };

const struct hwxdp_map_desc test_maps[MAP_CNT] = {
	[MAP_HASH] = { .name = "hash",
		       .type = BPF_MAP_TYPE_HASH,
		       .key_size = 8,
		       .value_size = 16,
		       .max_entries = 16 },
	[MAP_ARRAY] = { .name = "array",
			.type = BPF_MAP_TYPE_ARRAY,
			.key_size = 4,
			.value_size = 48,
			.max_entries = 4 },
	[MAP_PROGS] = { .name = "progs",
			.type = BPF_MAP_TYPE_PROG_ARRAY,
			.key_size = 4,
			.value_size = 4,
			.max_entries = 4 },
	[MAP_RODATA] = { .name = "rodata",
			 .origin = HWXDP_MAP_GLOBAL,
			 .type = BPF_MAP_TYPE_ARRAY,
			 .key_size = 4,
			 .value_size = 16,
			 .max_entries = 1,
			 .map_flags = BPF_F_RDONLY_PROG,
			 .initial = rodata_bytes,
			 .initial_size = 16,
			 .read_only = true },
	[MAP_TX] = { .name = "tx",
		     .type = BPF_MAP_TYPE_DEVMAP_HASH,
		     .key_size = 4,
		     .value_size = 4,
		     .max_entries = 8 },
	[MAP_BSS] = { .name = "bss",
		      .origin = HWXDP_MAP_GLOBAL,
		      .type = BPF_MAP_TYPE_ARRAY,
		      .key_size = 4,
		      .value_size = 16,
		      .max_entries = 1 },
	[MAP_HASH_LARGE_KEY] = { .name = "hash16",
				 .type = BPF_MAP_TYPE_HASH,
				 .key_size = 16,
				 .value_size = 8,
				 .max_entries = 16 },
	[MAP_RINGBUF] = { .name = "ringbuf", .type = BPF_MAP_TYPE_RINGBUF, .max_entries = 4096 },
	[MAP_QUEUE] = { .name = "queue",
			.type = BPF_MAP_TYPE_QUEUE,
			.value_size = 8,
			.max_entries = 4 },
	[MAP_LOCKED] = { .name = "locked",
			 .type = BPF_MAP_TYPE_HASH,
			 .key_size = 4,
			 .value_size = 16,
			 .max_entries = 4,
			 .btf_key_type_id = 1,
			 .btf_value_type_id = 3 },
	[MAP_TIMED] = { .name = "timed",
			.type = BPF_MAP_TYPE_HASH,
			.key_size = 4,
			.value_size = 24,
			.max_entries = 4,
			.btf_key_type_id = 1,
			.btf_value_type_id = 5 },
	[MAP_TIMED_ARRAY] = { .name = "timed_array",
			      .type = BPF_MAP_TYPE_ARRAY,
			      .key_size = 4,
			      .value_size = 24,
			      .max_entries = 2,
			      .btf_key_type_id = 1,
			      .btf_value_type_id = 5 },
	[MAP_BLOOM] = { .name = "bloom",
			.type = BPF_MAP_TYPE_BLOOM_FILTER,
			.value_size = 8,
			.max_entries = 4 },
};

static int map_fds[MAP_CNT];

const struct btf *test_btf(void)
{
	static struct btf *btf;
	int lock, locked, timer, timed;

	if (btf)
		return btf;
	btf = btf__new_empty();
	if (!btf)
		return NULL;
	if (btf__add_int(btf, "int", 4, BTF_INT_SIGNED) != 1)
		goto fail;
	lock = btf__add_struct(btf, "bpf_spin_lock", 4);
	if (lock != 2 || btf__add_field(btf, "val", 1, 0, 0))
		goto fail;
	locked = btf__add_struct(btf, "locked", 16);
	if (locked != 3 || btf__add_field(btf, "a", 1, 0, 0) ||
	    btf__add_field(btf, "lock", lock, LOCKED_LOCK_OFF * 8, 0) ||
	    btf__add_field(btf, "b", 1, 64, 0))
		goto fail;
	timer = btf__add_struct(btf, "bpf_timer", 16);
	if (timer != 4 || btf__add_field(btf, "lo", 1, 0, 0) || btf__add_field(btf, "hi", 1, 64, 0))
		goto fail;
	timed = btf__add_struct(btf, "timed", 24);
	if (timed != 5 || btf__add_field(btf, "a", 1, 0, 0) ||
	    btf__add_field(btf, "timer", timer, TIMED_TIMER_OFF * 8, 0))
		goto fail;
	return btf;
fail:
	btf__free(btf);
	btf = NULL;
	return NULL;
}
static bool maps_ready;

bool kernel_available(void)
{
	return geteuid() == 0;
}

static int create_maps(void)
{
	int i, zero = 0;

	if (maps_ready)
		return 0;
	for (i = 0; i < MAP_CNT; i++) {
		const struct hwxdp_map_desc *m = &test_maps[i];
		LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = m->map_flags);

		if (m->btf_value_type_id) {
			struct btf *btf = (struct btf *)test_btf();

			if (!btf || (btf__fd(btf) < 0 && btf__load_into_kernel(btf)))
				return -EINVAL;
			opts.btf_fd = btf__fd(btf);
			opts.btf_key_type_id = m->btf_key_type_id;
			opts.btf_value_type_id = m->btf_value_type_id;
		}

		map_fds[i] = bpf_map_create(m->type, m->name, m->key_size, m->value_size,
					    m->max_entries, &opts);
		if (map_fds[i] < 0)
			return -errno;
		if (m->initial) {
			if (bpf_map_update_elem(map_fds[i], &zero, m->initial, 0) ||
			    bpf_map_freeze(map_fds[i]))
				return -errno;
		}
	}
	maps_ready = true;
	return 0;
}

/* CAP_PERFMON and CAP_SYS_ADMIN in or out of the effective set: both stay
 * permitted, so they come back. */
static int set_perfmon(bool on)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	if (on) {
		data[CAP_PERFMON / 32].effective |= 1u << (CAP_PERFMON % 32);
		data[CAP_SYS_ADMIN / 32].effective |= 1u << (CAP_SYS_ADMIN % 32);
	} else {
		data[CAP_PERFMON / 32].effective &= ~(1u << (CAP_PERFMON % 32));
		data[CAP_SYS_ADMIN / 32].effective &= ~(1u << (CAP_SYS_ADMIN % 32));
	}
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

#define MAX_FUNCS 8

/*
 * The kernel takes a callback (ld_imm64 of a function) only from a program
 * whose BTF func_info names each function, the callback static: BTF of one
 * prototype, int (void), and a static function at each start (0, each
 * call's and each callback's target). NULL when insns has no callback.
 */
static struct btf *callback_btf(const struct bpf_insn *insns, size_t cnt,
				struct bpf_func_info *info, uint32_t *info_cnt)
{
	uint32_t start[MAX_FUNCS] = { 0 }, n = 1, i, j;
	bool callback = false;
	struct btf *btf;
	int proto;

	for (i = 0; i < cnt; i++) {
		bool call = insns[i].code == (BPF_JMP | BPF_CALL) &&
			    insns[i].src_reg == BPF_PSEUDO_CALL;
		bool func = insns[i].code == (BPF_LD | BPF_IMM | BPF_DW) &&
			    insns[i].src_reg == BPF_PSEUDO_FUNC;
		uint32_t target = i + insns[i].imm + 1;

		callback |= func;
		if ((!call && !func) || target >= cnt)
			continue;
		for (j = 0; j < n && start[j] != target; j++)
			;
		if (j == n && n < MAX_FUNCS)
			start[n++] = target;
	}
	if (!callback)
		return NULL;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && start[j - 1] > start[j]; j--) {
			uint32_t t = start[j];

			start[j] = start[j - 1];
			start[j - 1] = t;
		}
	btf = btf__new_empty();
	if (!btf)
		return NULL;
	proto = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	proto = proto < 0 ? proto : btf__add_func_proto(btf, proto);
	for (i = 0; i < n && proto > 0; i++) {
		char name[16];
		int id;

		snprintf(name, sizeof(name), "f%u", i);
		id = btf__add_func(btf, name, BTF_FUNC_STATIC, proto);
		if (id < 0)
			proto = id;
		info[i] = (struct bpf_func_info){ .insn_off = start[i], .type_id = (uint32_t)id };
	}
	if (proto < 0 || btf__load_into_kernel(btf)) {
		btf__free(btf);
		return NULL;
	}
	*info_cnt = n;
	return btf;
}

/* The running kernel's BTF id of kfunc id (hwxdp_kernel_kfuncs), or id. */
static int32_t kernel_kfunc_id(int32_t id)
{
	static struct btf *vmlinux;
	const struct hwxdp_kfunc *k;
	int32_t found;

	for (k = hwxdp_kernel_kfuncs; k->name && k->id != id; k++)
		;
	if (!k->name)
		return id;
	if (!vmlinux)
		vmlinux = btf__load_vmlinux_btf();
	found = vmlinux ? btf__find_by_name_kind(vmlinux, k->name, BTF_KIND_FUNC) : -1;
	return found > 0 ? found : id;
}

/*
 * A device for KERNEL_BOUND: a veth in a network namespace this process
 * makes for itself (gone with it), 0 when none can be made.
 */
static unsigned int bound_ifindex(void)
{
	static unsigned int ifindex;

	if (ifindex)
		return ifindex;
	if (unshare(CLONE_NEWNET))
		return 0;
	if (system("ip link add hxkf0 type veth peer name hxkf1 >/dev/null 2>&1"))
		return 0;
	ifindex = if_nametoindex("hxkf0");
	return ifindex;
}

int kernel_load(const struct bpf_insn *insns, size_t cnt, enum kernel_mode mode,
		uint32_t attach_type, bool raw_maps, char *log, size_t log_size)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = log_size, .log_level = 1,
		    .expected_attach_type = attach_type);
	struct bpf_func_info info[MAX_FUNCS];
	uint32_t info_cnt = 0;
	struct bpf_insn *copy;
	struct btf *btf;
	size_t i;
	int fd, err;

	err = create_maps();
	if (err)
		return err;
	copy = malloc(cnt * sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, insns, cnt * sizeof(*copy));
	for (i = 0; i + 1 < cnt && !raw_maps; i++) {
		if (copy[i].code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if ((copy[i].src_reg == BPF_PSEUDO_MAP_FD ||
		     copy[i].src_reg == BPF_PSEUDO_MAP_VALUE) &&
		    copy[i].imm >= 0 && copy[i].imm < MAP_CNT)
			copy[i].imm = map_fds[copy[i].imm];
		i++;
	}
	for (i = 0; i < cnt; i++)
		if (copy[i].code == (BPF_JMP | BPF_CALL) &&
		    copy[i].src_reg == BPF_PSEUDO_KFUNC_CALL && !copy[i].off)
			copy[i].imm = kernel_kfunc_id(copy[i].imm);
	if (mode == KERNEL_BOUND) {
		opts.prog_ifindex = bound_ifindex();
		opts.prog_flags = BPF_F_XDP_DEV_BOUND_ONLY;
		if (!opts.prog_ifindex) {
			free(copy);
			snprintf(log, log_size, "no veth to bind the program to\n");
			return -ENODEV;
		}
	}
	log[0] = '\0';
	btf = callback_btf(insns, cnt, info, &info_cnt);
	if (btf) {
		opts.prog_btf_fd = btf__fd(btf);
		opts.func_info = info;
		opts.func_info_cnt = info_cnt;
		opts.func_info_rec_size = sizeof(info[0]);
	}
	if (mode == KERNEL_STRICT && (err = set_perfmon(false))) {
		btf__free(btf);
		free(copy);
		return err;
	}
	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "hwxdp_test", "GPL", copy, cnt, &opts);
	err = fd < 0 ? -errno : 0;
	if (mode == KERNEL_STRICT)
		set_perfmon(true);
	btf__free(btf);
	free(copy);
	return fd < 0 ? err : fd;
}
