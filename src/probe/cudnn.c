/* The cuDNN probe: every copy of libcudnn.so.N a program could load, and
 * what each one is.
 *
 * Copies live in toolkits (a cuDNN archive unpacked into the toolkit's
 * lib64), in the system library directories (distribution packages), on
 * LD_LIBRARY_PATH, and in pip's nvidia/cudnn wheels. Each real directory
 * is one fact. The version is read twice, from the header and from the
 * library's names, because the two disagreeing is itself a diagnosis. The
 * toolkit probe runs first, so its facts say which copies are a toolkit's;
 * the environment probe's ld.so.conf directories are used when it found
 * them. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "loader/elfobj.h"
#include "probe/cudafiles.h"
#include "probe/probe.h"
#include "util/envp.h"
#include "util/pathnorm.h"
#include "util/strmap.h"
#include "util/version.h"
#include "util/xalloc.h"

/* cudnn_version.h is 3 KB; the cuDNN 7 cudnn.h about 100 KB. */
#define CUDNN_HEADER_CAP	(4 * 1024 * 1024)

#define PIP_LIB_SUFFIX	"/nvidia/cudnn/lib"

static const char *const std_lib_dirs[] = {
	"/usr/lib/x86_64-linux-gnu",
	"/usr/lib/aarch64-linux-gnu",
	"/usr/lib64",
	"/usr/lib",
	"/usr/local/lib",
};

/* Where distribution packages put the headers; only system copies are
 * described by them, a toolkit's or a wheel's copy brings its own. */
static const char *const std_include_dirs[] = {
	"/usr/include",
	"/usr/include/x86_64-linux-gnu",
	"/usr/include/aarch64-linux-gnu",
};

struct cudnn_scan {
	struct probe_ctx	*ctx;
	/* Hash sets, not vectors: LD_LIBRARY_PATH can name 10,000
	 * directories, and a scan over every earlier one is quadratic. */
	struct strmap		 seen;		/* canonical dirs looked at */
	struct strmap		 tried;		/* paths as given */
};

static bool
missing(int rc)
{
	return rc == ENOENT || rc == ENOTDIR;
}

/* libcudnn.so.N[.x.y]: the main library, not libcudnn_ops.so.9 and not
 * the unversioned development link. */
static bool
major_of(const char *name, unsigned *major)
{
	const char *v = cf_so_version(name, "libcudnn");
	struct version ver;

	if (v == NULL || !version_parse(v, &ver))
		return false;
	*major = ver.part[0];
	return true;
}

/* libcudnn*.so.N with one number: the names the loader asks for. */
static bool
is_cudnn_soname(const char *name)
{
	const char *p = name + strlen("libcudnn"), *dot;

	if (strncmp(name, "libcudnn", 8) != 0)
		return false;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	    (*p >= '0' && *p <= '9') || *p == '_')
		p++;
	if (strncmp(p, ".so.", 4) != 0)
		return false;
	p += 4;
	dot = strchr(p, '.');
	return dot == NULL && version_valid(p);
}

/* The libcudnn.so.N to describe a directory by: the highest major, and
 * within it the shortest name (the soname link of a whole install). */
static const char *
pick_main(const struct strv *names, unsigned *major)
{
	const char *best = NULL;

	for (size_t i = 0; i < names->n; i++) {
		unsigned m;

		if (!major_of(names->v[i], &m))
			continue;
		if (best == NULL || m > *major ||
		    (m == *major && strlen(names->v[i]) < strlen(best))) {
			best = names->v[i];
			*major = m;
		}
	}
	return best;
}

/* The toolkit a directory belongs to: under its root, or one of its
 * runtime directories (a toolkit's lib64 can be a link to elsewhere). */
static const struct toolkit_fact *
owner_of(const struct cudnn_scan *sc, const char *canon)
{
	const struct facts *f = sc->ctx->facts;

	for (size_t i = 0; i < f->toolkits.n; i++) {
		const struct toolkit_fact *t = &f->toolkits.v[i];

		if (path_under(canon, t->root))
			return t;
		for (size_t j = 0; j < t->cudart.n; j++) {
			char *real;
			bool same;

			if (sysroot_realpath(sc->ctx->sr, t->cudart.v[j].dir,
			    &real) != 0)
				continue;
			same = strcmp(real, canon) == 0;
			free(real);
			if (same)
				return t;
		}
	}
	return NULL;
}

static void
push_unique(struct strv *sv, char *s)
{
	if (strv_contains(sv, s))
		free(s);
	else
		strv_push_owned(sv, s);
}

/* CUDNN_MAJOR/MINOR/PATCHLEVEL from the first header that has them and
 * matches the library's major. */
static void
find_header(struct cudnn_scan *sc, struct cudnn_fact *c,
    const struct toolkit_fact *owner, unsigned major)
{
	const char *const macros[] = {
		"CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL",
	};
	const size_t ninc = sizeof std_include_dirs / sizeof *std_include_dirs;
	struct strv dirs = STRV_INIT, files = STRV_INIT;
	char *parent, *other = NULL, *other_path = NULL;
	bool done = false;

	if (owner != NULL)
		strv_push_owned(&dirs, path_join(owner->root, "include"));
	parent = path_dirname(c->lib_dir);
	push_unique(&dirs, path_join(parent, "include"));
	free(parent);
	if (strcmp(c->where, "system") == 0)
		for (size_t i = 0; i < ninc; i++)
			push_unique(&dirs, xstrdup(std_include_dirs[i]));
	/* cuDNN 8 and later keep the macros in cudnn_version.h, 7 in
	 * cudnn.h; Debian installs them as *_vN.h with an alternatives
	 * link under the plain name. */
	strv_push(&files, "cudnn_version.h");
	strv_pushf(&files, "cudnn_version_v%u.h", major);
	strv_push(&files, "cudnn.h");
	strv_pushf(&files, "cudnn_v%u.h", major);

	for (size_t i = 0; i < dirs.n && !done; i++) {
		for (size_t j = 0; j < files.n && !done; j++) {
			char *path = path_join(dirs.v[i], files.v[j]);
			unsigned long v[3];
			bool found[3];
			int rc = cf_header_defines(sc->ctx->sr, path,
			    CUDNN_HEADER_CAP, macros, 3, v, found);

			if (rc != 0 && !missing(rc))
				facts_note(sc->ctx->facts, path,
				    _("cannot read the cuDNN header: %s"),
				    sysroot_strerror(rc));
			if (rc != 0 || !found[0] || !found[1] || !found[2]) {
				free(path);
				continue;
			}
			if (v[0] != major) {
				/* Another cuDNN's header: keep looking, and
				 * say so if nothing better turns up. */
				if (other == NULL) {
					other = xasprintf("%lu.%lu.%lu",
					    v[0], v[1], v[2]);
					other_path = path;
				} else {
					free(path);
				}
				continue;
			}
			fact_set_owned(&c->version,
			    xasprintf("%lu.%lu.%lu", v[0], v[1], v[2]), path);
			c->header = path;
			done = true;
		}
	}
	if (!done && other != NULL)
		fact_unknown(&c->version,
		    _("%s declares cuDNN %s, but the library is "
		    "libcudnn.so.%u"), other_path, other, major);
	else if (!done)
		fact_unknown(&c->version,
		    _("no cudnn_version.h or cudnn.h with CUDNN_MAJOR %u "
		    "next to the library"), major);
	free(other);
	free(other_path);
	strv_free(&files);
	strv_free(&dirs);
}

/* lib_version from the real file's name, else the soname's major; soname
 * from the ELF dynamic section, else the file name. */
static void
read_library(struct cudnn_scan *sc, struct cudnn_fact *c, const char *name,
    unsigned major)
{
	struct facts *f = sc->ctx->facts;
	char *path = path_join(c->lib_dir, name), *real, *err;
	struct elfobj info;
	const char *v;
	struct version ver;
	int rc;

	rc = sysroot_realpath(sc->ctx->sr, path, &real);
	if (rc != 0) {
		facts_note(f, path,
		    _("the cuDNN library cannot be followed: %s"),
		    sysroot_strerror(rc));
		fact_unreadable(&c->lib_version, "%s: %s", path,
		    sysroot_strerror(rc));
		c->soname = xstrdup(name);
		free(path);
		return;
	}
	if (elfobj_read(sc->ctx->sr, real, ELFOBJ_DYNAMIC, &info, &err) != 0) {
		facts_note(f, path, _("the cuDNN library cannot be read: %s"),
		    err);
		free(err);
		c->soname = xstrdup(name);
	} else {
		c->soname = xstrdup(info.soname != NULL ? info.soname : name);
		elfobj_free(&info);
	}
	v = cf_so_version(path_basename(real), "libcudnn");
	if (v != NULL && version_parse(v, &ver) && ver.nparts >= 2)
		fact_set(&c->lib_version, v, real);
	else if ((v = cf_so_version(c->soname, "libcudnn")) != NULL)
		fact_set_owned(&c->lib_version, xstrndup(v, strcspn(v, ".")),
		    path);
	else
		fact_set_owned(&c->lib_version, xasprintf("%u", major), path);
	free(real);
	free(path);
}

/* The CUDA major a copy was built for, where the files say it. */
static void
find_cuda_major(struct cudnn_scan *sc, struct cudnn_fact *c,
    const struct toolkit_fact *owner, unsigned major)
{
	struct strv names = STRV_INIT;
	struct cf_distinfo di;
	char *dir, *mj = xasprintf("%u", major);
	bool ok = false;
	int rc;

	if (strcmp(c->where, "pip") == 0 &&
	    cf_ends_with(c->lib_dir, PIP_LIB_SUFFIX))
		dir = xstrndup(c->lib_dir,
		    strlen(c->lib_dir) - strlen(PIP_LIB_SUFFIX));
	else if (owner != NULL)
		dir = path_join(owner->root, "dist-info");
	else
		dir = NULL;
	if (dir != NULL) {
		if (*dir == '\0') {
			free(dir);
			dir = xstrdup("/");
		}
		rc = sysroot_list_dir(sc->ctx->sr, dir, &names);
		if (rc != 0 && !missing(rc))
			facts_note(sc->ctx->facts, dir,
			    _("cannot read the directory: %s"),
			    sysroot_strerror(rc));
		if (rc == 0 &&
		    cf_distinfo_find(&names, "nvidia_cudnn", mj, &di)) {
			if (di.cuda != NULL) {
				char *path = path_join(dir, di.name);

				fact_set(&c->cuda_major, di.cuda, path);
				free(path);
				ok = true;
			}
			cf_distinfo_free(&di);
		}
	}
	if (!ok && owner != NULL && fact_known(&owner->version)) {
		const char *v = owner->version.value;

		fact_set_owned(&c->cuda_major, xstrndup(v, strcspn(v, ".")),
		    owner->version.source);
		ok = true;
	}
	if (!ok)
		fact_unknown(&c->cuda_major,
		    _("no nvidia_cudnn_cuNN wheel record or toolkit says "
		    "which CUDA it was built for"));
	strv_free(&names);
	free(dir);
	free(mj);
}

/* Looks at one directory; adds a fact when it holds libcudnn.so.N. */
static void
scan_dir(struct cudnn_scan *sc, const char *dir)
{
	const struct sysroot *sr = sc->ctx->sr;
	struct facts *f = sc->ctx->facts;
	const struct toolkit_fact *owner;
	struct strv names = STRV_INIT;
	struct cudnn_fact *c;
	const char *name;
	unsigned major = 0;
	char *canon;
	int rc, lrc;

	if (*dir == '\0' || !strmap_put(&sc->tried, dir, 0))
		return;
	/* The listing first, by the path as given: most directories hold
	 * no cuDNN (10,000 LD_LIBRARY_PATH entries), and for those the walk
	 * that realpath costs is saved. A directory that cannot be listed
	 * is followed first, as before, so its notes stay the same. */
	lrc = sysroot_list_dir(sr, dir, &names);
	name = lrc == 0 ? pick_main(&names, &major) : NULL;
	if (lrc == 0 && name == NULL) {
		strv_free(&names);
		return;
	}
	rc = sysroot_realpath(sr, dir, &canon);
	if (rc != 0) {
		/* Missing search-path entries are the environment rules'
		 * finding. */
		if (!missing(rc))
			facts_note(f, dir,
			    _("cannot follow the library directory: %s"),
			    sysroot_strerror(rc));
		strv_free(&names);
		return;
	}
	if (!strmap_put(&sc->seen, canon, 0)) {
		strv_free(&names);
		free(canon);
		return;
	}
	if (lrc != 0) {
		if (!missing(lrc))
			facts_note(f, dir,
			    _("cannot read the library directory: %s"),
			    sysroot_strerror(lrc));
		strv_free(&names);
		free(canon);
		return;
	}
	owner = owner_of(sc, canon);
	c = VEC_PUSH(&f->cudnn);
	c->lib_dir = canon;
	if (cf_ends_with(canon, PIP_LIB_SUFFIX) ||
	    (owner != NULL && owner->layout == TOOLKIT_LAYOUT_PIP))
		c->where = xstrdup("pip");
	else
		c->where = xstrdup(owner != NULL ? "toolkit" : "system");
	for (size_t i = 0; i < names.n; i++)
		if (is_cudnn_soname(names.v[i]))
			strv_push(&c->libraries, names.v[i]);
	read_library(sc, c, name, major);
	find_header(sc, c, owner, major);
	find_cuda_major(sc, c, owner, major);
	strv_free(&names);
}

static void
scan_search_path(struct cudnn_scan *sc, const char *value)
{
	struct strv parts = STRV_INIT;

	if (value == NULL)
		return;
	/* ld.so splits LD_LIBRARY_PATH at ':' and ';'. */
	strv_split(&parts, value, ":;");
	for (size_t i = 0; i < parts.n; i++)
		scan_dir(sc, parts.v[i]);
	strv_free(&parts);
}

static const struct cudnn_fact *
cudnn_by_dir(const struct facts *f, const char *canon)
{
	for (size_t i = 0; i < f->cudnn.n; i++)
		if (strcmp(f->cudnn.v[i].lib_dir, canon) == 0)
			return &f->cudnn.v[i];
	return NULL;
}

/* The directory the user named: the one holding libcudnn.so.N, or the
 * root of an unpacked archive (NVIDIA's tarballs have lib/ and include/;
 * some installs lib64/). A copy found another way is the same fact. */
static void
scan_named(struct cudnn_scan *sc, struct probe_named *nd)
{
	static const char *const subdirs[] = { "", "lib", "lib64" };
	const struct sysroot *sr = sc->ctx->sr;
	const struct facts *f = sc->ctx->facts;
	struct strv names = STRV_INIT;
	char *canon = NULL;
	int rc = sysroot_realpath(sr, nd->dir, &canon);

	if (rc == 0 && !sysroot_is_dir(sr, canon))
		rc = ENOTDIR;
	if (rc == 0)
		rc = sysroot_list_dir(sr, canon, &names);
	strv_free(&names);
	nd->rc = rc != 0 ? rc : PROBE_NAMED_NONE;
	for (size_t i = 0; rc == 0 && nd->rc != 0 &&
	    i < sizeof subdirs / sizeof *subdirs; i++) {
		char *dir = path_join(canon, subdirs[i]), *real;
		const struct cudnn_fact *c;

		if (sysroot_realpath(sr, dir, &real) != 0) {
			free(dir);
			continue;
		}
		if ((c = cudnn_by_dir(f, real)) == NULL) {
			scan_dir(sc, dir);
			c = cudnn_by_dir(f, real);
		}
		if (c != NULL) {
			nd->rc = 0;
			nd->index = (size_t)(c - f->cudnn.v);
		}
		free(real);
		free(dir);
	}
	free(canon);
}

void
probe_cudnn(struct probe_ctx *ctx)
{
	struct facts *f = ctx->facts;
	struct cudnn_scan sc;
	struct strv sps = STRV_INIT;

	memset(&sc, 0, sizeof sc);
	sc.ctx = ctx;
	/* Toolkit copies first, so a toolkit directory that is also on
	 * ld.so.conf is reported as the toolkit's. */
	for (size_t i = 0; i < f->toolkits.n; i++)
		for (size_t j = 0; j < f->toolkits.v[i].cudart.n; j++)
			scan_dir(&sc, f->toolkits.v[i].cudart.v[j].dir);
	for (size_t i = 0; i < f->env.ldconf.n; i++)
		scan_dir(&sc, f->env.ldconf.v[i].dir);
	for (size_t i = 0; i < sizeof std_lib_dirs / sizeof *std_lib_dirs; i++)
		scan_dir(&sc, std_lib_dirs[i]);
	scan_search_path(&sc, envp_get(ctx->envp, "LD_LIBRARY_PATH"));
	cf_site_packages(ctx, &sps);
	for (size_t i = 0; i < sps.n; i++) {
		char *lib = path_join(sps.v[i], "nvidia/cudnn/lib");

		scan_dir(&sc, lib);
		free(lib);
	}
	strv_free(&sps);
	/* The fuzz targets run the probes with no shared part. */
	if (ctx->shared != NULL && ctx->shared->cudnn_dir.dir != NULL)
		scan_named(&sc, &ctx->shared->cudnn_dir);
	strmap_free(&sc.seen);
	strmap_free(&sc.tried);
}
