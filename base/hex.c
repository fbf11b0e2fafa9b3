// SPDX-License-Identifier: GPL-2.0
/* Hex bytes as people write them: the conformance cases, the command's
 * arguments and the state files read them the same way. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hex.h"
#include "base/log.h"

static int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int hx_hex_parse(const char *text, uint8_t **out, size_t *len, char *err, size_t errlen)
{
	size_t cap = strlen(text) / 2 + 1, n = 0;
	const char *p = text;
	uint8_t *bytes;

	*out = NULL;
	*len = 0;
	bytes = malloc(cap);
	if (!bytes)
		return -ENOMEM;
	while (*p) {
		const char *word;
		size_t wlen, i;

		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		word = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		wlen = (size_t)(p - word);
		/* one byte may drop its leading zero ("1" is 01); longer words
		 * are whole bytes */
		if (wlen > 2 && wlen % 2) {
			hwxdp_say(err, errlen, 0, "malformed hex '%.*s': an odd number of digits",
				  (int)(wlen > 32 ? 32 : wlen), word);
			free(bytes);
			return -EINVAL;
		}
		for (i = 0; i < wlen; i++) {
			if (hex_digit((unsigned char)word[i]) < 0) {
				hwxdp_say(err, errlen, 0,
					  "malformed hex '%.*s': '%c' is not a hex digit",
					  (int)(wlen > 32 ? 32 : wlen), word, word[i]);
				free(bytes);
				return -EINVAL;
			}
		}
		if (wlen == 1) {
			bytes[n++] = (uint8_t)hex_digit((unsigned char)word[0]);
			continue;
		}
		for (i = 0; i < wlen; i += 2)
			bytes[n++] = (uint8_t)(hex_digit((unsigned char)word[i]) << 4 |
					       hex_digit((unsigned char)word[i + 1]));
	}
	if (!n) {
		free(bytes);
		return 0;
	}
	*out = bytes;
	*len = n;
	return 0;
}
