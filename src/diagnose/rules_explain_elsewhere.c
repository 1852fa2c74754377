/* The explain rules for a message from another machine: its paths are
 * not here (a Colab or cluster log pasted on a laptop), so nothing this
 * machine's loader or driver says is its cause. The finding is made from
 * the message alone, and the fix is written in that machine's terms: its
 * Python's site-packages, its CUDA directory, as the message names them.
 * Pure; see rules_explain.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "diagnose/fixcmd.h"
#include "diagnose/rules_explain_int.h"
#include "diagnose/rules_install_plan.h"
#include "diagnose/rules_loader_int.h"
#include "explain/recognize.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "util/pathnorm.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* That machine's places, read from the paths in the message. */
struct there {
	char	*site;		/* ".../python3.10/dist-packages", or NULL */
	char	*python;	/* "python3.10", or NULL */
	char	*cuda;		/* "/sw/cuda/11.8", "/usr/local/cuda-11.8", or NULL */
};

/* The path up to the end of the component that begins with one of the
 * words (then that component), or NULL. */
static char *
upto_component(const char *path, const char *word, size_t *comp_at)
{
	const char *p = path;

	while ((p = strstr(p, word)) != NULL) {
		if (p > path && p[-1] == '/') {
			const char *e = strchr(p, '/');

			*comp_at = (size_t)(p - path);
			return e != NULL ? xstrndup(path, (size_t)(e - path)) :
			    xstrdup(path);
		}
		p++;
	}
	return NULL;
}

static void
read_path(struct there *t, const char *path)
{
	size_t at;
	char *s;

	if (path == NULL || path[0] != '/')
		return;
	if (t->site == NULL) {
		s = upto_component(path, "site-packages", &at);
		if (s == NULL)
			s = upto_component(path, "dist-packages", &at);
		if (s != NULL) {
			t->site = s;
			s = upto_component(path, "python", &at);
			if (s != NULL) {
				t->python = xstrdup(s + at);
				free(s);
			}
		}
	}
	if (t->cuda == NULL && (s = upto_component(path, "cuda", &at)) != NULL) {
		const char *next = path + strlen(s);

		/* /sw/cuda/11.8/lib64: the version is the next component. */
		if (strcmp(s + at, "cuda") == 0 && next[0] == '/' &&
		    next[1] >= '0' && next[1] <= '9') {
			const char *e = strchr(next + 1, '/');
			size_t n = e != NULL ? (size_t)(e - path) : strlen(path);

			free(s);
			s = xstrndup(path, n);
		}
		if (strchr(s + at, '.') != NULL || strcmp(s + at, "cuda") == 0 ||
		    strncmp(path + strlen(s), "/", 1) == 0)
			t->cuda = s;
		else
			free(s);
	}
}

static void
there_free(struct there *t)
{
	free(t->site);
	free(t->python);
	free(t->cuda);
}

/* The wheel that provides soname (a CUDA library or cuDNN), for the CUDA
 * major the message's CUDA path names when it names one. */
static const struct matrix_wheel *
wheel_of(const struct ctx *c, const char *soname, const struct there *t)
{
	struct matrix_range r;
	const char *library;
	enum matrix_status st;
	unsigned majors[] = { 0, 12, 11, 13 };

	if (c->m == NULL || !explain_is_soname(soname))
		return NULL;
	if (t->cuda != NULL) {
		const char *d = t->cuda + strlen(t->cuda);

		while (d > t->cuda && d[-1] != '/' && d[-1] != '-')
			d--;
		majors[0] = version_major_str(d);
	}
	if (ip_cudnn_major_of(&c->ip, soname) != 0) {
		for (size_t i = 0; i < sizeof majors / sizeof majors[0]; i++) {
			const struct matrix_wheel *w = majors[i] == 0 ? NULL :
			    ip_wheel_for(c->m, "cudnn", majors[i], soname);

			if (w != NULL)
				return w;
		}
		return NULL;
	}
	if (!matrix_soname_cuda(c->m, soname, &r, &library, &st) ||
	    strcmp(library, "cuda") == 0 || strcmp(library, "nvml") == 0)
		return NULL;
	return ip_wheel_for(c->m, library, version_major_str(r.min), soname);
}

/* The fix on that machine: the wheel into its Python, its directory
 * first; or its CUDA directory first; or words. */
static void
there_fix(struct ctx *c, struct finding *f, const char *soname,
    const struct there *t, bool newer)
{
	const struct matrix_wheel *w = wheel_of(c, soname, t);
	struct fix_want want = { .channel = "pip", .upgrade = newer };
	char *dir;

	if (w != NULL) {
		want.package = w->package;
		if (t->site != NULL)
			strv_pushf(&f->fix, _("# on the machine the message comes "
			    "from, in its Python (%s, %s):"), t->python != NULL ?
			    t->python : "python3", t->site);
		else
			lr_fix_comment(f, _("on the machine the message comes from, "
			    "in the Python environment that failed:"));
		if (fixcmd_install(c->m, f, NULL, &want, 1)) {
			if (t->site != NULL && w->lib_dir != NULL) {
				dir = xasprintf("%s/%s", t->site, w->lib_dir);
				lr_fix_comment(f, _("then put the wheel's directory first:"));
				ip_fix_line(f, lr_llp_prepend_line(dir));
				free(dir);
			}
			return;
		}
		f->fix.n--;
		free(f->fix.v[f->fix.n]);
	}
	if (t->cuda != NULL) {
		dir = xasprintf("%s/lib64", t->cuda);
		strv_pushf(&f->fix, _("# on the machine the message comes from, "
		    "put its CUDA's library directory (%s) first, after checking "
		    "that it holds %s:"), dir, soname != NULL ? soname : "?");
		ip_fix_line(f, lr_llp_prepend_line(dir));
		free(dir);
		return;
	}
	strv_pushf(&f->fix, newer ?
	    _("# on the machine the message comes from: install the release of "
	    "%s the program was built against and put its directory first on "
	    "LD_LIBRARY_PATH; run cudawiz there to see every copy") :
	    _("# on the machine the message comes from: install %s and put its "
	    "directory on LD_LIBRARY_PATH; run cudawiz there to see where the "
	    "loader looks"), soname != NULL ? soname : _("the library"));
}

static void
message_only(struct finding *f, const struct explain_match *m,
    const struct explain_where *w)
{
	f->severity = SEV_ERROR;
	rx_message_evidence(f, m);
	strv_pushf(&f->evidence, _("the paths in this message are not on this "
	    "machine (%s is not here): diagnosed from the message alone"),
	    w->path);
}

void
rx_explain_elsewhere(struct ctx *c, const struct explain_match *m)
{
	const struct explain_where *w = rx_where(c, m);
	struct there t = { 0 };
	struct finding *f;
	const char *who = m->required_by != NULL ? m->required_by : _("A program");

	read_path(&t, m->file);
	read_path(&t, m->required_by);
	read_path(&t, w->path);
	switch (m->kind) {
	case EXPLAIN_DLOPEN_FAILED:
	case EXPLAIN_CANNOT_OPEN:
		f = finding_add(c->out, FINDING_SONAME_NOT_FOUND,
		    _("On the machine the message comes from, the dynamic loader "
		    "could not find %s: it is not installed there, or not where "
		    "the loader looks."), m->soname);
		message_only(f, m, w);
		there_fix(c, f, m->soname, &t, false);
		break;
	case EXPLAIN_VERSION_NOT_FOUND:
		f = finding_add(c->out, FINDING_SONAME_VERSION_MISMATCH,
		    _("On the machine the message comes from, %s needs version %s "
		    "of %s, and the copy it loads there, %s, does not define it: "
		    "an older (or another) build of that library than the one it "
		    "was built against comes first."), who, m->version,
		    m->soname != NULL ? m->soname : "?", m->file != NULL ? m->file :
		    m->soname != NULL ? m->soname : "?");
		message_only(f, m, w);
		there_fix(c, f, m->soname, &t, true);
		break;
	case EXPLAIN_UNDEFINED_SYMBOL:
		f = finding_add(c->out, FINDING_SONAME_VERSION_MISMATCH,
		    _("On the machine the message comes from, %s needs %s%s%s, and "
		    "the library that should provide it there lacks it: it loads "
		    "an older (or another) build of that library than the one it "
		    "was built against."), who,
		    m->symbol != NULL ? m->symbol : m->version,
		    m->symbol != NULL && m->version != NULL ? _(" of version ") : "",
		    m->symbol != NULL && m->version != NULL ? m->version : "");
		message_only(f, m, w);
		there_fix(c, f, m->soname, &t, true);
		break;
	case EXPLAIN_DLSYM_MISSING:
		f = finding_add(c->out, FINDING_SONAME_VERSION_MISMATCH,
		    _("On the machine the message comes from, a program looked up "
		    "%s in %s (dlsym) and that library does not define it: the "
		    "copy there is older than the one the program was built for."),
		    m->symbol, m->soname != NULL ? m->soname : "?");
		message_only(f, m, w);
		there_fix(c, f, m->soname, &t, true);
		break;
	default: {
		/* Not a loader message: the rules for it, with nothing of
		 * this machine (its driver, GPUs, libraries) to draw on. */
		struct facts blank = { 0 };
		struct ctx other = {
			.in = c->in, .facts = &blank, .m = c->m, .ex = c->ex,
			.ip = { .facts = &blank, .m = c->m }, .out = c->out,
		};
		size_t from = c->out->n;

		rx_explain_kind(&other, m);
		for (size_t i = from; i < c->out->n; i++)
			message_only(&c->out->v[i], m, w);
		strv_free(&other.libs_done);
		break;
	}
	}
	there_free(&t);
}
