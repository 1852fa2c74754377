/* Allocation wrappers and die(); see xalloc.h. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat/compat.h"
#include "i18n.h"
#include "util/xalloc.h"

/* The only process-wide mutable state outside the UI: set once at start. */
static void (*die_hook)(void);

void
die_set_hook(void (*hook)(void))
{
	die_hook = hook;
}

void
die(const char *fmt, ...)
{
	va_list ap;

	if (die_hook != NULL) {
		void (*hook)(void) = die_hook;
		die_hook = NULL;
		hook();
	}
	fputs("cudawiz: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		die(_("out of memory allocating %zu bytes"), size);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		die(_("out of memory allocating %zu × %zu bytes"), nmemb, size);
	return p;
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void *p;

	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	p = reallocarray(ptr, nmemb, size);
	if (p == NULL)
		die(_("out of memory allocating %zu × %zu bytes"), nmemb, size);
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	char *p;

	if (vasprintf(&p, fmt, ap) < 0)
		die(_("out of memory formatting a message"));
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

void *
vec_push_(void *arrp, size_t *n, size_t *cap, size_t size)
{
	char *arr;

	memcpy(&arr, arrp, sizeof arr);
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;

		if (ncap < *cap)
			die(_("vector too large"));
		arr = xreallocarray(arr, ncap, size);
		*cap = ncap;
		memcpy(arrp, &arr, sizeof arr);
	}
	memset(arr + *n * size, 0, size);
	return arr + (*n)++ * size;
}
