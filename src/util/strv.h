/* A vector of owned strings. */
#ifndef CUDAWIZ_STRV_H
#define CUDAWIZ_STRV_H

#include <stdbool.h>
#include <stddef.h>

struct strv {
	char	**v;
	size_t	  n;
	size_t	  cap;
};

#define STRV_INIT { NULL, 0, 0 }

void	 strv_push(struct strv *sv, const char *s);	/* copies s */
void	 strv_push_owned(struct strv *sv, char *s);	/* takes s */
void	 strv_pushf(struct strv *sv, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
bool	 strv_contains(const struct strv *sv, const char *s);
void	 strv_sort(struct strv *sv);
/* Splits s at every byte in seps, keeping empty fields, so "a::b" gives
 * "a", "", "b" and "" gives one empty field. */
void	 strv_split(struct strv *sv, const char *s, const char *seps);
void	 strv_free(struct strv *sv);

#endif
