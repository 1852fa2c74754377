/* Words every view (the text report, the wizard) uses for the same
 * facts, so a reader meets one name for each thing. Translated. */
#ifndef CUDAWIZ_WORDS_H
#define CUDAWIZ_WORDS_H

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

#endif
