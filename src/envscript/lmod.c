/* Lmod: a Lua modulefile. Each variable is computed in Lua from its value
 * at load time (the same rules as every other format) and set with
 * pushenv(), which Lmod reverses on `module unload` by restoring the
 * value it replaced; Lmod itself refuses to load a loaded module again,
 * so loading twice is loading once.
 *
 * Limit (Lmod's): pushenv keeps no difference between an empty and an
 * unset variable, so a variable that was empty before the load is unset
 * after the unload; and Lmod 8.6 keeps the replaced value base64-encoded
 * in __LMOD_STACK_<VAR>, whose decoder can garble non-ASCII bytes of the
 * value it restores. A list left with no entries is unset (pushenv with
 * false). A directory or value with a newline is refused: Lmod's shell
 * code would let it out of its quotes. Lmod keeps its own __LMOD_STACK_*
 * variables after an unload. Strings are Lua "..." literals with \\, \", \n and \ddd
 * escapes, so nothing in a path is code. */
#include "config.h"

#include <stdio.h>

#include "envscript/common.h"
#include "i18n.h"

static void
lua_quote(struct strbuf *sb, const char *s)
{
	strbuf_putc(sb, '"');
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\' || c == '"')
			strbuf_printf(sb, "\\%c", c);
		else if (c == '\n')
			strbuf_puts(sb, "\\n");
		else if (c < 0x20 || c == 0x7f)
			strbuf_printf(sb, "\\%03u", c);
		else
			strbuf_putc(sb, (char)c);
	}
	strbuf_putc(sb, '"');
}

static const char edit_fn[] =
"-- cudawiz_edit(NAME, PREPEND, DROP, STUBS, MISSING): PREPEND's entries,\n"
"-- then NAME's entries that are not empty, not in DROP (compared without\n"
"-- one trailing '/'), not a stubs directory (STUBS) and existing\n"
"-- directories (MISSING); false (unset) when none is left.\n"
"local function cudawiz_edit(name, prepend, drop, stubs, missing)\n"
"\tlocal new = {}\n"
"\tfor _, p in ipairs(prepend) do new[#new + 1] = p end\n"
"\tlocal old = os.getenv(name) or \"\"\n"
"\tfor e in (old .. \":\"):gmatch(\"([^:]*):\") do\n"
"\t\tlocal k = e\n"
"\t\tif k:sub(-1) == \"/\" then k = k:sub(1, -2) end\n"
"\t\tlocal keep = e ~= \"\" and not drop[k]\n"
"\t\tif keep and stubs and (k == \"stubs\" or k:sub(-6) == \"/stubs\") then\n"
"\t\t\tkeep = false\n"
"\t\tend\n"
"\t\tif keep and missing and not isDir(e) then keep = false end\n"
"\t\tif keep then new[#new + 1] = e end\n"
"\tend\n"
"\tif #new == 0 then return false end\n"
"\treturn table.concat(new, \":\")\n"
"end\n\n";

static int
render_lmod(const struct prep *pr, const char *version,
    struct script_text *out, char **err)
{
	struct strbuf sb = STRBUF_INIT;
	static const char *const extra[] = {
		"An Lmod modulefile. Loading it changes the variables as they are",
		"at that moment; module unload restores them (Lmod cannot tell an",
		"empty variable from an unset one: an empty one comes back unset).",
		"A list left with no entries is unset.",
		NULL
	};

	if (refuse_newlines(pr, err) != 0)
		return -1;
	emit_header(&sb, pr, version, "module use DIR; module load NAME",
	    "module unload NAME", extra);
	strbuf_puts(&sb, "whatis(");
	lua_quote(&sb, pr->plan->name);
	strbuf_puts(&sb, ")\n");
	for (size_t i = 0; i < pr->plan->notes.n; i++) {
		strbuf_puts(&sb, "whatis(");
		lua_quote(&sb, pr->plan->notes.v[i]);
		strbuf_puts(&sb, ")\n");
	}
	strbuf_putc(&sb, '\n');
	if (pr->pv[0].touched || pr->pv[1].touched)
		strbuf_puts(&sb, edit_fn);
	for (int i = 0; i < 2; i++) {
		const struct pv_prep *pp = &pr->pv[i];

		if (!pp->touched)
			continue;
		strbuf_printf(&sb, "pushenv(\"%s\", cudawiz_edit(\"%s\", {", pp->name,
		    pp->name);
		for (size_t j = 0; j < pp->prepend.n; j++) {
			strbuf_puts(&sb, j > 0 ? ", " : "");
			lua_quote(&sb, pp->prepend.v[j]);
		}
		strbuf_puts(&sb, "},\n    {");
		for (size_t j = 0; j < pp->keys.n; j++) {
			strbuf_puts(&sb, j > 0 ? ", [" : "[");
			lua_quote(&sb, pp->keys.v[j]);
			strbuf_puts(&sb, "] = true");
		}
		strbuf_printf(&sb, "}, %s, %s))\n", pp->stubs ? "true" : "false",
		    pp->missing ? "true" : "false");
	}
	for (int i = 0; i < 2; i++) {
		const struct var_prep *vp = &pr->var[i];

		if (vp->v->op == PLAN_VAR_SET) {
			strbuf_printf(&sb, "pushenv(\"%s\", ", vp->name);
			lua_quote(&sb, vp->v->value);
			strbuf_puts(&sb, ")\n");
		} else if (vp->v->op == PLAN_VAR_UNSET) {
			strbuf_printf(&sb, "pushenv(\"%s\", false)\n", vp->name);
		}
	}
	out->text = strbuf_take(&sb);
	return 0;
}

static const char *const aliases[] = { "lua", NULL };
static const char *const suffixes[] = { ".lua", NULL };
static const char *const run_progs[] = { "bash", NULL };
static const char *const inits[] = {
	"/usr/share/lmod/lmod/init/bash", "/usr/share/lmod/6.6/init/bash",
	"/opt/apps/lmod/lmod/init/bash", "/usr/local/lmod/lmod/init/bash", NULL
};
static const struct script_modsys lmod = { "Lmod", "LMOD_PKG", inits };

const struct script_writer script_lmod = {
	.name = "lmod",
	.aliases = aliases,
	.comment = "--",
	.render = render_lmod,
	.use = use_module,
	.module_ext = ".lua",
	.what = N_("an Lmod modulefile (Lua)"),
	.file = "./cudawiz-env.lua",
	.suffixes = suffixes,
	.run = { .progs = run_progs, .want = "bash", .argv0 = "bash",
	    .args = module_run_args, .modsys = &lmod },
};
