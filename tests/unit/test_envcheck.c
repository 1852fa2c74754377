/* env --check's comparison (src/envplan/compare.c) on hand-built facts:
 * each verdict, which rows make the check fail, optional libraries, and a
 * framework's need matched to the same need before; and the Windows
 * comparison (src/envplan/wincompare.c) over hand-built Windows facts. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "envplan/compare.h"
#include "envplan/wincompare.h"
#include "facts/facts.h"
#include "util/xalloc.h"
#include "lib/tap.h"

static void
set_lib(struct lib_fact *l, const char *soname, const char *resolved,
    bool optional)
{
	memset(l, 0, sizeof *l);
	l->soname = xstrdup(soname);
	l->resolved = resolved != NULL ? xstrdup(resolved) : NULL;
	l->via = resolved != NULL ? STEP_LD_LIBRARY_PATH : STEP_NONE;
	l->error = resolved == NULL ? xstrdup("not found") : NULL;
	l->optional = optional;
}

static void
add_lib(struct facts *f, const char *soname, const char *resolved,
    bool optional)
{
	set_lib(VEC_PUSH(&f->libraries), soname, resolved, optional);
}

/* One environment with torch needing soname, resolved to resolved. */
static void
add_torch(struct facts *f, const char *soname, const char *resolved,
    enum step_source shadowed)
{
	struct py_env *e = VEC_PUSH(&f->python_envs);
	struct framework_fact *fw;
	struct fw_need *n;

	e->prefix = xstrdup("/home/u/env");
	fw = VEC_PUSH(&e->frameworks);
	fw->name = xstrdup("pytorch");
	fw->package = xstrdup("torch");
	fw->version = xstrdup("2.3.0");
	fw->gpu = FW_GPU_YES;
	n = VEC_PUSH(&fw->needs);
	n->soname = xstrdup(soname);
	n->lib = xmalloc(sizeof *n->lib);
	set_lib(n->lib, soname, resolved, false);
	n->shadowed_via = shadowed;
}

static const struct check_row *
row(const struct check_rows *r, const char *soname, bool framework)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].soname, soname) == 0 &&
		    (r->v[i].framework != NULL) == framework)
			return &r->v[i];
	return NULL;
}

static void
test_libraries(void)
{
	struct facts *b = facts_new("/", false), *a = facts_new("/", false);
	struct check_rows rows;
	const struct check_row *r;

	add_lib(b, "libcudart.so.12", "/a/libcudart.so.12", false);
	add_lib(a, "libcudart.so.12", "/a/libcudart.so.12", false);
	add_lib(b, "libcublas.so.12", NULL, false);
	add_lib(a, "libcublas.so.12", "/b/libcublas.so.12", false);
	add_lib(b, "libnvinfer.so.10", NULL, true);
	add_lib(a, "libnvinfer.so.10", NULL, true);
	add_lib(b, "libcuda.so.1", NULL, false);
	add_lib(a, "libcuda.so.1", NULL, false);
	add_lib(b, "libcudnn.so.9", "/c/libcudnn.so.9", false);
	add_lib(a, "libcudnn.so.9", "/d/libcudnn.so.9", false);
	check_compare(b, a, &rows);
	is_int(rows.n, 5, "one row per library of the after side");
	r = row(&rows, "libcudart.so.12", false);
	ok(r != NULL && r->verdict == VERDICT_UNCHANGED, "same file both sides: unchanged");
	r = row(&rows, "libcublas.so.12", false);
	ok(r != NULL && r->verdict == VERDICT_FIXED, "missing, then found: fixed");
	is_str(r != NULL ? r->after.path : NULL, "/b/libcublas.so.12", "... with the after path");
	r = row(&rows, "libcudnn.so.9", false);
	ok(r != NULL && r->verdict == VERDICT_MOVED, "another file after: moved");
	r = row(&rows, "libcuda.so.1", false);
	ok(r != NULL && r->verdict == VERDICT_STILL_BROKEN, "missing both sides: still broken");
	ok(check_rows_ok(&rows), "a library missing on both sides (no driver) does not fail the check");
	check_rows_free(&rows);

	/* The script loses what was found. */
	free(a->libraries.v[0].resolved);
	a->libraries.v[0].resolved = NULL;
	check_compare(b, a, &rows);
	r = row(&rows, "libcudart.so.12", false);
	ok(r != NULL && r->verdict == VERDICT_BROKEN, "found, then missing: broken");
	ok(!check_rows_ok(&rows), "... and the check fails");
	check_rows_free(&rows);
	facts_free(b);
	facts_free(a);
}

static void
test_frameworks(void)
{
	struct facts *b = facts_new("/", false), *a = facts_new("/", false);
	struct check_rows rows;
	const struct check_row *r;

	add_torch(b, "libcudnn.so.9", "/usr/lib/libcudnn.so.9", STEP_LD_LIBRARY_PATH);
	add_torch(a, "libcudnn.so.9", "/home/u/env/lib/libcudnn.so.9", STEP_NONE);
	check_compare(b, a, &rows);
	r = row(&rows, "libcudnn.so.9", true);
	ok(r != NULL, "a framework's need has its own row");
	is_str(r != NULL ? r->framework : NULL, "torch 2.3.0", "... naming the framework");
	is_str(r != NULL ? r->env : NULL, "/home/u/env", "... and its environment");
	ok(r != NULL && r->before.state == NEED_SHADOWED, "shadowed before");
	ok(r != NULL && r->verdict == VERDICT_FIXED, "shadowed, then its own copy: fixed");
	ok(check_rows_ok(&rows), "the check passes");
	check_rows_free(&rows);

	free(a->python_envs.v[0].frameworks.v[0].needs.v[0].lib->resolved);
	a->python_envs.v[0].frameworks.v[0].needs.v[0].lib->resolved = NULL;
	check_compare(b, a, &rows);
	r = row(&rows, "libcudnn.so.9", true);
	ok(r != NULL && r->after.state == NEED_MISSING, "missing after");
	ok(!check_rows_ok(&rows), "a framework need that does not resolve after fails the check");
	check_rows_free(&rows);

	/* The environment is not there before (created since): the need is
	 * compared with nothing. */
	facts_free(b);
	b = facts_new("/", false);
	check_compare(b, a, &rows);
	r = row(&rows, "libcudnn.so.9", true);
	ok(r != NULL && r->before.state == NEED_ABSENT, "an environment new since: absent before");
	check_rows_free(&rows);
	facts_free(b);
	facts_free(a);
}

/* A Windows machine whose one Python has TensorFlow 2.10.1 loading
 * cudart64_110.dll by name, found at got (NULL: not found) with error. */
static void
win_tf(struct win_facts *f, const char *got, unsigned error)
{
	struct win_python *py;
	struct win_framework *fw;
	struct win_need *n;

	memset(f, 0, sizeof *f);
	f->drive = 'C';
	py = VEC_PUSH(&f->pythons);
	py->dir = xstrdup("Python310");
	py->path_index = -1;
	fw = VEC_PUSH(&py->frameworks);
	fw->name = xstrdup("tensorflow");
	fw->version = xstrdup("2.10.1");
	n = VEC_PUSH(&fw->needs);
	n->dll = xstrdup("cudart64_110.dll");
	n->how = WIN_LOAD_BY_NAME;
	n->got.path = got != NULL ? xstrdup(got) : NULL;
	n->got.via = got != NULL ? DLLSRC_PATH : DLLSRC_NONE;
	n->got.error = error;
}

static void
test_windows(void)
{
	const char *v112 = "C:\\CUDA\\v11.2\\bin\\cudart64_110.dll";
	struct win_facts b, a;
	struct check_rows rows = { 0 };

	win_tf(&b, NULL, 126);
	win_tf(&a, v112, 0);
	wincheck_compare(&b, &a, &rows);
	is_int((long long)rows.n, 1, "Windows: one row per framework DLL");
	if (rows.n == 1) {
		const struct check_row *r = &rows.v[0];

		is_str(r->soname, "cudart64_110.dll", "... the DLL's name");
		is_str(r->framework, "tensorflow 2.10.1", "... the framework");
		is_str(r->env, "C:\\Python310", "... its Python, a Windows path");
		is_int(r->verdict, VERDICT_FIXED, "missing before, found after: FIXED");
		is_str(r->after.path, v112, "... the after side names the file");
		is_str(r->before.error, "error 126", "... the before side the load error");
	}
	ok(check_rows_ok(&rows), "... and the check passes");
	check_rows_free(&rows);
	memset(&rows, 0, sizeof rows);
	wincheck_compare(&a, &b, &rows);
	is_int(rows.n == 1 ? (int)rows.v[0].verdict : -1, VERDICT_BROKEN,
	    "found before, missing after: BROKEN");
	ok(!check_rows_ok(&rows), "... and the check fails");
	check_rows_free(&rows);
	memset(&rows, 0, sizeof rows);
	win_facts_free(&a);
	/* A copy of another machine found first (193) is no load. */
	win_tf(&a, v112, 193);
	wincheck_compare(&b, &a, &rows);
	is_int(rows.n == 1 ? (int)rows.v[0].verdict : -1, VERDICT_STILL_BROKEN,
	    "an x86 copy found after (193): STILL BROKEN");
	check_rows_free(&rows);
	memset(&rows, 0, sizeof rows);
	win_facts_free(&a);
	/* The framework gone from the after side: absent, not found. */
	memset(&a, 0, sizeof a);
	wincheck_compare(&b, &a, &rows);
	is_int(rows.n == 1 ? (int)rows.v[0].after.state : -1, NEED_ABSENT,
	    "no such Python after: the after side is absent");
	check_rows_free(&rows);
	win_facts_free(&b);
}

int
main(void)
{
	test_libraries();
	test_frameworks();
	test_windows();
	return done_testing();
}
