/* A hash index of strings; see strmap.h. Open addressing with linear
 * probing, kept at most half full. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/strmap.h"
#include "util/xalloc.h"

uint64_t
strmap_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* The slot holding key, or the empty slot where it would go. */
static struct strmap_slot *
find_slot(const struct strmap *m, const char *key)
{
	size_t mask = m->nslots - 1, i = (size_t)strmap_hash(key) & mask;

	while (m->slots[i].key != NULL && strcmp(m->slots[i].key, key) != 0)
		i = (i + 1) & mask;
	return &m->slots[i];
}

static void
grow(struct strmap *m)
{
	struct strmap old = *m;

	m->nslots = old.nslots != 0 ? old.nslots * 2 : 64;
	m->slots = xcalloc(m->nslots, sizeof *m->slots);
	for (size_t i = 0; i < old.nslots; i++)
		if (old.slots[i].key != NULL)
			*find_slot(m, old.slots[i].key) = old.slots[i];
	free(old.slots);
}

size_t *
strmap_get(const struct strmap *m, const char *key)
{
	struct strmap_slot *s;

	if (m->n == 0)
		return NULL;
	s = find_slot(m, key);
	return s->key != NULL ? &s->val : NULL;
}

bool
strmap_put(struct strmap *m, const char *key, size_t val)
{
	struct strmap_slot *s;

	if ((m->n + 1) * 2 > m->nslots)
		grow(m);
	s = find_slot(m, key);
	if (s->key != NULL)
		return false;
	s->key = xstrdup(key);
	s->val = val;
	m->n++;
	return true;
}

void
strmap_free(struct strmap *m)
{
	for (size_t i = 0; i < m->nslots; i++)
		free(m->slots[i].key);
	free(m->slots);
	m->slots = NULL;
	m->n = m->nslots = 0;
}
