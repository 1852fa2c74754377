/* The JSON view of a report (design.md, "JSON contract"). */
#ifndef CUDAWIZ_PRESENT_JSON_H
#define CUDAWIZ_PRESENT_JSON_H

#include <stdio.h>
#include <time.h>

#include "diagnose/finding.h"
#include "probe/facts.h"

struct matrix;

/* Writes the doctor document, one JSON object and a newline; m may be
 * NULL. Returns 0, or -1 when writing failed. */
int	json_print_doctor(FILE *fp, const struct facts *facts,
	    const struct findings *findings, const struct matrix *m, time_t now,
	    time_t checked);

#endif
