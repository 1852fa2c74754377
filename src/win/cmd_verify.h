/* verify's runs in the Windows program (src/win/cmd_verify.c): each DLL
 * the Windows probe found loaded and tried by cudawiz-verify.exe in a
 * process of its own, and the findings of those runs. `verify` prints
 * them; doctor runs them quick and adds them to its report; the guided
 * mode's Live verification page shows them. */
#ifndef CUDAWIZ_WIN_CMD_VERIFY_H
#define CUDAWIZ_WIN_CMD_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "diagnose/finding.h"
#include "facts/facts.h"
#include "winprobe/winfacts.h"

struct json_t;
struct vrun;

struct win_verify {
	struct vrun	*v;		/* the runs, in the order tried */
	size_t		 n;
	struct findings	 findings;	/* rules_windows_verify's, sorted */
	double		 timeout_s;	/* each run's */
	bool		 quick;
	double		 ms;		/* all runs together */
};

/* CUDAWIZ_HELPER, else cudawiz-verify.exe beside this program; NULL when
 * it cannot be named (this program's path is too long). Owned. */
char	*win_verify_helper(void);
/* Why helper cannot be run (it is not a file there), in the words Linux's
 * doctor uses for a missing helper; NULL when it is there. Owned. */
char	*win_verify_helper_missing(const char *helper);
/* Runs the helper over f's nvcuda.dll, each toolkit's cudart and each
 * cuDNN (quick: the driver's small sizes; timeout_ms 0: the default). */
void	win_verify_run(const struct win_facts *f, const char *helper,
	    bool quick, long timeout_ms, struct win_verify *wv);
/* Each run in two lines, as `verify` prints them. Owned. */
char	*win_verify_text(const struct win_verify *wv);
/* The runs as windows-verify/1's "runs" array (data/SCHEMA.md). New. */
struct json_t	*win_verify_runs_json(const struct win_verify *wv);
/* The runs into f->verify (winprobe/winbridge.h), state "ran", for the
 * shared presenters of the bridged facts (the Prometheus view). */
void	win_verify_facts(const struct win_verify *wv, const char *helper,
	    struct facts *f);
void	win_verify_free(struct win_verify *wv);

#endif
