/* NVIDIA's redistrib manifests (redistrib_<version>.json) as a second
 * source of matrix data, and the directory listings that name them.
 *
 * A manifest is read into a small struct first and only then applied to a
 * matrix, so a manifest that is wrong anywhere changes nothing. Every field
 * used is checked by type and pattern; the others are ignored, since NVIDIA
 * adds components with each release. */
#ifndef CUDAWIZ_REDISTRIB_H
#define CUDAWIZ_REDISTRIB_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strv.h"

struct matrix;

enum redistrib_kind {
	REDISTRIB_CUDA = 1,
	REDISTRIB_CUDNN,
};

struct redistrib {
	enum redistrib_kind	 kind;
	char			*label;		/* release_label: "12.4.1", "9.10.0" */
	char			*date;		/* release_date, NULL when absent */
	/* CUDA */
	char			*cudart;	/* cuda_cudart.version: "12.4.127" */
	char			*driver;	/* nvidia_driver.version, NULL when absent */
	/* cuDNN */
	char			*cudnn;		/* cudnn.version: "9.10.0.56" */
	struct strv		 cuda_majors;	/* "11", "12", ascending */
};

/* True when the document looks like a manifest rather than a cudawiz
 * matrix: a JSON object with "release_label" or "release_product". Says
 * nothing about whether it is valid. */
bool	redistrib_is_manifest(const char *data, size_t len);

/* Parses a CUDA or cuDNN manifest. On failure returns -1 and sets *err to
 * "JSON.path: what is wrong" (the caller frees it); *r is then empty. */
int	redistrib_parse(const char *data, size_t len, struct redistrib *r,
	    char **err);
void	redistrib_free(struct redistrib *r);

/* Adds what the manifest says to m. Returns 1 when it was added, 0 when the
 * manifest holds nothing the matrix can take (a CUDA manifest without an
 * nvidia_driver component: the matrix needs the driver of each release),
 * and -1 with *err set when the matrix refused it. */
int	redistrib_apply(const struct redistrib *r, struct matrix *m,
	    char **err);

/* Finds every "redistrib_<version>.json" named in an HTML directory listing
 * and appends the file names to names, newest version first, each once.
 * Returns how many were found. */
size_t	redistrib_listing(const char *html, size_t len, struct strv *names);

#endif
