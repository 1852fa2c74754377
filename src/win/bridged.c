/* See bridged.h. */
#include "config.h"

#include <stdlib.h>

#include "diagnose/diagnose.h"
#include "util/strv.h"
#include "util/xalloc.h"
#include "win/bridged.h"
#include "win/here.h"
#include "win/registry.h"
#include "winprobe/winbridge.h"

struct facts *
bridged_facts(const struct win_run *r)
{
	struct strv env = STRV_INIT;
	char *os = winreg_os_name(), **envp;
	struct facts *f;

	here_environment(&env);
	envp = xcalloc(env.n + 1, sizeof *envp);
	for (size_t i = 0; i < env.n; i++)
		envp[i] = env.v[i];
	f = winbridge_facts(&r->facts, envp, os);
	diagnose_annotate(f, r->m);
	free(envp);
	free(os);
	strv_free(&env);
	return f;
}
