/* The Prometheus view of a report: the text exposition format (0.0.4)
 * that node_exporter's textfile collector reads. The metric and label
 * names are a contract (docs/METRICS.md): never renamed, only added to. */
#ifndef CUDAWIZ_PRESENT_PROM_H
#define CUDAWIZ_PRESENT_PROM_H

#include <stdio.h>
#include <time.h>

#include "diagnose/finding.h"
#include "facts/facts.h"

struct matrix;

/* Writes every family of docs/METRICS.md that has samples, each with
 * its # HELP and # TYPE lines and each label set once; now is the run's
 * time; m may be NULL. Returns 0, or -1 when writing failed. */
int	prom_print_doctor(FILE *fp, const struct facts *facts,
	    const struct findings *findings, const struct matrix *m, time_t now);

#endif
