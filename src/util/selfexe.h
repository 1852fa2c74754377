/* Where the running program lies, for what ships beside it.
 *
 * The verification helper and, in the portable tarball, the translations
 * are found next to the binary wherever it was unpacked; the compiled-in
 * install paths are only the fallback. */
#ifndef CUDAWIZ_SELFEXE_H
#define CUDAWIZ_SELFEXE_H

/* A new string: the directory of /proc/self/exe, or NULL (errno set)
 * when the kernel does not say. */
char	*self_exe_dir(void);

#endif
