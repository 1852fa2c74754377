/* supported-gpus.json (see gpusupported.h).
 *
 * NVIDIA ships the file in every driver since 450 (the .run installer's
 * manifest puts it under NVIDIA_GLX-1.0/supported-gpus/ in the doc
 * directory; Gentoo's ebuild installs it as a document; NVIDIA's
 * nvidia-driver-assistant package carries its own copy). Its form:
 *   {"chips":[{"devid":"0x1140","subdevid":"0x0106","subvendorid":"0x1BAB",
 *     "name":"GeForce 820M","legacybranch":"390.xx","features":[…]}, …]}
 * A row with sub-ids names one board; one without, the chip. A small
 * scanner reads only these strings in one pass, about 0.4 MB, rather
 * than building the whole document. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "probe/gpusupported.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define BAD	SIZE_MAX
/* Nesting deeper than this is not the file's form. */
#define DEPTH_MAX	16
#define FIELD_MAX	256

/* Where the driver packages put it, the first found is read. */
static const char *const fixed_paths[] = {
	/* NVIDIA's .run installer */
	"/usr/share/doc/NVIDIA_GLX-1.0/supported-gpus/supported-gpus.json",
	/* NVIDIA's nvidia-driver-assistant (CUDA repositories) */
	"/usr/share/nvidia-driver-assistant/supported-gpus/supported-gpus.json",
};
/* Under /usr/share/doc, one directory per version: Gentoo's
 * nvidia-drivers-VERSION/supported-gpus.json (when not compressed), and
 * nvidia-driver-VERSION/supported-gpus/supported-gpus.json. */
static const struct {
	const char	*prefix;
	const char	*tail;
} doc_globs[] = {
	{ "nvidia-drivers-", "supported-gpus.json" },
	{ "nvidia-driver-", "supported-gpus/supported-gpus.json" },
};

/* A string's text as it stands in the file, between its quotes. */
struct span {
	size_t	 s, e;
	bool	 set;
};

/* The strings of one row the reader uses; copied out only for a row
 * that names a GPU on the bus (a few of some thousands). */
struct chip {
	struct span	devid, subdevid, subvendorid, name, legacy;
};

struct match {
	/* 0 none; 1 another board with this chip (its branch only: the
	 * list names some ids, 0x1140 for one, only board by board); 2 the
	 * chip's own row; 3 this board's row. */
	int	 level;
	bool	 conflict;	/* level 1 rows disagree on the branch */
	char	*name;		/* levels 2 and 3 */
	char	*legacy;	/* NULL: on no legacy branch */
};

static size_t
ws(const char *b, size_t i, size_t len)
{
	while (i < len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' ||
	    b[i] == '\r'))
		i++;
	return i;
}

/* A string at b[i] ('"'); *out (when out) gets where its text lies.
 * Returns the index after it, or BAD. The closing quote is found with
 * memchr (strings are most of the file); one preceded by an odd run of
 * backslashes is escaped. Control characters inside are not looked for
 * here: the few strings kept are checked by span_text(). */
static size_t
string_at(const char *b, size_t i, size_t len, struct span *out)
{
	size_t start;

	if (i >= len || b[i] != '"')
		return BAD;
	start = ++i;
	for (;;) {
		const char *q = memchr(b + i, '"', len - i);
		size_t bs = 0;

		if (q == NULL)
			return BAD;
		i = (size_t)(q - b);
		while (i - bs > start && b[i - bs - 1] == '\\')
			bs++;
		if (bs % 2 == 0)
			break;
		i++;
	}
	if (out != NULL) {
		out->s = start;
		out->e = i;
		out->set = true;
	}
	return i + 1;
}

/* A span's text, escapes other than \" \\ \/ read as '?', at most
 * FIELD_MAX bytes; NULL for a span not set or one holding a control
 * character. */
static char *
span_text(const char *b, const struct span *sp)
{
	struct strbuf sb = STRBUF_INIT;

	if (!sp->set)
		return NULL;
	for (size_t i = sp->s; i < sp->e && sb.len < FIELD_MAX; i++) {
		char c = b[i];

		if ((unsigned char)c < 0x20 || c == 0x7f) {
			/* Not a name a list of GPUs would hold. */
			strbuf_free(&sb);
			return NULL;
		}

		if (c == '\\') {
			c = b[++i];
			if (c == 'u') {
				i += 4;
				c = '?';
			} else if (c != '"' && c != '\\' && c != '/') {
				c = '?';
			}
		}
		strbuf_putc(&sb, c);
	}
	return strbuf_take(&sb);
}

static bool
span_is(const char *b, const struct span *sp, const char *lit)
{
	size_t n = strlen(lit);

	return sp->e - sp->s == n && memcmp(b + sp->s, lit, n) == 0;
}

/* Any value, skipped; nested ones to DEPTH_MAX. */
static size_t
skip_value(const char *b, size_t i, size_t len, int depth)
{
	if (i >= len || depth > DEPTH_MAX)
		return BAD;
	if (b[i] == '"')
		return string_at(b, i, len, NULL);
	if (b[i] == '{' || b[i] == '[') {
		char close = b[i] == '{' ? '}' : ']';
		bool obj = b[i] == '{';

		i = ws(b, i + 1, len);
		if (i < len && b[i] == close)
			return i + 1;
		for (;;) {
			if (obj) {
				i = string_at(b, i, len, NULL);
				if (i == BAD)
					return BAD;
				i = ws(b, i, len);
				if (i >= len || b[i] != ':')
					return BAD;
				i = ws(b, i + 1, len);
			}
			i = skip_value(b, i, len, depth + 1);
			if (i == BAD)
				return BAD;
			i = ws(b, i, len);
			if (i < len && b[i] == close)
				return i + 1;
			if (i >= len || b[i] != ',')
				return BAD;
			i = ws(b, i + 1, len);
		}
	}
	{
		size_t s = i;

		while (i < len && ((b[i] >= 'a' && b[i] <= 'z') ||
		    (b[i] >= '0' && b[i] <= '9') || b[i] == '-' || b[i] == '+' ||
		    b[i] == '.' || b[i] == 'E'))
			i++;
		return i > s ? i : BAD;
	}
}

/* "0x1140" (any case, one to four digits) as a number, or -1. */
static long
hex_id(const char *b, const struct span *sp)
{
	size_t n = sp->e - sp->s;
	const char *p = b + sp->s;
	long v = 0;

	if (!sp->set || n < 3 || n > 6 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
		return -1;
	for (size_t i = 2; i < n; i++) {
		char c = p[i];
		int d = c >= '0' && c <= '9' ? c - '0' :
		    c >= 'a' && c <= 'f' ? c - 'a' + 10 :
		    c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* One row of "chips" at b[i]. */
static size_t
chip_at(const char *b, size_t i, size_t len, struct chip *c)
{
	if (i >= len || b[i] != '{')
		return BAD;
	i = ws(b, i + 1, len);
	if (i < len && b[i] == '}')
		return i + 1;
	for (;;) {
		struct span key = { 0, 0, false }, *slot = NULL;

		i = string_at(b, i, len, &key);
		if (i == BAD)
			return BAD;
		if (span_is(b, &key, "devid"))
			slot = &c->devid;
		else if (span_is(b, &key, "subdevid"))
			slot = &c->subdevid;
		else if (span_is(b, &key, "subvendorid"))
			slot = &c->subvendorid;
		else if (span_is(b, &key, "name"))
			slot = &c->name;
		else if (span_is(b, &key, "legacybranch"))
			slot = &c->legacy;
		i = ws(b, i, len);
		if (i >= len || b[i] != ':')
			return BAD;
		i = ws(b, i + 1, len);
		if (slot != NULL && i < len && b[i] == '"')
			i = string_at(b, i, len, slot);
		else
			/* Fields this reader does not know are skipped. */
			i = skip_value(b, i, len, 2);
		if (i == BAD)
			return BAD;
		i = ws(b, i, len);
		if (i < len && b[i] == '}')
			return i + 1;
		if (i >= len || b[i] != ',')
			return BAD;
		i = ws(b, i + 1, len);
	}
}

static bool
same_str(const char *a, const char *b)
{
	return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0;
}

/* Keeps c for each GPU it describes better than what it had. */
static void
chip_offer(const struct facts *f, const char *b, const struct chip *c,
    struct match *m)
{
	long dev = hex_id(b, &c->devid), sv = -1, sd = -1;
	bool board = c->subdevid.set || c->subvendorid.set;

	if (dev < 0)
		return;
	if (board) {
		sv = hex_id(b, &c->subvendorid);
		sd = hex_id(b, &c->subdevid);
	}
	for (size_t g = 0; g < f->gpus.n; g++) {
		const struct gpu_fact *gf = &f->gpus.v[g];
		char *legacy;
		int level;

		if ((unsigned long)dev != gf->device_id)
			continue;
		if (!board)
			level = 2;
		else if ((unsigned long)sv == gf->subsys_vendor_id &&
		    (unsigned long)sd == gf->subsys_device_id)
			level = 3;
		else
			level = 1;
		if (level < m[g].level)
			continue;
		legacy = span_text(b, &c->legacy);
		if (level == m[g].level) {
			if (level == 1 && !same_str(m[g].legacy, legacy))
				m[g].conflict = true;
			free(legacy);
			continue;
		}
		m[g].level = level;
		m[g].conflict = false;
		FREE(&m[g].name);
		free(m[g].legacy);
		m[g].legacy = legacy;
		if (level > 1)
			m[g].name = span_text(b, &c->name);
	}
}

/* The whole document; false when it is not the form above. */
static bool
parse(const struct facts *f, const char *b, size_t len, struct match *m,
    size_t *at)
{
	size_t i = ws(b, 0, len);
	bool chips_seen = false;

	if (i >= len || b[i] != '{')
		goto bad;
	i = ws(b, i + 1, len);
	while (i < len && b[i] != '}') {
		struct span key = { 0, 0, false };
		bool chips;

		i = string_at(b, i, len, &key);
		if (i == BAD)
			goto bad;
		chips = span_is(b, &key, "chips");
		i = ws(b, i, len);
		if (i >= len || b[i] != ':')
			goto bad;
		i = ws(b, i + 1, len);
		if (!chips) {
			i = skip_value(b, i, len, 1);
		} else {
			if (i >= len || b[i] != '[')
				goto bad;
			chips_seen = true;
			i = ws(b, i + 1, len);
			while (i < len && b[i] != ']') {
				struct chip c;

				memset(&c, 0, sizeof c);
				i = chip_at(b, i, len, &c);
				if (i == BAD)
					goto bad;
				chip_offer(f, b, &c, m);
				i = ws(b, i, len);
				if (i < len && b[i] == ',')
					i = ws(b, i + 1, len);
				else if (i >= len || b[i] != ']')
					goto bad;
			}
			if (i >= len)
				goto bad;
			i++;
		}
		if (i == BAD)
			goto bad;
		i = ws(b, i, len);
		if (i < len && b[i] == ',')
			i = ws(b, i + 1, len);
		else if (i >= len || b[i] != '}')
			goto bad;
	}
	if (i >= len || !chips_seen)
		goto bad;
	*at = i;
	return true;
bad:
	*at = i == BAD ? 0 : i;
	return false;
}

/* The first supported-gpus.json that exists, read; its path or NULL. */
static char *
find_and_read(struct probe_ctx *ctx, char **data, size_t *len)
{
	struct strv cands = STRV_INIT, docs = STRV_INIT;
	char *found = NULL;

	for (size_t i = 0; i < sizeof fixed_paths / sizeof fixed_paths[0]; i++)
		strv_push(&cands, fixed_paths[i]);
	if (sysroot_list_dir(ctx->sr, "/usr/share/doc", &docs) == 0)
		for (size_t g = 0; g < sizeof doc_globs / sizeof doc_globs[0]; g++)
			for (size_t i = 0; i < docs.n; i++)
				if (strncmp(docs.v[i], doc_globs[g].prefix,
				    strlen(doc_globs[g].prefix)) == 0)
					strv_pushf(&cands, "/usr/share/doc/%s/%s",
					    docs.v[i], doc_globs[g].tail);
	for (size_t i = 0; i < cands.n && found == NULL; i++) {
		int rc = sysroot_read_file(ctx->sr, cands.v[i],
		    GPUSUPPORTED_CAP, data, len);

		if (rc == ENOENT || rc == ENOTDIR)
			continue;
		if (rc != 0) {
			facts_note(ctx->facts, cands.v[i], _("cannot read: %s"),
			    sysroot_strerror(rc));
			continue;
		}
		found = xstrdup(cands.v[i]);
	}
	strv_free(&cands);
	strv_free(&docs);
	return found;
}

char *
gpusupported_read(struct probe_ctx *ctx, char **names)
{
	struct facts *f = ctx->facts;
	struct match *m;
	char *data = NULL, *path;
	size_t len = 0, at = 0;

	path = find_and_read(ctx, &data, &len);
	if (path == NULL) {
		for (size_t g = 0; g < f->gpus.n; g++)
			fact_unknown(&f->gpus.v[g].legacy_branch, _("no "
			    "supported-gpus.json from the driver was found"));
		return NULL;
	}
	m = xcalloc(f->gpus.n + 1, sizeof *m);
	if (strlen(data) != len) {
		facts_note(f, path, _("holds binary data; ignored"));
		goto ignored;
	}
	if (!parse(f, data, len, m, &at)) {
		facts_note(f, path, _("not the form of NVIDIA's "
		    "supported-gpus.json (at byte %zu); ignored"), at);
		goto ignored;
	}
	for (size_t g = 0; g < f->gpus.n; g++) {
		struct gpu_fact *gf = &f->gpus.v[g];
		const char *l = m[g].legacy;
		size_t n;

		if (m[g].level == 1 && m[g].conflict) {
			fact_unknown(&gf->legacy_branch, _("%s lists PCI id "
			    "%04x:%04x only for other boards, on different "
			    "branches"), path, gf->vendor_id, gf->device_id);
			continue;
		}
		if (m[g].level == 0) {
			fact_unknown(&gf->legacy_branch, _("%s does not list "
			    "PCI id %04x:%04x"), path, gf->vendor_id,
			    gf->device_id);
			continue;
		}
		if (l == NULL) {
			fact_absent(&gf->legacy_branch, path);
		} else {
			/* "390.xx" -> "390"; "71.86.xx" -> "71.86". */
			n = strlen(l);
			if (n > 3 && strcmp(l + n - 3, ".xx") == 0)
				n -= 3;
			if (n == 0 || strspn(l, "0123456789.") < n)
				fact_unknown(&gf->legacy_branch, _("%s: \"%s\" is "
				    "not a driver branch"), path, l);
			else
				fact_set_owned(&gf->legacy_branch,
				    xstrndup(l, n), path);
		}
		if (m[g].name != NULL && m[g].name[0] != '\0') {
			names[g] = m[g].name;
			m[g].name = NULL;
		}
	}
	goto out;
ignored:
	for (size_t g = 0; g < f->gpus.n; g++)
		fact_unknown(&f->gpus.v[g].legacy_branch, _("%s is damaged; "
		    "see the notes"), path);
out:
	for (size_t g = 0; g < f->gpus.n; g++) {
		free(m[g].name);
		free(m[g].legacy);
	}
	free(m);
	free(data);
	return path;
}
