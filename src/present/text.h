/* The text view of a report: grouped, readable at 80 columns, severity
 * always spelled out so it reads the same without colour. */
#ifndef CUDAWIZ_PRESENT_TEXT_H
#define CUDAWIZ_PRESENT_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "diagnose/finding.h"
#include "facts/facts.h"

struct matrix;

/* m may be NULL. Returns 0, or -1 when writing failed. */
int	text_print_doctor(FILE *fp, const struct facts *facts,
	    const struct findings *findings, const struct matrix *m, bool color);

/* The "Python environments" section, heading included (text_python.c). */
void	text_print_python(FILE *fp, const struct facts *facts, bool color);

/* The "Live verification" section, heading included (text_verify.c). */
void	text_print_verify(FILE *fp, const struct facts *facts, bool color);
/* Its heading and, when the checks did not run, the line saying why;
 * true when they ran (the caller's lines for the runs follow). For the
 * Windows doctor, whose runs are not in struct facts. */
bool	text_verify_head(FILE *fp, enum verify_state state, const char *why,
	    bool color);

/* The findings alone, as doctor's Findings section shows them (no
 * heading; "No problems found." when there are none). */
int	text_print_findings(FILE *fp, const struct findings *fs, bool color);

/* What to run next, for a reader with no wizard (a notebook cell): a
 * short list of commands, the fix script first when a finding's fix is
 * one (text.c). */
void	text_print_next(FILE *fp, const struct findings *fs);

#endif
