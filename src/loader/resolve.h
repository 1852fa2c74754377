/* The resolver: which file glibc's dynamic loader would load for a name,
 * and why, step by step; and the DT_NEEDED closure of an object, like
 * `ldd` but without running anything.
 *
 * The order is glibc's _dl_map_object(): a name with a '/' is opened as
 * it is; otherwise, an object of that name already loaded is reused;
 * then DT_RPATH of the requester and of each object up the chain that
 * loaded it, and of the main program (all only when the requester has no
 * DT_RUNPATH); LD_LIBRARY_PATH (':' and ';' separate, an empty entry is
 * the current directory); the requester's DT_RUNPATH; /etc/ld.so.cache;
 * the default directories (with DF_1_NODEFLIB, cache entries inside the
 * default directories are refused and the default directories are not
 * searched). In each directory the hardware capability
 * subdirectories are tried first. A file of the wrong ELF class or machine
 * is skipped; a file that is not a loadable ELF object stops the search
 * with glibc's error, as it does in glibc.
 *
 * Everything is read through the sysroot; paths are as seen inside it. */
#ifndef CUDAWIZ_LOADER_RESOLVE_H
#define CUDAWIZ_LOADER_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include "facts/stepsource.h"
#include "loader/elfobj.h"
#include "loader/ldcache.h"
#include "loader/profile.h"
#include "sysroot/sysroot.h"
#include "util/strv.h"

/* At most this many steps are kept for one name searched, and for one
 * run (a dlopen() with what it loads, a closure): past them only the
 * winner, or the file that stops the loader, is kept and the rest are
 * counted (resolution.steps_cut). A real closure (libtorch's, about 100
 * libraries, a handful of directories each) keeps a few thousand; a
 * 10,000-directory LD_LIBRARY_PATH keeps every step of one search. */
#define RESOLVE_STEPS_PER_NAME	20000
#define RESOLVE_STEPS_PER_RUN	30000

/* enum step_source, where a step searched, is the facts model's
 * (facts/stepsource.h): the facts keep the winner's step. */

enum step_result {
	STEP_NOT_FOUND = 0,	/* no file of that name there */
	STEP_DIR_MISSING,	/* the directory does not exist */
	STEP_FOUND,		/* the winner */
	STEP_SKIPPED,		/* a file the loader passes over (detail says why) */
	STEP_FATAL,		/* a file that stops the search (detail: glibc's error) */
	STEP_DROPPED,		/* an entry the loader leaves out ($ORIGIN it cannot expand, …) */
	STEP_NODEFLIB,		/* left out for DF_1_NODEFLIB (a cache entry in a default dir, the default dirs) */
};

struct resolve_step {
	enum step_source source;
	char		*dir;		/* the directory as searched (expanded); NULL for cache/loaded */
	char		*spec;		/* the entry as written, "$ORIGIN/../lib"; NULL when the same */
	char		*owner;		/* the object whose RPATH/RUNPATH it is; NULL otherwise */
	char		*path;		/* the file tried or found; NULL when none */
	enum step_result result;
	char		*detail;	/* why skipped / fatal / dropped; NULL otherwise */
	bool		 unreadable;	/* skipped: the file is there, open() gets EACCES */
};

struct resolution {
	char		*name;		/* as requested */
	char		*requester;	/* NULL: a plain program with no RPATH/RUNPATH */
	char		*resolved;	/* the path the loader opens; NULL when none */
	enum step_source via;		/* of the winner */
	char		*error;		/* when not resolved: glibc's message */
	bool		 other_class;	/* a file of the wrong class was passed over */
	struct {
		struct resolve_step	*v;
		size_t			 n, cap;
	} steps;
	/* Steps made but not kept, past the caps below; 0 for any real
	 * program. */
	size_t		 steps_cut;
	/* Every other file of that name in any directory the resolver knows
	 * of (each search directory, every cache entry of that name), whether
	 * a step reached it or not, the winner left out. */
	struct strv	 other_copies;
};

/* An object in a closure: the program first, then each library in the
 * order glibc loads them (breadth first over DT_NEEDED). */
struct loaded_obj {
	char		*name;		/* the name it was first requested as */
	char		*path;		/* as opened; NULL when not found */
	int		 loader;	/* index of the object that needed it; -1 for the program */
	struct elfobj	 elf;		/* empty when not found or unreadable */
	char		*elf_error;	/* elfobj_read's message when it failed */
	size_t		 resolution;	/* index into closure.resolutions; (size_t)-1 for the program */
};

struct closure {
	struct {
		struct loaded_obj	*v;
		size_t			 n, cap;
	} objs;
	/* One per DT_NEEDED name searched, in order; a name already loaded
	 * gets a single STEP_LOADED step. */
	struct {
		struct resolution	*v;
		size_t			 n, cap;
	} resolutions;
	size_t		 missing;	/* needs not resolved */
};

/* Directories already stat'ed and listed (resolve.c). */
struct dir_cache;

struct loader_env {
	const struct sysroot		*sr;
	const struct loader_profile	*prof;
	const struct ldcache		*cache;	/* NULL when there is none */
	const char			*ld_library_path; /* raw value; NULL when unset */
	/* The current directory for empty and relative entries; NULL under
	 * --root, where such entries are dropped with a reason. */
	const char			*cwd;
	/* The directories to look in for other copies besides the search
	 * path (toolkit lib dirs, env lib dirs found by the probes). */
	const struct strv		*extra_dirs;
	/* Under --root, a tree without /etc/ld.so.cache: the ld.so.conf
	 * directories stand in for the cache ldconfig would build from them
	 * (searched in order, source "cache"). Ignored when cache is set. */
	const struct strv		*ldconf_dirs;
	/* Shared by every resolution in this environment; NULL: each
	 * resolution lists the directories it looks at anew. */
	struct dir_cache		*dirs;
};

/* Everything a resolution needs, set up once for a sysroot and an
 * environment snapshot (NAME=value strings): the loader profile, the
 * cache (cache_error says why there is none), LD_LIBRARY_PATH and the
 * current directory (the host only). env points into the session. */
struct loader_session {
	struct loader_profile	 prof;		/* unused when borrowed */
	bool			 prof_borrowed;
	struct ldcache		 cache;
	bool			 have_cache;
	char			*cache_error;	/* NULL when read, or absent without fault */
	char			*cwd;
	char			*ld_library_path;
	struct loader_env	 env;
};

void	loader_session_init(struct loader_session *s, const struct sysroot *sr,
	    char *const *envp);
/* The same with a profile made once for the run (on the host, making
 * one executes `ld.so --help`): s borrows prof, which must outlive it;
 * s->env.prof points to it. prof NULL: as loader_session_init(). */
void	loader_session_init_prof(struct loader_session *s,
	    const struct sysroot *sr, char *const *envp,
	    const struct loader_profile *prof);
void	loader_session_free(struct loader_session *s);

/* Resolves name as a dlopen() from requester (an ELF file; NULL: a plain
 * program with no RPATH/RUNPATH). When requester is given, its own
 * closure is computed first, so a name it already loads is answered by
 * STEP_LOADED as in a running program. Returns true when resolved. */
bool	resolve_name(const struct loader_env *env, const char *name,
	    const char *requester, struct resolution *out);
void	resolution_free(struct resolution *r);
/* A deep copy; dst is overwritten. */
void	resolution_copy(struct resolution *dst, const struct resolution *src);

/* The same, and what the winner loads in turn: deps gets the objects and
 * searches that dlopen() adds after the winner (its DT_NEEDED closure,
 * searched with the winner and then requester as the chain of loaders).
 * Returns 0, or -1 when requester cannot be read (*err, when err is not
 * NULL, and out->error say why). Both out and deps are always freed by
 * the caller. */
int	resolve_dlopen(const struct loader_env *env, const char *name,
	    const char *requester, struct resolution *out, struct closure *deps,
	    char **err);

/* resolve_dlopen() in a given process: program (an executable; NULL: a
 * plain program with no RPATH/RUNPATH) runs, requester (a library; NULL:
 * the program itself calls) is loaded into it with what it needs, and
 * then calls dlopen(name). This is how a Python extension module sees the
 * loader: the interpreter's DT_RPATH (conda's $ORIGIN/../lib) serves every
 * object without a DT_RUNPATH. */
int	resolve_dlopen_in(const struct loader_env *env, const char *program,
	    const char *name, const char *requester, struct resolution *out,
	    struct closure *deps, char **err);

/* The closure of the program at path. Returns 0, or -1 with *err when the
 * program itself cannot be read. */
int	resolve_closure(const struct loader_env *env, const char *path,
	    struct closure *out, char **err);
void	closure_free(struct closure *c);

const char	*step_result_name(enum step_result r);	/* "not_found", "found", … */

#endif
