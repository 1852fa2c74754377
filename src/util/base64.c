/* Base64; see base64.h. */
#include "config.h"

#include "util/base64.h"
#include "util/xalloc.h"

char *
base64_encode(const void *in, size_t n)
{
	static const char abc[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = in;
	char *out = xmalloc((n + 2) / 3 * 4 + 1), *o = out;

	for (size_t i = 0; i < n; i += 3) {
		unsigned long v = (unsigned long)p[i] << 16;

		if (i + 1 < n)
			v |= (unsigned long)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		*o++ = abc[v >> 18 & 63];
		*o++ = abc[v >> 12 & 63];
		*o++ = i + 1 < n ? abc[v >> 6 & 63] : '=';
		*o++ = i + 2 < n ? abc[v & 63] : '=';
	}
	*o = '\0';
	return out;
}
