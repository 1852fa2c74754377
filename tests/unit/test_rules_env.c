/* Unit tests for rules_env (and the path normal form it compares with),
 * on facts built by hand: each case is one environment a user could
 * have, with the exact fix that must come out. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "lib/tap.h"
#include "util/pathnorm.h"
#include "util/xalloc.h"

/* An entry as the environment probe would record it. */
static void
entry(struct path_var *pv, const char *value, int exists, long dup)
{
	struct path_entry *e = VEC_PUSH(&pv->entries);

	e->value = xstrdup(value);
	e->empty = value[0] == '\0';
	e->exists = e->empty ? -1 : exists;
	e->is_dir = exists == 1;
	e->duplicate_of = dup;
	if (exists == 0)
		e->why = xstrdup("No such file or directory");
}

static void
set_raw(struct path_var *pv, const char *raw)
{
	pv->set = true;
	free(pv->raw);
	pv->raw = xstrdup(raw);
}

static size_t
count_code(const struct findings *fs, enum finding_code code)
{
	size_t n = 0;

	for (size_t i = 0; i < fs->n; i++)
		n += fs->v[i].code == code;
	return n;
}

static const char *
fix0(const struct finding *f)
{
	return f != NULL && f->fix.n > 0 ? f->fix.v[0] : NULL;
}

static bool
evidence_has(const struct finding *f, const char *s)
{
	if (f == NULL)
		return false;
	for (size_t i = 0; i < f->evidence.n; i++)
		if (strstr(f->evidence.v[i], s) != NULL)
			return true;
	return false;
}

static void
test_pathnorm(void)
{
	char *s;

	is_str(s = path_normalise("/usr//local/./cuda/"), "/usr/local/cuda",
	    "normalise drops //, /./ and the trailing slash"); free(s);
	is_str(s = path_normalise("//"), "/", "normalise keeps the root"); free(s);
	is_str(s = path_normalise(""), "", "normalise keeps the empty string"); free(s);
	is_str(s = path_normalise("./lib/"), "lib", "normalise keeps relative paths relative"); free(s);
	is_str(s = path_normalise("."), ".", "normalise keeps a lone ."); free(s);
	is_str(s = path_normalise("/a/../b"), "/a/../b", "normalise leaves .. alone"); free(s);
}

static void
test_healthy(void)
{
	struct facts *f = facts_new("/", false);
	struct findings fs = { NULL, 0, 0 };

	set_raw(&f->env.ld_library_path, "/usr/local/cuda/lib64");
	entry(&f->env.ld_library_path, "/usr/local/cuda/lib64", 1, -1);
	set_raw(&f->env.path, "/usr/local/cuda/bin:/usr/bin:/bin");
	entry(&f->env.path, "/usr/local/cuda/bin", 1, -1);
	entry(&f->env.path, "/usr/bin", 1, -1);
	entry(&f->env.path, "/bin", 1, -1);
	f->env.var[ENV_CUDA_HOME].set = true;
	f->env.var[ENV_CUDA_HOME].value = xstrdup("/usr/local/cuda");
	f->env.var[ENV_CUDA_HOME].exists = 1;
	rules_env(f, &fs);
	is_int(fs.n, 0, "a healthy environment gives no finding");
	findings_free(&fs);
	facts_free(f);
}

static void
test_ld_library_path_mess(void)
{
	struct facts *f = facts_new("/", false);
	struct findings fs = { NULL, 0, 0 };
	struct path_var *llp = &f->env.ld_library_path;
	const struct finding *fd;

	/* "/a::/missing:/a/:" */
	set_raw(llp, "/a::/missing:/a/:");
	entry(llp, "/a", 1, -1);
	entry(llp, "", -1, -1);
	entry(llp, "/missing", 0, -1);
	entry(llp, "/a/", 1, 0);
	entry(llp, "", -1, -1);
	rules_env(f, &fs);

	fd = findings_find(&fs, FINDING_ENV_PATH_MISSING);
	ok(fd != NULL && fd->severity == SEV_WARNING,
	    "ENV_PATH_MISSING for LD_LIBRARY_PATH is a warning");
	ok(evidence_has(fd, "/missing (entry 3)"), "the missing entry is evidence");
	is_str(fix0(fd), "export LD_LIBRARY_PATH=/a",
	    "the fix drops empties, missing dirs and duplicates");
	ok(fd != NULL && strstr(fd->detail, "LD_LIBRARY_PATH") != NULL,
	    "the detail names the variable");

	fd = findings_find(&fs, FINDING_EMPTY_PATH_ENTRY);
	ok(fd != NULL && fd->severity == SEV_WARNING, "EMPTY_PATH_ENTRY is a warning");
	ok(evidence_has(fd, "LD_LIBRARY_PATH=/a::/missing:/a/:"),
	    "the value is evidence");
	ok(evidence_has(fd, "entry 2 is empty (between /a and /missing)"),
	    "a middle empty entry is described");
	ok(evidence_has(fd, "entry 5 is empty (a trailing separator)"),
	    "a trailing empty entry is described");
	ok(fd != NULL && strstr(fd->detail, "current directory") != NULL,
	    "the detail says the current directory is searched");
	is_str(fix0(fd), "export LD_LIBRARY_PATH=/a", "same fix for the empty entries");

	fd = findings_find(&fs, FINDING_DUPLICATE_PATH_ENTRY);
	ok(fd != NULL && fd->severity == SEV_INFO, "DUPLICATE_PATH_ENTRY is info");
	ok(evidence_has(fd, "entry 4 (/a/) is the same directory as entry 1 (/a)"),
	    "the duplicate names both entries");
	is_str(fix0(fd), "export LD_LIBRARY_PATH=/a", "same fix for the duplicate");
	is_int(count_code(&fs, FINDING_EMPTY_PATH_ENTRY), 1,
	    "one EMPTY_PATH_ENTRY per variable");
	findings_free(&fs);
	facts_free(f);
}

static void
test_usr_merge(void)
{
	struct facts *f = facts_new("/", false);
	struct findings fs = { NULL, 0, 0 };

	/* Debian's stock PATH on a merged-/usr system, plus one real repeat. */
	set_raw(&f->env.path, "/usr/local/bin:/usr/bin:/bin:/usr/local/bin:/gone");
	entry(&f->env.path, "/usr/local/bin", 1, -1);
	entry(&f->env.path, "/usr/bin", 1, -1);
	entry(&f->env.path, "/bin", 1, 1);
	entry(&f->env.path, "/usr/local/bin/", 1, 0);
	entry(&f->env.path, "/gone", 0, -1);
	rules_env(f, &fs);
	is_int(findings_find(&fs, FINDING_DUPLICATE_PATH_ENTRY) != NULL ?
	    findings_find(&fs, FINDING_DUPLICATE_PATH_ENTRY)->evidence.n : 0, 1,
	    "/bin after /usr/bin (merged /usr) is not reported, the real repeat is");
	is_str(fix0(findings_find(&fs, FINDING_DUPLICATE_PATH_ENTRY)),
	    "export PATH=/usr/local/bin:/usr/bin:/bin",
	    "the fix keeps /bin next to /usr/bin");
	findings_free(&fs);
	facts_free(f);
}

static void
test_nothing_left(void)
{
	struct facts *f = facts_new("/", false);
	struct findings fs = { NULL, 0, 0 };
	const struct finding *fd;

	set_raw(&f->env.ld_library_path, ":/gone");
	entry(&f->env.ld_library_path, "", -1, -1);
	entry(&f->env.ld_library_path, "/gone", 0, -1);
	set_raw(&f->env.path, "/nope");
	entry(&f->env.path, "/nope", 0, -1);
	rules_env(f, &fs);
	fd = findings_find(&fs, FINDING_EMPTY_PATH_ENTRY);
	is_str(fix0(fd), "unset LD_LIBRARY_PATH",
	    "nothing left of LD_LIBRARY_PATH: unset it");
	ok(evidence_has(fd, "entry 1 is empty (a leading separator)"),
	    "a leading empty entry is described");
	for (size_t i = 0; i < fs.n; i++)
		if (fs.v[i].code == FINDING_ENV_PATH_MISSING &&
		    strstr(fs.v[i].detail, "PATH has") == fs.v[i].detail) {
			ok(fs.v[i].severity == SEV_INFO,
			    "ENV_PATH_MISSING for PATH is info");
			is_str(fix0(&fs.v[i]), "export PATH=/usr/local/bin:/usr/bin:/bin",
			    "nothing left of PATH: the system default, never unset");
		}
	is_int(count_code(&fs, FINDING_ENV_PATH_MISSING), 2,
	    "one ENV_PATH_MISSING per variable");
	findings_free(&fs);
	facts_free(f);
}

static void
test_empty_values(void)
{
	struct facts *f = facts_new("/", false);
	struct findings fs = { NULL, 0, 0 };
	const struct finding *fd;

	/* The probe records a set-but-empty LD_LIBRARY_PATH with no entries
	 * (glibc ignores it) and an empty PATH as one empty entry. */
	set_raw(&f->env.ld_library_path, "");
	rules_env(f, &fs);
	fd = findings_find(&fs, FINDING_EMPTY_PATH_ENTRY);
	ok(fd != NULL && fd->severity == SEV_INFO,
	    "a set but empty LD_LIBRARY_PATH is reported as info");
	ok(fd != NULL && strstr(fd->detail, "current directory") != NULL,
	    "it explains how it turns into the current directory");
	is_str(fix0(fd), "unset LD_LIBRARY_PATH", "its fix unsets it");
	findings_free(&fs);

	f->env.ld_library_path.set = false;
	set_raw(&f->env.path, "");
	entry(&f->env.path, "", -1, -1);
	rules_env(f, &fs);
	fd = findings_find(&fs, FINDING_EMPTY_PATH_ENTRY);
	ok(fd != NULL && fd->severity == SEV_WARNING, "an empty PATH is a warning");
	ok(evidence_has(fd, "the whole value is one empty entry"),
	    "an empty PATH is one empty entry");
	is_str(fix0(fd), "export PATH=/usr/local/bin:/usr/bin:/bin",
	    "an empty PATH gets the system default");
	findings_free(&fs);
	facts_free(f);
}

static void
test_quoting(void)
{
	struct facts *f = facts_new("/", false);
	struct findings fs = { NULL, 0, 0 };
	const struct finding *fd;

	set_raw(&f->env.ld_library_path, "/opt/my cuda/it's/lib64:/x");
	entry(&f->env.ld_library_path, "/opt/my cuda/it's/lib64", 1, -1);
	entry(&f->env.ld_library_path, "/x", 0, -1);
	set_raw(&f->env.path, "/usr/bin:/opt/cuda libs/$HOME");
	entry(&f->env.path, "/usr/bin", 1, -1);
	entry(&f->env.path, "/opt/cuda libs/$HOME", 1, -1);
	f->env.path.entries.v[1].has_cuda_libs = true;
	rules_env(f, &fs);
	fd = findings_find(&fs, FINDING_ENV_PATH_MISSING);
	is_str(fix0(fd), "export LD_LIBRARY_PATH='/opt/my cuda/it'\\''s/lib64'",
	    "a space and a quote are quoted in the corrected assignment");
	fd = findings_find(&fs, FINDING_LIBDIR_ON_PATH);
	is_str(fix0(fd),
	    "export LD_LIBRARY_PATH='/opt/cuda libs/$HOME'\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"",
	    "LIBDIR_ON_PATH prepends the quoted dir without an empty entry");
	ok(evidence_has(fd, "PATH entry 2, /opt/cuda libs/$HOME, holds CUDA libraries"),
	    "LIBDIR_ON_PATH names the entry");
	findings_free(&fs);
	facts_free(f);
}

static void
test_libdir_on_path(void)
{
	struct facts *f = facts_new("/", false);
	struct findings fs = { NULL, 0, 0 };
	struct ldconf_dir *d;

	set_raw(&f->env.path, "/usr/local/cuda/lib64:/opt/lib");
	entry(&f->env.path, "/usr/local/cuda/lib64", 1, -1);
	entry(&f->env.path, "/opt/lib", 1, -1);
	f->env.path.entries.v[0].has_cuda_libs = true;
	f->env.path.entries.v[1].has_cuda_libs = true;
	rules_env(f, &fs);
	is_str(fix0(findings_find(&fs, FINDING_LIBDIR_ON_PATH)),
	    "export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/opt/lib\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"",
	    "every library dir on PATH goes into one prepend");
	findings_free(&fs);

	set_raw(&f->env.ld_library_path, "/usr/local/cuda/lib64/");
	entry(&f->env.ld_library_path, "/usr/local/cuda/lib64/", 1, -1);
	d = VEC_PUSH(&f->env.ldconf);
	d->dir = xstrdup("/opt/lib");
	d->from = xstrdup("/etc/ld.so.conf.d/opt.conf");
	d->exists = 1;
	rules_env(f, &fs);
	ok(findings_find(&fs, FINDING_LIBDIR_ON_PATH) == NULL,
	    "no LIBDIR_ON_PATH when LD_LIBRARY_PATH or ld.so.conf reaches the dirs");
	findings_free(&fs);
	facts_free(f);
}

static void
test_cuda_home_missing(void)
{
	struct facts *f = facts_new("/", false);
	struct findings fs = { NULL, 0, 0 };
	struct toolkit_fact *t;
	const struct finding *fd;

	f->env.var[ENV_CUDA_HOME].set = true;
	f->env.var[ENV_CUDA_HOME].value = xstrdup("/usr/local/cuda-9.9");
	f->env.var[ENV_CUDA_HOME].exists = 0;
	f->env.var[ENV_CUDA_HOME].why = xstrdup("No such file or directory");
	rules_env(f, &fs);
	fd = findings_find(&fs, FINDING_ENV_PATH_MISSING);
	ok(fd != NULL && fd->severity == SEV_WARNING, "a missing CUDA_HOME is a warning");
	ok(evidence_has(fd, "CUDA_HOME=/usr/local/cuda-9.9"), "the value is evidence");
	is_str(fix0(fd), "unset CUDA_HOME", "no toolkit known: unset it");
	findings_free(&fs);

	t = VEC_PUSH(&f->toolkits);
	t->root = xstrdup("/opt/cuda 12");
	rules_env(f, &fs);
	is_str(fix0(findings_find(&fs, FINDING_ENV_PATH_MISSING)),
	    "export CUDA_HOME='/opt/cuda 12'", "the only toolkit: point at it");
	findings_free(&fs);
	facts_free(f);
}

static void
test_evidence_cap(void)
{
	struct facts *f = facts_new("/", false);
	struct findings fs = { NULL, 0, 0 };
	const struct finding *fd;
	char buf[32];

	set_raw(&f->env.path, "(many)");
	for (int i = 0; i < 50; i++) {
		snprintf(buf, sizeof buf, "/m%d", i);
		entry(&f->env.path, buf, 0, -1);
	}
	rules_env(f, &fs);
	fd = findings_find(&fs, FINDING_ENV_PATH_MISSING);
	is_int(fd != NULL ? fd->evidence.n : 0, 11,
	    "evidence is capped at 10 lines and a count");
	ok(fd != NULL && strstr(fd->detail, "50 entries") != NULL,
	    "the detail counts every missing entry");
	findings_free(&fs);
	facts_free(f);
}

int
main(void)
{
	test_pathnorm();
	test_healthy();
	test_ld_library_path_mess();
	test_usr_merge();
	test_nothing_left();
	test_empty_values();
	test_quoting();
	test_libdir_on_path();
	test_cuda_home_missing();
	test_evidence_cap();
	return done_testing();
}
