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
 * no empty variables; one that was empty before comes back unset.
 *
 * --scope user (plan->win_user) also changes HKCU\Environment through
 * the .NET registry API (user_apply, user_undo below) and announces it
 * with WM_SETTINGCHANGE; on Linux that part only warns. */
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

/* The DLL search and new consoles read the user's environment as
 * Explorer holds it: tell every window it changed (WM_SETTINGCHANGE,
 * "Environment"), as the Environment Variables dialog does. A failure
 * changes nothing that was written. */
static const char broadcast[] =
"\ttry {\n"
"\t\tif (-not ('Cudawiz.Native' -as [type])) {\n"
"\t\t\tAdd-Type -Namespace Cudawiz -Name Native -MemberDefinition "
"'[DllImport(\"user32.dll\", CharSet = CharSet.Unicode)] public static "
"extern IntPtr SendMessageTimeout(IntPtr hWnd, uint Msg, UIntPtr wParam, "
"string lParam, uint fuFlags, uint uTimeout, out UIntPtr lpdwResult);'\n"
"\t\t}\n"
"\t\t$r = [UIntPtr]::Zero\n"
"\t\t[void][Cudawiz.Native]::SendMessageTimeout([IntPtr]0xffff, 0x1a, "
"[UIntPtr]::Zero, 'Environment', 2, 5000, [ref]$r)\n"
"\t} catch { }\n";

/* The names of HKCU\Environment the plan changes, ';'-separated. */
static void
user_names(struct strbuf *sb, const struct prep *pr)
{
	const struct env_plan *p = pr->plan;
	size_t n = 0;

	if (p->win_path_prepend.n > 0)	/* the user's Path is only added to */
		strbuf_printf(sb, "%sPath", n++ > 0 ? ";" : "");
	for (int i = 1; i >= 0; i--)
		if (pr->var[i].v->op != PLAN_VAR_KEEP)
			strbuf_printf(sb, "%s%s", n++ > 0 ? ";" : "",
			    pr->var[i].name);
}

/* --scope user: the same change made to HKCU\Environment, its values
 * read unexpanded (a %USERPROFILE%\bin entry stays one) and Path written
 * back as REG_EXPAND_SZ; the values found the first time are recorded
 * under HKCU\Software\cudawiz\env\<name> (an absent one by its name
 * alone in Recorded) for the undo. */
static void
user_apply(struct strbuf *sb, const struct prep *pr)
{
	const struct env_plan *p = pr->plan;
	struct strbuf names = STRBUF_INIT;

	user_names(&names, pr);
	if (names.len == 0) {
		strbuf_puts(sb, "\n# Scope user: the plan changes nothing of the "
		    "Windows environment.\n");
		strbuf_free(&names);
		return;
	}
	strbuf_printf(sb, "\n# Your user environment (HKCU\\Environment), "
	    "which the consoles opened from now on start with.\n& {\n"
	    "\tif ([IO.Path]::PathSeparator -ne ';') {\n"
	    "\t\tWrite-Warning 'cudawiz: the user environment is the Windows "
	    "registry''s; nothing changed there on this system'\n"
	    "\t\treturn\n\t}\n"
	    "\t$hkcu = [Microsoft.Win32.Registry]::CurrentUser\n"
	    "\t$envKey = $hkcu.CreateSubKey('Environment')\n"
	    "\t$recKey = $hkcu.CreateSubKey('Software\\cudawiz\\env\\%s')\n"
	    "\t$raw = [Microsoft.Win32.RegistryValueOptions]::DoNotExpandEnvironmentNames\n"
	    "\ttry {\n"
	    "\t\tif ($null -eq $recKey.GetValue('Recorded')) {\n"
	    "\t\t\tforeach ($n in '%s'.Split(';')) {\n"
	    "\t\t\t\t$v = $envKey.GetValue($n, $null, $raw)\n"
	    "\t\t\t\tif ($null -ne $v) { $recKey.SetValue($n, $v, "
	    "$envKey.GetValueKind($n)) }\n"
	    "\t\t\t}\n"
	    "\t\t\t$recKey.SetValue('Recorded', '%s', 'String')\n"
	    "\t\t}\n", p->name, strbuf_str(&names), strbuf_str(&names));
	/* Only the plan's directories first, as cmd.c's user part says why:
	 * another toolkit's bin stays in the user's Path. */
	if (p->win_path_prepend.n > 0) {
		strbuf_puts(sb, "\t\t$prepend = ");
		ps_array(sb, &p->win_path_prepend, NULL);
		strbuf_puts(sb, "\n\t\t$drop = @()");
		strbuf_puts(sb, "\n"
		    "\t\t$keys = @($drop + $prepend | ForEach-Object { $_.TrimEnd('\\', '/') })\n"
		    "\t\t$new = [Collections.Generic.List[string]]::new()\n"
		    "\t\tforeach ($e in $prepend) { $new.Add($e) }\n"
		    "\t\t$old = $envKey.GetValue('Path', $null, $raw)\n"
		    "\t\tif ($old) {\n"
		    "\t\t\tforeach ($e in $old.Split(';')) {\n"
		    "\t\t\t\tif ($e -eq '') { continue }\n"
		    "\t\t\t\t$k = $e.TrimEnd('\\', '/')\n"
		    "\t\t\t\tif (@($keys | Where-Object { $_ -ieq $k }).Count -gt 0) { continue }\n"
		    "\t\t\t\t$new.Add($e)\n"
		    "\t\t\t}\n"
		    "\t\t}\n"
		    "\t\tif ($new.Count -eq 0) { $envKey.DeleteValue('Path', $false) }\n"
		    "\t\telse { $envKey.SetValue('Path', ($new -join ';'), 'ExpandString') }\n");
	}
	for (int i = 0; i < 2; i++) {
		const struct var_prep *vp = &pr->var[i];

		if (vp->v->op == PLAN_VAR_SET) {
			strbuf_printf(sb, "\t\t$kind = if ($envKey.GetValue('%s') "
			    "-ne $null) { $envKey.GetValueKind('%s') } else { 'String' }\n"
			    "\t\t$envKey.SetValue('%s', ", vp->name, vp->name,
			    vp->name);
			ps_quote(sb, vp->v->value);
			strbuf_puts(sb, ", $kind)\n");
		} else if (vp->v->op == PLAN_VAR_UNSET) {
			strbuf_printf(sb, "\t\t$envKey.DeleteValue('%s', $false)\n",
			    vp->name);
		}
	}
	strbuf_puts(sb, "\t} finally {\n\t\t$envKey.Close()\n"
	    "\t\t$recKey.Close()\n\t}\n");
	strbuf_puts(sb, broadcast);
	strbuf_puts(sb, "}\n");
	strbuf_free(&names);
}

/* The undo's part for --scope user: the recorded values put back with
 * their types, the absent ones deleted again, the record removed. */
static void
user_undo(struct strbuf *sb, const struct prep *pr)
{
	strbuf_printf(sb, "\tif ([IO.Path]::PathSeparator -eq ';') {\n"
	    "\t\t$hkcu = [Microsoft.Win32.Registry]::CurrentUser\n"
	    "\t\t$rec = 'Software\\cudawiz\\env\\%s'\n"
	    "\t\t$recKey = $hkcu.OpenSubKey($rec)\n"
	    "\t\tif ($null -ne $recKey) {\n"
	    "\t\t\t$raw = [Microsoft.Win32.RegistryValueOptions]::DoNotExpandEnvironmentNames\n"
	    "\t\t\t$envKey = $hkcu.CreateSubKey('Environment')\n"
	    "\t\t\tforeach ($n in ([string]$recKey.GetValue('Recorded')).Split(';')) {\n"
	    "\t\t\t\tif ($n -eq '') { continue }\n"
	    "\t\t\t\t$v = $recKey.GetValue($n, $null, $raw)\n"
	    "\t\t\t\tif ($null -eq $v) { $envKey.DeleteValue($n, $false) }\n"
	    "\t\t\t\telse { $envKey.SetValue($n, $v, $recKey.GetValueKind($n)) }\n"
	    "\t\t\t}\n"
	    "\t\t\t$envKey.Close()\n\t\t\t$recKey.Close()\n"
	    "\t\t\t$hkcu.DeleteSubKeyTree($rec, $false)\n",
	    pr->plan->name);
	{
		/* the broadcast, one level deeper */
		struct strbuf b = STRBUF_INIT;

		for (const char *c = broadcast; *c != '\0'; c++) {
			if (c == broadcast || c[-1] == '\n')
				strbuf_puts(&b, "\t\t");
			strbuf_putc(&b, *c);
		}
		strbuf_puts(sb, strbuf_str(&b));
		strbuf_free(&b);
	}
	strbuf_puts(sb, "\t\t}\n\t}\n");
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
	static const char *const extra_user[] = {
		"Scope user: it also changes your user environment in the",
		"registry (HKCU\\Environment: Path, kept as REG_EXPAND_SZ, and",
		"CUDA_PATH), which the consoles you open from now on start with;",
		"this console gets the change at once. The undo puts back the",
		"registry values of before the first time (recorded under",
		"HKCU\\Software\\cudawiz\\env\\NAME); to undo from a new console,",
		"dot-source the file there, then run the undo. Your Path only",
		"gets the directories put first: other toolkits' stay in it for",
		"the programs that use them (only this console's PATH loses them).",
		NULL
	};
	const char *const *ex = extra;
	/* Both lists end with NULL: room for every line and one NULL. */
	const char *all[sizeof extra / sizeof extra[0] +
	    sizeof extra_user / sizeof extra_user[0]];
	size_t na = 0;

	if (p->win_user) {
		for (size_t i = 0; extra[i] != NULL; i++)
			all[na++] = extra[i];
		for (size_t i = 0; extra_user[i] != NULL; i++)
			all[na++] = extra_user[i];
		all[na] = NULL;
		ex = all;
	}
	emit_header(&sb, pr, version, ". FILE   (dot-sourced)", pr->deact, ex);
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
	if (p->win_user)
		user_apply(&sb, pr);
	strbuf_printf(&sb, "\n# The way back.\nfunction global:%s {\n", pr->deact);
	if (p->win_user)
		user_undo(&sb, pr);
	strbuf_printf(&sb, "\tif (Get-Variable -Name '_cudawiz_%s_saved' -Scope Global "
	    "-ErrorAction SilentlyContinue) {\n"
	    "\t\tforeach ($kv in $global:_cudawiz_%s_saved.GetEnumerator()) {\n"
	    "\t\t\t[Environment]::SetEnvironmentVariable($kv.Key, $kv.Value)\n"
	    "\t\t}\n\t\tRemove-Variable -Name '_cudawiz_%s_saved' -Scope Global\n"
	    "\t}\n\tRemove-Item -Path 'Function:\\%s' -ErrorAction "
	    "SilentlyContinue\n}\n", id, id, id, pr->deact);
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
	.user_scope = true,
	.suffixes = suffixes,
	.run = { .progs = run_progs, .want = "pwsh", .argv0 = "pwsh",
	    .args = run_args },
};
