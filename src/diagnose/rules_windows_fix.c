/* The Windows rules' fix lines and the quoting each shell needs: the
 * PowerShell and cmd.exe lines that put a directory first on PATH, the
 * Python line that adds a DLL directory. See rules_windows_int.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/rules_install_plan.h"
#include "diagnose/rules_loader_int.h"
#include "diagnose/rules_windows.h"
#include "diagnose/rules_windows_int.h"
#include "i18n.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "winload/winname.h"

/* ------------------------------------------------------------ strings */

/* s begins with prefix, compared as NTFS compares names. */
bool
rw_iprefix(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return strlen(s) >= n && winname_eqn(s, n, prefix);
}

char *
rw_ps_quote(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_putc(&sb, '\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			strbuf_putc(&sb, '\'');
		strbuf_putc(&sb, *s);
	}
	strbuf_putc(&sb, '\'');
	return strbuf_take(&sb);
}

/* A Python string literal for a Windows path: r"…" when that can hold
 * it (no '"', not ending in '\'), else "…" with '\' and '"' escaped. */
static char *
py_quote(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = strlen(s);

	if (strchr(s, '"') == NULL && (n == 0 || s[n - 1] != '\\')) {
		strbuf_printf(&sb, "r\"%s\"", s);
		return strbuf_take(&sb);
	}
	strbuf_putc(&sb, '"');
	for (; *s != '\0'; s++) {
		if (*s == '\\' || *s == '"')
			strbuf_putc(&sb, '\\');
		strbuf_putc(&sb, *s);
	}
	strbuf_putc(&sb, '"');
	return strbuf_take(&sb);
}

/* ---------------------------------------------------------- fix lines */

void
rw_comment_owned(struct finding *f, char *text)
{
	lr_fix_comment(f, text);
	free(text);
}

static void
ps_comment(struct finding *f, const char *text)
{
	strv_pushf(&f->fix, "# PowerShell: %s", text);
}

static void
cmd_comment(struct finding *f, const char *text)
{
	strv_pushf(&f->fix, "rem cmd.exe: %s", text);
}

/* The lines that put dir first on PATH: for the PowerShell session, for
 * the user, for a cmd.exe window. cmd's set cannot carry a '"' (no file
 * name holds one on Windows) nor a '%' that could expand, so such a path
 * gets words instead of a line. */
void
rw_fix_path_first(struct finding *f, const char *dir)
{
	char *entry = xasprintf("%s;", dir);
	char *q = rw_ps_quote(entry);

	ps_comment(f, _("for this session, put the directory first on PATH:"));
	ip_fix_line(f, xasprintf("$env:PATH = %s + $env:PATH", q));
	/* Not [Environment]::SetEnvironmentVariable(..., 'User'): it reads
	 * the user's PATH with its %VAR% entries expanded and writes it back
	 * as REG_SZ, so those entries stop following their variables
	 * (dotnet/runtime#1442, #89695). The registry value is read as it is
	 * and written back as REG_EXPAND_SZ. */
	ps_comment(f, _("for your user, from your next sign-in (the user PATH "
	    "in the registry, its %VAR% entries kept as they are):"));
	ip_fix_line(f, xasprintf("Set-ItemProperty -Path 'HKCU:\\Environment' "
	    "-Name Path -Type ExpandString -Value (%s + (Get-Item "
	    "'HKCU:\\Environment').GetValue('Path', '', "
	    "'DoNotExpandEnvironmentNames'))", q));
	if (strchr(dir, '"') != NULL || strchr(dir, '%') != NULL) {
		cmd_comment(f, _("this path holds a double quote or a percent sign, "
		    "which cmd.exe's set cannot carry safely; use the PowerShell lines"));
	} else {
		cmd_comment(f, _("for this window, put the directory first on PATH:"));
		ip_fix_line(f, xasprintf("set \"PATH=%s;%%PATH%%\"", dir));
	}
	free(q);
	free(entry);
}

void
rw_fix_add_dll_directory(struct finding *f, const char *fwname, const char *dir)
{
	char *q = py_quote(dir);
	char *c = xasprintf(_("before the first import of %s, in your program:"),
	    fwname);

	strv_pushf(&f->fix, "# Python: %s", c);
	ip_fix_line(f, xasprintf("import os; os.add_dll_directory(%s)", q));
	free(c);
	free(q);
}
