// SPDX-License-Identifier: GPL-2.0
/* legacy_nobtf.bpf.c with BTF-defined maps: what libbpf 1.x loads of it. */
#define LEGACY_TWIN
#include "legacy_hash.bpf.c"
