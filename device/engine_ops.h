/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the engine's two ways of running microcode share: the interpreter
 * (device/engine.c) and compiled mode (device/compile.c), so that an
 * operation means the same on both by having one definition.
 *
 * HXO_INLINE_OPS holds the helpers that compiled code runs inline. It is a
 * macro so that compile.c can also paste its text into the C source it
 * generates, which cannot include this header: the generated file is
 * compiled outside the source tree. Those helpers use only <stdint.h>,
 * compiler builtins and the HXU_ATOMIC_* values (the generated source
 * defines them from hwmap/hxu.h). The rest are the units' and the frame's
 * rules, which compiled code reaches through callbacks into compile.c.
 */
#ifndef HWXDP_DEVICE_ENGINE_OPS_H
#define HWXDP_DEVICE_ENGINE_OPS_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <linux/bpf.h>

#include "device/engine.h"
#include "device/esp.h"
#include "device/tables.h"
#include "hwmap/hxu.h"

/* clang-format off */
/*
 * Unaligned loads and stores in host byte order; signed division and modulo
 * by BPF's rules (by zero: 0 and the dividend; the most negative value by
 * -1: itself and 0); the atomics, where aux is the operation in bits 3..0,
 * 0x10 fetch and 0x20 64 bits, and the return says whether rd received the
 * old value; space_ptr, a pointer for n bytes at address a of a space or
 * NULL when they are outside it; tupdate_fault, the error of a tupdate whose
 * key or value is outside its space (local memory's wins).
 */
#define HXO_INLINE_OPS                                                                             \
static inline uint16_t ld16(const uint8_t *p)                                                      \
{                                                                                                  \
	uint16_t v;                                                                                \
	__builtin_memcpy(&v, p, sizeof(v));                                                        \
	return v;                                                                                  \
}                                                                                                  \
static inline uint32_t ld32(const uint8_t *p)                                                      \
{                                                                                                  \
	uint32_t v;                                                                                \
	__builtin_memcpy(&v, p, sizeof(v));                                                        \
	return v;                                                                                  \
}                                                                                                  \
static inline uint64_t ld64(const uint8_t *p)                                                      \
{                                                                                                  \
	uint64_t v;                                                                                \
	__builtin_memcpy(&v, p, sizeof(v));                                                        \
	return v;                                                                                  \
}                                                                                                  \
static inline void st16(uint8_t *p, uint16_t v)                                                    \
{                                                                                                  \
	__builtin_memcpy(p, &v, sizeof(v));                                                        \
}                                                                                                  \
static inline void st32(uint8_t *p, uint32_t v)                                                    \
{                                                                                                  \
	__builtin_memcpy(p, &v, sizeof(v));                                                        \
}                                                                                                  \
static inline void st64(uint8_t *p, uint64_t v)                                                    \
{                                                                                                  \
	__builtin_memcpy(p, &v, sizeof(v));                                                        \
}                                                                                                  \
static inline uint64_t sdiv64(uint64_t a, uint64_t b)                                              \
{                                                                                                  \
	if (!b)                                                                                    \
		return 0;                                                                          \
	if ((int64_t)b == -1)                                                                      \
		return 0 - a;                                                                      \
	return (uint64_t)((int64_t)a / (int64_t)b);                                                \
}                                                                                                  \
static inline uint64_t smod64(uint64_t a, uint64_t b)                                              \
{                                                                                                  \
	if (!b)                                                                                    \
		return a;                                                                          \
	if ((int64_t)b == -1)                                                                      \
		return 0;                                                                          \
	return (uint64_t)((int64_t)a % (int64_t)b);                                                \
}                                                                                                  \
static inline uint32_t sdiv32(uint32_t a, uint32_t b)                                              \
{                                                                                                  \
	if (!b)                                                                                    \
		return 0;                                                                          \
	if ((int32_t)b == -1)                                                                      \
		return 0 - a;                                                                      \
	return (uint32_t)((int32_t)a / (int32_t)b);                                                \
}                                                                                                  \
static inline uint32_t smod32(uint32_t a, uint32_t b)                                              \
{                                                                                                  \
	if (!b)                                                                                    \
		return a;                                                                          \
	if ((int32_t)b == -1)                                                                      \
		return 0;                                                                          \
	return (uint32_t)((int32_t)a % (int32_t)b);                                                \
}                                                                                                  \
static inline __attribute__((always_inline)) _Bool do_atomic(uint8_t *p, unsigned int aux,         \
								uint64_t src, uint64_t *rd)        \
{                                                                                                  \
	unsigned int aop = aux & 15;                                                               \
	uint64_t old;                                                                              \
                                                                                                   \
	if (aux & 0x20) {                                                                          \
		uint64_t *m = (uint64_t *)p, cmp = *rd;                                            \
                                                                                                   \
		switch (aop) {                                                                     \
		case HXU_ATOMIC_ADD:                                                               \
			old = __atomic_fetch_add(m, src, __ATOMIC_SEQ_CST);                        \
			break;                                                                     \
		case HXU_ATOMIC_AND:                                                               \
			old = __atomic_fetch_and(m, src, __ATOMIC_SEQ_CST);                        \
			break;                                                                     \
		case HXU_ATOMIC_OR:                                                                \
			old = __atomic_fetch_or(m, src, __ATOMIC_SEQ_CST);                         \
			break;                                                                     \
		case HXU_ATOMIC_XOR:                                                               \
			old = __atomic_fetch_xor(m, src, __ATOMIC_SEQ_CST);                        \
			break;                                                                     \
		case HXU_ATOMIC_XCHG:                                                              \
			old = __atomic_exchange_n(m, src, __ATOMIC_SEQ_CST);                       \
			break;                                                                     \
		default:                                                                           \
			__atomic_compare_exchange_n(m, &cmp, src, 0, __ATOMIC_SEQ_CST,             \
						    __ATOMIC_SEQ_CST);                             \
			old = cmp;                                                                 \
		}                                                                                  \
	} else {                                                                                   \
		uint32_t *m = (uint32_t *)p, s = (uint32_t)src, cmp = (uint32_t)*rd;               \
                                                                                                   \
		switch (aop) {                                                                     \
		case HXU_ATOMIC_ADD:                                                               \
			old = __atomic_fetch_add(m, s, __ATOMIC_SEQ_CST);                          \
			break;                                                                     \
		case HXU_ATOMIC_AND:                                                               \
			old = __atomic_fetch_and(m, s, __ATOMIC_SEQ_CST);                          \
			break;                                                                     \
		case HXU_ATOMIC_OR:                                                                \
			old = __atomic_fetch_or(m, s, __ATOMIC_SEQ_CST);                           \
			break;                                                                     \
		case HXU_ATOMIC_XOR:                                                               \
			old = __atomic_fetch_xor(m, s, __ATOMIC_SEQ_CST);                          \
			break;                                                                     \
		case HXU_ATOMIC_XCHG:                                                              \
			old = __atomic_exchange_n(m, s, __ATOMIC_SEQ_CST);                         \
			break;                                                                     \
		default:                                                                           \
			__atomic_compare_exchange_n(m, &cmp, s, 0, __ATOMIC_SEQ_CST,               \
						    __ATOMIC_SEQ_CST);                             \
			old = cmp;                                                                 \
		}                                                                                  \
	}                                                                                          \
	if (!(aux & 0x10))                                                                         \
		return 0;                                                                          \
	*rd = old;                                                                                 \
	return 1;                                                                                  \
}                                                                                                  \
static inline uint8_t *space_ptr(unsigned int space, uint64_t a, uint32_t n, uint8_t *win,         \
				 uint8_t *lm)                                                      \
{                                                                                                  \
	switch (space) {                                                                           \
	case HXU_SPACE_PKT:                                                                        \
		return n <= HXU_WINDOW_SIZE && a <= (uint64_t)HXU_WINDOW_SIZE - n ? win + a         \
									 : (uint8_t *)0;   \
	case HXU_SPACE_LM:                                                                         \
		return n <= HXU_LM_SIZE && a <= (uint64_t)HXU_LM_SIZE - n ? lm + a : (uint8_t *)0; \
	default:                                                                                   \
		return HWXDP_TM_OK(a) ? (uint8_t *)(uintptr_t)a : (uint8_t *)0;                      \
	}                                                                                          \
}                                                                                                  \
static inline int tupdate_fault(unsigned int key_space, const uint8_t *key,                        \
				unsigned int value_space, const uint8_t *value)                    \
{                                                                                                  \
	if ((key_space == HXU_SPACE_LM && !key) || (value_space == HXU_SPACE_LM && !value))        \
		return HWXDP_ERR_LM_ACCESS;                                                        \
	if ((key_space == HXU_SPACE_TM && !key) || (value_space == HXU_SPACE_TM && !value))        \
		return HWXDP_ERR_TM_ACCESS;                                                        \
	return HWXDP_ERR_PKT_ACCESS;                                                               \
}
/* clang-format on */

HXO_INLINE_OPS

static inline uint64_t csum_fold64(uint64_t x)
{
	x = (x & 0xffffffffu) + (x >> 32);
	x = (x & 0xffffffffu) + (x >> 32);
	x = (x & 0xffffu) + (x >> 16);
	x = (x & 0xffffu) + (x >> 16);
	return (x & 0xffffu) + (x >> 16);
}

/* A store immediate's value as st.be writes it: its low size bytes swapped. */
static inline uint64_t swap_for_store(uint64_t v, uint32_t size)
{
	switch (size) {
	case 2:
		return __builtin_bswap16((uint16_t)v);
	case 4:
		return __builtin_bswap32((uint32_t)v);
	case 8:
		return __builtin_bswap64(v);
	}
	return v;
}

/* csum16: the 16-bit field at p plus v folded to 16 bits, one's-complement,
 * and never -0 (0xffff), as RFC 1624's equation 3 gives. */
static inline void csum16_apply(uint8_t *p, uint64_t v)
{
	uint64_t sum = ld16(p) + csum_fold64(v);

	sum = (sum & 0xffff) + (sum >> 16);
	st16(p, sum == 0xffff ? 0 : (uint16_t)sum);
}

/* redir: bpf_redirect_map's rules (the kernel's __bpf_xdp_redirect_map with
 * a devmap's flag mask): XDP_ABORTED, the egress as it was, for flags beyond
 * the action bits, BPF_F_BROADCAST and BPF_F_EXCLUDE_INGRESS; with
 * BPF_F_BROADCAST XDP_REDIRECT to every port of the table, whatever the key
 * and even for an empty table; else XDP_REDIRECT with *egress set when key
 * is in the port table, or flags & 3 with no egress. *prog: the program of
 * the entry found (read with its ifindex, as the kernel takes the entry at
 * the call), else HWXDP_PROG_NONE; a broadcast's entries run theirs copy by
 * copy. */
static inline uint64_t redirect(const struct hwxdp_table *t, uint32_t key, uint64_t flags,
				uint32_t *egress, uint32_t *prog)
{
	uint32_t ifindex, entry_prog = HWXDP_PROG_NONE;

	if (flags & ~(uint64_t)(3 | BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS))
		return XDP_ABORTED;
	*prog = HWXDP_PROG_NONE;
	if (flags & BPF_F_BROADCAST) {
		*egress = HWXDP_EGRESS_BCAST | (t->desc.id & HWXDP_EGRESS_BCAST_TABLE) |
			  (flags & BPF_F_EXCLUDE_INGRESS ? HWXDP_EGRESS_BCAST_EXCL : 0);
		return XDP_REDIRECT;
	}
	ifindex = hwxdp_table__port_prog(t, key, &entry_prog);
	if (ifindex) {
		*egress = ifindex;
		*prog = entry_prog;
		return XDP_REDIRECT;
	}
	*egress = HWXDP_EGRESS_NONE;
	return flags & 3;
}

/* redirif: bpf_redirect's rules. Flags other than 0 give XDP_ABORTED and
 * leave the egress as it was; else the egress is the port of that ifindex
 * (a board without it drops the frame, as the kernel does a redirect to an
 * ifindex no device has), with no entry program. */
static inline uint64_t redirect_ifindex(uint64_t ifindex, uint64_t flags, uint32_t *egress,
					uint32_t *prog)
{
	if (flags)
		return XDP_ABORTED;
	*egress = (uint32_t)ifindex;
	*prog = HWXDP_PROG_NONE;
	return XDP_REDIRECT;
}

/* One's-complement sum of n bytes at p onto sum, 32 bits with end-around
 * carry: the bytes read as little-endian 32-bit words, the last one padded
 * with zeros (the kernel's csum_partial on a little-endian host). */
static inline uint32_t csum_partial32(const uint8_t *p, uint64_t n, uint32_t sum)
{
	uint64_t acc = sum;
	uint64_t i;

	for (i = 0; i + 4 <= n; i += 4)
		acc += ld32(p + i);
	if (i < n) {
		uint32_t last = 0;

		memcpy(&last, p + i, n - i);
		acc += last;
	}
	acc = (acc & 0xffffffffu) + (acc >> 32);
	acc = (acc & 0xffffffffu) + (acc >> 32);
	return (uint32_t)acc;
}

static inline uint32_t csum_add32(uint32_t a, uint32_t b)
{
	uint32_t s = a + b;

	return s + (s < b);
}

/* csumd: bpf_csum_diff as Linux 6.18 has it. Any sizes (no multiple of 4,
 * no limit beyond the buffers'); the seed's low 32 bits; the result folded
 * to 16 bits, not complemented. */
static inline uint64_t csum_diff(const uint8_t *from, uint64_t from_size, const uint8_t *to,
				 uint64_t to_size, uint64_t seed)
{
	uint32_t ret = (uint32_t)seed;

	if (from_size && to_size)
		ret = csum_add32(csum_partial32(to, to_size, ret),
				 ~csum_partial32(from, from_size, 0));
	else if (to_size)
		ret = csum_partial32(to, to_size, ret);
	else if (from_size)
		ret = ~csum_partial32(from, from_size, ~ret);
	ret = (ret & 0xffff) + (ret >> 16);
	ret = (ret & 0xffff) + (ret >> 16);
	return ret;
}

/* csumd's buffer of n bytes at a in space: its bytes, or NULL when they
 * are not all inside it (a table memory address is proven at load, and
 * checked here only against what no table memory can be). */
static inline const uint8_t *csum_buffer(unsigned int space, uint64_t a, uint64_t n, uint8_t *win,
					 uint8_t *lm)
{
	uint64_t limit = space == HXU_SPACE_PKT ? HXU_WINDOW_SIZE : HXU_LM_SIZE;

	if (space == HXU_SPACE_TM)
		return HWXDP_TM_OK(a) ? (const uint8_t *)(uintptr_t)a : NULL;
	return n <= limit && a <= limit - n ? (space == HXU_SPACE_PKT ? win : lm) + a : NULL;
}

/* csumd with the arguments of bpf_csum_diff in a[0..4] (r1..r5) and the
 * spaces of x: 0 and *out, or the fault (-HWXDP_ERR_*). An empty buffer is
 * not read. */
static inline int run_csumd(unsigned int x, const uint64_t *a, uint8_t *win, uint8_t *lm,
			    uint64_t *out)
{
	unsigned int from_space = x & 3, to_space = (x >> HXU_CSUMD_TO_SHIFT) & 3;
	const uint8_t *from = NULL, *to = NULL;

	if (a[1]) {
		from = csum_buffer(from_space, a[0], a[1], win, lm);
		if (!from)
			goto fault_from;
	}
	if (a[3]) {
		to = csum_buffer(to_space, a[2], a[3], win, lm);
		if (!to) {
			from_space = to_space;
			goto fault_from;
		}
	}
	*out = csum_diff(from, a[1], to, a[3], a[4]);
	return 0;
fault_from:
	return -(from_space == HXU_SPACE_PKT  ? HWXDP_ERR_PKT_ACCESS
		 : from_space == HXU_SPACE_LM ? HWXDP_ERR_LM_ACCESS
					      : HWXDP_ERR_TM_ACCESS);
}

struct frame_bounds {
	uint64_t data, data_end, data_meta;
};

/* bpf_xdp_adjust_head's rules: data stays above the reserved headroom plus
 * the metadata, which moves along, and at least ETH_HLEN before data_end. */
static inline int64_t adjust_head(struct frame_bounds *b, uint8_t *win, int32_t delta)
{
	uint64_t metalen = b->data - b->data_meta;
	int64_t data = (int64_t)b->data + delta;

	if (data < (int64_t)(HXU_FRAME_RESERVED + metalen) ||
	    data > (int64_t)b->data_end - HXU_ETH_HLEN)
		return -EINVAL;
	if (metalen)
		memmove(win + b->data_meta + delta, win + b->data_meta, metalen);
	b->data_meta += (int64_t)delta;
	b->data = (uint64_t)data;
	return 0;
}

static inline int64_t adjust_meta(struct frame_bounds *b, int32_t delta)
{
	int64_t meta = (int64_t)b->data_meta + delta;
	uint64_t metalen;

	if (meta < HXU_FRAME_RESERVED || meta > (int64_t)b->data)
		return -EINVAL;
	metalen = b->data - (uint64_t)meta;
	if ((metalen & 3) || metalen > HXU_META_MAX)
		return -EACCES;
	b->data_meta = (uint64_t)meta;
	return 0;
}

static inline int64_t adjust_tail(struct frame_bounds *b, uint8_t *win, int32_t delta)
{
	int64_t end = (int64_t)b->data_end + delta;

	if (end > HXU_WINDOW_SIZE || end < (int64_t)b->data + HXU_ETH_HLEN)
		return -EINVAL;
	if (delta > 0)
		memset(win + b->data_end, 0, (size_t)delta);
	b->data_end = (uint64_t)end;
	return 0;
}

/* The ISA's distance (hwmap/hxu.h), which the prover models, is the unit's. */
_Static_assert(HWXDP_ESP_HEADROOM == HXU_ESP_HEADROOM, "esp moves data by the ISA's headroom");

/* The crypto engine on the frame; the metadata moves with data. Adds the
 * payload's cycles on success. */
static inline int64_t run_esp(const struct hwxdp_tables *tables, struct frame_bounds *b,
			      uint8_t *win, uint64_t handle, uint64_t l3, uint64_t *cycles)
{
	struct hwxdp_esp_sa *sa = hwxdp_tables__sa(tables, handle);
	uint64_t metalen = b->data - b->data_meta;
	size_t off = b->data, len = b->data_end - b->data;
	uint8_t meta[HXU_META_MAX + 1];
	int err;

	if (!sa)
		return -ENOENT;
	if (b->data_meta < HXU_FRAME_RESERVED + HWXDP_ESP_HEADROOM)
		return -ENOSPC;
	if (l3 > len)
		return -EINVAL;
	memcpy(meta, win + b->data_meta, metalen);
	err = hwxdp_esp_sa__encap(sa, win, HXU_WINDOW_SIZE, &off, &len, l3);
	if (err)
		return err;
	b->data = off;
	b->data_end = off + len;
	b->data_meta = off - metalen;
	memcpy(win + b->data_meta, meta, metalen);
	/* Ciphertext: what follows the outer IPv4, ESP header and IV, up to
	 * the ICV. */
	*cycles += (len - l3 - HWXDP_ESP_HEADROOM - 16 + 15) / 16;
	return 0;
}

/* run_esp, in the order the frame's board asks for (engine.h). */
static inline int64_t run_esp_ordered(const struct hwxdp_tables *tables, struct frame_bounds *b,
				      uint8_t *win, uint64_t handle, uint64_t l3, uint64_t *cycles,
				      const struct hwxdp_esp_order *order)
{
	int64_t ret;

	if (order)
		order->wait(order->arg);
	ret = run_esp(tables, b, win, handle, l3, cycles);
	if (order)
		order->passed(order->arg);
	return ret;
}

/* `time`: clock (enum hxu_clock, checked at load) in nanoseconds, the
 * host's own clocks, which the kernel's helpers read too. */
static inline uint64_t time_ns(unsigned int clock)
{
	static const clockid_t ids[HXU_CLOCK__MAX] = {
		[HXU_CLOCK_MONO] = CLOCK_MONOTONIC,
		[HXU_CLOCK_BOOT] = CLOCK_BOOTTIME,
		[HXU_CLOCK_COARSE] = CLOCK_MONOTONIC_COARSE,
		[HXU_CLOCK_TAI] = CLOCK_TAI,
	};
	struct timespec ts;

	clock_gettime(ids[clock < HXU_CLOCK__MAX ? clock : HXU_CLOCK_MONO], &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* `rand`: splitmix64, the high 32 bits of each step. */
static inline uint64_t rand_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif /* HWXDP_DEVICE_ENGINE_OPS_H */
