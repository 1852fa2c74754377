/* The registry reads of the Windows program's hooks. See registry.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "i18n.h"
#include "util/xalloc.h"
#include "util/wstr.h"
#include "win/registry.h"
#include "winprobe/winprobe.h"

#define DISPLAY_CLASS L"SYSTEM\\CurrentControlSet\\Control\\Class\\" \
	L"{4d36e968-e325-11ce-bfc1-08002be10318}"
#define PYTHON_CORE L"Software\\Python\\PythonCore"
#define NT_CURRENT L"SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion"

/* The string value name (NULL: the default value) of key as UTF-8,
 * owned; NULL when absent, not a string or longer than
 * WINREG_VALUE_MAX characters. REG_EXPAND_SZ is taken as written. */
static char *
value(HKEY key, const wchar_t *name)
{
	wchar_t buf[WINREG_VALUE_MAX + 1];
	DWORD type = 0, size = sizeof buf - sizeof buf[0];

	if (RegQueryValueExW(key, name, NULL, &type, (BYTE *)buf, &size) !=
	    ERROR_SUCCESS || (type != REG_SZ && type != REG_EXPAND_SZ))
		return NULL;
	/* A value need not end in its NUL. */
	buf[size / sizeof buf[0]] = L'\0';
	return buf[0] != L'\0' ? wstr_utf8(buf) : NULL;
}

/* The name of key's subkey i (at most 255 characters, the registry's
 * own limit); false past the last or on an error. */
static bool
subkey(HKEY key, DWORD i, wchar_t name[256])
{
	DWORD n = 256;

	return RegEnumKeyExW(key, i, name, &n, NULL, NULL, NULL, NULL) ==
	    ERROR_SUCCESS;
}

static bool
four_digits(const wchar_t *s)
{
	for (int i = 0; i < 4; i++)
		if (s[i] < L'0' || s[i] > L'9')
			return false;
	return s[4] == L'\0';
}

bool
winreg_gpus(void *arg, struct win_facts *f)
{
	HKEY cls;
	wchar_t name[256];
	DWORD i;

	(void)arg;
	if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, DISPLAY_CLASS, 0,
	    KEY_READ, &cls) != ERROR_SUCCESS)
		return false;
	for (i = 0; i < WINREG_SUBKEYS_MAX && subkey(cls, i, name); i++) {
		HKEY k;
		char *desc, *id, *ver, *prov;

		/* "Properties" and "Configuration" are not adapters. */
		if (!four_digits(name) ||
		    RegOpenKeyExW(cls, name, 0, KEY_READ, &k) != ERROR_SUCCESS)
			continue;
		desc = value(k, L"DriverDesc");
		id = value(k, L"MatchingDeviceId");
		ver = value(k, L"DriverVersion");
		prov = value(k, L"ProviderName");
		if (desc != NULL || id != NULL)
			winprobe_add_gpu(f, desc, id, ver, prov);
		free(desc);
		free(id);
		free(ver);
		free(prov);
		RegCloseKey(k);
	}
	if (i == WINREG_SUBKEYS_MAX && subkey(cls, i, name))
		strv_pushf(&f->notes, _("the display class key has more than "
		    "%d subkeys: only the first %d are read"),
		    WINREG_SUBKEYS_MAX, WINREG_SUBKEYS_MAX);
	RegCloseKey(cls);
	return true;
}

/* The directory of an ExecutablePath ("C:\Python311\python.exe"). */
static char *
exe_dir(char *exe)
{
	char *slash = strrchr(exe, '\\');

	if (slash == NULL) {
		free(exe);
		return NULL;
	}
	*slash = '\0';
	return exe;
}

static void
pythons_in(HKEY root, REGSAM view, struct strv *dirs)
{
	HKEY core;
	wchar_t tag[256];

	if (RegOpenKeyExW(root, PYTHON_CORE, 0, KEY_READ | view, &core) !=
	    ERROR_SUCCESS)
		return;
	for (DWORD i = 0; i < WINREG_SUBKEYS_MAX && subkey(core, i, tag); i++) {
		wchar_t path[256 + 16];
		HKEY k;
		char *dir;

		wcscpy(path, tag);
		wcscat(path, L"\\InstallPath");
		if (RegOpenKeyExW(core, path, 0, KEY_READ | view, &k) !=
		    ERROR_SUCCESS)
			continue;
		if ((dir = value(k, NULL)) == NULL &&
		    (dir = value(k, L"ExecutablePath")) != NULL)
			dir = exe_dir(dir);
		if (dir != NULL && !strv_contains(dirs, dir))
			strv_push(dirs, dir);
		free(dir);
		RegCloseKey(k);
	}
	RegCloseKey(core);
}

void
winreg_pythons(void *arg, struct strv *dirs)
{
	(void)arg;
	pythons_in(HKEY_CURRENT_USER, 0, dirs);
	pythons_in(HKEY_LOCAL_MACHINE, KEY_WOW64_64KEY, dirs);
	pythons_in(HKEY_LOCAL_MACHINE, KEY_WOW64_32KEY, dirs);
}

char *
winreg_os_name(void)
{
	HKEY k;
	char *product, *build, *os;

	if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, NT_CURRENT, 0, KEY_READ |
	    KEY_WOW64_64KEY, &k) != ERROR_SUCCESS)
		return NULL;
	product = value(k, L"ProductName");
	build = value(k, L"CurrentBuild");
	RegCloseKey(k);
	if (product != NULL && build != NULL)
		os = xasprintf("%s, build %s", product, build);
	else if (product != NULL)
		os = xstrdup(product);
	else
		os = build != NULL ? xasprintf("Windows, build %s", build) : NULL;
	free(product);
	free(build);
	return os;
}
