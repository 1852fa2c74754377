/* The output half of `spec export`, Linux's and the Windows program's:
 * the document indented, one newline after it, on stdout or into a file
 * replaced atomically (util/atomicfile.h), and the subcommand word
 * before it. Says what failed on stderr. */
#ifndef CUDAWIZ_SPEC_SPECOUT_H
#define CUDAWIZ_SPEC_SPECOUT_H

#include <jansson.h>
#include <stdbool.h>

/* word is spec's one subcommand, "export"; false after saying so. */
bool	spec_is_export(const char *word);
/* path NULL: stdout. 0, or -1 after saying why. */
int	spec_write_doc(const json_t *doc, const char *path);

#endif
