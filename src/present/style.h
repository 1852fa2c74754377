/* Whether and how the text report uses colour. Severity is always a word
 * too, so nothing is lost without colour. */
#ifndef CUDAWIZ_STYLE_H
#define CUDAWIZ_STYLE_H

#include <stdbool.h>

#include "diagnose/finding.h"

/* flag: -1 automatic, 0 never, 1 always. Automatic means: not when
 * NO_COLOR is set and non-empty, not when TERM is "dumb", and only when
 * fd is a terminal. */
bool		 style_want_color(int fd, int flag);
/* ANSI sequences, or "" when colour is off. */
const char	*style_sev_on(enum severity sev, bool color);
const char	*style_bold(bool color);
const char	*style_off(bool color);

#endif
