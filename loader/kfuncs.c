// SPDX-License-Identifier: GPL-2.0
#include <pthread.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "loader/kfuncs.h"

/*
 * The kernel's kfuncs (its BTF, /sys/kernel/btf/vmlinux, resolves them) that
 * hwxdp knows, by name: the device's table names them too, with the same
 * ids, so that the device verifier can say why it runs or refuses each.
 */
/* clang-format off */
#define KERNEL_KFUNCS \
	{ "bpf_xdp_metadata_rx_timestamp", HWXDP_KFUNC_XDP_RX_TIMESTAMP }, \
	{ "bpf_xdp_metadata_rx_hash", HWXDP_KFUNC_XDP_RX_HASH },          \
	{ "bpf_xdp_metadata_rx_vlan_tag", HWXDP_KFUNC_XDP_RX_VLAN_TAG },  \
	{ "bpf_dynptr_from_xdp", HWXDP_KFUNC_DYNPTR_FROM_XDP },           \
	{ "bpf_dynptr_slice", HWXDP_KFUNC_DYNPTR_SLICE },                 \
	{ "bpf_dynptr_slice_rdwr", HWXDP_KFUNC_DYNPTR_SLICE_RDWR },       \
	{ "bpf_iter_num_new", HWXDP_KFUNC_ITER_NUM_NEW },                 \
	{ "bpf_iter_num_next", HWXDP_KFUNC_ITER_NUM_NEXT },               \
	{ "bpf_iter_num_destroy", HWXDP_KFUNC_ITER_NUM_DESTROY },         \
	{ "bpf_xdp_ct_lookup", HWXDP_KFUNC_CT_LOOKUP },                   \
	{ "bpf_xdp_ct_alloc", HWXDP_KFUNC_CT_ALLOC },                     \
	{ "bpf_ct_insert_entry", HWXDP_KFUNC_CT_INSERT_ENTRY },           \
	{ "bpf_ct_release", HWXDP_KFUNC_CT_RELEASE },                     \
	{ "bpf_ct_set_timeout", HWXDP_KFUNC_CT_SET_TIMEOUT },             \
	{ "bpf_ct_change_timeout", HWXDP_KFUNC_CT_CHANGE_TIMEOUT },       \
	{ "bpf_ct_set_status", HWXDP_KFUNC_CT_SET_STATUS },               \
	{ "bpf_ct_change_status", HWXDP_KFUNC_CT_CHANGE_STATUS },         \
	{ "bpf_ct_set_nat_info", HWXDP_KFUNC_CT_SET_NAT_INFO },
/* clang-format on */

/* clang-format off */
const struct hwxdp_kfunc hwxdp_device_kfuncs[] = {
	{ "bpf_hwxdp_esp_encap", HWXDP_KFUNC_ESP_ENCAP },
	KERNEL_KFUNCS
	{ NULL, 0 },
};

const struct hwxdp_kfunc hwxdp_kernel_kfuncs[] = {
	KERNEL_KFUNCS
	{ NULL, 0 },
};
/* clang-format on */

const struct hwxdp_kfunc *hwxdp_kfunc__find(const struct hwxdp_kfunc *table, const char *name)
{
	for (; table && table->name; table++)
		if (!strcmp(table->name, name))
			return table;
	return NULL;
}

const char *hwxdp_kfunc__name(int32_t id)
{
	for (const struct hwxdp_kfunc *k = hwxdp_device_kfuncs; k->name; k++)
		if (k->id == id)
			return k->name;
	return NULL;
}

static struct btf *vmlinux;

static void load_vmlinux(void)
{
	vmlinux = btf__load_vmlinux_btf();
	if (libbpf_get_error(vmlinux))
		vmlinux = NULL;
}

const struct btf *hwxdp_vmlinux_btf(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	/* read once, kept for the process's life */
	pthread_once(&once, load_vmlinux);
	return vmlinux;
}

bool hwxdp_kfunc__in_kernel(const char *name)
{
	const struct btf *btf = hwxdp_vmlinux_btf();

	return btf && (btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) > 0 ||
		       btf__find_by_name_kind(btf, name, BTF_KIND_VAR) > 0);
}
