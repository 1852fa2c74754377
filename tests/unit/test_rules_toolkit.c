/* Unit tests for rules_toolkit on facts built by hand: CUDA_HOME,
 * CUDA_PATH and the nvcc on PATH agreeing or not (aliases included), and
 * nvcc against the runtime the loader finds, with the exact fixes. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "lib/tap.h"
#include "util/xalloc.h"

/* A toolkit as the toolkit probe reports it; version NULL = unknown. */
/* Fix lines that are commands, not "# ..." comments introducing them. */
static size_t
ncmd(const struct finding *fd)
{
	size_t n = 0;

	for (size_t i = 0; i < fd->fix.n; i++)
		if (fd->fix.v[i][0] != '#')
			n++;
	return n;
}

/* The k-th command fix line, or NULL. */
static const char *
cmd(const struct finding *fd, size_t k)
{
	if (fd == NULL)
		return NULL;
	for (size_t i = 0; i < fd->fix.n; i++)
		if (fd->fix.v[i][0] != '#' && k-- == 0)
			return fd->fix.v[i];
	return NULL;
}

static struct toolkit_fact *
toolkit(struct facts *f, const char *root, const char *version, bool on_path)
{
	struct toolkit_fact *t = VEC_PUSH(&f->toolkits);
	struct cudart_dir *c;

	t->root = xstrdup(root);
	if (version != NULL)
		fact_set(&t->version, version, "version.json");
	else
		fact_unknown(&t->version, "no version file");
	strv_push(&t->found_via, "/usr/local/cuda*");
	if (on_path)
		strv_push(&t->found_via, "PATH");
	t->nvcc = xasprintf("%s/bin/nvcc", root);
	c = VEC_PUSH(&t->cudart);
	c->dir = xasprintf("%s/targets/x86_64-linux/lib", root);
	c->soname = xstrdup(version != NULL && strncmp(version, "11", 2) == 0 ?
	    "libcudart.so.11.0" : "libcudart.so.12");
	c->file = xstrdup("libcudart.so.x");
	return t;
}

static void
env_set(struct facts *f, enum env_var_id id, const char *value, int exists)
{
	struct env_var *v = &f->env.var[id];

	v->set = true;
	free(v->value);
	v->value = xstrdup(value);
	v->exists = exists;
}

static void
library(struct facts *f, const char *soname, const char *resolved,
    enum step_source via, const char *target)
{
	struct lib_fact *l = VEC_PUSH(&f->libraries);

	l->soname = xstrdup(soname);
	l->resolved = resolved != NULL ? xstrdup(resolved) : NULL;
	l->via = via;
	l->target = target != NULL ? xstrdup(target) : NULL;
}

static bool
has_line(const struct strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strstr(sv->v[i], s) != NULL)
			return true;
	return false;
}

/* Runs the rules and returns the finding with code, or NULL. */
static const struct finding *
run(const struct facts *f, struct findings *fs, enum finding_code code)
{
	findings_free(fs);
	rules_toolkit(f, fs);
	return findings_find(fs, code);
}

static void
test_cuda_home(void)
{
	struct facts *f = facts_new("/", false);
	struct findings fs = { NULL, 0, 0 };
	const struct finding *fd;
	struct toolkit_fact *t12;

	t12 = toolkit(f, "/usr/local/cuda-12.4", "12.4.1", true);
	strv_push(&t12->aliases, "/usr/local/cuda");
	toolkit(f, "/usr/local/cuda-11.8", "11.8.0", false);

	env_set(f, ENV_CUDA_HOME, "/usr/local/cuda", 1);
	ok(run(f, &fs, FINDING_CUDA_HOME_MISMATCH) == NULL,
	    "CUDA_HOME=/usr/local/cuda (an alias) matches the nvcc on PATH");
	env_set(f, ENV_CUDA_HOME, "/usr/local/cuda-12.4/", 1);
	env_set(f, ENV_CUDA_PATH, "/usr/local//cuda", 1);
	ok(run(f, &fs, FINDING_CUDA_HOME_MISMATCH) == NULL,
	    "a trailing slash and // do not make a mismatch");

	env_set(f, ENV_CUDA_PATH, "/usr/local/cuda-11.8", 1);
	fd = run(f, &fs, FINDING_CUDA_HOME_MISMATCH);
	ok(fd != NULL && fd->severity == SEV_WARNING,
	    "CUDA_PATH naming another toolkit than CUDA_HOME and nvcc: a warning");
	ok(fd != NULL && has_line(&fd->evidence, "CUDA_HOME and CUDA_PATH name different toolkits"),
	    "the evidence says CUDA_HOME and CUDA_PATH differ");
	ok(fd != NULL && has_line(&fd->evidence, "CUDA_PATH=/usr/local/cuda-11.8 is CUDA 11.8.0 at /usr/local/cuda-11.8"),
	    "the evidence names the version CUDA_PATH points at");
	ok(fd != NULL && has_line(&fd->evidence, "nvcc on PATH: /usr/local/cuda-12.4/bin/nvcc"),
	    "the evidence names the nvcc on PATH");
	is_int(fd != NULL ? ncmd(fd) : 0, 2,
	    "two fix lines: one export (only CUDA_PATH is wrong), one cudawiz env");
	is_str(cmd(fd, 0),
	    "export CUDA_PATH=/usr/local/cuda-12.4", "the fix points CUDA_PATH at nvcc's toolkit");
	is_str(cmd(fd, 1), "cudawiz env --toolkit /usr/local/cuda-12.4 -o cuda-env.sh && "
	    ". ./cuda-env.sh", "... or has cudawiz env write it, for that toolkit");

	/* CUDA_HOME alone, against the nvcc on PATH. */
	f->env.var[ENV_CUDA_PATH].set = false;
	env_set(f, ENV_CUDA_HOME, "/usr/local/cuda-11.8", 1);
	fd = run(f, &fs, FINDING_CUDA_HOME_MISMATCH);
	ok(fd != NULL && has_line(&fd->evidence, "another toolkit than the nvcc on PATH"),
	    "CUDA_HOME vs the nvcc on PATH");
	is_str(cmd(fd, 0),
	    "export CUDA_HOME=/usr/local/cuda-12.4", "the fix follows nvcc");

	/* Both set and different, no nvcc on PATH: CUDA_HOME wins. */
	strv_free(&t12->found_via);
	env_set(f, ENV_CUDA_PATH, "/usr/local/cuda", 1);
	fd = run(f, &fs, FINDING_CUDA_HOME_MISMATCH);
	is_str(cmd(fd, 0),
	    "export CUDA_PATH=/usr/local/cuda-11.8",
	    "without nvcc on PATH, CUDA_PATH follows CUDA_HOME");
	env_set(f, ENV_CUDA_PATH, "/usr/local/cuda-11.8", 1);
	ok(run(f, &fs, FINDING_CUDA_HOME_MISMATCH) == NULL,
	    "both naming the same toolkit and no nvcc on PATH: no finding");

	/* An existing directory that is no toolkit. */
	f->env.var[ENV_CUDA_PATH].set = false;
	env_set(f, ENV_CUDA_HOME, "/usr/local/cuda-12.4/bin", 1);
	fd = run(f, &fs, FINDING_CUDA_HOME_MISMATCH);
	ok(fd != NULL && has_line(&fd->evidence, "is not the root of any CUDA toolkit found"),
	    "CUDA_HOME at a directory that is no toolkit root");
	is_str(cmd(fd, 0),
	    "unset CUDA_HOME",
	    "two toolkits and no nvcc on PATH: unset, not a guess");
	findings_free(&fs);
	facts_free(f);
}

static void
test_cuda_home_unknowns(void)
{
	struct facts *f = facts_new("/", false);
	struct findings fs = { NULL, 0, 0 };
	const struct finding *fd;

	toolkit(f, "/usr/local/cuda-12.4", "12.4.1", true);
	env_set(f, ENV_CUDA_HOME, "/usr/local/cuda-11.8", 0);
	ok(run(f, &fs, FINDING_CUDA_HOME_MISMATCH) == NULL,
	    "a missing CUDA_HOME is ENV_PATH_MISSING's, not a mismatch");
	env_set(f, ENV_CUDA_HOME, "/secret", -1);
	ok(run(f, &fs, FINDING_CUDA_HOME_MISMATCH) == NULL,
	    "a CUDA_HOME that could not be checked gives no finding");
	facts_free(f);

	f = facts_new("/", false);
	env_set(f, ENV_CUDA_HOME, "/opt/not a toolkit", 1);
	fd = run(f, &fs, FINDING_CUDA_HOME_MISMATCH);
	ok(fd != NULL, "CUDA_HOME at a directory when no toolkit exists at all");
	is_str(cmd(fd, 0), "unset CUDA_HOME",
	    "no toolkit to point at: unset");
	findings_free(&fs);
	facts_free(f);
}

static void
test_nvcc_runtime(void)
{
	struct facts *f = facts_new("/", false);
	struct findings fs = { NULL, 0, 0 };
	const struct finding *fd;

	toolkit(f, "/usr/local/cuda-11.8", "11.8.0", true);
	toolkit(f, "/usr/local/cuda-12.4", "12.4.1", false);
	library(f, "libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
	    STEP_DEFAULT, "/usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06");
	library(f, "libcudart.so.12", "/usr/local/cuda-12.4/lib64/libcudart.so.12",
	    STEP_LD_LIBRARY_PATH,
	    "/usr/local/cuda-12.4/targets/x86_64-linux/lib/libcudart.so.12.4.127");
	library(f, "libcudart.so.11.0", NULL, STEP_NONE, NULL);
	fd = run(f, &fs, FINDING_NVCC_RUNTIME_MISMATCH);
	ok(fd != NULL && fd->severity == SEV_WARNING,
	    "nvcc 11.8 on PATH, runtime 12 from LD_LIBRARY_PATH: a warning");
	ok(fd != NULL && strstr(fd->detail, "CUDA 11.8.0 at /usr/local/cuda-11.8") != NULL &&
	    strstr(fd->detail, "is CUDA 12") != NULL, "the detail names both versions");
	ok(fd != NULL && has_line(&fd->evidence,
	    "libcudart.so.12 resolves to /usr/local/cuda-12.4/lib64/libcudart.so.12 (via ld_library_path), from CUDA 12.4.1 at /usr/local/cuda-12.4"),
	    "the evidence names the runtime and its toolkit");
	ok(fd != NULL && has_line(&fd->evidence, "nvcc on PATH: /usr/local/cuda-11.8/bin/nvcc"),
	    "the evidence names nvcc");
	is_int(fd != NULL ? ncmd(fd) : 0, 2, "two alternative fixes");
	is_str(cmd(fd, 0),
	    "export PATH=/usr/local/cuda-12.4/bin\"${PATH:+:$PATH}\"",
	    "fix: the runtime's toolkit's bin first on PATH");
	is_str(cmd(fd, 1),
	    "export LD_LIBRARY_PATH=/usr/local/cuda-11.8/targets/x86_64-linux/lib\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"",
	    "fix: or nvcc's runtime first on LD_LIBRARY_PATH");

	/* The system copy of the matching runtime does not beat the one
	 * LD_LIBRARY_PATH chose... */
	free(f->libraries.v[2].resolved);
	f->libraries.v[2].resolved = xstrdup("/usr/lib/x86_64-linux-gnu/libcudart.so.11.0");
	f->libraries.v[2].via = STEP_DEFAULT;
	ok(run(f, &fs, FINDING_NVCC_RUNTIME_MISMATCH) != NULL,
	    "a matching runtime only in a default dir does not silence it");
	/* ...but one found through LD_LIBRARY_PATH too does. */
	f->libraries.v[2].via = STEP_LD_LIBRARY_PATH;
	ok(run(f, &fs, FINDING_NVCC_RUNTIME_MISMATCH) == NULL,
	    "a matching runtime on LD_LIBRARY_PATH: no finding");
	findings_free(&fs);
	facts_free(f);
}

static void
test_nvcc_runtime_negative(void)
{
	struct facts *f = facts_new("/", false);
	struct findings fs = { NULL, 0, 0 };
	const struct finding *fd;
	struct toolkit_fact *t;

	t = toolkit(f, "/usr/local/cuda-12.4", "12.4.1", true);
	library(f, "libcudart.so.12", "/usr/local/cuda/lib64/libcudart.so.12",
	    STEP_LD_LIBRARY_PATH,
	    "/usr/local/cuda-12.4/targets/x86_64-linux/lib/libcudart.so.12.4.127");
	ok(run(f, &fs, FINDING_NVCC_RUNTIME_MISMATCH) == NULL,
	    "nvcc and runtime of the same major: no finding");

	/* The runtime outside any toolkit: its soname gives the major. */
	free(f->libraries.v[0].soname);
	f->libraries.v[0].soname = xstrdup("libcudart.so.11.0");
	free(f->libraries.v[0].target);
	f->libraries.v[0].target = xstrdup("/opt/conda/lib/libcudart.so.11.8.89");
	fd = run(f, &fs, FINDING_NVCC_RUNTIME_MISMATCH);
	ok(fd != NULL && strstr(fd->detail, "is CUDA 11") != NULL,
	    "libcudart.so.11.0 outside a toolkit counts as CUDA 11");
	ok(fd != NULL && ncmd(fd) == 1, "no CUDA 11 toolkit with nvcc: only the LD_LIBRARY_PATH fix");

	fact_unknown(&t->version, "no version file");
	ok(run(f, &fs, FINDING_NVCC_RUNTIME_MISMATCH) == NULL,
	    "nvcc's version unknown: no finding");
	fact_set(&t->version, "12.4.1", "version.json");
	free(f->libraries.v[0].resolved);
	f->libraries.v[0].resolved = NULL;
	ok(run(f, &fs, FINDING_NVCC_RUNTIME_MISMATCH) == NULL,
	    "no runtime resolves: no finding");
	strv_free(&t->found_via);
	ok(run(f, &fs, FINDING_NVCC_RUNTIME_MISMATCH) == NULL,
	    "no nvcc on PATH: no finding");
	findings_free(&fs);
	facts_free(f);
}

static void
test_quoting(void)
{
	struct facts *f = facts_new("/", false);
	struct findings fs = { NULL, 0, 0 };
	const struct finding *fd;

	toolkit(f, "/opt/my cuda/it's-11", "11.8", true);
	toolkit(f, "/opt/cuda $12", "12.4", false);
	library(f, "libcudart.so.12", "/opt/cuda $12/lib64/libcudart.so.12",
	    STEP_LD_LIBRARY_PATH, "/opt/cuda $12/targets/x86_64-linux/lib/libcudart.so.12.4.127");
	fd = run(f, &fs, FINDING_NVCC_RUNTIME_MISMATCH);
	is_str(cmd(fd, 0),
	    "export PATH='/opt/cuda $12/bin'\"${PATH:+:$PATH}\"",
	    "a $ in the toolkit root is quoted");
	is_str(cmd(fd, 1),
	    "export LD_LIBRARY_PATH='/opt/my cuda/it'\\''s-11/targets/x86_64-linux/lib'\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"",
	    "a space and a quote in the lib dir are quoted");
	env_set(f, ENV_CUDA_HOME, "/opt/cuda $12", 1);
	fd = run(f, &fs, FINDING_CUDA_HOME_MISMATCH);
	is_str(cmd(fd, 0),
	    "export CUDA_HOME='/opt/my cuda/it'\\''s-11'",
	    "CUDA_HOME's fix is quoted");
	findings_free(&fs);
	facts_free(f);
}

int
main(void)
{
	test_cuda_home();
	test_cuda_home_unknowns();
	test_nvcc_runtime();
	test_nvcc_runtime_negative();
	test_quoting();
	return done_testing();
}
