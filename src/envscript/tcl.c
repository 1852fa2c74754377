/* Environment Modules (5.x): a Tcl modulefile. Each variable is computed
 * in Tcl from its value at load time (the same rules as every other
 * format). Modules' own pushenv cannot serve: it keeps its stack in a
 * ':'-separated variable, so a saved list would be cut at its first ':'.
 * Instead the file saves each variable's old state in its own variable,
 * __CUDAWIZ_<ident>_<VAR> ("1" + the value, or "0" for unset), and on
 * `module unload` uses the reversal Modules gives each command: an
 * `unsetenv VAR OLD` is undone by setting VAR to OLD, a `setenv` by
 * unsetting VAR, so the old state comes back exactly (unset stays unset,
 * empty stays empty) and the saved state goes with it. Modules does not
 * load a loaded module again, so loading twice is loading once.
 *
 * A directory or value with a newline is refused: Modules' shell code
 * would let it out of its quotes.
 *
 * Strings are Tcl "..." words with \ \" \$ \[ \] \{ \} \; and control
 * characters escaped, so nothing in a path is substituted or run. */
#include "config.h"

#include "envscript/common.h"
#include "i18n.h"

static void
tcl_quote(struct strbuf *sb, const char *s)
{
	strbuf_putc(sb, '"');
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\' || c == '"' || c == '$' || c == '[' || c == ']' ||
		    c == '{' || c == '}' || c == ';')
			strbuf_printf(sb, "\\%c", c);
		else if (c == '\n')
			strbuf_puts(sb, "\\n");
		else if (c < 0x20 || c == 0x7f)
			strbuf_printf(sb, "\\%03o", c);
		else
			strbuf_putc(sb, (char)c);
	}
	strbuf_putc(sb, '"');
}

static const char edit_proc[] =
"# cudawiz_edit NAME PREPEND DROP STUBS MISSING: PREPEND's entries, then\n"
"# NAME's entries that are not empty, not in DROP (compared without one\n"
"# trailing '/'), not a stubs directory (STUBS) and existing directories\n"
"# (MISSING), joined with ':'; \"\" when none is left.\n"
"proc cudawiz_edit {name prepend drop stubs missing} {\n"
"\tset new $prepend\n"
"\tif {[info exists ::env($name)]} {\n"
"\t\tforeach e [split $::env($name) :] {\n"
"\t\t\tif {$e eq {}} continue\n"
"\t\t\tset k $e\n"
"\t\t\tif {[string index $k end] eq {/}} {\n"
"\t\t\t\tset k [string range $k 0 end-1]\n"
"\t\t\t}\n"
"\t\t\tif {[lsearch -exact $drop $k] >= 0} continue\n"
"\t\t\tif {$stubs && ($k eq {stubs} || [string range $k end-5 end] eq {/stubs})} continue\n"
"\t\t\tif {$missing && ![file isdirectory $e]} continue\n"
"\t\t\tlappend new $e\n"
"\t\t}\n"
"\t}\n"
"\treturn [join $new :]\n"
"}\n\n";

static int
render_tcl(const struct prep *pr, const char *version, struct script_text *out,
    char **err)
{
	struct strbuf sb = STRBUF_INIT;
	static const char *const extra[] = {
		"A Tcl modulefile for Environment Modules 5. Loading it",
		"changes the variables as they are at that moment; module unload",
		"restores them exactly (unset stays unset, empty stays empty).",
		"A list left with no entries is unset.",
		NULL
	};

	if (refuse_newlines(pr, err) != 0)
		return -1;
	strbuf_puts(&sb, "#%Module1.0\n");
	emit_header(&sb, pr, version, "module use DIR; module load NAME",
	    "module unload NAME", extra);
	strbuf_puts(&sb, "module-whatis ");
	tcl_quote(&sb, pr->plan->name);
	strbuf_puts(&sb, "\n\n");
	if (pr->pv[0].touched || pr->pv[1].touched)
		strbuf_puts(&sb, edit_proc);
	for (int i = 0; i < 4; i++) {
		const struct pv_prep *pp = i < 2 ? &pr->pv[i] : NULL;
		const struct var_prep *vp = i < 2 ? NULL : &pr->var[i - 2];
		const char *n = pp != NULL ? pp->name : vp->name;

		if (pp != NULL ? !pp->touched : vp->v->op == PLAN_VAR_KEEP)
			continue;
		strbuf_printf(&sb, "# %s\nset cudawiz_s __CUDAWIZ_%s_%s\n"
		    "if {[module-info mode unload]} {\n"
		    "\tset cudawiz_o [expr {[info exists ::env($cudawiz_s)] ? "
		    "$::env($cudawiz_s) : {0}}]\n"
		    "\tif {[string index $cudawiz_o 0] eq {1}} {\n"
		    "\t\tunsetenv %s [string range $cudawiz_o 1 end]\n"
		    "\t} else {\n\t\tsetenv %s {}\n\t}\n"
		    "\tsetenv $cudawiz_s {}\n} else {\n"
		    "\tsetenv $cudawiz_s [expr {[info exists ::env(%s)] ? "
		    "\"1$::env(%s)\" : {0}}]\n", n, pr->ident, n, n, n, n, n);
		if (pp != NULL) {
			strbuf_printf(&sb, "\tset cudawiz_v [cudawiz_edit %s [list", n);
			for (size_t j = 0; j < pp->prepend.n; j++) {
				strbuf_putc(&sb, ' ');
				tcl_quote(&sb, pp->prepend.v[j]);
			}
			strbuf_puts(&sb, "] [list");
			for (size_t j = 0; j < pp->keys.n; j++) {
				strbuf_putc(&sb, ' ');
				tcl_quote(&sb, pp->keys.v[j]);
			}
			strbuf_printf(&sb, "] %d %d]\n\tif {$cudawiz_v eq {}} {\n"
			    "\t\tunsetenv %s\n\t} else {\n\t\tsetenv %s $cudawiz_v\n"
			    "\t}\n}\n", pp->stubs, pp->missing, n, n);
		} else if (vp->v->op == PLAN_VAR_SET) {
			strbuf_printf(&sb, "\tsetenv %s ", n);
			tcl_quote(&sb, vp->v->value);
			strbuf_puts(&sb, "\n}\n");
		} else {
			strbuf_printf(&sb, "\tunsetenv %s\n}\n", n);
		}
	}
	out->text = strbuf_take(&sb);
	return 0;
}

static const char *const aliases[] = { "modules", NULL };
static const char *const run_progs[] = { "bash", NULL };
static const char *const inits[] = {
	"/usr/share/modules/init/bash", "/usr/share/Modules/init/bash",
	"/etc/profile.d/modules.sh", NULL
};
static const struct script_modsys modules = { "Environment Modules",
    "MODULESHOME", inits };

const struct script_writer script_tcl = {
	.name = "tcl",
	.aliases = aliases,
	.comment = "#",
	.render = render_tcl,
	.use = use_module,
	.what = N_("an Environment Modules modulefile (Tcl)"),
	.file = "./cudawiz-env.tcl",
	.head = "#%Module",
	.run = { .progs = run_progs, .want = "bash", .argv0 = "bash",
	    .args = module_run_args, .modsys = &modules },
};
