/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON read back: the daemon's reply bodies, parsed into a tree so that the
 * client can print them as text, or again as (indented) JSON.
 */
#ifndef HWXDP_CMD_JSON_READ_H
#define HWXDP_CMD_JSON_READ_H

#include <stdbool.h>
#include <stdio.h>

enum jnode_type {
	JNODE_NULL,
	JNODE_BOOL,
	JNODE_NUMBER,
	JNODE_STRING,
	JNODE_ARRAY,
	JNODE_OBJECT,
};

struct jnode {
	enum jnode_type type;
	char *key;  /* inside an object */
	char *text; /* a number's digits or a string's bytes */
	bool boolean;
	struct jnode *child, *next;
};

/* NULL with the reason in msg for text that is not one JSON value. */
struct jnode *jnode_parse(const char *text, char *msg, size_t msglen);
void jnode_free(struct jnode *n);
/* The member named key of an object, or NULL. */
const struct jnode *jnode_get(const struct jnode *obj, const char *key);

/* Prints n as JSON through cmd/json.h (compact or indented). */
void jnode_print_json(const struct jnode *n, FILE *out, bool pretty);
/* Prints n for a person: fields one a line, an array of objects one
 * object a line. */
void jnode_print_text(const struct jnode *n, FILE *out);

#endif /* HWXDP_CMD_JSON_READ_H */
