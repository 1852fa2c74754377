/* strlcpy for C libraries without it: copy with truncation, always
 * terminated, returning the length it tried to create. */
#include "config.h"

#include <string.h>

#include "compat/compat.h"

size_t
strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size > 0) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}
