/* What the fact pages (GPUs, toolkits, Python, environment,
 * compatibility) share: a label column sized from the labels in the
 * language shown now, and the finding that names a fact, so a fact a
 * finding is about is never shown as fine. */
#ifndef CUDAWIZ_WIZARD_PAGEFACTS_H
#define CUDAWIZ_WIZARD_PAGEFACTS_H

#include <stddef.h>

#include "wizard/page.h"

/* The widest label a column may be sized for; a longer one (a long
 * soname) puts its value on the next line, as wdoc_kv does. */
#define WLABEL_MAX	26

/* w grown to fit label (its display width and a gap of two). */
int	wlabel_fit(int w, const char *label);
/* w capped at WLABEL_MAX and a third of a body cols wide. */
int	wlabel_done(int w, int cols);

/* How a fact's text must stand in a finding's words to name it. */
enum wname {
	WN_PATH,	/* a whole path: "/opt/x/lib64" in "/opt/x/lib64 (entry 1)" */
	WN_UNDER,	/* the path or a file under it: "/opt/x/lib64/libz.so" too */
	WN_VAR,		/* a variable's assignment: NAME in "NAME=…" */
};

/* The most severe finding whose code is one of codes (every code when
 * codes is NULL) and whose subject, detail or evidence names text as
 * how says; NULL when none does. */
const struct finding *wfinding_naming(const struct findings *fs,
		    const enum finding_code *codes, size_t ncodes,
		    const char *text, enum wname how);

#endif
