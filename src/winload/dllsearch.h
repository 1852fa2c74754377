/* The Windows DLL search, modelled: which file LoadLibrary(Ex)W would
 * load for a name, and why, step by step; the Windows counterpart of
 * loader/resolve.h. It runs anywhere, over a struct sysroot that stands
 * for one Windows drive (a tree with Windows/System32, Program Files, …;
 * "C:\Windows\System32" is <root>/Windows/System32), matching names the
 * way NTFS does: case-insensitively (ASCII fold), so a fixture may hold
 * 'CUDART64_110.DLL' or 'program files'.
 *
 * The order, for a name without a path (Microsoft's "Dynamic-link library
 * search order" page, and Wine's dlls/ntdll/loader.c: find_dll_file,
 * get_dll_load_path, get_dll_load_path_search_flags, search_dll_file):
 *
 *   1. a module of that base name already loaded is reused;
 *   2. a KnownDLL is always taken from System32, nothing is searched;
 *   3. the standard order (no LOAD_LIBRARY_SEARCH_* flag):
 *        application dir, System32, 16-bit System, Windows dir,
 *        current dir, each PATH entry        (SafeDllSearchMode on)
 *        application dir, current dir, System32, System, Windows, PATH
 *                                            (SafeDllSearchMode off)
 *      or, with LOAD_LIBRARY_SEARCH_* flags (SetDefaultDllDirectories,
 *      LoadLibraryExW), only what they name, in this order:
 *        the loading DLL's dir (DLL_LOAD_DIR), application dir
 *        (APPLICATION_DIR), the AddDllDirectory dirs (USER_DIRS),
 *        System32 (SYSTEM32); DEFAULT_DIRS is the last three.
 *      PATH and the current directory are then not searched at all: this
 *      is why, from Python 3.8, a CUDA bin directory on PATH no longer
 *      serves an extension module's dependencies, and
 *      os.add_dll_directory() (AddDllDirectory) is needed.
 *
 * A name with an absolute path ("C:\x\a.dll", "\x\a.dll") is opened there
 * only. A relative name with a separator ("sub\a.dll") is appended to
 * each search directory, as LoadLibraryEx's documentation says and Wine
 * does; a name without an extension gets ".dll", a trailing '.' means
 * none. In each directory a file of another machine (an x86 DLL for an
 * x64 process) is passed over and the search goes on (Wine's
 * search_dll_file); when nothing else is found the load fails with
 * ERROR_BAD_EXE_FORMAT (193), not 126. A file that is not an image at all
 * stops the search with 193, and a name that exists but cannot be opened
 * as a file (a directory) with that error (Wine's open_dll_file: "if the
 * file exists but failed to open, report the error"). Wine is the
 * reference here because the differential test runs it; Windows itself
 * is documented to agree on the order, not on these two corners.
 * Checked by hand under Wine 8.0 (Debian's wine64) with a LoadLibraryExW
 * probe built by mingw-w64: a quoted PATH entry gives 126; an x86 copy
 * first on PATH is passed over, an x86 copy alone gives 193; a text file
 * named like the DLL stops the search with 193; DEFAULT_DIRS ignores
 * PATH; of two AddDllDirectory dirs the one added last wins; a missing
 * one is refused (error 2); relative PATH entries and relative names
 * with a '\' are taken from the current and the search directories.
 *
 * Not modelled: DLL redirection (.local), API sets, side-by-side
 * manifests, SetDllDirectory, packaged apps, WOW64's System32
 * redirection (give the SysWOW64 directory as System32 for an x86
 * process on x64). Paths in and out are Windows paths ("C:\…"). */
#ifndef CUDAWIZ_WINLOAD_DLLSEARCH_H
#define CUDAWIZ_WINLOAD_DLLSEARCH_H

#include <stdbool.h>
#include <stddef.h>

#include "sysroot/sysroot.h"
#include "util/strv.h"

/* At most this many steps are kept for one search; past it only the
 * winner or the file that stops the search is kept and the rest are
 * counted (dll_resolution.steps_cut). A 10,000-entry PATH keeps every
 * step. */
#define DLLSEARCH_STEPS_MAX	20000

/* LoadLibraryExW's flags, with Windows' values (libloaderapi.h). */
#define DLLSEARCH_F_DLL_LOAD_DIR	0x00000100u
#define DLLSEARCH_F_APPLICATION_DIR	0x00000200u
#define DLLSEARCH_F_USER_DIRS		0x00000400u
#define DLLSEARCH_F_SYSTEM32		0x00000800u
#define DLLSEARCH_F_DEFAULT_DIRS	0x00001000u
/* What CPython >= 3.8 passes when it imports an extension module
 * (Python/dynload_win.c): the .pyd's dependencies are searched in the
 * .pyd's own directory, then python.exe's directory, the
 * os.add_dll_directory() dirs, System32. Its ctypes.CDLL passes
 * DEFAULT_DIRS alone for a bare name and adds DLL_LOAD_DIR for a path. */
#define DLLSEARCH_F_PYTHON38 \
	(DLLSEARCH_F_DEFAULT_DIRS | DLLSEARCH_F_DLL_LOAD_DIR)

/* Windows' error codes a failed LoadLibrary leaves in GetLastError(). */
#define DLLSEARCH_ERROR_ACCESS_DENIED	5u
#define DLLSEARCH_ERROR_INVALID_PARAM	87u
#define DLLSEARCH_ERROR_MOD_NOT_FOUND	126u
#define DLLSEARCH_ERROR_BAD_EXE_FORMAT	193u

enum dllsearch_image {
	DLLSEARCH_IMAGE_OK = 0,		/* loadable by the process */
	DLLSEARCH_IMAGE_OTHER_MACHINE,	/* a PE image of another machine: passed over */
	DLLSEARCH_IMAGE_BAD,		/* not a PE image: stops the search (193) */
};

/* Says whether the file at path (inside sr) can be loaded by the
 * process; arg is dllsearch_env.image_arg. */
typedef enum dllsearch_image (*dllsearch_image_fn)(void *arg,
    const struct sysroot *sr, const char *path);

struct dllsearch_env {
	const struct sysroot	*sr;		/* the drive */
	char			 drive;		/* the drive's letter; 0: 'C' */
	/* sr holds every drive, each as the directory of its letter at the
	 * top ("D:\x" is "/D/x"; the Windows program's live view,
	 * sysroot_win.c); false: sr is drive `drive' alone, and a path on
	 * another drive is not in the tree. drive still names the current
	 * drive's default directories. */
	bool			 all_drives;
	/* Windows paths. app_dir: the .exe's directory (python.exe's for
	 * Python); NULL: none searched. The three system directories NULL:
	 * <drive>:\Windows\System32, …\System and <drive>:\Windows. */
	const char		*app_dir;
	const char		*system32_dir;
	const char		*system16_dir;
	const char		*windows_dir;
	/* The current directory; NULL when not known: its step, empty and
	 * relative PATH entries are then skipped with a reason. */
	const char		*cwd;
	/* PATH as the process has it, ';'-separated; NULL: unset. */
	const char		*path;
	/* SafeDllSearchMode set to 0 in the registry; false (the default,
	 * and a zeroed struct) is Windows' default, the mode on. */
	bool			 unsafe_search_mode;
	/* DLLSEARCH_F_* bits; 0: the standard order. */
	unsigned		 flags;
	/* The directory of the DLL being loaded or doing the loading, for
	 * DLLSEARCH_F_DLL_LOAD_DIR (a .pyd's directory). */
	const char		*dll_load_dir;
	/* AddDllDirectory() calls, in the order they were made; NULL: none.
	 * Microsoft leaves the order in which they are searched unspecified;
	 * this models Wine's, which keeps them newest first (list_add_head
	 * in LdrAddDllDirectory), so a directory added later is searched
	 * before one added earlier. A directory that did not exist when
	 * added was refused by AddDllDirectory and is skipped. */
	const struct strv	*user_dirs;
	/* The KnownDLLs names (HKLM\…\Session Manager\KnownDLLs); NULL: none. */
	const struct strv	*known_dlls;
	/* The modules already loaded: Windows paths, or bare names. */
	const struct strv	*loaded;
	/* NULL: every file of the name is taken as loadable. */
	dllsearch_image_fn	 image_check;
	void			*image_arg;
};

enum dllsearch_source {
	DLLSRC_NONE = 0,	/* not resolved */
	DLLSRC_GIVEN,		/* the name has an absolute path: opened there */
	DLLSRC_LOADED,		/* a module of that name already loaded */
	DLLSRC_KNOWN_DLLS,	/* a KnownDLL: System32's, not searched */
	DLLSRC_DLL_LOAD_DIR,
	DLLSRC_APP_DIR,
	DLLSRC_USER_DIR,	/* AddDllDirectory */
	DLLSRC_SYSTEM32,
	DLLSRC_SYSTEM16,
	DLLSRC_WINDOWS,
	DLLSRC_CURRENT_DIR,
	DLLSRC_PATH,
};

enum dllsearch_result {
	DLLSTEP_NOT_FOUND = 0,	/* no file of that name there */
	DLLSTEP_DIR_MISSING,	/* the directory does not exist (detail: why, when not plain) */
	DLLSTEP_FOUND,		/* the winner */
	DLLSTEP_SKIPPED,	/* passed over (detail: another machine, no current dir …) */
	DLLSTEP_FATAL,		/* a file that stops the search (detail: why) */
};

struct dllsearch_step {
	enum dllsearch_source	 source;
	size_t			 index;	/* PATH entry or AddDllDirectory call, from 0 */
	char			*spec;	/* the entry as written; NULL for fixed dirs */
	char			*dir;	/* the directory as searched (full Windows path); NULL when none */
	char			*path;	/* the file tried or found (Windows path); NULL when none */
	enum dllsearch_result	 result;
	char			*detail;	/* NULL unless there is something to say */
};

struct dll_resolution {
	char			*name;		/* as requested */
	char			*searched;	/* the name searched: ".dll" added, a trailing '.' dropped */
	/* The winner as GetModuleFileName names it: the directory as searched
	 * and the name as asked (".dll" added), whatever the case on disk;
	 * NULL when none. */
	char			*resolved;
	char			*resolved_file;	/* the same inside the sysroot; NULL for a loaded module */
	enum dllsearch_source	 via;
	/* 0 when resolved, else GetLastError()'s code and its text as
	 * FormatMessage gives it in English. */
	unsigned		 error;
	const char		*error_text;
	bool			 other_machine;	/* a file of another machine was passed over */
	struct {
		struct dllsearch_step	*v;
		size_t			 n, cap;
	} steps;
	size_t			 steps_cut;
	/* Every other file of that name in any directory of the search
	 * (each one, whether a step reached it or not), as Windows paths,
	 * the winner left out. */
	struct strv		 other_copies;
};

/* Resolves name as LoadLibraryExW(name, NULL, env->flags) would.
 * Returns true when resolved; out is always freed by the caller. */
bool	dllsearch_resolve(const struct dllsearch_env *env, const char *name,
	    struct dll_resolution *out);
void	dll_resolution_free(struct dll_resolution *r);

/* "app_dir", "path", "known_dlls", … (stable, for JSON and tools). */
const char	*dllsearch_source_name(enum dllsearch_source s);
/* "found", "not_found", "dir_missing", "skipped", "fatal". */
const char	*dllsearch_result_name(enum dllsearch_result r);
/* FormatMessage's English text for the codes above ("The specified
 * module could not be found."); NULL for any other code. */
const char	*dllsearch_error_text(unsigned code);

/* An image_check that reads the PE header: arg points to the process's
 * machine as an unsigned short (0x8664 x64, 0x14c x86, 0xaa64 arm64). */
enum dllsearch_image	dllsearch_check_pe(void *arg,
	    const struct sysroot *sr, const char *path);

#endif
