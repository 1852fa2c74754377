/* The finding table and finding lists; see finding.h. */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/finding.h"
#include "i18n.h"
#include "util/xalloc.h"

static const struct {
	const char	*name;
	enum severity	 severity;
	const char	*title;
} table[FINDING_COUNT] = {
#define FINDING(code, sev, title) { #code, SEV_##sev, title },
#include "diagnose/findings.def"
#undef FINDING
};

const char *
finding_code_name(enum finding_code code)
{
	return code < FINDING_COUNT ? table[code].name : "UNKNOWN";
}

const char *
finding_title(enum finding_code code)
{
	return code < FINDING_COUNT ? table[code].title : "";
}

enum severity
finding_default_severity(enum finding_code code)
{
	return code < FINDING_COUNT ? table[code].severity : SEV_ERROR;
}

const char *
severity_name(enum severity sev)
{
	switch (sev) {
	case SEV_ERROR:
		return "error";
	case SEV_WARNING:
		return "warning";
	case SEV_INFO:
		break;
	}
	return "info";
}

enum finding_code
finding_code_lookup(const char *name)
{
	for (size_t i = 0; i < FINDING_COUNT; i++)
		if (strcmp(table[i].name, name) == 0)
			return (enum finding_code)i;
	return FINDING_COUNT;
}

struct finding *
finding_add(struct findings *fs, enum finding_code code, const char *fmt, ...)
{
	struct finding *f = VEC_PUSH(fs);
	va_list ap;

	f->code = code;
	f->severity = finding_default_severity(code);
	va_start(ap, fmt);
	f->detail = xvasprintf(fmt, ap);
	va_end(ap);
	return f;
}

void
finding_subject(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	free(f->subject);
	va_start(ap, fmt);
	f->subject = xvasprintf(fmt, ap);
	va_end(ap);
}

void
finding_evidence_cap(struct finding *f, size_t limit)
{
	size_t extra;

	if (f->evidence.n <= limit)
		return;
	extra = f->evidence.n - limit;
	for (size_t i = limit; i < f->evidence.n; i++)
		free(f->evidence.v[i]);
	f->evidence.n = limit;
	strv_pushf(&f->evidence, ngettext("… and %zu more", "… and %zu more",
	    extra), extra);
}

size_t
findings_count(const struct findings *fs, enum severity sev)
{
	size_t n = 0;

	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].severity == sev)
			n++;
	return n;
}

const struct finding *
findings_find(const struct findings *fs, enum finding_code code)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].code == code)
			return &fs->v[i];
	return NULL;
}

void
findings_sort(struct findings *fs)
{
	/* Insertion sort: stable, and lists are short. */
	for (size_t i = 1; i < fs->n; i++) {
		struct finding cur = fs->v[i];
		size_t j = i;

		while (j > 0 && (fs->v[j - 1].severity < cur.severity ||
		    (fs->v[j - 1].severity == cur.severity &&
		    fs->v[j - 1].code > cur.code))) {
			fs->v[j] = fs->v[j - 1];
			j--;
		}
		fs->v[j] = cur;
	}
}

void
findings_free(struct findings *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		free(fs->v[i].detail);
		free(fs->v[i].subject);
		strv_free(&fs->v[i].evidence);
		strv_free(&fs->v[i].fix);
	}
	FREE(&fs->v);
	fs->n = fs->cap = 0;
}
