// SPDX-License-Identifier: GPL-2.0
/*
 * The files hwxdp reads and writes, through the command: no output replaces
 * an input or another output however the paths are spelt, a device or a
 * link is never replaced, a failed run changes no file, no temporary file
 * survives a signal, no input blocks or fills memory, and a capture's
 * records say what they hold. HWXDP_CMD names another hwxdp to try.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "lab/target.h"

#define FRAME_LEN 100

static char dir[64];
static char paths[8][256];

static const char *at(int slot, const char *name)
{
	snprintf(paths[slot], sizeof(paths[slot]), "%s/%s", dir, name);
	return paths[slot];
}

static void setup(void)
{
	strcpy(dir, "/tmp/hwxdp-files-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

static const char *bin(void)
{
	static char path[512];
	const char *env = getenv("HWXDP_CMD");

	if (env && *env)
		return env;
	snprintf(path, sizeof(path), "%s/hwxdp", hx_build_dir());
	return path;
}

/* Starts hwxdp with args (NULL-terminated), its output into fd out. */
static pid_t start(const char *const *args, int out, bool named_tmp)
{
	const char *argv[32] = { bin() };
	pid_t pid;
	size_t n;

	for (n = 0; args[n]; n++)
		argv[n + 1] = args[n];
	argv[n + 1] = NULL;
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		if (named_tmp)
			setenv("HWXDP_NAMED_TMPFILE", "1", 1);
		/* a background job's shell leaves SIGINT ignored: a user's ^C
		 * is what the signal tests send */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		dup2(out, 1);
		dup2(out, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* Waits up to seconds for pid: its exit status, or -1 after killing it
 * when it had not ended (it hung). */
static int wait_for(pid_t pid, int seconds)
{
	int status;

	for (int i = 0; i < seconds * 100; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

/* Runs hwxdp with args: its status (-1: still running after 10 s),
 * stdout+stderr in text. */
static int hwxdp(char *text, size_t cap, const char *const *args)
{
	char log[128];
	int fd, rc;
	ssize_t n;

	snprintf(log, sizeof(log), "%s/.log", dir);
	fd = open(log, O_RDWR | O_CREAT | O_TRUNC, 0600);
	cr_assert_geq(fd, 0);
	rc = wait_for(start(args, fd, false), 10);
	n = pread(fd, text, cap - 1, 0);
	text[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(log);
	return rc;
}

static void put_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(fwrite(data, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
}

static size_t get_file(const char *path, void *buf, size_t cap)
{
	FILE *f = fopen(path, "r");
	size_t n;

	cr_assert_not_null(f, "%s", path);
	n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

struct record {
	uint32_t sec, frac, caplen, len;
};

/* A pcap file by hand, so that a record can lie: an IPv4 frame that the
 * forwarding program punts without maps (unknown port). */
static void put_pcap(const char *path, bool nano, const struct record *r, size_t cnt, size_t repeat)
{
	uint8_t head[24] = { 0 }, rec[16 + FRAME_LEN] = { 0 }, *frame = rec + 16;
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f);
	put32(head, nano ? 0xa1b23c4d : 0xa1b2c3d4);
	head[4] = 2;
	head[6] = 4;
	put32(head + 16, 65535);
	put32(head + 20, 1);
	cr_assert_eq(fwrite(head, 1, sizeof(head), f), sizeof(head));
	frame[11] = 1;
	frame[6] = 2;
	frame[12] = 0x08;
	frame[14] = 0x45;
	frame[17] = FRAME_LEN - 14;
	frame[22] = 64;
	frame[23] = 17;
	frame[26] = frame[30] = 10;
	frame[29] = 1;
	frame[33] = 2;
	for (size_t k = 0; k < repeat; k++)
		for (size_t i = 0; i < cnt; i++) {
			put32(rec, r[i].sec);
			put32(rec + 4, r[i].frac);
			put32(rec + 8, r[i].caplen);
			put32(rec + 12, r[i].len);
			cr_assert_eq(fwrite(rec, 1, 16 + FRAME_LEN, f), 16 + FRAME_LEN);
		}
	cr_assert_eq(fclose(f), 0);
}

static const struct record plain[] = { { 1, 0, FRAME_LEN, FRAME_LEN } };

/* Names in dir other than those given, NULL-terminated: a count. */
static int leftovers(const char *const *keep)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int cnt = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d))) {
		bool kept = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");

		for (size_t i = 0; keep[i] && !kept; i++)
			kept = !strcmp(e->d_name, keep[i]);
		if (!kept) {
			cr_log_warn("left behind: %s", e->d_name);
			cnt++;
		}
	}
	closedir(d);
	return cnt;
}

/* Whether pid has an output under dir open, other than the inputs (keep),
 * that holds bytes: a temporary file being written, named or not. */
static bool temp_written(pid_t pid, const char *const *keep)
{
	char fds[64], path[PATH_MAX + 64], target[PATH_MAX];
	size_t len = strlen(dir);
	struct dirent *e;
	struct stat st;
	bool found = false;
	DIR *d;

	snprintf(fds, sizeof(fds), "/proc/%d/fd", (int)pid);
	d = opendir(fds);
	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		ssize_t n;
		bool kept = false;

		snprintf(path, sizeof(path), "%s/%s", fds, e->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (strncmp(target, dir, len) || target[len] != '/')
			continue;
		for (size_t i = 0; keep[i] && !kept; i++)
			kept = !strcmp(target + len + 1, keep[i]);
		found = !kept && !stat(path, &st) && S_ISREG(st.st_mode) && st.st_size > 0;
	}
	closedir(d);
	return found;
}

static void need_root(void)
{
	if (geteuid())
		cr_skip_test("needs root (device nodes, mount namespaces)");
}

Test(files, translate_onto_its_own_object, .init = setup, .fini = teardown)
{
	static uint8_t before[1 << 20], after[1 << 20];
	static char text[8192];
	const char *args[] = { "prog", "translate", NULL, "-o", NULL, NULL };
	size_t len;

	len = get_file(hx_object_path("fwd"), before, sizeof(before));
	put_file(at(0, "x.o"), before, len);
	cr_assert_eq(link(paths[0], at(1, "hard.o")), 0);
	args[2] = paths[0];
	args[4] = paths[0];
	cr_assert_eq(hwxdp(text, sizeof(text), args), 1, "%s", text);
	cr_assert_not_null(strstr(text, "the same file as the input"), "%s", text);
	/* a hard link is the same file under another name */
	args[4] = paths[1];
	cr_assert_eq(hwxdp(text, sizeof(text), args), 1, "%s", text);
	cr_assert_eq(get_file(paths[0], after, sizeof(after)), len);
	cr_assert_arr_eq(after, before, len, "the object was overwritten");
}

Test(files, run_output_is_its_input, .init = setup, .fini = teardown)
{
	static char text[8192];
	char spelt[300];
	const char *args[] = { "run", hx_object_path("fwd"), "--in", spelt, "--out", NULL, NULL };
	uint8_t head[24];

	put_pcap(at(0, "a.pcap"), false, plain, 1, 3);
	/* the same file, spelt two ways */
	snprintf(spelt, sizeof(spelt), "%s/./a.pcap", dir);
	args[5] = paths[0];
	cr_assert_eq(hwxdp(text, sizeof(text), args), 1, "%s", text);
	cr_assert_not_null(strstr(text, "the same file as the input"), "%s", text);
	cr_assert_eq(get_file(paths[0], head, sizeof(head)), sizeof(head));
	cr_assert_eq(get32(head), 0xa1b2c3d4);
	cr_assert_eq(access(paths[0], R_OK), 0);
	{
		struct stat st;

		cr_assert_eq(stat(paths[0], &st), 0);
		cr_assert_eq(st.st_size, 24 + 3 * (16 + FRAME_LEN), "the input was replaced");
	}
}

Test(files, out_and_punt_the_same_file, .init = setup, .fini = teardown)
{
	static char text[8192];
	char spelt[300];
	const char *args[] = {
		"run", hx_object_path("fwd"), "--in", NULL, "--out", NULL, "--punt", spelt, NULL
	};
	const char *keep[] = { "a.pcap", "o.pcap", NULL };

	put_pcap(at(0, "a.pcap"), false, plain, 1, 3);
	put_file(at(1, "o.pcap"), "earlier\n", 8);
	snprintf(spelt, sizeof(spelt), "%s/./o.pcap", dir);
	args[3] = paths[0];
	args[5] = paths[1];
	cr_assert_eq(hwxdp(text, sizeof(text), args), 1, "%s", text);
	cr_assert_not_null(strstr(text, "the same file as the output"), "%s", text);
	/* two outputs that do not exist yet clash by their resolved path */
	unlink(paths[1]);
	cr_assert_eq(hwxdp(text, sizeof(text), args), 1, "%s", text);
	cr_assert_not_null(strstr(text, "the same file as the output"), "%s", text);
	cr_assert_eq(leftovers(keep), 0);
}

Test(files, device_node_written_in_place, .init = setup, .fini = teardown)
{
	static char text[8192];
	const char *args[] = { "run", hx_object_path("fwd"), "--in", NULL, "--out", NULL, NULL };
	struct stat st;

	need_root();
	put_pcap(at(0, "a.pcap"), false, plain, 1, 3);
	/* a /dev/null of our own, so that a failure replaces nothing else */
	cr_assert_eq(mknod(at(1, "null"), S_IFCHR | 0666, makedev(1, 3)), 0);
	args[3] = paths[0];
	args[5] = paths[1];
	cr_assert_eq(hwxdp(text, sizeof(text), args), 0, "%s", text);
	cr_assert_eq(lstat(paths[1], &st), 0);
	cr_assert(S_ISCHR(st.st_mode), "the device node was replaced by a regular file");
	cr_assert_eq(st.st_rdev, makedev(1, 3));
}

Test(files, symlink_followed_not_replaced, .init = setup, .fini = teardown)
{
	static char text[65536];
	const char *args[] = {
		"run", hx_object_path("fwd"), "--in", NULL, "--out", NULL, "--punt", NULL, NULL
	};
	struct stat st;
	uint8_t head[24];

	put_pcap(at(0, "a.pcap"), false, plain, 1, 3);
	put_file(at(2, "target.pcap"), "earlier\n", 8);
	cr_assert_eq(symlink("target.pcap", at(1, "link.pcap")), 0);
	/* stdout, as a link names it: written in place, the link kept */
	cr_assert_eq(symlink("/proc/self/fd/1", at(3, "stdout")), 0);
	args[3] = paths[0];
	args[5] = paths[3];
	args[7] = paths[1];
	cr_assert_eq(hwxdp(text, sizeof(text), args), 0, "%s", text);
	cr_assert_eq(lstat(paths[1], &st), 0);
	cr_assert(S_ISLNK(st.st_mode), "the link was replaced");
	cr_assert_eq(lstat(paths[3], &st), 0);
	cr_assert(S_ISLNK(st.st_mode), "the link to stdout was replaced");
	/* the punted frames went to the link's target */
	cr_assert_eq(stat(paths[2], &st), 0);
	cr_assert_eq(st.st_size, 24 + 3 * (16 + FRAME_LEN));
	cr_assert_eq(get_file(paths[2], head, sizeof(head)), sizeof(head));
	cr_assert_eq(get32(head), 0xa1b2c3d4);
}

Test(files, failed_punt_leaves_out_untouched, .init = setup, .fini = teardown)
{
	static char text[8192];
	char small[300], punt[320], earlier[16] = "";
	const char *args[] = {
		"run", hx_object_path("fwd"), "--in", NULL, "--out", NULL, "--punt", punt, NULL
	};
	const char *argv[12] = { bin() };
	int status;
	pid_t pid;

	need_root();
	put_pcap(at(0, "a.pcap"), false, plain, 1, 2000);
	put_file(at(1, "o.pcap"), "earlier\n", 8);
	snprintf(small, sizeof(small), "%s/small", dir);
	snprintf(punt, sizeof(punt), "%s/p.pcap", small);
	cr_assert_eq(mkdir(small, 0700), 0);
	args[3] = paths[0];
	args[5] = paths[1];
	for (size_t i = 0; args[i]; i++)
		argv[i + 1] = args[i];
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		/* a full disk: 64 KiB of tmpfs, seen by this process only */
		if (unshare(CLONE_NEWNS) || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("tmpfs", small, "tmpfs", 0, "size=64k"))
			_exit(99);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	cr_assert(WIFEXITED(status));
	if (WEXITSTATUS(status) == 99)
		cr_skip_test("cannot mount a tmpfs in a mount namespace here");
	cr_assert_eq(WEXITSTATUS(status), 1, "a run whose --punt could not be written succeeded");
	cr_assert_eq(get_file(paths[1], earlier, sizeof(earlier) - 1), 8);
	cr_assert_str_eq(earlier, "earlier\n", "--out was replaced by a failed run");

	/* /dev/full written in place: the run fails, the node stays. Only
	 * with this tree's hwxdp: another might replace the real node. */
	if (!getenv("HWXDP_CMD")) {
		struct stat st;

		args[7] = "/dev/full";
		cr_assert_eq(hwxdp(text, sizeof(text), args), 1, "%s", text);
		cr_assert_not_null(strstr(text, "/dev/full"), "%s", text);
		cr_assert_eq(stat("/dev/full", &st), 0);
		cr_assert(S_ISCHR(st.st_mode));
	}
}

/* Starts a long run into dir, signals it mid-way, and counts what is left
 * beside the inputs and outputs. */
static void signal_run(int sig, bool named_tmp)
{
	const char *args[] = {
		"run", hx_object_path("fwd"), "--in", NULL, "--out", NULL, "--punt", NULL, NULL
	};
	const char *keep[] = { "big.pcap", NULL };
	int status, fd, rc;
	pid_t pid;

	put_pcap(at(0, "big.pcap"), false, plain, 1, 2000000);
	args[3] = paths[0];
	args[5] = at(1, "o.pcap");
	args[7] = at(2, "p.pcap");
	fd = open("/dev/null", O_WRONLY);
	pid = start(args, fd, named_tmp);
	close(fd);
	/* well into the frames: a temporary output is being written (a fixed
	 * wait let a fast machine finish the run first) */
	for (int i = 0; i < 10000 && !temp_written(pid, keep); i++)
		usleep(1000);
	cr_assert(temp_written(pid, keep), "no temporary output written in 10 s");
	cr_assert_eq(kill(pid, sig), 0);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFSIGNALED(status), "the run ended before the signal (status %d)", status);
	cr_assert_eq(WTERMSIG(status), sig);
	rc = leftovers(keep);
	cr_assert_eq(rc, 0, "%d temporary files left after signal %d", rc, sig);
}

Test(files, sigterm_leaves_no_temporary, .init = setup, .fini = teardown, .timeout = 60)
{
	signal_run(SIGTERM, true);
}

Test(files, sigint_leaves_no_temporary, .init = setup, .fini = teardown, .timeout = 60)
{
	signal_run(SIGINT, true);
}

Test(files, sigkill_leaves_no_temporary, .init = setup, .fini = teardown, .timeout = 60)
{
	/* O_TMPFILE: nothing has a name until the run commits */
	signal_run(SIGKILL, false);
}

Test(files, fifo_inputs_do_not_block, .init = setup, .fini = teardown)
{
	static char text[8192];
	const char *run_in[] = { "run", hx_object_path("fwd"), "--in", NULL, "--out", NULL, NULL };
	const char *run_maps[] = {
		"run", hx_object_path("fwd"), "--in", NULL, "--out", NULL, "--maps", NULL, NULL
	};
	const char *run_obj[] = { "run", NULL, "--in", NULL, "--out", NULL, NULL };
	const char *translate[] = { "prog", "translate", NULL, "-o", NULL, NULL };
	const char *dump[] = { "prog", "dump", NULL, NULL };
	const char *const *cases[] = { run_in, run_maps, run_obj, translate, dump };

	put_pcap(at(0, "a.pcap"), false, plain, 1, 1);
	cr_assert_eq(mkfifo(at(1, "fifo"), 0600), 0);
	at(2, "o.pcap");
	run_in[3] = paths[1];
	run_in[5] = paths[2];
	run_maps[3] = paths[0];
	run_maps[5] = paths[2];
	run_maps[7] = paths[1];
	run_obj[1] = paths[1];
	run_obj[3] = paths[0];
	run_obj[5] = paths[2];
	translate[2] = paths[1];
	translate[4] = at(3, "o.hxu");
	dump[2] = paths[1];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = hwxdp(text, sizeof(text), cases[i]);

		cr_assert_neq(rc, -1, "case %zu blocked on the FIFO", i);
		cr_assert_eq(rc, 1, "case %zu: %s", i, text);
		cr_assert_not_null(strstr(text, "a FIFO"), "case %zu: %s", i, text);
	}
}

Test(files, inputs_have_size_limits, .init = setup, .fini = teardown)
{
	static char text[8192];
	const char *run[] = { "run",	hx_object_path("fwd"), "--in", NULL, "--out", NULL,
			      "--maps", "/dev/zero",	       NULL };
	const char *translate[] = { "prog", "translate", NULL, "-o", NULL, NULL };
	int fd;

	put_pcap(at(0, "a.pcap"), false, plain, 1, 1);
	run[3] = paths[0];
	run[5] = at(1, "o.pcap");
	cr_assert_eq(hwxdp(text, sizeof(text), run), 1, "%s", text);
	cr_assert_not_null(strstr(text, "/dev/zero: a character device"), "%s", text);
	/* sparse files: large, and no room on the disk */
	fd = open(at(2, "state.json"), O_WRONLY | O_CREAT, 0600);
	cr_assert_eq(ftruncate(fd, 65 << 20), 0);
	close(fd);
	run[7] = paths[2];
	cr_assert_eq(hwxdp(text, sizeof(text), run), 1, "%s", text);
	cr_assert_not_null(strstr(text, "65 MiB, over the 64 MiB limit for state files"), "%s",
			   text);
	fd = open(at(3, "big.o"), O_WRONLY | O_CREAT, 0600);
	cr_assert_eq(ftruncate(fd, 1288490189), 0);
	close(fd);
	translate[2] = paths[3];
	translate[4] = at(4, "o.hxu");
	cr_assert_eq(hwxdp(text, sizeof(text), translate), 1, "%s", text);
	cr_assert_not_null(strstr(text, "1.2 GiB, over the 256 MiB limit for objects"), "%s", text);
}

Test(files, record_longer_than_its_frame, .init = setup, .fini = teardown)
{
	static char text[8192];
	const struct record r[] = { { 1, 0, FRAME_LEN, FRAME_LEN }, { 1, 1, FRAME_LEN, 10 } };
	const char *args[] = { "run", hx_object_path("fwd"), "--in", NULL, "--out", NULL, NULL };
	const char *keep[] = { "a.pcap", NULL };

	put_pcap(at(0, "a.pcap"), false, r, 2, 1);
	args[3] = paths[0];
	args[5] = at(1, "o.pcap");
	cr_assert_eq(hwxdp(text, sizeof(text), args), 1, "%s", text);
	cr_assert_not_null(strstr(text, "record 2: 100 bytes captured of a 10-byte frame"), "%s",
			   text);
	cr_assert_eq(leftovers(keep), 0);
}

Test(files, nanoseconds_kept, .init = setup, .fini = teardown)
{
	static char text[8192];
	static uint8_t buf[4096];
	const struct record r[] = { { 7, 123456789, FRAME_LEN, FRAME_LEN },
				    { 8, 999999999, FRAME_LEN, FRAME_LEN } };
	const char *args[] = {
		"run", hx_object_path("fwd"), "--in", NULL, "--out", NULL, "--punt", NULL, NULL
	};
	size_t len;

	put_pcap(at(0, "a.pcap"), true, r, 2, 1);
	args[3] = paths[0];
	args[5] = at(1, "o.pcap");
	args[7] = at(2, "p.pcap");
	cr_assert_eq(hwxdp(text, sizeof(text), args), 0, "%s", text);
	len = get_file(paths[2], buf, sizeof(buf));
	cr_assert_eq(len, 24 + 2 * (16 + FRAME_LEN));
	cr_assert_eq(get32(buf), 0xa1b23c4d, "a microsecond pcap out of a nanosecond one");
	cr_assert_eq(get32(buf + 24), 7);
	cr_assert_eq(get32(buf + 28), 123456789);
	cr_assert_eq(get32(buf + 24 + 16 + FRAME_LEN + 4), 999999999);
	/* the frame itself, as it came */
	cr_assert_eq(buf[24 + 16 + 12], 0x08);
	cr_assert_eq(buf[24 + 16 + 14], 0x45);
}

Test(files, backwards_time_stamp_warned, .init = setup, .fini = teardown)
{
	static char text[8192];
	const struct record r[] = { { 5, 0, FRAME_LEN, FRAME_LEN },
				    { 4, 0, FRAME_LEN, FRAME_LEN },
				    { 3, 0, FRAME_LEN, FRAME_LEN } };
	const char *args[] = { "run", hx_object_path("fwd"), "--in", NULL, "--out", NULL, NULL };
	const char *p;
	int lines = 0;

	put_pcap(at(0, "a.pcap"), false, r, 3, 1);
	args[3] = paths[0];
	args[5] = at(1, "o.pcap");
	cr_assert_eq(hwxdp(text, sizeof(text), args), 0, "%s", text);
	for (p = text; (p = strstr(p, "warning")); p++)
		lines++;
	cr_assert_eq(lines, 1, "one warning for the file: %s", text);
	cr_assert_not_null(strstr(text, "a.pcap: record 2: its time stamp is earlier"), "%s", text);
}

Test(files, empty_file_names, .init = setup, .fini = teardown)
{
	static char text[8192];
	const char *opts[] = { "--out", "--in", "--punt", "--maps" };

	put_pcap(at(0, "a.pcap"), false, plain, 1, 1);
	at(1, "o.pcap");
	for (size_t i = 0; i < 4; i++) {
		const char *args[] = { "run",	hx_object_path("fwd"),
				       "--in",	paths[0],
				       "--out", paths[1],
				       opts[i], "",
				       NULL };
		char want[64];

		snprintf(want, sizeof(want), "error: %s: an empty file name", opts[i]);
		cr_assert_eq(hwxdp(text, sizeof(text), args), 1, "%s", text);
		cr_assert_not_null(strstr(text, want), "%s", text);
	}
	{
		const char *args[] = {
			"run", hx_object_path("fwd"), "--in", "5:", "--out", paths[1], NULL
		};

		cr_assert_eq(hwxdp(text, sizeof(text), args), 1, "%s", text);
		cr_assert_not_null(strstr(text, "--in 5:: no file name after the ifindex"), "%s",
				   text);
	}
	{
		const char *args[] = { "run", "", "--in", paths[0], "--out", paths[1], NULL };

		cr_assert_eq(hwxdp(text, sizeof(text), args), 1, "%s", text);
		cr_assert_not_null(strstr(text, "an empty file name for the BPF object"), "%s",
				   text);
	}
	{
		const char *args[] = { "prog", "translate", hx_object_path("fwd"), "-o", "", NULL };

		cr_assert_eq(hwxdp(text, sizeof(text), args), 1, "%s", text);
		cr_assert_not_null(strstr(text, "-o/--output: an empty file name"), "%s", text);
	}
}
