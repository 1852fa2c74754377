/* The compatibility matrix: version facts as data (data/SCHEMA.md).
 *
 * A matrix is parsed and validated from JSON as a whole; callers then ask it
 * questions through the functions below and never walk the raw data. All
 * strings returned are owned by the matrix and live as long as it does.
 *
 * Every answer carries the status of the rows it came from, so a caller can
 * say "unconfirmed" where the data says so. Version arguments are dotted
 * numbers ("12.4.1", "11.8", "12"); an argument that is not one gets the
 * "not known" answer (NULL, MATRIX_UNKNOWN, false), never a crash. */
#ifndef CUDAWIZ_MATRIX_H
#define CUDAWIZ_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strv.h"

struct matrix;

enum matrix_source {
	MATRIX_EMBEDDED = 0,
	MATRIX_CACHE,
	MATRIX_FILE,
};

/* Ordered from the strongest to the weakest, so the status of an answer
 * drawn from several rows is the largest of theirs. */
enum matrix_status {
	MATRIX_CONFIRMED = 0,	/* read from the primary source */
	MATRIX_DERIVED,		/* a confirmed rule applied to confirmed data */
	MATRIX_SECONDARY,	/* a third-party copy */
	MATRIX_UNCONFIRMED,	/* believed, not seen */
};

enum matrix_os {
	MATRIX_LINUX = 0,
	MATRIX_WINDOWS,
};

/* A yes/no question the data may not be able to answer. */
enum matrix_answer {
	MATRIX_UNKNOWN = 0,
	MATRIX_NO,
	MATRIX_YES,
};

/* A range of versions, both ends inclusive; max matches by prefix, so
 * {"11.0", "11.8"} holds "11.8.89" and {"12.0", "12"} every 12.x. */
struct matrix_range {
	char	*min;
	char	*max;		/* NULL: no upper bound known */
};

struct matrix_ranges {
	struct matrix_range	*v;
	size_t			 n, cap;
};

/* The rows. Callers read them through the const pointers the questions
 * return; the field names are those of data/SCHEMA.md. */
struct matrix_cuda_release {
	char			*version;	/* "12.4.1": the toolkit version */
	char			*label;		/* "CUDA 12.4 Update 1" */
	char			*linux_driver;	/* minimum, "550.54.15" */
	char			*windows_driver; /* NULL from 13.0 on */
	enum matrix_status	 status;
};

struct matrix_cuda_major {
	unsigned		 major;
	char			*minor_compat_linux;	/* NULL: no minor compat */
	char			*minor_compat_windows;
	char			*max_driver_branch;	/* NULL: none */
	char			*lowest_cc;
	char			*highest_cc;
	struct strv		 dropped_cc;
	enum matrix_status	 status;
};

struct matrix_architecture {
	char			*cc;		/* "8.6" */
	char			*name;		/* "Ampere" */
	char			*first_cuda;	/* NULL: not known */
	char			*last_cuda;	/* NULL: still supported */
	enum matrix_status	 status;
	/* Optional (absent: NULL). */
	char			*last_driver_branch; /* "390": the newest driver branch that still supports it; NULL: current branches do */
	char			*first_driver_branch; /* the first branch that supports it; NULL: not known */
};

struct matrix_gpu {
	char			*name;		/* "GeForce RTX 3090" */
	struct strv		 pci_ids;	/* "0x2204" … (may be empty) */
	char			*cc;
	enum matrix_status	 status;
};

struct matrix_cudnn_release {
	struct matrix_range	 versions;
	struct matrix_ranges	 cuda;
	char			*driver_linux;	/* NULL: not stated */
	enum matrix_status	 status;
};

struct matrix_cudnn_library {
	unsigned		 major;
	struct strv		 sonames;	/* "libcudnn.so.9", … */
	char			*header;	/* holds CUDNN_MAJOR */
	char			*windows_dll;	/* NULL: not known */
	enum matrix_status	 status;
};

struct matrix_soname {
	char			*library;	/* "cudart", "cublas" … */
	struct matrix_range	 cuda;
	char			*soname;
	char			*windows_dll;	/* NULL: not known */
	enum matrix_status	 status;
};

struct matrix_wheel {
	char			*package;	/* "nvidia-cudnn-cu12" */
	unsigned		 cuda_major;
	char			*lib_dir;	/* "nvidia/cudnn/lib", in site-packages */
	struct strv		 provides;	/* sonames */
	enum matrix_status	 status;
};

struct matrix_conda_package {
	char			*name;
	char			*role;
	enum matrix_status	 status;
};

enum matrix_loads {
	MATRIX_LOADS_DLOPEN = 0,
	MATRIX_LOADS_NEEDED,
};

enum matrix_bundles {
	MATRIX_BUNDLES_NO = 0,
	MATRIX_BUNDLES_YES,
	MATRIX_BUNDLES_OPTIONAL,
};

struct matrix_build {
	char			*variant;	/* "cu121"; NULL: the only build */
	char			*cuda;		/* built with, "11.2" */
	char			*cudnn;		/* NULL: none */
	struct strv		 sonames;	/* what it asks the loader for */
	enum matrix_loads	 loads;
	enum matrix_bundles	 bundles_cuda;	/* through nvidia-* wheels */
	struct strv		 ccs;		/* code it carries; empty: not known */
	bool			 is_default;	/* what a plain install gets */
	/* Added for issue 19, optional: the compute capabilities it also
	 * carries PTX for ("12.0" of TORCH_CUDA_ARCH_LIST's "12.0+PTX"),
	 * and where ccs and ptx were read; NULL: not said. */
	struct strv		 ptx;
	char			*ccs_source;
};

struct matrix_builds {
	struct matrix_build	*v;
	size_t			 n, cap;
};

/* A rule the framework itself enforces (data/SCHEMA.md "checks"), by
 * its own package and versions, whichever row of the framework holds it:
 * JAX refuses a cuDNN older than the jax package's minimum at start-up;
 * TensorFlow 1.x links libcuda.so.1 at import. */
struct matrix_fw_check {
	char			*package;	/* whose version decides: "jax" */
	struct matrix_range	 versions;
	char			*library;	/* "cudnn", "cublas", "libcuda", "nvidia-wheels" */
	char			*min;		/* the minimum it accepts; NULL: none */
	char			*when;		/* "startup", "import" or "runpath" */
	char			*source;	/* where it was read */
	enum matrix_status	 status;
};

struct matrix_fw_checks {
	struct matrix_fw_check	*v;
	size_t			 n, cap;
};

struct matrix_framework {
	char			*name;		/* "tensorflow" */
	struct strv		 packages;	/* pip/conda names it ships as */
	struct matrix_range	 versions;
	struct matrix_builds	 builds;
	enum matrix_status	 status;
	struct matrix_fw_checks	 checks;	/* optional; empty: none known */
};

/* One installable name on one channel, as published. data/SCHEMA.md
 * "published[]". A package may carry pip extras ("jax[cuda12]",
 * "tensorflow[and-cuda]"); rows repeat a package only for another
 * index_url or cuda_major. */
struct matrix_published {
	char			*channel;	/* "pip", "conda-forge", "nvidia" (conda channel), "apt" */
	char			*package;	/* "nvidia-cudnn-cu12", "cudatoolkit", "libcudnn9-cuda-12", "nvidia-driver-550", "torch" */
	struct matrix_ranges	 versions;	/* the versions published; empty list: not listed (any) */
	unsigned		 cuda_major;	/* the CUDA major it is for; 0: not tied to one */
	char			*index_url;	/* pip: "https://download.pytorch.org/whl/cu121"; NULL: PyPI */
	struct strv		 distros;	/* apt: "ubuntu2204", "debian12" …; empty: not listed */
	char			*source;	/* where the row was checked: "https://pypi.org/project/nvidia-cudnn-cu12/" */
	enum matrix_status	 status;
};

/* The sections of a document, for counts. */
enum matrix_section {
	MATRIX_SEC_CUDA_RELEASES = 0,
	MATRIX_SEC_CUDA_MAJORS,
	MATRIX_SEC_ARCHITECTURES,
	MATRIX_SEC_GPUS,
	MATRIX_SEC_CUDNN_RELEASES,
	MATRIX_SEC_CUDNN_LIBRARIES,
	MATRIX_SEC_SONAMES,
	MATRIX_SEC_WHEELS,
	MATRIX_SEC_CONDA_PACKAGES,
	MATRIX_SEC_FRAMEWORKS,
	MATRIX_SEC_PUBLISHED,
	MATRIX_SEC_COUNT
};

/* ----------------------------------------------------- loading and saving */

/* Parses and validates a document. On failure returns NULL and sets *err
 * to "JSON.path: what is wrong" (the caller frees it). */
struct matrix	*matrix_parse(const char *data, size_t len, char **err);
/* The compiled-in default: rows parsed and checked when cudawiz was built
 * (src/matrix/mkembedded.c), so loading it parses nothing and cannot
 * fail. */
struct matrix	*matrix_embedded(void);
void		 matrix_free(struct matrix *m);

/* The document as JSON, for writing a merged cache. The caller frees it. */
char		*matrix_to_json(const struct matrix *m);

void		 matrix_set_source(struct matrix *m, enum matrix_source src,
		    const char *path);
enum matrix_source matrix_source(const struct matrix *m);
const char	*matrix_source_name(enum matrix_source src);	/* "embedded" … */
const char	*matrix_path(const struct matrix *m);		/* NULL when embedded */
const char	*matrix_date(const struct matrix *m);		/* "YYYY-MM-DD" */
unsigned	 matrix_refresh_days(const struct matrix *m);

/* Adds or updates what NVIDIA's redistrib manifests say: a CUDA release
 * and the minimum Linux driver it ships with, or a cuDNN release and the
 * CUDA majors it is built for ("11", "12"). Values are validated exactly as
 * in matrix_parse; returns 0, or -1 with *err set.
 *
 * A new CUDA release becomes a confirmed row labelled "CUDA x.y.z"; a known
 * one that is not yet confirmed takes the driver and becomes confirmed; a
 * confirmed one keeps its release-notes minimum. A new cuDNN release
 * becomes a confirmed row holding each major whole ("12.0"–"12"); a known
 * one gains only the majors none of its ranges touch. Nothing else in the
 * matrix changes. */
int	matrix_add_cuda_release(struct matrix *m, const char *version,
	    const char *linux_driver, char **err);
int	matrix_add_cudnn_release(struct matrix *m, const char *version,
	    const char *const *cuda_majors, size_t n, char **err);

/* ------------------------------------------------------------- questions */

/* The JSON word of a status or a section ("unconfirmed", "gpus"); these
 * are keys, not prose: a presenter translates what it shows. */
const char	*matrix_status_name(enum matrix_status st);
const char	*matrix_section_name(enum matrix_section sec);
/* Rows in a section, for `matrix show`. */
size_t		 matrix_count(const struct matrix *m, enum matrix_section sec);
/* How many keys (row fields or whole sections) the document held that
 * this version does not know and so ignored (data/SCHEMA.md,
 * "Compatibility"); 0 for the embedded matrix. */
size_t		 matrix_ignored_keys(const struct matrix *m);

/* True when version lies in r: at least min and, compared on as many
 * parts as max has, at most max. The one place the range rule lives. */
bool	matrix_range_contains(const struct matrix_range *r, const char *version);

/* The release row for a toolkit version: the exact row ("12.4.1"; "11.8"
 * is the row "11.8.0"); for major.minor alone, that minor's GA row (its
 * oldest row that is not a release candidate); for an unknown patch of a
 * known minor, the newest row of that minor at or below it (the oldest
 * when all are above). NULL for an unknown minor or a bare major. */
const struct matrix_cuda_release *matrix_cuda_release(const struct matrix *m,
	    const char *cuda);
/* The minimum driver for cuda on os, as matrix_cuda_release finds the row;
 * NULL when unknown (Windows from 13.0 on: the toolkit ships none). */
const char	*matrix_cuda_min_driver(const struct matrix *m, const char *cuda,
		    enum matrix_os os, enum matrix_status *status);
/* The newest release row, or NULL for an empty section. */
const struct matrix_cuda_release *matrix_newest_cuda(const struct matrix *m);

const struct matrix_cuda_major *matrix_cuda_major(const struct matrix *m,
	    unsigned major);
/* The lowest driver of the family that runs every minor release of major
 * (minor-version compatibility); NULL where the major has none (10.x and
 * older) or the major is unknown. */
const char	*matrix_minor_compat_floor(const struct matrix *m, unsigned major,
		    enum matrix_os os, enum matrix_status *status);

/* What a driver runs. Two rules give two answers: the toolkit's own
 * minimum (every feature, PTX JIT included) and minor-version
 * compatibility (a driver of the major's family runs any minor of it, but
 * cannot JIT PTX newer than itself). Version strings are "major.minor";
 * empty when the rule gives nothing. */
enum matrix_driver_basis {
	MATRIX_BASIS_NONE = 0,		/* the driver runs nothing known */
	MATRIX_BASIS_RELEASE,		/* the highest comes from a release minimum */
	MATRIX_BASIS_MINOR_COMPAT,	/* minor compat reaches further */
};

#define MATRIX_VERSION_MAX	40	/* "N.N.N.N", nine digits a part, and NUL */

struct matrix_driver_reach {
	char		 release_cuda[MATRIX_VERSION_MAX];	/* "11.4" */
	const struct matrix_cuda_release *release;	/* the newest row it meets */
	enum matrix_status release_status;
	char		 compat_cuda[MATRIX_VERSION_MAX];	/* "11.8" */
	unsigned	 compat_major;			/* 0: none */
	enum matrix_status compat_status;
	enum matrix_driver_basis basis;			/* which one is higher */
	char		 highest[MATRIX_VERSION_MAX];	/* that one's version, or "" */
};

/* Fills *out for a driver version ("470.82.01") on os; false when driver
 * is not a driver version (then *out says none). */
bool	matrix_driver_reach(const struct matrix *m, const char *driver,
	    enum matrix_os os, struct matrix_driver_reach *out);

/* The CUDA versions a soname or Windows DLL name stands for
 * ("libcudart.so.11.0" → 11.0–11.8, "cudart64_12.dll" → 12.x): *range
 * gets the lowest min and the highest max of every row naming it (strings
 * borrowed from the matrix; max NULL when open), *library the library.
 * False when no row names it. */
bool	matrix_soname_cuda(const struct matrix *m, const char *name,
	    struct matrix_range *range, const char **library,
	    enum matrix_status *status);
/* The soname row of library ("cudart") at a CUDA version; its soname and
 * windows_dll are the names to look for. NULL when not known. */
const struct matrix_soname *matrix_soname_for(const struct matrix *m,
	    const char *library, const char *cuda);

const struct matrix_architecture *matrix_architecture(const struct matrix *m,
	    const char *cc);
/* Whether toolkit cuda can build code for compute capability cc ("6.1"),
 * from the architectures' first and last CUDA. A full version is checked
 * as it is; "12" or "12.8" asks about every known release under it, and is
 * UNKNOWN when some do and some do not. UNKNOWN too for a cc or a CUDA
 * minor the matrix does not know. */
enum matrix_answer matrix_cuda_supports_cc(const struct matrix *m,
	    const char *cuda, const char *cc, enum matrix_status *status);

/* A GPU by PCI device id (vendor 0x10de assumed). */
const struct matrix_gpu *matrix_gpu_by_pci(const struct matrix *m,
	    unsigned device_id);
/* A GPU by name, case-insensitive: "GeForce RTX 3090", "NVIDIA GeForce RTX
 * 3090", nvidia-smi's "NVIDIA H100 80GB HBM3" and pci.ids' "GH100 [H100
 * SXM5 80GB]" (the bracketed name) all find their row. A leading "NVIDIA "
 * or "Tesla " is ignored on both sides; the longest row name that is the
 * whole name or its first words wins. */
const struct matrix_gpu *matrix_gpu_by_name(const struct matrix *m,
	    const char *name);

/* The first cuDNN row whose range holds version ("8.9.7", "9.1.0.70"). */
const struct matrix_cudnn_release *matrix_cudnn_release(const struct matrix *m,
	    const char *cudnn);
/* Whether cuDNN cudnn was released for CUDA cuda ("12", "11.8"): YES when a
 * row holding cudnn lists a range holding cuda, NO when rows hold cudnn
 * and none does, UNKNOWN when no row holds cudnn. */
enum matrix_answer matrix_cudnn_supports_cuda(const struct matrix *m,
	    const char *cudnn, const char *cuda, enum matrix_status *status);
/* The cuDNN library names and version header of a major. */
const struct matrix_cudnn_library *matrix_cudnn_library(const struct matrix *m,
	    unsigned major);
/* The newest cuDNN version the rows name (the highest bound), or NULL. */
const char	*matrix_newest_cudnn(const struct matrix *m,
		    enum matrix_status *status);

/* The framework row for a package name and version ("tensorflow",
 * "2.10.1"). Names compare as pip does (case, and '-', '_', '.' alike) with
 * the row's name and its packages. */
const struct matrix_framework *matrix_framework(const struct matrix *m,
	    const char *name, const char *version);
/* A row's build by variant ("cu121", case-insensitive); with variant NULL
 * the build a plain install gets: the one marked default, or the only one.
 * NULL when there is none (several builds, none the default: walk
 * fw->builds). */
/* The check of framework name for package at version on library (any
 * library when NULL) and when, or NULL. */
const struct matrix_fw_check *matrix_framework_check(const struct matrix *m,
		    const char *name, const char *package, const char *version,
		    const char *library, const char *when);
const struct matrix_build *matrix_framework_build(
	    const struct matrix_framework *fw, const char *variant);

/* An NVIDIA pip wheel or a conda package by name (compared as pip does). */
const struct matrix_wheel *matrix_wheel(const struct matrix *m,
	    const char *package);
const struct matrix_conda_package *matrix_conda_package(const struct matrix *m,
	    const char *name);

/* ------------------------------------------------- what is published */

/* Is PACKAGE published on CHANNEL (from INDEX_URL; NULL = the default
 * index) at some version in [min, max] (either may be NULL = unbounded;
 * max matches by prefix like ranges)? MATRIX_NO when no row names it or
 * no published range meets [min, max]. A row whose versions are not
 * listed holds any version. MATRIX_UNKNOWN when min or max is not a
 * version. Pip names compare as pip does (the extras case aside), the
 * others exactly; index URLs compare without a trailing '/'. */
enum matrix_answer matrix_published_has(const struct matrix *m, const char *channel,
		    const char *package, const char *index_url, const char *min, const char *max);
/* The row, or NULL (the first one when rows differ by cuda_major). */
const struct matrix_published *matrix_published_find(const struct matrix *m,
		    const char *channel, const char *package, const char *index_url);
/* The row for one CUDA major (0: the row tied to none), or NULL. */
const struct matrix_published *matrix_published_find_cuda(const struct matrix *m,
		    const char *channel, const char *package, const char *index_url,
		    unsigned cuda_major);
/* Rows are read with matrix_published_count()/matrix_published_at(i). */
size_t matrix_published_count(const struct matrix *m);
const struct matrix_published *matrix_published_at(const struct matrix *m, size_t i);

#endif
