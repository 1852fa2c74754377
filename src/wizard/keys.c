/* Key names for the test seam; see keys.h. */
#include "config.h"

#include <string.h>

#include "wizard/keys.h"

static const struct {
	const char	*word;
	int		 key;
} words[] = {
	{ "up", WK_UP }, { "down", WK_DOWN }, { "left", WK_LEFT },
	{ "right", WK_RIGHT }, { "pgup", WK_PGUP }, { "pgdn", WK_PGDN },
	{ "home", WK_HOME }, { "end", WK_END }, { "enter", WK_ENTER },
	{ "tab", WK_TAB }, { "btab", WK_BTAB }, { "backspace", WK_BACKSPACE },
	{ "esc", WK_ESC }, { "f1", WK_F1 }, { "space", ' ' },
	{ "ctrl-c", WK_INTR }, { "delete", WK_DELETE }, { "ctrl-l", WK_REDRAW },
	{ "ctrl-a", WK_CTRL('a') }, { "ctrl-e", WK_CTRL('e') },
	{ "ctrl-u", WK_CTRL('u') }, { "ctrl-w", WK_CTRL('w') },
	{ "ctrl-k", WK_CTRL('k') }, { "ctrl-d", WK_CTRL('d') },
	{ "ctrl-b", WK_CTRL('b') }, { "ctrl-f", WK_CTRL('f') },
};

int
wkey_from_word(const char *word)
{
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strcmp(words[i].word, word) == 0)
			return words[i].key;
	if (word[0] > ' ' && word[0] < 0x7f && word[1] == '\0')
		return (unsigned char)word[0];
	return WK_NONE;
}

const char *
wkey_word(int key)
{
	static char one[2];

	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (words[i].key == key)
			return words[i].word;
	if (key > ' ' && key < 0x7f) {
		one[0] = (char)key;
		one[1] = '\0';
		return one;
	}
	return "?";
}
