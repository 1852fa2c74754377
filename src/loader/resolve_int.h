/* What the resolver's parts share: the directory cache (dircache.c),
 * the objects of a world and their search lists (resolve.c), and one
 * name's search along ld.so's steps (search.c). Internal to src/loader. */
#ifndef CUDAWIZ_LOADER_RESOLVE_INT_H
#define CUDAWIZ_LOADER_RESOLVE_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "loader/resolve.h"
#include "util/strmap.h"
#include "util/strv.h"

enum dir_state { DIR_UNKNOWN = 0, DIR_MISSING, DIR_LISTED, DIR_UNLISTED };

/* About 1,500 names on ext4. */
#define DIR_LIST_MAX	(64 * 1024)

struct dir_entry {
	char		*path;
	enum dir_state	 state;
	struct strv	 names;
	/* Bit i: the first component of capability subdirectory i is in
	 * the listing (all bits when the directory cannot be listed). */
	uint64_t	 subs;
	bool		 subs_known;
};

/* Keyed by path (the index into dirs). Each entry is its own
 * allocation, so pointers to it stay valid while the cache grows. */
struct dir_cache {
	struct {
		struct dir_entry	**v;
		size_t			 n, cap;
	} dirs;
	struct strmap	 index;
};

/* A search list: directories as glibc keeps them (trailing '/' removed,
 * "" for the current directory), with the entry as written. */
struct search_list {
	struct strv	 dirs;
	struct strv	 specs;		/* parallel: as written, "" when the same */
	struct strv	 dropped;	/* entries left out, "spec\tcause" */
	bool		 done;
};

struct object {
	struct strv		 names;	/* every name it answers to */
	char			*path;	/* as opened; NULL for the plain program */
	char			*origin; /* for $ORIGIN; NULL when unknown */
	dev_t			 dev;
	ino_t			 ino;
	bool			 have_id;
	bool			 faked;	/* not found (trace mode's fake) */
	bool			 have_elf;
	int			 loader;
	struct elfobj		 elf;
	char			*elf_error;
	struct search_list	 rpath, runpath;
	size_t			 resolution;
};

struct world {
	const struct loader_env	*env;
	/* The session's (env->dirs) or own_dc. */
	struct dir_cache	*dc;
	struct dir_cache	 own_dc;
	struct search_list	 llp;
	int32_t			 abi_flags;
	struct {
		struct object	*v;
		size_t		 n, cap;
	} objs;
	size_t			 main;		/* index of the program */
	size_t			 steps_kept;	/* in every resolution of the run */
	/* Where a step past the caps is written, to be thrown away. */
	struct resolve_step	 spare;
};

/* TRY_ENDLIST: the rest of this search list is given up (ELOOP …). */
enum try_result { TRY_NONE, TRY_FOUND, TRY_FATAL, TRY_ENDLIST };

/* dircache.c */
void	rv_dir_cache_free(struct dir_cache *dc);
struct dir_entry *rv_dir_get(struct dir_cache *dc,
    const struct sysroot *sr, const char *path);
bool	rv_dir_may_have(const struct dir_entry *d, const char *name);

/* resolve.c */
char *rv_expand_dst(const struct world *w, const char *s,
    const char *origin, const char **why);
struct search_list *rv_object_list(struct world *w, struct object *o,
    bool runpath);

/* search.c */
char *rv_join3(const char *dir, const char *sub, const char *name);
enum try_result	rv_search(struct world *w, const char *name,
    ssize_t loader_ix, struct resolution *r);
void	rv_step_clear(struct resolve_step *s);
bool	rv_sub_may_exist(struct dir_entry *base, const struct strv *subdirs,
    size_t i);

#endif
