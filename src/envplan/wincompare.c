/* See wincompare.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "envplan/wincompare.h"
#include "util/xalloc.h"
#include "winload/winname.h"

static bool
same_str(const char *a, const char *b)
{
	return (a == NULL && b == NULL) ||
	    (a != NULL && b != NULL && winname_eq(a, b));
}

static void
side_of(struct check_side *s, const struct win_need *n)
{
	if (n == NULL) {
		s->state = NEED_ABSENT;
		return;
	}
	s->path = n->got.path != NULL ? xstrdup(n->got.path) : NULL;
	if (n->got.path != NULL)
		s->via = xstrdup(dllsearch_source_name(n->got.via));
	if (n->got.error != 0)
		s->error = xasprintf("error %u", n->got.error);
	/* A copy of another machine (193) found first is no load. */
	s->state = n->got.path != NULL && n->got.error == 0 ? NEED_RESOLVES :
	    NEED_MISSING;
}

static const struct win_framework *
fw_in(const struct win_facts *f, const struct win_python *py,
    const struct win_framework *fw)
{
	for (size_t i = 0; i < f->pythons.n; i++) {
		const struct win_python *p = &f->pythons.v[i];

		if (!same_str(p->dir, py->dir))
			continue;
		for (size_t j = 0; j < p->frameworks.n; j++)
			if (strcmp(p->frameworks.v[j].name, fw->name) == 0)
				return &p->frameworks.v[j];
	}
	return NULL;
}

static const struct win_need *
need_in(const struct win_framework *fw, const struct win_need *n)
{
	if (fw == NULL)
		return NULL;
	for (size_t i = 0; i < fw->needs.n; i++) {
		const struct win_need *m = &fw->needs.v[i];

		if (m->how == n->how && winname_eq(m->dll, n->dll) &&
		    same_str(m->importer, n->importer))
			return m;
	}
	return NULL;
}

void
wincheck_compare(const struct win_facts *before,
    const struct win_facts *after, struct check_rows *out)
{
	for (size_t i = 0; i < before->pythons.n; i++) {
		const struct win_python *py = &before->pythons.v[i];

		for (size_t j = 0; j < py->frameworks.n; j++) {
			const struct win_framework *fw = &py->frameworks.v[j];
			const struct win_framework *fa = fw_in(after, py, fw);

			for (size_t k = 0; k < fw->needs.n; k++) {
				const struct win_need *n = &fw->needs.v[k];
				struct check_row *r = VEC_PUSH(out);

				memset(r, 0, sizeof *r);
				r->soname = xstrdup(n->dll);
				r->framework = fw->version != NULL ?
				    xasprintf("%s %s", fw->name, fw->version) :
				    xstrdup(fw->name);
				r->env = winname_windows_path(before->drive, py->dir);
				side_of(&r->before, n);
				side_of(&r->after, need_in(fa, n));
				check_row_judge(r);
			}
		}
	}
}
