/* Where the dynamic loader found (or would find) a library: the search
 * step's source, stored as this enum in the facts and in the resolver's
 * trace, and the one table of words that names it.
 *
 * The words differ by where they are shown, and each place keeps its own
 * column so every report reads as it always has:
 *
 *   STEPW_JSON      why's and the trace's JSON: "rpath", "cache", …
 *   STEPW_FACT      doctor's JSON and the findings' sentences that quote
 *                   the fact: the cache is "ld.so.conf" (what ldconfig
 *                   builds it from; reports said so before the cache was
 *                   read)
 *   STEPW_SHORT     a column of the text report and the wizard:
 *                   "LD_LIBRARY_PATH", "a default directory", "rpath"
 *   STEPW_SENTENCE  a finding's sentence: "the ld.so.cache (ld.so.conf)"
 *   STEPW_STEP      why's list of steps: "DT_RPATH", "ld.so.cache"
 *   STEPW_LIST      "not in %s: dirs…" of a finding: "DT_RPATH", "the
 *                   ld.so.conf directories"; NULL for the path and the
 *                   objects already loaded, which list no directories
 *   STEPW_TAG       the wizard's framework line: the fact name, with
 *                   LD_LIBRARY_PATH spelled as the variable
 *
 * JSON and fact names are never translated; the other columns are
 * translated word by word as they were before the table. */
#ifndef CUDAWIZ_FACTS_STEPSOURCE_H
#define CUDAWIZ_FACTS_STEPSOURCE_H

enum step_source {
	STEP_NONE = 0,		/* no step: the library was not found (facts only) */
	STEP_PATH,		/* the name has a '/': opened as given */
	STEP_LOADED,		/* an object already loaded answers to the name */
	STEP_RPATH,
	STEP_LD_LIBRARY_PATH,
	STEP_RUNPATH,
	STEP_CACHE,
	STEP_DEFAULT,
};

enum step_words {
	STEPW_JSON,
	STEPW_FACT,
	STEPW_SHORT,
	STEPW_SENTENCE,
	STEPW_STEP,
	STEPW_LIST,
	STEPW_TAG,
};

/* The word for s in column w. For STEP_NONE: "?" short, "an unknown
 * step" in a sentence, NULL in the other columns. */
const char	*step_words(enum step_source s, enum step_words w);
/* step_words(s, STEPW_JSON): "rpath", "ld_library_path", … */
const char	*step_source_name(enum step_source s);

#endif
