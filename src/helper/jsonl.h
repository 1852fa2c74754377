/* The helper's JSON Lines writer (docs/VERIFY.md, "Output: JSON Lines").
 *
 * A record is built in memory and written with one write(2) to the
 * protocol descriptor, so a library that crashes a moment later cannot
 * leave half a line behind. */
#ifndef CUDAWIZ_HELPER_JSONL_H
#define CUDAWIZ_HELPER_JSONL_H

#include <stdbool.h>
#include <stddef.h>

#define JSONL_DEPTH	8

struct rec {
	char *buf;
	size_t len, cap;
	int depth;
	bool first[JSONL_DEPTH];	/* no comma before the next member */
	char closer[JSONL_DEPTH];	/* ']' or '}' */
};

/* Where records go: the private copy of the original stdout. */
void jsonl_set_fd(int fd);

/* The parent's per-run token (lowercase hex, up to JSONL_TOKEN_MAX
 * characters), written with a blank before each record from now on, so
 * that a line written to the protocol descriptor by someone who does not
 * know it is not taken for a record; false (and none) when TOK is not
 * one. */
#define JSONL_TOKEN_MAX	64
bool jsonl_set_token(const char *tok);

/* Starts {"check":CHECK. */
void rec_open(struct rec *r, const char *check);
/* Writes the record and frees its buffer. */
void rec_emit(struct rec *r);

/* Members: KEY names one in an object; NULL inside an array. */
void rec_str(struct rec *r, const char *key, const char *s);	/* NULL: null */
void rec_strn(struct rec *r, const char *key, const char *s, size_t n);
void rec_int(struct rec *r, const char *key, long long v);
void rec_uint(struct rec *r, const char *key, unsigned long long v);
void rec_num(struct rec *r, const char *key, double v);	/* NaN, inf: null */
void rec_bool(struct rec *r, const char *key, bool v);
void rec_null(struct rec *r, const char *key);
void rec_array(struct rec *r, const char *key);
void rec_object(struct rec *r, const char *key);
void rec_close(struct rec *r);	/* the innermost array or object */

/* S as a JSON string, quotes included, into R's buffer (for tests). */
void jsonl_escape(struct rec *r, const char *s, size_t n);

#endif
