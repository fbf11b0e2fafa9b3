// SPDX-License-Identifier: GPL-2.0
/*
 * The device's flow table against the kernel's BPF_MAP_TYPE_HASH, in one
 * run: fill 2,000,000 flows, look up present and absent ones, and report
 * the medians of several runs, bytes per entry and the ratios.
 *
 *   bench_flowtable [-n flows] [-r runs] [-s seed] [-K]
 *
 * -K skips the kernel map (it needs root). Times are wall clock and the
 * thread's CPU time; on a shared machine the CPU time is the steadier one.
 * The kernel's figures go through one bpf() syscall per operation, which is
 * what the control plane pays; an XDP program's in-kernel lookup pays none.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <linux/bpf.h>

#include "hwmap/hash.h"
#include "hwxdp/fwd.h"

#define MAX_RUNS 15

struct sample {
	double wall, cpu; /* seconds */
};

struct figure {
	const char *name;
	struct sample runs[MAX_RUNS];
	int n;
	uint32_t ops;
};

static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static struct sample now(void)
{
	struct timespec w, c;

	clock_gettime(CLOCK_MONOTONIC, &w);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c);
	return (struct sample){ w.tv_sec + w.tv_nsec * 1e-9, c.tv_sec + c.tv_nsec * 1e-9 };
}

static void record(struct figure *f, struct sample start, uint32_t ops)
{
	struct sample end = now();

	f->runs[f->n++] = (struct sample){ end.wall - start.wall, end.cpu - start.cpu };
	f->ops = ops;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static struct sample median(const struct figure *f)
{
	double wall[MAX_RUNS], cpu[MAX_RUNS];
	int i;

	for (i = 0; i < f->n; i++) {
		wall[i] = f->runs[i].wall;
		cpu[i] = f->runs[i].cpu;
	}
	qsort(wall, f->n, sizeof(double), compare_double);
	qsort(cpu, f->n, sizeof(double), compare_double);
	return (struct sample){ wall[f->n / 2], cpu[f->n / 2] };
}

static void print_figure(const struct figure *f)
{
	struct sample m;

	if (!f->n)
		return;
	m = median(f);
	printf("  %-40s %9.3f s %9.3f s %8.1f ns/op %8.1f ns/op\n", f->name, m.wall, m.cpu,
	       m.wall / f->ops * 1e9, m.cpu / f->ops * 1e9);
}

static void put_be(uint8_t *p, int bytes, uint64_t v)
{
	while (bytes--) {
		p[bytes] = (uint8_t)v;
		v >>= 8;
	}
}

/*
 * A flow as an edge router sees them: mostly IPv4 and TCP, clients from a
 * private range with ephemeral ports, a few thousand servers on a handful of
 * well-known ports, over four ports and some VLANs.
 */
static void random_flow(struct hwxdp_flow_key *k, uint64_t *rng)
{
	static const uint16_t ports[] = {
		443, 443, 443, 80, 80, 53, 8080, 22, 123, 3478, 993, 5222
	};
	uint64_t r = rng_next(rng), c = rng_next(rng), s = rng_next(rng);

	memset(k, 0, sizeof(*k));
	k->lif = HWXDP_LIF(1 + (r & 3), (r >> 2) % 4 ? 0 : 10 + (r >> 4) % 40);
	k->proto = (r >> 10) % 5 ? 6 : 17;
	put_be((uint8_t *)&k->sport_be, 2, 32768 + (r >> 16) % 28232);
	put_be((uint8_t *)&k->dport_be, 2, ports[(r >> 32) % (sizeof(ports) / sizeof(ports[0]))]);
	if ((r >> 40) % 100 < 85) {
		k->family = HWXDP_FAMILY_IPV4;
		put_be(k->src, 4, 0x0a000000u | (c & 0xffffff));
		put_be(k->dst, 4, 0x5db80000u + s % 8192);
	} else {
		k->family = HWXDP_FAMILY_IPV6;
		put_be(k->src, 8, 0xfd00000000000000ull | ((c >> 48) << 16));
		put_be(k->src + 8, 8, c);
		put_be(k->dst, 8, 0x2001067c04000000ull + (s % 64) * 0x10000);
		put_be(k->dst + 8, 8, s >> 40);
	}
}

/* n flows present in the table and n absent ones, all distinct. */
static int make_flows(uint32_t n, uint64_t seed, struct hwxdp_flow_key **hit,
		      struct hwxdp_flow_key **miss)
{
	struct hwxdp_hash *seen = hwxdp_hash__new(sizeof(**hit), 1, 2 * n, seed ^ 0x5eed);
	struct hwxdp_flow_key *keys = calloc(2 * (size_t)n, sizeof(*keys));
	uint8_t one = 1;
	uint32_t i;
	int err;

	if (!seen || !keys)
		return -ENOMEM;
	for (i = 0; i < 2 * n; i++) {
		do {
			random_flow(&keys[i], &seed);
			err = hwxdp_hash__update(seen, &keys[i], &one, BPF_NOEXIST);
		} while (err == -EEXIST);
		if (err)
			return err;
	}
	hwxdp_hash__free(seen);
	*hit = keys;
	*miss = keys + n;
	return 0;
}

static struct figure fill, fill_batch, hit, miss, hit_batch;
static struct figure k_fill, k_fill_batch, k_hit, k_miss;

static int bench_device(const struct hwxdp_flow_key *keys, const struct hwxdp_flow_key *absent,
			const struct hwxdp_flow *values, uint32_t n, uint64_t seed, size_t *memory)
{
	struct hwxdp_hash *h;
	struct sample t;
	uint64_t sum = 0;
	uint32_t i, count, missing = 0;
	void **found = malloc(n * sizeof(*found));
	struct hwxdp_flow *v;
	int err;

	h = hwxdp_hash__new(sizeof(*keys), sizeof(*values), n, seed);
	if (!h || !found)
		return -ENOMEM;
	t = now();
	for (i = 0; i < n; i++) {
		err = hwxdp_hash__update(h, &keys[i], &values[i], BPF_NOEXIST);
		if (err) {
			fprintf(stderr, "update of flow %u: %s\n", i, strerror(-err));
			return err;
		}
	}
	record(&fill, t, n);
	*memory = hwxdp_hash__memory(h);

	t = now();
	for (i = 0; i < n; i++) {
		v = hwxdp_hash__lookup(h, &keys[i]);
		sum += v ? v->nexthop : 1ull << 40;
	}
	record(&hit, t, n);
	t = now();
	for (i = 0; i < n; i++)
		missing += !hwxdp_hash__lookup(h, &absent[i]);
	record(&miss, t, n);
	t = now();
	count = hwxdp_hash__lookup_batch(h, keys, n, found);
	for (i = 0; i < n; i++)
		sum -= ((struct hwxdp_flow *)found[i])->nexthop;
	record(&hit_batch, t, n);
	hwxdp_hash__free(h);
	/* Each present flow's next hop added once and subtracted once. */
	if (sum != 0 || missing != n || count != n) {
		fprintf(stderr, "lookups returned wrong results\n");
		return -EIO;
	}

	h = hwxdp_hash__new(sizeof(*keys), sizeof(*values), n, seed);
	if (!h)
		return -ENOMEM;
	count = n;
	t = now();
	err = hwxdp_hash__update_batch(h, keys, values, &count, BPF_NOEXIST);
	record(&fill_batch, t, n);
	hwxdp_hash__free(h);
	free(found);
	return err;
}

/* The kernel's own figure for the map's memory (fdinfo "memlock:"). */
static size_t kernel_memory(int fd)
{
	char path[64], line[256];
	size_t bytes = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "memlock: %zu", &bytes) == 1)
			break;
	fclose(f);
	return bytes;
}

static int bench_kernel(const struct hwxdp_flow_key *keys, const struct hwxdp_flow_key *absent,
			const struct hwxdp_flow *values, uint32_t n, size_t *memory)
{
	struct hwxdp_flow v;
	struct sample t;
	uint32_t i, count, found = 0, missing = 0;
	int fd, err;

	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "hx_bench", sizeof(*keys), sizeof(*values), n, NULL);
	if (fd < 0)
		return fd;
	t = now();
	for (i = 0; i < n; i++) {
		err = bpf_map_update_elem(fd, &keys[i], &values[i], BPF_NOEXIST);
		if (err) {
			fprintf(stderr, "kernel update of flow %u: %s\n", i, strerror(-err));
			close(fd);
			return err;
		}
	}
	record(&k_fill, t, n);
	*memory = kernel_memory(fd);
	t = now();
	for (i = 0; i < n; i++)
		found += !bpf_map_lookup_elem(fd, &keys[i], &v);
	record(&k_hit, t, n);
	t = now();
	for (i = 0; i < n; i++)
		missing += bpf_map_lookup_elem(fd, &absent[i], &v) == -ENOENT;
	record(&k_miss, t, n);
	close(fd);
	if (found != n || missing != n) {
		fprintf(stderr, "kernel lookups returned wrong results\n");
		return -EIO;
	}

	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "hx_bench", sizeof(*keys), sizeof(*values), n, NULL);
	if (fd < 0)
		return fd;
	count = n;
	t = now();
	err = bpf_map_update_batch(fd, keys, values, &count, NULL);
	record(&k_fill_batch, t, n);
	close(fd);
	return err;
}

static void print_ratio(const char *name, const struct figure *kernel, const struct figure *device)
{
	struct sample k, d;

	if (!kernel->n || !device->n)
		return;
	k = median(kernel);
	d = median(device);
	printf("  %-40s %8.2fx wall %8.2fx cpu\n", name, k.wall / d.wall, k.cpu / d.cpu);
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-n flows] [-r runs (1..%d)] [-s seed] [-K]\n", prog, MAX_RUNS);
	exit(2);
}

int main(int argc, char **argv)
{
	struct hwxdp_flow_key *keys, *absent;
	struct hwxdp_flow *values;
	size_t memory = 0, k_memory = 0;
	uint32_t n = 2000000, i;
	uint64_t seed = 1;
	int runs = 5, opt, run, err;
	bool kernel = true;

	while ((opt = getopt(argc, argv, "n:r:s:K")) != -1) {
		switch (opt) {
		case 'n':
			n = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'r':
			runs = atoi(optarg);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'K':
			kernel = false;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (!n || runs < 1 || runs > MAX_RUNS)
		usage(argv[0]);
	if (kernel && geteuid() != 0) {
		printf("note: not root, the kernel BPF_MAP_TYPE_HASH peer is skipped\n");
		kernel = false;
	}

	fill = (struct figure){ .name = "fill, update() one by one" };
	fill_batch = (struct figure){ .name = "fill, update_batch()" };
	hit = (struct figure){ .name = "lookup, present" };
	miss = (struct figure){ .name = "lookup, absent" };
	hit_batch = (struct figure){ .name = "lookup_batch(), present" };
	k_fill = (struct figure){ .name = "fill, bpf_map_update_elem" };
	k_fill_batch = (struct figure){ .name = "fill, bpf_map_update_batch" };
	k_hit = (struct figure){ .name = "lookup, present, bpf_map_lookup_elem" };
	k_miss = (struct figure){ .name = "lookup, absent, bpf_map_lookup_elem" };

	err = make_flows(n, seed, &keys, &absent);
	values = calloc(n, sizeof(*values));
	if (err || !values) {
		fprintf(stderr, "cannot make %u flows: %s\n", n, strerror(err ? -err : ENOMEM));
		return 1;
	}
	for (i = 0; i < n; i++) {
		values[i].nexthop = i;
		values[i].flags = i % 16 ? 0 : HWXDP_FLOW_TUNNEL;
	}

	for (run = 0; run < runs; run++) {
		err = bench_device(keys, absent, values, n, seed + run, &memory);
		if (err) {
			fprintf(stderr, "device table: %s\n", strerror(-err));
			return 1;
		}
		if (kernel) {
			err = bench_kernel(keys, absent, values, n, &k_memory);
			if (err) {
				fprintf(stderr, "kernel map: %s\n", strerror(-err));
				return 1;
			}
		}
	}

	printf("flow table: %u flows, key %zu B, value %zu B, median of %d runs\n", n,
	       sizeof(*keys), sizeof(*values), runs);
	printf("  %-40s %9s   %9s   %8s       %8s\n", "", "wall", "cpu", "wall", "cpu");
	printf("hwxdp device table (bucketized cuckoo)\n");
	print_figure(&fill);
	print_figure(&fill_batch);
	print_figure(&hit);
	print_figure(&miss);
	print_figure(&hit_batch);
	printf("  %-40s %zu B, %.2f B/entry\n", "memory", memory, (double)memory / n);
	if (kernel) {
		printf("kernel BPF_MAP_TYPE_HASH (preallocated), through bpf() syscalls\n");
		print_figure(&k_fill);
		print_figure(&k_fill_batch);
		print_figure(&k_hit);
		print_figure(&k_miss);
		printf("  %-40s %zu B, %.2f B/entry (fdinfo memlock)\n", "memory", k_memory,
		       (double)k_memory / n);
		printf("kernel time / hwxdp time (above 1: hwxdp faster)\n");
		print_ratio("fill, one by one", &k_fill, &fill);
		print_ratio("fill, batch", &k_fill_batch, &fill_batch);
		print_ratio("lookup, present", &k_hit, &hit);
		print_ratio("lookup, absent", &k_miss, &miss);
		if (memory)
			printf("  %-40s %8.2fx\n", "memory, kernel / hwxdp",
			       (double)k_memory / memory);
	}
	free(keys);
	free(values);
	return 0;
}
