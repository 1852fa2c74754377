/* safeout: what may reach a terminal of names cudawiz did not choose. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/tap.h"
#include "util/safeout.h"

/* in through the filter, cut into pieces of `step` bytes (0: whole). */
static bool colour = true;

static char *
run(const char *in, size_t step)
{
	struct safeout st = { .colour = colour, .npending = 0 };
	struct strbuf out = STRBUF_INIT;
	size_t n = strlen(in), i;

	if (step == 0)
		step = n ? n : 1;
	for (i = 0; i < n; i += step)
		safeout_filter(&st, in + i, n - i < step ? n - i : step, &out);
	safeout_finish(&st, &out);
	strbuf_putc(&out, '\0');
	return strbuf_take(&out);
}

static void
check(const char *in, const char *want, const char *what)
{
	/* Whole, and byte by byte: a cut anywhere changes nothing. */
	char *whole = run(in, 0), *bytes = run(in, 1), *threes = run(in, 3);

	is_str(whole, want, "%s", what);
	is_str(bytes, want, "%s (one byte per write)", what);
	is_str(threes, want, "%s (three bytes per write)", what);
	free(whole);
	free(bytes);
	free(threes);
}

int
main(void)
{
	check("plain text\n\tindented\n", "plain text\n\tindented\n",
	    "printable ASCII, newline and tab pass");
	check("\033[1;31mred\033[0m", "\033[1;31mred\033[0m",
	    "colour changes (style.c's) pass");
	colour = false;
	check("\033[1;31mred\033[0m", "\\x1b[1;31mred\\x1b[0m",
	    "without colour, colour changes are shown too");
	colour = true;
	check("/opt/evil\033]0;PWNED\007", "/opt/evil\\x1b]0;PWNED\\x07",
	    "a window-title sequence is shown, not sent");
	check("a\033[2Jb", "a\\x1b[2Jb", "clear-screen is shown, not sent");
	check("a\033[1;31", "a\\x1b[1;31", "an unfinished colour change at the end is shown");
	check("x\ry\bz\177", "x\\x0dy\\x08z\\x7f",
	    "carriage return, backspace and DEL are shown");
	check("gr\xc3\xbc\xc3\x9f \xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x9a\x80",
	    "gr\xc3\xbc\xc3\x9f \xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x9a\x80",
	    "UTF-8 of two, three and four bytes passes");
	check("bad\xff\xfe end", "bad\\xff\\xfe end", "bytes that are not UTF-8 are shown");
	check("cut\xe4\xb8", "cut\\xe4\\xb8", "a UTF-8 character cut at the very end is shown");
	check("over\xc0\xaflong", "over\\xc0\\xaflong", "an overlong encoding is shown");
	check("s\xed\xa0\x80x", "s\\xed\\xa0\\x80x", "a surrogate is shown");
	check("c1 \xc2\x9b" "31m", "c1 \\u009b31m", "the 8-bit CSI (U+009B) is shown");
	check("lib\xe2\x80\xaeos.so", "lib\\u202eos.so",
	    "a right-to-left override is shown (Trojan Source)");
	check("\033[", "\\x1b[", "a lone escape and bracket are shown");
	{
		struct safeout st = { .npending = 0 };
		struct strbuf out = STRBUF_INIT;

		safeout_filter(&st, "ok\xe4", 3, &out);
		is_int(st.npending, 1, "a cut character is held back, not guessed at");
		safeout_finish(&st, &out);
		is_int(st.npending, 0, "... and finishing lets go of it");
		ok(out.len == 6 && memcmp(out.buf, "ok\\xe4", 6) == 0,
		    "... shown as an escape");
		strbuf_free(&out);
	}
	{
		/* An escape followed by more than the pending buffer of
		 * digits is never a colour change we wrote. */
		char in[80], want[96];

		memset(in, '1', sizeof in);
		in[0] = '\033';
		in[1] = '[';
		in[sizeof in - 1] = '\0';
		snprintf(want, sizeof want, "\\x1b%s", in + 1);
		check(in, want, "an overlong escape sequence is shown");
	}
	return done_testing();
}
