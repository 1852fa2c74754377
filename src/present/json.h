/* The JSON view of a report (design.md, "JSON contract"). */
#ifndef CUDAWIZ_PRESENT_JSON_H
#define CUDAWIZ_PRESENT_JSON_H

#include <jansson.h>
#include <stdio.h>
#include <time.h>

#include "diagnose/finding.h"
#include "facts/facts.h"

struct matrix;

/* Writes the doctor document, one JSON object and a newline; m may be
 * NULL. Returns 0, or -1 when writing failed. */
int	json_print_doctor(FILE *fp, const struct facts *facts,
	    const struct findings *findings, const struct matrix *m, time_t now,
	    time_t checked);

/* Pieces other documents (why, explain) share with doctor's. jstr()
 * gives null for NULL and escapes bytes that are not UTF-8, so any path
 * can be printed; findings_json() is the "findings" array of design.md. */
/* Writes doc, indented, and a newline; 0, or -1 when it could not be
 * rendered or written. */
int	json_write(FILE *fp, const json_t *doc);
json_t	*jstr(const char *s);
json_t	*jstrv(const struct strv *sv);		/* an array of jstr() */
json_t	*findings_json(const struct findings *fs);
struct resolve_step;
/* A loader search step: {"source","dir","spec","owner","path","result",
 * "detail"}, as in why's "steps" and doctor's libraries. */
json_t	*json_step(const struct resolve_step *s);
/* facts.verify: live verification's state and runs (json_verify.c). */
json_t	*verify_json(const struct verify_facts *vf);
/* facts.python_envs: an array once the Python probe ran, else null
 * (json_python.c). */
json_t	*python_envs_json(const struct facts *f);

#endif
