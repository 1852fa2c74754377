/* The one place that writes package install lines (pip, conda, apt) for
 * CUDA libraries and frameworks: each call names what is wanted, the
 * catalogue of what was published (the matrix's published[] rows) says
 * whether it exists, and only then is the command written; otherwise the
 * caller says in words what to do instead (issue 18: every command printed
 * must exist). Internal to src/diagnose; pure. */
#ifndef CUDAWIZ_FIXCMD_H
#define CUDAWIZ_FIXCMD_H

#include <stdbool.h>
#include <stddef.h>

#include "diagnose/diagnose.h"
#include "matrix/matrix.h"

struct py_env;

/* One package wanted. Versions: pin (one version, or "8.*" style) or the
 * bounds min/max (either NULL: unbounded; max matches by prefix, so "7"
 * is every 7.x); all NULL: any version. */
struct fix_want {
	const char	*channel;	/* "pip", "conda-forge", "nvidia", "apt" */
	const char	*package;	/* "nvidia-cudnn-cu12", "cudnn" */
	const char	*min;
	const char	*max;
	const char	*pin;
	const char	*index_url;	/* pip: NULL is PyPI */
	bool		 upgrade;	/* pip: "install --upgrade"; apt: "--only-upgrade" */
};

/* Whether the catalogue holds w (MATRIX_YES), knows it does not
 * (MATRIX_NO), or has no catalogue (MATRIX_UNKNOWN). */
enum matrix_answer fixcmd_published(const struct matrix *m,
	    const struct fix_want *w);

/* One install line for the n packages of want (one channel, the first's),
 * with e's own interpreter or conda when e is given, else "pip install",
 * "conda install -c CH", "sudo apt-get install"; written only when every
 * package is published. Returns whether it was written. */
bool	fixcmd_install(const struct matrix *m, struct finding *f,
	    const struct py_env *e, const struct fix_want *want, size_t n);

/* cuDNN major cudnn_major (at least min_version when given) for one of
 * the CUDA majors (best first; none: every major the catalogue has) as a
 * wheel; when none was published, the words that say so and the real
 * alternatives (conda-forge's pair, NVIDIA's archive). */
void	fixcmd_cudnn(const struct matrix *m, struct finding *f,
	    const struct py_env *e, unsigned cudnn_major, const char *min_version,
	    const unsigned *cuda_majors, size_t n);
/* The CUDA runtime of CUDA major (at least min, "10.1", when given): the
 * wheel where one was published, else the words, conda's cudatoolkit
 * where published and NVIDIA's archive. */
void	fixcmd_cudart(const struct matrix *m, struct finding *f,
	    const struct py_env *e, unsigned cuda_major, const char *min);

/* The pip version spec of w ("==8.*", ">=7.6.5,<8", ""), owned. */
char	*fixcmd_pip_spec(const struct fix_want *w);

#endif
