/* The small files probe_python_envs reads to find environments, through
 * a scratch sysroot: a venv's pyvenv.cfg (read_pyvenv_cfg: home, the
 * version, include-system-site-packages), conda's environments.txt
 * (read_environments_txt: one prefix a line, each one followed), and
 * the version files a pyenv shim is resolved by (read_version_file:
 * .python-version in the working directory, pyenv's global version).
 *
 * Input: up to four files, cut at "\n---\n" (probefz.h):
 *   0  /venv/pyvenv.cfg			(VIRTUAL_ENV=/venv)
 *   1  /home/u/.conda/environments.txt		(HOME=/home/u)
 *   2  /work/.python-version			(PWD=/work)
 *   3  /home/u/.pyenv/version
 * PATH holds pyenv's shims directory, whose python3 is a shim, so the
 * version files name the environment the shim runs. The fixed tree has
 * a base Python in /usr/bin, a conda env in /envs/good, pyenv versions
 * 3.11.4 and 3.12.1, and venv site directories for 3.10 and 3.11.
 *
 * Beyond "no crash" and the JSON check: every environment's prefix is an
 * absolute path, and a Python version, when one was found, is "X.Y"
 * (what the site directories are named by). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "probefz.h"

static const char *const files[] = {
	"venv/pyvenv.cfg",
	"home/u/.conda/environments.txt",
	"work/.python-version",
	"home/u/.pyenv/version",
};

/* Arrays: the context takes char *, and string literals are const. */
static char env0[] = "VIRTUAL_ENV=/venv";
static char env1[] = "HOME=/home/u";
static char env2[] = "PWD=/work";
static char env3[] = "PATH=/home/u/.pyenv/shims:/usr/bin";
static char *const envp[] = { env0, env1, env2, env3, NULL };

static void
setup(void)
{
	if (!pf_scratch())
		return;
	fz_put("usr/bin/python3.11", "");
	pf_chmod("usr/bin/python3.11", 0755);
	fz_put("venv/lib/python3.11/site-packages/.keep", "");
	fz_put("venv/lib/python3.10/site-packages/.keep", "");
	fz_put("envs/good/conda-meta/history", "==> 2024 <==\n");
	fz_put("envs/good/lib/python3.12/site-packages/.keep", "");
	fz_put("home/u/.pyenv/shims/python3", "#!/usr/bin/env bash\n");
	pf_chmod("home/u/.pyenv/shims/python3", 0755);
	fz_put("home/u/.pyenv/versions/3.11.4/lib/python3.11/site-packages/.keep",
	    "");
	fz_put("home/u/.pyenv/versions/3.12.1/lib/python3.12/site-packages/.keep",
	    "");
	fz_put("work/.keep", "");
}

static bool
major_minor(const char *v)
{
	size_t a = strspn(v, "0123456789"), b;

	if (a == 0 || v[a] != '.')
		return false;
	b = strspn(v + a + 1, "0123456789");
	return b > 0 && v[a + 1 + b] == '\0';
}

static void
check_envs(const struct facts *f)
{
	for (size_t i = 0; i < f->python_envs.n; i++) {
		const struct py_env *e = &f->python_envs.v[i];

		if (e->prefix == NULL || e->prefix[0] != '/')
			abort();
		if (e->python_version != NULL && !major_minor(e->python_version))
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_ctx ctx;

	setup();
	pf_place(files, sizeof files / sizeof files[0], data, size);
	ctx = pf_ctx(envp);
	/* The environment probe first: the Python probe takes PATH from
	 * it. */
	probe_environ(&ctx);
	probe_python_envs(&ctx);
	check_envs(ctx.facts);
	pf_check_report(ctx.facts);
	facts_free(ctx.facts);
	return 0;
}
