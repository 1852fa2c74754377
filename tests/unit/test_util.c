/* Unit tests for src/util: versions, string vectors, shell quoting. */
#include "config.h"

#include <stdlib.h>

#include "lib/tap.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/strv.h"
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

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct strbuf sb = STRBUF_INIT;

		shquote(&sb, cases[i].in);
		is_str(strbuf_str(&sb), cases[i].out, "shquote case %zu", i);
		strbuf_free(&sb);
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

int
main(void)
{
	test_version();
	test_strv();
	test_shquote();
	test_strbuf();
	return done_testing();
}
