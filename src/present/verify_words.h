/* How a run of the live checks is named and how it ended, in the words
 * of `cudawiz verify` (text_verify.c), which the wizard's Live
 * verification page shows too: one wording for both. Translated. */
#ifndef CUDAWIZ_VERIFY_WORDS_H
#define CUDAWIZ_VERIFY_WORDS_H

#include "facts/vfacts.h"

enum vrun_mark {
	VRUN_PASSED,		/* it works */
	VRUN_WARNING,		/* not checked, or its output was garbled */
	VRUN_FAILED,		/* crashed, exited, hung, or a check failed */
};

/* "driver (CUDA 12.4)", "runtime 12.4", "cuDNN 9.1.0 (CUDA 12.4)", the
 * kind's bare word without records. Newly allocated. */
char	*verify_run_title(const struct verify_run *r);
/* "works", "cudaErrorInsufficientDriver (35)", "CRASHED (SIGSEGV in
 * init)", "not loaded: …", "not checked: …"; on and off wrap the failing
 * part (colour codes; "" for none). *mark (when not NULL): how it
 * ended. Newly allocated. */
char	*verify_run_outcome(const struct verify_run *r, const char *on,
	    const char *off, enum vrun_mark *mark);

#endif
