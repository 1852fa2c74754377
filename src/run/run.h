/* One run of the pipeline: open the matrix and the tree, probe, annotate
 * with the matrix, verify (by doctor's policy or on request), diagnose.
 *
 * Every command that looks at a machine (doctor, verify, explain, env,
 * env --check) and the wizard go through here, so they see the same
 * matrix (the probes included), the same refresh time, the same notes,
 * and the host's loader is asked about itself once. The run prints no
 * report and nothing on stdout: on stderr only the live checks' progress
 * (when asked) and run_say_note(); what it cannot do it says through
 * *err or the facts. */
#ifndef CUDAWIZ_RUN_H
#define CUDAWIZ_RUN_H

#include <stdbool.h>
#include <time.h>

#include "diagnose/diagnose.h"
#include "facts/facts.h"
#include "probe/probe.h"

struct matrix;
struct sysroot;

struct cw_run {
	struct sysroot		*sr;
	/* --matrix FILE, else the cache, else the embedded one; handed to
	 * the probes and to diagnose alike. */
	const struct matrix	*m;
	struct matrix		*m_owned;	/* m, unless run_open_with's */
	char			*matrix_note;	/* why the cache was not used; NULL */
	time_t			 matrix_checked;	/* last refresh; 0: never */
	time_t			 now;
	char *const		*envp;		/* NAME=value, NULL-terminated */
	struct probe_shared	 shared;	/* the matrix, the loader profile */
	struct facts		*facts;		/* after run_probe */
	struct findings		 findings;	/* after run_diagnose, sorted */
	/* doctor --baseline FILE, after run_load_baseline: the document,
	 * its spec items and the reference host's name (NULL: unnamed),
	 * both inside the document; handed to diagnose. */
	struct json_t		*baseline_doc;
	const struct json_t	*baseline_items;
	const char		*baseline_host;
};

enum run_probes { RUN_FULL, RUN_LEAN };

/* How the live checks go. */
struct run_live {
	bool		 no_verify;	/* doctor --no-verify */
	bool		 quick;		/* small sizes (doctor, verify --quick) */
	long		 timeout_ms;	/* each helper run; 0: the default */
	bool		 progress;	/* "checking i/n" on stderr when a terminal */
	const char	*env;		/* verify --env DIR, checked; NULL */
};

/* Chooses the matrix and opens the tree (root NULL: the host); reads
 * when the matrix was last refreshed. -1 with *err set (the caller
 * frees it) and nothing to close. */
int	run_open(struct cw_run *r, const char *root, const char *matrix_file,
	    char *const *envp, char **err);
/* The same with a matrix the caller chose and keeps (it must outlive
 * the run) and its note (copied; NULL for none). */
int	run_open_with(struct cw_run *r, const char *root,
	    const struct matrix *m, const char *note, char *const *envp,
	    char **err);
/* run_open(), or -1 after saying why on stderr. */
int	run_open_or_say(struct cw_run *r, const char *root,
	    const char *matrix_file, char *const *envp);
/* Says the matrix-cache note on stderr, when there is one: for the
 * commands whose report has no notes (doctor's has, run_annotate puts
 * it there). */
void	run_say_note(const struct cw_run *r);
/* Reads path as the reference machine for DRIFT_* findings: a spec
 * (`spec export`) or a doctor --json report (its "spec" and "host"). -1
 * with *err (the caller frees) naming the file and what is wrong: missing,
 * not a regular file, too large, not JSON, not one of those documents. */
int	run_load_baseline(struct cw_run *r, const char *path, char **err);
/* The probes into r->facts: all of them, or the lean set the loader
 * model needs. */
void	run_probe(struct cw_run *r, enum run_probes which);
/* The probes again, into new r->facts (the old ones, if r still holds
 * them, freed), after the user changed the machine: the loader profile
 * the first probes made is made anew too. */
void	run_reprobe(struct cw_run *r);
/* Probes another environment of the same machine (env --check's "after"
 * side) with the run's matrix and loader profile; the caller frees. */
struct facts	*run_probe_env(struct cw_run *r, char *const *envp);
/* The loader profile the probes used (made now if none did): for a
 * command's own loader session, so the host's loader runs once. */
const struct loader_profile	*run_loader_profile(struct cw_run *r);
/* Adds the matrix-cache note to facts and annotates them with the
 * matrix. */
void	run_annotate_facts(const struct cw_run *r, struct facts *facts);
void	run_annotate(struct cw_run *r);
/* doctor's policy: a quick run of every check when a driver is loaded
 * and the tree is the host; otherwise facts->verify says why not. */
void	run_verify_by_policy(struct cw_run *r, const struct run_live *l);
/* Every check, whatever the policy says (`cudawiz verify`). */
void	run_verify(struct cw_run *r, const struct run_live *l);
/* What the rules read, for a command with its own (rules_verify,
 * rules_explain). */
void	run_diagnose_input(struct cw_run *r, const struct facts *facts,
	    struct diagnose_input *in);
/* Every rule, into findings (r->findings for r->facts). */
void	run_diagnose_facts(struct cw_run *r, struct facts *facts,
	    struct findings *out);
void	run_diagnose(struct cw_run *r);
/* Frees what the run holds; r may be partly made (zeroed first). */
void	run_close(struct cw_run *r);

#endif
