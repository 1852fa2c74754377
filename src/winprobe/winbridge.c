/* The Windows facts in the shared model; see winbridge.h. */
#include "config.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "facts/facts.h"
#include "i18n.h"
#include "util/strv.h"
#include "util/utf8width.h"
#include "util/xalloc.h"
#include "verify/verify.h"
#include "winload/winname.h"
#include "winprobe/winbridge.h"
#include "winprobe/winprobe.h"

/* Bytes of the host's name kept (Linux's HOST_NAME_MAX; a Windows
 * computer name has at most 15 characters). */
#define HOST_CAP	64

/* The value of name in envp (without case, as Windows matches), or NULL. */
static const char *
env_get(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; envp != NULL && envp[i] != NULL; i++)
		if (winname_eqn(envp[i], n, name) && envp[i][n] == '=')
			return envp[i] + n + 1;
	return NULL;
}

static char *
winpath(const struct win_facts *wf, const char *tree)
{
	return tree != NULL ? winname_windows_path(wf->drive, tree) : NULL;
}

static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/'), *b = strrchr(path, '\\');

	if (b != NULL && (s == NULL || b > s))
		s = b;
	return s != NULL ? s + 1 : path;
}

/* Linux's facts a Windows machine does not have. */
static void
not_windows(struct fact_str *f)
{
	fact_unknown(f, "%s", _("not on Windows"));
}

/* ------------------------------------------------------------------ host */

static void
bridge_host(struct facts *f, char *const *envp, const char *os)
{
	const char *name = env_get(envp, "COMPUTERNAME");

	/* Mended and cut as Linux's host probe does: the presenters take
	 * the host's strings as they are. */
	if (name != NULL && *name != '\0')
		fact_set_owned(&f->host.name, utf8_mend(name, HOST_CAP),
		    "COMPUTERNAME");
	else
		fact_unknown(&f->host.name, "%s", _("COMPUTERNAME is not set"));
	/* Windows has a MachineGuid, but publishing even its hash is the
	 * registry read's business, which this build does not do. */
	not_windows(&f->host.machine_id);
	not_windows(&f->host.kernel);
	fact_set_owned(&f->host.os, utf8_mend(os != NULL ? os : "Windows",
	    HOST_CAP * 4), os != NULL ? "registry" : NULL);
}

/* ------------------------------------------------------------------ GPUs */

static void
bridge_gpus(struct facts *f, const struct win_facts *wf)
{
	if (!wf->gpus_read) {
		fact_unknown(&f->gpus_state, "%s", _("the registry's display "
		    "adapters could not be read"));
		return;
	}
	fact_set(&f->gpus_state, "registry", "registry");
	for (size_t i = 0; i < wf->gpus.n; i++) {
		const struct win_gpu *w = &wf->gpus.v[i];
		struct gpu_fact *g;

		if (w->vendor != WIN_PCI_VENDOR_NVIDIA)
			continue;
		g = VEC_PUSH(&f->gpus);
		g->vendor_id = w->vendor;
		g->device_id = w->device;
		g->class_code = 0x030000;
		if (w->name != NULL)
			fact_set(&g->name, w->name, "registry: DriverDesc");
		else
			fact_absent(&g->name, "registry: DriverDesc");
		not_windows(&g->kernel_driver);
		not_windows(&g->uuid);
		not_windows(&g->legacy_branch);
		not_windows(&g->link_speed);
		not_windows(&g->link_width);
		not_windows(&g->max_link_speed);
		not_windows(&g->max_link_width);
	}
}

/* ---------------------------------------------------------------- driver */

static void
push_lib(struct driver_facts *d, const struct win_facts *wf,
    const struct win_dll *dll, const char *name, const char *version)
{
	struct driver_lib *l = VEC_PUSH(&d->libs);

	l->path = winpath(wf, dll->path);
	l->name = xstrdup(name);
	l->version = version != NULL ? xstrdup(version) : NULL;
}

static void
bridge_driver(struct facts *f, const struct win_facts *wf)
{
	struct driver_facts *d = &f->driver;
	const struct win_driver *w = &wf->driver;
	char ver[32];

	/* The adapter's DriverVersion is the kernel-mode driver's, as the
	 * module's version is on Linux. */
	for (size_t i = 0; i < wf->gpus.n; i++)
		if (wf->gpus.v[i].vendor == WIN_PCI_VENDOR_NVIDIA &&
		    wf->gpus.v[i].version != NULL) {
			fact_set(&d->module_version, wf->gpus.v[i].version,
			    "registry: DriverVersion");
			break;
		}
	if (!fact_known(&d->module_version))
		fact_unknown(&d->module_version, "%s", _("no NVIDIA display "
		    "adapter in the registry gives a driver version"));
	not_windows(&d->sys_module_version);
	not_windows(&d->kernel_release);
	not_windows(&d->nvidia_loaded);
	not_windows(&d->nouveau_loaded);
	not_windows(&d->modules_for_running);
	not_windows(&d->boot_kernel);
	not_windows(&d->secure_boot);
	not_windows(&d->tainted);
	not_windows(&d->dkms_mok);
	not_windows(&d->mok_enrolled);
	not_windows(&d->wsl_unversioned);
	/* nvcuda.dll is what libcuda is on Linux: the userspace driver
	 * every CUDA program loads. */
	if (w->state == WIN_NVCUDA_NVIDIA)
		push_lib(d, wf, &w->nvcuda, "libcuda", w->version);
	if (w->nvml.path != NULL)
		push_lib(d, wf, &w->nvml, "libnvidia-ml",
		    w->nvml.file_version != NULL &&
		    winprobe_driver_version(w->nvml.file_version, ver,
		    sizeof ver) ? ver : NULL);
}

/* -------------------------------------------------------------- toolkits */

/* The index of the PATH entry naming dir (a Windows path) or its bin,
 * without case and trailing backslash; -1: none. */
static long
path_index_of(const struct strv *path, const char *dir)
{
	size_t n = strlen(dir);

	for (size_t i = 0; i < path->n; i++) {
		const char *e = path->v[i];
		size_t m = strlen(e);

		while (m > 0 && (e[m - 1] == '\\' || e[m - 1] == '/'))
			m--;
		if (m == n + 4 && winname_eqn(e, n, dir) &&
		    (e[n] == '\\' || e[n] == '/') &&
		    winname_eqn(e + n + 1, 3, "bin"))
			return (long)i;
	}
	return -1;
}

static void
bridge_toolkits(struct facts *f, const struct win_facts *wf,
    const struct strv *path)
{
	long best = -1, best_at = -1;

	for (size_t i = 0; i < wf->toolkits.n; i++) {
		const struct win_toolkit *w = &wf->toolkits.v[i];
		struct toolkit_fact *t = VEC_PUSH(&f->toolkits);
		long at;

		t->root = winpath(wf, w->dir);
		t->layout = TOOLKIT_LAYOUT_INSTALL;
		if (w->json_version != NULL) {
			fact_set(&t->version, w->json_version, "version.json");
			t->release = xstrdup(w->json_version);
		} else if (w->dir_version != NULL) {
			fact_set(&t->version, w->dir_version, t->root);
			t->release = xstrdup(w->dir_version);
		} else {
			fact_unknown(&t->version, "%s", w->json_error != NULL ?
			    w->json_error : _("neither version.json nor the "
			    "directory's name gives it"));
		}
		if (!w->from_env)
			strv_push(&t->found_via, "Program Files");
		for (size_t v = 0; v < wf->cudavars.n; v++)
			if (wf->cudavars.v[v].toolkit == (long)i)
				strv_push(&t->found_via, wf->cudavars.v[v].name);
		if (w->cudart.path != NULL) {
			struct cudart_dir *c = VEC_PUSH(&t->cudart);
			char *dll = winpath(wf, w->cudart.path);

			c->dir = base_name(dll) > dll ? xstrndup(dll,
			    (size_t)(base_name(dll) - dll - 1)) : xstrdup("");
			c->soname = xstrdup(base_name(dll));
			c->file = xstrdup(c->soname);
			if (w->cudart.product_version != NULL)
				strv_pushf(&t->components, "cudart %s",
				    w->cudart.product_version);
			free(dll);
		}
		at = path_index_of(path, t->root);
		if (at >= 0 && (best_at < 0 || at < best_at)) {
			best = (long)i;
			best_at = at;
		}
	}
	/* The bin first on PATH is the nvcc a build runs: the default
	 * toolkit, as nvcc on PATH is on Linux. */
	if (best >= 0)
		strv_push(&f->toolkits.v[best].found_via, "PATH");
}

/* ----------------------------------------------------------------- cuDNN */

static void
bridge_cudnn(struct facts *f, const struct win_facts *wf)
{
	for (size_t i = 0; i < wf->cudnn.n; i++) {
		const struct win_cudnn *w = &wf->cudnn.v[i];
		struct cudnn_fact *c = VEC_PUSH(&f->cudnn);

		c->lib_dir = winpath(wf, w->dir);
		c->where = xstrdup(win_cudnn_where_name(w->where));
		if (w->header_version != NULL) {
			c->header = winpath(wf, w->header_path);
			fact_set(&c->version, w->header_version, c->header);
		} else {
			fact_absent(&c->version, NULL);
		}
		if (w->dll.path != NULL) {
			const char *name = base_name(w->dll.path);
			/* cudnn64_8.dll: the major its name carries. */
			const char *u = strrchr(name, '_');

			c->soname = xstrdup(name);
			strv_push(&c->libraries, name);
			if (w->dll.file_version != NULL)
				fact_set(&c->lib_version, w->dll.file_version,
				    name);
			else if (u != NULL && isdigit((unsigned char)u[1]))
				fact_set_owned(&c->lib_version, xstrndup(u + 1,
				    strspn(u + 1, "0123456789")), name);
			else
				fact_absent(&c->lib_version, name);
		} else {
			fact_absent(&c->lib_version, NULL);
		}
		for (size_t j = 0; j < w->parts.n; j++)
			strv_push(&c->libraries, w->parts.v[j]);
		not_windows(&c->cuda_major);
	}
}

/* ----------------------------------------------------------- environment */

static void
bridge_env(struct facts *f, char *const *envp, struct strv *path)
{
	struct env_facts *e = &f->env;
	const char *raw = env_get(envp, "PATH");

	e->path.set = raw != NULL;
	if (raw != NULL) {
		e->path.raw = xstrdup(raw);
		strv_split(path, raw, ";");
	}
	for (size_t i = 0; i < path->n && i < WINFACTS_PATH_MAX; i++) {
		struct path_entry *p = VEC_PUSH(&e->path.entries);

		p->value = xstrdup(path->v[i]);
		p->empty = path->v[i][0] == '\0';
		p->exists = -1;
		/* The probe looks into the directories it needs, not at
		 * every entry. */
		p->why = xstrdup(_("not looked at on Windows"));
		p->duplicate_of = -1;
		for (size_t j = 0; j < i; j++)
			if (!p->empty && winname_eq(path->v[i], path->v[j])) {
				p->duplicate_of = (long)j;
				break;
			}
	}
	for (int v = 0; v < ENV_VAR_COUNT; v++) {
		const char *val = env_get(envp, e->var[v].name);

		e->var[v].set = val != NULL;
		e->var[v].value = val != NULL ? xstrdup(val) : NULL;
		e->var[v].exists = -1;
	}
	fact_unknown(&e->ldconf_state, "%s", _("not on Windows"));
}

/* --------------------------------------------------------------- Pythons */

char *
winbridge_tf_cuda(const char *v)
{
	size_t n;

	if (v == NULL)
		return NULL;
	if (strncmp(v, "64_", 3) == 0) {
		v += 3;
		n = strlen(v);
		/* "112" -> "11.2", "118" -> "11.8", "120" -> "12.0". */
		if (n < 2 || n > 3 || strspn(v, "0123456789") != n)
			return NULL;
		return xasprintf("%.*s.%s", (int)(n - 1), v, v + n - 1);
	}
	return strspn(v, "0123456789.") == strlen(v) && isdigit((unsigned char)*v) ?
	    xstrdup(v) : NULL;
}

static enum pyenv_kind
env_kind(enum win_python_kind k)
{
	switch (k) {
	case WIN_PY_CONDA:
	case WIN_PY_CONDA_ENV:	return PYENV_CONDA;
	case WIN_PY_VENV:	return PYENV_VENV;
	case WIN_PY_PYTHON_ORG:
	case WIN_PY_PATH:
	case WIN_PY_REGISTRY:	break;
	}
	return PYENV_SYSTEM;
}

static void
bridge_need(struct framework_fact *fw, const struct win_need *w)
{
	struct fw_need *n = VEC_PUSH(&fw->needs);

	n->soname = xstrdup(w->dll);
	n->how = w->how == WIN_LOAD_BY_NAME ? FW_NEED_DLOPEN : FW_NEED_LINKED;
	n->from = w->how == WIN_LOAD_TORCH_LIB ? FW_FROM_BUNDLED : FW_FROM_ANY;
	n->requester = w->importer != NULL ? xstrdup(w->importer) : NULL;
	n->lib = xcalloc(1, sizeof *n->lib);
	n->lib->soname = xstrdup(w->dll);
	if (w->got.path != NULL)
		n->lib->resolved = xstrdup(w->got.path);
	else
		n->lib->error = xasprintf("LoadLibrary error %u", w->got.error);
}

static void
bridge_framework(struct framework_fact *fw, const struct win_framework *w,
    const char *site)
{
	bool torch = strcmp(w->name, "torch") == 0;
	const char *plus = w->version != NULL ? strchr(w->version, '+') : NULL;

	fw->name = xstrdup(torch ? "pytorch" : w->name);
	fw->package = xstrdup(w->name);
	fw->version = w->version != NULL ? xstrdup(w->version) : NULL;
	fw->variant = plus != NULL ? xstrdup(plus + 1) : NULL;
	fw->dir = site != NULL ? xasprintf("%s\\%s", site, w->name) : NULL;
	fw->cuda = torch ? (w->cuda_version != NULL ?
	    xstrdup(w->cuda_version) : NULL) : winbridge_tf_cuda(w->cuda_version);
	if (fw->cuda != NULL) {
		fw->gpu = FW_GPU_YES;
		fw->cuda_source = xstrdup(torch ? "torch/version.py" :
		    "tensorflow/python/platform/build_info.py");
		fw->gpu_why = xstrdup(fw->cuda_source);
	} else if (fw->variant != NULL && strcmp(fw->variant, "cpu") == 0) {
		fw->gpu = FW_GPU_NO;
		fw->gpu_why = xstrdup(w->version);
	}
	/* TensorFlow's "64_8" is cudnn64_8.dll's major. */
	if (w->cudnn_version != NULL) {
		const char *c = strncmp(w->cudnn_version, "64_", 3) == 0 ?
		    w->cudnn_version + 3 : w->cudnn_version;

		fw->cudnn = xstrdup(c);
		fw->cudnn_source = xstrdup("tensorflow/python/platform/build_info.py");
	}
	for (size_t i = 0; i < w->needs.n; i++)
		bridge_need(fw, &w->needs.v[i]);
}

/* The Python a bare "python" runs: the one VIRTUAL_ENV or CONDA_PREFIX
 * names, else the one first on PATH. */
static long
active_python(const struct win_facts *wf, const struct facts *f)
{
	const struct env_var *v = f->env.var;
	long best = -1;

	for (size_t i = 0; i < f->python_envs.n; i++) {
		const char *p = f->python_envs.v[i].prefix;

		if ((v[ENV_VIRTUAL_ENV].set && winname_eq(p,
		    v[ENV_VIRTUAL_ENV].value)) || (v[ENV_CONDA_PREFIX].set &&
		    winname_eq(p, v[ENV_CONDA_PREFIX].value)))
			return (long)i;
	}
	for (size_t i = 0; i < wf->pythons.n; i++) {
		long at = wf->pythons.v[i].path_index;

		if (at >= 0 && (best < 0 || at < wf->pythons.v[best].path_index))
			best = (long)i;
	}
	return best;
}

static void
bridge_pythons(struct facts *f, const struct win_facts *wf)
{
	long active;

	fact_set(&f->python_state, "Windows probe", NULL);
	for (size_t i = 0; i < wf->pythons.n; i++) {
		const struct win_python *w = &wf->pythons.v[i];
		struct py_env *e = VEC_PUSH(&f->python_envs);
		char *site = winpath(wf, w->site_packages);

		e->prefix = winpath(wf, w->dir);
		e->kind = env_kind(w->kind);
		e->name = xstrdup(base_name(e->prefix));
		strv_push(&e->found_via, win_python_kind_name(w->kind));
		e->python = winpath(wf, w->exe);
		e->python_version = w->version != NULL ? xstrdup(w->version) : NULL;
		e->base_prefix = w->home != NULL ? xstrdup(w->home) : NULL;
		if (site != NULL)
			strv_push(&e->site_dirs, site);
		for (size_t j = 0; j < w->frameworks.n; j++)
			bridge_framework(VEC_PUSH(&e->frameworks),
			    &w->frameworks.v[j], site);
		free(site);
	}
	if ((active = active_python(wf, f)) >= 0)
		f->python_envs.v[active].active = true;
}

/* ---------------------------------------------------------------- verify */

static enum verify_kind
verify_kind_of(enum wv_kind k)
{
	switch (k) {
	case WV_RUNTIME:
		return VERIFY_RUNTIME;
	case WV_CUDNN:
		return VERIFY_CUDNN;
	case WV_DRIVER:
		break;
	}
	return VERIFY_DRIVER;
}

static void
bridge_outcome(struct verify_run *v, const struct wv_run *w)
{
	switch (w->how) {
	case WV_WORKS:
	case WV_FAILED:
		/* Both reached their end record; the records say what
		 * failed, as Linux's do. */
		v->outcome = VERIFY_DONE;
		v->exit_status = (int)w->code;
		break;
	case WV_CRASHED:
		v->outcome = VERIFY_SIGNALLED;
		break;
	case WV_EXITED:
		v->outcome = VERIFY_EXITED;
		v->exit_status = (int)w->code;
		break;
	case WV_TIMEOUT:
		v->outcome = VERIFY_TIMED_OUT;
		break;
	case WV_NOSTART:
		v->outcome = VERIFY_NOT_STARTED;
		v->start_error = xasprintf(_("could not start the helper "
		    "(Windows error %lu)"), w->code);
		break;
	}
}

/* The helper's records, parsed as Linux's are (verify_parse_line), so
 * they come out the same; a record that is not one is dropped. */
static void
bridge_records(struct verify_run *v, const json_t *records)
{
	size_t i;
	json_t *rec;

	json_array_foreach(records, i, rec) {
		char *line = json_dumps(rec, JSON_COMPACT);
		struct verify_record r;

		if (line != NULL && verify_parse_line(line, strlen(line), &r))
			*(struct verify_record *)VEC_PUSH(&v->records) = r;
		free(line);
	}
}

void
winbridge_verify(struct facts *f, const struct winbridge_vrun *runs,
    size_t n, const char *helper, double timeout_s, bool quick, double ms)
{
	struct verify_facts *vf = &f->verify;

	vf->state = VERIFY_STATE_RAN;
	free(vf->why);
	vf->why = NULL;
	free(vf->helper);
	vf->helper = helper != NULL ? xstrdup(helper) : NULL;
	vf->timeout_s = timeout_s;
	vf->quick = quick;
	vf->ms = ms;
	for (size_t i = 0; i < n; i++) {
		const struct wv_run *w = runs[i].run;
		struct verify_run *v = VEC_PUSH(&vf->runs);

		memset(v, 0, sizeof *v);
		v->kind = verify_kind_of(w->kind);
		v->lib = xstrdup(w->lib != NULL ? w->lib : "");
		v->where = xstrdup("system");
		v->last_step = w->last_step != NULL ? xstrdup(w->last_step) :
		    NULL;
		v->last_step_device = -1;
		bridge_outcome(v, w);
		if (runs[i].records != NULL)
			bridge_records(v, runs[i].records);
	}
}

/* ----------------------------------------------------------------- facts */

struct facts *
winbridge_facts(const struct win_facts *wf, char *const *envp, const char *os)
{
	char root[4] = { wf->drive != '\0' ? wf->drive : 'C', ':', '\\', '\0' };
	struct facts *f = facts_new(root, false);
	struct strv path = STRV_INIT;

	f->windows = true;
	bridge_host(f, envp, os);
	bridge_env(f, envp, &path);
	bridge_gpus(f, wf);
	bridge_driver(f, wf);
	bridge_toolkits(f, wf, &path);
	bridge_cudnn(f, wf);
	bridge_pythons(f, wf);
	fact_unknown(&f->kmsg_state, "%s", _("not on Windows"));
	for (size_t i = 0; i < wf->notes.n; i++)
		facts_note(f, "", "%s", wf->notes.v[i]);
	strv_free(&path);
	return f;
}
