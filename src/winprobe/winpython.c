/* The Windows probe's Python part: the installs (python.org, conda and
 * its envs, venvs on PATH), their versions and site-packages, and what
 * TensorFlow and torch there want of CUDA. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "winload/winname.h"
#include "winprobe/winprobe_int.h"

/* Names taken from one torch/lib: it bundles some 40 DLLs. */
#define BUNDLED_MAX	256

/* The profiles under Users that are nobody's. */
static const char *const not_users[] = {
	"Public", "Default", "Default User", "All Users",
};

/* The conda distributions' default folder names in a profile. */
static const char *const conda_dirs[] = {
	"miniconda3", "anaconda3", "miniforge3", "mambaforge",
};

/* TensorFlow's distribution names on Windows: tensorflow pulls in
 * tensorflow-intel from 2.10 on, which holds the files. */
static const char *const tf_dists[] = {
	"tensorflow-", "tensorflow_intel-", "tensorflow_gpu-", "tensorflow_cpu-",
};

#define NELEM(a)	(sizeof (a) / sizeof (a)[0])

/* "Python310" -> "3.10", "Python39-32" -> "3.9"; NULL otherwise. */
static char *
version_of_dirname(const char *name)
{
	size_t n = 0;

	if (strlen(name) < 8 || !winname_eqn(name, 6, "python") ||
	    name[6] != '3')
		return NULL;
	while (isdigit((unsigned char)name[6 + n]))
		n++;
	if (n < 2 || n > 4 || (name[6 + n] != '\0' && name[6 + n] != '-'))
		return NULL;
	return xasprintf("3.%.*s", (int)(n - 1), name + 7);
}

/* python310.dll beside python.exe -> "3.10". */
static char *
version_of_dll(struct wp *w, const char *dir)
{
	struct strv names = STRV_INIT;
	char *v = NULL;

	if (!wp_list(w, dir, &names))
		return NULL;
	for (size_t i = 0; i < names.n && v == NULL; i++) {
		const char *n = names.v[i];
		size_t len = strlen(n), d = 0;

		if (!wp_glob(n, "python3", ".dll"))
			continue;
		while (7 + d < len - 4 && isdigit((unsigned char)n[7 + d]))
			d++;
		if (d >= 1 && d <= 3 && 7 + d == len - 4)
			v = xasprintf("3.%.*s", (int)d, n + 7);
	}
	strv_free(&names);
	return v;
}

/* conda's record of its python package, conda-meta/python-3.11.5-<build>.json:
 * the full version, by its name alone. */
static char *
version_of_conda(struct wp *w, const char *dir)
{
	struct strv names = STRV_INIT;
	char *meta = wp_find(w, dir, "conda-meta"), *v = NULL;

	if (meta == NULL || !wp_list(w, meta, &names)) {
		free(meta);
		return NULL;
	}
	for (size_t i = 0; i < names.n && v == NULL; i++) {
		const char *n = names.v[i], *end;

		if (!wp_glob(n, "python-3", ".json"))
			continue;
		end = strchr(n + 7, '-');
		if (end != NULL)
			v = xstrndup(n + 7, (size_t)(end - n - 7));
	}
	strv_free(&names);
	free(meta);
	return v;
}

/* The value of KEY in pyvenv.cfg's "key = value" lines; NULL: none. */
static char *
cfg_value(const char *text, const char *key)
{
	for (const char *line = text; *line != '\0';) {
		const char *end = strchr(line, '\n'), *eq, *k, *v;
		size_t klen;

		if (end == NULL)
			end = line + strlen(line);
		eq = memchr(line, '=', (size_t)(end - line));
		if (eq != NULL) {
			for (k = line; k < eq && isspace((unsigned char)*k); k++)
				;
			for (klen = (size_t)(eq - k);
			    klen > 0 && isspace((unsigned char)k[klen - 1]); klen--)
				;
			if (winname_eqn(k, klen, key)) {
				size_t vlen;

				for (v = eq + 1; v < end && (*v == ' ' || *v == '\t'); v++)
					;
				for (vlen = (size_t)(end - v);
				    vlen > 0 && isspace((unsigned char)v[vlen - 1]); vlen--)
					;
				return xstrndup(v, vlen);
			}
		}
		line = *end != '\0' ? end + 1 : end;
	}
	return NULL;
}

static struct win_framework *
fw_add(struct win_python *p, const char *name)
{
	struct win_framework *fw = VEC_PUSH(&p->frameworks);

	memset(fw, 0, sizeof *fw);
	fw->name = xstrdup(name);
	return fw;
}

static void
probe_tensorflow(struct wp *w, struct win_python *p, const struct strv *site)
{
	static const char *const keys[] = { "cudart_dll_name", "cudnn_dll_name" };
	struct win_framework *fw;
	char *bi, *text, *why;

	fw = fw_add(p, "tensorflow");
	for (size_t i = 0; i < site->n && fw->version == NULL; i++)
		for (size_t j = 0; j < NELEM(tf_dists); j++)
			if (wp_glob(site->v[i], tf_dists[j], ".dist-info")) {
				size_t pl = strlen(tf_dists[j]);

				fw->version = xstrndup(site->v[i] + pl,
				    strlen(site->v[i]) - pl - strlen(".dist-info"));
				break;
			}
	bi = wp_find(w, p->site_packages, "tensorflow/python/platform/build_info.py");
	if (bi == NULL) {
		fw->error = xstrdup(_("tensorflow/python/platform/build_info.py is missing"));
		return;
	}
	text = wp_text(w, bi, &why);
	free(bi);
	if (text == NULL) {
		fw->error = why;
		return;
	}
	fw->cuda_version = wp_quoted_after(text, "cuda_version");
	fw->cudnn_version = wp_quoted_after(text, "cudnn_version");
	for (size_t i = 0; i < NELEM(keys); i++) {
		char *dll = wp_quoted_after(text, keys[i]);

		if (dll != NULL)
			strv_push_owned(&fw->wants, dll);
	}
	free(text);
}

static void
probe_torch(struct wp *w, struct win_python *p)
{
	struct win_framework *fw = fw_add(p, "torch");
	struct strv names = STRV_INIT;
	char *vp, *lib, *text, *why;

	vp = wp_find(w, p->site_packages, "torch/version.py");
	if (vp == NULL) {
		fw->error = xstrdup(_("torch/version.py is missing"));
	} else if ((text = wp_text(w, vp, &why)) == NULL) {
		fw->error = why;
	} else {
		fw->version = wp_quoted_after(text, "__version__");
		fw->cuda_version = wp_quoted_after(text, "cuda");
		free(text);
	}
	free(vp);
	lib = wp_find(w, p->site_packages, "torch/lib");
	if (lib != NULL && wp_list(w, lib, &names))
		for (size_t i = 0; i < names.n && fw->bundled.n < BUNDLED_MAX; i++)
			if (wp_glob(names.v[i], "cu", ".dll") ||
			    wp_glob(names.v[i], "nv", ".dll"))
				strv_push(&fw->bundled, names.v[i]);
	strv_free(&names);
	free(lib);
}

static void
probe_frameworks(struct wp *w, struct win_python *p)
{
	struct strv site = STRV_INIT;

	if (p->site_packages == NULL || !wp_list(w, p->site_packages, &site))
		return;
	if (winname_pick(&site, "tensorflow") != NULL)
		probe_tensorflow(w, p, &site);
	if (winname_pick(&site, "torch") != NULL)
		probe_torch(w, p);
	strv_free(&site);
}

/* Adds the install at dir (exe inside it) unless known; the one known
 * or added, NULL past the limit. */
static struct win_python *
py_add(struct wp *w, enum win_python_kind kind, const char *dir,
    const char *exe)
{
	struct win_facts *f = w->f;
	struct win_python *p;
	const char *base = strrchr(dir, '/');
	char *cfg;

	for (size_t i = 0; i < f->pythons.n; i++)
		if (winname_eq(f->pythons.v[i].dir, dir))
			return &f->pythons.v[i];
	if (f->pythons.n >= WINFACTS_PYTHONS_MAX) {
		if (f->pythons.n == WINFACTS_PYTHONS_MAX)
			strv_pushf(&f->notes, _("more than %d Python installs: the rest not looked at"),
			    WINFACTS_PYTHONS_MAX);
		return NULL;
	}
	p = VEC_PUSH(&f->pythons);
	memset(p, 0, sizeof *p);
	p->kind = kind;
	p->dir = xstrdup(dir);
	p->exe = xstrdup(exe);
	p->path_index = -1;
	base = base != NULL ? base + 1 : dir;
	if (kind == WIN_PY_VENV && (cfg = wp_find(w, dir, "pyvenv.cfg")) != NULL) {
		char *why, *text = wp_text(w, cfg, &why);

		free(why);
		if (text != NULL) {
			p->version = cfg_value(text, "version");
			if (p->version == NULL)
				p->version = cfg_value(text, "version_info");
			p->home = cfg_value(text, "home");
			if (p->version != NULL)
				p->version_from = "pyvenv.cfg";
		}
		free(text);
		free(cfg);
	}
	if (p->version == NULL && kind == WIN_PY_PYTHON_ORG &&
	    (p->version = version_of_dirname(base)) != NULL)
		p->version_from = "dirname";
	if (p->version == NULL && (kind == WIN_PY_CONDA || kind == WIN_PY_CONDA_ENV) &&
	    (p->version = version_of_conda(w, dir)) != NULL)
		p->version_from = "conda-meta";
	if (p->version == NULL && (p->version = version_of_dll(w, dir)) != NULL)
		p->version_from = "dll";
	p->site_packages = wp_find(w, dir, "Lib/site-packages");
	probe_frameworks(w, p);
	return p;
}

/* dir/python.exe when it is there. */
static char *
exe_in(struct wp *w, const char *dir)
{
	char *exe = wp_find(w, dir, "python.exe");

	if (exe != NULL && sysroot_is_dir(w->sr, exe))
		FREE(&exe);
	return exe;
}

/* Each dir/<name> holding python.exe whose name starts with prefix. */
static void
scan_installs(struct wp *w, const char *dir, const char *prefix,
    enum win_python_kind kind)
{
	struct strv names = STRV_INIT;

	if (dir == NULL || !wp_list(w, dir, &names))
		return;
	for (size_t i = 0; i < names.n; i++) {
		char *d, *exe;

		if (strlen(names.v[i]) < strlen(prefix) ||
		    !winname_eqn(names.v[i], strlen(prefix), prefix))
			continue;
		d = dir[0] != '\0' ? xasprintf("%s/%s", dir, names.v[i]) :
		    xstrdup(names.v[i]);
		if ((exe = exe_in(w, d)) != NULL)
			py_add(w, kind, d, exe);
		free(exe);
		free(d);
	}
	strv_free(&names);
}

static void
scan_local(struct wp *w, const char *local)
{
	char *dir = wp_find(w, local, "Programs/Python");

	scan_installs(w, dir, "Python", WIN_PY_PYTHON_ORG);
	free(dir);
}

static void
scan_profile(struct wp *w, const char *profile)
{
	char *local = wp_find(w, profile, "AppData/Local");

	if (local != NULL)
		scan_local(w, local);
	free(local);
	for (size_t i = 0; i < NELEM(conda_dirs); i++) {
		char *dir = wp_find(w, profile, conda_dirs[i]), *exe, *envs;

		if (dir == NULL)
			continue;
		if ((exe = exe_in(w, dir)) != NULL)
			py_add(w, WIN_PY_CONDA, dir, exe);
		free(exe);
		envs = wp_find(w, dir, "envs");
		scan_installs(w, envs, "", WIN_PY_CONDA_ENV);
		free(envs);
		free(dir);
	}
}

/* The directory an environment variable names, as in the tree. */
static char *
env_dir(struct wp *w, const char *name)
{
	const char *v = wp_env(w, name), *why;
	char *tree, *dir = NULL;

	if (v == NULL || (tree = winprobe_tree_path(w->f->drive, v, &why)) == NULL)
		return NULL;
	if (winname_resolve(w->sr, tree, &dir) != 0)
		dir = NULL;
	free(tree);
	return dir;
}

/* An activated environment: VIRTUAL_ENV (a venv), CONDA_PREFIX. */
static void
scan_env(struct wp *w)
{
	char *dir, *exe, *cfg;

	if ((dir = env_dir(w, "VIRTUAL_ENV")) != NULL &&
	    (cfg = wp_find(w, dir, "pyvenv.cfg")) != NULL) {
		char *scripts = wp_find(w, dir, "Scripts");

		if (scripts != NULL && (exe = exe_in(w, scripts)) != NULL) {
			py_add(w, WIN_PY_VENV, dir, exe);
			free(exe);
		}
		free(scripts);
		free(cfg);
	}
	free(dir);
	if ((dir = env_dir(w, "CONDA_PREFIX")) != NULL &&
	    (exe = exe_in(w, dir)) != NULL) {
		const char *slash = strrchr(dir, '/');
		bool env = slash != NULL && slash - dir >= 4 &&
		    winname_eqn(slash - 4, 4, "envs");

		py_add(w, env ? WIN_PY_CONDA_ENV : WIN_PY_CONDA, dir, exe);
		free(exe);
	}
	free(dir);
}

static void
scan_path(struct wp *w)
{
	for (size_t i = 0; i < w->path.n; i++) {
		const char *e = w->path.v[i], *base;
		struct win_python *p = NULL;
		char *exe, *parent = NULL, *cfg = NULL;

		if (e == NULL)
			continue;
		base = strrchr(e, '/');
		base = base != NULL ? base + 1 : e;
		/* The Store's python.exe there is an app execution alias (a
		 * reparse point that opens the Store), not an install. */
		if (winname_eq(base, "WindowsApps"))
			continue;
		/* A venv's or conda's Scripts: the install is its parent. */
		if (winname_eq(base, "Scripts") && base > e) {
			parent = xstrndup(e, (size_t)(base - 1 - e));
			cfg = wp_find(w, parent, "pyvenv.cfg");
		}
		if (cfg != NULL && (exe = exe_in(w, e)) != NULL) {
			p = py_add(w, WIN_PY_VENV, parent, exe);
			free(exe);
		} else if (parent != NULL && (exe = exe_in(w, parent)) != NULL) {
			p = py_add(w, WIN_PY_PATH, parent, exe);
			free(exe);
		} else if ((exe = exe_in(w, e)) != NULL) {
			p = py_add(w, WIN_PY_PATH, e, exe);
			free(exe);
		}
		if (p != NULL && p->path_index < 0)
			p->path_index = (long)i;
		free(parent);
		free(cfg);
	}
}

void
wp_pythons(struct wp *w)
{
	struct strv users = STRV_INIT, reg = STRV_INIT;
	char *dir;

	dir = wp_find(w, "", "Users");
	if (dir != NULL && wp_list(w, dir, &users))
		for (size_t i = 0; i < users.n; i++) {
			bool skip = false;
			char *profile;

			for (size_t j = 0; j < NELEM(not_users); j++)
				skip = skip || winname_eq(users.v[i], not_users[j]);
			if (skip)
				continue;
			profile = xasprintf("%s/%s", dir, users.v[i]);
			if (sysroot_is_dir(w->sr, profile))
				scan_profile(w, profile);
			free(profile);
		}
	strv_free(&users);
	free(dir);
	/* A profile or AppData moved off Users (a redirected folder). */
	if ((dir = env_dir(w, "USERPROFILE")) != NULL)
		scan_profile(w, dir);
	free(dir);
	if ((dir = env_dir(w, "LOCALAPPDATA")) != NULL)
		scan_local(w, dir);
	free(dir);
	if ((dir = env_dir(w, "ProgramFiles")) == NULL)
		dir = wp_find(w, "", "Program Files");
	scan_installs(w, dir, "Python3", WIN_PY_PYTHON_ORG);
	free(dir);
	scan_installs(w, "", "Python3", WIN_PY_PYTHON_ORG);	/* C:\Python312 */
	if (w->opts->py_registry != NULL) {
		w->opts->py_registry(w->opts->py_registry_arg, &reg);
		for (size_t i = 0; i < reg.n; i++) {
			const char *why;
			char *tree = winprobe_tree_path(w->f->drive, reg.v[i], &why);
			char *exe, *d = NULL;

			if (tree != NULL && winname_resolve(w->sr, tree, &d) == 0 &&
			    (exe = exe_in(w, d)) != NULL) {
				py_add(w, WIN_PY_REGISTRY, d, exe);
				free(exe);
			}
			free(d);
			free(tree);
		}
		strv_free(&reg);
	} else {
		strv_push(&w->f->notes,
		    _("the py launcher's registry (PEP 514) is not read: installs only it knows are not listed"));
	}
	scan_env(w);
	scan_path(w);
}
