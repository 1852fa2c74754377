/* See stepsource.h. */
#include "config.h"

#include <stdbool.h>

#include "facts/stepsource.h"
#include "i18n.h"

/* One word: tr says whether it goes through gettext. Words that were
 * never translated (names of variables and ELF tags, JSON names) must not
 * become translatable by sharing a msgid with a translated one. */
struct step_word {
	const char	*s;
	bool		 tr;
};

#define W(s)	{ (s), false }
#define T(s)	{ (s), true }	/* s is written N_("…") for xgettext */

#define STEPW_COLUMNS	(STEPW_TAG + 1)

static const struct step_word table[][STEPW_COLUMNS] = {
	/*			JSON			fact			short
	 *			sentence		step			list
	 *			tag */
	[STEP_NONE] = {		W(NULL),		W(NULL),		W("?"),
				T(N_("an unknown step")), W(NULL),		W(NULL),
				W(NULL) },
	[STEP_PATH] = {		W("path"),		W("path"),		W("path"),
				T(N_("the path as given")), T(N_("path")),	W(NULL),
				W("path") },
	[STEP_LOADED] = {	W("loaded"),		W("loaded"),		W("loaded"),
				T(N_("an object already loaded")),
							T(N_("already loaded")), W(NULL),
				W("loaded") },
	[STEP_RPATH] = {	W("rpath"),		W("rpath"),		W("rpath"),
				T(N_("DT_RPATH")),	W("DT_RPATH"),		W("DT_RPATH"),
				W("rpath") },
	[STEP_LD_LIBRARY_PATH] = {
				W("ld_library_path"),	W("ld_library_path"),	W("LD_LIBRARY_PATH"),
				T(N_("LD_LIBRARY_PATH")), W("LD_LIBRARY_PATH"),	W("LD_LIBRARY_PATH"),
				W("LD_LIBRARY_PATH") },
	[STEP_RUNPATH] = {	W("runpath"),		W("runpath"),		W("runpath"),
				T(N_("DT_RUNPATH")),	W("DT_RUNPATH"),	W("DT_RUNPATH"),
				W("runpath") },
	[STEP_CACHE] = {	W("cache"),		W("ld.so.conf"),	W("ld.so.conf"),
				T(N_("the ld.so.cache (ld.so.conf)")),
							W("ld.so.cache"),
									T(N_("the ld.so.conf directories")),
				W("ld.so.conf") },
	[STEP_DEFAULT] = {	W("default"),		W("default"),		T(N_("a default directory")),
				T(N_("a default directory")), T(N_("default dir")),
									T(N_("default directories")),
				W("default") },
};

const char *
step_words(enum step_source s, enum step_words w)
{
	const struct step_word *word;

	/* A value outside the enum reads as the default directories, as
	 * the switches this table replaced did. */
	if ((unsigned)s >= sizeof table / sizeof table[0])
		s = STEP_DEFAULT;
	word = &table[s][w];
	if (word->s == NULL || !word->tr)
		return word->s;
	return _(word->s);
}

const char *
step_source_name(enum step_source s)
{
	return step_words(s, STEPW_JSON);
}
