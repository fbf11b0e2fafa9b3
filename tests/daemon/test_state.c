// SPDX-License-Identifier: GPL-2.0
/*
 * The state file's words (daemon/state.c): what is written is read back as
 * it was, for every byte but NUL; a line that is not one is refused.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/state.h"

/* words escaped and joined by one space, as the file has them. */
static char *line_of(char **words, int n)
{
	size_t len = 1;
	char *line, *at;

	for (int i = 0; i < n; i++)
		len += state_word_escape(words[i], NULL, 0) + 1;
	line = malloc(len);
	cr_assert(line);
	at = line;
	for (int i = 0; i < n; i++) {
		if (i)
			*at++ = ' ';
		at += state_word_escape(words[i], at, len - (size_t)(at - line));
	}
	*at = '\0';
	return line;
}

Test(state_words, every_byte_comes_back)
{
	char word[256], *words[1] = { word }, *got[4], *line;

	for (int c = 1; c < 256; c++) {
		snprintf(word, sizeof(word), "a%cb", c);
		line = line_of(words, 1);
		cr_assert(!strchr(line, ' ') && !strchr(line, '\n'), "byte %d unescaped: %s", c,
			  line);
		cr_assert_eq(state_line_split(line, got, 4), 1, "byte %d: %s", c, line);
		cr_assert_str_eq(got[0], word, "byte %d", c);
		free(line);
	}
}

Test(state_words, random_lines_come_back)
{
	unsigned int seed = 12345;

	for (int round = 0; round < 5000; round++) {
		char buf[8][24], *words[8], *got[8], *line;
		int n = 1 + rand_r(&seed) % 8;

		for (int i = 0; i < n; i++) {
			int len = 1 + rand_r(&seed) % 20;

			for (int j = 0; j < len; j++)
				buf[i][j] = (char)(1 + rand_r(&seed) % 255);
			buf[i][len] = '\0';
			words[i] = buf[i];
		}
		line = line_of(words, n);
		cr_assert_eq(state_line_split(line, got, 8), n, "round %d", round);
		for (int i = 0; i < n; i++)
			cr_assert_str_eq(got[i], words[i], "round %d word %d", round, i);
		free(line);
	}
}

Test(state_words, malformed_lines_are_refused)
{
	static const char *const bad[] = {
		"port  add", "port add ", "a%zz",
		"a%0",	     "a%00b",	  "caf\xc3\xa9",
		"tab\there", "quote\"s",  "nine words a b c d e f g h",
	};
	char *got[8], line[64];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "%s", bad[i]);
		cr_assert_eq(state_line_split(line, got, 8), -1, "accepted: %s", bad[i]);
	}
	snprintf(line, sizeof(line), "lif add p0 vlan 50 mtu 1400");
	cr_assert_eq(state_line_split(line, got, 8), 7);
	cr_assert_str_eq(got[6], "1400");
}
