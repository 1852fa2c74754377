/* The helper's JSON Lines writer (src/helper/jsonl.c): whatever bytes a
 * vendor library hands it (device names, JIT logs, error strings), the
 * line it writes must be one valid JSON object that a strict parser
 * (jansson, as the parent uses) reads back to the same text, with bytes
 * that are not UTF-8 as U+FFFD. It is read here with the flags the parent
 * uses (src/verify/parse.c). */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helper/jsonl.h"
#include "lib/tap.h"

/* S (N bytes) escaped by the helper, quotes included. */
static char *
escaped(const char *s, size_t n)
{
	struct rec r;
	char *out;

	memset(&r, 0, sizeof r);
	jsonl_escape(&r, s, n);
	out = strdup(r.buf);
	free(r.buf);
	return out;
}

/* Escapes S, parses the result as a JSON string and compares it with
 * WANT (what the parser must read back). */
static void
roundtrip(const char *s, size_t n, const char *want, const char *what)
{
	char *e = escaped(s, n), *doc;
	json_error_t err;
	json_t *j;

	if (asprintf(&doc, "[%s]", e) < 0)
		abort();
	j = json_loads(doc, JSON_REJECT_DUPLICATES, &err);
	if (!ok(j != NULL, "%s: valid JSON", what))
		printf("#   %s: %s\n", doc, err.text);
	else {
		json_t *str = json_array_get(j, 0);

		is_str(json_is_string(str) ? json_string_value(str) : NULL, want,
		    "%s: reads back", what);
	}
	json_decref(j);
	free(doc);
	free(e);
}

/* One record written to a pipe: the bytes of exactly one line. */
static char *
emitted(void (*build)(struct rec *))
{
	int p[2];
	char buf[4096];
	ssize_t n;
	struct rec r;

	if (pipe(p) != 0)
		abort();
	jsonl_set_fd(p[1]);
	rec_open(&r, "test");
	build(&r);
	rec_emit(&r);
	close(p[1]);
	n = read(p[0], buf, sizeof buf - 1);
	close(p[0]);
	buf[n > 0 ? n : 0] = '\0';
	return strdup(buf);
}

static void
build_all(struct rec *r)
{
	rec_int(r, "neg", -42);
	rec_uint(r, "big", 18446744073709551615ull);
	rec_uint(r, "max", 9223372036854775807ull);
	rec_num(r, "pi", 3.14159265);
	rec_num(r, "tiny", 1.5e-300);
	rec_num(r, "nan", NAN);
	rec_num(r, "inf", INFINITY);
	rec_bool(r, "yes", true);
	rec_null(r, "nothing");
	rec_str(r, "null_str", NULL);
	rec_strn(r, "nul", "a\0b", 3);
	rec_array(r, "list");
	rec_str(r, NULL, "x");
	rec_int(r, NULL, 1);
	rec_object(r, NULL);
	rec_str(r, "k\"ey", "v");
	rec_close(r);
	rec_close(r);
	rec_object(r, "open");	/* left open: rec_emit closes it */
	rec_int(r, "n", 2);
}

static void
build_empty(struct rec *r)
{
	(void)r;
}

int
main(void)
{
	char *e, *line;
	json_error_t err;
	json_t *j;

	e = escaped("plain", 5);
	is_str(e, "\"plain\"", "ASCII passes through");
	free(e);
	e = escaped("a\"b\\c", 5);
	is_str(e, "\"a\\\"b\\\\c\"", "quote and backslash are escaped");
	free(e);
	e = escaped("\n\t\x01\x1f", 4);
	is_str(e, "\"\\u000a\\u0009\\u0001\\u001f\"",
	    "control characters as \\u00XX");
	free(e);
	e = escaped("a\0b", 3);
	is_str(e, "\"a\\ufffdb\"",
	    "NUL inside a counted string as U+FFFD (jansson refuses \\u0000)");
	free(e);
	e = escaped("\x7f/", 2);
	is_str(e, "\"\x7f/\"", "DEL and / need no escape");
	free(e);

	roundtrip("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14,
	    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "2-, 3- and 4-byte UTF-8");
	roundtrip("a\x80z", 3, "a\xef\xbf\xbdz", "a stray continuation byte");
	roundtrip("\xc0\x80", 2, "\xef\xbf\xbd\xef\xbf\xbd",
	    "an overlong NUL (C0 80)");
	roundtrip("\xe0\x80\xaf", 3, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
	    "an overlong 3-byte form");
	roundtrip("\xed\xa0\x80", 3, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
	    "a UTF-16 surrogate (ED A0 80)");
	roundtrip("\xf4\x90\x80\x80", 4,
	    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
	    "above U+10FFFF");
	roundtrip("\xf5\xff", 2, "\xef\xbf\xbd\xef\xbf\xbd", "F5 and FF");
	roundtrip("ab\xe2\x82", 4, "ab\xef\xbf\xbd\xef\xbf\xbd",
	    "a sequence cut off at the end");
	roundtrip("\xe2\x82x", 3, "\xef\xbf\xbd\xef\xbf\xbdx",
	    "a sequence cut off by ASCII");
	roundtrip("GPU \"A100\"\x01\xff end\n", 17, "GPU \"A100\"\x01\xef\xbf\xbd end\n",
	    "a hostile device name");

	line = emitted(build_all);
	ok(strchr(line, '\n') == line + strlen(line) - 1,
	    "a record is one line, ending in a newline");
	j = json_loads(line, JSON_REJECT_DUPLICATES, &err);
	if (!ok(j != NULL && json_is_object(j), "the record is one JSON object"))
		printf("#   %s#   %s\n", line, err.text);
	is_str(json_string_value(json_object_get(j, "check")), "test",
	    "\"check\" comes first and is kept");
	ok(strncmp(line, "{\"check\":\"test\",", 16) == 0, "... literally first");
	is_int(json_integer_value(json_object_get(j, "neg")), -42,
	    "negative integers");
	ok(json_is_real(json_object_get(j, "big")) &&
	    json_real_value(json_object_get(j, "big")) > 1.8e19,
	    "unsigned integers beyond int64 as reals (jansson stops at int64)");
	is_int(json_integer_value(json_object_get(j, "max")), INT64_MAX,
	    "INT64_MAX as an integer");
	ok(fabs(json_number_value(json_object_get(j, "pi")) - 3.14159) < 1e-5,
	    "reals (six significant digits)");
	ok(json_is_real(json_object_get(j, "tiny")), "tiny reals, with exponent");
	ok(json_is_null(json_object_get(j, "nan")) &&
	    json_is_null(json_object_get(j, "inf")), "NaN and infinity as null");
	ok(json_is_true(json_object_get(j, "yes")), "booleans");
	ok(json_is_null(json_object_get(j, "nothing")) &&
	    json_is_null(json_object_get(j, "null_str")),
	    "null, and a NULL string as null");
	is_str(json_string_value(json_object_get(j, "nul")), "a\xef\xbf\xbd" "b",
	    "a NUL inside a string arrives as U+FFFD");
	ok(json_array_size(json_object_get(j, "list")) == 3 &&
	    json_is_string(json_object_get(json_array_get(
	    json_object_get(j, "list"), 2), "k\"ey")),
	    "arrays and objects nest, keys are escaped");
	is_int(json_integer_value(json_object_get(json_object_get(j, "open"),
	    "n")), 2, "rec_emit closes what is still open");
	json_decref(j);
	free(line);

	line = emitted(build_empty);
	is_str(line, "{\"check\":\"test\"}\n", "a record with nothing but check");
	free(line);
	return done_testing();
}
