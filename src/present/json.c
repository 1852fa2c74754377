/* The JSON report, built with jansson.
 *
 * Field rules: a fact that is known prints its value; one that is known to
 * be absent prints null; one that is unknown or unreadable prints null and
 * its reason under the object's "unknown" or "unreadable" map, keyed by
 * field name. Where a value came from is under "sources". Strings that are
 * not valid UTF-8 (file names can be anything) have the bad bytes replaced
 * by U+FFFD so the document always parses; the exact bytes of each such
 * string are kept beside the document in "raw_strings" (see jstr). */
#include "config.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loader/resolve.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "present/json.h"
#include "spec/spec.h"
#include "util/strbuf.h"
#include "util/utf8width.h"
#include "util/xalloc.h"

#define SCHEMA_DOCTOR "cudawiz/doctor/1"
/* A hostile tree can hold 100,000 such names; the first ones are enough
 * to find the exact bytes of what a report names, the rest are counted. */
#define RAW_STRINGS_MAX 1000
/* The largest document written indented (see json_write). */
#define JSON_INDENT_MAX (1u << 20)

/* The strings jstr() had to change, until json_write() puts them into the
 * document it writes. File-wide rather than passed down: jstr() is called
 * from every presenter at every depth, and a process writes one document;
 * a pointer keeps the state to what a run really meets. */
static struct {
	json_t	*list;		/* [{"shown": ..., "bytes_hex": ...}] */
	json_t	*seen;		/* bytes_hex -> true */
	size_t	 cut;
} raw;

/* Remembers the exact bytes behind a string shown with U+FFFD. */
static void
keep_raw(const char *s, const char *shown)
{
	static const char digits[] = "0123456789abcdef";
	struct strbuf hex = STRBUF_INIT;
	json_t *o;

	for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
		strbuf_putc(&hex, digits[*p >> 4]);
		strbuf_putc(&hex, digits[*p & 15]);
	}
	if (raw.list == NULL) {
		raw.list = json_array();
		raw.seen = json_object();
	}
	if (json_object_get(raw.seen, strbuf_str(&hex)) != NULL) {
		strbuf_free(&hex);
		return;
	}
	if (json_array_size(raw.list) >= RAW_STRINGS_MAX) {
		raw.cut++;
		strbuf_free(&hex);
		return;
	}
	json_object_set_new(raw.seen, strbuf_str(&hex), json_true());
	o = json_object();
	json_object_set_new(o, "shown", json_string(shown));
	json_object_set_new(o, "bytes_hex", json_string(strbuf_str(&hex)));
	json_array_append_new(raw.list, o);
	strbuf_free(&hex);
}

json_t *
jstr(const char *s)
{
	char *mended;
	json_t *j;

	if (s == NULL)
		return json_null();
	j = json_string(s);
	if (j != NULL)
		return j;
	mended = utf8_mend(s, SIZE_MAX);
	j = json_string(mended);
	if (j != NULL)
		keep_raw(s, mended);
	free(mended);
	return j != NULL ? j : json_null();
}

static json_t *
jbool3(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *
jhex(unsigned v, int width)
{
	char buf[16];

	snprintf(buf, sizeof buf, "0x%0*x", width, v);
	return json_string(buf);
}

static void
set(json_t *obj, const char *key, json_t *val)
{
	json_object_set_new(obj, key, val != NULL ? val : json_null());
}

static json_t *
map_of(json_t *obj, const char *key)
{
	json_t *m = json_object_get(obj, key);

	if (m == NULL) {
		m = json_object();
		json_object_set_new(obj, key, m);
	}
	return m;
}

/* Puts a fact under key, with its source and reason as described above. */
static void
put_fact(json_t *obj, const char *key, const struct fact_str *f)
{
	set(obj, key, f->state == FACT_KNOWN ? jstr(f->value) : json_null());
	if (f->state == FACT_KNOWN && f->source != NULL)
		set(map_of(obj, "sources"), key, jstr(f->source));
	if (f->state == FACT_UNKNOWN && f->why != NULL)
		set(map_of(obj, "unknown"), key, jstr(f->why));
	if (f->state == FACT_UNREADABLE)
		set(map_of(obj, "unreadable"), key, jstr(f->why));
}

/* A yes/no fact as a boolean. */
static void
put_yesno(json_t *obj, const char *key, const struct fact_str *f)
{
	put_fact(obj, key, f);
	if (f->state == FACT_KNOWN && f->value != NULL)
		set(obj, key, json_boolean(strcmp(f->value, "yes") == 0));
}

json_t *
jstrv(const struct strv *sv)
{
	json_t *a = json_array();

	for (size_t i = 0; i < sv->n; i++)
		json_array_append_new(a, jstr(sv->v[i]));
	return a;
}

static json_t *
gpus_json(const struct facts *f)
{
	json_t *a = json_array();

	for (size_t i = 0; i < f->gpus.n; i++) {
		const struct gpu_fact *g = &f->gpus.v[i];
		json_t *o = json_object();
		char sub[16];

		set(o, "pci_address", jstr(g->pci_address));
		set(o, "vendor_id", jhex(g->vendor_id, 4));
		set(o, "device_id", jhex(g->device_id, 4));
		snprintf(sub, sizeof sub, "%04x:%04x", g->subsys_vendor_id,
		    g->subsys_device_id);
		set(o, "subsystem", json_string(sub));
		set(o, "class", jhex(g->class_code, 6));
		put_fact(o, "kernel_driver", &g->kernel_driver);
		put_fact(o, "name", &g->name);
		put_fact(o, "uuid", &g->uuid);
		put_fact(o, "chip", &g->chip);
		put_fact(o, "arch", &g->arch);
		put_fact(o, "compute_capability", &g->cc);
		put_fact(o, "legacy_branch", &g->legacy_branch);
		put_fact(o, "link_speed", &g->link_speed);
		put_fact(o, "link_width", &g->link_width);
		put_fact(o, "max_link_speed", &g->max_link_speed);
		put_fact(o, "max_link_width", &g->max_link_width);
		json_array_append_new(a, o);
	}
	return a;
}

/* The libcuda.so.1 the loader picks, null when none loads: a
 * forward-compatibility library is the driver programs really use. */
static json_t *
libcuda_json(const struct loaded_libcuda *lc)
{
	json_t *o;

	if (lc->path == NULL)
		return json_null();
	o = json_object();
	set(o, "path", jstr(lc->path));
	set(o, "version", jstr(lc->version));
	set(o, "forward_compat", json_boolean(lc->fwd_compat));
	set(o, "compat_cuda", jstr(lc->compat_cuda));
	set(o, "compat_source", jstr(lc->compat_source));
	set(o, "compat_package", jstr(lc->compat_package));
	return o;
}

static json_t *
driver_json(const struct driver_facts *d)
{
	json_t *o = json_object(), *libs = json_array(), *mods = json_array();
	json_t *wsl = json_object(), *ctr = json_object(), *colab = json_object();
	json_t *dkms = json_array();

	put_fact(o, "kernel_release", &d->kernel_release);
	put_fact(o, "module_version", &d->module_version);
	put_fact(o, "sys_module_version", &d->sys_module_version);
	put_fact(o, "max_cuda", &d->max_cuda);
	put_fact(o, "minor_compat_major", &d->compat_major);
	put_yesno(o, "nvidia_loaded", &d->nvidia_loaded);
	put_yesno(o, "nouveau_loaded", &d->nouveau_loaded);
	for (size_t i = 0; i < d->libs.n; i++) {
		json_t *l = json_object();

		set(l, "name", jstr(d->libs.v[i].name));
		set(l, "path", jstr(d->libs.v[i].path));
		set(l, "version", jstr(d->libs.v[i].version));
		set(l, "wsl", json_boolean(d->libs.v[i].wsl));
		json_array_append_new(libs, l);
	}
	set(o, "libraries", libs);
	set(o, "libcuda_loaded", libcuda_json(&d->libcuda));
	put_yesno(o, "modules_for_running_kernel", &d->modules_for_running);
	for (size_t i = 0; i < d->module_files.n; i++) {
		json_t *m = json_object();

		set(m, "kernel", jstr(d->module_files.v[i].kernel));
		set(m, "path", jstr(d->module_files.v[i].path));
		set(m, "version", jstr(d->module_files.v[i].version));
		set(m, "signed", d->module_files.v[i].signed_state < 0 ?
		    json_null() : json_boolean(d->module_files.v[i].signed_state));
		json_array_append_new(mods, m);
	}
	set(o, "module_files", mods);
	set(o, "kernels", jstrv(&d->kernels));
	put_fact(o, "boot_kernel", &d->boot_kernel);
	for (size_t i = 0; i < d->dkms.n; i++) {
		json_t *b = json_object();

		set(b, "module", jstr(d->dkms.v[i].module));
		set(b, "version", jstr(d->dkms.v[i].version));
		set(b, "kernel", jstr(d->dkms.v[i].kernel));
		set(b, "path", jstr(d->dkms.v[i].path));
		set(b, "state", json_string(d->dkms.v[i].installed ?
		    "installed" : "built"));
		json_array_append_new(dkms, b);
	}
	set(o, "dkms", dkms);
	put_yesno(o, "secure_boot", &d->secure_boot);
	put_fact(o, "tainted", &d->tainted);
	put_yesno(o, "dkms_mok", &d->dkms_mok);
	put_yesno(o, "mok_enrolled", &d->mok_enrolled);
	set(wsl, "detected", json_boolean(d->is_wsl));
	set(wsl, "microsoft_kernel", json_boolean(d->wsl_kernel));
	set(wsl, "dev_dxg", json_boolean(d->wsl_dxg));
	set(wsl, "lib_dir", json_boolean(d->wsl_lib_dir));
	set(o, "wsl", wsl);
	set(ctr, "docker", json_boolean(d->docker));
	set(ctr, "podman", json_boolean(d->podman));
	set(ctr, "kubernetes", json_boolean(d->kubernetes));
	set(ctr, "apptainer", json_boolean(d->apptainer));
	set(ctr, "container_env", jstr(d->container_env));
	set(o, "container", ctr);
	set(colab, "release", jstr(d->colab_release));
	set(colab, "lib64_nvidia", json_boolean(d->lib64_nvidia));
	set(o, "colab", colab);
	return o;
}

static json_t *
toolkits_json(const struct facts *f)
{
	json_t *a = json_array();

	for (size_t i = 0; i < f->toolkits.n; i++) {
		const struct toolkit_fact *t = &f->toolkits.v[i];
		json_t *o = json_object(), *rt = json_array();

		set(o, "root", jstr(t->root));
		set(o, "layout", json_string(t->layout == TOOLKIT_LAYOUT_PIP ?
		    "pip" : "install"));
		set(o, "found_via", jstrv(&t->found_via));
		set(o, "aliases", jstrv(&t->aliases));
		put_fact(o, "version", &t->version);
		set(o, "release", jstr(t->release));
		set(o, "components", jstrv(&t->components));
		for (size_t j = 0; j < t->cudart.n; j++) {
			json_t *c = json_object();

			set(c, "dir", jstr(t->cudart.v[j].dir));
			set(c, "soname", jstr(t->cudart.v[j].soname));
			set(c, "file", jstr(t->cudart.v[j].file));
			json_array_append_new(rt, c);
		}
		set(o, "cudart", rt);
		set(o, "stubs_dir", jstr(t->stubs_dir));
		set(o, "nvcc", jstr(t->nvcc));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *
cudnn_json(const struct facts *f)
{
	json_t *a = json_array();

	for (size_t i = 0; i < f->cudnn.n; i++) {
		const struct cudnn_fact *c = &f->cudnn.v[i];
		json_t *o = json_object();

		set(o, "lib_dir", jstr(c->lib_dir));
		set(o, "where", jstr(c->where));
		put_fact(o, "version", &c->version);
		set(o, "header", jstr(c->header));
		put_fact(o, "lib_version", &c->lib_version);
		set(o, "soname", jstr(c->soname));
		put_fact(o, "cuda_major", &c->cuda_major);
		set(o, "libraries", jstrv(&c->libraries));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *
path_var_json(const struct path_var *pv)
{
	json_t *o = json_object(), *a = json_array();

	set(o, "set", json_boolean(pv->set));
	set(o, "value", pv->set ? jstr(pv->raw) : json_null());
	for (size_t i = 0; i < pv->entries.n; i++) {
		const struct path_entry *e = &pv->entries.v[i];
		json_t *eo = json_object();

		set(eo, "value", jstr(e->value));
		set(eo, "empty", json_boolean(e->empty));
		set(eo, "exists", jbool3(e->exists));
		set(eo, "is_dir", json_boolean(e->is_dir));
		set(eo, "duplicate_of", e->duplicate_of >= 0 ?
		    json_integer(e->duplicate_of) : json_null());
		set(eo, "has_cuda_libs", json_boolean(e->has_cuda_libs));
		if (e->why != NULL)
			set(eo, "why", jstr(e->why));
		json_array_append_new(a, eo);
	}
	set(o, "entries", a);
	return o;
}

static json_t *
env_json(const struct env_facts *e)
{
	json_t *o = json_object(), *conf = json_array();

	set(o, "LD_LIBRARY_PATH", path_var_json(&e->ld_library_path));
	set(o, "PATH", path_var_json(&e->path));
	set(o, "LD_PRELOAD", path_var_json(&e->ld_preload));
	for (size_t i = 0; i < ENV_VAR_COUNT; i++) {
		const struct env_var *v = &e->var[i];
		json_t *vo = json_object();

		set(vo, "set", json_boolean(v->set));
		set(vo, "value", v->set ? jstr(v->value) : json_null());
		set(vo, "exists", jbool3(v->exists));
		if (v->why != NULL)
			set(vo, "why", jstr(v->why));
		set(o, v->name, vo);
	}
	for (size_t i = 0; i < e->ldconf.n; i++) {
		json_t *d = json_object();

		set(d, "dir", jstr(e->ldconf.v[i].dir));
		set(d, "from", jstr(e->ldconf.v[i].from));
		set(d, "exists", jbool3(e->ldconf.v[i].exists));
		json_array_append_new(conf, d);
	}
	set(o, "ld_so_conf", conf);
	put_fact(o, "ld_so_conf_read", &e->ldconf_state);
	return o;
}

/* One search step, in the shape `cudawiz why` prints. */
json_t *
json_step(const struct resolve_step *s)
{
	json_t *o = json_object();

	set(o, "source", json_string(step_source_name(s->source)));
	set(o, "dir", jstr(s->dir));
	set(o, "spec", jstr(s->spec));
	set(o, "owner", jstr(s->owner));
	set(o, "path", jstr(s->path));
	set(o, "result", json_string(step_result_name(s->result)));
	set(o, "detail", jstr(s->detail));
	return o;
}

/* doctor's library steps: a run of at least this many consecutive steps
 * that found nothing (10,000 LD_LIBRARY_PATH directories without the
 * file) is one record. A real search path is far shorter, so an ordinary
 * report lists every step. */
#define STEP_RUN_MIN	100

static bool
str_same(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* A step that says only "not in this directory". */
static bool
says_nothing(const struct resolve_step *s)
{
	return (s->result == STEP_NOT_FOUND || s->result == STEP_DIR_MISSING) &&
	    s->dir != NULL && s->path == NULL && s->detail == NULL;
}

/* How many steps from v[i] on say nothing in the same list (source and
 * owner). */
static size_t
quiet_run(const struct resolve_step *v, size_t n, size_t i)
{
	size_t j = i;

	while (j < n && says_nothing(&v[j]) && v[j].source == v[i].source &&
	    str_same(v[j].owner, v[i].owner))
		j++;
	return j - i;
}

/* The record for the run of count quiet steps at run: a step's keys
 * (dir is the first directory; result "not_there") and count, last_dir
 * and dir_missing, how many of them do not exist. */
static json_t *
quiet_run_json(const struct resolve_step *run, size_t count)
{
	json_t *o = json_object();
	size_t missing = 0;

	for (size_t i = 0; i < count; i++)
		missing += run[i].result == STEP_DIR_MISSING;
	set(o, "source", json_string(step_source_name(run[0].source)));
	set(o, "dir", jstr(run[0].dir));
	set(o, "spec", jstr(run[0].spec));
	set(o, "owner", jstr(run[0].owner));
	set(o, "path", json_null());
	set(o, "result", json_string("not_there"));
	set(o, "detail", json_null());
	set(o, "count", json_integer((json_int_t)count));
	set(o, "last_dir", jstr(run[count - 1].dir));
	set(o, "dir_missing", json_integer((json_int_t)missing));
	return o;
}

/* doctor's "steps" of a library: every step, long quiet runs as one
 * record each (`why` keeps them all). */
static json_t *
lib_steps_json(const struct resolve_step *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n;) {
		size_t run = quiet_run(v, n, i);

		if (run >= STEP_RUN_MIN) {
			json_array_append_new(a, quiet_run_json(&v[i], run));
			i += run;
			continue;
		}
		json_array_append_new(a, json_step(&v[i]));
		i++;
	}
	return a;
}

static json_t *
copy_json(const struct lib_copy *c)
{
	json_t *o = json_object();

	set(o, "path", jstr(c->path));
	set(o, "target", jstr(c->target));
	set(o, "soname", jstr(c->soname));
	set(o, "loadable", json_boolean(c->loadable));
	set(o, "problem", jstr(c->problem));
	set(o, "tried", json_boolean(c->tried));
	set(o, "reached_via", jstr(step_words(c->reached_via, STEPW_FACT)));
	set(o, "stub", json_boolean(c->stub));
	/* Whether the ld.so.cache maps the name to this copy: with it,
	 * rerunning ldconfig changes nothing for it (src/diagnose/fixdriver). */
	set(o, "in_cache", json_boolean(c->cached));
	return o;
}

static json_t *
libraries_json(const struct facts *f)
{
	json_t *a = json_array();

	for (size_t i = 0; i < f->libraries.n; i++) {
		const struct lib_fact *l = &f->libraries.v[i];
		json_t *o = json_object();
		json_t *others = json_array(), *copies = json_array();
		json_t *dangling = json_array();

		set(o, "soname", jstr(l->soname));
		set(o, "resolved", jstr(l->resolved));
		set(o, "via", jstr(step_words(l->via, STEPW_FACT)));
		set(o, "target", jstr(l->target));
		set(o, "optional", json_boolean(l->optional));
		set(o, "error", jstr(l->error));
		/* What the winner's file says it is. */
		set(o, "file_soname", jstr(l->elf_soname));
		set(o, "version_definitions", jstrv(&l->elf_verdefs));
		set(o, "elf_error", jstr(l->elf_error));
		set(o, "stub", json_boolean(l->stub));
		set(o, "steps", lib_steps_json(l->steps.v, l->steps.n));
		/* Paths only, as `why` prints them; "copies" says more. */
		for (size_t j = 0; j < l->copies.n; j++) {
			json_array_append_new(others, jstr(l->copies.v[j].path));
			json_array_append_new(copies, copy_json(&l->copies.v[j]));
		}
		set(o, "other_copies", others);
		set(o, "copies", copies);
		for (size_t j = 0; j < l->dangling.n; j++) {
			json_t *d = json_object();

			set(d, "path", jstr(l->dangling.v[j].path));
			set(d, "link", jstr(l->dangling.v[j].link));
			set(d, "via", jstr(step_words(l->dangling.v[j].via, STEPW_FACT)));
			json_array_append_new(dangling, d);
		}
		set(o, "dangling", dangling);
		json_array_append_new(a, o);
	}
	return a;
}

/* The kernel log's Xid reports, grouped by GPU and code. */
static json_t *
kernel_log_json(const struct facts *f)
{
	json_t *o = json_object(), *xids = json_array();

	put_fact(o, "state", &f->kmsg_state);
	for (size_t i = 0; i < f->xids.n; i++) {
		json_t *x = json_object();

		set(x, "pci", jstr(f->xids.v[i].pci));
		set(x, "code", json_integer(f->xids.v[i].code));
		set(x, "count", json_integer((json_int_t)f->xids.v[i].count));
		set(x, "last", jstr(f->xids.v[i].last));
		json_array_append_new(xids, x);
	}
	set(o, "xids", xids);
	return o;
}

static json_t *
facts_json(const struct facts *f)
{
	json_t *o = json_object(), *notes = json_array(), *gp = json_object();

	set(o, "gpus", gpus_json(f));
	put_fact(gp, "pci_bus", &f->gpus_state);
	set(o, "gpus_probe", gp);
	set(o, "driver", driver_json(&f->driver));
	set(o, "kernel_log", kernel_log_json(f));
	set(o, "toolkits", toolkits_json(f));
	set(o, "cudnn", cudnn_json(f));
	set(o, "python_envs", python_envs_json(f));
	set(o, "env", env_json(&f->env));
	set(o, "libraries", libraries_json(f));
	set(o, "verify", verify_json(&f->verify));
	for (size_t i = 0; i < f->notes.n; i++) {
		json_t *n = json_object();

		set(n, "path", jstr(f->notes.v[i].path));
		set(n, "problem", jstr(f->notes.v[i].problem));
		json_array_append_new(notes, n);
	}
	set(o, "notes", notes);
	set(o, "notes_dropped", json_integer((json_int_t)f->notes.dropped));
	return o;
}

json_t *
findings_json(const struct findings *fs)
{
	json_t *a = json_array();

	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *fd = &fs->v[i];
		json_t *o = json_object();

		set(o, "code", json_string(finding_code_name(fd->code)));
		set(o, "severity", json_string(severity_name(fd->severity)));
		set(o, "title", jstr(finding_title(fd->code)));
		/* What it is about, one line; null when the title says it
		 * (a finding about the whole machine). */
		set(o, "subject", jstr(fd->subject));
		set(o, "detail", jstr(fd->detail));
		set(o, "evidence", jstrv(&fd->evidence));
		set(o, "fix", jstrv(&fd->fix));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *
matrix_json(const struct matrix *m, time_t now, time_t checked)
{
	json_t *o;
	int age;

	/* Before the object is made: a NULL matrix (allowed, json.h) would
	 * leak it. */
	if (m == NULL)
		return json_null();
	o = json_object();
	age = select_age_days(matrix_date(m), now);
	set(o, "source", json_string(matrix_source_name(matrix_source(m))));
	set(o, "date", jstr(matrix_date(m)));
	set(o, "path", jstr(matrix_path(m)));
	set(o, "age_days", age >= 0 ? json_integer(age) : json_null());
	set(o, "refresh_days", json_integer((json_int_t)matrix_refresh_days(m)));
	set(o, "stale", json_boolean(select_stale(m, now, checked)));
	return o;
}

int
json_print_doctor(FILE *fp, const struct facts *facts,
    const struct findings *findings, const struct matrix *m, time_t now,
    time_t checked)
{
	json_t *doc = json_object(), *sum = json_object();
	int rc;

	set(doc, "schema", json_string(SCHEMA_DOCTOR));
	set(doc, "version", json_string(VERSION));
	set(doc, "host", spec_host_json(facts, now));
	set(doc, "root", jstr(facts->root));
	set(doc, "live_checks", json_boolean(facts->live_allowed));
	set(doc, "matrix", matrix_json(m, now, checked));
	/* What fleet and --baseline compare, so they need not derive it. */
	set(doc, "spec", spec_json(facts, now, false));
	set(doc, "facts", facts_json(facts));
	set(doc, "findings", findings_json(findings));
	set(sum, "errors", json_integer((json_int_t)findings_count(findings, SEV_ERROR)));
	set(sum, "warnings", json_integer((json_int_t)findings_count(findings, SEV_WARNING)));
	set(sum, "info", json_integer((json_int_t)findings_count(findings, SEV_INFO)));
	set(doc, "summary", sum);
	rc = json_write(fp, doc);
	json_decref(doc);
	return rc;
}

/* jansson's json_dumpf() writes token by token through stdio, which costs
 * more than building the document for a large one (`why --from` on a big
 * closure): render it whole, then write it at once. */
int
json_write(FILE *fp, const json_t *doc)
{
	json_t *whole = NULL;
	size_t len;
	char *s;
	int rc = 0;

	/* A shallow copy: the caller's document stays as it was given. */
	if (raw.list != NULL && json_is_object(doc)) {
		whole = json_copy((json_t *)doc);
		json_object_set(whole, "raw_strings", raw.list);
		if (raw.cut > 0)
			json_object_set_new(whole, "raw_strings_cut",
			    json_integer((json_int_t)raw.cut));
	}
	s = json_dumps(whole != NULL ? whole : doc,
	    JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	/* Indentation is for a person reading; a document past 1 MiB is
	 * read by a program, and indented it is half blanks (10,000
	 * LD_LIBRARY_PATH entries: 2.2 MB). Rendered again, compact. */
	if (s != NULL && strlen(s) > JSON_INDENT_MAX) {
		free(s);
		s = json_dumps(whole != NULL ? whole : doc,
		    JSON_COMPACT | JSON_PRESERVE_ORDER);
	}
	json_decref(whole);
	json_decref(raw.list);
	json_decref(raw.seen);
	raw.list = raw.seen = NULL;
	raw.cut = 0;
	if (s == NULL)
		return -1;
	len = strlen(s);
	if (fwrite(s, 1, len, fp) != len || fputc('\n', fp) == EOF)
		rc = -1;
	free(s);
	return rc;
}
