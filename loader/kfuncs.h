/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kfuncs hwxdp knows, by name and id: the coprocessor's own, and the
 * kernel's XDP metadata kfuncs (net/core/xdp.c), which the kernel lets only
 * a device-bound program call. Ids are hwxdp's, not the kernel's BTF ids:
 * an instruction stream means the same on every kernel.
 */
#ifndef HWXDP_LOADER_KFUNCS_H
#define HWXDP_LOADER_KFUNCS_H

#include <stdbool.h>
#include <stdint.h>

#include "loader/object.h"

enum {
	HWXDP_KFUNC_ESP_ENCAP = 1,
	HWXDP_KFUNC_XDP_RX_TIMESTAMP = 2, /* bpf_xdp_metadata_rx_timestamp(ctx, u64 *) */
	HWXDP_KFUNC_XDP_RX_HASH = 3,	  /* bpf_xdp_metadata_rx_hash(ctx, u32 *, u32 *) */
	HWXDP_KFUNC_XDP_RX_VLAN_TAG = 4,  /* bpf_xdp_metadata_rx_vlan_tag(ctx, be16 *, u16 *) */
	/* the kernel's dynptr kfuncs an XDP program may call */
	HWXDP_KFUNC_DYNPTR_FROM_XDP = 5,   /* bpf_dynptr_from_xdp(ctx, flags, dynptr) */
	HWXDP_KFUNC_DYNPTR_SLICE = 6,	   /* bpf_dynptr_slice(dynptr, off, buf, size) */
	HWXDP_KFUNC_DYNPTR_SLICE_RDWR = 7, /* bpf_dynptr_slice_rdwr(the same) */
	/* the numeric open-coded iterator (bpf_for, bpf_repeat) */
	HWXDP_KFUNC_ITER_NUM_NEW = 8,	   /* bpf_iter_num_new(it, start, end) */
	HWXDP_KFUNC_ITER_NUM_NEXT = 9,	   /* bpf_iter_num_next(it) */
	HWXDP_KFUNC_ITER_NUM_DESTROY = 10, /* bpf_iter_num_destroy(it) */
	/* netfilter's conntrack kfuncs for XDP (nf_conntrack_bpf.c, nf_nat_bpf.c) */
	HWXDP_KFUNC_CT_LOOKUP = 11,	    /* bpf_xdp_ct_lookup(ctx, tuple, sz, opts, sz) */
	HWXDP_KFUNC_CT_ALLOC = 12,	    /* bpf_xdp_ct_alloc(the same) */
	HWXDP_KFUNC_CT_INSERT_ENTRY = 13,   /* bpf_ct_insert_entry(nf_conn___init) */
	HWXDP_KFUNC_CT_RELEASE = 14,	    /* bpf_ct_release(nf_conn) */
	HWXDP_KFUNC_CT_SET_TIMEOUT = 15,    /* bpf_ct_set_timeout(nf_conn___init, ms) */
	HWXDP_KFUNC_CT_CHANGE_TIMEOUT = 16, /* bpf_ct_change_timeout(nf_conn, ms) */
	HWXDP_KFUNC_CT_SET_STATUS = 17,	    /* bpf_ct_set_status(nf_conn___init, status) */
	HWXDP_KFUNC_CT_CHANGE_STATUS = 18,  /* bpf_ct_change_status(nf_conn, status) */
	HWXDP_KFUNC_CT_SET_NAT_INFO = 19,   /* bpf_ct_set_nat_info(nf_conn___init, addr, port,
					       manip) */
};

/*
 * What a metadata kfunc gives where the netdev has no metadata to give (the
 * kernel's own functions, on a TAP: measured, native XDP, 6.18) and so on the
 * coprocessor: R0 the int -EOPNOTSUPP as x86-64 returns it, zero-extended
 * (0x00000000ffffffa1), and nothing written behind its pointers.
 */
#define HWXDP_KFUNC_XDP_METADATA_RESULT ((uint64_t)(uint32_t)-95)

static inline bool hwxdp_kfunc__is_xdp_metadata(int32_t id)
{
	return id >= HWXDP_KFUNC_XDP_RX_TIMESTAMP && id <= HWXDP_KFUNC_XDP_RX_VLAN_TAG;
}

/*
 * The kernel's kfuncs the translator lowers to plain operations on the
 * stack and the frame (open-coded iterators, the frame's dynptr and its
 * read-only slices): no unit of the device runs them.
 */
static inline bool hwxdp_kfunc__is_lowered(int32_t id)
{
	return id == HWXDP_KFUNC_DYNPTR_FROM_XDP || id == HWXDP_KFUNC_DYNPTR_SLICE ||
	       (id >= HWXDP_KFUNC_ITER_NUM_NEW && id <= HWXDP_KFUNC_ITER_NUM_DESTROY);
}

/* Ended by a NULL name: the device's (its own and the metadata kfuncs) and
 * the kernel's as hwxdp knows them (the metadata kfuncs). */
extern const struct hwxdp_kfunc hwxdp_device_kfuncs[];
extern const struct hwxdp_kfunc hwxdp_kernel_kfuncs[];

/* Whether the running kernel's BTF (/sys/kernel/btf/vmlinux) has a
 * function or variable called name: one libbpf would resolve for the
 * kernel's copy, weak or not. */
bool hwxdp_kfunc__in_kernel(const char *name);

/* The running kernel's BTF, read once and kept for the process's life;
 * NULL where the kernel has none. */
const struct btf *hwxdp_vmlinux_btf(void);

/* The entry of table called name, or NULL. */
const struct hwxdp_kfunc *hwxdp_kfunc__find(const struct hwxdp_kfunc *table, const char *name);
/* The name of the kfunc hwxdp numbers id (the device's table), or NULL. */
const char *hwxdp_kfunc__name(int32_t id);

#endif /* HWXDP_LOADER_KFUNCS_H */
