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

#include "facts/facts.h"
#include "winprobe/winfacts.h"

struct matrix;

/* A new struct facts (facts_free) for wf; envp is the environment block
 * the probe ran with (NULL-terminated "NAME=value", names matched
 * without case; NULL: empty), os the system's name from the registry
 * ("Windows 10 Pro, build 19045"; NULL: "Windows"). f->windows is set,
 * so diagnose_annotate() takes the driver's minimums from the matrix's
 * Windows column. */
struct facts	*winbridge_facts(const struct win_facts *wf, char *const *envp,
		    const char *os);

/* "11.2" from TensorFlow's Windows build_info "64_112" (the DLL suffix
 * form); the string itself when it is already "12.1"; NULL for NULL or
 * a form not known. Owned. */
char		*winbridge_tf_cuda(const char *v);

#endif
