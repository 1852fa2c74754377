/* diagnose: pure functions from facts and the matrix to findings. No I/O
 * of any kind: what the rules need of the world (the time, when the matrix
 * was last refreshed) comes in through struct diagnose_input. */
#ifndef CUDAWIZ_DIAGNOSE_H
#define CUDAWIZ_DIAGNOSE_H

#include <time.h>

#include "diagnose/finding.h"
#include "facts/facts.h"

struct matrix;

struct diagnose_input {
	const struct facts	*facts;
	const struct matrix	*matrix;
	time_t			 now;
	time_t			 matrix_checked; /* last refresh that reached the network; 0: never */
	/* doctor --baseline: the reference machine's spec items (a
	 * spec_items() object, spec/specdiff.h) and its host name (NULL:
	 * not named); baseline NULL: no reference, no DRIFT_* finding. */
	const struct json_t	*baseline;
	const char		*baseline_host;
};

/* Runs every rule and appends what they find, sorted. */
void	diagnose(const struct diagnose_input *in, struct findings *out);

/* Adds what the matrix knows to facts: each GPU's compute capability, and
 * which CUDA the driver runs. Pure: reads nothing but its arguments. */
void	diagnose_annotate(struct facts *facts, const struct matrix *m);
/* The driver version in use: the kernel module's, else the userspace
 * libcuda's; *source names where it came from. NULL when unknown. */
const char *diagnose_driver_version(const struct facts *facts,
	    const char **source);
/* The evidence every finding gives for what driver DRV runs: the newest
 * CUDA release and the major minor-version compatibility carries, in one
 * wording, so a report can state it once. Nothing when DRV is not the
 * driver diagnose_driver_version() names. */
void	diagnose_reach_evidence(const struct facts *facts, const char *drv,
	    struct strv *out);

/* The rule families, each in its own file. */
void	rules_gpu(const struct facts *facts, struct findings *out);	/* rules_gpu.c */
/* PCIe link and the kernel log's Xid reports. */
void	rules_hw(const struct facts *facts, struct findings *out);	/* rules_hw.c */
/* Secure Boot refusing the module; called by rules_gpu, whose "not
 * loaded" finding it replaces. Returns whether it fired. */
bool	rules_hw_secure_boot(const struct facts *facts, struct findings *out);
void	rules_env(const struct facts *facts, struct findings *out);	/* rules_env.c */
void	rules_toolkit(const struct facts *facts, struct findings *out);	/* rules_toolkit.c */
void	rules_toolkit_builds(const struct diagnose_input *in, struct findings *out); /* rules_toolkit.c */
void	rules_loader(const struct diagnose_input *in, struct findings *out);	/* rules_loader.c */
/* The findings about one resolved library alone (not found, off the
 * search path, stub, broken, spoofed name, version mismatch): doctor runs
 * it for every library, `explain` for the sonames a message names. */
void	rules_library(const struct diagnose_input *in, const struct lib_fact *lib,
	    struct findings *out);
void	rules_matrix(const struct diagnose_input *in, struct findings *out); /* rules_matrix.c */
void	rules_newer(const struct diagnose_input *in, struct findings *out); /* rules_newer.c */
/* Python environments and their frameworks. */
void	rules_python(const struct diagnose_input *in, struct findings *out); /* rules_python.c */
/* What live verification (facts->verify) proved or disproved; runs after
 * the others, whose findings it adds live evidence to. */
void	rules_verify(const struct diagnose_input *in, struct findings *out); /* rules_verify.c */
/* One DRIFT_* finding per spec item that differs from in->baseline. */
void	rules_drift(const struct diagnose_input *in, struct findings *out); /* rules_drift.c */
struct explain; struct explain_facts;	/* explain/recognize.h */
void	rules_explain(const struct diagnose_input *in, const struct explain *ex,
	    const struct explain_facts *xf, struct findings *out); /* rules_explain.c */

#endif
