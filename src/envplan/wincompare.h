/* env --check's comparison for a Windows machine: the Windows facts
 * probed in the environment before a script and in the one it leaves,
 * each DLL a framework loads paired by its Python, framework, name and
 * way of loading, into compare.h's rows (the same verdicts, the same
 * presenter as Linux's). Pure. */
#ifndef CUDAWIZ_ENVPLAN_WINCOMPARE_H
#define CUDAWIZ_ENVPLAN_WINCOMPARE_H

#include "envplan/compare.h"
#include "winprobe/winfacts.h"

void	wincheck_compare(const struct win_facts *before,
	    const struct win_facts *after, struct check_rows *out);

#endif
