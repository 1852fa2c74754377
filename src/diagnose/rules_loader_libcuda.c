/* Loader rules about the driver library: LIBCUDA_NOT_FOUND, WSL_LIBCUDA
 * and a stub libcuda that wins. Pure. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "diagnose/fixdriver.h"
#include "diagnose/rules_loader_int.h"
#include "i18n.h"
#include "loader/resolve.h"
#include "util/pathnorm.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ------------------------------------------------------- libcuda rules */

static bool
has_linux_libcuda(const struct facts *facts)
{
	for (size_t i = 0; i < facts->driver.libs.n; i++)
		if (!facts->driver.libs.v[i].wsl &&
		    lr_streq(facts->driver.libs.v[i].name, "libcuda"))
			return true;
	return false;
}

/*
 * Whether libcuda.so.1 ought to load here. Not when rules_gpu.c already
 * says why it cannot (no GPU; the module not loaded, nouveau, no DKMS
 * build: those fire when the module is known not to be loaded), and not
 * when nothing shows a driver at all.
 */
bool
lr_driver_expected(const struct facts *facts)
{
	const struct driver_facts *d = &facts->driver;

	if (lr_is_value(&d->nvidia_loaded, "no"))
		return false;
	if (facts->gpus_state.state == FACT_KNOWN && facts->gpus.n == 0)
		return false;
	if (lr_is_value(&d->nvidia_loaded, "yes"))
		return true;
	for (size_t i = 0; i < facts->gpus.n; i++)
		if (lr_is_value(&facts->gpus.v[i].kernel_driver, "nvidia"))
			return true;
	return has_linux_libcuda(facts);
}

static void
fix_install_driver(struct finding *f, const struct facts *facts)
{
	fd_place_evidence(f, facts);
	fd_install(f, facts, NULL, NULL, NULL);
}

void
lr_rule_libcuda_not_found(const struct facts *facts, const struct lib_fact *lib,
    struct findings *out)
{
	const struct lib_copy *best = lr_best_off_path_copy(lib);
	const struct driver_lib *real = NULL;
	struct finding *f;

	for (size_t i = 0; i < facts->driver.libs.n && real == NULL; i++)
		if (!facts->driver.libs.v[i].wsl &&
		    lr_streq(facts->driver.libs.v[i].name, "libcuda"))
			real = &facts->driver.libs.v[i];
	if (best != NULL) {
		char *dir = path_dirname(best->path);

		f = finding_add(out, FINDING_LIBCUDA_NOT_FOUND,
		    _("The driver's libcuda.so.1 is installed in %s, but no step "
		    "of the loader's search reaches it, so every CUDA program "
		    "fails to start or reports no driver (cudaErrorInsufficientDriver, "
		    "\"CUDA driver version is insufficient\")."), dir);
		finding_subject(f, "%s", best->path);
		strv_pushf(&f->evidence, _("%s exists, off the search path"),
		    best->path);
		free(dir);
	} else if (real != NULL) {
		f = finding_add(out, FINDING_LIBCUDA_NOT_FOUND,
		    _("The NVIDIA driver's library %s is installed, but there "
		    "is no libcuda.so.1 link to it that the loader can find, so "
		    "every CUDA program fails to find the driver. ldconfig "
		    "makes that link; it has not run since the driver was "
		    "installed, or the library's directory is not in its "
		    "configuration."), real->path);
		finding_subject(f, "%s", real->path);
		strv_pushf(&f->evidence, _("driver library: %s (version %s)"),
		    real->path, real->version != NULL ? real->version : "?");
	} else {
		f = finding_add(out, FINDING_LIBCUDA_NOT_FOUND,
		    _("A GPU driver is in use, but no libcuda.so.1 exists where "
		    "the loader or cudawiz looked: the driver's userspace "
		    "libraries are not installed (or, in a container, not "
		    "mounted), so every CUDA program fails to find the driver."));
	}
	if (lr_is_value(&facts->driver.nvidia_loaded, "yes"))
		strv_pushf(&f->evidence, _("%s: the nvidia module is loaded"),
		    facts->driver.nvidia_loaded.source != NULL ?
		    facts->driver.nvidia_loaded.source : "/proc/driver/nvidia");
	for (size_t i = 0; i < lib->copies.n; i++)
		if (lib->copies.v[i].stub)
			strv_pushf(&f->evidence, _("%s is the toolkit's stub, not "
			    "a driver: it must never be loaded"),
			    lib->copies.v[i].path);
	lr_search_evidence(f, lib);
	finding_evidence_cap(f, EVIDENCE_MAX);

	if (best != NULL) {
		char *dir = path_dirname(best->path);

		lr_fix_reach_name(f, facts, dir, lib->soname, best);
		free(dir);
	} else if (real != NULL) {
		char *dir = path_dirname(real->path);

		if (lr_ldconfig_scans(facts, dir)) {
			/* No libcuda.so.1 exists yet: ldconfig makes the link
			 * from the file's SONAME, so it always changes the
			 * answer here. */
			lr_fix_comment(f, _("make the libcuda.so.1 link and rebuild "
			    "the cache:"));
			fd_ldconfig(f);
		} else {
			char *qt = lr_quoted(path_basename(real->path));
			char *link = xasprintf("%s/libcuda.so.1", dir);
			char *ql = lr_quoted(link);

			lr_fix_comment(f, _("make the link, then let the loader "
			    "find the directory:"));
			strv_pushf(&f->fix, "sudo ln -s %s %s", qt, ql);
			if (lr_conf_safe(dir))
				lr_fix_ldconf(f, dir, NULL);
			else
				lr_fix_prepend(f, dir);
			free(qt);
			free(link);
			free(ql);
		}
		free(dir);
	} else {
		fix_install_driver(f, facts);
	}
}

/* --------------------------------------------------------- WSL_LIBCUDA */

static void
wsl_linux_driver_evidence(struct finding *f, const struct facts *facts)
{
	for (size_t i = 0; i < facts->driver.libs.n; i++) {
		const struct driver_lib *l = &facts->driver.libs.v[i];

		if (!l->wsl)
			strv_pushf(&f->evidence, _("a Linux driver library inside "
			    "WSL: %s (version %s)"), l->path,
			    l->version != NULL ? l->version : "?");
	}
}

/* The first Linux driver library inside WSL: what is wrong there. */
static void
wsl_linux_subject(struct finding *f, const struct facts *facts)
{
	for (size_t i = 0; i < facts->driver.libs.n; i++)
		if (!facts->driver.libs.v[i].wsl) {
			finding_subject(f, "%s", facts->driver.libs.v[i].path);
			return;
		}
}

static void
fix_remove_linux_driver(struct finding *f, const struct facts *facts)
{
	lr_fix_comment(f, _("WSL uses the Windows driver; a Linux NVIDIA driver "
	    "must not be installed inside it. Find the packages and remove "
	    "them:"));
	for (size_t i = 0; i < facts->driver.libs.n; i++) {
		const struct driver_lib *l = &facts->driver.libs.v[i];
		char *q;

		if (l->wsl)
			continue;
		q = lr_quoted(l->path);
		strv_pushf(&f->fix, "dpkg -S %s", q);
		free(q);
	}
	lr_fix_comment(f, _("then: sudo apt-get remove --purge PACKAGE..."));
	fd_ldconfig(f);
}

static bool
has_wsl_copy(const struct lib_fact *lib, const char **path)
{
	for (size_t i = 0; i < lib->copies.n; i++)
		if (lr_under(lib->copies.v[i].path, WSL_LIB_DIR) &&
		    lib->copies.v[i].loadable) {
			*path = lib->copies.v[i].path;
			return true;
		}
	return false;
}

/* Who dlopens the unversioned libcuda.so: cuDNN 8 (its
 * libcudnn_cnn_infer.so.8 loads the driver by that name, and fails with
 * "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so:
 * cannot open shared object file"), and any framework that asks for the
 * name itself. One evidence line each; returns how many. */
static size_t
unversioned_users(const struct facts *facts, struct finding *f)
{
	size_t n = 0;

	for (size_t i = 0; i < facts->cudnn.n; i++) {
		const struct cudnn_fact *c = &facts->cudnn.v[i];
		const char *v = fact_known(&c->lib_version) ? c->lib_version.value :
		    fact_known(&c->version) ? c->version.value : NULL;

		if (v == NULL || version_major_str(v) != 8)
			continue;
		if (f != NULL)
			strv_pushf(&f->evidence, _("cuDNN %s in %s dlopens "
			    "\"libcuda.so\""), v, c->lib_dir);
		n++;
	}
	for (size_t i = 0; i < facts->python_envs.n; i++) {
		const struct py_env *e = &facts->python_envs.v[i];

		for (size_t j = 0; j < e->frameworks.n; j++) {
			const struct framework_fact *fw = &e->frameworks.v[j];
			bool uses = fw->gpu != FW_GPU_NO && fw->cudnn != NULL &&
			    version_major_str(fw->cudnn) == 8;

			for (size_t k = 0; k < fw->needs.n && !uses; k++)
				uses = lr_streq(fw->needs.v[k].soname, "libcuda.so");
			if (!uses)
				continue;
			if (f != NULL)
				strv_pushf(&f->evidence, _("%s %s in %s loads "
				    "\"libcuda.so\"%s"), fw->package, fw->version != NULL ?
				    fw->version : "", e->prefix, fw->cudnn != NULL ?
				    _(" through cuDNN 8") : "");
			n++;
		}
	}
	return n;
}

/*
 * WSL's /usr/lib/wsl/lib holds libcuda.so, libcuda.so.1 and libcuda.so.1.1,
 * but ld.so.cache only files a library under its SONAME (libcuda.so.1):
 * ldconfig never caches the unversioned name, so dlopen("libcuda.so")
 * finds it only through LD_LIBRARY_PATH. On a Linux host the driver's
 * development package puts a libcuda.so link in a default directory.
 */
static void
rule_wsl_unversioned(const struct facts *facts, struct findings *out)
{
	const struct lib_fact *un = facts_library(facts, "libcuda.so");
	struct finding *f;

	if (un == NULL || un->resolved != NULL ||
	    !lr_is_value(&facts->driver.wsl_unversioned, "yes") ||
	    unversioned_users(facts, NULL) == 0)
		return;
	f = finding_add(out, FINDING_WSL_LIBCUDA,
	    _("This is WSL, and cuDNN 8 (or a framework) loads the driver as "
	    "dlopen(\"libcuda.so\"), the unversioned name. WSL provides it only "
	    "in %s, and ldconfig never caches it by that name (only "
	    "libcuda.so.1), so the load fails: \"Could not load library "
	    "libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared "
	    "object file\", and convolutions stop."), WSL_LIB_DIR);
	finding_subject(f, "libcuda.so");
	unversioned_users(facts, f);
	strv_pushf(&f->evidence, _("%s exists, but no search step finds "
	    "\"libcuda.so\""), facts->driver.wsl_unversioned.source);
	lr_search_evidence(f, un);
	finding_evidence_cap(f, EVIDENCE_MAX);
	lr_fix_comment(f, _("put WSL's library directory on LD_LIBRARY_PATH "
	    "(add the line to ~/.bashrc to keep it):"));
	lr_fix_prepend(f, WSL_LIB_DIR);
}

void
lr_rule_wsl(const struct facts *facts, const struct lib_fact *lib,
    struct findings *out)
{
	const struct driver_facts *d = &facts->driver;
	bool linux_driver = has_linux_libcuda(facts);
	const char *wsl_copy = NULL;
	struct finding *f;

	if (lib->resolved == NULL) {
		if (has_wsl_copy(lib, &wsl_copy)) {
			f = finding_add(out, FINDING_WSL_LIBCUDA,
			    _("This is WSL: the GPU driver is the Windows one, and "
			    "its libcuda.so.1 is in %s. That directory is not in "
			    "the loader's search (WSL normally lists it in "
			    "/etc/ld.so.conf.d/ld.wsl.conf), so CUDA programs do "
			    "not find the driver."), WSL_LIB_DIR);
			finding_subject(f, "%s", wsl_copy);
			strv_pushf(&f->evidence, _("%s exists, off the search path"),
			    wsl_copy);
		} else {
			f = finding_add(out, FINDING_WSL_LIBCUDA,
			    _("This is WSL, but %s holds no libcuda.so.1: GPU "
			    "support is not set up. It needs WSL 2 and a current "
			    "NVIDIA driver installed on Windows (not inside "
			    "WSL)."), WSL_LIB_DIR);
			finding_subject(f, "%s", WSL_LIB_DIR);
			strv_pushf(&f->evidence, d->wsl_lib_dir ?
			    _("%s exists but has no libcuda.so.1") :
			    _("%s does not exist"), WSL_LIB_DIR);
		}
		lr_search_evidence(f, lib);
		wsl_linux_driver_evidence(f, facts);
		finding_evidence_cap(f, EVIDENCE_MAX);
		if (wsl_copy != NULL) {
			lr_fix_comment(f, _("put WSL's library directory back into "
			    "the loader's configuration:"));
			lr_fix_ldconf(f, WSL_LIB_DIR, "/etc/ld.so.conf.d/ld.wsl.conf");
			lr_fix_comment(f, _("or for this shell only:"));
			lr_fix_prepend(f, WSL_LIB_DIR);
		} else {
			lr_fix_comment(f, _("from Windows (PowerShell): update WSL, "
			    "check the distribution runs as version 2, and install "
			    "the NVIDIA driver for Windows"));
			strv_push(&f->fix, "wsl.exe --update");
			strv_push(&f->fix, "wsl.exe -l -v");
		}
		if (linux_driver)
			fix_remove_linux_driver(f, facts);
		return;
	}
	if (lib->stub)
		return;		/* STUB_LIBCUDA's to say */
	if (!lr_under(lib->resolved, "/usr/lib/wsl")) {
		f = finding_add(out, FINDING_WSL_LIBCUDA,
		    _("This is WSL, where only the Windows driver's libcuda.so.1 "
		    "in %s works, but the loader finds another one first: %s. "
		    "CUDA programs load it and find no GPU or fail to "
		    "initialise."), WSL_LIB_DIR, lib->resolved);
		finding_subject(f, "%s", lib->resolved);
		lr_winner_evidence(f, lib);
		if (has_wsl_copy(lib, &wsl_copy))
			strv_pushf(&f->evidence, _("shadowed: %s"), wsl_copy);
		wsl_linux_driver_evidence(f, facts);
		finding_evidence_cap(f, EVIDENCE_MAX);
		if (lib->via == STEP_LD_LIBRARY_PATH) {
			struct strv drop = STRV_INIT;
			char *dir = path_dirname(lib->resolved);

			strv_push_owned(&drop, dir);
			lr_fix_comment(f, _("drop the directory that shadows WSL's "
			    "driver from LD_LIBRARY_PATH:"));
			strv_push_owned(&f->fix, lr_llp_without(facts, &drop, false));
			strv_free(&drop);
		}
		if (linux_driver)
			fix_remove_linux_driver(f, facts);
		else {
			lr_fix_comment(f, _("remove the other libcuda (check which "
			    "package owns it first):"));
			lr_fix_rm(f, lib->resolved);
			fd_ldconfig(f);
		}
		return;
	}
	rule_wsl_unversioned(facts, out);
	if (!linux_driver)
		return;
	f = finding_add(out, FINDING_WSL_LIBCUDA,
	    _("This is WSL, and a Linux NVIDIA driver is installed inside it. "
	    "WSL's own libcuda.so.1 still wins today, but the Linux one can "
	    "take its place after the next ldconfig or driver update, and "
	    "its libraries do not work with the Windows driver."));
	f->severity = SEV_WARNING;
	wsl_linux_subject(f, facts);
	lr_winner_evidence(f, lib);
	wsl_linux_driver_evidence(f, facts);
	finding_evidence_cap(f, EVIDENCE_MAX);
	fix_remove_linux_driver(f, facts);
}

/* -------------------------------------------------------- STUB_LIBCUDA */

struct finding *
lr_find_mut(struct findings *out, enum finding_code code, size_t from)
{
	for (size_t i = from; i < out->n; i++)
		if (out->v[i].code == code)
			return &out->v[i];
	return NULL;
}

void
lr_rule_stub_winner(const struct facts *facts, const struct lib_fact *lib,
    struct findings *out, size_t from)
{
	bool versioned = lr_streq(lib->soname, "libcuda.so.1");
	struct finding *f = lr_find_mut(out, FINDING_STUB_LIBCUDA, from);
	char *dir;

	if (f == NULL) {
		f = finding_add(out, FINDING_STUB_LIBCUDA, versioned ?
		    _("libcuda.so.1 resolves to the CUDA toolkit's stub library. "
		    "The stub exists only so programs can be linked without a "
		    "driver; loaded at run time, every CUDA call fails with "
		    "CUDA_ERROR_STUB_LIBRARY (34) or \"CUDA driver version is "
		    "insufficient\", whatever driver is installed.") :
		    _("libcuda.so resolves to the CUDA toolkit's stub library. "
		    "Programs and libraries that dlopen(\"libcuda.so\") get the "
		    "stub, and every CUDA call then fails with "
		    "CUDA_ERROR_STUB_LIBRARY (34)."));
		if (!versioned)
			f->severity = SEV_WARNING;
		finding_subject(f, "%s", lib->resolved);
	} else if (versioned) {
		f->severity = SEV_ERROR;
	}
	lr_winner_evidence(f, lib);
	finding_evidence_cap(f, EVIDENCE_MAX);
	dir = path_dirname(lib->resolved);
	if (!lr_is_stubs_dir(dir)) {
		/* A link made by hand into the stubs directory. */
		lr_fix_comment(f, _("remove the link to the stub:"));
		lr_fix_rm(f, lib->resolved);
		fd_ldconfig(f);
	} else if (lib->via == STEP_LD_LIBRARY_PATH) {
		lr_fix_once(f, _("take the stubs directory out of LD_LIBRARY_PATH "
		    "(link with -L, never run with it):"),
		    lr_llp_without(facts, NULL, true));
	} else if (lib->via == STEP_CACHE &&
	    lr_ldconf_file_of(facts, dir) != NULL) {
		lr_fix_comment(f, _("take the stubs directory out of the loader's "
		    "configuration:"));
		lr_fix_ldconf_drop(f, dir, lr_ldconf_file_of(facts, dir));
		fd_ldconfig(f);
	}
	if (versioned && !has_linux_libcuda(facts) && !facts->driver.is_wsl)
		fix_install_driver(f, facts);
	free(dir);
}
