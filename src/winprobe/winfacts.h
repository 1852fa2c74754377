/* What the Windows probe (winprobe.h) learns about one Windows machine:
 * the driver's DLLs, the CUDA toolkits and the variables naming them,
 * the cuDNN copies, the Python installs and the frameworks in them. Self
 * contained for now; wiring it into facts/facts.h comes later.
 *
 * Paths named "path" or "dir" are inside the sysroot that stands for the
 * drive, '/'-separated from its root and spelt as the tree spells them
 * ("Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.6"). Every
 * string is owned by the struct and freed by win_facts_free(). */
#ifndef CUDAWIZ_WINPROBE_WINFACTS_H
#define CUDAWIZ_WINPROBE_WINFACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strv.h"

/* Counts past which the probe stops adding (and says so in notes): a
 * machine with more is damaged or hostile, not a setup to diagnose. */
#define WINFACTS_TOOLKITS_MAX	64
#define WINFACTS_CUDNN_MAX	256
#define WINFACTS_PYTHONS_MAX	256
#define WINFACTS_PATH_MAX	4096	/* PATH entries looked at */
/* Bytes read of one text file (version.json, build_info.py, version.py,
 * pyvenv.cfg, cudnn_version.h): each holds what is wanted in its first
 * few KiB; a longer one is read that far, never refused. */
#define WINFACTS_TEXT_CAP	16384

/* One DLL looked at. */
struct win_dll {
	char	*path;		/* NULL: absent */
	/* Read from its PE version resource; each NULL when the file has
	 * none or could not be read. file_version is VS_FIXEDFILEINFO's
	 * ("32.0.15.6094"). */
	char	*file_version;
	char	*product_version;
	char	*product_name;
	unsigned machine;	/* PE_MACHINE_*; 0 when not read */
	char	*error;		/* why it could not be read; NULL when read */
};

enum win_nvcuda_state {
	WIN_NVCUDA_ABSENT = 0,
	WIN_NVCUDA_NVIDIA,	/* ProductName names NVIDIA */
	WIN_NVCUDA_FOREIGN,	/* an image, but not NVIDIA's (or without a ProductName) */
	WIN_NVCUDA_UNREADABLE,	/* present, not a readable PE image (nvcuda.error) */
};

struct win_driver {
	struct win_dll		 nvcuda;	/* Windows/System32/nvcuda.dll */
	enum win_nvcuda_state	 state;
	/* "560.94" from nvcuda's file version (winprobe_driver_version),
	 * only when state is WIN_NVCUDA_NVIDIA; NULL when it has none of
	 * that form. */
	char			*version;
	/* nvml.dll: System32's, else the NVSMI directory's. */
	struct win_dll		 nvml;
};

struct win_toolkit {
	char		*dir;
	char		*dir_version;	/* "12.6" from a "v12.6" name; NULL otherwise */
	char		*json_version;	/* version.json's cuda.version; NULL when none */
	char		*json_error;	/* version.json there but unreadable or without it */
	struct win_dll	 cudart;	/* bin/cudart64_*.dll (the first by name) */
	bool		 from_env;	/* found only through a CUDA_PATH* variable */
};

/* One CUDA_PATH or CUDA_PATH_Vx_y variable. */
struct win_cudavar {
	char	*name;		/* as in the environment */
	char	*value;
	char	*name_version;	/* "11.8" from _V11_8; NULL for CUDA_PATH */
	char	*dir;		/* the directory it names, as in the tree; NULL when missing */
	char	*why;		/* when dir is NULL: why (missing, another drive, …) */
	long	 toolkit;	/* index into toolkits; -1: none */
};

enum win_cudnn_where {
	WIN_CUDNN_TOOLKIT,	/* a toolkit's bin */
	WIN_CUDNN_INSTALLER,	/* Program Files/NVIDIA/CUDNN/v<ver>/bin[/x.y] */
	WIN_CUDNN_PATH,		/* a PATH entry */
};

/* One directory holding cuDNN. */
struct win_cudnn {
	enum win_cudnn_where	 where;
	long			 index;	/* toolkit or PATH entry; -1 for the installer */
	char			*dir;
	/* cudnn64_N.dll (absent from a directory holding only the parts) */
	struct win_dll		 dll;
	/* the other cudnn*64_*.dll names there (cuDNN 9's cudnn_ops64_9.dll …) */
	struct strv		 parts;
	/* "8.9.7" from cudnn_version.h beside it (../include[/x.y]); NULL: none */
	char			*header_version;
	char			*header_path;
};

enum win_python_kind {
	WIN_PY_PYTHON_ORG,	/* …/Programs/Python/Python3xx, Program Files/Python3xx */
	WIN_PY_CONDA,		/* miniconda3, anaconda3, miniforge3 under a profile */
	WIN_PY_CONDA_ENV,	/* their envs/<name> (or CONDA_PREFIX naming one elsewhere) */
	WIN_PY_VENV,		/* pyvenv.cfg beside Scripts/python.exe, on PATH or VIRTUAL_ENV */
	WIN_PY_PATH,		/* another python.exe directory on PATH */
	WIN_PY_REGISTRY,	/* given by the registry hook (winprobe_opts) */
};

struct win_framework {
	char		*name;		/* "tensorflow", "torch" */
	char		*version;	/* from its dist-info or version.py; NULL: unknown */
	char		*cuda_version;	/* TF: "64_112"; torch: "12.1"; NULL: CPU build or unknown */
	char		*cudnn_version;	/* TF: "64_8"; NULL otherwise */
	/* TF: the DLLs it LoadLibrary's by name (cudart_dll_name, cudnn_dll_name);
	 * torch: the CUDA DLLs bundled in torch/lib. */
	struct strv	 wants;
	struct strv	 bundled;
	char		*error;		/* a file that could not be read, and why */
};

struct win_python {
	enum win_python_kind	 kind;
	char			*dir;		/* the install or venv root */
	char			*exe;		/* python.exe (venv: Scripts/python.exe) */
	char			*version;	/* "3.10" or "3.11.9"; NULL: unknown */
	const char		*version_from;	/* "dirname", "pyvenv.cfg", "conda-meta", "dll" */
	char			*home;		/* a venv's pyvenv.cfg home; NULL otherwise */
	char			*site_packages;	/* Lib/site-packages as in the tree; NULL: missing */
	long			 path_index;	/* the PATH entry it was found by; -1 */
	struct {
		struct win_framework	*v;
		size_t			 n, cap;
	} frameworks;
};

struct win_facts {
	char			 drive;	/* upper case */
	struct win_driver	 driver;
	struct {
		struct win_toolkit	*v;
		size_t			 n, cap;
	} toolkits;
	struct {
		struct win_cudavar	*v;
		size_t			 n, cap;
	} cudavars;
	long			 cuda_path_toolkit;	/* what CUDA_PATH names; -1 */
	struct {
		struct win_cudnn	*v;
		size_t			 n, cap;
	} cudnn;
	struct {
		struct win_python	*v;
		size_t			 n, cap;
	} pythons;
	/* What the probe could not look at, in words (the py launcher's
	 * registry, a limit reached). */
	struct strv		 notes;
};

void	win_facts_free(struct win_facts *f);

#endif
