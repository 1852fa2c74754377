/* The environment plan for a Windows machine (`cudawiz.exe env`): from
 * the Windows facts (winprobe/winfacts.h), the directories each
 * framework's DLLs must be found in put first on PATH (the toolkit bin
 * holding the cudart64_*.dll a TensorFlow build loads, the cuDNN
 * directory holding its cudnn64_*.dll), the other CUDA toolkits' bin
 * directories taken out of PATH, CUDA_PATH naming the toolkit chosen.
 * What PATH cannot fix is said in words, never made up: a DLL no
 * directory of the drive holds (what to install instead), an extension
 * module's import on Python 3.8+ (which never searches PATH: the
 * os.add_dll_directory line doctor gives). Pure: reads facts, writes
 * the plan; every path in it is a Windows path ("C:\Program Files\…"). */
#ifndef CUDAWIZ_ENVPLAN_WINPLAN_H
#define CUDAWIZ_ENVPLAN_WINPLAN_H

#include <stdbool.h>

#include "envscript/envplan.h"
#include "util/strv.h"
#include "winprobe/winfacts.h"

struct matrix;

struct winplan_opts {
	/* "11.2", "11" (the newest 11.x installed), or a toolkit's
	 * directory as a Windows path; NULL: the toolkit that holds what a
	 * framework needs, if any. */
	const char	*toolkit;
	bool		 keep_other_cuda;
};

struct winplan_report {
	/* What the script does not fix, one sentence each, with what to do
	 * instead. */
	struct strv	 unfixable;
	/* The frameworks served: "tensorflow 2.10.1 (C:\Python310)". */
	struct strv	 targets;
	/* Nothing needs changing: every framework's DLLs are found and no
	 * toolkit was asked for. The plan is then empty. */
	bool		 nothing;
};

/* m (may be NULL) gives the CUDA and cuDNN a framework build was made
 * with, for the words of what to install. 0, or -1 with *err (a
 * --toolkit the facts do not know). */
int	winplan_build(const struct win_facts *f, const struct matrix *m,
	    const struct winplan_opts *o, struct env_plan *out,
	    struct winplan_report *rep, char **err);
void	winplan_report_free(struct winplan_report *r);

#endif
