/* The explain rules for library messages: a soname the loader cannot
 * find, a version or symbol it lacks, a library of the wrong ELF class,
 * a Windows DLL; see rules_explain.c. Pure. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diagnose/diagnose.h"
#include "diagnose/fixcmd.h"
#include "diagnose/rules_explain_int.h"
#include "diagnose/rules_install_plan.h"
#include "diagnose/rules_loader_int.h"
#include "explain/recognize.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "util/pathnorm.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

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
bool
rx_driver_library(struct ctx *c, const struct explain_match *m)
{
	static const enum finding_code codes[] = {
		FINDING_NO_NVIDIA_GPU, FINDING_NOUVEAU_ACTIVE,
		FINDING_DKMS_MODULE_MISSING, FINDING_DRIVER_NOT_LOADED,
		FINDING_DRIVER_LIBRARY_MISMATCH,
	};
	const struct lib_fact *lib = rx_lib_named(c, m->soname);
	const bool cuda = rx_streq(m->soname, "libcuda.so.1");
	struct finding *f;
	size_t from = c->out->n;
	const char *need, *ver;

	if (!cuda && !rx_streq(m->soname, "libnvidia-ml.so.1"))
		return false;
	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
		rx_adopt(c, codes[i], m);
	rx_library_rules(c, m->soname, m);
	if (c->out->n > from || lib == NULL || lib->resolved != NULL)
		return true;
	f = finding_add(c->out, cuda ? FINDING_LIBCUDA_NOT_FOUND :
	    FINDING_SONAME_NOT_FOUND,
	    _("The dynamic loader cannot find %s, which the NVIDIA driver "
	    "installs: no driver is installed here, or it is installed where "
	    "the loader does not look."), m->soname);
	rx_message_evidence(f, m);
	rx_resolution_evidence(f, lib);
	if (lib->error != NULL)
		strv_pushf(&f->evidence, _("the loader's error: %s"), lib->error);
	if (c->facts->gpus_state.state == FACT_KNOWN && c->facts->gpus.n == 0)
		strv_push(&f->evidence, _("no NVIDIA GPU is on this machine's PCI bus"));
	finding_evidence_cap(f, EVIDENCE_MAX);
	need = rx_needed_driver(c, &ver);
	lr_fix_comment(f, _("install the NVIDIA driver (Debian/Ubuntu):"));
	if (need != NULL)
		ip_driver_fix(&c->ip, f, need);
	ip_fix_line(f, xstrdup("sudo ubuntu-drivers install"));
	return true;
}

void
rx_explain_soname(struct ctx *c, const struct explain_match *m)
{
	size_t from = c->out->n;

	if (!explain_is_soname(m->soname))
		return;
	if (!rx_driver_library(c, m)) {
		if (rx_library_rules(c, m->soname, m) == 0)
			return;
		rx_plan_for_not_found(c, from, m->soname);
	}
	for (size_t i = from; i < c->out->n; i++)
		ld_library_path_evidence(c, &c->out->v[i], m);
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

void
rx_explain_version(struct ctx *c, const struct explain_match *m)
{
	const struct lib_fact *lib = rx_lib_named(c, m->soname);
	const char *good = rx_defining(c, m);
	size_t from = c->out->n;
	struct finding *f;
	char *dir;

	if (rx_explain_symbol_provider(c, m))
		return;
	if (m->soname != NULL && explain_is_soname(m->soname))
		rx_library_rules(c, m->soname, m);
	for (size_t i = from; i < c->out->n; i++)
		if (c->out->v[i].code == FINDING_SONAME_VERSION_MISMATCH ||
		    c->out->v[i].code == FINDING_SONAME_NOT_FOUND) {
			rx_plan_for_not_found(c, from, m->soname);
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
	rx_message_evidence(f, m);
	rx_resolution_evidence(f, lib);
	verdefs_evidence(f, lib);
	if (good != NULL)
		strv_pushf(&f->evidence, _("%s defines %s"), good, m->version);
	finding_evidence_cap(f, EVIDENCE_MAX);
	if (good != NULL) {
		dir = path_dirname(good);
		strv_pushf(&f->fix, _("# load the copy that defines %s first:"),
		    m->version);
		ip_fix_line(f, lr_llp_prepend_line(dir));
		free(dir);
		if (lib != NULL && lib->via == STEP_LD_LIBRARY_PATH) {
			char *wdir = path_dirname(lib->resolved);
			char *line = lr_llp_filter(c->facts, rx_drop_dir, wdir);

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
		const struct fix_want cxx = { .channel = "conda-forge",
		    .package = "libstdcxx-ng" };
		const struct fix_want std6 = { .channel = "apt",
		    .package = "libstdc++6", .upgrade = true };
		struct matrix *builtin = c->m == NULL ? matrix_embedded() : NULL;
		const struct matrix *cat = c->m != NULL ? c->m : builtin;

		/* Both through the catalogue: a line only for what it holds. */
		if (fixcmd_published(cat, &cxx) == MATRIX_YES) {
			strv_pushf(&f->fix, _("# a newer libstdc++ defines %s; in a conda environment:"),
			    m->version);
			fixcmd_install(cat, f, NULL, &cxx, 1);
			ip_fix_line(f, xstrdup("export LD_LIBRARY_PATH=\"$CONDA_PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\""));
		} else {
			strv_pushf(&f->fix, _("# a newer libstdc++ defines %s: take "
			    "one from the compiler that built the program"),
			    m->version);
		}
		if (fixcmd_published(cat, &std6) == MATRIX_YES) {
			lr_fix_comment(f, _("or system-wide (Debian/Ubuntu):"));
			fixcmd_install(cat, f, NULL, &std6, 1);
		}
		matrix_free(builtin);
		return;
	}
	if (lib != NULL && lib->via == STEP_LD_LIBRARY_PATH) {
		char *wdir = path_dirname(lib->resolved);
		char *line = lr_llp_filter(c->facts, rx_drop_dir, wdir);

		if (line != NULL) {
			lr_fix_comment(f, _("the copy on LD_LIBRARY_PATH shadows the one "
			    "the program brings; drop its directory:"));
			ip_fix_line(f, line);
		}
		free(wdir);
	}
	if (explain_is_soname(m->soname))
		ip_install_soname(&c->ip, f, m->soname);
	if (f->fix.n == 0 && explain_is_soname(m->soname)) {
		strv_pushf(&f->fix, _("# no copy of %s here defines it: install the "
		    "release the program was built against; where each copy is "
		    "and which one loads:"), m->soname);
		strv_pushf(&f->fix, "cudawiz why %s", m->soname);
	} else if (f->fix.n == 0) {
		strv_pushf(&f->fix, _("# the library that should define %s is not "
		    "named in the message: see what the program loads and which "
		    "symbols stay undefined, then put a copy that has it first (or "
		    "install the release the program was built against)"),
		    m->symbol != NULL ? m->symbol : m->version);
		if (m->required_by != NULL && strchr(m->required_by, '/') != NULL) {
			char *q = shquote_new(m->required_by);

			ip_fix_line(f, xasprintf("ldd -r %s", q));
			free(q);
		}
	}
}

void
rx_explain_wrong_class(struct ctx *c, const struct explain_match *m)
{
	const struct lib_fact *lib = rx_lib_named(c, m->soname);
	struct finding *f = NULL;
	size_t from = c->out->n;

	if (explain_is_soname(m->soname))
		rx_library_rules(c, m->soname, m);
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
		rx_message_evidence(f, m);
		rx_resolution_evidence(f, lib);
		finding_evidence_cap(f, EVIDENCE_MAX);
		if (m->file != NULL)
			rx_fix_drop_dir_of(c, f, m->file, _("take the 32-bit "
			    "directory out of LD_LIBRARY_PATH:"));
	}
	/* A 64-bit copy is still needed when none resolves. */
	if (lib != NULL && lib->resolved != NULL)
		return;
	if (f->fix.n == 0 || (!explain_is_soname(m->soname) &&
	    !rx_streq(m->soname, "libcuda.so.1"))) {
		if (explain_is_soname(m->soname)) {
			lr_fix_comment(f, _("see every copy and its class, then load a 64-bit one first:"));
			strv_pushf(&f->fix, "cudawiz why %s", m->soname);
		} else {
			char *q = shquote_new(m->file != NULL ? m->file :
			    m->soname != NULL ? m->soname : "?");

			strv_push(&f->fix, _("# install the 64-bit build of the library and put its directory first on LD_LIBRARY_PATH; its class:"));
			ip_fix_line(f, xasprintf("file -L %s", q));
			free(q);
		}
	}
	if (rx_streq(m->soname, "libcuda.so.1")) {
		const char *src, *drv = rx_driver_version(c, &src);
		char *branch = drv != NULL ? ip_branch_of(drv) : NULL;

		char *pkg = branch != NULL ?
		    xasprintf("libnvidia-compute-%s", branch) : NULL;
		const struct fix_want want = { .channel = "apt", .package = pkg };
		struct matrix *builtin = c->m == NULL ? matrix_embedded() : NULL;
		const struct matrix *cat = c->m != NULL ? c->m : builtin;

		/* The driver's own branch, where Ubuntu published a package of
		 * it (the catalogue's apt rows); otherwise words, not a guess. */
		if (pkg != NULL && fixcmd_published(cat, &want) == MATRIX_YES) {
			lr_fix_comment(f, _("install the 64-bit driver library (Debian/Ubuntu):"));
			fixcmd_install(cat, f, NULL, &want, 1);
		} else if (pkg != NULL) {
			strv_pushf(&f->fix, _("# Ubuntu published no %s that cudawiz "
			    "knows: install the 64-bit library of driver %s from "
			    "where that driver came from (NVIDIA's installer: "
			    "https://www.nvidia.com/Download/index.aspx)"), pkg, drv);
		} else {
			lr_fix_comment(f, _("install the 64-bit driver library (Debian/Ubuntu):"));
			ip_fix_line(f, xstrdup("sudo ubuntu-drivers install"));
		}
		matrix_free(builtin);
		free(pkg);
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

void
rx_explain_dll(struct ctx *c, const struct explain_match *m)
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
		rx_message_evidence(f, m);
		strv_pushf(&f->evidence, _("%s is cuDNN %u (matrix: %s); on Linux it is %s"),
		    m->soname, cm, matrix_status_name(cl->status),
		    cl->sonames.n > 0 ? cl->sonames.v[0] : "?");
		lr_fix_comment(f, _("on Windows (PowerShell): put the bin directory of "
		    "the cuDNN you installed first on PATH, for example:"));
		strv_pushf(&f->fix, "$env:PATH = \"C:\\Program Files\\NVIDIA\\CUDNN\\v%u.x\\bin;$env:PATH\"",
		    cm);
		for (unsigned mj = 11; mj <= 13; mj++) {
			const struct matrix_wheel *w = cl->sonames.n > 0 ?
			    ip_wheel_for(c->m, "cudnn", mj, cl->sonames.v[0]) : NULL;
			char max[16];
			struct fix_want want = { .channel = "pip", .max = max };

			snprintf(max, sizeof max, "%u", cm);
			if (w == NULL)
				continue;
			want.package = w->package;
			if (fixcmd_published(c->m, &want) != MATRIX_YES)
				continue;
			lr_fix_comment(f, _("or install it into the Python environment as a wheel:"));
			fixcmd_install(c->m, f, NULL, &want, 1);
			break;
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
	rx_message_evidence(f, m);
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

			struct fix_want want = { .channel = "pip" };

			if (w != NULL) {
				want.package = w->package;
				if (fixcmd_published(c->m, &want) == MATRIX_YES) {
					lr_fix_comment(f, _("or install it into the Python environment as a wheel:"));
					fixcmd_install(c->m, f, NULL, &want, 1);
				}
			}
		}
	}
	if (c->facts->driver.is_wsl && linux_row != NULL) {
		strv_pushf(&f->fix, _("# this is WSL, where Linux programs use %s instead; check it here:"),
		    linux_row->soname);
		strv_pushf(&f->fix, "cudawiz why %s", linux_row->soname);
	}
}

