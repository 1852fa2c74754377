/* Rules about what the dynamic loader would load: LIBCUDA_NOT_FOUND,
 * STUB_LIBCUDA, WSL_LIBCUDA, SONAME_NOT_FOUND, SONAME_OFF_SEARCH_PATH,
 * SONAME_SPOOF_SYMLINK, SONAME_VERSION_MISMATCH, OPTIONAL_LIB_MISSING,
 * BROKEN_LIBRARY, LIB_SHADOWED and MIXED_CUDA_VERSIONS.
 *
 * Pure: reads the library facts (the loader model's trace, the other
 * copies and which later step would reach them, the winner's ELF facts)
 * and appends findings. Noise rules: doctor resolves many names nobody
 * asked for, so in its survey an absent optional library, the unversioned
 * libcuda.so, a runtime that only a wheel or a conda environment carries
 * and NVML without a working driver say nothing, and a second toolkit's
 * runtime off the path is information; `explain` asks for one name because a program
 * failed on it, and gets every finding about it. What rules_gpu.c says
 * about a driver that is not loaded or not installed, and what
 * rules_env.c says about LD_LIBRARY_PATH entries, is not said again. */
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

/* A stubs directory anywhere in the search, whether or not a stub wins
 * today: the next dlopen("libcuda.so"), or an ldconfig that files the
 * stub under its SONAME libcuda.so.1, loads it. */
static void
rule_stub_dirs(const struct diagnose_input *in, struct findings *out,
    size_t from)
{
	const struct facts *facts = in->facts;
	const struct path_var *llp = &facts->env.ld_library_path;
	struct strv ev = STRV_INIT, conf_dirs = STRV_INIT, conf_files = STRV_INIT;
	bool on_llp_found = false;
	const char *sdir = NULL;	/* the first stubs directory: the subject */
	struct finding *f;

	for (size_t i = 0; i < llp->entries.n; i++) {
		const struct path_entry *e = &llp->entries.v[i];

		if (e->empty || e->exists == 0 || e->duplicate_of >= 0 ||
		    !lr_is_stubs_dir(e->value))
			continue;
		on_llp_found = true;
		if (sdir == NULL)
			sdir = e->value;
		strv_pushf(&ev, _("LD_LIBRARY_PATH entry %zu is a stubs directory: %s"),
		    i + 1, e->value);
	}
	for (size_t i = 0; i < facts->env.ldconf.n; i++) {
		const struct ldconf_dir *d = &facts->env.ldconf.v[i];

		if (d->exists == 0 || !lr_is_stubs_dir(d->dir))
			continue;
		strv_pushf(&ev, _("%s lists a stubs directory: %s"), d->from,
		    d->dir);
		if (sdir == NULL)
			sdir = d->dir;
		strv_push(&conf_dirs, d->dir);
		strv_push(&conf_files, d->from);
	}
	for (size_t i = 0; i < facts->libraries.n; i++) {
		const struct lib_fact *l = &facts->libraries.v[i];

		for (size_t j = 0; j < l->steps.n; j++) {
			const struct resolve_step *s = &l->steps.v[j];

			if ((s->source == STEP_RPATH || s->source == STEP_RUNPATH) &&
			    lr_is_stubs_dir(s->dir))
			{
				strv_pushf(&ev, _("%s searches a stubs directory: %s"),
				    s->owner != NULL ? s->owner : "?", s->dir);
				if (sdir == NULL)
					sdir = s->dir;
			}
		}
	}
	if (ev.n == 0) {
		strv_free(&conf_dirs);
		strv_free(&conf_files);
		return;
	}
	f = lr_find_mut(out, FINDING_STUB_LIBCUDA, from);
	if (f == NULL) {
		f = finding_add(out, FINDING_STUB_LIBCUDA,
		    _("A CUDA toolkit's stubs directory is in the loader's search. "
		    "The stub libcuda.so there exists only for linking; a "
		    "program or library that asks for libcuda.so, or an "
		    "ldconfig run that files the stub under libcuda.so.1, "
		    "loads it instead of the driver, and every CUDA call then "
		    "fails with CUDA_ERROR_STUB_LIBRARY (34)."));
		f->severity = SEV_WARNING;
		if (sdir != NULL)
			finding_subject(f, "%s", sdir);
	}
	for (size_t i = 0; i < ev.n; i++)
		strv_push(&f->evidence, ev.v[i]);
	finding_evidence_cap(f, EVIDENCE_MAX);
	if (on_llp_found)
		lr_fix_once(f, _("take the stubs directory out of LD_LIBRARY_PATH "
		    "(link with -L, never run with it):"),
		    lr_llp_without(facts, NULL, true));
	for (size_t i = 0; i < conf_dirs.n; i++)
		lr_fix_once(f, _("take the stubs directory out of the loader's "
		    "configuration:"), lr_ldconf_drop_line(conf_dirs.v[i],
		    conf_files.v[i]));
	if (conf_dirs.n > 0)
		fd_ldconfig(f);
	strv_free(&ev);
	strv_free(&conf_dirs);
	strv_free(&conf_files);
}

/* ------------------------------------------------ MIXED_CUDA_VERSIONS */

struct rt_dir {
	char		*dir;		/* normalised */
	unsigned	 major;
	const char	*soname;
	enum step_source via;
};

static void
add_rt_dir(struct rt_dir *v, size_t *n, size_t cap, const char *path,
    unsigned major, const char *soname, enum step_source via)
{
	char *d = path_dirname(path), *nd = path_normalise(d);

	free(d);
	if (lr_is_stubs_dir(nd) || *n == cap) {
		free(nd);
		return;
	}
	for (size_t i = 0; i < *n; i++)
		if (strcmp(v[i].dir, nd) == 0 && v[i].major == major) {
			free(nd);
			return;
		}
	v[*n].dir = nd;
	v[*n].major = major;
	v[*n].soname = soname;
	v[*n].via = via;
	(*n)++;
}

/* The CUDA major a toolkit's nvcc on PATH stands for, or 0. */
static unsigned
nvcc_major(const struct facts *facts)
{
	struct version v;

	for (size_t i = 0; i < facts->toolkits.n; i++) {
		const struct toolkit_fact *t = &facts->toolkits.v[i];

		if (strv_contains(&t->found_via, "PATH") && fact_known(&t->version) &&
		    version_parse(t->version.value, &v))
			return v.part[0];
	}
	return 0;
}

/* "libcudart.so.11.0, libcudart.so.12": the runtimes that mix. */
static void
mixed_subject(struct finding *f, const struct rt_dir *dirs, size_t n)
{
	struct strv seen = STRV_INIT;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		if (strv_contains(&seen, dirs[i].soname))
			continue;
		if (seen.n > 0)
			strbuf_puts(&sb, ", ");
		strbuf_puts(&sb, dirs[i].soname);
		strv_push(&seen, dirs[i].soname);
	}
	finding_subject(f, "%s", strbuf_str(&sb));
	strbuf_free(&sb);
	strv_free(&seen);
}

static void
rule_mixed(const struct diagnose_input *in, struct findings *out)
{
	const struct facts *facts = in->facts;
	struct rt_dir dirs[32];
	size_t n = 0;
	unsigned majors[32], nmajors = 0, keep = 0;
	struct strv llp_majors = STRV_INIT, drop = STRV_INIT;
	struct finding *f;

	for (size_t i = 0; i < facts->libraries.n; i++) {
		const struct lib_fact *l = &facts->libraries.v[i];
		struct version v;

		if (strncmp(l->soname, "libcudart.so.", 13) != 0 ||
		    !lr_soname_version(l->soname, &v))
			continue;
		if (l->resolved != NULL && !l->stub)
			add_rt_dir(dirs, &n, sizeof dirs / sizeof *dirs,
			    l->resolved, v.part[0], l->soname, l->via);
		for (size_t j = 0; j < l->copies.n; j++) {
			const struct lib_copy *c = &l->copies.v[j];

			if (c->reached_via != STEP_NONE && c->loadable)
				add_rt_dir(dirs, &n, sizeof dirs / sizeof *dirs,
				    c->path, v.part[0], l->soname, c->reached_via);
		}
	}
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		char key[16];

		for (unsigned j = 0; j < nmajors; j++)
			seen = seen || majors[j] == dirs[i].major;
		if (!seen && nmajors < sizeof majors / sizeof *majors)
			majors[nmajors++] = dirs[i].major;
		snprintf(key, sizeof key, "%u", dirs[i].major);
		if (dirs[i].via == STEP_LD_LIBRARY_PATH &&
		    !strv_contains(&llp_majors, key))
			strv_push(&llp_majors, key);
	}
	if (nmajors < 2)
		goto out;
	f = finding_add(out, FINDING_MIXED_CUDA_VERSIONS,
	    _("The loader's search holds CUDA runtimes of %u different majors. "
	    "Each major has its own sonames, so a program gets a runtime of "
	    "the major it was built for, but the other CUDA libraries "
	    "(cuBLAS, cuFFT, cuDNN, …) come from whichever directory is "
	    "first, and a mix of versions is what makes \"works for one "
	    "program, not another\" hard to pin down."), nmajors);
	if (llp_majors.n < 2)
		f->severity = SEV_INFO;
	mixed_subject(f, dirs, n);
	for (size_t i = 0; i < n; i++)
		strv_pushf(&f->evidence, _("%s: %s (CUDA %u), via %s"), dirs[i].dir,
		    dirs[i].soname, dirs[i].major, lr_via_words(dirs[i].via));
	finding_evidence_cap(f, EVIDENCE_MAX);
	if (llp_majors.n >= 2) {
		/* Keep the major of the nvcc on PATH, else the first
		 * LD_LIBRARY_PATH runtime's. */
		keep = nvcc_major(facts);
		for (size_t i = 0; i < n && keep == 0; i++)
			if (dirs[i].via == STEP_LD_LIBRARY_PATH)
				keep = dirs[i].major;
		for (size_t i = 0; i < n; i++)
			if (dirs[i].major != keep &&
			    dirs[i].via == STEP_LD_LIBRARY_PATH)
				strv_push(&drop, dirs[i].dir);
		strv_pushf(&f->fix, "# %s", _("keep one CUDA major on LD_LIBRARY_PATH:"));
		strv_push_owned(&f->fix, lr_llp_without(facts, &drop, false));
	} else {
		lr_fix_comment(f, _("side-by-side toolkits are supported; to use "
		    "only one, remove the other's ld.so.conf.d file and run "
		    "sudo ldconfig"));
		for (size_t i = 0; i < n; i++) {
			const char *file = lr_ldconf_file_of(facts, dirs[i].dir);

			if (file != NULL)
				strv_pushf(&f->fix, _("# %s (CUDA %u) is listed in %s"),
				    dirs[i].dir, dirs[i].major, file);
		}
	}
out:
	for (size_t i = 0; i < n; i++)
		free(dirs[i].dir);
	strv_free(&llp_majors);
	strv_free(&drop);
}

/* -------------------------------------------------------------- drivers */

/*
 * The findings about one library. survey is doctor's list, where nobody
 * asked for the name: absence of what is only sometimes needed says
 * nothing there. from is where this run's findings start in out, so
 * findings merge only with their own run's.
 */
static void
library_findings(const struct diagnose_input *in, const struct lib_fact *lib,
    bool survey, size_t from, struct findings *out)
{
	const struct facts *facts = in->facts;
	const struct lib_copy *best;
	struct version v;

	if (lib->soname == NULL)
		return;
	lr_rule_broken(lib, out);
	if (lib->resolved != NULL) {
		if (lr_is_libcuda(lib->soname) && lib->stub)
			lr_rule_stub_winner(facts, lib, out, from);
		else if (lr_streq(lib->soname, "libcuda.so.1") && facts->driver.is_wsl)
			lr_rule_wsl(facts, lib, out);
		if (lr_spoofed(lib))
			lr_rule_spoof(in->matrix, lib, out);
		else if (lr_soname_version(lib->soname, &v) &&
		    ((lib->elf_soname != NULL &&
		    strcmp(lib->elf_soname, lib->soname) != 0) ||
		    lr_verdefs_conflict(lib)))
			lr_rule_version(in->matrix, lib, out);
		lr_rule_shadowed(in, lib, out);
		return;
	}
	if (lr_has_fatal(lib))
		return;		/* BROKEN_LIBRARY says why */
	best = lr_best_off_path_copy(lib);
	if (lr_streq(lib->soname, "libcuda.so.1")) {
		if (facts->driver.is_wsl)
			lr_rule_wsl(facts, lib, out);
		else if (lr_driver_expected(facts))
			lr_rule_libcuda_not_found(facts, lib, out);
		return;
	}
	if (survey) {
		const struct lib_fact *cuda = lr_lib_named(facts, "libcuda.so.1");

		if (lr_streq(lib->soname, "libcuda.so"))
			return;
		if (lib->optional && best == NULL)
			return;
		/* NVML matters where the driver works; when libcuda.so.1
		 * is missing too, that finding covers both. */
		if (lr_streq(lib->soname, "libnvidia-ml.so.1") &&
		    (!lr_driver_expected(facts) || cuda == NULL ||
		    cuda->resolved == NULL || facts->driver.is_wsl))
			return;
		/* A runtime only a wheel or a conda environment carries is
		 * reached through the framework's own RPATH, never the
		 * search path. */
		if (best != NULL && lr_env_managed(facts, best->path))
			return;
		if (best != NULL && !lib->optional) {
			char *dir = path_dirname(best->path);
			bool said = lr_libdir_on_path(facts, dir);

			free(dir);
			if (said)
				return;
		}
	}
	if (lib->optional) {
		lr_rule_optional(facts, lib, best, out);
		return;
	}
	if (best != NULL) {
		lr_rule_off_path(in, lib, best, survey, out);
		return;
	}
	/* Every copy is on the path but passed over: BROKEN_LIBRARY said so. */
	if (lr_has_skipped(lib) || lib->dangling.n > 0)
		return;
	lr_rule_not_found(in->matrix, facts, lib, out);
}

void
rules_library(const struct diagnose_input *in, const struct lib_fact *lib,
    struct findings *out)
{
	library_findings(in, lib, false, out->n, out);
}

void
rules_loader(const struct diagnose_input *in, struct findings *out)
{
	size_t from = out->n;

	for (size_t i = 0; i < in->facts->libraries.n; i++)
		library_findings(in, &in->facts->libraries.v[i], true, from, out);
	rule_stub_dirs(in, out, from);
	rule_mixed(in, out);
}
