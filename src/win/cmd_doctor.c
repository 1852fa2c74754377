/* cudawiz doctor in the Windows program: the Windows probe
 * (winprobe/winprobe.h) over the system drive and this process's
 * environment, the DLLs each framework loads resolved by the DLL search
 * model as that framework loads them, and the Windows rules
 * (diagnose/rules_windows.h) with the built-in matrix (or --matrix).
 * Nothing is loaded or run: the live checks are `verify`'s.
 *
 * The report is this machine's facts in short, then the findings, as on
 * Linux; --json is {"schema": "cudawiz/windows-doctor/1", "version",
 * "host", "drive", "gpus" (the registry's display adapters; null when it
 * could not be read), "pythons" (each install with its frameworks),
 * "findings", "spec"}, the findings array, "host" and "spec" being the
 * Linux report's (over the facts bridged into the shared model,
 * win/bridged.h), so that fleet and doctor --baseline read it.
 * --format prometheus is the shared view (present/prom.h) of the same
 * bridged facts; -o writes any of them in one move. */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <windows.h>

#include "cmd.h"
#include "diagnose/diagnose.h"
#include "diagnose/finding.h"
#include "i18n.h"
#include "present/json.h"
#include "present/prom.h"
#include "present/style.h"
#include "present/text.h"
#include "spec/reference.h"
#include "spec/spec.h"
#include "util/atomicfile.h"
#include "util/strv.h"
#include "util/xalloc.h"
#include "winload/winname.h"
#include "win/bridged.h"
#include "win/winrun.h"
#include "winprobe/winprobe.h"

static void
say_path(FILE *fp, char drive, const char *tree)
{
	char *w = winname_windows_path(drive, tree);

	fputs(w, fp);
	free(w);
}

static void
print_gpus(FILE *fp, const struct win_facts *f)
{
	fprintf(fp, "\n%s\n", _("GPUs"));
	if (!f->gpus_read)
		fprintf(fp, "  %s\n", _("the registry's display adapters could "
		    "not be read"));
	else if (f->gpus.n == 0)
		fprintf(fp, "  %s\n", _("no display adapter in the registry"));
	for (size_t i = 0; i < f->gpus.n; i++) {
		const struct win_gpu *g = &f->gpus.v[i];

		fprintf(fp, "  %s", g->name != NULL ? g->name : "?");
		if (g->vendor != 0)
			fprintf(fp, "  [%04x:%04x]", g->vendor, g->device);
		if (g->version != NULL)
			fprintf(fp, "  %s %s", _("driver"), g->version);
		if (g->file_version != NULL)
			fprintf(fp, "  (%s %s)", _("file version"), g->file_version);
		if (g->provider != NULL)
			fprintf(fp, "  %s", g->provider);
		fputc('\n', fp);
	}
}

static json_t *
gpus_json(const struct win_facts *f)
{
	json_t *a = json_array();

	for (size_t i = 0; i < f->gpus.n; i++) {
		const struct win_gpu *g = &f->gpus.v[i];
		json_t *o = json_object();
		char id[8];

		json_object_set_new(o, "name", g->name != NULL ?
		    json_string(g->name) : json_null());
		snprintf(id, sizeof id, "%04x", g->vendor & 0xffffu);
		json_object_set_new(o, "vendor_id", json_string(id));
		snprintf(id, sizeof id, "%04x", g->device & 0xffffu);
		json_object_set_new(o, "device_id", json_string(id));
		json_object_set_new(o, "hardware_id", g->device_id != NULL ?
		    json_string(g->device_id) : json_null());
		json_object_set_new(o, "driver_file_version",
		    g->file_version != NULL ? json_string(g->file_version) :
		    json_null());
		json_object_set_new(o, "driver_version", g->version != NULL ?
		    json_string(g->version) : json_null());
		json_object_set_new(o, "provider", g->provider != NULL ?
		    json_string(g->provider) : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *
pythons_json(const struct win_facts *f)
{
	json_t *a = json_array();

	for (size_t i = 0; i < f->pythons.n; i++) {
		const struct win_python *p = &f->pythons.v[i];
		json_t *o = json_object(), *fws = json_array();
		char *dir = winname_windows_path(f->drive, p->dir);

		json_object_set_new(o, "dir", json_string(dir));
		free(dir);
		json_object_set_new(o, "kind",
		    json_string(win_python_kind_name(p->kind)));
		json_object_set_new(o, "version", p->version != NULL ?
		    json_string(p->version) : json_null());
		for (size_t j = 0; j < p->frameworks.n; j++) {
			const struct win_framework *fw = &p->frameworks.v[j];
			json_t *w = json_object();

			json_object_set_new(w, "name", json_string(fw->name));
			json_object_set_new(w, "version", fw->version != NULL ?
			    json_string(fw->version) : json_null());
			json_array_append_new(fws, w);
		}
		json_object_set_new(o, "frameworks", fws);
		json_array_append_new(a, o);
	}
	return a;
}

static void
print_facts(FILE *fp, const struct win_facts *f)
{
	const struct win_driver *d = &f->driver;

	fprintf(fp, "%s\n", _("Driver"));
	if (d->state == WIN_NVCUDA_ABSENT) {
		fprintf(fp, "  nvcuda.dll  %s\n", _("not found: no NVIDIA driver "
		    "is installed"));
	} else {
		fprintf(fp, "  nvcuda.dll  %s  (", d->version != NULL ?
		    d->version : _("version unknown"));
		say_path(fp, f->drive, d->nvcuda.path);
		if (d->nvcuda.file_version != NULL)
			fprintf(fp, ", %s %s", _("file version"),
			    d->nvcuda.file_version);
		fputs(")\n", fp);
		if (d->state != WIN_NVCUDA_NVIDIA)
			fprintf(fp, "      %s\n", d->nvcuda.error != NULL ?
			    d->nvcuda.error : _("not NVIDIA's"));
	}
	print_gpus(fp, f);
	fprintf(fp, "\n%s\n", _("CUDA toolkits"));
	if (f->toolkits.n == 0)
		fprintf(fp, "  %s\n", _("none found"));
	for (size_t i = 0; i < f->toolkits.n; i++) {
		const struct win_toolkit *t = &f->toolkits.v[i];
		const char *v = t->json_version != NULL ? t->json_version :
		    t->dir_version;

		fprintf(fp, "  %-8s ", v != NULL ? v : "?");
		say_path(fp, f->drive, t->dir);
		if ((long)i == f->cuda_path_toolkit)
			fputs("  (CUDA_PATH)", fp);
		fputc('\n', fp);
	}
	for (size_t i = 0; i < f->cudavars.n; i++)
		if (f->cudavars.v[i].dir == NULL)
			fprintf(fp, "  %s=%s: %s\n", f->cudavars.v[i].name,
			    f->cudavars.v[i].value, f->cudavars.v[i].why != NULL ?
			    f->cudavars.v[i].why : "?");
	fprintf(fp, "\n%s\n", _("cuDNN"));
	if (f->cudnn.n == 0)
		fprintf(fp, "  %s\n", _("none found"));
	for (size_t i = 0; i < f->cudnn.n; i++) {
		const struct win_cudnn *c = &f->cudnn.v[i];
		const char *v = c->header_version != NULL ? c->header_version :
		    c->dll.file_version;

		fprintf(fp, "  %-8s ", v != NULL ? v : "?");
		say_path(fp, f->drive, c->dir);
		fputc('\n', fp);
	}
	fprintf(fp, "\n%s\n", _("Python installs"));
	if (f->pythons.n == 0)
		fprintf(fp, "  %s\n", _("none found"));
	for (size_t i = 0; i < f->pythons.n; i++) {
		const struct win_python *p = &f->pythons.v[i];

		fprintf(fp, "  %-8s ", p->version != NULL ? p->version : "?");
		say_path(fp, f->drive, p->dir);
		fprintf(fp, "  (%s)\n", win_python_kind_name(p->kind));
		for (size_t j = 0; j < p->frameworks.n; j++) {
			const struct win_framework *fw = &p->frameworks.v[j];

			fprintf(fp, "      %s %s", fw->name, fw->version != NULL ?
			    fw->version : "?");
			if (fw->cuda_version != NULL)
				fprintf(fp, "  CUDA %s", fw->cuda_version);
			if (fw->cudnn_version != NULL)
				fprintf(fp, ", cuDNN %s", fw->cudnn_version);
			fputc('\n', fp);
			for (size_t k = 0; k < fw->needs.n; k++) {
				const struct win_need *n = &fw->needs.v[k];

				if (n->got.path != NULL)
					fprintf(fp, "        %-22s %s\n", n->dll,
					    n->got.path);
				else
					fprintf(fp, "        %-22s %s (%u)\n", n->dll,
					    _("not found"), n->got.error);
			}
		}
	}
	for (size_t i = 0; i < f->notes.n; i++)
		fprintf(fp, "%s%s\n", i == 0 ? "\n" : "", f->notes.v[i]);
	fputc('\n', fp);
}

static int
print_json(FILE *fp, const struct win_facts *f, const struct facts *bf,
    const struct findings *fs, time_t now)
{
	json_t *doc = json_object();
	char drive[3] = { f->drive, ':', '\0' };
	int rc;

	json_object_set_new(doc, "schema",
	    json_string("cudawiz/windows-doctor/1"));
	json_object_set_new(doc, "version", json_string(VERSION));
	json_object_set_new(doc, "host", spec_host_json(bf, now));
	json_object_set_new(doc, "drive", json_string(drive));
	json_object_set_new(doc, "gpus", f->gpus_read ? gpus_json(f) :
	    json_null());
	json_object_set_new(doc, "pythons", pythons_json(f));
	json_object_set_new(doc, "findings", findings_json(fs));
	json_object_set_new(doc, "spec", spec_json(bf, now, false));
	rc = json_write(fp, doc);
	json_decref(doc);
	return rc;
}

static int
print_report(FILE *fp, const struct cli_opts *opts, const struct win_run *r,
    const struct facts *bf, time_t now, bool color)
{
	if (opts->json)
		return print_json(fp, &r->facts, bf, &r->findings, now);
	if (opts->prometheus)
		return prom_print_doctor(fp, bf, &r->findings, r->m, now);
	fprintf(fp, "%s %s doctor (Windows, %c:)\n\n", PACKAGE, VERSION,
	    r->facts.drive);
	print_facts(fp, &r->facts);
	return text_print_findings(fp, &r->findings, color);
}

/* The report into -o's file in one move: 0, or -1 having said which
 * file and why (the file there, if any, is left as it was). */
static int
write_report_file(const struct cli_opts *opts, const struct win_run *r,
    const struct facts *bf, time_t now)
{
	struct atomic_out ao;
	char *err = NULL;
	FILE *fp = atomic_out_open(&ao, opts->output);

	if (fp == NULL) {
		err = xasprintf(_("cannot write %s: %s"), opts->output,
		    strerror(errno));
	} else if (print_report(fp, opts, r, bf, now, false) != 0) {
		int saved = errno != 0 ? errno : EIO;

		atomic_out_abort(&ao);
		err = xasprintf(_("cannot write %s: %s"), opts->output,
		    strerror(saved));
	} else if (atomic_out_commit(&ao, &err) == 0) {
		return 0;
	}
	fprintf(stderr, "%s: %s\n", PACKAGE, err);
	free(err);
	return -1;
}

/* --baseline FILE's DRIFT_* findings, over the bridged facts; -1 after
 * saying why the file cannot be a reference. */
static int
add_drift(struct win_run *r, const struct facts *bf, const char *file,
    time_t now)
{
	struct diagnose_input in = { .facts = bf, .matrix = r->m, .now = now };
	const json_t *items = NULL;
	const char *host = NULL;
	char *err = NULL;
	json_t *doc = spec_load_reference(file, &items, &host, &err);

	if (doc == NULL) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		free(err);
		return -1;
	}
	in.baseline = items;
	in.baseline_host = host;
	rules_drift(&in, &r->findings);
	findings_sort(&r->findings);
	json_decref(doc);
	return 0;
}

int
cmd_doctor(const struct cli_opts *opts)
{
	time_t now = time(NULL);
	struct win_run r;
	struct facts *bf;
	int rc;

	if (opts->html) {
		fprintf(stderr, _("%s: doctor on Windows writes text, --json or "
		    "--format prometheus; --format html is not available on "
		    "Windows yet\n"), PACKAGE);
		return EXIT_USAGE;
	}
	if (win_run_open_or_say(&r, opts->matrix_file, true) != 0)
		return EXIT_USAGE;
	win_run_diagnose(&r);
	/* The shared model of the same facts, for the spec, the
	 * Prometheus view and the baseline's comparison. */
	bf = bridged_facts(&r);
	if (opts->baseline != NULL &&
	    add_drift(&r, bf, opts->baseline, now) != 0) {
		facts_free(bf);
		win_run_close(&r);
		return EXIT_USAGE;
	}
	if (opts->output != NULL) {
		rc = write_report_file(opts, &r, bf, now);
	} else {
		rc = print_report(stdout, opts, &r, bf, now,
		    style_want_color(STDOUT_FILENO, opts->color));
		if (rc == 0 && fflush(stdout) != 0)
			rc = -1;
		if (rc != 0)
			perror(PACKAGE ": writing the report");
	}
	if (rc != 0)
		rc = EXIT_USAGE;
	else
		rc = findings_count(&r.findings, SEV_ERROR) > 0 ?
		    EXIT_FINDINGS : EXIT_OK;
	facts_free(bf);
	win_run_close(&r);
	return rc;
}
