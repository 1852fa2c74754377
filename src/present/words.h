/* Words every view (the text report, the wizard) uses for the same
 * facts, so a reader meets one name for each thing. Translated. */
#ifndef CUDAWIZ_WORDS_H
#define CUDAWIZ_WORDS_H

#include <stddef.h>

#include "diagnose/finding.h"
#include "facts/pyfacts.h"
#include "facts/stepsource.h"

/* "ERROR", "WARNING", "INFO". */
const char	*words_severity(enum severity sev);
/* A loader step as users know it, short enough for a column:
 * "LD_LIBRARY_PATH", "a default directory", "rpath" …; "?" for none.
 * (A finding's sentences use diagnose's lr_via_words, the long form;
 * both are columns of facts/stepsource.h's table.) */
const char	*words_via(enum step_source via);
/* "conda", "venv", "pyenv", "system", "user site". */
const char	*words_env_kind(enum pyenv_kind k);

/* "3 errors, 1 warning, 0 notes": the counts every view shows, joined
 * as the language joins a list (newly allocated). */
char		*words_counts(size_t errors, size_t warnings, size_t notes);
/* A matrix source ("embedded", "cache", "file", as JSON names it) in
 * the reader's words; an unknown name as it is. */
const char	*words_matrix_source(const char *source);
/* Where a library copy lives ("system", "toolkit", "pip", as JSON names
 * it) in the reader's words; an unknown name as it is. */
const char	*words_lib_where(const char *where);

#endif
