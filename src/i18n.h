/* Translation macros. Every user-visible string goes through _(); strings
 * kept in static tables are marked with N_() and translated where shown.
 * Finding codes, JSON keys and script text are never translated. */
#ifndef CUDAWIZ_I18N_H
#define CUDAWIZ_I18N_H

#ifdef ENABLE_NLS
#include <libintl.h>
#define _(s) gettext(s)
#else
#define _(s) ((const char *)(s))
#define ngettext(s, p, n) ((n) == 1 ? (s) : (p))
#endif
#define N_(s) (s)

#endif
