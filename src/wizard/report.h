/* The wizard's model: one report (facts and findings) made once at start
 * by the probes and diagnose, the same pipeline as `cudawiz doctor`.
 * Pages draw only from this; nothing in the wizard opens a system file
 * after wiz_report_make returns. The Fix step's actions (writing a
 * script, checking it) go through the env layer (src/envscript/,
 * src/envplan/check.h) with the environment and matrix kept here. */
#ifndef CUDAWIZ_WIZARD_REPORT_H
#define CUDAWIZ_WIZARD_REPORT_H

#include <stdbool.h>
#include <time.h>

#include "diagnose/finding.h"
#include "facts/facts.h"

struct cw_run;
struct matrix;
struct run_live;

/* How the wizard may refresh the matrix: what `cudawiz matrix update`
 * would get from the same command line. Strings borrowed. */
struct wiz_update_cfg {
	bool			 offline;
	const char		*matrix_file;	/* --matrix FILE; NULL */
	const char *const	*urls;		/* none: the defaults */
	size_t			 nurls;
	long			 connect_timeout_ms;	/* 0: the default */
	long			 timeout_ms;		/* 0: the default */
};

struct wiz_report {
	struct facts	*facts;		/* owned */
	struct findings	 findings;	/* owned, sorted: errors first */
	char		*root;		/* shown for --root; NULL: the host */
	char		*matrix_source;	/* "embedded", "cache", "file" */
	char		*matrix_date;	/* "YYYY-MM-DD" */
	char		*matrix_path;	/* NULL when embedded */
	unsigned	 matrix_refresh_days;
	/* Borrowed from the run for the Fix step: they must outlive the
	 * report. */
	char *const		*envp;
	const struct matrix	*m;
	double			 check_timeout_s;	/* each child of the check */
	/* For running the checks and diagnosing again from the wizard. */
	time_t			 now;
	time_t			 matrix_checked;
	double			 verify_timeout_s;	/* <= 0: verify's default */
	bool			 verify_quick;
	/* For the Compatibility page's update (ustep.h); borrowed. */
	struct wiz_update_cfg	 update;
	/* The matrix an update brought in, once there was one: r->m then
	 * points to it. Owned; the first matrix stays the caller's. */
	struct matrix		*m_owned;
	/* The run the report was made from, for a rescan (R); borrowed. */
	struct cw_run		*run;
};

struct wiz_report_in {
	/* The run, opened (src/run/): its tree, matrix, note, environment
	 * and times. It must outlive the report: the report borrows its
	 * matrix and environment. */
	struct cw_run		*run;
	/* Live verification by doctor's policy, between the probes and
	 * diagnose; NULL for none (facts.verify then says not run). */
	const struct run_live	*live;
	/* Shown instead of the root directory (tests pin it); NULL: the
	 * directory itself. */
	const char		*root_label;
	/* How the wizard's own runs of the checks go (--timeout, doctor's
	 * quick sizes). */
	double			 verify_timeout_s;
	bool			 verify_quick;
	struct wiz_update_cfg	 update;
};

/* Probes, annotates, verifies and diagnoses in->run, and takes its
 * facts and findings into r. */
void	wiz_report_make(struct wiz_report *r, const struct wiz_report_in *in);
void	wiz_report_free(struct wiz_report *r);
/* The findings anew from the facts and r->m, after the checks ran or
 * the matrix changed: the same rules as at start, rules_verify too. */
void	wiz_report_rediagnose(struct wiz_report *r);
/* Probes and diagnoses the machine again (the R key: the user fixed
 * something in another terminal), keeping the matrix, the settings and
 * the live checks' results (probing does not run them: r on the Live
 * verification page does). False, with r unchanged, when it could not.
 * Nothing may point into the old facts or findings meanwhile: the pages
 * keep indexes and copies between keys. */
bool	wiz_report_rescan(struct wiz_report *r);
/* An update brought newer data: r takes m, annotates the facts and
 * diagnoses again with it (checked: when the network was asked), and
 * frees the matrix an earlier update brought, if any, last. */
void	wiz_report_set_matrix(struct wiz_report *r, struct matrix *m,
	    time_t checked);

#endif
