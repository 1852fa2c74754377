/* What the recogniser's parts share: the scanned text (struct scan),
 * the character classes, the recogniser table's row, and the helpers that
 * read names, versions and lines out of the text (scan.c) and the
 * error-code tables (codes.c). Internal to src/explain. */
#ifndef CUDAWIZ_EXPLAIN_RECOGNIZE_INT_H
#define CUDAWIZ_EXPLAIN_RECOGNIZE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "explain/recognize.h"

/* The longest name or path taken from a message, and the longest excerpt
 * of its line kept for showing. */
#define NAME_MAX_LEN	512
#define EXCERPT_MAX	200
/* How far past an anchor a parser looks for the rest of its message. */
#define LOOKAHEAD	400

struct scan {
	char		*t;		/* the text, control bytes blanked, terminated */
	char		*low;		/* the same in ASCII lower case */
	size_t		 n;
	size_t		*line_start;
	size_t		 nlines;
	unsigned char	*claimed;	/* 1: inside a message already matched */
	size_t		*last_line;	/* per match: the line it was last seen on */
	struct explain	*out;
};

struct recogniser;
typedef void (*parse_fn)(struct scan *, size_t at, size_t alen,
    const struct recogniser *);

struct recogniser {
	const char	*anchor;	/* lower case when nocase */
	bool		 nocase;
	parse_fn	 parse;
	enum explain_kind kind;		/* for the parsers that serve several */
};

/* ------------------------------------------------------------ characters */

static inline bool
is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z');
}

static inline bool
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline unsigned char
lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Characters of a file name or path as loader messages print them. Bytes
 * above ASCII are left out so typographic quotes end a name. */
static inline bool
is_name(unsigned char c)
{
	return is_alnum(c) || (c != '\0' && strchr("._+-/~$@\\", c) != NULL);
}

/* Characters of a C or mangled C++ symbol, or a symbol version. */
static inline bool
is_symbol(unsigned char c)
{
	return is_alnum(c) || c == '_' || c == '.' || c == '$';
}

static inline bool
is_ident(unsigned char c)
{
	return is_alnum(c) || c == '_';
}

static inline bool
is_version_char(unsigned char c)
{
	return is_digit(c) || c == '.';
}

/* The length of a quote mark at p: ` ' " or a typographic one. */
static inline size_t
quote_at(const struct scan *s, size_t at)
{
	const unsigned char *p = (const unsigned char *)s->t + at;

	if (at >= s->n)
		return 0;
	if (*p == '`' || *p == '\'' || *p == '"')
		return 1;
	if (at + 3 <= s->n && p[0] == 0xe2 && p[1] == 0x80 &&
	    (p[2] == 0x98 || p[2] == 0x99 || p[2] == 0x9c || p[2] == 0x9d))
		return 3;
	return 0;
}

/* scan.c */
void	rz_add_match(struct scan *s, struct explain_match *m, size_t pos);
bool	rz_at_lit(const struct scan *s, size_t pos, const char *lit);
bool	rz_at_lit_nocase(const struct scan *s, size_t pos, const char *lit);
size_t	rz_back_while(const struct scan *s, size_t pos,
    bool (*cls)(unsigned char));
char *rz_basename_of(const char *path);
bool	rz_before_lit(const struct scan *s, size_t pos, const char *lit,
    size_t *start);
char *rz_cc_of_sm(const char *digits, size_t len);
void	rz_claim(struct scan *s, size_t a, size_t b);
char *rz_cuda_int_version(const char *v);
char *rz_cudnn_version(const char *v);
size_t	rz_find_nocase(const struct scan *s, size_t from, size_t to,
    const char *lit);
size_t	rz_fwd_while(const struct scan *s, size_t pos,
    bool (*cls)(unsigned char));
size_t	rz_line_end(const struct scan *s, size_t pos);
size_t	rz_line_of(const struct scan *s, size_t pos);
void	rz_match_free(struct explain_match *m);
void	rz_match_init(struct explain_match *m, enum explain_kind kind);
char *rz_rest_of_clause(const struct scan *s, size_t pos, size_t *endp);
void	rz_set_library(struct explain_match *m, const struct scan *s,
    size_t a, size_t b);
char *rz_take(const struct scan *s, size_t a, size_t b);
char *rz_take_trimmed(const struct scan *s, size_t a, size_t b, size_t max);
char *rz_version_at(const struct scan *s, size_t pos, size_t *endp);

/* recognize.c */
void	rz_run_recogniser(struct scan *s, const struct recogniser *r);
void	rz_simple(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r);

/* recognize_more.c: the second table, run after recognize.c's */
void	rz_run_more(struct scan *s);

/* codes.c */
void	rz_add_cuda_error_number(struct scan *s, long number, size_t pos);
void	r_cudnn_status(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r);
void	scan_cuda_errors(struct scan *s);
void	scan_cuda_numbers(struct scan *s);

#endif
