/* The terminal filter (util/safeout.c). Oracles: whatever the input,
 * without colour the output holds no control byte but newline and tab
 * and is valid UTF-8 with no C1 control; with colour, an escape byte only
 * starts a complete colour change; and cutting the input anywhere (the
 * first byte says where) gives the same output as writing it whole. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "util/safeout.h"

static char *
filter(const uint8_t *data, size_t size, size_t cut, bool colour,
    size_t *len)
{
	struct safeout st = { .colour = colour, .npending = 0 };
	struct strbuf out = STRBUF_INIT;

	if (cut > size)
		cut = size;
	safeout_filter(&st, (const char *)data, cut, &out);
	safeout_filter(&st, (const char *)data + cut, size - cut, &out);
	safeout_finish(&st, &out);
	*len = out.len;
	strbuf_putc(&out, '\0');
	return strbuf_take(&out);
}

static void
check_plain(const unsigned char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c = p[i];
		size_t len = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;

		if (c < 0x80) {
			if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
				abort();
			i++;
			continue;
		}
		if (c < 0xc2 || c > 0xf4 || i + len > n)
			abort();
		for (size_t k = 1; k < len; k++)
			if ((p[i + k] & 0xc0) != 0x80)
				abort();
		if (c == 0xc2 && p[i + 1] < 0xa0)	/* C1 */
			abort();
		i += len;
	}
}

static void
check_colour(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t k;

		if (p[i] != 0x1b)
			continue;
		if (i + 1 >= n || p[i + 1] != '[')
			abort();
		for (k = i + 2; k < n && (p[k] == ';' ||
		    (p[k] >= '0' && p[k] <= '9')); k++)
			;
		if (k >= n || p[k] != 'm')
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t cut, la, lb, lc;
	char *a, *b, *c;

	if (size == 0)
		return 0;
	cut = data[0];
	data++;
	size--;
	a = filter(data, size, size, false, &la);
	b = filter(data, size, cut, false, &lb);
	if (la != lb || memcmp(a, b, la) != 0)
		abort();
	check_plain((const unsigned char *)a, la);
	c = filter(data, size, cut, true, &lc);
	check_colour((const unsigned char *)c, lc);
	free(a);
	free(b);
	free(c);
	return 0;
}
