// SPDX-License-Identifier: GPL-2.0
/*
 * Operation semantics from tests/device/ops.data: one case per line,
 *   OPS => RESULT
 * where OPS are operations separated by " | " (each its own bundle) or
 * " & " (the same bundle), and RESULT is r0 after them (any number), or
 * "!pkt", "!lm", "!depth", "!ret", "!budget" for a frame the engine must
 * abort with that error. Before the operations the packet holds 64 bytes,
 * byte i = i, and r0..r9 are 0 except r10; after them the harness stores
 * r0 at data (r9 is the harness's).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "tests/device/engine_util.h"

static const char *data_path(const char *name, char *buf, size_t len)
{
	const char *slash = strrchr(__FILE__, '/');

	snprintf(buf, len, "%.*s/%s", slash ? (int)(slash - __FILE__) : 1, slash ? __FILE__ : ".",
		 name);
	return buf;
}

static bool parse_expect(const char *s, uint64_t *value, int *error)
{
	static const struct {
		const char *name;
		int error;
	} errors[] = {
		{ "!pkt", HWXDP_ERR_PKT_ACCESS },     { "!lm", HWXDP_ERR_LM_ACCESS },
		{ "!depth", HWXDP_ERR_CALL_DEPTH },   { "!ret", HWXDP_ERR_RET_EMPTY },
		{ "!budget", HWXDP_ERR_LOOP_BUDGET },
	};
	char *end;

	while (*s == ' ')
		s++;
	*error = 0;
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		if (!strncmp(s, errors[i].name, strlen(errors[i].name))) {
			*error = -errors[i].error;
			return true;
		}
	}
	errno = 0;
	if (*s == '-')
		*value = (uint64_t)strtoll(s, &end, 0);
	else
		*value = strtoull(s, &end, 0);
	return !errno && end != s;
}

/* "a | b & c" -> "a ;;\nb\nc ;;\n" */
static void to_text(const char *ops, struct strbuf *text)
{
	const char *p = ops;

	while (*p) {
		size_t n = strcspn(p, "|&");

		sb_printf(text, "%.*s%s\n", (int)n, p, p[n] == '&' ? "" : " ;;");
		p += n;
		if (*p)
			p++;
	}
	sb_printf(text, "ctx r9, data ;;\nst64.pkt [r9], r0 ;;\nexit ;;\n");
}

static int run_case(const char *ops, uint64_t want, int want_error, char *why, size_t len)
{
	static const struct hxu_table_desc tables[] = {
		{ .id = 1,
		  .type = BPF_MAP_TYPE_ARRAY,
		  .key_size = 4,
		  .value_size = 16,
		  .max_entries = 4,
		  .name = "arr" },
	};
	uint8_t pkt[64];
	struct strbuf text = { 0 };
	struct hxe *x;
	uint64_t got;
	int ok = 1;

	for (int i = 0; i < 64; i++)
		pkt[i] = (uint8_t)i;
	to_text(ops, &text);
	x = hxe_new(text.s, tables, 1, NULL);
	hxe_run(x, 0, pkt, sizeof(pkt));
	if (want_error) {
		if (x->rc != want_error || x->frame.verdict != XDP_ABORTED) {
			snprintf(why, len, "rc %d verdict %u, want error %d", x->rc,
				 x->frame.verdict, want_error);
			ok = 0;
		}
	} else if (x->rc) {
		snprintf(why, len, "engine aborted the frame: %d at op %u", x->rc,
			 x->frame.fault_op);
		ok = 0;
	} else {
		memcpy(&got, hxe_data(x), sizeof(got));
		if (got != want) {
			snprintf(why, len, "r0 0x%llx, want 0x%llx", (unsigned long long)got,
				 (unsigned long long)want);
			ok = 0;
		}
	}
	hxe_free(x);
	sb_free(&text);
	return ok;
}

Test(ops_data, every_case)
{
	char path[512], line[1024], why[128];
	unsigned int lineno = 0, cases = 0, failures = 0;
	FILE *f = fopen(data_path("ops.data", path, sizeof(path)), "r");

	cr_assert(f, "cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		char *arrow, *nl = strchr(line, '\n');
		uint64_t want = 0;
		int error;

		lineno++;
		if (nl)
			*nl = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		arrow = strstr(line, "=>");
		cr_assert(arrow, "%s:%u: no =>", path, lineno);
		*arrow = '\0';
		cr_assert(parse_expect(arrow + 2, &want, &error), "%s:%u: bad result", path,
			  lineno);
		cases++;
		if (!run_case(line, want, error, why, sizeof(why))) {
			failures++;
			cr_log_error("%s:%u: %s: %s", path, lineno, line, why);
		}
	}
	fclose(f);
	cr_assert_gt(cases, 100, "only %u cases read", cases);
	cr_assert_eq(failures, 0, "%u of %u cases failed", failures, cases);
}
