// SPDX-License-Identifier: GPL-2.0
/*
 * `hwxdp conformance` end to end, as a conformance suite runs it: the
 * program on stdin or in --program, the memory as an argument (first, through
 * scripts/hwxdp-conformance, as the suites order them), r0 in hex on
 * stdout and exit 0, or exit 1 with a reason on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "lab/target.h"
#include "tests/conformance/cases.h"

#define OUT_MAX (1u << 20)

struct outcome {
	int status; /* exit status, or -1 when the command did not exit */
	char out[4096];
	char *err; /* all of stderr (a verifier log may be long) */
};

static void read_all(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t got;

	lseek(fd, 0, SEEK_SET);
	while (n + 1 < cap && (got = read(fd, buf + n, cap - n - 1)) > 0)
		n += (size_t)got;
	buf[n] = '\0';
}

/* Runs argv[0] (a path) with input on stdin. */
static void run(struct outcome *o, const char *input, const char *const *argv)
{
	char in_path[] = "/tmp/hwxdp-conf-in.XXXXXX", out_path[] = "/tmp/hwxdp-conf-out.XXXXXX";
	char err_path[] = "/tmp/hwxdp-conf-err.XXXXXX";
	int in = mkstemp(in_path), out = mkstemp(out_path), err = mkstemp(err_path), status;
	pid_t pid;

	cr_assert(in >= 0 && out >= 0 && err >= 0, "temporary files: %s", strerror(errno));
	unlink(in_path);
	unlink(out_path);
	unlink(err_path);
	cr_assert_eq(write(in, input, strlen(input)), (ssize_t)strlen(input));
	lseek(in, 0, SEEK_SET);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		dup2(in, 0);
		dup2(out, 1);
		dup2(err, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	o->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	read_all(out, o->out, sizeof(o->out));
	o->err = calloc(1, OUT_MAX);
	cr_assert_not_null(o->err);
	read_all(err, o->err, OUT_MAX);
	close(in);
	close(out);
	close(err);
}

/* build/hwxdp conformance ARGS... */
static void hwxdp(struct outcome *o, const char *input, const char *const *args)
{
	static char bin[512];
	const char *argv[16] = { bin, "conformance" };
	size_t n = 2;

	snprintf(bin, sizeof(bin), "%s/hwxdp", hx_build_dir());
	cr_assert_eq(access(bin, X_OK), 0, "%s is not built", bin);
	for (; *args && n < 15; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	run(o, input, argv);
}

static void expect_r0(const struct outcome *o, const char *r0)
{
	cr_expect_eq(o->status, 0, "exit %d, stderr: %s", o->status, o->err);
	cr_expect_str_eq(o->out, r0);
	cr_expect_str_eq(o->err, "", "stderr: %s", o->err);
}

static void expect_failure(const struct outcome *o, const char *reason)
{
	cr_expect_eq(o->status, 1, "exit %d (stdout '%s')", o->status, o->out);
	cr_expect_str_eq(o->out, "", "nothing on stdout on failure");
	cr_expect(strstr(o->err, reason) != NULL, "stderr lacks '%s': %s", reason, o->err);
	cr_expect(strstr(o->err, "\n") != NULL, "the reason ends its line");
}

/* r0 = 42; exit */
static const char answer[] = "b7 00 00 00 2a 00 00 00 95 00 00 00 00 00 00 00\n";
/* r0 = *(u8 *)(r1 +2); exit */
static const char third_byte[] = "71 10 02 00 00 00 00 00 95 00 00 00 00 00 00 00\n";

Test(conformance_cli, program_on_stdin)
{
	struct outcome o;

	hwxdp(&o, answer, (const char *const[]){ NULL });
	expect_r0(&o, "2a\n");
	free(o.err);
}

Test(conformance_cli, r0_all_ones_and_zero)
{
	struct outcome o;

	/* r0 = -1; exit */
	hwxdp(&o, "b7 00 00 00 ff ff ff ff 95 00 00 00 00 00 00 00", (const char *const[]){ NULL });
	expect_r0(&o, "ffffffffffffffff\n");
	free(o.err);
	/* r0 = 0; exit: a bare 0, no leading zeros or 0x elsewhere either */
	hwxdp(&o, "b7 00 00 00 00 00 00 00 95 00 00 00 00 00 00 00", (const char *const[]){ NULL });
	expect_r0(&o, "0\n");
	free(o.err);
}

Test(conformance_cli, memory_and_program_argument)
{
	struct outcome o;

	hwxdp(&o, "", (const char *const[]){ "--program", third_byte, "0a 0b 0c 0d", NULL });
	expect_r0(&o, "c\n");
	free(o.err);
	/* the suites' spacing: two blanks after each byte, one trailing */
	hwxdp(&o, third_byte, (const char *const[]){ "00  01  ff  ", "--debug", NULL });
	expect_r0(&o, "ff\n");
	free(o.err);
}

Test(conformance_cli, plugin_script_takes_memory_first)
{
	const char *script = conf_path("../../scripts/hwxdp-conformance");
	struct outcome o;

	cr_assert_eq(access(script, X_OK), 0, "%s is not executable", script);
	/* as the runner starts it: memory, then its (here empty) options */
	run(&o, third_byte, (const char *const[]){ script, "5a 5b 5c", "", NULL });
	expect_r0(&o, "5c\n");
	free(o.err);
	run(&o, answer, (const char *const[]){ script, NULL });
	expect_r0(&o, "2a\n");
	free(o.err);
}

Test(conformance_cli, malformed_hex)
{
	struct outcome o;

	hwxdp(&o, "b7 00 00 00 2a 00 0g 00 95 00 00 00 00 00 00 00", (const char *const[]){ NULL });
	expect_failure(&o, "malformed hex");
	free(o.err);
	hwxdp(&o, "b7 000 00 00 2a 00 00 00 95 00 00 00 00 00 00", (const char *const[]){ NULL });
	expect_failure(&o, "odd number of digits");
	free(o.err);
	hwxdp(&o, answer, (const char *const[]){ "01 zz", NULL });
	expect_failure(&o, "memory: malformed hex");
	free(o.err);
}

Test(conformance_cli, not_whole_instructions)
{
	struct outcome o;

	hwxdp(&o, "b7 00 00 00 2a 00 00 00 95 00 00 00 00 00 00", (const char *const[]){ NULL });
	expect_failure(&o, "not a multiple of 8");
	free(o.err);
}

Test(conformance_cli, empty_program)
{
	struct outcome o;

	hwxdp(&o, "", (const char *const[]){ NULL });
	expect_failure(&o, "empty program");
	free(o.err);
	hwxdp(&o, " \n", (const char *const[]){ "00 01", NULL });
	expect_failure(&o, "empty program");
	free(o.err);
}

Test(conformance_cli, refused_by_the_verifier)
{
	/* r0 = r3; exit: r3 is not set at entry */
	const char *prog = "bf 30 00 00 00 00 00 00 95 00 00 00 00 00 00 00";
	struct outcome o;

	hwxdp(&o, prog, (const char *const[]){ NULL });
	expect_failure(&o, "the verifier refuses it at insn 0: R3 !read_ok");
	cr_expect(!strchr(strchr(o.err, '\n') + 1, '\n'), "one line without --debug: %s", o.err);
	free(o.err);
	/* --debug adds the verifier's log, the path to the refusal */
	hwxdp(&o, prog, (const char *const[]){ "--debug", NULL });
	expect_failure(&o, "R3 !read_ok");
	cr_expect(strstr(o.err, "call pc+") != NULL, "no log with --debug: %s", o.err);
	free(o.err);
}

Test(conformance_cli, memory_beyond_reach)
{
	struct outcome o;

	/* a byte at offset 2 of 2 bytes */
	hwxdp(&o, third_byte, (const char *const[]){ "01 02", NULL });
	expect_failure(&o, "refuses");
	free(o.err);
}

Test(conformance_cli, bad_arguments)
{
	struct outcome o;

	hwxdp(&o, answer, (const char *const[]){ "--frobnicate", NULL });
	expect_failure(&o, "unknown option '--frobnicate'");
	free(o.err);
	hwxdp(&o, answer, (const char *const[]){ "01", "02", NULL });
	expect_failure(&o, "unexpected argument '02'");
	free(o.err);
	hwxdp(&o, answer, (const char *const[]){ "--program", NULL });
	expect_failure(&o, "--program needs");
	free(o.err);
	hwxdp(&o, "", (const char *const[]){ "--help", NULL });
	cr_expect_eq(o.status, 0);
	cr_expect(strstr(o.err, "Usage:") != NULL);
	free(o.err);
}

Test(conformance_cli, on_the_kernel)
{
	struct outcome o;

	if (geteuid() != 0)
		cr_skip_test("the kernel target needs root (BPF_PROG_TEST_RUN)");
	hwxdp(&o, third_byte, (const char *const[]){ "00 01 ff", "--kernel", NULL });
	expect_r0(&o, "ff\n");
	free(o.err);
	hwxdp(&o, "bf 30 00 00 00 00 00 00 95 00 00 00 00 00 00 00",
	      (const char *const[]){ "--kernel", NULL });
	expect_failure(&o, "the kernel refuses it: R3 !read_ok");
	free(o.err);
}

/* The object as hex bytes, as a suite passes one with --elf. */
static char *hex_of_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *hex;
	size_t n = 0;
	int c;

	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	hex = malloc(3 * 65536 + 1);
	cr_assert_not_null(hex);
	while ((c = fgetc(f)) != EOF && n < 3 * 65536)
		n += (size_t)sprintf(hex + n, "%02x ", c);
	hex[n] = '\0';
	fclose(f);
	return hex;
}

Test(conformance_cli, elf_object)
{
	static const char source[] =
		"__attribute__((section(\"xdp\"), used))\n"
		"unsigned long long entry(unsigned char *mem, unsigned long long len)\n"
		"{\n\treturn mem[1] * 2 + len;\n}\n"
		"char _license[] __attribute__((section(\"license\"), used)) = \"GPL\";\n";
	char dir[] = "/tmp/hwxdp-conf-elf.XXXXXX", src[128], obj[128], cmd[512];
	struct outcome o;
	char *hex;
	FILE *f;

	if (system("clang --version >/dev/null 2>&1"))
		cr_skip_test("clang is not installed");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(src, sizeof(src), "%s/entry.c", dir);
	snprintf(obj, sizeof(obj), "%s/entry.o", dir);
	f = fopen(src, "w");
	cr_assert_not_null(f);
	fputs(source, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "clang -O2 -target bpf -c %s -o %s", src, obj);
	cr_assert_eq(system(cmd), 0, "%s failed", cmd);
	hex = hex_of_file(obj);
	unlink(src);
	unlink(obj);
	rmdir(dir);

	/* mem[1] * 2 + len = 6 * 2 + 3 */
	hwxdp(&o, hex, (const char *const[]){ "05 06 07", "--elf", NULL });
	expect_r0(&o, "f\n");
	free(o.err);
	/* the same bytes without --elf are not instructions */
	hwxdp(&o, hex, (const char *const[]){ "05 06 07", NULL });
	cr_expect_eq(o.status, 1);
	free(o.err);
	free(hex);
	/* instructions are no ELF object */
	hwxdp(&o, answer, (const char *const[]){ "--elf", NULL });
	expect_failure(&o, "the ELF object cannot be read");
	free(o.err);
}
