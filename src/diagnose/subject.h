/* A finding's one-line subject (finding.h), in the same words for every
 * rule: "torch 2.5.1+cu124 in /opt/venv needs libcudart.so.12", "GPU 0
 * NVIDIA H100 80GB HBM3", "driver 470.256.02". Plain names, versions and
 * paths; never a sentence. Internal to src/diagnose. */
#ifndef CUDAWIZ_SUBJECT_H
#define CUDAWIZ_SUBJECT_H

#include "diagnose/finding.h"
#include "facts/facts.h"
#include "facts/pyfacts.h"

/* "nvidia-cudnn-cu12 9.1.0.70 in /opt/venv": what and where are words. */
void	subj_in(struct finding *f, const char *what, const char *where);
/* "torch 2.5.1+cu124 in /opt/venv" */
void	subj_fw(struct finding *f, const struct py_env *e,
	    const struct framework_fact *fw);
/* "torch 2.5.1+cu124 in /opt/venv needs libcudart.so.12" */
void	subj_fw_needs(struct finding *f, const struct py_env *e,
	    const struct framework_fact *fw, const char *soname);
/* "torch 2.5.1, cupy 13.0 in /opt/venv needs libcudart.so.12": who is
 * already words. */
void	subj_who_needs(struct finding *f, const char *who, const char *where,
	    const char *soname);
/* Who needs soname, of the frameworks the facts know: the first one's
 * words (and "others" when more do); soname alone when none does. */
void	subj_soname(struct finding *f, const struct facts *facts,
	    const char *soname);
/* "LD_LIBRARY_PATH entry /usr/local/cuda-11.8/lib64" (and "and 2 more"
 * when n > 1 entries are meant). */
void	subj_entry(struct finding *f, const char *var, const char *value,
	    size_t n);
/* "GPU 0 NVIDIA H100 80GB HBM3": its place in the facts and its name
 * (the PCI address when the name is not known). */
void	subj_gpu(struct finding *f, const struct facts *facts,
	    const struct gpu_fact *g);
/* "driver 470.256.02"; "the NVIDIA driver" when the version is NULL. */
void	subj_driver(struct finding *f, const char *version);
/* "CUDA 12.4 toolkit in /usr/local/cuda-12.4" (the version when known). */
void	subj_toolkit(struct finding *f, const struct toolkit_fact *t);

#endif
