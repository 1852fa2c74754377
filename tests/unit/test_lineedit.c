/* The Fix page's line editor: each readline key, and UTF-8 characters
 * never split by moving, deleting or cutting. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/tap.h"
#include "wizard/keys.h"
#include "wizard/lineedit.h"

/* Sets text, puts the cursor at byte cur, applies keys (0-ended). */
static void
run(struct wline_edit *e, const char *text, size_t cur, const int *keys)
{
	wline_set(e, text);
	e->cursor = cur;
	for (; *keys != 0; keys++)
		(void)wline_key(e, *keys);
}

#define RUN(e, t, c, ...) run((e), (t), (c), (const int []){ __VA_ARGS__, 0 })

int
main(void)
{
	struct wline_edit e = { 0 };

	RUN(&e, "abc", 3, WK_CTRL('a'), 'x');
	is_str(e.text, "xabc", "Ctrl-A goes to the start");
	RUN(&e, "abc", 0, WK_CTRL('e'), 'x');
	is_str(e.text, "abcx", "Ctrl-E goes to the end");
	RUN(&e, "abc", 3, WK_HOME, 'x', WK_END, 'y');
	is_str(e.text, "xabcy", "Home and End");
	RUN(&e, "/home/u/env.sh", 8, WK_CTRL('u'));
	is_str(e.text, "env.sh", "Ctrl-U cuts to the start");
	is_int(e.cursor, 0, "Ctrl-U leaves the cursor at the start");
	RUN(&e, "/home/u/env.sh", 8, WK_CTRL('k'));
	is_str(e.text, "/home/u/", "Ctrl-K cuts to the end");
	RUN(&e, "/home/u/env.sh", 14, WK_CTRL('w'));
	is_str(e.text, "/home/u/", "Ctrl-W cuts one path component");
	RUN(&e, "/home/u/", 8, WK_CTRL('w'));
	is_str(e.text, "/home/", "Ctrl-W over a trailing slash");
	RUN(&e, "a b", 3, WK_CTRL('w'), WK_CTRL('w'));
	is_str(e.text, "", "Ctrl-W twice cuts two words");
	RUN(&e, "abc", 1, WK_DELETE);
	is_str(e.text, "ac", "Delete removes the character under the cursor");
	RUN(&e, "abc", 1, WK_CTRL('d'));
	is_str(e.text, "ac", "Ctrl-D too");
	RUN(&e, "abc", 3, WK_DELETE);
	is_str(e.text, "abc", "Delete at the end does nothing");
	RUN(&e, "abc", 2, WK_BACKSPACE);
	is_str(e.text, "ac", "Backspace removes the character before");
	RUN(&e, "abc", 0, WK_BACKSPACE);
	is_str(e.text, "abc", "Backspace at the start does nothing");
	RUN(&e, "abc", 3, WK_LEFT, WK_CTRL('b'), 'x', WK_RIGHT, WK_CTRL('f'),
	    'y');
	is_str(e.text, "axbcy", "Left/Right and Ctrl-B/F move");
	ok(!wline_key(&e, WK_ENTER) && !wline_key(&e, WK_ESC) &&
	    !wline_key(&e, WK_UP) && !wline_key(&e, WK_RESIZE),
	    "Enter, Esc, Up and events are not editing keys");

	/* UTF-8: "é" is 2 bytes, "中" 3, "😀" 4. */
	RUN(&e, "", 0, 0x4e2d, 0x1f600);
	is_str(e.text, "\xe4\xb8\xad\xf0\x9f\x98\x80",
	    "code points are inserted as UTF-8");
	RUN(&e, "a", 0, 0xc3, 0xa9, 0xe4, 0xb8, 0xad);
	is_str(e.text, "\xc3\xa9\xe4\xb8\xad" "a",
	    "a terminal's bytes, one key each, make whole characters");
	RUN(&e, "", 0, 0xe4, 0xb8, 'a', 0xad, 0xa9);
	is_str(e.text, "a", "a character cut short, stray bytes: nothing");
	RUN(&e, "a\xc3\xa9" "b", 4, WK_LEFT, WK_LEFT);
	is_int(e.cursor, 1, "Left steps over a whole character");
	RUN(&e, "a\xc3\xa9" "b", 1, WK_RIGHT);
	is_int(e.cursor, 3, "Right steps over a whole character");
	RUN(&e, "a\xe4\xb8\xad", 4, WK_BACKSPACE);
	is_str(e.text, "a", "Backspace removes a whole character");
	RUN(&e, "\xf0\x9f\x98\x80z", 0, WK_DELETE);
	is_str(e.text, "z", "Delete removes a whole character");
	RUN(&e, "/t/\xc3\xa9t\xc3\xa9", 8, WK_CTRL('w'));
	is_str(e.text, "/t/", "Ctrl-W cuts a non-ASCII word whole");
	RUN(&e, "x", 1, 0x7f, 0x85, 0xd800, WK_CTRL('x'));
	is_str(e.text, "x", "DEL, C1 controls, surrogates, Ctrl-X: nothing");

	wline_free(&e);
	return done_testing();
}
