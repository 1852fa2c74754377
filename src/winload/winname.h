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
/* The Windows path of a tree path on drive ('C' when 0): "a/b" ->
 * "C:\a\b", "" -> "C:\". Owned. */
char	*winname_windows_path(char drive, const char *tree);
/* The last part of a path, '\\' or '/' ending the one before. */
const char	*winname_base(const char *path);
/* The directory of a Windows path ("C:\a\b.dll" -> "C:\a"; the root
 * keeps its separator: "C:\b.dll" -> "C:\"). Owned. */
char	*winname_dir(const char *path);
/* A Windows build's DLL suffix as the release it names: build_info's
 * "64_112" as "11.2", "64_8" as "8" (the last digit is the minor when
 * there are two or more: cudart64_110, cudart64_101, cudart64_92 were
 * 11.0, 10.1, 9.2). NULL when v is not of that form. Owned. */
char	*winname_suffix_version(const char *v);

#endif
