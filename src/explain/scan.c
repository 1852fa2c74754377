/* Reading a pasted message: lines, literals, names and versions out of
 * the scanned text, and adding what a recogniser found as a match; see
 * recognize_int.h. Every helper checks the end of the input. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "explain/recognize.h"
#include "explain/recognize_int.h"
#include "i18n.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------- the text */

size_t
rz_back_while(const struct scan *s, size_t pos, bool (*cls)(unsigned char))
{
	size_t start = pos;

	while (start > 0 && pos - start < NAME_MAX_LEN &&
	    cls((unsigned char)s->t[start - 1]))
		start--;
	return start;
}

size_t
rz_fwd_while(const struct scan *s, size_t pos, bool (*cls)(unsigned char))
{
	size_t end = pos;

	while (end < s->n && end - pos < NAME_MAX_LEN &&
	    cls((unsigned char)s->t[end]))
		end++;
	return end;
}

/* True when the text at pos is lit (case as given). */
bool
rz_at_lit(const struct scan *s, size_t pos, const char *lit)
{
	size_t l = strlen(lit);

	return pos <= s->n && s->n - pos >= l && memcmp(s->t + pos, lit, l) == 0;
}

/* The same in lower case; lit must be lower case. */
bool
rz_at_lit_nocase(const struct scan *s, size_t pos, const char *lit)
{
	size_t l = strlen(lit);

	return pos <= s->n && s->n - pos >= l && memcmp(s->low + pos, lit, l) == 0;
}

/* True when the text just before pos is lit; *start gets where it begins. */
bool
rz_before_lit(const struct scan *s, size_t pos, const char *lit, size_t *start)
{
	size_t l = strlen(lit);

	if (pos < l || memcmp(s->t + pos - l, lit, l) != 0)
		return false;
	*start = pos - l;
	return true;
}

size_t
rz_line_end(const struct scan *s, size_t pos)
{
	const char *nl = memchr(s->t + pos, '\n', s->n - pos);

	return nl != NULL ? (size_t)(nl - s->t) : s->n;
}

size_t
rz_line_of(const struct scan *s, size_t pos)
{
	size_t lo = 0, hi = s->nlines;

	/* The last line start at or before pos. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->line_start[mid] <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Where lit (lower case) occurs in [from, to) of the lower-case text. */
size_t
rz_find_nocase(const struct scan *s, size_t from, size_t to, const char *lit)
{
	const char *p;

	if (to > s->n)
		to = s->n;
	if (from >= to)
		return (size_t)-1;
	p = memmem(s->low + from, to - from, lit, strlen(lit));
	return p != NULL ? (size_t)(p - s->low) : (size_t)-1;
}

char *
rz_take(const struct scan *s, size_t a, size_t b)
{
	if (b - a > NAME_MAX_LEN)
		b = a + NAME_MAX_LEN;
	return xstrndup(s->t + a, b - a);
}

char *
rz_basename_of(const char *path)
{
	const char *slash = strrchr(path, '/'), *bslash = strrchr(path, '\\');

	if (bslash != NULL && (slash == NULL || bslash > slash))
		slash = bslash;
	return xstrdup(slash != NULL ? slash + 1 : path);
}

/* A path token names the file and its base name the library. */
void
rz_set_library(struct explain_match *m, const struct scan *s, size_t a, size_t b)
{
	char *tok = rz_take(s, a, b);

	if (strchr(tok, '/') != NULL || strchr(tok, '\\') != NULL) {
		m->soname = rz_basename_of(tok);
		m->file = tok;
	} else {
		m->soname = tok;
	}
}

/* The rest of the line after pos up to a ';' (TensorFlow's separator),
 * trimmed; NULL when empty. */
char *
rz_rest_of_clause(const struct scan *s, size_t pos, size_t *endp)
{
	size_t end = rz_line_end(s, pos), semi;
	const char *p = memchr(s->t + pos, ';', end - pos);

	semi = p != NULL ? (size_t)(p - s->t) : end;
	if (endp != NULL)
		*endp = semi;
	while (pos < semi && s->t[pos] == ' ')
		pos++;
	while (semi > pos && (s->t[semi - 1] == ' ' || s->t[semi - 1] == '.'))
		semi--;
	return semi > pos ? rz_take(s, pos, semi) : NULL;
}

/* [a, b) without blanks at either end; NULL when nothing is left or it is
 * longer than a name can be. */
char *
rz_take_trimmed(const struct scan *s, size_t a, size_t b, size_t max)
{
	while (a < b && (s->t[a] == ' ' || s->t[a] == '\t'))
		a++;
	while (b > a && (s->t[b - 1] == ' ' || s->t[b - 1] == '\t'))
		b--;
	return b > a && b - a <= max ? rz_take(s, a, b) : NULL;
}

/* A readable excerpt of the line around pos: from a little before the
 * message, cut at a character boundary. */
static char *
excerpt(const struct scan *s, size_t pos)
{
	size_t ls = s->line_start[rz_line_of(s, pos)], le = rz_line_end(s, pos);
	size_t a = ls, b;
	struct strbuf sb = STRBUF_INIT;

	if (pos - a > 80)
		a = pos - 60;
	while (a > ls && ((unsigned char)s->t[a] & 0xc0) == 0x80)
		a--;
	while (a < le && s->t[a] == ' ')
		a++;
	b = le;
	if (b - a > EXCERPT_MAX) {
		b = a + EXCERPT_MAX;
		while (b > a && ((unsigned char)s->t[b] & 0xc0) == 0x80)
			b--;
	}
	while (b > a && (s->t[b - 1] == ' ' || s->t[b - 1] == '\t'))
		b--;
	if (a > ls)
		strbuf_puts(&sb, "…");
	strbuf_add(&sb, s->t + a, b - a);
	if (b < le)
		strbuf_puts(&sb, "…");
	return strbuf_take(&sb);
}

/* --------------------------------------------------------------- matches */

void
rz_match_free(struct explain_match *m)
{
	free(m->excerpt);
	free(m->soname);
	free(m->file);
	free(m->required_by);
	free(m->symbol);
	free(m->version);
	free(m->found);
	free(m->wanted);
	free(m->code);
	free(m->reason);
	free(m->ld_library_path);
	free(m->device);
	free(m->cc);
	strv_free(&m->ccs);
}

static bool
same_str(const char *a, const char *b)
{
	return (a == NULL && b == NULL) ||
	    (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Two matches are the same message when they say the same thing; the
 * name of an error counts only when it has no number, so
 * CUDA_ERROR_STUB_LIBRARY and cudaErrorStubLibrary are one. */
static bool
same_match(const struct explain_match *a, const struct explain_match *b)
{
	return a->kind == b->kind && a->number == b->number &&
	    (a->number >= 0 || same_str(a->code, b->code)) &&
	    same_str(a->soname, b->soname) && same_str(a->file, b->file) &&
	    same_str(a->required_by, b->required_by) &&
	    same_str(a->symbol, b->symbol) && same_str(a->version, b->version) &&
	    same_str(a->found, b->found) && same_str(a->wanted, b->wanted) &&
	    same_str(a->cc, b->cc);
}

/* Takes what m holds: folds it into an equal match, or keeps it. */
void
rz_add_match(struct scan *s, struct explain_match *m, size_t pos)
{
	struct explain *ex = s->out;
	size_t line = rz_line_of(s, pos);

	for (size_t i = 0; i < ex->matches.n; i++) {
		struct explain_match *o = &ex->matches.v[i];

		if (!same_match(o, m))
			continue;
		/* Two names for one error on one line are one message. */
		if (s->last_line[i] != line)
			o->repeats++;
		s->last_line[i] = line;
		if (pos < o->offset) {
			o->offset = pos;
			o->line = line + 1;
			free(o->excerpt);
			o->excerpt = excerpt(s, pos);
		}
		rz_match_free(m);
		return;
	}
	if (ex->matches.n >= EXPLAIN_MATCH_MAX) {
		ex->dropped++;
		rz_match_free(m);
		return;
	}
	m->offset = pos;
	m->line = line + 1;
	m->excerpt = excerpt(s, pos);
	s->last_line[ex->matches.n] = line;
	*(struct explain_match *)VEC_PUSH(&ex->matches) = *m;
}

void
rz_match_init(struct explain_match *m, enum explain_kind kind)
{
	memset(m, 0, sizeof *m);
	m->kind = kind;
	m->number = -1;
}

void
rz_claim(struct scan *s, size_t a, size_t b)
{
	if (b > s->n)
		b = s->n;
	if (a < b)
		memset(s->claimed + a, 1, b - a);
}

/* ------------------------------------------------------- version forms */

/* A dotted version token at pos ("8.1.0", "470.57.2"); NULL when none. */
char *
rz_version_at(const struct scan *s, size_t pos, size_t *endp)
{
	size_t end = rz_fwd_while(s, pos, is_version_char);
	struct version v;

	while (end > pos && s->t[end - 1] == '.')
		end--;
	if (endp != NULL)
		*endp = end;
	if (end == pos || !version_parsen(s->t + pos, end - pos, &v))
		return NULL;
	return rz_take(s, pos, end);
}

/* cuDNN's integer versions: 7201 is 7.2.1 (major * 1000 + minor * 100 +
 * patch, up to cuDNN 8), 90100 is 9.1.0 (major * 10000, from cuDNN 9). */
char *
rz_cudnn_version(const char *v)
{
	unsigned long n;
	char *end;

	if (strchr(v, '.') != NULL)
		return xstrdup(v);
	n = strtoul(v, &end, 10);
	if (*end != '\0' || n < 1000)
		return xstrdup(v);
	if (n >= 10000)
		return xasprintf("%lu.%lu.%lu", n / 10000, n / 100 % 100, n % 100);
	return xasprintf("%lu.%lu.%lu", n / 1000, n / 100 % 10, n % 100);
}

/* CUDA's integer versions as cudaDriverGetVersion() gives them: 11040 is
 * 11.4. */
char *
rz_cuda_int_version(const char *v)
{
	unsigned long n = strtoul(v, NULL, 10);

	return xasprintf("%lu.%lu", n / 1000, n % 1000 / 10);
}

/* "sm_86" → "8.6", "sm_120" → "12.0": the last digit is the minor. */
char *
rz_cc_of_sm(const char *digits, size_t len)
{
	if (len < 2 || len > 3)
		return NULL;
	return xasprintf("%.*s.%c", (int)(len - 1), digits, digits[len - 1]);
}

