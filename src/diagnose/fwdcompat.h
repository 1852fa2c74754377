/* Forward compatibility: when the libcuda.so.1 the loader picks is a
 * cuda-compat library, whether it can work here (the GPU, the kernel
 * module), and FORWARD_COMPAT_UNSUPPORTED when it cannot. Internal to
 * src/diagnose; pure. */
#ifndef CUDAWIZ_FWDCOMPAT_H
#define CUDAWIZ_FWDCOMPAT_H

#include "diagnose/diagnose.h"

enum fc_verdict {
	FC_NONE = 0,	/* libcuda.so.1 is no forward-compatibility library */
	FC_WORKS,	/* a supported GPU and kernel module: it is the driver */
	FC_GPU_MAYBE,	/* a professional card: only select SKUs support it */
	FC_GPU,		/* a GPU it does not support: 804 */
	FC_MODULE,	/* a kernel module it does not work with: 803 */
};

enum fc_verdict fc_verdict(const struct facts *facts, const struct matrix *m);
/* The driver version programs meet: a forward-compatibility libcuda that
 * works here (FC_WORKS), else diagnose_driver_version()'s. */
const char	*fc_driver_version(const struct facts *facts,
	    const struct matrix *m, const char **source);
/* The CUDA the compat library runs ("12.4"): the directory's or the
 * package's, else the matrix's for its version; NULL when not known. */
const char	*fc_cuda(const struct facts *facts, const struct matrix *m,
	    char *buf, size_t size);
void		 fc_rule(const struct diagnose_input *in, struct findings *out);

#endif
