// SPDX-License-Identifier: GPL-2.0
/*
 * Calls out of the program: the helper prototypes an XDP program may use,
 * their argument checks and results, and the coprocessor's kfuncs.
 *
 * Which helpers the coprocessor has is a positive list: those with a unit
 * operation in docs/isa.md 4.4, named in device_op. Every other helper the
 * kernel allows XDP is host-only, and a device path that reaches one punts
 * there (device.c). bpf_csum_diff is the checksum unit's csumd, a pure
 * function of two buffers and a seed; bpf_redirect is redirif, to the
 * board's port of that ifindex (the device's ports are named by the
 * ifindexes the host gives them).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "verifier/verifier_internal.h"

enum arg_type {
	ARG_NONE,     /* not an argument */
	ARG_ANYTHING, /* any initialised scalar */
	ARG_CONST_MAP_PTR,
	ARG_PTR_TO_MAP_KEY,	     /* key_size initialised bytes */
	ARG_PTR_TO_MAP_VALUE,	     /* value_size initialised bytes */
	ARG_PTR_TO_MAP_VALUE_UNINIT, /* value_size bytes written by the helper */
	ARG_PTR_TO_CTX,
	ARG_PTR_TO_MEM,		/* read by the helper; size in the next argument */
	ARG_PTR_TO_MEM_OR_NULL, /* the same, or NULL with size 0 */
	ARG_PTR_TO_MEM_RW,	/* read and written by the helper */
	ARG_PTR_TO_OUT_OR_NULL, /* the same, or NULL with size 0 */
	ARG_PTR_TO_UNINIT_MEM,	/* written by the helper (in full, as the kernel
				   assumes: the device must zero it on failure) */
	ARG_CONST_SIZE,
	ARG_CONST_SIZE_OR_ZERO,
	ARG_CONST_ALLOC_SIZE_OR_ZERO,	   /* a known constant: the size of what is returned */
	ARG_PTR_TO_RINGBUF_MEM,		   /* a reservation, given back (released) */
	ARG_PTR_TO_ALIGNED_U32,		   /* 4 initialised bytes, aligned, read and written */
	ARG_PTR_TO_FUNC,		   /* a callback (ld_imm64 of a function) */
	ARG_PTR_TO_STACK_OR_NULL,	   /* a callback's context: the stack, or NULL */
	ARG_PTR_TO_SPIN_LOCK,		   /* a map value's bpf_spin_lock */
	ARG_PTR_TO_SOCK_COMMON,		   /* a socket, NULL-checked, or a cast's */
	ARG_PTR_TO_SOCK_COMMON_ONLY,	   /* a socket, NULL-checked, not a cast's */
	ARG_PTR_TO_SOCK_RELEASE,	   /* a socket a lookup took, given back */
	ARG_PTR_TO_FIXED_MEM,		   /* mem_size[arg] initialised bytes, read */
	ARG_PTR_TO_CONST_STR,		   /* a string in a frozen map, ended in it */
	ARG_PTR_TO_TIMER,		   /* a map value's bpf_timer */
	ARG_PTR_TO_DYNPTR_LOCAL_UNINIT,	   /* a dynptr it makes of memory (dynptr.c) */
	ARG_PTR_TO_DYNPTR_RINGBUF_UNINIT,  /* of a ring buffer record: a reference */
	ARG_PTR_TO_DYNPTR,		   /* a dynptr made before, any kind */
	ARG_PTR_TO_DYNPTR_RINGBUF_RELEASE, /* a ring buffer dynptr, given back */
};

enum ret_type {
	RET_INTEGER,
	RET_VOID,
	RET_MAP_VALUE_OR_NULL,
	RET_VERDICT,		 /* XDP_REDIRECT, or an action of the flags */
	RET_RINGBUF_MEM_OR_NULL, /* a reservation of R2's bytes, a reference */
	RET_SOCKET_OR_NULL,	 /* a socket a lookup found, a reference */
	RET_SOCK_COMMON_OR_NULL, /* the same, of any state (request, time-wait) */
	RET_DYNPTR_DATA_OR_NULL, /* R3's bytes of the dynptr in R1, or NULL */
	RET_BTF_ID_OR_NULL,	 /* a kernel struct (ret_struct), or NULL (btf_ptr.c) */
};

struct helper_proto {
	int id;
	uint8_t ret;
	uint8_t args[5];
	bool pkt_changing;  /* moves data, data_end or data_meta */
	bool side_effect;   /* changes a map or the packet */
	bool gpl_only;	    /* for GPL-compatible programs only (the kernel's gpl_only) */
	bool perfmon;	    /* the kernel gives it only with CAP_PERFMON */
	uint64_t map_types; /* bit per map type accepted by the map argument */
	/* the coprocessor's operation for it; NULL: host-only */
	const char *device_op;
	bool calls_back; /* calls its ARG_PTR_TO_FUNC (push_callback) */
	/* calls its ARG_PTR_TO_FUNC later, from a timer (push_async_callback) */
	bool async_cb;
	/* the kernel's helper takes no packet pointer (it lacks pkt_access) */
	bool no_pkt;
	uint8_t mem_size[5]; /* ARG_PTR_TO_FIXED_MEM: the bytes it reads */
	/* why the coprocessor has no operation for it, when it is not only
	 * "host-only" (the punt's reason) */
	const char *host_why;
	/* RET_BTF_ID_OR_NULL: the struct of vmlinux BTF it points to */
	const char *ret_struct;
};

#define MAP(t) (1ULL << BPF_MAP_TYPE_##t)
#define DATA_MAPS                                                                                  \
	(MAP(HASH) | MAP(ARRAY) | MAP(PERCPU_HASH) | MAP(PERCPU_ARRAY) | MAP(LRU_HASH) |           \
	 MAP(LRU_PERCPU_HASH) | MAP(LPM_TRIE))
#define REDIRECT_MAPS (MAP(DEVMAP) | MAP(DEVMAP_HASH) | MAP(CPUMAP) | MAP(XSKMAP))
/* ctx, the tuple and its size, the netns and the flags */
#define SK_LOOKUP_ARGS ARG_PTR_TO_CTX, ARG_PTR_TO_MEM, ARG_CONST_SIZE, ARG_ANYTHING, ARG_ANYTHING
#define NO_SOCKETS     "the coprocessor has no socket table"
#define NO_COOKIES     "the coprocessor has no SYN cookie secret (the host's TCP keeps it)"
#define NO_KERNEL_MEM  "the coprocessor has no kernel memory to read"
#define NO_USER_MEM    "the coprocessor has no process memory to read"
#define NO_TASKS       "the coprocessor has no tasks: a frame runs under none"
/* the device makes the frame's dynptrs and their slices (dynptr.c) */
#define FRAME_DYNPTRS "the coprocessor's dynptrs are the frame's only (bpf_dynptr_from_xdp)"
#define NO_DYNPTR_COPY                                                                             \
	"the coprocessor has no copy between the frame and memory at an offset and of a length "   \
	"not known (a slice of a constant size is the frame's own bytes)"
#define NO_TIMERS      "the coprocessor has no timers: it cannot run a callback later, outside a frame"
/* struct iphdr, ipv6hdr and tcphdr without options */
#define IPV4_HDR 20
#define IPV6_HDR 40
#define TCP_HDR	 20

#define SKC_TO(type)                                                                               \
	{                                                                                          \
		BPF_FUNC_skc_to_##type, RET_BTF_ID_OR_NULL, { ARG_PTR_TO_SOCK_COMMON },            \
			.perfmon = true, .host_why = NO_SOCKETS, .ret_struct = #type               \
	}

static bool map_of_maps(const struct hwxdp_map_desc *map)
{
	return map->type == BPF_MAP_TYPE_ARRAY_OF_MAPS || map->type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

static const struct helper_proto protos[] = {
	{ BPF_FUNC_map_lookup_elem,
	  RET_MAP_VALUE_OR_NULL,
	  { ARG_CONST_MAP_PTR, ARG_PTR_TO_MAP_KEY },
	  .map_types = DATA_MAPS | MAP(DEVMAP) | MAP(DEVMAP_HASH) | MAP(XSKMAP) |
		       MAP(ARRAY_OF_MAPS) | MAP(HASH_OF_MAPS),
	  .device_op = "tlookup" },
	{ BPF_FUNC_map_update_elem,
	  RET_INTEGER,
	  { ARG_CONST_MAP_PTR, ARG_PTR_TO_MAP_KEY, ARG_PTR_TO_MAP_VALUE, ARG_ANYTHING },
	  .side_effect = true,
	  .map_types = DATA_MAPS,
	  .device_op = "tupdate" },
	{ BPF_FUNC_map_delete_elem,
	  RET_INTEGER,
	  { ARG_CONST_MAP_PTR, ARG_PTR_TO_MAP_KEY },
	  .side_effect = true,
	  .map_types = DATA_MAPS,
	  .device_op = "tdelete" },
	{ BPF_FUNC_ktime_get_ns, RET_INTEGER, { 0 }, .device_op = "time" },
	/* Queues, stacks and bloom filters have no device table: host-only.
	 * A bloom filter is pushed to and peeked at (tested), never popped,
	 * and its peek reads the value (check_arg) where a queue's writes it. */
	{ BPF_FUNC_map_push_elem,
	  RET_INTEGER,
	  { ARG_CONST_MAP_PTR, ARG_PTR_TO_MAP_VALUE, ARG_ANYTHING },
	  .side_effect = true,
	  .map_types = MAP(QUEUE) | MAP(STACK) | MAP(BLOOM_FILTER) },
	{ BPF_FUNC_map_pop_elem,
	  RET_INTEGER,
	  { ARG_CONST_MAP_PTR, ARG_PTR_TO_MAP_VALUE_UNINIT },
	  .side_effect = true,
	  .map_types = MAP(QUEUE) | MAP(STACK),
	  .no_pkt = true },
	{ BPF_FUNC_map_peek_elem,
	  RET_INTEGER,
	  { ARG_CONST_MAP_PTR, ARG_PTR_TO_MAP_VALUE_UNINIT },
	  .map_types = MAP(QUEUE) | MAP(STACK) | MAP(BLOOM_FILTER),
	  .no_pkt = true },
	{ BPF_FUNC_trace_printk,
	  RET_INTEGER,
	  { ARG_PTR_TO_MEM, ARG_CONST_SIZE },
	  .gpl_only = true,
	  .perfmon = true,
	  .no_pkt = true },
	{ BPF_FUNC_get_prandom_u32, RET_INTEGER, { 0 }, .device_op = "rand" },
	{ BPF_FUNC_get_smp_processor_id, RET_INTEGER, { 0 }, .device_op = "cpu" },
	/* fmt and its size, as bpf_trace_printk's, then the arguments as u64s
	 * and their size: libbpf's bpf_printk() of more than three. The
	 * kernel checks the format, data_len (a multiple of 8, at most 12
	 * arguments) and NULL data when the helper runs (-EINVAL), not at
	 * load: any memory holds the format, as bpf_trace_printk's does */
	{ BPF_FUNC_trace_vprintk,
	  RET_INTEGER,
	  { ARG_PTR_TO_MEM, ARG_CONST_SIZE, ARG_PTR_TO_MEM_OR_NULL, ARG_CONST_SIZE_OR_ZERO },
	  .gpl_only = true,
	  .perfmon = true,
	  .no_pkt = true },
	{ BPF_FUNC_get_current_pid_tgid, RET_INTEGER, { 0 } },
	{ BPF_FUNC_get_current_uid_gid, RET_INTEGER, { 0 } },
	{ BPF_FUNC_get_current_comm,
	  RET_INTEGER,
	  { ARG_PTR_TO_UNINIT_MEM, ARG_CONST_SIZE },
	  .perfmon = true,
	  .no_pkt = true },
	/* the task the frame arrived under (softirq: whichever ran), as a
	 * number: what a program does with it is bpf_probe_read_kernel's */
	{ BPF_FUNC_get_current_task,
	  RET_INTEGER,
	  { 0 },
	  .gpl_only = true,
	  .perfmon = true,
	  .host_why = NO_TASKS },
	/* dev, ino of a pid namespace, then struct bpf_pidns_info and its size */
	{ BPF_FUNC_get_ns_current_pid_tgid,
	  RET_INTEGER,
	  { ARG_ANYTHING, ARG_ANYTHING, ARG_PTR_TO_UNINIT_MEM, ARG_CONST_SIZE },
	  .no_pkt = true,
	  .host_why = NO_TASKS },
	{ BPF_FUNC_get_numa_node_id, RET_INTEGER, { 0 } },
	{ BPF_FUNC_ktime_get_tai_ns, RET_INTEGER, { 0 }, .device_op = "time" },
	{ BPF_FUNC_map_lookup_percpu_elem,
	  RET_MAP_VALUE_OR_NULL,
	  { ARG_CONST_MAP_PTR, ARG_PTR_TO_MAP_KEY, ARG_ANYTHING },
	  .map_types = MAP(PERCPU_HASH) | MAP(PERCPU_ARRAY) | MAP(LRU_PERCPU_HASH) },
	{ BPF_FUNC_tail_call,
	  RET_VOID,
	  { ARG_PTR_TO_CTX, ARG_CONST_MAP_PTR, ARG_ANYTHING },
	  .map_types = MAP(PROG_ARRAY),
	  .device_op = "tcall" },
	{ BPF_FUNC_redirect, RET_VERDICT, { ARG_ANYTHING, ARG_ANYTHING }, .device_op = "redirif" },
	{ BPF_FUNC_perf_event_output,
	  RET_INTEGER,
	  { ARG_PTR_TO_CTX, ARG_CONST_MAP_PTR, ARG_ANYTHING, ARG_PTR_TO_MEM,
	    ARG_CONST_SIZE_OR_ZERO },
	  .gpl_only = true,
	  .map_types = MAP(PERF_EVENT_ARRAY),
	  .no_pkt = true },
	{ BPF_FUNC_csum_diff,
	  RET_INTEGER,
	  { ARG_PTR_TO_MEM_OR_NULL, ARG_CONST_SIZE_OR_ZERO, ARG_PTR_TO_MEM_OR_NULL,
	    ARG_CONST_SIZE_OR_ZERO, ARG_ANYTHING },
	  .device_op = "csumd" },
	{ BPF_FUNC_xdp_adjust_head,
	  RET_INTEGER,
	  { ARG_PTR_TO_CTX, ARG_ANYTHING },
	  .pkt_changing = true,
	  .side_effect = true,
	  .device_op = "hadj" },
	{ BPF_FUNC_redirect_map,
	  RET_VERDICT,
	  { ARG_CONST_MAP_PTR, ARG_ANYTHING, ARG_ANYTHING },
	  .map_types = REDIRECT_MAPS,
	  .device_op = "redir" },
	{ BPF_FUNC_xdp_adjust_meta,
	  RET_INTEGER,
	  { ARG_PTR_TO_CTX, ARG_ANYTHING },
	  .pkt_changing = true,
	  .side_effect = true,
	  .device_op = "madj" },
	{ BPF_FUNC_xdp_adjust_tail,
	  RET_INTEGER,
	  { ARG_PTR_TO_CTX, ARG_ANYTHING },
	  .pkt_changing = true,
	  .side_effect = true,
	  .device_op = "tadj" },
	{ BPF_FUNC_fib_lookup,
	  RET_INTEGER,
	  { ARG_PTR_TO_CTX, ARG_PTR_TO_MEM_RW, ARG_CONST_SIZE, ARG_ANYTHING },
	  .gpl_only = true,
	  .no_pkt = true },
	{ BPF_FUNC_jiffies64, RET_INTEGER, { 0 } },
	{ BPF_FUNC_ktime_get_boot_ns, RET_INTEGER, { 0 }, .device_op = "time" },
	{ BPF_FUNC_ringbuf_output,
	  RET_INTEGER,
	  { ARG_CONST_MAP_PTR, ARG_PTR_TO_MEM, ARG_CONST_SIZE_OR_ZERO, ARG_ANYTHING },
	  .map_types = MAP(RINGBUF),
	  .no_pkt = true },
	{ BPF_FUNC_ringbuf_reserve,
	  RET_RINGBUF_MEM_OR_NULL,
	  { ARG_CONST_MAP_PTR, ARG_CONST_ALLOC_SIZE_OR_ZERO, ARG_ANYTHING },
	  .map_types = MAP(RINGBUF) },
	{ BPF_FUNC_ringbuf_submit, RET_VOID, { ARG_PTR_TO_RINGBUF_MEM, ARG_ANYTHING } },
	{ BPF_FUNC_ringbuf_discard, RET_VOID, { ARG_PTR_TO_RINGBUF_MEM, ARG_ANYTHING } },
	{ BPF_FUNC_ringbuf_query,
	  RET_INTEGER,
	  { ARG_CONST_MAP_PTR, ARG_ANYTHING },
	  .map_types = MAP(RINGBUF) },
	{ BPF_FUNC_ktime_get_coarse_ns, RET_INTEGER, { 0 }, .device_op = "time" },
	/* the device has no locks: host-only */
	{ BPF_FUNC_spin_lock, RET_VOID, { ARG_PTR_TO_SPIN_LOCK } },
	{ BPF_FUNC_spin_unlock, RET_VOID, { ARG_PTR_TO_SPIN_LOCK } },
	/* the frame is linear on the device: its length, from the context */
	{ BPF_FUNC_xdp_get_buff_len, RET_INTEGER, { ARG_PTR_TO_CTX }, .device_op = "ctx" },
	{ BPF_FUNC_xdp_load_bytes,
	  RET_INTEGER,
	  { ARG_PTR_TO_CTX, ARG_ANYTHING, ARG_PTR_TO_UNINIT_MEM, ARG_CONST_SIZE },
	  .no_pkt = true },
	/* mtu_len: the length to check in, the MTU out */
	{ BPF_FUNC_check_mtu,
	  RET_INTEGER,
	  { ARG_PTR_TO_CTX, ARG_ANYTHING, ARG_PTR_TO_ALIGNED_U32, ARG_ANYTHING, ARG_ANYTHING },
	  .gpl_only = true,
	  .no_pkt = true },
	{ BPF_FUNC_xdp_store_bytes,
	  RET_INTEGER,
	  { ARG_PTR_TO_CTX, ARG_ANYTHING, ARG_PTR_TO_MEM, ARG_CONST_SIZE },
	  .side_effect = true,
	  .no_pkt = true },
	/* nr_loops, callback(index, ctx), ctx, flags (0, or it returns
	 * -EINVAL without a call: the walk's path of no calls) */
	{ BPF_FUNC_loop,
	  RET_INTEGER,
	  { ARG_ANYTHING, ARG_PTR_TO_FUNC, ARG_PTR_TO_STACK_OR_NULL, ARG_ANYTHING },
	  .calls_back = true },
	/* map, callback(map, key, value, ctx), ctx, flags: once per element */
	{ BPF_FUNC_for_each_map_elem,
	  RET_INTEGER,
	  { ARG_CONST_MAP_PTR, ARG_PTR_TO_FUNC, ARG_PTR_TO_STACK_OR_NULL, ARG_ANYTHING },
	  .map_types = MAP(HASH) | MAP(ARRAY) | MAP(PERCPU_HASH) | MAP(PERCPU_ARRAY) |
		       MAP(LRU_HASH) | MAP(LRU_PERCPU_HASH),
	  .calls_back = true },
	/* Sockets of the host's stack: a lookup takes a reference, which
	 * every path gives back with bpf_sk_release. */
	{ BPF_FUNC_sk_lookup_tcp, RET_SOCKET_OR_NULL, { SK_LOOKUP_ARGS }, .host_why = NO_SOCKETS },
	{ BPF_FUNC_sk_lookup_udp, RET_SOCKET_OR_NULL, { SK_LOOKUP_ARGS }, .host_why = NO_SOCKETS },
	{ BPF_FUNC_skc_lookup_tcp,
	  RET_SOCK_COMMON_OR_NULL,
	  { SK_LOOKUP_ARGS },
	  .host_why = NO_SOCKETS },
	{ BPF_FUNC_sk_release, RET_INTEGER, { ARG_PTR_TO_SOCK_RELEASE }, .host_why = NO_SOCKETS },
	/* A socket seen as the kind it is, or NULL: the same socket, under
	 * the lookup's reference (released with it), read through its BTF.
	 * The kernel gives them with CAP_PERFMON (bpf_sk_base_func_proto). */
	SKC_TO(tcp6_sock),
	SKC_TO(tcp_sock),
	SKC_TO(tcp_timewait_sock),
	SKC_TO(tcp_request_sock),
	SKC_TO(udp6_sock),
	SKC_TO(unix_sock),
	/* the kernel's takes no cast socket (ARG_PTR_TO_SOCK_COMMON) */
	{ BPF_FUNC_skc_to_mptcp_sock,
	  RET_BTF_ID_OR_NULL,
	  { ARG_PTR_TO_SOCK_COMMON_ONLY },
	  .perfmon = true,
	  .host_why = NO_SOCKETS,
	  .ret_struct = "mptcp_sock" },
	/* a listener's cookie for a SYN (iph, iph_len, th, th_len), or the
	 * check of the ACK's */
	{ BPF_FUNC_tcp_check_syncookie,
	  RET_INTEGER,
	  { ARG_PTR_TO_SOCK_COMMON, ARG_PTR_TO_MEM, ARG_CONST_SIZE, ARG_PTR_TO_MEM,
	    ARG_CONST_SIZE },
	  .gpl_only = true,
	  .host_why = NO_SOCKETS },
	{ BPF_FUNC_tcp_gen_syncookie,
	  RET_INTEGER,
	  { ARG_PTR_TO_SOCK_COMMON, ARG_PTR_TO_MEM, ARG_CONST_SIZE, ARG_PTR_TO_MEM,
	    ARG_CONST_SIZE },
	  .gpl_only = true,
	  .host_why = NO_SOCKETS },
	/* the same without a socket: headers of a fixed size, and th_len */
	{ BPF_FUNC_tcp_raw_gen_syncookie_ipv4,
	  RET_INTEGER,
	  { ARG_PTR_TO_FIXED_MEM, ARG_PTR_TO_MEM, ARG_CONST_SIZE_OR_ZERO },
	  .gpl_only = true,
	  .mem_size = { IPV4_HDR },
	  .host_why = NO_COOKIES },
	{ BPF_FUNC_tcp_raw_gen_syncookie_ipv6,
	  RET_INTEGER,
	  { ARG_PTR_TO_FIXED_MEM, ARG_PTR_TO_MEM, ARG_CONST_SIZE_OR_ZERO },
	  .gpl_only = true,
	  .mem_size = { IPV6_HDR },
	  .host_why = NO_COOKIES },
	{ BPF_FUNC_tcp_raw_check_syncookie_ipv4,
	  RET_INTEGER,
	  { ARG_PTR_TO_FIXED_MEM, ARG_PTR_TO_FIXED_MEM },
	  .gpl_only = true,
	  .mem_size = { IPV4_HDR, TCP_HDR },
	  .host_why = NO_COOKIES },
	{ BPF_FUNC_tcp_raw_check_syncookie_ipv6,
	  RET_INTEGER,
	  { ARG_PTR_TO_FIXED_MEM, ARG_PTR_TO_FIXED_MEM },
	  .gpl_only = true,
	  .mem_size = { IPV6_HDR, TCP_HDR },
	  .host_why = NO_COOKIES },
	/* s1 of s1_sz bytes against a constant string */
	{ BPF_FUNC_strncmp,
	  RET_INTEGER,
	  { ARG_PTR_TO_MEM, ARG_CONST_SIZE, ARG_PTR_TO_CONST_STR },
	  .no_pkt = true,
	  .host_why = "the coprocessor has no unit that compares strings" },
	{ BPF_FUNC_probe_read_kernel,
	  RET_INTEGER,
	  { ARG_PTR_TO_UNINIT_MEM, ARG_CONST_SIZE_OR_ZERO, ARG_ANYTHING },
	  .gpl_only = true,
	  .perfmon = true,
	  .no_pkt = true,
	  .host_why = NO_KERNEL_MEM },
	{ BPF_FUNC_probe_read_kernel_str,
	  RET_INTEGER,
	  { ARG_PTR_TO_UNINIT_MEM, ARG_CONST_SIZE_OR_ZERO, ARG_ANYTHING },
	  .gpl_only = true,
	  .perfmon = true,
	  .no_pkt = true,
	  .host_why = NO_KERNEL_MEM },
	{ BPF_FUNC_probe_read_user,
	  RET_INTEGER,
	  { ARG_PTR_TO_UNINIT_MEM, ARG_CONST_SIZE_OR_ZERO, ARG_ANYTHING },
	  .gpl_only = true,
	  .perfmon = true,
	  .no_pkt = true,
	  .host_why = NO_USER_MEM },
	{ BPF_FUNC_probe_read_user_str,
	  RET_INTEGER,
	  { ARG_PTR_TO_UNINIT_MEM, ARG_CONST_SIZE_OR_ZERO, ARG_ANYTHING },
	  .gpl_only = true,
	  .perfmon = true,
	  .no_pkt = true,
	  .host_why = NO_USER_MEM },
	/* out and its size, a constant format (checked: check_snprintf),
	 * its arguments as u64s and their size */
	{ BPF_FUNC_snprintf,
	  RET_INTEGER,
	  { ARG_PTR_TO_OUT_OR_NULL, ARG_CONST_SIZE_OR_ZERO, ARG_PTR_TO_CONST_STR,
	    ARG_PTR_TO_MEM_OR_NULL, ARG_CONST_SIZE_OR_ZERO },
	  .gpl_only = true,
	  .perfmon = true,
	  .no_pkt = true,
	  .host_why = "the coprocessor has no unit that formats strings" },
	/* A timer in a map value (BTF): init with the value's own map and the
	 * clock in the flags, a static callback(map, key, value) the kernel
	 * calls later, started for nsecs with flags, cancelled. The flags
	 * are checked when the helper runs. */
	{ BPF_FUNC_timer_init,
	  RET_INTEGER,
	  { ARG_PTR_TO_TIMER, ARG_CONST_MAP_PTR, ARG_ANYTHING },
	  .side_effect = true,
	  .gpl_only = true,
	  .map_types = ~0ULL,
	  .host_why = NO_TIMERS },
	{ BPF_FUNC_timer_set_callback,
	  RET_INTEGER,
	  { ARG_PTR_TO_TIMER, ARG_PTR_TO_FUNC },
	  .side_effect = true,
	  .gpl_only = true,
	  .async_cb = true,
	  .host_why = NO_TIMERS },
	{ BPF_FUNC_timer_start,
	  RET_INTEGER,
	  { ARG_PTR_TO_TIMER, ARG_ANYTHING, ARG_ANYTHING },
	  .side_effect = true,
	  .gpl_only = true,
	  .host_why = NO_TIMERS },
	{ BPF_FUNC_timer_cancel,
	  RET_INTEGER,
	  { ARG_PTR_TO_TIMER },
	  .side_effect = true,
	  .gpl_only = true,
	  .host_why = NO_TIMERS },
	/* Dynptrs (dynptr.c): one of memory (data, size, flags, the dynptr),
	 * read out of (dst, len, the dynptr, offset, flags), written into
	 * (the dynptr, offset, src, len, flags), a slice of its data (the
	 * dynptr, offset, a constant len); a ring buffer record as one
	 * (map, size, flags, the dynptr: a reference even when the
	 * reservation fails), submitted or discarded (the dynptr, flags).
	 * Sizes, offsets and flags beyond the constant lengths are checked
	 * when the helper runs. */
	{ BPF_FUNC_dynptr_from_mem,
	  RET_INTEGER,
	  { ARG_PTR_TO_UNINIT_MEM, ARG_CONST_SIZE_OR_ZERO, ARG_ANYTHING,
	    ARG_PTR_TO_DYNPTR_LOCAL_UNINIT },
	  .no_pkt = true,
	  .host_why = FRAME_DYNPTRS },
	{ BPF_FUNC_dynptr_read,
	  RET_INTEGER,
	  { ARG_PTR_TO_UNINIT_MEM, ARG_CONST_SIZE_OR_ZERO, ARG_PTR_TO_DYNPTR, ARG_ANYTHING,
	    ARG_ANYTHING },
	  .no_pkt = true,
	  .host_why = NO_DYNPTR_COPY },
	{ BPF_FUNC_dynptr_write,
	  RET_INTEGER,
	  { ARG_PTR_TO_DYNPTR, ARG_ANYTHING, ARG_PTR_TO_MEM, ARG_CONST_SIZE_OR_ZERO, ARG_ANYTHING },
	  .side_effect = true,
	  .no_pkt = true,
	  .host_why = NO_DYNPTR_COPY },
	{ BPF_FUNC_dynptr_data,
	  RET_DYNPTR_DATA_OR_NULL,
	  { ARG_PTR_TO_DYNPTR, ARG_ANYTHING, ARG_CONST_ALLOC_SIZE_OR_ZERO },
	  .host_why = FRAME_DYNPTRS },
	{ BPF_FUNC_ringbuf_reserve_dynptr,
	  RET_INTEGER,
	  { ARG_CONST_MAP_PTR, ARG_ANYTHING, ARG_ANYTHING, ARG_PTR_TO_DYNPTR_RINGBUF_UNINIT },
	  .map_types = MAP(RINGBUF),
	  .host_why = "the ring buffer is the host's" },
	{ BPF_FUNC_ringbuf_submit_dynptr,
	  RET_VOID,
	  { ARG_PTR_TO_DYNPTR_RINGBUF_RELEASE, ARG_ANYTHING },
	  .host_why = "the ring buffer is the host's" },
	{ BPF_FUNC_ringbuf_discard_dynptr,
	  RET_VOID,
	  { ARG_PTR_TO_DYNPTR_RINGBUF_RELEASE, ARG_ANYTHING },
	  .host_why = "the ring buffer is the host's" },
};

static const struct helper_proto *find_proto(int id)
{
	size_t i;

	for (i = 0; i < sizeof(protos) / sizeof(protos[0]); i++)
		if (protos[i].id == id)
			return &protos[i];
	return NULL;
}

bool helper_calls_back(int func_id)
{
	const struct helper_proto *proto = find_proto(func_id);

	return proto && proto->calls_back;
}

uint16_t helper_arg_regs(int func_id)
{
	const struct helper_proto *proto = find_proto(func_id);
	uint16_t regs = 0;

	if (!proto)
		return 0x3e; /* refused at the call; r1-r5 until then */
	for (uint32_t arg = 0; arg < 5; arg++)
		if (proto->args[arg] != ARG_NONE)
			regs |= (uint16_t)(1u << (BPF_REG_1 + arg));
	return regs;
}

/* What the kernel lists for a memory argument of the wrong type. */
#define MEM_TYPES "fp, pkt, pkt_meta, map_key, map_value, mem"

static bool is_mem_ptr(uint8_t type)
{
	return type == PTR_TO_STACK || type_is_pkt(type) || type == PTR_TO_MAP_VALUE ||
	       type == PTR_TO_MEM || type == PTR_TO_MAP_KEY;
}

/* The constant key of a map helper, when every byte of it is known. */
static bool stack_key(struct verifier_env *env, const struct reg_state *ptr, uint32_t size,
		      uint64_t *key)
{
	const struct func_state *frame = env->cur->frame[ptr->frameno];
	int32_t off = ptr->off + (int32_t)ptr->var_off.value;
	uint32_t i;

	if (ptr->type != PTR_TO_STACK || !tnum_is_const(ptr->var_off) || !size || size > 8)
		return false;
	*key = 0;
	for (i = 0; i < size; i++) {
		const struct stack_slot *s = stack_slot_at(frame, off + i);
		int byte = (off + (int32_t)i) & 7;
		uint64_t b;

		if (!s)
			return false;
		if (s->byte[byte] == STACK_ZERO) {
			b = 0;
		} else if (s->byte[byte] == STACK_SPILL && reg_is_const(&s->spill)) {
			b = (s->spill.var_off.value >> (8 * byte)) & 0xff;
		} else {
			return false;
		}
		*key |= b << (8 * i);
	}
	return true;
}

/*
 * The key of an array lookup the kernel (6.14 and later) knows to be in
 * range, so that the lookup cannot fail: all zero bytes, or a constant
 * spilled whole, key_size bytes long, at the start of a slot.
 */
static bool array_key_in_range(struct verifier_env *env, const struct reg_state *ptr,
			       const struct hwxdp_map_desc *map)
{
	const struct func_state *frame = env->cur->frame[ptr->frameno];
	int32_t off = ptr->off + (int32_t)ptr->var_off.value;
	const struct stack_slot *s;
	uint32_t i;

	if ((map->type != BPF_MAP_TYPE_ARRAY && map->type != BPF_MAP_TYPE_PERCPU_ARRAY) ||
	    ptr->type != PTR_TO_STACK || !tnum_is_const(ptr->var_off) || map->key_size > 8 ||
	    off >= 0)
		return false;
	s = stack_slot_at(frame, off);
	if (!s || (off & 7) + map->key_size > 8)
		return false;
	for (i = 0; i < map->key_size && s->byte[(off & 7) + i] == STACK_ZERO; i++)
		;
	if (i == map->key_size)
		return true;
	return !(off & 7) && s->spill_size == map->key_size && s->byte[0] == STACK_SPILL &&
	       reg_is_const(&s->spill) &&
	       (s->spill.var_off.value &
		(map->key_size == 8 ? UINT64_MAX : (1ULL << (8 * map->key_size)) - 1)) <
		       map->max_entries;
}

/*
 * The scalars in a key on the stack, when they make a known key: it
 * decides an array lookup's NULL and is the translator's table index
 * (facts.map_key).
 */
static void mark_key_precise(struct verifier_env *env, const struct reg_state *ptr, uint32_t size)
{
	int64_t off = ptr->off + (int64_t)ptr->var_off.value;
	uint64_t slots = 0;

	if (ptr->type != PTR_TO_STACK || !tnum_is_const(ptr->var_off) || !size || off >= 0)
		return;
	for (int64_t at = off; at < off + size && at < 0; at++)
		slots |= 1ull << ((uint64_t)(-at - 1) / 8);
	precise_mark_slots(env, ptr->frameno, slots);
}

/*
 * The scalar arguments of a call: sizes and NULLs decide what is checked,
 * and the translator reads flags, indices and sizes from the facts.
 */
/*
 * The scalar arguments a path depended on. On the device every one: the
 * translator reads flags and sizes from the facts, which a path pruned for
 * an imprecise argument would not have added to. The host copy depends on
 * an ARG_ANYTHING (an offset for bpf_xdp_load_bytes, perf_event_output's
 * flags) no more than the kernel does, which marks none, and so prunes
 * where it prunes; bpf_loop's count and a tail call's index stay marked.
 */
static void mark_args_precise(struct verifier_env *env, const struct helper_proto *proto)
{
	bool anything =
		env->device || proto->id == BPF_FUNC_loop || proto->id == BPF_FUNC_tail_call;
	uint16_t regs = 0;

	for (uint32_t arg = 0; arg < 5; arg++)
		if (proto->args[arg] != ARG_NONE && (anything || proto->args[arg] != ARG_ANYTHING))
			regs |= (uint16_t)(1u << (BPF_REG_1 + arg));
	precise_mark_regs(env, regs);
}

static void note_key(struct verifier_env *env, uint32_t idx, bool known, uint64_t key)
{
	struct insn_aux *aux = &env->aux[idx];
	struct hwxdp_insn_fact *fact = &env->facts[idx];

	if (!known || (aux->key_seen && fact->map_key != key)) {
		aux->key_varies = true;
		return;
	}
	aux->key_seen = true;
	fact->map_key_const = true;
	fact->map_key = key;
}

/* The map of a map helper call, when every visit passes the same one, and
 * the maps visits passed when they differ. */
static void note_map(struct verifier_env *env, uint32_t idx, uint32_t map)
{
	struct insn_aux *aux = &env->aux[idx];
	struct hwxdp_insn_fact *fact = &env->facts[idx];
	uint8_t i;

	if (!aux->map_varies && (!fact->map_known || fact->map_index == map)) {
		fact->map_known = true;
		fact->map_index = map;
		return;
	}
	if (!aux->map_varies) {
		aux->map_varies = true;
		fact->map_known = false;
		fact->map_alt[0] = fact->map_index;
		fact->map_alt_cnt = 1;
	}
	for (i = 0; i < fact->map_alt_cnt && i < HWXDP_MAP_ALTS; i++)
		if (fact->map_alt[i] == map)
			return;
	if (fact->map_alt_cnt < HWXDP_MAP_ALTS)
		fact->map_alt[fact->map_alt_cnt] = map;
	if (fact->map_alt_cnt <= HWXDP_MAP_ALTS)
		fact->map_alt_cnt++;
}

static int arg_type_error(struct verifier_env *env, uint32_t regno, const char *expected)
{
	verbose(env, "R%u type=%s expected=%s\n", regno,
		reg_type_str(cur_frame(env)->regs[regno].type), expected);
	return REJECT;
}

/*
 * A memory argument and its size argument. Where NULL is allowed, the
 * kernel also takes a pointer that may be NULL (a lookup's value before its
 * check, a ring buffer reservation), its bytes checked as if it were not:
 * the helper tells NULL apart when it runs (bpf_trace_vprintk's data:
 * -EINVAL). maybe_null_ok: not for a helper the device runs, whose unit
 * would be handed address 0.
 */
static int check_mem_arg(struct verifier_env *env, uint32_t regno, uint8_t type, uint8_t size_type,
			 bool maybe_null_ok)
{
	struct reg_state *regs = cur_frame(env)->regs;
	struct reg_state *ptr = &regs[regno], *size = &regs[regno + 1];
	bool zero_ok = size_type == ARG_CONST_SIZE_OR_ZERO;
	uint8_t maybe_null = 0;
	int err;

	err = check_reg_readable(env, regno + 1);
	if (err)
		return err;
	if (size->type != SCALAR_VALUE)
		return arg_type_error(env, regno + 1, "scalar");
	if ((type == ARG_PTR_TO_MEM_OR_NULL || type == ARG_PTR_TO_OUT_OR_NULL) &&
	    reg_is_const(ptr) && !ptr->var_off.value) {
		if (!tnum_equals_const(size->var_off, 0)) {
			verbose(env, "R%u type=scalar expected=" MEM_TYPES "\n", regno);
			return REJECT;
		}
		return 0;
	}
	if (maybe_null_ok && (type == ARG_PTR_TO_MEM_OR_NULL || type == ARG_PTR_TO_OUT_OR_NULL) &&
	    (ptr->type == PTR_TO_MAP_VALUE_OR_NULL || ptr->type == PTR_TO_MEM_OR_NULL))
		maybe_null = ptr->type;
	if (!is_mem_ptr(ptr->type) && !maybe_null)
		return arg_type_error(env, regno, MEM_TYPES);
	if (size->smin < 0) {
		verbose(env, "R%u min value is negative, either use unsigned or 'var &= const'\n",
			regno + 1);
		return REJECT;
	}
	if (!size->umin && !zero_ok) {
		verbose(env, "R%u invalid zero-sized read: u64=[%llu,%llu]\n", regno + 1,
			(unsigned long long)size->umin, (unsigned long long)size->umax);
		return REJECT;
	}
	if (size->umax >= MAX_VAR_OFF) {
		verbose(env,
			"R%u unbounded memory access, use 'var &= const' or 'if (var < const)'\n",
			regno + 1);
		return REJECT;
	}
	if (maybe_null)
		ptr->type = maybe_null == PTR_TO_MEM_OR_NULL ? PTR_TO_MEM : PTR_TO_MAP_VALUE;
	if (type != ARG_PTR_TO_UNINIT_MEM)
		err = check_mem_region(env, regno, 0, size->umax, false, zero_ok);
	if (!err && (type == ARG_PTR_TO_MEM_RW || type == ARG_PTR_TO_OUT_OR_NULL ||
		     type == ARG_PTR_TO_UNINIT_MEM))
		err = check_mem_region(env, regno, 0, size->umax, true, zero_ok);
	if (maybe_null)
		ptr->type = maybe_null;
	return err;
}

int check_kfunc_mem_arg(struct verifier_env *env, uint32_t regno)
{
	int err = check_mem_arg(env, regno, ARG_PTR_TO_MEM_RW, ARG_CONST_SIZE_OR_ZERO, false);

	if (!err)
		precise_mark_regs(env, (uint16_t)(1u << (regno + 1)));
	return err;
}

/*
 * The offset of the struct called name (bpf_spin_lock, bpf_timer) in a
 * value of BTF type id, searched in nested structs as the kernel does; -1
 * for none.
 */
static int64_t btf_field_off(const struct btf *btf, uint32_t id, const char *name, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;

	while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (!t || !btf_is_struct(t) || depth > 8)
		return -1;
	if (!strcmp(btf__name_by_offset(btf, t->name_off), name))
		return 0;
	m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
		int64_t off = btf_field_off(btf, m->type, name, depth + 1);

		if (off >= 0)
			return off + btf_member_bit_offset(t, i) / 8;
	}
	return -1;
}

static int64_t map_lock_off(const struct verifier_env *env, const struct hwxdp_map_desc *map)
{
	if (!env->btf || !map->btf_value_type_id)
		return -1;
	return btf_field_off(env->btf, map->btf_value_type_id, "bpf_spin_lock", 0);
}

static int64_t map_timer_off(const struct verifier_env *env, const struct hwxdp_map_desc *map)
{
	if (!env->btf || !map->btf_value_type_id)
		return -1;
	return btf_field_off(env->btf, map->btf_value_type_id, "bpf_timer", 0);
}

bool map_has_lock(const struct verifier_env *env, const struct hwxdp_map_desc *map)
{
	return map_lock_off(env, map) >= 0;
}

uint32_t lock_held(const struct verifier_env *env)
{
	return env->cur->frame[0]->lock_insn;
}

int check_map_field_access(struct verifier_env *env, uint32_t regno, const struct reg_state *reg,
			   int32_t off, int size)
{
	const struct hwxdp_map_desc *map = &env->maps[reg->map];
	int64_t lock = map_lock_off(env, map), timer = map_timer_off(env, map);

	(void)regno;
	/* [smin + off, umax + off + size) against the lock's 4 bytes */
	if (lock >= 0 && reg->smin + off < lock + 4 && lock < (int64_t)reg->umax + off + size) {
		verbose(env, "bpf_spin_lock cannot be accessed directly by load/store\n");
		return -EACCES;
	}
	if (timer >= 0 && reg->smin + off < timer + (int64_t)sizeof(struct bpf_timer) &&
	    timer < (int64_t)reg->umax + off + size) {
		verbose(env, "bpf_timer cannot be accessed directly by load/store\n");
		return -EACCES;
	}
	return 0;
}

/*
 * A map value pointer at the constant offset of the special field (a
 * bpf_timer, a bpf_spin_lock) the value's BTF declares, as the kernel's
 * check_map_field_pointer: *map becomes the value's map. types: what the
 * kernel's message says it expected of another register type.
 */
static int check_map_field_arg(struct verifier_env *env, uint32_t regno, const char *types,
			       const char *field,
			       int64_t (*field_off)(const struct verifier_env *,
						    const struct hwxdp_map_desc *),
			       const struct hwxdp_map_desc **map)
{
	const struct reg_state *reg = &cur_frame(env)->regs[regno];
	const struct hwxdp_map_desc *m;
	int64_t at, off;

	if (reg->type != PTR_TO_MAP_VALUE)
		return arg_type_error(env, regno, types);
	if (!tnum_is_const(reg->var_off)) {
		verbose(env,
			"R%u doesn't have constant offset. %s has to be at the constant offset\n",
			regno, field);
		return -EINVAL;
	}
	m = &env->maps[reg->map];
	if (!env->btf || !m->btf_value_type_id) {
		verbose(env, "map '%s' has to have BTF in order to use %s\n", m->name, field);
		return -EINVAL;
	}
	at = field_off(env, m);
	if (at < 0) {
		verbose(env, "map '%s' has no valid %s\n", m->name, field);
		return -EINVAL;
	}
	off = (int64_t)reg->var_off.value + reg->off;
	if (off != at) {
		verbose(env, "off %lld doesn't point to 'struct %s' that is at %lld\n",
			(long long)off, field, (long long)at);
		return -EINVAL;
	}
	*map = m;
	return 0;
}

/*
 * A struct bpf_timer argument, as the kernel's check_map_field_pointer: a
 * map value pointer at the constant offset of the timer its BTF declares.
 * *map becomes the value's map, which bpf_timer_init's map argument must
 * name again and a callback is called with.
 */
static int check_timer_arg(struct verifier_env *env, uint32_t regno,
			   const struct hwxdp_map_desc **map)
{
	const struct reg_state *reg = &cur_frame(env)->regs[regno];
	const struct hwxdp_map_desc *m;
	int err;

	err = check_map_field_arg(env, regno, "map_value", "bpf_timer", map_timer_off, &m);
	if (err)
		return err;
	/* the kernel tells an inner map's values apart by the lookup that
	 * found the map, which hwxdp does not track */
	for (uint32_t i = 0; i < env->map_cnt; i++) {
		if (map_of_maps(&env->maps[i]) && env->maps[i].inner_map == reg->map) {
			verbose(env,
				"map '%s': a bpf_timer in a map of maps' inner map is not "
				"supported\n",
				m->name);
			return -EINVAL;
		}
	}
	*map = m;
	return 0;
}

/* bpf_spin_lock or bpf_spin_unlock of R1, as the kernel's process_spin_lock. */
static int check_spin_lock(struct verifier_env *env, const struct helper_proto *proto,
			   uint32_t regno, uint32_t idx)
{
	const struct reg_state *reg = &cur_frame(env)->regs[regno];
	struct func_state *main = env->cur->frame[0];
	const struct hwxdp_map_desc *map;
	int err;

	err = check_map_field_arg(env, regno, "map_value, ptr_", "bpf_spin_lock", map_lock_off,
				  &map);
	if (err)
		return err;
	if (proto->id == BPF_FUNC_spin_lock) {
		if (main->lock_insn) {
			verbose(env, "Locking two bpf_spin_locks are not allowed\n");
			return -EINVAL;
		}
		main->lock_insn = idx + 1;
		main->lock_map = reg->map;
		main->lock_id = reg->id;
		return 0;
	}
	if (!main->lock_insn) {
		verbose(env, "bpf_spin_unlock without taking a lock\n");
		return -EINVAL;
	}
	if (main->lock_map != reg->map || main->lock_id != reg->id) {
		verbose(env, "bpf_spin_unlock of different lock\n");
		return -EINVAL;
	}
	main->lock_insn = 0;
	main->lock_map = 0;
	main->lock_id = 0;
	return 0;
}

/* What the kernel lists for a socket argument of the wrong type. */
#define SOCK_TYPES "sock_common, sock, tcp_sock, xdp_sock, ptr_, trusted_ptr_"

/*
 * A constant string, as the kernel takes one: in a map the program cannot
 * write and user space no longer can (.rodata), at a constant offset of the
 * one value of an array, ending in the value. Its bytes are known here.
 */
static int check_const_str(struct verifier_env *env, uint32_t regno)
{
	const struct reg_state *reg = &cur_frame(env)->regs[regno];
	const struct hwxdp_map_desc *map;
	uint64_t at;
	int err;

	if (reg->type != PTR_TO_MAP_VALUE)
		return arg_type_error(env, regno, "map_value");
	map = &env->maps[reg->map];
	if (!map->read_only) {
		verbose(env, "R%u does not point to a readonly map'\n", regno);
		return REJECT;
	}
	if (!tnum_is_const(reg->var_off)) {
		verbose(env, "R%u is not a constant address'\n", regno);
		return REJECT;
	}
	if (map->type != BPF_MAP_TYPE_ARRAY || map->max_entries != 1) {
		verbose(env, "no direct value access support for this map type\n");
		return REJECT;
	}
	err = check_mem_region(env, regno, 0, (int)map->value_size - reg->off, false, false);
	if (err)
		return err;
	for (at = (uint64_t)reg->off + reg->var_off.value; at < map->value_size; at++)
		if (!map->initial || at >= map->initial_size || !map->initial[at])
			return 0;
	verbose(env, "string is not zero-terminated\n");
	return -EINVAL;
}

/* The kernel's character classes (lib/ctype.c), Latin-1 above ASCII. */
static bool fmt_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

static bool fmt_punct(unsigned char c)
{
	if (c < 0x80)
		return c > ' ' && c < 0x7f && !isalnum(c);
	return (c >= 0xa1 && c <= 0xbf) || c == 0xd7 || c == 0xf7;
}

/* What may follow a %s: the end, white space or punctuation. */
static bool fmt_word_end(char c)
{
	return !c || fmt_space((unsigned char)c) || fmt_punct((unsigned char)c);
}

/*
 * A bpf_snprintf format as the kernel checks it at load (its words for a
 * bad one: "Invalid format string"): no ASCII control but white space;
 * %% a percent sign; each conversion one of arg_cnt arguments (more
 * arguments than conversions are fine), with flags "0+- " and a width, of
 * d i u x X with l or ll, c, s (ending a word), p alone (ending a word), pK
 * px ps pS pB, pi4 pI4 pi6 pI6, pks pus (ending a word). fmt is ended by a
 * NUL (check_const_str).
 */
static bool snprintf_format_ok(const char *fmt, uint64_t arg_cnt)
{
	uint64_t used = 0;

	for (size_t i = 0; fmt[i]; i++) {
		unsigned char c = (unsigned char)fmt[i];

		if (c < 0x80 && !isprint(c) && !fmt_space(c))
			return false;
		if (c != '%')
			continue;
		if (fmt[i + 1] == '%') {
			i++;
			continue;
		}
		if (used++ >= arg_cnt)
			return false;
		i++;
		while (fmt[i] == '0' || fmt[i] == '+' || fmt[i] == '-' || fmt[i] == ' ')
			i++;
		if (fmt[i] >= '1' && fmt[i] <= '9') {
			i++;
			while (fmt[i] >= '0' && fmt[i] <= '9')
				i++;
		}
		if (fmt[i] == 'p') {
			char next = fmt[i + 1];

			if (fmt_word_end(next))
				continue;
			if ((next == 'k' || next == 'u') && fmt[i + 2] == 's') {
				i += 2;
				if (!fmt_word_end(fmt[i + 1]))
					return false;
				continue;
			}
			if (next == 'K' || next == 'x' || next == 's' || next == 'S' ||
			    next == 'B') {
				i++;
				continue;
			}
			if ((next == 'i' || next == 'I') &&
			    (fmt[i + 2] == '4' || fmt[i + 2] == '6')) {
				i += 2;
				continue;
			}
			return false;
		}
		if (fmt[i] == 's') {
			if (!fmt_word_end(fmt[i + 1]))
				return false;
			continue;
		}
		if (fmt[i] == 'c')
			continue;
		if (fmt[i] == 'l')
			i++;
		if (fmt[i] == 'l')
			i++;
		if (!fmt[i] || !strchr("diuxX", fmt[i]))
			return false;
	}
	return true;
}

/* bpf_snprintf's format (R3, a constant string) against its R5 / 8
 * arguments, once the arguments are checked. */
static int check_snprintf(struct verifier_env *env)
{
	const struct reg_state *regs = cur_frame(env)->regs;
	const struct reg_state *fmt = &regs[BPF_REG_3], *len = &regs[BPF_REG_5];
	const struct hwxdp_map_desc *map = &env->maps[fmt->map];
	uint64_t at = (uint64_t)fmt->off + fmt->var_off.value, n;
	bool ok;
	char *text;

	if (!tnum_is_const(len->var_off)) {
		verbose(env, "R5 is not a known constant: bpf_snprintf's data_len decides the "
			     "arguments its format may take\n");
		return REJECT;
	}
	if (len->var_off.value % 8) {
		verbose(env, "bpf_snprintf's data_len %llu is not a multiple of 8\n",
			(unsigned long long)len->var_off.value);
		return -EINVAL;
	}
	/* the string ends within the value (check_const_str) */
	text = calloc(1, map->value_size - at + 1);
	if (!text)
		return -ENOMEM;
	for (n = 0; at + n < map->value_size; n++)
		text[n] =
			map->initial && at + n < map->initial_size ? (char)map->initial[at + n] : 0;
	ok = snprintf_format_ok(text, len->var_off.value / 8);
	free(text);
	if (!ok) {
		verbose(env, "Invalid format string\n");
		return -EINVAL;
	}
	return 0;
}

static int check_arg(struct verifier_env *env, const struct helper_proto *proto, uint32_t arg,
		     uint32_t idx, const struct hwxdp_map_desc **map, bool *never_null)
{
	uint32_t regno = arg + 1;
	const struct reg_state *reg = &cur_frame(env)->regs[regno];
	uint8_t type = proto->args[arg];
	uint64_t key = 0;
	bool known;
	int err;

	if (type == ARG_NONE || type == ARG_CONST_SIZE || type == ARG_CONST_SIZE_OR_ZERO)
		return 0;
	err = check_reg_readable(env, regno);
	if (err)
		return err;
	if (proto->no_pkt && type_is_pkt(reg->type) && type != ARG_ANYTHING &&
	    type != ARG_PTR_TO_CTX && type != ARG_CONST_MAP_PTR) {
		verbose(env, "helper access to the packet is not allowed\n");
		return REJECT;
	}
	switch (type) {
	case ARG_ANYTHING:
		if (type_is_ptr(reg->type) && !env->allow_ptr_leaks) {
			verbose(env, "R%u leaks addr into helper function\n", regno);
			return REJECT;
		}
		if (proto->id == BPF_FUNC_redirect_map && regno == BPF_REG_2)
			note_key(env, idx, reg_is_const(reg), reg->var_off.value);
		return 0;
	case ARG_CONST_MAP_PTR:
		if (reg->type != CONST_PTR_TO_MAP)
			return arg_type_error(env, regno, "map_ptr");
		/* bpf_timer_init: the map the timer's value came from */
		if (*map && proto->args[0] == ARG_PTR_TO_TIMER && *map != &env->maps[reg->map]) {
			verbose(env,
				"timer pointer in R1 map '%s' doesn't match map pointer in R2 map "
				"'%s'\n",
				(*map)->name, env->maps[reg->map].name);
			return -EINVAL;
		}
		*map = &env->maps[reg->map];
		if ((*map)->type >= 64 || !(proto->map_types & (1ULL << (*map)->type))) {
			if (proto->id == BPF_FUNC_tail_call) {
				verbose(env, "expected prog array map for tail call\n");
				return -EINVAL;
			}
			if (proto->id == BPF_FUNC_for_each_map_elem) {
				verbose(env, "callback function not allowed for map\n");
				return -EINVAL;
			}
			bool of_maps = (*map)->type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
				       (*map)->type == BPF_MAP_TYPE_HASH_OF_MAPS;

			/* the kernel's words, with the type's name; map-in-map
			 * is this verifier's limit, not the program's fault */
			verbose(env, "cannot pass map_type %u (%s) into func %s#%d%s\n",
				(*map)->type, map_type_name((*map)->type), helper_name(proto->id),
				proto->id, of_maps ? ": a map of maps is looked up only" : "");
			return -EINVAL;
		}
		if (map_of_maps(*map) && (*map)->inner_map >= env->map_cnt) {
			verbose(env, "map '%s' (%s) has no template for its maps\n", (*map)->name,
				map_type_name((*map)->type));
			return -EINVAL;
		}
		note_map(env, idx, reg->map);
		/* a host-only helper's map stays with the host: the device
		 * punts before the call */
		if (env->device && proto->device_op &&
		    !(proto->id == BPF_FUNC_redirect_map && device_redirect_to_host(*map)))
			return device_check_map(env, *map, idx);
		return 0;
	case ARG_PTR_TO_MAP_KEY:
	case ARG_PTR_TO_MAP_VALUE:
		if (!is_mem_ptr(reg->type))
			return arg_type_error(env, regno, MEM_TYPES);
		err = check_mem_region(env, regno, 0,
				       type == ARG_PTR_TO_MAP_KEY ? (*map)->key_size
								  : (*map)->value_size,
				       false, false);
		if (err)
			return err;
		if (type == ARG_PTR_TO_MAP_KEY) {
			known = stack_key(env, reg, (*map)->key_size, &key);
			note_key(env, idx, known, key);
			*never_null = array_key_in_range(env, reg, *map);
			/* as the kernel's: only a known key is depended on;
			 * any other makes the fact and the NULL what every
			 * key would */
			if (known || *never_null)
				mark_key_precise(env, reg, (*map)->key_size);
		}
		return 0;
	case ARG_PTR_TO_MAP_VALUE_UNINIT:
		if (!is_mem_ptr(reg->type))
			return arg_type_error(env, regno, MEM_TYPES);
		return check_mem_region(env, regno, 0, (*map)->value_size,
					(*map)->type != BPF_MAP_TYPE_BLOOM_FILTER, false);
	case ARG_PTR_TO_SPIN_LOCK:
		/* on the device the path punts here (check_helper_call) */
		return env->device ? 0 : check_spin_lock(env, proto, regno, idx);
	case ARG_CONST_ALLOC_SIZE_OR_ZERO:
		if (reg->type != SCALAR_VALUE)
			return arg_type_error(env, regno, "scalar");
		if (!tnum_is_const(reg->var_off)) {
			verbose(env, "R%u is not a known constant'\n", regno);
			return REJECT;
		}
		return 0;
	case ARG_PTR_TO_RINGBUF_MEM:
		if (reg->type != PTR_TO_MEM || !reg->ref_obj_id)
			return arg_type_error(env, regno, "ringbuf_mem");
		if (reg->off || !tnum_equals_const(reg->var_off, 0)) {
			verbose(env,
				"R%u must have zero offset when passed to release func or trusted "
				"arg to kfunc\n",
				regno);
			return REJECT;
		}
		return 0;
	case ARG_PTR_TO_ALIGNED_U32: {
		/* the kernel checks a packet's alignment as if NET_IP_ALIGN were 2 */
		struct tnum at =
			tnum_add(reg->var_off,
				 tnum_const((uint64_t)(int64_t)(reg->off +
								(type_is_pkt(reg->type) ? 2 : 0))));
		char tn[48];

		if (!is_mem_ptr(reg->type))
			return arg_type_error(env, regno, MEM_TYPES);
		if ((at.value | at.mask) & 3) {
			tnum_print(tn, sizeof(tn), reg->var_off);
			verbose(env, "misaligned %saccess off %s+%d+0 size 4\n",
				reg->type == PTR_TO_STACK	? "stack "
				: type_is_pkt(reg->type)	? "packet "
				: reg->type == PTR_TO_MAP_VALUE ? "value "
								: "",
				tn, reg->off);
			return REJECT;
		}
		err = check_mem_region(env, regno, 0, 4, false, false);
		return err ? err : check_mem_region(env, regno, 0, 4, true, false);
	}
	case ARG_PTR_TO_SOCK_COMMON_ONLY:
		if (reg->type != PTR_TO_SOCKET && reg->type != PTR_TO_SOCK_COMMON)
			return arg_type_error(env, regno, "sock_common, sock, tcp_sock, xdp_sock");
		return 0;
	case ARG_PTR_TO_SOCK_COMMON:
	case ARG_PTR_TO_SOCK_RELEASE:
		/* a socket or NULL is the lookup's result before its check; a
		 * socket cast's result is one too, trusted or plain */
		if (reg->type != PTR_TO_SOCKET && reg->type != PTR_TO_SOCK_COMMON &&
		    (reg->type != PTR_TO_BTF_ID || reg->mem_flags))
			return arg_type_error(env, regno, SOCK_TYPES);
		if (reg->type == PTR_TO_BTF_ID && (reg->off || !btf_ptr_is_sock_common(env, reg))) {
			verbose(env, "R%u is of type %s but sock_common is expected\n", regno,
				btf_ptr_struct_name(env, reg));
			return REJECT;
		}
		if (type == ARG_PTR_TO_SOCK_RELEASE && !reg->ref_obj_id) {
			verbose(env, "R%u must be referenced when passed to release function\n",
				regno);
			return REJECT;
		}
		return 0;
	case ARG_PTR_TO_FIXED_MEM:
		if (!is_mem_ptr(reg->type))
			return arg_type_error(env, regno, MEM_TYPES);
		return check_mem_region(env, regno, 0, proto->mem_size[arg], false, false);
	case ARG_PTR_TO_CONST_STR:
		return check_const_str(env, regno);
	case ARG_PTR_TO_TIMER:
		return check_timer_arg(env, regno, map);
	case ARG_PTR_TO_DYNPTR_LOCAL_UNINIT:
	case ARG_PTR_TO_DYNPTR_RINGBUF_UNINIT:
		return dynptr_arg_init(env, regno,
				       type == ARG_PTR_TO_DYNPTR_LOCAL_UNINIT ? DYNPTR_LOCAL
									      : DYNPTR_RINGBUF,
				       idx);
	case ARG_PTR_TO_DYNPTR:
		return dynptr_arg_made(env, regno, DYNPTR_NONE, &env->call_dynptr_id,
				       &env->call_dynptr_kind, &env->call_dynptr_ref);
	case ARG_PTR_TO_DYNPTR_RINGBUF_RELEASE:
		err = dynptr_arg_made(env, regno, DYNPTR_NONE, &env->call_dynptr_id,
				      &env->call_dynptr_kind, &env->call_dynptr_ref);
		if (!err && !env->call_dynptr_ref) {
			verbose(env, "arg %u is an unacquired reference\n", regno);
			return -EINVAL;
		}
		return err ? err
			   : dynptr_arg_made(env, regno, DYNPTR_RINGBUF, &env->call_dynptr_id,
					     &env->call_dynptr_kind, &env->call_dynptr_ref);
	case ARG_PTR_TO_FUNC:
		if (reg->type != PTR_TO_FUNC)
			return arg_type_error(env, regno, "func");
		return 0;
	case ARG_PTR_TO_STACK_OR_NULL:
		if (reg->type == SCALAR_VALUE && tnum_equals_const(reg->var_off, 0))
			return 0;
		if (type_is_pkt(reg->type)) {
			verbose(env, "helper access to the packet is not allowed\n");
			return REJECT;
		}
		if (reg->type != PTR_TO_STACK)
			return arg_type_error(env, regno, "fp");
		return 0;
	case ARG_PTR_TO_CTX:
		if (reg->type != PTR_TO_CTX)
			return arg_type_error(env, regno, "ctx");
		if (reg->off || !tnum_equals_const(reg->var_off, 0)) {
			verbose(env, "dereference of modified ctx ptr R%u off=%d disallowed\n",
				regno, reg->off);
			return REJECT;
		}
		return 0;
	default: /* memory with a size in the next argument */
		return check_mem_arg(env, regno, type, proto->args[arg + 1],
				     !env->device || !proto->device_op);
	}
}

/*
 * A helper that calls back, as the kernel verifies it: the path goes on
 * past the call as if the callback had run as often as it has on this
 * path so far (at first: never), and a new path enters the callback in a
 * frame of its own. Its exit comes back to this call (check.c), which then
 * calls it once more or goes on, so every number of calls is explored; a
 * state stored at the call that covers a later visit ends that (state.c),
 * and the count's largest value bounds the calls on a path.
 */
static int push_callback(struct verifier_env *env, uint32_t idx)
{
	struct func_state *caller = cur_frame(env), *callee;
	const struct reg_state *regs = caller->regs;
	uint32_t subprog = regs[BPF_REG_2].map, depth = env->cur->curframe + 1, i;
	bool loop = env->insns[idx].imm == BPF_FUNC_loop;
	/* bpf_loop's count bounds the calls; a map's elements do not, as the
	 * kernel has it: there only converging states end them */
	uint64_t limit =
		loop && regs[BPF_REG_1].type == SCALAR_VALUE ? regs[BPF_REG_1].umax : UINT64_MAX;
	struct vstate *cb;
	int err;

	if (caller->callback_depth >= limit) {
		caller->callback_depth = 0;
		return 0;
	}
	if (depth >= MAX_CALL_FRAMES) {
		verbose(env, "the call stack of %u frames is too deep\n", depth + 1);
		return -E2BIG;
	}
	for (i = 0; i < depth; i++) {
		if (env->cur->frame[i]->subprog == subprog) {
			verbose(env, "recursive call from insn %u to %u\n", idx,
				env->subprogs[subprog].start);
			return -EINVAL;
		}
	}
	/* a tail call would leave the program from within the helper: the
	 * kernel refuses a callback with one, reached or not */
	for (i = env->subprogs[subprog].start; i < env->subprogs[subprog + 1].start; i++) {
		if (env->insns[i].code == (BPF_JMP | BPF_CALL) && !env->insns[i].src_reg &&
		    env->insns[i].imm == BPF_FUNC_tail_call) {
			verbose(env, "callback at insn %u makes a tail call (insn %u)\n",
				env->subprogs[subprog].start, i);
			return -EINVAL;
		}
	}
	env->calls[caller->subprog * env->subprog_cnt + subprog] = 1;
	callee = frame_new(depth, idx, subprog);
	if (!callee)
		return -ENOMEM;
	err = state_push(env, env->subprogs[subprog].start, idx, &cb);
	if (err) {
		free(callee);
		return err;
	}
	callee->in_callback = true;
	callee->ref_cnt = caller->ref_cnt;
	memcpy(callee->ref_id, caller->ref_id, sizeof(callee->ref_id));
	memcpy(callee->ref_insn, caller->ref_insn, sizeof(callee->ref_insn));
	if (loop) {
		/* the index, unbounded as the kernel has it, and ctx */
		reg_mark_unknown(&callee->regs[BPF_REG_1]);
		callee->regs[BPF_REG_2] = regs[BPF_REG_3];
	} else {
		/* the map, an element's key and value, and ctx */
		callee->regs[BPF_REG_1] = regs[BPF_REG_1];
		reg_mark_known(&callee->regs[BPF_REG_2], 0);
		callee->regs[BPF_REG_2].type = PTR_TO_MAP_KEY;
		callee->regs[BPF_REG_2].map = regs[BPF_REG_1].map;
		reg_mark_known(&callee->regs[BPF_REG_3], 0);
		callee->regs[BPF_REG_3].type = PTR_TO_MAP_VALUE;
		callee->regs[BPF_REG_3].map = regs[BPF_REG_1].map;
		callee->regs[BPF_REG_4] = regs[BPF_REG_3];
	}
	cb->frame[depth - 1]->callback_depth++;
	cb->frame[depth] = callee;
	cb->curframe = depth;
	caller->callback_depth = 0;
	return 0;
}

/*
 * bpf_timer_set_callback, as the kernel verifies it: the callback runs
 * later, from the timer, not within the call. The path goes on past the
 * call, and a path of its own starts at the callback, in frame 0 of a
 * state with nothing of the program's: R1 the timer's map, R2 a key and
 * R3 the value of one of its elements, no references, no lock. Its exit
 * must return 0 (check.c).
 */
static int push_async_callback(struct verifier_env *env, const struct hwxdp_map_desc *map,
			       uint32_t idx)
{
	uint32_t subprog = cur_frame(env)->regs[BPF_REG_2].map, i;
	struct func_state *callee;
	struct vstate *cb;
	int err;

	for (i = env->subprogs[subprog].start; i < env->subprogs[subprog + 1].start; i++) {
		if (env->insns[i].code == (BPF_JMP | BPF_CALL) && !env->insns[i].src_reg &&
		    env->insns[i].imm == BPF_FUNC_tail_call) {
			verbose(env, "callback at insn %u makes a tail call (insn %u)\n",
				env->subprogs[subprog].start, i);
			return -EINVAL;
		}
	}
	env->subprogs[subprog].async_cb = true;
	callee = frame_new(0, idx, subprog);
	if (!callee)
		return -ENOMEM;
	err = state_push(env, env->subprogs[subprog].start, idx, &cb);
	if (err) {
		free(callee);
		return err;
	}
	/* a root of its own: no checkpoint of the program's waits for it */
	if (cb->parent)
		cb->parent->branches--;
	cb->parent = NULL;
	cb->hist_cnt = 0;
	cb->hist_lost = false;
	cb->side_effect = 0;
	for (i = 0; i <= cb->curframe; i++) {
		free(cb->frame[i]->stack);
		free(cb->frame[i]);
		cb->frame[i] = NULL;
	}
	callee->async_callback = true;
	reg_mark_known(&callee->regs[BPF_REG_1], 0);
	callee->regs[BPF_REG_1].type = CONST_PTR_TO_MAP;
	callee->regs[BPF_REG_1].map = (uint16_t)(map - env->maps);
	reg_mark_known(&callee->regs[BPF_REG_2], 0);
	callee->regs[BPF_REG_2].type = PTR_TO_MAP_KEY;
	callee->regs[BPF_REG_2].map = (uint16_t)(map - env->maps);
	reg_mark_known(&callee->regs[BPF_REG_3], 0);
	callee->regs[BPF_REG_3].type = PTR_TO_MAP_VALUE;
	callee->regs[BPF_REG_3].map = (uint16_t)(map - env->maps);
	cb->frame[0] = callee;
	cb->curframe = 0;
	return 0;
}

static void clobber_caller_saved(struct verifier_env *env)
{
	struct reg_state *regs = cur_frame(env)->regs;
	int i;

	for (i = BPF_REG_1; i <= BPF_REG_5; i++)
		reg_mark_not_init(&regs[i]);
}

int check_helper_call(struct verifier_env *env, const struct bpf_insn *insn, uint32_t idx)
{
	const struct helper_proto *proto;
	const struct hwxdp_map_desc *map = NULL;
	uint32_t arg, alloc_size = 0, ref, arg_ref;
	bool never_null = false, leaks;
	struct reg_state *r0;
	int err = 0;

	proto = find_proto(insn->imm);
	if (!proto) {
		if (insn->imm == HWXDP_CORE_POISON)
			verbose(env,
				"invalid func unknown#%d\n"
				"a CO-RE relocation that failed is reached: no type of the "
				"kernel's BTF matches the one the program names here; guard "
				"the access with bpf_core_field_exists() or the like\n",
				insn->imm);
		else if (insn->imm <= 0 || insn->imm >= __BPF_FUNC_MAX_ID ||
			 !helper_name(insn->imm))
			verbose(env, "invalid func unknown#%d\n", insn->imm);
		else
			verbose(env, "program of this type cannot use helper %s#%d\n",
				helper_name(insn->imm), insn->imm);
		return -EINVAL;
	}
	/* while a lock is held, the only call is the unlock */
	if (lock_held(env) && proto->id != BPF_FUNC_spin_unlock) {
		verbose(env, "function calls are not allowed while holding a lock\n");
		return -EINVAL;
	}
	if (proto->perfmon && !env->perfmon) {
		verbose(env, "program of this type cannot use helper %s#%d\n",
			helper_name(proto->id), proto->id);
		return -EINVAL;
	}
	if (proto->gpl_only && !env->gpl_compatible) {
		verbose(env,
			"cannot call GPL-restricted function from non-GPL compatible program\n");
		return -EINVAL;
	}
	/* A host-only helper's arguments are the host copy's, which makes
	 * the call once the device has punted: a pointer among them (%pI4's
	 * in bpf_printk()'s array, bpf_probe_read_kernel's source) is read
	 * by the kernel's rules, not the device's. */
	leaks = env->allow_ptr_leaks;
	if (env->device && !proto->device_op)
		env->allow_ptr_leaks = env->perfmon;
	for (arg = 0; arg < 5; arg++) {
		err = check_arg(env, proto, arg, idx, &map, &never_null);
		if (err)
			break;
	}
	env->allow_ptr_leaks = leaks;
	if (err)
		return err;
	mark_args_precise(env, proto);
	/* the kernel's check_helper_call: a local dynptr of a map value only */
	if (proto->id == BPF_FUNC_dynptr_from_mem &&
	    cur_frame(env)->regs[BPF_REG_1].type != PTR_TO_MAP_VALUE) {
		verbose(env, "Unsupported reg type %s for bpf_dynptr_from_mem data\n",
			reg_type_str(cur_frame(env)->regs[BPF_REG_1].type));
		return -EACCES;
	}
	if (proto->id == BPF_FUNC_snprintf) {
		err = check_snprintf(env);
		if (err)
			return err;
	}
	/* a device path ends at a host-only helper (the arguments above are
	 * still the host's, which makes the call after the punt) */
	if (env->device && !proto->device_op)
		return device_host_only_call(env, proto->id, proto->host_why, idx);
	/* a redirect to the host's CPUs or sockets is the host copy's to make */
	if (env->device && proto->id == BPF_FUNC_redirect_map) {
		err = device_check_redirect(env, (uint32_t)(map - env->maps), idx);
		if (err || env->punted)
			return err;
	}
	if (proto->id == BPF_FUNC_tail_call && cur_frame(env)->ref_cnt) {
		verbose(env, "tail_call would lead to reference leak\n");
		return REJECT;
	}
	for (uint32_t f = 1; proto->id == BPF_FUNC_tail_call && f <= env->cur->curframe; f++) {
		if (env->cur->frame[f]->in_callback) {
			verbose(env, "tail call from a function a callback called (frame %u)\n", f);
			return -EINVAL;
		}
	}
	if (env->device && proto->id == BPF_FUNC_tail_call) {
		err = device_check_tail_call(env, idx);
		if (err)
			return err;
	}
	/* the kernel keeps the size as the 32 bits of its mem_size */
	if (proto->ret == RET_RINGBUF_MEM_OR_NULL)
		alloc_size = (uint32_t)cur_frame(env)->regs[BPF_REG_2].var_off.value;
	if (proto->ret == RET_DYNPTR_DATA_OR_NULL)
		alloc_size = (uint32_t)cur_frame(env)->regs[BPF_REG_3].var_off.value;
	/* a socket cast's result lives under its argument's reference */
	arg_ref = cur_frame(env)->regs[BPF_REG_1].ref_obj_id;
	if (proto->args[0] == ARG_PTR_TO_RINGBUF_MEM || proto->args[0] == ARG_PTR_TO_SOCK_RELEASE)
		release_reference(env, cur_frame(env)->regs[BPF_REG_1].ref_obj_id);
	if (proto->args[0] == ARG_PTR_TO_DYNPTR_RINGBUF_RELEASE)
		dynptr_release(env, env->call_dynptr_ref);
	if (proto->calls_back) {
		err = push_callback(env, idx);
		if (err)
			return err;
	}
	if (proto->async_cb) {
		err = push_async_callback(env, map, idx);
		if (err)
			return err;
	}
	if (proto->id == BPF_FUNC_xdp_adjust_head || proto->id == BPF_FUNC_xdp_adjust_tail) {
		err = dynptr_frame_moves(env, idx, helper_name(proto->id));
		if (err)
			return err;
	}
	if (proto->side_effect)
		note_side_effect(env);
	if (proto->pkt_changing)
		invalidate_packet_pointers(env->cur);
	clobber_caller_saved(env);
	r0 = &cur_frame(env)->regs[BPF_REG_0];
	switch (proto->ret) {
	case RET_VOID:
		reg_mark_not_init(r0);
		break;
	case RET_MAP_VALUE_OR_NULL:
		reg_mark_known(r0, 0);
		if (map_of_maps(map)) {
			/* the value is a map like the template, or NULL */
			r0->type = CONST_PTR_TO_MAP_OR_NULL;
			r0->map = (uint16_t)map->inner_map;
			r0->id = new_id(env);
			break;
		}
		r0->type = never_null ? PTR_TO_MAP_VALUE : PTR_TO_MAP_VALUE_OR_NULL;
		r0->map = map - env->maps;
		r0->id = never_null ? 0 : new_id(env);
		break;
	case RET_SOCKET_OR_NULL:
	case RET_SOCK_COMMON_OR_NULL:
		ref = acquire_reference(env, idx);
		if (!ref)
			return -E2BIG;
		reg_mark_known(r0, 0);
		r0->type = proto->ret == RET_SOCKET_OR_NULL ? PTR_TO_SOCKET_OR_NULL
							    : PTR_TO_SOCK_COMMON_OR_NULL;
		r0->id = ref;
		r0->ref_obj_id = ref;
		break;
	case RET_RINGBUF_MEM_OR_NULL:
		ref = acquire_reference(env, idx);
		if (!ref)
			return -E2BIG;
		reg_mark_known(r0, 0);
		r0->type = PTR_TO_MEM_OR_NULL;
		r0->mem_size = alloc_size;
		r0->id = ref;
		r0->ref_obj_id = ref;
		break;
	case RET_DYNPTR_DATA_OR_NULL:
		/* gone with the dynptr: overwritten, or its reference given back */
		reg_mark_known(r0, 0);
		r0->type = PTR_TO_MEM_OR_NULL;
		r0->mem_size = alloc_size;
		r0->id = new_id(env);
		r0->ref_obj_id = env->call_dynptr_ref;
		r0->dynptr_id = env->call_dynptr_id;
		r0->mem_flags = MEM_DYNPTR_DATA;
		break;
	case RET_BTF_ID_OR_NULL:
		err = btf_ptr_mark_ret(env, r0, proto->ret_struct);
		if (err)
			return err;
		r0->ref_obj_id = arg_ref;
		break;
	case RET_VERDICT:
		/* Both return XDP_REDIRECT, or XDP_ABORTED, or for a map
		 * miss the action in the low bits of the flags. Only the
		 * device's verdict check needs it: the kernel knows nothing
		 * of it, and a host program must load there. */
		reg_mark_unknown(r0);
		if (env->device) {
			r0->umax = XDP_REDIRECT;
			reg_bounds_sync(r0);
		}
		break;
	default:
		reg_mark_unknown(r0);
	}
	return 0;
}

int check_kfunc_call(struct verifier_env *env, const struct bpf_insn *insn, uint32_t idx)
{
	static const struct helper_proto encap = {
		0,
		RET_INTEGER,
		{ ARG_PTR_TO_CTX, ARG_ANYTHING, ARG_ANYTHING },
		.pkt_changing = true,
	};
	const struct hwxdp_map_desc *map = NULL;
	bool never_null = false;
	uint32_t arg;
	int err;

	/* An unresolved weak kfunc is allowed only where no path goes. */
	if (!insn->imm && !insn->off) {
		verbose(env, "invalid kernel function call not eliminated in verifier pass\n");
		return -EINVAL;
	}
	if (lock_held(env)) {
		verbose(env, "function calls are not allowed while holding a lock\n");
		return -EINVAL;
	}
	if (kfunc_is_xdp_metadata(insn))
		return check_xdp_metadata_call(env, insn);
	if (kfunc_is_dynptr(insn))
		return check_dynptr_kfunc(env, insn, idx);
	if (kfunc_is_iter(insn))
		return check_iter_kfunc(env, insn, idx);
	if (kfunc_is_conntrack(insn))
		return check_conntrack_kfunc(env, insn, idx);
	/* device kfuncs exist on the device only */
	if (insn->imm != KFUNC_ESP_ENCAP || insn->off || !env->device) {
		verbose(env, "kernel btf_id %d is not a function\n", insn->imm);
		return -EINVAL;
	}
	for (arg = 0; arg < 5; arg++) {
		err = check_arg(env, &encap, arg, idx, &map, &never_null);
		if (err)
			return err;
	}
	mark_args_precise(env, &encap);
	err = dynptr_frame_moves(env, idx, "bpf_hwxdp_esp_encap");
	if (err)
		return err;
	note_side_effect(env);
	invalidate_packet_pointers(env->cur);
	clobber_caller_saved(env);
	reg_mark_unknown(&cur_frame(env)->regs[BPF_REG_0]);
	return 0;
}
