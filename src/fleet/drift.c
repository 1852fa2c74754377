/* Which hosts differ from the rest, item by item: every host's spec items
 * are counted once into a hash map per item (key -> value -> hosts), so
 * the cost is the number of items read, never hosts x items. */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/drift.h"
#include "util/strmap.h"
#include "util/xalloc.h"

#define NONE SIZE_MAX

/* One item while it is counted. */
struct dkey {
	const char	*key;
	const char	*ref;		/* the baseline's value */
	struct strmap	 vmap;		/* value -> index into vals */
	size_t		 absent_at;	/* index of the absent value; NONE */
	struct {
		struct fleet_value	*v;
		size_t			 n, cap;
	} vals;
	size_t		 present;	/* hosts that have the item */
};

struct count {
	struct strmap	 kmap;		/* key -> index into keys */
	struct {
		struct dkey	*v;
		size_t		 n, cap;
	} keys;
};

static struct dkey *
key_at(struct count *c, const char *key)
{
	size_t *at = strmap_get(&c->kmap, key);
	struct dkey *k;

	if (at != NULL)
		return &c->keys.v[*at];
	(void)strmap_put(&c->kmap, key, c->keys.n);
	k = VEC_PUSH(&c->keys);
	k->key = key;
	k->absent_at = NONE;
	return k;
}

/* Host h has value (NULL: lacks the item). */
static void
count_value(struct dkey *k, const char *value, size_t h)
{
	size_t *at = value != NULL ? strmap_get(&k->vmap, value) : NULL;
	size_t vi = value != NULL ? (at != NULL ? *at : NONE) : k->absent_at;
	struct fleet_value *v;

	if (vi == NONE) {
		vi = k->vals.n;
		v = VEC_PUSH(&k->vals);
		v->value = value;
		if (value != NULL)
			(void)strmap_put(&k->vmap, value, vi);
		else
			k->absent_at = vi;
	}
	fleet_idx_push(&k->vals.v[vi].hosts, h);
	if (value != NULL)
		k->present++;
}

static int
cmp_value(const void *a, const void *b)
{
	const struct fleet_value *x = a, *y = b;

	if (x->hosts.n != y->hosts.n)
		return x->hosts.n > y->hosts.n ? -1 : 1;
	if (x->value == NULL || y->value == NULL)
		return (x->value == NULL) - (y->value == NULL);
	return strcmp(x->value, y->value);
}

static int
cmp_drift(const void *a, const void *b)
{
	return strcmp(((const struct fleet_drift *)a)->key,
	    ((const struct fleet_drift *)b)->key);
}

/* The hosts lacking each item whose absent hosts are shown: a stamp per
 * item, set by each host's own items. Such an item is on at least half
 * the hosts (else absence would be the sole majority and not shown), so
 * the items checked per host are at most twice a host's average: linear
 * in all. */
static void
find_absent(struct fleet *fl, struct count *c, const size_t *need,
    size_t nneed)
{
	size_t *stamp = xreallocarray(NULL, c->keys.n, sizeof *stamp);

	for (size_t i = 0; i < c->keys.n; i++)
		stamp[i] = NONE;
	for (size_t h = 0; h < fl->hosts.n; h++) {
		const char *k;
		json_t *v;

		if (fl->hosts.v[h].items == NULL)
			continue;
		json_object_foreach(fl->hosts.v[h].items, k, v)
			stamp[*strmap_get(&c->kmap, k)] = h;
		for (size_t i = 0; i < nneed; i++)
			if (stamp[need[i]] != h)
				count_value(&c->keys.v[need[i]], NULL, h);
	}
	free(stamp);
}

/* Majority: the value held by the most hosts, absence counting as a
 * value; two at the top make a tie. Returns the winner's index in
 * k->vals, NONE for a tie, or k->vals.n when absence wins. */
static size_t
majority(const struct dkey *k, size_t compared)
{
	size_t absent = compared - k->present, top = absent, at = k->vals.n;
	size_t ties = absent > 0 ? 1 : 0;

	for (size_t i = 0; i < k->vals.n; i++) {
		size_t n = k->vals.v[i].hosts.n;

		if (n > top) {
			top = n;
			at = i;
			ties = 1;
		} else if (n == top) {
			ties++;
		}
	}
	return ties > 1 ? NONE : at;
}

/* Moves k's values but the reference's into a drift entry. */
static void
emit(struct fleet *fl, struct dkey *k, size_t skip, size_t compared)
{
	struct fleet_drift *d = VEC_PUSH(&fl->drift);
	size_t others = 0;

	d->key = k->key;
	d->family = spec_key_family(k->key);
	for (size_t i = 0; i < k->vals.n; i++) {
		if (i == skip) {
			free(k->vals.v[i].hosts.v);
			continue;
		}
		others += k->vals.v[i].hosts.n;
		*(struct fleet_value *)VEC_PUSH(&d->values) = k->vals.v[i];
	}
	k->vals.n = 0;
	d->ref_hosts = compared - others;
	if (d->values.n > 1)
		qsort(d->values.v, d->values.n, sizeof *d->values.v,
		    cmp_value);
}

static void
against_majority(struct fleet *fl, struct count *c)
{
	size_t *need = xreallocarray(NULL, c->keys.n + 1, sizeof *need);
	size_t nneed = 0;

	/* First the absent hosts of the items where they are shown. */
	for (size_t i = 0; i < c->keys.n; i++) {
		const struct dkey *k = &c->keys.v[i];
		size_t absent = fl->compared - k->present;

		if (absent > 0 && majority(k, fl->compared) != k->vals.n)
			need[nneed++] = i;
	}
	if (nneed > 0)
		find_absent(fl, c, need, nneed);
	free(need);
	for (size_t i = 0; i < c->keys.n; i++) {
		struct dkey *k = &c->keys.v[i];
		const char *ref;
		bool ref_absent;
		size_t win;

		if (k->vals.n == 1 && k->present == fl->compared)
			continue;
		/* The absent hosts, where listed, are one of vals now. */
		if (k->absent_at != NONE)
			k->present = fl->compared;
		win = majority(k, fl->compared);
		ref = win < k->vals.n ? k->vals.v[win].value : NULL;
		/* Absence won (its hosts were never listed), or the
		 * listed absent hosts are the majority. */
		ref_absent = win != NONE && ref == NULL;
		emit(fl, k, win, fl->compared);
		fl->drift.v[fl->drift.n - 1].ref = ref;
		fl->drift.v[fl->drift.n - 1].tie = win == NONE;
		fl->drift.v[fl->drift.n - 1].ref_absent = ref_absent;
	}
}

static void
delta(const struct spec_delta *sd, void *arg)
{
	void **a = arg;
	struct count *c = a[0];
	struct dkey *k = key_at(c, sd->key);

	k->ref = sd->ref;
	count_value(k, sd->mine, *(size_t *)a[1]);
}

static void
against_baseline(struct fleet *fl, struct count *c, const json_t *baseline)
{
	for (size_t h = 0; h < fl->hosts.n; h++) {
		void *arg[2] = { c, &h };

		if (fl->hosts.v[h].items != NULL)
			(void)spec_diff(baseline, fl->hosts.v[h].items, delta,
			    arg);
	}
	for (size_t i = 0; i < c->keys.n; i++) {
		struct dkey *k = &c->keys.v[i];

		emit(fl, k, NONE, fl->compared);
		fl->drift.v[fl->drift.n - 1].ref = k->ref;
		fl->drift.v[fl->drift.n - 1].ref_absent = k->ref == NULL;
	}
}

void
fleet_drift(struct fleet *fl, const json_t *baseline)
{
	struct count c;

	memset(&c, 0, sizeof c);
	for (size_t h = 0; h < fl->hosts.n; h++) {
		const char *k;
		json_t *v;

		if (fl->hosts.v[h].items == NULL) {
			fleet_idx_push(&fl->no_spec, h);
			continue;
		}
		fl->compared++;
		if (baseline == NULL)
			json_object_foreach(fl->hosts.v[h].items, k, v)
				count_value(key_at(&c, k), json_string_value(v),
				    h);
	}
	if (baseline != NULL)
		against_baseline(fl, &c, baseline);
	else
		against_majority(fl, &c);
	for (size_t i = 0; i < c.keys.n; i++) {
		struct dkey *k = &c.keys.v[i];

		for (size_t j = 0; j < k->vals.n; j++)
			free(k->vals.v[j].hosts.v);
		free(k->vals.v);
		strmap_free(&k->vmap);
	}
	free(c.keys.v);
	strmap_free(&c.kmap);
	if (fl->drift.n > 1)
		qsort(fl->drift.v, fl->drift.n, sizeof *fl->drift.v, cmp_drift);
}
