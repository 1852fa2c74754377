/* The fact pages' label column and the findings that name a fact; see
 * pagefacts.h. */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "wizard/pagefacts.h"
#include "wizard/screen.h"

int
wlabel_fit(int w, const char *label)
{
	int lw = wtext_width(label) + 2;

	return lw > w ? lw : w;
}

int
wlabel_done(int w, int cols)
{
	int cap = cols / 3 < WLABEL_MAX ? cols / 3 : WLABEL_MAX;

	return w > cap ? cap : w;
}

/* A character that may be part of a path or a variable's name: the
 * text must not continue one on either side. */
static bool
wordish(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.' ||
	    ch == '/' || ch == '~' || ch == '+';
}

static bool
names(const char *s, const char *text, size_t len, enum wname how)
{
	for (const char *p = s; *p != '\0'; p++) {
		char after;

		if (*p != text[0] || strncmp(p, text, len) != 0 ||
		    (p > s && wordish(p[-1])))
			continue;
		after = p[len];
		if (how == WN_VAR ? after == '=' :
		    !wordish(after) || (how == WN_UNDER && after == '/'))
			return true;
	}
	return false;
}

static bool
finding_names(const struct finding *f, const char *text, size_t len,
    enum wname how)
{
	if (f->subject != NULL && names(f->subject, text, len, how))
		return true;
	if (f->detail != NULL && names(f->detail, text, len, how))
		return true;
	for (size_t i = 0; i < f->evidence.n; i++)
		if (names(f->evidence.v[i], text, len, how))
			return true;
	return false;
}

const struct finding *
wfinding_naming(const struct findings *fs, const enum finding_code *codes,
    size_t ncodes, const char *text, enum wname how)
{
	const struct finding *worst = NULL;
	size_t len;

	if (text == NULL || text[0] == '\0')
		return NULL;
	len = strlen(text);
	/* A trailing slash ("/opt/x/lib64/") names the same directory. */
	while (len > 1 && how != WN_VAR && text[len - 1] == '/')
		len--;
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];
		bool listed = codes == NULL;

		for (size_t j = 0; j < ncodes && !listed; j++)
			listed = f->code == codes[j];
		if (!listed || (worst != NULL && worst->severity >= f->severity))
			continue;
		if (finding_names(f, text, len, how))
			worst = f;
	}
	return worst;
}
