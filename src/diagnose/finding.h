/* Findings: what diagnose concluded, with evidence and a fix. */
#ifndef CUDAWIZ_FINDING_H
#define CUDAWIZ_FINDING_H

#include <stddef.h>

#include "util/strv.h"

enum severity {
	SEV_INFO = 0,
	SEV_WARNING,
	SEV_ERROR,
};

enum finding_code {
#define FINDING(code, sev, title) FINDING_##code,
#include "diagnose/findings.def"
#undef FINDING
	FINDING_COUNT
};

struct finding {
	enum finding_code	 code;
	enum severity		 severity;
	char			*detail;
	/* What it is about, in one short line ("cupy-cuda110 in
	 * /home/u/nlp needs libcudart.so.11.0"); NULL: the title says it. */
	char			*subject;
	struct strv		 evidence;	/* real paths and versions */
	struct strv		 fix;		/* commands a user can paste */
};

struct findings {
	struct finding	*v;
	size_t		 n, cap;
};

/* "NO_NVIDIA_GPU": stable, never translated. */
const char	*finding_code_name(enum finding_code code);
/* The untranslated title; pass through _() to show it. */
const char	*finding_title(enum finding_code code);
enum severity	 finding_default_severity(enum finding_code code);
const char	*severity_name(enum severity sev);	/* "error", … */
/* Looks a code up by name; returns FINDING_COUNT when unknown. */
enum finding_code finding_code_lookup(const char *name);

/* Adds a finding with the table's severity; detail is formatted. */
struct finding	*finding_add(struct findings *fs, enum finding_code code,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Sets (or replaces) the finding's one-line subject. */
void		 finding_subject(struct finding *f, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
/* Keeps at most limit evidence lines, then one "… and N more" line. */
void		 finding_evidence_cap(struct finding *f, size_t limit);
size_t		 findings_count(const struct findings *fs, enum severity sev);
const struct finding *findings_find(const struct findings *fs,
		    enum finding_code code);
/* Orders by severity (errors first), then by code, stable otherwise. */
void		 findings_sort(struct findings *fs);
void		 findings_free(struct findings *fs);

#endif
