/* The Windows rules' shared parts (rules_windows_fix.c): names and paths
 * compared as NTFS does, and the fix lines of each shell. Internal to
 * src/diagnose. */
#ifndef CUDAWIZ_RULES_WINDOWS_INT_H
#define CUDAWIZ_RULES_WINDOWS_INT_H

#include <stdbool.h>

#include "diagnose/finding.h"
#include "winprobe/winfacts.h"

/* s begins with prefix, compared without ASCII case. */
bool	rw_iprefix(const char *s, const char *prefix);
/* A "# …" comment line, text taken and freed. */
void	rw_comment_owned(struct finding *f, char *text);
/* The PowerShell (session, user) and cmd.exe lines that put dir first
 * on PATH, each after a comment naming its shell. */
void	rw_fix_path_first(struct finding *f, const char *dir);
/* "import os; os.add_dll_directory(r\"DIR\")" after a "# Python:" line
 * saying it goes before the first import of fwname. */
void	rw_fix_add_dll_directory(struct finding *f, const char *fwname,
	    const char *dir);

/* NO_NVIDIA_GPU (adapters of known vendors, none NVIDIA's) and
 * DRIVER_LIBRARY_MISMATCH (an NVIDIA adapter's DriverVersion another
 * driver than nvcuda.dll's) from the display adapters
 * the registry lists (rules_windows_gpu.c); nothing when it was not read. */
void	rules_windows_gpus(const struct win_facts *wf, struct findings *out);

#endif
