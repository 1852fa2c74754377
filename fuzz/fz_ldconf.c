/* /etc/ld.so.conf and the files it includes, as probe_environ reads them
 * through a scratch sysroot (env.c: ldconf_parse, its "include" globbing
 * glob_expand, loops and nesting cut with notes): the directories
 * ldconfig would cache, which the driver, cuDNN and loader probes search.
 *
 * Input: up to three files, cut at "\n---\n" (probefz.h):
 *   0  /etc/ld.so.conf
 *   1  /etc/ld.so.conf.d/cuda.conf
 *   2  /etc/ld.so.conf.d/sub/nested.conf
 * The fixed tree: a few library directories, a Debian multiarch .conf
 * beside cuda.conf, and loop.conf, a link back to /etc/ld.so.conf, so
 * that including every .conf there makes a loop.
 *
 * Beyond "no crash" and the JSON check, what ldconf_parse promises of a
 * directory it keeps: not empty, one line without its comment, no
 * leading blank, no trailing '/' but for "/" itself, named with the
 * absolute path of the file that listed it. (Blanks are trimmed before
 * the slashes, as ldconfig does, so "/a/ /" keeps a trailing blank.) */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "probefz.h"

static const char *const files[] = {
	"etc/ld.so.conf",
	"etc/ld.so.conf.d/cuda.conf",
	"etc/ld.so.conf.d/sub/nested.conf",
};

static char *const envp[] = { NULL };

static void
setup(void)
{
	if (!pf_scratch())
		return;
	fz_put("etc/ld.so.conf.d/x86_64-linux-gnu.conf",
	    "# Multiarch support\n/usr/local/lib/x86_64-linux-gnu\n"
	    "/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu\n");
	pf_symlink("../ld.so.conf", "etc/ld.so.conf.d/loop.conf");
	fz_put("usr/lib/x86_64-linux-gnu/libcuda.so.1", "");
	fz_put("usr/local/cuda-12.4/lib64/libcudart.so.12", "");
	fz_put("opt/a/1/2/.keep", "");
	fz_put("opt/b/lib/.keep", "");
}

static void
check_dirs(const struct env_facts *env)
{
	static const char blanks[] = " \t\r\f\v";

	for (size_t i = 0; i < env->ldconf.n; i++) {
		const struct ldconf_dir *d = &env->ldconf.v[i];
		size_t n = strlen(d->dir);

		if (n == 0 || strpbrk(d->dir, "\n#") != NULL ||
		    strchr(blanks, d->dir[0]) != NULL ||
		    (n > 1 && d->dir[n - 1] == '/'))
			abort();
		if (d->from == NULL || d->from[0] != '/')
			abort();
		if (d->exists < -1 || d->exists > 1)
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
	probe_environ(&ctx);
	check_dirs(&ctx.facts->env);
	pf_check_report(ctx.facts);
	facts_free(ctx.facts);
	return 0;
}
