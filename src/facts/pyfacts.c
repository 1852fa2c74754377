/* Destructors and names for the Python facts; see pyfacts.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "facts/facts.h"
#include "util/version.h"
#include "util/xalloc.h"

void
py_package_free(struct py_package *p)
{
	free(p->name);
	free(p->version);
	free(p->path);
	free(p->build);
	free(p->channel);
	strv_free(&p->requires);
	strv_free(&p->extras);
	free(p->metadata_error);
	memset(p, 0, sizeof *p);
}

void
fw_need_free(struct fw_need *n)
{
	free(n->soname);
	free(n->requester);
	free(n->expected_dir);
	free(n->expected_pkg);
	if (n->lib != NULL) {
		lib_fact_free(n->lib);
		free(n->lib);
	}
	memset(n, 0, sizeof *n);
}

void
framework_fact_free(struct framework_fact *fw)
{
	free(fw->name);
	free(fw->package);
	free(fw->version);
	free(fw->variant);
	free(fw->dir);
	free(fw->gpu_why);
	free(fw->cuda);
	free(fw->cuda_source);
	free(fw->cudnn);
	free(fw->cudnn_source);
	free(fw->gpu_through);
	for (size_t i = 0; i < fw->needs.n; i++)
		fw_need_free(&fw->needs.v[i]);
	free(fw->needs.v);
	free(fw->archs.source);
	strv_free(&fw->archs.sass);
	strv_free(&fw->archs.ptx);
	free(fw->archs.error);
	memset(fw, 0, sizeof *fw);
}

void
py_env_free(struct py_env *e)
{
	free(e->prefix);
	free(e->name);
	strv_free(&e->found_via);
	free(e->python);
	free(e->python_version);
	free(e->base_prefix);
	strv_free(&e->site_dirs);
	free(e->lib_dir);
	for (size_t i = 0; i < e->packages.n; i++)
		py_package_free(&e->packages.v[i]);
	free(e->packages.v);
	for (size_t i = 0; i < e->frameworks.n; i++)
		framework_fact_free(&e->frameworks.v[i]);
	free(e->frameworks.v);
	for (size_t i = 0; i < e->cuda_libs.n; i++) {
		free(e->cuda_libs.v[i].name);
		free(e->cuda_libs.v[i].soname);
		free(e->cuda_libs.v[i].path);
		free(e->cuda_libs.v[i].version);
		free(e->cuda_libs.v[i].package);
		free(e->cuda_libs.v[i].package_version);
	}
	free(e->cuda_libs.v);
	memset(e, 0, sizeof *e);
}

const char *
pyenv_kind_name(enum pyenv_kind k)
{
	switch (k) {
	case PYENV_CONDA:	return "conda";
	case PYENV_VENV:	return "venv";
	case PYENV_PYENV:	return "pyenv";
	case PYENV_SYSTEM:	return "system";
	case PYENV_USER:	return "user";
	}
	return "unknown";
}

const char *
pypkg_source_name(enum pypkg_source s)
{
	switch (s) {
	case PYPKG_DIST_INFO:	return "dist-info";
	case PYPKG_EGG_INFO:	return "egg-info";
	case PYPKG_CONDA:	return "conda";
	}
	return "unknown";
}

const char *
fw_need_how_name(enum fw_need_how h)
{
	return h == FW_NEED_DLOPEN ? "dlopen" : "linked";
}

const char *
fw_need_from_name(enum fw_need_from f)
{
	switch (f) {
	case FW_FROM_ANY:	return "any";
	case FW_FROM_WHEEL:	return "wheel";
	case FW_FROM_BUNDLED:	return "bundled";
	case FW_FROM_CONDA:	return "conda";
	}
	return "unknown";
}

const char *
fw_gpu_name(enum fw_gpu g)
{
	switch (g) {
	case FW_GPU_YES:	return "yes";
	case FW_GPU_NO:		return "no";
	case FW_GPU_UNKNOWN:	break;
	}
	return "unknown";
}

const struct py_package *
py_env_package(const struct py_env *e, const char *name)
{
	for (size_t i = 0; i < e->packages.n; i++)
		if (pkg_name_eq(e->packages.v[i].name, name))
			return &e->packages.v[i];
	return NULL;
}

bool
framework_loads(const struct framework_fact *fw)
{
	for (size_t i = 0; i < fw->needs.n; i++) {
		const struct fw_need *n = &fw->needs.v[i];

		if (!n->optional && (n->lib == NULL || n->lib->resolved == NULL))
			return false;
	}
	return true;
}

bool
framework_gpu_ready(const struct framework_fact *fw)
{
	if (fw->gpu != FW_GPU_YES || !framework_loads(fw))
		return false;
	for (size_t i = 0; i < fw->needs.n; i++)
		if (fw->needs.v[i].shadowed_via != STEP_NONE)
			return false;
	return true;
}
