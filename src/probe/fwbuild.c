/* Which GPU frameworks an environment holds: what a framework's own
 * files and the matrix say, the small readers and setters the
 * recognisers share (fwident.c, fwother.c).
 *
 * Each value is set once, by the strongest source that has it: the
 * framework's own files, then its version or conda build string, then
 * the matrix, which may only make a value the files gave more precise
 * ("8" to "8.1"). Every value keeps where it came from. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "i18n.h"
#include "loader/elfobj.h"
#include "probe/fwint.h"
#include "util/pathnorm.h"
#include "util/version.h"
#include "util/xalloc.h"

/* version.py and build_info.py are a few hundred bytes; a file near
 * this size is not what the build wrote and is not parsed. */
#define FW_TEXT_CAP	(256 * 1024)
/* The longest value taken from such a file. */
#define FW_VALUE_MAX	64

/* The name as pip compares it (PEP 503), into buf; "" when too long. */
void
fw_norm_name(const char *in, char *buf, size_t n)
{
	size_t o = 0;
	bool sep = false;

	for (const char *p = in; *p != '\0'; p++) {
		if (*p == '-' || *p == '_' || *p == '.') {
			sep = true;
			continue;
		}
		if (sep && o > 0) {
			if (o + 1 >= n)
				goto toolong;
			buf[o++] = '-';
		}
		sep = false;
		if (o + 1 >= n)
			goto toolong;
		buf[o++] = (char)tolower((unsigned char)*p);
	}
	buf[o] = '\0';
	return;
toolong:
	buf[0] = '\0';
}

bool
fw_all_digits(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* "118" → "11.8", "92" → "9.2": the last digit is the minor, as in
 * PyTorch's cu118, MXNet's cu112 and CuPy's cuda112. NULL otherwise. */
char *
fw_digits_cuda(const char *d, size_t n)
{
	if (n < 2 || n > 3 || !fw_all_digits(d, n))
		return NULL;
	return xasprintf("%.*s.%c", (int)(n - 1), d, d[n - 1]);
}

/* The part of a version before its local label ("2.1.0" of
 * "2.1.0+cu118") and a ".postN" ("2.5.1" of "2.5.1.post117"). */
char *
fw_public_version(const char *v)
{
	size_t n;
	const char *post;

	if (v == NULL)
		return NULL;
	n = strcspn(v, "+");
	post = strstr(v, ".post");
	if (post != NULL && (size_t)(post - v) < n)
		n = (size_t)(post - v);
	return xstrndup(v, n);
}

/* True when a's parts begin b's ("11" of "11.2", "8" of "8.1.0"). */
static bool
version_prefix(const char *a, const char *b)
{
	struct version va, vb;

	if (!version_parse(a, &va) || !version_parse(b, &vb) ||
	    va.nparts > vb.nparts)
		return false;
	for (size_t i = 0; i < va.nparts; i++)
		if (va.part[i] != vb.part[i])
			return false;
	return true;
}

/* The package's directory: site/sub for a pip package, else the first
 * site directory of env that holds sub (conda packages name no site).
 * *exists says whether it is there; NULL when env has nowhere to look. */
char *
fw_pkg_dir(struct fw_run *run, const struct py_env *env,
    const struct py_package *p, const char *sub, bool *exists)
{
	char *first = NULL;

	*exists = false;
	if (p != NULL && p->site != NULL) {
		char *d = path_join(p->site, sub);

		*exists = sysroot_is_dir(run->ctx->sr, d);
		if (*exists)
			return d;
		first = d;
	}
	for (size_t i = 0; i < env->site_dirs.n; i++) {
		char *d = path_join(env->site_dirs.v[i], sub);

		if (sysroot_is_dir(run->ctx->sr, d)) {
			free(first);
			*exists = true;
			return d;
		}
		if (first == NULL)
			first = d;
		else
			free(d);
	}
	return first;
}

/* A package whose metadata is there and whose directory is not: its
 * main library becomes a need of its own (that does not load), so the
 * framework is not taken for one that would. */
void
fw_dir_missing(struct fw_run *run, struct fw_found *f, const char *own)
{
	struct framework_fact *fw = &f->fact;

	if (fw->dir == NULL)
		return;
	facts_note(run->ctx->facts, fw->dir, _("%s %s is installed by its "
	    "metadata, but its directory is missing"), fw->package,
	    fw->version != NULL ? fw->version : "");
	if (fw->gpu != FW_GPU_NO && own != NULL && f->plan.own == NULL)
		f->plan.own = path_join(fw->dir, own);
}

/* A small text file the framework wrote about itself; NULL when it is
 * not there (or cannot be read: a note says why). */
char *
fw_read_small(struct fw_run *run, const char *path)
{
	char *data = NULL;
	size_t len;
	int rc = sysroot_read_file(run->ctx->sr, path, FW_TEXT_CAP, &data,
	    &len);

	if (rc == 0)
		return data;
	if (rc != ENOENT && rc != ENOTDIR)
		facts_note(run->ctx->facts, path,
		    _("a framework's build description cannot be read: %s"),
		    sysroot_strerror(rc));
	return NULL;
}

static bool
ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The Python literal at p: a short quoted string (into *out), None,
 * True or False. */
static enum pyval
py_literal(const char *p, char **out)
{
	if (*p == '\'' || *p == '"') {
		const char *end = strchr(p + 1, *p);
		size_t n;

		if (end == NULL)
			return PYVAL_OTHER;
		n = (size_t)(end - p - 1);
		if (n > FW_VALUE_MAX || memchr(p + 1, '\n', n) != NULL ||
		    memchr(p + 1, '\\', n) != NULL)
			return PYVAL_OTHER;
		*out = xstrndup(p + 1, n);
		return PYVAL_STR;
	}
	if (strncmp(p, "None", 4) == 0 && !ident_char(p[4]))
		return PYVAL_NONE;
	if (strncmp(p, "True", 4) == 0 && !ident_char(p[4]))
		return PYVAL_TRUE;
	if (strncmp(p, "False", 5) == 0 && !ident_char(p[5]))
		return PYVAL_FALSE;
	return PYVAL_OTHER;
}

/*
 * The value of key in a generated Python file, in any of the three
 * shapes builds write: "key = 'v'" (or "key: Optional[str] = 'v'") at
 * the start of a line, "'key': v" in a dict, and "('key', v)" in
 * TensorFlow's OrderedDict. The first hit wins. *out is set only for
 * PYVAL_STR.
 */
enum pyval
fw_py_value(const char *text, const char *key, char **out)
{
	size_t kl = strlen(key);

	*out = NULL;
	for (const char *p = text; (p = strstr(p, key)) != NULL; p += kl) {
		const char *q = p + kl;
		bool quoted = p > text && (p[-1] == '\'' || p[-1] == '"');

		if (quoted) {
			if (*q != p[-1])
				continue;
			q++;
			while (*q == ' ' || *q == '\t')
				q++;
			/* "('key', v)", not "['__version__', 'cuda', …]". */
			if (*q != ':' && (*q != ',' || p - text < 2 ||
			    p[-2] != '('))
				continue;
		} else {
			if ((p > text && p[-1] != '\n') || ident_char(*q))
				continue;
			while (*q == ' ' || *q == '\t')
				q++;
			/* An annotation: "cuda: Optional[str] = ". */
			if (*q == ':')
				while (*q != '\0' && *q != '=' && *q != '\n')
					q++;
			if (*q != '=' || q[1] == '=')
				continue;
		}
		q++;
		while (*q == ' ' || *q == '\t')
			q++;
		return py_literal(q, out);
	}
	return PYVAL_ABSENT;
}

/* A version-like value from a build file: a dotted number, maybe with
 * ".x" (CuPy's "11.x") cut off. */
static bool
plausible_version(const char *v)
{
	return v != NULL && version_valid(v);
}

void
fw_set_owned(char **field, char *value)
{
	free(*field);
	*field = value;
}

void
fw_set_cuda(struct framework_fact *fw, const char *v, char *source)
{
	if (fw->cuda != NULL || !plausible_version(v)) {
		free(source);
		return;
	}
	fw->cuda = xstrdup(v);
	fw->cuda_source = source;
}

void
fw_set_cudnn(struct framework_fact *fw, const char *v, char *source)
{
	if (fw->cudnn != NULL || !plausible_version(v)) {
		free(source);
		return;
	}
	fw->cudnn = xstrdup(v);
	fw->cudnn_source = source;
}

void
fw_set_gpu(struct framework_fact *fw, enum fw_gpu gpu, char *why)
{
	if (fw->gpu != FW_GPU_UNKNOWN) {
		free(why);
		return;
	}
	fw->gpu = gpu;
	fw_set_owned(&fw->gpu_why, why);
}

/* ------------------------------------------------------------- matrix */

/* The build of row that matches variant, or the CUDA version the files
 * gave, or the default build when nothing narrows it. */
const struct matrix_build *
fw_pick_build(const struct matrix_framework *row, const char *variant,
    const char *cuda)
{
	const struct matrix_build *b = NULL;

	if (row == NULL)
		return NULL;
	if (variant != NULL)
		b = matrix_framework_build(row, variant);
	if (b == NULL && cuda != NULL) {
		for (size_t i = 0; i < row->builds.n && b == NULL; i++) {
			const struct matrix_build *c = &row->builds.v[i];

			if (c->cuda != NULL && (version_prefix(cuda, c->cuda) ||
			    version_prefix(c->cuda, cuda)))
				b = c;
		}
	}
	if (b == NULL && variant == NULL && cuda == NULL)
		b = matrix_framework_build(row, NULL);
	return b;
}

/* What the matrix adds: the CUDA and cuDNN of the build where the files
 * said nothing, or said only its major ("8" where the build used 8.1:
 * TensorFlow's build_info keeps only cuDNN's major). refine is false
 * where a short value means a range (CuPy's "11.x"). */
void
fw_from_matrix(struct framework_fact *fw, const struct matrix_framework *row,
    const struct matrix_build *b, bool refine)
{
	char *label;

	if (row == NULL || b == NULL)
		return;
	label = xasprintf(_("the matrix: %s %s-%s%s%s (%s)"), row->name,
	    row->versions.min,
	    row->versions.max != NULL ? row->versions.max : "",
	    b->variant != NULL ? " " : "", b->variant != NULL ? b->variant : "",
	    matrix_status_name(row->status));
	if (fw->cuda == NULL) {
		fw_set_cuda(fw, b->cuda, xstrdup(label));
	} else if (refine && b->cuda != NULL &&
	    strcmp(fw->cuda, b->cuda) != 0 &&
	    version_prefix(fw->cuda, b->cuda)) {
		fw_set_owned(&fw->cuda_source,
		    xasprintf("%s; %s", fw->cuda_source, label));
		fw_set_owned(&fw->cuda, xstrdup(b->cuda));
	}
	if (b->cudnn != NULL && fw->cudnn == NULL) {
		fw_set_cudnn(fw, b->cudnn, xstrdup(label));
	} else if (refine && b->cudnn != NULL && fw->cudnn != NULL &&
	    strcmp(fw->cudnn, b->cudnn) != 0 &&
	    version_prefix(fw->cudnn, b->cudnn)) {
		fw_set_owned(&fw->cudnn_source,
		    xasprintf("%s; %s", fw->cudnn_source, label));
		fw_set_owned(&fw->cudnn, xstrdup(b->cudnn));
	}
	free(label);
}

/* The sonames a framework dlopen()s: its build's list, or, where the
 * matrix has no build, the runtime, cuBLAS and cuDNN of its versions. */
void
fw_dlopen_sonames(struct fw_run *run, const struct framework_fact *fw,
    const struct matrix_build *b, struct strv *out)
{
	const struct matrix *m = fw_matrix(run);
	static const char *const libs[] = { "cudart", "cublas", "cublaslt" };

	if (b != NULL && b->sonames.n > 0) {
		for (size_t i = 0; i < b->sonames.n; i++)
			if (!strv_contains(out, b->sonames.v[i]))
				strv_push(out, b->sonames.v[i]);
		return;
	}
	if (fw->cuda != NULL)
		for (size_t i = 0; i < sizeof libs / sizeof *libs; i++) {
			const struct matrix_soname *s = matrix_soname_for(m,
			    libs[i], fw->cuda);

			if (s != NULL && !strv_contains(out, s->soname))
				strv_push(out, s->soname);
		}
	if (fw->cudnn != NULL) {
		const struct matrix_cudnn_library *l = matrix_cudnn_library(m,
		    version_major_str(fw->cudnn));

		if (l != NULL && l->sonames.n > 0 &&
		    !strv_contains(out, l->sonames.v[0]))
			strv_push(out, l->sonames.v[0]);
	}
}

/* --------------------------------------------------------------- files */

static bool
is_file(struct fw_run *run, const char *path, off_t *size)
{
	struct stat st;

	if (sysroot_stat(run->ctx->sr, path, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	if (size != NULL)
		*size = st.st_size;
	return true;
}

/* Adds dir/name to plan->linked when it is a file; remembers the biggest
 * of them for the GPU code listing. Returns whether it was. */
bool
fw_add_linked(struct fw_run *run, struct fw_plan *plan, const char *dir,
    const char *name, off_t *biggest)
{
	char *path = path_join(dir, name);
	off_t size;

	if (!is_file(run, path, &size)) {
		free(path);
		return false;
	}
	strv_push(&plan->linked, path);
	if (size > *biggest) {
		*biggest = size;
		fw_set_owned(&plan->archs, xstrdup(path));
	}
	free(path);
	return true;
}

/* The first name in dir that is stem + ".so" or stem + ".<tag>.so"
 * (Python extension modules: "_C.cpython-310-x86_64-linux-gnu.so"). */
char *
fw_find_module(struct fw_run *run, const char *dir, const char *stem)
{
	struct strv names = STRV_INIT;
	size_t sl = strlen(stem);
	char *found = NULL;

	if (sysroot_list_dir(run->ctx->sr, dir, &names) != 0)
		return NULL;
	for (size_t i = 0; i < names.n && found == NULL; i++) {
		const char *n = names.v[i];
		size_t nl = strlen(n);

		if (strncmp(n, stem, sl) == 0 && (n[sl] == '.') && nl > 3 &&
		    strcmp(n + nl - 3, ".so") == 0)
			found = path_join(dir, n);
	}
	strv_free(&names);
	return found;
}

/* The CUDA major a library was linked against, from the runtime it
 * names in DT_NEEDED ("libcudart.so.12": CUDA 12). */
void
fw_cuda_from_needed(struct fw_run *run, struct framework_fact *fw,
    const char *path)
{
	struct elfobj obj;
	char *err = NULL;

	if (fw->cuda != NULL)
		return;
	memset(&obj, 0, sizeof obj);
	if (elfobj_read(run->ctx->sr, path, ELFOBJ_DYNAMIC, &obj, &err) == 0)
		for (size_t i = 0; i < obj.needed.n && fw->cuda == NULL; i++) {
			const char *name = obj.needed.v[i], *lib;
			struct matrix_range r;
			enum matrix_status st;
			char *major;

			if (strncmp(name, "libcudart.so.", 13) != 0 ||
			    !matrix_soname_cuda(fw_matrix(run), name, &r, &lib,
			    &st))
				continue;
			major = xasprintf("%u", version_major_str(r.min));
			fw_set_cuda(fw, major, xasprintf(_("%s needs %s"), path,
			    name));
			free(major);
		}
	free(err);
	elfobj_free(&obj);
}
