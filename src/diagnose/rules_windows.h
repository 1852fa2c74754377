/* The Windows rules (issue 23): findings from what the Windows probe
 * learnt (winprobe/winfacts.h), each framework's DLLs as the DLL search
 * model resolved them. Pure, like every rule: it reads its arguments
 * only. Fix lines are PowerShell and cmd.exe lines, each group after a
 * comment naming its shell ("# PowerShell: …", "rem cmd.exe: …"), and
 * Python lines after "# Python: …". */
#ifndef CUDAWIZ_RULES_WINDOWS_H
#define CUDAWIZ_RULES_WINDOWS_H

#include "diagnose/finding.h"
#include "winprobe/winfacts.h"

struct matrix;

/* SONAME_NOT_FOUND (a DLL no search reaches; the Python >= 3.8 import
 * that PATH no longer serves), FRAMEWORK_CUDA_MISMATCH (only another
 * CUDA's runtime here), LIB_SHADOWED (an x86 copy, or another copy
 * before the CUDA_PATH toolkit's), DRIVER_TOO_OLD (nvcuda.dll's driver
 * below what a framework's or toolkit's CUDA needs on Windows),
 * NO_NVIDIA_GPU (display adapters listed, none NVIDIA's) and
 * DRIVER_LIBRARY_MISMATCH (nvcuda.dll another driver than the NVIDIA
 * adapter's installed one). m may be
 * NULL: then the rules that need the matrix say nothing. */
void	rules_windows(const struct win_facts *wf, const struct matrix *m,
	    struct findings *out);

/* 'it''s' for PowerShell: single quotes, a quote doubled. Owned. */
char	*rw_ps_quote(const char *s);

#endif
