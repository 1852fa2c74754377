/* strlcat for C libraries without it. */
#include "config.h"

#include <string.h>

#include "compat/compat.h"

size_t
strlcat(char *dst, const char *src, size_t size)
{
	size_t dlen = strnlen(dst, size);

	if (dlen == size)
		return size + strlen(src);
	return dlen + strlcpy(dst + dlen, src, size - dlen);
}
