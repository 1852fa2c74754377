/* Names on a Windows drive held in a Linux tree: NTFS opens a name
 * whatever its case, a Linux fixture tree only as spelt. These match
 * names the NTFS way (ASCII folded, which is all a DLL name or a CUDA
 * path holds), for the DLL search model and the Windows probes. */
#ifndef CUDAWIZ_WINLOAD_WINNAME_H
#define CUDAWIZ_WINLOAD_WINNAME_H

#include <stdbool.h>
#include <stddef.h>

#include "sysroot/sysroot.h"
#include "util/strv.h"

/* a and b equal without ASCII case. */
bool	winname_eq(const char *a, const char *b);
/* The same for the first n bytes of a against all of b. */
bool	winname_eqn(const char *a, size_t n, const char *b);
/* The entry of names (a directory listing) NTFS would open for name:
 * the exact spelling first, else the first that differs only in case (a
 * Linux tree can hold both, a Windows directory only one). NULL: none. */
const char	*winname_pick(const struct strv *names, const char *name);
/* path ('/'-separated, inside sr) with each component looked up without
 * case, as the tree spells it; "." and empty components dropped, ".."
 * going back one. Returns 0 with *out set (the caller frees it) or an
 * errno value (ENOENT: a component is missing). "" or "/" gives "". */
int	winname_resolve(const struct sysroot *sr, const char *path, char **out);

#endif
