/* sh.c's pieces that other writers reuse: conda.c and direnv.c write sh
 * too, csh.c runs sh's list editing. Internal to src/envscript/. */
#ifndef CUDAWIZ_ENVSCRIPT_SH_H
#define CUDAWIZ_ENVSCRIPT_SH_H

#include <stdbool.h>

#include "envscript/common.h"

/* The activation: saving the old values unless already saved (save),
 * then editing. */
void	sh_activate(struct strbuf *sb, const struct prep *pr, bool save);
/* The list editing that sh and csh scripts share. */
extern const char sh_pathedit_collect[];
/* The body of the way back, each line after indent. */
void	sh_restore_body(struct strbuf *sb, const struct prep *pr,
	    const char *indent);
/* env --check's argv after argv[0] for a file in sh (writer.h). */
extern const char *const sh_run_args[];
/* s in sh's single quotes, always (a row's quote). */
int	sh_quote_word(struct strbuf *sb, const char *s);

#endif
