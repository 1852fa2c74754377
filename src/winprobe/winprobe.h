/* The Windows probe: reads a Windows machine through a struct sysroot
 * standing for its system drive (the layout of the fixture trees:
 * <root>/Windows/System32, <root>/Program Files, <root>/Users) and its
 * environment block, and fills a struct win_facts (winfacts.h). Names are
 * matched without case, as NTFS does (winload/winname.h), so a tree may
 * spell 'program files' or 'NVCUDA.DLL'. Every file is read bounded (the
 * PE reader's own cap, WINFACTS_TEXT_CAP for text); a damaged or
 * unreadable file is a fact with its reason, never a failure of the
 * probe. The probe never prints.
 *
 * Not read: the registry (opts->gpu_registry is the hook for the display
 * adapters, which only the registry lists). The py launcher finds installs through
 * HKCU/HKLM\Software\Python\PythonCore\<ver>\InstallPath (PEP 514),
 * which a Linux tree does not hold; opts->py_registry is the hook for a
 * caller that can read it (a helper running on Windows). */
#ifndef CUDAWIZ_WINPROBE_WINPROBE_H
#define CUDAWIZ_WINPROBE_WINPROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "sysroot/sysroot.h"
#include "util/strv.h"
#include "winprobe/winfacts.h"

/* Appends to dirs the Windows paths ("C:\Python312") of the installs the
 * registry names; arg is winprobe_opts.py_registry_arg. */
typedef void (*winprobe_pyreg_fn)(void *arg, struct strv *dirs);

/* Adds the display adapters the registry lists to f, each through
 * winprobe_add_gpu; arg is winprobe_opts.gpu_registry_arg. Returns
 * false when the registry could not be read (f->gpus_read stays false). */
typedef bool (*winprobe_gpureg_fn)(void *arg, struct win_facts *f);

struct winprobe_opts {
	char			 drive;		/* the tree's letter; 0: 'C' */
	winprobe_pyreg_fn	 py_registry;	/* NULL: not read (noted) */
	void			*py_registry_arg;
	winprobe_gpureg_fn	 gpu_registry;	/* NULL: not read */
	void			*gpu_registry_arg;
};

/* Adds one display adapter to f from its registry values (each may be
 * NULL): DriverDesc, MatchingDeviceId (PCI\VEN_10DE&DEV_2684&… gives
 * vendor and device), DriverVersion (gives the driver version as
 * winprobe_driver_version does) and ProviderName. Adds nothing past
 * WINFACTS_GPUS_MAX (the hook notes a registry holding more). */
void	winprobe_add_gpu(struct win_facts *f, const char *name,
	    const char *device_id, const char *file_version,
	    const char *provider);

/* Probes the drive sr with the environment envp (NULL-terminated
 * "NAME=value" strings, Windows names matched without case; NULL:
 * empty). opts NULL: the defaults. out is always freed by the caller. */
void	winprobe_run(const struct sysroot *sr, char *const *envp,
	    const struct winprobe_opts *opts, struct win_facts *out);

/* NVIDIA's driver version from the file version of nvcuda.dll (or any
 * DLL of the display driver): the last two parts, the fourth written
 * with four digits, give a number whose last five digits are the
 * version, three before the point and two after:
 *   32.0.15.6094 -> 15|6094 -> 56094 -> "560.94"
 *   31.0.15.3623 -> 15|3623 -> 53623 -> "536.23"
 *   27.21.14.5671 -> 14|5671 -> 45671 -> "456.71"
 * Writes it into buf (n bytes) and returns true; false when file_version
 * is not four numbers with a fourth below 10000. */
bool	winprobe_driver_version(const char *file_version, char *buf, size_t n);

/* "C:\Program Files\x" -> "Program Files/x" for drive 'C' (any case,
 * '/' or '\'). NULL with *why (static, translated) for a path that is
 * relative, on another drive or a network path. */
char	*winprobe_tree_path(char drive, const char *winpath, const char **why);

const char	*win_python_kind_name(enum win_python_kind k);
const char	*win_cudnn_where_name(enum win_cudnn_where w);
const char	*win_nvcuda_state_name(enum win_nvcuda_state s);
/* "by_name", "pyd_import", "torch_lib" (winneeds.c). */
const char	*win_load_how_name(enum win_load_how h);

#endif
