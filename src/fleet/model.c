/* The fleet model: reports kept, duplicates set aside, findings grouped,
 * stale reports found; see fleet.h. The spec comparison is drift.c's. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fleet/drift.h"
#include "fleet/fleet.h"
#include "util/strmap.h"
#include "util/xalloc.h"

void
fleet_init(struct fleet *fl)
{
	memset(fl, 0, sizeof *fl);
}

void
fleet_add_bad(struct fleet *fl, const char *file, char *why)
{
	struct fleet_bad *b = VEC_PUSH(&fl->unreadable);

	b->file = xstrdup(file);
	b->why = why;
	fl->files++;
}

void
fleet_add_file(struct fleet *fl, const char *file)
{
	struct fleet_report r;
	char *why;

	if (fleet_report_read(file, &r, &why) != 0) {
		fleet_add_bad(fl, file, why);
		return;
	}
	*(struct fleet_report *)VEC_PUSH(&fl->hosts) = r;
	fl->files++;
}

void
fleet_idx_push(struct fleet_idx *x, size_t i)
{
	*(size_t *)VEC_PUSH(x) = i;
}

/* Whether a is a newer report than b: one with a time beats one
 * without; between equals the one read first stays. */
static bool
newer(const struct fleet_report *a, const struct fleet_report *b)
{
	return a->has_time && (!b->has_time || a->time_unix > b->time_unix);
}

static void
set_aside(struct fleet *fl, struct fleet_report *gone,
    const struct fleet_report *kept)
{
	struct fleet_dup *d = VEC_PUSH(&fl->duplicates);

	d->file = xstrdup(gone->file);
	d->host = xstrdup(gone->host);
	d->kept = xstrdup(kept->file);
	fleet_report_free(gone);
}

/* One host, one report: the same machine id, or the same name where
 * either report lacks a machine id (two machines may share a name; one
 * machine id is one machine). */
static void
drop_duplicates(struct fleet *fl)
{
	struct strmap by_id = STRMAP_INIT, by_name = STRMAP_INIT;
	size_t kept = 0;

	for (size_t i = 0; i < fl->hosts.n; i++) {
		struct fleet_report *r = &fl->hosts.v[i];
		size_t *at = NULL, slot;

		if (r->machine_id != NULL)
			at = strmap_get(&by_id, r->machine_id);
		if (at == NULL && (at = strmap_get(&by_name, r->host)) != NULL &&
		    r->machine_id != NULL &&
		    fl->hosts.v[*at].machine_id != NULL)
			at = NULL;
		if (at == NULL) {
			if (r->machine_id != NULL)
				(void)strmap_put(&by_id, r->machine_id, kept);
			(void)strmap_put(&by_name, r->host, kept);
			fl->hosts.v[kept++] = *r;
			continue;
		}
		slot = *at;
		if (newer(r, &fl->hosts.v[slot])) {
			struct fleet_report old = fl->hosts.v[slot];

			/* The maps name the slot, which now holds r; a
			 * machine id or name only r has is added. */
			fl->hosts.v[slot] = *r;
			if (r->machine_id != NULL)
				(void)strmap_put(&by_id, r->machine_id, slot);
			(void)strmap_put(&by_name, r->host, slot);
			set_aside(fl, &old, &fl->hosts.v[slot]);
		} else {
			set_aside(fl, r, &fl->hosts.v[slot]);
		}
	}
	fl->hosts.n = kept;
	strmap_free(&by_id);
	strmap_free(&by_name);
}

static int
cmp_host(const void *a, const void *b)
{
	const struct fleet_report *x = a, *y = b;
	int c = strcmp(x->host, y->host);

	return c != 0 ? c : strcmp(x->file, y->file);
}

static int
cmp_group(const void *a, const void *b)
{
	const struct fleet_group *x = a, *y = b;

	if (x->hosts.n != y->hosts.n)
		return x->hosts.n > y->hosts.n ? -1 : 1;
	return strcmp(x->code, y->code);
}

/* Each code once per host, the hosts in host order. */
static void
group_findings(struct fleet *fl)
{
	struct strmap by_code = STRMAP_INIT;

	for (size_t h = 0; h < fl->hosts.n; h++) {
		const struct fleet_report *r = &fl->hosts.v[h];

		for (size_t i = 0; i < r->findings.n; i++) {
			const struct fleet_finding *f = &r->findings.v[i];
			size_t *at = strmap_get(&by_code, f->code);
			struct fleet_group *g;

			if (at == NULL) {
				(void)strmap_put(&by_code, f->code,
				    fl->groups.n);
				g = VEC_PUSH(&fl->groups);
				g->code = f->code;
				g->worst = f->severity;
			} else {
				g = &fl->groups.v[*at];
			}
			if (f->severity > g->worst)
				g->worst = f->severity;
			if (g->hosts.n == 0 || g->hosts.v[g->hosts.n - 1] != h)
				fleet_idx_push(&g->hosts, h);
		}
		if (r->count[SEV_ERROR] > 0)
			fleet_idx_push(&fl->with_errors, h);
	}
	strmap_free(&by_code);
	if (fl->groups.n > 1)
		qsort(fl->groups.v, fl->groups.n, sizeof *fl->groups.v,
		    cmp_group);
}

void
fleet_finish(struct fleet *fl, int64_t now, long max_age_s,
    const json_t *baseline)
{
	fl->now = now;
	fl->max_age_s = max_age_s;
	drop_duplicates(fl);
	if (fl->hosts.n > 1)
		qsort(fl->hosts.v, fl->hosts.n, sizeof *fl->hosts.v, cmp_host);
	group_findings(fl);
	for (size_t h = 0; h < fl->hosts.n; h++) {
		const struct fleet_report *r = &fl->hosts.v[h];

		/* A report with no time is listed as such: calling it
		 * stale (or fresh) would be a guess. */
		if (!r->has_time)
			fleet_idx_push(&fl->no_time, h);
		else if (now - r->time_unix > (int64_t)max_age_s)
			fleet_idx_push(&fl->stale, h);
	}
	fleet_drift(fl, baseline);
}

bool
fleet_failed(const struct fleet *fl)
{
	return fl->hosts.n == 0 || fl->with_errors.n > 0 ||
	    fl->stale.n > 0 || fl->unreadable.n > 0;
}

static void
idx_free(struct fleet_idx *x)
{
	FREE(&x->v);
	x->n = x->cap = 0;
}

void
fleet_free(struct fleet *fl)
{
	for (size_t i = 0; i < fl->hosts.n; i++)
		fleet_report_free(&fl->hosts.v[i]);
	free(fl->hosts.v);
	for (size_t i = 0; i < fl->unreadable.n; i++) {
		free(fl->unreadable.v[i].file);
		free(fl->unreadable.v[i].why);
	}
	free(fl->unreadable.v);
	for (size_t i = 0; i < fl->duplicates.n; i++) {
		free(fl->duplicates.v[i].file);
		free(fl->duplicates.v[i].host);
		free(fl->duplicates.v[i].kept);
	}
	free(fl->duplicates.v);
	for (size_t i = 0; i < fl->groups.n; i++)
		idx_free(&fl->groups.v[i].hosts);
	free(fl->groups.v);
	for (size_t i = 0; i < fl->drift.n; i++) {
		struct fleet_drift *d = &fl->drift.v[i];

		for (size_t j = 0; j < d->values.n; j++)
			idx_free(&d->values.v[j].hosts);
		free(d->values.v);
	}
	free(fl->drift.v);
	idx_free(&fl->no_spec);
	idx_free(&fl->stale);
	idx_free(&fl->no_time);
	idx_free(&fl->with_errors);
	memset(fl, 0, sizeof *fl);
}
