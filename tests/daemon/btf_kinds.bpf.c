// SPDX-License-Identifier: GPL-2.0
/*
 * Maps whose keys and values have every BTF kind a map can hold, for the
 * differential test of daemon/btf_json.c against bpftool
 * (tests/daemon/test_btf_json.c). The program only names the maps.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

typedef __u32 u32_t;
typedef const volatile u32_t cv_u32_t;
typedef char name_t[8];
typedef char char_t;

enum colour { RED, GREEN = 7, BLUE = 0xffffffff };
enum delta { MINUS = -5, ZERO = 0, PLUS = 5 };
enum __attribute__((packed)) small { S_ONE = 1, S_TWO = 2, S_BIG = 200 };
enum wide { W_LOW = 1, W_HIGH = 0x1ffffffffULL };

struct ints {
	__u8 u8;
	__s8 s8;
	__u16 u16;
	__s16 s16;
	__u32 u32;
	__s32 s32;
	__u64 u64;
	__s64 s64;
	unsigned char uc;
	signed char sc;
	char c;
	_Bool flag;
	long l;
	unsigned long ul;
};

struct wide_ints {
	unsigned __int128 u128;
	__int128 s128;
};

struct bits {
	__u8 a : 1;
	__u8 b : 3;
	__u32 c : 7;
	__s32 d : 5;
	__u64 e : 33;
	__s64 f : 17;
	enum colour g : 4;
	__u16 : 0;
	__u16 h : 9;
	char i : 3;
	_Bool j : 1;
};

struct arrays {
	char name[12];
	name_t alias;
	__u16 shorts[3];
	__u8 grid[2][3];
	char names[2][4];
	struct {
		__u8 x;
		__s16 y;
	} pairs[2];
	unsigned char uname[4];
	signed char sname[4];
	char_t typedef_chars[4];
	const char const_chars[4];
	__u8 empty[0];
};

union variant {
	__u32 word;
	__u8 bytes[4];
	struct {
		__u16 lo, hi;
	} halves;
};

struct nested {
	struct ints i;
	union variant v;
	struct {
		__u32 anon_a;
		union {
			__u16 anon_u;
			__s8 anon_s;
		};
	};
	enum colour colour;
	enum delta delta;
	enum small small;
	enum wide wide;
	u32_t typedefed;
	cv_u32_t qualified;
	const __u64 konst;
	volatile __s16 vol;
	void *ptr;
	struct nested *self;
	int *restrict rptr;
	__u8 pad[3];
};

struct key {
	__u16 port;
	__u8 proto : 4, flags : 4;
	__u8 vlan_hi;
	__u32 addr;
};

/* 12 bytes: per CPU at a stride of 16. */
struct per_cpu {
	__u16 port;
	__u8 proto : 4, flags : 4;
	__s8 s;
	__u32 addr;
	__u16 tail;
};

struct floats {
	float f;
	double d;
};

#define ARRAY_MAP(name, value_type)                                                                \
	struct {                                                                                   \
		__uint(type, BPF_MAP_TYPE_ARRAY);                                                  \
		__type(key, __u32);                                                                \
		__type(value, value_type);                                                         \
		__uint(max_entries, 8);                                                            \
	} name SEC(".maps")

ARRAY_MAP(ints_map, struct ints);
ARRAY_MAP(wide_map, struct wide_ints);
ARRAY_MAP(bits_map, struct bits);
ARRAY_MAP(arrays_map, struct arrays);
ARRAY_MAP(union_map, union variant);
ARRAY_MAP(nested_map, struct nested);
ARRAY_MAP(colour_map, enum colour);
ARRAY_MAP(typedef_map, cv_u32_t);
ARRAY_MAP(string_map, name_t);
ARRAY_MAP(floats_map, struct floats);

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct key);
	__type(value, struct bits);
	__uint(max_entries, 32);
} keyed_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, union variant);
	__type(value, __s64);
	__uint(max_entries, 32);
} union_key_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct per_cpu);
	__uint(max_entries, 8);
} percpu_map SEC(".maps");

/* Global data: a map whose value is a DATASEC of VARs. */
__u64 data_counter = 5;
char data_label[6] = "abc";
struct key data_key = { .port = 80, .proto = 6 };

/* libbpf creates every map of the object, used or not. */
SEC("xdp")
int btf_kinds(struct xdp_md *ctx)
{
	(void)ctx;
	data_counter++;
	return data_label[0] == 'a' && data_key.port ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
