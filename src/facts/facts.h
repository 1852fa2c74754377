/* Facts: what the probes found, as plain data.
 *
 * Probes fill these structs and never decide what is wrong; diagnose reads
 * them and never touches the system; the presenters show them. Every value
 * that can fail to be found is a fact_* with a state, so "not found",
 * "could not be read" and "zero" never collapse into each other:
 *
 *   FACT_KNOWN       the value was read; value NULL means known to be absent
 *   FACT_UNKNOWN     nothing said what it is (why says what was looked at)
 *   FACT_UNREADABLE  the place that holds it exists but could not be read
 *
 * Paths are as seen inside the sysroot. Every struct is owned by the
 * struct facts that holds it and freed by facts_free(). */
#ifndef CUDAWIZ_FACTS_H
#define CUDAWIZ_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "facts/pyfacts.h"
#include "facts/stepsource.h"
#include "facts/vfacts.h"
#include "util/strv.h"

enum fact_state {
	FACT_UNKNOWN = 0,
	FACT_KNOWN,
	FACT_UNREADABLE,
};

struct fact_str {
	enum fact_state	 state;
	char		*value;		/* KNOWN only; NULL = known absent */
	char		*source;	/* the file or variable it came from */
	char		*why;		/* UNKNOWN / UNREADABLE: the reason */
};

void	fact_set(struct fact_str *f, const char *value, const char *source);
void	fact_set_owned(struct fact_str *f, char *value, const char *source);
void	fact_absent(struct fact_str *f, const char *source);
void	fact_unknown(struct fact_str *f, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	fact_unreadable(struct fact_str *f, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
bool	fact_known(const struct fact_str *f);	/* KNOWN and not NULL */
void	fact_str_free(struct fact_str *f);

/* A problem met while probing that did not stop the run: an unreadable
 * directory, a symlink loop, a file far larger than expected. */
struct probe_note {
	char	*path;
	char	*problem;
};

/* ------------------------------------------------------------------ GPUs */

struct gpu_fact {
	char		*pci_address;	/* "0000:01:00.0" */
	unsigned	 vendor_id;	/* 0x10de */
	unsigned	 device_id;
	unsigned	 subsys_vendor_id;
	unsigned	 subsys_device_id;
	unsigned	 class_code;	/* 0x030000, 0x030200 … */
	struct fact_str	 kernel_driver;	/* "nvidia", "nouveau", "vfio-pci"; absent = none bound */
	struct fact_str	 name;		/* source: pci.ids path, /proc/driver/nvidia/…, or "raw" */
	struct fact_str	 uuid;		/* "GPU-…" from /proc/driver/nvidia/gpus/…/information */
	/* The chip pci.ids names ("GF117M"), its architecture ("Fermi") and
	 * compute capability; cc's source says which table gave it: the
	 * chip table (src/probe/gpuarch.c) or the matrix (by PCI id or by
	 * name, src/diagnose/annotate.c). */
	struct fact_str	 chip;
	struct fact_str	 arch;
	struct fact_str	 cc;		/* compute capability "9.0" */
	/* "390" when the driver's supported-gpus.json puts the GPU on a
	 * legacy branch (its last); absent when it lists it on none. */
	struct fact_str	 legacy_branch;
	/* The PCIe link from sysfs, as the kernel writes it: speeds
	 * "16.0 GT/s PCIe" (or "2.5 GT/s"), widths "16". Unknown on a bus
	 * that is not PCIe (a VM's emulated one) or an old kernel. */
	struct fact_str	 link_speed;
	struct fact_str	 link_width;
	struct fact_str	 max_link_speed;
	struct fact_str	 max_link_width;
};

/* NVRM Xid lines of the kernel log, grouped by GPU and Xid code. */
struct xid_group {
	char	*pci;		/* "0000:01:00" as the driver writes it */
	unsigned code;		/* 79 */
	size_t	 count;
	char	*last;		/* the newest line, as logged (cleaned) */
};

/* ---------------------------------------------------------------- driver */

/* A userspace driver library found by its real file name. */
struct driver_lib {
	char	*path;		/* /usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05 */
	char	*name;		/* "libcuda" or "libnvidia-ml" */
	char	*version;	/* "535.104.05"; NULL when the name carries none (WSL) */
	bool	 wsl;		/* under /usr/lib/wsl */
};

struct kernel_module_file {
	char	*path;		/* /lib/modules/6.1.0-13-amd64/updates/dkms/nvidia.ko */
	char	*kernel;	/* the kernel release it belongs to */
	/* nvidia.ko itself (not nvidia-uvm …) for the running or next-boot
	 * kernel only: the version= of its .modinfo section (NULL: not
	 * read, compressed, or none), and whether a signature is appended
	 * (-1 not read, 0 no, 1 yes). */
	char	*version;
	int	 signed_state;
};

/* A DKMS build of the nvidia module: /var/lib/dkms/nvidia/VERSION/KERNEL/ARCH/module/nvidia.ko*. */
struct dkms_build {
	char	*module;	/* "nvidia", "nvidia-current" (Debian) */
	char	*version;	/* "550.54.14": the driver version it was built from */
	char	*kernel;	/* "6.8.0-45-generic" */
	char	*path;		/* the nvidia.ko* file */
	bool	 installed;	/* its kernel's /lib/modules has an nvidia module
				 * (dkms "installed"); else only "built" */
};

struct driver_facts {
	struct fact_str	 kernel_release;	/* /proc/sys/kernel/osrelease */
	struct fact_str	 module_version;	/* /proc/driver/nvidia/version */
	struct fact_str	 sys_module_version;	/* /sys/module/nvidia/version */
	/* From the matrix, for the driver in use (the module's version, else
	 * the userspace libcuda's): the newest CUDA release whose own minimum
	 * it meets ("11.4"), and the major it runs every minor of through
	 * minor-version compatibility ("11"), absent when none. */
	struct fact_str	 max_cuda;
	struct fact_str	 compat_major;
	struct fact_str	 nvidia_loaded;		/* "yes"/"no": /sys/module/nvidia or /proc/driver/nvidia */
	struct fact_str	 nouveau_loaded;	/* "yes"/"no": /sys/module/nouveau */
	struct {
		struct driver_lib	*v;
		size_t			 n, cap;
	} libs;
	/* nvidia*.ko for the running kernel; state UNKNOWN when the
	 * running kernel has no /lib/modules tree to look in. */
	struct fact_str	 modules_for_running;	/* "yes"/"no" */
	struct {
		struct kernel_module_file	*v;
		size_t				 n, cap;
	} module_files;				/* for every kernel */
	struct strv	 kernels;		/* releases under /lib/modules */

	/* WSL: each sign on its own; is_wsl when any of them holds. */
	bool	 is_wsl;
	bool	 wsl_kernel;		/* "microsoft" or "WSL" in osrelease */
	bool	 wsl_dxg;		/* /dev/dxg */
	bool	 wsl_lib_dir;		/* /usr/lib/wsl/lib */

	/* Containers and hosted notebook runtimes. */
	bool	 docker;		/* /.dockerenv */
	bool	 podman;		/* /run/.containerenv */
	bool	 kubernetes;		/* KUBERNETES_SERVICE_HOST, /var/run/secrets/kubernetes.io */
	bool	 apptainer;		/* /.singularity.d, APPTAINER_CONTAINER, SINGULARITY_CONTAINER */
	char	*container_env;		/* container= of this process or PID 1 ("lxc", "oci", "podman") */
	/* DKMS builds of the nvidia module, for every version and kernel. */
	struct {
		struct dkms_build	*v;
		size_t			 n, cap;
	} dkms;
	/* The kernel the next boot runs: grubenv's saved_entry when it names
	 * a kernel under /lib/modules, else the newest of them; its source
	 * says which. Unknown without a /lib/modules tree. */
	struct fact_str	 boot_kernel;
	/* Secure Boot: "yes"/"no" from the SecureBoot EFI variable, unknown
	 * on a BIOS boot or without efivarfs; the kernel's taint mask as
	 * written ("4097"); whether DKMS's signing key exists and whether
	 * MokListRT holds it ("yes"/"no", unknown when unreadable). */
	struct fact_str	 secure_boot;
	struct fact_str	 tainted;
	struct fact_str	 dkms_mok;		/* /var/lib/dkms/mok.pub exists */
	struct fact_str	 mok_enrolled;
	char	*colab_release;		/* COLAB_RELEASE_TAG */
	bool	 lib64_nvidia;		/* /usr/lib64-nvidia (Colab-like runtimes) */
	/* The libcuda.so.1 the loader picks (src/probe/fwdcompat.c): the
	 * real file, its version, and whether it is a CUDA
	 * forward-compatibility library (cuda-compat). path NULL: none
	 * loads, or it is a stub. */
	struct loaded_libcuda {
		char	*path;		/* …/cuda-12.4/compat/libcuda.so.550.54.15 */
		char	*version;	/* "550.54.15" from its name; NULL: none there */
		bool	 fwd_compat;
		char	*compat_cuda;	/* "12.4": the directory's or the package's; NULL unknown */
		char	*compat_source;	/* the directory or dpkg list that said so */
		char	*compat_package; /* "cuda-compat-12-4" when dpkg's list names the file */
	} libcuda;
	/* WSL: /usr/lib/wsl/lib/libcuda.so, the unversioned name cuDNN 8
	 * dlopens, exists ("yes"/"no"); UNKNOWN outside WSL. */
	struct fact_str	 wsl_unversioned;
};

/* -------------------------------------------------------------- toolkits */

struct cudart_dir {
	char	*dir;		/* /usr/local/cuda-13.0/lib64 */
	char	*soname;	/* libcudart.so.13 */
	char	*file;		/* the real file: libcudart.so.13.0.96 */
};

enum toolkit_layout {
	TOOLKIT_LAYOUT_INSTALL = 0,	/* runfile, deb/rpm, conda-style tree */
	TOOLKIT_LAYOUT_PIP,		/* nvidia/cu13, nvidia/cuda_runtime in site-packages */
};

struct toolkit_fact {
	char		*root;		/* canonical */
	enum toolkit_layout layout;
	struct strv	 found_via;	/* "/usr/local/cuda*", "CUDA_HOME", "PATH", … */
	struct strv	 aliases;	/* symlinks that point here: /usr/local/cuda */
	struct fact_str	 version;	/* "13.0" or "13.0.96"; source names the file */
	/* The release users name it by: version.json's or version.txt's
	 * version ("12.4.1"), else version's major.minor ("13.0" for a
	 * toolkit assembled from wheels, whose version is cudart's 13.0.96).
	 * NULL when the version is unknown. */
	char		*release;
	/* Component versions beside it: "cudart 13.0.96", "nvcc 13.0.88". */
	struct strv	 components;
	struct {
		struct cudart_dir	*v;
		size_t			 n, cap;
	} cudart;
	char		*stubs_dir;	/* NULL when none */
	char		*nvcc;		/* path of bin/nvcc, NULL when none */
};

/* ----------------------------------------------------------------- cuDNN */

struct cudnn_fact {
	char		*lib_dir;		/* the directory holding libcudnn.so.N */
	char		*where;			/* "system", "toolkit", "pip" */
	struct fact_str	 version;		/* from the header: "9.19.0" */
	char		*header;		/* cudnn_version.h or cudnn.h used */
	struct fact_str	 lib_version;		/* from file names / SONAME: "9.19.0" or "9" */
	char		*soname;		/* libcudnn.so.9 */
	struct fact_str	 cuda_major;		/* "12" from nvidia-cudnn-cu12, … */
	struct strv	 libraries;		/* file names of the libcudnn*.so.N */
};

/* ----------------------------------------------------------- environment */

struct path_entry {
	char		*value;		/* as written, may be "" */
	bool		 empty;
	int		 exists;	/* 1 yes, 0 no, -1 could not tell */
	bool		 is_dir;
	char		*why;		/* when exists != 1 */
	long		 duplicate_of;	/* index of the first equal entry, or -1 */
	bool		 has_cuda_libs;	/* PATH: holds lib{cuda,cudart,cudnn,…}.so* */
};

struct path_var {
	const char	*name;		/* static: "PATH", "LD_LIBRARY_PATH", … */
	bool		 set;
	char		*raw;
	struct {
		struct path_entry	*v;
		size_t			 n, cap;
	} entries;
};

struct env_var {
	const char	*name;
	bool		 set;
	char		*value;
	int		 exists;	/* for path-valued ones: 1, 0, -1 */
	char		*why;
};

struct ldconf_dir {
	char	*dir;
	char	*from;		/* the file that listed it */
	int	 exists;
	long long from_mtime;	/* from's mtime in seconds; 0: not known */
};

enum env_var_id {
	ENV_CUDA_HOME = 0,
	ENV_CUDA_PATH,
	ENV_CUDA_VISIBLE_DEVICES,
	ENV_CUDA_DEVICE_ORDER,
	ENV_CONDA_PREFIX,
	ENV_VIRTUAL_ENV,
	ENV_VAR_COUNT,
};

struct env_facts {
	struct path_var	 ld_library_path;
	struct path_var	 path;
	struct path_var	 ld_preload;	/* split at ':' and ' ' as ld.so does */
	struct env_var	 var[ENV_VAR_COUNT];
	struct {
		struct ldconf_dir	*v;
		size_t			 n, cap;
	} ldconf;
	struct fact_str	 ldconf_state;	/* KNOWN when /etc/ld.so.conf was read */
	/* The ld.so.cache's mtime in seconds, for "is the cache older than
	 * the file": 0 when not known, -1 when there is no cache. */
	long long	 ldcache_mtime;
};

/* ------------------------------------------------------------- libraries */

/* Where a plain program's dlopen("libX.so.N") would find a library, by
 * the loader model (src/loader/resolve.h): the winner and how it was
 * reached, every step of the search, the other files of that name and
 * which of them a later step would reach, and what the winner's ELF file
 * says about itself. */
struct resolve_step;

/* Another file of the library's name, not the one the loader opens. */
struct lib_copy {
	char	*path;		/* dir/name, as found */
	char	*target;	/* the real file behind it; NULL: dangling or unreadable */
	char	*soname;	/* its DT_SONAME; NULL: none or unreadable */
	bool	 loadable;	/* the loader would take it (class, machine, ELF) */
	char	*problem;	/* why not, when !loadable */
	bool	 tried;		/* a step before the winner met it and passed over */
	/* The search step after the winner's that would reach it if the
	 * winner were gone (LD_LIBRARY_PATH, the cache, a default
	 * directory); STEP_NONE when none would. */
	enum step_source reached_via;
	bool	 stub;		/* in (or a link into) a directory named "stubs" */
	/* For "would ldconfig change the answer": whether the cache maps
	 * the library's name to this very path, and the newest change
	 * ldconfig would pick up here: the mtime of the link, the file
	 * behind it or the directory (a new link or file changes it), in
	 * seconds; 0 when not known. */
	bool	 cached;
	long long changed;
};

/* A symbolic link of the library's name met on the search path whose
 * target does not exist, or an ld.so.cache entry for a file that is gone;
 * the loader passes over both. */
struct lib_dangling {
	char	*path;
	char	*link;		/* what it points to, as written; NULL: a stale cache entry */
	enum step_source via;	/* the step's source */
};

struct lib_fact {
	char	*soname;	/* libcudart.so.13, libcuda.so.1, … as asked for */
	char	*resolved;	/* the path the loader opens; NULL when not found */
	/* How the winner was reached; STEP_NONE when not resolved.
	 * Named by step_words() (doctor's JSON calls the cache
	 * "ld.so.conf", what ldconfig builds it from). */
	enum step_source via;
	char	*target;	/* the real file behind resolved */
	bool	 optional;	/* absence is normal (TensorRT, unversioned libcuda.so) */
	char	*error;		/* the loader's message when not resolved */
	/* The resolver's trace, in order (struct resolve_step of
	 * loader/resolve.h, owned here). */
	struct {
		struct resolve_step	*v;
		size_t			 n, cap;
	} steps;
	struct {
		struct lib_copy		*v;
		size_t			 n, cap;
	} copies;
	struct {
		struct lib_dangling	*v;
		size_t			 n, cap;
	} dangling;
	/* The winner's ELF facts. */
	char		*elf_soname;	/* DT_SONAME; NULL: none or unreadable */
	struct strv	 elf_verdefs;	/* version definitions, the base left out */
	char		*elf_error;	/* why it could not be read */
	bool		 stub;		/* the winner is a toolkit's stub (as lib_copy) */
};

/* Frees what a library fact holds (not the struct itself). */
void	lib_fact_free(struct lib_fact *l);

/* ------------------------------------------------------------------ host */

/* Which machine a report is about, so merged reports stay attributable
 * (probe/host.c). Each value is clean UTF-8, cut to a bound. */
struct host_facts {
	struct fact_str	 name;		/* /proc/sys/kernel/hostname, else /etc/hostname */
	/* The first 16 hex digits of SHA-256("cudawiz-machine-id:" + the
	 * stripped /etc/machine-id): never the id itself, which systemd
	 * asks programs not to publish. */
	struct fact_str	 machine_id;
	struct fact_str	 kernel;	/* /proc/sys/kernel/osrelease (driver's kernel_release) */
	struct fact_str	 os;		/* PRETTY_NAME of /etc/os-release, else /usr/lib/os-release */
};

/* ----------------------------------------------------------------- facts */

struct facts {
	char		*root;		/* "/" or the --root directory */
	bool		 live_allowed;	/* false under --root */
	/* Bridged from the Windows probe (winprobe/winbridge.h): the
	 * driver's minimums are the matrix's Windows ones, and the paths
	 * are Windows paths. */
	bool		 windows;
	struct host_facts	 host;

	/* NVIDIA display-class PCI devices only. gpus_state is KNOWN when
	 * /sys/bus/pci/devices was read, so an empty list means none. */
	struct fact_str	 gpus_state;
	struct {
		struct gpu_fact	*v;
		size_t		 n, cap;
	} gpus;
	struct driver_facts	driver;
	/* The kernel log (/dev/kmsg), read only when a GPU exists: KNOWN
	 * "read" when read (xids then lists what it held), else why not. */
	struct fact_str	 kmsg_state;
	struct {
		struct xid_group	*v;
		size_t			 n, cap;
	} xids;
	struct {
		struct toolkit_fact	*v;
		size_t			 n, cap;
	} toolkits;
	struct {
		struct cudnn_fact	*v;
		size_t			 n, cap;
	} cudnn;
	struct env_facts	env;
	struct {
		struct lib_fact	*v;
		size_t		 n, cap;
	} libraries;
	/* Python environments (pyfacts.h). python_state is KNOWN once the
	 * probe has looked, so an empty list means none found. */
	struct fact_str	 python_state;
	struct {
		struct py_env	*v;
		size_t		 n, cap;
	} python_envs;
	/* Live verification (vfacts.h): filled by src/verify/ after the
	 * probes, when a command asks for it. */
	struct verify_facts	 verify;
	/* At most FACTS_NOTES_MAX notes, each (path, problem) once; a
	 * hostile tree (100,000 odd names) would otherwise make millions. */
	struct {
		struct probe_note	*v;
		size_t			 n, cap;
		size_t			 dropped;	/* past the cap */
	} notes;
};

#define FACTS_NOTES_MAX	1000

struct facts	*facts_new(const char *root, bool live_allowed);
void		 facts_free(struct facts *f);
void		 facts_note(struct facts *f, const char *path, const char *fmt, ...)
		    __attribute__((format(printf, 3, 4)));

/* Whether a driver is there to talk to: the nvidia module is loaded, or
 * WSL's libraries are (the Windows driver). */
bool		 facts_driver_present(const struct facts *f);

/* The library fact of soname in doctor's list, or NULL. */
const struct lib_fact *facts_library(const struct facts *f, const char *soname);
/* Frees what a toolkit fact holds (not the struct itself), for a probe
 * that builds one and then drops it. */
void		 toolkit_fact_free(struct toolkit_fact *t);
/* The toolkit whose root is path (canonical), or NULL. */
struct toolkit_fact *facts_toolkit_by_root(const struct facts *f, const char *root);

#endif
