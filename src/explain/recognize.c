/* Recognising pasted error messages; see recognize.h.
 *
 * The input is copied once with control bytes blanked (a paste may hold
 * NULs or terminal escapes) and once in lower case for the messages whose
 * case varies between versions. Each recogniser is an anchor, a literal
 * every wording of its message contains, and a parser that reads the names
 * and versions around each place the anchor occurs. Parsers never trust
 * the text: every name is bounded, every step checks the end of the input.
 *
 * A message can contain another: TensorFlow's "Could not load dynamic
 * library 'X'; dlerror: X: cannot open shared object file" quotes glibc's.
 * The outer parser claims the quoted part, and the inner recogniser skips
 * claimed bytes, so one failure is one match. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "explain/recognize.h"
#include "i18n.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

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

/* ------------------------------------------------------------ characters */

static bool
is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z');
}

static bool
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static unsigned char
lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Characters of a file name or path as loader messages print them. Bytes
 * above ASCII are left out so typographic quotes end a name. */
static bool
is_name(unsigned char c)
{
	return is_alnum(c) || (c != '\0' && strchr("._+-/~$@\\", c) != NULL);
}

/* Characters of a C or mangled C++ symbol, or a symbol version. */
static bool
is_symbol(unsigned char c)
{
	return is_alnum(c) || c == '_' || c == '.' || c == '$';
}

static bool
is_ident(unsigned char c)
{
	return is_alnum(c) || c == '_';
}

static bool
is_version_char(unsigned char c)
{
	return is_digit(c) || c == '.';
}

/* The length of a quote mark at p: ` ' " or a typographic one. */
static size_t
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

/* ------------------------------------------------------------- the text */

static size_t
back_while(const struct scan *s, size_t pos, bool (*cls)(unsigned char))
{
	size_t start = pos;

	while (start > 0 && pos - start < NAME_MAX_LEN &&
	    cls((unsigned char)s->t[start - 1]))
		start--;
	return start;
}

static size_t
fwd_while(const struct scan *s, size_t pos, bool (*cls)(unsigned char))
{
	size_t end = pos;

	while (end < s->n && end - pos < NAME_MAX_LEN &&
	    cls((unsigned char)s->t[end]))
		end++;
	return end;
}

/* True when the text at pos is lit (case as given). */
static bool
at_lit(const struct scan *s, size_t pos, const char *lit)
{
	size_t l = strlen(lit);

	return pos <= s->n && s->n - pos >= l && memcmp(s->t + pos, lit, l) == 0;
}

/* The same in lower case; lit must be lower case. */
static bool
at_lit_nocase(const struct scan *s, size_t pos, const char *lit)
{
	size_t l = strlen(lit);

	return pos <= s->n && s->n - pos >= l && memcmp(s->low + pos, lit, l) == 0;
}

/* True when the text just before pos is lit; *start gets where it begins. */
static bool
before_lit(const struct scan *s, size_t pos, const char *lit, size_t *start)
{
	size_t l = strlen(lit);

	if (pos < l || memcmp(s->t + pos - l, lit, l) != 0)
		return false;
	*start = pos - l;
	return true;
}

static size_t
line_end(const struct scan *s, size_t pos)
{
	const char *nl = memchr(s->t + pos, '\n', s->n - pos);

	return nl != NULL ? (size_t)(nl - s->t) : s->n;
}

static size_t
line_of(const struct scan *s, size_t pos)
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
static size_t
find_nocase(const struct scan *s, size_t from, size_t to, const char *lit)
{
	const char *p;

	if (to > s->n)
		to = s->n;
	if (from >= to)
		return (size_t)-1;
	p = memmem(s->low + from, to - from, lit, strlen(lit));
	return p != NULL ? (size_t)(p - s->low) : (size_t)-1;
}

static char *
take(const struct scan *s, size_t a, size_t b)
{
	if (b - a > NAME_MAX_LEN)
		b = a + NAME_MAX_LEN;
	return xstrndup(s->t + a, b - a);
}

static char *
basename_of(const char *path)
{
	const char *slash = strrchr(path, '/'), *bslash = strrchr(path, '\\');

	if (bslash != NULL && (slash == NULL || bslash > slash))
		slash = bslash;
	return xstrdup(slash != NULL ? slash + 1 : path);
}

/* A path token names the file and its base name the library. */
static void
set_library(struct explain_match *m, const struct scan *s, size_t a, size_t b)
{
	char *tok = take(s, a, b);

	if (strchr(tok, '/') != NULL || strchr(tok, '\\') != NULL) {
		m->soname = basename_of(tok);
		m->file = tok;
	} else {
		m->soname = tok;
	}
}

/* The rest of the line after pos up to a ';' (TensorFlow's separator),
 * trimmed; NULL when empty. */
static char *
rest_of_clause(const struct scan *s, size_t pos, size_t *endp)
{
	size_t end = line_end(s, pos), semi;
	const char *p = memchr(s->t + pos, ';', end - pos);

	semi = p != NULL ? (size_t)(p - s->t) : end;
	if (endp != NULL)
		*endp = semi;
	while (pos < semi && s->t[pos] == ' ')
		pos++;
	while (semi > pos && (s->t[semi - 1] == ' ' || s->t[semi - 1] == '.'))
		semi--;
	return semi > pos ? take(s, pos, semi) : NULL;
}

/* [a, b) without blanks at either end; NULL when nothing is left or it is
 * longer than a name can be. */
static char *
take_trimmed(const struct scan *s, size_t a, size_t b, size_t max)
{
	while (a < b && (s->t[a] == ' ' || s->t[a] == '\t'))
		a++;
	while (b > a && (s->t[b - 1] == ' ' || s->t[b - 1] == '\t'))
		b--;
	return b > a && b - a <= max ? take(s, a, b) : NULL;
}

/* A readable excerpt of the line around pos: from a little before the
 * message, cut at a character boundary. */
static char *
excerpt(const struct scan *s, size_t pos)
{
	size_t ls = s->line_start[line_of(s, pos)], le = line_end(s, pos);
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

static void
match_free(struct explain_match *m)
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
static void
add_match(struct scan *s, struct explain_match *m, size_t pos)
{
	struct explain *ex = s->out;
	size_t line = line_of(s, pos);

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
		match_free(m);
		return;
	}
	if (ex->matches.n >= EXPLAIN_MATCH_MAX) {
		ex->dropped++;
		match_free(m);
		return;
	}
	m->offset = pos;
	m->line = line + 1;
	m->excerpt = excerpt(s, pos);
	s->last_line[ex->matches.n] = line;
	*(struct explain_match *)VEC_PUSH(&ex->matches) = *m;
}

static void
match_init(struct explain_match *m, enum explain_kind kind)
{
	memset(m, 0, sizeof *m);
	m->kind = kind;
	m->number = -1;
}

static void
claim(struct scan *s, size_t a, size_t b)
{
	if (b > s->n)
		b = s->n;
	if (a < b)
		memset(s->claimed + a, 1, b - a);
}

/* ------------------------------------------------------- version forms */

/* A dotted version token at pos ("8.1.0", "470.57.2"); NULL when none. */
static char *
version_at(const struct scan *s, size_t pos, size_t *endp)
{
	size_t end = fwd_while(s, pos, is_version_char);
	struct version v;

	while (end > pos && s->t[end - 1] == '.')
		end--;
	if (endp != NULL)
		*endp = end;
	if (end == pos || !version_parsen(s->t + pos, end - pos, &v))
		return NULL;
	return take(s, pos, end);
}

/* cuDNN's integer versions: 7201 is 7.2.1 (major * 1000 + minor * 100 +
 * patch, up to cuDNN 8), 90100 is 9.1.0 (major * 10000, from cuDNN 9). */
static char *
cudnn_version(const char *v)
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
static char *
cuda_int_version(const char *v)
{
	unsigned long n = strtoul(v, NULL, 10);

	return xasprintf("%lu.%lu", n / 1000, n % 1000 / 10);
}

/* "sm_86" → "8.6", "sm_120" → "12.0": the last digit is the minor. */
static char *
cc_of_sm(const char *digits, size_t len)
{
	if (len < 2 || len > 3)
		return NULL;
	return xasprintf("%.*s.%c", (int)(len - 1), digits, digits[len - 1]);
}

/* ------------------------------------------------------- the recognisers */

struct recogniser;
typedef void (*parse_fn)(struct scan *, size_t at, size_t alen,
    const struct recogniser *);

struct recogniser {
	const char	*anchor;	/* lower case when nocase */
	bool		 nocase;
	parse_fn	 parse;
	enum explain_kind kind;		/* for the parsers that serve several */
};

/* TensorFlow: Could not load dynamic library 'X'; dlerror: …; LD_LIBRARY_PATH: … */
static void
r_tf_dlopen(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t p = at + alen, end = fwd_while(s, p, is_name), reason_at, rend;
	struct explain_match m;
	size_t llp;

	(void)r;
	if (end == p || end >= s->n || s->t[end] != '\'')
		return;
	match_init(&m, EXPLAIN_DLOPEN_FAILED);
	set_library(&m, s, p, end);
	if (strlen(m.soname) > 4 &&
	    strcasecmp(m.soname + strlen(m.soname) - 4, ".dll") == 0)
		m.kind = EXPLAIN_DLL_NOT_FOUND;
	p = end + 1;
	if (at_lit(s, p, "; dlerror: ")) {
		reason_at = p + strlen("; dlerror: ");
		m.reason = rest_of_clause(s, reason_at, &rend);
		/* glibc's own message quoted here is this one failure. */
		claim(s, reason_at, rend);
		p = rend;
	}
	llp = find_nocase(s, p, line_end(s, p), "; ld_library_path: ");
	if (llp != (size_t)-1)
		m.ld_library_path = rest_of_clause(s, llp +
		    strlen("; ld_library_path: "), NULL);
	add_match(s, &m, at);
}

/* glibc: [P: error while loading shared libraries: ]X: cannot open shared object file: E */
static void
r_cannot_open(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t start = back_while(s, at, is_name), pre;
	struct explain_match m;

	(void)r;
	if (s->claimed[at] || start == at)
		return;
	match_init(&m, EXPLAIN_CANNOT_OPEN);
	set_library(&m, s, start, at);
	if (at_lit(s, at + alen, ": "))
		m.reason = rest_of_clause(s, at + alen + 2, NULL);
	if (before_lit(s, start, ": error while loading shared libraries: ", &pre)) {
		size_t ps = back_while(s, pre, is_name);

		if (ps < pre)
			m.required_by = take(s, ps, pre);
	}
	add_match(s, &m, start);
}

/* Which library defines a symbol version: a CUDA library's versions are
 * its soname; GNU's have their own names. */
static char *
provider_of_version(const char *version)
{
	static const struct {
		const char	*prefix;
		const char	*soname;
	} gnu[] = {
		{ "GLIBC_", "libc.so.6" },
		{ "GLIBCXX_", "libstdc++.so.6" },
		{ "CXXABI_", "libstdc++.so.6" },
		{ "GCC_", "libgcc_s.so.1" },
	};

	if (version == NULL)
		return NULL;
	if (explain_is_soname(version))
		return xstrdup(version);
	for (size_t i = 0; i < sizeof gnu / sizeof gnu[0]; i++)
		if (strncmp(version, gnu[i].prefix, strlen(gnu[i].prefix)) == 0)
			return xstrdup(gnu[i].soname);
	return NULL;
}

/* glibc: F: undefined symbol: S[, version V] */
static void
r_undefined_symbol(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t p = at + alen, end = fwd_while(s, p, is_symbol), pre;
	struct explain_match m;

	(void)r;
	if (end == p)
		return;
	match_init(&m, EXPLAIN_UNDEFINED_SYMBOL);
	m.symbol = take(s, p, end);
	if (at_lit(s, end, ", version ")) {
		size_t vs = end + strlen(", version "), ve = fwd_while(s, vs, is_name);

		if (ve > vs)
			m.version = take(s, vs, ve);
	}
	if (before_lit(s, at, ": ", &pre)) {
		size_t fs = back_while(s, pre, is_name);

		if (fs < pre)
			m.required_by = take(s, fs, pre);
	}
	m.soname = provider_of_version(m.version);
	add_match(s, &m, at);
}

/* glibc: F: symbol S version V not defined in file L with link time reference */
static void
r_symbol_not_defined(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t vs = back_while(s, at, is_name), ss, se, fs, fe, pre;
	struct explain_match m;

	(void)r;
	if (vs == at || !before_lit(s, vs, " version ", &se))
		return;
	ss = back_while(s, se, is_symbol);
	if (ss == se || !before_lit(s, ss, "symbol ", &pre))
		return;
	fs = at + alen;
	fe = fwd_while(s, fs, is_name);
	if (fe == fs)
		return;
	match_init(&m, EXPLAIN_UNDEFINED_SYMBOL);
	m.symbol = take(s, ss, se);
	m.version = take(s, vs, at);
	set_library(&m, s, fs, fe);
	if (before_lit(s, pre, ": ", &pre)) {
		size_t rs = back_while(s, pre, is_name);

		if (rs < pre)
			m.required_by = take(s, rs, pre);
	}
	add_match(s, &m, ss);
}

/* glibc: L: version `V' not found (required by F) */
static void
r_version_not_found(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t p = at + alen, q = quote_at(s, p), vs, ve, q2, pre;
	struct explain_match m;

	(void)r;
	if (q == 0)
		return;
	vs = p + q;
	ve = fwd_while(s, vs, is_symbol);
	q2 = quote_at(s, ve);
	if (ve == vs || q2 == 0 || !at_lit(s, ve + q2, " not found"))
		return;
	match_init(&m, EXPLAIN_VERSION_NOT_FOUND);
	m.version = take(s, vs, ve);
	p = ve + q2 + strlen(" not found");
	if (at_lit(s, p, " (required by ")) {
		size_t fs = p + strlen(" (required by "), fe = fwd_while(s, fs, is_name);

		if (fe > fs)
			m.required_by = take(s, fs, fe);
	}
	if (before_lit(s, at, ": ", &pre)) {
		size_t ls = back_while(s, pre, is_name);

		if (ls < pre)
			set_library(&m, s, ls, pre);
	}
	if (m.soname == NULL)
		m.soname = provider_of_version(m.version);
	add_match(s, &m, at);
}

/* glibc: F: wrong ELF class: ELFCLASS32 */
static void
r_wrong_class(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t p = at + alen, end = fwd_while(s, p, is_version_char), pre;
	struct explain_match m;

	(void)r;
	if (end == p)
		return;
	match_init(&m, EXPLAIN_WRONG_ELF_CLASS);
	m.found = xasprintf("ELFCLASS%.*s", (int)(end - p), s->t + p);
	if (before_lit(s, at, ": ", &pre)) {
		size_t fs = back_while(s, pre, is_name);

		if (fs < pre)
			set_library(&m, s, fs, pre);
	}
	add_match(s, &m, at);
}

static bool
is_dll_name(unsigned char c)
{
	return is_ident(c) || c == '-' || c == '.' || c == '\\' || c == '/' ||
	    c == ':';
}

static bool
ends_dll(const char *name)
{
	size_t l = strlen(name);

	return l > 4 && strcasecmp(name + l - 4, ".dll") == 0;
}

static void
add_dll(struct scan *s, size_t a, size_t b, size_t pos)
{
	struct explain_match m;
	char *tok = take(s, a, b);

	if (!ends_dll(tok)) {
		free(tok);
		return;
	}
	match_init(&m, EXPLAIN_DLL_NOT_FOUND);
	m.soname = basename_of(tok);
	if (strcmp(m.soname, tok) != 0)
		m.file = tok;
	else
		free(tok);
	add_match(s, &m, pos);
}

/* Windows: X.dll not found */
static void
r_dll_not_found(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t start = back_while(s, at, is_dll_name);

	(void)alen; (void)r;
	if (s->claimed[at] || start == at)
		return;
	add_dll(s, start, at + 4, start);
}

/* cuDNN on Windows: Could not locate X.dll; PyTorch: Error loading "X.dll" */
static void
r_dll_named_after(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t p = at + alen, end = fwd_while(s, p, is_dll_name);

	(void)r;
	/* "… X.dll." at the end of a sentence. */
	while (end > p && s->t[end - 1] == '.')
		end--;
	if (end > p)
		add_dll(s, p, end, at);
}

/* PyTorch: The NVIDIA driver on your system is too old (found version 11040). */
static void
r_torch_driver_old(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t p = find_nocase(s, at + alen, line_end(s, at), "(found version ");
	struct explain_match m;

	(void)r;
	match_init(&m, EXPLAIN_DRIVER_TOO_OLD);
	if (p != (size_t)-1) {
		size_t ds = p + strlen("(found version "), de = fwd_while(s, ds, is_digit);

		if (de > ds && de - ds <= 6) {
			char *num = take(s, ds, de);

			m.found = cuda_int_version(num);
			free(num);
		}
	}
	add_match(s, &m, at);
}

/* nvidia-smi: Failed to initialize NVML: Driver/library version mismatch
 * [NVML library version: 535.104] */
static void
r_nvml_mismatch(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t p = find_nocase(s, at + alen, at + alen + LOOKAHEAD,
	    "nvml library version: ");
	struct explain_match m;

	(void)r;
	match_init(&m, EXPLAIN_DRIVER_MISMATCH);
	if (p != (size_t)-1)
		m.wanted = version_at(s, p + strlen("nvml library version: "), NULL);
	add_match(s, &m, at);
}

/* TensorFlow: kernel version X does not match DSO version Y */
static void
r_tf_kernel_dso(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t ks = back_while(s, at, is_version_char), pre;
	struct explain_match m;

	(void)r;
	if (ks == at || !before_lit(s, ks, "kernel version ", &pre))
		return;
	match_init(&m, EXPLAIN_DRIVER_MISMATCH);
	m.found = version_at(s, ks, NULL);
	m.wanted = version_at(s, at + alen, NULL);
	add_match(s, &m, pre);
}

/* The kernel log: NVRM: API mismatch: the NVIDIA kernel module has version
 * X, but this NVIDIA driver component has version Y. */
static void
r_nvrm_api_mismatch(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t end, p;
	struct explain_match m;

	(void)r;
	match_init(&m, EXPLAIN_DRIVER_MISMATCH);
	m.found = version_at(s, at + alen, &end);
	p = find_nocase(s, end, line_end(s, end), "component has version ");
	if (p != (size_t)-1)
		m.wanted = version_at(s, p + strlen("component has version "), NULL);
	add_match(s, &m, at);
}

/* A message that carries nothing but its kind. */
static void
r_simple(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	struct explain_match m;

	(void)alen;
	match_init(&m, r->kind);
	add_match(s, &m, at);
}

/* The capabilities a build has, as the message lists them: "sm_50 sm_60
 * compute_37". */
static void
read_ccs(const struct scan *s, size_t p, struct strv *ccs)
{
	size_t end = line_end(s, p);

	while (p < end && ccs->n < 32) {
		size_t ts, te;

		while (p < end && (s->t[p] == ' ' || s->t[p] == ','))
			p++;
		ts = p;
		te = fwd_while(s, ts, is_ident);
		if (te == ts || (!at_lit_nocase(s, ts, "sm_") &&
		    !at_lit_nocase(s, ts, "compute_")))
			break;
		strv_push_owned(ccs, take(s, ts, te));
		p = te;
	}
}

/* PyTorch: NVIDIA GeForce RTX 3090 with CUDA capability sm_86 is not
 * compatible with the current PyTorch installation. The current PyTorch
 * install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70. */
static void
r_torch_arch(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t ds = at + alen, de = fwd_while(s, ds, is_digit), le = line_end(s, at);
	size_t ls = s->line_start[line_of(s, at)], p, name;
	struct explain_match m;

	(void)r;
	if (find_nocase(s, de, le, "not compatible") == (size_t)-1)
		return;
	match_init(&m, EXPLAIN_ARCH_UNSUPPORTED);
	m.cc = cc_of_sm(s->t + ds, de - ds);
	/* The GPU's name runs from after the last ": " to " with". */
	name = ls;
	for (size_t i = ls; i + 1 < at; i++)
		if (s->t[i] == ':' && s->t[i + 1] == ' ')
			name = i + 2;
	m.device = take_trimmed(s, name, at, 100);
	p = find_nocase(s, de, at + LOOKAHEAD, "supports cuda capabilities ");
	if (p != (size_t)-1)
		read_ccs(s, p + strlen("supports cuda capabilities "), &m.ccs);
	add_match(s, &m, at);
}

/* PyTorch: Found GPU0 X which is of cuda capability 3.5. PyTorch no longer
 * supports this GPU because it is too old. The minimum cuda capability
 * supported by this library is 3.7. */
static void
r_torch_gpu_too_old(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t p;
	struct explain_match m;

	(void)r;
	match_init(&m, EXPLAIN_ARCH_UNSUPPORTED);
	m.cc = version_at(s, at + alen, NULL);
	if (m.cc == NULL) {
		match_free(&m);
		return;
	}
	p = find_nocase(s, at, at + LOOKAHEAD,
	    "minimum cuda capability supported by this library is ");
	if (p != (size_t)-1) {
		char *min = version_at(s, p + strlen(
		    "minimum cuda capability supported by this library is "), NULL);

		if (min != NULL)
			strv_push_owned(&m.ccs, xasprintf("%s+", min));
		free(min);
	}
	p = find_nocase(s, s->line_start[line_of(s, at)], at, "found gpu");
	if (p != (size_t)-1) {
		size_t ns = p + strlen("found gpu");

		ns = fwd_while(s, ns, is_digit);
		m.device = take_trimmed(s, ns, at, 100);
	}
	add_match(s, &m, at);
}

/* A cuDNN version as messages print it: "8.1.0", or "7201". */
static char *
cudnn_version_at(const struct scan *s, size_t p)
{
	char *v;
	char *c;

	while (p < s->n && (s->t[p] == ' ' || s->t[p] == ':'))
		p++;
	v = version_at(s, p, NULL);
	if (v == NULL)
		return NULL;
	c = cudnn_version(v);
	free(v);
	return c;
}

/* TensorFlow: Loaded runtime CuDNN library: 8.0.5 but source was compiled
 * with: 8.1.0. (Older: "… 7201 (compatibility version 7200) but source
 * was compiled with 7004 …".) */
static void
r_tf_cudnn(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t p = find_nocase(s, at + alen, line_end(s, at),
	    "but source was compiled with");
	struct explain_match m;

	(void)r;
	if (p == (size_t)-1)
		return;
	match_init(&m, EXPLAIN_CUDNN_VERSION);
	m.found = cudnn_version_at(s, at + alen);
	m.wanted = cudnn_version_at(s, p + strlen("but source was compiled with"));
	add_match(s, &m, at);
}

/* "(8, 9, 2)" → "8.9.2" */
static char *
tuple_version(const struct scan *s, size_t p)
{
	struct strbuf sb = STRBUF_INIT;
	size_t end = line_end(s, p);
	struct version v;
	char *out;

	if (p >= end || s->t[p] != '(')
		return NULL;
	for (p++; p < end && s->t[p] != ')' && sb.len < 40; p++) {
		if (is_digit((unsigned char)s->t[p]))
			strbuf_putc(&sb, s->t[p]);
		else if (s->t[p] == ',')
			strbuf_putc(&sb, '.');
		else if (s->t[p] != ' ')
			break;
	}
	out = strbuf_take(&sb);
	if (p >= end || s->t[p] != ')' || !version_parse(out, &v))
		FREE(&out);
	return out;
}

/* PyTorch: cuDNN version incompatibility: PyTorch was compiled against
 * (8, 9, 2) but found runtime version (8, 5, 0). */
static void
r_torch_cudnn(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t le = line_end(s, at);
	size_t a = find_nocase(s, at + alen, le, "against ");
	size_t b = find_nocase(s, at + alen, le, "found runtime version ");
	struct explain_match m;

	(void)r;
	if (a == (size_t)-1 || b == (size_t)-1)
		return;
	match_init(&m, EXPLAIN_CUDNN_VERSION);
	a += strlen("against ");
	b += strlen("found runtime version ");
	while (a < le && s->t[a] == ' ')
		a++;
	while (b < le && s->t[b] == ' ')
		b++;
	m.wanted = tuple_version(s, a);
	m.found = tuple_version(s, b);
	add_match(s, &m, at);
}

/* ------------------------------------------------------------ cuDNN codes */

struct cudnn_status {
	const char	*name;		/* after CUDNN_STATUS_ */
	long		 number;	/* cuDNN 9's, or cuDNN 8's for names 9 dropped */
	const char	*meaning;
};

static const struct cudnn_status cudnn_statuses[] = {
	{ "NOT_INITIALIZED", 1001, N_("cuDNN could not initialise: the CUDA runtime or driver beneath it failed (no GPU visible, a driver too old for the CUDA runtime this cuDNN was built for), or GPU memory ran out while the handle was created") },
	{ "SUBLIBRARY_VERSION_MISMATCH", 1002, N_("the cuDNN sub-libraries loaded are different versions: two cuDNN installations are mixed on the library search path") },
	{ "SERIALIZATION_VERSION_MISMATCH", 1003, N_("a serialized execution plan was made by another cuDNN version") },
	{ "DEPRECATED", 1004, N_("a deprecated cuDNN API was called while deprecation errors were on") },
	{ "LICENSE_ERROR", 1005, N_("a cuDNN licence check failed") },
	{ "RUNTIME_IN_PROGRESS", 1006, N_("a run-time check is still in progress (cudnnQueryRuntimeError)") },
	{ "RUNTIME_FP_OVERFLOW", 1007, N_("a floating-point overflow happened during the computation") },
	{ "SUBLIBRARY_LOADING_FAILED", 1008, N_("a cuDNN sub-library (libcudnn_*.so) could not be loaded: it, or a library it needs such as cuBLAS or NVRTC, is missing from the search path") },
	{ "BAD_PARAM", 2000, N_("the caller passed a value cuDNN rejects: a bug or an unsupported use in the calling code or framework, not in the installation") },
	{ "INVALID_VALUE", 2001, N_("the caller passed a value cuDNN rejects: a bug or an unsupported use in the calling code or framework, not in the installation") },
	{ "NOT_SUPPORTED", 3000, N_("this cuDNN has no implementation for the requested operation, data type or layout; a newer cuDNN may have one") },
	{ "NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER", 3005, N_("the NVIDIA driver is too old for this cuDNN") },
	{ "NOT_SUPPORTED_INCOMPATIBLE_CUDART", 3006, N_("the CUDA runtime loaded is not one this cuDNN was built for") },
	{ "NOT_SUPPORTED_ARCH_MISMATCH", 3007, N_("this cuDNN has no code for the GPU's compute capability") },
	{ "ARCH_MISMATCH", 3007, N_("this cuDNN has no code for the GPU's compute capability") },
	{ "NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING", 3008, N_("a library cuDNN loads at run time (NVRTC, cuBLAS) is missing") },
	{ "RUNTIME_PREREQUISITE_MISSING", 3008, N_("a library cuDNN loads at run time (NVRTC, cuBLAS) is missing") },
	{ "NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE", 3009, N_("the cuDNN sub-library this operation needs is not installed") },
	{ "NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT", 3010, N_("the GPU has too little shared memory for this cuDNN kernel") },
	{ "INTERNAL_ERROR", 4000, N_("an internal cuDNN operation failed; most often a GPU memory allocation, or a cuDNN built for another CUDA runtime than the one loaded") },
	{ "INTERNAL_ERROR_HOST_ALLOCATION_FAILED", 4003, N_("cuDNN could not allocate memory") },
	{ "ALLOC_FAILED", 4003, N_("cuDNN could not allocate memory") },
	{ "INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED", 4004, N_("cuDNN could not allocate GPU memory: the GPU's memory is used up") },
	{ "INTERNAL_ERROR_TEXTURE_CREATION_FAILED", 4006, N_("cuDNN could not access GPU memory (texture binding failed)") },
	{ "MAPPING_ERROR", 4006, N_("cuDNN could not access GPU memory (texture binding failed)") },
	{ "EXECUTION_FAILED", 5000, N_("a cuDNN GPU kernel failed to run: often a build with no code for this GPU, or a driver problem") },
	{ "EXECUTION_FAILED_CUDA_DRIVER", 5001, N_("a call into the CUDA driver failed while cuDNN ran a kernel") },
	{ "VERSION_MISMATCH", 1002, N_("the cuDNN sub-libraries loaded are different versions: two cuDNN installations are mixed on the library search path") },
};

/* The row for a status name (without the prefix): the exact one, else the
 * longest one it starts with (cuDNN 9 adds detail after a category). */
static const struct cudnn_status *
cudnn_status_lookup(const char *name, bool *exact)
{
	const struct cudnn_status *best = NULL;
	size_t best_len = 0;

	*exact = false;
	for (size_t i = 0; i < sizeof cudnn_statuses / sizeof cudnn_statuses[0]; i++) {
		const struct cudnn_status *c = &cudnn_statuses[i];
		size_t l = strlen(c->name);

		if (strcmp(name, c->name) == 0) {
			*exact = true;
			return c;
		}
		if (strncmp(name, c->name, l) == 0 && name[l] == '_' && l > best_len) {
			best = c;
			best_len = l;
		}
	}
	return best;
}

/* CUDNN_STATUS_X */
static void
r_cudnn_status(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t end = fwd_while(s, at + alen, is_ident);
	const struct cudnn_status *c;
	struct explain_match m;
	char *name;
	bool exact;

	(void)r;
	if ((at > 0 && is_ident((unsigned char)s->t[at - 1])) || end == at + alen)
		return;
	name = take(s, at + alen, end);
	if (strcmp(name, "SUCCESS") == 0) {
		free(name);
		return;
	}
	c = cudnn_status_lookup(name, &exact);
	free(name);
	match_init(&m, EXPLAIN_CUDNN_STATUS);
	m.code = take(s, at, end);
	if (c != NULL) {
		m.meaning = c->meaning;
		if (exact)
			m.number = c->number;
	}
	add_match(s, &m, at);
}

/* ------------------------------------------------------------ CUDA codes */

struct cuda_error {
	long		 number;
	const char	*runtime;	/* cudaError_t name */
	const char	*driver;	/* CUresult name; NULL: none */
	const char	*text;		/* cudaGetErrorString's words (lower case); NULL: too common */
	enum explain_kind kind;
	const char	*meaning;
};

static const struct cuda_error cuda_errors[] = {
	{ 2, "cudaErrorMemoryAllocation", "CUDA_ERROR_OUT_OF_MEMORY", "cuda out of memory", EXPLAIN_CUDA_ERROR, N_("the GPU has no memory left for an allocation: other processes hold it (nvidia-smi lists them), or the work is too large for the GPU") },
	{ 3, "cudaErrorInitializationError", "CUDA_ERROR_NOT_INITIALIZED", NULL, EXPLAIN_CUDA_ERROR, N_("the CUDA driver could not be initialised, or CUDA was used after fork() in the child") },
	{ 34, "cudaErrorStubLibrary", "CUDA_ERROR_STUB_LIBRARY", "cuda driver is a stub library", EXPLAIN_STUB_LIBRARY, N_("the libcuda that was loaded is the toolkit's stub, meant only for linking, not the driver's") },
	{ 35, "cudaErrorInsufficientDriver", NULL, "cuda driver version is insufficient for cuda runtime version", EXPLAIN_DRIVER_TOO_OLD, N_("the installed driver is older than the CUDA runtime needs") },
	{ 36, "cudaErrorCallRequiresNewerDriver", NULL, "api call is not supported in the installed cuda driver", EXPLAIN_DRIVER_TOO_OLD, N_("the program calls a CUDA function the installed driver is too old to have") },
	{ 46, "cudaErrorDevicesUnavailable", "CUDA_ERROR_DEVICE_UNAVAILABLE", "cuda-capable device(s) is/are busy or unavailable", EXPLAIN_CUDA_ERROR, N_("the GPU is in exclusive-process compute mode and busy, or was made unavailable") },
	{ 100, "cudaErrorNoDevice", "CUDA_ERROR_NO_DEVICE", "no cuda-capable device is detected", EXPLAIN_NO_DEVICE, N_("the driver sees no GPU this process may use: none present, the driver not loaded, or CUDA_VISIBLE_DEVICES hiding them") },
	{ 209, "cudaErrorNoKernelImageForDevice", "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image is available for execution on the device", EXPLAIN_NO_KERNEL_IMAGE, N_("the program has neither machine code for this GPU's compute capability nor PTX the driver could compile for it") },
	{ 218, "cudaErrorInvalidPtx", "CUDA_ERROR_INVALID_PTX", "a ptx jit compilation failed", EXPLAIN_CUDA_ERROR, N_("the driver failed to JIT-compile the program's PTX") },
	{ 221, "cudaErrorJitCompilerNotFound", "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "ptx jit compiler library not found", EXPLAIN_CUDA_ERROR, N_("the driver's PTX JIT compiler, libnvidia-ptxjitcompiler.so.1, could not be loaded") },
	{ 222, "cudaErrorUnsupportedPtxVersion", "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the provided ptx was compiled with an unsupported toolchain", EXPLAIN_PTX_TOOLCHAIN, N_("the PTX was made by a newer CUDA toolkit than the driver can JIT-compile") },
	{ 700, "cudaErrorIllegalAddress", "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered", EXPLAIN_CUDA_ERROR, N_("a kernel accessed memory it must not: a bug in the program or a library it uses") },
	{ 802, "cudaErrorSystemNotReady", "CUDA_ERROR_SYSTEM_NOT_READY", "system not yet initialized", EXPLAIN_CUDA_ERROR, N_("the system is not ready for CUDA: on NVSwitch machines, nvidia-fabricmanager is not running") },
	{ 803, "cudaErrorSystemDriverMismatch", "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "system has unsupported display driver / cuda driver combination", EXPLAIN_DRIVER_MISMATCH, N_("the kernel module and the userspace libcuda are different driver versions") },
	{ 804, "cudaErrorCompatNotSupportedOnDevice", "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "forward compatibility was attempted on non supported hw", EXPLAIN_FORWARD_COMPAT, N_("a forward-compatibility libcuda (cuda-compat) was loaded on a GPU that does not support it") },
	{ 999, "cudaErrorUnknown", "CUDA_ERROR_UNKNOWN", NULL, EXPLAIN_CUDA_ERROR, N_("an unknown error; after a driver update, a reboot or reloading the nvidia modules often clears it") },
};

#define NCUDA_ERRORS	(sizeof cuda_errors / sizeof cuda_errors[0])

static const struct cuda_error *
cuda_error_by_number(long n)
{
	for (size_t i = 0; i < NCUDA_ERRORS; i++)
		if (cuda_errors[i].number == n)
			return &cuda_errors[i];
	return NULL;
}

static void
add_cuda_error(struct scan *s, const struct cuda_error *e, const char *name,
    size_t pos)
{
	struct explain_match m;

	match_init(&m, e->kind);
	m.code = xstrdup(name);
	m.number = e->number;
	m.meaning = e->meaning;
	add_match(s, &m, pos);
}

/* Every name and every wording of each CUDA error in the table. */
static void
scan_cuda_errors(struct scan *s)
{
	for (size_t i = 0; i < NCUDA_ERRORS; i++) {
		const struct cuda_error *e = &cuda_errors[i];
		const char *names[] = { e->runtime, e->driver };

		for (size_t k = 0; k < 2; k++) {
			const char *p = s->t;
			size_t l;

			if (names[k] == NULL)
				continue;
			l = strlen(names[k]);
			while ((p = memmem(p, s->n - (size_t)(p - s->t), names[k], l)) != NULL) {
				size_t at = (size_t)(p - s->t);

				p += l;
				if ((at > 0 && is_ident((unsigned char)s->t[at - 1])) ||
				    (at + l < s->n && is_ident((unsigned char)s->t[at + l])))
					continue;
				add_cuda_error(s, e, names[k], at);
			}
		}
		if (e->text != NULL) {
			const char *p = s->low;
			size_t l = strlen(e->text);

			while ((p = memmem(p, s->n - (size_t)(p - s->low), e->text, l)) != NULL) {
				size_t at = (size_t)(p - s->low);

				p += l;
				add_cuda_error(s, e, e->runtime, at);
			}
		}
	}
}

/* The words after which a number is an error code: "CUDA error 35",
 * "cudaGetDeviceCount returned 35", "CudaAPIError: [34]", "code=209". */
static bool
code_word_before(const struct scan *s, size_t pos)
{
	static const char *const words[] = { "error", "returned", "code", "err",
	    "status", "result" };
	size_t p = pos, n = 0;

	while (p > 0 && n < 4 && strchr(" \t:=[(#", s->t[p - 1]) != NULL) {
		p--;
		n++;
	}
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t l = strlen(words[i]);

		if (p >= l && memcmp(s->low + p - l, words[i], l) == 0)
			return true;
	}
	return false;
}

/* A line that speaks of CUDA: names it, or calls a driver function
 * ("cuInit failed with error 34"). */
static bool
speaks_cuda(const struct scan *s, size_t ls, size_t le)
{
	if (find_nocase(s, ls, le, "cuda") != (size_t)-1)
		return true;
	for (size_t p = ls; p + 2 < le; p++)
		if (s->t[p] == 'c' && s->t[p + 1] == 'u' &&
		    s->t[p + 2] >= 'A' && s->t[p + 2] <= 'Z' &&
		    (p == ls || !is_ident((unsigned char)s->t[p - 1])))
			return true;
	return false;
}

/* Error numbers on lines that speak of CUDA. */
static void
scan_cuda_numbers(struct scan *s)
{
	for (size_t li = 0; li < s->nlines; li++) {
		size_t ls = s->line_start[li], le = line_end(s, ls);

		if (!speaks_cuda(s, ls, le))
			continue;
		for (size_t p = ls; p < le; ) {
			size_t e;
			const struct cuda_error *ce;
			long n;

			if (!is_digit((unsigned char)s->t[p]) ||
			    (p > ls && (is_ident((unsigned char)s->t[p - 1]) ||
			    s->t[p - 1] == '.'))) {
				p++;
				continue;
			}
			e = fwd_while(s, p, is_digit);
			if (e - p <= 3 && (e == le || (!is_ident((unsigned char)s->t[e]) &&
			    s->t[e] != '.')) && code_word_before(s, p)) {
				n = strtol(s->t + p, NULL, 10);
				ce = cuda_error_by_number(n);
				if (ce != NULL)
					add_cuda_error(s, ce, ce->runtime, p);
			}
			p = e;
		}
	}
}

/* ------------------------------------------------------------- the table */

static const struct recogniser recognisers[] = {
	/* TensorFlow's first: it claims the glibc message it quotes. */
	{ "Could not load dynamic library '", false, r_tf_dlopen, 0 },
	{ ": cannot open shared object file", false, r_cannot_open, 0 },
	{ "undefined symbol: ", false, r_undefined_symbol, 0 },
	{ " not defined in file ", false, r_symbol_not_defined, 0 },
	{ "version ", false, r_version_not_found, 0 },
	{ "wrong ELF class: ELFCLASS", false, r_wrong_class, 0 },
	{ ".dll not found", true, r_dll_not_found, 0 },
	{ "could not locate ", true, r_dll_named_after, 0 },
	{ "error loading \"", true, r_dll_named_after, 0 },
	{ "driver on your system is too old", true, r_torch_driver_old, 0 },
	{ "driver/library version mismatch", true, r_nvml_mismatch, 0 },
	{ " does not match dso version ", true, r_tf_kernel_dso, 0 },
	{ "api mismatch: the nvidia kernel module has version ", true,
	    r_nvrm_api_mismatch, 0 },
	{ "found no nvidia driver on your system", true, r_simple,
	    EXPLAIN_NO_DRIVER },
	{ "could not find cuda drivers on your machine", true, r_simple,
	    EXPLAIN_NO_DRIVER },
	{ "with cuda capability sm_", true, r_torch_arch, 0 },
	{ "which is of cuda capability ", true, r_torch_gpu_too_old, 0 },
	{ "loaded runtime cudnn library: ", true, r_tf_cudnn, 0 },
	{ "cudnn version incompatibility: ", true, r_torch_cudnn, 0 },
	{ "CUDNN_STATUS_", false, r_cudnn_status, 0 },
};

static void
run_recogniser(struct scan *s, const struct recogniser *r)
{
	const char *hay = r->nocase ? s->low : s->t;
	size_t alen = strlen(r->anchor);
	const char *p = hay;

	while ((p = memmem(p, s->n - (size_t)(p - hay), r->anchor, alen)) != NULL) {
		size_t at = (size_t)(p - hay);

		r->parse(s, at, alen, r);
		p += alen;
	}
}

/* -------------------------------------------------------------- mentions */

static void
mention(struct strv *sv, char *s)
{
	if (sv->n >= EXPLAIN_MENTION_MAX || strv_contains(sv, s))
		free(s);
	else
		strv_push_owned(sv, s);
}

static bool
is_soname_stem(unsigned char c)
{
	return is_ident(c) || c == '+' || c == '-';
}

/* lib*.so[.N…] anywhere. */
static void
mention_sonames(struct scan *s)
{
	const char *p = s->t;

	while ((p = memmem(p, s->n - (size_t)(p - s->t), "lib", 3)) != NULL) {
		size_t at = (size_t)(p - s->t), e, v;

		p += 3;
		if (at > 0 && is_ident((unsigned char)s->t[at - 1]))
			continue;
		e = fwd_while(s, at + 3, is_soname_stem);
		if (e == at + 3 || !at_lit(s, e, ".so"))
			continue;
		e += 3;
		for (;;) {
			if (e + 1 < s->n && s->t[e] == '.' &&
			    is_digit((unsigned char)s->t[e + 1])) {
				v = fwd_while(s, e + 1, is_digit);
				e = v;
			} else {
				break;
			}
		}
		if (e < s->n && is_ident((unsigned char)s->t[e]))
			continue;
		mention(&s->out->sonames, take(s, at, e));
	}
}

/* X.dll anywhere. */
static void
mention_dlls(struct scan *s)
{
	const char *p = s->low;

	while ((p = memmem(p, s->n - (size_t)(p - s->low), ".dll", 4)) != NULL) {
		size_t at = (size_t)(p - s->low), start;

		p += 4;
		if (at + 4 < s->n && is_ident((unsigned char)s->t[at + 4]))
			continue;
		start = back_while(s, at, is_ident);
		if (start < at)
			mention(&s->out->dlls, take(s, start, at + 4));
	}
}

/* "CUDA 11.8", "cuda-12.2", "CUDA Version: 11.4", "cuDNN 8.9.2",
 * "Driver Version: 470.86". */
static void
mention_versions(struct scan *s)
{
	static const struct {
		const char	*word;
		const char	*label;
	} words[] = {
		{ "cuda", "CUDA" }, { "cudnn", "cuDNN" }, { "driver", "driver" },
	};

	for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
		const char *p = s->low;
		size_t l = strlen(words[w].word);

		while ((p = memmem(p, s->n - (size_t)(p - s->low), words[w].word, l)) != NULL) {
			size_t at = (size_t)(p - s->low), q = at + l, seps = 0, e;
			char *v;

			p += l;
			if (at > 0 && is_alnum((unsigned char)s->t[at - 1]))
				continue;
			if (at_lit_nocase(s, q, " version"))
				q += strlen(" version");
			while (q < s->n && seps < 3 && strchr(" :=-", s->t[q]) != NULL) {
				q++;
				seps++;
			}
			if (seps == 0 && q < s->n && is_alnum((unsigned char)s->t[q]))
				continue;
			v = version_at(s, q, &e);
			if (v == NULL || strchr(v, '.') == NULL ||
			    (e < s->n && is_alnum((unsigned char)s->t[e]))) {
				free(v);
				continue;
			}
			mention(&s->out->versions, xasprintf("%s %s", words[w].label, v));
			free(v);
		}
	}
}

static void
mention_prefixed(struct scan *s, const char *prefix)
{
	const char *p = s->t;
	size_t l = strlen(prefix);

	while ((p = memmem(p, s->n - (size_t)(p - s->t), prefix, l)) != NULL) {
		size_t at = (size_t)(p - s->t), e = fwd_while(s, at + l, is_ident);

		p += l;
		if ((at > 0 && is_ident((unsigned char)s->t[at - 1])) || e == at + l)
			continue;
		mention(&s->out->errors, take(s, at, e));
	}
}

/* Error names, and the numbers the CUDA table turned into names. */
static void
mention_errors(struct scan *s)
{
	mention_prefixed(s, "CUDA_ERROR_");
	mention_prefixed(s, "cudaError");
	mention_prefixed(s, "CUDNN_STATUS_");
	mention_prefixed(s, "CUBLAS_STATUS_");
	for (size_t i = 0; i < s->out->matches.n; i++) {
		const struct explain_match *m = &s->out->matches.v[i];

		if (m->code != NULL && m->number >= 0)
			mention(&s->out->errors, xasprintf("%s (%ld)", m->code,
			    m->number));
	}
}

/* ------------------------------------------------------------------ API */

static int
cmp_offset(const void *a, const void *b)
{
	const struct explain_match *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

void
explain_recognise(const char *text, size_t len, struct explain *out)
{
	struct scan s = { .out = out, .n = len };
	size_t cap = 16;

	s.t = xmalloc(len + 1);
	s.low = xmalloc(len + 1);
	s.claimed = xcalloc(len + 1, 1);
	s.last_line = xcalloc(EXPLAIN_MATCH_MAX, sizeof *s.last_line);
	s.line_start = xmalloc(cap * sizeof *s.line_start);
	s.line_start[s.nlines++] = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '\r') {
			c = ' ';
		} else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
			c = ' ';
			out->nontext++;
		}
		s.t[i] = (char)c;
		s.low[i] = (char)lower(c);
		if (c == '\n' && i + 1 < len) {
			if (s.nlines == cap) {
				cap *= 2;
				s.line_start = xreallocarray(s.line_start, cap,
				    sizeof *s.line_start);
			}
			s.line_start[s.nlines++] = i + 1;
		}
	}
	s.t[len] = s.low[len] = '\0';
	out->lines = len > 0 ? s.nlines : 0;

	for (size_t i = 0; i < sizeof recognisers / sizeof recognisers[0]; i++)
		run_recogniser(&s, &recognisers[i]);
	scan_cuda_errors(&s);
	scan_cuda_numbers(&s);
	if (out->matches.n > 1)
		qsort(out->matches.v, out->matches.n, sizeof *out->matches.v,
		    cmp_offset);

	mention_sonames(&s);
	mention_dlls(&s);
	mention_versions(&s);
	mention_errors(&s);
	strv_sort(&out->sonames);
	strv_sort(&out->dlls);
	strv_sort(&out->versions);
	strv_sort(&out->errors);

	free(s.t);
	free(s.low);
	free(s.claimed);
	free(s.last_line);
	free(s.line_start);
}

void
explain_free(struct explain *ex)
{
	for (size_t i = 0; i < ex->matches.n; i++)
		match_free(&ex->matches.v[i]);
	FREE(&ex->matches.v);
	ex->matches.n = ex->matches.cap = 0;
	strv_free(&ex->sonames);
	strv_free(&ex->dlls);
	strv_free(&ex->versions);
	strv_free(&ex->errors);
}

static const struct {
	const char	*name;
	const char	*title;
} kinds[EXPLAIN_KIND_COUNT] = {
	[EXPLAIN_DLOPEN_FAILED] = { "dlopen_failed",
	    N_("A program could not load a library it asks for by name") },
	[EXPLAIN_CANNOT_OPEN] = { "cannot_open_shared_object",
	    N_("The dynamic loader could not open a library") },
	[EXPLAIN_UNDEFINED_SYMBOL] = { "undefined_symbol",
	    N_("A library lacks a symbol that another one needs") },
	[EXPLAIN_VERSION_NOT_FOUND] = { "version_not_found",
	    N_("A library lacks a symbol version that another one needs") },
	[EXPLAIN_WRONG_ELF_CLASS] = { "wrong_elf_class",
	    N_("A library of the wrong ELF class (32-bit for 64-bit) was found") },
	[EXPLAIN_DLL_NOT_FOUND] = { "dll_not_found",
	    N_("Windows could not load a CUDA or cuDNN DLL") },
	[EXPLAIN_DRIVER_TOO_OLD] = { "driver_too_old",
	    N_("The NVIDIA driver is older than the CUDA runtime needs") },
	[EXPLAIN_DRIVER_MISMATCH] = { "driver_library_mismatch",
	    N_("The kernel module and the driver's libraries are different versions") },
	[EXPLAIN_NO_DRIVER] = { "no_driver",
	    N_("No usable NVIDIA driver library was found") },
	[EXPLAIN_NO_DEVICE] = { "no_device",
	    N_("CUDA sees no GPU") },
	[EXPLAIN_STUB_LIBRARY] = { "stub_library",
	    N_("The toolkit's stub libcuda was loaded instead of the driver's") },
	[EXPLAIN_NO_KERNEL_IMAGE] = { "no_kernel_image",
	    N_("The program has no code for this GPU") },
	[EXPLAIN_ARCH_UNSUPPORTED] = { "arch_not_supported",
	    N_("A framework build does not support this GPU's compute capability") },
	[EXPLAIN_PTX_TOOLCHAIN] = { "ptx_unsupported_toolchain",
	    N_("PTX from a newer toolkit than the driver can compile") },
	[EXPLAIN_FORWARD_COMPAT] = { "forward_compat_unsupported",
	    N_("A forward-compatibility libcuda on a GPU that does not support it") },
	[EXPLAIN_CUDNN_VERSION] = { "cudnn_version_mismatch",
	    N_("The cuDNN loaded is not the one the framework was built with") },
	[EXPLAIN_CUDNN_STATUS] = { "cudnn_status",
	    N_("A cuDNN call failed") },
	[EXPLAIN_CUDA_ERROR] = { "cuda_error",
	    N_("A CUDA call failed") },
};

const char *
explain_kind_name(enum explain_kind kind)
{
	return kind < EXPLAIN_KIND_COUNT ? kinds[kind].name : "unknown";
}

const char *
explain_kind_title(enum explain_kind kind)
{
	return kind < EXPLAIN_KIND_COUNT ? kinds[kind].title : "";
}

bool
explain_is_soname(const char *name)
{
	const char *so;

	if (name == NULL || strncmp(name, "lib", 3) != 0 || name[3] == '\0' ||
	    strchr(name, '/') != NULL || strchr(name, '\\') != NULL)
		return false;
	for (so = strstr(name, ".so"); so != NULL; so = strstr(so + 1, ".so"))
		if (so[3] == '\0' || so[3] == '.')
			return so > name + 3;
	return false;
}

static void
add_soname(struct strv *out, const char *soname)
{
	if (soname != NULL && !strv_contains(out, soname))
		strv_push(out, soname);
}

void
explain_match_sonames(const struct explain_match *m, struct strv *out)
{
	struct version v;
	char *so;

	switch (m->kind) {
	case EXPLAIN_DLOPEN_FAILED:
	case EXPLAIN_CANNOT_OPEN:
	case EXPLAIN_UNDEFINED_SYMBOL:
	case EXPLAIN_VERSION_NOT_FOUND:
	case EXPLAIN_WRONG_ELF_CLASS:
		if (explain_is_soname(m->soname))
			add_soname(out, m->soname);
		break;
	case EXPLAIN_DRIVER_MISMATCH:
		add_soname(out, "libcuda.so.1");
		add_soname(out, "libnvidia-ml.so.1");
		break;
	case EXPLAIN_STUB_LIBRARY:
		/* Programs that find the stub ask for the unversioned name. */
		add_soname(out, "libcuda.so.1");
		add_soname(out, "libcuda.so");
		break;
	case EXPLAIN_DRIVER_TOO_OLD:
	case EXPLAIN_NO_DRIVER:
	case EXPLAIN_NO_DEVICE:
	case EXPLAIN_PTX_TOOLCHAIN:
	case EXPLAIN_FORWARD_COMPAT:
		add_soname(out, "libcuda.so.1");
		break;
	case EXPLAIN_CUDNN_VERSION:
		if (m->found != NULL && version_parse(m->found, &v)) {
			so = xasprintf("libcudnn.so.%u", v.part[0]);
			add_soname(out, so);
			free(so);
		}
		if (m->wanted != NULL && version_parse(m->wanted, &v)) {
			so = xasprintf("libcudnn.so.%u", v.part[0]);
			add_soname(out, so);
			free(so);
		}
		break;
	case EXPLAIN_CUDA_ERROR:
		if (m->number == 221)
			add_soname(out, "libnvidia-ptxjitcompiler.so.1");
		break;
	default:
		break;
	}
}
