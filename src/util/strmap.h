/* A hash index of strings: each key once, with a number (an index into
 * the caller's own vector, a count). Lookups and insertions cost O(1) on
 * average, so de-duplicating n names costs O(n), where comparing against
 * every earlier name (strv_contains) costs O(n²) on the 10,000-entry
 * search paths a startup script can build. */
#ifndef CUDAWIZ_STRMAP_H
#define CUDAWIZ_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strmap_slot {
	char	*key;		/* owned; NULL: empty */
	size_t	 val;
};

struct strmap {
	struct strmap_slot	*slots;
	size_t			 n, nslots;
};

#define STRMAP_INIT { NULL, 0, 0 }

/* FNV-1a over the bytes of s. */
uint64_t	 strmap_hash(const char *s);
/* The value kept for key; NULL when key is not there. The pointer is
 * valid until the next strmap_put. */
size_t		*strmap_get(const struct strmap *m, const char *key);
/* Adds key (copied) with val. Returns false, changing nothing, when key
 * is already there. */
bool		 strmap_put(struct strmap *m, const char *key, size_t val);
void		 strmap_free(struct strmap *m);

#endif
