/* Constructors and destructors for facts; see facts.h. */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "loader/resolve.h"
#include "facts/facts.h"
#include "util/xalloc.h"

static void
fact_reset(struct fact_str *f)
{
	FREE(&f->value);
	FREE(&f->source);
	FREE(&f->why);
}

void
fact_set_owned(struct fact_str *f, char *value, const char *source)
{
	fact_reset(f);
	f->state = FACT_KNOWN;
	f->value = value;
	f->source = source != NULL ? xstrdup(source) : NULL;
}

void
fact_set(struct fact_str *f, const char *value, const char *source)
{
	fact_set_owned(f, value != NULL ? xstrdup(value) : NULL, source);
}

void
fact_absent(struct fact_str *f, const char *source)
{
	fact_set_owned(f, NULL, source);
}

void
fact_unknown(struct fact_str *f, const char *fmt, ...)
{
	va_list ap;

	fact_reset(f);
	f->state = FACT_UNKNOWN;
	va_start(ap, fmt);
	f->why = xvasprintf(fmt, ap);
	va_end(ap);
}

void
fact_unreadable(struct fact_str *f, const char *fmt, ...)
{
	va_list ap;

	fact_reset(f);
	f->state = FACT_UNREADABLE;
	va_start(ap, fmt);
	f->why = xvasprintf(fmt, ap);
	va_end(ap);
}

bool
fact_known(const struct fact_str *f)
{
	return f->state == FACT_KNOWN && f->value != NULL;
}

void
fact_str_free(struct fact_str *f)
{
	fact_reset(f);
	f->state = FACT_UNKNOWN;
}

struct facts *
facts_new(const char *root, bool live_allowed)
{
	struct facts *f = xcalloc(1, sizeof *f);

	f->root = xstrdup(root);
	f->live_allowed = live_allowed;
	f->env.ld_library_path.name = "LD_LIBRARY_PATH";
	f->env.path.name = "PATH";
	f->env.ld_preload.name = "LD_PRELOAD";
	f->env.var[ENV_CUDA_HOME].name = "CUDA_HOME";
	f->env.var[ENV_CUDA_PATH].name = "CUDA_PATH";
	f->env.var[ENV_CUDA_VISIBLE_DEVICES].name = "CUDA_VISIBLE_DEVICES";
	f->env.var[ENV_CUDA_DEVICE_ORDER].name = "CUDA_DEVICE_ORDER";
	f->env.var[ENV_CONDA_PREFIX].name = "CONDA_PREFIX";
	f->env.var[ENV_VIRTUAL_ENV].name = "VIRTUAL_ENV";
	return f;
}

void
facts_note(struct facts *f, const char *path, const char *fmt, ...)
{
	struct probe_note *n;
	char *problem;
	va_list ap;

	if (f->notes.n >= FACTS_NOTES_MAX) {
		f->notes.dropped++;
		return;
	}
	va_start(ap, fmt);
	problem = xvasprintf(fmt, ap);
	va_end(ap);
	/* Several probes look into the same directory; one note says it. */
	for (size_t i = 0; i < f->notes.n; i++)
		if (strcmp(f->notes.v[i].path, path) == 0 &&
		    strcmp(f->notes.v[i].problem, problem) == 0) {
			free(problem);
			return;
		}
	n = VEC_PUSH(&f->notes);
	n->path = xstrdup(path);
	n->problem = problem;
}

struct toolkit_fact *
facts_toolkit_by_root(const struct facts *f, const char *root)
{
	for (size_t i = 0; i < f->toolkits.n; i++)
		if (strcmp(f->toolkits.v[i].root, root) == 0)
			return &f->toolkits.v[i];
	return NULL;
}

static void
path_var_free(struct path_var *pv)
{
	for (size_t i = 0; i < pv->entries.n; i++) {
		free(pv->entries.v[i].value);
		free(pv->entries.v[i].why);
	}
	FREE(&pv->entries.v);
	FREE(&pv->raw);
}

static void
driver_free(struct driver_facts *d)
{
	fact_str_free(&d->kernel_release);
	fact_str_free(&d->module_version);
	fact_str_free(&d->sys_module_version);
	fact_str_free(&d->max_cuda);
	fact_str_free(&d->compat_major);
	fact_str_free(&d->nvidia_loaded);
	fact_str_free(&d->nouveau_loaded);
	fact_str_free(&d->modules_for_running);
	for (size_t i = 0; i < d->libs.n; i++) {
		free(d->libs.v[i].path);
		free(d->libs.v[i].name);
		free(d->libs.v[i].version);
	}
	FREE(&d->libs.v);
	for (size_t i = 0; i < d->module_files.n; i++) {
		free(d->module_files.v[i].path);
		free(d->module_files.v[i].kernel);
		free(d->module_files.v[i].version);
	}
	FREE(&d->module_files.v);
	strv_free(&d->kernels);
	FREE(&d->colab_release);
	FREE(&d->container_env);
	FREE(&d->libcuda.path);
	FREE(&d->libcuda.version);
	FREE(&d->libcuda.compat_cuda);
	FREE(&d->libcuda.compat_source);
	FREE(&d->libcuda.compat_package);
	fact_str_free(&d->wsl_unversioned);
	for (size_t i = 0; i < d->dkms.n; i++) {
		free(d->dkms.v[i].module);
		free(d->dkms.v[i].version);
		free(d->dkms.v[i].kernel);
		free(d->dkms.v[i].path);
	}
	FREE(&d->dkms.v);
	fact_str_free(&d->boot_kernel);
	fact_str_free(&d->secure_boot);
	fact_str_free(&d->tainted);
	fact_str_free(&d->dkms_mok);
	fact_str_free(&d->mok_enrolled);
}

void
toolkit_fact_free(struct toolkit_fact *t)
{
	free(t->root);
	strv_free(&t->found_via);
	strv_free(&t->aliases);
	fact_str_free(&t->version);
	free(t->release);
	strv_free(&t->components);
	for (size_t i = 0; i < t->cudart.n; i++) {
		free(t->cudart.v[i].dir);
		free(t->cudart.v[i].soname);
		free(t->cudart.v[i].file);
	}
	free(t->cudart.v);
	free(t->stubs_dir);
	free(t->nvcc);
}

void
lib_fact_free(struct lib_fact *l)
{
	free(l->soname);
	free(l->resolved);
	free(l->target);
	free(l->error);
	for (size_t i = 0; i < l->steps.n; i++) {
		free(l->steps.v[i].dir);
		free(l->steps.v[i].spec);
		free(l->steps.v[i].owner);
		free(l->steps.v[i].path);
		free(l->steps.v[i].detail);
	}
	free(l->steps.v);
	for (size_t i = 0; i < l->copies.n; i++) {
		free(l->copies.v[i].path);
		free(l->copies.v[i].target);
		free(l->copies.v[i].soname);
		free(l->copies.v[i].problem);
	}
	free(l->copies.v);
	for (size_t i = 0; i < l->dangling.n; i++) {
		free(l->dangling.v[i].path);
		free(l->dangling.v[i].link);
	}
	free(l->dangling.v);
	free(l->elf_soname);
	strv_free(&l->elf_verdefs);
	free(l->elf_error);
	memset(l, 0, sizeof *l);
}

static void
cudnn_free(struct cudnn_fact *c)
{
	free(c->lib_dir);
	free(c->where);
	fact_str_free(&c->version);
	free(c->header);
	fact_str_free(&c->lib_version);
	free(c->soname);
	fact_str_free(&c->cuda_major);
	strv_free(&c->libraries);
}

void
facts_free(struct facts *f)
{
	if (f == NULL)
		return;
	free(f->root);
	fact_str_free(&f->host.name);
	fact_str_free(&f->host.machine_id);
	fact_str_free(&f->host.kernel);
	fact_str_free(&f->host.os);
	fact_str_free(&f->gpus_state);
	for (size_t i = 0; i < f->gpus.n; i++) {
		struct gpu_fact *g = &f->gpus.v[i];

		free(g->pci_address);
		fact_str_free(&g->kernel_driver);
		fact_str_free(&g->name);
		fact_str_free(&g->uuid);
		fact_str_free(&g->chip);
		fact_str_free(&g->arch);
		fact_str_free(&g->cc);
		fact_str_free(&g->legacy_branch);
		fact_str_free(&g->link_speed);
		fact_str_free(&g->link_width);
		fact_str_free(&g->max_link_speed);
		fact_str_free(&g->max_link_width);
	}
	free(f->gpus.v);
	fact_str_free(&f->kmsg_state);
	for (size_t i = 0; i < f->xids.n; i++) {
		free(f->xids.v[i].pci);
		free(f->xids.v[i].last);
	}
	free(f->xids.v);
	driver_free(&f->driver);
	for (size_t i = 0; i < f->toolkits.n; i++)
		toolkit_fact_free(&f->toolkits.v[i]);
	free(f->toolkits.v);
	for (size_t i = 0; i < f->cudnn.n; i++)
		cudnn_free(&f->cudnn.v[i]);
	free(f->cudnn.v);
	path_var_free(&f->env.ld_library_path);
	path_var_free(&f->env.path);
	path_var_free(&f->env.ld_preload);
	for (size_t i = 0; i < ENV_VAR_COUNT; i++) {
		free(f->env.var[i].value);
		free(f->env.var[i].why);
	}
	for (size_t i = 0; i < f->env.ldconf.n; i++) {
		free(f->env.ldconf.v[i].dir);
		free(f->env.ldconf.v[i].from);
	}
	free(f->env.ldconf.v);
	fact_str_free(&f->env.ldconf_state);
	for (size_t i = 0; i < f->libraries.n; i++)
		lib_fact_free(&f->libraries.v[i]);
	free(f->libraries.v);
	fact_str_free(&f->python_state);
	for (size_t i = 0; i < f->python_envs.n; i++)
		py_env_free(&f->python_envs.v[i]);
	free(f->python_envs.v);
	verify_facts_free(&f->verify);
	for (size_t i = 0; i < f->notes.n; i++) {
		free(f->notes.v[i].path);
		free(f->notes.v[i].problem);
	}
	free(f->notes.v);
	free(f);
}

bool
facts_driver_present(const struct facts *f)
{
	const struct driver_facts *d = &f->driver;

	if (fact_known(&d->nvidia_loaded) && strcmp(d->nvidia_loaded.value, "yes") == 0)
		return true;
	return d->is_wsl && d->wsl_lib_dir;
}

const struct lib_fact *
facts_library(const struct facts *f, const char *soname)
{
	for (size_t i = 0; i < f->libraries.n; i++)
		if (f->libraries.v[i].soname != NULL &&
		    strcmp(f->libraries.v[i].soname, soname) == 0)
			return &f->libraries.v[i];
	return NULL;
}
