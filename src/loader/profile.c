/* The loader profile; see profile.h.
 *
 * On the host the loader describes itself: glibc 2.33 and later print the
 * default directories, the glibc-hwcaps subdirectories and (until 2.37)
 * the legacy hardware capability subdirectories in `ld.so --help`, marking
 * which ones it searches. Reading that is exact where re-deriving it from
 * CPUID would be a guess. The legacy subdirectories are then combined the
 * way glibc's _dl_important_hwcaps() does: "tls", the platform, then the
 * hardware capability names, every subset from all of them down to none. */
#include "config.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "i18n.h"
#include "loader/profile.h"
#include "util/pathnorm.h"
#include "util/runcap.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#if defined(__x86_64__)
#define HOST_MACHINE	EM_X86_64
#define HOST_LDSO	"/lib64/ld-linux-x86-64.so.2"
#define HOST_TRIPLET	"x86_64-linux-gnu"
#elif defined(__aarch64__)
#define HOST_MACHINE	EM_AARCH64
#define HOST_LDSO	"/lib/ld-linux-aarch64.so.1"
#define HOST_TRIPLET	"aarch64-linux-gnu"
#elif defined(__powerpc64__)
#define HOST_MACHINE	EM_PPC64
#define HOST_LDSO	"/lib64/ld64.so.2"
#define HOST_TRIPLET	"powerpc64le-linux-gnu"
#else
#error "cudawiz knows the dynamic loader of x86-64, AArch64 and ppc64le only"
#endif

/* `ld.so --help` is a few KiB; more is not the loader talking. */
#define HELP_CAP	(64 * 1024)
#define HELP_TIMEOUT_MS	2000
/* glibc caps the legacy names too; 2^6 subsets is already far more than
 * any real machine has. */
#define LEGACY_MAX	6

/* Runs the loader with --help in an empty environment and returns what it
 * printed, or NULL. An empty environment keeps LD_LIBRARY_PATH and
 * LD_PRELOAD of the caller out of the listing; runcap gives it none of
 * cudawiz's descriptors and leaves nothing of it running. */
static char *
run_help(const char *ldso)
{
	char *const argv[] = { (char *)ldso, (char *)"--help", NULL };
	char *const envp[] = { (char *)"LC_ALL=C", NULL };
	struct runcap rc;
	char *err = NULL, *text = NULL;

	if (runcap(ldso, argv, envp, HELP_TIMEOUT_MS / 1000.0, HELP_CAP, &rc,
	    &err) != 0) {
		free(err);	/* no loader to ask: the layout is inferred */
		runcap_free(&rc);
		return NULL;
	}
	if (!rc.timed_out && !rc.truncated && !rc.aborted &&
	    WIFEXITED(rc.status) && WEXITSTATUS(rc.status) == 0)
		text = strbuf_take(&rc.out);
	runcap_free(&rc);
	return text;
}

enum help_section { SEC_NONE, SEC_PATH, SEC_HWCAPS, SEC_LEGACY };

/* "  x86-64-v3 (supported, searched)" → "x86-64-v3", or NULL when the
 * line does not say "searched". */
static char *
searched_name(const char *line, bool *platform)
{
	const char *open, *s = line;

	while (*s == ' ' || *s == '\t')
		s++;
	open = strchr(s, '(');
	*platform = open != NULL && strstr(open, "AT_PLATFORM") != NULL;
	if (open == NULL || open == s || strstr(open, "searched") == NULL)
		return NULL;
	while (open > s && open[-1] == ' ')
		open--;
	return xstrndup(s, (size_t)(open - s));
}

/* Every subset of names, largest first, in glibc's bit order (names[0]
 * is the most significant), each as "a/b/c". */
static void
legacy_subsets(const struct strv *names, struct strv *out)
{
	size_t n = names->n < LEGACY_MAX ? names->n : LEGACY_MAX;

	for (unsigned long mask = (1UL << n) - 1; mask > 0; mask--) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < n; i++) {
			if ((mask & (1UL << (n - 1 - i))) == 0)
				continue;
			if (sb.len > 0)
				strbuf_putc(&sb, '/');
			strbuf_puts(&sb, names->v[i]);
		}
		strv_push_owned(out, strbuf_take(&sb));
	}
}

/* Fills the profile from `ld.so --help`; false when the output does not
 * have the sections glibc 2.33+ prints. */
static bool
parse_help(struct loader_profile *prof, const char *text)
{
	enum help_section sec = SEC_NONE;
	struct strv legacy = STRV_INIT, hw = STRV_INIT;
	char *platform = NULL;
	bool tls = false;
	const char *line = text;

	while (line != NULL && *line != '\0') {
		const char *nl = strchr(line, '\n');
		size_t len = nl != NULL ? (size_t)(nl - line) : strlen(line);
		char *l = xstrndup(line, len);

		line = nl != NULL ? nl + 1 : NULL;
		if (strncmp(l, "Shared library search path:", 27) == 0)
			sec = SEC_PATH;
		else if (strncmp(l, "Subdirectories of glibc-hwcaps", 30) == 0)
			sec = SEC_HWCAPS;
		else if (strncmp(l, "Legacy HWCAP subdirectories", 27) == 0)
			sec = SEC_LEGACY;
		else if (l[0] != ' ')
			sec = SEC_NONE;
		else if (sec == SEC_PATH && strstr(l, "(system search path)") != NULL) {
			char *s = l + strspn(l, " \t");
			char *end = strstr(s, " (system search path)");
			size_t dl = (size_t)(end - s);

			while (dl > 1 && s[dl - 1] == '/')
				dl--;
			strv_push_owned(&prof->system_dirs, xstrndup(s, dl));
		} else if (sec == SEC_HWCAPS || sec == SEC_LEGACY) {
			bool is_platform;
			char *name = searched_name(l, &is_platform);

			if (name == NULL) {
				;
			} else if (sec == SEC_HWCAPS) {
				strv_push_owned(&prof->subdirs,
				    xasprintf("glibc-hwcaps/%s", name));
				strv_push_owned(&prof->hwcaps_active, name);
			} else if (is_platform) {
				free(platform);
				platform = name;
			} else if (strcmp(name, "tls") == 0) {
				tls = true;
				free(name);
			} else {
				strv_push_owned(&hw, name);
			}
		}
		free(l);
	}
	if (prof->system_dirs.n == 0) {
		strv_free(&hw);
		free(platform);
		return false;
	}
	/* glibc composes legacy paths as tls/PLATFORM/HWCAP…: "tls" first,
	 * then the platform, then the capability names as listed. */
	if (tls)
		strv_push(&legacy, "tls");
	if (platform != NULL)
		strv_push(&legacy, platform);
	for (size_t i = 0; i < hw.n; i++)
		strv_push(&legacy, hw.v[i]);
	legacy_subsets(&legacy, &prof->subdirs);
	strv_free(&legacy);
	strv_free(&hw);
	if (platform != NULL) {
		free(prof->dst_platform);
		prof->dst_platform = platform;
	}
	/* glibc's $LIB is the directory it was built to live in: the first
	 * system directory ("/lib/x86_64-linux-gnu", "/lib64"). */
	free(prof->dst_lib);
	prof->dst_lib = xstrdup(prof->system_dirs.v[0] + 1);
	return true;
}

/* Without the loader's word: Debian's multiarch layout when the tree has
 * it, else the lib64 layout of Fedora and SUSE. */
static void
infer(struct loader_profile *prof, const struct sysroot *sr)
{
	if (sysroot_is_dir(sr, "/lib/" HOST_TRIPLET) ||
	    sysroot_is_dir(sr, "/usr/lib/" HOST_TRIPLET)) {
		strv_push(&prof->system_dirs, "/lib/" HOST_TRIPLET);
		strv_push(&prof->system_dirs, "/usr/lib/" HOST_TRIPLET);
		strv_push(&prof->system_dirs, "/lib");
		strv_push(&prof->system_dirs, "/usr/lib");
		prof->dst_lib = xstrdup("lib/" HOST_TRIPLET);
	} else {
		strv_push(&prof->system_dirs, "/lib64");
		strv_push(&prof->system_dirs, "/usr/lib64");
		prof->dst_lib = xstrdup("lib64");
	}
}

void
loader_profile_init(struct loader_profile *prof, const struct sysroot *sr)
{
	memset(prof, 0, sizeof *prof);
	prof->elf_class = (int)sizeof(void *) * 8;
	prof->machine = HOST_MACHINE;
	prof->ldso = xstrdup(HOST_LDSO);
	prof->ldso_soname = xstrdup(path_basename(HOST_LDSO));
	prof->cache_path = xstrdup("/etc/ld.so.cache");
	if (sysroot_is_host(sr)) {
		char *help = run_help(HOST_LDSO);

		if (help != NULL && parse_help(prof, help)) {
			free(help);
			prof->source = xstrdup(HOST_LDSO " --help");
			return;
		}
		free(help);
		strv_free(&prof->system_dirs);
		strv_free(&prof->subdirs);
		strv_free(&prof->hwcaps_active);
		FREE(&prof->dst_platform);
		FREE(&prof->dst_lib);
	}
	infer(prof, sr);
	prof->dst_platform = xstrdup(
#if defined(__x86_64__)
	    "x86_64"
#elif defined(__aarch64__)
	    "aarch64"
#else
	    "powerpc64le"
#endif
	    );
	prof->source = xstrdup(sysroot_is_host(sr) ?
	    _("inferred: the loader did not describe itself (glibc older than 2.33?)") :
	    _("inferred from the tree's layout (nothing runs under --root)"));
}

void
loader_profile_free(struct loader_profile *prof)
{
	free(prof->ldso);
	free(prof->ldso_soname);
	strv_free(&prof->system_dirs);
	free(prof->dst_lib);
	free(prof->dst_platform);
	strv_free(&prof->subdirs);
	strv_free(&prof->hwcaps_active);
	free(prof->cache_path);
	free(prof->source);
	memset(prof, 0, sizeof *prof);
}
