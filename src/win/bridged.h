/* This Windows machine's facts in the shared model (winprobe/
 * winbridge.h), for the shared presenters the Windows program runs: the
 * spec, the Prometheus view, doctor --baseline. */
#ifndef CUDAWIZ_WIN_BRIDGED_H
#define CUDAWIZ_WIN_BRIDGED_H

#include "facts/facts.h"
#include "win/winrun.h"

/* r's facts bridged with this process's environment and the registry's
 * name of the system, annotated with r's matrix. facts_free() it. */
struct facts	*bridged_facts(const struct win_run *r);

#endif
