/* PowerShell, on Windows and on Linux (pwsh). The list separator is
 * [IO.Path]::PathSeparator: on Windows (';') the script edits PATH with
 * the plan's Windows lists (win_path_prepend/remove: the directories of
 * cudart64_*.dll and cudnn64_*.dll), comparing without case and without
 * one trailing '/' or '\'; on Linux (':') it edits PATH and
 * LD_LIBRARY_PATH with the plan's lists. CUDA_HOME and CUDA_PATH as the
 * plan says, on both.
 *
 * The values before the first activation are kept in a global hashtable
 * ($null for unset); a second activation keeps it, and the deactivate
 * function restores it. The editing runs in a script block, so its
 * helper function and variables vanish with it. Strings are in single
 * quotes, where only a quote is special; PowerShell also takes the
 * typographic quotes U+2018..U+201B for one, so those are doubled too.
 *
 * Limit (.NET's): setting a variable to "" removes it, so PowerShell has
 * no empty variables; one that was empty before comes back unset. */
#include "config.h"

#include <string.h>

#include "envscript/common.h"
#include "i18n.h"

static void
ps_quote(struct strbuf *sb, const char *s)
{
	strbuf_putc(sb, '\'');
	for (; *s != '\0'; s++) {
		const unsigned char *u = (const unsigned char *)s;

		if (*s == '\'') {
			strbuf_puts(sb, "''");
		} else if (u[0] == 0xe2 && u[1] == 0x80 && u[2] >= 0x98 &&
		    u[2] <= 0x9b) {
			strbuf_add(sb, s, 3);
			strbuf_add(sb, s, 3);
			s += 2;
		} else {
			strbuf_putc(sb, *s);
		}
	}
	strbuf_putc(sb, '\'');
}

static void
ps_array(struct strbuf *sb, const struct strv *a, const struct strv *b)
{
	size_t n = 0;

	strbuf_puts(sb, "@(");
	for (int l = 0; l < 2; l++) {
		const struct strv *v = l == 0 ? a : b;

		for (size_t i = 0; v != NULL && i < v->n; i++) {
			if (*v->v[i] == '\0')
				continue;
			strbuf_puts(sb, n++ > 0 ? ", " : "");
			ps_quote(sb, v->v[i]);
		}
	}
	strbuf_putc(sb, ')');
}

static const char edit_fn[] =
"\t# Edit NAME PREPEND DROP STUBS MISSING: PREPEND's entries, then NAME's\n"
"\t# entries that are not empty, not in DROP (compared without one\n"
"\t# trailing separator), not a stubs directory (STUBS) and existing\n"
"\t# directories (MISSING); unset when none is left.\n"
"\tfunction Edit([string]$name, [string[]]$prepend, [string[]]$drop,\n"
"\t    [bool]$stubs, [bool]$missing) {\n"
"\t\tfunction Key([string]$e) {\n"
"\t\t\tif ($e.EndsWith('/') -or ($win -and $e.EndsWith('\\'))) {\n"
"\t\t\t\treturn $e.Substring(0, $e.Length - 1)\n"
"\t\t\t}\n"
"\t\t\treturn $e\n"
"\t\t}\n"
"\t\t$cmp = if ($win) { [StringComparer]::OrdinalIgnoreCase } else { [StringComparer]::Ordinal }\n"
"\t\t$keys = @($drop + $prepend | ForEach-Object { Key $_ })\n"
"\t\t$new = [Collections.Generic.List[string]]::new()\n"
"\t\tforeach ($p in $prepend) { $new.Add($p) }\n"
"\t\t$old = [Environment]::GetEnvironmentVariable($name)\n"
"\t\tif ($old) {\n"
"\t\t\tforeach ($e in $old.Split($sep)) {\n"
"\t\t\t\tif ($e -eq '') { continue }\n"
"\t\t\t\t$k = Key $e\n"
"\t\t\t\tif (@($keys | Where-Object { $cmp.Equals($_, $k) }).Count -gt 0) { continue }\n"
"\t\t\t\t$seps = if ($win) { [char[]]@('/', '\\') } else { [char[]]@('/') }\n"
"\t\t\t\t$last = $k.Substring($k.LastIndexOfAny($seps) + 1)\n"
"\t\t\t\tif ($stubs -and $cmp.Equals($last, 'stubs')) { continue }\n"
"\t\t\t\tif ($missing -and -not [IO.Directory]::Exists($e)) { continue }\n"
"\t\t\t\t$new.Add($e)\n"
"\t\t\t}\n"
"\t\t}\n"
"\t\tif ($new.Count -eq 0) {\n"
"\t\t\t[Environment]::SetEnvironmentVariable($name, $null)\n"
"\t\t} else {\n"
"\t\t\t[Environment]::SetEnvironmentVariable($name, ($new -join $sep))\n"
"\t\t}\n"
"\t}\n";

static void
edit_call(struct strbuf *sb, const char *name, const struct strv *prepend,
    const struct strv *drop, bool stubs, bool missing, const char *in)
{
	strbuf_printf(sb, "%sEdit '%s' ", in, name);
	ps_array(sb, prepend, NULL);
	strbuf_putc(sb, ' ');
	ps_array(sb, drop, NULL);
	strbuf_printf(sb, " $%s $%s\n", stubs ? "true" : "false",
	    missing ? "true" : "false");
}

static int
render_pwsh(const struct prep *pr, const char *version,
    struct script_text *out, char **err)
{
	struct strbuf sb = STRBUF_INIT;
	const struct env_plan *p = pr->plan;
	const char *id = pr->ident;
	bool lin = pr->pv[0].touched || pr->pv[1].touched;
	bool win = p->win_path_prepend.n > 0 || p->win_path_remove.n > 0;
	static const char *const extra[] = {
		"For PowerShell on Windows (PATH with the Windows directories) and",
		"on Linux (PATH and LD_LIBRARY_PATH). It changes the variables as",
		"they are when it is dot-sourced; doing it again changes nothing",
		"more, and the undo restores them as they were before the first",
		"time (PowerShell has no empty variables: an empty one comes back",
		"unset). A list left with no entries is unset.",
		NULL
	};

	for (int l = 0; l < 2; l++) {
		const struct strv *v = l == 0 ? &p->win_path_prepend :
		    &p->win_path_remove;

		for (size_t i = 0; i < v->n; i++)
			if (strchr(v->v[i], ';') != NULL)
				return unwritable(pr, "PATH (Windows)", v->v[i],
				    _("holds a ';', which separates the entries of "
				    "the list"), err);
	}
	emit_header(&sb, pr, version, ". FILE   (dot-sourced)", pr->deact,
	    extra);
	strbuf_printf(&sb, "# Keep the values of before the first activation "
	    "for the way back.\nif (-not (Get-Variable -Name '_cudawiz_%s_saved' "
	    "-Scope Global -ErrorAction SilentlyContinue)) {\n"
	    "\t$global:_cudawiz_%s_saved = @{}\n\tforeach ($n in @(", id, id);
	{
		const char *names[4] = { "PATH", "LD_LIBRARY_PATH", "CUDA_HOME",
		    "CUDA_PATH" };
		bool used[4] = { pr->pv[0].touched || win, pr->pv[1].touched,
		    pr->var[0].v->op != PLAN_VAR_KEEP,
		    pr->var[1].v->op != PLAN_VAR_KEEP };
		size_t n = 0;

		/* Only what the plan changes: the way back must not undo what
		 * the user changed in the other variables meanwhile. */
		for (int i = 0; i < 4; i++)
			if (used[i])
				strbuf_printf(&sb, "%s'%s'", n++ > 0 ? ", " : "",
				    names[i]);
	}
	strbuf_printf(&sb, ")) {\n\t\t$global:_cudawiz_%s_saved[$n] = "
	    "[Environment]::GetEnvironmentVariable($n)\n\t}\n}\n\n", id);
	if (lin || win) {
		strbuf_puts(&sb, "& {\n\t$sep = [IO.Path]::PathSeparator\n"
		    "\t$win = $sep -eq ';'\n");
		strbuf_puts(&sb, edit_fn);
		strbuf_puts(&sb, "\tif ($win) {\n");
		if (win)
			edit_call(&sb, "PATH", &p->win_path_prepend,
			    &p->win_path_remove, false, false, "\t\t");
		strbuf_puts(&sb, "\t} else {\n");
		for (int i = 0; i < 2; i++) {
			const struct pv_prep *pp = &pr->pv[i];

			if (pp->touched)
				edit_call(&sb, pp->name, &pp->prepend, &pp->remove,
				    pp->stubs, pp->missing, "\t\t");
		}
		strbuf_puts(&sb, "\t}\n}\n");
	}
	for (int i = 0; i < 2; i++) {
		const struct var_prep *vp = &pr->var[i];

		if (vp->v->op == PLAN_VAR_SET) {
			strbuf_printf(&sb, "[Environment]::SetEnvironmentVariable('%s', ",
			    vp->name);
			ps_quote(&sb, vp->v->value);
			strbuf_puts(&sb, ")\n");
		} else if (vp->v->op == PLAN_VAR_UNSET) {
			strbuf_printf(&sb, "[Environment]::SetEnvironmentVariable('%s', "
			    "$null)\n", vp->name);
		}
	}
	strbuf_printf(&sb, "\n# The way back.\nfunction global:%s {\n"
	    "\tif (Get-Variable -Name '_cudawiz_%s_saved' -Scope Global "
	    "-ErrorAction SilentlyContinue) {\n"
	    "\t\tforeach ($kv in $global:_cudawiz_%s_saved.GetEnumerator()) {\n"
	    "\t\t\t[Environment]::SetEnvironmentVariable($kv.Key, $kv.Value)\n"
	    "\t\t}\n\t\tRemove-Variable -Name '_cudawiz_%s_saved' -Scope Global\n"
	    "\t}\n\tRemove-Item -Path 'Function:\\%s' -ErrorAction "
	    "SilentlyContinue\n}\n", pr->deact, id, id, id, pr->deact);
	out->text = strbuf_take(&sb);
	return 0;
}

static int
quote_word(struct strbuf *sb, const char *s)
{
	ps_quote(sb, s);
	return 0;
}

static const char *const aliases[] = { "pwsh", NULL };
static const char *const suffixes[] = { ".ps1", NULL };
static const char *const run_progs[] = { "pwsh", NULL };
static const char *const run_args[] = {
	"-NoProfile", "-NonInteractive", "-Command", ". $env:CW_FILE; "
	    "printf '\\n%s\\n' $env:CW_MARK; env -0",
	NULL
};

const struct script_writer script_pwsh = {
	.name = "powershell",
	.aliases = aliases,
	.comment = "#",
	.render = render_pwsh,
	.source_verb = ". ",
	.quote = quote_word,
	.use = use_source,
	.what = N_("PowerShell (Windows PATH, CUDA_PATH)"),
	.file = "./cudawiz-env.ps1",
	.suffixes = suffixes,
	.run = { .progs = run_progs, .want = "pwsh", .argv0 = "pwsh",
	    .args = run_args },
};
