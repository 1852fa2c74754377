/* Python environments, their packages and the GPU frameworks in them, as
 * plain data (see facts.h for the rules every fact follows).
 *
 * Three probes fill these, in order: pyenv.c finds the environments,
 * pypkg.c lists each one's packages (never by running pip or conda),
 * framework.c recognises the frameworks among them, says what each needs
 * from the dynamic loader and resolves every need with the loader model
 * as that framework's Python process would. fatbin.c (src/loader) lists
 * the GPU code a framework's CUDA libraries carry. All owned by struct
 * facts and freed by facts_free(). */
#ifndef CUDAWIZ_PYFACTS_H
#define CUDAWIZ_PYFACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "facts/stepsource.h"
#include "util/strv.h"

struct lib_fact;

enum pyenv_kind {
	PYENV_CONDA = 0,	/* holds conda-meta/ (base installs too) */
	PYENV_VENV,		/* holds pyvenv.cfg */
	PYENV_PYENV,		/* ~/.pyenv/versions/X */
	PYENV_SYSTEM,		/* /usr, /usr/local: the distribution's Python */
	PYENV_USER,		/* ~/.local: pip install --user */
};

enum pypkg_source {
	PYPKG_DIST_INFO = 0,	/* site-packages/NAME-VER.dist-info */
	PYPKG_EGG_INFO,		/* site-packages/NAME-VER.egg-info (dir or file) */
	PYPKG_CONDA,		/* conda-meta/NAME-VER-BUILD.json */
};

struct py_package {
	char		*name;		/* as the metadata spells it: "nvidia-cudnn-cu12" */
	char		*version;	/* "9.1.0.70", "2.1.0+cu118" */
	enum pypkg_source source;
	char		*path;		/* the .dist-info / .egg-info / conda-meta json */
	/* The site-packages dir it is in; NULL for conda. Not owned: one of
	 * the env's site_dirs (a copy per package was an eighth of doctor's
	 * memory on a machine with a hundred environments). */
	const char	*site;
	char		*build;		/* conda build string "py3.10_cuda11.8_cudnn8.7.0_0"; NULL */
	char		*channel;	/* conda channel "conda-forge", "pytorch"; NULL */
	/* Requires-Dist lines naming nvidia-* wheels (and cupy-* for
	 * spaCy/thinc), as written: "nvidia-cudnn-cu12==9.1.0.70; platform_system
	 * == \"Linux\"". Read only for packages cudawiz cares about. */
	struct strv	 requires;
	/* Extras the package was installed with are not recorded by pip;
	 * extras it offers are ("Provides-Extra"), for "tensorflow[and-cuda]". */
	struct strv	 extras;
	bool		 metadata_read;	/* METADATA/PKG-INFO/json was opened */
	char		*metadata_error; /* why it could not be read; NULL */
	/* One of the packages cudawiz looks into (pypkg.c's table: nvidia-*,
	 * torch, tensorflow*, cudnn …): its metadata was read, and the JSON
	 * report lists it. */
	bool		 cared_about;
};

/* One soname a framework needs from the loader, and what the loader
 * model says it gets. */
enum fw_need_how {
	FW_NEED_LINKED = 0,	/* a DT_NEEDED entry of one of its ELF files */
	FW_NEED_DLOPEN,		/* dlopen()ed by name (TensorFlow, CuPy): from the matrix */
};

/* Where the framework expects a need to come from. */
enum fw_need_from {
	FW_FROM_ANY = 0,	/* anywhere the loader finds it (the system) */
	FW_FROM_WHEEL,		/* an nvidia-* wheel of the same environment */
	FW_FROM_BUNDLED,	/* the framework's own lib dir */
	FW_FROM_CONDA,		/* the conda environment's lib/ */
};

struct fw_need {
	char			*soname;	/* "libcudart.so.12" */
	enum fw_need_how	 how;
	enum fw_need_from	 from;
	char			*requester;	/* the ELF file that needs or dlopens it */
	/* The directory the framework expects it in (the wheel's lib dir,
	 * its own lib dir, the env's lib/); NULL for FW_FROM_ANY. */
	char			*expected_dir;
	char			*expected_pkg;	/* "nvidia-cuda-runtime-cu12"; NULL */
	bool			 optional;	/* TensorRT and the like */
	/* The loader model's answer in the framework's process (owned;
	 * lib_fact_free). resolved NULL: it does not load. */
	struct lib_fact		*lib;
	/* Resolved, but elsewhere than expected_dir, from a step that
	 * comes before the expected one: the entry that shadows it
	 * (LD_LIBRARY_PATH …); STEP_NONE when not shadowed. */
	enum step_source	 shadowed_via;
};

enum fw_gpu {
	FW_GPU_UNKNOWN = 0,
	FW_GPU_YES,		/* a CUDA build */
	FW_GPU_NO,		/* a CPU-only build: +cpu, tensorflow-cpu, no CUDA files */
};

struct fw_archs {
	bool		 read;		/* some CUDA library was scanned */
	char		*source;	/* the library whose fatbinary was read */
	struct strv	 sass;		/* "sm_50", "sm_90" … sorted, unique */
	struct strv	 ptx;		/* "compute_90" … */
	char		*error;		/* why it could not be read; NULL */
};

struct framework_fact {
	char		*name;		/* the matrix name: "pytorch", "tensorflow", "jax",
					 * "cupy", "spacy", "onnxruntime", "paddlepaddle",
					 * "mxnet", "numba" */
	char		*package;	/* the package that carries it: "torch", "cupy-cuda11x" */
	char		*version;	/* "2.1.0+cu118" */
	char		*variant;	/* "cu118", "cpu"; NULL when the version has none */
	char		*dir;		/* its package directory: site-packages/torch */
	enum fw_gpu	 gpu;
	char		*gpu_why;	/* what says so: "torch/version.py: cuda = None" */
	char		*cuda;		/* the CUDA it was built with, "11.8"; NULL unknown */
	char		*cuda_source;	/* the file or rule that said so */
	char		*cudnn;		/* "8.7"; NULL unknown or none */
	char		*cudnn_source;
	/* For spaCy/thinc: the framework it runs its GPU work on
	 * ("cupy"), or NULL. */
	char		*gpu_through;
	struct {
		struct fw_need	*v;
		size_t		 n, cap;
	} needs;
	struct fw_archs	 archs;
};

/* A CUDA library a conda environment's lib/ holds, and the conda
 * package that put it there, matched by name (no record is read for it). */
struct py_cudalib {
	char		*name;		/* "libcudnn" */
	char		*soname;	/* the shortest name: "libcudnn.so.8" */
	char		*path;		/* the most versioned file: PREFIX/lib/libcudnn.so.8.9.2 */
	char		*version;	/* "8.9.2", from that file's name; NULL */
	char		*package;	/* its conda package "cudnn"; NULL unknown */
	char		*package_version; /* "8.9.2.26"; NULL */
};

struct py_env {
	char		*prefix;	/* canonical, as seen inside the root */
	enum pyenv_kind	 kind;
	char		*name;		/* conda env name, venv dir name, pyenv version */
	bool		 active;	/* CONDA_PREFIX, VIRTUAL_ENV, or python3 on PATH */
	struct strv	 found_via;	/* "CONDA_PREFIX", "environments.txt", "PATH" … */
	char		*python;	/* bin/python3 (or the versioned one); NULL none */
	char		*python_version; /* "3.10"; NULL unknown */
	char		*base_prefix;	/* a venv's home (pyvenv.cfg), NULL otherwise */
	bool		 system_site;	/* a venv with include-system-site-packages */
	struct strv	 site_dirs;	/* lib/pythonX.Y/site-packages, dist-packages … */
	char		*lib_dir;	/* conda: PREFIX/lib; NULL otherwise */
	struct {
		struct py_package	*v;
		size_t			 n, cap;
	} packages;
	struct {
		struct framework_fact	*v;
		size_t			 n, cap;
	} frameworks;
	/* conda: the CUDA libraries lib/ holds, by name. */
	struct {
		struct py_cudalib	*v;
		size_t			 n, cap;
	} cuda_libs;
};

void	py_package_free(struct py_package *p);
void	fw_need_free(struct fw_need *n);
void	framework_fact_free(struct framework_fact *fw);
void	py_env_free(struct py_env *e);

/* "conda", "venv", "pyenv", "system", "user"; "linked", "dlopen";
 * "any", "wheel", "bundled", "conda"; "unknown", "yes", "no" — JSON keys. */
const char	*pyenv_kind_name(enum pyenv_kind k);
const char	*pypkg_source_name(enum pypkg_source s);
const char	*fw_need_how_name(enum fw_need_how h);
const char	*fw_need_from_name(enum fw_need_from f);
const char	*fw_gpu_name(enum fw_gpu g);

/* Whether every need that is not optional resolves (a CPU build with no
 * needs loads), and whether it also is a GPU build none of whose needs
 * is shadowed: what "GPU-ready" means everywhere cudawiz says it. */
bool	framework_loads(const struct framework_fact *fw);
bool	framework_gpu_ready(const struct framework_fact *fw);

/* A package of env by name, compared as pip does (case, '-', '_', '.'
 * alike); NULL when absent. */
const struct py_package *py_env_package(const struct py_env *e,
	    const char *name);

#endif
