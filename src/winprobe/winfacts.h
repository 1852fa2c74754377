/* What the Windows probe (winprobe.h) learns about one Windows machine:
 * the driver's DLLs, the CUDA toolkits and the variables naming them,
 * the cuDNN copies, the Python installs and the frameworks in them, and
 * each framework's DLLs resolved by the DLL search model (whose
 * winload/dllsearch.h gives the sources). Wiring it into facts/facts.h
 * comes later.
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
#include "winload/dllsearch.h"

/* Counts past which the probe stops adding (and says so in notes): a
 * machine with more is damaged or hostile, not a setup to diagnose. */
#define WINFACTS_TOOLKITS_MAX	64
#define WINFACTS_CUDNN_MAX	256
#define WINFACTS_PYTHONS_MAX	256
#define WINFACTS_PATH_MAX	4096	/* PATH entries looked at */
#define WINFACTS_NEEDS_MAX	64	/* DLLs resolved for one framework */
#define WINFACTS_GPUS_MAX	64	/* display adapters from the registry */
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

/* How a framework loads one DLL, which decides the search (winneeds.c). */
enum win_load_how {
	/* LoadLibraryExW by bare name with LOAD_WITH_ALTERED_SEARCH_PATH
	 * (TensorFlow's tsl/platform/windows/load_library.cc): the standard
	 * order, python.exe's directory the application dir, PATH searched. */
	WIN_LOAD_BY_NAME = 0,
	/* A static import of an extension module (.pyd): CPython >= 3.8
	 * searches LOAD_LIBRARY_SEARCH_DEFAULT_DIRS|DLL_LOAD_DIR (the .pyd's
	 * dir, python.exe's, os.add_dll_directory's, System32; no PATH);
	 * older ones the standard order. */
	WIN_LOAD_PYD_IMPORT,
	/* torch's own DLLs: torch/__init__.py calls os.add_dll_directory on
	 * torch\lib, then loads them from there (DEFAULT_DIRS). */
	WIN_LOAD_TORCH_LIB,
};

/* One answer of the DLL search. */
struct win_dll_answer {
	char			*path;	/* the Windows path loaded; NULL: none */
	enum dllsearch_source	 via;
	size_t			 path_index;	/* via PATH: the entry, from 0 */
	unsigned		 error;	/* 0, or GetLastError()'s code (126, 193) */
};

/* One DLL a framework loads, resolved by dllsearch as it loads it. */
struct win_need {
	char			*dll;		/* "cudart64_110.dll" */
	enum win_load_how	 how;
	char			*importer;	/* WIN_LOAD_PYD_IMPORT: the .pyd, a Windows path */
	/* The answer for how it really loads (the Python's version decides
	 * for a .pyd import; unknown is taken as >= 3.8). */
	struct win_dll_answer	 got;
	/* The same name by the standard order (PATH searched), when got
	 * came from another search and the answer differs. */
	bool			 has_std;
	struct win_dll_answer	 std;
	/* The same name as CPython >= 3.8 resolves an extension module's
	 * import (DLLSEARCH_F_PYTHON38, the framework's .pyd dir), when got
	 * came from another search and the answer differs. */
	bool			 has_py38;
	struct win_dll_answer	 py38;
	/* Files of another machine (x86 for x64 python.exe) the search
	 * passed over before got, Windows paths; and every other copy of the
	 * name in the search's directories. */
	struct strv		 passed_over;
	struct strv		 others;
	/* The directories searched for got, in order: the step's source
	 * (dllsearch_source_name), with its index for PATH and
	 * AddDllDirectory entries, then the directory as a Windows path:
	 * "app_dir C:\Python310", "path[2] C:\cuda\bin". */
	struct strv		 searched;
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
	/* wants, the CUDA DLLs its .pyd imports, and the bundled CUDA
	 * DLLs, each resolved (winneeds.c); at most WINFACTS_NEEDS_MAX. */
	struct {
		struct win_need	*v;
		size_t		 n, cap;
	} needs;
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

/* One display adapter of the registry's display class
 * (HKLM\SYSTEM\CurrentControlSet\Control\Class\{4d36e968-…}\NNNN),
 * read by the gpu_registry hook (winprobe_opts). */
struct win_gpu {
	char		*name;		/* DriverDesc; NULL: none */
	char		*device_id;	/* MatchingDeviceId ("PCI\VEN_10DE&DEV_2684…") */
	unsigned	 vendor;	/* its VEN_; 0: not a PCI id */
	unsigned	 device;	/* its DEV_; 0: not a PCI id */
	char		*file_version;	/* DriverVersion ("32.0.15.6094"); NULL: none */
	char		*version;	/* "560.94" from it (winprobe_driver_version); NULL */
	char		*provider;	/* ProviderName; NULL: none */
};

#define WIN_PCI_VENDOR_NVIDIA	0x10de

struct win_facts {
	char			 drive;	/* upper case */
	struct win_driver	 driver;
	/* The display adapters; gpus_read is false when no hook read the
	 * registry (then gpus says nothing about the machine). */
	bool			 gpus_read;
	struct {
		struct win_gpu		*v;
		size_t			 n, cap;
	} gpus;
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
