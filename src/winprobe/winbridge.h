/* The Windows facts (winfacts.h) in the shared model (facts/facts.h), so
 * that the shared presenters (the spec, the Prometheus view, fleet) see
 * a Windows machine as they see a Linux one. Pure: it reads the struct
 * win_facts and the environment block the probe was given, nothing else.
 *
 * What means the same on both is carried over: the display adapters as
 * GPUs, nvcuda.dll's version as the userspace driver (libcuda's role),
 * the adapter's DriverVersion as the kernel driver's (the module's
 * role), the toolkits, the cuDNN copies, PATH and the CUDA variables,
 * the Python installs and their frameworks with the DLLs each loads.
 * Every path is a Windows path ("C:\Program Files\NVIDIA GPU Computing
 * Toolkit\CUDA\v12.6"), as the user reads it and as a Windows spec's
 * keys name environments. What only Linux has (the kernel module's
 * files, DKMS, Secure Boot's MOK, the ld.so cache, LD_LIBRARY_PATH) is
 * left unknown with the reason "not on Windows", never invented. */
#ifndef CUDAWIZ_WINPROBE_WINBRIDGE_H
#define CUDAWIZ_WINPROBE_WINBRIDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "diagnose/rules_windows_verify.h"
#include "facts/facts.h"
#include "winprobe/winfacts.h"

struct json_t;
struct matrix;

/* One run of cudawiz-verify.exe (win/cmd_verify.h) as the bridge takes
 * it: how it ended and the records it wrote (a JSON array of objects,
 * docs/VERIFY.md; NULL: none). */
struct winbridge_vrun {
	const struct wv_run	*run;
	const struct json_t	*records;
};

/* A new struct facts (facts_free) for wf; envp is the environment block
 * the probe ran with (NULL-terminated "NAME=value", names matched
 * without case; NULL: empty), os the system's name from the registry
 * ("Windows 10 Pro, build 19045"; NULL: "Windows"). f->windows is set,
 * so diagnose_annotate() takes the driver's minimums from the matrix's
 * Windows column. */
struct facts	*winbridge_facts(const struct win_facts *wf, char *const *envp,
		    const char *os);

/* The live checks' runs into f->verify, state "ran": each run's kind,
 * DLL and records as Linux's helper's would be, so that the shared
 * presenters read the checks and their figures. How a run ended is
 * carried where Linux has the same end (done, exited with its code,
 * timed out, not started); a crash, which on Windows is an NTSTATUS and
 * no signal, is VERIFY_SIGNALLED with signal 0. ms: all runs. */
void		winbridge_verify(struct facts *f, const struct winbridge_vrun *runs,
		    size_t n, const char *helper, double timeout_s, bool quick,
		    double ms);

/* "11.2" from TensorFlow's Windows build_info "64_112" (the DLL suffix
 * form); the string itself when it is already "12.1"; NULL for NULL or
 * a form not known. Owned. */
char		*winbridge_tf_cuda(const char *v);

#endif
