/* reallocarray for C libraries without it: realloc with an overflow check
 * on nmemb * size. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "compat/compat.h"

void *
reallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(ptr, nmemb * size);
}
