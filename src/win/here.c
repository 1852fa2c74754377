/* See here.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>
#include <windows.h>

#include "sysroot/sysroot.h"
#include "util/xalloc.h"
#include "win/here.h"
#include "win/registry.h"
#include "winprobe/winprobe.h"

void
here_environment(struct strv *out)
{
	wchar_t *block = GetEnvironmentStringsW();

	if (block == NULL)
		return;
	for (const wchar_t *w = block; *w != L'\0'; w += wcslen(w) + 1) {
		int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL,
		    NULL);
		char *s;

		if (n <= 0 || *w == L'=')
			continue;
		s = xmalloc((size_t)n);
		if (WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL) == n)
			strv_push(out, s);
		free(s);
	}
	FreeEnvironmentStringsW(block);
}

int
here_probe_env(struct win_facts *f, bool registry, char *const *envp,
    char **err)
{
	struct winprobe_opts wo = { 0 };
	struct strv env = STRV_INIT;
	struct sysroot *sr;
	char root[3], **own = NULL;

	wo.drive = sysroot_system_drive();
	if (registry) {
		wo.py_registry = winreg_pythons;
		wo.gpu_registry = winreg_gpus;
	}
	snprintf(root, sizeof root, "%c:", wo.drive);
	if ((sr = sysroot_new(root, err)) == NULL)
		return -1;
	if (envp == NULL) {
		here_environment(&env);
		own = xcalloc(env.n + 1, sizeof *own);
		for (size_t i = 0; i < env.n; i++)
			own[i] = env.v[i];
	}
	winprobe_run(sr, envp != NULL ? envp : (char *const *)own, &wo, f);
	free(own);
	strv_free(&env);
	sysroot_free(sr);
	return 0;
}

int
here_probe(struct win_facts *f, bool registry, char **err)
{
	return here_probe_env(f, registry, NULL, err);
}
