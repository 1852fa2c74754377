/* A conda-meta record's top-level strings (name, version, build,
 * channel, url) and the CUDA pins of its depends array, read by a small
 * scanner over the first bytes of the record rather than parsing it
 * whole, since PyTorch's lists every file it installed twice and runs to
 * megabytes; see pypkg.c. conda sorts the keys: build and channel come
 * first, depends next, and "files" (the big part) after it. */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "probe/condajson_int.h"
#include "util/strbuf.h"
#include "util/utf8width.h"
#include "util/xalloc.h"

static const char *const json_keys[JK_COUNT] = {
	"name", "version", "build", "build_string", "channel", "schannel",
	"url",
};

void
js_reset(struct jscan *j)
{
	for (size_t i = 0; i < JK_COUNT; i++)
		FREE(&j->val[i]);
	strv_free(&j->deps);
	j->past_deps = false;
	j->state = JS_MORE;
	j->bad = NULL;
	j->bad_at = 0;
}

static size_t
js_ws(const char *b, size_t i, size_t len)
{
	while (i < len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' ||
	    b[i] == '\r'))
		i++;
	return i;
}

/* The index after the string whose opening quote is at i; JS_CUT when
 * it does not end in the buffer. */
#define JS_CUT	SIZE_MAX

static size_t
js_skip_string(const char *b, size_t i, size_t len)
{
	for (i++; i < len; i++) {
		if (b[i] == '\\')
			i++;
		else if (b[i] == '"')
			return i + 1;
	}
	return JS_CUT;
}

static unsigned
js_hex4(const char *s)
{
	unsigned v = 0;

	for (int k = 0; k < 4; k++) {
		char c = s[k];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return 0xfffd;
	}
	return v;
}

static void
put_utf8(struct strbuf *sb, unsigned cp)
{
	char out[4];

	if (cp == 0 || (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	strbuf_add(sb, out, utf8_encode(cp, out));
}

/* The value of the string between the quotes at b[from] and b[to - 1]. */
static char *
js_decode(const char *b, size_t from, size_t to)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_puts(&sb, "");
	for (size_t i = from + 1; i + 1 < to; i++) {
		unsigned cp;

		if (b[i] != '\\') {
			strbuf_putc(&sb, b[i] == '\0' ? '?' : b[i]);
			continue;
		}
		i++;
		switch (b[i]) {
		case 'b': strbuf_putc(&sb, '\b'); break;
		case 'f': strbuf_putc(&sb, '\f'); break;
		case 'n': strbuf_putc(&sb, '\n'); break;
		case 'r': strbuf_putc(&sb, '\r'); break;
		case 't': strbuf_putc(&sb, '\t'); break;
		case 'u':
			if (i + 4 >= to) {
				put_utf8(&sb, 0xfffd);
				i = to;
				break;
			}
			cp = js_hex4(b + i + 1);
			i += 4;
			if (cp >= 0xd800 && cp <= 0xdbff && i + 6 < to &&
			    b[i + 1] == '\\' && b[i + 2] == 'u') {
				unsigned lo = js_hex4(b + i + 3);

				if (lo >= 0xdc00 && lo <= 0xdfff) {
					cp = 0x10000 + ((cp - 0xd800) << 10) +
					    (lo - 0xdc00);
					i += 6;
				}
			}
			put_utf8(&sb, cp);
			break;
		default:
			strbuf_putc(&sb, b[i]);	/* '"', '\\', '/' */
			break;
		}
	}
	return strbuf_take(&sb);
}

/* The index after the array or object that opens at i; JS_CUT when it
 * does not end in the buffer. Only brackets and strings are looked at. */
static size_t
js_skip_nested(const char *b, size_t i, size_t len)
{
	size_t depth = 0;

	while (i < len) {
		char c = b[i];

		if (c == '"') {
			i = js_skip_string(b, i, len);
			if (i == JS_CUT)
				return JS_CUT;
			continue;
		}
		if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (--depth == 0)
				return i + 1;
		}
		i++;
	}
	return JS_CUT;
}

static bool
js_literal_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
}

static bool
js_have_enough(const struct jscan *j)
{
	return (j->val[JK_BUILD] != NULL || j->val[JK_BUILD_STRING] != NULL) &&
	    (j->val[JK_CHANNEL] != NULL || j->val[JK_SCHANNEL] != NULL) &&
	    j->past_deps;
}

/* Reads the depends array that opens at i into j->deps; the index after
 * it, or JS_CUT. Entries that are not strings are skipped. */
static size_t
js_deps(struct jscan *j, const char *b, size_t i, size_t len)
{
	i++;
	for (;;) {
		size_t vs;

		i = js_ws(b, i, len);
		if (i == len)
			return JS_CUT;
		if (b[i] == ']')
			return i + 1;
		if (b[i] == ',') {
			i++;
			continue;
		}
		vs = i;
		if (b[i] == '{' || b[i] == '[') {
			i = js_skip_nested(b, i, len);
			if (i == JS_CUT)
				return JS_CUT;
			continue;
		}
		if (b[i] != '"') {
			while (i < len && js_literal_char(b[i]))
				i++;
			if (i == len)
				return JS_CUT;
			if (i == vs)
				return i;	/* not JSON: js_scan says so */
			continue;
		}
		i = js_skip_string(b, i, len);
		if (i == JS_CUT)
			return JS_CUT;
		/* Only those naming a CUDA package ("cudnn", "cuda-version",
		 * "cudatoolkit", "cuda-cudart" …) are kept. */
		if (j->deps.n < JS_MAX_DEPS && i - vs > 5 &&
		    strncmp(b + vs + 1, "cud", 3) == 0)
			strv_push_owned(&j->deps, js_decode(b, vs, i));
	}
}

/* Whether the key k (n bytes, unquoted) sorts after "depends". */
static bool
js_key_after_deps(const char *k, size_t n)
{
	int c = strncmp(k, "depends", n < 7 ? n : 7);

	return c > 0 || (c == 0 && n > 7);
}

static enum js_state
js_fail(struct jscan *j, const char *what, size_t at)
{
	j->bad = what;
	j->bad_at = at;
	return j->state = JS_BAD;
}

/*
 * Scans the top level of a JSON object for the string values of
 * json_keys, skipping nested values by their brackets. Stops once it has
 * a build and a channel (conda writes those before the file lists), so
 * nested values and what follows are not checked. JS_MORE: the buffer
 * ended first and more of the file can be read.
 */
enum js_state
js_scan(struct jscan *j, const char *b, size_t len, bool whole)
{
	size_t i;
	bool first = true;

	js_reset(j);
	i = js_ws(b, 0, len);
	if (i == len)
		return whole ? js_fail(j, N_("empty file"), i) : JS_MORE;
	if (b[i] != '{')
		return js_fail(j, N_("not a JSON object"), i);
	i++;
	for (;;) {
		size_t ks, ke, vs;
		int key = -1;
		bool is_deps;

		i = js_ws(b, i, len);
		if (i == len)
			break;
		if (b[i] == '}' && first) {
			i++;
			goto end;
		}
		if (b[i] != '"')
			return js_fail(j, N_("a key was expected"), i);
		ks = i;
		ke = i = js_skip_string(b, i, len);
		if (i == JS_CUT)
			break;
		i = js_ws(b, i, len);
		if (i == len)
			break;
		if (b[i] != ':')
			return js_fail(j, N_("':' was expected"), i);
		for (int k = 0; k < JK_COUNT; k++)
			if (ke - ks - 2 == strlen(json_keys[k]) &&
			    strncmp(b + ks + 1, json_keys[k], ke - ks - 2) == 0)
				key = k;
		is_deps = ke - ks - 2 == 7 && strncmp(b + ks + 1, "depends",
		    7) == 0;
		/* A key conda sorts after depends: there is none. */
		if (!is_deps && js_key_after_deps(b + ks + 1, ke - ks - 2))
			j->past_deps = true;
		if (j->past_deps && js_have_enough(j))
			return j->state = JS_DONE;
		i = js_ws(b, i + 1, len);
		if (i == len)
			break;
		vs = i;
		if (is_deps && b[i] == '[') {
			i = js_deps(j, b, i, len);
			if (i == JS_CUT)
				break;
			j->past_deps = true;
		} else if (b[i] == '"') {
			i = js_skip_string(b, i, len);
			if (i == JS_CUT)
				break;
			if (key >= 0 && j->val[key] == NULL)
				j->val[key] = js_decode(b, vs, i);
		} else if (b[i] == '{' || b[i] == '[') {
			i = js_skip_nested(b, i, len);
			if (i == JS_CUT)
				break;
		} else {
			while (i < len && js_literal_char(b[i]))
				i++;
			if (i == vs)
				return js_fail(j, N_("a value was expected"), i);
			if (i == len)
				break;
		}
		first = false;
		if (js_have_enough(j))
			return j->state = JS_DONE;
		i = js_ws(b, i, len);
		if (i == len)
			break;
		if (b[i] == '}') {
			i++;
			goto end;
		}
		if (b[i] != ',')
			return js_fail(j, N_("',' or '}' was expected"), i);
		i++;
	}
	/* The buffer ended inside the object. */
	return whole ? js_fail(j, N_("the file ends inside the object"), len) :
	    JS_MORE;
end:
	i = js_ws(b, i, len);
	if (i < len)
		return js_fail(j, N_("data after the object"), i);
	return j->state = JS_DONE;
}

bool
js_enough(void *arg, const char *buf, size_t len, bool whole)
{
	return js_scan(arg, buf, len, whole) != JS_MORE;
}
