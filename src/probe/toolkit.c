/* The CUDA toolkit probe: every toolkit a user, a build or a framework
 * could pick up, and what each one is.
 *
 * Toolkits are reached many ways (the /usr/local/cuda* installs, the
 * Debian directories, CUDA_HOME, CUDA_PATH, the nvcc on PATH, NVIDIA's pip
 * wheels) and one install is often reached several of them, through
 * symlinks. Each way is a candidate; candidates are canonicalised and
 * merged, so there is one fact per real directory that lists every way it
 * was reached. Nothing is run: the version comes from the files the
 * installers write, never from nvcc. Only small files and directory
 * listings are read, and libraries through their ELF dynamic section, so
 * the probe stays fast on a machine full of half-gigabyte libraries. */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "i18n.h"
#include "loader/elfobj.h"
#include "probe/cudafiles.h"
#include "probe/probe.h"
#include "util/envp.h"
#include "util/pathnorm.h"
#include "util/version.h"
#include "util/xalloc.h"

/* version.json and version.txt are a few kilobytes; anything near this
 * is not what the installer wrote. */
#define TK_SMALL_CAP	(1024 * 1024)
/* cuda_runtime_api.h is about 600 KB in CUDA 13. */
#define TK_HEADER_CAP	(8 * 1024 * 1024)
/* An nvcc wrapper script is a couple of lines; a real nvcc is megabytes
 * and is refused by size before a byte of it is read. */
#define TK_WRAPPER_CAP	4096
#define TK_WRAPPER_HOPS	4

/* Debian's nvidia-cuda-toolkit keeps bin/ here and its headers and
 * libraries in the system directories. */
#define DEBIAN_ROOT	"/usr/lib/nvidia-cuda-toolkit"

struct tk_probe {
	struct probe_ctx	*ctx;
	struct strv		 rejected;	/* dirs that are no toolkit */
	struct strv		 broken;	/* paths that do not resolve */
	int			 list_rc;	/* examine()'s listing of the root */
};

static bool
missing(int rc)
{
	return rc == ENOENT || rc == ENOTDIR;
}

/* NVIDIA's wheels put a toolkit at site-packages/nvidia/cuNN (CUDA 13 and
 * later) or spread it over nvidia/cuda_runtime and nvidia/cuda_nvcc
 * (CUDA 11 and 12). */
static bool
is_cu_dir(const char *name)
{
	if (strncmp(name, "cu", 2) != 0 || name[2] == '\0')
		return false;
	for (const char *p = name + 2; *p != '\0'; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

static bool
pip_root(const char *root)
{
	char *parent = path_dirname(root);
	const char *base = path_basename(root);
	bool pip = strcmp(path_basename(parent), "nvidia") == 0 &&
	    (is_cu_dir(base) || strcmp(base, "cuda_runtime") == 0 ||
	    strcmp(base, "cuda_nvcc") == 0);

	free(parent);
	return pip;
}

/* The site-packages directory of a pip root (two levels up). */
static char *
pip_site_packages(const char *root)
{
	char *nv = path_dirname(root), *sp = path_dirname(nv);

	free(nv);
	return sp;
}

/* A cu11/cu12 nvcc wheel belongs with the runtime wheel next to it: one
 * toolkit, whichever of the two a variable points at. */
static char *
pip_merge(const struct sysroot *sr, char *canon)
{
	char *nv, *rt, *real;

	if (strcmp(path_basename(canon), "cuda_nvcc") != 0 || !pip_root(canon))
		return canon;
	nv = path_dirname(canon);
	rt = path_join(nv, "cuda_runtime");
	free(nv);
	if (sysroot_is_dir(sr, rt) && sysroot_realpath(sr, rt, &real) == 0) {
		free(rt);
		free(canon);
		return real;
	}
	free(rt);
	return canon;
}

/* The library directories to look in, relative to the root. */
static void
lib_dirs(const struct strv *targets, struct strv *out)
{
	strv_push(out, "lib64");
	strv_push(out, "lib");
	for (size_t i = 0; i < targets->n; i++)
		strv_pushf(out, "targets/%s/lib", targets->v[i]);
}

/* The first component of rel is in the root's listing: saves a walk per
 * place that cannot exist. */
static bool
root_has(const struct strv *names, const char *rel)
{
	size_t n = strcspn(rel, "/");

	for (size_t i = 0; i < names->n; i++)
		if (strncmp(names->v[i], rel, n) == 0 && names->v[i][n] == '\0')
			return true;
	return false;
}

/* The libcudart.so.N name to describe a directory by: the shortest one,
 * which is the soname link when the install is whole. */
static const char *
pick_cudart(const struct strv *names)
{
	const char *best = NULL;

	for (size_t i = 0; i < names->n; i++)
		if (cf_so_version(names->v[i], "libcudart") != NULL &&
		    (best == NULL || strlen(names->v[i]) < strlen(best)))
			best = names->v[i];
	return best;
}

static void
add_cudart(struct tk_probe *tp, struct toolkit_fact *tk, const char *dir,
    const char *name)
{
	struct facts *f = tp->ctx->facts;
	struct cudart_dir *cd = VEC_PUSH(&tk->cudart);
	struct elfobj info;
	char *path = path_join(dir, name), *real = NULL, *err = NULL;
	int rc;

	cd->dir = xstrdup(dir);
	rc = sysroot_realpath(tp->ctx->sr, path, &real);
	if (rc != 0) {
		facts_note(f, path,
		    _("the CUDA runtime library cannot be followed: %s"),
		    sysroot_strerror(rc));
		cd->soname = xstrdup(name);
		free(path);
		return;
	}
	cd->file = real;
	if (elfobj_read(tp->ctx->sr, real, ELFOBJ_DYNAMIC, &info, &err) != 0) {
		facts_note(f, path,
		    _("the CUDA runtime library cannot be read: %s"), err);
		free(err);
		cd->soname = xstrdup(name);
	} else {
		cd->soname = xstrdup(info.soname != NULL ? info.soname : name);
		elfobj_free(&info);
	}
	free(path);
}

static void
find_cudart(struct tk_probe *tp, struct toolkit_fact *tk,
    const struct strv *names, const struct strv *dirs)
{
	const struct sysroot *sr = tp->ctx->sr;
	struct strv seen = STRV_INIT;

	for (size_t i = 0; i < dirs->n; i++) {
		struct strv entries = STRV_INIT;
		char *dir, *canon;
		const char *name;
		int rc;

		if (!root_has(names, dirs->v[i]))
			continue;
		dir = path_join(tk->root, dirs->v[i]);
		rc = sysroot_realpath(sr, dir, &canon);
		if (rc != 0) {
			if (!missing(rc))
				facts_note(tp->ctx->facts, dir, _("cannot "
				    "follow the library directory: %s"),
				    sysroot_strerror(rc));
			free(dir);
			continue;
		}
		/* lib64 is a link to targets/…/lib in most installs: one
		 * directory, named the way users and the documentation do. */
		if (strv_contains(&seen, canon)) {
			free(canon);
			free(dir);
			continue;
		}
		strv_push_owned(&seen, canon);
		rc = sysroot_list_dir(sr, canon, &entries);
		if (rc != 0 && !missing(rc))
			facts_note(tp->ctx->facts, dir,
			    _("cannot read the library directory: %s"),
			    sysroot_strerror(rc));
		name = rc == 0 ? pick_cudart(&entries) : NULL;
		if (name != NULL)
			add_cudart(tp, tk, dir, name);
		strv_free(&entries);
		free(dir);
	}
	strv_free(&seen);
}

static void
find_stubs(struct tk_probe *tp, struct toolkit_fact *tk,
    const struct strv *names, const struct strv *dirs)
{
	for (size_t i = 0; i < dirs->n && tk->stubs_dir == NULL; i++) {
		char *rel, *dir, *lib;

		if (!root_has(names, dirs->v[i]))
			continue;
		rel = path_join(dirs->v[i], "stubs");
		dir = path_join(tk->root, rel);
		lib = path_join(dir, "libcuda.so");
		if (sysroot_exists(tp->ctx->sr, lib))
			tk->stubs_dir = dir;
		else
			free(dir);
		free(lib);
		free(rel);
	}
}

static bool
is_regular(const struct sysroot *sr, const char *path)
{
	struct stat st;

	return sysroot_stat(sr, path, &st) == 0 && S_ISREG(st.st_mode);
}

static void
find_nvcc(struct tk_probe *tp, struct toolkit_fact *tk)
{
	char *path = path_join(tk->root, "bin/nvcc");

	if (!is_regular(tp->ctx->sr, path) &&
	    tk->layout == TOOLKIT_LAYOUT_PIP &&
	    strcmp(path_basename(tk->root), "cuda_runtime") == 0) {
		char *nv = path_dirname(tk->root);

		free(path);
		path = path_join(nv, "cuda_nvcc/bin/nvcc");
		free(nv);
	}
	if (is_regular(tp->ctx->sr, path))
		tk->nvcc = path;
	else
		free(path);
}

/* Sets the version when s is a valid one; otherwise a note about file. */
static bool
take_version(struct tk_probe *tp, struct toolkit_fact *tk, const char *s,
    size_t len, const char *file)
{
	char *v = xstrndup(s, len);

	if (!version_valid(v)) {
		facts_note(tp->ctx->facts, file,
		    _("\"%s\" is not a version number; the version is "
		    "taken from the next source"), v);
		free(v);
		return false;
	}
	fact_set_owned(&tk->version, v, file);
	return true;
}

static void
note_unreadable(struct tk_probe *tp, const char *path, int rc)
{
	facts_note(tp->ctx->facts, path,
	    _("cannot read it (%s); the version is taken from the next "
	    "source"), sysroot_strerror(rc));
}

/* A component's version, when it is a valid one: "cudart 13.0.96". */
static void
add_component(struct toolkit_fact *tk, const char *what, const char *v,
    size_t len)
{
	char *s = xstrndup(v, len);
	struct version ver;

	if (len < 32 && strlen(s) == len && version_parse(s, &ver))
		strv_pushf(&tk->components, "%s %s", what, s);
	free(s);
}

/* The runtime's and nvcc's versions beside the release: version.json
 * names them "cuda_cudart" and "cuda_nvcc". */
static void
json_components(struct toolkit_fact *tk, json_t *doc)
{
	static const char *const keys[][2] = {
		{ "cuda_cudart", "cudart" }, { "cuda_nvcc", "nvcc" },
	};

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		json_t *v = json_object_get(json_object_get(doc, keys[i][0]),
		    "version");

		if (json_is_string(v))
			add_component(tk, keys[i][1], json_string_value(v),
			    json_string_length(v));
	}
}

/* version.json: {"cuda": {"version": "12.4.1"}, …} (CUDA 11.1 and later). */
static bool
version_from_json(struct tk_probe *tp, struct toolkit_fact *tk)
{
	char *path = path_join(tk->root, "version.json"), *data;
	size_t len;
	json_error_t jerr;
	json_t *doc, *v;
	bool ok = false;
	int rc;

	rc = sysroot_read_file(tp->ctx->sr, path, TK_SMALL_CAP, &data, &len);
	if (rc != 0) {
		if (!missing(rc))
			note_unreadable(tp, path, rc);
		free(path);
		return false;
	}
	doc = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
	free(data);
	if (doc == NULL) {
		facts_note(tp->ctx->facts, path,
		    _("not valid JSON (line %d: %s); the version is taken "
		    "from the next source"), jerr.line, jerr.text);
		free(path);
		return false;
	}
	v = json_object_get(json_object_get(doc, "cuda"), "version");
	if (json_is_string(v))
		ok = take_version(tp, tk, json_string_value(v),
		    json_string_length(v), path);
	if (ok)
		json_components(tk, doc);
	if (!json_is_string(v))
		facts_note(tp->ctx->facts, path,
		    _("no \"cuda\" \"version\" string in it; the version "
		    "is taken from the next source"));
	json_decref(doc);
	free(path);
	return ok;
}

/* version.txt: "CUDA Version 11.2.152" (CUDA 11.0 and before). */
static bool
version_from_txt(struct tk_probe *tp, struct toolkit_fact *tk)
{
	static const char prefix[] = "CUDA Version ";
	char *path = path_join(tk->root, "version.txt"), *data, *p;
	bool ok = false;
	int rc;

	rc = sysroot_read_file(tp->ctx->sr, path, TK_SMALL_CAP, &data, NULL);
	if (rc != 0) {
		if (!missing(rc))
			note_unreadable(tp, path, rc);
		free(path);
		return false;
	}
	p = data + strspn(data, " \t\r\n");
	if (strncmp(p, prefix, sizeof prefix - 1) == 0) {
		p += sizeof prefix - 1;
		ok = take_version(tp, tk, p, strcspn(p, " \t\r\n"), path);
	} else {
		facts_note(tp->ctx->facts, path,
		    _("does not start with \"CUDA Version\"; the version "
		    "is taken from the next source"));
	}
	free(data);
	free(path);
	return ok;
}

/* The major of the toolkit's first libcudart soname, to tell the wheels of
 * several CUDA majors apart in one site-packages. */
static char *
cudart_major(const struct toolkit_fact *tk)
{
	const char *v;

	if (tk->cudart.n == 0 ||
	    (v = cf_so_version(tk->cudart.v[0].soname, "libcudart")) == NULL)
		return NULL;
	return xstrndup(v, strcspn(v, "."));
}

/* The dist-info directory of the runtime wheel: in site-packages for a
 * pip layout, in <root>/dist-info for a toolkit assembled from wheels. */
static bool
version_from_distinfo(struct tk_probe *tp, struct toolkit_fact *tk,
    const struct strv *names)
{
	const char *const bases[] = {
		"nvidia_cuda_runtime", "nvidia_cuda_nvcc",
	};
	const size_t nbases = sizeof bases / sizeof bases[0];
	struct strv entries = STRV_INIT;
	struct cf_distinfo di;
	char *dir, *major = NULL;
	bool ok = false;
	int rc;

	if (tk->layout == TOOLKIT_LAYOUT_PIP) {
		dir = pip_site_packages(tk->root);
		if (is_cu_dir(path_basename(tk->root)))
			major = xstrdup(path_basename(tk->root) + 2);
		else
			major = cudart_major(tk);
	} else if (root_has(names, "dist-info")) {
		dir = path_join(tk->root, "dist-info");
	} else {
		return false;
	}
	rc = sysroot_list_dir(tp->ctx->sr, dir, &entries);
	if (rc != 0 && !missing(rc))
		note_unreadable(tp, dir, rc);
	/* The runtime's wheel gives the version; each wheel found is also
	 * a component ("cudart 13.0.96", "nvcc 13.0.88"). */
	for (size_t i = 0; rc == 0 && i < nbases; i++) {
		char *path;

		if (!cf_distinfo_find(&entries, bases[i], major, &di))
			continue;
		add_component(tk, i == 0 ? "cudart" : "nvcc", di.version,
		    strlen(di.version));
		if (!ok) {
			path = path_join(dir, di.name);
			fact_set(&tk->version, di.version, path);
			free(path);
		}
		cf_distinfo_free(&di);
		ok = true;
	}
	strv_free(&entries);
	free(major);
	free(dir);
	return ok;
}

/* CUDART_VERSION in cuda_runtime_api.h: 12040 is 12.4. */
static bool
version_from_header(struct tk_probe *tp, struct toolkit_fact *tk,
    const struct strv *names, const struct strv *targets)
{
	const char *const macro[] = { "CUDART_VERSION" };
	struct strv paths = STRV_INIT;
	bool ok = false;

	if (root_has(names, "include"))
		strv_push_owned(&paths,
		    path_join(tk->root, "include/cuda_runtime_api.h"));
	for (size_t i = 0; i < targets->n; i++)
		strv_pushf(&paths, "%s/targets/%s/include/cuda_runtime_api.h",
		    strcmp(tk->root, "/") == 0 ? "" : tk->root, targets->v[i]);
	if (strcmp(tk->root, DEBIAN_ROOT) == 0)
		strv_push(&paths, "/usr/include/cuda_runtime_api.h");
	for (size_t i = 0; i < paths.n && !ok; i++) {
		unsigned long v;
		bool found;
		int rc = cf_header_defines(tp->ctx->sr, paths.v[i],
		    TK_HEADER_CAP, macro, 1, &v, &found);

		if (rc != 0) {
			if (!missing(rc))
				note_unreadable(tp, paths.v[i], rc);
			continue;
		}
		if (!found || v < 1000)
			continue;
		fact_set_owned(&tk->version, xasprintf("%lu.%lu", v / 1000,
		    (v % 1000) / 10), paths.v[i]);
		ok = true;
	}
	strv_free(&paths);
	return ok;
}

/* libcudart.so.12.4.127: only a full three-part name says more than the
 * soname, which is shared by every minor release of a major. */
static bool
version_from_names(struct toolkit_fact *tk)
{
	for (size_t i = 0; i < tk->cudart.n; i++) {
		const char *file = tk->cudart.v[i].file, *v;
		struct version ver;

		if (file == NULL)
			continue;
		v = cf_so_version(path_basename(file), "libcudart");
		if (v == NULL || !version_parse(v, &ver) || ver.nparts < 3)
			continue;
		fact_set(&tk->version, v, file);
		return true;
	}
	return false;
}

static bool
find_version(struct tk_probe *tp, struct toolkit_fact *tk,
    const struct strv *names, const struct strv *targets)
{
	if ((root_has(names, "version.json") && version_from_json(tp, tk)) ||
	    (root_has(names, "version.txt") && version_from_txt(tp, tk)) ||
	    version_from_distinfo(tp, tk, names) ||
	    version_from_header(tp, tk, names, targets) ||
	    version_from_names(tk))
		return true;
	fact_unknown(&tk->version,
	    _("no version.json, version.txt, NVIDIA wheel dist-info, "
	    "CUDART_VERSION in cuda_runtime_api.h, or versioned libcudart "
	    "file name"));
	return false;
}

/* The release to show: the version a version file states, else the
 * version's major.minor (a wheel's or a library's version is the
 * component's, not the toolkit's). */
static char *
release_of(const struct toolkit_fact *tk)
{
	const char *src = tk->version.source != NULL ?
	    path_basename(tk->version.source) : "";
	struct version v;

	if (strcmp(src, "version.json") == 0 || strcmp(src, "version.txt") == 0 ||
	    !version_parse(tk->version.value, &v) || v.nparts < 2)
		return xstrdup(tk->version.value);
	return xasprintf("%u.%u", (unsigned)v.part[0], (unsigned)v.part[1]);
}

/* Looks at a canonical directory; adds it when it is a toolkit. */
static struct toolkit_fact *
examine(struct tk_probe *tp, const char *root)
{
	struct facts *f = tp->ctx->facts;
	struct toolkit_fact tk, *slot;
	struct strv names = STRV_INIT, targets = STRV_INIT, dirs = STRV_INIT;
	bool versioned;
	int rc;

	rc = sysroot_list_dir(tp->ctx->sr, root, &names);
	tp->list_rc = rc;
	if (rc != 0) {
		facts_note(f, root, _("cannot read the directory: %s"),
		    sysroot_strerror(rc));
		strv_push(&tp->rejected, root);
		strv_free(&names);
		return NULL;
	}
	memset(&tk, 0, sizeof tk);
	tk.root = xstrdup(root);
	tk.layout = pip_root(root) ? TOOLKIT_LAYOUT_PIP :
	    TOOLKIT_LAYOUT_INSTALL;
	if (root_has(&names, "targets")) {
		char *t = path_join(root, "targets");

		rc = sysroot_list_dir(tp->ctx->sr, t, &targets);
		if (rc != 0 && !missing(rc))
			facts_note(f, t, _("cannot read the directory: %s"),
			    sysroot_strerror(rc));
		free(t);
	}
	lib_dirs(&targets, &dirs);
	find_cudart(tp, &tk, &names, &dirs);
	find_stubs(tp, &tk, &names, &dirs);
	find_nvcc(tp, &tk);
	versioned = find_version(tp, &tk, &names, &targets);
	if (versioned)
		tk.release = release_of(&tk);
	strv_free(&dirs);
	strv_free(&targets);
	strv_free(&names);
	/* A directory with none of the three is something else that
	 * happens to be called cuda*, or a variable pointing astray. */
	if (!versioned && tk.cudart.n == 0 && tk.nvcc == NULL) {
		toolkit_fact_free(&tk);
		strv_push(&tp->rejected, root);
		return NULL;
	}
	slot = VEC_PUSH(&f->toolkits);
	*slot = tk;
	return slot;
}

/* path without trailing slashes ("/" stays). */
static char *
trim_slashes(const char *path)
{
	size_t len = strlen(path);

	while (len > 1 && path[len - 1] == '/')
		len--;
	return xstrndup(path, len);
}

/* One way to a toolkit: path, reached as via. */
static void
consider(struct tk_probe *tp, const char *path, const char *via)
{
	const struct sysroot *sr = tp->ctx->sr;
	struct facts *f = tp->ctx->facts;
	struct toolkit_fact *tk;
	struct stat lst;
	char *clean = trim_slashes(path), *canon = NULL;
	bool link;
	int rc;

	/* Reached again (CUDA_HOME naming a /usr/local/cuda* link): the
	 * problem was noted the first time. */
	if (strv_contains(&tp->broken, clean)) {
		free(clean);
		return;
	}
	rc = sysroot_lstat(sr, clean, &lst);
	if (rc != 0) {
		/* A variable naming a missing directory is the
		 * environment rules' finding, not a probe problem. */
		if (!missing(rc))
			facts_note(f, clean, _("cannot look at it: %s"),
			    sysroot_strerror(rc));
		strv_push_owned(&tp->broken, clean);
		return;
	}
	link = S_ISLNK(lst.st_mode);
	rc = sysroot_realpath(sr, clean, &canon);
	if (rc != 0) {
		if (link)
			facts_note(f, clean,
			    _("symlink cannot be followed: %s"),
			    sysroot_strerror(rc));
		else if (!missing(rc))
			facts_note(f, clean, _("cannot look at it: %s"),
			    sysroot_strerror(rc));
		strv_push_owned(&tp->broken, clean);
		return;
	}
	if (!sysroot_is_dir(sr, canon)) {
		free(canon);
		free(clean);
		return;
	}
	canon = pip_merge(sr, canon);
	tk = facts_toolkit_by_root(f, canon);
	if (tk == NULL && !strv_contains(&tp->rejected, canon))
		tk = examine(tp, canon);
	if (tk != NULL) {
		if (!strv_contains(&tk->found_via, via))
			strv_push(&tk->found_via, via);
		if (link && strcmp(clean, canon) != 0 &&
		    !strv_contains(&tk->aliases, clean))
			strv_push(&tk->aliases, clean);
	}
	free(canon);
	free(clean);
}

/* Every dir/prefix* entry. */
static void
consider_glob(struct tk_probe *tp, const char *dir, const char *prefix,
    const char *via)
{
	struct strv names = STRV_INIT;
	int rc = sysroot_list_dir(tp->ctx->sr, dir, &names);

	if (rc != 0 && !missing(rc))
		facts_note(tp->ctx->facts, dir,
		    _("cannot read the directory: %s"), sysroot_strerror(rc));
	for (size_t i = 0; rc == 0 && i < names.n; i++) {
		if (strncmp(names.v[i], prefix, strlen(prefix)) == 0) {
			char *path = path_join(dir, names.v[i]);

			consider(tp, path, via);
			free(path);
		}
	}
	strv_free(&names);
}

static void
consider_env(struct tk_probe *tp, const char *name)
{
	const char *v = envp_get(tp->ctx->envp, name);

	if (v != NULL && *v != '\0')
		consider(tp, v, name);
}

/* The nvcc a wrapper script execs ("exec /usr/local/cuda-13.0/bin/nvcc
 * "$@""), canonical; NULL when path is not such a script. */
static char *
wrapped_nvcc(const struct sysroot *sr, const char *path)
{
	char *data, *out = NULL;
	size_t len;
	const char *p, *end;

	if (sysroot_read_file(sr, path, TK_WRAPPER_CAP, &data, &len) != 0)
		return NULL;
	if (len < 2 || data[0] != '#' || data[1] != '!') {
		free(data);
		return NULL;
	}
	end = data + len;
	for (p = data + 2; p < end && out == NULL; p++) {
		size_t n;
		char *word;

		/* A word that starts a path: after a blank, a quote or '='. */
		if (*p != '/' || p[-1] == '\0' ||
		    strchr(" \t\r\n\"'=", p[-1]) == NULL)
			continue;
		n = strcspn(p, " \t\r\n\"';&|$`");
		word = xstrndup(p, n);
		if (cf_ends_with(word, "/bin/nvcc") &&
		    sysroot_realpath(sr, word, &out) != 0)
			out = NULL;
		free(word);
		p += n - 1;
	}
	free(data);
	return out;
}

/* The first executable nvcc on PATH, its links and wrapper scripts
 * followed; its toolkit is the parent of its bin/. */
static void
consider_path_nvcc(struct tk_probe *tp)
{
	const struct sysroot *sr = tp->ctx->sr;
	const char *path = envp_get(tp->ctx->envp, "PATH"), *p;
	char *found = NULL, *real = NULL, *bin, *root;

	for (p = path; p != NULL && found == NULL;) {
		size_t n = strcspn(p, ":");
		struct stat st;

		/* An empty entry is the working directory, which has no
		 * meaning for a probe of a machine. */
		if (n > 0) {
			char *dir = xstrndup(p, n);
			char *cand = path_join(dir, "nvcc");

			free(dir);
			if (sysroot_stat(sr, cand, &st) == 0 &&
			    S_ISREG(st.st_mode) && (st.st_mode & 0111) != 0)
				found = cand;
			else
				free(cand);
		}
		p = p[n] == ':' ? p + n + 1 : NULL;
	}
	if (found == NULL)
		return;
	if (sysroot_realpath(sr, found, &real) != 0) {
		free(found);
		return;
	}
	free(found);
	for (int hop = 0; hop < TK_WRAPPER_HOPS; hop++) {
		char *next = wrapped_nvcc(sr, real);

		if (next == NULL)
			break;
		if (strcmp(next, real) == 0) {
			free(next);
			break;
		}
		free(real);
		real = next;
	}
	bin = path_dirname(real);
	free(real);
	if (strcmp(path_basename(bin), "bin") != 0) {
		free(bin);
		return;
	}
	root = path_dirname(bin);
	free(bin);
	consider(tp, root, "PATH");
	free(root);
}

/* The directory the user named: looked at even when another way
 * already rejected it, so the outcome says why. The same merge as
 * consider(): a toolkit found another way is the same fact. */
static void
consider_named(struct tk_probe *tp, struct probe_named *nd)
{
	const struct sysroot *sr = tp->ctx->sr;
	struct facts *f = tp->ctx->facts;
	struct toolkit_fact *tk;
	char *canon = NULL;
	int rc;

	consider(tp, nd->dir, "--toolkit");
	rc = sysroot_realpath(sr, nd->dir, &canon);
	if (rc != 0) {
		nd->rc = rc;
		return;
	}
	if (!sysroot_is_dir(sr, canon)) {
		nd->rc = ENOTDIR;
		free(canon);
		return;
	}
	canon = pip_merge(sr, canon);
	tk = facts_toolkit_by_root(f, canon);
	tp->list_rc = 0;
	if (tk == NULL && (tk = examine(tp, canon)) != NULL &&
	    !strv_contains(&tk->found_via, "--toolkit"))
		strv_push(&tk->found_via, "--toolkit");
	nd->rc = tk != NULL ? 0 : tp->list_rc != 0 ? tp->list_rc :
	    PROBE_NAMED_NONE;
	nd->index = tk != NULL ? (size_t)(tk - f->toolkits.v) : 0;
	free(canon);
}

static void
consider_pip(struct tk_probe *tp)
{
	struct strv sps = STRV_INIT;

	cf_site_packages(tp->ctx, &sps);
	for (size_t i = 0; i < sps.n; i++) {
		struct strv names = STRV_INIT;
		char *nv = path_join(sps.v[i], "nvidia");
		int rc = sysroot_list_dir(tp->ctx->sr, nv, &names);

		if (rc != 0 && !missing(rc))
			facts_note(tp->ctx->facts, nv,
			    _("cannot read the directory: %s"),
			    sysroot_strerror(rc));
		for (size_t j = 0; rc == 0 && j < names.n; j++) {
			const char *n = names.v[j];

			/* cuda_nvcc alone is a toolkit too (nvcc only);
			 * with cuda_runtime beside it, consider() merges
			 * the two. */
			if (is_cu_dir(n) || strcmp(n, "cuda_runtime") == 0 ||
			    strcmp(n, "cuda_nvcc") == 0) {
				char *path = path_join(nv, n);

				consider(tp, path, "pip");
				free(path);
			}
		}
		strv_free(&names);
		free(nv);
	}
	strv_free(&sps);
}

void
probe_toolkits(struct probe_ctx *ctx)
{
	struct tk_probe tp;

	memset(&tp, 0, sizeof tp);
	tp.ctx = ctx;
	consider_glob(&tp, "/usr/local", "cuda", "/usr/local/cuda*");
	consider_glob(&tp, "/opt", "cuda", "/opt/cuda*");
	consider(&tp, "/usr/lib/cuda", "/usr/lib/cuda");
	consider(&tp, DEBIAN_ROOT, DEBIAN_ROOT);
	consider_env(&tp, "CUDA_HOME");
	consider_env(&tp, "CUDA_PATH");
	consider_path_nvcc(&tp);
	consider_pip(&tp);
	/* The fuzz targets run the probes with no shared part. */
	if (ctx->shared != NULL && ctx->shared->toolkit_dir.dir != NULL)
		consider_named(&tp, &ctx->shared->toolkit_dir);
	strv_free(&tp.rejected);
	strv_free(&tp.broken);
}
