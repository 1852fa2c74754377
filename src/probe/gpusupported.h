/* The installed driver's list of the GPUs it supports
 * (supported-gpus.json): whether a GPU is on a legacy branch, and the
 * name NVIDIA gives it. Internal to src/probe (pci.c). */
#ifndef CUDAWIZ_PROBE_GPUSUPPORTED_H
#define CUDAWIZ_PROBE_GPUSUPPORTED_H

#include "probe/probe.h"

/* The largest supported-gpus.json read; about 0.4 MB today. */
#define GPUSUPPORTED_CAP	(8u * 1024 * 1024)

/*
 * Sets each GPU's legacy_branch from the first supported-gpus.json found
 * ("390" for "390.xx"; absent when the list has the GPU on no legacy
 * branch; unknown when no list is installed or the list lacks the GPU),
 * and, for a GPU with no name yet, *names[i] (malloc'd) the list's name
 * for it. Returns the path read (malloc'd) or NULL. A damaged or huge
 * file becomes a note and is ignored whole.
 */
char	*gpusupported_read(struct probe_ctx *ctx, char **names);

#endif
