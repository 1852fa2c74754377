/* See words.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/words.h"
#include "util/xalloc.h"

const char *
words_severity(enum severity sev)
{
	switch (sev) {
	case SEV_ERROR:
		return _("ERROR");
	case SEV_WARNING:
		return _("WARNING");
	case SEV_INFO:
		break;
	}
	return _("INFO");
}

const char *
words_via(enum step_source via)
{
	return step_words(via, STEPW_SHORT);
}

const char *
words_env_kind(enum pyenv_kind k)
{
	switch (k) {
	case PYENV_CONDA:	return _("conda");
	case PYENV_VENV:	return _("venv");
	case PYENV_PYENV:	return _("pyenv");
	case PYENV_SYSTEM:	return _("system");
	case PYENV_USER:	return _("user site");
	}
	return "?";
}

char *
words_counts(size_t errors, size_t warnings, size_t notes)
{
	char *e = xasprintf(ngettext("%zu error", "%zu errors", errors), errors);
	char *w = xasprintf(ngettext("%zu warning", "%zu warnings", warnings),
	    warnings);
	char *n = xasprintf(ngettext("%zu note", "%zu notes", notes), notes);
	/* TRANSLATORS: the three counts, "3 errors, 1 warning, 0 notes",
	 * joined as a list is in your language (Chinese: "，"). */
	char *all = xasprintf(_("%s, %s, %s"), e, w, n);

	free(e);
	free(w);
	free(n);
	return all;
}

/* The same table serves both: JSON's name, then the words shown. */
static const char *
word_of(const char *const (*tab)[2], size_t n, const char *name)
{
	for (size_t i = 0; name != NULL && i < n; i++)
		if (strcmp(name, tab[i][0]) == 0)
			return _(tab[i][1]);
	return name != NULL ? name : "?";
}

const char *
words_matrix_source(const char *source)
{
	static const char *const tab[][2] = {
		/* TRANSLATORS: where the compatibility data comes from:
		 * compiled into cudawiz. */
		{ "embedded", N_("built in") },
		/* TRANSLATORS: … from the copy `cudawiz matrix update`
		 * fetched. */
		{ "cache", N_("fetched copy") },
		/* TRANSLATORS: … from the file given with --matrix. */
		{ "file", N_("--matrix file") },
	};

	return word_of(tab, sizeof tab / sizeof tab[0], source);
}

const char *
words_lib_where(const char *where)
{
	static const char *const tab[][2] = {
		/* TRANSLATORS: a library copy no toolkit holds (a system
		 * directory, or one cudawiz knows nothing more about). */
		{ "system", N_("a directory outside any toolkit") },
		{ "toolkit", N_("a CUDA toolkit") },
		{ "pip", N_("a pip wheel") },
	};

	return word_of(tab, sizeof tab / sizeof tab[0], where);
}
