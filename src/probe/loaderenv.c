/* What the loader model takes from the probes; see probe.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "probe/probe.h"
#include "util/pathnorm.h"
#include "util/xalloc.h"

static void
add_dir(struct strv *sv, const char *dir)
{
	if (dir != NULL && dir[0] != '\0' && !strv_contains(sv, dir))
		strv_push(sv, dir);
}

void
probe_loader_dirs(const struct facts *f, struct strv *ldconf,
    struct strv *extra)
{
	for (size_t i = 0; i < f->env.ldconf.n; i++)
		if (f->env.ldconf.v[i].exists != 0)
			add_dir(ldconf, f->env.ldconf.v[i].dir);
	for (size_t i = 0; i < f->toolkits.n; i++) {
		const struct toolkit_fact *t = &f->toolkits.v[i];

		for (size_t j = 0; j < t->cudart.n; j++)
			add_dir(extra, t->cudart.v[j].dir);
		add_dir(extra, t->stubs_dir);
	}
	for (size_t i = 0; i < f->cudnn.n; i++)
		add_dir(extra, f->cudnn.v[i].lib_dir);
	for (size_t i = 0; i < f->driver.libs.n; i++) {
		char *dir = path_dirname(f->driver.libs.v[i].path);

		add_dir(extra, dir);
		free(dir);
	}
	if (f->driver.wsl_lib_dir)
		add_dir(extra, "/usr/lib/wsl/lib");
	if (f->driver.lib64_nvidia)
		add_dir(extra, "/usr/lib64-nvidia");
}
