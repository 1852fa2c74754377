/* See winrun.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/rules_windows.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "win/here.h"
#include "win/winrun.h"
#include "winprobe/winprobe.h"

int
win_run_open(struct win_run *r, const char *matrix_file, bool registry,
    char **err)
{
	char *note = NULL;

	memset(r, 0, sizeof *r);
	if ((r->m = select_matrix(matrix_file, &note, err)) == NULL) {
		free(note);
		return -1;
	}
	/* The cache is Linux's (matrix update fills it): its absence here
	 * is no news. */
	free(note);
	if (here_probe(&r->facts, registry, err) != 0) {
		matrix_free(r->m);
		r->m = NULL;
		return -1;
	}
	return 0;
}

int
win_run_open_or_say(struct win_run *r, const char *matrix_file,
    bool registry)
{
	char *err = NULL;

	if (win_run_open(r, matrix_file, registry, &err) == 0)
		return 0;
	fprintf(stderr, "%s: %s\n", PACKAGE, err);
	free(err);
	return -1;
}

void
win_run_diagnose(struct win_run *r)
{
	findings_free(&r->findings);
	memset(&r->findings, 0, sizeof r->findings);
	rules_windows(&r->facts, r->m, &r->findings);
	findings_sort(&r->findings);
}

int
win_run_probe_env(const struct win_run *r, bool registry, char *const *envp,
    struct win_facts *f, struct findings *fs, char **err)
{
	memset(f, 0, sizeof *f);
	memset(fs, 0, sizeof *fs);
	if (here_probe_env(f, registry, envp, err) != 0)
		return -1;
	rules_windows(f, r->m, fs);
	findings_sort(fs);
	return 0;
}

void
win_run_close(struct win_run *r)
{
	findings_free(&r->findings);
	win_facts_free(&r->facts);
	matrix_free(r->m);
	memset(r, 0, sizeof *r);
}
