/* cudawiz doctor in the Windows program: the Windows probe
 * (winprobe/winprobe.h) over the system drive and this process's
 * environment, the DLLs each framework loads resolved by the DLL search
 * model as that framework loads them, and the Windows rules
 * (diagnose/rules_windows.h) with the built-in matrix (or --matrix);
 * then, as Linux's doctor does, the quick live checks: `verify`'s runs
 * (win/cmd_verify.h, each DLL loaded by cudawiz-verify.exe in a process
 * of its own), whose findings join the report's. --no-verify leaves
 * them out; without an nvcuda.dll in System32 they are not run, and
 * without the helper they are skipped, the report saying why.
 *
 * The report is this machine's facts in short, the live checks, then the
 * findings, as on Linux; --json is {"schema": "cudawiz/windows-doctor/1",
 * "version", "host", "drive", "gpus" (the registry's display adapters;
 * null when it could not be read), "pythons" (each install with its
 * frameworks), "verify", "findings", "spec"}, the findings array, "host"
 * and "spec" being the Linux report's (over the facts bridged into the
 * shared model, win/bridged.h), so that fleet and doctor --baseline read
 * it; "verify" is Linux's member with verify --json's runs.
 * --format prometheus is the shared view (present/prom.h) of the same
 * bridged facts, the live checks' among them; -o writes any of them in
 * one move (present/reportfile.h). */
#include "config.h"

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
#include "present/html.h"
#include "present/json.h"
#include "present/prom.h"
#include "present/reportfile.h"
#include "present/style.h"
#include "present/text.h"
#include "spec/reference.h"
#include "spec/spec.h"
#include "util/strv.h"
#include "util/xalloc.h"
#include "winload/winname.h"
#include "win/bridged.h"
#include "win/cmd_verify.h"
#include "win/winrun.h"
#include "winprobe/winprobe.h"

/* The live checks as this doctor ran them, or why it did not. */
struct live {
	enum verify_state	 state;
	char			*why;		/* not run, skipped */
	char			*helper;
	struct win_verify	 wv;		/* ran */
};

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

/* Linux's "verify" member (present/json.h's verify_json) where the
 * meaning is the same; the runs are verify --json's. */
static json_t *
live_json(const struct live *l)
{
	json_t *o = json_object();
	bool ran = l->state == VERIFY_STATE_RAN;

	json_object_set_new(o, "state",
	    json_string(verify_state_name(l->state)));
	json_object_set_new(o, "why", l->why != NULL ? json_string(l->why) :
	    json_null());
	json_object_set_new(o, "helper", l->helper != NULL ?
	    json_string(l->helper) : json_null());
	json_object_set_new(o, "timeout_s", ran ?
	    json_real(l->wv.timeout_s) : json_null());
	json_object_set_new(o, "quick", json_true());
	json_object_set_new(o, "ms", ran ? json_real(l->wv.ms) : json_null());
	json_object_set_new(o, "runs", ran ? win_verify_runs_json(&l->wv) :
	    json_array());
	return o;
}

static void
print_live(FILE *fp, const struct live *l, bool color)
{
	char *text;

	if (!text_verify_head(fp, l->state, l->why, color))
		return;
	text = win_verify_text(&l->wv);
	fputs(text, fp);
	free(text);
	fprintf(fp, _("  %zu check(s) in %.2f s\n"), l->wv.n,
	    l->wv.ms / 1000.0);
}

static int
print_json(FILE *fp, const struct win_facts *f, const struct facts *bf,
    const struct live *l, const struct findings *fs, time_t now)
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
	json_object_set_new(doc, "verify", live_json(l));
	json_object_set_new(doc, "findings", findings_json(fs));
	json_object_set_new(doc, "spec", spec_json(bf, now, false));
	rc = json_write(fp, doc);
	json_decref(doc);
	return rc;
}

/* What one report is made of. */
struct report {
	const struct cli_opts	*opts;
	const struct win_run	*r;
	const struct facts	*bf;
	const struct live	*live;
	time_t			 now;
};

static int
print_report(FILE *fp, const struct report *rp, bool color)
{
	const struct win_run *r = rp->r;

	if (rp->opts->json)
		return print_json(fp, &r->facts, rp->bf, rp->live, &r->findings,
		    rp->now);
	if (rp->opts->prometheus)
		return prom_print_doctor(fp, rp->bf, &r->findings, r->m, rp->now);
	/* The shared page over the bridged facts (present/html.h). */
	if (rp->opts->html)
		return html_print_doctor_windows(fp, rp->bf, &r->findings, r->m,
		    rp->now);
	fprintf(fp, "%s %s doctor (Windows, %c:)\n\n", PACKAGE, VERSION,
	    r->facts.drive);
	print_facts(fp, &r->facts);
	print_live(fp, rp->live, color);
	/* The findings' block starts with its own blank line, the
	 * no-problems line without one. */
	if (r->findings.n == 0)
		fputc('\n', fp);
	return text_print_findings(fp, &r->findings, color);
}

static int
print_to_file(FILE *fp, void *arg)
{
	return print_report(fp, arg, false);
}

/* doctor's policy, as Linux's: the quick checks unless --no-verify or
 * no nvcuda.dll in System32 (Linux's "no driver loaded"); their
 * findings join r's (sorted again) and their runs bf's verify facts. A
 * helper that is not there skips them, said in the report: the rest of
 * the report stands. */
static void
run_live(struct win_run *r, const struct cli_opts *opts, struct facts *bf,
    struct live *l)
{
	memset(l, 0, sizeof *l);
	l->state = VERIFY_STATE_NOT_RUN;
	if (opts->no_verify) {
		l->why = xstrdup(_("--no-verify"));
		return;
	}
	/* One that is not NVIDIA's is loaded too: the helper's process
	 * takes whatever it does, and the report says what that was. */
	if (r->facts.driver.state == WIN_NVCUDA_ABSENT) {
		l->why = xstrdup(_("no nvcuda.dll in System32: no NVIDIA driver "
		    "is installed ('cudawiz verify' checks the DLLs anyway)"));
		return;
	}
	l->state = VERIFY_STATE_SKIPPED;
	if ((l->helper = win_verify_helper()) == NULL) {
		l->why = xstrdup(_("cudawiz-verify.exe cannot be named (this "
		    "program's path is too long); set CUDAWIZ_HELPER"));
		return;
	}
	if ((l->why = win_verify_helper_missing(l->helper)) != NULL)
		return;
	l->state = VERIFY_STATE_RAN;
	win_verify_run(&r->facts, l->helper, true, opts->timeout_ms, &l->wv);
	win_verify_facts(&l->wv, l->helper, bf);
	/* The findings move: the runs keep none. */
	for (size_t i = 0; i < l->wv.findings.n; i++)
		*(struct finding *)VEC_PUSH(&r->findings) = l->wv.findings.v[i];
	l->wv.findings.n = 0;
	findings_sort(&r->findings);
}

static void
live_free(struct live *l)
{
	if (l->state == VERIFY_STATE_RAN)
		win_verify_free(&l->wv);
	free(l->why);
	free(l->helper);
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
	struct report rp = { .opts = opts, .now = now };
	struct live live;
	struct win_run r;
	struct facts *bf;
	int rc;

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
	run_live(&r, opts, bf, &live);
	rp.r = &r;
	rp.bf = bf;
	rp.live = &live;
	if (opts->output != NULL) {
		rc = report_write_file(opts->output, print_to_file, &rp);
		/* report_write_file said what went wrong. */
		rc = rc != 0 ? EXIT_USAGE : cmd_report_exit(0, &r.findings);
	} else {
		rc = cmd_report_exit(print_report(stdout, &rp,
		    style_want_color(STDOUT_FILENO, opts->color)),
		    &r.findings);
	}
	live_free(&live);
	facts_free(bf);
	win_run_close(&r);
	return rc;
}
