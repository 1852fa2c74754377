/* `cudawiz explain`: explain_recognise() on any bytes a user may paste
 * (a traceback, a log, binary garbage), then explain_match_sonames() for
 * every match, as cmd_explain does before asking the loader model.
 *
 * Oracles (recognize.h): matches are in text order, each inside the text
 * with a known kind, at most EXPLAIN_MATCH_MAX of them; the mention lists
 * are sorted, without repeats and bounded; every soname a match gives the
 * resolver is a soname (never a path or a DLL) and given once; the same
 * text recognised again gives the same answer. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "explain/recognize.h"
#include "util/strv.h"

static void
check_list(const struct strv *sv)
{
	if (sv->n > EXPLAIN_MENTION_MAX)
		abort();
	for (size_t i = 0; i < sv->n; i++) {
		if (sv->v[i] == NULL)
			abort();
		if (i > 0 && strcmp(sv->v[i - 1], sv->v[i]) >= 0)
			abort();
	}
}

static bool
same_match(const struct explain_match *a, const struct explain_match *b)
{
	return a->kind == b->kind && a->offset == b->offset &&
	    a->line == b->line && a->repeats == b->repeats &&
	    a->number == b->number && a->meaning == b->meaning &&
	    fz_same_str(a->excerpt, b->excerpt) && fz_same_str(a->soname, b->soname) &&
	    fz_same_str(a->file, b->file) &&
	    fz_same_str(a->required_by, b->required_by) &&
	    fz_same_str(a->symbol, b->symbol) && fz_same_str(a->version, b->version) &&
	    fz_same_str(a->found, b->found) && fz_same_str(a->wanted, b->wanted) &&
	    fz_same_str(a->code, b->code) && fz_same_str(a->reason, b->reason) &&
	    fz_same_str(a->ld_library_path, b->ld_library_path) &&
	    fz_same_str(a->device, b->device) && fz_same_str(a->cc, b->cc) &&
	    fz_same_strv(&a->ccs, &b->ccs);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct explain ex, again;
	struct strv sonames = { 0 };

	memset(&ex, 0, sizeof ex);
	explain_recognise((const char *)data, size, &ex);
	if (ex.matches.n > EXPLAIN_MATCH_MAX || ex.nontext > size ||
	    (size == 0 && ex.lines != 0))
		abort();
	for (size_t i = 0; i < ex.matches.n; i++) {
		const struct explain_match *m = &ex.matches.v[i];
		size_t before = sonames.n;

		if ((unsigned)m->kind >= EXPLAIN_KIND_COUNT ||
		    m->offset >= size || m->line < 1 || m->line > ex.lines ||
		    (i > 0 && m->offset < ex.matches.v[i - 1].offset))
			abort();
		if (explain_kind_name(m->kind) == NULL ||
		    explain_kind_title(m->kind) == NULL)
			abort();
		if (m->excerpt != NULL)
			(void)strlen(m->excerpt);
		explain_match_sonames(m, &sonames);
		for (size_t j = before; j < sonames.n; j++)
			if (!explain_is_soname(sonames.v[j]))
				abort();
	}
	for (size_t i = 0; i < sonames.n; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(sonames.v[i], sonames.v[j]) == 0)
				abort();
	check_list(&ex.sonames);
	check_list(&ex.dlls);
	check_list(&ex.versions);
	check_list(&ex.errors);

	/* Pure and table-driven: the same text gives the same answer. */
	memset(&again, 0, sizeof again);
	explain_recognise((const char *)data, size, &again);
	if (again.matches.n != ex.matches.n || again.dropped != ex.dropped ||
	    again.lines != ex.lines || again.nontext != ex.nontext ||
	    !fz_same_strv(&again.sonames, &ex.sonames) ||
	    !fz_same_strv(&again.dlls, &ex.dlls) ||
	    !fz_same_strv(&again.versions, &ex.versions) ||
	    !fz_same_strv(&again.errors, &ex.errors))
		abort();
	for (size_t i = 0; i < ex.matches.n; i++)
		if (!same_match(&ex.matches.v[i], &again.matches.v[i]))
			abort();
	explain_free(&again);
	explain_free(&ex);
	strv_free(&sonames);
	return 0;
}
