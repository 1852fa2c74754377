/* Live verification: finds the helper, plans the runs, gives each its
 * command line and its controlled environment, and runs them one after
 * the other (two at once would share the GPU and spoil each other's
 * bandwidth figures). See verify.h and docs/VERIFY.md. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "util/envp.h"
#include "util/monoclock.h"
#include "util/pathnorm.h"
#include "util/selfexe.h"
#include "util/strbuf.h"
#include "util/strv.h"
#include "util/trustpath.h"
#include "util/xalloc.h"
#include "verify/plan.h"
#include "verify/verify.h"

#define HELPER_NAME	"cudawiz-verify"

/* Variables the helper keeps from the user's environment: where to find
 * nothing but the shell basics, which GPUs the user means, and a
 * sanitizer build's options. Everything else (LD_PRELOAD, the user's
 * LD_LIBRARY_PATH, CUDA_* tuning) stays out. */
static const char *const passed[] = {
	"PATH", "HOME", "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER",
	"ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS",
};

static bool
executable(const char *path)
{
	return path != NULL && access(path, X_OK) == 0;
}

char *
verify_helper_path(char *const *envp, char **why)
{
	const char *env = envp_get(envp, "CUDAWIZ_HELPER");
	char *dir, *cand;

	*why = NULL;
	if (env != NULL && *env != '\0') {
		if (executable(env))
			return xstrdup(env);
		*why = xasprintf(_("CUDAWIZ_HELPER=%s: %s"), env,
		    strerror(errno));
		return NULL;
	}
	dir = self_exe_dir();
	if (dir != NULL) {
		cand = xasprintf("%s/%s", dir, HELPER_NAME);
		free(dir);
		if (executable(cand))
			return cand;
		free(cand);
	}
	cand = xasprintf("%s/%s", PKGLIBEXECDIR, HELPER_NAME);
	if (executable(cand))
		return cand;
	*why = xasprintf(_("the verification helper %s: %s"), cand,
	    strerror(errno));
	free(cand);
	return NULL;
}

static void
add_dir(struct strbuf *sb, const char *lib)
{
	char *dir;

	if (strchr(lib, '/') == NULL)
		return;
	dir = path_dirname(lib);
	if (sb->len > 0)
		strbuf_putc(sb, ':');
	strbuf_puts(sb, dir);
	free(dir);
}

/* The command line and LD_LIBRARY_PATH of a run. */
static void
prepare(struct verify_run *r, bool quick)
{
	struct strbuf llp = STRBUF_INIT;

	strv_push(&r->argv, verify_kind_name(r->kind));
	strv_push(&r->argv, "--lib");
	strv_push(&r->argv, r->lib);
	if (r->kind == VERIFY_DRIVER && quick)
		strv_push(&r->argv, "--quick");
	if (r->kind == VERIFY_CUDNN && r->cudart != NULL) {
		strv_push(&r->argv, "--cudart");
		strv_push(&r->argv, r->cudart);
	}
	add_dir(&llp, r->lib);
	if (r->cudart != NULL)
		add_dir(&llp, r->cudart);
	r->ld_library_path = strbuf_take(&llp);
}

static void
build_env(const struct verify_run *r, char *const *envp, struct strv *env)
{
	for (size_t i = 0; i < sizeof passed / sizeof passed[0]; i++) {
		const char *v = envp_get(envp, passed[i]);

		if (v != NULL)
			strv_pushf(env, "%s=%s", passed[i], v);
	}
	if (envp_get(envp, "PATH") == NULL)
		strv_push(env, "PATH=/usr/bin:/bin");
	strv_push(env, "LANG=C");
	strv_push(env, "LC_ALL=C");
	/* The PTX check must really JIT, not hit a cache another run
	 * filled, and must not write into the user's ~/.nv. */
	strv_push(env, "CUDA_CACHE_DISABLE=1");
	if (r->ld_library_path != NULL && *r->ld_library_path != '\0')
		strv_pushf(env, "LD_LIBRARY_PATH=%s", r->ld_library_path);
}

/* Who may own what is loaded: root, the real and effective user, and
 * under sudo (running as root) the user who ran sudo. */
static size_t
trusted_uids(char *const *envp, uid_t uids[4])
{
	const char *sudo = envp_get(envp, "SUDO_UID");
	size_t n = 0;

	uids[n++] = 0;
	uids[n++] = getuid();
	uids[n++] = geteuid();
	if (geteuid() == 0 && sudo != NULL && *sudo != '\0') {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(sudo, &end, 10);
		if (errno == 0 && *end == '\0' && sudo[0] != '-' &&
		    v == (unsigned long)(uid_t)v)
			uids[n++] = (uid_t)v;
	}
	return n;
}

char *
verify_env_check(const char *path, char *const *envp, char **why)
{
	uid_t uids[4];
	size_t n = trusted_uids(envp, uids);
	struct trustpath_why tw;
	struct stat st;
	char *real;

	*why = NULL;
	real = realpath(path, NULL);
	if (real == NULL || stat(real, &st) != 0) {
		*why = xasprintf("%s: %s", path, strerror(errno));
		free(real);
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		*why = xasprintf("%s: %s", path, strerror(ENOTDIR));
		free(real);
		return NULL;
	}
	if (!trustpath_check(path, uids, n, &tw)) {
		char *words = trustpath_words(&tw);

		*why = xasprintf(_("%s is not loaded: %s"), path, words);
		free(words);
		trustpath_why_free(&tw);
		free(real);
		return NULL;
	}
	return real;
}

/* An environment variable's directory, as a real path; NULL when unset
 * or not there. */
static void
plan(struct facts *facts, const struct verify_opts *o)
{
	struct verify_trust t = { 0 };
	uid_t uids[4];

	t.uids = uids;
	t.nuids = trusted_uids(o->envp, uids);
	if (o->env != NULL) {
		free(facts->verify.env);
		facts->verify.env = realpath(o->env, NULL);
	}
	t.named = facts->verify.env;
	verify_plan(facts, &t, &facts->verify);
}

void
verify_all(struct facts *facts, const struct verify_opts *o)
{
	struct verify_facts *vf = &facts->verify;
	double start = mono_ms();
	char *why = NULL;

	vf->timeout_s = o->timeout_s > 0 ? o->timeout_s : VERIFY_TIMEOUT_DEFAULT_S;
	vf->quick = o->quick;
	if (!facts->live_allowed) {
		vf->state = VERIFY_STATE_SKIPPED;
		vf->why = xstrdup(_("a --root tree is read, not run: nothing "
		    "is loaded"));
		return;
	}
	vf->helper = o->helper != NULL ? xstrdup(o->helper) :
	    verify_helper_path(o->envp, &why);
	if (vf->helper == NULL) {
		vf->state = VERIFY_STATE_SKIPPED;
		vf->why = why;
		return;
	}
	vf->state = VERIFY_STATE_RAN;
	plan(facts, o);
	for (size_t i = 0; i < vf->runs.n; i++) {
		struct verify_run *r = &vf->runs.v[i];
		struct strv env = STRV_INIT;
		char **envv;

		prepare(r, o->quick);
		if (o->progress != NULL)
			o->progress(o->progress_arg, r, i, vf->runs.n);
		if (o->cancel != NULL && o->cancel(o->progress_arg)) {
			vf->cancelled = true;
			vf->planned = vf->runs.n;
			for (size_t j = i; j < vf->runs.n; j++)
				verify_run_free(&vf->runs.v[j]);
			vf->runs.n = i;
			break;
		}
		build_env(r, o->envp, &env);
		envv = xreallocarray(NULL, env.n + 1, sizeof *envv);
		for (size_t k = 0; k < env.n; k++)
			envv[k] = env.v[k];
		envv[env.n] = NULL;
		verify_exec(r, vf->helper, envv, vf->timeout_s);
		free(envv);
		strv_free(&env);
	}
	vf->ms = mono_ms() - start;
}
