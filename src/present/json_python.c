/* The "python_envs" part of the doctor document: every environment, the
 * packages cudawiz cares about in it (all are counted), and each
 * framework with what it needs from the loader and what it gets.
 *
 * Absent strings are null, lists are always arrays, so a script can
 * index without checking; the field names are a contract (design.md). */
#include "config.h"

#include <jansson.h>

#include "loader/resolve.h"
#include "present/json.h"

static void
put(json_t *obj, const char *key, json_t *val)
{
	json_object_set_new(obj, key, val != NULL ? val : json_null());
}

static json_t *
package_json(const struct py_package *p)
{
	json_t *o = json_object();

	put(o, "name", jstr(p->name));
	put(o, "version", jstr(p->version));
	put(o, "source", json_string(pypkg_source_name(p->source)));
	put(o, "path", jstr(p->path));
	put(o, "site", jstr(p->site));
	put(o, "build", jstr(p->build));
	put(o, "channel", jstr(p->channel));
	put(o, "requires", jstrv(&p->requires));
	put(o, "extras", jstrv(&p->extras));
	put(o, "metadata_error", jstr(p->metadata_error));
	return o;
}

static json_t *
need_json(const struct fw_need *n)
{
	const struct lib_fact *l = n->lib;
	json_t *o = json_object(), *steps = json_array(), *others = json_array();

	put(o, "soname", jstr(n->soname));
	put(o, "how", json_string(fw_need_how_name(n->how)));
	put(o, "from", json_string(fw_need_from_name(n->from)));
	put(o, "requester", jstr(n->requester));
	put(o, "expected_dir", jstr(n->expected_dir));
	put(o, "expected_package", jstr(n->expected_pkg));
	put(o, "optional", json_boolean(n->optional));
	put(o, "resolved", jstr(l != NULL ? l->resolved : NULL));
	put(o, "via", jstr(l != NULL ? step_words(l->via, STEPW_FACT) : NULL));
	put(o, "target", jstr(l != NULL ? l->target : NULL));
	put(o, "error", jstr(l != NULL ? l->error : NULL));
	put(o, "shadowed_via", jstr(step_words(n->shadowed_via, STEPW_FACT)));
	for (size_t i = 0; l != NULL && i < l->steps.n; i++)
		json_array_append_new(steps, json_step(&l->steps.v[i]));
	put(o, "steps", steps);
	for (size_t i = 0; l != NULL && i < l->copies.n; i++)
		json_array_append_new(others, jstr(l->copies.v[i].path));
	put(o, "other_copies", others);
	return o;
}

static json_t *
framework_json(const struct framework_fact *fw)
{
	json_t *o = json_object(), *needs = json_array(), *archs = json_object();

	put(o, "name", jstr(fw->name));
	put(o, "package", jstr(fw->package));
	put(o, "version", jstr(fw->version));
	put(o, "variant", jstr(fw->variant));
	put(o, "dir", jstr(fw->dir));
	put(o, "gpu", json_string(fw_gpu_name(fw->gpu)));
	put(o, "gpu_why", jstr(fw->gpu_why));
	put(o, "cuda", jstr(fw->cuda));
	put(o, "cuda_source", jstr(fw->cuda_source));
	put(o, "cudnn", jstr(fw->cudnn));
	put(o, "cudnn_source", jstr(fw->cudnn_source));
	put(o, "gpu_through", jstr(fw->gpu_through));
	put(o, "loads", json_boolean(framework_loads(fw)));
	put(o, "gpu_ready", json_boolean(framework_gpu_ready(fw)));
	for (size_t i = 0; i < fw->needs.n; i++)
		json_array_append_new(needs, need_json(&fw->needs.v[i]));
	put(o, "needs", needs);
	put(archs, "read", json_boolean(fw->archs.read));
	put(archs, "source", jstr(fw->archs.source));
	put(archs, "sass", jstrv(&fw->archs.sass));
	put(archs, "ptx", jstrv(&fw->archs.ptx));
	put(archs, "error", jstr(fw->archs.error));
	put(o, "archs", archs);
	return o;
}

/* A CUDA library the env's lib/ holds and the conda package it came
 * from (null when no record of the env is named for it). */
static json_t *
cudalib_json(const struct py_cudalib *l)
{
	json_t *o = json_object();

	put(o, "name", jstr(l->name));
	put(o, "soname", jstr(l->soname));
	put(o, "path", jstr(l->path));
	put(o, "version", jstr(l->version));
	put(o, "package", jstr(l->package));
	put(o, "package_version", jstr(l->package_version));
	return o;
}

static json_t *
env_json(const struct py_env *e)
{
	json_t *o = json_object(), *pkgs = json_array(), *fws = json_array();
	json_t *libs = json_array();

	put(o, "prefix", jstr(e->prefix));
	put(o, "kind", json_string(pyenv_kind_name(e->kind)));
	put(o, "name", jstr(e->name));
	put(o, "active", json_boolean(e->active));
	put(o, "found_via", jstrv(&e->found_via));
	put(o, "python", jstr(e->python));
	put(o, "python_version", jstr(e->python_version));
	put(o, "base_prefix", jstr(e->base_prefix));
	put(o, "system_site_packages", json_boolean(e->system_site));
	put(o, "site_packages", jstrv(&e->site_dirs));
	put(o, "lib_dir", jstr(e->lib_dir));
	put(o, "package_count", json_integer((json_int_t)e->packages.n));
	for (size_t i = 0; i < e->cuda_libs.n; i++)
		json_array_append_new(libs, cudalib_json(&e->cuda_libs.v[i]));
	put(o, "cuda_libs", libs);
	for (size_t i = 0; i < e->packages.n; i++)
		if (e->packages.v[i].cared_about)
			json_array_append_new(pkgs,
			    package_json(&e->packages.v[i]));
	put(o, "packages", pkgs);
	for (size_t i = 0; i < e->frameworks.n; i++)
		json_array_append_new(fws, framework_json(&e->frameworks.v[i]));
	put(o, "frameworks", fws);
	return o;
}

json_t *
python_envs_json(const struct facts *f)
{
	json_t *a;

	/* Not looked for: null, so nobody reads "none found" into it. */
	if (f->python_state.state != FACT_KNOWN)
		return json_null();
	a = json_array();
	for (size_t i = 0; i < f->python_envs.n; i++)
		json_array_append_new(a, env_json(&f->python_envs.v[i]));
	return a;
}
