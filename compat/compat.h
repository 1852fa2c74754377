/* Declarations of the replacement functions in compat/, used where the C
 * library lacks them (musl before 1.2.2, older glibc). */
#ifndef CUDAWIZ_COMPAT_H
#define CUDAWIZ_COMPAT_H

#include <stddef.h>

#if !HAVE_DECL_STRLCPY
size_t strlcpy(char *dst, const char *src, size_t size);
#endif
#if !HAVE_DECL_STRLCAT
size_t strlcat(char *dst, const char *src, size_t size);
#endif
#if !HAVE_DECL_REALLOCARRAY
void *reallocarray(void *ptr, size_t nmemb, size_t size);
#endif

#endif
