/* cudawiz verify in the Windows program: the DLLs the Windows probe
 * finds (System32's nvcuda.dll, each toolkit's bin/cudart64_*.dll, each
 * cuDNN directory's cudnn64_*.dll) each loaded and exercised by
 * cudawiz-verify.exe in a process of its own (src/verify/spawn_win.c: a
 * job object, a timeout), so a DLL that crashes or hangs takes only the
 * helper with it. The helper's JSON Lines (docs/VERIFY.md) say how far
 * each run went; the findings are rules_windows_verify's.
 *
 * The helper is CUDAWIZ_HELPER, else cudawiz-verify.exe beside this
 * program (make windows puts it there). --json is {"schema":
 * "cudawiz/windows-verify/1", "version", "runs", "findings"}. The runs
 * and their findings are win_verify_run's (cmd_verify.h), which the
 * guided mode's Live verification page calls too.
 */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <windows.h>

#include "cmd.h"
#include "diagnose/finding.h"
#include "diagnose/rules_windows_verify.h"
#include "i18n.h"
#include "present/json.h"
#include "present/style.h"
#include "present/text.h"
#include "util/strbuf.h"
#include "util/strv.h"
#include "util/xalloc.h"
#include "util/wstr.h"
#include "verify/spawn_win.h"
#include "verify/verify.h"
#include "winload/winname.h"
#include "win/cmd_verify.h"
#include "win/here.h"
#include "winprobe/winbridge.h"
#include "winprobe/winprobe.h"

/* A helper's stdout past this is dropped: a full run is a few KiB. */
#define OUT_CAP	(1024 * 1024)

/* CUDAWIZ_HELPER, else cudawiz-verify.exe in this program's directory;
 * NULL when neither can be named. */
static char *
helper_path(void)
{
	const wchar_t *env = _wgetenv(L"CUDAWIZ_HELPER");
	wchar_t self[MAX_PATH + 32];
	DWORD n;
	wchar_t *slash;

	if (env != NULL && *env != L'\0')
		return wstr_utf8(env);
	n = GetModuleFileNameW(NULL, self, MAX_PATH);
	if (n == 0 || n >= MAX_PATH)
		return NULL;
	slash = wcsrchr(self, L'\\');
	if (slash == NULL)
		return NULL;
	wcscpy(slash + 1, L"cudawiz-verify.exe");
	return wstr_utf8(self);
}

/* One run with what was read of it; the strings of run point into the
 * records or into owned copies freed with it. */
struct vrun {
	struct wv_run	 run;
	char		*lib;
	char		*cudart;	/* cudnn's --cudart; NULL */
	char		*detail;	/* a works line's "(driver 12080 …)" */
	json_t		*records;	/* array */
};

static const char *
getstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* Reads the helper's stdout: the records, the last step, the first
 * check not ok, and whether it reached its end. */
static bool
read_records(struct vrun *v, char *out)
{
	bool ended = false, end_ok = false;
	struct strbuf sb = STRBUF_INIT;

	v->records = json_array();
	for (char *line = out, *nl; line != NULL && *line != '\0';
	    line = nl != NULL ? nl + 1 : NULL) {
		json_t *rec;
		const char *check;

		nl = strchr(line, '\n');
		if (nl != NULL) {
			*nl = '\0';
			if (nl > line && nl[-1] == '\r')
				nl[-1] = '\0';
		}
		rec = json_loads(line, 0, NULL);
		if (!json_is_object(rec) ||
		    (check = getstr(rec, "check")) == NULL) {
			json_decref(rec);
			continue;
		}
		json_array_append_new(v->records, rec);
		if (strcmp(check, "step") == 0) {
			v->run.last_step = getstr(rec, "name");
		} else if (strcmp(check, "end") == 0) {
			ended = true;
			end_ok = json_is_true(json_object_get(rec, "ok"));
		} else if (json_is_false(json_object_get(rec, "ok")) &&
		    v->run.failed_check == NULL) {
			const char *m = getstr(rec, "message");

			v->run.failed_check = check;
			if (m == NULL)
				m = getstr(rec, "error");
			if (m == NULL)
				m = getstr(rec, "name");
			/* The symbols record names what the DLL lacks. */
			if (m == NULL)
				m = json_string_value(json_array_get(
				    json_object_get(rec, "missing"), 0));
			v->run.message = m;
		} else if (strcmp(check, "driver_version") == 0 ||
		    strcmp(check, "runtime_version") == 0 ||
		    strcmp(check, "cudnn_version") == 0) {
			json_int_t ver = json_integer_value(json_object_get(rec,
			    "version"));

			strbuf_printf(&sb, "%s%s %lld", sb.len ? ", " : "",
			    check, (long long)ver);
		} else if (strcmp(check, "device") == 0 &&
		    getstr(rec, "name") != NULL) {
			size_t at = sb.len + (sb.len ? 2 : 0);

			strbuf_printf(&sb, "%s%s", sb.len ? ", " : "",
			    getstr(rec, "name"));
			/* A device name is the driver's bytes: no control
			 * characters reach the terminal. */
			for (size_t i = at; i < sb.len; i++)
				if ((unsigned char)sb.buf[i] < 0x20 ||
				    sb.buf[i] == 0x7f)
					sb.buf[i] = '?';
		}
	}
	v->detail = strbuf_take(&sb);
	return ended && (end_ok || v->run.failed_check != NULL);
}

static void
run_one(struct vrun *v, const char *helper, bool quick, double timeout_s)
{
	const char *argv[9];
	struct winrun res = { 0 };
	size_t n = 0;

	argv[n++] = helper;
	argv[n++] = wv_kind_name(v->run.kind);
	argv[n++] = "--lib";
	argv[n++] = v->lib;
	if (v->run.kind == WV_DRIVER && quick)
		argv[n++] = "--quick";
	if (v->cudart != NULL) {
		argv[n++] = "--cudart";
		argv[n++] = v->cudart;
	}
	argv[n] = NULL;
	v->run.lib = v->lib;
	v->run.timeout_s = timeout_s;
	fflush(stdout);
	fflush(stderr);
	if (winrun(argv, (unsigned long)(timeout_s * 1000), OUT_CAP,
	    &res) != 0) {
		v->run.how = WV_NOSTART;
		v->run.code = 0;
		v->records = json_array();
		v->detail = xstrdup("");
		return;
	}
	char empty[1] = "";
	bool ended = read_records(v, res.out != NULL ? res.out : empty);

	switch (res.how) {
	case WINRUN_EXITED:
		v->run.code = res.code;
		if (ended && v->run.failed_check == NULL && res.code == 0)
			v->run.how = WV_WORKS;
		else if (ended)
			v->run.how = WV_FAILED;
		else
			v->run.how = WV_EXITED;
		break;
	case WINRUN_CRASHED:
		v->run.how = WV_CRASHED;
		v->run.code = res.code;
		v->run.status_name = winrun_status_name(res.code);
		break;
	case WINRUN_TIMEOUT:
		v->run.how = WV_TIMEOUT;
		break;
	case WINRUN_NOSTART:
		v->run.how = WV_NOSTART;
		v->run.code = res.code;
		break;
	}
	/* The records keep the strings last_step and the others point to;
	 * the buffer they were parsed from can go. */
	free(res.out);
}

static void
add_run(struct vrun **v, size_t *n, enum wv_kind kind, char drive,
    const char *tree, const char *cudart_tree)
{
	struct vrun *r;

	*v = xreallocarray(*v, *n + 1, sizeof **v);
	r = &(*v)[(*n)++];
	memset(r, 0, sizeof *r);
	r->run.kind = kind;
	r->lib = winname_windows_path(drive, tree);
	if (cudart_tree != NULL)
		r->cudart = winname_windows_path(drive, cudart_tree);
}

static const char *
how_name(enum wv_how how)
{
	static const char *const names[] = {
		[WV_WORKS] = "works", [WV_FAILED] = "failed",
		[WV_CRASHED] = "crashed", [WV_EXITED] = "exited",
		[WV_TIMEOUT] = "timeout", [WV_NOSTART] = "nostart",
	};

	return names[how];
}

static void
run_text(struct strbuf *sb, const struct vrun *v)
{
	const struct wv_run *r = &v->run;
	const char *step = r->last_step != NULL ? r->last_step : "-";

	strbuf_printf(sb, "  %-8s %s\n      ", wv_kind_name(r->kind), v->lib);
	switch (r->how) {
	case WV_WORKS:
		strbuf_puts(sb, _("works"));
		if (v->detail[0] != '\0')
			strbuf_printf(sb, " (%s)", v->detail);
		break;
	case WV_FAILED:
		strbuf_printf(sb, _("failed at %s: %s"), r->failed_check,
		    r->message != NULL ? r->message : "?");
		break;
	case WV_CRASHED:
		strbuf_printf(sb, _("crashed (%s in %s)"), r->status_name != NULL ?
		    r->status_name : "?", step);
		break;
	case WV_EXITED:
		strbuf_printf(sb, _("ended early with exit code %lu in %s"),
		    r->code, step);
		break;
	case WV_TIMEOUT:
		strbuf_printf(sb, _("hung in %s, stopped after %g s"), step,
		    r->timeout_s);
		break;
	case WV_NOSTART:
		strbuf_printf(sb, _("could not start the helper (Windows error "
		    "%lu)"), r->code);
		break;
	}
	strbuf_putc(sb, '\n');
}

char *
win_verify_text(const struct win_verify *wv)
{
	struct strbuf sb = STRBUF_INIT;

	if (wv->n == 0)
		strbuf_printf(&sb, "  %s\n", _("nothing to check: no nvcuda.dll "
		    "in System32, no toolkit's cudart64_*.dll, no cudnn64_*.dll "
		    "found"));
	for (size_t i = 0; i < wv->n; i++)
		run_text(&sb, &wv->v[i]);
	return strbuf_take(&sb);
}

static json_t *
run_json(const struct vrun *v)
{
	const struct wv_run *r = &v->run;
	json_t *o = json_object();

	json_object_set_new(o, "kind", json_string(wv_kind_name(r->kind)));
	json_object_set_new(o, "lib", json_string(v->lib));
	json_object_set_new(o, "outcome", json_string(how_name(r->how)));
	json_object_set_new(o, "code", json_integer((json_int_t)r->code));
	json_object_set_new(o, "status", r->status_name != NULL ?
	    json_string(r->status_name) : json_null());
	json_object_set_new(o, "last_step", r->last_step != NULL ?
	    json_string(r->last_step) : json_null());
	json_object_set_new(o, "failed_check", r->failed_check != NULL ?
	    json_string(r->failed_check) : json_null());
	json_object_set_new(o, "message", r->message != NULL ?
	    json_string(r->message) : json_null());
	json_object_set_new(o, "records", json_incref(v->records));
	return o;
}

char *
win_verify_helper(void)
{
	return helper_path();
}

char *
win_verify_helper_missing(const char *helper)
{
	const wchar_t *env = _wgetenv(L"CUDAWIZ_HELPER");
	wchar_t *w = wstr_wide(helper);
	DWORD attr = w != NULL ? GetFileAttributesW(w) : INVALID_FILE_ATTRIBUTES;
	const char *why;

	free(w);
	if (attr != INVALID_FILE_ATTRIBUTES &&
	    (attr & FILE_ATTRIBUTE_DIRECTORY) == 0)
		return NULL;
	why = strerror(attr != INVALID_FILE_ATTRIBUTES ? EISDIR : ENOENT);
	if (env != NULL && *env != L'\0')
		return xasprintf(_("CUDAWIZ_HELPER=%s: %s"), helper, why);
	return xasprintf(_("the verification helper %s: %s"), helper, why);
}

json_t *
win_verify_runs_json(const struct win_verify *wv)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < wv->n; i++)
		json_array_append_new(arr, run_json(&wv->v[i]));
	return arr;
}

void
win_verify_facts(const struct win_verify *wv, const char *helper,
    struct facts *f)
{
	struct winbridge_vrun *runs = xcalloc(wv->n + 1, sizeof *runs);

	for (size_t i = 0; i < wv->n; i++) {
		runs[i].run = &wv->v[i].run;
		runs[i].records = wv->v[i].records;
	}
	winbridge_verify(f, runs, wv->n, helper, wv->timeout_s, wv->quick,
	    wv->ms);
	free(runs);
}

void
win_verify_run(const struct win_facts *f, const char *helper, bool quick,
    long timeout_ms, struct win_verify *wv)
{
	double timeout_s = timeout_ms > 0 ? timeout_ms / 1000.0 :
	    VERIFY_TIMEOUT_DEFAULT_S;
	const char *cudart = NULL;
	struct wv_run *runs;
	ULONGLONG start = GetTickCount64();

	memset(wv, 0, sizeof *wv);
	wv->timeout_s = timeout_s;
	wv->quick = quick;
	if (f->driver.state != WIN_NVCUDA_ABSENT && f->driver.nvcuda.path != NULL)
		add_run(&wv->v, &wv->n, WV_DRIVER, f->drive,
		    f->driver.nvcuda.path, NULL);
	for (size_t i = 0; i < f->toolkits.n; i++)
		if (f->toolkits.v[i].cudart.path != NULL) {
			add_run(&wv->v, &wv->n, WV_RUNTIME, f->drive,
			    f->toolkits.v[i].cudart.path, NULL);
			if (cudart == NULL)
				cudart = f->toolkits.v[i].cudart.path;
		}
	for (size_t i = 0; i < f->cudnn.n; i++)
		if (f->cudnn.v[i].dll.path != NULL)
			add_run(&wv->v, &wv->n, WV_CUDNN, f->drive,
			    f->cudnn.v[i].dll.path, cudart);
	for (size_t i = 0; i < wv->n; i++)
		run_one(&wv->v[i], helper, quick, timeout_s);
	wv->ms = (double)(GetTickCount64() - start);

	runs = xcalloc(wv->n + 1, sizeof *runs);
	for (size_t i = 0; i < wv->n; i++)
		runs[i] = wv->v[i].run;
	rules_windows_verify(runs, wv->n, &wv->findings);
	findings_sort(&wv->findings);
	free(runs);
}

void
win_verify_free(struct win_verify *wv)
{
	findings_free(&wv->findings);
	for (size_t i = 0; i < wv->n; i++) {
		free(wv->v[i].lib);
		free(wv->v[i].cudart);
		free(wv->v[i].detail);
		json_decref(wv->v[i].records);
	}
	free(wv->v);
	memset(wv, 0, sizeof *wv);
}

int
cmd_verify(const struct cli_opts *opts)
{
	struct win_verify wv;
	struct win_facts f;
	char *err = NULL, *helper;
	int rc;

	if (opts->verify_env != NULL) {
		fprintf(stderr, _("%s: verify --env is not available on Windows "
		    "yet\n"), PACKAGE);
		return EXIT_USAGE;
	}
	if ((helper = helper_path()) == NULL) {
		fprintf(stderr, _("%s: cannot name cudawiz-verify.exe (this "
		    "program's path is too long); set CUDAWIZ_HELPER\n"), PACKAGE);
		return EXIT_USAGE;
	}
	/* The libraries to try: nothing of the registry is wanted. */
	if (here_probe(&f, false, &err) != 0) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		free(err);
		free(helper);
		return EXIT_USAGE;
	}
	win_verify_run(&f, helper, opts->quick, opts->timeout_ms, &wv);
	if (opts->json) {
		json_t *doc = json_object(), *arr = win_verify_runs_json(&wv);

		json_object_set_new(doc, "schema",
		    json_string("cudawiz/windows-verify/1"));
		json_object_set_new(doc, "version", json_string(VERSION));
		json_object_set_new(doc, "runs", arr);
		json_object_set_new(doc, "findings",
		    findings_json(&wv.findings));
		rc = json_write(stdout, doc);
		json_decref(doc);
	} else {
		bool color = style_want_color(STDOUT_FILENO, opts->color);
		char *text = win_verify_text(&wv);

		printf("%s %s verify (Windows, %c:)\n\n", PACKAGE, VERSION, f.drive);
		fputs(text, stdout);
		free(text);
		/* The findings' block starts with its own blank line, the
		 * no-problems line without one. */
		if (wv.findings.n == 0)
			putchar('\n');
		rc = text_print_findings(stdout, &wv.findings, color);
	}
	rc = cmd_report_exit(rc, &wv.findings);
	win_verify_free(&wv);
	free(helper);
	win_facts_free(&f);
	return rc;
}
