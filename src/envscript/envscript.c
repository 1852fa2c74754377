/* The dispatcher: the writers' table (one row per line of formats.def)
 * and the public functions that read it. The writers and their shared
 * helpers (common.h) know nothing of this file. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "envscript/common.h"
#include "i18n.h"
#include "util/envp.h"
#include "util/xalloc.h"

static const struct script_writer *const writers[] = {
#define SCRIPT_FORMAT(e, row) [e] = &row,
#include "envscript/formats.def"
#undef SCRIPT_FORMAT
};

const struct script_writer *
script_writer(enum script_format f)
{
	if ((unsigned)f < SCRIPT_NFORMATS)
		return writers[f];
	return writers[SCRIPT_SH];
}

const char *
script_format_name(enum script_format f)
{
	return script_writer(f)->name;
}

bool
script_format_parse(const char *shell, enum script_format *out)
{
	if (shell == NULL)
		return false;
	for (int f = 0; f < SCRIPT_NFORMATS; f++) {
		const struct script_writer *w = writers[f];
		bool hit = strcmp(shell, w->name) == 0;

		for (size_t i = 0; !hit && w->aliases != NULL &&
		    w->aliases[i] != NULL; i++)
			hit = strcmp(shell, w->aliases[i]) == 0;
		if (hit) {
			*out = (enum script_format)f;
			return true;
		}
	}
	return false;
}

int
script_render(const struct env_plan *p, enum script_format f,
    const char *version, struct script_text *out, char **err)
{
	const struct script_writer *w = script_writer(f);
	struct prep pr;
	int rc;

	out->text = out->deactivate = NULL;
	if (p->win_user && ((unsigned)f >= SCRIPT_NFORMATS || !w->user_scope)) {
		*err = xasprintf(_("a %s script cannot change the user's Windows "
		    "environment (--scope user): only the powershell and cmd "
		    "scripts can"), w->name);
		return -1;
	}
	if (prep_plan(p, w, ':', &pr, err) != 0)
		return -1;
	if ((unsigned)f < SCRIPT_NFORMATS) {
		rc = w->render(&pr, version, out, err);
	} else {
		*err = xasprintf(_("unknown script format %d"), (int)f);
		rc = -1;
	}
	prep_free(&pr);
	if (rc != 0)
		script_text_free(out);
	return rc;
}

void
script_text_free(struct script_text *t)
{
	FREE(&t->text);
	FREE(&t->deactivate);
}

const char *
script_login_shell(char *const *envp)
{
	const char *sh = envp_get(envp, "SHELL"), *base;

	if (sh == NULL || *sh == '\0')
		return "sh";
	base = strrchr(sh, '/');
	return base != NULL ? base + 1 : sh;
}

char *
script_source_cmd(enum script_format f, const char *path)
{
	const struct script_writer *w = script_writer(f);
	struct strbuf sb = STRBUF_INIT;

	if ((unsigned)f >= SCRIPT_NFORMATS || w->source_verb == NULL)
		return NULL;
	source_word(&sb, w, path);
	return strbuf_take(&sb);
}

char *
script_use_lines(enum script_format f, const struct script_use *u)
{
	const struct script_writer *w = script_writer(f);
	struct strbuf sb = STRBUF_INIT;

	if ((unsigned)f < SCRIPT_NFORMATS)
		w->use(&sb, w, u);
	return strbuf_take(&sb);
}

char *
script_rc_file(enum script_format f, const char *home, const char *shell)
{
	const struct script_writer *w = script_writer(f);

	if ((unsigned)f >= SCRIPT_NFORMATS || w->rc_file == NULL)
		return NULL;
	return w->rc_file(home, shell);
}

bool
script_into_conda(enum script_format f)
{
	return (unsigned)f < SCRIPT_NFORMATS && writers[f]->into_conda;
}

bool
script_user_scope(enum script_format f)
{
	return (unsigned)f < SCRIPT_NFORMATS && writers[f]->user_scope;
}

static void
pathvar_free(struct plan_pathvar *pv)
{
	strv_free(&pv->prepend);
	strv_free(&pv->remove);
}

void
env_plan_free(struct env_plan *p)
{
	free(p->name);
	strv_free(&p->notes);
	pathvar_free(&p->path);
	pathvar_free(&p->ld_library_path);
	free(p->cuda_home.value);
	free(p->cuda_path.value);
	strv_free(&p->win_path_prepend);
	strv_free(&p->win_path_remove);
	memset(p, 0, sizeof *p);
}
