/* The reference a machine or a fleet is compared with (--baseline FILE):
 * a spec from `spec export`, or a doctor --json report carrying one. */
#ifndef CUDAWIZ_REFERENCE_H
#define CUDAWIZ_REFERENCE_H

#include <jansson.h>

/* Reads path. Returns the document (the caller json_decref()s it) with
 * *items (spec_items() of its spec) and *host (the reference's host
 * name, or NULL) pointing into it; or NULL with *err (the caller frees):
 * "--baseline FILE: why". */
json_t	*spec_load_reference(const char *path, const json_t **items,
	    const char **host, char **err);

#endif
