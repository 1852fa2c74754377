/* The rules of `cudawiz explain`: from the messages a user pasted, what
 * this machine says about them, and the matrix, to findings with fixes.
 *
 * Pure: the matches, the resolved libraries, the facts and the matrix come
 * in; findings go out. Where another rule family already knows the answer
 * it is asked, not re-derived: rules_library() for a soname's resolution,
 * rules_gpu() and rules_matrix() for the driver and the GPU. Their
 * findings are taken over with the message as the first evidence line; a
 * message that no fact here explains gets its own finding, built from the
 * message and the matrix. Every fix names what to run: the directory that
 * already has the library, or what to install for this machine's driver,
 * chosen through the matrix (the wheel, the conda package, the toolkit
 * package), never a guess the matrix does not back. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diagnose/diagnose.h"
#include "diagnose/install_plan.h"
#include "diagnose/loader_rules.h"
#include "explain/recognize.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "util/pathnorm.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

#define EVIDENCE_MAX	12

struct ctx {
	const struct diagnose_input	*in;
	const struct facts		*facts;
	const struct matrix		*m;	/* may be NULL */
	const struct explain		*ex;
	const struct explain_facts	*xf;
	struct ip_ctx			 ip;	/* facts and m, for install plans */
	struct findings			*out;
	struct findings			 machine;	/* rules_gpu + rules_matrix */
	bool				 adopted[FINDING_COUNT];
	struct strv			 libs_done;	/* sonames rules_library ran for */
	bool				 arch_done;
};

/* ------------------------------------------------------------- helpers */

static bool
streq(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}





static const struct lib_fact *
lib_named(const struct ctx *c, const char *soname)
{
	for (size_t i = 0; c->xf != NULL && i < c->xf->nlibs; i++)
		if (streq(c->xf->libs[i].soname, soname))
			return &c->xf->libs[i];
	return NULL;
}

/* The message as the first evidence line: what the finding answers. */
static void
message_evidence(struct finding *f, const struct explain_match *m)
{
	char *line = xasprintf(_("the message (line %zu): %s"), m->line,
	    m->excerpt != NULL ? m->excerpt : "");

	if (strv_contains(&f->evidence, line)) {
		free(line);
		return;
	}
	strv_push_owned(&f->evidence, line);
	memmove(f->evidence.v + 1, f->evidence.v,
	    (f->evidence.n - 1) * sizeof *f->evidence.v);
	f->evidence.v[0] = line;
}

static void
messages_evidence(struct ctx *c, size_t from, const struct explain_match *m)
{
	for (size_t i = from; i < c->out->n; i++)
		message_evidence(&c->out->v[i], m);
}

/* Moves the machine's finding of code (from rules_gpu or rules_matrix)
 * into the output, once; returns it, or NULL when there is none. */
static struct finding *
adopt(struct ctx *c, enum finding_code code, const struct explain_match *m)
{
	struct finding *f;

	if (c->adopted[code]) {
		for (size_t i = 0; i < c->out->n; i++)
			if (c->out->v[i].code == code) {
				message_evidence(&c->out->v[i], m);
				return &c->out->v[i];
			}
		return NULL;
	}
	for (size_t i = 0; i < c->machine.n; i++) {
		if (c->machine.v[i].code != code)
			continue;
		f = VEC_PUSH(c->out);
		*f = c->machine.v[i];
		/* The machine's copy now belongs to out. */
		memmove(c->machine.v + i, c->machine.v + i + 1,
		    (c->machine.n - i - 1) * sizeof *c->machine.v);
		c->machine.n--;
		c->adopted[code] = true;
		message_evidence(f, m);
		return f;
	}
	return NULL;
}

/* A finding of code already in the output (taken over or made here). */
static struct finding *
have(const struct ctx *c, enum finding_code code)
{
	for (size_t i = 0; i < c->out->n; i++)
		if (c->out->v[i].code == code)
			return &c->out->v[i];
	return NULL;
}

/* rules_library() for a soname, once per run; returns how many findings
 * it added. */
static size_t
library_rules(struct ctx *c, const char *soname, const struct explain_match *m)
{
	const struct lib_fact *lib = lib_named(c, soname);
	size_t from = c->out->n;

	if (lib == NULL || strv_contains(&c->libs_done, soname))
		return 0;
	strv_push(&c->libs_done, soname);
	rules_library(c->in, lib, c->out);
	messages_evidence(c, from, m);
	return c->out->n - from;
}

/* "libcudart.so.12 resolves to X (ld_library_path)" or "… is not found". */
static void
resolution_evidence(struct finding *f, const struct lib_fact *lib)
{
	if (lib == NULL)
		return;
	if (lib->resolved != NULL)
		strv_pushf(&f->evidence, _("here %s resolves to %s (%s)"),
		    lib->soname, lib->resolved, lib->via != STEP_NONE ?
		    step_words(lib->via, STEPW_FACT) : "?");
	else
		strv_pushf(&f->evidence, _("here the dynamic loader does not find %s"),
		    lib->soname);
}

static const char *
driver_version(const struct ctx *c, const char **src)
{
	return diagnose_driver_version(c->facts, src);
}

static void
driver_evidence(const struct ctx *c, struct finding *f)
{
	const struct driver_facts *d = &c->facts->driver;
	const char *src, *drv = driver_version(c, &src);

	if (drv == NULL) {
		strv_push(&f->evidence, _("the driver version here is not known "
		    "(no loaded nvidia module, no versioned libcuda)"));
		return;
	}
	strv_pushf(&f->evidence, _("driver in use: %s (%s)"), drv, src);
	if (fact_known(&d->max_cuda))
		strv_pushf(&f->evidence, _("driver %s runs CUDA releases up to %s"),
		    drv, d->max_cuda.value);
	if (fact_known(&d->compat_major))
		strv_pushf(&f->evidence,
		    _("driver %s runs every CUDA %s.x through minor-version compatibility"),
		    drv, d->compat_major.value);
}

/* ------------------------------------------------------ LD_LIBRARY_PATH */



/* export LD_LIBRARY_PATH=DIR"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" */
static char *
prepend_line(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_puts(&sb, "export LD_LIBRARY_PATH=");
	shquote(&sb, dir);
	strbuf_puts(&sb, "\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"");
	return strbuf_take(&sb);
}


static bool
drop_stubs(const char *dir, const void *arg)
{
	(void)arg;
	return lr_is_stubs_dir(dir);
}

static bool
drop_dir(const char *dir, const void *arg)
{
	return path_same(dir, arg);
}

static bool
drop_compat(const char *dir, const void *arg)
{
	char *n = path_normalise(dir);
	size_t l = strlen(n);
	bool compat = (l >= 7 && strcmp(n + l - 7, "/compat") == 0) ||
	    strstr(n, "/compat/") != NULL;

	(void)arg;
	free(n);
	return compat;
}


static const char *needed_driver(const struct ctx *c, const char **cuda);

/* Adds the install plan to the not-found findings rules_library made
 * for soname in [from, out->n). */
static void
plan_for_not_found(struct ctx *c, size_t from, const char *soname)
{
	for (size_t i = from; i < c->out->n; i++) {
		struct finding *f = &c->out->v[i];
		size_t before = f->fix.n;
		struct strv saved = STRV_INIT;

		if (f->code != FINDING_SONAME_NOT_FOUND || c->m == NULL)
			continue;
		/* Keep the old hint when the matrix has no plan to offer. */
		for (size_t k = 0; k < f->fix.n; k++)
			strv_push(&saved, f->fix.v[k]);
		ip_drop_wheel_hints(f);
		before = f->fix.n;
		ip_install_soname(&c->ip, f, soname);
		if (f->fix.n == before) {
			strv_free(&f->fix);
			f->fix = saved;
		} else {
			strv_free(&saved);
		}
	}
}

/* -------------------------------------------------- library messages */

static void
ld_library_path_evidence(const struct ctx *c, struct finding *f,
    const struct explain_match *m)
{
	const struct path_var *pv = &c->facts->env.ld_library_path;

	if (m->ld_library_path == NULL)
		return;
	strv_pushf(&f->evidence, _("the program ran with LD_LIBRARY_PATH=%s"),
	    m->ld_library_path);
	if (!pv->set || pv->raw == NULL || strcmp(pv->raw, m->ld_library_path) != 0)
		strv_pushf(&f->evidence, _("cudawiz ran with LD_LIBRARY_PATH=%s"),
		    pv->set && pv->raw != NULL ? pv->raw : _("(unset)"));
}

/* The driver's libraries: what rules_gpu knows about the driver comes
 * first, and a library missing here is reported even where doctor keeps
 * quiet (no GPU seen: the message says a program wanted one). */
static bool
driver_library(struct ctx *c, const struct explain_match *m)
{
	static const enum finding_code codes[] = {
		FINDING_NO_NVIDIA_GPU, FINDING_NOUVEAU_ACTIVE,
		FINDING_DKMS_MODULE_MISSING, FINDING_DRIVER_NOT_LOADED,
		FINDING_DRIVER_LIBRARY_MISMATCH,
	};
	const struct lib_fact *lib = lib_named(c, m->soname);
	const bool cuda = streq(m->soname, "libcuda.so.1");
	struct finding *f;
	size_t from = c->out->n;
	const char *need, *ver;

	if (!cuda && !streq(m->soname, "libnvidia-ml.so.1"))
		return false;
	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
		adopt(c, codes[i], m);
	library_rules(c, m->soname, m);
	if (c->out->n > from || lib == NULL || lib->resolved != NULL)
		return true;
	f = finding_add(c->out, cuda ? FINDING_LIBCUDA_NOT_FOUND :
	    FINDING_SONAME_NOT_FOUND,
	    _("The dynamic loader cannot find %s, which the NVIDIA driver "
	    "installs: no driver is installed here, or it is installed where "
	    "the loader does not look."), m->soname);
	message_evidence(f, m);
	resolution_evidence(f, lib);
	if (lib->error != NULL)
		strv_pushf(&f->evidence, _("the loader's error: %s"), lib->error);
	if (c->facts->gpus_state.state == FACT_KNOWN && c->facts->gpus.n == 0)
		strv_push(&f->evidence, _("no NVIDIA GPU is on this machine's PCI bus"));
	finding_evidence_cap(f, EVIDENCE_MAX);
	need = needed_driver(c, &ver);
	lr_fix_comment(f, _("install the NVIDIA driver (Debian/Ubuntu):"));
	if (need != NULL)
		ip_driver_fix(&c->ip, f, need);
	ip_fix_line(f, xstrdup("sudo ubuntu-drivers install"));
	return true;
}

static void
explain_soname(struct ctx *c, const struct explain_match *m)
{
	size_t from = c->out->n;

	if (!explain_is_soname(m->soname))
		return;
	if (!driver_library(c, m)) {
		if (library_rules(c, m->soname, m) == 0)
			return;
		plan_for_not_found(c, from, m->soname);
	}
	for (size_t i = from; i < c->out->n; i++)
		ld_library_path_evidence(c, &c->out->v[i], m);
}

/* Which file of the provider defines the version; NULL when none. */
static const char *
defining_copy(const struct ctx *c, const struct explain_match *m)
{
	size_t i = (size_t)(m - c->ex->matches.v);
	const struct strv *d;

	if (c->xf == NULL || c->xf->defining == NULL || i >= c->ex->matches.n)
		return NULL;
	d = &c->xf->defining[i];
	return d->n > 0 ? d->v[0] : NULL;
}

/* The version definitions of the winner, shortened to the last few: a
 * glibc defines dozens. */
static void
verdefs_evidence(struct finding *f, const struct lib_fact *lib)
{
	struct strbuf sb = STRBUF_INIT;
	size_t start;

	if (lib == NULL || lib->resolved == NULL)
		return;
	if (lib->elf_verdefs.n == 0) {
		strv_pushf(&f->evidence, _("%s defines no symbol versions"),
		    lib->target != NULL ? lib->target : lib->resolved);
		return;
	}
	start = lib->elf_verdefs.n > 6 ? lib->elf_verdefs.n - 6 : 0;
	if (start > 0)
		strbuf_puts(&sb, "…, ");
	for (size_t i = start; i < lib->elf_verdefs.n; i++) {
		if (i > start)
			strbuf_puts(&sb, ", ");
		strbuf_puts(&sb, lib->elf_verdefs.v[i]);
	}
	strv_pushf(&f->evidence, _("%s defines %s"),
	    lib->target != NULL ? lib->target : lib->resolved, strbuf_str(&sb));
	strbuf_free(&sb);
}

static bool
starts(const char *s, const char *prefix)
{
	return s != NULL && strncmp(s, prefix, strlen(prefix)) == 0;
}

static void
explain_version(struct ctx *c, const struct explain_match *m)
{
	const struct lib_fact *lib = lib_named(c, m->soname);
	const char *good = defining_copy(c, m);
	size_t from = c->out->n;
	struct finding *f;
	char *dir;

	if (m->soname != NULL && explain_is_soname(m->soname))
		library_rules(c, m->soname, m);
	for (size_t i = from; i < c->out->n; i++)
		if (c->out->v[i].code == FINDING_SONAME_VERSION_MISMATCH ||
		    c->out->v[i].code == FINDING_SONAME_NOT_FOUND) {
			plan_for_not_found(c, from, m->soname);
			return;
		}
	if (m->kind == EXPLAIN_VERSION_NOT_FOUND)
		f = finding_add(c->out, FINDING_SONAME_VERSION_MISMATCH,
		    _("%s needs version %s of %s, but the %s it loaded does not "
		    "define it: it got an older (or another) build of that "
		    "library than the one it was built against."),
		    m->required_by != NULL ? m->required_by : _("A program"),
		    m->version, m->soname != NULL ? m->soname : _("a library"),
		    m->file != NULL ? m->file : m->soname != NULL ? m->soname : "");
	else if (m->version != NULL)
		f = finding_add(c->out, FINDING_SONAME_VERSION_MISMATCH,
		    _("%s needs the symbol %s of version %s, which the %s it loaded "
		    "does not define: it got an older (or another) build of %s "
		    "than the one it was built against."),
		    m->required_by != NULL ? m->required_by : _("A program"),
		    m->symbol, m->version, m->soname != NULL ? m->soname :
		    _("library"), m->soname != NULL ? m->soname : _("that library"));
	else
		f = finding_add(c->out, FINDING_SONAME_VERSION_MISMATCH,
		    _("%s needs the symbol %s, which no library it loaded defines: "
		    "one of its libraries is another version than the one it was "
		    "built against."),
		    m->required_by != NULL ? m->required_by : _("A program"),
		    m->symbol);
	message_evidence(f, m);
	resolution_evidence(f, lib);
	verdefs_evidence(f, lib);
	if (good != NULL)
		strv_pushf(&f->evidence, _("%s defines %s"), good, m->version);
	finding_evidence_cap(f, EVIDENCE_MAX);
	if (good != NULL) {
		dir = path_dirname(good);
		strv_pushf(&f->fix, _("# load the copy that defines %s first:"),
		    m->version);
		ip_fix_line(f, prepend_line(dir));
		free(dir);
		if (lib != NULL && lib->via == STEP_LD_LIBRARY_PATH) {
			char *wdir = path_dirname(lib->resolved);
			char *line = lr_llp_filter(c->facts, drop_dir, wdir);

			if (line != NULL) {
				lr_fix_comment(f, _("or drop the directory that shadows it "
				    "from LD_LIBRARY_PATH:"));
				ip_fix_line(f, line);
			}
			free(wdir);
		}
		return;
	}
	if (starts(m->version, "GLIBC_")) {
		strv_pushf(&f->fix, _("# the C library cannot be swapped: run the program on a system whose glibc has %s (or in a container of one), or get a build made for this glibc. This one's version:"),
		    m->version);
		ip_fix_line(f, xstrdup("ldd --version"));
		return;
	}
	if (starts(m->version, "GLIBCXX_") || starts(m->version, "CXXABI_")) {
		strv_pushf(&f->fix, _("# a newer libstdc++ defines %s; in a conda environment:"),
		    m->version);
		ip_fix_line(f, xstrdup("conda install -c conda-forge libstdcxx-ng"));
		ip_fix_line(f, xstrdup("export LD_LIBRARY_PATH=\"$CONDA_PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\""));
		lr_fix_comment(f, _("or system-wide (Debian/Ubuntu):"));
		ip_fix_line(f, xstrdup("sudo apt-get install --only-upgrade libstdc++6"));
		return;
	}
	if (lib != NULL && lib->via == STEP_LD_LIBRARY_PATH) {
		char *wdir = path_dirname(lib->resolved);
		char *line = lr_llp_filter(c->facts, drop_dir, wdir);

		if (line != NULL) {
			lr_fix_comment(f, _("the copy on LD_LIBRARY_PATH shadows the one "
			    "the program brings; drop its directory:"));
			ip_fix_line(f, line);
		}
		free(wdir);
	}
	if (explain_is_soname(m->soname))
		ip_install_soname(&c->ip, f, m->soname);
	if (f->fix.n == 0) {
		lr_fix_comment(f, _("find which files define the version, and load "
		    "that one first:"));
		ip_fix_line(f, xasprintf("find / -xdev -name '%s*' 2>/dev/null",
		    m->soname != NULL && explain_is_soname(m->soname) ? m->soname :
		    "lib*.so*"));
	}
}

static void
explain_wrong_class(struct ctx *c, const struct explain_match *m)
{
	const struct lib_fact *lib = lib_named(c, m->soname);
	struct finding *f = NULL;
	char *dir, *line;
	size_t from = c->out->n;

	if (explain_is_soname(m->soname))
		library_rules(c, m->soname, m);
	for (size_t i = from; i < c->out->n && f == NULL; i++)
		if (c->out->v[i].code == FINDING_BROKEN_LIBRARY)
			f = &c->out->v[i];
	if (f != NULL) {
		/* The message proves a program failed on it. */
		f->severity = SEV_ERROR;
	} else {
		f = finding_add(c->out, FINDING_BROKEN_LIBRARY,
		    _("%s is a %s-bit library (%s); a 64-bit program cannot load "
		    "it. The loader skips such a file while it searches and "
		    "reports it only when no 64-bit copy comes after it."),
		    m->file != NULL ? m->file : m->soname != NULL ? m->soname : "?",
		    strstr(m->found, "32") != NULL ? "32" : "64", m->found);
		f->severity = SEV_ERROR;
		message_evidence(f, m);
		resolution_evidence(f, lib);
		finding_evidence_cap(f, EVIDENCE_MAX);
		if (m->file != NULL) {
			dir = path_dirname(m->file);
			line = lr_llp_filter(c->facts, drop_dir, dir);
			if (line != NULL) {
				lr_fix_comment(f, _("take the 32-bit directory out of "
				    "LD_LIBRARY_PATH:"));
				ip_fix_line(f, line);
			}
			free(dir);
		}
	}
	/* A 64-bit copy is still needed when none resolves. */
	if (lib != NULL && lib->resolved != NULL)
		return;
	if (f->fix.n == 0 || (!explain_is_soname(m->soname) &&
	    !streq(m->soname, "libcuda.so.1"))) {
		lr_fix_comment(f, _("find the 64-bit copies and load one of them first:"));
		ip_fix_line(f, xasprintf("find / -xdev -name '%s*' 2>/dev/null",
		    explain_is_soname(m->soname) ? m->soname : "lib*.so*"));
	}
	if (streq(m->soname, "libcuda.so.1")) {
		const char *src, *drv = driver_version(c, &src);
		char *branch = drv != NULL ? ip_branch_of(drv) : NULL;

		lr_fix_comment(f, _("install the 64-bit driver library (Debian/Ubuntu):"));
		if (branch != NULL)
			ip_fix_line(f, xasprintf("sudo apt-get install libnvidia-compute-%s",
			    branch));
		else
			ip_fix_line(f, xstrdup("sudo ubuntu-drivers install"));
		free(branch);
	} else if (explain_is_soname(m->soname)) {
		ip_install_soname(&c->ip, f, m->soname);
	}
}

/* cudnn64_8.dll → 8; 0 when not a cuDNN DLL the matrix knows. */
static unsigned
cudnn_dll_major(const struct ctx *c, const char *dll)
{
	for (unsigned mj = 7; mj <= 12; mj++) {
		const struct matrix_cudnn_library *cl = matrix_cudnn_library(c->m, mj);

		if (cl != NULL && cl->windows_dll != NULL &&
		    strcasecmp(cl->windows_dll, dll) == 0)
			return mj;
	}
	return 0;
}

static void
explain_dll(struct ctx *c, const struct explain_match *m)
{
	struct matrix_range r;
	const char *library;
	enum matrix_status st;
	struct finding *f;
	char cuda[24] = "", dashed[24], *range_s;
	const struct matrix_soname *linux_row;
	unsigned cm;

	if (c->m == NULL || m->soname == NULL)
		return;
	if ((cm = cudnn_dll_major(c, m->soname)) != 0) {
		const struct matrix_cudnn_library *cl = matrix_cudnn_library(c->m, cm);

		f = finding_add(c->out, FINDING_SONAME_NOT_FOUND,
		    _("Windows could not load %s, cuDNN %u's library: it is not in "
		    "any directory on PATH. cuDNN is installed separately from the "
		    "CUDA toolkit, and its bin directory must be on PATH (or its "
		    "DLLs copied into the toolkit's bin)."), m->soname, cm);
		f->severity = SEV_ERROR;
		message_evidence(f, m);
		strv_pushf(&f->evidence, _("%s is cuDNN %u (matrix: %s); on Linux it is %s"),
		    m->soname, cm, matrix_status_name(cl->status),
		    cl->sonames.n > 0 ? cl->sonames.v[0] : "?");
		lr_fix_comment(f, _("on Windows (PowerShell): put the bin directory of "
		    "the cuDNN you installed first on PATH, for example:"));
		strv_pushf(&f->fix, "$env:PATH = \"C:\\Program Files\\NVIDIA\\CUDNN\\v%u.x\\bin;$env:PATH\"",
		    cm);
		lr_fix_comment(f, _("or install it into the Python environment as a wheel:"));
		for (unsigned mj = 11; mj <= 13; mj++) {
			const struct matrix_wheel *w = cl->sonames.n > 0 ?
			    ip_wheel_for(c->m, "cudnn", mj, cl->sonames.v[0]) : NULL;

			if (w != NULL) {
				strv_pushf(&f->fix, "pip install %s", w->package);
				break;
			}
		}
		return;
	}
	if (!matrix_soname_cuda(c->m, m->soname, &r, &library, &st))
		return;
	if (r.max != NULL && strchr(r.max, '.') != NULL)
		ip_major_minor(r.max, cuda, sizeof cuda);
	else
		ip_newest_release(c->m, version_major_str(r.min), r.min, r.max, NULL, cuda,
		    sizeof cuda);
	range_s = ip_range_text(&r);
	f = finding_add(c->out, FINDING_SONAME_NOT_FOUND,
	    _("Windows could not load %s, the %s library of CUDA %s: no "
	    "directory on PATH holds it. The program was built for that CUDA "
	    "version; PATH and CUDA_PATH point to another toolkit, or none is "
	    "installed."), m->soname, library, range_s);
	message_evidence(f, m);
	strv_pushf(&f->evidence, _("%s: the %s library of CUDA %s (matrix: %s)"),
	    m->soname, library, range_s, matrix_status_name(st));
	free(range_s);
	linux_row = matrix_soname_for(c->m, library, r.min);
	if (linux_row != NULL)
		strv_pushf(&f->evidence, _("the Linux name of the same library is %s"),
		    linux_row->soname);
	if (cuda[0] != '\0') {
		snprintf(dashed, sizeof dashed, "%s", cuda);
		for (char *p = dashed; *p != '\0'; p++)
			if (*p == '.')
				*p = '_';
		strv_pushf(&f->fix, _("# on Windows (PowerShell): install CUDA %s, then put its bin directory first on PATH:"),
		    cuda);
		strv_pushf(&f->fix, "$env:PATH = \"$env:CUDA_PATH_V%s\\bin;$env:PATH\"",
		    dashed);
		if (linux_row != NULL) {
			const struct matrix_wheel *w = ip_wheel_for(c->m, library,
			    version_major_str(cuda), linux_row->soname);

			if (w != NULL) {
				lr_fix_comment(f, _("or install it into the Python environment as a wheel:"));
				strv_pushf(&f->fix, "pip install %s", w->package);
			}
		}
	}
	if (c->facts->driver.is_wsl && linux_row != NULL) {
		strv_pushf(&f->fix, _("# this is WSL, where Linux programs use %s instead; check it here:"),
		    linux_row->soname);
		strv_pushf(&f->fix, "cudawiz why %s", linux_row->soname);
	}
}

/* ---------------------------------------------------- driver messages */

/* The minimum driver the newest CUDA runtime here needs, or NULL. */
static const char *
needed_driver(const struct ctx *c, const char **cuda)
{
	const char *best = NULL;

	*cuda = NULL;
	for (size_t i = 0; c->m != NULL && i < c->facts->toolkits.n; i++) {
		const struct toolkit_fact *t = &c->facts->toolkits.v[i];
		const char *min;

		if (!fact_known(&t->version))
			continue;
		min = matrix_cuda_min_driver(c->m, t->version.value, MATRIX_LINUX, NULL);
		if (min != NULL && (best == NULL || version_cmp_str(min, best) > 0)) {
			best = min;
			*cuda = t->version.value;
		}
	}
	return best;
}

static void
toolkit_need_evidence(const struct ctx *c, struct finding *f)
{
	for (size_t i = 0; c->m != NULL && i < c->facts->toolkits.n; i++) {
		const struct toolkit_fact *t = &c->facts->toolkits.v[i];
		const char *min;

		if (!fact_known(&t->version))
			continue;
		min = matrix_cuda_min_driver(c->m, t->version.value, MATRIX_LINUX, NULL);
		if (min != NULL)
			strv_pushf(&f->evidence, _("CUDA %s at %s needs driver >= %s"),
			    t->version.value, t->root, min);
	}
}

static void
explain_driver_old(struct ctx *c, const struct explain_match *m)
{
	const char *src, *drv = driver_version(c, &src), *cuda, *need;
	struct finding *f;

	if ((f = adopt(c, FINDING_DRIVER_TOO_OLD, m)) != NULL)
		return;
	if ((f = have(c, FINDING_DRIVER_TOO_OLD)) != NULL) {
		message_evidence(f, m);
		return;
	}
	if (drv != NULL)
		f = finding_add(c->out, FINDING_DRIVER_TOO_OLD,
		    _("The program's CUDA runtime needs a newer NVIDIA driver than "
		    "the one in use here (%s%s%s). A driver runs CUDA runtimes up "
		    "to its own CUDA version (and, from CUDA 11 on, the other "
		    "minors of its major); a newer runtime fails with "
		    "cudaErrorInsufficientDriver (35)."), drv,
		    fact_known(&c->facts->driver.max_cuda) ? _(", CUDA up to ") : "",
		    fact_known(&c->facts->driver.max_cuda) ?
		    c->facts->driver.max_cuda.value : "");
	else
		f = finding_add(c->out, FINDING_DRIVER_TOO_OLD,
		    _("The program's CUDA runtime needs a newer NVIDIA driver than "
		    "the one it found. cudawiz cannot read the driver version here, "
		    "so the program may have run elsewhere (a container, another "
		    "machine)."));
	message_evidence(f, m);
	if (m->found != NULL)
		strv_pushf(&f->evidence, _("the message: the driver supports CUDA %s"),
		    m->found);
	driver_evidence(c, f);
	toolkit_need_evidence(c, f);
	resolution_evidence(f, lib_named(c, "libcuda.so.1"));
	finding_evidence_cap(f, EVIDENCE_MAX);
	need = needed_driver(c, &cuda);
	if (need == NULL && c->m != NULL) {
		const struct matrix_cuda_release *newest = matrix_newest_cuda(c->m);

		if (newest != NULL) {
			need = newest->linux_driver;
			cuda = newest->version;
		}
	}
	if (need != NULL) {
		strv_pushf(&f->fix, _("# install a driver that runs CUDA %s (>= %s), then reboot:"),
		    cuda, need);
		ip_driver_fix(&c->ip, f, need);
		lr_fix_comment(f, _("Ubuntu can pick the recommended one itself:"));
		ip_fix_line(f, xstrdup("sudo ubuntu-drivers install"));
	}
	if (fact_known(&c->facts->driver.max_cuda)) {
		unsigned mj = version_major_str(c->facts->driver.max_cuda.value);
		const struct matrix_wheel *w;
		char so[32];
		const struct matrix_soname *row = c->m != NULL ?
		    matrix_soname_for(c->m, "cudart", c->facts->driver.max_cuda.value) : NULL;

		snprintf(so, sizeof so, "%s", row != NULL ? row->soname : "");
		w = row != NULL ? ip_wheel_for(c->m, "cudart", mj, so) : NULL;
		strv_pushf(&f->fix, _("# or use a framework build and CUDA runtime for CUDA %s or older, which this driver runs:"),
		    c->facts->driver.max_cuda.value);
		if (w != NULL)
			ip_fix_line(f, xasprintf("pip install %s", w->package));
	}
	if (f->fix.n == 0) {
		lr_fix_comment(f, _("see which driver is installed and which CUDA it runs:"));
		ip_fix_line(f, xstrdup("nvidia-smi"));
	}
}

static void
explain_mismatch(struct ctx *c, const struct explain_match *m)
{
	const struct driver_facts *d = &c->facts->driver;
	struct finding *f;

	adopt(c, FINDING_DKMS_MODULE_MISSING, m);
	if (adopt(c, FINDING_DRIVER_LIBRARY_MISMATCH, m) != NULL)
		return;
	if ((f = have(c, FINDING_DRIVER_LIBRARY_MISMATCH)) != NULL) {
		message_evidence(f, m);
		return;
	}
	if (m->found != NULL && m->wanted != NULL)
		f = finding_add(c->out, FINDING_DRIVER_LIBRARY_MISMATCH,
		    _("The running nvidia kernel module is version %s but the "
		    "driver's userspace libraries are %s: the driver was updated "
		    "and the old module is still loaded, or a second driver "
		    "install left its libraries behind."), m->found, m->wanted);
	else
		f = finding_add(c->out, FINDING_DRIVER_LIBRARY_MISMATCH,
		    _("The running nvidia kernel module and the driver's userspace "
		    "libraries (libcuda, libnvidia-ml) are different versions: "
		    "the driver was updated and the old module is still loaded, or "
		    "a second driver install left its libraries behind."));
	message_evidence(f, m);
	if (fact_known(&d->module_version))
		strv_pushf(&f->evidence, "%s: %s", d->module_version.source,
		    d->module_version.value);
	for (size_t i = 0; i < d->libs.n; i++)
		if (!d->libs.v[i].wsl && d->libs.v[i].version != NULL)
			strv_pushf(&f->evidence, "%s: %s", d->libs.v[i].path,
			    d->libs.v[i].version);
	finding_evidence_cap(f, EVIDENCE_MAX);
	lr_fix_comment(f, _("load the module that matches the installed libraries: reboot"));
	ip_fix_line(f, xstrdup("sudo reboot"));
	lr_fix_comment(f, _("or, with nothing using the GPU, reload the modules:"));
	ip_fix_line(f, xstrdup("sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia"));
	if (m->wanted != NULL && strchr(m->wanted, '.') != NULL) {
		char *branch = ip_branch_of(m->wanted);

		lr_fix_comment(f, _("if that does not help, reinstall one driver so "
		    "module and libraries agree:"));
		ip_fix_line(f, xasprintf("sudo apt-get install --reinstall nvidia-driver-%s",
		    branch));
		free(branch);
	}
}

/* The findings that say why no GPU or driver is usable here. */
static void
explain_no_gpu(struct ctx *c, const struct explain_match *m)
{
	static const enum finding_code codes[] = {
		FINDING_NO_NVIDIA_GPU, FINDING_NOUVEAU_ACTIVE,
		FINDING_DKMS_MODULE_MISSING, FINDING_DRIVER_NOT_LOADED,
		FINDING_DRIVER_LIBRARY_MISMATCH, FINDING_NO_VISIBLE_DEVICES,
	};

	struct explain_match as_lib = *m;

	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
		if (m->kind == EXPLAIN_NO_DRIVER && codes[i] == FINDING_NO_VISIBLE_DEVICES)
			continue;
		adopt(c, codes[i], m);
	}
	/* The same question as a message about libcuda.so.1 itself. */
	as_lib.soname = (char *)"libcuda.so.1";
	driver_library(c, &as_lib);
}

static void
explain_stub(struct ctx *c, const struct explain_match *m)
{
	const struct lib_fact *lib = lib_named(c, "libcuda.so.1");
	const struct path_var *llp = &c->facts->env.ld_library_path;
	struct finding *f;
	char *line;
	const char *cuda, *need;

	library_rules(c, "libcuda.so.1", m);
	/* dlopen("libcuda.so") is what finds a stub in a stubs directory;
	 * its absence alone says nothing. */
	if (lib_named(c, "libcuda.so") != NULL &&
	    lib_named(c, "libcuda.so")->resolved != NULL)
		library_rules(c, "libcuda.so", m);
	if ((f = have(c, FINDING_STUB_LIBCUDA)) != NULL) {
		/* The message proves a program loaded it. */
		f->severity = SEV_ERROR;
		message_evidence(f, m);
		return;
	}
	if (lib != NULL && lib->resolved != NULL)
		f = finding_add(c->out, FINDING_STUB_LIBCUDA,
		    _("The program loaded a CUDA toolkit's stub libcuda, which "
		    "exists only for linking: every CUDA call fails with "
		    "CUDA_ERROR_STUB_LIBRARY (34). Here libcuda.so.1 resolves to "
		    "%s, so the program ran with another library path (a stubs "
		    "directory on its LD_LIBRARY_PATH or RPATH) or in another "
		    "environment."), lib->resolved);
	else
		f = finding_add(c->out, FINDING_STUB_LIBCUDA,
		    _("The program loaded a CUDA toolkit's stub libcuda, which "
		    "exists only for linking: every CUDA call fails with "
		    "CUDA_ERROR_STUB_LIBRARY (34). It finds the stub because the "
		    "driver's own libcuda.so.1 is not installed, or a stubs "
		    "directory comes first in its search."));
	message_evidence(f, m);
	resolution_evidence(f, lib);
	for (size_t i = 0; i < llp->entries.n; i++)
		if (!llp->entries.v[i].empty && lr_is_stubs_dir(llp->entries.v[i].value))
			strv_pushf(&f->evidence, _("LD_LIBRARY_PATH entry %zu is a stubs directory: %s"),
			    i + 1, llp->entries.v[i].value);
	for (size_t i = 0; i < c->facts->toolkits.n; i++)
		if (c->facts->toolkits.v[i].stubs_dir != NULL)
			strv_pushf(&f->evidence, _("a stub libcuda lives in %s"),
			    c->facts->toolkits.v[i].stubs_dir);
	finding_evidence_cap(f, EVIDENCE_MAX);
	line = lr_llp_filter(c->facts, drop_stubs, NULL);
	if (line != NULL) {
		lr_fix_comment(f, _("take the stubs directory out of LD_LIBRARY_PATH "
		    "(link with -L, never run with it):"));
		ip_fix_line(f, line);
	}
	if (lib == NULL || lib->resolved == NULL) {
		need = needed_driver(c, &cuda);
		lr_fix_comment(f, _("install the NVIDIA driver, which brings the real "
		    "libcuda.so.1:"));
		if (need != NULL)
			ip_driver_fix(&c->ip, f, need);
		else
			ip_fix_line(f, xstrdup("sudo ubuntu-drivers install"));
	}
	if (line == NULL && lib != NULL && lib->resolved != NULL) {
		lr_fix_comment(f, _("in the environment that failed, find what puts "
		    "the stubs directory first:"));
		ip_fix_line(f, xstrdup("printf '%s\\n' \"$LD_LIBRARY_PATH\" | tr ':' '\\n' | grep -n stubs"));
	}
}

/* ------------------------------------------------------ GPU and PTX */

/* "8.6" → "86" into buf. */
static void
sm_digits(const char *cc, char *buf, size_t n)
{
	size_t k = 0;

	for (const char *p = cc; *p != '\0' && k + 1 < n; p++)
		if (*p != '.')
			buf[k++] = *p;
	buf[k] = '\0';
}

static const struct gpu_fact *
first_gpu_with_cc(const struct facts *facts)
{
	for (size_t i = 0; i < facts->gpus.n; i++)
		if (fact_known(&facts->gpus.v[i].cc))
			return &facts->gpus.v[i];
	return NULL;
}

static void
explain_arch(struct ctx *c, const struct explain_match *m)
{
	const struct gpu_fact *g = first_gpu_with_cc(c->facts);
	const char *cc = m->cc != NULL ? m->cc : g != NULL ? g->cc.value : NULL;
	const struct matrix_architecture *arch = NULL;
	struct finding *f;
	char sm[16];

	if (c->arch_done) {
		if ((f = have(c, FINDING_GPU_ARCH_UNSUPPORTED)) != NULL)
			message_evidence(f, m);
		return;
	}
	c->arch_done = true;
	if (cc != NULL && c->m != NULL)
		arch = matrix_architecture(c->m, cc);
	if (cc != NULL)
		f = finding_add(c->out, FINDING_GPU_ARCH_UNSUPPORTED,
		    _("The program (or the framework build) has no machine code "
		    "for compute capability %s%s%s%s, and no PTX the driver could "
		    "compile for it, so its kernels cannot run on this GPU."), cc,
		    arch != NULL ? " (" : "", arch != NULL ? arch->name : "",
		    arch != NULL ? ")" : "");
	else
		f = finding_add(c->out, FINDING_GPU_ARCH_UNSUPPORTED,
		    _("The program (or the framework build) has no machine code "
		    "for this GPU's compute capability, and no PTX the driver "
		    "could compile for it, so its kernels cannot run on this GPU."));
	message_evidence(f, m);
	if (m->device != NULL && m->cc != NULL)
		strv_pushf(&f->evidence, _("the message: %s has compute capability %s"),
		    m->device, m->cc);
	if (m->ccs.n > 0) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < m->ccs.n; i++) {
			if (i > 0)
				strbuf_putc(&sb, ' ');
			strbuf_puts(&sb, m->ccs.v[i]);
		}
		strv_pushf(&f->evidence, _("the build has code for: %s"), strbuf_str(&sb));
		strbuf_free(&sb);
	}
	for (size_t i = 0; i < c->facts->gpus.n; i++) {
		const struct gpu_fact *gg = &c->facts->gpus.v[i];

		if (fact_known(&gg->cc))
			strv_pushf(&f->evidence, _("GPU here: %s %s, compute capability %s"),
			    gg->pci_address, fact_known(&gg->name) ? gg->name.value : "",
			    gg->cc.value);
	}
	if (arch != NULL && arch->first_cuda != NULL)
		strv_pushf(&f->evidence, _("%s (%s) is supported from CUDA %s%s%s (matrix: %s)"),
		    arch->cc, arch->name, arch->first_cuda,
		    arch->last_cuda != NULL ? _(" to ") : "",
		    arch->last_cuda != NULL ? arch->last_cuda : "",
		    matrix_status_name(arch->status));
	finding_evidence_cap(f, EVIDENCE_MAX);
	if (cc == NULL) {
		lr_fix_comment(f, _("find the GPU's compute capability:"));
		ip_fix_line(f, xstrdup("nvidia-smi --query-gpu=name,compute_cap --format=csv"));
		return;
	}
	sm_digits(cc, sm, sizeof sm);
	if (arch != NULL && arch->last_cuda != NULL) {
		strv_pushf(&f->fix, _("# CUDA after %s no longer builds for compute capability %s: use a framework build for CUDA %s or older, and a driver that runs it"),
		    arch->last_cuda, cc, arch->last_cuda);
	} else if (arch != NULL && arch->first_cuda != NULL) {
		strv_pushf(&f->fix, _("# install a framework build made with CUDA %s or newer (PyTorch: pick that CUDA version at https://pytorch.org/get-started/locally/), for example:"),
		    arch->first_cuda);
		ip_fix_line(f, xstrdup("pip install --upgrade torch"));
	}
	strv_pushf(&f->fix, _("# building it yourself: add to nvcc's options -gencode arch=compute_%s,code=sm_%s"),
	    sm, sm);
	strv_pushf(&f->fix, "export TORCH_CUDA_ARCH_LIST=%s", cc);
}

static void
explain_ptx(struct ctx *c, const struct explain_match *m)
{
	const struct gpu_fact *g = first_gpu_with_cc(c->facts);
	const char *src, *drv = driver_version(c, &src), *cuda, *need;
	struct finding *f;
	char sm[16];

	if (adopt(c, FINDING_PTX_TOOLCHAIN_TOO_NEW, m) != NULL)
		return;
	if ((f = have(c, FINDING_PTX_TOOLCHAIN_TOO_NEW)) != NULL) {
		message_evidence(f, m);
		return;
	}
	f = finding_add(c->out, FINDING_PTX_TOOLCHAIN_TOO_NEW,
	    _("The program carries PTX made by a newer CUDA toolkit than the "
	    "driver%s%s%s can compile: the runtime may load, but kernels that "
	    "must be JIT-compiled from that PTX fail with "
	    "cudaErrorUnsupportedPtxVersion (222)."), drv != NULL ? " (" : "",
	    drv != NULL ? drv : "", drv != NULL ? ")" : "");
	message_evidence(f, m);
	driver_evidence(c, f);
	toolkit_need_evidence(c, f);
	finding_evidence_cap(f, EVIDENCE_MAX);
	need = needed_driver(c, &cuda);
	if (need != NULL) {
		strv_pushf(&f->fix, _("# install a driver that runs CUDA %s (>= %s), then reboot:"),
		    cuda, need);
		ip_driver_fix(&c->ip, f, need);
	}
	if (g != NULL) {
		sm_digits(g->cc.value, sm, sizeof sm);
		strv_pushf(&f->fix, _("# or build machine code for the GPU instead of PTX: add to nvcc's options -gencode arch=compute_%s,code=sm_%s"),
		    sm, sm);
	}
	if (fact_known(&c->facts->driver.max_cuda))
		strv_pushf(&f->fix, _("# or build with a toolkit this driver runs: CUDA %s or older"),
		    c->facts->driver.max_cuda.value);
	if (need == NULL) {
		lr_fix_comment(f, _("see which CUDA version the driver runs:"));
		ip_fix_line(f, xstrdup("nvidia-smi"));
	}
}

static void
explain_forward_compat(struct ctx *c, const struct explain_match *m)
{
	const struct lib_fact *lib = lib_named(c, "libcuda.so.1");
	struct finding *f;
	char *line;

	if ((f = have(c, FINDING_FORWARD_COMPAT_UNSUPPORTED)) != NULL) {
		message_evidence(f, m);
		return;
	}
	f = finding_add(c->out, FINDING_FORWARD_COMPAT_UNSUPPORTED,
	    _("The program loaded a forward-compatibility libcuda (the "
	    "cuda-compat package), which works only on data-center GPUs with "
	    "a supported driver branch; elsewhere every CUDA call fails with "
	    "cudaErrorCompatNotSupportedOnDevice (804)."));
	message_evidence(f, m);
	resolution_evidence(f, lib);
	driver_evidence(c, f);
	finding_evidence_cap(f, EVIDENCE_MAX);
	line = lr_llp_filter(c->facts, drop_compat, NULL);
	if (line != NULL) {
		lr_fix_comment(f, _("take the compat directory out of LD_LIBRARY_PATH:"));
		ip_fix_line(f, line);
	}
	lr_fix_comment(f, _("or remove the forward-compatibility package and use "
	    "the driver's own libcuda:"));
	ip_fix_line(f, xstrdup("sudo apt-get remove 'cuda-compat-*'"));
}

/* ---------------------------------------------------------------- cuDNN */

static void
cudnn_installs_evidence(const struct ctx *c, struct finding *f)
{
	for (size_t i = 0; i < c->facts->cudnn.n; i++) {
		const struct cudnn_fact *d = &c->facts->cudnn.v[i];
		const char *v = fact_known(&d->version) ? d->version.value :
		    fact_known(&d->lib_version) ? d->lib_version.value : "?";

		if (fact_known(&d->cuda_major))
			strv_pushf(&f->evidence, _("cuDNN %s for CUDA %s in %s (%s)"), v,
			    d->cuda_major.value, d->lib_dir, d->where);
		else
			strv_pushf(&f->evidence, _("cuDNN %s in %s (%s)"), v, d->lib_dir,
			    d->where);
	}
	if (c->facts->cudnn.n == 0)
		strv_push(&f->evidence, _("no cuDNN installation was found here"));
}

/* An installed cuDNN of the same major, at least version want. */
static const struct cudnn_fact *
cudnn_satisfying(const struct ctx *c, const char *want)
{
	const struct cudnn_fact *best = NULL;

	for (size_t i = 0; i < c->facts->cudnn.n; i++) {
		const struct cudnn_fact *d = &c->facts->cudnn.v[i];
		const char *v = fact_known(&d->version) ? d->version.value : NULL;

		if (v == NULL || version_major_str(v) != version_major_str(want) || version_cmp_str(v, want) < 0)
			continue;
		if (best == NULL || version_cmp_str(v, best->version.value) > 0)
			best = d;
	}
	return best;
}

static void
explain_cudnn_version(struct ctx *c, const struct explain_match *m)
{
	const struct cudnn_fact *good;
	struct finding *f;
	unsigned wmaj = version_major_str(m->wanted);
	char *so;

	if (m->found == NULL || m->wanted == NULL)
		return;
	f = finding_add(c->out, FINDING_FRAMEWORK_CUDA_MISMATCH,
	    _("The framework was built with cuDNN %s but loaded cuDNN %s. It "
	    "needs the same major version and at least the minor it was built "
	    "with, so it stops (TensorFlow: \"DNN library is not found\" or "
	    "\"Failed to get convolution algorithm\")."), m->wanted, m->found);
	message_evidence(f, m);
	so = xasprintf("libcudnn.so.%u", version_major_str(m->found));
	resolution_evidence(f, lib_named(c, so));
	free(so);
	cudnn_installs_evidence(c, f);
	finding_evidence_cap(f, EVIDENCE_MAX);
	good = cudnn_satisfying(c, m->wanted);
	if (good != NULL) {
		strv_pushf(&f->fix, _("# cuDNN %s in %s will do: load it first"),
		    good->version.value, good->lib_dir);
		ip_fix_line(f, prepend_line(good->lib_dir));
		return;
	}
	so = xasprintf("libcudnn.so.%u", wmaj);
	if (c->m == NULL || !ip_install_cudnn(&c->ip, f, so, wmaj, m->wanted)) {
		strv_pushf(&f->fix, _("# install cuDNN %u, version %s or newer, for the CUDA version the framework uses"),
		    wmaj, m->wanted);
		ip_fix_line(f, xasprintf("pip install 'nvidia-cudnn-cu12>=%s,<%u'",
		    m->wanted, wmaj + 1));
	}
	free(so);
}

enum cudnn_hint {
	HINT_MIXED = 0,	/* sub-libraries of two installs, or one missing */
	HINT_MEMORY,
	HINT_DRIVER,
	HINT_ARCH,
	HINT_RUNTIME,
	HINT_CALLER,
	HINT_UPGRADE,
	HINT_KERNEL,
	HINT_OTHER,
};

static enum cudnn_hint
cudnn_hint_of(const char *code)
{
	static const struct {
		const char	*part;
		enum cudnn_hint	 hint;
	} parts[] = {
		{ "VERSION_MISMATCH", HINT_MIXED },
		{ "SUBLIBRARY", HINT_MIXED },
		{ "PREREQUISITE", HINT_MIXED },
		{ "INCOMPATIBLE_CUDA_DRIVER", HINT_DRIVER },
		{ "EXECUTION_FAILED_CUDA_DRIVER", HINT_DRIVER },
		{ "INCOMPATIBLE_CUDART", HINT_RUNTIME },
		{ "ARCH_MISMATCH", HINT_ARCH },
		{ "NOT_INITIALIZED", HINT_MEMORY },
		{ "ALLOC", HINT_MEMORY },
		{ "INTERNAL_ERROR", HINT_MEMORY },
		{ "BAD_PARAM", HINT_CALLER },
		{ "INVALID_VALUE", HINT_CALLER },
		{ "NOT_SUPPORTED", HINT_UPGRADE },
		{ "EXECUTION_FAILED", HINT_KERNEL },
		{ "MAPPING_ERROR", HINT_KERNEL },
	};

	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		if (strstr(code, parts[i].part) != NULL)
			return parts[i].hint;
	return HINT_OTHER;
}

/* The cuDNN wheel for this machine's CUDA major, for upgrade advice. */
static void
cudnn_upgrade_fix(const struct ctx *c, struct finding *f)
{
	unsigned majors[8];
	size_t n = c->m != NULL ? ip_cuda_majors(&c->ip, majors, 8) : 0;

	for (size_t i = 0; i < n; i++)
		for (unsigned cm = 12; cm >= 8; cm--) {
			const struct matrix_cudnn_library *cl = matrix_cudnn_library(c->m, cm);
			const struct matrix_wheel *w = cl != NULL && cl->sonames.n > 0 ?
			    ip_wheel_for(c->m, "cudnn", majors[i], cl->sonames.v[0]) : NULL;

			if (w != NULL) {
				ip_fix_line(f, xasprintf("pip install --upgrade %s", w->package));
				return;
			}
		}
	ip_fix_line(f, xstrdup("pip install --upgrade nvidia-cudnn-cu12"));
}

static void
explain_cudnn_status(struct ctx *c, const struct explain_match *m)
{
	enum cudnn_hint hint = cudnn_hint_of(m->code);
	const struct gpu_fact *g;
	struct finding *f;

	if (m->number >= 0)
		f = finding_add(c->out, FINDING_CUDNN_FAILED,
		    _("cuDNN returned %s (%ld): %s."), m->code, m->number,
		    m->meaning != NULL ? _(m->meaning) : _("an error"));
	else
		f = finding_add(c->out, FINDING_CUDNN_FAILED,
		    _("cuDNN returned %s: %s."), m->code,
		    m->meaning != NULL ? _(m->meaning) : _("an error this table does not know"));
	message_evidence(f, m);
	cudnn_installs_evidence(c, f);
	for (size_t i = 0; i < c->facts->cudnn.n; i++) {
		const struct lib_fact *lib = lib_named(c, c->facts->cudnn.v[i].soname);

		if (lib != NULL)
			resolution_evidence(f, lib);
	}
	if (hint == HINT_DRIVER || hint == HINT_MEMORY || hint == HINT_KERNEL)
		driver_evidence(c, f);
	finding_evidence_cap(f, EVIDENCE_MAX);
	switch (hint) {
	case HINT_MIXED:
		if (c->facts->cudnn.n > 0) {
			const struct cudnn_fact *best = &c->facts->cudnn.v[0];

			for (size_t i = 1; i < c->facts->cudnn.n; i++)
				if (fact_known(&c->facts->cudnn.v[i].version) &&
				    (!fact_known(&best->version) ||
				    version_cmp_str(c->facts->cudnn.v[i].version.value,
				    best->version.value) > 0))
					best = &c->facts->cudnn.v[i];
			strv_pushf(&f->fix, _("# load all of cuDNN from one installation (%s) first:"),
			    best->lib_dir);
			ip_fix_line(f, prepend_line(best->lib_dir));
		} else {
			lr_fix_comment(f, _("install cuDNN whole, for this machine's CUDA:"));
			cudnn_upgrade_fix(c, f);
		}
		break;
	case HINT_MEMORY:
		lr_fix_comment(f, _("see what holds the GPU's memory:"));
		ip_fix_line(f, xstrdup("nvidia-smi"));
		lr_fix_comment(f, _("TensorFlow: allocate GPU memory as needed instead "
		    "of all at start:"));
		ip_fix_line(f, xstrdup("export TF_FORCE_GPU_ALLOW_GROWTH=true"));
		lr_fix_comment(f, _("if memory is free, check that cuDNN is built for "
		    "the CUDA major in use (evidence above), and reinstall it:"));
		cudnn_upgrade_fix(c, f);
		break;
	case HINT_DRIVER: {
		const char *cuda, *need = needed_driver(c, &cuda);

		lr_fix_comment(f, _("update the NVIDIA driver:"));
		if (need != NULL)
			ip_driver_fix(&c->ip, f, need);
		else
			ip_fix_line(f, xstrdup("sudo ubuntu-drivers install"));
		break;
	}
	case HINT_ARCH:
		g = first_gpu_with_cc(c->facts);
		if (g != NULL)
			strv_pushf(&f->evidence, _("GPU here: compute capability %s"),
			    g->cc.value);
		lr_fix_comment(f, _("this cuDNN has no code for the GPU: install a "
		    "cuDNN release that supports it (newer GPUs need newer cuDNN; "
		    "cuDNN 9 dropped GPUs below compute capability 5.0):"));
		cudnn_upgrade_fix(c, f);
		break;
	case HINT_RUNTIME:
		lr_fix_comment(f, _("install the cuDNN built for the CUDA major the "
		    "program uses (the cuN suffix of the wheel):"));
		cudnn_upgrade_fix(c, f);
		break;
	case HINT_CALLER:
		lr_fix_comment(f, _("the calling code passed something cuDNN rejects "
		    "(shapes, data types, layouts): upgrade the framework, or "
		    "report it with the input that fails; to see where:"));
		ip_fix_line(f, xstrdup("export CUDNN_LOGERR_DBG=1 CUDNN_LOGDEST_DBG=stderr"));
		break;
	case HINT_UPGRADE:
		lr_fix_comment(f, _("a newer cuDNN may implement it:"));
		cudnn_upgrade_fix(c, f);
		break;
	case HINT_KERNEL:
		lr_fix_comment(f, _("make the failing call show where it fails:"));
		ip_fix_line(f, xstrdup("export CUDA_LAUNCH_BLOCKING=1"));
		lr_fix_comment(f, _("and check the driver and the GPU:"));
		ip_fix_line(f, xstrdup("nvidia-smi"));
		break;
	case HINT_OTHER:
		lr_fix_comment(f, _("cuDNN's own log says more:"));
		ip_fix_line(f, xstrdup("export CUDNN_LOGERR_DBG=1 CUDNN_LOGDEST_DBG=stderr"));
		break;
	}
}

/* ------------------------------------------------------------- driver */

static void
explain_match(struct ctx *c, const struct explain_match *m)
{
	switch (m->kind) {
	case EXPLAIN_DLOPEN_FAILED:
	case EXPLAIN_CANNOT_OPEN:
		explain_soname(c, m);
		break;
	case EXPLAIN_UNDEFINED_SYMBOL:
	case EXPLAIN_VERSION_NOT_FOUND:
		explain_version(c, m);
		break;
	case EXPLAIN_WRONG_ELF_CLASS:
		explain_wrong_class(c, m);
		break;
	case EXPLAIN_DLL_NOT_FOUND:
		explain_dll(c, m);
		break;
	case EXPLAIN_DRIVER_TOO_OLD:
		explain_driver_old(c, m);
		break;
	case EXPLAIN_DRIVER_MISMATCH:
		explain_mismatch(c, m);
		break;
	case EXPLAIN_NO_DRIVER:
	case EXPLAIN_NO_DEVICE:
		explain_no_gpu(c, m);
		break;
	case EXPLAIN_STUB_LIBRARY:
		explain_stub(c, m);
		break;
	case EXPLAIN_NO_KERNEL_IMAGE:
	case EXPLAIN_ARCH_UNSUPPORTED:
		explain_arch(c, m);
		break;
	case EXPLAIN_PTX_TOOLCHAIN:
		explain_ptx(c, m);
		break;
	case EXPLAIN_FORWARD_COMPAT:
		explain_forward_compat(c, m);
		break;
	case EXPLAIN_CUDNN_VERSION:
		explain_cudnn_version(c, m);
		break;
	case EXPLAIN_CUDNN_STATUS:
		explain_cudnn_status(c, m);
		break;
	case EXPLAIN_CUDA_ERROR:
		if (m->number == 221)
			library_rules(c, "libnvidia-ptxjitcompiler.so.1", m);
		break;
	case EXPLAIN_KIND_COUNT:
		break;
	}
}

void
rules_explain(const struct diagnose_input *in, const struct explain *ex,
    const struct explain_facts *xf, struct findings *out)
{
	struct ctx c = {
		.in = in, .facts = in->facts, .m = in->matrix, .ex = ex, .xf = xf,
		.ip = { .facts = in->facts, .m = in->matrix }, .out = out,
	};

	rules_gpu(in->facts, &c.machine);
	if (in->matrix != NULL)
		rules_matrix(in, &c.machine);
	for (size_t i = 0; i < ex->matches.n; i++)
		explain_match(&c, &ex->matches.v[i]);
	/* Text no table knows: what the loader says about the libraries it
	 * names is still worth saying. */
	if (ex->matches.n == 0)
		for (size_t i = 0; xf != NULL && i < xf->nlibs; i++) {
			size_t from = out->n;

			if (strv_contains(&c.libs_done, xf->libs[i].soname))
				continue;
			strv_push(&c.libs_done, xf->libs[i].soname);
			rules_library(in, &xf->libs[i], out);
			plan_for_not_found(&c, from, xf->libs[i].soname);
		}
	findings_free(&c.machine);
	strv_free(&c.libs_done);
	findings_sort(out);
}
