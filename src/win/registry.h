/* The registry of this Windows machine, for the Windows probe's hooks
 * (winprobe/winprobe.h): the display adapters of the display class key
 * and the Python installs the py launcher knows (PEP 514). Every read is
 * bounded (subkeys enumerated, bytes of a value); a key that is absent
 * or unreadable gives nothing. */
#ifndef CUDAWIZ_WIN_REGISTRY_H
#define CUDAWIZ_WIN_REGISTRY_H

#include <stdbool.h>

#include "util/strv.h"
#include "winprobe/winfacts.h"

/* Subkeys of one key looked at; a value's characters read. */
#define WINREG_SUBKEYS_MAX	64
#define WINREG_VALUE_MAX	1024

/* winprobe_opts.gpu_registry: each subkey NNNN of
 * HKLM\SYSTEM\CurrentControlSet\Control\Class\{4d36e968-e325-11ce-bfc1-08002be10318}
 * through winprobe_add_gpu (DriverDesc, MatchingDeviceId, DriverVersion,
 * ProviderName). False when the class key cannot be opened. arg unused. */
bool	winreg_gpus(void *arg, struct win_facts *f);

/* winprobe_opts.py_registry: the InstallPath of each
 * Software\Python\PythonCore\<tag> in HKCU and HKLM (its 64- and 32-bit
 * views): the default value, else ExecutablePath's directory. arg unused. */
void	winreg_pythons(void *arg, struct strv *dirs);

/* "Windows 10 Pro, build 19045" from HKLM\SOFTWARE\Microsoft\Windows NT\
 * CurrentVersion's ProductName and CurrentBuild (either alone when the
 * other is missing), owned; NULL when the key or both values are
 * missing. */
char	*winreg_os_name(void);

#endif
