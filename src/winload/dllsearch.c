/* The Windows DLL search over a sysroot standing for one drive; see
 * dllsearch.h for the order and what each rule rests on. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "i18n.h"
#include "util/strbuf.h"
#include "util/strmap.h"
#include "util/xalloc.h"
#include "winload/dllsearch.h"
#include "winload/winname.h"

/* A directory's names, read once per search: a long PATH names the same
 * few directories again and again, and each walk from the drive's root
 * lists every directory on the way. */
struct listing {
	int		err;
	struct strv	names;
};

struct ctx {
	const struct dllsearch_env	*env;
	char				 drive;	/* upper case */
	struct strmap			 index;	/* sysroot path -> lists.v */
	struct {
		struct listing	*v;
		size_t		 n, cap;
	} lists;
	struct dll_resolution		*r;
	struct dllsearch_step		 spare;	/* where steps past the cap go */
	struct strmap			 copies;	/* sysroot paths already in other_copies */
	struct strmap			 dirs_seen;	/* sysroot dir -> the cand that searched it first */
};

/* A place to search, before it is searched. */
struct cand {
	enum dllsearch_source	 source;
	size_t			 index;
	const char		*spec;	/* as written; NULL for the fixed dirs */
	const char		*raw;	/* the path to search; NULL: none given */
	const char		*none;	/* why raw is NULL */
};

static const struct listing *
listing_of(struct ctx *c, const char *dir)
{
	size_t *at = strmap_get(&c->index, dir);
	struct listing *l;

	if (at != NULL)
		return &c->lists.v[*at];
	l = VEC_PUSH(&c->lists);
	l->err = sysroot_list_dir(c->env->sr, dir, &l->names);
	if (!strmap_put(&c->index, dir, c->lists.n - 1))
		die("dllsearch: listing index");
	return l;
}

/* The entry of dir that NTFS would open for name (winname_pick). */
static const char *
entry_in(struct ctx *c, const char *dir, const char *name)
{
	const struct listing *l = listing_of(c, dir);

	return l->err != 0 ? NULL : winname_pick(&l->names, name);
}

/* ------------------------------------------------------------ Windows paths */

/* A drive-absolute path: "X:\\…" or "X:/…". */
static bool
drive_absolute(const char *s)
{
	return s[0] != '\0' && s[1] == ':' && (s[2] == '\\' || s[2] == '/') &&
	    (s[0] | 0x20) >= 'a' && (s[0] | 0x20) <= 'z';
}

/* The full path Windows makes of p (RtlGetFullPathName_U, as the loader
 * applies it to each "dir\name" it tries): '/' becomes '\', a relative
 * path is taken from the current directory, "." and ".." are folded and
 * a segment's single trailing period dropped. Returns "X:\a\b" (upper
 * case drive, no trailing '\' but the root's), or NULL with *why and
 * *no_cwd set when it needed a current directory that is not known. */
static char *
full_path(struct ctx *c, const char *p, char **why, bool *no_cwd)
{
	const char *cwd = c->env->cwd;
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	struct strv segs = STRV_INIT;
	bool have_cwd = cwd != NULL && drive_absolute(cwd);
	char drive;
	size_t keep = 0;
	char *s;

	*why = NULL;
	if (no_cwd != NULL)
		*no_cwd = false;
	if ((p[0] == '\\' || p[0] == '/') && (p[1] == '\\' || p[1] == '/')) {
		*why = xstrdup(_("a network or device path (\\\\…), outside the tree"));
		return NULL;
	}
	if (p[0] != '\0' && p[1] == ':' && (p[0] | 0x20) >= 'a' && (p[0] | 0x20) <= 'z') {
		drive = (char)(p[0] & ~0x20);
		if (p[2] == '\\' || p[2] == '/')
			strbuf_puts(&in, p + 2);
		else if (have_cwd && (cwd[0] & ~0x20) == drive)
			/* "D:x": from the current directory of drive D, known
			 * only for the current drive; else from its root. */
			strbuf_printf(&in, "%s\\%s", cwd + 2, p + 2);
		else
			strbuf_printf(&in, "\\%s", p + 2);
	} else if (p[0] == '\\' || p[0] == '/') {
		drive = have_cwd ? (char)(cwd[0] & ~0x20) : c->drive;
		strbuf_puts(&in, p);
	} else {
		if (!have_cwd) {
			*why = xstrdup(_("relative to the current directory, which is not known"));
			if (no_cwd != NULL)
				*no_cwd = true;
			return NULL;
		}
		drive = (char)(cwd[0] & ~0x20);
		strbuf_printf(&in, "%s\\%s", cwd + 2, p);
	}
	s = strbuf_take(&in);
	strv_split(&segs, s, "\\/");
	free(s);
	for (size_t i = 0; i < segs.n; i++) {
		char *g = segs.v[i];
		size_t gl = strlen(g);

		if (gl == 0 || strcmp(g, ".") == 0) {
			free(g);
			continue;
		}
		if (strcmp(g, "..") == 0) {
			free(g);
			if (keep > 0)
				free(segs.v[--keep]);
			continue;
		}
		if (gl > 1 && g[gl - 1] == '.' && strspn(g, ".") != gl)
			g[gl - 1] = '\0';
		segs.v[keep++] = g;
	}
	segs.n = keep;
	strbuf_printf(&out, "%c:", drive);
	for (size_t i = 0; i < segs.n; i++)
		strbuf_printf(&out, "\\%s", segs.v[i]);
	if (segs.n == 0)
		strbuf_putc(&out, '\\');
	strv_free(&segs);
	return strbuf_take(&out);
}

/* The sysroot path of the full Windows path w, each segment matched as
 * NTFS would. Returns 0, ENOENT (*why NULL: plainly missing) or another
 * error with *why. *sys always holds the path as far as it was walked. */
static int
to_sysroot(struct ctx *c, const char *w, char **sys, char **why)
{
	struct strv segs = STRV_INIT;
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	*why = NULL;
	if (c->env->all_drives) {
		strbuf_printf(&sb, "/%c", (char)(w[0] & ~0x20));
	} else if ((w[0] & ~0x20) != c->drive) {
		*why = xasprintf(_("drive %c: is not in the tree (the tree is drive %c:)"),
		    w[0], c->drive);
		*sys = NULL;
		return ENOENT;
	} else {
		strbuf_puts(&sb, "/");
	}
	strv_split(&segs, w + 3, "\\");
	for (size_t i = 0; i < segs.n; i++) {
		const char *e;

		if (segs.v[i][0] == '\0')
			continue;
		if (strchr(segs.v[i], '"') != NULL) {
			*why = xstrdup(_("a '\"' is part of the name, which no NTFS name holds"));
			rc = ENOENT;
			break;
		}
		e = entry_in(c, strbuf_str(&sb), segs.v[i]);
		if (e == NULL) {
			rc = ENOENT;
			break;
		}
		if (sb.len > 1)
			strbuf_putc(&sb, '/');
		strbuf_puts(&sb, e);
	}
	strv_free(&segs);
	*sys = strbuf_take(&sb);
	return rc;
}

/* ------------------------------------------------------------------- steps */

static struct dllsearch_step *
add_step(struct ctx *c, const struct cand *cd, const char *dir,
    enum dllsearch_result res)
{
	struct dll_resolution *r = c->r;
	struct dllsearch_step *s;

	if (res != DLLSTEP_FOUND && res != DLLSTEP_FATAL &&
	    r->steps.n >= DLLSEARCH_STEPS_MAX) {
		r->steps_cut++;
		s = &c->spare;
		free(s->spec);
		free(s->dir);
		free(s->path);
		free(s->detail);
		memset(s, 0, sizeof *s);
	} else
		s = VEC_PUSH(&r->steps);
	s->source = cd->source;
	s->index = cd->index;
	s->spec = cd->spec != NULL ? xstrdup(cd->spec) : NULL;
	s->dir = dir != NULL ? xstrdup(dir) : NULL;
	s->result = res;
	return s;
}

/* A place of the search named in a sentence: "PATH entry 3". */
static char *
cand_label(enum dllsearch_source src, size_t index)
{
	switch (src) {
	case DLLSRC_PATH:
		return xasprintf(_("PATH entry %zu"), index);
	case DLLSRC_USER_DIR:
		return xasprintf(_("AddDllDirectory directory %zu"), index);
	case DLLSRC_DLL_LOAD_DIR:
		return xstrdup(_("the loading DLL's directory"));
	case DLLSRC_APP_DIR:
		return xstrdup(_("the application directory"));
	case DLLSRC_SYSTEM32:
		return xstrdup(_("the System32 directory"));
	case DLLSRC_SYSTEM16:
		return xstrdup(_("the 16-bit System directory"));
	case DLLSRC_WINDOWS:
		return xstrdup(_("the Windows directory"));
	case DLLSRC_CURRENT_DIR:
		return xstrdup(_("the current directory"));
	default:
		return xstrdup(dllsearch_source_name(src));
	}
}

static void
add_copy(struct ctx *c, const char *sys, const char *win)
{
	if (c->r->resolved_file != NULL && strcmp(sys, c->r->resolved_file) == 0)
		return;
	if (strmap_put(&c->copies, sys, 0))
		strv_push(&c->r->other_copies, win);
}

/* The name split at its last '\': rel "" when it has none. */
static void
split_name(const char *name, char **rel, char **base)
{
	const char *b = strrchr(name, '\\');

	if (b == NULL) {
		*rel = xstrdup("");
		*base = xstrdup(name);
	} else {
		*rel = xstrndup(name, (size_t)(b - name));
		*base = xstrdup(b + 1);
	}
}

/* Where a search directory's file of the name would be: the full Windows
 * path of the directory it lies in (dir + the name's own relative part)
 * and that directory inside the sysroot. Returns 0 or ENOENT. */
static int
target_dir(struct ctx *c, const char *dir, const char *rel, char **wdir,
    char **sdir)
{
	char *why = NULL, *j;
	int rc;

	*sdir = NULL;
	if (rel[0] == '\0') {
		*wdir = xstrdup(dir);
	} else {
		j = xasprintf("%s\\%s", dir, rel);
		*wdir = full_path(c, j, &why, NULL);
		free(j);
		free(why);
		if (*wdir == NULL)
			return ENOENT;
	}
	rc = to_sysroot(c, *wdir, sdir, &why);
	free(why);
	if (rc == 0 && !sysroot_is_dir(c->env->sr, *sdir))
		rc = ENOTDIR;
	return rc;
}

static char *
win_join(const char *dir, const char *name)
{
	size_t dl = strlen(dir);

	return xasprintf("%s%s%s", dir, dl > 0 && dir[dl - 1] == '\\' ? "" : "\\", name);
}

/* Every file of the name in one directory, for other_copies. */
static void
copies_in(struct ctx *c, const char *dir, const char *rel, const char *base)
{
	char *wdir = NULL, *sdir = NULL;
	const struct listing *l;

	if (target_dir(c, dir, rel, &wdir, &sdir) == 0) {
		l = listing_of(c, sdir);
		for (size_t i = 0; l->err == 0 && i < l->names.n; i++) {
			char *sys, *win;
			struct stat st;

			if (!winname_eq(l->names.v[i], base))
				continue;
			sys = xasprintf("%s%s%s", sdir, strcmp(sdir, "/") == 0 ? "" : "/", l->names.v[i]);
			if (sysroot_stat(c->env->sr, sys, &st) == 0 && S_ISREG(st.st_mode)) {
				win = win_join(wdir, l->names.v[i]);
				add_copy(c, sys, win);
				free(win);
			}
			free(sys);
		}
	}
	free(wdir);
	free(sdir);
}

/* The Windows path of the file of the name that dir (any Windows path)
 * holds; NULL when none, or when dir cannot be placed. */
static char *
file_in(struct ctx *c, const char *dir, const char *rel, const char *base)
{
	char *why = NULL, *full = full_path(c, dir, &why, NULL);
	char *wdir = NULL, *sdir = NULL, *ret = NULL;
	const char *e;

	free(why);
	if (full != NULL && target_dir(c, full, rel, &wdir, &sdir) == 0 &&
	    (e = entry_in(c, sdir, base)) != NULL)
		ret = win_join(wdir, e);
	free(full);
	free(wdir);
	free(sdir);
	return ret;
}

enum tried { T_NONE, T_FOUND, T_SKIPPED, T_FATAL };

/* Tries the file of the name in one full directory; fills the step. */
static enum tried
try_dir(struct ctx *c, struct dllsearch_step *s, const char *dir,
    const char *rel, const char *base)
{
	struct dll_resolution *r = c->r;
	char *wdir = NULL, *sdir = NULL, *sys;
	const char *e;
	struct stat st;
	enum tried t = T_NONE;

	if (target_dir(c, dir, rel, &wdir, &sdir) != 0) {
		s->path = win_join(wdir != NULL ? wdir : dir, base);
		s->result = DLLSTEP_NOT_FOUND;
		goto out;
	}
	e = entry_in(c, sdir, base);
	if (e == NULL) {
		s->path = win_join(wdir, base);
		s->result = DLLSTEP_NOT_FOUND;
		goto out;
	}
	/* The path as the loader built it, directory as searched and name
	 * as asked: what GetModuleFileName gives (Wine 8 does, for a file
	 * whose case on disk differs); the file itself is resolved_file. */
	s->path = win_join(wdir, base);
	sys = xasprintf("%s%s%s", sdir, strcmp(sdir, "/") == 0 ? "" : "/", e);
	if (sysroot_stat(c->env->sr, sys, &st) != 0) {
		/* A dangling link: nothing to open, as if absent. */
		s->result = DLLSTEP_NOT_FOUND;
		free(sys);
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		/* Wine's open_dll_file: a name that exists but cannot be
		 * opened as a file ends the search with that error. */
		s->result = DLLSTEP_FATAL;
		s->detail = xstrdup(_("not a file: the loader cannot open it and gives up"));
		r->error = DLLSEARCH_ERROR_ACCESS_DENIED;
		t = T_FATAL;
		free(sys);
		goto out;
	}
	if (c->env->image_check != NULL) {
		switch (c->env->image_check(c->env->image_arg, c->env->sr, sys)) {
		case DLLSEARCH_IMAGE_OK:
			break;
		case DLLSEARCH_IMAGE_OTHER_MACHINE:
			s->result = DLLSTEP_SKIPPED;
			s->detail = xstrdup(_("built for another machine (x86 vs x64): passed over"));
			r->other_machine = true;
			free(sys);
			t = T_SKIPPED;
			goto out;
		case DLLSEARCH_IMAGE_BAD:
			s->result = DLLSTEP_FATAL;
			s->detail = xstrdup(_("not a Windows image: the loader gives up (ERROR_BAD_EXE_FORMAT)"));
			r->error = DLLSEARCH_ERROR_BAD_EXE_FORMAT;
			free(sys);
			t = T_FATAL;
			goto out;
		}
	}
	s->result = DLLSTEP_FOUND;
	r->resolved = xstrdup(s->path);
	r->resolved_file = sys;
	t = T_FOUND;
out:
	free(wdir);
	free(sdir);
	return t;
}

/* ------------------------------------------------------------- candidates */

struct cands {
	struct cand	*v;
	size_t		 n, cap;
};

static void
push_cand(struct cands *cs, enum dllsearch_source src, size_t index,
    const char *spec, const char *raw, const char *none)
{
	struct cand *cd = VEC_PUSH(cs);

	cd->source = src;
	cd->index = index;
	cd->spec = spec;
	cd->raw = raw;
	cd->none = none;
}

/* The directories of the search, in order (dllsearch.h; Wine's
 * get_dll_load_path and get_dll_load_path_search_flags). */
static void
build_cands(struct ctx *c, struct cands *cs, struct strv *path_entries,
    const char *sys32, const char *sys16, const char *windir)
{
	const struct dllsearch_env *env = c->env;
	unsigned f = env->flags;
	bool safe = !env->unsafe_search_mode;

	if (f & DLLSEARCH_F_DEFAULT_DIRS)
		f |= DLLSEARCH_F_APPLICATION_DIR | DLLSEARCH_F_USER_DIRS |
		    DLLSEARCH_F_SYSTEM32;
	if (f & (DLLSEARCH_F_DLL_LOAD_DIR | DLLSEARCH_F_APPLICATION_DIR |
	    DLLSEARCH_F_USER_DIRS | DLLSEARCH_F_SYSTEM32)) {
		if (f & DLLSEARCH_F_DLL_LOAD_DIR)
			push_cand(cs, DLLSRC_DLL_LOAD_DIR, 0, NULL, env->dll_load_dir,
			    N_("no loading DLL given"));
		if (f & DLLSEARCH_F_APPLICATION_DIR)
			push_cand(cs, DLLSRC_APP_DIR, 0, NULL, env->app_dir,
			    N_("no application directory given"));
		if ((f & DLLSEARCH_F_USER_DIRS) && env->user_dirs != NULL)
			/* Newest first, as Wine keeps them (dllsearch.h). */
			for (size_t i = env->user_dirs->n; i-- > 0;)
				push_cand(cs, DLLSRC_USER_DIR, i, env->user_dirs->v[i],
				    env->user_dirs->v[i], NULL);
		if (f & DLLSEARCH_F_SYSTEM32)
			push_cand(cs, DLLSRC_SYSTEM32, 0, NULL, sys32, NULL);
		return;
	}
	push_cand(cs, DLLSRC_APP_DIR, 0, NULL, env->app_dir,
	    N_("no application directory given"));
	if (!safe)
		push_cand(cs, DLLSRC_CURRENT_DIR, 0, NULL, env->cwd,
		    N_("the current directory is not known"));
	push_cand(cs, DLLSRC_SYSTEM32, 0, NULL, sys32, NULL);
	push_cand(cs, DLLSRC_SYSTEM16, 0, NULL, sys16, NULL);
	push_cand(cs, DLLSRC_WINDOWS, 0, NULL, windir, NULL);
	if (safe)
		push_cand(cs, DLLSRC_CURRENT_DIR, 0, NULL, env->cwd,
		    N_("the current directory is not known"));
	if (env->path == NULL)
		return;
	/* Wine's search_dll_file walks "while (*paths)": an empty field
	 * between two ';' is tried (the bare name: the current directory),
	 * a ';' at the very end adds nothing, and neither does an empty PATH. */
	strv_split(path_entries, env->path, ";");
	if (path_entries->n > 0 && path_entries->v[path_entries->n - 1][0] == '\0')
		free(path_entries->v[--path_entries->n]);
	for (size_t i = 0; i < path_entries->n; i++) {
		const char *e = path_entries->v[i];

		push_cand(cs, DLLSRC_PATH, i, e, e[0] == '\0' ? env->cwd : e,
		    N_("an empty entry, the current directory, which is not known"));
	}
}

/* The step just made for a file that ends the search, kept even past
 * the cap (the answer needs it). */
static struct dllsearch_step *
keep_step(struct ctx *c, struct dllsearch_step *s)
{
	struct dllsearch_step *k;

	if (s != &c->spare)
		return s;
	k = VEC_PUSH(&c->r->steps);
	*k = *s;
	memset(s, 0, sizeof *s);
	c->r->steps_cut--;
	return k;
}

/* Searches one candidate (the cands index ci); returns what the file
 * there did. */
static enum tried
search_cand(struct ctx *c, const struct cands *cs, size_t ci,
    const char *rel, const char *base)
{
	const struct cand *cd = &cs->v[ci];
	struct dllsearch_step *s;
	char *why = NULL, *dir, *sdir = NULL;
	bool no_cwd;
	enum tried t;
	size_t *seen;
	int rc;

	if (cd->raw == NULL) {
		s = add_step(c, cd, NULL, DLLSTEP_SKIPPED);
		s->detail = xstrdup(_(cd->none));
		return T_SKIPPED;
	}
	if (cd->source == DLLSRC_USER_DIR && !drive_absolute(cd->raw) &&
	    cd->raw[0] != '\\' && cd->raw[0] != '/') {
		/* AddDllDirectory fails with ERROR_INVALID_PARAMETER. */
		s = add_step(c, cd, NULL, DLLSTEP_SKIPPED);
		s->detail = xstrdup(_("AddDllDirectory refuses a relative path"));
		return T_SKIPPED;
	}
	if (strchr(cd->raw, '"') != NULL) {
		/* Quotes in PATH are for cmd.exe, which strips them when it
		 * looks for a program; the loader takes each entry as it is,
		 * and no NTFS name holds a '"' (Wine's search_dll_file). */
		char *unq = xstrdup(cd->raw), *w = unq, *held;

		for (const char *q = cd->raw; *q != '\0'; q++)
			if (*q != '"')
				*w++ = *q;
		*w = '\0';
		s = add_step(c, cd, NULL, DLLSTEP_DIR_MISSING);
		held = file_in(c, unq, rel, base);
		s->detail = held != NULL ?
		    xasprintf(_("written in quotes, which the loader keeps as part of the name (cmd.exe strips them); without them it would find %s"), held) :
		    xstrdup(_("written in quotes, which the loader keeps as part of the name (cmd.exe strips them)"));
		free(held);
		free(unq);
		return T_NONE;
	}
	dir = full_path(c, cd->raw, &why, &no_cwd);
	if (dir == NULL) {
		s = add_step(c, cd, NULL, no_cwd ? DLLSTEP_SKIPPED :
		    DLLSTEP_DIR_MISSING);
		s->detail = why;
		return T_SKIPPED;
	}
	rc = to_sysroot(c, dir, &sdir, &why);
	if (rc == 0 && !sysroot_is_dir(c->env->sr, sdir))
		rc = ENOTDIR;
	if (rc != 0) {
		if (cd->source == DLLSRC_USER_DIR) {
			s = add_step(c, cd, dir, DLLSTEP_SKIPPED);
			s->detail = why != NULL ? why :
			    xstrdup(_("AddDllDirectory refused it: the directory does not exist"));
		} else {
			s = add_step(c, cd, dir, DLLSTEP_DIR_MISSING);
			s->detail = why;
		}
		free(dir);
		free(sdir);
		return T_NONE;
	}
	free(why);
	s = add_step(c, cd, dir, DLLSTEP_NOT_FOUND);
	t = try_dir(c, s, dir, rel, base);
	if (t == T_FOUND || t == T_FATAL)
		s = keep_step(c, s);
	if (cd->source == DLLSRC_PATH && cd->spec[0] == '\0' && s->detail == NULL)
		s->detail = xstrdup(_("an empty entry: the current directory"));
	seen = strmap_get(&c->dirs_seen, sdir);
	if (seen != NULL && s->detail == NULL) {
		char *l = cand_label(cs->v[*seen].source, cs->v[*seen].index);

		s->detail = xasprintf(_("the same directory as %s, searched again"), l);
		free(l);
	} else if (seen == NULL)
		(void)strmap_put(&c->dirs_seen, sdir, ci);
	free(dir);
	free(sdir);
	return t;
}

/* ------------------------------------------------------------------- names */

/* LoadLibrary's name rules: '/' is '\'; ".dll" is added when the last
 * segment has no '.' (Wine's find_dll_file, Microsoft's "if the file
 * name extension is omitted"); trailing periods are dropped, since a
 * trailing '.' only says "no extension" and Windows trims it from a file
 * name. */
static char *
searched_name(const char *name)
{
	char *s = xstrdup(name), *b, *out;
	size_t n;

	for (char *q = s; *q != '\0'; q++)
		if (*q == '/')
			*q = '\\';
	b = strrchr(s, '\\');
	b = b != NULL ? b + 1 : s;
	if (strchr(b, '.') == NULL) {
		out = xasprintf("%s.dll", s);
		free(s);
		return out;
	}
	n = strlen(s);
	while (n > (size_t)(b - s) && s[n - 1] == '.')
		s[--n] = '\0';
	return s;
}

static bool
is_absolute(const char *s)
{
	return (s[0] != '\0' && s[1] == ':') || s[0] == '\\';
}

static void
finish(struct ctx *c)
{
	struct dll_resolution *r = c->r;

	if (r->resolved == NULL && r->error == 0)
		r->error = r->other_machine ? DLLSEARCH_ERROR_BAD_EXE_FORMAT :
		    DLLSEARCH_ERROR_MOD_NOT_FOUND;
	if (r->resolved != NULL)
		r->error = 0;
	r->error_text = r->error != 0 ? dllsearch_error_text(r->error) : NULL;
}

bool
dllsearch_resolve(const struct dllsearch_env *env, const char *name,
    struct dll_resolution *out)
{
	struct ctx c;
	struct cands cs = { NULL, 0, 0 };
	struct strv path_entries = STRV_INIT;
	char *sys32, *sys16, *windir, *rel, *base;
	char drive = env->drive != 0 ? (char)(env->drive & ~0x20) : 'C';
	size_t i;
	bool done = false;

	memset(out, 0, sizeof *out);
	memset(&c, 0, sizeof c);
	c.env = env;
	c.drive = drive;
	c.r = out;
	out->name = xstrdup(name);
	if (name[0] == '\0') {
		out->searched = xstrdup("");
		out->error = DLLSEARCH_ERROR_INVALID_PARAM;
		finish(&c);
		return false;
	}
	out->searched = searched_name(name);
	sys32 = env->system32_dir != NULL ? xstrdup(env->system32_dir) :
	    xasprintf("%c:\\Windows\\System32", drive);
	sys16 = env->system16_dir != NULL ? xstrdup(env->system16_dir) :
	    xasprintf("%c:\\Windows\\System", drive);
	windir = env->windows_dir != NULL ? xstrdup(env->windows_dir) :
	    xasprintf("%c:\\Windows", drive);

	if (is_absolute(out->searched)) {
		/* A full path: that file or nothing. A module loaded from the
		 * same path is reused (Wine's find_fullname_module). */
		struct cand cd = { DLLSRC_GIVEN, 0, NULL, NULL, NULL };
		struct dllsearch_step *s;
		char *why = NULL, *full = full_path(&c, out->searched, &why, NULL);
		char *d, *b;

		for (i = 0; full != NULL && env->loaded != NULL && i < env->loaded->n; i++) {
			char *lf = full_path(&c, env->loaded->v[i], &why, NULL);

			free(why);
			why = NULL;
			if (lf != NULL && winname_eq(lf, full)) {
				cd.source = DLLSRC_LOADED;
				s = add_step(&c, &cd, NULL, DLLSTEP_FOUND);
				s->path = xstrdup(env->loaded->v[i]);
				out->resolved = xstrdup(env->loaded->v[i]);
				out->via = DLLSRC_LOADED;
				free(lf);
				done = true;
				break;
			}
			free(lf);
		}
		if (!done && full != NULL) {
			split_name(full, &d, &b);
			if (d[0] != '\0' && d[strlen(d) - 1] == ':') {
				char *t = xasprintf("%s\\", d);

				free(d);
				d = t;
			}
			s = add_step(&c, &cd, d, DLLSTEP_NOT_FOUND);
			{
				char *sdir = NULL;
				int rc = to_sysroot(&c, d, &sdir, &why);

				if (rc != 0 || !sysroot_is_dir(env->sr, sdir)) {
					s->result = DLLSTEP_DIR_MISSING;
					s->detail = why;
					s->path = xstrdup(full);
				} else {
					free(why);
					if (try_dir(&c, s, d, "", b) == T_FOUND)
						out->via = DLLSRC_GIVEN;
				}
				free(sdir);
			}
			copies_in(&c, d, "", b);
			free(d);
			free(b);
		} else if (!done) {
			s = add_step(&c, &cd, NULL, DLLSTEP_DIR_MISSING);
			s->detail = why;
			why = NULL;
		}
		free(why);
		free(full);
		goto out;
	}

	if ((env->flags & DLLSEARCH_F_DLL_LOAD_DIR) && env->dll_load_dir != NULL &&
	    !drive_absolute(env->dll_load_dir)) {
		/* Wine's get_dll_load_path_search_flags: the loading DLL's
		 * path must be absolute, else STATUS_INVALID_PARAMETER. */
		struct cand cd = { DLLSRC_DLL_LOAD_DIR, 0, NULL, NULL, NULL };
		struct dllsearch_step *s = add_step(&c, &cd, NULL, DLLSTEP_FATAL);

		s->detail = xstrdup(_("LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR needs the loading DLL's full path"));
		out->error = DLLSEARCH_ERROR_INVALID_PARAM;
		goto out;
	}
	split_name(out->searched, &rel, &base);
	if (rel[0] == '\0') {
		/* A bare name: an already loaded module of that base name
		 * first, then KnownDLLs (Microsoft's order, Wine's
		 * find_dll_file). A relative name with a '\' is neither. */
		for (i = 0; env->loaded != NULL && i < env->loaded->n; i++) {
			char *ln = searched_name(winname_base(env->loaded->v[i]));
			bool hit = winname_eq(ln, base);

			free(ln);
			if (hit) {
				struct cand cd = { DLLSRC_LOADED, i, NULL, NULL, NULL };
				struct dllsearch_step *s = add_step(&c, &cd, NULL, DLLSTEP_FOUND);

				s->path = xstrdup(env->loaded->v[i]);
				out->resolved = xstrdup(env->loaded->v[i]);
				out->via = DLLSRC_LOADED;
				done = true;
				break;
			}
		}
		for (i = 0; !done && env->known_dlls != NULL && i < env->known_dlls->n; i++) {
			char *kn = searched_name(env->known_dlls->v[i]);
			bool hit = winname_eq(kn, base);
			struct cand cd = { DLLSRC_KNOWN_DLLS, i, NULL, sys32, NULL };
			struct dllsearch_step *s;
			char *why = NULL, *d;
			enum tried t = T_NONE;

			free(kn);
			if (!hit)
				continue;
			/* The KnownDLLs sections are made at boot from
			 * System32's files; a name without its file there has
			 * no section and is searched like any other. */
			d = full_path(&c, sys32, &why, NULL);
			free(why);
			s = add_step(&c, &cd, d, DLLSTEP_NOT_FOUND);
			if (d != NULL)
				t = try_dir(&c, s, d, "", base);
			if (t == T_FOUND) {
				out->via = DLLSRC_KNOWN_DLLS;
				done = true;
			} else if (t == T_FATAL)
				done = true;
			else if (s->detail == NULL)
				s->detail = xstrdup(_("a KnownDLL with no file in System32: searched as any other name"));
			free(d);
			break;
		}
	}

	build_cands(&c, &cs, &path_entries, sys32, sys16, windir);
	for (i = 0; i < cs.n && !done; i++) {
		enum tried t = search_cand(&c, &cs, i, rel, base);

		if (t == T_FOUND) {
			out->via = cs.v[i].source;
			done = true;
		} else if (t == T_FATAL)
			done = true;
	}
	/* Other copies: every directory of the search, reached or not. */
	for (i = 0; i < cs.n; i++) {
		char *why = NULL, *d;

		if (cs.v[i].raw == NULL)
			continue;
		d = full_path(&c, cs.v[i].raw, &why, NULL);
		free(why);
		if (d != NULL)
			copies_in(&c, d, rel, base);
		free(d);
	}
	if (out->via == DLLSRC_KNOWN_DLLS)
		copies_in(&c, sys32, "", base);
	free(rel);
	free(base);
out:
	finish(&c);
	free(cs.v);
	strv_free(&path_entries);
	free(sys32);
	free(sys16);
	free(windir);
	free(c.spare.spec);
	free(c.spare.dir);
	free(c.spare.path);
	free(c.spare.detail);
	for (i = 0; i < c.lists.n; i++)
		strv_free(&c.lists.v[i].names);
	free(c.lists.v);
	strmap_free(&c.index);
	strmap_free(&c.copies);
	strmap_free(&c.dirs_seen);
	return out->resolved != NULL;
}

void
dll_resolution_free(struct dll_resolution *r)
{
	for (size_t i = 0; i < r->steps.n; i++) {
		free(r->steps.v[i].spec);
		free(r->steps.v[i].dir);
		free(r->steps.v[i].path);
		free(r->steps.v[i].detail);
	}
	free(r->steps.v);
	free(r->name);
	free(r->searched);
	free(r->resolved);
	free(r->resolved_file);
	strv_free(&r->other_copies);
	memset(r, 0, sizeof *r);
}

const char *
dllsearch_source_name(enum dllsearch_source s)
{
	static const char *const names[] = {
		[DLLSRC_NONE] = "none",
		[DLLSRC_GIVEN] = "given",
		[DLLSRC_LOADED] = "loaded",
		[DLLSRC_KNOWN_DLLS] = "known_dlls",
		[DLLSRC_DLL_LOAD_DIR] = "dll_load_dir",
		[DLLSRC_APP_DIR] = "app_dir",
		[DLLSRC_USER_DIR] = "user_dir",
		[DLLSRC_SYSTEM32] = "system32",
		[DLLSRC_SYSTEM16] = "system16",
		[DLLSRC_WINDOWS] = "windows",
		[DLLSRC_CURRENT_DIR] = "current_dir",
		[DLLSRC_PATH] = "path",
	};

	return (size_t)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

const char *
dllsearch_result_name(enum dllsearch_result r)
{
	switch (r) {
	case DLLSTEP_NOT_FOUND:		return "not_found";
	case DLLSTEP_DIR_MISSING:	return "dir_missing";
	case DLLSTEP_FOUND:		return "found";
	case DLLSTEP_SKIPPED:		return "skipped";
	case DLLSTEP_FATAL:		return "fatal";
	}
	return "?";
}

/* Windows' own words (FormatMessage, English), quoted, so not
 * translated: a user searches the web for exactly these. */
const char *
dllsearch_error_text(unsigned code)
{
	switch (code) {
	case DLLSEARCH_ERROR_ACCESS_DENIED:
		return "Access is denied.";
	case DLLSEARCH_ERROR_INVALID_PARAM:
		return "The parameter is incorrect.";
	case DLLSEARCH_ERROR_MOD_NOT_FOUND:
		return "The specified module could not be found.";
	case DLLSEARCH_ERROR_BAD_EXE_FORMAT:
		return "%1 is not a valid Win32 application.";
	}
	return NULL;
}

enum dllsearch_image
dllsearch_check_pe(void *arg, const struct sysroot *sr, const char *path)
{
	unsigned short want = *(const unsigned short *)arg;
	char *data = NULL;
	size_t len = 0;
	uint32_t off;
	unsigned short machine;
	enum dllsearch_image res = DLLSEARCH_IMAGE_BAD;

	/* The PE header lies within the first few KiB of any real DLL;
	 * e_lfanew past 64 KiB is taken as no image. */
	if (sysroot_read_head(sr, path, 65536 + 512, &data, &len) != 0)
		return DLLSEARCH_IMAGE_BAD;
	if (len >= 64 && data[0] == 'M' && data[1] == 'Z') {
		const unsigned char *u = (const unsigned char *)data;

		off = (uint32_t)u[60] | (uint32_t)u[61] << 8 |
		    (uint32_t)u[62] << 16 | (uint32_t)u[63] << 24;
		if (off <= len && len - off >= 6 &&
		    memcmp(data + off, "PE\0\0", 4) == 0) {
			machine = (unsigned short)(u[off + 4] | u[off + 5] << 8);
			res = machine == want ? DLLSEARCH_IMAGE_OK :
			    DLLSEARCH_IMAGE_OTHER_MACHINE;
		}
	}
	free(data);
	return res;
}
