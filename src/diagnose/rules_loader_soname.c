/* Loader rules about one soname: BROKEN_LIBRARY, SONAME_NOT_FOUND,
 * SONAME_OFF_SEARCH_PATH, OPTIONAL_LIB_MISSING, SONAME_SPOOF_SYMLINK,
 * SONAME_VERSION_MISMATCH and LIB_SHADOWED. Pure. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "diagnose/fixdriver.h"
#include "diagnose/rules_loader_int.h"
#include "diagnose/fixcmd.h"
#include "diagnose/subject.h"
#include "i18n.h"
#include "loader/resolve.h"
#include "util/pathnorm.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ------------------------------------------------------- BROKEN_LIBRARY */

/* True when a step stopped the whole search on a file it cannot load. */
bool
lr_has_fatal(const struct lib_fact *lib)
{
	for (size_t i = 0; i < lib->steps.n; i++)
		if (lib->steps.v[i].result == STEP_FATAL)
			return true;
	return false;
}

bool
lr_has_skipped(const struct lib_fact *lib)
{
	for (size_t i = 0; i < lib->steps.n; i++)
		if (lib->steps.v[i].result == STEP_SKIPPED)
			return true;
	return false;
}

void
lr_rule_broken(const struct lib_fact *lib, struct findings *out)
{
	bool fatal = lr_has_fatal(lib), skipped = lr_has_skipped(lib);
	struct finding *f;

	if (!fatal && !skipped && lib->dangling.n == 0 && lib->elf_error == NULL)
		return;
	if (fatal)
		f = finding_add(out, FINDING_BROKEN_LIBRARY,
		    _("The search for %s meets a file the loader cannot load, "
		    "and the loader stops there with an error instead of "
		    "looking further: %s cannot be loaded at all, even where a "
		    "good copy exists later in the search."), lib->soname,
		    lib->soname);
	else if (lib->resolved == NULL)
		f = finding_add(out, FINDING_BROKEN_LIBRARY,
		    _("The only files named %s on the search path are broken "
		    "(a dangling link, an unreadable file, or a library for "
		    "another architecture), so the loader passes over them and "
		    "%s is not found."),
		    lib->soname, lib->soname);
	else if (lib->elf_error != NULL && !skipped && lib->dangling.n == 0)
		f = finding_add(out, FINDING_BROKEN_LIBRARY,
		    _("%s resolves to a file whose ELF structure is damaged: "
		    "loading it may fail or crash."), lib->soname);
	else
		f = finding_add(out, FINDING_BROKEN_LIBRARY,
		    _("The search for %s passes over broken files (a dangling "
		    "link, or a library for another architecture) before it "
		    "finds the one it loads. Nothing fails today, but they are "
		    "leftovers that make the search hard to follow."),
		    lib->soname);
	finding_subject(f, "%s", lib->soname);
	f->severity = fatal ? SEV_ERROR : lib->resolved == NULL ? SEV_WARNING :
	    lib->elf_error != NULL ? SEV_WARNING : SEV_INFO;
	for (size_t i = 0; i < lib->steps.n; i++) {
		const struct resolve_step *s = &lib->steps.v[i];
		char *words;

		if (s->result != STEP_FATAL && s->result != STEP_SKIPPED)
			continue;
		words = lr_step_words(s);
		if (s->result == STEP_FATAL)
			strv_pushf(&f->evidence, _("%s (%s): %s; the search stops here"),
			    s->path != NULL ? s->path : "?", words,
			    s->detail != NULL ? s->detail : "?");
		else
			strv_pushf(&f->evidence, _("%s (%s): %s; passed over"),
			    s->path != NULL ? s->path : "?", words,
			    s->detail != NULL ? s->detail : "?");
		free(words);
	}
	for (size_t i = 0; i < lib->dangling.n; i++) {
		const struct lib_dangling *d = &lib->dangling.v[i];

		if (d->link != NULL)
			strv_pushf(&f->evidence, _("%s -> %s (%s): a dangling link, passed over"),
			    d->path, d->link, lr_via_words(d->via));
		else
			strv_pushf(&f->evidence, _("%s: the ld.so.cache names this file, "
			    "which is gone"), d->path);
	}
	if (lib->elf_error != NULL)
		strv_pushf(&f->evidence, "%s", lib->elf_error);
	if (lib->resolved != NULL)
		lr_winner_evidence(f, lib);
	finding_evidence_cap(f, EVIDENCE_MAX);

	for (size_t i = 0; i < lib->steps.n; i++) {
		const struct resolve_step *s = &lib->steps.v[i];
		char *q;

		if ((s->result != STEP_FATAL && s->result != STEP_SKIPPED) ||
		    s->path == NULL)
			continue;
		if (s->unreadable) {
			lr_fix_comment(f, _("the loader cannot read the file; "
			    "make it readable (or remove it):"));
			lr_fix_chmod_readable(f, s->path);
			continue;
		}
		q = lr_quoted(s->path);
		lr_fix_comment(f, s->result == STEP_FATAL ?
		    _("what the file really is (a text file, a Git LFS pointer, "
		    "a truncated download?):") :
		    _("what the file is built for:"));
		strv_pushf(&f->fix, "file -L %s", q);
		lr_fix_comment(f, s->result == STEP_FATAL ?
		    _("replace it with the real library, or remove it:") :
		    _("a library of another architecture does not belong in "
		    "this directory; remove it or move it:"));
		lr_fix_rm(f, s->path);
		free(q);
	}
	{
		bool stale = false;

		for (size_t i = 0; i < lib->dangling.n; i++) {
			const struct lib_dangling *d = &lib->dangling.v[i];

			if (d->link == NULL) {
				stale = true;
				continue;
			}
			lr_fix_comment(f, _("remove the dangling link (ldconfig makes "
			    "the right one for installed libraries):"));
			lr_fix_rm(f, d->path);
		}
		if (stale || lib->dangling.n > 0)
			fd_ldconfig(f);
	}
	if (lib->elf_error != NULL && lib->resolved != NULL) {
		char *q = lr_quoted(lib->target != NULL ? lib->target : lib->resolved);

		lr_fix_comment(f, _("check the file, and reinstall the package that "
		    "owns it:"));
		strv_pushf(&f->fix, "readelf -d %s", q);
		strv_pushf(&f->fix, "dpkg -S %s", q);
		free(q);
	}
}

/* ---------------------------------------------- not found / off the path */

/* Only what was published: fixcmd says so in words when nothing was (no
 * CUDA 10 runtime or cuDNN 7 wheel ever existed). */
static void
fix_install_hint(const struct matrix *m, struct finding *f,
    const char *soname)
{
	struct version v;
	char *stem = lr_stem_of(soname);

	if (stem != NULL && strcmp(stem, "libcudart") == 0 &&
	    lr_soname_version(soname, &v)) {
		char *ver = v.nparts >= 2 ? xasprintf("%u.%u", v.part[0],
		    v.part[1]) : NULL;

		fixcmd_cudart(m, f, NULL, v.part[0], ver);
		free(ver);
	} else if (stem != NULL && strncmp(stem, "libcudnn", 8) == 0) {
		if (lr_soname_version(soname, &v))
			fixcmd_cudnn(m, f, NULL, v.part[0], NULL, NULL, 0);
	} else if (stem != NULL && strcmp(stem, "libnvidia-ml") == 0) {
		lr_fix_comment(f, _("NVML comes with the NVIDIA driver; install or "
		    "repair the driver"));
	}
	free(stem);
}

void
lr_rule_not_found(const struct matrix *m, const struct facts *facts,
    const struct lib_fact *lib, struct findings *out)
{
	struct finding *f;
	struct strbuf pat = STRBUF_INIT;
	char *q;

	f = finding_add(out, FINDING_SONAME_NOT_FOUND,
	    _("The dynamic loader cannot find %s: no search step has it, and "
	    "there is no copy in any directory cudawiz looked at (the search "
	    "path, the toolkits, cuDNN and driver directories). A program "
	    "that needs it fails to start or, if it loads it with dlopen(), "
	    "goes on without it (a framework falls back to the CPU)."),
	    lib->soname);
	subj_soname(f, facts, lib->soname);
	lr_search_evidence(f, lib);
	for (size_t i = 0; i < lib->copies.n; i++)
		if (!lib->copies.v[i].loadable)
			strv_pushf(&f->evidence, _("%s exists but cannot be loaded: %s"),
			    lib->copies.v[i].path, lib->copies.v[i].problem != NULL ?
			    lib->copies.v[i].problem : "?");
	finding_evidence_cap(f, EVIDENCE_MAX);
	lr_fix_comment(f, _("look for it elsewhere on this machine:"));
	strbuf_puts(&pat, lib->soname);
	strbuf_putc(&pat, '*');
	q = lr_quoted(strbuf_str(&pat));
	strv_pushf(&f->fix, "find / -xdev -name %s 2>/dev/null", q);
	free(q);
	strbuf_free(&pat);
	lr_fix_comment(f, _("then add its directory to the search:"));
	strv_push(&f->fix,
	    "export LD_LIBRARY_PATH=DIR\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"");
	fix_install_hint(m, f, lib->soname);
}

/* Another soname of the same library resolves: "libcudart.so.13" when
 * libcudart.so.12 is off the path. */
static const struct lib_fact *
sibling_resolved(const struct facts *facts, const struct lib_fact *lib)
{
	char *stem = lr_stem_of(lib->soname);
	const struct lib_fact *hit = NULL;
	struct version v;

	if (stem == NULL)
		return NULL;
	for (size_t i = 0; i < facts->libraries.n && hit == NULL; i++) {
		const struct lib_fact *o = &facts->libraries.v[i];
		char *os;

		if (o == lib || o->resolved == NULL)
			continue;
		os = lr_stem_of(o->soname);
		if (lr_streq(os, stem) && !lr_streq(o->soname, lib->soname) &&
		    lr_soname_version(o->soname, &v))
			hit = o;
		free(os);
	}
	free(stem);
	return hit;
}

void
lr_rule_off_path(const struct diagnose_input *in, const struct lib_fact *lib,
    const struct lib_copy *best, bool survey, struct findings *out)
{
	const struct lib_fact *sib = survey ? sibling_resolved(in->facts, lib) :
	    NULL;
	char *dir = path_dirname(best->path);
	struct finding *f;

	f = finding_add(out, FINDING_SONAME_OFF_SEARCH_PATH,
	    _("%s exists in %s, but no step of the loader's search reaches "
	    "that directory, so a program that needs it fails with \"%s: "
	    "cannot open shared object file\"."), lib->soname, dir,
	    lib->soname);
	subj_soname(f, in->facts, lib->soname);
	if (sib != NULL) {
		/* Another version is what the system uses; this one is a
		 * second toolkit installed beside it. */
		f->severity = SEV_INFO;
		strv_pushf(&f->evidence, _("%s resolves (%s): this copy is only "
		    "needed by programs built for the other version"),
		    sib->soname, sib->resolved);
	}
	for (size_t i = 0; i < lib->copies.n; i++) {
		const struct lib_copy *c = &lib->copies.v[i];

		if (!c->loadable || c->tried || c->stub)
			continue;
		if (c->soname != NULL)
			strv_pushf(&f->evidence, _("%s exists (SONAME %s), off the search path"),
			    c->path, c->soname);
		else
			strv_pushf(&f->evidence, _("%s exists, off the search path"),
			    c->path);
	}
	lr_search_evidence(f, lib);
	finding_evidence_cap(f, EVIDENCE_MAX);
	lr_fix_reach_name(f, in->facts, dir, lib->soname, best);
	free(dir);
}

void
lr_rule_optional(const struct facts *facts, const struct lib_fact *lib,
    const struct lib_copy *best, struct findings *out)
{
	struct finding *f;
	char *dir;

	if (best != NULL) {
		dir = path_dirname(best->path);
		f = finding_add(out, FINDING_OPTIONAL_LIB_MISSING,
		    _("%s is optional: frameworks use it when it loads and go "
		    "on without it. It is installed in %s, but no search step "
		    "reaches that directory, so it is not used."), lib->soname,
		    dir);
		subj_soname(f, facts, lib->soname);
		strv_pushf(&f->evidence, _("%s exists, off the search path"),
		    best->path);
		lr_search_evidence(f, lib);
		finding_evidence_cap(f, EVIDENCE_MAX);
		lr_fix_reach_name(f, facts, dir, lib->soname, best);
		free(dir);
		return;
	}
	f = finding_add(out, FINDING_OPTIONAL_LIB_MISSING,
	    _("%s is optional: frameworks probe for it (TensorFlow logs "
	    "\"Could not load dynamic library\" for TensorRT) and go on "
	    "without it. Nothing needs fixing unless you want what it "
	    "adds."), lib->soname);
	subj_soname(f, facts, lib->soname);
	lr_search_evidence(f, lib);
	finding_evidence_cap(f, EVIDENCE_MAX);
	lr_fix_comment(f, _("only if you want TensorRT: install it (NVIDIA's "
	    "tensorrt packages or wheel) and add its lib directory"));
}

/* -------------------------------------- SONAME_SPOOF_SYMLINK / VERSION */

/* Version definitions named like the library ("libcudart.so.12") that do
 * not include the name asked for: symbols bound to the name's version
 * are then missing ("version `libcudart.so.12' not found"). */
bool
lr_verdefs_conflict(const struct lib_fact *lib)
{
	char *stem = lr_stem_of(lib->soname);
	bool named = false, has = false;

	if (stem == NULL)
		return false;
	for (size_t i = 0; i < lib->elf_verdefs.n; i++) {
		const char *v = lib->elf_verdefs.v[i];
		struct version ver;

		if (lr_name_version(v, stem, &ver))
			named = true;
		if (strcmp(v, lib->soname) == 0)
			has = true;
	}
	free(stem);
	return named && !has;
}

static void
verdef_evidence(struct finding *f, const struct lib_fact *lib)
{
	struct strbuf sb = STRBUF_INIT;

	if (lib->elf_verdefs.n == 0)
		return;
	for (size_t i = 0; i < lib->elf_verdefs.n; i++) {
		if (i > 0)
			strbuf_puts(&sb, ", ");
		strbuf_puts(&sb, lib->elf_verdefs.v[i]);
	}
	strv_pushf(&f->evidence, _("its version definitions: %s"), strbuf_str(&sb));
	strbuf_free(&sb);
}

/* A copy of the right library the fix can point at instead. */
static const struct lib_copy *
right_copy(const struct lib_fact *lib)
{
	for (size_t i = 0; i < lib->copies.n; i++) {
		const struct lib_copy *c = &lib->copies.v[i];

		if (c->loadable && !c->stub && lr_streq(c->soname, lib->soname))
			return c;
	}
	return NULL;
}

/* True when the name claims a version the file behind it is not. */
bool
lr_spoofed(const struct lib_fact *lib)
{
	struct version want, got;
	const char *tb;
	char *stem;
	bool spoof = false;

	if (lib->target == NULL || !lr_soname_version(lib->soname, &want))
		return false;
	tb = path_basename(lib->target);
	if (strcmp(tb, lib->soname) == 0)
		return false;	/* the name is the file (a linked directory) */
	if (lib->elf_soname != NULL)
		return strcmp(lib->elf_soname, lib->soname) != 0;
	/* No SONAME: judge by the target's file name, except for driver
	 * libraries, whose files carry the driver's version. */
	if (lr_is_driver_lib(lib->soname))
		return false;
	/* Trailing zeros claim nothing: libcudart.so.11.0 is the soname of
	 * every CUDA 11 runtime, libcudart.so.11.8.89 among them. */
	while (want.nparts > 1 && want.part[want.nparts - 1] == 0)
		want.nparts--;
	stem = lr_stem_of(lib->soname);
	if (lr_name_version(tb, stem, &got)) {
		for (size_t i = 0; i < want.nparts && !spoof; i++)
			spoof = i >= got.nparts || want.part[i] != got.part[i];
	}
	free(stem);
	return spoof;
}

static void
fix_use_copy(struct finding *f, const struct lib_copy *c)
{
	char *dir = path_dirname(c->path);

	lr_fix_comment(f, _("or put the directory of a right copy first:"));
	lr_fix_prepend(f, dir);
	free(dir);
}

void
lr_rule_spoof(const struct matrix *m, const struct lib_fact *lib,
    struct findings *out)
{
	const struct lib_copy *good = right_copy(lib);
	struct finding *f;

	if (lib->elf_soname != NULL)
		f = finding_add(out, FINDING_SONAME_SPOOF_SYMLINK,
		    _("%s is a link to %s, which is %s: the name claims a version "
		    "the file is not. A program that asks for %s loads it, then "
		    "fails on missing symbols or versions, or misbehaves; "
		    "this is usually a link made by hand to silence a \"cannot "
		    "open shared object file\" error."), lib->resolved,
		    lib->target, lib->elf_soname, lib->soname);
	else
		f = finding_add(out, FINDING_SONAME_SPOOF_SYMLINK,
		    _("%s is a link to %s: the name claims a version the file "
		    "is not. A program that asks for %s loads it, then fails on "
		    "missing symbols or misbehaves."), lib->resolved,
		    lib->target, lib->soname);
	finding_subject(f, "%s -> %s", lib->resolved,
	    path_basename(lib->target));
	lr_winner_evidence(f, lib);
	if (lib->elf_soname != NULL)
		strv_pushf(&f->evidence, _("%s has SONAME %s"), lib->target,
		    lib->elf_soname);
	verdef_evidence(f, lib);
	if (good != NULL)
		strv_pushf(&f->evidence, _("a real %s exists: %s"), lib->soname,
		    good->path);
	finding_evidence_cap(f, EVIDENCE_MAX);
	lr_fix_comment(f, _("remove the link, and install the version the "
	    "program needs:"));
	lr_fix_rm(f, lib->resolved);
	if (good != NULL)
		fix_use_copy(f, good);
	else
		fix_install_hint(m, f, lib->soname);
}

void
lr_rule_version(const struct matrix *m, const struct lib_fact *lib,
    struct findings *out)
{
	const struct lib_copy *good = right_copy(lib);
	bool soname_bad = lib->elf_soname != NULL &&
	    strcmp(lib->elf_soname, lib->soname) != 0;
	struct finding *f;

	if (soname_bad)
		f = finding_add(out, FINDING_SONAME_VERSION_MISMATCH,
		    _("%s resolves to %s, but that file is %s (its SONAME): "
		    "another version than the name asks for. Programs built "
		    "for %s load it and then fail on missing symbols or "
		    "versions."), lib->soname, lib->resolved, lib->elf_soname,
		    lib->soname);
	else
		f = finding_add(out, FINDING_SONAME_VERSION_MISMATCH,
		    _("%s resolves to %s, whose version definitions do not "
		    "include %s: a program linked against %s fails with "
		    "\"version `%s' not found\"."), lib->soname, lib->resolved,
		    lib->soname, lib->soname, lib->soname);
	finding_subject(f, "%s -> %s", lib->soname, lib->resolved);
	lr_winner_evidence(f, lib);
	if (lib->elf_soname != NULL)
		strv_pushf(&f->evidence, _("%s has SONAME %s"),
		    lib->target != NULL ? lib->target : lib->resolved,
		    lib->elf_soname);
	verdef_evidence(f, lib);
	if (good != NULL)
		strv_pushf(&f->evidence, _("a right %s exists: %s"), lib->soname,
		    good->path);
	finding_evidence_cap(f, EVIDENCE_MAX);
	lr_fix_comment(f, _("the file under this name is another library; "
	    "remove it, or reinstall the package it came from:"));
	lr_fix_rm(f, lib->resolved);
	if (good != NULL)
		fix_use_copy(f, good);
	else
		fix_install_hint(m, f, lib->soname);
}

/* ------------------------------------------------------- LIB_SHADOWED */

/* The version a file's real name carries, "12.4.127"; false when the name
 * carries none (a wheel's libcudart.so.12) or not the library's. */
static bool
file_version(const char *soname, const char *path, struct version *v)
{
	char *stem = lr_stem_of(soname);
	bool ok = path != NULL && lr_name_version(path_basename(path), stem, v);

	free(stem);
	return ok;
}

void
lr_rule_shadowed(const struct diagnose_input *in, const struct lib_fact *lib,
    struct findings *out)
{
	const struct facts *facts = in->facts;
	struct version wv, cv;
	struct finding *f = NULL;
	bool older = false;
	char *wdir;

	if (lib->stub || !file_version(lib->soname, lib->target, &wv))
		return;
	if (lr_is_libcuda(lib->soname) && facts->driver.is_wsl)
		return;		/* WSL_LIBCUDA's to say */
	/* Driver copies of another version are DRIVER_LIBRARY_MISMATCH's
	 * when the module's version is known. */
	if (lr_is_driver_lib(lib->soname) &&
	    (fact_known(&facts->driver.module_version) ||
	    fact_known(&facts->driver.sys_module_version)))
		return;
	for (size_t i = 0; i < lib->copies.n; i++) {
		const struct lib_copy *c = &lib->copies.v[i];

		if (c->reached_via == STEP_NONE || !c->loadable || c->stub ||
		    lr_streq(c->target, lib->target) ||
		    !file_version(lib->soname, c->target != NULL ? c->target :
		    c->path, &cv) || version_cmp(&wv, &cv) == 0)
			continue;
		if (f == NULL) {
			f = finding_add(out, FINDING_LIB_SHADOWED, "%s", "");
			finding_subject(f, "%s -> %s", lib->soname,
			    lib->resolved);
			lr_winner_evidence(f, lib);
		}
		if (version_cmp(&wv, &cv) < 0)
			older = true;
		strv_pushf(&f->evidence, _("shadowed: %s (%s), which %s would "
		    "reach next"), c->path, c->target != NULL ? c->target : c->path,
		    lr_via_words(c->reached_via));
	}
	if (f == NULL)
		return;
	free(f->detail);
	if (older) {
		f->detail = xasprintf(_("%s resolves to an older copy (%s) that "
		    "shadows a newer one later in the search. Programs get the "
		    "old version: a stale copy left by an earlier install, or a "
		    "directory placed first by mistake."), lib->soname,
		    path_basename(lib->target));
	} else {
		f->detail = xasprintf(_("%s resolves to %s, and another version "
		    "of it later in the search is never used. Newer wins here, "
		    "which is usually what was meant; it is noted so the older "
		    "copy can be cleaned up."), lib->soname,
		    path_basename(lib->target));
		f->severity = SEV_INFO;
	}
	finding_evidence_cap(f, EVIDENCE_MAX);
	wdir = path_dirname(lib->resolved);
	if (lib->via == STEP_LD_LIBRARY_PATH) {
		struct strv drop = STRV_INIT;

		strv_push(&drop, wdir);
		lr_fix_comment(f, _("to load the shadowed copy, drop the directory "
		    "that shadows it:"));
		strv_push_owned(&f->fix, lr_llp_without(facts, &drop, false));
		strv_free(&drop);
	} else if (lib->via == STEP_CACHE &&
	    lr_ldconf_file_of(facts, wdir) != NULL && older) {
		lr_fix_comment(f, _("to load the newer copy, drop the older "
		    "directory from the ld.so.conf file that lists it:"));
		lr_fix_ldconf_drop(f, wdir, lr_ldconf_file_of(facts, wdir));
		fd_ldconfig(f);
	} else if (older) {
		lr_fix_comment(f, _("remove the stale copy (check which package "
		    "owns it first):"));
		{
			char *q = lr_quoted(lib->target);

			strv_pushf(&f->fix, "dpkg -S %s", q);
			free(q);
		}
		lr_fix_rm(f, lib->resolved);
		fd_ldconfig(f);
	} else {
		lr_fix_comment(f, _("nothing to do unless the older copy is wanted"));
	}
	free(wdir);
}
