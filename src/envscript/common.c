/* What the writers share: the plan checked and prepared once for every
 * writer, and the header each script starts with. It knows the formats
 * only through the row (writer.h) it is handed. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "envscript/common.h"
#include "i18n.h"
#include "util/xalloc.h"

static char *
ident_of(const char *name)
{
	char *s = xstrdup(name != NULL ? name : "");

	for (char *c = s; *c != '\0'; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || *c == '_'))
			*c = '_';
	return s;
}

char *
script_deactivate_name(const struct env_plan *p)
{
	char *id = ident_of(p->name), *s;

	s = xasprintf("cudawiz_deactivate_%s", id);
	free(id);
	return s;
}

char *
path_key(const char *s)
{
	size_t n = strlen(s);

	if (n > 0 && s[n - 1] == '/')
		n--;
	return xstrndup(s, n);
}

int
unwritable(const struct prep *pr, const char *what, const char *value,
    const char *why, char **err)
{
	*err = xasprintf(_("cannot write a %s script for this plan: %s '%s' %s"),
	    pr->format, what, value, why);
	return -1;
}

int
refuse_newlines(const struct prep *pr, char **err)
{
	for (int i = 0; i < 2; i++) {
		const struct plan_var *v = pr->var[i].v;

		for (size_t j = 0; j < pr->pv[i].prepend.n; j++)
			if (strchr(pr->pv[i].prepend.v[j], '\n') != NULL)
				return unwritable(pr, pr->pv[i].name,
				    pr->pv[i].prepend.v[j], _("holds a line break, "
				    "which the module system's shell code would not "
				    "keep inside its quotes"), err);
		if (v->op == PLAN_VAR_SET && strchr(v->value, '\n') != NULL)
			return unwritable(pr, pr->var[i].name, v->value,
			    _("holds a line break, which the module system's shell "
			    "code would not keep inside its quotes"), err);
	}
	return 0;
}

/* The plan's name becomes file names (conda) and module names: only the
 * characters the contract allows, and never "." or "..". */
static bool
name_ok(const char *name)
{
	if (name == NULL || *name == '\0' || strcmp(name, ".") == 0 ||
	    strcmp(name, "..") == 0)
		return false;
	return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789._-") == strlen(name);
}

static int
prep_pathvar(struct prep *pr, struct pv_prep *pp, const char *name,
    const struct plan_pathvar *pv, char sep, char **err)
{
	char seps[2] = { sep, '\0' };

	pp->name = name;
	pp->stubs = pv->drop_stubs;
	pp->missing = pv->drop_missing;
	for (int pass = 0; pass < 2; pass++) {
		const struct strv *l = pass == 0 ? &pv->prepend : &pv->remove;

		for (size_t i = 0; i < l->n; i++) {
			char *k;

			if (*l->v[i] == '\0')
				continue;	/* an empty entry is never wanted */
			if (strpbrk(l->v[i], seps) != NULL)
				return unwritable(pr, name, l->v[i], sep == ':' ?
				    _("holds a ':', which separates the entries of "
				    "the list") : _("holds a ';', which separates "
				    "the entries of the list"), err);
			k = path_key(l->v[i]);
			if (strv_contains(&pp->keys, k)) {
				free(k);
				continue;
			}
			strv_push(pass == 0 ? &pp->prepend : &pp->remove, l->v[i]);
			strv_push_owned(&pp->keys, k);
		}
	}
	pp->touched = pp->keys.n > 0 || pp->stubs || pp->missing;
	return 0;
}

int
prep_plan(const struct env_plan *p, const struct script_writer *w, char sep,
    struct prep *pr, char **err)
{
	memset(pr, 0, sizeof *pr);
	pr->plan = p;
	pr->w = w;
	pr->format = w->name;
	if (!name_ok(p->name)) {
		*err = xasprintf(_("cannot write a %s script: the plan's name '%s' "
		    "must be letters, digits, '.', '_' and '-' only"), pr->format,
		    p->name != NULL ? p->name : "");
		return -1;
	}
	pr->ident = ident_of(p->name);
	pr->deact = script_deactivate_name(p);
	pr->var[0].name = "CUDA_HOME";
	pr->var[0].v = &p->cuda_home;
	pr->var[1].name = "CUDA_PATH";
	pr->var[1].v = &p->cuda_path;
	for (int i = 0; i < 2; i++) {
		const struct plan_var *v = pr->var[i].v;

		if (v->op == PLAN_VAR_SET && v->value == NULL) {
			*err = xasprintf(_("cannot write a %s script: the plan sets "
			    "%s without a value"), pr->format, pr->var[i].name);
			prep_free(pr);
			return -1;
		}
	}
	if (prep_pathvar(pr, &pr->pv[0], "PATH", &p->path, sep, err) != 0 ||
	    prep_pathvar(pr, &pr->pv[1], "LD_LIBRARY_PATH", &p->ld_library_path,
	    sep, err) != 0) {
		prep_free(pr);
		return -1;
	}
	return 0;
}

void
prep_free(struct prep *pr)
{
	free(pr->ident);
	free(pr->deact);
	for (int i = 0; i < 2; i++) {
		strv_free(&pr->pv[i].prepend);
		strv_free(&pr->pv[i].remove);
		strv_free(&pr->pv[i].keys);
	}
	memset(pr, 0, sizeof *pr);
}

/* One comment line; control bytes become spaces so no note, name or
 * version can end the comment and become code. */
static void
comment(struct strbuf *sb, const char *cmt, const char *a, const char *b)
{
	strbuf_puts(sb, cmt);
	for (int part = 0; part < 2; part++)
		for (const char *s = part == 0 ? a : b; s != NULL && *s != '\0'; s++)
			strbuf_putc(sb, (unsigned char)*s < 0x20 || *s == 0x7f ?
			    ' ' : *s);
	strbuf_putc(sb, '\n');
}

void
emit_header(struct strbuf *sb, const struct prep *pr, const char *version,
    const char *use, const char *undo, const char *const *extra)
{
	const struct env_plan *p = pr->plan;
	const char *cmt = pr->w->comment;

	comment(sb, cmt, " cudawiz-format: ", pr->format);
	comment(sb, cmt, " cudawiz-env: ", p->name);
	comment(sb, cmt, " Written by cudawiz ", version != NULL ? version : "?");
	if (p->notes.n > 0) {
		comment(sb, cmt, " What it does:", NULL);
		for (size_t i = 0; i < p->notes.n; i++)
			comment(sb, cmt, "   ", p->notes.v[i]);
	}
	comment(sb, cmt, " Use:  ", use);
	comment(sb, cmt, " Undo: ", undo);
	for (; extra != NULL && *extra != NULL; extra++)
		comment(sb, cmt, " ", *extra);
	strbuf_putc(sb, '\n');
}
