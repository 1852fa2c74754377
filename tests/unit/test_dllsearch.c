/* The Windows DLL search model (src/winload/dllsearch.c) over a fixture
 * tree laid out as drive C:. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/tap.h"
#include "util/strbuf.h"
#include "util/strv.h"
#include "util/xalloc.h"
#include "winload/dllsearch.h"

static char root[PATH_MAX];

#define CUDA_BIN "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin"
#define OTHER_BIN "C:\\Program Files\\Other\\bin"

/* Makes root/rel with its parents; a file when data is not NULL. */
static void
mk(const char *rel, const char *data, size_t len)
{
	char p[PATH_MAX * 2];

	snprintf(p, sizeof p, "%s/%s", root, rel);
	for (char *q = p + strlen(root) + 1; *q != '\0'; q++) {
		if (*q != '/')
			continue;
		*q = '\0';
		if (mkdir(p, 0755) != 0 && errno != EEXIST)
			perror(p);
		*q = '/';
	}
	if (data == NULL) {
		if (mkdir(p, 0755) != 0 && errno != EEXIST)
			perror(p);
		return;
	}
	FILE *fp = fopen(p, "wb");
	if (fp == NULL || fwrite(data, 1, len, fp) != len || fclose(fp) != 0)
		perror(p);
}

/* A PE header with the given machine: enough for dllsearch_check_pe. */
static void
mkpe(const char *rel, unsigned machine)
{
	char img[128];

	memset(img, 0, sizeof img);
	img[0] = 'M';
	img[1] = 'Z';
	img[60] = 64;
	memcpy(img + 64, "PE\0\0", 4);
	img[68] = (char)(machine & 0xff);
	img[69] = (char)(machine >> 8);
	mk(rel, img, sizeof img);
}

static void
mktext(const char *rel)
{
	mk(rel, "not an image\n", 13);
}

/* The steps as "source[index]=result,…". */
static char *
steps_of(const struct dll_resolution *r)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < r->steps.n; i++) {
		const struct dllsearch_step *s = &r->steps.v[i];

		if (i > 0)
			strbuf_putc(&sb, ',');
		strbuf_puts(&sb, dllsearch_source_name(s->source));
		if (s->source == DLLSRC_PATH || s->source == DLLSRC_USER_DIR)
			strbuf_printf(&sb, "[%zu]", s->index);
		strbuf_printf(&sb, "=%s", dllsearch_result_name(s->result));
	}
	return strbuf_take(&sb);
}

static const struct dllsearch_step *
step_of(const struct dll_resolution *r, enum dllsearch_source src, size_t index)
{
	for (size_t i = 0; i < r->steps.n; i++)
		if (r->steps.v[i].source == src && r->steps.v[i].index == index)
			return &r->steps.v[i];
	return NULL;
}

static bool
has_copy(const struct dll_resolution *r, const char *p)
{
	return strv_contains(&r->other_copies, p);
}

static bool
detail_has(const struct dllsearch_step *s, const char *words)
{
	return s != NULL && s->detail != NULL && strstr(s->detail, words) != NULL;
}

static void
base_env(struct dllsearch_env *e, const struct sysroot *sr)
{
	memset(e, 0, sizeof *e);
	e->sr = sr;
	e->app_dir = "C:\\Python311";
	e->cwd = "C:\\work";
}

static unsigned short x64 = 0x8664;

static void
test_order(const struct sysroot *sr)
{
	struct dllsearch_env e;
	struct dll_resolution r;
	char *s;

	base_env(&e, sr);
	e.path = "C:\\nowhere";
	dllsearch_resolve(&e, "absent.dll", &r);
	s = steps_of(&r);
	is_str(s, "app_dir=not_found,system32=not_found,system16=not_found,windows=not_found,current_dir=not_found,path[0]=dir_missing",
	    "SafeDllSearchMode on: app dir, System32, System, Windows, current dir, PATH");
	free(s);
	is_int(r.error, 126, "not found: ERROR_MOD_NOT_FOUND");
	is_str(r.error_text, "The specified module could not be found.", "with Windows' words");
	ok(r.resolved == NULL && r.via == DLLSRC_NONE, "and no winner");
	dll_resolution_free(&r);

	e.unsafe_search_mode = true;
	dllsearch_resolve(&e, "absent.dll", &r);
	s = steps_of(&r);
	is_str(s, "app_dir=not_found,current_dir=not_found,system32=not_found,system16=not_found,windows=not_found,path[0]=dir_missing",
	    "SafeDllSearchMode off: the current dir right after the app dir");
	free(s);
	dll_resolution_free(&r);

	/* order.dll is in the Windows dir and the current dir. */
	e.unsafe_search_mode = false;
	ok(dllsearch_resolve(&e, "order.dll", &r), "order.dll resolves");
	is_str(r.resolved, "C:\\Windows\\order.dll", "safe mode: the Windows dir's copy wins over the current dir's");
	is_int(r.via, DLLSRC_WINDOWS, "via the Windows dir");
	ok(has_copy(&r, "C:\\work\\order.dll"), "the current dir's copy is another copy");
	is_int(r.other_copies.n, 1, "and the only one");
	dll_resolution_free(&r);
	e.unsafe_search_mode = true;
	dllsearch_resolve(&e, "order.dll", &r);
	is_str(r.resolved, "C:\\work\\order.dll", "unsafe mode: the current dir's copy wins");
	dll_resolution_free(&r);

	e.unsafe_search_mode = false;
	dllsearch_resolve(&e, "appfirst.dll", &r);
	is_str(r.resolved, "C:\\Python311\\appfirst.dll", "the app dir comes before System32");
	ok(has_copy(&r, "C:\\Windows\\System32\\appfirst.dll"), "System32's copy listed as another copy");
	dll_resolution_free(&r);

	e.cwd = NULL;
	e.path = ";C:\\nowhere";
	dllsearch_resolve(&e, "absent.dll", &r);
	ok(step_of(&r, DLLSRC_CURRENT_DIR, 0) != NULL &&
	    step_of(&r, DLLSRC_CURRENT_DIR, 0)->result == DLLSTEP_SKIPPED,
	    "no current directory known: its step is skipped");
	ok(detail_has(step_of(&r, DLLSRC_PATH, 0), "not known"),
	    "an empty PATH entry without a current dir is skipped, saying why");
	dll_resolution_free(&r);
}

static void
test_path(const struct sysroot *sr)
{
	struct dllsearch_env e;
	struct dll_resolution r;
	const struct dllsearch_step *st;
	char *s;

	base_env(&e, sr);
	e.path = "\"" CUDA_BIN "\";;C:\\missing;" CUDA_BIN "\\";
	ok(dllsearch_resolve(&e, "cudart64_110.dll", &r), "cudart on PATH resolves");
	s = steps_of(&r);
	is_str(s, "app_dir=not_found,system32=not_found,system16=not_found,windows=not_found,current_dir=not_found,path[0]=dir_missing,path[1]=not_found,path[2]=dir_missing,path[3]=found",
	    "quoted, empty, missing and trailing-backslash entries, each a step");
	free(s);
	st = step_of(&r, DLLSRC_PATH, 0);
	ok(detail_has(st, "quotes") && detail_has(st, "would find " CUDA_BIN "\\cudart64_110.dll"),
	    "a quoted entry: the loader keeps the quotes; the detail names the file without them (%s)",
	    st != NULL && st->detail != NULL ? st->detail : "none");
	is_str(st != NULL ? st->spec : NULL, "\"" CUDA_BIN "\"", "the entry as written is kept");
	st = step_of(&r, DLLSRC_PATH, 1);
	is_str(st != NULL ? st->dir : NULL, "C:\\work", "an empty entry is the current directory");
	ok(detail_has(st, "empty entry"), "and says so");
	st = step_of(&r, DLLSRC_PATH, 3);
	is_str(st != NULL ? st->dir : NULL, CUDA_BIN, "a trailing backslash is dropped from the dir");
	is_str(r.resolved, CUDA_BIN "\\cudart64_110.dll", "the winner's Windows path");
	ok(r.resolved_file != NULL && strcmp(r.resolved_file,
	    "/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.8/bin/cudart64_110.dll") == 0,
	    "and its path inside the tree");
	is_int(r.via, DLLSRC_PATH, "via PATH");
	is_int(r.error, 0, "no error");
	dll_resolution_free(&r);

	/* Duplicates, forward slashes, other case, a trailing ';'. */
	e.path = "c:/program files/nvidia gpu computing toolkit/cuda/V11.8/BIN;C:\\Windows;C:\\WINDOWS\\;";
	dllsearch_resolve(&e, "absent.dll", &r);
	s = steps_of(&r);
	is_str(s, "app_dir=not_found,system32=not_found,system16=not_found,windows=not_found,current_dir=not_found,path[0]=not_found,path[1]=not_found,path[2]=not_found",
	    "a trailing ';' adds no entry");
	free(s);
	ok(detail_has(step_of(&r, DLLSRC_PATH, 1), "the Windows directory"),
	    "a PATH entry naming the Windows dir again says so (%s)",
	    step_of(&r, DLLSRC_PATH, 1) && step_of(&r, DLLSRC_PATH, 1)->detail ?
	    step_of(&r, DLLSRC_PATH, 1)->detail : "none");
	ok(detail_has(step_of(&r, DLLSRC_PATH, 2), "the Windows directory"),
	    "so does one written in another case with a trailing backslash");
	ok(step_of(&r, DLLSRC_PATH, 0) != NULL && step_of(&r, DLLSRC_PATH, 0)->detail == NULL,
	    "a first search of a directory has no such note");
	dll_resolution_free(&r);

	dllsearch_resolve(&e, "cudart64_110.dll", &r);
	is_int(r.via, DLLSRC_PATH, "forward slashes and another case in PATH still find it");
	dll_resolution_free(&r);

	e.path = "D:\\cuda\\bin;\\\\server\\share\\bin;relbin";
	dllsearch_resolve(&e, "cudart64_110.dll", &r);
	ok(detail_has(step_of(&r, DLLSRC_PATH, 0), "drive D:"), "another drive is not in the tree");
	ok(step_of(&r, DLLSRC_PATH, 1) != NULL &&
	    step_of(&r, DLLSRC_PATH, 1)->result == DLLSTEP_DIR_MISSING, "a UNC entry is outside the tree");
	is_str(step_of(&r, DLLSRC_PATH, 2) ? step_of(&r, DLLSRC_PATH, 2)->dir : NULL,
	    "C:\\work\\relbin", "a relative entry is taken from the current directory");
	is_int(r.error, 126, "nothing found");
	dll_resolution_free(&r);
}

static void
test_python(const struct sysroot *sr)
{
	struct dllsearch_env e;
	struct dll_resolution r;
	struct strv user = STRV_INIT;
	char *s;

	base_env(&e, sr);
	e.path = CUDA_BIN;
	ok(dllsearch_resolve(&e, "cudart64_110.dll", &r),
	    "the standard order finds cudart in a PATH directory");
	dll_resolution_free(&r);

	e.flags = DLLSEARCH_F_PYTHON38;
	e.dll_load_dir = "C:\\Python311\\Lib\\site-packages\\torch\\lib";
	ok(!dllsearch_resolve(&e, "cudart64_110.dll", &r),
	    "Python >= 3.8 (LOAD_LIBRARY_SEARCH_DEFAULT_DIRS): PATH does not serve it");
	s = steps_of(&r);
	is_str(s, "dll_load_dir=not_found,app_dir=not_found,system32=not_found",
	    "only the .pyd's dir, python.exe's dir and System32 are searched");
	free(s);
	is_int(r.error, 126, "a 126, as Python reports it");
	ok(has_copy(&r, CUDA_BIN "\\cudart64_110.dll") == false,
	    "a copy only on PATH is no directory of this search");
	dll_resolution_free(&r);

	dllsearch_resolve(&e, "c10.dll", &r);
	is_int(r.via, DLLSRC_DLL_LOAD_DIR, "a dependency beside the .pyd is found in its dir");
	dll_resolution_free(&r);
	dllsearch_resolve(&e, "python3.dll", &r);
	is_int(r.via, DLLSRC_APP_DIR, "python.exe's dir is searched");
	dll_resolution_free(&r);

	strv_push(&user, CUDA_BIN);
	e.user_dirs = &user;
	ok(dllsearch_resolve(&e, "cudart64_110.dll", &r),
	    "os.add_dll_directory(the CUDA bin dir) makes it found");
	is_int(r.via, DLLSRC_USER_DIR, "via the user dir");
	s = steps_of(&r);
	is_str(s, "dll_load_dir=not_found,app_dir=not_found,user_dir[0]=found",
	    "the user dirs come after the app dir");
	free(s);
	dll_resolution_free(&r);

	/* Two user dirs with a copy each: the one added last is searched
	 * first (Wine's list_add_head). */
	strv_push(&user, OTHER_BIN);
	dllsearch_resolve(&e, "cudart64_110.dll", &r);
	is_str(r.resolved, OTHER_BIN "\\cudart64_110.dll",
	    "the user dir added last wins, named as asked (GetModuleFileName)");
	is_str(r.resolved_file, "/Program Files/Other/bin/CUDART64_110.DLL",
	    "its file matched case-insensitively");
	ok(has_copy(&r, CUDA_BIN "\\cudart64_110.dll"), "the earlier user dir's copy is another copy");
	dll_resolution_free(&r);

	strv_free(&user);
	strv_push(&user, "C:\\not\\there");
	strv_push(&user, "relative\\dir");
	dllsearch_resolve(&e, "cudart64_110.dll", &r);
	ok(detail_has(step_of(&r, DLLSRC_USER_DIR, 0), "does not exist"),
	    "a user dir that does not exist was refused by AddDllDirectory");
	ok(detail_has(step_of(&r, DLLSRC_USER_DIR, 1), "relative"),
	    "so was a relative one");
	dll_resolution_free(&r);
	strv_free(&user);

	e.dll_load_dir = "torch\\lib";
	dllsearch_resolve(&e, "c10.dll", &r);
	is_int(r.error, 87, "DLL_LOAD_DIR with a relative loading path: ERROR_INVALID_PARAMETER");
	dll_resolution_free(&r);

	e.flags = DLLSEARCH_F_SYSTEM32;
	dllsearch_resolve(&e, "appfirst.dll", &r);
	is_str(r.resolved, "C:\\Windows\\System32\\appfirst.dll",
	    "LOAD_LIBRARY_SEARCH_SYSTEM32 alone: System32 only");
	is_int(r.steps.n, 1, "one step");
	dll_resolution_free(&r);
}

static void
test_names(const struct sysroot *sr)
{
	struct dllsearch_env e;
	struct dll_resolution r;
	struct strv known = STRV_INIT, loaded = STRV_INIT;
	char *s;

	base_env(&e, sr);
	e.path = CUDA_BIN;

	dllsearch_resolve(&e, "CUDART64_110", &r);
	is_str(r.searched, "CUDART64_110.dll", "a name without extension gets .dll");
	is_str(r.resolved, CUDA_BIN "\\CUDART64_110.dll", "and is found whatever its case, named as asked (Wine 8 does)");
	dll_resolution_free(&r);

	dllsearch_resolve(&e, "noext.", &r);
	is_str(r.searched, "noext", "a trailing '.' means no extension");
	is_str(r.resolved, "C:\\Python311\\noext", "and the file without one is found");
	dll_resolution_free(&r);

	dllsearch_resolve(&e, "noext", &r);
	ok(r.resolved == NULL, "without the '.', noext.dll is searched and not found");
	dll_resolution_free(&r);

	/* KnownDLLs: the app dir holds a planted kernel32.dll. */
	dllsearch_resolve(&e, "kernel32.dll", &r);
	is_str(r.resolved, "C:\\Python311\\kernel32.dll", "not a KnownDLL: the app dir's copy wins");
	dll_resolution_free(&r);
	strv_push(&known, "KERNEL32.DLL");
	strv_push(&known, "ghost.dll");
	e.known_dlls = &known;
	dllsearch_resolve(&e, "Kernel32", &r);
	is_str(r.resolved, "C:\\Windows\\System32\\Kernel32.dll", "a KnownDLL is System32's");
	is_int(r.via, DLLSRC_KNOWN_DLLS, "via KnownDLLs");
	s = steps_of(&r);
	is_str(s, "known_dlls=found", "and nothing is searched");
	free(s);
	ok(has_copy(&r, "C:\\Python311\\kernel32.dll"), "the planted copy is reported");
	dll_resolution_free(&r);
	e.path = "C:\\Python311\\ghostdir";
	dllsearch_resolve(&e, "ghost.dll", &r);
	ok(detail_has(step_of(&r, DLLSRC_KNOWN_DLLS, 1), "no file in System32"),
	    "a KnownDLL name with no file in System32 says so");
	is_str(r.resolved, "C:\\Python311\\ghostdir\\ghost.dll", "and is searched like any other");
	dll_resolution_free(&r);
	e.path = CUDA_BIN;

	/* Already loaded: reused whatever the search would find. */
	strv_push(&loaded, "D:\\elsewhere\\CudaRT64_110.dll");
	e.loaded = &loaded;
	dllsearch_resolve(&e, "cudart64_110", &r);
	is_str(r.resolved, "D:\\elsewhere\\CudaRT64_110.dll", "a loaded module of that base name is reused");
	is_int(r.via, DLLSRC_LOADED, "via the loaded list");
	ok(has_copy(&r, CUDA_BIN "\\cudart64_110.dll"),
	    "what the search would have found is another copy");
	dll_resolution_free(&r);
	dllsearch_resolve(&e, CUDA_BIN "\\cudart64_110.dll", &r);
	is_int(r.via, DLLSRC_GIVEN, "a full path to another file of that name is loaded from there");
	dll_resolution_free(&r);
	e.loaded = NULL;

	/* Paths. */
	dllsearch_resolve(&e, "c:/program files/nvidia gpu computing toolkit/cuda/v11.8/bin/cudart64_110.dll", &r);
	is_int(r.via, DLLSRC_GIVEN, "an absolute path with '/' and another case is opened there");
	is_int(r.steps.n, 1, "in one step");
	dll_resolution_free(&r);
	dllsearch_resolve(&e, "C:\\Python311\\cudart64_110.dll", &r);
	ok(r.resolved == NULL && r.error == 126, "a full path with no file there: 126, no search");
	is_int(r.steps.n, 1, "one step");
	dll_resolution_free(&r);
	e.app_dir = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA";
	dllsearch_resolve(&e, "v11.8\\bin\\cudart64_110.dll", &r);
	is_int(r.via, DLLSRC_APP_DIR, "a relative name with a '\\' is appended to each search dir");
	dll_resolution_free(&r);

	strv_free(&known);
	strv_free(&loaded);
}

static void
test_images(const struct sysroot *sr)
{
	struct dllsearch_env e;
	struct dll_resolution r;
	char *s;

	base_env(&e, sr);
	e.image_check = dllsearch_check_pe;
	e.image_arg = &x64;
	e.path = "C:\\x86\\bin;" CUDA_BIN;
	dllsearch_resolve(&e, "cudart64_110.dll", &r);
	is_int(r.via, DLLSRC_PATH, "an x86 copy first on PATH is passed over");
	ok(step_of(&r, DLLSRC_PATH, 0) && step_of(&r, DLLSRC_PATH, 0)->result == DLLSTEP_SKIPPED,
	    "its step says skipped");
	ok(r.other_machine, "and the resolution remembers it");
	ok(has_copy(&r, "C:\\x86\\bin\\cudart64_110.dll"), "the x86 file is another copy");
	dll_resolution_free(&r);

	e.path = "C:\\x86\\bin";
	dllsearch_resolve(&e, "cudart64_110.dll", &r);
	is_int(r.error, 193, "only an x86 copy: ERROR_BAD_EXE_FORMAT, not 126");
	is_str(r.error_text, "%1 is not a valid Win32 application.", "with Windows' words");
	dll_resolution_free(&r);

	e.path = "C:\\bad\\bin;" CUDA_BIN;
	dllsearch_resolve(&e, "cudart64_110.dll", &r);
	ok(r.resolved == NULL && r.error == 193, "a file that is no image stops the search with 193");
	s = steps_of(&r);
	ok(strstr(s, "path[0]=fatal") != NULL && strstr(s, "path[1]") == NULL,
	    "the later entry is not tried (%s)", s);
	free(s);
	ok(has_copy(&r, CUDA_BIN "\\cudart64_110.dll"), "the good copy past it is reported");
	dll_resolution_free(&r);

	e.path = "C:\\dirdll";
	dllsearch_resolve(&e, "cudart64_110.dll", &r);
	is_int(r.error, 5, "a directory of that name stops the search (Wine's open_dll_file)");
	dll_resolution_free(&r);

	is_int(dllsearch_check_pe(&x64, sr, "/x86/bin/cudart64_110.dll"), DLLSEARCH_IMAGE_OTHER_MACHINE,
	    "dllsearch_check_pe tells x86 from x64");
	is_int(dllsearch_check_pe(&x64, sr, "/Windows/System32/kernel32.dll"), DLLSEARCH_IMAGE_OK,
	    "and takes x64");
	is_int(dllsearch_check_pe(&x64, sr, "/bad/bin/cudart64_110.dll"), DLLSEARCH_IMAGE_BAD,
	    "and refuses text");
}

static void
test_bounds(const struct sysroot *sr)
{
	struct dllsearch_env e;
	struct dll_resolution r;
	struct strbuf sb = STRBUF_INIT;
	char *path;

	for (int i = 0; i < 25000; i++)
		strbuf_printf(&sb, "C:\\missing\\%d;", i);
	strbuf_puts(&sb, CUDA_BIN);
	path = strbuf_take(&sb);
	base_env(&e, sr);
	e.path = path;
	ok(dllsearch_resolve(&e, "cudart64_110.dll", &r), "a 25,001-entry PATH still resolves");
	is_int(r.steps.n + r.steps_cut, 5 + 25001, "every entry was searched");
	is_int(r.steps.n, DLLSEARCH_STEPS_MAX + 1, "the kept steps are bounded, the winner kept");
	ok(r.steps.n > 0 && r.steps.v[r.steps.n - 1].result == DLLSTEP_FOUND &&
	    r.steps.v[r.steps.n - 1].index == 25000, "the last kept step is the winner");
	dll_resolution_free(&r);
	free(path);

	for (int i = 0; i < 10000; i++)
		strbuf_printf(&sb, "C:\\missing\\%d;", i);
	path = strbuf_take(&sb);
	e.path = path;
	ok(!dllsearch_resolve(&e, "cudart64_110.dll", &r), "a 10,000-entry PATH of missing dirs");
	is_int(r.steps.n, 5 + 10000, "keeps every step");
	is_int(r.steps_cut, 0, "and cuts none");
	dll_resolution_free(&r);
	free(path);

	memset(&e, 0, sizeof e);
	e.sr = sr;
	dllsearch_resolve(&e, "", &r);
	is_int(r.error, 87, "an empty name: ERROR_INVALID_PARAMETER");
	dll_resolution_free(&r);
	dllsearch_resolve(&e, "absent", &r);
	ok(step_of(&r, DLLSRC_APP_DIR, 0) && step_of(&r, DLLSRC_APP_DIR, 0)->result == DLLSTEP_SKIPPED,
	    "no app dir given: its step is skipped, not guessed");
	dll_resolution_free(&r);
}

/* all_drives: a tree holding each drive as the directory of its letter
 * (the Windows program's live view): a PATH entry on D: is searched
 * there, a drive that is not there is a missing directory. */
static void
test_all_drives(void)
{
	char dir[PATH_MAX + 16], *err = NULL;
	struct dllsearch_env e;
	struct dll_resolution r;
	struct sysroot *sr;

	mkpe("drives/C/Windows/System32/kernel32.dll", 0x8664);
	mkpe("drives/D/cuda/bin/CUDART64_110.DLL", 0x8664);
	snprintf(dir, sizeof dir, "%s/drives", root);
	if ((sr = sysroot_new(dir, &err)) == NULL) {
		printf("Bail out! %s\n", err);
		exit(99);
	}
	memset(&e, 0, sizeof e);
	e.sr = sr;
	e.all_drives = true;
	e.cwd = "C:\\work";
	e.path = "E:\\nothere;d:\\cuda\\bin";
	e.image_check = dllsearch_check_pe;
	e.image_arg = &x64;
	ok(dllsearch_resolve(&e, "cudart64_110.dll", &r), "all drives: a copy on D: resolves");
	is_str(r.resolved, "D:\\cuda\\bin\\cudart64_110.dll", "as D:'s path");
	is_str(r.resolved_file, "/D/cuda/bin/CUDART64_110.DLL", "inside the tree, under D");
	is_int(r.via, DLLSRC_PATH, "through PATH");
	ok(step_of(&r, DLLSRC_PATH, 0) != NULL &&
	    step_of(&r, DLLSRC_PATH, 0)->result == DLLSTEP_DIR_MISSING &&
	    !detail_has(step_of(&r, DLLSRC_PATH, 0), "not in the tree"),
	    "a drive that is not there is a missing directory");
	dll_resolution_free(&r);
	ok(dllsearch_resolve(&e, "kernel32.dll", &r) && r.resolved_file != NULL &&
	    strcmp(r.resolved_file, "/C/Windows/System32/kernel32.dll") == 0,
	    "System32 is C:'s");
	dll_resolution_free(&r);

	e.all_drives = false;
	dllsearch_resolve(&e, "cudart64_110.dll", &r);
	ok(r.resolved == NULL, "without all_drives, the tree is drive C: alone");
	dll_resolution_free(&r);
	sysroot_free(sr);
}

int
main(void)
{
	const char *tmp = getenv("FX_TMP");
	struct sysroot *sr;
	char *err = NULL, cmd[PATH_MAX + 16];

	snprintf(root, sizeof root, "%s/dllsearch.XXXXXX", tmp != NULL ? tmp : "/tmp");
	if (mkdtemp(root) == NULL) {
		perror("mkdtemp");
		return 99;
	}
	mkpe("Windows/System32/kernel32.dll", 0x8664);
	mkpe("Windows/System32/appfirst.dll", 0x8664);
	mk("Windows/System", NULL, 0);
	mkpe("Windows/order.dll", 0x8664);
	mkpe("work/order.dll", 0x8664);
	mkpe("Python311/python3.dll", 0x8664);
	mkpe("Python311/appfirst.dll", 0x8664);
	mkpe("Python311/kernel32.dll", 0x8664);
	mkpe("Python311/noext", 0x8664);
	mkpe("Python311/ghostdir/ghost.dll", 0x8664);
	mkpe("Python311/Lib/site-packages/torch/lib/c10.dll", 0x8664);
	mkpe("Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.8/bin/cudart64_110.dll", 0x8664);
	mkpe("Program Files/Other/bin/CUDART64_110.DLL", 0x8664);
	mkpe("x86/bin/cudart64_110.dll", 0x14c);
	mktext("bad/bin/cudart64_110.dll");
	mk("dirdll/cudart64_110.dll", NULL, 0);

	sr = sysroot_new(root, &err);
	if (sr == NULL) {
		printf("Bail out! %s\n", err);
		return 99;
	}
	test_order(sr);
	test_path(sr);
	test_python(sr);
	test_names(sr);
	test_images(sr);
	test_bounds(sr);
	sysroot_free(sr);
	test_all_drives();

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	return done_testing();
}
