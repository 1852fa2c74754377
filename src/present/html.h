/* The HTML view of a report: one self-contained page (no network, no
 * script but the report's own JSON) that a browser shows in light or dark
 * and the wheel's notebook view embeds. Between the markers
 *   <!-- cudawiz-report begin --> ... <!-- cudawiz-report end -->
 * is one <div class="cudawiz-report"> with its own scoped <style> and the
 * report's JSON (exactly what --json prints) in
 * <script type="application/json" class="cudawiz-json">, "</" written
 * as "<\/". */
#ifndef CUDAWIZ_PRESENT_HTML_H
#define CUDAWIZ_PRESENT_HTML_H

#include <jansson.h>
#include <stdio.h>
#include <time.h>

#include "diagnose/finding.h"
#include "facts/facts.h"

struct matrix;
struct explain_view;
struct why_view;

/* Each returns 0, or -1 when the page could not be made or written. */
int	html_print_doctor(FILE *fp, const struct facts *facts,
	    const struct findings *findings, const struct matrix *m, time_t now,
	    time_t checked);
/* The Windows program's doctor: the same page over the facts bridged
 * from Windows' (winprobe/winbridge.h), its JSON block Linux's doctor
 * --json of them; what only Linux has (the loader's variables and
 * cache, the kernel module) is left out rather than shown unknown. */
int	html_print_doctor_windows(FILE *fp, const struct facts *facts,
	    const struct findings *findings, const struct matrix *m,
	    time_t now);
int	html_print_explain(FILE *fp, const struct explain_view *v);
int	html_print_why(FILE *fp, const struct why_view *w);
/* The Windows program's why NAME.dll (src/win/cmd_why.c): the page over
 * its --json document doc (html_winwhy.c). */
int	html_print_win_why(FILE *fp, const json_t *doc);

#endif
