/* The explain rules' shared parts; each family of messages lives in its
 * own file: rules_explain.c (the entry, the helpers every family uses,
 * and LD_LIBRARY_PATH lines), rules_explain_library.c (a library that is
 * missing, too old, of the wrong class, or a DLL),
 * rules_explain_driver.c (the driver: too old, mismatched, no GPU, the
 * stub), rules_explain_gpu.c (the GPU's architecture, PTX, forward
 * compatibility), rules_explain_cudnn.c (cuDNN versions and status
 * codes), rules_explain_symbol.c (a symbol a library lacks, read the
 * right way round), rules_explain_elsewhere.c (a message from another
 * machine), rules_explain_build.c (extension builds, nvcc, ptxas),
 * rules_explain_runtime.c (out of memory, program errors, messages whose
 * cause is in another log). Internal to src/diagnose. */
#ifndef CUDAWIZ_RULES_EXPLAIN_INT_H
#define CUDAWIZ_RULES_EXPLAIN_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "diagnose/diagnose.h"
#include "diagnose/rules_install_plan.h"
#include "explain/recognize.h"
#include "util/strv.h"

#define EVIDENCE_MAX	12

struct ctx {
	const struct diagnose_input	*in;
	const struct facts		*facts;
	const struct matrix		*m;	/* may be NULL */
	const struct explain		*ex;
	const struct explain_facts	*xf;
	struct ip_ctx			 ip;	/* facts and m, for install plans */
	struct findings			*out;
	struct findings			 machine;	/* rules_gpu + rules_matrix */
	bool				 adopted[FINDING_COUNT];
	struct strv			 libs_done;	/* sonames rules_library ran for */
	bool				 arch_done;
};

/* rules_explain.c */
struct finding *rx_adopt(struct ctx *c, enum finding_code code,
    const struct explain_match *m);
void	rx_driver_evidence(const struct ctx *c, struct finding *f);
const char *rx_driver_version(const struct ctx *c, const char **src);
bool	rx_drop_compat(const char *dir, const void *arg);
bool	rx_drop_dir(const char *dir, const void *arg);
bool	rx_drop_stubs(const char *dir, const void *arg);
void	rx_fix_drop_dir_of(const struct ctx *c, struct finding *f,
    const char *path, const char *comment);
struct finding *rx_have(const struct ctx *c, enum finding_code code);
const struct lib_fact *rx_lib_named(const struct ctx *c, const char *soname);
size_t	rx_library_rules(struct ctx *c, const char *soname,
    const struct explain_match *m);
void	rx_message_evidence(struct finding *f, const struct explain_match *m);
void	rx_plan_for_not_found(struct ctx *c, size_t from, const char *soname);
void	rx_resolution_evidence(struct finding *f, const struct lib_fact *lib);
bool	rx_streq(const char *a, const char *b);
void	rx_explain_kind(struct ctx *c, const struct explain_match *m);
const char *rx_defining(const struct ctx *c, const struct explain_match *m);
const struct explain_where *rx_where(const struct ctx *c,
    const struct explain_match *m);

/* rules_explain_library.c */
bool	rx_driver_library(struct ctx *c, const struct explain_match *m);
void	rx_explain_dll(struct ctx *c, const struct explain_match *m);
void	rx_explain_soname(struct ctx *c, const struct explain_match *m);
void	rx_explain_version(struct ctx *c, const struct explain_match *m);
void	rx_explain_wrong_class(struct ctx *c, const struct explain_match *m);

/* rules_explain_symbol.c */
void	rx_explain_dlsym(struct ctx *c, const struct explain_match *m);
bool	rx_explain_symbol_provider(struct ctx *c, const struct explain_match *m);

/* rules_explain_elsewhere.c */
void	rx_explain_elsewhere(struct ctx *c, const struct explain_match *m);

/* rules_explain_driver.c */
void	rx_explain_driver_old(struct ctx *c, const struct explain_match *m);
void	rx_explain_mismatch(struct ctx *c, const struct explain_match *m);
void	rx_explain_no_gpu(struct ctx *c, const struct explain_match *m);
void	rx_explain_stub(struct ctx *c, const struct explain_match *m);
const char *rx_needed_driver(const struct ctx *c, const char **cuda);
void	rx_toolkit_need_evidence(const struct ctx *c, struct finding *f);

/* rules_explain_gpu.c */
void	rx_explain_arch(struct ctx *c, const struct explain_match *m);
void	rx_explain_forward_compat(struct ctx *c, const struct explain_match *m);
void	rx_explain_ptx(struct ctx *c, const struct explain_match *m);
const struct gpu_fact *rx_first_gpu_with_cc(const struct facts *facts);

/* rules_explain_cudnn.c */
void	rx_explain_cudnn_status(struct ctx *c, const struct explain_match *m);
void	rx_explain_cudnn_version(struct ctx *c, const struct explain_match *m);

/* rules_explain_build.c */
void	rx_explain_build_cuda(struct ctx *c, const struct explain_match *m);
void	rx_explain_ptxas(struct ctx *c, const struct explain_match *m);
void	rx_explain_toolkit_arch(struct ctx *c, const struct explain_match *m);

/* rules_explain_runtime.c */
void	rx_explain_cpu_only(struct ctx *c, const struct explain_match *m);
void	rx_explain_cuda_error(struct ctx *c, const struct explain_match *m);
void	rx_explain_incomplete(struct ctx *c, const struct explain_match *m);
void	rx_explain_oom(struct ctx *c, const struct explain_match *m);

#endif
