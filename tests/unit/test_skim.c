/* fleet/skim.c: it may only say yes to what jansson accepts, and the
 * spans it gives must be the members jansson reads. A table of tricky
 * documents, then every one of many mutations (a byte changed, cut,
 * doubled: bounded by count) of a small report checked against jansson
 * itself. */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/skim.h"
#include "lib/tap.h"

static const char *const want[] = { "schema", "spec", NULL };

/* Whether the skim's yes is jansson's yes, with the same members. */
static int
agrees(const char *doc, size_t len, int *said_yes)
{
	struct skim_span sp[3];
	json_error_t e;
	json_t *j = json_loadb(doc, len, 0, &e), *v;
	int rc = skim_object(doc, len, want, sp), good = 1;

	*said_yes = rc == 0;
	if (rc != 0) {
		json_decref(j);
		return 1;
	}
	if (!json_is_object(j)) {
		json_decref(j);
		return 0;
	}
	for (int i = 0; want[i] != NULL; i++) {
		json_t *m = json_object_get(j, want[i]);

		if ((m == NULL) != (sp[i].at == NULL)) {
			good = 0;
			continue;
		}
		if (m == NULL)
			continue;
		v = json_loadb(sp[i].at, sp[i].len, JSON_DECODE_ANY, &e);
		if (v == NULL || !json_equal(v, m))
			good = 0;
		json_decref(v);
	}
	json_decref(j);
	return good;
}

int
main(void)
{
	static const struct {
		const char	*doc;
		int		 yes;	/* 1 yes, 0 no, -1 either */
	} cases[] = {
		{ "{\"schema\": \"cudawiz/doctor/1\", \"spec\": {\"items\": {}}}", 1 },
		{ "  {\"a\": [1, -0, 2.5e-3, true, false, null, {}]}\n", 1 },
		{ "{}", 1 },
		{ "[]", 0 },
		{ "", 0 },
		{ "{\"a\": 1} {}", 0 },
		{ "{\"a\": 01}", 0 },
		{ "{\"a\": 1.}", 0 },
		{ "{\"a\": -}", 0 },
		{ "{\"a\": \"x\\u0000y\"}", 0 },
		{ "{\"a\": \"\\ud800\"}", 0 },
		{ "{\"a\": \"\\udc00\\ud800\"}", 0 },
		{ "{\"a\": \"\\ud83d\\ude00\"}", 1 },
		{ "{\"a\": \"\xc3\xa9\"}", 1 },
		{ "{\"a\": \"\xc3\"}", 0 },
		{ "{\"a\": \"\xe0\x80\x80\"}", 0 },
		{ "{\"a\": \"\xed\xa0\x80\"}", 0 },
		{ "{\"a\": \"\x01\"}", 0 },
		{ "{\"a\": \"\\x\"}", 0 },
		{ "{\"a\": 1,}", 0 },
		{ "{\"a\": [1,]}", 0 },
		{ "{\"a\" 1}", 0 },
		{ "{\"schema\": 1, \"schema\": 2}", 0 },
		{ "{\"sch\\u0065ma\": 1}", 0 },
		{ "{\"a\": 123456789012345678901234567890}", 0 },
		{ "{\"a\": tru}", 0 },
		{ "{\"a\": 1}\0", 0 },
	};
	char base[] = "{\"schema\": \"cudawiz/doctor/1\", \"facts\": {\"x\": "
	    "[1, 2.5, \"\xc3\xa9\\n\\u00e9\", {\"k\": null}]}, \"spec\": "
	    "{\"schema\": \"cudawiz/spec/1\", \"items\": {\"driver.branch\": "
	    "\"580\"}}, \"n\": -12e3}";
	static const char bytes[] = "{}[]\",:\\u0 -e.1\xc3\xa9\x80\x01tnf";
	size_t blen = strlen(base), bad = 0, yes = 0, tried = 0;
	char *buf = malloc(2 * blen + 1);
	unsigned seed = 22;
	int said;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t len = strlen(cases[i].doc) + (i + 1 ==
		    sizeof cases / sizeof cases[0]);
		int good = agrees(cases[i].doc, len, &said);

		ok(good && (cases[i].yes < 0 || said == cases[i].yes),
		    "case %zu: %s", i, said ? "yes" : "no");
	}
	/* Every byte replaced by each of a few telling bytes, the document
	 * cut at every length, and random double changes. */
	for (size_t i = 0; i < blen; i++)
		for (size_t b = 0; b < sizeof bytes - 1; b++) {
			memcpy(buf, base, blen);
			buf[i] = bytes[b];
			bad += !agrees(buf, blen, &said);
			yes += said;
			tried++;
		}
	for (size_t n = 0; n < blen; n++) {
		bad += !agrees(base, n, &said);
		yes += said;
		tried++;
	}
	for (int k = 0; k < 20000; k++) {
		memcpy(buf, base, blen);
		for (int m = 0; m < 2; m++) {
			seed = seed * 1103515245u + 12345u;
			buf[(seed >> 8) % blen] = bytes[(seed >> 20) %
			    (sizeof bytes - 1)];
		}
		bad += !agrees(buf, blen, &said);
		yes += said;
		tried++;
	}
	is_int(bad, 0, "%zu mutated documents: the skim never accepts what "
	    "jansson refuses, and its members are jansson's", tried);
	ok(yes > 100, "... and it accepts many (%zu) that are still JSON", yes);
	free(buf);
	return done_testing();
}
