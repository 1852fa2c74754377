/* verify's runs in the Windows program (src/win/cmd_verify.c): each DLL
 * the Windows probe found loaded and tried by cudawiz-verify.exe in a
 * process of its own, and the findings of those runs. `verify` prints
 * them; the guided mode's Live verification page shows them. */
#ifndef CUDAWIZ_WIN_CMD_VERIFY_H
#define CUDAWIZ_WIN_CMD_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "diagnose/finding.h"
#include "winprobe/winfacts.h"

struct vrun;

struct win_verify {
	struct vrun	*v;		/* the runs, in the order tried */
	size_t		 n;
	struct findings	 findings;	/* rules_windows_verify's, sorted */
};

/* CUDAWIZ_HELPER, else cudawiz-verify.exe beside this program; NULL when
 * it cannot be named (this program's path is too long). Owned. */
char	*win_verify_helper(void);
/* Runs the helper over f's nvcuda.dll, each toolkit's cudart and each
 * cuDNN (quick: the driver's small sizes; timeout_ms 0: the default). */
void	win_verify_run(const struct win_facts *f, const char *helper,
	    bool quick, long timeout_ms, struct win_verify *wv);
/* Each run in two lines, as `verify` prints them. Owned. */
char	*win_verify_text(const struct win_verify *wv);
void	win_verify_free(struct win_verify *wv);

#endif
