/* A machine's spec from its facts; see spec.h. The items are what a
 * fleet admin compares between machines (issue 22): the driver branch and
 * module, the GPUs, the toolkits and which one is the default, cuDNN,
 * each environment's frameworks with their CUDA, and the variables that
 * steer the loader. Values are words a person reads in a finding ("580",
 * "12.4.1 13.0.1"), so two specs compare as strings. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "spec/spec.h"
#include "spec/specdiff.h"
#include "util/strbuf.h"
#include "util/utf8width.h"
#include "util/version.h"
#include "util/xalloc.h"

/* Sets items[key] = value, both mended to UTF-8 (paths and variables
 * can hold any bytes); nothing when value is NULL. */
static void
put(json_t *items, const char *key, const char *value)
{
	char *k, *v;

	if (value == NULL)
		return;
	k = utf8_mend(key, SIZE_MAX);
	v = utf8_mend(value, SIZE_MAX);
	json_object_set_new(items, k, json_string(v));
	free(k);
	free(v);
}

static void
put_owned(json_t *items, const char *key, char *value)
{
	put(items, key, value);
	free(value);
}

static const char *
known(const struct fact_str *f)
{
	return fact_known(f) ? f->value : NULL;
}

static int
cmp_version(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int c = version_cmp_str(x, y);

	return c != 0 ? c : strcmp(x, y);
}

/* The strings of sv sorted by version, each once, joined by sep; NULL
 * when sv is empty. */
static char *
join_versions(struct strv *sv, const char *sep)
{
	struct strbuf sb = STRBUF_INIT;

	if (sv->n == 0)
		return NULL;
	qsort(sv->v, sv->n, sizeof *sv->v, cmp_version);
	for (size_t i = 0; i < sv->n; i++) {
		if (i > 0 && strcmp(sv->v[i], sv->v[i - 1]) == 0)
			continue;
		if (i > 0)
			strbuf_puts(&sb, sep);
		strbuf_puts(&sb, sv->v[i]);
	}
	return strbuf_take(&sb);
}

static void
driver_items(const struct facts *f, json_t *items)
{
	const struct driver_facts *d = &f->driver;
	const char *source, *drv = diagnose_driver_version(f, &source);
	const char *mod = known(&d->module_version);

	for (size_t i = 0; i < d->libs.n; i++) {
		const struct driver_lib *l = &d->libs.v[i];

		if (!l->wsl && l->version != NULL &&
		    strcmp(l->name, "libcuda") == 0) {
			put(items, "driver.version", l->version);
			break;
		}
	}
	if (drv != NULL)
		put_owned(items, "driver.branch",
		    xstrndup(drv, strcspn(drv, ".")));
	put(items, "driver.module", mod != NULL ? mod :
	    known(&d->sys_module_version));
	put(items, "driver.max_cuda", known(&d->max_cuda));
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "NVIDIA H100 80GB HBM3 (9.0) x8; NVIDIA L4 (8.9) x1". */
static void
gpu_items(const struct facts *f, json_t *items)
{
	struct strv models = STRV_INIT;
	struct strbuf sb = STRBUF_INIT;
	size_t run = 0;

	if (!fact_known(&f->gpus_state) && f->gpus.n == 0)
		return;
	put_owned(items, "gpu.count", xasprintf("%zu", f->gpus.n));
	for (size_t i = 0; i < f->gpus.n; i++) {
		const struct gpu_fact *g = &f->gpus.v[i];
		char *name = known(&g->name) != NULL ? xstrdup(g->name.value) :
		    xasprintf("PCI %04x:%04x", g->vendor_id, g->device_id);

		if (known(&g->cc) != NULL)
			strv_push_owned(&models, xasprintf("%s (%s)", name,
			    g->cc.value));
		else
			strv_push(&models, name);
		free(name);
	}
	/* qsort's base may not be NULL, which it is with no GPU. */
	if (models.n > 1)
		qsort(models.v, models.n, sizeof *models.v, cmp_str);
	for (size_t i = 0; i < models.n; i++) {
		run++;
		if (i + 1 < models.n && strcmp(models.v[i], models.v[i + 1]) == 0)
			continue;
		strbuf_printf(&sb, "%s%s x%zu", sb.len > 0 ? "; " : "",
		    models.v[i], run);
		run = 0;
	}
	if (models.n > 0)
		put(items, "gpu.models", strbuf_str(&sb));
	strbuf_free(&sb);
	strv_free(&models);
}

/* The toolkit a build picks: nvcc on PATH, else CUDA_HOME, else the one
 * /usr/local/cuda names. */
static const struct toolkit_fact *
default_toolkit(const struct facts *f)
{
	static const char *const via[] = { "PATH", "CUDA_HOME" };

	for (size_t v = 0; v < sizeof via / sizeof via[0]; v++)
		for (size_t i = 0; i < f->toolkits.n; i++)
			if (strv_contains(&f->toolkits.v[i].found_via, via[v]))
				return &f->toolkits.v[i];
	for (size_t i = 0; i < f->toolkits.n; i++)
		if (strv_contains(&f->toolkits.v[i].aliases, "/usr/local/cuda") ||
		    strcmp(f->toolkits.v[i].root, "/usr/local/cuda") == 0)
			return &f->toolkits.v[i];
	return NULL;
}

static const char *
toolkit_release(const struct toolkit_fact *t)
{
	return t->release != NULL ? t->release : known(&t->version);
}

static void
toolkit_items(const struct facts *f, json_t *items)
{
	const struct toolkit_fact *def = default_toolkit(f);
	struct strv sv = STRV_INIT;

	for (size_t i = 0; i < f->toolkits.n; i++)
		if (toolkit_release(&f->toolkits.v[i]) != NULL)
			strv_push(&sv, toolkit_release(&f->toolkits.v[i]));
	put_owned(items, "toolkit.versions", join_versions(&sv, " "));
	strv_free(&sv);
	if (def != NULL)
		put(items, "toolkit.default", toolkit_release(def));
	for (size_t i = 0; i < f->cudnn.n; i++) {
		const struct cudnn_fact *c = &f->cudnn.v[i];
		const char *v = known(&c->version) != NULL ? c->version.value :
		    known(&c->lib_version);

		if (v != NULL)
			strv_push(&sv, v);
	}
	put_owned(items, "cudnn.versions", join_versions(&sv, " "));
	strv_free(&sv);
}

/* "2.3.1 cuda 12.1", "2.3.1 cpu": the release without its local part
 * ("+cu121" says again what the CUDA word says). */
static void
framework_items(const struct facts *f, json_t *items)
{
	for (size_t e = 0; e < f->python_envs.n; e++) {
		const struct py_env *env = &f->python_envs.v[e];

		for (size_t i = 0; i < env->frameworks.n; i++) {
			const struct framework_fact *fw = &env->frameworks.v[i];
			const char *name = fw->package != NULL ? fw->package :
			    fw->name;
			char *key, *ver;

			if (fw->version == NULL || name == NULL)
				continue;
			key = xasprintf("framework.%s.%s", env->prefix, name);
			ver = xstrndup(fw->version, strcspn(fw->version, "+"));
			if (fw->gpu == FW_GPU_NO)
				put_owned(items, key, xasprintf("%s cpu", ver));
			else if (fw->cuda != NULL)
				put_owned(items, key, xasprintf("%s cuda %s", ver,
				    fw->cuda));
			else
				put(items, key, ver);
			free(ver);
			free(key);
		}
	}
}

static void
put_var(json_t *items, const char *name, bool set, const char *value)
{
	char *key;

	if (!set)
		return;
	key = xasprintf("env.%s", name);
	put(items, key, value != NULL ? value : "");
	free(key);
}

static void
env_items(const struct facts *f, json_t *items)
{
	const struct env_facts *e = &f->env;
	const struct env_var *v = e->var;

	put_var(items, "CUDA_HOME", v[ENV_CUDA_HOME].set, v[ENV_CUDA_HOME].value);
	put_var(items, "CUDA_PATH", v[ENV_CUDA_PATH].set, v[ENV_CUDA_PATH].value);
	put_var(items, "LD_LIBRARY_PATH", e->ld_library_path.set,
	    e->ld_library_path.raw);
	put_var(items, "CUDA_VISIBLE_DEVICES", v[ENV_CUDA_VISIBLE_DEVICES].set,
	    v[ENV_CUDA_VISIBLE_DEVICES].value);
	put_var(items, "LD_PRELOAD", e->ld_preload.set, e->ld_preload.raw);
}

json_t *
spec_items_build(const struct facts *f)
{
	json_t *items = json_object();

	driver_items(f, items);
	gpu_items(f, items);
	toolkit_items(f, items);
	framework_items(f, items);
	env_items(f, items);
	return items;
}

static json_t *
jknown(const struct fact_str *f)
{
	/* The probe mended the host's strings already. */
	return fact_known(f) ? json_string(f->value) : json_null();
}

json_t *
spec_host_json(const struct facts *f, time_t now)
{
	const struct host_facts *h = &f->host;
	json_t *o = json_object();
	char when[32] = "";
	struct tm tm;

	if (gmtime_r(&now, &tm) != NULL)
		strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(o, "name", jknown(&h->name));
	json_object_set_new(o, "machine_id", jknown(&h->machine_id));
	json_object_set_new(o, "kernel", jknown(&h->kernel));
	json_object_set_new(o, "os", jknown(&h->os));
	json_object_set_new(o, "time", when[0] != '\0' ? json_string(when) :
	    json_null());
	json_object_set_new(o, "time_unix", json_integer((json_int_t)now));
	return o;
}

json_t *
spec_json(const struct facts *f, time_t now, bool with_host)
{
	json_t *o = json_object();

	json_object_set_new(o, "schema", json_string(SPEC_SCHEMA));
	if (with_host)
		json_object_set_new(o, "host", spec_host_json(f, now));
	json_object_set_new(o, "items", spec_items_build(f));
	return o;
}
