/* What the loader model takes from the probes; see probe.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "probe/probe.h"
#include "util/pathnorm.h"
#include "util/strmap.h"
#include "util/xalloc.h"

/* index holds what sv holds: ld.so.conf can name thousands of
 * directories, and strv_contains over each earlier one is quadratic. */
static void
add_dir(struct strv *sv, struct strmap *index, const char *dir)
{
	if (dir != NULL && dir[0] != '\0' && strmap_put(index, dir, sv->n))
		strv_push(sv, dir);
}

void
probe_loader_dirs(const struct facts *f, struct strv *ldconf,
    struct strv *extra)
{
	struct strmap ldconf_ix = STRMAP_INIT, extra_ix = STRMAP_INIT;

	for (size_t i = 0; i < ldconf->n; i++)
		(void)strmap_put(&ldconf_ix, ldconf->v[i], i);
	for (size_t i = 0; i < extra->n; i++)
		(void)strmap_put(&extra_ix, extra->v[i], i);
	for (size_t i = 0; i < f->env.ldconf.n; i++)
		if (f->env.ldconf.v[i].exists != 0)
			add_dir(ldconf, &ldconf_ix, f->env.ldconf.v[i].dir);
	for (size_t i = 0; i < f->toolkits.n; i++) {
		const struct toolkit_fact *t = &f->toolkits.v[i];

		for (size_t j = 0; j < t->cudart.n; j++)
			add_dir(extra, &extra_ix, t->cudart.v[j].dir);
		add_dir(extra, &extra_ix, t->stubs_dir);
	}
	for (size_t i = 0; i < f->cudnn.n; i++)
		add_dir(extra, &extra_ix, f->cudnn.v[i].lib_dir);
	for (size_t i = 0; i < f->driver.libs.n; i++) {
		char *dir = path_dirname(f->driver.libs.v[i].path);

		add_dir(extra, &extra_ix, dir);
		free(dir);
	}
	if (f->driver.wsl_lib_dir)
		add_dir(extra, &extra_ix, "/usr/lib/wsl/lib");
	if (f->driver.lib64_nvidia)
		add_dir(extra, &extra_ix, "/usr/lib64-nvidia");
	strmap_free(&ldconf_ix);
	strmap_free(&extra_ix);
}
