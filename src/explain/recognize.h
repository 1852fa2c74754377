/* Recognising pasted error messages: which known messages of the dynamic
 * loader (glibc), the CUDA runtime and driver, cuDNN, NVML, TensorFlow and
 * PyTorch a text holds, and the names and versions each one carries.
 *
 * Pure and table-driven: no I/O, no matrix, no facts. A whole traceback
 * or log gives one match per distinct message (repeats are counted, not
 * listed); text no table knows still gives what could be picked out of
 * it: library names, DLL names, versions, CUDA and cuDNN error names. */
#ifndef CUDAWIZ_EXPLAIN_RECOGNIZE_H
#define CUDAWIZ_EXPLAIN_RECOGNIZE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strv.h"

/* Input beyond this many bytes is not looked at (the caller says so). */
#define EXPLAIN_INPUT_MAX	(1024 * 1024)
/* Distinct matches kept; more are counted in explain.dropped. */
#define EXPLAIN_MATCH_MAX	64
/* Names of each kind picked out of the text. */
#define EXPLAIN_MENTION_MAX	32

enum explain_kind {
	EXPLAIN_DLOPEN_FAILED = 0,	/* TensorFlow: Could not load dynamic library 'X' */
	EXPLAIN_CANNOT_OPEN,		/* glibc: X: cannot open shared object file */
	EXPLAIN_UNDEFINED_SYMBOL,	/* glibc: undefined symbol: S[, version V] */
	EXPLAIN_VERSION_NOT_FOUND,	/* glibc: version `V' not found (required by F) */
	EXPLAIN_WRONG_ELF_CLASS,	/* glibc: wrong ELF class: ELFCLASS32 */
	EXPLAIN_DLL_NOT_FOUND,		/* Windows: cudart64_110.dll not found */
	EXPLAIN_DRIVER_TOO_OLD,		/* cudaErrorInsufficientDriver, PyTorch's "too old" */
	EXPLAIN_DRIVER_MISMATCH,	/* NVML: Driver/library version mismatch */
	EXPLAIN_NO_DRIVER,		/* no libcuda at all */
	EXPLAIN_NO_DEVICE,		/* cudaErrorNoDevice */
	EXPLAIN_STUB_LIBRARY,		/* CUDA_ERROR_STUB_LIBRARY (34) */
	EXPLAIN_NO_KERNEL_IMAGE,	/* cudaErrorNoKernelImageForDevice (209) */
	EXPLAIN_ARCH_UNSUPPORTED,	/* PyTorch: CUDA capability sm_XX is not compatible */
	EXPLAIN_PTX_TOOLCHAIN,		/* cudaErrorUnsupportedPtxVersion (222) */
	EXPLAIN_FORWARD_COMPAT,		/* cudaErrorCompatNotSupportedOnDevice (804) */
	EXPLAIN_CUDNN_VERSION,		/* Loaded runtime CuDNN library: X but … compiled with: Y */
	EXPLAIN_CUDNN_STATUS,		/* CUDNN_STATUS_* */
	EXPLAIN_CUDA_ERROR,		/* another CUDA error this table knows */
	EXPLAIN_DLSYM_MISSING,		/* dlsym: Could not load symbol S from L */
	EXPLAIN_BUILD_CUDA_MISMATCH,	/* PyTorch: detected CUDA version (X) mismatches … (Y) */
	EXPLAIN_TOOLKIT_ARCH,		/* nvcc: Unsupported gpu architecture 'compute_NN' */
	EXPLAIN_PTXAS_VERSION,		/* ptxas: Unsupported .version X; current version is 'Y' */
	EXPLAIN_CAUSE_ELSEWHERE,	/* TensorFlow's "Cannot dlopen some GPU libraries", NCCL's */
	EXPLAIN_OUT_OF_MEMORY,		/* CUDA out of memory, RESOURCE_EXHAUSTED, OOM */
	EXPLAIN_CPU_ONLY_BUILD,		/* Torch not compiled with CUDA enabled */
	EXPLAIN_KIND_COUNT
};

/*
 * One distinct message. Which fields are set depends on the kind:
 *
 *   soname       the library asked for or blamed ("libcudart.so.11.0",
 *                "cudart64_110.dll", "libc.so.6" for a GLIBC_ version)
 *   file         that library's path, when the message gives one
 *   required_by  the object that needed it
 *   symbol       an undefined symbol; version: its version, or the
 *                version not found ("GLIBC_2.34", "libcublasLt.so.11")
 *   found        DRIVER_MISMATCH: the kernel module's version;
 *                CUDNN_VERSION: the cuDNN loaded; DRIVER_TOO_OLD: the
 *                CUDA version the driver supports ("11.4");
 *                WRONG_ELF_CLASS: "ELFCLASS32"
 *   wanted       DRIVER_MISMATCH: the userspace library's version;
 *                CUDNN_VERSION: the cuDNN the program was built with
 *                BUILD_CUDA_MISMATCH: found the toolkit's CUDA (nvcc,
 *                CUDA_HOME), wanted the framework's
 *                PTXAS_VERSION: found the PTX ISA of the input, wanted
 *                the newest ptxas reads
 *                CAUSE_ELSEWHERE: soname "tensorflow" or "nccl"
 *   code/number  the error's name and number ("cudaErrorStubLibrary", 34;
 *                "CUDNN_STATUS_NOT_INITIALIZED", 1001); number -1: none
 *   device, cc, ccs   ARCH_UNSUPPORTED: the GPU, its compute capability
 *                ("8.6") and the code the build has, as the message
 *                writes it ("sm_50", "compute_37"); a ccs entry "3.7+"
 *                is a minimum the message states
 */
struct explain_match {
	enum explain_kind kind;
	size_t		 offset;	/* byte offset of the first one */
	size_t		 line;		/* 1-based line of the first one */
	size_t		 repeats;	/* identical messages folded into it */
	char		*excerpt;	/* that line, cut to a readable length */
	char		*soname;
	char		*file;
	char		*required_by;
	char		*symbol;
	char		*version;
	char		*found;
	char		*wanted;
	char		*code;
	long		 number;
	const char	*meaning;	/* untranslated (N_) meaning of code, or NULL */
	char		*reason;	/* the loader's words after the name */
	char		*ld_library_path; /* TensorFlow prints the one it ran with */
	char		*device;
	char		*cc;
	struct strv	 ccs;
};

struct explain {
	struct {
		struct explain_match	*v;
		size_t			 n, cap;
	} matches;			/* in the order of the text */
	size_t		 dropped;	/* distinct matches beyond EXPLAIN_MATCH_MAX */
	/* Picked out of the whole text, each list sorted and without
	 * repeats, at most EXPLAIN_MENTION_MAX long. */
	struct strv	 sonames;	/* "libcudnn.so.8" */
	struct strv	 dlls;		/* "cudnn64_8.dll" */
	struct strv	 versions;	/* "CUDA 11.8", "cuDNN 8.9.2", "driver 535.104.05" */
	struct strv	 errors;	/* "CUDA_ERROR_NO_DEVICE", "cudaErrorStubLibrary (34)" */
	size_t		 lines;		/* lines looked at */
	size_t		 nontext;	/* control bytes (NUL …) read as blanks */
};

struct lib_fact;

/* What `explain` learned on this machine about the matches, for the rules
 * (rules_explain in diagnose.h): every soname explain_match_sonames()
 * gave, resolved by the loader model; and, per match (parallel to
 * explain.matches, NULL when none was looked for), the files of its
 * library whose version definitions hold the version it names. */
struct explain_facts {
	const struct lib_fact	*libs;
	size_t			 nlibs;
	const struct strv	*defining;
	const struct explain_where *where;	/* per match; NULL: none */
};

/* Where a message happened, per match (cmd_explain.c looks). elsewhere:
 * it names absolute paths and none of them is on this machine (a log
 * pasted from another one); path: the first of them. For an undefined
 * symbol that required_by needs: provider, the soname among its needs
 * (as the loader resolves them here) that should define it, and loaded,
 * the copy of it that loads here and lacks it (NULL when one defines it);
 * the copies that have it are in explain_facts.defining. */
struct explain_where {
	bool	 elsewhere;
	bool	 has_paths;
	char	*path;
	char	*provider;
	char	*loaded;
};

/* Recognises what text (len bytes, not necessarily terminated, any bytes)
 * holds into *out, which the caller zeroes first and frees with
 * explain_free(). */
void	explain_recognise(const char *text, size_t len, struct explain *out);
void	explain_free(struct explain *ex);

/* "dlopen_failed", …: stable, for JSON. */
const char *explain_kind_name(enum explain_kind kind);
/* What the kind of message says, untranslated (N_); pass through _(). */
const char *explain_kind_title(enum explain_kind kind);

/* The sonames a match asks the loader about, for resolving them on this
 * machine: the library it names (never a DLL or a path), and libcuda or
 * NVML for the driver messages. Appended to out without repeats. */
void	explain_match_sonames(const struct explain_match *m, struct strv *out);

/* True for "libX.so", "libX.so.N…": a name the dynamic loader is asked
 * for, without a directory. */
bool	explain_is_soname(const char *name);

#endif
