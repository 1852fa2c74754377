/* The Python rules' shared parts; each family lives in its own file:
 * rules_python.c (the entry, CPU-only builds and each need's loader
 * answer), rules_python_env.c (an environment's packages: conda and pip CUDA
 * packages that conflict, pins a framework's metadata states),
 * rules_python_fwgpu.c (what the GPU and the driver say about a build: its
 * architectures, its runtime's driver), rules_python_fix.c (which build fits
 * this machine, and the pip, conda and driver lines that install it).
 * Internal to src/diagnose. */
#ifndef CUDAWIZ_RULES_PYTHON_INT_H
#define CUDAWIZ_RULES_PYTHON_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "diagnose/diagnose.h"
#include "diagnose/rules_install_plan.h"
#include "matrix/matrix.h"

/* What every Python rule reads, set up once by rules_python(). */
struct pr_ctx {
	struct ip_ctx			 ip;		/* for rules_install_plan.h */
	const struct facts		*facts;
	const struct matrix		*m;		/* NULL: no matrix */
	struct findings			*out;
	const char			*drv;		/* the driver's version; NULL unknown (WSL too) */
	const char			*drv_src;
	struct matrix_driver_reach	 reach;
	bool				 have_reach;	/* reach.highest says what the driver runs */
	const struct gpu_fact		*gpu;		/* the first GPU whose cc is known; NULL */
};

/* What a build must be for a fix to offer it. */
struct pr_want {
	const char	*cc;		/* carries code for this compute capability; NULL any */
	const char	*not_cuda;	/* not the build made with this CUDA (the one installed) */
};

/* A build to install: the matrix row and build, and the package it is. */
struct pr_pick {
	const struct matrix_framework	*row;
	const struct matrix_build	*build;
	char				 package[32];	/* "torch", "cupy-cuda12x" */
	bool				 driver_short;	/* the driver runs none that fits */
};

/* rules_python.c: what every rule reads, from the diagnose input (also
 * for rules_toolkit.c's extension-build rule, which offers builds). */
void	 pr_ctx_init(struct pr_ctx *c, const struct diagnose_input *in,
	    struct findings *out);

/* rules_python_fix.c */
char	*pr_env_words(const struct py_env *e);
char	*pr_fw_words(const struct framework_fact *fw);
void	 pr_commentf(struct finding *f, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
bool	 pr_release(const char *version, char *buf, size_t n);
bool	 pr_major_minor(const char *version, char *buf, size_t n);
bool	 pr_cc_parse(const char *cc, unsigned *major, unsigned *minor);
bool	 pr_code_parse(const char *code, const char *prefix, unsigned *major,
	    unsigned *minor, bool *arch_specific);
bool	 pr_sass_runs(const char *sm, unsigned major, unsigned minor);
bool	 pr_ccs_cover(const struct strv *ccs, const char *cc);
bool	 pr_machine_has_gpu(const struct facts *facts);
bool	 pr_machine_no_gpu(const struct facts *facts);
void	 pr_gpu_evidence(struct finding *f, const struct facts *facts);
bool	 pr_from_conda(const struct py_env *e, const char *package);
/* Command lines, every word quoted: PYTHON -m pip WORDS (the
 * environment's own interpreter), conda VERB -p PREFIX WORDS (the first
 * word is the verb); a NULL ends the words. */
enum pr_tool {
	PR_PIP = 0,
	PR_CONDA,
};
char	*pr_cmdv(enum pr_tool tool, const struct py_env *e,
	    const struct strv *words);
char	*pr_cmd(enum pr_tool tool, const struct py_env *e, ...)
	    __attribute__((sentinel));
#define pr_pip(e, ...)		pr_cmd(PR_PIP, (e), __VA_ARGS__)
#define pr_conda(e, ...)	pr_cmd(PR_CONDA, (e), __VA_ARGS__)
#define pr_pipv(e, words)	pr_cmdv(PR_PIP, (e), (words))
void	 pr_fix_list(struct finding *f, enum pr_tool tool, const struct py_env *e,
	    const char *const *words, const struct strv *names);
unsigned pr_wheel_major(const struct pr_ctx *c, const char *package);
const struct py_package *pr_wheel_of(const struct pr_ctx *c,
	    const struct py_env *e, const char *path);
void	 pr_fix_wheel_dir(const struct pr_ctx *c, struct finding *f,
	    const struct py_env *e, const char *wheel);
void	 pr_fix_install_lib(const struct pr_ctx *c, struct finding *f,
	    const struct py_env *e, const char *soname, const char *want,
	    unsigned major, bool from_any);
const struct matrix_framework *pr_fw_row(const struct pr_ctx *c,
	    const struct framework_fact *fw);
bool	 pr_pick_build(const struct pr_ctx *c, const struct framework_fact *fw,
	    const struct pr_want *w, struct pr_pick *out);
void	 pr_fix_build(const struct pr_ctx *c, struct finding *f,
	    const struct py_env *e, const struct framework_fact *fw,
	    const struct pr_pick *p);
void	 pr_fix_driver(const struct pr_ctx *c, struct finding *f, const char *cuda,
	    const char *min);

/* rules_python_env.c */
bool	 pr_pin_broken(const struct py_env *e, const struct framework_fact *fw,
	    const char *package);
void	 pr_rules_env(const struct pr_ctx *c, const struct py_env *e);

/* rules_python_fwgpu.c */
bool	 pr_loaded_version(const struct pr_ctx *c, const struct py_env *e,
	    const struct fw_need *n, char *buf, size_t len, char **source);
void	 pr_rule_arch(const struct pr_ctx *c, const struct py_env *e,
	    const struct framework_fact *fw);
void	 pr_rule_startup(const struct pr_ctx *c, const struct py_env *e,
	    const struct framework_fact *fw);
void	 pr_rule_driver(const struct pr_ctx *c, const struct py_env *e,
	    const struct framework_fact *fw);

#endif
