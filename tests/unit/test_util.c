/* Unit tests for src/util: versions, string vectors, shell quoting, path
 * text, environment arrays and base64. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/tap.h"
#include "util/base64.h"
#include "util/fdio.h"
#include "util/envp.h"
#include "util/pathnorm.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/strv.h"
#include "util/tmpdir.h"
#include "util/utf8width.h"
#include "util/version.h"
#include "util/xalloc.h"

static void
test_version(void)
{
	struct version a, b;

	ok(version_parse("535.104.05", &a) && a.nparts == 3 && a.part[0] == 535 &&
	    a.part[1] == 104 && a.part[2] == 5, "parses 535.104.05");
	ok(version_parse("13", &a) && a.nparts == 1, "parses a bare major");
	ok(!version_parse("", &a), "rejects the empty string");
	ok(!version_parse("1..2", &a), "rejects an empty part");
	ok(!version_parse("1.2.", &a), "rejects a trailing dot");
	ok(!version_parse(".1", &a), "rejects a leading dot");
	ok(!version_parse("12.4-1", &a), "rejects trailing junk");
	ok(!version_parse("1.2.3.4.5", &a), "rejects five parts");
	ok(!version_parse("1234567890", &a), "rejects a part of ten digits");
	ok(!version_parse("\xff\xfe", &a), "rejects binary garbage");
	version_parse("12.4", &a);
	version_parse("12.4.0", &b);
	is_int(version_cmp(&a, &b), 0, "12.4 equals 12.4.0");
	version_parse("12.10", &b);
	is_int(version_cmp(&a, &b), -1, "12.4 is older than 12.10 (numeric, not text)");
	version_parse("580.65.06", &a);
	version_parse("580.65.6", &b);
	is_int(version_cmp(&a, &b), 0, "leading zeros do not count");
	ok(version_parsen("9.19.0abc", 6, &a) && a.nparts == 3,
	    "parses a prefix by length");
}

static void
test_strv(void)
{
	struct strv sv = STRV_INIT;

	strv_split(&sv, "a::b:", ":");
	is_int(sv.n, 4, "split keeps empty fields");
	is_str(sv.v[1], "", "the empty field is empty");
	is_str(sv.v[3], "", "a trailing separator gives a last empty field");
	strv_free(&sv);
	strv_split(&sv, "", ":");
	is_int(sv.n, 1, "an empty string is one empty field");
	strv_free(&sv);
	strv_split(&sv, "x y:z", ": ");
	is_int(sv.n, 3, "several separators");
	ok(strv_contains(&sv, "y") && !strv_contains(&sv, "w"), "contains");
	strv_free(&sv);
	is_int(sv.n, 0, "free empties the vector");
}

static void
test_shquote(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "/usr/local/cuda-12.4/lib64", "/usr/local/cuda-12.4/lib64" },
		{ "", "''" },
		{ "/opt/my cuda", "'/opt/my cuda'" },
		{ "it's", "'it'\\''s'" },
		{ "$HOME`x`", "'$HOME`x`'" },
		{ "a\nb", "'a\nb'" },
	};
	char *q;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct strbuf sb = STRBUF_INIT;

		shquote(&sb, cases[i].in);
		is_str(strbuf_str(&sb), cases[i].out, "shquote case %zu", i);
		strbuf_free(&sb);
		q = shquote_new(cases[i].in);
		is_str(q, cases[i].out, "shquote_new case %zu", i);
		free(q);
	}
}

static void
test_strbuf(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;

	is_str(strbuf_str(&sb), "", "an empty strbuf reads as \"\"");
	for (int i = 0; i < 1000; i++)
		strbuf_printf(&sb, "%d,", i);
	ok(sb.len > 3000 && sb.buf[sb.len] == '\0', "grows and stays terminated");
	s = strbuf_take(&sb);
	ok(sb.buf == NULL && sb.len == 0, "take leaves it empty");
	free(s);
}

static void
test_path_under(void)
{
	ok(path_under("/a/b", "/a"), "/a/b is under /a");
	ok(path_under("/a", "/a"), "a directory is under itself");
	ok(path_under("/a/b/", "/a/"), "trailing slashes do not count");
	ok(path_under("/a//b", "/a"), "nor repeated ones");
	ok(path_under("/a/./b", "/a/."), "nor . components");
	ok(!path_under("/ab", "/a"), "/ab is not under /a");
	ok(!path_under("/a", "/a/b"), "a parent is not under its child");
	ok(!path_under("/x", "/") && !path_under("/x", "//") &&
	    path_under("/", "/") && path_under("//", "/"), "/ holds only itself");
	ok(!path_under("x", "/") && !path_under("/x", "x"),
	    "relative and absolute never mix");
	ok(path_under("a/b", "a"), "relative paths compare as text");
	ok(!path_under("", "/") && !path_under("/a", "") &&
	    !path_under(NULL, "/") && !path_under("/a", NULL),
	    "empty and NULL are under nothing and hold nothing");
}

static void
test_path_join(void)
{
	static const struct {
		const char *dir, *name, *want, *what;
	} cases[] = {
		{ "/a", "b", "/a/b", "joins with one slash" },
		{ "/a/", "b", "/a/b", "adds none after a trailing slash" },
		{ "/", "b", "/b", "/ and b give /b" },
		{ "", "b", "/b", "an empty dir gives /b" },
		{ "a", "", "a/", "an empty name gives a trailing slash" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *p = path_join(cases[i].dir, cases[i].name);

		is_str(p, cases[i].want, "%s", cases[i].what);
		free(p);
	}
}

static void
test_path_basename(void)
{
	is_str(path_basename("/a/b"), "b", "basename of /a/b");
	is_str(path_basename("b"), "b", "basename of a bare name");
	is_str(path_basename("/a/"), "", "a trailing slash gives \"\"");
	is_str(path_basename("/"), "", "/ gives \"\"");
	is_str(path_basename(""), "", "\"\" gives \"\"");
}

static void
test_utf8_seq(void)
{
	const unsigned char *u;
	long cp = 0;
	size_t len;

#define U(s) ((const unsigned char *)(s))
	ok(utf8_seq(U("a"), 1, &cp) == 1 && cp == 'a', "ASCII is one byte");
	ok(utf8_seq(U(""), SIZE_MAX, &cp) == 1 && cp == 0, "so is NUL");
	ok(utf8_seq(U("\xc3\xa9"), 2, &cp) == 2 && cp == 0xe9, "two bytes");
	ok(utf8_seq(U("\xe2\x82\xac"), 3, &cp) == 3 && cp == 0x20ac,
	    "three bytes");
	ok(utf8_seq(U("\xf0\x9f\x98\x80"), 4, &cp) == 4 && cp == 0x1f600,
	    "four bytes");
	ok(utf8_seq(U("\xe2\x82\xac"), 2, NULL) == 0, "cut short by n");
	ok(utf8_seq(U("\xe2\x82"), SIZE_MAX, NULL) == 0,
	    "cut short by the string's end");
	ok(utf8_seq(U("a"), 0, NULL) == 0, "nothing in no bytes");
	ok(utf8_seq(U("\x80"), 1, NULL) == 0 &&
	    utf8_seq(U("\xc1\xbf"), 2, NULL) == 0 &&
	    utf8_seq(U("\xe0\x80\x80"), 3, NULL) == 0 &&
	    utf8_seq(U("\xf0\x80\x80\x80"), 4, NULL) == 0,
	    "continuation leads and overlong forms are not UTF-8");
	ok(utf8_seq(U("\xed\xa0\x80"), 3, NULL) == 0, "nor surrogates");
	ok(utf8_seq(U("\xf4\x90\x80\x80"), 4, NULL) == 0 &&
	    utf8_seq(U("\xf5\x80\x80\x80"), 4, NULL) == 0,
	    "nor values past U+10FFFF");
	u = U("\xc3(");
	ok(utf8_seq(u, 2, NULL) == 0 && utf8_decode(u, &len) == -1 && len == 1,
	    "a missing continuation: decode skips the lead alone");
	ok(utf8_decode(U("\xe0\x80\x80x"), &len) == -1 && len == 3,
	    "an overlong form is skipped whole");
	ok(utf8_decode(U("\xfa\x80"), &len) == -1 && len == 1,
	    "a byte that can never lead is skipped alone");
	ok(utf8_width("caf\xc3\xa9 \xe6\xbc\xa2") == 7, "widths add up");
	ok(text_is_clean("GF117M [GeForce 610M] caf\xc3\xa9", 27),
	    "printable ASCII and UTF-8 bytes are clean");
	ok(!text_is_clean("GA102\tx", 7), "a tab is a control character");
	ok(!text_is_clean("a\x7f", 2), "DEL is a control character");
	ok(!text_is_clean("ab\0cd", 5), "a NUL inside the length is caught");
	ok(text_is_clean("ab\ncd", 2), "only len bytes are looked at");
#undef U
}

static void
test_envp(void)
{
	char e1[] = "PATHX=1", e2[] = "PATH=/bin", e3[] = "EMPTY=", e4[] = "NOEQ";
	char *envp[] = { e1, e2, e3, e4, NULL };

	is_str(envp_get(envp, "PATH"), "/bin", "finds a variable");
	is_str(envp_get(envp, "EMPTY"), "", "set but empty is \"\"");
	ok(envp_get(envp, "NOEQ") == NULL, "an entry without = is no value");
	ok(envp_get(envp, "PAT") == NULL, "a prefix of a name is not the name");
	ok(envp_get(NULL, "PATH") == NULL, "no array, no value");
}

/* The OSC 52 copy's encoding: RFC 4648's vectors, each padding length. */
static void
test_base64(void)
{
	static const char *const v[][2] = {
		{ "", "" }, { "f", "Zg==" }, { "fo", "Zm8=" }, { "foo", "Zm9v" },
		{ "foob", "Zm9vYg==" }, { "fooba", "Zm9vYmE=" },
		{ "foobar", "Zm9vYmFy" }, { "\xff\xfe\x80", "//6A" },
	};

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		char *got = base64_encode(v[i][0], strlen(v[i][0]));

		is_str(got, v[i][1], "base64 of \"%s\"", v[i][0]);
		free(got);
	}
}

/* utf8_encode gives what utf8_seq reads back; utf8_prev steps over
 * whole characters; write_full writes all of a buffer. */
static void
test_utf8_encode_prev(void)
{
	const long cps[] = { 'a', 0xe9, 0x4e2d, 0x1f600, 0x10ffff };
	const char *s = "a\xc3\xa9\xe4\xb8\xad";
	char out[4];
	int fds[2];

	for (size_t i = 0; i < sizeof cps / sizeof cps[0]; i++) {
		size_t n = utf8_encode(cps[i], out);
		long back = -1;

		ok(n > 0 && utf8_seq((const unsigned char *)out, n, &back) == n &&
		    back == cps[i], "U+%04lX encodes and reads back", cps[i]);
	}
	is_int(utf8_encode(0xd800, out), 0, "a surrogate has no bytes");
	is_int(utf8_encode(0x110000, out), 0, "past U+10FFFF has none");
	is_int(utf8_prev(s, 6), 3, "back over a 3-byte character");
	is_int(utf8_prev(s, 3), 1, "back over a 2-byte character");
	is_int(utf8_prev(s, 1), 0, "back over ASCII");
	is_int(utf8_prev(s, 0), 0, "at the start: stays");
	if (pipe(fds) == 0) {
		char buf[8] = { 0 };

		ok(write_full(fds[1], "abcdef", 6) == 0, "write_full writes");
		close(fds[1]);
		ok(read(fds[0], buf, sizeof buf) == 6 && strcmp(buf, "abcdef") == 0,
		    "... all of it");
		close(fds[0]);
		ok(write_full(fds[0], "x", 1) != 0, "a closed descriptor: -1");
	}
}

/* tmpdir_base: $XDG_RUNTIME_DIR, else $TMPDIR, when absolute and
 * writable; else /tmp. */
static void
test_tmpdir_base(void)
{
	char dir[] = "/tmp/test_util-XXXXXX";

	ok(mkdtemp(dir) != NULL, "a writable directory for TMPDIR");
	unsetenv("XDG_RUNTIME_DIR");
	setenv("TMPDIR", dir, 1);
	ok(strcmp(tmpdir_base(), dir) == 0, "TMPDIR when it is writable");
	setenv("XDG_RUNTIME_DIR", "relative/run", 1);
	ok(strcmp(tmpdir_base(), dir) == 0, "a relative XDG_RUNTIME_DIR is passed over");
	setenv("XDG_RUNTIME_DIR", dir, 1);
	setenv("TMPDIR", "/nonexistent-tmp", 1);
	ok(strcmp(tmpdir_base(), dir) == 0, "XDG_RUNTIME_DIR first");
	unsetenv("XDG_RUNTIME_DIR");
	ok(strcmp(tmpdir_base(), "/tmp") == 0, "a TMPDIR that does not exist: /tmp");
	unsetenv("TMPDIR");
	ok(strcmp(tmpdir_base(), "/tmp") == 0, "neither set: /tmp");
	rmdir(dir);
}

int
main(void)
{
	test_base64();
	test_utf8_encode_prev();
	test_version();
	test_strv();
	test_shquote();
	test_strbuf();
	test_path_under();
	test_path_join();
	test_path_basename();
	test_utf8_seq();
	test_envp();
	test_tmpdir_base();
	return done_testing();
}
