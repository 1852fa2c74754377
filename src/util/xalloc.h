/* Allocation that never returns NULL, and the one fatal-error path.
 *
 * Running out of memory is not something cudawiz can report usefully, so
 * the allocators end the program through die(), which first runs the hook
 * a front end installed (the wizard restores the terminal there). */
#ifndef CUDAWIZ_XALLOC_H
#define CUDAWIZ_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Frees *pp and sets it to NULL, so a second free is harmless. */
#define FREE(pp) do { free(*(pp)); *(pp) = NULL; } while (0)

/* Called once by die() before it prints; NULL for none. */
void die_set_hook(void (*hook)(void));
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Appends a zeroed element to a vector declared as { T *v; size_t n, cap; }
 * and returns a pointer to it. */
void *vec_push_(void *arrp, size_t *n, size_t *cap, size_t size);
#define VEC_PUSH(vec) vec_push_(&(vec)->v, &(vec)->n, &(vec)->cap, sizeof *(vec)->v)

#endif
