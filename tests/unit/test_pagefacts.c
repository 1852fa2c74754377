/* Unit tests for src/wizard/pagefacts.c: the label column sized by
 * display width, and which finding names a fact (a path as a whole, a
 * file under a directory, a variable's assignment), so a fact page never
 * shows ✓ beside what a finding is about. */
#include "config.h"

#include "diagnose/finding.h"
#include "lib/tap.h"
#include "util/strv.h"
#include "wizard/pagefacts.h"

static struct finding *
add(struct findings *fs, enum finding_code code, enum severity sev,
    const char *evidence)
{
	struct finding *f = finding_add(fs, code, "%s", "");

	f->severity = sev;
	strv_push(&f->evidence, evidence);
	return f;
}

static void
test_labels(void)
{
	int w = wlabel_fit(0, "bound to");

	is_int(w, 10, "a label's width and a gap of two");
	is_int(wlabel_fit(w, "UUID"), 10, "a shorter label keeps the column");
	/* Four double-width characters: eight columns, not twelve bytes. */
	is_int(wlabel_fit(0, "\xe8\xae\xa1\xe7\xae\x97\xe8\x83\xbd\xe5\x8a\x9b"),
	    10, "Chinese labels count by display width");
	is_int(wlabel_done(40, 200), WLABEL_MAX, "capped at WLABEL_MAX");
	is_int(wlabel_done(24, 60), 20, "and at a third of a narrow body");
	is_int(wlabel_done(12, 76), 12, "a narrow column stays as it is");
}

static void
test_naming(void)
{
	static const enum finding_code env[] = {
		FINDING_ENV_PATH_MISSING, FINDING_LIB_SHADOWED,
		FINDING_CUDA_HOME_MISMATCH, FINDING_NO_VISIBLE_DEVICES,
	};
	size_t n = sizeof env / sizeof env[0];
	struct findings fs = { 0 };
	const struct finding *f;

	add(&fs, FINDING_ENV_PATH_MISSING, SEV_WARNING,
	    "/opt/cuda-11.8/lib64 (entry 1): No such file or directory");
	add(&fs, FINDING_SONAME_NOT_FOUND, SEV_ERROR,
	    "not in LD_LIBRARY_PATH: /opt/cuda-11.8/lib64 (missing)");
	add(&fs, FINDING_LIB_SHADOWED, SEV_ERROR,
	    "libcudart.so.12 resolves to /home/u/envs/nlp/lib/libcudart.so.12 "
	    "(LD_LIBRARY_PATH entry /home/u/envs/nlp/lib)");
	add(&fs, FINDING_CUDA_HOME_MISMATCH, SEV_WARNING,
	    "extension builds use CUDA_HOME=/usr/local/cuda: CUDA 13.0.0");
	add(&fs, FINDING_NO_VISIBLE_DEVICES, SEV_ERROR, "CUDA_VISIBLE_DEVICES=-1");

	f = wfinding_naming(&fs, env, n, "/opt/cuda-11.8/lib64", WN_PATH);
	ok(f != NULL && f->code == FINDING_ENV_PATH_MISSING,
	    "a path named whole, by a listed code");
	f = wfinding_naming(&fs, NULL, 0, "/opt/cuda-11.8/lib64", WN_PATH);
	ok(f != NULL && f->code == FINDING_SONAME_NOT_FOUND,
	    "every code when none are listed, the most severe first");
	f = wfinding_naming(&fs, env, n, "/opt/cuda-11.8/lib64/", WN_PATH);
	ok(f != NULL && f->code == FINDING_ENV_PATH_MISSING,
	    "a trailing slash names the same directory");
	ok(wfinding_naming(&fs, env, n, "/opt/cuda-11.8/lib", WN_PATH) == NULL,
	    "a path's prefix is not the path");
	ok(wfinding_naming(&fs, env, n, "/cuda-11.8/lib64", WN_PATH) == NULL,
	    "nor is its tail");
	ok(wfinding_naming(&fs, env, n, "/home/u/envs/nlp", WN_PATH) == NULL,
	    "a directory above a named file is not named as a path");
	f = wfinding_naming(&fs, env, n, "/home/u/envs/nlp", WN_UNDER);
	is_str(f != NULL ? finding_code_name(f->code) : "none", "LIB_SHADOWED",
	    "... but is, as the directory a file lies under");
	f = wfinding_naming(&fs, env, n, "CUDA_HOME", WN_VAR);
	ok(f != NULL && f->code == FINDING_CUDA_HOME_MISMATCH,
	    "a variable by its assignment");
	f = wfinding_naming(&fs, env, n, "CUDA_VISIBLE_DEVICES", WN_VAR);
	ok(f != NULL && f->severity == SEV_ERROR, "... the hidden GPUs' one too");
	ok(wfinding_naming(&fs, env, n, "CUDA_PATH", WN_VAR) == NULL,
	    "a variable no finding assigns is not named");
	ok(wfinding_naming(&fs, env, n, "HOME", WN_VAR) == NULL,
	    "nor one whose name ends another's (CUDA_HOME=)");
	ok(wfinding_naming(&fs, env, n, "", WN_PATH) == NULL,
	    "an empty entry names nothing");
	findings_free(&fs);
}

int
main(void)
{
	test_labels();
	test_naming();
	return done_testing();
}
